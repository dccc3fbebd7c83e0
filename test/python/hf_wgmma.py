# A Hugging Face LlamaMLP (random weights, bf16, 512 tokens of width 512)
# compiled for sm_90a: the cost model puts its three projections on wgmma,
# their operand tiles brought in by TMA (tensor maps made by the program)
# by the producer warpgroups of warp-specialized kernels, run under the CPU
# emulation against eager PyTorch.
import subprocess

import torch
from transformers import LlamaConfig
from transformers.models.llama.modeling_llama import LlamaMLP

import xtile
from xtile import runtime
from models import TOL

torch.manual_seed(0)
config = LlamaConfig(hidden_size=512, intermediate_size=1024,
                     num_attention_heads=8, num_key_value_heads=8)
mlp = LlamaMLP(config).to(torch.bfloat16).eval()
x = torch.randn(1, 512, 512).to(torch.bfloat16)
with torch.no_grad():
    expected = mlp(x)
    compiled = xtile.compile(mlp, (x,), backend="emu", target="sm_90a")
    got = compiled(x)
kernel = subprocess.run([runtime._tool("xtile-opt"), "--lower-to-kernel=target=sm_90a"],
                        input=compiled.mlir, capture_output=True, text=True,
                        check=True).stdout
print(f"llama mlp bfloat16 sm_90a: {kernel.count('xkernel.tensor_map %')} tensor maps, "
      f"{kernel.count('xkernel.tma_load')} bulk copies, "
      f"{kernel.count('xkernel.wgmma ')} wgmma, "
      f"{kernel.count('xkernel.set_max_registers increase')} warp-specialized")
torch.testing.assert_close(got, expected, **TOL[torch.bfloat16])
print("llama mlp bfloat16 sm_90a: match ok")
