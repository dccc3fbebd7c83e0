#!/usr/bin/env python3
"""Kernel launches per decode step of a Llama at Llama-3-8B widths.

Builds a Hugging Face Llama with Llama-3-8B's widths (hidden 4096, 32
heads, 8 KV heads, MLP 14336, vocabulary 128256; random bf16 weights, never
downloaded) and a few layers, imports one decode step over a static KV
cache (xtile.generation.CacheStep: one token, batch 1), lowers it to Kernel
IR for sm_90 and counts its `xkernel.launch`es. Two layer counts give the
launches per layer and the fixed ones (embedding, final norm, LM head,
rotary tables, mask), so the 32-layer step's count follows without
building 16 GB of weights. A CUDA graph (Generator's default on GPUs)
replays them all with one launch of the graph.

Then the Generator's decode step, which attends over the first L cache
positions (L a dynamic size): its launches at a few L and the keys and
values it reads per layer against the whole cache.

It also prints each step's device-memory traffic (xtile-opt
--xloop-report): the cache's new keys and values are written into the
cache in place (--xloop-write-in-place), and, for comparison, what the
step moves when they are not (write-in-place=false: the whole cache read
and written again, and copied back into the caller's cache after the
step).

    PATH=$PWD/build/bin:$PATH PYTHONPATH=python build/venv/bin/python \
        bench/decode_launches.py [--layers 1,2] [--cache 4096]
"""
import argparse
import collections
import re
import subprocess
import warnings

import torch

warnings.filterwarnings("ignore")


