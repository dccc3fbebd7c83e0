#!/usr/bin/env python3
"""Tile IR schedules: for every kernel of every example, the schedule the
cost model picks on a target, its estimated time, and the floor it is
measured against (bytes over bandwidth for row kernels, FMA work over the
FP32 peak for contractions, which run on the FMA pipes), and the two times
the estimate takes the larger of: device-memory time and the time to issue
the kernel's arithmetic (FMA time for contractions), from the JSON report
of `xtile-opt --lower-to-tile="schedule-report=FILE"`.

    python3 bench/schedules.py [--opt build/bin/xtile-opt] [--target sm_90]

These are the model's estimates, not measurements: GPU timings come from
bench/gpu and xtile-tune --backend cuda. A benchmark: prints numbers, never
fails on them.
"""
import argparse
import json
import pathlib
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
# Device-memory bandwidth (bytes/s) and FP32 FMA peak (FLOP/s), as the
# built-in #xtile.target descriptions give them.
BANDWIDTH = {"sm_90": 3350e9, "sm_80": 2039e9}
FP32_PEAK = {"sm_90": 67e12, "sm_80": 19.5e12}


def floor_micros(facts, target):
    if facts["kind"] == "row":
        return facts["bytes"] / BANDWIDTH[target] * 1e6
    flops = 2 * facts["batch"] * facts["m"] * facts["n"] * facts["k"] * facts["contractions"]
    return flops / FP32_PEAK[target] * 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opt", default=str(ROOT / "build/bin/xtile-opt"))
    parser.add_argument("--target", default="sm_90", choices=sorted(BANDWIDTH))
    args = parser.parse_args()
    print(f"{'kernel':<34}{'schedule':<22}{'estimate us':>12}{'floor us':>10}{'x floor':>9}"
          f"{'memory us':>11}{'issue us':>10}{'issue/mem':>10}")
    with tempfile.TemporaryDirectory() as tmp:
        report = pathlib.Path(tmp, "report.json")
        for example in sorted((ROOT / "examples").glob("*.mlir")):
            subprocess.run(
                [args.opt, f"--lower-to-tile=target={args.target} schedule-report={report}",
                 str(example), "-o", "/dev/null"], check=True)
            for kernel in json.loads(report.read_text())["kernels"]:
                floor = floor_micros(kernel["facts"], args.target)
                estimate = kernel["micros"]
                memory, issue = kernel["memory_micros"], kernel["issue_micros"]
                share = f"{issue / memory:>10.0%}" if memory else f"{'-':>10}"
                print(f"{kernel['kernel']:<34}{kernel['name']:<22}{estimate:>12.1f}"
                      f"{floor:>10.1f}{estimate / floor:>9.2f}{memory:>11.1f}"
                      f"{issue:>10.1f}{share}")


if __name__ == "__main__":
    main()
