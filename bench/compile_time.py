#!/usr/bin/env python3
"""Compile time as the graph grows: stacks of decoder-style blocks (RMSNorm,
SwiGLU MLP, residual) of about 100, 1,000 and 10,000 Tensor IR ops after
decomposition, lowered with --lower-to-loop, against xtile-opt only parsing
and printing the same module. Best of three runs each.

    python3 bench/compile_time.py [--opt build/bin/xtile-opt]

Targets: lowering within 20x of parse-and-print, and linear growth (10x the
ops, at most 12x the time). CUDA C and PTX emission join the measurement
with the Kernel IR level. A benchmark: prints numbers, never fails on them.
"""
import argparse
import pathlib
import subprocess
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
T, D, F = 64, 256, 512


def stack(layers):
    args = [f"%x: tensor<{T}x{D}xf32>"]
    body = []
    cur = "%x"
    for l in range(layers):
        args += [f"%n{l}: tensor<{D}xf32>", f"%wg{l}: tensor<{F}x{D}xf32>",
                 f"%wu{l}: tensor<{F}x{D}xf32>", f"%wd{l}: tensor<{D}x{F}xf32>"]
        body += [
            f"%h{l} = xtensor.rms_norm {cur} weight %n{l} eps 1.0e-6 : (tensor<{T}x{D}xf32>, tensor<{D}xf32>) -> tensor<{T}x{D}xf32>",
            f"%g{l} = xtensor.linear %h{l}, %wg{l} : (tensor<{T}x{D}xf32>, tensor<{F}x{D}xf32>) -> tensor<{T}x{F}xf32>",
            f"%u{l} = xtensor.linear %h{l}, %wu{l} : (tensor<{T}x{D}xf32>, tensor<{F}x{D}xf32>) -> tensor<{T}x{F}xf32>",
            f"%s{l} = xtensor.silu %g{l} : tensor<{T}x{F}xf32>",
            f"%m{l} = xtensor.mul %s{l}, %u{l} : tensor<{T}x{F}xf32>",
            f"%d{l} = xtensor.linear %m{l}, %wd{l} : (tensor<{T}x{F}xf32>, tensor<{D}x{F}xf32>) -> tensor<{T}x{D}xf32>",
            f"%r{l} = xtensor.add {cur}, %d{l} : tensor<{T}x{D}xf32>",
        ]
        cur = f"%r{l}"
    lines = [f"func.func @stack({', '.join(args)}) -> tensor<{T}x{D}xf32> {{"]
    lines += ["  " + b for b in body]
    lines += [f"  return {cur} : tensor<{T}x{D}xf32>", "}"]
    return "\n".join(lines) + "\n"


def best_of(cmd, runs=3):
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - start)
    return best


def count_ops(opt, path):
    out = subprocess.run([opt, "--xtensor-decompose", str(path)], check=True,
                         capture_output=True, text=True).stdout
    return sum(1 for line in out.splitlines() if "= xtensor." in line)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opt", default=str(ROOT / "build/bin/xtile-opt"))
    args = parser.parse_args()
    print(f"{'layers':>7}{'ops':>8}{'parse+print s':>15}{'lower-to-loop s':>17}{'ratio':>8}{'growth':>8}")
    previous = None
    with tempfile.TemporaryDirectory() as tmp:
        for layers in (5, 48, 477):
            path = pathlib.Path(tmp) / f"stack{layers}.mlir"
            path.write_text(stack(layers))
            ops = count_ops(args.opt, path)
            parse = best_of([args.opt, str(path), "-o", "/dev/null"])
            lower = best_of([args.opt, "--lower-to-loop", str(path), "-o", "/dev/null"])
            growth = f"{lower / previous:.1f}x" if previous else "-"
            print(f"{layers:>7}{ops:>8}{parse:>15.3f}{lower:>17.3f}{lower / parse:>8.1f}{growth:>8}")
            previous = lower


if __name__ == "__main__":
    main()
