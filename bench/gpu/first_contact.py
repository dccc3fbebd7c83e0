#!/usr/bin/env python3
"""xtile's first contact with a GPU: one command on an H100/H200 machine
(PyTorch, nvcc; no LLVM/MLIR), within 8 minutes:

    python3 bench/gpu/first_contact.py [--out DIR]

from the bundle that the preparation step made where xtile is built:

    python3 bench/gpu/first_contact.py --prepare          (bench/gpu/prepare.py)

It prints, in order:

(a) a self-test of every kernel family through both loaders against eager
    PyTorch: (1) the emitted CUDA C built by nvcc into a library whose
    host functions are called through ctypes, (2) the emitted PTX loaded
    through the CUDA driver API (cuModuleLoadData, cuLaunchKernel: the
    driver loader of python/xtile/runtime.py) and run from its launch
    plan; a pass/fail table per feature (row kernels, split reductions,
    mma.sync, wgmma plain/TMA/warp-specialized, flash attention
    prefill/decode/split, dynamic sizes, fast math), then the first failing
    feature's details. Each module runs in worker processes of its own,
    watched: a kernel that faults (the CUDA context lost), crashes the
    process or hangs costs only its own run, and the module's other runs
    go on in a fresh process;
(b) the benchmark grid (bench/gpu/run.py): medians against the copy
    bandwidth, torch.compile, cuBLAS and SDPA's flash backend;
(c) the results as JSON, a markdown section for bench/RESULTS.md and a
    roofline plot (PNG, matplotlib) in --out (bench/gpu/results/).

--dry-run runs the self-test here, without a GPU, so that on the GPU only
the hardware is new: loader (1) is the CUDA C compiled by the host
compiler with runtime/xtile_emulation.h (as xtile-run --backend=emu),
loader (2) the same driver-API code with XTILE_LIBCUDA naming an emulated
CUDA driver built for the module (emulated_driver(): by default one that
runs the PTX path's own code, as xtile-run --backend=emu-ptx); the
reference is eager PyTorch on the CPU. Its (b) is the tiny grid, both
loaders timed on the CPU (numbers of no meaning: it checks the harness),
without torch.compile. --nvcc-check also builds everything with nvcc and
ptxas where the CUDA toolkit is installed.
"""
import argparse
import concurrent.futures
import datetime
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time
import zlib

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "python"))

# Normwise relative tolerances by element type, as xtile-run's (docs/Running.md).
TOLERANCE = {"f32": 1e-5, "f16": 1e-2, "bf16": 1e-2, "f64": 1e-12}
LOADERS = {"nvcc": ("CUDA C (nvcc)", "CUDA C (emulated)"),
           "driver": ("PTX (driver API)", "PTX (driver API, emulated)")}
# What the dry run's emulated driver runs (--emulated-driver).
EMULATED = {"ptx": "the PTX path's own code", "cuda": "the CUDA C"}
emulated_kind = "ptx"


def loader_label(loader, dry):
    return LOADERS[loader][1 if dry else 0]


def loaders_described(dry):
    if not dry:
        return ("(1) the CUDA C built by nvcc, called through ctypes; (2) the PTX "
                "loaded through the CUDA driver API and run from its launch plan")
    return ("(1) the CUDA C built by the host compiler for the emulation; (2) the PTX "
            "through the driver API on an emulated libcuda that runs "
            f"{EMULATED[emulated_kind]}")


# ---------------------------------------------------------------------------
# Building

def emulated_driver(case_dir, out, kind="ptx"):
    """Builds the emulated CUDA driver (a libcuda for XTILE_LIBCUDA) whose
    GPU runs one case's kernels, from its Kernel IR, and returns its path:
    the one place that decides what the dry run's PTX loader runs
    (python/xtile/emulated_driver.py builds it):

    ptx: the PTX path's own code, the LLVM IR that NVPTX compiles into the
        bundle's PTX retargeted to the host (`xtile-translate
        --mlir-to-host-ptx`), linked with runtime/xtile_ptx_host.cpp; its
        cuModuleLoadData takes only that PTX;
    cuda: the case's CUDA C built with -DXTILE_EMULATION_DRIVER
        (runtime/xtile_emulation.h): cuModuleLoadData checks the PTX's
        entries, the kernels that run are the CUDA C's."""
    from xtile import emulated_driver as driver
    return driver.build((case_dir / "kernel.mlir").read_text(), out, kind=kind)


def build_library(case_dir, out, dry, arch):
    """Loader (1)'s library: nvcc's build of the CUDA C, or the host
    compiler's for the emulation (dry run)."""
    from run import runtime
    cu = case_dir / "kernel.cu"
    cmd = (runtime.emulation_command(cu, out) if dry
           else runtime.nvcc_command(cu, out, arch))
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"{cmd[0]} failed:\n" + (done.stderr or done.stdout)[-4000:])
    return out


