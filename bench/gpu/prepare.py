#!/usr/bin/env python3
"""Prepares the first-contact bundle: everything a GPU machine without
LLVM/MLIR needs to run xtile's kernels (bench/gpu/first_contact.py there).

    python3 bench/gpu/prepare.py [--bundle bench/gpu/bundle] [--only a,b] [--quick] [-j N]

For every case of bench/gpu/cases.py, in <bundle>/selftest/<case>/ (the
self-test: the repository's own inputs with their targets and forced
schedules) and <bundle>/bench/<case>/ (the benchmark grid, and its tiny
version for the dry run):

  tensor.mlir          the Tensor IR
  tensor.generic.mlir  the same in MLIR's generic form, which the eager
                       PyTorch reference (reference.py) evaluates (self-test)
  kernel.mlir          the Kernel IR (self-test and tiny grid: the dry run's
                       emulated driver of the PTX path is built from it)
  kernel.cu            the CUDA C (xtile-translate --mlir-to-cuda): nvcc's
  kernel.ptx           the PTX (--mlir-to-ptx): the driver loader's
  plan.json            the launch plan (--mlir-to-launch-plan): buffers,
                       launches, tensor maps, sizes

and <bundle>/manifest.json: the cases, each function's inputs, outputs and
the features its code shows (wgmma, TMA, warp specialization, mma.sync,
split kernels, dynamic sizes: read from the PTX and the plan, and checked
against what the case declares), the compiler's version and commit. The
bundle is regenerated whole by this one command (it is git-ignored); it
must stay under 64 MiB, the size a GPU machine's copy of the working tree
may have. --quick prepares the self-test's quick cases and the tiny grid
only (the lit test's).

Needs build/bin/xtile-opt and xtile-translate; the standard library only.
"""
import argparse
import concurrent.futures
import datetime
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import cases  # noqa: E402
import reference  # noqa: E402

ROOT = HERE.parent.parent
LIMIT = 64 << 20


def run(cmd, **kw):
    done = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if done.returncode:
        raise RuntimeError(f"{' '.join(map(str, cmd))}:\n{done.stderr.strip()}")
    return done.stdout


def ptx_entries(ptx):
    """The body of each .entry of a PTX module, by kernel name."""
    out = {}
    starts = [(m.start(), m.group(1)) for m in
              re.finditer(r"\.entry\s+([\w$]+)\s*\(", ptx)]
    for i, (at, name) in enumerate(starts):
        out[name] = ptx[at:starts[i + 1][0] if i + 1 < len(starts) else len(ptx)]
    return out


def code_features(program, entries):
    """What a program's code shows, from its launch plan and PTX."""
    code = "".join(entries.get(s["launch"], "") for s in program["steps"]
                   if "launch" in s)
    shows = set()
    # Warp-specialized: a producer warpgroup, the consumers meeting on
    # named barriers (ids above 0), registers moved by setmaxnreg.
    if "wgmma.mma_async" in code:
        if "setmaxnreg" in code or re.search(
                r"\bbar(?:rier)?\.sync(?:\.aligned)?\s+[1-9]", code):
            shows.add("wgmma warp-specialized")
        if any("tensor_map" in s for s in program["steps"]):
            shows.add("wgmma + TMA")
        if not shows:
            shows.add("wgmma")
    if "mma.sync" in code:
        shows.add("mma.sync")
    if program.get("sizes"):
        shows.add("dynamic sizes")
    split = any(s.get("launch", "").endswith("_partial") for s in program["steps"])
    return shows, split, code


def features_of(case, program, entries):
    """The table rows a function counts in: what the case declares (rows
    and attention resolved per function) and what its code shows."""
    name = program["name"]
    shows, split, _ = code_features(program, entries)
    declared = case["features"].get(name, case["feature"])
    if declared == "rows":
        declared = "split reductions" if split else "row kernels"
    elif declared == "attention":
        declared = ("attention split" if split else
                    "attention decode" if name in cases.ATTENTION_DECODE else
                    "attention prefill")
    elif declared == "wgmma":
        # The kind of wgmma kernel its code is; a program the cost model
        # gives no wgmma (a one-row GEMV) is a row kernel.
        kinds = [f for f in ("wgmma warp-specialized", "wgmma + TMA", "wgmma")
                 if f in shows]
        declared = kinds[0] if kinds else "row kernels"
    elif declared == "row kernels" and split:
        declared = "split reductions"
    rows = [declared] + sorted(shows - {declared}, key=cases.FEATURES.index)
    return rows


