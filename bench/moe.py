#!/usr/bin/env python3
"""Mixture-of-experts layers at the widths of Mixtral-8x7B and DeepSeek-V3,
compiled for sm_90 without a GPU: kernels, tensor-core use, the weight
bytes of the grouped GEMMs against the ideal, registers and spills, and
the instructions per FLOP of their main loop beside a Triton fused-MoE
kernel of the same structure.

    build/venv/bin/python bench/moe.py [--models mixtral,deepseek_v3]
        [--tokens 1,16,512,4096] [--arch sm_90] [--keep DIR]

Layers: transformers' MixtralSparseMoeBlock (hidden 4096, intermediate
14336, 8 experts, top-2) and DeepseekV3MoE (hidden 7168, expert
intermediate 2048, 256 routed experts, top-8 within 4 of 8 groups, one
shared expert), bf16, built on the meta device (no weights are made) with
transformers' default experts implementation, grouped_mm: pairs sorted by
expert, counted, one grouped GEMM for gate and up, SwiGLU, one for down,
then weighted and summed per token. Each is imported by xtile
(`xtile.import_module`) for a batch of T tokens and compiled with
`xtile-opt --lower-to-kernel=target=ARCH`, `xtile-translate --mlir-to-ptx`
and `ptxas -arch=ARCH -v`.

Columns:
- kernels: launches of one call (the router, its sort and counts, the
  grouped GEMMs, the un-permutation and the sum);
- the grouped GEMM kernels (those xtile orders in groups of batches,
  `xtile.batch_group`): their schedule (mma_sync or wgmma: tensor cores),
  rows per block B (docs/Frontend.md, "Mixture-of-experts models") and
  batches per program group R;
- weights: the bytes of expert matrices the grouped GEMMs read from device
  memory for one routing drawn at random (each token's k experts
  uniformly, seed 0), against the ideal, each active expert's matrices
  read once. The model: a program group's blocks share each matrix they
  read through L2 (its column panels, which the group's programs read
  together), groups do not, so a matrix is read once per group that holds
  one of its expert's blocks. A row kernel (a GEMV: one program per output
  column, each pair's row of its expert) reads each pair's expert matrix
  on its own;
- written: the bytes all kernels write (xtile-opt --xloop-report): the
  intermediates between them and the layer's output;
- regs, spills: the most registers and the spill bytes over all kernels
  (ptxas -v);
- instr/kFLOP: the main loop's SASS instructions per 1000 FLOPs of a
  warp (bench/matmul_instructions.py's count) of the gate-and-up grouped
  GEMM, then of a Triton kernel written as serving systems' fused MoE
  kernels are (one program per block of B sorted pairs of one expert and
  128 columns, the pairs' rows gathered into the left operand, the block's
  expert's weights the right one, BLOCK_K 64, 4 warps, 3 stages; compiled
  by triton.compile for GPUTarget("cuda", 90) without a GPU).

A benchmark: prints numbers, never fails on them. A model or size xtile
cannot compile prints the error.
"""
import argparse
import math
import pathlib
import random
import re
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "python"))
from instructions import first_line, run, tool, triton  # noqa: E402
from matmul_instructions import compile_triton, measure  # noqa: E402

MODELS = {
    "mixtral": dict(hidden=4096, inter=14336, experts=8, topk=2),
    "deepseek_v3": dict(hidden=7168, inter=2048, experts=256, topk=8),
}


def build_layer(name):
    import torch
    import transformers as T
    spec = MODELS[name]
    if name == "mixtral":
        from transformers.models.mixtral.modeling_mixtral import \
            MixtralSparseMoeBlock as Block
        cfg = T.MixtralConfig(hidden_size=spec["hidden"],
                              intermediate_size=spec["inter"],
                              num_local_experts=spec["experts"],
                              num_experts_per_tok=spec["topk"])
    else:
        from transformers.models.deepseek_v3.modeling_deepseek_v3 import \
            DeepseekV3MoE as Block
        cfg = T.DeepseekV3Config(hidden_size=spec["hidden"],
                                 moe_intermediate_size=spec["inter"],
                                 n_routed_experts=spec["experts"],
                                 num_experts_per_tok=spec["topk"],
                                 n_shared_experts=1, n_group=8, topk_group=4)
    cfg._experts_implementation = "grouped_mm"
    with torch.device("meta"):
        return Block(cfg).to(torch.bfloat16)


def routing(tokens, experts, k, seed=0):
    """Pairs per expert for each token choosing k distinct experts."""
    rng = random.Random(seed)
    counts = [0] * experts
    for _ in range(tokens):
        for e in rng.sample(range(experts), k):
            counts[e] += 1
    return counts


