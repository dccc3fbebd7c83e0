#!/usr/bin/env python3
"""Per-model compile latency as a user sees it: from the nn.Module to a
callable, process spawns and the host compiler included, with a cold cache;
beside torch.compile's (TorchInductor) on the same model, also cold.

    build/venv/bin/python bench/model_compile_latency.py

xtile: `xtile.compile(model, (x,), backend="emu")` in a fresh
$XTILE_CACHE_DIR, split into the import (torch.export, decompositions,
Tensor IR), `xtile-opt --lower-to-kernel`, `xtile-translate --mlir-to-cuda`
and the build of the kernels for the CPU emulation (the host C++ compiler);
and the GPU path's build of the same CUDA C with nvcc (`-arch=sm_90`,
`-shared`, as xtile.compile runs it on a GPU) when nvcc is installed.
The GPU path without nvcc (the driver loader) emits PTX
(`xtile-translate --mlir-to-ptx`) and the launch plan instead; the driver
then compiles the PTX when it loads it, which ptxas (`-arch=sm_90`, when
installed) stands in for here.
Both after a warm-up on a tiny model (each side's one-time start-up:
imports, Inductor's initialization). torch.compile: the first call of
`torch.compile(model)` after
`torch._dynamo.reset()` with a fresh TORCHINDUCTOR_CACHE_DIR (on this
machine Inductor generates and compiles C++ for the CPU; on a GPU it
would compile Triton kernels instead). A benchmark: prints numbers, never
fails on them.
"""
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

import torch

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "test" / "python"))
import xtile  # noqa: E402
from xtile import runtime  # noqa: E402
from models import DecoderLayer, GeluMLP, RMSNorm, Softmax  # noqa: E402


def models():
    out = [("rmsnorm", RMSNorm(1024), (64, 1024)),
           ("softmax", Softmax(), (64, 1024)),
           ("gelu_mlp", GeluMLP(512, 2048), (64, 512)),
           ("decoder_layer", DecoderLayer(256, 4, 688), (1, 64, 256))]
    try:
        from transformers import LlamaConfig
        from transformers.models.llama.modeling_llama import LlamaForCausalLM
        cfg = LlamaConfig(hidden_size=256, intermediate_size=688,
                          num_hidden_layers=2, num_attention_heads=4,
                          num_key_value_heads=2, vocab_size=1000)
        llama = LlamaForCausalLM(cfg).eval()

        class Logits(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.m = llama

            def forward(self, ids):
                return self.m(ids, use_cache=False).logits
        out.append(("hf_llama_2_layers", Logits(), None))
    except ImportError:
        print("HF Llama skipped: transformers does not import")
    return out


def timed(f):
    t = time.perf_counter()
    r = f()
    return r, time.perf_counter() - t


def main():
    nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc"
                                    if os.path.exists("/usr/local/cuda/bin/nvcc")
                                    else None)
    # Each side's one-time start-up (torch.export's and Inductor's imports
    # and initialization) on a tiny model first: per-model numbers below.
    with tempfile.TemporaryDirectory() as cache, torch.no_grad():
        os.environ["XTILE_CACHE_DIR"] = cache
        tiny, t = torch.nn.ReLU(), torch.randn(4)
        xtile.compile(tiny, (t,), backend="emu")
        torch.compile(tiny)(t)
    ptxas = shutil.which("ptxas") or ("/usr/local/cuda/bin/ptxas"
                                      if os.path.exists("/usr/local/cuda/bin/ptxas")
                                      else None)
    print(f"{'model':<18} | xtile total | import  opt   emit  c++  | nvcc sm_90 "
          f"| ptx+plan ptxas | torch.compile (cpu)")
    for name, model, shape in models():
        model = model.eval()
        x = (torch.randint(0, 1000, (1, 32)) if shape is None
             else torch.randn(shape))
        with tempfile.TemporaryDirectory() as cache, torch.no_grad():
            os.environ["XTILE_CACHE_DIR"] = cache
            _, total = timed(lambda: xtile.compile(model, (x,), backend="emu"))
            text, t_import = timed(lambda: xtile.import_module(model, (x,)))
            kir, t_opt = timed(lambda: subprocess.run(
                [runtime._tool("xtile-opt"), "--lower-to-kernel=target=sm_90"],
                input=text, capture_output=True, text=True, check=True).stdout)
            cu, t_emit = timed(lambda: subprocess.run(
                [runtime._tool("xtile-translate"), "--mlir-to-cuda"], input=kir,
                capture_output=True, text=True, check=True).stdout)
            src = pathlib.Path(cache, "k.cu")
            src.write_text(cu)
            _, t_cxx = timed(lambda: subprocess.run(
                [os.environ.get("CXX", "c++"), "-std=c++17", "-O1", "-fPIC",
                 "-shared", "-w", "-pthread", "-x", "c++", "-include",
                 str(runtime._runtime_dir() / "xtile_emulation.h"), str(src),
                 "-o", str(src.with_suffix(".so"))], check=True))
            t_nvcc = None
            if nvcc:
                _, t_nvcc = timed(lambda: subprocess.run(
                    [nvcc, "-O3", "-arch=sm_90", "-shared", "-Xcompiler",
                     "-fPIC", "-o", str(src.with_suffix(".cuda.so")), str(src)],
                    check=True, capture_output=True))
            ptx, t_ptx = timed(lambda: subprocess.run(
                [runtime._tool("xtile-translate"), "--mlir-to-ptx"], input=kir,
                capture_output=True, text=True, check=True).stdout)
            _, t_plan = timed(lambda: subprocess.run(
                [runtime._tool("xtile-translate"), "--mlir-to-launch-plan"],
                input=kir, capture_output=True, text=True, check=True))
            t_ptxas = None
            if ptxas:
                src.with_suffix(".ptx").write_text(ptx)
                _, t_ptxas = timed(lambda: subprocess.run(
                    [ptxas, "-arch=sm_90", "-o", str(src.with_suffix(".cubin")),
                     str(src.with_suffix(".ptx"))], check=True, capture_output=True))
        with tempfile.TemporaryDirectory() as inductor, torch.no_grad():
            os.environ["TORCHINDUCTOR_CACHE_DIR"] = inductor
            torch._dynamo.reset()
            compiled = torch.compile(model)
            _, t_torch = timed(lambda: compiled(x))
        nv = f"{t_nvcc:8.2f} s" if t_nvcc is not None else "    -     "
        pa = f"{t_ptxas:5.2f}" if t_ptxas is not None else "  -  "
        print(f"{name:<18} | {total:9.2f} s | {t_import:5.2f} {t_opt:5.2f} "
              f"{t_emit:5.2f} {t_cxx:5.2f} | {nv} | {t_ptx + t_plan:8.2f} {pa} "
              f"| {t_torch:8.2f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