def buffers(program, role):
    return [{"shape": b["shape"], "element": b["element"], "sizes": b.get("sizes", [])}
            for b in program["buffers"] if b["role"] == role]


def lower(src, options, out, tools, kernel_ir=True):
    """Tensor IR file -> kernel.mlir, kernel.cu, kernel.ptx, plan.json in out."""
    kernel = out / "kernel.mlir"
    run([tools.opt, f"--lower-to-kernel={options}", str(src), "-o", str(kernel)])
    for flag, name in [("--mlir-to-cuda", "kernel.cu"), ("--mlir-to-ptx", "kernel.ptx"),
                       ("--mlir-to-launch-plan", "plan.json")]:
        run([tools.translate, flag, str(kernel), "-o", str(out / name)])
    if not kernel_ir:
        kernel.unlink()
    return (json.loads((out / "plan.json").read_text()),
            ptx_entries((out / "kernel.ptx").read_text()))


def prepare_selftest(case, root, tools, mutate=None):
    out = root / "selftest" / case["name"]
    out.mkdir(parents=True)
    src = out / "tensor.mlir"
    if case["entries"]:
        # Only these functions (a forced schedule may fit only them).
        src.write_text(run([tools.opt, "--symbol-privatize=exclude=" +
                            ",".join(case["entries"]), "--symbol-dce",
                            str(ROOT / case["source"])]))
    else:
        shutil.copy(ROOT / case["source"], src)
    generic = run([tools.opt, "--mlir-print-op-generic", str(src)])
    (out / "tensor.generic.mlir").write_text(generic)
    missing = reference.unsupported(reference.parse(generic))
    if missing:
        raise RuntimeError(f"{case['name']}: the eager reference lacks {missing}")
    options = cases.lower_options(case)
    if mutate:
        options += f" test-mutate={mutate}"
    plan, entries = lower(src, options, out, tools)
    ptx = (out / "kernel.ptx").read_text()
    for needed in case["expect"]:
        if needed not in ptx:
            raise RuntimeError(f"{case['name']}: its PTX has no {needed} (the case "
                               f"is meant to exercise it; options {options})")
    functions = []
    for program in plan["programs"]:
        rows = features_of(case, program, entries)
        functions.append({
            "name": program["name"], "features": rows,
            "inputs": buffers(program, "input"), "outputs": buffers(program, "output"),
            "sizes": [s["name"] for s in program.get("sizes", [])],
            "launches": [s["launch"] for s in program["steps"] if "launch" in s],
            "tensor_maps": sum("tensor_map" in s for s in program["steps"])})
    entry = {k: case[k] for k in ("name", "source", "entries", "feature", "target",
                                  "schedule", "fast_math", "tf32", "runs", "quick")}
    entry.update(options=options, functions=functions, dir=f"selftest/{case['name']}")
    return entry


def prepare_bench(case, root, tools, tiny):
    out = root / "bench" / case["name"]
    out.mkdir(parents=True)
    src = out / "tensor.mlir"
    src.write_text(case["mlir"])
    options = cases.lower_options(case)
    plan, entries = lower(src, options, out, tools, kernel_ir=tiny)
    program = plan["programs"][0]
    shows, split, code = code_features(program, entries)
    entry = {k: v for k, v in case.items() if k != "mlir"}
    entry.update(options=options, tiny=tiny, dir=f"bench/{case['name']}",
                 launches=[s["launch"] for s in program["steps"] if "launch" in s],
                 shows=sorted(shows | ({"split"} if split else set())))
    return entry


class Tools:
    def __init__(self, opt, translate):
        self.opt, self.translate = opt, translate


