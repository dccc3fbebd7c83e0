#!/usr/bin/env python3
"""Instructions per FLOP in the main loop of matmuls: xtile's contraction
kernels beside Triton's for the same shapes, from the SASS of both. Compiles
only; no GPU needed.

    build/venv/bin/python bench/matmul_instructions.py [--quick] [--arch sm_90]
        [--triton-arch sm_80] [--dtype bf16|f32|fp8|fp8-blocks] [--same-tiles]
        [--keep DIR]
        [--opt ...] [--translate ...]

Shapes (bf16 operands, f32 accumulation, bf16 output; with --dtype f32,
f32 throughout, xtile compiled with allow-tf32 and Triton's tl.dot on its
default TF32 precision; with --dtype fp8, e4m3 x W^T; with --dtype
fp8-blocks, e4m3 x W^T block-scaled as DeepSeek-V3's GEMMs, 1 x 128
activation and 128 x 128 weight scales, each 128-k block's sum scaled
into the f32 total, xtile's importer form against Triton's kernel of the
same loop, `acc += tl.dot(x, w) * sx[:, None] * sw`, BLOCK_K 128): the
4096^3 matmul
(x @ W with W [K, N]) and the Llama-3-8B projections as nn.Linear computes
them (x @ W^T with W [out, in]): QKV 6144 x 4096, O 4096 x 4096, gate+up
28672 x 4096 and down 4096 x 14336, at M in {1, 16, 128, 4096}. --quick runs
the 4096^3 matmul and the projections at M = 4096. At M = 1 xtile makes a
row kernel (a GEMV: one fold per output, bound by reading the weights), not
a contraction: no instruction count is given for it.

xtile: `xtile-opt --lower-to-kernel=target=ARCH` (the cost model's choice
of schedule: mma.sync on sm_80 and sm_90, wgmma on sm_90a),
`xtile-translate --mlir-to-ptx`, `ptxas -arch=ARCH`.
Triton: the matmul of its tutorial (one program per 128 x 128 output tile,
BLOCK_K 64, 4 warps, 4 stages; BLOCK_M 16 or 32 below M = 32, as its
autotuner's small configurations), compiled by triton.compile for
GPUTarget("cuda", ARCH, 32) without a GPU; by default for both sm_90 (where
Triton uses wgmma) and sm_80 (mma.sync). Compare `--arch sm_90a` (xtile's
wgmma) with Triton's sm_90 column.

Counting: `cuobjdump -sass` of each cubin (Triton's bundled cuobjdump where
the toolkit has none). The main loop is the innermost SASS loop (a backward
branch) holding the kernel's tensor-core instructions (FMAs for FMA
kernels); every instruction in it counts except NOP. FLOPs per warp and
instruction: HMMA.16816 4096, HMMA.1688 (tf32) 2048, HGMMA.64xNxK
64 * N * K * 2 / 4 (a warpgroup's instruction, issued by its 4 warps),
FFMA 64 (HFMA2 128).
"instr/kFLOP" is the loop's instructions per 1000 FLOPs of a warp, what a
warp issues on average: on xtile's TMA kernels the copies are issued by
one thread in a branch the other warps skip, or, warp-specialized, in the
loop of one producer thread, so the instructions of that branch or loop
count once per block (divided by its consumer warps; the static count of
the main loop, every warp charged with the branch, is listed under the
table); the
ratio column divides xtile's by Triton's. The tiles differ where the cost
model picks smaller ones (M = 16 and 128: more programs for the SMs to
share a weight-bound shape); --same-tiles adds xtile forced onto Triton's
tile and warps (wgmma: one warpgroup of two 64-row blocks on sm_90a) and
its ratio, which compares the code for the same work. Registers from `cuobjdump
-res-usage`, shared memory from ptxas -v (xtile's is dynamic: from the
kernel's launch). A benchmark: prints numbers, never fails on them.
"""
import argparse
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from instructions import (first_line, parse_sass, res_usage, run,  # noqa: E402
                          target, tool, triton)