def toolkit_check(bundle, cases, pool, log=print):
    """Dry run, where the CUDA toolkit is installed: what the GPU machine
    will build, built here: every case's CUDA C by nvcc and its PTX by
    ptxas, for its architecture (sm_90, or sm_90a). Nothing runs."""
    import shutil
    from run import runtime
    nvcc = runtime._nvcc()
    ptxas = shutil.which("ptxas") or (str(pathlib.Path(nvcc).parent / "ptxas")
                                      if nvcc else None)
    if not nvcc:
        log("nvcc/ptxas check: no CUDA toolkit here (nvcc not found)")
        return None
    work = pathlib.Path(tempfile.mkdtemp(prefix="xtile-nvcc-"))

    def one(c):
        d = bundle / c["dir"]
        arch = "sm_90a" if c["target"] == "sm_90a" else "sm_90"
        errors, warnings = [], []
        for cmd in (runtime.nvcc_command(d / "kernel.cu", work / f"{c['name']}.so", arch),
                    [ptxas, f"-arch={arch}", str(d / "kernel.ptx"), "-o",
                     str(work / f"{c['name']}.cubin")]):
            done = subprocess.run(cmd, capture_output=True, text=True)
            tool = pathlib.Path(cmd[0]).name
            if done.returncode:
                errors.append(f"{tool}: {(done.stderr or done.stdout).strip()[:2000]}")
            warnings += [f"{tool}: {line.split(': ', 1)[-1].strip()}"
                         for line in done.stderr.splitlines()
                         if "Performance Loss" in line or "warning" in line.lower()]
        return c["name"], errors, warnings
    t0 = time.monotonic()
    checked = list(pool.map(one, cases))
    failed = [(n, e) for n, e, _ in checked if e]
    log(f"nvcc/ptxas check ({nvcc}): {len(cases) - len(failed)}/{len(cases)} cases' "
        f"CUDA C and PTX build for sm_90/sm_90a ({time.monotonic() - t0:.0f} s)")
    for name, errors in failed:
        log(f"  {name}: " + "\n    ".join(errors))
    for name, _, warnings in checked:
        for w in dict.fromkeys(warnings):
            log(f"  {name}: {w}")
    shutil.rmtree(work, ignore_errors=True)
    return not failed


# ---------------------------------------------------------------------------
# The self-test worker: one module's runs, in a process of its own

def make_input(spec, shape, gen):
    import torch
    import reference
    element = spec["element"]
    if element in reference.FLOATS:
        x = torch.rand(shape, generator=gen, dtype=torch.float64) * 2 - 1
        return x.to(reference.storage_dtype(element))
    if element == "i1":
        return torch.randint(0, 2, shape, generator=gen).bool()
    return torch.randint(1, 5, shape, generator=gen).to(reference.storage_dtype(element))


def _normwise(g, expected):
    """Normwise relative error of g against expected over the finite
    elements of expected, the differences, and where NaN/Inf disagree."""
    import torch
    norm = float(torch.linalg.vector_norm(expected))
    if bool(torch.isfinite(g).all()) and torch.isfinite(torch.tensor(norm)):
        diff = g - expected           # every element finite: the fast path
        err = float(torch.linalg.vector_norm(diff)) / (norm if norm > 0 else 1.0)
        return err, diff, None
    finite = torch.isfinite(expected)
    special = ((torch.isnan(g) != torch.isnan(expected)) |
               (torch.isinf(expected) & (g != expected)) |
               (finite & ~torch.isfinite(g)))
    diff = torch.where(finite & torch.isfinite(g), g - expected, torch.zeros_like(g))
    norm = float(torch.linalg.vector_norm(torch.where(finite, expected,
                                                      torch.zeros_like(expected))))
    err = float(torch.linalg.vector_norm(diff)) / (norm if norm > 0 else 1.0)
    return err, diff, (special if bool(special.any()) else None)


def _index(flat, shape):
    out = []
    for d in reversed(shape):
        flat, i = divmod(flat, d)
        out.append(i)
    return out[::-1]


def compare(got, expected, rounded, element, base):
    """got (the kernel's output) against the reference, as xtile-run checks
    (docs/Running.md): the normwise relative error against the float64
    evaluation within the element type's tolerance, or, for a program that
    amplifies rounding, within 4x the error of evaluating it op by op in
    its own types (`rounded`: eager PyTorch in the program's types), capped
    at 10x; a program its types cannot evaluate (that error past 10x)
    passes when it is no farther from float64 than that evaluation, or
    within 10x of it."""
    import torch
    import reference
    out = {"element": element, "shape": list(got.shape), "tolerance": base}
    if got.numel() == 0:
        return out | {"ok": True, "normwise": 0.0}
    if element not in reference.FLOATS:
        bad = (got.to(expected.dtype) != expected)
        out.update(ok=not bool(bad.any()), mismatches=int(bad.sum()),
                   normwise=float(bad.any()))
        if bad.any():
            i = int(bad.flatten().nonzero()[0])
            out.update(at=[i], got=got.flatten()[i].item(),
                       expected=expected.flatten()[i].item())
        return out
    g = got.to(torch.float64)
    err, diff, special = _normwise(g, expected)
    rounding = _normwise(rounded, expected)[0]
    tol = max(base, min(4 * rounding, 10 * base))
    worst = int(diff.abs().argmax())
    flat_g, flat_e = g.reshape(-1), expected.reshape(-1)
    out.update(normwise=err, tolerance=tol, rounding=rounding,
               max_abs=abs(float(diff.reshape(-1)[worst])), at=_index(worst, list(g.shape)),
               got=float(flat_g[worst]), expected=float(flat_e[worst]),
               nonfinite_mismatches=0 if special is None else int(special.sum()))
    ok = err <= tol and special is None
    margin = err / tol if tol else float(err > 0)
    if not ok and rounding > 10 * base:
        err2, _, special2 = _normwise(g, rounded)
        ok = ((special is None and err <= rounding) or
              (special2 is None and err2 <= 10 * base))
        margin = min(err / rounding, err2 / (10 * base))
        out["against_rounded"] = err2
    # The error over what is allowed: at most 1 when it passes.
    out.update(ok=ok, margin=margin)
    if special is not None:
        i = int(special.reshape(-1).nonzero()[0])
        out.update(special_at=i, special_got=float(flat_g[i]),
                   special_expected=float(flat_e[i]))
    return out


