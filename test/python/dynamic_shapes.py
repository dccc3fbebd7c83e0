# Dynamic sizes from torch.export's dynamic_shapes: the module is imported
# once into Tensor IR whose token dimension is `?` named by the Dim
# (#xtensor.dims<T>, its range in xtensor.symbols); each call binds T to
# its input's size, checked against the range, and each distinct size is
# compiled once (the CPU emulation here) and matches eager PyTorch.
#
#   dynamic_shapes.py            the small models, the errors
#   dynamic_shapes.py --llama    a Hugging Face Llama decoder layer and model
#
# Prints one line per check; FileCheck (dynamic-shapes*.test) reads them.
import re
import subprocess
import sys
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

import xtile
from xtile import runtime

from models import RMSNorm, Softmax, GeluMLP as MLP

warnings.filterwarnings("ignore")
torch.manual_seed(0)
SIZES = (1, 7, 128)
TOL = dict(rtol=1.3e-6, atol=1e-5)


class Counted:
    """Counts xtile's exports and imports."""

    def __init__(self):
        self.exports = self.imports = 0
        self._export, self._import = xtile._export, xtile.import_exported

    def __enter__(self):
        def export(*a, **k):
            self.exports += 1
            return self._export(*a, **k)

        def imp(*a, **k):
            self.imports += 1
            return self._import(*a, **k)
        xtile._export, xtile.import_exported = export, imp
        return self

    def __exit__(self, *exc):
        xtile._export, xtile.import_exported = self._export, self._import


def signature(text):
    return next(line.strip() for line in text.splitlines() if "func.func" in line)


def verified(text):
    """xtile-opt parses and verifies the dynamic module."""
    done = subprocess.run([runtime._tool("xtile-opt")], input=text,
                          capture_output=True, text=True)
    return "verified" if done.returncode == 0 else "INVALID: " + done.stderr.strip()


def check(name, model, make, dynamic_shapes, sizes=SIZES, tol=TOL):
    """Imports `model` with a dynamic token dimension, compiles it once per
    size and compares each size with eager."""
    model.eval()
    text = xtile.import_module(model, make(7), dynamic_shapes=dynamic_shapes)
    print(f"{name}: {signature(text)}")
    print(f"{name}: {verified(text)}")
    with Counted() as counted:
        fast = xtile.compile(model, make(7), backend="emu",
                             dynamic_shapes=dynamic_shapes)
        errors = []
        for t in list(sizes) + [sizes[1]]:  # a size again: no new compile
            args = make(t)
            with torch.no_grad():
                got, expected = fast(*args), model(*args)
            ok = got.shape == expected.shape and torch.allclose(got, expected, **tol)
            errors.append(f"size {t} {'ok' if ok else 'FAILED'} "
                          f"({(got - expected).abs().max().item():.1e})")
    why = ""
    if fast.dynamic_error:
        # The first error of the failed compile over the dynamic sizes.
        first = next(line for line in fast.dynamic_error.splitlines()
                     if "error:" in line)
        why = "; per size, as " + first.split("error: ", 1)[1]
    print(f"{name}: {', '.join(errors)}; {fast.num_compiles} compiles for "
          f"{len(set(sizes))} sizes, {counted.exports} export(s), "
          f"{counted.imports} import(s){why}")
    return fast


def rejects(what, fn):
    try:
        fn()
    except (ValueError, xtile.UnsupportedError) as e:
        print(f"{what}: {type(e).__name__}: {str(e).split(' at /')[0]}")
    else:
        print(f"{what}: FAILED (no error)")


