"""Greedy generation from a Hugging Face causal LM with a static KV cache.

    gen = xtile.generation.Generator(model, max_cache_len=128)
    ids = gen.generate(prompt, max_new_tokens=64)   # as model.generate(...)

The cache is HF's StaticCache layout: per layer, keys and values of
[batch, kv_heads, max_cache_len, head_dim], preallocated, written in place
at the current positions (`index_copy_`), attended with a mask over the
valid prefix. One step of the model is a function of the token ids, their
positions and the cache tensors, and returns the last position's logits;
the cache updates are its in-place assignments to its inputs. Its shapes
depend only on the batch, the number of new tokens and max_cache_len, so
the prefill (the prompt's length) and the decode step (one token) are
each compiled once and reused for every step and every call. The
prefill is imported once for every prompt length (a dynamic size). The
decode step attends to a prefix of the cache, its length a dynamic size
(`span`: the valid positions rounded up to a power of two, at least 64),
so that a step reads the keys and values it needs, not the whole cache.

With kv_cache_dtype=torch.float8_e4m3fn the cache holds e4m3 keys and
values with one f32 scale per token and head (its amax over the head
dimension / 448, taken when the token is written): the step writes the
quantized values and their scales in place and attends to their
dequantized products (docs/Frontend.md, "fp8 KV cache")."""
import torch

from . import Compiled, UnsupportedError
from .importer import DynamicSizeError

__all__ = ["CacheStep", "Generator"]


class CacheStep(torch.nn.Module):
    """model(input_ids, cache_position) over a static KV cache whose
    tensors are the step's inputs (keys then values of each layer): the
    step writes the new keys and values into them in place, as HF's
    StaticCache does, and returns the logits of the last position."""

    def __init__(self, model, max_cache_len, kv_cache_dtype=None, prefix=False):
        """prefix: the step takes a third input, `span`, whose length L is
        the number of cache positions it attends to (the first L: the
        valid ones and masked ones after them); it reads no key or value
        past them. Otherwise it attends to all max_cache_len positions."""
        super().__init__()
        self.model, self.max_cache_len = model, max_cache_len
        self.prefix = prefix
        if kv_cache_dtype not in (None, torch.float8_e4m3fn):
            raise UnsupportedError(
                f"a KV cache of {kv_cache_dtype} is not supported (the model's dtype, "
                "or torch.float8_e4m3fn with per-token scales)")
        self.kv_cache_dtype = kv_cache_dtype
        self.cache_shapes = self._cache_shapes()

    def _new_cache(self):
        from transformers import StaticCache
        from transformers.cache_utils import StaticLayer
        cache = StaticCache(config=self.model.config, max_cache_len=self.max_cache_len)
        for layer in cache.layers:
            if type(layer) is not StaticLayer:
                raise UnsupportedError(
                    f"a KV cache layer of type {type(layer).__name__} is not supported "
                    "(xtile's static cache takes full-attention layers, StaticLayer)")
        return cache

    def _cache_shapes(self):
        config = self.model.config.get_text_config()
        heads = config.num_attention_heads
        kv_heads = getattr(config, "num_key_value_heads", None) or heads
        head_dim = getattr(config, "head_dim", None) or config.hidden_size // heads
        return [(kv_heads, self.max_cache_len, head_dim)] * len(self._new_cache().layers)

    @property
    def tensors_per_layer(self):
        """Cache tensors per layer: keys and values, and with an fp8 cache
        their scales."""
        return 4 if self.kv_cache_dtype is not None else 2

    def new_cache(self, batch, dtype, device):
        """Zeroed cache tensors for `batch` sequences: each layer's keys and
        values, [batch, kv_heads, max_cache_len, head_dim] (with an fp8
        cache, of kv_cache_dtype, followed by the keys' and the values'
        scales, f32 [batch, kv_heads, max_cache_len, 1])."""
        if self.kv_cache_dtype is None:
            return [torch.zeros((batch,) + shape, dtype=dtype, device=device)
                    for shape in self.cache_shapes for _ in ("keys", "values")]
        cache = []
        for shape in self.cache_shapes:
            values = [torch.zeros((batch,) + shape, dtype=self.kv_cache_dtype,
                                  device=device) for _ in ("keys", "values")]
            scales = [torch.zeros((batch,) + shape[:-1] + (1,), dtype=torch.float32,
                                  device=device) for _ in ("keys", "values")]
            cache += values + scales
        return cache

    @staticmethod
    def _fp8_update(layer, keys, values, key_scales, value_scales):
        """StaticLayer.update over an e4m3 cache: each new token's keys and
        values quantized per head (scale = amax over the head dimension /
        448, e4m3's largest value), written in place with their scales;
        returns the whole cache dequantized in the states' dtype."""
        def update(key_states, value_states, *args, **kwargs):
            n = key_states.shape[-2]
            position = torch.arange(n, device=keys.device) + layer.cumulative_length
            layer.cumulative_length.add_(n)
            out = []
            for store, scales, states in ((keys, key_scales, key_states),
                                          (values, value_scales, value_states)):
                wide = states.float()
                scale = wide.abs().amax(-1, keepdim=True).clamp(min=1e-12) / 448.0
                quantized = (wide / scale).to(store.dtype)
                try:
                    store.index_copy_(2, position, quantized)
                except NotImplementedError:
                    # As StaticLayer falls back (eager PyTorch has no
                    # index_copy_ of fp8 on the CPU).
                    store[:, :, position] = quantized
                scales.index_copy_(2, position, scale)
                out.append((store.float() * scales).to(states.dtype))
            return tuple(out)
        return update

    @staticmethod
    def _prefix_of(layer, update, span):
        """`update` returning the first span.shape[0] positions of the
        cache, and the mask over as many."""
        def prefix_update(key_states, value_states, *args, **kwargs):
            length = span.shape[0]
            kept = torch.arange(length, device=key_states.device)
            return tuple(t.index_select(2, kept)
                         for t in update(key_states, value_states, *args, **kwargs))
        layer.update = prefix_update
        layer.get_mask_sizes = lambda *args, **kwargs: (span.shape[0], 0)

    def forward(self, input_ids, cache_position, *cache):
        span = None
        if self.prefix:
            span, cache = cache[0], cache[1:]
        static = self._new_cache()
        per = self.tensors_per_layer
        for i, layer in enumerate(static.layers):
            keys, values = cache[per * i], cache[per * i + 1]
            layer.keys, layer.values = keys, values
            layer.device = keys.device
            layer.batch_size, layer.num_heads = keys.shape[:2]
            layer.k_head_dim, layer.v_head_dim = keys.shape[-1], values.shape[-1]
            # The layer writes at cumulative_length + arange(new tokens).
            layer.cumulative_length = cache_position[0].clone()
            layer.is_initialized = True
            if self.kv_cache_dtype is not None:
                layer.update = self._fp8_update(layer, keys, values,
                                                cache[per * i + 2], cache[per * i + 3])
            if span is not None:
                self._prefix_of(layer, layer.update, span)
        out = self.model(input_ids=input_ids, cache_position=cache_position,
                         past_key_values=static, use_cache=True, logits_to_keep=1)
        return out.logits