def worker(spec):
    """Runs items (loader, function) of one module, in order; writes a JSON
    line per event to spec["log"] as it goes, so that a crash or a hang
    leaves what was done and the item it happened in."""
    import torch
    import reference
    from run import runtime
    dry = spec["dry"]
    device = "cpu" if dry else "cuda"
    case_dir = pathlib.Path(spec["dir"])
    case = spec["case"]
    plan = json.loads((case_dir / "plan.json").read_text())
    programs = {p["name"]: p for p in plan["programs"]}
    functions = {f["name"]: f for f in case["functions"]}
    module = reference.parse((case_dir / "tensor.generic.mlir").read_text())
    ptx = (case_dir / "kernel.ptx").read_text()
    if dry and spec.get("driver"):
        os.environ["XTILE_LIBCUDA"] = spec["driver"]
    log = open(spec["log"], "a", buffering=1)

    def emit(**kw):
        log.write(json.dumps(kw) + "\n")
        log.flush()
    tol = dict(TOLERANCE)
    if case.get("tf32"):
        tol["f32"] = 1e-2
    expected_cache = {}
    for loader, name in spec["items"]:
        fn = functions[name]
        done = set()
        for binding in case["runs"]:
            if not all(s in binding for s in fn["sizes"]):
                continue
            sizes = [binding[s] for s in fn["sizes"]]
            run_label = ",".join(f"{s}={binding[s]}" for s in fn["sizes"])
            if run_label in done:
                continue
            done.add(run_label)
            emit(start=[loader, name], run=run_label)
            t0 = time.monotonic()
            record = {"loader": loader, "function": name, "run": run_label, "checks": []}
            try:
                key = (name, run_label)
                if key not in expected_cache:
                    gen = torch.Generator().manual_seed(
                        zlib.crc32(f"{case['name']}/{name}/{run_label}".encode()))
                    inputs = [make_input(b, runtime._DriverProgram._shape(b, sizes), gen)
                              for b in fn["inputs"]]
                    bound = dict(zip(fn["sizes"], sizes))
                    on = [x.to(device) for x in inputs]
                    expected = module.run(name, on, bound, device=device)
                    rounded = module.run(name, on, bound, device=device, round_ops=True)
                    expected_cache[key] = (inputs, [e.cpu() for e in expected],
                                           [e.cpu() for e in rounded])
                inputs, expected, rounded = expected_cache[key]
                outputs = []
                for b in fn["outputs"]:
                    shape = runtime._DriverProgram._shape(b, sizes)
                    dtype = reference.storage_dtype(b["element"])
                    fill = float("nan") if b["element"] in reference.FLOATS else 0
                    outputs.append(torch.full(shape, fill, dtype=dtype, device=device))
                buffers = [x.to(device) for x in inputs] + outputs
                if loader == "nvcc":
                    program = runtime._LibraryProgram(spec["lib"], name, cuda=not dry)
                else:
                    program = runtime._DriverProgram(ptx, plan, name)
                    record["tensor_maps"] = sum("tensor_map" in s
                                                for s in programs[name]["steps"])
                rc = program(buffers, sizes)
                if not dry:
                    torch.cuda.synchronize()
                if rc != 0:
                    raise RuntimeError(f"the program returned CUDA error {rc}")
                # The outputs' bits, to compare the two loaders' results.
                record["digest"] = zlib.crc32(b"".join(
                    o.detach().cpu().contiguous().reshape(-1).view(torch.uint8)
                    .numpy().tobytes() for o in outputs))
                for i, (got, exp, rnd, b) in enumerate(zip(outputs, expected, rounded,
                                                           fn["outputs"])):
                    c = compare(got.cpu(), exp, rnd, b["element"], tol.get(b["element"], 0))
                    c["output"] = i
                    record["checks"].append(c)
                record["status"] = ("pass" if all(c["ok"] for c in record["checks"])
                                    else "fail")
            except Exception as e:   # a failure of this function: recorded
                record["status"] = "error"
                record["error"] = f"{type(e).__name__}: {e}"
                if not dry and _context_lost(e):
                    record["fatal"] = True
                    record["error"] += ("\n(the CUDA context is lost: the module's "
                                        "remaining runs go to a new process)")
            record["seconds"] = round(time.monotonic() - t0, 3)
            emit(result=record)
            if record.get("fatal"):
                return
        emit(item=[loader, name])
    emit(done=True)