def weight_bytes(counts, block, group, matrix):
    """(bytes read, ideal) of one grouped GEMM's expert matrices: blocks of
    `block` rows of one expert each, in expert order, programs in groups
    of `group` blocks that share a matrix through L2 (module docstring)."""
    owners = [e for e, c in enumerate(counts) for _ in range(-(-c // block))]
    read = sum(len(set(owners[g:g + group])) for g in range(0, len(owners), group))
    return read * matrix, sum(c > 0 for c in counts) * matrix


def kernels_of(tile_ir):
    """{kernel: (schedule, batch_group or 0, grid)} from Tile IR text."""
    out = {}
    for m in re.finditer(r"xtile\.kernel @(\w+)\(.*?attributes \{(.*?)\} \{$",
                         tile_ir, re.M):
        attrs = m.group(2)
        sched = re.search(r"schedule = (#xtile\.\w+<[^>]*>)", attrs)
        group = re.search(r"xtile\.batch_group = (\d+)", attrs)
        grid = re.search(r"grid = array<i64: ([\d, ]+)>", attrs)
        out[m.group(1)] = (sched.group(1) if sched else "?",
                           int(group.group(1)) if group else 0,
                           grid.group(1) if grid else "?")
    return out


TRITON_MOE = None


def triton_moe():
    """A fused-MoE grouped GEMM as serving systems write it in Triton."""
    global TRITON_MOE
    if TRITON_MOE is None:
        import triton.language as tl

        @triton.jit
        def moe_gemm(a, b, c, pair_ids, block_expert, blocks_used, pairs, N,
                     K, sam, sbe, sbn, scm, TOPK: tl.constexpr,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                     BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
            pid = tl.program_id(0)
            blocks_n = tl.cdiv(N, BLOCK_N)
            per_group = GROUP_M * blocks_n
            first = (pid // per_group) * GROUP_M
            size = tl.minimum(tl.load(blocks_used) - first, GROUP_M)
            pid_m = first + (pid % per_group) % size
            pid_n = (pid % per_group) // size
            if pid_m >= tl.load(blocks_used):
                return
            rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
            pair = tl.load(pair_ids + rm)
            valid = pair < pairs
            expert = tl.load(block_expert + pid_m).to(tl.int64)
            rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
            rk = tl.arange(0, BLOCK_K)
            pa = a + (pair // TOPK)[:, None] * sam + rk[None, :]
            pb = b + expert * sbe + rn[None, :] * sbn + rk[:, None]
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
            for kk in range(0, tl.cdiv(K, BLOCK_K)):
                x = tl.load(pa, mask=valid[:, None] &
                            (rk[None, :] < K - kk * BLOCK_K), other=0.0)
                y = tl.load(pb, mask=rk[:, None] < K - kk * BLOCK_K, other=0.0)
                acc = tl.dot(x, y, acc)
                pa += BLOCK_K
                pb += BLOCK_K
            pc = c + pair[:, None] * scm + rn[None, :]
            tl.store(pc, acc.to(c.dtype.element_ty),
                     mask=valid[:, None] & (rn[None, :] < N))
        TRITON_MOE = moe_gemm
    return TRITON_MOE


def triton_case(block_m, topk, arch, tools, tmp):
    sig = {"a": "*bf16", "b": "*bf16", "c": "*bf16", "pair_ids": "*i32",
           "block_expert": "*i32", "blocks_used": "*i32", "pairs": "i32",
           "N": "i32", "K": "i32", "sam": "i32", "sbe": "i64", "sbn": "i32",
           "scm": "i32", "TOPK": "constexpr", "BLOCK_M": "constexpr",
           "BLOCK_N": "constexpr", "BLOCK_K": "constexpr",
           "GROUP_M": "constexpr"}
    constexprs = {"TOPK": topk, "BLOCK_M": block_m, "BLOCK_N": 128,
                  "BLOCK_K": 64, "GROUP_M": 8}
    divisible = ["a", "b", "c", "pair_ids", "block_expert", "N", "K", "sam",
                 "sbe", "sbn", "scm"]
    return compile_triton(triton_moe(), sig, constexprs, divisible, arch, 3,
                          pathlib.Path(tmp, f"triton_moe_{block_m}.cubin"), tools)


def case(name, tokens, args, tools, tmp):
    import torch
    import xtile
    from xtile.importer.matmul import _group_block_rows
    spec = MODELS[name]
    layer = build_layer(name)
    x = torch.empty(1, tokens, spec["hidden"], dtype=torch.bfloat16,
                    device="meta")
    start = time.time()
    try:
        text = xtile.import_module(layer, (x,))
    except Exception as e:  # noqa: BLE001 - reported
        return f"import failed: {first_line(str(e))}"
    imported = time.time() - start
    src = pathlib.Path(tmp, f"{name}_{tokens}.mlir")
    src.write_text(text)
    target = f"target={args.arch}"
    rc, report, err = run([args.opt, "--lower-to-loop", "--xloop-report",
                           str(src), "-o", "/dev/null"])
    if rc:
        return f"lower-to-loop failed: {first_line(err)}"
    launches = re.search(r"(\d+) launches", report + err)
    written = sum(int(w) for w in re.findall(r"writes (\d+) B", report + err))
    rc, tile_ir, err = run([args.opt, f"--lower-to-tile={target}", str(src)])
    if rc:
        return f"lower-to-tile failed: {first_line(err)}"
    kernels = kernels_of(tile_ir)
    kir = src.with_suffix(".kernel.mlir")
    start = time.time()
    rc, _, err = run([args.opt, f"--lower-to-kernel={target}", str(src), "-o",
                      str(kir)])
    if rc:
        return f"lower-to-kernel failed: {first_line(err)}"
    compiled = time.time() - start
    ptx, cubin = src.with_suffix(".ptx"), src.with_suffix(".cubin")
    rc, _, err = run([args.translate, "--mlir-to-ptx", str(kir), "-o", str(ptx)])
    if rc:
        return f"mlir-to-ptx failed: {first_line(err)}"
    rc, _, err = run([tools["ptxas"], f"-arch={args.arch}", "-v", str(ptx), "-o",
                      str(cubin)])
    if rc:
        return f"ptxas failed: {first_line(err)}"
    spills = sum(int(s) for s in re.findall(r"(\d+) bytes spill stores", err))
    regs = max(int(r) for r in re.findall(r"Used (\d+) registers", err))
    # The grouped GEMMs, gate-and-up first (program order).
    grouped = [(k, v) for k, v in kernels.items() if v[1]]
    rows = tokens * spec["topk"]
    block = _group_block_rows(rows, spec["experts"])
    counts = routing(tokens, spec["experts"], spec["topk"])
    matrices = [2 * spec["hidden"] * 2 * spec["inter"],  # gate and up
                2 * spec["inter"] * spec["hidden"]]       # down
    read = ideal = 0
    kinds = []
    # A projection that is not a grouped GEMM is a row kernel (each pair
    # reads its expert's matrix).
    for matrix, (kname, (sched, group, _)) in zip(
            matrices, grouped if len(grouped) == 2 else
            [(None, ("GEMV", 0, 0))] * (2 - len(grouped)) + grouped):
        if group:
            r, i = weight_bytes(counts, block, group, matrix)
            instr = re.search(r"instruction = (\w+)", sched)
            tile = re.search(r"block_m = (\d+), block_n = (\d+)", sched)
            kinds.append(f"{instr.group(1) if instr else 'fma'} "
                         f"{tile.group(1)}x{tile.group(2)} R={group}")
        else:
            r, i = rows * matrix, sum(c > 0 for c in counts) * matrix
            kinds.append("row kernel (GEMV)")
        read += r
        ideal += i
    loop = measure(cubin, tools["cuobjdump"], grouped[0][0]) if grouped else None
    ours = (f"{loop['per_kflop']:.2f}" if isinstance(loop, dict) else "-")
    theirs = triton_case(block, spec["topk"], args.arch, tools, tmp) \
        if triton is not None else "triton not importable"
    theirs = (f"{theirs['per_kflop']:.2f}" if isinstance(theirs, dict)
              else str(theirs))
    return (f"{launches.group(1) if launches else '?':>3} kernels, B={block:<3} "
            f"{' + '.join(kinds):<44} weights {read / 2**30:6.2f} GiB vs "
            f"ideal {ideal / 2**30:6.2f} ({read / ideal:4.2f}x), written "
            f"{written / 2**20:.1f} MiB, regs {regs}, "
            f"spills {spills} B, instr/kFLOP {ours} (Triton {theirs}); "
            f"import {imported:.1f} s, compile {compiled:.1f} s")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--models", default="mixtral,deepseek_v3")
    p.add_argument("--tokens", default="1,16,512,4096")
    p.add_argument("--arch", default="sm_90")
    p.add_argument("--opt", default=str(ROOT / "build/bin/xtile-opt"))
    p.add_argument("--translate", default=str(ROOT / "build/bin/xtile-translate"))
    p.add_argument("--keep", default="")
    args = p.parse_args()
    tools = {"ptxas": tool("ptxas", ["ptxas"]),
             "cuobjdump": tool("cuobjdump", ["cuobjdump"])}
    for t in tools:
        if not tools[t]:
            print(f"skipped: no {t} (CUDA toolkit or Triton's bundled copy) found")
            return 0
    tmp = args.keep or tempfile.mkdtemp(prefix="xtile-moe-")
    pathlib.Path(tmp).mkdir(parents=True, exist_ok=True)
    for name in args.models.split(","):
        spec = MODELS[name]
        print(f"{name}: hidden {spec['hidden']}, expert intermediate "
              f"{spec['inter']}, {spec['experts']} experts, top-{spec['topk']}, "
              f"bf16, {args.arch}")
        for tokens in (int(t) for t in args.tokens.split(",")):
            print(f"  T={tokens:<5} {case(name, tokens, args, tools, tmp)}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
