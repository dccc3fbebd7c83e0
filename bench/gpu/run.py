#!/usr/bin/env python3
"""Times xtile's kernels on an NVIDIA GPU beside PyTorch: the benchmark
grid of bench/gpu/cases.py, from a bundle that bench/gpu/prepare.py
made (PyTorch and nvcc there, no LLVM/MLIR needed). first_contact.py runs
it after its self-test; alone:

    python3 bench/gpu/run.py [--bundle bench/gpu/bundle] [--runs 50] [--only a,b] [--no-compile]

Each case's CUDA C is built with nvcc for the GPU found (-arch=sm_90, or
sm_90a for the cases prepared for it: wgmma) into a shared library whose
host function is called through ctypes on PyTorch's stream, with
PyTorch's tensors; its PTX is also loaded through the CUDA driver API
(python/xtile/runtime.py's driver loader) and timed. Every timing is the
median of --runs CUDA event measurements after warm-up, each run on the
next of several input sets whose total size is twice the L2 cache, so that
no run finds its inputs in L2. Outputs are compared with eager PyTorch.
The comparisons: the memory-bound rows against the device-to-device copy
bandwidth and torch.compile; the bf16 matmuls against cuBLAS (eager
PyTorch's matmul); attention against SDPA's flash backend; the decoder
layer and its decode step against torch.compile. A benchmark: prints
numbers, never fails on them (a wrong output is reported as such).
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
import time

import importlib.util

import torch
import torch.nn.functional as F

HERE = pathlib.Path(__file__).resolve().parent


def _load_runtime():
    """python/xtile/runtime.py (both loaders), loaded alone: the xtile
    package's __init__ also imports the PyTorch frontend (torch.export, the
    torch.compile backend), seconds per process that this side never uses."""
    path = HERE.parent.parent / "python" / "xtile" / "runtime.py"
    spec = importlib.util.spec_from_file_location("xtile_runtime", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["xtile_runtime"] = module
    spec.loader.exec_module(module)
    return module


runtime = _load_runtime()

DTYPES = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}


def arch_for(target, device):
    """nvcc's -arch for a case prepared for `target` on a GPU of `device`
    (sm_90): the device's, or its architecture-specific form (sm_90a:
    wgmma, setmaxnreg) when the case was prepared for that."""
    return target if target == device + "a" else device


def build(cu, so, arch):
    """nvcc's build of one case; None, or the error."""
    if so.exists() and so.stat().st_mtime > cu.stat().st_mtime:
        return None
    done = subprocess.run(runtime.nvcc_command(cu, so, arch), capture_output=True,
                          text=True)
    return None if done.returncode == 0 else (done.stderr or done.stdout)


# ---------------------------------------------------------------------------
# The same computations in PyTorch

def rope_tables(tokens, head_dim, start=0, dtype=torch.bfloat16, device="cpu"):
    """Llama-3's rotary tables (theta 500000), [tokens, head_dim]."""
    inv = 1.0 / (500000.0 ** (torch.arange(0, head_dim, 2, dtype=torch.float64,
                                           device=device) / head_dim))
    pos = torch.arange(start, start + tokens, dtype=torch.float64, device=device)
    ang = torch.outer(pos, inv)
    ang = torch.cat([ang, ang], dim=-1)
    return ang.cos().to(dtype), ang.sin().to(dtype)