def _context_lost(e):
    """Whether a CUDA error leaves the context unusable (a fault in a
    kernel: illegal address, illegal instruction, launch failure...)."""
    import torch
    try:
        torch.cuda.synchronize()
        torch.zeros(1, device="cuda").add_(1).item()
        return False
    except Exception:
        return True


# ---------------------------------------------------------------------------
# The self-test driver

def run_module(case, bundle, dry, build, timeout):
    """Runs a module's functions through both loaders in worker processes
    until every (loader, function) has its results: a worker that dies or
    stops answering (no event for `timeout` seconds) is replaced, and what
    it was running recorded as such."""
    items = [(loader, f["name"]) for loader in ("nvcc", "driver")
             for f in case["functions"]]
    results = []
    lib, driver = build.result()
    for loader, artifact in (("nvcc", lib), ("driver", driver)):
        if isinstance(artifact, Exception):
            for l, name in items:
                if l == loader:
                    results.append({"loader": l, "function": name, "run": "",
                                    "status": "error", "checks": [],
                                    "error": f"build: {str(artifact).strip()}"})
            items = [i for i in items if i[0] != loader]
    while items:
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as t:
            logpath = t.name
        spec = {"dry": dry, "dir": str(bundle / case["dir"]), "case": case,
                "items": items, "log": logpath, "lib": str(lib),
                "driver": str(driver) if driver else None}
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            [str(ROOT / "python"), str(HERE), os.environ.get("PYTHONPATH", "")]))
        out = tempfile.TemporaryFile("w+")
        proc = subprocess.Popen([sys.executable, str(pathlib.Path(__file__).resolve()),
                                 "--worker", json.dumps(spec)], env=env, stdout=out,
                                stderr=subprocess.STDOUT, text=True)
        hung, seen, last = False, 0, time.monotonic()
        while proc.poll() is None:
            time.sleep(0.2)
            size = os.path.getsize(logpath)
            if size != seen:
                seen, last = size, time.monotonic()
            elif time.monotonic() - last > timeout:
                proc.kill()
                proc.wait()
                hung = True
        out.seek(0)
        output = out.read().strip()
        events = [json.loads(line) for line in open(logpath) if line.strip()]
        os.unlink(logpath)
        started, finished = None, set()
        for ev in events:
            if "start" in ev:
                started = (tuple(ev["start"]), ev["run"])
            elif "result" in ev:
                results.append(ev["result"])
                started = None
                if ev["result"].get("fatal"):
                    finished.add((ev["result"]["loader"], ev["result"]["function"]))
            elif "item" in ev:
                finished.add(tuple(ev["item"]))
        if started is not None:
            what = (f"hung: no result within {timeout:.0f} s (killed)" if hung else
                    f"the process died (exit {proc.returncode}):\n{output[-3000:]}")
            results.append({"loader": started[0][0], "function": started[0][1],
                            "run": started[1], "status": "error", "error": what,
                            "checks": []})
            finished.add(started[0])
        elif not events:
            for loader, name in items:
                results.append({"loader": loader, "function": name, "run": "",
                                "status": "error", "checks": [],
                                "error": f"the worker failed (exit {proc.returncode}):\n"
                                         f"{output[-3000:]}"})
            return results
        items = [i for i in items if i not in finished]
    return results


def selftest(bundle, manifest, args, dry, pool, then=None, log=print):
    """(a): runs every self-test module through both loaders (their builds
    first in the pool's queue, then what `then` submits); returns the
    per-run records."""
    cases = [c for c in manifest["selftest"] if _selected(c["name"], args)]
    work = pathlib.Path(tempfile.mkdtemp(prefix="xtile-first-contact-"))
    arch = None
    if not dry:
        import torch
        arch = "sm_%d%d" % torch.cuda.get_device_capability()
    import run as bench_run

    def build_pair(c):
        d = bundle / c["dir"]
        try:
            lib = build_library(d, work / f"{c['name']}.so", dry,
                                bench_run.arch_for(c["target"], arch) if arch else None)
        except Exception as e:
            lib = e
        driver = None
        if dry:
            try:
                driver = emulated_driver(d, work / f"libcuda-{c['name']}.so",
                                         args.emulated_driver)
            except Exception as e:
                driver = e
        return lib, driver
    builds = {c["name"]: pool.submit(build_pair, c) for c in cases}
    if then:
        then()
    timeout = args.worker_timeout or (600 if dry else 60)
    records = []

    def one(c):
        t0 = time.monotonic()
        rs = run_module(c, bundle, dry, builds[c["name"]], timeout)
        feats = {f["name"]: f["features"] for f in c["functions"]}
        for r in rs:
            r.update(case=c["name"], features=feats[r["function"]])
        return rs, time.monotonic() - t0
    parallel = args.parallel or (2 if dry else 4)
    with concurrent.futures.ThreadPoolExecutor(parallel) as runners:
        # Reported in the cases' order, whichever finishes first.
        for c, (rs, seconds) in zip(cases, runners.map(one, cases)):
            line = []
            for loader in ("nvcc", "driver"):
                lr = [r for r in rs if r["loader"] == loader]
                line.append(f"{loader} {sum(r['status'] == 'pass' for r in lr)}/{len(lr)}")
            log(f"  {c['name']:22} {', '.join(line)} runs passed  ({seconds:.1f} s)")
            records += rs
    import shutil
    shutil.rmtree(work, ignore_errors=True)
    return records


