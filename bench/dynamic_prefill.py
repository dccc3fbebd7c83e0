#!/usr/bin/env python3
"""A Llama-3-8B-width prefill layer over a dynamic length: bytes per kernel.

Imports one Hugging Face Llama decoder layer at Llama-3-8B widths (hidden
4096, 32 heads, 8 KV heads, MLP 14336; random bf16 weights) with rotary
embeddings and causal SDPA attention over a dynamic length S (1 to
8192), compiled once; `xtile-opt --lower-to-loop --xloop-report` gives
each kernel's bytes as expressions of S. At T = 512, 2048 and 8192 it
prints the attention kernel's bytes against its ideal (queries, keys and
values read once, the output written once: no T x T scores), and the
whole layer's bytes against the static compile of the same T
(--xtensor-specialize-dims, then the same pipeline).

With --model, the whole Hugging Face LlamaModel (two layers at the same
widths) called with token ids, its mask built by Hugging Face's own code
(packed-sequence detection over the positions): it also says whether
each attention kernel skips the key blocks its causal mask hides (its key
loop bounded by the query block, in Tile IR).

    PATH=$PWD/build/bin:$PATH PYTHONPATH=python build/venv/bin/python \
        bench/dynamic_prefill.py [--sizes 512,2048,8192] [--model]
"""
import argparse
import re
import subprocess
import warnings

import torch
import torch.nn as nn

warnings.filterwarnings("ignore")

HIDDEN, HEADS, KV_HEADS, HEAD_DIM, MLP = 4096, 32, 8, 128, 14336


def config(layers):
    import transformers as hf
    cfg = hf.LlamaConfig(hidden_size=HIDDEN, intermediate_size=MLP,
                         num_hidden_layers=layers, num_attention_heads=HEADS,
                         num_key_value_heads=KV_HEADS, vocab_size=128,
                         max_position_embeddings=8192, rope_theta=500000.0)
    cfg._attn_implementation = "sdpa"
    return cfg


def model_module():
    """The whole model over token ids, two layers."""
    import transformers as hf

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.model = hf.LlamaModel(config(2))

        def forward(self, ids):
            return self.model(input_ids=ids, use_cache=False).last_hidden_state
    return Model().to(torch.bfloat16).eval()


def layer_module():
    from transformers.models.llama.modeling_llama import (LlamaDecoderLayer,
                                                          LlamaRotaryEmbedding)
    cfg = config(1)

    class Layer(nn.Module):
        def __init__(self):
            super().__init__()
            self.rope = LlamaRotaryEmbedding(cfg)
            self.layer = LlamaDecoderLayer(cfg, 0)

        def forward(self, h):
            pos = torch.arange(h.shape[1]).unsqueeze(0)
            out = self.layer(h, position_embeddings=self.rope(h, pos),
                             attention_mask=None, position_ids=pos)
            return out[0] if isinstance(out, tuple) else out
    return Layer().to(torch.bfloat16).eval()


def report(mlir):
    done = subprocess.run(["xtile-opt", "--lower-to-loop", "--xloop-report",
                           "-o", "/dev/null"], input=mlir, capture_output=True,
                          text=True)
    if done.returncode:
        raise SystemExit(done.stderr[-3000:])
    kernels = []
    for line in done.stdout.splitlines():
        m = re.match(r"kernel @(\S+) identity \S+ reads (.*) B writes (.*) B$", line)
        if m:
            kernels.append((m[1], m[2], m[3]))
    total = re.search(r"launch(?:es)?, (.*) B moved, ideal (.*) B", done.stdout)
    return kernels, total[1], total[2]


def at(expr, t):
    return eval(expr.replace("^", "**"), {"S": t})


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="512,2048,8192")
    p.add_argument("--model", action="store_true",
                   help="the whole two-layer LlamaModel from token ids")
    args = p.parse_args()
    import xtile
    from torch.export import Dim
    S = Dim("S", min=1, max=8192)
    with torch.no_grad():
        if args.model:
            text = xtile.import_module(model_module(), (torch.randint(0, 128, (1, 16)),),
                                       dynamic_shapes={"ids": {1: S}})
        else:
            text = xtile.import_module(layer_module(),
                                       (torch.randn(1, 16, HIDDEN, dtype=torch.bfloat16),),
                                       dynamic_shapes={"h": {1: S}})
    kernels, moved, ideal = report(text)
    # The attention kernels: those with a weighted online fold (softmax
    # fused into the weighted sum over the keys).
    loop_ir = subprocess.run(["xtile-opt", "--lower-to-loop"], input=text,
                             capture_output=True, text=True).stdout
    attention_kernels = set()
    for chunk in loop_ir.split("xloop.kernel @")[1:]:
        if re.search(r"xloop\.online_fold .* weights", chunk):
            attention_kernels.add(re.split(r"[[(]", chunk, 1)[0])
    print(f"attention kernels: {sorted(attention_kernels) or 'none'}")
    # Causal block skipping: the key loop of each attention kernel ends at
    # a bound computed from the query block (arith.minsi), not at S.
    tile_ir = subprocess.run(["xtile-opt", "--lower-to-tile"], input=text,
                             capture_output=True, text=True).stdout
    for chunk in tile_ir.split("xtile.kernel @")[1:]:
        name = re.split(r"[[(]", chunk, 1)[0]
        loop = re.search(r"scf\.for %\S+ = %\S+ to (%\S+) step .* iter_args", chunk)
        if name in attention_kernels and loop:
            bound = re.search(rf"{re.escape(loop[1])} = (\S+)", chunk)
            skips = bool(bound) and bound[1] == "arith.minsi"
            print(f"  {name}: key blocks past the causal bound "
                  f"{'skipped' if skips else 'visited (masked)'}")
    print(f"dynamic S: {len(kernels)} kernels, {moved} B moved, ideal {ideal} B")
    quadratic = [k for k, r, w in kernels if "S*S" in r + w or "S^2" in r + w]
    print(f"kernels with S*S bytes: {quadratic or 'none'}")
    # Attention's ideal: q, k and v read once, the output written once.
    per_token_ideal = (HEADS + 2 * KV_HEADS + HEADS) * HEAD_DIM * 2
    for t in [int(x) for x in args.sizes.split(",")]:
        static = subprocess.run(
            ["xtile-opt", f"--xtensor-specialize-dims=sizes=S={t}"], input=text,
            capture_output=True, text=True).stdout
        _, static_moved, _ = report(static)
        rows = []
        for name, reads, writes in kernels:
            r, w = at(reads, t), at(writes, t)
            rows.append((name, r, w))
        attention = [x for x in rows if x[0] in attention_kernels]
        line = (f"T = {t}: {'model' if args.model else 'layer'} "
                f"{at(moved, t) / 2**20:8.1f} MiB (dynamic), "
                f"{int(static_moved) / 2**20:8.1f} MiB (static compile), "
                f"{at(moved, t) / int(static_moved):.3f}x")
        for name, r, w in attention:
            line += (f"; attention {name}: {(r + w) / 2**20:.1f} MiB, ideal "
                     f"{per_token_ideal * t / 2**20:.1f} MiB "
                     f"({(r + w) / (per_token_ideal * t):.2f}x)")
        print(line)


if __name__ == "__main__":
    main()
