#!/usr/bin/env python3
"""Attention as one kernel: traffic, work and the cost model's estimate.

For each attention graph (Tensor IR, written here), prints the kernels
--lower-to-loop makes and the bytes they move against the ideal (Q, K, V,
mask, O once), then the schedule --lower-to-tile chooses for sm_90 and its
estimate beside the floors: the FLOPs of both contractions (over the
visible scores: about half under a causal mask) at the FP32 FMA peak and,
for 16-bit inputs, at the tensor cores' mma.sync peak; and the ideal bytes
at the device bandwidth. No GPU is needed.

  python3 bench/attention.py [--target sm_90]
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPT = os.path.join(os.environ.get("XTILE_BUILD_DIR", os.path.join(ROOT, "build")),
                   "bin", "xtile-opt")


def attention(name, heads, kv_heads, queries, keys, dim, dtype="f32",
              causal=False, window=0):
    """softmax(q kᵀ / sqrt(dim) [causal, within a sliding window of `window`
    keys]) v with K/V heads shared by groups of query heads (HF's repeat_kv:
    broadcast, reshape)."""
    g = heads // kv_heads
    t = lambda *s: "tensor<" + "x".join(map(str, s)) + "x" + dtype + ">"
    ti = lambda *s: "tensor<" + "x".join(map(str, s)) + "xi32>"
    lines = [f"func.func @{name}(%q: {t(heads, queries, dim)}, "
             f"%k: {t(kv_heads, keys, dim)}, %v: {t(kv_heads, keys, dim)}) "
             f"-> {t(heads, queries, dim)} {{"]
    k, v = "%k", "%v"
    if g > 1:
        for x in ("k", "v"):
            lines += [
                f"  %{x}4 = xtensor.reshape %{x} : {t(kv_heads, keys, dim)} -> {t(kv_heads, 1, keys, dim)}",
                f"  %{x}b = xtensor.broadcast %{x}4 : {t(kv_heads, 1, keys, dim)} -> {t(kv_heads, g, keys, dim)}",
                f"  %{x}r = xtensor.reshape %{x}b : {t(kv_heads, g, keys, dim)} -> {t(heads, keys, dim)}",
            ]
        k, v = "%kr", "%vr"
    s = t(heads, queries, keys)
    lines += [
        f"  %kt = xtensor.transpose {k} perm [0, 2, 1] : {t(heads, keys, dim)} -> {t(heads, dim, keys)}",
        f"  %s = xtensor.matmul %q, %kt : {t(heads, queries, dim)}, {t(heads, dim, keys)} -> {s}",
        f"  %c = xtensor.constant dense<{1 / math.sqrt(dim):.8f}> : {s}",
        f"  %ss = xtensor.mul %s, %c : {s}",
    ]
    scores = "%ss"
    if causal:
        # Queries are the last `queries` of the `keys` positions.
        lines += [
            f"  %i = xtensor.iota dim 1 : {ti(heads, queries, keys)}",
            f"  %off = xtensor.constant dense<{keys - queries}> : {ti(heads, queries, keys)}",
            f"  %pos = xtensor.add %i, %off : {ti(heads, queries, keys)}",
            f"  %j = xtensor.iota dim 2 : {ti(heads, queries, keys)}",
            f"  %seen = xtensor.cmp le, %j, %pos : {ti(heads, queries, keys)}",
            f"  %ninf = xtensor.constant dense<{'0xFF80' if dtype == 'bf16' else '0xFC00' if dtype == 'f16' else '0xFF800000'}> : {s}",
            f"  %masked = xtensor.select %seen, %ss, %ninf : {s}",
        ]
        scores = "%masked"
        if window:
            # Mistral's: key j is seen by the query at position p when
            # p - window < j.
            lines += [
                f"  %w = xtensor.constant dense<{window}> : {ti(heads, queries, keys)}",
                f"  %lo = xtensor.sub %pos, %w : {ti(heads, queries, keys)}",
                f"  %recent = xtensor.cmp gt, %j, %lo : {ti(heads, queries, keys)}",
                f"  %windowed = xtensor.select %recent, %masked, %ninf : {s}",
            ]
            scores = "%windowed"
    lines += [
        f"  %p = xtensor.softmax {scores} dim 2 : {s}",
        f"  %o = xtensor.matmul %p, {v} : {s}, {t(heads, keys, dim)} -> {t(heads, queries, dim)}",
        f"  return %o : {t(heads, queries, dim)}",
        "}",
    ]
    return "\n".join(lines) + "\n"


GRAPHS = [
    # (name, heads, kv heads, queries, keys, head dim, dtype, causal[,
    # sliding window])
    ("examples_attention", 64, 64, 1024, 1024, 64, "f32", False),
    ("llama3_8b_prefill_2k", 32, 8, 2048, 2048, 128, "f32", True),
    ("llama3_8b_prefill_2k_bf16", 32, 8, 2048, 2048, 128, "bf16", True),
    ("llama3_8b_decode_32k", 32, 8, 1, 32768, 128, "bf16", True),
    ("mistral_7b_decode_32k_w4k", 32, 8, 1, 32768, 128, "bf16", True, 4096),
]


def run(args, text):
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        return subprocess.run([OPT, path] + args, capture_output=True,
                              text=True, check=True)
    finally:
        os.unlink(path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", default="sm_90")
    opts = parser.parse_args()
    fp32_gflops = {"sm_90": 67000, "sm_90a": 67000, "sm_80": 19500}[opts.target]
    # mma.sync's dense 16-bit peak, as the targets of the cost model give.
    mma_gflops = {"sm_90": 660000, "sm_90a": 660000, "sm_80": 312000}[opts.target]
    bandwidth = {"sm_90": 3350, "sm_90a": 3350, "sm_80": 2039}[opts.target]
    print(f"{'graph':28} {'kernels':>7} {'moved MiB':>9} {'ideal MiB':>9} "
          f"{'x ideal':>7} {'GFLOP':>7} {'FMA floor us':>12} {'TC floor us':>11} "
          f"{'bytes floor us':>14} {'estimate us':>11}  schedule")
    for name, h, kvh, tq, tk, d, dtype, causal, *window in GRAPHS:
        window = window[0] if window else 0
        text = attention(name, h, kvh, tq, tk, d, dtype, causal, window)
        report = run(["--lower-to-loop", "--xloop-report", "-o", os.devnull],
                     text).stdout
        m = re.search(r"func @\S+: (\d+) launch(?:es)?, (\d+) B moved, ideal (\d+) B "
                      r"\(([\d.]+)x\)", report)
        launches, moved, ideal, ratio = m.groups()
        sched = json.loads(run([f"--lower-to-tile=target={opts.target} "
                                "schedule-report=-", "-o", os.devnull],
                               text).stdout)
        attn = [k for k in sched["kernels"] if k["facts"].get("kind") == "attention"]
        if attn:
            chosen = attn[0]
            est = next(c for c in chosen["candidates"]
                       if c["schedule"] == chosen["schedule"])["micros"]
            schedule = re.sub(r"#xtile.dot_schedule<|, stages = 1|"
                              r"instruction = |>", "", chosen["schedule"])
        else:
            est, schedule = float("nan"), "(not one attention kernel)"
        # q kᵀ and p v, 2 FLOP per multiply-add, over the scores the mask
        # leaves visible (about half of them under a causal mask).
        pairs = (sum(min(tk, i + tk - tq + 1, window or tk)
                     for i in range(tq)) if causal else tq * tk)
        flops = 4.0 * h * pairs * d
        print(f"{name:28} {launches:>7} {int(moved) / 2**20:9.1f} "
              f"{int(ideal) / 2**20:9.1f} {float(ratio):7.2f} {flops / 1e9:7.1f} "
              f"{flops / (fp32_gflops * 1e3):12.1f} "
              f"{(f'{flops / (mma_gflops * 1e3):.1f}' if dtype != 'f32' else '-'):>11} "
              f"{int(ideal) / (bandwidth * 1e3):14.1f} {est:11.1f}  {schedule}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
