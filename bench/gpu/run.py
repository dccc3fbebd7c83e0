#!/usr/bin/env python3
"""Times xtile's kernels on an NVIDIA GPU beside PyTorch eager and
torch.compile. Run on the GPU machine (PyTorch and nvcc there, no
LLVM/MLIR needed) after bench/gpu/prepare.py has emitted the CUDA C:

    python3 bench/gpu/run.py [--dir bench/gpu/build] [--runs 50] [--only a,b]

Each case's CUDA C is built with nvcc for the GPU found (-arch=native) into
a shared library and its host function called through ctypes on PyTorch's
stream, with PyTorch's tensors. Every timing is the median of --runs CUDA
event measurements after warm-up, each run on the next of several input
sets whose total size is twice the L2 cache, so that no run finds its
inputs in L2. Outputs are checked against eager PyTorch. The device-to-
device copy bandwidth (a large tensor's copy_) is the ceiling memory-bound
kernels are compared with. A benchmark: prints numbers, never fails on
them (a wrong output is reported as such).
"""
import argparse
import concurrent.futures
import ctypes
import json
import math
import os
import pathlib
import statistics
import subprocess
import sys

import torch
import torch.nn.functional as F

HERE = pathlib.Path(__file__).resolve().parent
DTYPES = {"f32": torch.float32, "bf16": torch.bfloat16}


def arch_for(case, device):
    """nvcc's -arch for a case: the device's, or its architecture-specific
    form (sm_90a: wgmma) when the case was prepared for that."""
    target = case.get("target", device)
    return target if target == device + "a" else device


def build(cu, so, arch):
    if so.exists() and so.stat().st_mtime > cu.stat().st_mtime:
        return None
    r = subprocess.run(["nvcc", "-O3", f"-arch={arch}", "-shared",
                        "-Xcompiler", "-fPIC", "-o", str(so), str(cu)],
                       capture_output=True, text=True)
    return None if r.returncode == 0 else r.stderr


def eager_fn(case):
    op = case["op"]
    if op == "rmsnorm":
        return lambda x, w: F.rms_norm(x, (x.shape[-1],), w, 1e-6)
    if op == "layernorm":
        return lambda x, w, b: F.layer_norm(x, (x.shape[-1],), w, b, 1e-5)
    if op == "softmax":
        return lambda x: torch.softmax(x, dim=-1)
    if op == "swiglu":
        return lambda a, g: F.silu(a) * g
    if op == "add_rmsnorm":
        return lambda x, r, w: F.rms_norm(x + r, (x.shape[-1],), w, 1e-6)
    if op == "matmul":
        return lambda a, b: a @ b
    if op == "linear":
        return lambda x, w: F.linear(x, w)
    raise ValueError(op)


def time_it(fn, sets, runs, stream):
    """Median microseconds of fn(*inputs) over `runs`, rotating the sets."""
    for i in range(3):
        fn(*sets[i % len(sets)])
    torch.cuda.synchronize()
    samples = []
    for i in range(runs):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        args = sets[i % len(sets)]
        start.record(stream)
        fn(*args)
        end.record(stream)
        end.synchronize()
        samples.append(start.elapsed_time(end) * 1000.0)
    return statistics.median(samples)