def compiler_identity(tools):
    version = next((line.strip() for line in
                    run([tools.opt, "--version"]).splitlines()
                    if line.strip().startswith("xtile ")), "xtile ?")
    try:
        commit = run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"]).strip()
        dirty = run(["git", "-C", str(ROOT), "status", "--porcelain",
                     "--untracked-files=no"]).strip()
        commit += " (with uncommitted changes)" if dirty else ""
    except (RuntimeError, OSError):
        commit = "?"
    return version, commit


def find_tool(name):
    """As python/xtile/runtime.py looks: $XTILE_BUILD_DIR/bin, the
    checkout's build/bin, $XTILE_PREFIX/bin, PATH."""
    dirs = [pathlib.Path(os.environ[v]) / "bin" for v in ("XTILE_BUILD_DIR",)
            if os.environ.get(v)] + [ROOT / "build" / "bin"]
    if os.environ.get("XTILE_PREFIX"):
        dirs.append(pathlib.Path(os.environ["XTILE_PREFIX"]) / "bin")
    for d in dirs:
        if (d / name).exists():
            return str(d / name)
    found = shutil.which(name)
    if not found:
        raise SystemExit(f"prepare: cannot find {name} (build xtile first: "
                         "scripts/setup.sh)")
    return found


def prepare(bundle, only=(), quick=False, jobs=None, opt=None, translate=None,
            mutate=None, log=print):
    """Writes the bundle; returns its manifest. mutate: for tests of the kit
    itself, --lower-to-kernel's test-mutate on the self-test (a bundle that
    must fail, and says so)."""
    tools = Tools(opt or find_tool("xtile-opt"), translate or find_tool("xtile-translate"))
    root = pathlib.Path(bundle)
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    only = set(only)
    selftest = [c for c in cases.selftest_cases()
                if (c["name"] in only if only else c["quick"] or not quick)]
    bench = [(c, True) for c in cases.bench_cases(tiny=True)]
    if not quick:
        bench += [(c, False) for c in cases.bench_cases()]
    if only:
        bench = [(c, tiny) for c, tiny in bench if c["name"] in only]
    jobs = jobs or os.cpu_count() or 2
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        st = [pool.submit(prepare_selftest, c, root, tools, mutate) for c in selftest]
        bf = [pool.submit(prepare_bench, c, root, tools, tiny) for c, tiny in bench]
        manifest_st = []
        for c, f in zip(selftest, st):
            manifest_st.append(f.result())
            fns = manifest_st[-1]["functions"]
            log(f"selftest {c['name']}: {len(fns)} function(s), "
                f"{sum(len(f['launches']) for f in fns)} launch(es)")
        manifest_bench = []
        for (c, _), f in zip(bench, bf):
            manifest_bench.append(f.result())
            log(f"bench {c['name']}: {len(manifest_bench[-1]['launches'])} launch(es)")
    version, commit = compiler_identity(tools)
    manifest = {"created": datetime.datetime.now(datetime.timezone.utc)
                .strftime("%Y-%m-%d %H:%M UTC"),
                "compiler": version, "commit": commit, "features": cases.FEATURES,
                "mutated": mutate,
                "selftest": manifest_st, "bench": manifest_bench}
    (root / "manifest.json").write_text(json.dumps(manifest, indent=1))
    size = sum(p.stat().st_size for p in root.rglob("*") if p.is_file())
    log(f"bundle {root}: {len(manifest_st)} self-test modules, "
        f"{len(manifest_bench)} benchmark cases, {size / 2**20:.1f} MiB")
    if size > LIMIT:
        raise SystemExit(f"prepare: the bundle is {size / 2**20:.1f} MiB, over the "
                         f"{LIMIT >> 20} MiB a GPU machine's copy may have")
    return manifest


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bundle", default=str(HERE / "bundle"))
    p.add_argument("--only", default="", help="comma-separated case names")
    p.add_argument("--quick", action="store_true",
                   help="the self-test's quick cases and the tiny grid only")
    p.add_argument("-j", "--jobs", type=int, default=None)
    p.add_argument("--opt", default=None)
    p.add_argument("--translate", default=None)
    p.add_argument("--test-mutate", default=None, help=argparse.SUPPRESS)
    args = p.parse_args()
    prepare(args.bundle, filter(None, args.only.split(",")), args.quick, args.jobs,
            args.opt, args.translate, args.test_mutate)


if __name__ == "__main__":
    main()
