# Attention from PyTorch lands on one kernel: F.scaled_dot_product_attention
# (causal, grouped-query, with a padding mask that masks whole rows) and
# Hugging Face Llama attention (its SDPA and eager implementations) are
# imported, lowered to Loop IR, and their attention is one online fold over
# the keys (no score matrix in device memory); compiled and run under the
# CPU emulation they match eager PyTorch, fully masked rows included. A
# grouped-query decode step packs a group's heads in one program and splits
# its keys over programs.
import subprocess
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

import xtile
from xtile import runtime

torch.manual_seed(0)


class SDPA(nn.Module):
    def __init__(self, causal=False, gqa=False):
        super().__init__()
        self.causal, self.gqa = causal, gqa

    def forward(self, q, k, v, mask=None):
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask,
                                              is_causal=self.causal,
                                              enable_gqa=self.gqa)


def loop_ir(module, inputs):
    text = xtile.import_module(module, inputs)
    return subprocess.run([runtime._tool("xtile-opt"), "--lower-to-loop"],
                          input=text, capture_output=True, text=True,
                          check=True).stdout


def tile_schedules(module, inputs):
    """The attention kernels' schedules in Tile IR (sm_90), and whether the
    keys are split over programs (a kernel of partials)."""
    text = xtile.import_module(module, inputs)
    tile = subprocess.run([runtime._tool("xtile-opt"), "--lower-to-tile"],
                          input=text, capture_output=True, text=True,
                          check=True).stdout
    schedules = [line.split("schedule = ")[1].split(", target")[0]
                 for line in tile.splitlines()
                 if "xtile.kernel" in line and "dot_schedule" in line]
    return schedules, "_partial(" in tile


def attention_kernels(ir):
    """Kernels with a weighted online fold (attention), and kernels that
    compute a softmax of their own (attention not fused)."""
    kernels = ir.split("xloop.kernel @")[1:]
    fused = sum("weights 1" in k for k in kernels)
    # A softmax left in a kernel of its own: a maximum, or an online fold
    # without weights (the row statistics).
    unfused = sum("combine max" in k or any(
        "xloop.online_fold" in line and "weights" not in line
        for line in k.splitlines()) for k in kernels)
    return fused, unfused


def check(name, module, inputs, tol=dict(rtol=2e-5, atol=2e-5)):
    module = module.eval()
    fused, unfused = attention_kernels(loop_ir(module, inputs))
    with torch.no_grad():
        expected = module(*inputs)
        got = xtile.compile(module, inputs)(*inputs)
    if isinstance(expected, tuple):
        expected, got = expected[0], got[0]
    torch.testing.assert_close(got, expected, **tol)
    print(f"{name}: {fused} attention kernel(s), {unfused} unfused softmax, "
          f"matches eager")


def main():
    q = torch.randn(2, 8, 37, 64)
    k = torch.randn(2, 2, 45, 64)
    v = torch.randn(2, 2, 45, 64)
    check("sdpa causal gqa", SDPA(causal=True, gqa=True), (q, k[:, :, :37], v[:, :, :37]))
    kk, vv = torch.randn(2, 8, 45, 64), torch.randn(2, 8, 45, 64)
    check("sdpa", SDPA(), (q, kk, vv))
    # A boolean padding mask; the queries of the second sequence see no
    # key at all: zeros, as PyTorch's SDPA gives.
    mask = torch.ones(2, 1, 37, 45, dtype=torch.bool)
    mask[0, :, :, 40:] = False
    mask[1, :, 30:, :] = False
    check("sdpa padding mask, masked rows", SDPA(), (q, kk, vv, mask))

    # A decode step: one query per head against 16384 cached keys, 8 query
    # heads over 2 K/V heads. The 4 heads of a group are one program's rows
    # (K/V read once per group), and the keys split over programs whose
    # partials a second kernel combines.
    qd = torch.randn(1, 8, 1, 64)
    kd, vd = torch.randn(1, 2, 16384, 64), torch.randn(1, 2, 16384, 64)
    check("sdpa decode gqa", SDPA(gqa=True), (qd, kd, vd))
    schedules, split = tile_schedules(SDPA(gqa=True).eval(), (qd, kd, vd))
    assert split and all("block_m = 4" in s and "ways = " in s
                         for s in schedules), schedules
    print(f"sdpa decode gqa: {schedules[0]}")

    from transformers import LlamaConfig
    from transformers.models.llama.modeling_llama import (
        LlamaDecoderLayer, LlamaRotaryEmbedding)

    class Layer(nn.Module):
        def __init__(self, impl):
            super().__init__()
            config = LlamaConfig(hidden_size=128, intermediate_size=256,
                                 num_attention_heads=4, num_key_value_heads=2,
                                 num_hidden_layers=1, vocab_size=64)
            config._attn_implementation = impl
            self.layer = LlamaDecoderLayer(config, layer_idx=0)
            self.rope = LlamaRotaryEmbedding(config)

        def forward(self, x):
            t = x.shape[1]
            pos = torch.arange(t).unsqueeze(0)
            causal = torch.full((t, t), float("-inf")).triu(1)[None, None]
            out = self.layer(x, attention_mask=causal, position_ids=pos,
                             position_embeddings=self.rope(x, pos))
            return out[0] if isinstance(out, tuple) else out

    x = torch.randn(2, 19, 128)
    for impl in ("sdpa", "eager"):
        check(f"llama decoder layer ({impl})", Layer(impl), (x,),
              tol=dict(rtol=1e-4, atol=1e-4))


if __name__ == "__main__":
    sys.exit(main())