LLAMA = [("qkv", 6144, 4096), ("o", 4096, 4096), ("gate_up", 28672, 4096),
         ("down", 4096, 14336)]
MS = [1, 16, 128, 4096]


def cases(quick, dtype="bf16"):
    # fp8 reads W [N, K] (K-major) in every case.
    out = [("mm4096", 4096, 4096, 4096, dtype.startswith("fp8"))]
    for name, n, k in LLAMA:
        for m in ([4096] if quick else MS):
            out.append((f"{name}_m{m}", m, n, k, True))
    return out


def block_scaled_ir(name, m, n, k):
    """x [M, K] @ W[N, K]^T in e4m3 with DeepSeek-V3's block scales, as
    the importer writes torch._scaled_mm's (python/xtile/importer/matmul.py):
    a matmul batched over the K blocks, scaled, summed over the blocks; a
    bf16 result."""
    kb, nb = k // 128, n // 128
    e = "f8E4M3FN"
    parts, f32 = f"tensor<{kb}x{m}x{n}xf32>", "xf32>"
    lines = [
        f"func.func @{name}(%x: tensor<{m}x{k}x{e}>, %w: tensor<{n}x{k}x{e}>, "
        f"%sx: tensor<{m}x{kb}{f32}, %sw: tensor<{kb}x{nb}{f32}) -> tensor<{m}x{n}xbf16> {{",
        f"%x3 = xtensor.reshape %x : tensor<{m}x{k}x{e}> -> tensor<{m}x{kb}x128x{e}>",
        f"%xt = xtensor.transpose %x3 perm [1, 0, 2] : tensor<{m}x{kb}x128x{e}> -> "
        f"tensor<{kb}x{m}x128x{e}>",
        f"%w3 = xtensor.reshape %w : tensor<{n}x{k}x{e}> -> tensor<{n}x{kb}x128x{e}>",
        f"%wt = xtensor.transpose %w3 perm [1, 2, 0] : tensor<{n}x{kb}x128x{e}> -> "
        f"tensor<{kb}x128x{n}x{e}>",
        f"%p = xtensor.matmul %xt, %wt : tensor<{kb}x{m}x128x{e}>, "
        f"tensor<{kb}x128x{n}x{e}> -> {parts}",
        f"%sxt = xtensor.transpose %sx perm [1, 0] : tensor<{m}x{kb}{f32} -> "
        f"tensor<{kb}x{m}{f32}",
        f"%sx3 = xtensor.reshape %sxt : tensor<{kb}x{m}{f32} -> tensor<{kb}x{m}x1{f32}",
        f"%sxb = xtensor.broadcast %sx3 : tensor<{kb}x{m}x1{f32} -> {parts}",
        f"%sw3 = xtensor.reshape %sw : tensor<{kb}x{nb}{f32} -> tensor<{kb}x{nb}x1{f32}",
        f"%swb = xtensor.broadcast %sw3 : tensor<{kb}x{nb}x1{f32} -> "
        f"tensor<{kb}x{nb}x128{f32}",
        f"%swr = xtensor.reshape %swb : tensor<{kb}x{nb}x128{f32} -> tensor<{kb}x1x{n}{f32}",
        f"%swc = xtensor.broadcast %swr : tensor<{kb}x1x{n}{f32} -> {parts}",
        f"%m1 = xtensor.mul %sxb, %swc : {parts}",
        f"%m2 = xtensor.mul %p, %m1 : {parts}",
        f"%r = xtensor.reduce sum %m2 dims [0] : {parts} -> tensor<{m}x{n}{f32}",
        f"%y = xtensor.cast %r : tensor<{m}x{n}{f32} -> tensor<{m}x{n}xbf16>",
        f"return %y : tensor<{m}x{n}xbf16>"]
    return "\n  ".join(lines) + "\n}\n"


