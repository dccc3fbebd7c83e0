#!/usr/bin/env python3
"""Kernel resources: registers, spills and shared memory of every kernel of
every example, as ptxas reports them (`-v`), for both outputs of
xtile-translate: the CUDA C compiled by nvcc, and the PTX (LLVM's NVPTX
backend) assembled by ptxas.

    python3 bench/resources.py [--arch sm_90] [--opt ...] [--translate ...]

Needs nvcc and ptxas (on PATH or in /usr/local/cuda/bin); a path whose tool
is missing is reported as skipped. Target: no spills. A benchmark: prints
numbers, never fails on them.
"""
import argparse
import os
import pathlib
import re
import shutil
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXAMPLES = ["rmsnorm", "softmax", "layernorm", "gelu_mlp", "attention",
            "decoder_layer"]


def tool(name):
    return shutil.which(name) or (
        f"/usr/local/cuda/bin/{name}"
        if os.path.exists(f"/usr/local/cuda/bin/{name}") else None)


def parse(report):
    """{kernel: (registers, spill stores, spill loads, static smem bytes)}"""
    out, kernel = {}, None
    for line in report.splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            kernel = m.group(1)
            out[kernel] = [0, 0, 0, 0]
            continue
        if kernel is None:
            continue
        m = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m:
            out[kernel][1:3] = [int(m.group(1)), int(m.group(2))]
        m = re.search(r"Used (\d+) registers", line)
        if m:
            out[kernel][0] = int(m.group(1))
            s = re.search(r"(\d+) bytes smem", line)
            out[kernel][3] = int(s.group(1)) if s else 0
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--arch", default="sm_90")
    p.add_argument("--opt", default=str(ROOT / "build/bin/xtile-opt"))
    p.add_argument("--translate", default=str(ROOT / "build/bin/xtile-translate"))
    args = p.parse_args()
    nvcc, ptxas = tool("nvcc"), tool("ptxas")
    print(f"# ptxas -v, {args.arch}: registers / spill bytes (stores+loads) / "
          "static shared memory; dynamic shared memory of the launch")
    print(f"{'kernel':34} {'CUDA C (nvcc)':>22} {'PTX (NVPTX)':>22} {'dyn smem':>9}")
    total_spills = 0
    with tempfile.TemporaryDirectory() as tmp:
        for ex in EXAMPLES:
            kir = pathlib.Path(tmp, f"{ex}.mlir")
            subprocess.run([args.opt, f"--lower-to-kernel=target={args.arch}",
                            str(ROOT / "examples" / f"{ex}.mlir"), "-o",
                            str(kir)], check=True)
            dyn = dict(re.findall(r"xkernel.func @(\w+)\(.*dynamic_shared = (\d+)",
                                  kir.read_text()))
            results = {}
            if nvcc:
                cu = pathlib.Path(tmp, f"{ex}.cu")
                subprocess.run([args.translate, "--mlir-to-cuda", str(kir), "-o",
                                str(cu)], check=True)
                r = subprocess.run([nvcc, f"-arch={args.arch}", "-Xptxas", "-v",
                                    "-c", str(cu), "-o", os.devnull],
                                   capture_output=True, text=True, check=True)
                results["cuda"] = parse(r.stderr)
            if ptxas:
                ptx = pathlib.Path(tmp, f"{ex}.ptx")
                t = subprocess.run([args.translate, "--mlir-to-ptx",
                                    f"--ptx-chip={args.arch}", str(kir), "-o",
                                    str(ptx)], capture_output=True, text=True)
                if t.returncode == 0:
                    r = subprocess.run([ptxas, f"-arch={args.arch}", "-v",
                                        str(ptx), "-o", os.devnull],
                                       capture_output=True, text=True, check=True)
                    results["ptx"] = parse(r.stderr)
                else:
                    print(f"# {ex}: --mlir-to-ptx failed: {t.stderr.strip()}")
            print(f"## {ex}")
            for k in sorted(dyn):
                cells = []
                for path in ("cuda", "ptx"):
                    v = results.get(path, {}).get(k)
                    if v is None:
                        cells.append("skipped")
                        continue
                    total_spills += v[1] + v[2]
                    cells.append(f"{v[0]} regs, {v[1]}+{v[2]} B, {v[3]} B")
                print(f"{k:34} {cells[0]:>22} {cells[1]:>22} {dyn[k]:>9}")
    print(f"# total spill bytes: {total_spills}"
          + ("" if nvcc and ptxas else " (some paths skipped: nvcc or ptxas missing)"))


if __name__ == "__main__":
    main()
