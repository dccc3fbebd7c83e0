# A real front end: torch-mlir (from PyPI) imports PyTorch modules as
# linalg-on-tensors or TOSA; xtile's conversions bring either into xtile.
# For each module: the kernels its output fuses into beside the kernels of
# xtile's own importer on the same module, and the result under the CPU
# emulation against eager. Parameters are passed as arguments (the module
# is called through torch.func.functional_call), as xtile.compile passes
# them. Both of torch-mlir's outputs: linalg-on-tensors
# (--convert-linalg-to-xtensor) and TOSA (--convert-tosa-to-xtensor).
import pathlib
import re
import subprocess
import sys

import torch
import torch.nn.functional as F
from torch_mlir import fx

import xtile
from xtile import runtime

torch.manual_seed(0)


class WithParams(torch.nn.Module):
    """`model` with its parameters as forward arguments after the input."""

    def __init__(self, model):
        super().__init__()
        self.model = model
        self.names = [n for n, _ in model.named_parameters()]

    def forward(self, x, *params):
        return torch.func.functional_call(self.model, dict(zip(self.names, params)),
                                          (x,))


class Softmax(torch.nn.Module):
    def forward(self, x):
        return torch.softmax(x, dim=-1)


class GeluMlp(torch.nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.up = torch.nn.Linear(d, h)
        self.down = torch.nn.Linear(h, d)

    def forward(self, x):
        return self.down(F.gelu(self.up(x), approximate="tanh"))


def cases():
    out = [("softmax", Softmax(), (64, 1000)),
           ("layernorm", torch.nn.LayerNorm(256), (32, 256)),
           ("rmsnorm", torch.nn.RMSNorm(256, eps=1e-6), (32, 256)),
           ("gelu_mlp", GeluMlp(256, 512), (32, 256)),
           # Token ids in, rows of the table out: tosa.gather, or a
           # linalg.generic reading the table with tensor.extract.
           ("embedding", torch.nn.Embedding(1000, 64),
            lambda: torch.randint(0, 1000, (8, 16))),
           # tosa.conv2d, or linalg.conv_2d_nchw_fchw on a tensor.pad.
           ("conv2d", torch.nn.Conv2d(3, 8, 3, stride=2, padding=1), (2, 3, 9, 10)),
           ("conv2d_dilated", torch.nn.Conv2d(4, 6, (3, 2), stride=(1, 2), padding=(2, 1),
                                              dilation=(2, 1), bias=False), (1, 4, 7, 9))]
    try:
        from transformers import LlamaConfig
        from transformers.models.llama.modeling_llama import LlamaMLP, LlamaRMSNorm
        cfg = LlamaConfig(hidden_size=128, intermediate_size=344)
        out.append(("hf_llama_mlp", LlamaMLP(cfg), (16, 128)))
        out.append(("hf_llama_rmsnorm", LlamaRMSNorm(128, eps=1e-6), (16, 128)))
    except ImportError:
        print("HF layers skipped: transformers does not import")
    return out


def kernels(text):
    loop = subprocess.run([runtime._tool("xtile-opt"), "--lower-to-loop"], input=text,
                          capture_output=True, text=True, check=True).stdout
    return len(re.findall(r"xloop\.kernel @", loop))


def main():
    failed = 0
    for name, model, shape in cases():
        model = model.eval()
        x = shape() if callable(shape) else torch.randn(shape)
        params = [p.detach() for p in model.parameters()]
        wrapper = WithParams(model)
        args = (x, *params)
        with torch.no_grad():
            eager = model(x)
        ours = kernels(xtile.import_module(wrapper, args))
        for output, flag in (("linalg-on-tensors", "--convert-linalg-to-xtensor"),
                             ("tosa", "--convert-tosa-to-xtensor")):
            text = str(fx.export_and_import(wrapper, *args, output_type=output))
            conv = subprocess.run([runtime._tool("xtile-opt"), flag], input=text,
                                  capture_output=True, text=True)
            label = f"{name} ({output})"
            if conv.returncode:
                print(f"{label}: FAILED to convert:\n{conv.stderr}")
                failed += 1
                continue
            prog = runtime.Program(conv.stdout, "main", backend="emu")
            out = torch.empty_like(eager)
            prog([a.contiguous() for a in args] + [out])
            # Normwise: torch-mlir's own decompositions differ from eager's
            # (its tanh-GELU takes 0.797724 for sqrt(2/pi) = 0.797885: 3e-5).
            err = ((out.double() - eager.double()).norm() /
                   eager.double().norm()).item()
            ok = err <= 1e-4
            failed += not ok
            print(f"{label}: kernels {kernels(conv.stdout)} (torch-mlir) "
                  f"{ours} (xtile importer), matches eager: {ok} "
                  f"(normwise error {err:.1e})")
    print(f"torch-mlir: {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
