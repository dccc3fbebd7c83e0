#!/usr/bin/env python3
"""An optimizer step's traffic with its updates written in place.

One AdamW step (PyTorch's single-tensor algorithm: decoupled weight decay,
moving averages, bias corrections, the step's division) on one parameter
of 4096 x 4096 f32 with its gradient and two moment tensors, imported as
the function torch.compile(optimizer.step) compiles for it: the
parameter and both moments are returned in place of the arguments
(`xtensor.in_place`). Its device-memory traffic (xtile-opt --xloop-report)
with each update written into the argument's buffer
(--xloop-write-in-place), and without (write-in-place=false): each new
value then goes to a temporary and is copied into the argument's buffer
after the step, which moves its bytes twice more. The ideal is each
tensor read once and each updated one written once (7 x 64 MiB).

    PATH=$PWD/build/bin:$PATH PYTHONPATH=python build/venv/bin/python \\
        bench/optimizer_in_place.py [--size 4096]
"""
import argparse
import math
import re
import subprocess

import torch


class AdamWStep(torch.nn.Module):
    """torch.optim.AdamW's update of one parameter at step 10."""

    def forward(self, p, g, m, v):
        lr, b1, b2, eps, wd, step = 1e-3, 0.9, 0.999, 1e-8, 1e-2, 10
        p.mul_(1 - lr * wd)
        m.lerp_(g, 1 - b1)
        v.mul_(b2).addcmul_(g, g, value=1 - b2)
        c1, c2 = 1 - b1 ** step, 1 - b2 ** step
        denom = (v.sqrt() / math.sqrt(c2)).add_(eps)
        p.addcdiv_(m, denom, value=-lr / c1)
        return p.sum()


def report(text, option):
    """(launches, bytes moved, ideal bytes) of `text` lowered to Loop IR
    with `option` (`write-in-place=true`), by --xloop-report."""
    done = subprocess.run(
        ["xtile-opt", f"--lower-to-loop={option}", "--xloop-report", "-o", "/dev/null"],
        input=text, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit("lowering failed:\n" + done.stderr[-4000:])
    found = re.search(r"func @\S+: (\d+) launch(?:es)?, (\d+) B moved, ideal (\d+) B",
                      done.stdout)
    return int(found[1]), int(found[2]), int(found[3])


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--size", type=int, default=4096)
    args = p.parse_args()
    import xtile
    n = args.size
    tensors = [torch.randn(n, n) for _ in range(4)]
    text = xtile.import_module(AdamWStep(), tuple(tensors))
    tied = len(re.findall(r"xtensor\.in_place", text))
    mib, tensor = 2.0 ** 20, n * n * 4
    launches, moved, ideal = report(text, "write-in-place=true")
    _, moved_off, _ = report(text, "write-in-place=false")
    copies = 2 * tied * tensor
    print(f"AdamW step, {n} x {n} f32: {tied} tensors updated in place, {launches} launches")
    print(f"  written in place: {moved / mib:.0f} MiB moved, ideal {ideal / mib:.0f} MiB "
          f"({moved / ideal:.2f}x)")
    print(f"  not in place: {moved_off / mib:.0f} MiB moved + {copies / mib:.0f} MiB of "
          f"copies into the arguments = {(moved_off + copies) / mib:.0f} MiB "
          f"({(moved_off + copies) / ideal:.2f}x)")

if __name__ == "__main__":
    main()
