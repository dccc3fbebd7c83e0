#!/usr/bin/env python3
"""Compile time as the graph grows: stacks of decoder-style blocks (RMSNorm,
SwiGLU MLP, residual) of about 100, 1,000 and 10,000 Tensor IR ops after
decomposition, against xtile-opt only parsing and printing the same module:
--lower-to-loop; --lower-to-kernel then CUDA C emission; and
--lower-to-kernel then PTX emission (LLVM's NVPTX backend). Best of three
runs each.

    python3 bench/compile_time.py [--opt build/bin/xtile-opt]
                                  [--translate build/bin/xtile-translate]

Targets: lowering plus emission within 20x of parse-and-print, and linear
growth (10x the ops, at most 12x the time). A benchmark: prints numbers,
never fails on them.
"""
import argparse
import pathlib
import subprocess
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
T, D, F = 64, 256, 512


def stack(layers, d=D, f=F, rows=None, symbols=""):
    """`layers` blocks on [rows, d] activations (`rows`: a type's leading
    size and encoding, "T" static by default; `symbols`: the function's
    attributes, for a dynamic one)."""
    rows = rows or (str(T), "")
    act = lambda n: f"tensor<{rows[0]}x{n}xf32{rows[1]}>"
    args = [f"%x: {act(d)}"]
    body = []
    cur = "%x"
    for l in range(layers):
        args += [f"%n{l}: tensor<{d}xf32>", f"%wg{l}: tensor<{f}x{d}xf32>",
                 f"%wu{l}: tensor<{f}x{d}xf32>", f"%wd{l}: tensor<{d}x{f}xf32>"]
        body += [
            f"%h{l} = xtensor.rms_norm {cur} weight %n{l} eps 1.0e-6 : ({act(d)}, tensor<{d}xf32>) -> {act(d)}",
            f"%g{l} = xtensor.linear %h{l}, %wg{l} : ({act(d)}, tensor<{f}x{d}xf32>) -> {act(f)}",
            f"%u{l} = xtensor.linear %h{l}, %wu{l} : ({act(d)}, tensor<{f}x{d}xf32>) -> {act(f)}",
            f"%s{l} = xtensor.silu %g{l} : {act(f)}",
            f"%m{l} = xtensor.mul %s{l}, %u{l} : {act(f)}",
            f"%d{l} = xtensor.linear %m{l}, %wd{l} : ({act(f)}, tensor<{d}x{f}xf32>) -> {act(d)}",
            f"%r{l} = xtensor.add {cur}, %d{l} : {act(d)}",
        ]
        cur = f"%r{l}"
    lines = [f"func.func @stack({', '.join(args)}) -> {act(d)} {symbols}{{"]
    lines += ["  " + b for b in body]
    lines += [f"  return {cur} : {act(d)}", "}"]
    return "\n".join(lines) + "\n"


def best_of(cmd, runs=3):
    """Best wall time of `cmd`, a command or a pipeline (list of commands)."""
    pipeline = cmd if isinstance(cmd[0], list) else [cmd]
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        data = None
        for c in pipeline:
            data = subprocess.run(c, check=True, input=data,
                                  capture_output=True).stdout
        best = min(best, time.perf_counter() - start)
    return best


def count_ops(opt, path):
    out = subprocess.run([opt, "--xtensor-decompose", str(path)], check=True,
                         capture_output=True, text=True).stdout
    return sum(1 for line in out.splitlines() if "= xtensor." in line)


def tool_arguments(doc):
    """The command line of a compile-time benchmark: the tools to time."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--opt", default=str(ROOT / "build/bin/xtile-opt"))
    parser.add_argument("--translate",
                        default=str(ROOT / "build/bin/xtile-translate"))
    return parser.parse_args()


def main():
    args = tool_arguments(__doc__)
    print(f"{'layers':>7}{'ops':>8}{'parse+print s':>15}{'to-loop s':>11}"
          f"{'ratio':>7}{'+CUDA C s':>11}{'ratio':>7}{'growth':>8}"
          f"{'+PTX s':>9}{'ratio':>7}{'growth':>8}")
    previous = None
    with tempfile.TemporaryDirectory() as tmp:
        for layers in (5, 48, 477):
            path = pathlib.Path(tmp) / f"stack{layers}.mlir"
            path.write_text(stack(layers))
            ops = count_ops(args.opt, path)
            parse = best_of([args.opt, str(path)])
            loop = best_of([args.opt, "--lower-to-loop", str(path)])
            kernel = [args.opt, "--lower-to-kernel", str(path)]
            cuda = best_of([kernel, [args.translate, "--mlir-to-cuda"]])
            ptx = best_of([kernel, [args.translate, "--mlir-to-ptx"]])
            g1 = f"{cuda / previous[0]:.1f}x" if previous else "-"
            g2 = f"{ptx / previous[1]:.1f}x" if previous else "-"
            print(f"{layers:>7}{ops:>8}{parse:>15.3f}{loop:>11.3f}"
                  f"{loop / parse:>7.1f}{cuda:>11.3f}{cuda / parse:>7.1f}{g1:>8}"
                  f"{ptx:>9.3f}{ptx / parse:>7.1f}{g2:>8}")
            previous = (cuda, ptx)


if __name__ == "__main__":
    main()