class Generator:
    """Greedy generation from `model` (a HF causal LM) through xtile, with
    a static KV cache of max_cache_len positions. The prefill of each
    batch size is imported and compiled once over a dynamic prompt length
    where it can be (see _prefill); the
    decode step of each batch size is compiled once. All are kept:
    `num_compiles` counts them."""

    def __init__(self, model, max_cache_len, backend=None, target="sm_90",
                 allow_tf32=None, cuda_graphs=None, kv_cache_dtype=None):
        """cuda_graphs: replay each batch size's decode step from a CUDA
        graph (Compiled.graphed, captured on its first step with the
        cache in place): by default, wherever the backend is cuda.
        kv_cache_dtype: torch.float8_e4m3fn for an e4m3 cache with per-token
        scales (CacheStep); by default the model's dtype."""
        self.model = model.eval()
        self.step = CacheStep(self.model, max_cache_len, kv_cache_dtype)
        self.decode_step = CacheStep(self.model, max_cache_len, kv_cache_dtype,
                                     prefix=True)
        self.max_cache_len = max_cache_len
        self.options = dict(backend=backend, target=target, allow_tf32=allow_tf32)
        self.dtype = next(model.parameters()).dtype
        self.prefills, self.decodes = {}, {}
        self.static_prefills = set()   # batch sizes whose prompt length is static
        self.full_decodes = set()      # batch sizes whose decode reads the whole cache
        self.spans = {}                # span tensors by (length, device)
        self.cuda_graphs = cuda_graphs
        # Per batch size: the decode step's graph and the cache it was
        # captured on, which every later generate() of that batch reuses.
        self.graphs, self.caches = {}, {}

    def _compiled(self, table, key, ids, positions, cache, dynamic_shapes=None,
                  step=None):
        if key not in table:
            table[key] = Compiled(step or self.step, (ids, positions, *cache),
                                  dynamic_shapes=dynamic_shapes, **self.options)
        return table[key]

    def _prefill(self, ids, positions):
        """The prefill for this batch size: imported and compiled once over
        a dynamic prompt length; or, where the model cannot be imported
        with a dynamic length (a size that is an expression of the length
        but not a polynomial of it), compiled per (batch,
        prompt length)."""
        batch, prompt = ids.shape
        known = self.prefills.get((batch, prompt) if batch in self.static_prefills
                                  else batch)
        if known is not None:
            return known
        # Example cache tensors for the export only: allocated when compiling.
        example = self.step.new_cache(batch, self.dtype, "cpu")
        if batch not in self.static_prefills:
            length = torch.export.Dim("S", min=1, max=self.max_cache_len)
            try:
                return self._compiled(self.prefills, batch, ids, positions, example,
                                      ({1: length}, {0: length}, (None,) * len(example)))
            except DynamicSizeError:
                self.static_prefills.add(batch)
        return self._compiled(self.prefills, (batch, prompt), ids, positions, example)

    def _graphs(self, compiled):
        if self.cuda_graphs is not None:
            return self.cuda_graphs
        return compiled.backend == "cuda"

    def _cache(self, batch, prefill):
        """The cache for a generation of `batch` sequences, zeroed: with
        CUDA graphs, the one the batch's decode graph was captured on."""
        cache = self.caches.get(batch)
        if cache is None or cache[0].device != prefill.device:
            return self.step.new_cache(batch, self.dtype, prefill.device)
        for t in cache:
            t.zero_()
        return cache

    def span(self, position):
        """The cache positions a decode step at `position` attends to: the
        valid ones (position + 1) rounded up to a power of two, at least
        64 and at most max_cache_len. A step reads under twice the keys
        and values it needs, and CUDA graphs are captured for a few
        lengths only."""
        need = max(position + 1, 64)
        return min(1 << (need - 1).bit_length(), self.max_cache_len)

    def _span_tensor(self, length, device):
        key = (length, str(device))
        if key not in self.spans:
            self.spans[key] = torch.empty(length, device=device)
        return self.spans[key]

    def _decode(self, batch, ids, positions, cache):
        """The decode step of this batch size and the inputs it takes:
        compiled once over the span of the cache it attends to (or, where
        the model cannot be imported so, over the whole cache), and with
        CUDA graphs captured once per span length on this cache (kept for
        later calls)."""
        inputs = cache
        if batch not in self.full_decodes:
            span = self._span_tensor(self.span(int(positions[-1])), cache[0].device)
            length = torch.export.Dim("L", min=1, max=self.max_cache_len)
            try:
                fn = self._compiled(self.decodes, batch, ids, positions, (span, *cache),
                                    (None, None, ({0: length},) + (None,) * len(cache)),
                                    step=self.decode_step)
                inputs = (span, *cache)
            except DynamicSizeError:
                self.full_decodes.add(batch)
        if batch in self.full_decodes:
            fn = self._compiled(self.decodes, batch, ids, positions, cache)
        if not self._graphs(fn):
            return fn, inputs
        key = (batch, inputs[0].shape[0] if inputs is not cache else None)
        graph = self.graphs.get(key)
        if graph is None or self.caches.get(batch) is not cache:
            if self.caches.get(batch) is not cache:
                self.graphs = {k: g for k, g in self.graphs.items() if k[0] != batch}
            graph = fn.graphed(ids, positions, *inputs,
                               static=range(2, 2 + len(inputs)))
            self.graphs[key], self.caches[batch] = graph, cache
        return graph, inputs

    def decode_launches(self, batch=1, position=None):
        """Kernel launches of one decode step of `batch` sequences at
        `position` (by default the cache's last; a CUDA graph replays them
        with one launch of the graph), after a generate() of that batch
        size."""
        fn = self.decodes[batch]
        if batch in self.full_decodes:
            return fn.launches()
        if position is None:
            position = self.max_cache_len - 1
        return fn.launches({"L": self.span(position)})

    @property
    def num_compiles(self):
        return sum(c.num_compiles for c in
                   list(self.prefills.values()) + list(self.decodes.values()))

    def generate(self, input_ids, max_new_tokens, eos_token_id=None, pad_token_id=None):
        """The prompt followed by up to max_new_tokens greedy tokens, as
        model.generate(input_ids, max_new_tokens=..., do_sample=False)
        makes them: a sequence that has produced eos_token_id (default: the
        model's generation config) is padded with pad_token_id after it,
        and generation stops when every sequence has."""
        batch, prompt = input_ids.shape
        if prompt + max_new_tokens > self.max_cache_len:
            raise ValueError(
                f"xtile: a prompt of {prompt} tokens and {max_new_tokens} new ones need "
                f"{prompt + max_new_tokens} cache positions; the cache has "
                f"max_cache_len={self.max_cache_len}")
        config = getattr(self.model, "generation_config", None)
        if eos_token_id is None and config is not None:
            eos_token_id = config.eos_token_id
        eos = [] if eos_token_id is None else (
            list(eos_token_id) if isinstance(eos_token_id, (list, tuple)) else [eos_token_id])
        if pad_token_id is None:
            pad_token_id = getattr(config, "pad_token_id", None)
            if pad_token_id is None:
                pad_token_id = eos[0] if eos else 0
        ids = input_ids.to(torch.int64)
        positions = torch.arange(prompt)
        cache = None
        out, done = [ids], torch.zeros(batch, dtype=torch.bool)
        for n in range(max_new_tokens):
            if n == 0:
                fn = self._prefill(ids, positions)
                cache = self._cache(batch, fn)
                inputs = cache
            else:
                positions = torch.tensor([prompt + n - 1])
                fn, inputs = self._decode(batch, ids, positions, cache)
            logits = fn(ids, positions, *inputs)
            token = logits[:, -1].float().argmax(-1).cpu()
            token = torch.where(done, torch.full_like(token, pad_token_id), token)
            out.append(token[:, None])
            done |= torch.isin(token, torch.tensor(eos, dtype=token.dtype))
            if eos and bool(done.all()):
                break
            ids = token[:, None]
        return torch.cat(out, dim=1)
