# f32 matmuls on TF32 tensor cores (opt-in), under the CPU emulation of
# mma.sync.m16n8k8.tf32: exact by default; with allow_tf32 (or PyTorch's
# own torch.backends.cuda.matmul.allow_tf32, which xtile.compile follows)
# each operand is rounded to tf32 (to nearest, ties away from zero) and the
# products are accumulated in f32. The check is exact in what it proves:
# the result equals the float64 product of the tf32-rounded operands to f32
# accumulation error, and differs from the unrounded product by tf32's.
import numpy as np
import torch

import xtile

torch.manual_seed(0)


def tf32(t):
    """t rounded to tf32 as cvt.rna.tf32.f32 does (finite values)."""
    bits = t.detach().numpy().view(np.uint32).astype(np.uint64)
    bits = ((bits + 0x1000) & 0xFFFFE000).astype(np.uint32)
    return torch.from_numpy(bits.view(np.float32))


def err(got, ref):
    return ((got.double() - ref).norm() / ref.norm()).item()


class Linear(torch.nn.Module):  # x W^T + b: W [out, in], K-major
    def __init__(self, k, n):
        super().__init__()
        self.lin = torch.nn.Linear(k, n)

    def forward(self, x):
        return self.lin(x)


class MatMul(torch.nn.Module):  # x W: W [in, out], N-major
    def __init__(self, k, n):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(k, n) / k ** 0.5)

    def forward(self, x):
        return x @ self.w


def check(name, model, x, ref_exact, ref_tf32, **kwargs):
    with torch.no_grad():
        got = xtile.compile(model, (x,), backend="emu", target="sm_80", **kwargs)(x)
    e_tf32, e_exact = err(got, ref_tf32), err(got, ref_exact)
    # TF32 when the result is the rounded operands' product (f32
    # accumulation: ~1e-7) and not the exact one (tf32: ~1e-4).
    kind = "tf32" if e_tf32 < 1e-6 and e_exact > 1e-5 else \
        "exact" if e_exact < 1e-6 else "neither"
    print(f"{name}: {kind} (error against tf32 operands {e_tf32:.2e}, "
          f"against f32 operands {e_exact:.2e})")


def main():
    for label, model in (("linear", Linear(200, 72)), ("matmul", MatMul(200, 72))):
        x = torch.randn(37, 200)
        if label == "linear":
            w, b = model.lin.weight, model.lin.bias
            exact = x.double() @ w.double().T + b.double()
            rounded = tf32(x).double() @ tf32(w).double().T + b.double()
        else:
            w = model.w
            exact = x.double() @ w.double()
            rounded = tf32(x).double() @ tf32(w).double()
        check(f"{label} default", model, x, exact, rounded)
        check(f"{label} allow_tf32=True", model, x, exact, rounded, allow_tf32=True)
        torch.backends.cuda.matmul.allow_tf32 = True
        try:
            check(f"{label} torch allow_tf32", model, x, exact, rounded)
            check(f"{label} torch allow_tf32, allow_tf32=False", model, x, exact,
                  rounded, allow_tf32=False)
        finally:
            torch.backends.cuda.matmul.allow_tf32 = False


if __name__ == "__main__":
    main()
