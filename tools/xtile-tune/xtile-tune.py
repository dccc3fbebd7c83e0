#!/usr/bin/env python3
"""xtile-tune: choose each kernel's schedule by running its candidates.

    xtile-tune MODULE.mlir [--target sm_90] [--backend emu|cuda] [--top N]
               [--spec OUT.json] [--merge]

For every distinct kernel of the module (by identity, the structural hash of
its Loop IR), takes the cost model's N cheapest candidates
(`xtile-opt --xtile-list-schedules`) and runs the module with each in turn
(`xtile-run --schedule-spec`). Every candidate's outputs are first checked
against the float64 reference, so a tuned spec never holds a wrong kernel.
On a GPU (`--backend cuda`) the candidates are timed (median of `--repeat`
runs of the kernel, CUDA events) and the fastest correct one is kept;
without one (`--backend emu`, the CPU emulation) nothing can be timed and
the cheapest correct candidate by the cost model is kept. Writes a schedule
spec (see --xtile-apply-schedule-spec) for `--lower-to-tile="schedule-spec="`,
`xtile-run --schedule-spec` or the PyTorch frontend's `$XTILE_TUNE_DIR`.
Exits non-zero when some kernel has no correct candidate.
"""
import argparse
import json
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile


def tool(args, name):
    explicit = getattr(args, name.replace("-", "_").replace("xtile_", ""))
    if explicit:
        return explicit
    here = pathlib.Path(__file__).resolve().parent
    for candidate in (here / name, here.parent.parent / "build" / "bin" / name):
        if candidate.exists():
            return str(candidate)
    return shutil.which(name) or name


def spec_of(compiler, entries):
    return {"format": "xtile-schedule-spec", "compiler": compiler,
            "schedules": entries}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("module", help="Tensor IR module")
    parser.add_argument("--target", default="sm_90", choices=["sm_90", "sm_80"])
    parser.add_argument("--backend", default="emu", choices=["emu", "cuda"])
    parser.add_argument("--top", type=int, default=4,
                        help="candidates per kernel, cheapest first (default 4)")
    parser.add_argument("--repeat", type=int, default=20,
                        help="cuda: timed runs per candidate (default 20)")
    parser.add_argument("--spec", default="-", help="output spec (default stdout)")
    parser.add_argument("--merge", action="store_true",
                        help="keep the entries of an existing --spec for other kernels")
    parser.add_argument("--opt", help="xtile-opt (default: next to this script)")
    parser.add_argument("--run", help="xtile-run (default: next to this script)")
    args = parser.parse_args()
    opt, run = tool(args, "xtile-opt"), tool(args, "xtile-run")

    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        loop = tmp / "loop.mlir"
        listed = tmp / "candidates.json"
        lowered = subprocess.run([opt, "--lower-to-loop", args.module, "-o", str(loop)],
                                 capture_output=True, text=True)
        if lowered.returncode:
            sys.exit(f"xtile-tune: {args.module} does not lower:\n{lowered.stderr}")
        subprocess.run([opt, str(loop), "-o", "/dev/null",
                        f"--xtile-list-schedules=target={args.target} output={listed}"],
                       check=True)
        report = json.loads(listed.read_text())
        compiler = report["compiler"]
        chosen, failed = [], []
        for kernel in report["kernels"]:
            name, identity = kernel["kernel"], kernel["identity"]
            results = []
            for candidate in kernel["candidates"][:args.top]:
                spec = tmp / "one.json"
                spec.write_text(json.dumps(spec_of(compiler, [
                    {"kernel": identity, "target": args.target,
                     "schedule": candidate["schedule"]}])))
                cmd = [run, f"--backend={args.backend}", f"--target={args.target}",
                       f"--schedule-spec={spec}", args.module]
                if args.backend == "cuda":
                    cmd.append(f"--repeat={args.repeat}")
                out = subprocess.run(cmd, capture_output=True, text=True)
                ok = out.returncode == 0
                micros = None
                if ok and args.backend == "cuda":
                    times = [float(m[1]) for m in re.finditer(
                        rf"kernel {re.escape(name)}\S*: ([0-9.]+) us", out.stdout)]
                    micros = sum(times) if times else None
                status = "ok" if ok else "WRONG or failed"
                measured = f", measured {micros:.2f} us" if micros is not None else ""
                print(f"xtile-tune: @{name} {candidate['name']}: estimated "
                      f"{candidate['micros']:.2f} us{measured}: {status}", file=sys.stderr)
                if ok:
                    results.append((micros if micros is not None else candidate["micros"],
                                    micros is not None, candidate))
            if not results:
                failed.append(name)
                continue
            best = min(results, key=lambda r: r[0])
            chosen.append({"kernel": identity, "target": args.target, "name": name,
                           "schedule": best[2]["schedule"],
                           "micros": best[0], "measured": best[1]})
    entries = chosen
    if args.merge and args.spec != "-" and pathlib.Path(args.spec).exists():
        old = json.loads(pathlib.Path(args.spec).read_text())
        if old.get("compiler") == compiler:
            tuned = {(e["kernel"], e["target"]) for e in chosen}
            entries = [e for e in old.get("schedules", [])
                       if (e["kernel"], e["target"]) not in tuned] + chosen
    text = json.dumps(spec_of(compiler, entries), indent=2) + "\n"
    if args.spec == "-":
        sys.stdout.write(text)
    else:
        pathlib.Path(args.spec).write_text(text)
    print(f"xtile-tune: {len(chosen)} kernel(s) tuned on {args.backend}, "
          f"{len(failed)} without a correct candidate", file=sys.stderr)
    if failed:
        sys.exit(f"xtile-tune: no correct candidate for {', '.join(failed)}")


if __name__ == "__main__":
    main()
