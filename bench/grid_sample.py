#!/usr/bin/env python3
"""grid_sample over images and volumes, forward and backward: launches and
bytes moved against the ideal, by xtile-opt's --xloop-report.

For each mode (bilinear/trilinear, nearest, bicubic/tricubic) and each of
the forward (aten.grid_sampler_{2,3}d) and the backward
(aten.grid_sampler_{2,3}d_backward: the input's gradient, a scatter-add of
every tap, and the grid's), the graph is imported from PyTorch and lowered
to Loop IR: the launches, the bytes every kernel touches (each buffer once,
in full; the scatter-adds' destination counted among the updates in
place) and the ideal (each input read once, each result written once).
`--kernel` also lowers each graph for sm_90 and prints the time that
takes. Numbers, not checks: this never fails on them.

    PATH=$PWD/build/bin:$PATH PYTHONPATH=python build/venv/bin/python \\
        bench/grid_sample.py [--dims 3] [--batch 2 --channels 16 --size 32]
"""
import argparse
import re
import subprocess
import time

import torch

import xtile
from xtile import runtime


class Op(torch.nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *args):
        return self.fn(*args)


def report(text):
    out = subprocess.run([runtime._tool("xtile-opt"), "--lower-to-loop", "--xloop-report",
                          "-o", "/dev/null"], input=text, capture_output=True, text=True,
                         check=True).stdout
    m = re.search(r": (\d+) launch(?:es)?, (\d+) B moved, ideal (\d+) B", out)
    return int(m[1]), int(m[2]), int(m[3])


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dims", type=int, default=3, choices=(2, 3))
    p.add_argument("--batch", type=int, default=2)
    p.add_argument("--channels", type=int, default=16)
    p.add_argument("--size", type=int, default=32)
    p.add_argument("--kernel", action="store_true")
    opts = p.parse_args()
    d = opts.dims
    spatial = (opts.size,) * d
    torch.manual_seed(0)
    x = torch.randn((opts.batch, opts.channels) + spatial)
    grid = torch.rand((opts.batch,) + spatial + (d,)) * 2.2 - 1.1
    go = torch.randn((opts.batch, opts.channels) + spatial)
    forward = getattr(torch.ops.aten, f"grid_sampler_{d}d")
    backward = getattr(torch.ops.aten, f"grid_sampler_{d}d_backward")
    names = ("bilinear", "nearest", "bicubic") if d == 2 else ("trilinear", "nearest", "tricubic")
    print(f"grid_sampler_{d}d: input {tuple(x.shape)}, grid {tuple(grid.shape)}, f32, "
          "zeros padding")
    print(f"{'mode':10} {'graph':9} {'launches':>8} {'MiB moved':>10} {'ideal MiB':>10} "
          f"{'x ideal':>8}" + ("  lowering to sm_90" if opts.kernel else ""))
    for mode, name in enumerate(names):
        for kind in ("forward", "backward"):
            if kind == "forward":
                module = Op(lambda x, g: forward(x, g, mode, 0, False))
                args = (x, grid)
            else:
                module = Op(lambda go, x, g: backward(go, x, g, mode, 0, False, [True, True]))
                args = (go, x, grid)
            text = xtile.import_module(module.eval(), args)
            launches, moved, ideal = report(text)
            line = (f"{name:10} {kind:9} {launches:8d} {moved / 2**20:10.1f} "
                    f"{ideal / 2**20:10.1f} {moved / ideal:8.2f}")
            if opts.kernel:
                start = time.time()
                r = subprocess.run([runtime._tool("xtile-opt"), "--lower-to-kernel=target=sm_90",
                                    "-o", "/dev/null"], input=text, capture_output=True,
                                   text=True)
                line += f"  {time.time() - start:.1f} s" + ("" if r.returncode == 0 else
                                                             "  FAILED: " + r.stderr[-200:])
            print(line, flush=True)


if __name__ == "__main__":
    main()
