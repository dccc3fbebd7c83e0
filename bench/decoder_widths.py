#!/usr/bin/env python3
"""A LLaMA-style decoder layer at real model widths, dtypes and token counts:
for each configuration, the Tensor IR of the layer (shapes only, no weights)
through `xtile-opt --lower-to-kernel=target=T`, `xtile-translate
--mlir-to-ptx --ptx-chip=T` and `ptxas -arch=T`.

    python3 bench/decoder_widths.py [--models llama3-8b,gemma-2b]
        [--dtypes f32,bf16,f16] [--tokens 1,7,128,512,2048,4096]
        [--target sm_90|sm_80] [--opt build/bin/xtile-opt]
        [--translate build/bin/xtile-translate] [--ptxas PATH]
        [--jobs N] [--keep DIR] [--timeout 600] [--quick]

The layer: h = x + o_proj(attention(rms_norm(x))), y = h + down(silu(gate(
rms_norm(h))) * up(rms_norm(h))), weights in PyTorch's [out, in] layout,
grouped-query attention (K and V of kv_heads heads, each repeated for
heads / kv_heads query heads, as Hugging Face's repeat_kv does), no mask.
16-bit configurations use that type for every tensor.

Prints one line per configuration, then `N passed, M failed`; exits 1 when
a configuration fails. Without ptxas, configurations that emit PTX pass
with a note that it was not assembled. Only the Python standard library.
"""
import argparse
import concurrent.futures
import math
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent

# name: (hidden, heads, kv_heads, head_dim, ffn)
MODELS = {
    "llama3-8b": (4096, 32, 8, 128, 14336),
    "llama3-70b": (8192, 64, 8, 128, 28672),
    "qwen2.5-7b": (3584, 28, 4, 128, 18944),
    "gemma-2b": (2048, 8, 1, 256, 16384),
    "phi3-mini": (3072, 32, 32, 96, 8192),
}
# Not part of the sweep: a small model for checking the generator
# (--models tiny).
TINY = {"tiny": (256, 4, 2, 64, 512)}
DTYPES = ["f32", "bf16", "f16"]
TOKENS = [1, 7, 128, 512, 2048, 4096]
# --quick: small enough for a test; llama3-8b f32 at 512 tokens is included
# on purpose (its attention matmul asked for more shared memory than sm_90
# has when this script was written).
QUICK = (["llama3-8b", "gemma-2b"], ["f32", "bf16"], [1, 512])

NO_PTXAS_NOTE = "ptxas not found: PTX emitted but not assembled"


