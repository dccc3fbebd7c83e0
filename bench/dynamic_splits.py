#!/usr/bin/env python3
"""Few long rows of a dynamic length: what the cost model estimates for
the schedule a module compiled once over T runs at each T (the bucket of
T's range that holds it: one program per row, or a split over ways whose
shares are computed at run time), beside the best of one program per row
looping over chunks with scalar accesses (the only kind of schedule over a
dynamic row before: `1/row`), and the best schedule of a compile
specialized to T.

    python3 bench/dynamic_splits.py [--opt build/bin/xtile-opt] [--target sm_90]

The module is test/Integration/Inputs/dynamic-splits.mlir (8 rows of T
summed; one row of T summed; 4 bf16 rows of T scaled by their sums of
squares). Estimates, not measurements: a benchmark that prints numbers
and never fails on them. "floor" is the bytes moved over the target's
bandwidth.
"""
import argparse
import json
import pathlib
import re
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
MODULE = ROOT / "test/Integration/Inputs/dynamic-splits.mlir"
SIZES = [1000, 16384, 65536, 262144, 1048576]


def report(opt, target, text, tmp, name, force=None):
    path = pathlib.Path(tmp, f"{name}.json")
    options = f"target={target} schedule-report={path}"
    if force:
        options += f' force-schedule="{force}"'
    subprocess.run([opt, f"--lower-to-tile={options}", "-", "-o", "/dev/null"],
                   input=text, text=True, check=True)
    return {k["kernel"]: k for k in json.loads(path.read_text())["kernels"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--opt", default=str(ROOT / "build/bin/xtile-opt"))
    parser.add_argument("--target", default="sm_90")
    parser.add_argument("--bandwidth", type=float, default=3350,
                        help="GB/s of the target (sm_90's default: 3350)")
    args = parser.parse_args()
    text = MODULE.read_text()
    with tempfile.TemporaryDirectory() as tmp:
        over_t = report(args.opt, args.target, text, tmp, "dynamic")
        print(f"{'kernel':<22} {'T':>8} {'bucket schedule':<44} {'bucket us':>9} "
              f"{'1/row us':>9} {'static us':>9} {'floor us':>8}")
        for size in SIZES:
            specialized = subprocess.run(
                [args.opt, f"--xtensor-specialize-dims=sizes=T={size}", str(MODULE)],
                capture_output=True, text=True, check=True).stdout
            best = report(args.opt, args.target, specialized, tmp, f"best-{size}")
            for kernel, entry in over_t.items():
                schedule = next(b["schedule"] for b in entry["buckets"]
                                if b["min"] <= size <= b["max"])
                forced = report(args.opt, args.target, specialized, tmp,
                                f"forced-{size}-{kernel}", schedule)
                # (Forcing applies to every row kernel; read this one's.)
                floor = best[kernel]["facts"]["bytes"] / (args.bandwidth * 1e3)
                # One program per row over chunks, scalar accesses (chunked
                # candidates exist where the row is longer than a tile).
                per_row = [c["micros"] for c in best[kernel]["candidates"]
                           if c["schedule"].startswith("#xtile.row_schedule<block")
                           and re.search(r"vector = 1[,>]", c["schedule"])
                           and ("chunk" in c["schedule"] or size <= 4096)]
                print(f"{kernel:<22} {size:>8} {schedule[len('#xtile.row_schedule'):]:<44} "
                      f"{forced[kernel]['micros']:>9.1f} {min(per_row):>9.1f} "
                      f"{best[kernel]['micros']:>9.1f} {floor:>8.1f}")


if __name__ == "__main__":
    main()