def _selected(name, args):
    only = set(filter(None, (args.only or "").split(",")))
    return name in only if only else True


def feature_table(records, manifest, dry):
    """Rows: feature, functions, runs, per loader passed/total."""
    rows = []
    for feature in manifest["features"]:
        rs = [r for r in records if feature in r["features"]]
        if not rs:
            continue
        fns = {(r["case"], r["function"]) for r in rs}
        row = {"feature": feature, "functions": len(fns)}
        for loader in ("nvcc", "driver"):
            lr = [r for r in rs if r["loader"] == loader]
            row[loader] = (sum(r["status"] == "pass" for r in lr), len(lr))
        worst = max((c.get("margin", 0.0) for r in rs for c in r["checks"]), default=0.0)
        row["worst"] = worst
        # Runs whose outputs the two loaders gave bit for bit alike.
        digests = {}
        for r in rs:
            if "digest" in r:
                digests.setdefault((r["case"], r["function"], r["run"]), {})[r["loader"]] = \
                    r["digest"]
        pairs = [d for d in digests.values() if len(d) == 2]
        row["identical"] = (sum(d["nvcc"] == d["driver"] for d in pairs), len(pairs))
        row["ok"] = all(row[l][0] == row[l][1] for l in ("nvcc", "driver"))
        rows.append(row)
    return rows


def print_table(rows, records, dry, manifest, bundle, log=print):
    l1, l2 = loader_label("nvcc", dry), loader_label("driver", dry)
    w = max(len(l1), len(l2), 12)
    log(f"{'feature':24} {'functions':>9}  {l1:>{w}}  {l2:>{w}}  {'error/allowed':>13}  "
        f"{'same bits':>9}")
    for r in rows:
        cells = []
        for loader in ("nvcc", "driver"):
            p, n = r[loader]
            cells.append(f"{p}/{n} {'pass' if p == n else 'FAIL'}")
        same = "{}/{}".format(*r["identical"])
        log(f"{r['feature']:24} {r['functions']:>9}  {cells[0]:>{w}}  {cells[1]:>{w}}  "
            f"{r['worst']:13.3f}  {same:>9}")
    total = len(records)
    passed = sum(r["status"] == "pass" for r in records)
    log(f"{'all':24} {len({(r['case'], r['function']) for r in records}):>9}  "
        f"{passed}/{total} runs passed; same bits: the runs whose outputs both loaders "
        "gave bit for bit alike")
    failing = next((r for r in rows if not r["ok"]), None)
    if failing is None:
        log("every feature passed through both loaders")
        return None
    cases = {c["name"]: c for c in manifest["selftest"]}
    bad = [r for r in records if failing["feature"] in r["features"] and r["status"] != "pass"]
    log(f"\nfirst failing feature: {failing['feature']} ({len(bad)} failing runs)")
    # The first three of each loader: whether both fail alike says much.
    shown = ([r for r in bad if r["loader"] == "nvcc"][:3] +
             [r for r in bad if r["loader"] == "driver"][:3])
    for name in dict.fromkeys(r["case"] for r in shown):
        c = cases[name]
        log(f"  {name}: {c['source']}" + (f" ({', '.join('@' + e for e in c['entries'])})"
                                          if c.get("entries") else "") +
            f", --lower-to-kernel=\"{c['options']}\"")
        log(f"    files: {bundle / c['dir']}/kernel.cu, kernel.ptx, plan.json, tensor.mlir")
        for r in [r for r in shown if r["case"] == name]:
            at = f" [{r['run']}]" if r["run"] else ""
            log(f"    @{r['function']}{at}, {loader_label(r['loader'], dry)}: {r['status']}")
            if r.get("error"):
                for line in r["error"].strip().splitlines()[:12]:
                    log(f"        {line}")
            for ch in r["checks"]:
                if ch.get("ok"):
                    continue
                msg = (f"        output #{ch['output']} {ch['element']}{ch['shape']}: normwise "
                       f"error {ch['normwise']:.3g} (allowed {ch['tolerance']:.3g})")
                if "max_abs" in ch:
                    msg += (f"; max |diff| {ch['max_abs']:.3g} at {tuple(ch['at'])}: got "
                            f"{ch['got']:.6g}, expected {ch['expected']:.6g}")
                if ch.get("nonfinite_mismatches"):
                    msg += (f"; {ch['nonfinite_mismatches']} NaN/Inf where the reference "
                            f"differs (first at flat index {ch['special_at']}: got "
                            f"{ch['special_got']}, expected {ch['special_expected']})")
                if "mismatches" in ch:
                    msg += (f"; {ch['mismatches']} elements differ (first at {ch['at']}: got "
                            f"{ch['got']}, expected {ch['expected']})")
                log(msg)
    if len(bad) > len(shown):
        log(f"  ... and {len(bad) - len(shown)} more failing runs of this feature "
            "(all in the JSON)")
    others = [r["feature"] for r in rows if not r["ok"] and r is not failing]
    if others:
        log(f"also failing: {', '.join(others)}")
    return failing["feature"]


