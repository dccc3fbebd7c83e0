#!/usr/bin/env python3
"""Error of xtile's math functions in ulps, under the CPU emulation.

For each function and element type, runs one elementwise kernel through
`xtile-run --backend=emu` over inputs that cover the whole range (f16 and
bf16: every bit pattern; f32: 2^18 random bit patterns, a dense sample of
[-12, 12], the edges of every range reduction, denormals, +-0, +-inf and
NaN) and compares each result with the float64 value rounded to nothing:
the error is |result - exact| in units of the result type's last place at
the exact value (denormal ulps below the smallest normal). NaN must map to
NaN, infinities and zeros must be exact where the function's value is.

The emulation gives every special-function instruction its full documented
error, so the bounds measured here hold for the GPU's instructions too.
Prints one line per function; exits 1 if one exceeds its documented bound
(docs/Math.md) or gets a special value wrong.

    math_ulp.py [--xtile-run PATH] [--mode default|fast|both] [--only exp,log]
"""
import argparse
import pathlib
import subprocess
import sys
import tempfile

import numpy as np
import torch

# function: (Tensor IR op, float64 reference, arity)
FUNCTIONS = {
    "exp": ("exp", np.exp, 1),
    "exp2": ("exp2", np.exp2, 1),
    "log": ("log", np.log, 1),
    "log2": ("log2", np.log2, 1),
    "tanh": ("tanh", np.tanh, 1),
    "sigmoid": ("sigmoid", lambda x: 1.0 / (1.0 + np.exp(-x)), 1),
    "erf": ("erf", lambda x: torch.special.erf(torch.from_numpy(x)).numpy(), 1),
    "erfc": ("erfc", lambda x: torch.special.erfc(torch.from_numpy(x)).numpy(), 1),
    "rsqrt": ("rsqrt", lambda x: 1.0 / np.sqrt(x), 1),
    "sqrt": ("sqrt", np.sqrt, 1),
    "reciprocal": ("reciprocal", lambda x: 1.0 / x, 1),
    "div": ("div", lambda x, y: x / y, 2),
    # Rows divided by one divisor each (softmax's division by the row sum).
    "div_by_row": ("div", lambda x, y: x / y, 2),
    # x (1 + erf(x / sqrt 2)) / 2: in 16-bit kernels 1 + erf is built as
    # erfc, relative to the value in the negative tail.
    "gelu_erf": ("gelu erf", lambda x: 0.5 * x * torch.special.erfc(
        torch.from_numpy(-x / np.sqrt(2.0))).numpy(), 1),
}

# Documented bounds in ulps (docs/Math.md), f32 default.
# f16 and bf16 results are computed in f32 (with the cheaper forms of a
# kernel of 16-bit outputs, docs/Math.md) and rounded once: within half an
# ulp plus what the f32 error can add after rounding, 2^-9 ulp.
HALF_BOUND = 0.5 + 2.0**-9
BOUNDS = {
    "exp": 4.5, "exp2": 4.5, "log": 1.0,
    "log2": 1.0, "tanh": 2.0, "sigmoid": 6.5,
    "erf": 2.0, "erfc": 7.0, "rsqrt": 1.0, "sqrt": 0.5,
    "reciprocal": 0.5, "div": 0.5, "div_by_row": 0.5,
    # f32 GELU computes 1 + erf(x / sqrt 2) as eager's f32 kernel does,
    # which keeps an absolute error near 2^-25 where the sum cancels.
    "gelu_erf": None,
}
# Fast-math bounds, over the arguments where they hold (absolute error
# elsewhere is reported, not bounded).
FAST_BOUNDS = {
    "exp": None, "exp2": 4.5, "log": None, "log2": None, "tanh": None,
    "sigmoid": None, "erf": None, "erfc": None, "rsqrt": 3.0, "sqrt": 2.5,
    "reciprocal": 1.5, "div": 3.5, "div_by_row": 3.5, "gelu_erf": None,
}

# Significand bits and smallest normal exponent of each result type.
DTYPES = {"f32": (24, -126), "f16": (11, -14), "bf16": (8, -126)}


