# Graphs with ops xtile cannot compile are partitioned: those ops run
# through PyTorch between the parts xtile compiles, each reported once
# with its line, and the parts keep their fusion. Strict mode raises.
import os
import sys
import warnings

import torch
import torch.nn as nn

import xtile

# Partitioning is what this tests: the suite runs strict (XTILE_STRICT=1).
os.environ.pop("XTILE_STRICT", None)

torch.manual_seed(0)


def report(compiled):
    """The report without the test file's directory."""
    return compiled.report() if isinstance(compiled, xtile.Partitioned) else "not partitioned"


def same(got, want):
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    ok = all(torch.allclose(g.float(), w.float(), rtol=1e-5, atol=1e-6) if g.is_floating_point()
             else torch.equal(g, w) for g, w in zip(got, want))
    return "match ok" if ok and len(got) == len(want) else "match FAILED"


class SoftmaxHistc(nn.Module):
    """A histogram over the data's own range (torch.histc without min and
    max, which xtile's lowering refuses) between a scaling and a
    softmax."""

    def forward(self, x):
        counts = torch.histc(x * 2.0, bins=16)
        return torch.softmax(counts / 100.0, dim=-1) * 3.0 + x[0, :16]


class Bessel(nn.Module):
    """A softmax, then torch.special.i0, which xtile has no kernel for."""

    def forward(self, x):
        p = torch.softmax(x, dim=-1)
        return torch.special.i0(p * 8) + p.sum(-1, keepdim=True)


class Block(nn.Module):
    """An MLP block with two unsupported ops between its matmuls; with
    `identity`, the same graph without them."""

    def __init__(self, identity=False):
        super().__init__()
        self.norm = nn.LayerNorm(64)
        self.up = nn.Linear(64, 128)
        self.mid = nn.Linear(128, 128)
        self.down = nn.Linear(128, 64)
        self.identity = identity

    def forward(self, x):
        h = torch.nn.functional.gelu(self.up(self.norm(x)))
        if not self.identity:
            h = torch.lgamma(h + 2.0)              # no lowering
        h = torch.relu(self.mid(h))
        if not self.identity:
            h = torch.digamma(torch.tanh(h) + 2.0)   # no lowering
        return x + self.down(h)


class NonZero(nn.Module):
    """A result whose shape depends on the data, in the middle."""

    def forward(self, x):
        y = torch.exp(x) * 2.0
        where = torch.nonzero(y > 2.0)
        return where.sum() + y.sum()


# The histogram-then-softmax example, through xtile.compile and
# torch.compile.
x = torch.randn(4, 10000)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    fast = xtile.compile(SoftmaxHistc(), (x,))
print("histc report:", report(fast))
print("histc warnings:", sum("run through PyTorch" in str(w.message) for w in caught))
print("histc:", same(fast(x), SoftmaxHistc()(x)), f"{fast.launches()} launches,",
      f"{len(fast.parts)} parts")
torch._dynamo.reset()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    opt = torch.compile(SoftmaxHistc(), backend="xtile")
    got = opt(x)
print("histc torch.compile:", same(got, SoftmaxHistc()(x)),
      sum("run through PyTorch" in str(w.message) for w in caught), "warning(s)")

# An op with no lowering at all.
x = torch.randn(6, 8)
print(xtile.explain(Bessel(), (x,)))
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    print("bessel:", same(xtile.compile(Bessel(), (x,))(x), Bessel()(x)))

# Two unsupported ops in the middle of a block: the parts keep their
# fusion (the launches of the graph without them).
x = torch.randn(2, 16, 64)
block = Block().eval()
without = Block(identity=True).eval()
without.load_state_dict(block.state_dict())
print(xtile.explain(block, (x,)))
print("without them:", xtile.explain(without, (x,)).splitlines()[-1].strip())
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    print("block:", same(xtile.compile(block, (x,))(x), block(x)))

# A data-dependent shape: what reads it runs through PyTorch.
x = torch.randn(5, 7)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    fast = xtile.compile(NonZero(), (x,))
print("nonzero report:", report(fast))
print("nonzero:", same(fast(x), NonZero()(x)))

# Dynamic sizes: the parts are compiled once over them.
x = torch.randn(3, 10000)
T = torch.export.Dim("T", min=1, max=64)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    fast = xtile.compile(SoftmaxHistc(), (x,), dynamic_shapes={"x": {0: T}})
results = [same(fast(y), SoftmaxHistc()(y)) for y in (x, torch.randn(7, 10000), torch.randn(1, 10000))]
print("dynamic:", results, "compiles", [p.num_compiles for p in fast.parts])

# Strict mode: the first unsupported op raises, as before.
for how, kwargs in (("strict=True", {"strict": True}), ("XTILE_STRICT=1", {})):
    if not kwargs:
        os.environ["XTILE_STRICT"] = "1"
    try:
        xtile.compile(Bessel(), (torch.randn(6, 8),), **kwargs)
        print(how, "FAILED (no error)")
    except xtile.UnsupportedError as e:
        print(how + ":", str(e).split(" at /")[0][:60])
os.environ.pop("XTILE_STRICT")
sys.stdout.flush()
