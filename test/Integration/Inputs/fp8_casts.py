#!/usr/bin/env python3
"""Casts to and from fp8 (f8E4M3FN, f8E5M2), checked bit for bit against
PyTorch's `.to()`, on the CPU emulation of one or both code paths.

To fp8 from f16 and bf16: every value of the source type. From f32: every
fp8 value, the midpoints between neighbours and the f32 values one ulp to
each side of them, the edges of overflow (448, 464, 480; 57344, 61440)
with their neighbours, subnormals of both types, +-0, +-inf, NaN of either
sign, and 2^17 random bit patterns. From fp8 to f32, f16 and bf16: every
fp8 value. NaN must be NaN with the sign PyTorch gives; everything else
(the sign of zero included) identical.

Each module runs through `xtile-run`, which also checks every output
against its float64 reference interpreter; `--backend emu-ptx` with
`--compare-with emu` runs the PTX path's code and requires the CUDA C
path's bits.

    fp8_casts.py [--xtile-run PATH] [--backend emu|emu-ptx] [--compare-with emu]
"""
import argparse
import pathlib
import subprocess
import sys
import tempfile

import numpy as np
import torch

FP8 = {"f8E4M3FN": torch.float8_e4m3fn, "f8E5M2": torch.float8_e5m2}
WIDE = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}


def every_value(dtype):
    if dtype.itemsize == 1:
        return torch.arange(256, dtype=torch.int32).to(torch.uint8).view(dtype)
    raw = torch.arange(-2**15, 2**15, dtype=torch.int32).to(torch.int16)
    return raw.view(dtype)


def f32_probes(rng):
    values = []
    for fp8 in FP8.values():
        exact = every_value(fp8).float()
        exact = exact[torch.isfinite(exact)].unique()
        mids = (exact[1:] + exact[:-1]) / 2  # exact in f32
        for v in (exact, mids):
            values += [v, torch.nextafter(v, torch.tensor(float("inf"))),
                       torch.nextafter(v, torch.tensor(float("-inf")))]
    edges = torch.tensor([448, 464, 480, 496, 512, 57344, 61440, 65536,
                          2.0**-9, 2.0**-10, 2.0**-16, 2.0**-17, 1e38,
                          3.4028235e38, 1e-45, 1e-40, 0.0],
                         dtype=torch.float32)
    edges = torch.cat([edges, torch.nextafter(edges, edges + 1),
                       torch.nextafter(edges, edges - 1)])
    specials = torch.tensor([float("inf"), float("nan")], dtype=torch.float32)
    random = torch.from_numpy(
        rng.integers(0, 2**32, 2**17, dtype=np.uint64).astype(np.uint32)
        .view(np.float32))
    v = torch.cat(values + [edges, specials])
    return torch.cat([v, -v, random])


def same_bits(got, want, nan_sign):
    """Equal values with equal signs; NaN where NaN, with its sign when
    `nan_sign` (casts to fp8 keep it, as PyTorch's do; widening casts give
    a NaN whose sign neither PyTorch nor PTX fixes)."""
    got, want = got.double(), want.double()
    nan = torch.isnan(want)
    sign = torch.signbit(got) == torch.signbit(want)
    if not nan_sign:
        sign |= nan
    return torch.where(nan, torch.isnan(got), got == want) & sign


def run(tool, backend, compare, module, inputs, tmp):
    src = pathlib.Path(tmp, "casts.mlir")
    src.write_text(module)
    files, outs = [], []
    for i, arr in enumerate(inputs):
        path = pathlib.Path(tmp, f"in{i}.npy")
        np.save(path, arr)
        files.append(str(path))
        outs.append(str(pathlib.Path(tmp, f"out{i}.npy")))
    cmd = [tool, f"--backend={backend}", "--inputs", ",".join(files),
           "--outputs", ",".join(outs), str(src)]
    if compare:
        cmd.append(f"--compare-with={compare}")
    proc = subprocess.run(cmd, capture_output=True, text=True)
    print(proc.stdout, end="")
    if not all(pathlib.Path(o).exists() for o in outs):
        sys.exit(f"xtile-run failed:\n{proc.stderr}")
    return proc.returncode, [torch.from_numpy(np.load(o)) for o in outs]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--xtile-run", default="xtile-run")
    p.add_argument("--backend", default="emu")
    p.add_argument("--compare-with", default="")
    args = p.parse_args()
    rng = np.random.default_rng(8)

    # (name, source type, target type, inputs as the source type)
    cases = []
    probes = f32_probes(rng)
    for fp8 in FP8:
        cases.append((f"f32 to {fp8}", "f32", fp8, probes))
        cases.append((f"f16 to {fp8}", "f16", fp8, every_value(torch.float16)))
        cases.append((f"bf16 to {fp8}", "bf16", fp8,
                      every_value(torch.bfloat16)))
        for wide in WIDE:
            cases.append((f"{fp8} to {wide}", fp8, wide,
                          every_value(FP8[fp8])))
    torch_types = {**FP8, **WIDE}

    params, results, body, types, inputs = [], [], [], [], []
    for i, (_, src, dst, x) in enumerate(cases):
        n = x.numel()
        params.append(f"%x{i}: tensor<{n}x{src}>")
        types.append(f"tensor<{n}x{dst}>")
        body.append(f"  %y{i} = xtensor.cast %x{i} : tensor<{n}x{src}> -> "
                    f"tensor<{n}x{dst}>\n")
        results.append(f"%y{i}")
        # .npy has no 16-bit brain float nor fp8: f32 holds each exactly.
        inputs.append(x.float().numpy())
    module = (f"func.func @casts({', '.join(params)}) -> "
              f"({', '.join(types)}) {{\n" + "".join(body) +
              f"  return {', '.join(results)} : {', '.join(types)}\n}}\n")
    with tempfile.TemporaryDirectory() as tmp:
        rc, outputs = run(args.xtile_run, args.backend, args.compare_with, module,
                      inputs, tmp)
    failed = rc != 0
    for (name, src, dst, x), got in zip(cases, outputs):
        want = x.to(torch_types[dst]).float()
        ok = same_bits(got.float(), want, nan_sign=dst in FP8)
        bad = (~ok).nonzero().flatten()
        line = f"{name}: {x.numel()} values, {bad.numel()} differ"
        if bad.numel():
            failed = True
            i = bad[0].item()
            line += (f" (first: {x[i].item()!r} gave {got[i].item()!r}, "
                     f"PyTorch {want[i].item()!r})")
        print(line)
    print("fp8 casts: " + ("MISMATCH" if failed else "all equal PyTorch's"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
