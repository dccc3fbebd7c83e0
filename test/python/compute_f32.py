# 16-bit kernels compute in f32 and round once (--xloop-compute-f32): a
# fused bf16 or f16 chain must be at least as close to the float64 result
# as eager PyTorch, which rounds after every op. Prints, per case, both
# normwise errors and whether xtile's is the smaller or equal (within
# 1%).
import sys

import torch
import torch.nn.functional as F

from opinfo import Fn, run

torch.manual_seed(0)


def randn(*shape, dtype):
    return torch.randn(shape).to(dtype)


def manual_rms_norm(x, w):
    return x * torch.rsqrt((x * x).mean(-1, keepdim=True) + 1e-6) * w


CASES = [
    ("x * w + b, exp, - y", lambda x, w, b, y: (0.25 * (x * w + b)).exp() - y, 4),
    ("swiglu silu(a) * b", lambda a, b: F.silu(a) * b, 2),
    ("gelu tanh", lambda x: F.gelu(x, approximate="tanh"), 1),
    ("manual rms_norm", manual_rms_norm, 2),
    ("(a + b) * c - a / c", lambda a, b, c: (a + b) * c - a / (c.abs() + 1), 3),
]


def main():
    failed = 0
    for dtype in (torch.bfloat16, torch.float16):
        for name, fn, arity in CASES:
            inputs = tuple(randn(64, 256, dtype=dtype) for _ in range(arity))
            got, eager, ref = run(Fn(fn), inputs)
            ref = ref.to(torch.float64)
            norm = ref.norm().item()
            ours = (got.to(torch.float64) - ref).norm().item() / norm
            theirs = (eager.to(torch.float64) - ref).norm().item() / norm
            # Equal up to the noise of a different rounding, or better.
            ok = ours <= theirs * 1.01
            failed += not ok
            print(f"{name} {dtype}: xtile {ours:.3g}, eager {theirs:.3g}: "
                  f"{'ok' if ok else 'FAILED'}")
    print(f"compute-f32: {'all at least as accurate as eager' if not failed else f'{failed} FAILED'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