def decode_step_module(layers, cache_len, vocab, prefix=False):
    import transformers as hf
    import xtile
    from xtile.generation import CacheStep
    config = hf.LlamaConfig(
        vocab_size=vocab, hidden_size=4096, intermediate_size=14336,
        num_hidden_layers=layers, num_attention_heads=32, num_key_value_heads=8,
        max_position_embeddings=8192, rope_theta=500000.0)
    with torch.device("cpu"):
        model = hf.LlamaForCausalLM(config).to(torch.bfloat16).eval()
    step = CacheStep(model, cache_len, prefix=prefix)
    ids = torch.zeros(1, 1, dtype=torch.int64)
    positions = torch.tensor([cache_len // 2])
    cache = step.new_cache(1, torch.bfloat16, "cpu")
    with torch.no_grad():
        if prefix:
            # The Generator's decode step: over the first L positions.
            span = torch.empty(cache_len // 2 + 1)
            length = torch.export.Dim("L", min=1, max=cache_len)
            text = xtile.import_module(
                step, (ids, positions, span, *cache),
                dynamic_shapes=(None, None, ({0: length},) + (None,) * len(cache)))
        else:
            text = xtile.import_module(step, (ids, positions, *cache))
    del model, step, cache
    return text


def lowered(text, *flags):
    done = subprocess.run(["xtile-opt", *flags], input=text, capture_output=True,
                          text=True)
    if done.returncode:
        raise SystemExit("lowering failed:\n" + done.stderr[-4000:])
    return done.stdout


def traffic(text, in_place):
    """(bytes moved, ideal bytes, bytes updated in place at most) of one
    step, and the bytes of the cache tensors the step returns."""
    report = lowered(text, f"--lower-to-loop=write-in-place={str(in_place).lower()}",
                     "--xloop-report", "-o", "/dev/null")
    found = re.search(r"func @\S+: \d+ launch(?:es)?, (\d+) B moved, ideal (\d+) B"
                      r"[^\n]*?(?:updates in place of at most (\d+) B)?$", report, re.M)
    return int(found[1]), int(found[2]), int(found[3] or 0)


def cache_bytes(text):
    """The bytes of the arguments returned in place (the KV cache)."""
    head = text[:text.index(") -> (")]
    total = 0
    for shape, dtype in re.findall(r"tensor<([0-9x]+)x(\w+)> \{xtensor\.in_place", head):
        n = 1
        for d in shape.split("x"):
            n *= int(d)
        total += n * {"bf16": 2, "f16": 2, "f32": 4}.get(dtype, 1)
    return total


def launches(kernel_ir):
    names = re.findall(r"xkernel\.launch @(\w+)", kernel_ir)
    return names


def launches_at(kernel_ir, length):
    """The launches that run at L = length: those without a `when`, and
    the buckets' whose range holds it (the program's one size is L)."""
    found = []
    for m in re.finditer(r"xkernel\.launch @(\w+)\([^)]*\)(?: sizes\([^)]*\))?"
                         r"(?: when \[(\d+), (\d+)\])?", kernel_ir):
        if m[2] is None or int(m[2]) <= length <= int(m[3]):
            found.append(m[1])
    return found


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--layers", default="1,2")
    p.add_argument("--cache", type=int, default=4096, help="max_cache_len")
    p.add_argument("--vocab", type=int, default=128256)
    args = p.parse_args()
    counts = {}
    for n in [int(x) for x in args.layers.split(",")]:
        text = decode_step_module(n, args.cache, args.vocab)
        names = launches(lowered(text, "--lower-to-kernel=target=sm_90"))
        counts[n] = len(names)
        kinds = collections.Counter(re.sub(r"_\d+$", "", k) for k in names)
        print(f"{n} layer(s): {len(names)} launches per decode step "
              f"({', '.join(f'{k} x{c}' for k, c in sorted(kinds.items()))})")
        mib = 2.0 ** 20
        moved, ideal, updates = traffic(text, True)
        print(f"  traffic, cache written in place: {moved / mib:.1f} MiB moved, "
              f"ideal {ideal / mib:.1f} MiB ({moved / ideal:.3f}x); the new keys and "
              f"values updated in place (at most {updates / mib:.1f} MiB of cache, "
              f"one token's rows of it written)")
        old_moved, _, _ = traffic(text, False)
        cache = cache_bytes(text)
        print(f"  not in place: {old_moved / mib:.1f} MiB moved, and the "
              f"{cache / mib:.1f} MiB cache copied back after the step "
              f"(+{2 * cache / mib:.1f} MiB): {(old_moved + 2 * cache) / moved:.2f}x "
              f"the in-place step's traffic")
    # The Generator's decode step attends over the first L positions of the
    # cache (L: the valid ones rounded up to a power of two, at least 64),
    # compiled once over L: its attention reads L keys and values per
    # layer, with its keys split over ways per bucket of L.
    text = decode_step_module(1, args.cache, args.vocab, prefix=True)
    kernel_ir = lowered(text, "--lower-to-kernel=target=sm_90")
    head = text[:text.index(") -> (")]
    kv = re.search(r"tensor<1x(\d+)x\d+x(\d+)xbf16> \{xtensor\.in_place", head)
    per_key = 2 * int(kv[1]) * int(kv[2]) * 2   # keys and values, bf16
    print(f"decode step over the first L of {args.cache} cache positions (1 layer):")
    for length in (64, 512, args.cache):
        names = launches_at(kernel_ir, length)
        split = [n for n in names if n.endswith("_partial")]
        print(f"  L={length:<6} {len(names)} launches ({len(split)} attention split over "
              f"ways); keys and values read {per_key * length / 2**20:.2f} MiB per layer "
              f"(whole cache: {per_key * args.cache / 2**20:.2f} MiB)")
    if len(counts) >= 2:
        (a, ca), (b, cb) = sorted(counts.items())[:2]
        per_layer = (cb - ca) / (b - a)
        fixed = ca - per_layer * a
        print(f"per layer {per_layer:g}, fixed {fixed:g}: a 32-layer step (Llama-3-8B) "
              f"is {fixed + 32 * per_layer:g} launches, one graph launch with CUDA graphs")


if __name__ == "__main__":
    main()