def tensor_ir(name, m, n, k, transposed, dtype="bf16"):
    if dtype == "fp8-blocks":
        return block_scaled_ir(name, m, n, k)
    if dtype == "fp8":
        # x [M, K] @ W[N, K]^T in e4m3 (K-major both, as fp8 tensor cores
        # read them), the f32 accumulator rounded to bf16.
        x = f"tensor<{m}x{k}xf8E4M3FN>"
        w = f"tensor<{n}x{k}xf8E4M3FN>"
        wt = f"tensor<{k}x{n}xf8E4M3FN>"
        acc = f"tensor<{m}x{n}xf32>"
        y = f"tensor<{m}x{n}xbf16>"
        return (f"func.func @{name}(%x: {x}, %w: {w}) -> {y} {{\n"
                f"  %t = xtensor.transpose %w perm [1, 0] : {w} -> {wt}\n"
                f"  %a = xtensor.matmul %x, %t : {x}, {wt} -> {acc}\n"
                f"  %y = xtensor.cast %a : {acc} -> {y}\n"
                f"  return %y : {y}\n}}\n")
    x = f"tensor<{m}x{k}x{dtype}>"
    y = f"tensor<{m}x{n}x{dtype}>"
    if transposed:
        w = f"tensor<{n}x{k}x{dtype}>"
        body = f"%y = xtensor.linear %x, %w : ({x}, {w}) -> {y}"
    else:
        w = f"tensor<{k}x{n}x{dtype}>"
        body = f"%y = xtensor.matmul %x, %w : {x}, {w} -> {y}"
    return (f"func.func @{name}(%x: {x}, %w: {w}) -> {y} {{\n  {body}\n"
            f"  return %y : {y}\n}}\n")


# ---------------------------------------------------------------- SASS
HGMMA = re.compile(r"[HQ]GMMA\.64x(\d+)x(\d+)")  # QGMMA: fp8


def flops(op):
    """FLOPs one warp's instruction performs (0 for other instructions)."""
    if op.startswith("HMMA.16816"):
        return 4096
    if op.startswith("QMMA.16832"):  # fp8 mma.sync on sm_89
        return 8192
    if op.startswith("HMMA.1688"):
        return 2048
    m = HGMMA.match(op)
    if m:
        return 64 * int(m.group(1)) * int(m.group(2)) * 2 // 4
    if op.startswith("FFMA"):
        return 64
    if op.startswith("HFMA2"):
        return 128
    return 0


def main_loop(instrs):
    """(instructions, FLOPs, one warp's) per iteration of the innermost
    loop with the most FLOPs, or None. One warp's: the instructions that a
    forward branch skips in all warps but the one that issues the TMA
    copies (the skipped code holds UTMALDG)."""
    code = [i for i in instrs if i[2] != "NOP"]
    index = {ins[0]: k for k, ins in enumerate(code)}
    best = None
    for k, (addr, _, op, ops) in enumerate(code):
        if not op.startswith("BRA"):
            continue
        t = target(ops)
        if t is None or t > addr or t not in index:
            continue
        body = code[index[t]:k + 1]
        work = sum(flops(i[2]) for i in body)
        if work and (best is None or len(body) < best[0] or
                     (len(body) == best[0] and work > best[1])):
            # The innermost of nested loops with work is the shortest.
            best = (len(body), work, issuer_only(body))
    return best


def producer_loop(instrs):
    """Instructions per K step of a warp-specialized kernel's producer loop
    (run by one thread of the producer warpgroup), or 0: the longest loop
    holding bulk tensor copies and no FLOPs, not one of the one-pass loops
    ptxas wraps around each copy (BRA.U.ANY), over the K steps it holds
    (ptxas unrolls it: one expect_tx arrival per step)."""
    code = [i for i in instrs if i[2] != "NOP"]
    index = {ins[0]: k for k, ins in enumerate(code)}
    best = 0
    for k, (addr, _, op, ops) in enumerate(code):
        if not op.startswith("BRA") or ".U" in op:
            continue
        t = target(ops)
        if t is None or t > addr or t not in index:
            continue
        body = code[index[t]:k + 1]
        if (any(i[2].startswith("UTMALDG") for i in body) and
                not any(flops(i[2]) for i in body)):
            steps = sum(i[2].startswith("SYNCS.ARRIVE.TRANS64") for i in body)
            best = max(best, len(body) / max(1, steps))
    return best


