#!/usr/bin/env python3
"""Compile time of a size-polymorphic model: a 32-layer stack of Llama-7B
sized blocks (RMSNorm, SwiGLU MLP 4096 -> 11008 -> 4096, residual) over a
dynamic token count T in [1, 4096], compiled once, against the same stack
compiled for each of a few sizes (the module specialized to T first, as
every size needed before kernels took sizes as arguments). Each compile is
--lower-to-kernel then PTX emission (LLVM's NVPTX backend), and then CUDA
C emission; best of two runs. Also counts the distinct kernels: the 32
layers share theirs (--xloop-dedupe), at every size and over T.

    python3 bench/dynamic_compile.py [--opt build/bin/xtile-opt]
                                     [--translate build/bin/xtile-translate]

A benchmark: prints numbers, never fails on them.
"""
import pathlib
import subprocess
import tempfile

from compile_time import best_of, stack, tool_arguments

LAYERS, D, F = 32, 4096, 11008
SIZES = [1, 7, 128, 1000]


def main():
    args = tool_arguments(__doc__)
    module = stack(LAYERS, D, F, rows=("?", ", #xtensor.dims<T>"),
                   symbols="attributes {xtensor.symbols = {T = array<i64: 1, 4096>}} ")
    with tempfile.TemporaryDirectory() as tmp:
        dynamic = pathlib.Path(tmp) / "dynamic.mlir"
        dynamic.write_text(module)
        sources = [("T dynamic", dynamic)]
        for size in SIZES:
            path = pathlib.Path(tmp) / f"t{size}.mlir"
            subprocess.run([args.opt, f"--xtensor-specialize-dims=sizes=T={size}",
                            str(dynamic), "-o", str(path)], check=True)
            sources.append((f"T={size}", path))
        print(f"{LAYERS} layers of RMSNorm + SwiGLU {D} -> {F} -> {D}, "
              f"T in [1, 4096]")
        print(f"{'module':<12}{'kernels':>8}{'to PTX s':>10}{'to CUDA C s':>13}")
        static = [0.0, 0.0]
        for name, path in sources:
            kernel = [args.opt, "--lower-to-kernel", str(path)]
            ir = subprocess.run(kernel, check=True, capture_output=True,
                                text=True).stdout
            kernels = ir.count("xkernel.func @")
            ptx = best_of([kernel, [args.translate, "--mlir-to-ptx"]], runs=2)
            cuda = best_of([kernel, [args.translate, "--mlir-to-cuda"]], runs=2)
            print(f"{name:<12}{kernels:>8}{ptx:>10.2f}{cuda:>13.2f}")
            if name == "T dynamic":
                once = (ptx, cuda)
            else:
                static[0] += ptx
                static[1] += cuda
        print(f"{len(SIZES)} sizes compiled one by one: {static[0]:.2f} s to PTX, "
              f"{static[1]:.2f} s to CUDA C; compiled once over T: "
              f"{once[0]:.2f} s and {once[1]:.2f} s "
              f"({static[0] / once[0]:.1f}x and {static[1] / once[1]:.1f}x less, "
              "and every other size is free)")


if __name__ == "__main__":
    main()
