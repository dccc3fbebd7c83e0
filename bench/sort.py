#!/usr/bin/env python3
"""Sorts of long rows (docs/Frontend.md, "Selection and sorting"): the
kernels, device-memory traffic and work of xtile's merge sort against a
sort that reads each row once and writes its values and indices once.

    build/venv/bin/python bench/sort.py [--shapes 8x300,8x4096,1x32000,1x131072]
        [--arch sm_90]

Each shape [rows, n] of f32 is sorted along its rows (`torch.sort`, as the
top-p filter sorts a vocabulary's logits), imported by xtile
(`xtile.import_module`) and lowered with `xtile-opt --lower-to-kernel`.

Columns:
- passes: the merging passes (the row padded to 32 x 2^passes elements,
  blocks of 32 ranked first);
- kernels, moved: launches and bytes all kernels read and write
  (`--xloop-report`);
- ideal: the bytes a single-pass sort moves (the row read, values and
  int64 indices written: 16 bytes per element), and moved / ideal;
- compile: the seconds `xtile-opt --lower-to-kernel` takes.

A single-pass sort holds the row on chip (a bitonic or radix sort in
registers and shared memory, as Triton's `tl.sort` or CUB's segmented
sorts do for rows that fit): xtile's passes exchange positions through
device memory instead, since Loop IR has no block-wide barrier.

A benchmark: prints numbers, never fails on them.
"""
import argparse
import pathlib
import re
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shapes", default="8x300,8x4096,1x32000,1x131072")
    parser.add_argument("--arch", default="sm_90")
    args = parser.parse_args()

    import torch
    import xtile
    from xtile import runtime

    class Sort(torch.nn.Module):
        def forward(self, x):
            return torch.sort(x, dim=-1)

    opt = runtime._tool("xtile-opt")
    print(f"{'shape':>10} {'passes':>6} {'kernels':>7} {'moved MB':>9} {'ideal MB':>9} "
          f"{'x ideal':>7} {'compile s':>9}")
    for spec in args.shapes.split(","):
        rows, n = (int(v) for v in spec.split("x"))
        x = torch.randn(rows, n)
        text = xtile.import_module(Sort().eval(), (x,))
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp) / "sort.mlir"
            path.write_text(text)
            start = time.time()
            subprocess.run([opt, f"--lower-to-kernel=target={args.arch}", str(path), "-o",
                            str(pathlib.Path(tmp) / "kernel.mlir")], check=True)
            seconds = time.time() - start
            report = subprocess.run([opt, "--lower-to-loop", "--xloop-report", str(path),
                                     "-o", "/dev/null"], check=True, capture_output=True,
                                    text=True).stdout
        m = re.search(r"(\d+) launches, (\d+) B moved", report)
        kernels, moved = int(m.group(1)), int(m.group(2))
        blocks = -(-n // 32)
        passes = (blocks - 1).bit_length() if n > 256 else 0
        ideal = rows * n * (4 + 4 + 8)
        print(f"{spec:>10} {passes:>6} {kernels:>7} {moved / 1e6:>9.2f} {ideal / 1e6:>9.2f} "
              f"{moved / ideal:>7.2f} {seconds:>9.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