def copy_bandwidth(runs):
    n = 1 << 30  # 1 GiB
    src = torch.empty(n, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    us = time_it(lambda: dst.copy_(src), [()], runs, torch.cuda.current_stream())
    return 2 * n / (us * 1e-6) / 1e9


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dir", default=str(HERE / "build"))
    p.add_argument("--runs", type=int, default=50)
    p.add_argument("--only", default="")
    p.add_argument("--no-compile", action="store_true",
                   help="skip torch.compile")
    args = p.parse_args()
    d = pathlib.Path(args.dir)
    manifest = json.loads((d / "manifest.json").read_text())
    only = set(filter(None, args.only.split(",")))
    cases = [c for c in manifest if not only or c["name"] in only]
    props = torch.cuda.get_device_properties(0)
    arch = f"sm_{props.major}{props.minor}"
    l2 = getattr(props, "L2_cache_size", 50 << 20)
    print(f"# {props.name}, {arch}, {props.total_memory >> 30} GiB, "
          f"L2 {l2 >> 20} MiB; torch {torch.__version__}")

    # Build every case in parallel.
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 4) as pool:
        errors = dict(zip([c["name"] for c in cases],
                          pool.map(lambda c: build(d / f"{c['name']}.cu",
                                                   d / f"{c['name']}.so",
                                                   arch_for(c, arch)),
                                   cases)))
    bw = copy_bandwidth(args.runs)
    print(f"# device-to-device copy: {bw:.0f} GB/s (read + write)")
    print(f"{'case':24} {'xtile us':>9} {'eager us':>9} {'compile us':>10} "
          f"{'xtile GB/s':>10} {'of copy':>7} {'vs compile':>10} {'max err':>9}")
    stream = torch.cuda.current_stream()
    for c in cases:
        name = c["name"]
        if errors.get(name):
            print(f"{name:24} build failed: {errors[name].splitlines()[0]}")
            continue
        lib = ctypes.CDLL(str(d / f"{name}.so"))
        fn = getattr(lib, name)
        nargs = len(c["inputs"]) + len(c["outputs"])
        fn.argtypes = [ctypes.c_void_p] * (nargs + 1)
        fn.restype = ctypes.c_int
        dtype = DTYPES[c["dtype"]]
        set_bytes = c["bytes"]
        sets_n = max(2, math.ceil(2 * l2 / set_bytes))
        sets_n = min(sets_n, max(1, int(0.5 * props.total_memory // set_bytes)))
        gen = torch.Generator(device="cuda").manual_seed(0)
        sets = []
        for _ in range(sets_n):
            ins = [torch.randn(s, device="cuda", dtype=dtype, generator=gen)
                   for s in c["inputs"]]
            if c["op"] in ("matmul", "linear"):
                ins = [i / math.sqrt(c["shape"][1]) for i in ins]
            outs = [torch.empty(s, device="cuda", dtype=dtype)
                    for s in c["outputs"]]
            sets.append((ins, outs))
        handle = ctypes.c_void_p(stream.cuda_stream)

        def ours(ins, outs):
            rc = fn(*[ctypes.c_void_p(t.data_ptr()) for t in ins + outs], handle)
            if rc != 0:
                raise RuntimeError(f"{name}: CUDA error {rc}")

        eager = eager_fn(c)
        try:
            t_ours = time_it(ours, sets, args.runs, stream)
        except RuntimeError as e:
            print(f"{name:24} {e}")
            continue
        ins, outs = sets[0]
        ours(ins, outs)
        torch.cuda.synchronize()
        ref = eager(*ins)
        err = (outs[0].float() - ref.float()).abs().max().item()
        t_eager = time_it(lambda i, o: eager(*i), sets, args.runs, stream)
        t_comp = float("nan")
        if not args.no_compile:
            try:
                compiled = torch.compile(eager)
                t_comp = time_it(lambda i, o: compiled(*i), sets, args.runs,
                                 stream)
            except Exception as e:  # torch.compile unavailable for this case
                print(f"# {name}: torch.compile failed: {e}", file=sys.stderr)
        if c["flops"]:
            rate = f"{c['flops'] / (t_ours * 1e-6) / 1e12:8.1f}TF"
            frac = f"{'':>7}"
        else:
            gbs = c["bytes"] / (t_ours * 1e-6) / 1e9
            rate = f"{gbs:10.0f}"
            frac = f"{gbs / bw:7.0%}"
        print(f"{name:24} {t_ours:9.1f} {t_eager:9.1f} {t_comp:10.1f} {rate:>10} "
              f"{frac} {t_comp / t_ours:9.2f}x {err:9.2e}")


if __name__ == "__main__":
    main()
