//===- KernelOps.td - xkernel operations ------------------*- tablegen -*-===//

#ifndef XTILE_DIALECT_KERNEL_IR_KERNELOPS_TD
#define XTILE_DIALECT_KERNEL_IR_KERNELOPS_TD

include "xtile/Dialect/Kernel/IR/KernelBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def XKernel_Ptr : Type<CPred<"::llvm::isa<::xtile::kernel::PtrType>($_self)">,
                       "pointer", "::xtile::kernel::PtrType">;
def XKernel_Scalar : AnyTypeOf<[AnyInteger, Index, AnyFloat]>;
def XKernel_Lanes : AnyTypeOf<[XKernel_Scalar,
                               VectorOfRankAndType<[1], [AnyInteger, AnyFloat]>]>;

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

def XKernel_FuncOp : XKernel_Op<"func", [
    FunctionOpInterface, IsolatedFromAbove, Symbol, AutomaticAllocationScope]> {
  let summary = "a GPU kernel: the code one thread of a block runs";
  let description = [{
    A kernel's arguments are pointers into global memory (an argument
    attribute `xkernel.readonly` marks those it never writes, which the CUDA
    emitter prints as `const T* __restrict__`) and scalars. `max_threads`
    is its block size bound (`__launch_bounds__`); `dynamic_shared` the bytes
    of dynamic shared memory each block needs; `arch`, when present, the GPU
    its schedule was chosen for (`sm_80`, `sm_90`, ...: the Tile IR target),
    which `xtile-translate --mlir-to-ptx` targets unless told otherwise;
    `min_blocks`, when present, the blocks per SM its schedule needs
    resident (`__launch_bounds__`' second bound, `.minnctapersm`): 1 for
    contraction kernels, which leaves the assembler every register it can
    use rather than ones it would keep back for occupancy.

    ```mlir
    xkernel.func @copy(%x: !xkernel.ptr<f32, global> {xkernel.readonly},
                       %y: !xkernel.ptr<f32, global>)
        attributes {max_threads = 256 : i64} {
      %t = xkernel.thread_id x
      %v = xkernel.load %x[%t] : !xkernel.ptr<f32, global> -> f32
      xkernel.store %v, %y[%t] : f32, !xkernel.ptr<f32, global>
      xkernel.return
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                   TypeAttrOf<FunctionType>:$function_type,
                   OptionalAttr<DictArrayAttr>:$arg_attrs,
                   OptionalAttr<DictArrayAttr>:$res_attrs,
                   I64Attr:$max_threads,
                   DefaultValuedAttr<I64Attr, "0">:$dynamic_shared,
                   OptionalAttr<StrAttr>:$arch,
                   OptionalAttr<I64Attr>:$min_blocks);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::mlir::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    /// The attribute naming arguments the kernel only reads.
    static ::llvm::StringRef getReadonlyAttrName() { return "xkernel.readonly"; }
    /// The attribute of an argument that is a TMA tensor map the host
    /// program makes: `{of = i, box = array<i64: ...>, swizzle = s}`, the
    /// map of buffer argument `i` (see `xkernel.tensor_map`).
    static ::llvm::StringRef getTensorMapAttrName() { return "xkernel.tensor_map"; }
  }];
}

def XKernel_ReturnOp : XKernel_Op<"return", [
    Pure, HasParent<"FuncOp">, ReturnLike, Terminator]> {
  let summary = "the end of a kernel";
  let assemblyFormat = "attr-dict";
}

class XKernel_IdOp<string mnemonic, string what>
    : XKernel_Op<mnemonic, [Pure]> {
  let summary = what # " along a dimension";
  let description = [{
    ```mlir
    %v = xkernel.}] # mnemonic # [{ x
    ```
  }];
  let arguments = (ins XKernel_Dim:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "$dim attr-dict";
}

def XKernel_ThreadIdOp : XKernel_IdOp<"thread_id", "this thread's index in its block">;
def XKernel_BlockIdOp : XKernel_IdOp<"block_id", "this block's index in the grid">;
def XKernel_BlockDimOp : XKernel_IdOp<"block_dim", "the number of threads of a block">;
def XKernel_GridDimOp : XKernel_IdOp<"grid_dim", "the number of blocks of the grid">;

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

def XKernel_SharedOp : XKernel_Op<"shared"> {
  let summary = "a static shared-memory array of the block";
  let description = [{
    `size` elements of the pointer's element type, shared by the threads of
    a block; allocated for the whole kernel, so the op must be in the
    kernel's entry block.

    ```mlir
    %partials = xkernel.shared 32 : !xkernel.ptr<f32, shared>
    ```
  }];
  let arguments = (ins I64Attr:$size);
  let results = (outs XKernel_Ptr:$result);
  let assemblyFormat = "$size attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def XKernel_DynamicSharedOp : XKernel_Op<"dynamic_shared", [Pure]> {
  let summary = "a view into the block's dynamic shared memory";
  let description = [{
    The dynamic shared memory (sized at launch: the kernel's
    `dynamic_shared` bytes) seen from byte `offset` on, as an array of the
    pointer's element type; `offset` is a multiple of 16 bytes.

    ```mlir
    %a = xkernel.dynamic_shared 0 : !xkernel.ptr<f32, shared>
    %b = xkernel.dynamic_shared 16384 : !xkernel.ptr<f32, shared>
    ```
  }];
  let arguments = (ins I64Attr:$offset);
  let results = (outs XKernel_Ptr:$result);
  let assemblyFormat = "$offset attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def XKernel_LoadOp : XKernel_Op<"load", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "read one element, or a vector of adjacent elements";
  let description = [{
    Reads `ptr[offset]`; a vector result reads that many adjacent elements
    at once (a 16-byte access for `vector<4xf32>`), so `offset` must be a
    multiple of the vector length and the pointer aligned to it.

    ```mlir
    %v = xkernel.load %x[%i] : !xkernel.ptr<f32, global> -> vector<4xf32>
    ```
  }];
  let arguments = (ins XKernel_Ptr:$ptr, Index:$offset);
  let results = (outs XKernel_Lanes:$result);
  let assemblyFormat = "$ptr `[` $offset `]` attr-dict `:` type($ptr) `->` type($result)";
  let hasVerifier = 1;
}

def XKernel_StoreOp : XKernel_Op<"store"> {
  let summary = "write one element, or a vector of adjacent elements";
  let description = [{
    ```mlir
    xkernel.store %v, %y[%i] : vector<4xf32>, !xkernel.ptr<f32, global>
    ```
  }];
  let arguments = (ins XKernel_Lanes:$value, XKernel_Ptr:$ptr, Index:$offset);
  let assemblyFormat = [{
    $value `,` $ptr `[` $offset `]` attr-dict `:` type($value) `,` type($ptr)
  }];
  let hasVerifier = 1;
}

def XKernel_AtomicOp : XKernel_Op<"atomic", [
    AllTypesMatch<["value", "result"]>]> {
  let summary = "atomic read-modify-write of one element";
  let description = [{
    Combines `value` into `ptr[offset]` atomically and returns the old
    value: how programs of a split reduction can meet in one result.

    ```mlir
    %old = xkernel.atomic add %v, %y[%i] : f32, !xkernel.ptr<f32, global>
    ```
  }];
  let arguments = (ins XKernel_AtomicKind:$kind, XKernel_Scalar:$value,
                   XKernel_Ptr:$ptr, Index:$offset);
  let results = (outs XKernel_Scalar:$result);
  let assemblyFormat = [{
    $kind $value `,` $ptr `[` $offset `]` attr-dict `:` type($value) `,` type($ptr)
  }];
  let hasVerifier = 1;
}

def XKernel_AsyncCopyOp : XKernel_Op<"async_copy"> {
  let summary = "start copying global memory into shared memory (cp.async)";
  let description = [{
    Starts copying `bytes` bytes (4, 8 or 16) from `src[src_offset]` in
    global memory to `dst[dst_offset]` in shared memory without holding
    registers. With `valid`, only that many of the bytes are read and the
    rest are zero-filled (0 for a masked-off access). The copy is complete
    after an `async_commit` that follows it and an `async_wait` that lets
    no more groups remain in flight than were committed after it.

    ```mlir
    xkernel.async_copy %x[%i] to %s[%j], 16 : !xkernel.ptr<f32, global> to !xkernel.ptr<f32, shared>
    ```
  }];
  let arguments = (ins XKernel_Ptr:$src, Index:$src_offset, XKernel_Ptr:$dst,
                   Index:$dst_offset, I64Attr:$bytes,
                   Optional<I32>:$valid);
  let assemblyFormat = [{
    $src `[` $src_offset `]` `to` $dst `[` $dst_offset `]` `,` $bytes
    (`valid` $valid^)? attr-dict `:` type($src) `to` type($dst)
  }];
  let hasVerifier = 1;
}

def XKernel_AsyncCommitOp : XKernel_Op<"async_commit"> {
  let summary = "close the group of asynchronous copies started so far";
  let assemblyFormat = "attr-dict";
}

def XKernel_AsyncWaitOp : XKernel_Op<"async_wait"> {
  let summary = "wait until at most `pending` committed groups are in flight";
  let description = [{
    Only this thread's copies are waited for: a `barrier` after it makes
    every thread's copies visible to the block.

    ```mlir
    xkernel.async_wait 1
    ```
  }];
  let arguments = (ins I64Attr:$pending);
  let assemblyFormat = "$pending attr-dict";
}

//===----------------------------------------------------------------------===//
// Synchronization within a block
//===----------------------------------------------------------------------===//

def XKernel_BarrierOp : XKernel_Op<"barrier"> {
  let summary = "wait for every thread of the block, or of a named barrier";
  let description = [{
    Without operands, `bar.sync 0` (`__syncthreads`): every thread of the
    block must reach the same barrier. With an `id` (1 to 15) and a thread
    count (a multiple of 32), `bar.sync id, threads`: the barrier completes
    once that many threads, in whole warps, reached it, so a part of the
    block (the consumer warpgroups of a warp-specialized kernel) can meet
    without the rest. Either orders the shared-memory accesses of the
    threads that meet before it with those after it.

    ```mlir
    xkernel.barrier
    xkernel.barrier 1, 256
    ```
  }];
  let arguments = (ins OptionalAttr<I64Attr>:$id, OptionalAttr<I64Attr>:$threads);
  let assemblyFormat = "($id^ `,` $threads)? attr-dict";
  let hasVerifier = 1;
}

def XKernel_ShuffleOp : XKernel_Op<"shuffle", [Pure,
    AllTypesMatch<["value", "result"]>]> {
  let summary = "exchange a value between the lanes of a warp";
  let description = [{
    Every lane of the warp must take part. `xor` reads the lane whose index
    is this lane's xor `offset`, `down` the lane `offset` above (its own
    value past the end of a segment), `idx` lane `offset`; lanes are
    grouped in segments of `width` (a power of two up to 32).

    ```mlir
    %o = xkernel.shuffle xor %v, 16 width 32 : f32
    ```
  }];
  let arguments = (ins XKernel_ShuffleKind:$kind, XKernel_Scalar:$value,
                   I32:$offset, I64Attr:$width);
  let results = (outs XKernel_Scalar:$result);
  let assemblyFormat = [{
    $kind $value `,` $offset `width` $width attr-dict `:` type($value)
  }];
  let hasVerifier = 1;
}

def XKernel_ApproxOp : XKernel_Op<"approx", [Pure,
    AllTypesMatch<["value", "result"]>]> {
  let summary = "an approximate f32 function of the special-function units";
  let description = [{
    One instruction of the multi-function unit, with the error bound the
    PTX ISA documents for it:

    | kind | PTX | error |
    |---|---|---|
    | `ex2` | `ex2.approx.f32` | 2 ulp from the correctly rounded 2^x (the emulation: exact at integers) |
    | `lg2` | `lg2.approx.f32` | 2^-22 absolute in (0.5, 2), else 2^-22 relative |
    | `rcp` | `rcp.approx.ftz.f32`; without `ftz`, `div.full.f32` of 1 by x | 1 ulp; without `ftz` 2 ulp over the full range |
    | `rsqrt` | `rsqrt.approx.f32` | 2^-22.9 relative |
    | `sqrt` | `sqrt.approx.f32` | 2^-23 relative |

    With `ftz`, subnormal inputs and results are flushed to zero. `rcp`
    without `ftz` is `div.full.f32` (NVVM has no `rcp.approx.f32`), which
    keeps subnormals and scales huge divisors. `--xkernel-expand-math` builds the math functions on
    these; the CPU emulation computes each with its full documented error,
    in a direction that depends on the input, so that what runs there is
    no more accurate than the GPU is allowed to be.

    ```mlir
    %p = xkernel.approx ex2 %r : f32
    %q = xkernel.approx rcp %d ftz : f32
    ```
  }];
  let arguments = (ins XKernel_ApproxKind:$kind, F32:$value, UnitAttr:$ftz);
  let results = (outs F32:$result);
  let assemblyFormat = "$kind $value (`ftz` $ftz^)? attr-dict `:` type($value)";
}

def XKernel_DivFullOp : XKernel_Op<"div_full", [Pure,
    AllTypesMatch<["lhs", "rhs", "result"]>]> {
  let summary = "a full-range approximate f32 division";
  let description = [{
    `div.full.f32`: lhs / rhs within 2 ulp over the whole range of both
    operands, subnormals kept, for about a quarter of an IEEE division's
    instructions (one MUFU.RCP and the operands' scaling). A kernel whose
    outputs are all 16-bit divides with it (`--xkernel-expand-math`).

    ```mlir
    %q = xkernel.div_full %a, %b : f32
    ```
  }];
  let arguments = (ins F32:$lhs, F32:$rhs);
  let results = (outs F32:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Tensor cores (sm_80 and later)
//===----------------------------------------------------------------------===//

def XKernel_LdMatrixOp : XKernel_Op<"ldmatrix", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "load 8x8 matrices of 16-bit elements into a warp's fragments";
  let description = [{
    `ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16`: every lane of
    the warp takes part. Each matrix has 8 rows of 16 bytes; the result
    holds one 32-bit register per matrix (2 lanes of a 16-bit type, 4 of
    fp8, or 1 of f32), so it loads 1, 2 or 4 matrices. Lane `8 q + j` gives
    `ptr[offset]`, the address of row `j` of matrix `q` (16-byte aligned;
    lanes past `8 * matrices` give none). Register `q` of lane `l` holds
    row `l / 4`, bytes `4 (l % 4)` to `4 (l % 4) + 3` of matrix `q`: for
    16-bit elements columns `2 (l % 4)` and `2 (l % 4) + 1`, for f32
    column `l % 4`. With `trans` (16-bit elements only), rows
    `2 (l % 4)` and `2 (l % 4) + 1` of column `l / 4`. These are the
    fragment layouts `xkernel.mma` takes.

    ```mlir
    %a = xkernel.ldmatrix %s[%o] : !xkernel.ptr<bf16, shared> -> vector<8xbf16>
    %b = xkernel.ldmatrix %s[%p] trans : !xkernel.ptr<bf16, shared> -> vector<4xbf16>
    %t = xkernel.ldmatrix %f[%q] : !xkernel.ptr<f32, shared> -> vector<4xf32>
    ```
  }];
  let arguments = (ins XKernel_Ptr:$ptr, Index:$offset, UnitAttr:$trans);
  let results = (outs VectorOfRankAndType<[1],
                        [F16, BF16, F32, F8E4M3FN, F8E5M2]>:$result);
  let assemblyFormat = [{
    $ptr `[` $offset `]` (`trans` $trans^)? attr-dict `:` type($ptr) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The number of 8x8 matrices loaded (32-bit registers per lane): 1,
    /// 2 or 4.
    int64_t getNumMatrices() {
      ::mlir::VectorType type = getResult().getType();
      return type.getNumElements() * type.getElementTypeBitWidth() / 32;
    }
  }];
}

def XKernel_MmaOp : XKernel_Op<"mma", [Pure, AllTypesMatch<["c", "result"]>]> {
  let summary = "a warp's 16x8xK matrix multiply-accumulate on tensor cores";
  let description = [{
    Every lane of the warp takes part, and together they compute
    `D = C + A B` with `A` 16xK, `B` Kx8 and `C`, `D` 16x8 in f32. With
    `g = lane / 4` and `t = lane % 4`, a lane holds:

    - 16-bit operands, `mma.sync.aligned.m16n8k16.row.col.f32.{bf16,f16}`
      (K = 16, lanes in pairs, one 32-bit register each):
      `a[i]` = `A[g + 8 ((i / 2) % 2)][2 t + i % 2 + 8 (i / 4)]`, i < 8;
      `b[i]` = `B[2 t + i % 2 + 8 (i / 2)][g]`, i < 4.
    - f32 operands, `mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32`
      (K = 8, TensorFloat-32): `a[i]` = `A[g + 8 (i % 2)][t + 4 (i / 2)]`,
      i < 4; `b[i]` = `B[t + 4 i][g]`, i < 2. The instruction reads the
      sign, exponent and top 10 mantissa bits of each operand: round them
      first with `xkernel.round_tf32`.
    - fp8 operands (f8E4M3FN or f8E5M2, both the same),
      `mma.sync.aligned.m16n8k32.row.col.f32.{e4m3,e5m2}.{e4m3,e5m2}.f32`
      (K = 32, four lanes per register, sm_89 and later):
      `a[i]` = `A[g + 8 ((i / 4) % 2)][4 t + i % 4 + 16 (i / 8)]`, i < 16;
      `b[i]` = `B[4 t + i % 4 + 16 (i / 4)][g]`, i < 8.
    - `c[i]`, `result[i]`: row `g + 8 (i / 2)`, column `2 t + i % 2`.

    Products of 16-bit, fp8 and tf32 values are exact in f32; the order of
    the sum over k is the hardware's (the CPU emulation adds k in sequence
    with fused multiply-adds).

    ```mlir
    %d = xkernel.mma %a, %b, %c : vector<8xbf16>, vector<4xbf16> -> vector<4xf32>
    %e = xkernel.mma %x, %y, %c : vector<4xf32>, vector<2xf32> -> vector<4xf32>
    ```
  }];
  let arguments = (ins VectorOfLengthAndType<[4, 8, 16],
                       [F16, BF16, F32, F8E4M3FN, F8E5M2]>:$a,
                   VectorOfLengthAndType<[2, 4, 8],
                       [F16, BF16, F32, F8E4M3FN, F8E5M2]>:$b,
                   VectorOfLengthAndType<[4], [F32]>:$c);
  let results = (outs VectorOfLengthAndType<[4], [F32]>:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $c attr-dict `:` type($a) `,` type($b) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The K of the instruction: 16 for 16-bit operands, 8 for tf32, 32
    /// for fp8: two 16-byte rows of one ldmatrix matrix.
    int64_t getK() {
      return 256 / getA().getType().getElementTypeBitWidth();
    }
  }];
}

def XKernel_RoundTf32Op : XKernel_Op<"round_tf32", [Pure]> {
  let summary = "round an f32 to TensorFloat-32 (10 mantissa bits)";
  let description = [{
    `cvt.rna.tf32.f32`: the nearest value with 10 mantissa bits (ties away
    from zero), as an f32 whose low 13 mantissa bits are zero; a NaN stays
    a NaN. This is the rounding of the operands of tf32 `xkernel.mma`.

    ```mlir
    %r = xkernel.round_tf32 %x
    ```
  }];
  let arguments = (ins F32:$value);
  let results = (outs F32:$result);
  let assemblyFormat = "$value attr-dict";
}

def XKernel_WgmmaOp : XKernel_Op<"wgmma", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    AllTypesMatch<["acc", "result"]>]> {
  let summary = "a warpgroup's 64xNxK multiply-accumulate on tensor cores, operands in shared memory";
  let description = [{
    `wgmma.mma_async.sync.aligned.m64nNk16.f32.{bf16,f16}`,
    `m64nNk8.f32.tf32` on f32 operands (each already rounded to tf32 by
    `cvt.rna.tf32.f32`; K-major only), or `m64nNk32.f32.{e4m3,e5m2}` on
    fp8 operands (`f8E4M3FN`, `f8E5M2`; K-major only) (sm_90a): the
    four warps of a warpgroup (threads `128 q` to `128 q + 127`) compute
    `D = acc + A B`, `A` 64xK and `B` KxN (K = 16, 8 on tf32, 32 on fp8:
    32 bytes of each row) with N = 2 x the accumulator's
    lanes (8 to 256, a multiple of 8), both read from shared memory through
    matrix descriptors made from `a[a_offset]` and `b[b_offset]`, in the
    128-byte swizzle layout: element `(r, k)` of A is at byte
    `(r / 8) 1024 + (r % 8) 128 + e k` from `a[a_offset]` (K-major; `e`
    the element's bytes). B is K-major too, element `(k, n)` at
    `(n / 8) 1024 + (n % 8) 128 + e k` from `b[b_offset]`, unless
    `n_major(P)` is given (16-bit only): then B is N-major in
    panels of 64 columns P bytes apart, element `(k, n)` at
    `(n / 64) P + (k / 8) 1024 + (k % 8) 128 + 2 (n % 64)` (the instruction
    transposes it: imm-trans-b; the descriptor's leading-dimension offset
    is P). Each address has its bits 4-6 XORed with its bits 7-9 (shared
    addresses; swizzle atoms of 1024 bytes are 1024-byte aligned). Lane
    `4 g + t` of warp `w` of the warpgroup holds `result[4 i + 2 h + j]`
    = `D[16 w + g + 8 h][8 i + 2 t + j]`.

    The instruction is asynchronous: `acc` must not have been written since
    the last `xkernel.wgmma_fence`, the operand tiles must be visible to
    the async proxy (`xkernel.fence_proxy_async` after generic writes), and
    the result is read only through `xkernel.wgmma_wait` after
    `xkernel.wgmma_commit`. The CPU emulation computes it at once, adding
    the K products in k order with fused multiply-adds.

    ```mlir
    %d = xkernel.wgmma %sa[%oa], %sb[%ob], %acc
        : !xkernel.ptr<bf16, shared>, !xkernel.ptr<bf16, shared>, vector<64xf32>
    %e = xkernel.wgmma %sa[%oa], %sb[%ob] n_major(8192), %acc
        : !xkernel.ptr<bf16, shared>, !xkernel.ptr<bf16, shared>, vector<64xf32>
    ```
  }];
  let arguments = (ins XKernel_Ptr:$a, Index:$a_offset, XKernel_Ptr:$b,
                   Index:$b_offset, OptionalAttr<I64Attr>:$b_panel_bytes,
                   VectorOfRankAndType<[1], [F32]>:$acc);
  let results = (outs VectorOfRankAndType<[1], [F32]>:$result);
  let assemblyFormat = [{
    $a `[` $a_offset `]` `,` $b `[` $b_offset `]`
    (`n_major` `(` $b_panel_bytes^ `)`)? `,` $acc attr-dict `:`
    type($a) `,` type($b) `,` type($acc)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// N of m64nNkK.
    int64_t getN() { return 2 * getAcc().getType().getNumElements(); }
    /// K of m64nNkK: 32 bytes of each row (16, 8 on tf32, 32 on fp8).
    int64_t getK() {
      return 256 / getA().getType().getElementType().getIntOrFloatBitWidth();
    }
  }];
}

def XKernel_WgmmaFenceOp : XKernel_Op<"wgmma_fence"> {
  let summary = "order a warpgroup's register and shared-memory accesses before wgmma";
  let description = [{
    `wgmma.fence.sync.aligned`: accumulators written, and shared memory
    written by this warpgroup, before it are seen by the `xkernel.wgmma`
    after it.
  }];
  let assemblyFormat = "attr-dict";
}

def XKernel_WgmmaCommitOp : XKernel_Op<"wgmma_commit"> {
  let summary = "close a group of a warpgroup's wgmma operations";
  let description = [{
    `wgmma.commit_group.sync.aligned`: the `xkernel.wgmma` issued since
    the last commit form one group, which `xkernel.wgmma_wait` waits for.
  }];
  let assemblyFormat = "attr-dict";
}

def XKernel_WgmmaWaitOp : XKernel_Op<"wgmma_wait", [AllTypesMatch<["values", "results"]>]> {
  let summary = "wait for a warpgroup's wgmma groups; their results become readable";
  let description = [{
    `wgmma.wait_group.sync.aligned pending`: returns once at most `pending`
    committed groups are still running. The accumulators the waited-for
    groups wrote are passed through: only the results are read after it.

    ```mlir
    %r = xkernel.wgmma_wait 0, %d : vector<64xf32>
    ```
  }];
  let arguments = (ins I64Attr:$pending,
                   Variadic<VectorOfRankAndType<[1], [F32]>>:$values);
  let results = (outs Variadic<VectorOfRankAndType<[1], [F32]>>:$results);
  let assemblyFormat = [{
    $pending (`,` $values^ `:` type($values))? attr-dict
  }];
}

def XKernel_FenceProxyAsyncOp : XKernel_Op<"fence_proxy_async"> {
  let summary = "make this thread's shared-memory writes visible to tensor-core reads";
  let description = [{
    `fence.proxy.async.shared::cta`: shared memory written through ordinary
    stores or cp.async before it is seen by asynchronous-proxy readers
    (`xkernel.wgmma`) after it (with a barrier between the threads).
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Bulk tensor copies (TMA) and mbarriers (sm_90)
//===----------------------------------------------------------------------===//

def XKernel_MbarrierInitOp : XKernel_Op<"mbarrier_init"> {
  let summary = "initialize an mbarrier in shared memory";
  let description = [{
    `mbarrier.init.shared::cta.b64` on the 8 bytes at `bar[offset]`, then
    `fence.mbarrier_init`: phase 0, `count` arrivals expected per phase, no
    transaction bytes. One thread initializes it; a `barrier` after it
    shows it to the others.

    ```mlir
    xkernel.mbarrier_init %bars[%i], 1 : !xkernel.ptr<i64, shared>
    ```
  }];
  let arguments = (ins XKernel_Ptr:$bar, Index:$offset, I64Attr:$count);
  let assemblyFormat = "$bar `[` $offset `]` `,` $count attr-dict `:` type($bar)";
  let hasVerifier = 1;
}

def XKernel_MbarrierExpectTxOp : XKernel_Op<"mbarrier_arrive_expect_tx"> {
  let summary = "expect bytes of bulk copies on an mbarrier, then arrive on it";
  let description = [{
    `mbarrier.arrive.expect_tx.shared::cta.b64`: the current phase also
    waits for `bytes` bytes of bulk copies (`xkernel.tma_load` naming the
    barrier), then this thread arrives. The phase completes once every
    expected arrival came and every expected byte landed.

    ```mlir
    xkernel.mbarrier_arrive_expect_tx %bars[%i], 16384 : !xkernel.ptr<i64, shared>
    ```
  }];
  let arguments = (ins XKernel_Ptr:$bar, Index:$offset, I64Attr:$bytes);
  let assemblyFormat = "$bar `[` $offset `]` `,` $bytes attr-dict `:` type($bar)";
  let hasVerifier = 1;
}

def XKernel_MbarrierArriveOp : XKernel_Op<"mbarrier_arrive"> {
  let summary = "arrive on an mbarrier";
  let description = [{
    `mbarrier.arrive.shared::cta.b64` (release, CTA scope): this thread
    arrives on the current phase of the barrier at `bar[offset]`; the phase
    completes with its last expected arrival (and bytes). What the thread
    did before (its reads of a stage, retired by `xkernel.wgmma_wait`) is
    ordered before what the threads waiting on the phase do after.

    ```mlir
    xkernel.mbarrier_arrive %bars[%i] : !xkernel.ptr<i64, shared>
    ```
  }];
  let arguments = (ins XKernel_Ptr:$bar, Index:$offset);
  let assemblyFormat = "$bar `[` $offset `]` attr-dict `:` type($bar)";
  let hasVerifier = 1;
}

def XKernel_SetMaxRegistersOp : XKernel_Op<"set_max_registers"> {
  let summary = "change the registers of this warpgroup (setmaxnreg, sm_90a)";
  let description = [{
    `setmaxnreg.inc.sync.aligned.u32` or `setmaxnreg.dec.sync.aligned.u32`:
    every thread of the warpgroup executing it goes to `count` registers
    (24 to 256, a multiple of 8), returning registers to the block's pool
    (`decrease`) or taking them from it (`increase`, which waits until the
    pool has them). A warp-specialized kernel's producer warpgroup, which
    only issues copies, gives its registers to the consumers, which hold
    the accumulators.

    ```mlir
    xkernel.set_max_registers decrease 40
    xkernel.set_max_registers increase 232
    ```
  }];
  let arguments = (ins UnitAttr:$increase, I64Attr:$count);
  let assemblyFormat = "(`increase` $increase^) : (`decrease`)? $count attr-dict";
  let hasVerifier = 1;
}

def XKernel_MbarrierWaitOp : XKernel_Op<"mbarrier_wait"> {
  let summary = "wait until an mbarrier's phase of a parity completed";
  let description = [{
    Loops on `mbarrier.try_wait.parity.shared::cta.b64` until the phase of
    `parity` (0 or 1: the phase's number modulo 2) of the barrier at
    `bar[offset]` has completed. What the bulk copies of that phase wrote is
    then visible to this thread, and to tensor-core reads (both are the
    async proxy).

    ```mlir
    xkernel.mbarrier_wait %bars[%i], %parity : !xkernel.ptr<i64, shared>
    ```
  }];
  let arguments = (ins XKernel_Ptr:$bar, Index:$offset, Index:$parity);
  let assemblyFormat = "$bar `[` $offset `]` `,` $parity attr-dict `:` type($bar)";
  let hasVerifier = 1;
}

def XKernel_TmaLoadOp : XKernel_Op<"tma_load"> {
  let summary = "start a bulk tensor copy of a box into shared memory (TMA)";
  let description = [{
    `cp.async.bulk.tensor.Nd.shared::cluster.global.mbarrier::complete_tx::bytes`:
    copies the box of the tensor map at `map` (128 bytes in global memory,
    made on the host by `xkernel.tensor_map`) whose first element is at
    `coords` (outermost first, one per dimension of the map's tensor) into
    shared memory from `dst[dst_offset]` (128-byte aligned), in the map's
    swizzle, elements outside the tensor read as zero. Its bytes complete
    on the mbarrier at `bar[bar_offset]`, whose phase must expect them
    (`xkernel.mbarrier_arrive_expect_tx`); they are read only after
    `xkernel.mbarrier_wait` on that phase.

    ```mlir
    xkernel.tma_load %map[%r, %c] to %s[%o] barrier %bars[%i]
        : !xkernel.ptr<i8, global>, !xkernel.ptr<bf16, shared>, !xkernel.ptr<i64, shared>
    ```
  }];
  let arguments = (ins XKernel_Ptr:$map, Variadic<I32>:$coords,
                   XKernel_Ptr:$dst, Index:$dst_offset, XKernel_Ptr:$bar,
                   Index:$bar_offset);
  let assemblyFormat = [{
    $map `[` $coords `]` `to` $dst `[` $dst_offset `]` `barrier` $bar `[`
    $bar_offset `]` attr-dict `:` type($map) `,` type($dst) `,` type($bar)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// The host side
//===----------------------------------------------------------------------===//

def XKernel_ProgramOp : XKernel_Op<"program", [
    Symbol, IsolatedFromAbove, SingleBlock, NoTerminator]> {
  let summary = "the host side of a graph: its buffers and launches in order";
  let description = [{
    Block arguments are the graph's buffers in device memory, `num_inputs`
    inputs then the outputs; `xkernel.alloc` makes temporaries. The body
    launches kernels in order on one stream.

    ```mlir
    xkernel.program @rmsnorm(%x: memref<4096x4096xf32>, %w: memref<4096xf32>)
        -> (%y: memref<4096x4096xf32>) {
      xkernel.launch @rmsnorm_mul_2(%x, %w, %y) grid [4096, 1, 1]
          block [256, 1, 1] shared 0
          : memref<4096x4096xf32>, memref<4096xf32>, memref<4096x4096xf32>
    }
    ```

    A program over dynamic sizes takes them after its buffers, declared
    with their ranges as a kernel's are, and named by `size_names` (the
    function's symbols, sorted): entry points take the sizes in that
    order, and a size outside its range is an error at run time.

    ```mlir
    xkernel.program @rms_norm[%T = 1 to 4096](%x: memref<?x512xf32> [%T], %w: memref<512xf32>)
        -> (%y: memref<?x512xf32> [%T]) attributes {size_names = ["T"]} {
      xkernel.launch @rms_norm_mul_4(%x, %w, %y) sizes(%T) grid [4096, 1, 1]
          map affine_map<()[s0] -> (s0)> block [128, 1, 1] shared 0
          : memref<?x512xf32>, memref<512xf32>, memref<?x512xf32>
    }
    ```

    `in_place` has an entry per output: the index of the input whose
    buffer the output is (the caller passes the same pointer for both,
    and finds the result there), or -1. The function's arguments marked
    `xtensor.in_place` become these; kernels update the input's buffer,
    or the output is copied there after the last launch.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, I64Attr:$num_inputs,
                   DefaultValuedAttr<I64Attr, "0">:$num_sizes,
                   OptionalAttr<DenseI64ArrayAttr>:$size_ranges,
                   OptionalAttr<DenseI64ArrayAttr>:$buffer_dims,
                   OptionalAttr<StrArrayAttr>:$size_names,
                   OptionalAttr<DenseI64ArrayAttr>:$in_place);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name,
                                 "int64_t":$numInputs), [{
    build($_builder, $_state, name, numInputs, /*num_sizes=*/0, nullptr,
          nullptr, nullptr, nullptr);
  }]>];
  let extraClassDeclaration = [{
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    /// The dynamic sizes, after the buffers.
    ::llvm::ArrayRef<::mlir::BlockArgument> getSizes() {
      return getBodyBlock().getArguments().take_back(getNumSizes());
    }
    /// The buffers, inputs then outputs.
    ::llvm::ArrayRef<::mlir::BlockArgument> getBuffers() {
      return getBodyBlock().getArguments().drop_back(getNumSizes());
    }
    /// The values of the dynamic sizes of `buffer` (a buffer of the
    /// program or a temporary), in order.
    ::llvm::SmallVector<::mlir::Value> getBufferSizes(::mlir::Value buffer);
  }];
}

def XKernel_AllocOp : XKernel_Op<"alloc", [HasParent<"ProgramOp">]> {
  let summary = "a temporary buffer of a program";
  let description = [{
    Lives in device memory until the program ends.

    ```mlir
    %t = xkernel.alloc : memref<8x64xf32>
    %u = xkernel.alloc(%T) : memref<?x64xf32>
    ```

    Its dynamic sizes are the values of its type's `?`s, in order.
  }];
  let arguments = (ins Variadic<Index>:$dynamic_sizes);
  let results = (outs AnyMemRef:$result);
  let assemblyFormat = "(`(` $dynamic_sizes^ `)`)? attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def XKernel_TensorMapOp : XKernel_Op<"tensor_map", [HasParent<"ProgramOp">]> {
  let summary = "a TMA tensor map of a buffer, made on the host";
  let description = [{
    128 bytes of device memory holding the tensor map (`CUtensorMap`) that
    `cuTensorMapEncodeTiled` makes of `source`: its shape and row-major
    strides (the dynamic sizes at run time), boxes of `box` elements
    (outermost first, one per dimension, 1 to 256 each, the innermost a
    multiple of 16 bytes and, when swizzled, at most `swizzle` bytes),
    `swizzle` 0, 32, 64 or 128 bytes, elements outside the tensor read as
    zero. A kernel takes it as a pointer argument (`xkernel.tma_load`).

    ```mlir
    %m = xkernel.tensor_map %x box [64, 64] swizzle 128
        : memref<100x96xbf16> -> memref<128xi8>
    ```
  }];
  let arguments = (ins AnyMemRef:$source, DenseI64ArrayAttr:$box,
                   I64Attr:$swizzle);
  let results = (outs MemRefRankOf<[I8], [1]>:$result);
  let assemblyFormat = [{
    $source `box` $box `swizzle` $swizzle attr-dict `:` type($source) `->`
    type($result)
  }];
  let builders = [OpBuilder<(ins "::mlir::Value":$source,
                                 "::llvm::ArrayRef<int64_t>":$box,
                                 "int64_t":$swizzle), [{
    build($_builder, $_state,
          ::mlir::MemRefType::get({128}, $_builder.getI8Type()), source,
          box, swizzle);
  }]>];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The map's CUtensorMapDataType: UINT8 0, UINT16 1, UINT32 2, INT32 3,
    /// UINT64 4, INT64 5, FLOAT16 6, FLOAT32 7, FLOAT64 8, BFLOAT16 9.
    int getDataType();
  }];
}

def XKernel_CopyOp : XKernel_Op<"copy", [HasParent<"ProgramOp">,
    AllTypesMatch<["source", "target"]>]> {
  let summary = "copy a buffer of a program to another";
  let description = [{
    A device-to-device copy on the program's stream: how a program returns
    one of its inputs, or the same value twice.

    ```mlir
    xkernel.copy %x to %y : memref<4096xf32>
    ```
  }];
  let arguments = (ins AnyMemRef:$source, AnyMemRef:$target);
  let assemblyFormat = "$source `to` $target attr-dict `:` type($source)";
}

def XKernel_LaunchOp : XKernel_Op<"launch", [
    HasParent<"ProgramOp">, AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "launch a kernel on the program's stream";
  let description = [{
    Runs `kernel` on a grid of blocks, each of `block` threads with `shared`
    bytes of dynamic shared memory; the buffers become the kernel's
    pointer arguments, in order.

    ```mlir
    xkernel.launch @k(%x, %y) grid [4096, 1, 1] block [256, 1, 1] shared 0
        : memref<4096x4096xf32>, memref<4096x4096xf32>
    ```

    A kernel over dynamic sizes takes them after its buffers (`sizes`), and
    its grid is `map`, an affine map of no dimensions whose symbols are the
    sizes, evaluated at launch (one to three results; the others are 1).
    `grid` is then the grid at the sizes' maxima.

    ```mlir
    xkernel.launch @k(%x, %y) sizes(%T) grid [4096, 1, 1]
        map affine_map<()[s0] -> (s0)> block [256, 1, 1] shared 0
        : memref<?x512xf32>, memref<?x512xf32>
    ```

    `when` (a minimum and a maximum per size, in order) runs the launch
    only where every size is within its range, and skips it elsewhere: one
    launch per bucket of a kernel that `--xtile-select-schedule` compiled
    under different schedules for parts of a size's range (`grid` is then
    the grid at the maxima of `when`).

    ```mlir
    xkernel.launch @k(%x, %y) sizes(%T) when [1, 15] grid [4, 1, 1]
        map affine_map<()[s0] -> (s0 ceildiv 4)> block [128, 1, 1] shared 0
        : memref<?x512xf32>, memref<?x512xf32>
    xkernel.launch @k_b1(%x, %y) sizes(%T) when [16, 4096] grid [64, 1, 1]
        map affine_map<()[s0] -> (s0 ceildiv 64)> block [256, 1, 1] shared 0
        : memref<?x512xf32>, memref<?x512xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$kernel, DenseI64ArrayAttr:$grid,
                   DenseI64ArrayAttr:$block,
                   DefaultValuedAttr<I64Attr, "0">:$shared,
                   Variadic<AnyMemRef>:$buffers,
                   Variadic<Index>:$sizes,
                   OptionalAttr<AffineMapAttr>:$grid_map,
                   OptionalAttr<DenseI64ArrayAttr>:$when);
  let assemblyFormat = [{
    $kernel `(` $buffers `)` (`sizes` `(` $sizes^ `)`)? (`when` $when^)?
    `grid` $grid (`map` $grid_map^)? `block` $block `shared` $shared
    attr-dict `:` type($buffers)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The grid at `sizes` (values of the launch's sizes), three
    /// dimensions.
    ::llvm::SmallVector<int64_t, 3> getGridAt(::llvm::ArrayRef<int64_t> sizes);
    /// Whether the launch runs at `sizes` (each within its `when` range).
    bool runsAt(::llvm::ArrayRef<int64_t> sizes);
  }];
}

#endif // XTILE_DIALECT_KERNEL_IR_KERNELOPS_TD
