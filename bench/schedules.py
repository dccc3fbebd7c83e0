#!/usr/bin/env python3
"""Tile IR schedules: for every kernel of every example, the schedule the
cost model picks on a target, its estimated time, and the floor it is
measured against (bytes over bandwidth for row kernels, work over peak for
matmuls), from `xtile-opt --lower-to-tile="report-schedules=1"`.

    python3 bench/schedules.py [--opt build/bin/xtile-opt] [--target sm_90]

These are the model's estimates, not measurements: GPU timings come with the
Kernel IR level (bench/gpu). A benchmark: prints numbers, never fails on them.
"""
import argparse
import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent
BANDWIDTH = {"sm_90": 3350e9, "sm_80": 2039e9}          # bytes/s
PEAK = {("sm_90", True): 989e12, ("sm_90", False): 67e12,  # FLOP/s
        ("sm_80", True): 312e12, ("sm_80", False): 19.5e12}
ROW = re.compile(r"kernel @(\S+): (\d+) program\(s\) x (\d+) column\(s\).* (\d+) B on (\S+)")
DOT = re.compile(r"kernel @(\S+): (\d+) x \[(\d+) x (\d+)\] @ \[\d+ x (\d+)\], (\d+) contraction")
CHOSEN = re.compile(r"^  \* (\S+)\s+([\d.]+) us")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opt", default=str(ROOT / "build/bin/xtile-opt"))
    parser.add_argument("--target", default="sm_90", choices=sorted(BANDWIDTH))
    args = parser.parse_args()
    print(f"{'kernel':<34}{'schedule':<22}{'estimate us':>12}{'floor us':>10}{'x floor':>9}")
    for example in sorted((ROOT / "examples").glob("*.mlir")):
        out = subprocess.run(
            [args.opt, f"--lower-to-tile=target={args.target} report-schedules=1",
             str(example), "-o", "/dev/null"],
            check=True, capture_output=True, text=True).stdout
        floor = None
        name = None
        for line in out.splitlines():
            if m := ROW.match(line):
                name, floor = m[1], int(m[4]) / BANDWIDTH[args.target] * 1e6
            elif m := DOT.match(line):
                batch, mm, k, n, folds = (int(m[i]) for i in (2, 3, 4, 5, 6))
                # The report does not say the operand width; the examples
                # are f32 (FP32 pipes).
                name = m[1]
                floor = 2 * batch * mm * n * k * folds / PEAK[(args.target, False)] * 1e6
            elif (m := CHOSEN.match(line)) and name:
                estimate = float(m[2])
                print(f"{name:<34}{m[1]:<22}{estimate:>12.1f}{floor:>10.1f}{estimate / floor:>9.2f}")
                name = None


if __name__ == "__main__":
    main()
