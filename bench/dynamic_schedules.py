#!/usr/bin/env python3
"""What one schedule for a whole range of sizes costs: for kernels over a
dynamic token count T, the cost model's estimate of the schedule it picks
for each T (a static-shape compile) beside the estimate, at that T, of the
schedule picked for a representative size, of the one schedule the module
compiled once over T picks at T's hint (`buckets=false`), and of the
module compiled once over T as it is by default: with a schedule per
bucket of T where one schedule costs more than 1.1x the best
(--xtile-select-schedule's buckets), priced at the bucket that holds T.

    python3 bench/dynamic_schedules.py [--opt build/bin/xtile-opt] [--target sm_90]

One module with `T` dynamic (RMSNorm and softmax rows of a Llama-sized
model, a LayerNorm, a projection with its GELU, and a Llama-3-8B decode
step's attention over T keys: 32 query heads over 8 K/V heads) is bound
to each size with --xtensor-specialize-dims and scheduled with
--lower-to-tile="schedule-report=FILE", whose report prices every legal
candidate. "slowdown" is the estimate of the fixed schedule over that of
the size's own choice; a dash marks a schedule that is not legal at that
size (a split that needs more rows, say), or a kernel that the fusion at
the representative size does not make. Estimates, not measurements: a
benchmark that prints numbers and never fails on them.
"""
import argparse
import json
import re
import pathlib
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent

MODULE = """
#T = #xtensor.dims<T>
func.func @rms_norm(%x: tensor<?x4096xbf16, #T>, %w: tensor<4096xbf16>) -> tensor<?x4096xbf16, #T>
    attributes {xtensor.symbols = {T = array<i64: 1, 16384>}} {
  %y = xtensor.rms_norm %x weight %w eps 1.0e-6
      : (tensor<?x4096xbf16, #T>, tensor<4096xbf16>) -> tensor<?x4096xbf16, #T>
  return %y : tensor<?x4096xbf16, #T>
}
func.func @softmax(%x: tensor<?x32000xf32, #T>) -> tensor<?x32000xf32, #T>
    attributes {xtensor.symbols = {T = array<i64: 1, 16384>}} {
  %y = xtensor.softmax %x dim 1 : tensor<?x32000xf32, #T>
  return %y : tensor<?x32000xf32, #T>
}
func.func @layer_norm(%x: tensor<?x768xf32, #T>, %w: tensor<768xf32>, %b: tensor<768xf32>)
    -> tensor<?x768xf32, #T>
    attributes {xtensor.symbols = {T = array<i64: 1, 16384>}} {
  %y = xtensor.layer_norm %x weight %w bias %b eps 1.0e-5
      : (tensor<?x768xf32, #T>, tensor<768xf32>, tensor<768xf32>) -> tensor<?x768xf32, #T>
  return %y : tensor<?x768xf32, #T>
}
func.func @up_gelu(%x: tensor<?x4096xbf16, #T>, %w: tensor<4096x4096xbf16>) -> tensor<?x4096xbf16, #T>
    attributes {xtensor.symbols = {T = array<i64: 1, 16384>}} {
  %h = xtensor.linear %x, %w : (tensor<?x4096xbf16, #T>, tensor<4096x4096xbf16>) -> tensor<?x4096xbf16, #T>
  %y = xtensor.gelu tanh %h : tensor<?x4096xbf16, #T>
  return %y : tensor<?x4096xbf16, #T>
}
func.func @decode_gqa(%q: tensor<1x32x1x128xbf16>, %k: tensor<1x8x?x128xbf16, #T>, %v: tensor<1x8x?x128xbf16, #T>) -> tensor<1x32x1x128xbf16>
    attributes {xtensor.symbols = {T = array<i64: 1, 16384>}} {
  %1 = xtensor.reshape %k : tensor<1x8x?x128xbf16, #T> -> tensor<1x8x1x?x128xbf16, #T>
  %2 = xtensor.broadcast %1 : tensor<1x8x1x?x128xbf16, #T> -> tensor<1x8x4x?x128xbf16, #T>
  %3 = xtensor.reshape %2 : tensor<1x8x4x?x128xbf16, #T> -> tensor<1x32x?x128xbf16, #T>
  %4 = xtensor.reshape %v : tensor<1x8x?x128xbf16, #T> -> tensor<1x8x1x?x128xbf16, #T>
  %5 = xtensor.broadcast %4 : tensor<1x8x1x?x128xbf16, #T> -> tensor<1x8x4x?x128xbf16, #T>
  %6 = xtensor.reshape %5 : tensor<1x8x4x?x128xbf16, #T> -> tensor<1x32x?x128xbf16, #T>
  %7 = xtensor.transpose %3 perm [0, 1, 3, 2] : tensor<1x32x?x128xbf16, #T> -> tensor<1x32x128x?xbf16, #T>
  %8 = xtensor.matmul %q, %7 : tensor<1x32x1x128xbf16>, tensor<1x32x128x?xbf16, #T> -> tensor<1x32x1x?xbf16, #T>
  %9 = xtensor.constant dense<0.0883883> : tensor<1x32x1x1xbf16>
  %10 = xtensor.broadcast %9 : tensor<1x32x1x1xbf16> -> tensor<1x32x1x?xbf16, #T>
  %11 = xtensor.mul %8, %10 : tensor<1x32x1x?xbf16, #T>
  %18 = xtensor.softmax %11 dim 3 : tensor<1x32x1x?xbf16, #T>
  %19 = xtensor.matmul %18, %6 : tensor<1x32x1x?xbf16, #T>, tensor<1x32x?x128xbf16, #T> -> tensor<1x32x1x128xbf16>
  return %19 : tensor<1x32x1x128xbf16>
}
"""