def issuer_only(body):
    """How many instructions of a loop body only the TMA issuer runs: those
    a conditional forward branch within the body skips, when they hold a
    bulk tensor copy."""
    index = {ins[0]: k for k, ins in enumerate(body)}
    covered = set()
    for k, (addr, _, op, ops) in enumerate(body):
        if not op.startswith("BRA") or ".U" in op:
            continue
        t = target(ops)
        if t is None or t <= addr or t not in index:
            continue
        skipped = range(k + 1, index[t])
        if any(body[j][2].startswith("UTMALDG") for j in skipped):
            covered.update(skipped)
    return len(covered)


def measure(cubin, cuobjdump, name=None):
    rc, sass, err = run([cuobjdump, "-sass", str(cubin)])
    if rc:
        return f"cuobjdump failed: {first_line(err)}"
    rc, res, _ = run([cuobjdump, "-res-usage", str(cubin)])
    kernels = parse_sass(sass)
    regs = res_usage(res) if rc == 0 else {}
    if name is None:
        name = max(kernels, key=lambda k: len(kernels[k]))
    loop = main_loop(kernels.get(name, []))
    if loop is None:
        return "no main loop found"
    return {"instrs": loop[0], "flops": loop[1], "issuer": loop[2],
            "producer": producer_loop(kernels.get(name, [])),
            "per_kflop": 1000 * loop[0] / loop[1], "regs": regs.get(name)}


def triton_tile(m, dtype):
    """Triton's tile for M (see triton_case): BLOCK_M, BLOCK_N, BLOCK_K."""
    return (16 if m <= 16 else 32 if m <= 32 else 128, 128,
            {"bf16": 64, "f32": 32, "fp8": 128, "fp8-blocks": 128}[dtype])


def same_tile_schedule(m, arch, dtype, transposed):
    """xtile's schedule on Triton's tile and warps (4, 4 stages): wgmma on
    sm_90a where the tile has a warpgroup's rows (one warpgroup of two
    64-row blocks; on tf32 only where B is K-major, x W^T), mma.sync
    otherwise."""
    bm, bn, bk = triton_tile(m, dtype)
    tf32 = ", tf32 = true" if dtype == "f32" else ""
    if arch == "sm_90a" and bm == 128 and (dtype == "bf16" or transposed):
        # (Block-scaled: the step's sum beside the total, two warpgroups.)
        warps = 8 if dtype == "fp8-blocks" else 4
        return (f"#xtile.dot_schedule<block_m = {bm}, block_n = {bn}, "
                f"block_k = {bk}, stages = 4, warps = {warps}, "
                f"instruction = wgmma, warps_m = {warps}{tf32}>")
    return (f"#xtile.dot_schedule<block_m = {bm}, block_n = {bn}, "
            f"block_k = {bk}, stages = 4, warps = 4, instruction = mma_sync, "
            f"warps_m = {1 if bm == 16 else 2}{tf32}>")


