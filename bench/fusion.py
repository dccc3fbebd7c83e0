#!/usr/bin/env python3
"""Fusion quality: kernels launched and device-memory bytes moved, fused
(--lower-to-loop) against one op per kernel (what eager PyTorch launches),
against the ideal (each input read once, each output written once).

    python3 bench/fusion.py [--opt build/bin/xtile-opt] [examples...]

Bytes come from --xloop-report: every buffer a kernel touches, once and in
full. This is a benchmark: it prints numbers and never fails on them.
"""
import argparse
import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent
REPORT = re.compile(r"func @(\S+): (\d+) launch(?:es)?, (\d+) B moved, ideal (\d+) B")


def report(opt, path, passes):
    out = subprocess.run([opt, *passes, "--xloop-report", "-o", "/dev/null", str(path)],
                         check=True, capture_output=True, text=True).stdout
    return {m[1]: (int(m[2]), int(m[3]), int(m[4])) for m in REPORT.finditer(out)}


def mib(n):
    return f"{n / 2**20:9.1f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opt", default=str(ROOT / "build/bin/xtile-opt"))
    parser.add_argument("examples", nargs="*",
                        default=sorted(str(p) for p in (ROOT / "examples").glob("*.mlir")))
    args = parser.parse_args()
    eager_passes = ["--xtensor-decompose", "--xtensor-normalize", "--convert-xtensor-to-xloop"]
    print(f"{'graph':<16}{'kernels':>9}{'eager':>7}{'MiB moved':>11}{'eager MiB':>11}"
          f"{'ideal MiB':>11}{'x ideal':>9}{'eager x':>9}")
    for example in args.examples:
        fused = report(args.opt, example, ["--lower-to-loop"])
        eager = report(args.opt, example, eager_passes)
        for func, (launches, moved, ideal) in fused.items():
            e_launches, e_moved, _ = eager[func]
            print(f"{func:<16}{launches:>9}{e_launches:>7}{mib(moved):>11}{mib(e_moved):>11}"
                  f"{mib(ideal):>11}{moved / ideal:>9.2f}{e_moved / ideal:>9.2f}")


if __name__ == "__main__":
    main()
