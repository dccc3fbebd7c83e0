# Complex tensors inside a graph (docs/Frontend.md, "Complex tensors"):
# carried as pairs of reals, through xtile.compile under the CPU emulation,
# against eager. Prints one line per case, then the errors for a complex
# input, a complex result and an operator without a complex lowering, and
# a closing count.
import sys

import torch

import xtile
from opinfo import Fn, print_rejections


def rotary(x, pos):
    """Llama 4's rotary embedding: a complex rotation of consecutive
    pairs, the rotations from torch.polar, scaled."""
    inv = 1.0 / 10000 ** (torch.arange(0, x.shape[-1], 2).float() / x.shape[-1])
    freqs = pos[:, None].float() * inv[None]
    cis = torch.polar(torch.ones_like(freqs), freqs) * 0.75
    xc = torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))
    return torch.view_as_real(xc * cis[:, None, :]).flatten(2).type_as(x)


class Table(torch.nn.Module):
    """A complex rotary table as a buffer (Meta's reference Llama code)."""

    def __init__(self):
        super().__init__()
        f = torch.outer(torch.arange(10.0), torch.linspace(0.1, 1.0, 4))
        self.register_buffer("cis", torch.polar(torch.ones_like(f), f))

    def forward(self, x):
        xc = torch.view_as_complex(x.reshape(*x.shape[:-1], -1, 2))
        return torch.view_as_real(xc * self.cis[:, None]).flatten(-2)


def arithmetic(x, y):
    a = torch.view_as_complex(x)
    b = torch.view_as_complex(y)
    c = (a * b - a * 2.0 + b.transpose(0, 1).transpose(0, 1)) * 1j
    d = torch.sub(c, a, alpha=3) + torch.complex(x[..., 0], y[..., 1]) + \
        y[..., 0].to(torch.complex64)
    return torch.view_as_real(d), d.real * 2 + d.imag


def views(x):
    a = torch.view_as_complex(x)                     # [6, 5]
    b = torch.cat([a[1:3], a[:2].flip(0)], 0)        # [4, 5]
    c = b.permute(1, 0).unsqueeze(0).expand(2, 5, 4)
    return torch.view_as_real(c.select(1, 3)), torch.view_as_real(c.reshape(10, 4)[::3])


def cases():
    torch.manual_seed(0)
    r = torch.randn
    return [
        ("rotary f32", Fn(rotary), (r(12, 4, 16), torch.arange(12))),
        ("rotary bf16", Fn(rotary), (r(7, 2, 8).bfloat16(), torch.arange(3, 10))),
        ("rotary table buffer", Table(), (r(10, 3, 8),)),
        ("arithmetic", Fn(arithmetic), (r(4, 6, 2), r(4, 6, 2))),
        ("views", Fn(views), (r(6, 5, 2),)),
    ]


def main():
    passed = failed = 0
    for name, module, args in cases():
        with torch.no_grad():
            want = module(*args)
            try:
                got = xtile.compile(module, args, backend="emu")(*args)
                got = got if isinstance(got, (tuple, list)) else (got,)
                want = want if isinstance(want, (tuple, list)) else (want,)
                tol = dict(rtol=1.6e-2, atol=1e-2) if args[0].dtype == torch.bfloat16 \
                    else dict(rtol=1.3e-6, atol=1e-5)
                ok = all(g.dtype == w.dtype and g.shape == w.shape and
                         torch.allclose(g.float(), w.float(), **tol)
                         for g, w in zip(got, want))
                err = max((g.float() - w.float()).abs().max().item()
                          for g, w in zip(got, want))
                line = f"{name}: {'ok' if ok else 'FAILED'} (max error {err:.1e})"
            except Exception as e:  # noqa: BLE001 - reported
                ok, line = False, f"{name}: FAILED {type(e).__name__}: {str(e)[:300]}"
        print(line)
        sys.stdout.flush()
        passed, failed = passed + ok, failed + (not ok)
    x = torch.randn(4, 3, 2)
    failed += print_rejections([
        ("complex input", lambda c: torch.view_as_real(c * 2),
         (torch.randn(3, dtype=torch.cfloat),)),
        ("complex result", lambda x: torch.view_as_complex(x) * 2, (x,)),
        ("abs of complex", lambda x: torch.view_as_complex(x).abs(), (x,))])
    print(f"complex: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
