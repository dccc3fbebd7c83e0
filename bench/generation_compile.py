#!/usr/bin/env python3
"""Compile time of a size-polymorphic 32-layer model, as generation sees it.

    build/venv/bin/python bench/generation_compile.py [--layers 32] [--tokens 16]

A HF Llama of 32 layers (random weights, hidden 64, 4 heads, 2 KV heads)
generates greedily from an 8-token prompt, under the CPU emulation, in a
fresh $XTILE_CACHE_DIR:

- static cache: xtile.generation.Generator, the KV cache in StaticCache's
  layout; one compile for the prefill and one for the decode step, whatever
  the number of tokens.
- recompiling: the whole sequence through xtile.compile at every length
  (no cache), as without dynamic shapes: one compile per generated token.

and, for the 32 decoder layers alone with a dynamic sequence length
(torch.export Dim), the import (once) against each size's compile.
Prints seconds; a benchmark, never fails on them.
"""
import argparse
import os
import tempfile
import time
import warnings

import torch

warnings.filterwarnings("ignore")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--layers", type=int, default=32)
    parser.add_argument("--tokens", type=int, default=16)
    opts = parser.parse_args()
    os.environ["XTILE_CACHE_DIR"] = tempfile.mkdtemp(prefix="xtile-bench-")
    import transformers as hf
    import xtile
    from xtile.generation import Generator

    torch.manual_seed(0)
    cfg = hf.LlamaConfig(vocab_size=128, hidden_size=64, intermediate_size=128,
                         num_hidden_layers=opts.layers, num_attention_heads=4,
                         num_key_value_heads=2, max_position_embeddings=256)
    model = hf.LlamaForCausalLM(cfg).eval()
    model.generation_config.eos_token_id = None
    prompt = torch.randint(0, 128, (1, 8))
    n = opts.tokens
    print(f"{opts.layers}-layer Llama, 8-token prompt, {n} new tokens, CPU emulation")

    gen = Generator(model, max_cache_len=8 + n, backend="emu")
    start = time.time()
    gen.generate(prompt, max_new_tokens=1)
    prefill = time.time() - start
    start = time.time()
    ids = gen.generate(prompt, max_new_tokens=n)
    rest = time.time() - start
    decode = next(iter(gen.decodes.values()))
    print(f"  static cache: {gen.num_compiles} compiles; prefill {prefill:.1f} s "
          f"(compile and one run), then {n} tokens in {rest:.1f} s (the decode compile "
          f"and {n} steps, {decode.num_compiles} compile)")

    class Logits(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, ids):
            return self.model(input_ids=ids, use_cache=False).logits

    start, seq, compiles = time.time(), prompt, 0
    for _ in range(min(n, 4)):
        fast = xtile.compile(Logits(), (seq,), backend="emu")
        compiles += 1
        token = fast(seq)[:, -1].argmax(-1, keepdim=True)
        seq = torch.cat([seq, token], dim=1)
    per = (time.time() - start) / compiles
    print(f"  recompiling at every length: {per:.1f} s per token ({compiles} lengths "
          f"measured), {per * n:.0f} s for {n} tokens")
    same = torch.equal(seq, ids[:, :seq.shape[1]])
    print(f"  the two agree on the first {seq.shape[1] - 8} tokens: {same}")

    from torch.export import Dim
    from transformers.models.llama.modeling_llama import (LlamaDecoderLayer,
                                                          LlamaRotaryEmbedding)
    cfg._attn_implementation = "sdpa"

    class Layers(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.rope = LlamaRotaryEmbedding(cfg)
            self.layers = torch.nn.ModuleList(LlamaDecoderLayer(cfg, i)
                                              for i in range(opts.layers))

        def forward(self, h):
            pos = torch.arange(h.shape[1]).unsqueeze(0)
            rope = self.rope(h, pos)
            for layer in self.layers:
                out = layer(h, position_embeddings=rope, attention_mask=None,
                            position_ids=pos)
                h = out[0] if isinstance(out, tuple) else out
            return h

    layers = Layers().eval()
    start = time.time()
    fast = xtile.compile(layers, (torch.randn(1, 7, 64),), backend="emu",
                         dynamic_shapes={"h": {1: Dim("S", min=1, max=256)}})
    imported = time.time() - start
    times = []
    for s in (1, 7, 128):
        start = time.time()
        fast(torch.randn(1, s, 64))
        times.append(f"S={s} {time.time() - start:.1f} s")
    print(f"  {opts.layers} decoder layers, dynamic S: import once {imported:.1f} s; "
          f"compile and run per size: {', '.join(times)} ({fast.num_compiles} compiles)")


if __name__ == "__main__":
    main()