# ---------------------------------------------------------------------------
# (c): JSON, markdown, roofline

def markdown(report):
    env, dry = report["environment"], report["dry_run"]
    lines = [f"## {report['date']}, first contact: " +
             ("dry run (CPU emulation, no GPU)" if dry else env["device"]), "",
             f"`python3 bench/gpu/first_contact.py{' --dry-run' if dry else ''}` with the "
             f"bundle of {report['bundle']['compiler']}, commit {report['bundle']['commit']} "
             f"(prepared {report['bundle']['created']}); torch {env['torch']}"
             + (f", {env['nvcc']}" if env.get("nvcc") else "") + ".", "",
             "### Self-test against eager PyTorch", "",
             f"Loaders: {loaders_described(dry)}.", "",
             f"| feature | functions | {loader_label('nvcc', dry)} | "
             f"{loader_label('driver', dry)} | worst error / allowed | loaders' bits alike |",
             "|---|---:|---:|---:|---:|---:|"]
    for r in report["selftest"]["table"]:
        cells = [f"{r[l][0]}/{r[l][1]}" + ("" if r[l][0] == r[l][1] else " **FAIL**")
                 for l in ("nvcc", "driver")]
        lines.append(f"| {r['feature']} | {r['functions']} | {cells[0]} | {cells[1]} | "
                     f"{r['worst']:.3f} | {r['identical'][0]}/{r['identical'][1]} |")
    first = report["selftest"]["first_failing"]
    lines += ["", f"First failing feature: {first}." if first else
              "Every feature passed through both loaders.", ""]
    bench = report.get("bench")
    if not bench:
        return "\n".join(lines) + "\n"
    benv = bench["environment"]
    lines += ["### Benchmarks" + (" (tiny grid, CPU: checks the harness, the times mean "
                                  "nothing)" if dry else ""), "",
              f"Device-to-device copy {benv['copy_gbs']:.0f} GB/s; bf16 matmul peak "
              f"(PyTorch) {benv['peak_tflops']:.3g} TFLOP/s. Medians of {bench['runs']} "
              "runs; µs.", "",
              "| case | xtile (CUDA C) | xtile (PTX) | eager | baseline | baseline µs | "
              "xtile vs baseline | xtile rate | max err |",
              "|---|---:|---:|---:|---|---:|---:|---:|---:|"]
    for r in bench["results"]:
        mine = min([v for k, v in r["times"].items() if k.startswith("xtile")], default=None)
        import run as bench_run
        base = bench_run.baseline_us(r)
        if r["op"] in ("matmul", "linear", "attention", "decoder_layer", "decode_step"):
            rate = f"{r['flops'] / (mine * 1e-6) / 1e12:.1f} TFLOP/s" if mine else "-"
        else:
            rate = (f"{r['bytes'] / (mine * 1e-6) / 1e9:.0f} GB/s "
                    f"({r['bytes'] / (mine * 1e-6) / 1e9 / benv['copy_gbs']:.0%} of copy)"
                    if mine else "-")
        f = lambda k: f"{r['times'][k]:.1f}" if k in r["times"] else "-"
        err = max((v["max_abs"] for v in r.get("error", {}).values()), default=None)
        note = ("; ".join(r["notes"])) if r["notes"] else ""
        lines.append(f"| {r['name']} | {f('xtile (CUDA C)')} | {f('xtile (PTX)')} | "
                     f"{f('eager')} | {r['baseline']} | "
                     f"{'-' if base is None else f'{base:.1f}'} | "
                     f"{f'{base / mine:.2f}x' if base and mine else '-'} | {rate} | "
                     f"{'-' if err is None else f'{err:.1e}'}"
                     f"{' (' + note + ')' if note else ''} |")
    return "\n".join(lines) + "\n"