def bf16_from_bits(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def inputs(dtype, rng):
    """Inputs as float64, and as the array handed to xtile-run."""
    if dtype == "f16":
        x = np.arange(65536, dtype=np.uint16).view(np.float16)
        return x.astype(np.float64), x
    if dtype == "bf16":
        bits = np.arange(65536, dtype=np.uint32)
        x = bf16_from_bits(bits)  # .npy has no bf16: f32 values, exact
        return x.astype(np.float64), x
    random_bits = rng.integers(0, 2**32, size=2**18, dtype=np.uint64)
    parts = [
        random_bits.astype(np.uint32).view(np.float32),
        np.linspace(-12, 12, 2**17, dtype=np.float32),
        np.linspace(0.5, 2.0, 2**15, dtype=np.float32),
        np.float32([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45,
                    1.17549435e-38, 3.4028235e38, -3.4028235e38, 1.0, -1.0]),
    ]
    edges = [0.55, 1.0, 3.92, 89.0, -105.0, 88.72283, -87.33654, -103.97208,
             0.70710677, 1.4142135, 2.0**-126, 9.1, -9.1, 128.0, -150.0]
    for e in edges:
        around = np.float32(e) + np.arange(-64, 65).astype(np.float32) * \
            np.spacing(np.float32(e))
        parts.append(around.astype(np.float32))
        parts.append(-around.astype(np.float32))
    x = np.concatenate(parts).astype(np.float32)
    return x.astype(np.float64), x


def ulp_error(result, exact, precision, emin):
    """|result - exact| in ulps of the result format at `exact`."""
    with np.errstate(all="ignore"):
        a = np.abs(exact)
        e = np.floor(np.log2(np.where(a > 0, a, 1.0)))
        e = np.maximum(e, emin)
        ulp = np.ldexp(1.0, (e - (precision - 1)).astype(np.int64))
        res = result.astype(np.float64)
        # Past the largest finite value plus half an ulp, the correctly
        # rounded result is infinity; short of it, an infinity counts as
        # the next binade's first value.
        emax = 127 if emin == -126 else 15
        big = np.ldexp(1.0, emax + 1)
        overflow = a >= big - np.ldexp(1.0, emax - precision)
        res = np.where(np.isinf(res) & ~overflow, np.sign(res) * big, res)
        err = np.abs(res - exact) / ulp
        return np.where(overflow, np.where(np.isinf(res) &
                                           (np.sign(res) == np.sign(exact)),
                                           0.0, np.inf), err)


ROW = 64  # columns per divisor in div_by_row


def run(op, arity, dtype, x_in, fast, tool, tmp, by_row=False):
    n = x_in[0].shape[0]
    t = f"tensor<{n}x{dtype}>"
    args = ", ".join(f"%a{i}: {t}" for i in range(arity))
    operands = ", ".join(f"%a{i}" for i in range(arity))
    mlir = (f"func.func @f({args}) -> {t} {{\n"
            f"  %y = xtensor.{op} {operands} : {t}\n"
            f"  return %y : {t}\n}}\n")
    if by_row:
        rows = n // ROW
        t2 = f"tensor<{rows}x{ROW}x{dtype}>"
        t1 = f"tensor<{rows}x1x{dtype}>"
        mlir = (f"func.func @f(%a: {t2}, %b: {t1}) -> {t2} {{\n"
                f"  %bb = xtensor.broadcast %b : {t1} -> {t2}\n"
                f"  %y = xtensor.div %a, %bb : {t2}\n"
                f"  return %y : {t2}\n}}\n")
        x_in = [x_in[0].reshape(rows, ROW), x_in[1][::ROW].reshape(rows, 1)]
    src = pathlib.Path(tmp, "f.mlir")
    src.write_text(mlir)
    files = []
    for i, arr in enumerate(x_in):
        path = pathlib.Path(tmp, f"in{i}.npy")
        np.save(path, arr)
        files.append(str(path))
    out = pathlib.Path(tmp, "out.npy")
    if out.exists():
        out.unlink()
    cmd = [tool, "--backend=emu", "--inputs", ",".join(files), "--outputs",
           str(out), str(src)]
    if fast:
        cmd.append("--fast-math")
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if not out.exists():
        sys.exit(f"xtile-run failed on {op} {dtype}:\n{proc.stderr}")
    return np.load(out).astype(np.float64)


def measure(name, dtype, fast, tool, tmp, rng):
    op, reference, arity = FUNCTIONS[name]
    precision, emin = DTYPES[dtype]
    x64, x_in = inputs(dtype, rng)
    args64, args_in = [x64], [x_in]
    if arity == 2:
        perm = rng.permutation(x64.shape[0])
        args64.append(x64[perm])
        args_in.append(x_in[perm])
    by_row = name == "div_by_row"
    if by_row:
        n = x64.shape[0] // ROW * ROW
        args64 = [a[:n] for a in args64]
        args_in = [a[:n] for a in args_in]
        # Each row's divisor is the first of its ROW values.
        args64[1] = np.repeat(args64[1][::ROW], ROW)
        x64 = args64[0]
    y = run(op, arity, dtype, args_in, fast, tool, tmp, by_row).reshape(-1)
    with np.errstate(all="ignore"):
        exact = reference(*args64)
    if fast:
        # Fast-math flushes denormal inputs and results to zero: only
        # normal numbers, zeros, infinities and NaN are compared.
        tiny = 2.0 ** emin
        keep = np.ones(x64.shape[0], dtype=bool)
        with np.errstate(invalid="ignore"):
            for a in args64 + [exact]:
                keep &= ~((np.abs(a) < tiny) & (a != 0))
        if name in ("div", "div_by_row", "reciprocal"):
            keep &= np.abs(args64[-1]) < 2.0**126
        y, exact, args64 = y[keep], exact[keep], [a[keep] for a in args64]
    special = 0
    nan = np.isnan(exact)
    special += int(np.sum(nan != np.isnan(y)))
    inf = np.isinf(exact)
    special += int(np.sum(inf & (y != exact)))
    finite = ~nan & ~inf
    if name == "sigmoid":
        # 1 / (1 + e^-x): e^-x overflows below -88.7, and the result,
        # denormal there, is 0 (as in eager PyTorch's f32 kernel).
        finite &= args64[0] > -87.0
    err = ulp_error(y[finite], exact[finite], precision, emin)
    worst = int(np.argmax(err)) if err.size else 0
    at = [a[finite][worst] for a in args64] if err.size else []
    both = finite & np.isfinite(y)
    absmax = float(np.max(np.abs(y[both] - exact[both]))) if both.any() else 0.0
    # Results that are not the exact value correctly rounded (more than
    # half an ulp away).
    misrounded = int(np.sum(err > 0.5 + 1e-9))
    eager = None
    if name == "gelu_erf" and dtype != "f32" and not fast:
        # Eager PyTorch's GELU on the same inputs (f32 arithmetic, rounded
        # once), in the same units.
        torch_dtype = {"f16": torch.float16, "bf16": torch.bfloat16}[dtype]
        e = torch.nn.functional.gelu(torch.from_numpy(x64).to(torch_dtype))
        e = e.to(torch.float64).numpy()[finite]
        eager_err = ulp_error(e, exact[finite], precision, emin)
        eager = (float(eager_err.max()), int(np.sum(eager_err > 0.5 + 1e-9)))
    return ((float(err.max()) if err.size else 0.0), at, special, absmax,
            misrounded, int(err.size), eager)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--xtile-run", default="xtile-run")
    p.add_argument("--mode", default="both", choices=["default", "fast", "both"])
    p.add_argument("--only", default="")
    p.add_argument("--dtypes", default="f32,f16,bf16")
    args = p.parse_args()
    names = [n for n in FUNCTIONS if not args.only or n in args.only.split(",")]
    modes = {"default": [False], "fast": [True], "both": [False, True]}[args.mode]
    rng = np.random.default_rng(7)
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for fast in modes:
            for dtype in args.dtypes.split(","):
                if fast and dtype != "f32":
                    continue
                for name in names:
                    worst, at, special, absmax, misrounded, count, eager = measure(
                        name, dtype, fast, args.xtile_run, tmp, rng)
                    if fast:
                        bound = FAST_BOUNDS[name]
                    elif dtype == "f32":
                        bound = BOUNDS[name]
                    elif eager is not None:
                        # Within eager's error where eager is not within
                        # half an ulp.
                        bound = max(HALF_BOUND, eager[0])
                    else:
                        bound = HALF_BOUND
                    ok = special == 0 and (bound is None or worst <= bound + 1e-6)
                    failed += not ok
                    where = ", ".join(f"{a:.9g}" for a in at)
                    limit = (f"bound {bound}" if bound is not None
                             else "no ulp bound")
                    print(f"{name} {dtype} {'fast' if fast else 'default'}: "
                          f"max {worst:.2f} ulp ({worst:.4f}) at ({where}), {limit}, "
                          f"max abs {absmax:.3g}, "
                          f"{count - misrounded} of {count} correctly rounded, "
                          + (f"eager: max {eager[0]:.2f} ulp, "
                             f"{count - eager[1]} correctly rounded, "
                             if eager else "") +
                          f"special values "
                          f"{'ok' if special == 0 else f'{special} wrong'}: "
                          f"{'ok' if ok else 'FAIL'}", flush=True)
    print(f"math-ulp: {'all within bounds' if not failed else f'{failed} FAILED'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