def small_models():
    T = Dim("T", min=1, max=512)
    check("rmsnorm", RMSNorm(256), lambda t: (torch.randn(t, 256),), {"x": {0: T}})
    # The tuple form of dynamic_shapes.
    check("softmax", Softmax(), lambda t: (torch.randn(t, 384) * 4,), ({0: T},))
    check("layernorm", nn.LayerNorm(256), lambda t: (torch.randn(t, 256),),
          {"input": {0: T}})
    mlp = check("mlp", MLP(64, 256), lambda t: (torch.randn(1, t, 64),), {"x": {1: T}})

    # Sizes outside the range, or that disagree, are errors before any
    # kernel runs.
    rejects("out of range", lambda: mlp(torch.randn(1, 600, 64)))
    rejects("static size", lambda: mlp(torch.randn(2, 5, 64)))

    class Add(nn.Module):
        def forward(self, x, y):
            return x + y
    add = xtile.compile(Add(), (torch.randn(5, 8), torch.randn(5, 8)), backend="emu",
                        dynamic_shapes={"x": {0: T}, "y": {0: T}})
    rejects("one symbol, two sizes", lambda: add(torch.randn(5, 8), torch.randn(6, 8)))
    x, y = torch.randn(9, 8), torch.randn(9, 8)
    print(f"add: {'ok' if torch.equal(add(x, y), x + y) else 'FAILED'}")
    # A module that cannot be compiled over its whole range compiles each
    # size instead, and says why: 4*N rows of an unbounded N are more
    # programs than a grid has at N's maximum.
    check("unbounded rows", Softmax(), lambda t: (torch.randn(4, t, 8),),
          {"x": {1: Dim("N")}}, sizes=(1, 7, 128))
    # specialize=True compiles each size, as a module xtile cannot compile
    # over its dynamic sizes is.
    norm = RMSNorm(256).eval()
    each = xtile.compile(norm, (torch.randn(7, 256),), backend="emu",
                         dynamic_shapes={"x": {0: T}}, specialize=True)
    same = []
    for t in (3, 5):
        x = torch.randn(t, 256)
        with torch.no_grad():
            same.append(torch.allclose(each(x), norm(x), **TOL))
    print(f"specialize: {'ok' if all(same) else 'FAILED'}, {each.num_compiles} "
          "compiles for 2 sizes")

    # Only limits of dynamic sizes (errors with their note) fall back to
    # per-size compiles: a compile that fails for another reason is not
    # one of them.
    unbounded = xtile.import_module(Softmax(), (torch.randn(4, 5, 8),),
                                    dynamic_shapes={"x": {1: Dim("N")}})
    undeclared = unbounded.replace("xtensor.symbols = {N", "xtensor.symbols = {M", 1)
    for what, text in [("unbounded rows", unbounded), ("undeclared size", undeclared)]:
        done = subprocess.run([runtime._tool("xtile-opt"), "--lower-to-kernel"],
                              input=text, capture_output=True, text=True)
        print(f"dynamic-size limit ({what}): rc {done.returncode}, "
              f"{runtime.is_dynamic_size_limit(done.stderr)}")

    # A Dim without a maximum: the documented default; a Dim torch names
    # itself (Dim.DYNAMIC): the symbol's own name.
    print("unbounded:", signature(xtile.import_module(
        Softmax(), (torch.randn(5, 8),), dynamic_shapes={"x": {0: Dim("N")}})))
    print("unnamed:", signature(xtile.import_module(
        Softmax(), (torch.randn(5, 8),), dynamic_shapes={"x": {0: Dim.DYNAMIC}})))

    # What a dynamic size cannot do: an UnsupportedError naming the
    # operator.
    class Flatten(nn.Module):
        def forward(self, x):
            return x.reshape(-1) * 2

    class Split(nn.Module):
        def forward(self, x):
            return x.view(x.shape[0] * 2, 4)

    class Concat(nn.Module):
        def forward(self, x):
            return torch.cat([x, x], dim=0)

    class Shift(nn.Module):
        def forward(self, x):
            return x[1:] * 2

    class Last(nn.Module):
        def forward(self, x):
            return x[-1]

    class Scale(nn.Module):
        def forward(self, x):
            return x * x.shape[0]

    class TokenMean(nn.Module):
        def forward(self, x):
            return x.mean(0)

    class TokenVariance(nn.Module):
        def forward(self, x):
            return x.var(0)

    class TokenStd(nn.Module):
        def forward(self, x):
            return x.std(1, keepdim=True, correction=0)

    class Diff(nn.Module):
        def forward(self, x):
            return torch.diff(x, dim=0)

    class SizeResult(nn.Module):
        def forward(self, x):
            return x * 2, x.shape[0]
    # (x[1:] is empty at T = 1, which torch.export would guard against.)
    long = Dim("T", min=3, max=512)
    for name, model, dim in [("size as value", Scale(), T),
                             ("size as result", SizeResult(), T)]:
        rejects(name, lambda: xtile.import_module(model, (torch.randn(5, 8),),
                                                  dynamic_shapes={"x": {0: dim}}))

    # Sizes that are expressions PyTorch computes (2*T, T - 1, T + 1): size
    # expressions in Tensor IR, compiled once for every size.
    # A mean over a dynamic dimension: the sum divided by the size taken as
    # a value (one kernel; the count folds to the size).
    check("token mean", TokenMean(), lambda t: (torch.randn(t, 8),), {"x": {0: T}})
    # A variance: the squared deviations from that mean, summed, over
    # max(count - correction, 0), in one kernel of two passes (PyTorch's nan
    # at T = 1); std rounds its square root once (bf16: in f32, as eager).
    check("token variance", TokenVariance(), lambda t: (torch.randn(t, 8),), {"x": {0: T}},
          tol=dict(TOL, equal_nan=True))
    check("token std", TokenStd(), lambda t: (torch.randn(2, t, 8) * 3 + 1,), {"x": {1: T}})
    check("token std bf16", TokenStd(), lambda t: (torch.randn(2, t, 8).bfloat16() * 3 + 1,),
          {"x": {1: T}}, tol=dict(rtol=8e-3, atol=0))
    check("concat", Concat(), lambda t: (torch.randn(t, 8),), {"x": {0: T}})
    check("flatten", Flatten(), lambda t: (torch.randn(t, 8),), {"x": {0: T}})
    check("split", Split(), lambda t: (torch.randn(t, 8),), {"x": {0: T}})
    check("shift", Shift(), lambda t: (torch.randn(t, 8),), {"x": {0: long}},
          sizes=(3, 7, 128))
    check("diff", Diff(), lambda t: (torch.randn(t, 8),), {"x": {0: long}},
          sizes=(3, 7, 128))

    class Join(nn.Module):
        """An input whose size is torch.export's derived Dim T + 1."""

        def forward(self, x, y):
            return torch.cat([x, x[-1:]], 0) + y
    join = {"x": {0: T}, "y": {0: T + 1}}
    joined = check("derived dim", Join(), lambda t: (torch.randn(t, 8), torch.randn(t + 1, 8)),
                   join)
    rejects("derived dim, sizes that disagree",
            lambda: joined(torch.randn(4, 8), torch.randn(7, 8)))

    class Append(nn.Module):
        """A KV cache grown by one token, and attention over it."""

        def forward(self, q, k, v, kn, vn):
            k, v = torch.cat([k, kn], dim=2), torch.cat([v, vn], dim=2)
            return nn.functional.scaled_dot_product_attention(q, k, v)
    check("append", Append(),
          lambda t: (torch.randn(1, 4, 1, 32), torch.randn(1, 4, t, 32),
                     torch.randn(1, 4, t, 32), torch.randn(1, 4, 1, 32),
                     torch.randn(1, 4, 1, 32)),
          {"q": None, "k": {2: T}, "v": {2: T}, "kn": None, "vn": None})

    class First(nn.Module):
        """A static window of the dynamic dimension is a gather."""

        def forward(self, x):
            return x[:2] * 2 + x[0]
    check("first", First(), lambda t: (torch.randn(t, 8),),
          {"x": {0: Dim("T", min=2, max=512)}}, sizes=(2, 7, 128))

    class Tail(nn.Module):
        """Windows counted from the end of the dynamic dimension (the last
        token's logits, x[:, -1:]) and an element from it (x[-1])."""

        def forward(self, x):
            return x[-2:] * 2 + x[-1] + x[-3:-1:1]
    check("tail", Tail(), lambda t: (torch.randn(t, 8),),
          {"x": {0: Dim("T", min=3, max=512)}}, sizes=(3, 7, 128))

    class Packed(nn.Module):
        """Sequences packed along T (Hugging Face's packed-sequence
        detection): the positions' differences with one element prepended,
        their running count, and a gather at indices that may be negative
        (counted from the end of T)."""

        def forward(self, pos, x):
            starts = torch.diff(pos, prepend=pos[:, :1] - 1, dim=-1) != 1
            seq = starts.cumsum(-1)
            same = seq[:, :, None] == seq[:, None, :]
            back = pos[0] - 1
            return same.float() @ x + x[back]
    check("packed positions", Packed(),
          lambda t: (torch.cat([torch.arange(t - t // 2), torch.arange(t // 2)]).reshape(1, t),
                     torch.randn(t, 8)),
          {"pos": {1: T}, "x": {0: T}}, sizes=(1, 7, 128))

    class CacheUpdate(nn.Module):
        """A KV cache written at T positions from `start`: index_copy_ with
        a dynamic number of positions."""

        def forward(self, cache, k, pos):
            cache = cache.clone()
            cache.index_copy_(1, pos, k)
            return cache * 1
    check("cache update", CacheUpdate(),
          lambda t: (torch.randn(2, 160, 8), torch.randn(2, t, 8), torch.arange(t) + 20),
          {"cache": None, "k": {1: T}, "pos": {0: T}}, sizes=(1, 7, 128))


def quadratic_kernels(name, fast):
    """Prints the launches of `fast` and its kernels whose traffic grows
    with S * S (by xtile-opt's --xloop-report)."""
    kernels = subprocess.run([runtime._tool("xtile-opt"), "--lower-to-loop",
                              "--xloop-report", "-o", "/dev/null"], input=fast.mlir,
                             capture_output=True, text=True).stdout
    quadratic = [line.split()[1] for line in kernels.splitlines()
                 if line.startswith("kernel") and "S*S" in line]
    print(f"{name}: {fast.launches()} launches, kernels with S*S bytes: "
          f"{quadratic or 'none'}")


def llama():
    import transformers as T
    from transformers.models.llama.modeling_llama import (LlamaDecoderLayer,
                                                          LlamaRotaryEmbedding)
    torch.manual_seed(0)
    cfg = T.LlamaConfig(hidden_size=64, intermediate_size=128, num_hidden_layers=1,
                        num_attention_heads=4, num_key_value_heads=2, vocab_size=128,
                        max_position_embeddings=1024)
    cfg._attn_implementation = "sdpa"

    class Layer(nn.Module):
        """A decoder layer on hidden states of a dynamic length, with its
        rotary embeddings and causal attention (no mask tensor)."""

        def __init__(self):
            super().__init__()
            self.rope, self.layer = LlamaRotaryEmbedding(cfg), LlamaDecoderLayer(cfg, 0)

        def forward(self, h):
            pos = torch.arange(h.shape[1]).unsqueeze(0).expand(h.shape[0], -1)
            out = self.layer(h, position_embeddings=self.rope(h, pos), attention_mask=None,
                             position_ids=pos)
            return out[0] if isinstance(out, tuple) else out
    S = Dim("S", min=1, max=1024)
    fast = check("llama layer", Layer(), lambda t: (torch.randn(1, t, 64),), {"h": {1: S}},
                 sizes=(1, 7, 128, 1000), tol=dict(rtol=1.3e-5, atol=1e-4))
    # Attention over S queries and S keys is one flash-attention kernel:
    # no S x S scores in memory, the layer's traffic linear in S.
    quadratic_kernels("llama layer", fast)
    # A batch of sequences of a dynamic length (the linear layers' rows
    # are 2 * S, each a matmul batched over the sequences), and a dynamic
    # batch of them: one compile each.
    for name, make, dims in [
            ("llama layer, batch 2", lambda t: (torch.randn(2, t, 64),), {1: S}),
            ("llama layer, batch B", lambda t: (torch.randn(1 + t % 5, t, 64),),
             {0: Dim("B", min=1, max=16), 1: S})]:
        quadratic_kernels(name, check(name, Layer(), make, {"h": dims},
                                      sizes=(1, 7, 129), tol=dict(rtol=1.3e-5, atol=1e-4)))

    two = T.LlamaConfig(**{**cfg.to_dict(), "num_hidden_layers": 2})
    two._attn_implementation = "sdpa"

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.model = T.LlamaModel(two).eval()

        def forward(self, ids):
            return self.model(input_ids=ids, use_cache=False).last_hidden_state
    # The whole model (two layers): its mask code detects packed sequences
    # from the positions (their differences with one prepended, a running
    # count) and builds an S x S mask of keys at or before the query in its
    # sequence, which each layer's flash-attention kernel recomputes from
    # the positions (no S x S bytes).
    quadratic_kernels("llama model", check(
        "llama model", Model(), lambda t: (torch.randint(0, 128, (1, t)),), {"ids": {1: S}},
        sizes=(1, 7, 130), tol=dict(rtol=1.3e-5, atol=1e-4)))

    class Loss(nn.Module):
        """The causal-LM loss: labels padded by one and shifted (S + 1,
        then S positions), the logits viewed as S rows of the vocabulary,
        and the cross-entropy's gather at the labels from the flattened
        log-probabilities (S*128 elements)."""

        def __init__(self):
            super().__init__()
            self.lm = T.LlamaForCausalLM(cfg).eval()

        def forward(self, ids, labels):
            return self.lm(input_ids=ids, labels=labels, use_cache=False).loss
    S2 = Dim("S", min=2, max=1024)
    check("llama loss", Loss(),
          lambda t: (torch.randint(0, 128, (1, t)), torch.randint(0, 128, (1, t))),
          {"ids": {1: S2}, "labels": {1: S2}}, sizes=(2, 7, 130),
          tol=dict(rtol=1.3e-5, atol=1e-4))


def main():
    if "--llama" in sys.argv:
        llama()
    else:
        small_models()


if __name__ == "__main__":
    main()