def sdpa(q, k, v, causal, expand=False):
    """q [H, Tq, D], k/v [KVH, Tk, D] (grouped-query, SDPA's enable_gqa; or
    K/V expanded to the query heads first) -> [H, Tq, D]."""
    heads, kv_heads = q.shape[0], k.shape[0]
    if heads != kv_heads and expand:
        k = k.repeat_interleave(heads // kv_heads, dim=0)
        v = v.repeat_interleave(heads // kv_heads, dim=0)
    return F.scaled_dot_product_attention(q[None], k[None], v[None], is_causal=causal,
                                          enable_gqa=heads != k.shape[0])[0]


def llama_layer(x, cos, sin, n1, wq, wk, wv, wo, n2, wg, wu, wd, kcache=None,
                vcache=None, *, heads, kv_heads, head_dim, eps=1e-5):
    """What cases.decoder_case's Tensor IR computes, as a Llama model's
    code would: prefill (causal) or, with a KV cache, one decode step that
    attends to the cache and returns its own rotated keys and values."""
    T, d = x.shape
    half = head_dim // 2

    def rotate(t):
        return torch.cat([-t[..., half:], t[..., :half]], dim=-1)

    h1 = F.rms_norm(x, (d,), n1, eps)
    q = F.linear(h1, wq).view(T, heads, head_dim)
    k = F.linear(h1, wk).view(T, kv_heads, head_dim)
    v = F.linear(h1, wv)
    q = q * cos[:, None] + rotate(q) * sin[:, None]
    k = k * cos[:, None] + rotate(k) * sin[:, None]
    if kcache is None:
        o = sdpa(q.transpose(0, 1), k.transpose(0, 1),
                 v.view(T, kv_heads, head_dim).transpose(0, 1), causal=True)
    else:
        o = sdpa(q.transpose(0, 1), kcache, vcache, causal=False)
    h = x + F.linear(o.transpose(0, 1).reshape(T, heads * head_dim), wo)
    h2 = F.rms_norm(h, (d,), n2, eps)
    y = h + F.linear(F.silu(F.linear(h2, wg)) * F.linear(h2, wu), wd)
    if kcache is None:
        return y
    return y, k.reshape(T, kv_heads * head_dim), v


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
    if op == "attention":
        causal = case["causal"]
        return lambda q, k, v: sdpa(q, k, v, causal)
    if op in ("decoder_layer", "decode_step"):
        m = case["model"]
        return lambda *a: llama_layer(*a, heads=m["heads"], kv_heads=m["kv_heads"],
                                      head_dim=m["head_dim"])
    raise ValueError(op)


def baseline_fns(case, cuda):
    """The comparisons of a case: name -> (callable, what it is)."""
    eager = eager_fn(case)
    out = {"eager": eager}
    if case["op"] == "attention" and cuda:
        from torch.nn.attention import SDPBackend, sdpa_kernel
        causal = case["causal"]

        def flash(q, k, v):
            with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
                return sdpa(q, k, v, causal)

        def flash_expanded(q, k, v):
            with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
                return sdpa(q, k, v, causal, expand=True)
        out["SDPA flash"] = flash
        # If the flash backend takes no grouped K/V, K/V expanded first (the
        # copy counted in its time; noted).
        out["SDPA flash (K/V expanded)"] = flash_expanded
    return out


def make_inputs(case, device, gen):
    """One input set: the case's inputs by their recipes, and its outputs."""
    dtype = DTYPES[case["dtype"]]
    ins = []
    cos = sin = None
    for shape, how in zip(case["inputs"], case.get("init") or ["randn"] * len(case["inputs"])):
        if how in ("cos", "sin"):
            if cos is None:
                start = case.get("model", {}).get("cache", 0)
                cos, sin = rope_tables(shape[0], shape[1], start, dtype, device)
            ins.append(cos if how == "cos" else sin)
            continue
        x = torch.randn(shape, device=device, dtype=torch.float32, generator=gen)
        if how == "scaled":
            x = x / math.sqrt(shape[-1])
        elif how == "w":
            x = x / math.sqrt(shape[-1])
        elif how == "norm":
            x = 1 + 0.1 * x
        ins.append(x.to(dtype))
    outs = [torch.empty(s, device=device, dtype=dtype) for s in case["outputs"]]
    return ins, outs


# ---------------------------------------------------------------------------
# Timing

class Clock:
    """Medians of CUDA event timings (GPU) or of wall-clock time (CPU)."""

    def __init__(self, cuda):
        self.cuda = cuda

    def sync(self):
        if self.cuda:
            torch.cuda.synchronize()

    def median_us(self, fn, sets, runs, warmup=3):
        for i in range(warmup):
            fn(*sets[i % len(sets)])
        self.sync()
        samples = []
        for i in range(runs):
            args = sets[i % len(sets)]
            if self.cuda:
                stream = torch.cuda.current_stream()
                start = torch.cuda.Event(enable_timing=True)
                end = torch.cuda.Event(enable_timing=True)
                start.record(stream)
                fn(*args)
                end.record(stream)
                end.synchronize()
                samples.append(start.elapsed_time(end) * 1000.0)
            else:
                t0 = time.perf_counter()
                fn(*args)
                samples.append((time.perf_counter() - t0) * 1e6)
        return statistics.median(samples)


def copy_bandwidth(clock, runs, device):
    """Device-to-device copy bandwidth in GB/s (bytes read + written)."""
    n = (1 << 30) if clock.cuda else (64 << 20)
    src = torch.empty(n, dtype=torch.uint8, device=device)
    dst = torch.empty_like(src)
    us = clock.median_us(lambda: dst.copy_(src), [()], runs)
    return 2 * n / (us * 1e-6) / 1e9


def tensor_core_peak(clock, runs, device):
    """bf16 matmul throughput of PyTorch (cuBLAS on a GPU) at 8192^3 (CPU:
    1024^3), TFLOP/s: the roofline's compute roof."""
    n = 8192 if clock.cuda else 1024
    a = torch.randn(n, n, device=device, dtype=torch.bfloat16)
    b = torch.randn(n, n, device=device, dtype=torch.bfloat16)
    us = clock.median_us(lambda: a @ b, [()], max(3, runs // 5))
    return 2 * n ** 3 / (us * 1e-6) / 1e12


def _error(got, ref):
    got, ref = got.float(), ref.float()
    diff = (got - ref).abs()
    finite = torch.isfinite(ref)
    return {"max_abs": float(diff[finite].max()) if finite.any() else 0.0,
            "normwise": float(torch.linalg.vector_norm((got - ref)[finite]) /
                              max(float(torch.linalg.vector_norm(ref[finite])), 1e-30)),
            "nonfinite": int((~torch.isfinite(got)).sum() - (~finite).sum())}


def benchmark(bundle, cases, *, cuda, runs=50, compile_=True, deadline=None,
              loaders=("nvcc", "driver"), libs=None, drivers=None, log=print):
    """Times `cases` (manifest entries) of the bundle; returns
    (environment, results). libs: case name -> built library (or a
    future, or an error text). drivers: for the dry run, case name ->
    emulated driver library, likewise (absent: the PTX loader is not
    timed)."""
    device = "cuda" if cuda else "cpu"
    clock = Clock(cuda)
    env = {}
    if cuda:
        props = torch.cuda.get_device_properties(0)
        l2 = getattr(props, "L2_cache_size", 50 << 20)
        memory = props.total_memory
        env["device"] = (f"{props.name}, sm_{props.major}{props.minor}, "
                         f"{props.multi_processor_count} SMs, {memory >> 30} GiB, "
                         f"L2 {l2 >> 20} MiB")
    else:
        l2, memory = 32 << 20, 8 << 30
        env["device"] = f"CPU ({os.cpu_count()} cores): the emulation, not a GPU"
    env["copy_gbs"] = copy_bandwidth(clock, runs, device)
    env["peak_tflops"] = tensor_core_peak(clock, runs, device)
    log(f"# {env['device']}; torch {torch.__version__}")
    log(f"# device-to-device copy: {env['copy_gbs']:.0f} GB/s (read + write); "
        f"bf16 matmul 8192^3 ({'cuBLAS' if cuda else 'CPU, 1024^3'}): "
        f"{env['peak_tflops']:.3g} TFLOP/s")
    log(HEADER)
    results = []
    gen = torch.Generator(device=device)
    for c in cases:
        name = c["name"]
        r = {"name": name, "op": c["op"], "dtype": c["dtype"], "bytes": c["bytes"],
             "flops": c["flops"], "baseline": c["baseline"], "shape": c.get("shape"),
             "times": {}, "notes": []}
        results.append(r)
        if deadline is not None and time.monotonic() > deadline:
            r["notes"].append("not run: the time limit was reached")
            log(format_row(r, env))
            continue
        lib = (libs or {}).get(name)
        if isinstance(lib, concurrent.futures.Future):
            lib = lib.result()
        d = bundle / c["dir"]
        programs = {}
        if isinstance(lib, str):
            r["notes"].append(f"nvcc failed: {lib.strip().splitlines()[0] if lib.strip() else '?'}")
        elif lib is not None:
            programs["xtile (CUDA C)"] = runtime._LibraryProgram(lib, name, cuda=cuda)
        driver = (drivers or {}).get(name)
        if isinstance(driver, concurrent.futures.Future):
            driver = driver.result()
        if isinstance(driver, str):
            r["notes"].append(f"emulated driver: {driver.strip().splitlines()[0]}")
            driver = None
        if "driver" in loaders and (cuda or driver):
            try:
                if not cuda:
                    os.environ["XTILE_LIBCUDA"] = str(driver)
                    runtime._Driver._instance = None
                programs["xtile (PTX)"] = runtime._DriverProgram(
                    (d / "kernel.ptx").read_text(), json.loads((d / "plan.json").read_text()),
                    name)
            except RuntimeError as e:
                r["notes"].append(f"PTX loader: {str(e).splitlines()[0]}")
        set_bytes = max(c["bytes"], 1)
        sets_n = max(2, math.ceil(2 * l2 / set_bytes))
        sets_n = max(1, min(sets_n, int(0.3 * memory // (2 * set_bytes))))
        gen.manual_seed(0)
        sets = [make_inputs(c, device, gen) for _ in range(sets_n)]
        ins0, outs0 = sets[0]
        with torch.no_grad():
            ref = eager_fn(c)(*ins0)
        ref = ref if isinstance(ref, tuple) else (ref,)
        for label, prog in programs.items():
            def ours(ins, outs, prog=prog):
                rc = prog(ins + outs)
                if rc != 0:
                    raise RuntimeError(f"CUDA error {rc}")
            try:
                r["times"][label] = clock.median_us(ours, sets, runs)
                ours(ins0, outs0)
                clock.sync()
                r.setdefault("error", {})[label] = _error(outs0[0], ref[0])
            except RuntimeError as e:
                r["notes"].append(f"{label}: {str(e).splitlines()[0]}")
        with torch.no_grad():
            for label, fn in baseline_fns(c, cuda).items():
                if label == "SDPA flash (K/V expanded)" and "SDPA flash" in r["times"]:
                    continue
                try:
                    r["times"][label] = clock.median_us(lambda i, o: fn(*i), sets, runs)
                except Exception as e:  # a backend that refuses these shapes
                    r["notes"].append(f"{label}: {type(e).__name__}: "
                                      f"{str(e).splitlines()[0] if str(e) else ''}")
            if c["baseline"] == "torch.compile":
                if not compile_:
                    r["notes"].append("torch.compile: not run" +
                                      ("" if cuda else " in the dry run"))
                elif deadline is not None and time.monotonic() > deadline - 60:
                    r["notes"].append("torch.compile: skipped (time limit)")
                else:
                    try:
                        # Static shapes, compiled afresh: the cases share
                        # their functions' code objects, whose recompiles
                        # would otherwise turn dynamic or hit the limit.
                        torch._dynamo.reset()
                        compiled = torch.compile(eager_fn(c), dynamic=False)
                        r["times"]["torch.compile"] = clock.median_us(
                            lambda i, o: compiled(*i), sets, runs)
                    except Exception as e:
                        r["notes"].append(f"torch.compile failed: {type(e).__name__}")
        del sets
        log(format_row(r, env))
    return env, results


def ours_us(r):
    """The faster of our two loaders' times, and its label."""
    mine = {k: v for k, v in r["times"].items() if k.startswith("xtile")}
    if not mine:
        return None, None
    label = min(mine, key=mine.get)
    return mine[label], label


def baseline_us(r):
    b = r["baseline"]
    if b in ("cuBLAS",):
        return r["times"].get("eager")
    if b == "SDPA flash":
        return r["times"].get("SDPA flash", r["times"].get("SDPA flash (K/V expanded)"))
    return r["times"].get(b)


def format_row(r, env):
    t_nvcc = r["times"].get("xtile (CUDA C)")
    t_ptx = r["times"].get("xtile (PTX)")
    base = baseline_us(r)
    mine, _ = ours_us(r)
    fmt = lambda v: f"{v:9.1f}" if v is not None else f"{'-':>9}"
    if r["flops"] and r["op"] not in ("rmsnorm", "layernorm", "softmax", "swiglu",
                                      "add_rmsnorm"):
        rate = (f"{r['flops'] / (mine * 1e-6) / 1e12:7.1f} TF/s" if mine else "")
    else:
        rate = (f"{r['bytes'] / (mine * 1e-6) / 1e9:6.0f} GB/s "
                f"({r['bytes'] / (mine * 1e-6) / 1e9 / env['copy_gbs']:4.0%})"
                if mine else "")
    err = r.get("error", {})
    e = max((v["max_abs"] for v in err.values()), default=None)
    ratio = f"{base / mine:5.2f}x" if base and mine else "    -"
    line = (f"{r['name']:34} {fmt(t_nvcc)} {fmt(t_ptx)} {fmt(r['times'].get('eager'))} "
            f"{fmt(base)} {ratio} {rate:>18} "
            f"{'' if e is None else f'err {e:.1e}'}")
    if r["notes"]:
        line += "  [" + "; ".join(r["notes"]) + "]"
    return line


HEADER = (f"{'case':34} {'CUDA C us':>9} {'PTX us':>9} {'eager us':>9} {'base us':>9} "
          f"{'vs base':>6} {'rate':>18}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bundle", default=str(HERE / "bundle"))
    p.add_argument("--runs", type=int, default=50)
    p.add_argument("--only", default="")
    p.add_argument("--no-compile", action="store_true", help="skip torch.compile")
    args = p.parse_args()
    bundle = pathlib.Path(args.bundle)
    manifest = json.loads((bundle / "manifest.json").read_text())
    only = set(filter(None, args.only.split(",")))
    cases = [c for c in manifest["bench"]
             if (c["name"] in only if only else not c["tiny"])]
    props = torch.cuda.get_device_properties(0)
    arch = f"sm_{props.major}{props.minor}"
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 4) as pool:
        libs = {}
        for c in cases:
            d = bundle / c["dir"]
            so = d / f"{c['name']}.so"
            # The library's path, or nvcc's error text.
            libs[c["name"]] = pool.submit(
                lambda d=d, so=so, c=c: build(d / "kernel.cu", so, arch_for(c["target"], arch))
                or so)
        benchmark(bundle, cases, cuda=True, runs=args.runs, compile_=not args.no_compile,
                  libs=libs)


if __name__ == "__main__":
    main()
