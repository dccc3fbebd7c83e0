# torch.compile(model, backend="xtile") on a small transformer block: the
# graph TorchDynamo captures is compiled by xtile and matches eager.
import torch
import torch.nn as nn
import torch.nn.functional as F

import xtile  # noqa: F401  (registers the backend)

torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self, d=64, h=176):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.up = nn.Linear(d, h)
        self.down = nn.Linear(h, d)

    def forward(self, x):
        return x + self.down(F.silu(self.up(self.norm(x))))


model = Block().eval()
x = torch.randn(4, 32, 64)
with torch.no_grad():
    expected = model(x)
    compiled = torch.compile(model, backend="xtile")
    got = compiled(x)
torch.testing.assert_close(got, expected, rtol=1.3e-6, atol=1e-5)
print("torch.compile backend=xtile: ok")


# torch.compile(dynamic=True): Dynamo hands xtile one graph with symbolic
# sizes and does not recompile for new sizes. A graph whose sizes are each
# one symbol is imported once with dynamic sizes, the Block's linear
# layers on [batch, tokens, d] included (a matmul batched over the batch),
# and so is one whose sizes are expressions of them (T + 1); one that
# needs what Tensor IR cannot take (a view of batch * tokens rows) is
# compiled once per input shape instead.
class Counted:
    """Counts Dynamo's calls of the backend and xtile's imports."""

    def __init__(self):
        self.backend_calls = self.imports = 0

    def backend(self, gm, example_inputs, **kwargs):
        import xtile.backend
        self.backend_calls += 1
        return xtile.backend.xtile_backend(gm, example_inputs, **kwargs)

    def __enter__(self):
        self._import = xtile.import_exported

        def imp(*a, **k):
            self.imports += 1
            return self._import(*a, **k)
        xtile.import_exported = imp
        torch._dynamo.reset()
        return self

    def __exit__(self, *exc):
        xtile.import_exported = self._import


class RMSNorm(nn.Module):
    def __init__(self, d=64):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(d) + 0.5)
        self.eps = 1e-6

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def dynamic(name, model, shapes, change=None):
    """Runs `model` compiled with dynamic=True at `shapes`; change(model),
    when given, runs before the last shape."""
    model.eval()
    with Counted() as counted, torch.no_grad():
        compiled = torch.compile(model, backend=counted.backend, dynamic=True)
        results = []
        for k, shape in enumerate(shapes):
            if change and k == len(shapes) - 1:
                change(model)
            x = torch.randn(*shape)
            ok = torch.allclose(compiled(x), model(x), rtol=1.3e-6, atol=1e-5)
            results.append(f"{list(shape)} {'ok' if ok else 'MISMATCH'}")
    print(f"dynamic {name}: {', '.join(results)}; {counted.backend_calls} Dynamo "
          f"compile(s), {counted.imports} import(s)")


dynamic("rmsnorm", RMSNorm(), [(7, 64), (33, 64), (128, 64), (7, 64)])
# A module's float (eps), which Dynamo passes as a tensor, is compiled as
# a constant and checked at every call: a new value compiles again.
dynamic("rmsnorm, eps changed", RMSNorm(), [(7, 64), (9, 64)],
        change=lambda m: setattr(m, "eps", 0.5))
dynamic("block", Block(), [(4, 32, 64), (4, 7, 64), (2, 7, 64), (4, 32, 64)])


class Grow(nn.Module):
    """T rows and the last one again: T + 1 rows, a size expression."""

    def forward(self, x):
        return torch.cat([x, x[-1:]], 0) * 2


dynamic("grow", Grow(), [(7, 64), (33, 64), (128, 64), (7, 64)])