def decoder_layer(model, dtype, tokens):
    """The Tensor IR text of one decoder layer."""
    hidden, heads, kv, hd, ffn = (MODELS | TINY)[model]
    assert heads % kv == 0, model
    group = heads // kv
    T, H, F = tokens, hidden, ffn
    QD, KD = heads * hd, kv * hd

    def t(*dims):
        return "tensor<" + "x".join(str(d) for d in dims) + f"x{dtype}>"

    args = [f"%x: {t(T, H)}", f"%norm1: {t(H)}", f"%wq: {t(QD, H)}",
            f"%wk: {t(KD, H)}", f"%wv: {t(KD, H)}", f"%wo: {t(H, QD)}",
            f"%norm2: {t(H)}", f"%wg: {t(F, H)}", f"%wu: {t(F, H)}",
            f"%wd: {t(H, F)}"]
    b = []

    def op(text):
        b.append("  " + text)

    def linear(res, x, w, n_in, n_out):
        op(f"{res} = xtensor.linear {x}, {w} : ({t(T, n_in)}, "
           f"{t(n_out, n_in)}) -> {t(T, n_out)}")

    op(f"%n = xtensor.rms_norm %x weight %norm1 eps 1.0e-6 : ({t(T, H)}, "
       f"{t(H)}) -> {t(T, H)}")
    linear("%q", "%n", "%wq", H, QD)
    linear("%k", "%n", "%wk", H, KD)
    linear("%v", "%n", "%wv", H, KD)
    # Q: [T, heads*hd] -> [heads, T, hd]
    op(f"%q3 = xtensor.reshape %q : {t(T, QD)} -> {t(T, heads, hd)}")
    op(f"%qh = xtensor.transpose %q3 perm [1, 0, 2] : {t(T, heads, hd)} -> "
       f"{t(heads, T, hd)}")
    # K: [T, kv*hd] -> [kv, hd, T] -> repeated to [heads, hd, T]
    op(f"%k3 = xtensor.reshape %k : {t(T, KD)} -> {t(T, kv, hd)}")
    op(f"%kt = xtensor.transpose %k3 perm [1, 2, 0] : {t(T, kv, hd)} -> "
       f"{t(kv, hd, T)}")
    # V: [T, kv*hd] -> [kv, T, hd] -> repeated to [heads, T, hd]
    op(f"%v3 = xtensor.reshape %v : {t(T, KD)} -> {t(T, kv, hd)}")
    op(f"%vt = xtensor.transpose %v3 perm [1, 0, 2] : {t(T, kv, hd)} -> "
       f"{t(kv, T, hd)}")
    if group == 1:
        kh, vh = "%kt", "%vt"
    else:
        op(f"%k4 = xtensor.reshape %kt : {t(kv, hd, T)} -> {t(kv, 1, hd, T)}")
        op(f"%kb = xtensor.broadcast %k4 : {t(kv, 1, hd, T)} -> "
           f"{t(kv, group, hd, T)}")
        op(f"%kh = xtensor.reshape %kb : {t(kv, group, hd, T)} -> "
           f"{t(heads, hd, T)}")
        op(f"%v4 = xtensor.reshape %vt : {t(kv, T, hd)} -> {t(kv, 1, T, hd)}")
        op(f"%vb = xtensor.broadcast %v4 : {t(kv, 1, T, hd)} -> "
           f"{t(kv, group, T, hd)}")
        op(f"%vh = xtensor.reshape %vb : {t(kv, group, T, hd)} -> "
           f"{t(heads, T, hd)}")
        kh, vh = "%kh", "%vh"
    S = t(heads, T, T)
    op(f"%s = xtensor.matmul %qh, {kh} : {t(heads, T, hd)}, "
       f"{t(heads, hd, T)} -> {S}")
    op(f"%scale = xtensor.constant dense<{1.0 / math.sqrt(hd)!r}> : {S}")
    op(f"%ss = xtensor.mul %s, %scale : {S}")
    op(f"%p = xtensor.softmax %ss dim 2 : {S}")
    op(f"%o = xtensor.matmul %p, {vh} : {S}, {t(heads, T, hd)} -> "
       f"{t(heads, T, hd)}")
    op(f"%ot = xtensor.transpose %o perm [1, 0, 2] : {t(heads, T, hd)} -> "
       f"{t(T, heads, hd)}")
    op(f"%o2 = xtensor.reshape %ot : {t(T, heads, hd)} -> {t(T, QD)}")
    linear("%attn", "%o2", "%wo", QD, H)
    op(f"%h = xtensor.add %x, %attn : {t(T, H)}")
    op(f"%n2 = xtensor.rms_norm %h weight %norm2 eps 1.0e-6 : ({t(T, H)}, "
       f"{t(H)}) -> {t(T, H)}")
    linear("%g", "%n2", "%wg", H, F)
    linear("%u", "%n2", "%wu", H, F)
    op(f"%sg = xtensor.silu %g : {t(T, F)}")
    op(f"%gu = xtensor.mul %sg, %u : {t(T, F)}")
    linear("%d", "%gu", "%wd", F, H)
    op(f"%y = xtensor.add %h, %d : {t(T, H)}")
    op(f"return %y : {t(T, H)}")
    head = (f"// {model}: hidden {H}, {heads} heads ({kv} KV) of {hd}, "
            f"ffn {F}; {T} tokens, {dtype}\n")
    return (head + f"func.func @decoder_layer({', '.join(args)}) -> "
            f"{t(T, H)} {{\n" + "\n".join(b) + "\n}\n")


def find_ptxas(explicit):
    if explicit:
        return explicit if os.path.exists(explicit) else None
    for candidate in ["/usr/local/cuda/bin/ptxas", shutil.which("ptxas")]:
        if candidate and os.path.exists(candidate):
            return candidate
    return None


def first_error_line(text):
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    for line in lines:
        if "error" in line.lower():
            return line
    return lines[0] if lines else "(no output)"