def roofline(report, path):
    """Every measured kernel (ours and the baselines) on the roofline of the
    measured copy bandwidth and bf16 matmul peak; None, or why not."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "matplotlib is not importable: no roofline plot"
    bench = report["bench"]
    env = bench["environment"]
    bw, peak = env["copy_gbs"] * 1e9, env["peak_tflops"] * 1e12
    fig, ax = plt.subplots(figsize=(10, 6.5))
    ais = [r["flops"] / r["bytes"] for r in bench["results"] if r["bytes"] and r["flops"]]
    ridge = peak / bw
    lo, hi = min(ais + [ridge]) / 3, max(ais + [ridge]) * 3
    xs = [lo * (hi / lo) ** (i / 200) for i in range(201)]
    ax.plot(xs, [min(bw * x, peak) / 1e12 for x in xs], "k-", lw=1.5,
            label=f"roof: {env['copy_gbs']:.0f} GB/s copy, {env['peak_tflops']:.0f} TFLOP/s bf16")
    styles = {"xtile": ("o", "tab:blue"), "eager": ("x", "tab:gray"),
              "torch.compile": ("s", "tab:orange"), "SDPA flash": ("^", "tab:green")}
    seen = set()
    for r in bench["results"]:
        if not r["bytes"] or not r["flops"]:
            continue
        ai = r["flops"] / r["bytes"]
        mine = min([v for k, v in r["times"].items() if k.startswith("xtile")], default=None)
        points = {"xtile": mine, "eager": r["times"].get("eager"),
                  "torch.compile": r["times"].get("torch.compile"),
                  "SDPA flash": r["times"].get("SDPA flash")}
        for label, us in points.items():
            if not us:
                continue
            marker, color = styles[label]
            name = label if label != "eager" or r["baseline"] != "cuBLAS" else "eager"
            ax.loglog(ai, r["flops"] / (us * 1e-6) / 1e12, marker, color=color,
                      label=None if label in seen else
                      ("eager (cuBLAS for matmuls)" if label == "eager" else name),
                      ms=5 if label != "xtile" else 7, alpha=0.85)
            seen.add(label)
        if mine:
            ax.annotate(r["name"], (ai, r["flops"] / (mine * 1e-6) / 1e12), fontsize=5,
                        xytext=(3, 2), textcoords="offset points")
    ax.set_xlabel("arithmetic intensity (FLOP / byte of the ideal traffic; row ops: "
                  "nominal FLOPs)")
    ax.set_ylabel("TFLOP/s")
    ax.set_title(f"xtile on {env['device']}" + (" (dry run)" if report["dry_run"] else ""),
                 fontsize=9)
    ax.grid(True, which="both", lw=0.3)
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=150)
    return None


def environment(dry):
    import torch
    env = {"torch": torch.__version__, "python": sys.version.split()[0]}
    if not dry:
        props = torch.cuda.get_device_properties(0)
        env["device"] = f"{props.name} (sm_{props.major}{props.minor})"
        from run import runtime
        nvcc = runtime._nvcc()
        if nvcc:
            out = subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout
            env["nvcc"] = next((l.strip() for l in out.splitlines() if "release" in l), "nvcc ?")
        else:
            env["nvcc"] = "no nvcc: loader (1) cannot be built"
    else:
        env["device"] = f"no GPU: the CPU emulation ({os.cpu_count()} cores)"
    return env


# ---------------------------------------------------------------------------

def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bundle", default=str(HERE / "bundle"))
    p.add_argument("--out", default=str(HERE / "results"),
                   help="where the JSON, markdown and PNG go")
    p.add_argument("--prepare", action="store_true",
                   help="make the bundle first (needs xtile's build: bench/gpu/prepare.py)")
    p.add_argument("--quick", action="store_true",
                   help="with --prepare: the self-test's quick cases and the tiny grid")
    p.add_argument("--dry-run", action="store_true",
                   help="the self-test on the CPU emulation, the tiny grid on the CPU")
    p.add_argument("--only", default="", help="comma-separated self-test and bench cases")
    p.add_argument("--selftest-only", action="store_true", help="skip (b)")
    p.add_argument("--runs", type=int, default=None,
                   help="timed runs per measurement (50; 3 in the dry run)")
    p.add_argument("--no-compile", action="store_true", help="skip torch.compile")
    p.add_argument("--time-limit", type=float, default=None,
                   help="seconds the whole command may take: later benchmarks drop "
                        "torch.compile, then stop, to keep to it (480 on a GPU; none "
                        "in the dry run)")
    p.add_argument("--emulated-driver", choices=["ptx", "cuda"], default="ptx",
                   help="dry run: what the emulated driver runs, the PTX path's code "
                        "(ptx, the default) or the CUDA C (emulated_driver())")
    p.add_argument("--worker-timeout", type=float, default=None,
                   help="seconds a run may go without a result before its process is "
                        "killed as hung (60 on a GPU, 600 dry)")
    p.add_argument("--jobs", type=int, default=None, help="parallel builds")
    p.add_argument("--parallel", type=int, default=None,
                   help="self-test modules run at once (4 on a GPU, 2 dry)")
    p.add_argument("--nvcc-check", action="store_true",
                   help="dry run: also build every case's CUDA C with nvcc and its PTX "
                        "with ptxas for sm_90/sm_90a, as the GPU machine will (where "
                        "the CUDA toolkit is installed; nothing runs)")
    p.add_argument("--worker", help=argparse.SUPPRESS)
    p.add_argument("--test-mutate", default=None, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker:
        worker(json.loads(args.worker))
        return 0
    start = time.monotonic()
    limit = args.time_limit or (None if args.dry_run else 480)
    deadline = start + limit if limit else None
    bundle = pathlib.Path(args.bundle)
    if args.prepare:
        import prepare
        prepare.prepare(bundle, filter(None, args.only.split(",")), args.quick, args.jobs,
                        mutate=args.test_mutate)
        if not args.dry_run and not _has_gpu():
            return 0
    if not (bundle / "manifest.json").exists():
        print(f"first_contact: no bundle at {bundle}: make it where xtile is built with\n"
              f"  python3 bench/gpu/first_contact.py --prepare\n"
              f"and copy it with the working tree (it is git-ignored: a device run's "
              f"`carry` must name bench/gpu/bundle)", file=sys.stderr)
        return 2
    manifest = json.loads((bundle / "manifest.json").read_text())
    dry = args.dry_run
    global emulated_kind
    emulated_kind = args.emulated_driver
    if not dry and not _has_gpu():
        print("first_contact: no GPU here (torch.cuda.is_available() is False); "
              "--dry-run runs the self-test on the CPU emulation", file=sys.stderr)
        return 2
    import torch
    env = environment(dry)
    print(f"# xtile first contact: {env['device']}; torch {env['torch']}"
          + (f"; {env['nvcc']}" if env.get("nvcc") else ""))
    print(f"# bundle {bundle}: {manifest['compiler']}, commit {manifest['commit']}, "
          f"prepared {manifest['created']}")
    if manifest.get("mutated"):
        print(f"# this bundle's self-test was lowered with test-mutate="
              f"{manifest['mutated']}: broken on purpose, it must fail")
    jobs = args.jobs or os.cpu_count() or 2
    pool = concurrent.futures.ThreadPoolExecutor(jobs)
    bench_cases = [c for c in manifest["bench"] if (c["tiny"] == dry) and _selected(c["name"], args)
                   and not args.selftest_only]
    # Loader (1)'s builds of the benchmark, queued behind the self-test's:
    # they overlap the self-test's runs.
    work = pathlib.Path(tempfile.mkdtemp(prefix="xtile-bench-"))
    futures, drivers = {}, {}

    def submit_bench_builds():
        import run as bench_run
        arch = None if dry else "sm_%d%d" % torch.cuda.get_device_capability()
        for c in bench_cases:
            def job(c=c, d=bundle / c["dir"]):
                try:
                    return build_library(d, work / f"{c['name']}.so", dry,
                                         bench_run.arch_for(c["target"], arch) if arch else None)
                except Exception as e:
                    return str(e)

            def driver_job(c=c, d=bundle / c["dir"]):
                try:
                    return emulated_driver(d, work / f"libcuda-{c['name']}.so",
                                           args.emulated_driver)
                except Exception as e:
                    return str(e)
            futures[c["name"]] = pool.submit(job)
            if dry:
                drivers[c["name"]] = pool.submit(driver_job)
    selected = [c for c in manifest["selftest"] if _selected(c["name"], args)]
    if dry and args.nvcc_check:
        toolkit_check(bundle, selected + [c for c in manifest["bench"]
                                          if _selected(c["name"], args)], pool)
    print(f"\n(a) self-test: {len(selected)} modules, "
          f"{sum(len(c['functions']) for c in selected)} functions, through both loaders, "
          f"{loaders_described(dry)}; against eager PyTorch (float64) on "
          f"{'the CPU' if dry else 'the GPU'}")
    records = selftest(bundle, manifest, args, dry, pool, then=submit_bench_builds)
    print()
    rows = feature_table(records, manifest, dry)
    first = print_table(rows, records, dry, manifest, bundle)
    report = {"date": datetime.date.today().isoformat(), "dry_run": dry, "environment": env,
              "bundle": {k: manifest[k] for k in ("compiler", "commit", "created")},
              "selftest": {"table": rows, "first_failing": first, "runs": records}}
    if bench_cases:
        import run as bench_run
        runs = args.runs or (3 if dry else 50)
        tiny = (" (the tiny grid on the CPU: both loaders on the emulation, timed by "
                "the wall clock, torch.compile not run; it checks the harness, its "
                "times mean nothing)") if dry else ""
        print(f"\n(b) benchmarks{tiny}")
        order = {"matmul": 0, "linear": 1, "attention": 2, "decoder_layer": 3,
                 "decode_step": 4}
        ordered = sorted(bench_cases, key=lambda c: order.get(c["op"], 5))
        benv, results = bench_run.benchmark(
            bundle, ordered, cuda=not dry, runs=runs,
            compile_=not (args.no_compile or dry), deadline=deadline,
            libs=futures, drivers=drivers)
        report["bench"] = {"environment": benv, "results": results, "runs": runs}
    else:
        print("\n(b) benchmarks: not run" + (" (--selftest-only)" if args.selftest_only else ""))
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    stem = "first-contact" + ("-dry-run" if dry else "")
    (out / f"{stem}.json").write_text(json.dumps(report, indent=1, default=str))
    (out / f"{stem}.md").write_text(markdown(report))
    print(f"\n(c) {out / (stem + '.json')}, {out / (stem + '.md')} (a section for "
          "bench/RESULTS.md)", end="")
    if "bench" in report:
        why = roofline(report, out / f"{stem}-roofline.png")
        print(f", {out / (stem + '-roofline.png')}" if why is None else f"; {why}")
    else:
        print()
    print(f"# {time.monotonic() - start:.0f} s")
    pool.shutdown(wait=False, cancel_futures=True)
    import shutil
    shutil.rmtree(work, ignore_errors=True)
    return 0 if first is None else 1


def _has_gpu():
    try:
        import torch
        return torch.cuda.is_available()
    except ImportError:
        return False


if __name__ == "__main__":
    sys.exit(main())