def xtile_case(name, m, n, k, transposed, args, tools, tmp, schedule=None):
    if schedule:
        name += "_same_tile"
    src = pathlib.Path(tmp, f"{name}.mlir")
    src.write_text(tensor_ir(name, m, n, k, transposed, args.dtype))
    kir = src.with_suffix(".kernel.mlir")
    options = f"target={args.arch}"
    if args.dtype == "f32":
        options += " allow-tf32=true"
    if schedule:
        options += f" force-schedule='{schedule}'"
    rc, _, err = run([args.opt, f"--lower-to-kernel={options}",
                      str(src), "-o", str(kir)])
    if rc:
        return "lower-to-kernel failed: " + first_line(err)
    text = kir.read_text()
    sched = re.search(r"schedule = (#xtile\.dot_schedule<[^>]*>)",
                      subprocess.run([args.opt,
                                      f"--lower-to-tile={options}",
                                      str(src)], capture_output=True,
                                     text=True).stdout)
    if sched is None:
        # M = 1: a row kernel (GEMV), bound by reading the weights once.
        return "row kernel (GEMV): memory-bound"
    ptx = src.with_suffix(".ptx")
    rc, _, err = run([args.translate, "--mlir-to-ptx", str(kir), "-o",
                      str(ptx)])
    if rc:
        return "mlir-to-ptx failed: " + first_line(err)
    cubin = src.with_suffix(".cubin")
    rc, _, err = run([tools["ptxas"], f"-arch={args.arch}", "-v", str(ptx),
                      "-o", str(cubin)])
    if rc:
        return "ptxas failed: " + first_line(err)
    spills = sum(int(s) for s in re.findall(r"(\d+) bytes spill stores", err))
    kernels = re.findall(r"xkernel\.func @(\w+)", text)
    # The contraction kernel: the one with tensor-core or FMA work.
    r = None
    for kname in kernels:
        got = measure(cubin, tools["cuobjdump"], kname)
        if isinstance(got, dict) and (r is None or got["flops"] > r["flops"]):
            r = got
    if r is None:
        return "no main loop found"
    shared = re.search(r"\] shared (\d+)", text)
    r["shared"] = int(shared.group(1)) if shared else 0
    r["spills"] = spills
    r["schedule"] = sched.group(1) if sched else "?"
    # The TMA issue runs in one warp of the block (a branch of the loop, or
    # a warp-specialized producer's own loop): a warp issues on average the
    # rest of the loop and its share of the issue.
    warps = int(re.search(r"warps = (\d+)", r["schedule"]).group(1))
    r["static_per_kflop"] = r["per_kflop"]
    one_warp = r["issuer"] + r["producer"]
    r["per_kflop"] = (1000 * (r["instrs"] - r["issuer"] + one_warp / warps)
                      / r["flops"])
    return r


TRITON_KERNEL = None


