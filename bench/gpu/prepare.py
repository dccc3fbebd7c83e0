#!/usr/bin/env python3
"""Emits the CUDA C of every GPU benchmark case (bench/gpu/cases.py) into a
directory that bench/gpu/run.py builds and times on a machine with an
NVIDIA GPU, where LLVM/MLIR are not needed.

    python3 bench/gpu/prepare.py [--out bench/gpu/build] [--target sm_90]

--target sm_90a schedules the x W^T matmuls on wgmma (an H100/H200 only).

Needs build/bin/xtile-opt and xtile-translate.
"""
import argparse
import json
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import cases  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", default=str(ROOT / "bench/gpu/build"))
    p.add_argument("--target", default="sm_90")
    p.add_argument("--opt", default=str(ROOT / "build/bin/xtile-opt"))
    p.add_argument("--translate", default=str(ROOT / "build/bin/xtile-translate"))
    p.add_argument("--only", default="", help="comma-separated case names")
    args = p.parse_args()
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    manifest = []
    only = set(filter(None, args.only.split(",")))
    for case in cases.all_cases():
        if only and case["name"] not in only:
            continue
        mlir = out / f"{case['name']}.mlir"
        mlir.write_text(case["mlir"])
        kernel = subprocess.run(
            [args.opt, f"--lower-to-kernel=target={args.target}", str(mlir)],
            check=True, capture_output=True, text=True).stdout
        cu = subprocess.run([args.translate, "--mlir-to-cuda"], input=kernel,
                            check=True, capture_output=True, text=True).stdout
        (out / f"{case['name']}.cu").write_text(cu)
        kernels = kernel.count("xkernel.launch")
        manifest.append({k: case[k] for k in ("name", "op", "dtype", "shape",
                                              "inputs", "outputs", "bytes",
                                              "flops")} |
                        {"launches": kernels, "target": args.target})
        print(f"{case['name']}: {kernels} launch(es)")
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1))


if __name__ == "__main__":
    main()