def run_config(job):
    """Runs one configuration; returns (passed, note, seconds)."""
    model, dtype, tokens, opts = job
    start = time.perf_counter()
    name = f"{model}_{dtype}_t{tokens}"
    with tempfile.TemporaryDirectory(prefix="xtile-decoder-") as tmp:
        work = pathlib.Path(opts["keep"] or tmp)
        src = work / f"{name}.mlir"
        kernel = pathlib.Path(tmp) / f"{name}.kernel.mlir"
        ptx = work / f"{name}.ptx"
        cubin = pathlib.Path(tmp) / f"{name}.cubin"
        src.write_text(decoder_layer(model, dtype, tokens))
        target = opts["target"]
        steps = [
            ("xtile-opt", [opts["opt"], f"--lower-to-kernel=target={target}",
                           str(src), "-o", str(kernel)]),
            ("xtile-translate", [opts["translate"], "--mlir-to-ptx",
                                 f"--ptx-chip={target}", str(kernel), "-o",
                                 str(ptx)]),
        ]
        if opts["ptxas"]:
            steps.append(("ptxas", [opts["ptxas"], f"-arch={target}",
                                    str(ptx), "-o", str(cubin)]))
        if opts["check_candidates"]:
            # Every candidate schedule of every kernel lowers to Kernel IR.
            loop = pathlib.Path(tmp) / f"{name}.loop.mlir"
            steps += [
                ("xtile-opt --lower-to-loop",
                 [opts["opt"], "--lower-to-loop", str(src), "-o", str(loop)]),
                ("xtile-opt --xtile-list-schedules",
                 [opts["opt"], str(loop), "-o", "/dev/null",
                  f"--xtile-list-schedules=target={target} check=1 "
                  f"output={pathlib.Path(tmp) / 'candidates.json'}"])]
        for step, cmd in steps:
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True,
                                      timeout=opts["timeout"])
            except subprocess.TimeoutExpired:
                return (False, f"{step}: timed out after {opts['timeout']} s",
                        time.perf_counter() - start)
            if proc.returncode != 0:
                why = first_error_line(proc.stderr + proc.stdout)
                why = why.replace(f"{work}/", "").replace(f"{tmp}/", "")
                return (False, f"{step} (exit {proc.returncode}): {why}",
                        time.perf_counter() - start)
        note = "" if opts["ptxas"] else NO_PTXAS_NOTE
        return True, note, time.perf_counter() - start


def csv(kind):
    return lambda s: [kind(x) for x in s.split(",") if x]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=csv(str), default=list(MODELS))
    parser.add_argument("--dtypes", type=csv(str), default=DTYPES)
    parser.add_argument("--tokens", type=csv(int), default=TOKENS)
    parser.add_argument("--target", choices=["sm_90", "sm_80"],
                        default="sm_90")
    parser.add_argument("--opt", default=str(ROOT / "build/bin/xtile-opt"))
    parser.add_argument("--translate",
                        default=str(ROOT / "build/bin/xtile-translate"))
    parser.add_argument("--ptxas", default=None,
                        help="default: /usr/local/cuda/bin/ptxas, else PATH")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--keep", default=None,
                        help="write each configuration's .mlir and .ptx here")
    parser.add_argument("--timeout", type=float, default=600,
                        help="seconds per step (default 600)")
    parser.add_argument("--quick", action="store_true",
                        help="llama3-8b and gemma-2b, f32 and bf16, "
                             "tokens 1 and 512")
    parser.add_argument("--check-candidates", action="store_true",
                        help="also lower every candidate schedule of every "
                             "kernel to Kernel IR (--xtile-list-schedules "
                             "check=1)")
    parser.add_argument("--print-ir", action="store_true",
                        help="print the Tensor IR of each configuration, "
                             "run nothing")
    args = parser.parse_args()
    if args.quick:
        args.models, args.dtypes, args.tokens = QUICK
    for m in args.models:
        if m not in MODELS and m not in TINY:
            parser.error(f"unknown model {m!r} (known: {', '.join(MODELS)})")
    for d in args.dtypes:
        if d not in DTYPES:
            parser.error(f"unknown dtype {d!r} (known: {', '.join(DTYPES)})")
    configs = [(m, d, t) for m in args.models for d in args.dtypes
               for t in args.tokens]
    if args.print_ir:
        for m, d, t in configs:
            print(decoder_layer(m, d, t))
        return 0

    ptxas = find_ptxas(args.ptxas)
    if ptxas:
        print(f"ptxas: {ptxas} -arch={args.target}")
    else:
        print(f"{NO_PTXAS_NOTE} (configurations stop after the PTX step)")
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    opts = {"opt": args.opt, "translate": args.translate, "ptxas": ptxas,
            "target": args.target, "keep": args.keep,
            "timeout": args.timeout,
            "check_candidates": args.check_candidates}
    jobs = [(m, d, t, opts) for m, d, t in configs]
    print(f"{'model':<12}{'dtype':<6}{'tokens':>7}  {'result':<6}"
          f"{'seconds':>9}  error", flush=True)
    passed = failed = 0
    wall = time.perf_counter()

    def report(job, result):
        nonlocal passed, failed
        ok, note, seconds = result
        passed += ok
        failed += not ok
        print(f"{job[0]:<12}{job[1]:<6}{job[2]:>7}  "
              f"{'PASS' if ok else 'FAIL':<6}{seconds:>9.1f}  {note}",
              flush=True)

    if args.jobs <= 1:
        for job in jobs:
            report(job, run_config(job))
    else:
        with concurrent.futures.ProcessPoolExecutor(args.jobs) as pool:
            # Results in the order of the configurations.
            for job, result in zip(jobs, pool.map(run_config, jobs)):
                report(job, result)
    print(f"wall time {time.perf_counter() - wall:.1f} s")
    if not ptxas and passed:
        print(f"note: {NO_PTXAS_NOTE}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