def triton_kernel():
    """The tutorial's matmul; with BLOCKS, block-scaled (BLOCK_K 128: one
    scale block per step; BLOCK_N 128: one weight scale per step), each
    step's dot scaled into the accumulator."""
    global TRITON_KERNEL
    if TRITON_KERNEL is None:
        import triton.language as tl

        @triton.jit
        def matmul(a, b, c, sa, sb, M, N, K, sam, sak, sbk, sbn, scm, scn,
                   ssam, ssak, ssbk, ssbn, BLOCK_M: tl.constexpr,
                   BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                   BLOCKS: tl.constexpr):
            pid_m = tl.program_id(0)
            pid_n = tl.program_id(1)
            rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
            rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
            rk = tl.arange(0, BLOCK_K)
            pa = a + rm[:, None] * sam + rk[None, :] * sak
            pb = b + rk[:, None] * sbk + rn[None, :] * sbn
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
            for kk in range(0, tl.cdiv(K, BLOCK_K)):
                x = tl.load(pa, mask=(rm[:, None] < M) &
                            (rk[None, :] < K - kk * BLOCK_K), other=0.0)
                y = tl.load(pb, mask=(rk[:, None] < K - kk * BLOCK_K) &
                            (rn[None, :] < N), other=0.0)
                if BLOCKS:
                    s_x = tl.load(sa + rm * ssam + kk * ssak, mask=rm < M,
                                  other=0.0)
                    s_w = tl.load(sb + (pid_n * BLOCK_N // 128) * ssbn +
                                  kk * ssbk)
                    acc += tl.dot(x, y) * s_x[:, None] * s_w
                else:
                    acc = tl.dot(x, y, acc)
                pa += BLOCK_K * sak
                pb += BLOCK_K * sbk
            pc = c + rm[:, None] * scm + rn[None, :] * scn
            tl.store(pc, acc.to(c.dtype.element_ty),
                     mask=(rm[:, None] < M) & (rn[None, :] < N))
        TRITON_KERNEL = matmul
    return TRITON_KERNEL


def triton_case(name, m, n, k, transposed, arch, tools, tmp, dtype="bf16"):
    bm = triton_tile(m, dtype)[0]
    # Strides: x [M, K] row-major; W [K, N] or, transposed, [N, K].
    ptr = {"bf16": "*bf16", "f32": "*fp32", "fp8": "*fp8e4nv",
           "fp8-blocks": "*fp8e4nv"}[dtype]
    # f32 tiles are twice the bytes: BLOCK_K 32 keeps Triton's 4 stages
    # within shared memory; fp8 ones half: BLOCK_K 128 (Triton's fp8
    # configurations).
    bk = triton_tile(m, dtype)[2]
    # Scales (block-scaled only): x's [M, K / 128], W's [K / 128, N / 128],
    # row-major.
    sig = {"a": ptr, "b": ptr, "c": "*bf16" if dtype.startswith("fp8") else ptr,
           "sa": "*fp32", "sb": "*fp32", "M": "i32", "N": "i32",
           "K": "i32", "sam": "i32", "sak": "constexpr", "sbk": "i32",
           "sbn": "i32", "scm": "i32", "scn": "constexpr", "ssam": "i32",
           "ssak": "constexpr", "ssbk": "i32", "ssbn": "constexpr",
           "BLOCK_M": "constexpr", "BLOCK_N": "constexpr",
           "BLOCK_K": "constexpr", "BLOCKS": "constexpr"}
    constexprs = {"sak": 1, "scn": 1, "ssak": 1, "ssbn": 1, "BLOCK_M": bm,
                  "BLOCK_N": 128, "BLOCK_K": bk,
                  "BLOCKS": dtype == "fp8-blocks"}
    if transposed:
        sig["sbk"] = "constexpr"
        constexprs["sbk"] = 1
    else:
        sig["sbn"] = "constexpr"
        constexprs["sbn"] = 1
    divisible = [p for p in ("a", "b", "c", "sa", "sb", "M", "N", "K", "sam",
                             "sbk", "sbn", "scm", "ssam", "ssbk")
                 if sig[p] != "constexpr"]
    return compile_triton(triton_kernel(), sig, constexprs, divisible, arch, 4,
                          pathlib.Path(tmp, f"triton_{name}_{arch}_{dtype}.cubin"),
                          tools)


def compile_triton(fn, sig, constexprs, divisible, arch, stages, cubin, tools):
    """The main loop of Triton kernel `fn` compiled for `arch` with 4 warps
    and `stages` stages (measure's dict, with the kernel's shared memory),
    or why not; the parameters in `divisible` are declared multiples of
    16."""
    from triton.backends.compiler import GPUTarget
    names = list(sig)
    attrs = {(names.index(p),): [["tt.divisibility", 16]] for p in divisible}
    cc = int(arch.removeprefix("sm_").rstrip("a"))
    try:
        kern = triton.compile(
            triton.compiler.ASTSource(fn=fn, signature=sig,
                                      constexprs=constexprs, attrs=attrs),
            target=GPUTarget("cuda", cc, 32),
            options={"num_warps": 4, "num_stages": stages})
    except Exception as e:  # noqa: BLE001 - reported, not fatal
        return f"triton.compile failed: {first_line(str(e))}"
    cubin.write_bytes(kern.asm["cubin"])
    r = measure(cubin, tools["cuobjdump"], kern.metadata.name)
    if isinstance(r, dict):
        r["shared"] = kern.metadata.shared
    return r


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--arch", default="sm_90")
    p.add_argument("--triton-arch", default="sm_90,sm_80",
                   help="comma-separated targets Triton compiles for")
    p.add_argument("--opt", default=str(ROOT / "build/bin/xtile-opt"))
    p.add_argument("--translate",
                   default=str(ROOT / "build/bin/xtile-translate"))
    p.add_argument("--dtype", default="bf16",
                   choices=["bf16", "f32", "fp8", "fp8-blocks"],
                   help="operand type (f32: TF32 tensor cores on both sides; "
                        "fp8: e4m3 x W^T with a bf16 result, every shape; "
                        "fp8-blocks: the same, block-scaled)")
    p.add_argument("--keep", default="")
    p.add_argument("--same-tiles", action="store_true",
                   help="also xtile on Triton's tile (forced schedule), "
                        "against the first Triton target")
    args = p.parse_args()
    tools = {"ptxas": tool("ptxas", ["ptxas"]),
             "cuobjdump": tool("cuobjdump", ["cuobjdump"])}
    for t in ("ptxas", "cuobjdump"):
        if not tools[t]:
            print(f"skipped: no {t} (CUDA toolkit or Triton's bundled "
                  f"copy) found")
            return 0
    tarchs = [a for a in args.triton_arch.split(",") if a]
    if triton is None:
        print("Triton columns skipped: triton does not import")
        tarchs = []
    tmp = args.keep or tempfile.mkdtemp(prefix="xtile-mm-")
    pathlib.Path(tmp).mkdir(parents=True, exist_ok=True)
    head = (f"{'case':<16} {'M':>5} {'N':>6} {'K':>6} | xtile {args.arch}: "
            f"{'instr/kFLOP':>11} {'regs':>4} {'smem KiB':>8} ")
    if args.same_tiles:
        head += f"| xtile on triton's tile: {'instr/kFLOP':>11} {'regs':>4} "
    for a in tarchs:
        head += f"| triton {a}: {'instr/kFLOP':>11} {'regs':>4} ratio "
        if args.same_tiles:
            head += "same-tile ratio "
    print(head)
    schedules = []
    for name, m, n, k, transposed in cases(args.quick, args.dtype):
        x = xtile_case(name, m, n, k, transposed, args, tools, tmp)
        line = f"{name:<16} {m:>5} {n:>6} {k:>6} | "
        if isinstance(x, dict):
            line += (f"{'':>{len(args.arch) + 8}}{x['per_kflop']:>11.2f} "
                     f"{x['regs'] or '-':>4} {x['shared'] / 1024:>8.1f} ")
            if x["spills"]:
                line += f"SPILLS {x['spills']} B "
            schedules.append((name, x["schedule"], x))
        else:
            line += f"{x:<40} "
        same = None
        if args.same_tiles:
            same = (xtile_case(name, m, n, k, transposed, args, tools, tmp,
                               same_tile_schedule(m, args.arch, args.dtype,
                                                  transposed))
                    if isinstance(x, dict) else "-")
            if isinstance(same, dict):
                line += (f"| {'':>23}{same['per_kflop']:>11.2f} "
                         f"{same['regs'] or '-':>4} ")
            else:
                line += f"| {same[:40]:<39} "
        for a in tarchs:
            t = triton_case(name, m, n, k, transposed, a, tools, tmp,
                            args.dtype)
            if isinstance(t, dict):
                ratio = (f"{x['per_kflop'] / t['per_kflop']:.2f}"
                         if isinstance(x, dict) else "-")
                line += (f"| {'':>{len(a) + 9}}{t['per_kflop']:>11.2f} "
                         f"{t['regs'] or '-':>4} {ratio:>5} ")
                if args.same_tiles:
                    r = (f"{same['per_kflop'] / t['per_kflop']:.2f}"
                         if isinstance(same, dict) else "-")
                    line += f"{r:>15} "
            else:
                line += f"| {t[:40]} "
        print(line, flush=True)
    print("\nxtile's schedules (the cost model's choice); the main loop's "
          "instructions, those only the TMA issuer runs, and the static count "
          "per kFLOP:")
    for name, s, x in schedules:
        print(f"  {name:<16} {s}: {x['instrs']} instructions, {x['issuer']} "
              f"issuer's, {x['producer']:.0f} per step in the producer's loop, "
              f"{x['static_per_kflop']:.2f} static")
    return 0


if __name__ == "__main__":
    sys.exit(main())