SIZES = [1, 7, 32, 128, 1000, 4096, 16384]
# One schedule for the range, picked at one of these sizes.
REPRESENTATIVES = [1, 128, 4096]


def report(opt, target, size, tmp, buckets=True):
    """The schedule report of the module at T = `size`, or of the module
    over T itself (`size` None: what the one compile over T picks, with
    buckets or with one schedule chosen at T's hint)."""
    path = pathlib.Path(tmp, f"report-{size}-{buckets}.json")
    specialized = MODULE if size is None else subprocess.run(
        [opt, f"--xtensor-specialize-dims=sizes=T={size}", "-"],
        input=MODULE, capture_output=True, text=True, check=True).stdout
    subprocess.run(
        [opt, f"--lower-to-tile=target={target} schedule-report={path} "
         f"buckets={'true' if buckets else 'false'}", "-",
         "-o", "/dev/null"], input=specialized, text=True, check=True)
    kernels = {}
    # Kernel names carry no size, but their numbers differ between modules:
    # a kernel is named by its name without the number, and its rank among
    # the kernels of that name.
    entries = json.loads(path.read_text())["kernels"]
    base = lambda k: re.sub(r"_[0-9]+$", "", k["kernel"])
    number = lambda k: int(m.group(1)) if (m := re.search(r"_([0-9]+)$", k["kernel"])) else 0
    for kernel in entries:
        same = sorted((k for k in entries if base(k) == base(kernel)), key=number)
        name = base(kernel) + (f"#{same.index(kernel) + 1}" if len(same) > 1 else "")
        kernels[name] = {
            "chosen": kernel["schedule"],
            "name": kernel["name"],
            "micros": kernel["micros"],
            "candidates": {c["schedule"]: c["micros"] for c in kernel["candidates"]},
            "buckets": [(b["min"], b["max"], b["schedule"], b["name"])
                        for b in kernel.get("buckets", [])],
        }
    return kernels


def schedule_at(kernel, size):
    """The schedule `kernel` (of the module over T) runs under at T = size:
    its bucket's, or its one schedule."""
    for lo, hi, schedule, _ in kernel["buckets"]:
        if lo <= size <= hi:
            return schedule
    return kernel["chosen"]


def schedule_name_at(kernel, size):
    for lo, hi, _, name in kernel["buckets"]:
        if lo <= size <= hi:
            return name
    return kernel["name"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opt", default=str(ROOT / "build/bin/xtile-opt"))
    parser.add_argument("--target", default="sm_90")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        reports = {size: report(args.opt, args.target, size, tmp) for size in SIZES}
        dynamic = report(args.opt, args.target, None, tmp)
        single = report(args.opt, args.target, None, tmp, buckets=False)
    # Fusion is priced per size too: the kernels of a function can differ
    # between sizes (a one-row softmax may be cheaper unfused). Each
    # kernel is compared at the sizes where it exists.
    print("kernels per size:")
    for size in SIZES:
        print(f"  T={size:<6} " + " ".join(sorted(reports[size])))
    names = sorted({n for r in reports.values() for n in r})
    worst = {f"at T={r}": 1.0 for r in REPRESENTATIVES}
    worst["one schedule"] = 1.0
    worst["buckets"] = 1.0
    for name in names:
        print(f"\n{name}")
        header = f"{'T':>6}  {'own schedule':<26}{'own us':>10}"
        for r in REPRESENTATIVES:
            header += f"{'at T=' + str(r):>12}"
        header += f"{'one sched':>11}{'buckets':>9}  bucket schedule"
        print(header)
        for size in SIZES:
            if name not in reports[size]:
                continue
            own = reports[size][name]
            line = f"{size:>6}  {own['name']:<26}{own['micros']:>10.1f}"

            def slowdown(rep):
                if name not in reports[rep]:
                    return None
                fixed = reports[rep][name]["chosen"]
                micros = own["candidates"].get(fixed)
                return None if micros is None else micros / own["micros"]

            for r in REPRESENTATIVES:
                s = slowdown(r)
                line += f"{'-':>12}" if s is None else f"{s:>11.2f}x"
                if s is not None:
                    worst[f"at T={r}"] = max(worst[f"at T={r}"], s)
            # The module compiled once over T, with one schedule (chosen at
            # T's hint) and with its buckets, priced at this size.
            for rule, module, width in (("one schedule", single, 11),
                                        ("buckets", dynamic, 9)):
                kernel = module.get(name)
                micros = (own["candidates"].get(schedule_at(kernel, size))
                          if kernel else None)
                s = None if micros is None else micros / own["micros"]
                line += f"{'-':>{width}}" if s is None else f"{s:>{width - 1}.2f}x"
                if s is not None:
                    worst[rule] = max(worst[rule], s)
            if name in dynamic:
                line += "  " + schedule_name_at(dynamic[name], size)
            print(line)
    print("\nworst slowdown over the sizes where the schedule is legal:")
    for rule, value in worst.items():
        if rule == "one schedule":
            print(f"  compiled once over T, one schedule: {value:.2f}x")
        elif rule == "buckets":
            print(f"  compiled once over T, buckets:      {value:.2f}x")
        else:
            print(f"  one schedule {rule:<10}            {value:.2f}x")
    print("\nbuckets of the module compiled once over T:")
    for name in sorted(dynamic):
        for lo, hi, _, schedule in dynamic[name]["buckets"]:
            print(f"  {name:<22} T in [{lo}, {hi}]: {schedule}")


if __name__ == "__main__":
    main()
