//===- TileAttributes.td - xtile attributes ---------------*- tablegen -*-===//
//
// The target GPU and the schedules of Tile IR kernels: typed attributes
// behind one interface, chosen by --xtile-select-schedule (or a tuned spec)
// and applied by --convert-xloop-to-xtile.
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_DIALECT_TILE_IR_TILEATTRIBUTES_TD
#define XTILE_DIALECT_TILE_IR_TILEATTRIBUTES_TD

include "xtile/Dialect/Tile/IR/TileBase.td"

def XTile_TargetAttr : AttrDef<XTile_Dialect, "Target"> {
  let mnemonic = "target";
  let summary = "the GPU a kernel is scheduled for";
  let description = [{
    Everything the schedule selection and its cost model know about a GPU:
    its architecture, the number of SMs, the largest block, shared memory
    per block (bytes, the most a block can opt into), registers per SM,
    device-memory bandwidth (GB/s) and L2 size (bytes); then the occupancy
    limits (threads and blocks resident per SM, registers per thread), the
    FP32 FMA throughput (GFLOP/s, the pipes `xtile.dot` runs on), the L2
    bandwidth (GB/s), the device-memory latency (ns) that the grid's
    bytes in flight must cover, and the SM clock (MHz) at which each SM
    issues 128 thread-instructions and 16 special-function operations per
    cycle, and the dense f16/bf16 tensor-core throughput reached through
    `mma.sync` and through `wgmma` (GFLOP/s, f32 accumulation). The last
    nine may be omitted; they then take the sm_90 values (sm_90 has no
    wgmma: its architecture-specific form sm_90a has). Built in: sm_80,
    sm_90 and sm_90a (sm_90 with wgmma). `TargetAttr::getBuiltin(ctx, "sm_90")` (H100/H200
    class) and `"sm_80"` (A100) are built in, from the vendors' published
    figures.

    ```mlir
    #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024,
                  shared_memory = 232448, registers = 65536,
                  bandwidth = 3350, l2 = 52428800>
    ```
  }];
  let parameters = (ins StringRefParameter<"architecture">:$arch,
      "int64_t":$sms, "int64_t":$max_threads,
      "int64_t":$shared_memory, "int64_t":$registers,
      "int64_t":$bandwidth, "int64_t":$l2,
      DefaultValuedParameter<"int64_t", "2048",
          "threads resident per SM">:$max_threads_per_sm,
      DefaultValuedParameter<"int64_t", "32",
          "blocks resident per SM">:$max_blocks_per_sm,
      DefaultValuedParameter<"int64_t", "255",
          "registers one thread may use">:$max_registers_per_thread,
      DefaultValuedParameter<"int64_t", "67000",
          "FP32 FMA throughput, GFLOP/s">:$fp32_gflops,
      DefaultValuedParameter<"int64_t", "10050",
          "L2 bandwidth, GB/s">:$l2_bandwidth,
      DefaultValuedParameter<"int64_t", "600",
          "device-memory latency, ns">:$memory_latency,
      DefaultValuedParameter<"int64_t", "1980",
          "SM clock, MHz">:$clock_mhz,
      DefaultValuedParameter<"int64_t", "660000",
          "dense f16/bf16 tensor-core throughput through mma.sync (f32 "
          "accumulation), GFLOP/s; 0 without tensor cores">:$mma_sync_gflops,
      DefaultValuedParameter<"int64_t", "0",
          "dense f16/bf16 tensor-core throughput through wgmma (f32 "
          "accumulation), GFLOP/s; 0 without wgmma">:$wgmma_gflops);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The built-in description of `arch` (sm_90, sm_90a, sm_80), or null.
    static TargetAttr getBuiltin(::mlir::MLIRContext *ctx,
                                 ::llvm::StringRef arch);
  }];
}

def XTile_ScheduleAttrInterface : AttrInterface<"ScheduleAttrInterface"> {
  let cppNamespace = "::xtile::tile";
  let description = [{
    The schedule of a kernel: how its programs run on the GPU. Every
    schedule says how many warps run a program, how many adjacent elements
    a thread accesses at once, how deep its loads are pipelined, and what it
    needs of the target for a kernel of a given shape (threads, registers
    per thread, shared memory), so that the selection never proposes, and
    the verifier never accepts, a schedule the target cannot run.
  }];
  let methods = [
    InterfaceMethod<"Warps that run each program.", "int64_t", "getNumWarps">,
    InterfaceMethod<"Elements of a vector access (1: scalar accesses).",
                    "int64_t", "getVectorWidth">,
    InterfaceMethod<"Pipeline stages of the loads (1: not pipelined).",
                    "int64_t", "getNumStages">,
    InterfaceMethod<"What the schedule needs of the target on a kernel of "
                    "this shape.", "::xtile::tile::ScheduleNeeds", "getNeeds",
                    (ins "const ::xtile::tile::ScheduleShape &":$shape)>,
  ];
}

def XTile_AnySchedule : Attr<
    CPred<"::llvm::isa<::xtile::tile::ScheduleAttrInterface>($_self)">,
    "a schedule (an attribute of ScheduleAttrInterface)"> {
  let storageType = "::xtile::tile::ScheduleAttrInterface";
  let returnType = "::xtile::tile::ScheduleAttrInterface";
  let convertFromStorage = "$_self";
}

def XTile_RowScheduleAttr : AttrDef<XTile_Dialect, "RowSchedule",
    [DeclareAttrInterfaceMethods<XTile_ScheduleAttrInterface,
                                 ["getNumWarps", "getVectorWidth",
                                  "getNumStages", "getNeeds"]>]> {
  let mnemonic = "row_schedule";
  let summary = "schedule of a row kernel: one program per row";
  let description = [{
    A row kernel (norms, softmax, elementwise and reduction kernels) runs
    one program of `warps` warps per row, its columns a tile. Each fold runs
    with `strategy` (`serial`: one thread in order; `warp`: shuffles;
    `block`: shuffles then shared memory; `split`: see `ways`); threads
    access `vector` adjacent elements at once (at most 16 bytes). A
    `chunk` (a power of two) processes rows longer than one tile in chunks
    of that many columns, the next chunk's loads pipelined behind the
    current one's work (two stages). `ways` (with `split` only) splits each
    row over that many programs whose partial results a second kernel
    combines; with a `chunk` too, each way loops over chunks of its share
    of the row, computed at run time (a row of a dynamic length).

    ```mlir
    #xtile.row_schedule<block, warps = 8, vector = 4>
    #xtile.row_schedule<block, warps = 16, vector = 4, chunk = 4096>
    #xtile.row_schedule<split, warps = 8, vector = 4, ways = 16>
    #xtile.row_schedule<split, warps = 8, vector = 1, chunk = 1024, ways = 64>
    ```
  }];
  let parameters = (ins EnumParameter<XTile_FoldStrategy>:$strategy,
                        "int64_t":$warps, "int64_t":$vector,
                        DefaultValuedParameter<"int64_t", "0">:$chunk,
                        DefaultValuedParameter<"int64_t", "0">:$ways);
  let assemblyFormat = "`<` $strategy `,` struct($warps, $vector, $chunk, $ways) `>`";
  let genVerifyDecl = 1;
}

def XTile_ColumnScheduleAttr : AttrDef<XTile_Dialect, "ColumnSchedule",
    [DeclareAttrInterfaceMethods<XTile_ScheduleAttrInterface,
                                 ["getNumWarps", "getVectorWidth",
                                  "getNumStages", "getNeeds"]>]> {
  let mnemonic = "column_schedule";
  let summary = "schedule of a column reduction: blocks of adjacent rows per program";
  let description = [{
    A row kernel whose folds run down the columns of its buffers (a sum
    over the tokens of a `[tokens, hidden]` tensor: a weight or bias
    gradient, a mean over the batch), where its innermost row walks the
    buffers' last, contiguous dimension. One program of `warps` warps takes
    `block` adjacent rows of the kernel (outputs adjacent in memory); its
    folds step down the fold's length `chunk` iterations at a time, each
    step a `[chunk, block]` tile whose threads access `vector` adjacent
    elements of a row at once (coalesced, as a row kernel's columns are).
    Each thread combines its elements of every step in registers (the
    next step's loads pipelined, two stages); a single fold of the
    `[chunk, block]` accumulator over its first dimension (through shared
    memory) ends each fold. Block and chunk are powers of two; the grid is
    one program per block of rows (the last masked when ragged).

    `ways` > 1 (folds that do not use each other's results) splits each
    fold's length over that many programs per block, each folding whole
    chunks of its share, ceil(length / (chunk x ways)) x chunk (computed
    at run time over a dynamic length; a way past the end folds none),
    into `[rows, ways, block]`-shaped partial results that a second
    kernel combines down the ways before the rest of the row body: what
    a few blocks of rows over a long fold (a bias gradient of 768
    features over 16k tokens) need to fill the GPU.

    ```mlir
    #xtile.column_schedule<warps = 4, vector = 4, block = 128, chunk = 32>
    #xtile.column_schedule<warps = 8, vector = 4, block = 32, chunk = 128, ways = 8>
    ```
  }];
  let parameters = (ins "int64_t":$warps, "int64_t":$vector,
                        "int64_t":$block, "int64_t":$chunk,
                        DefaultValuedParameter<"int64_t", "1">:$ways);
  let assemblyFormat = "`<` struct($warps, $vector, $block, $chunk, $ways) `>`";
  let genVerifyDecl = 1;
}

def XTile_DotScheduleAttr : AttrDef<XTile_Dialect, "DotSchedule",
    [DeclareAttrInterfaceMethods<XTile_ScheduleAttrInterface,
                                 ["getNumWarps", "getVectorWidth",
                                  "getNumStages", "getNeeds"]>]> {
  let mnemonic = "dot_schedule";
  let summary = "schedule of a contraction kernel: one program per output tile";
  let description = [{
    A contraction kernel (matmul, batched matmul, linear layers with their
    epilogues) runs one program of `warps` warps per `[block_m, block_n]`
    tile of the output, stepping over K by `block_k` with its operand tiles
    loaded `stages` iterations ahead (1: not pipelined) into shared memory.
    Block sizes are powers of two.

    `instruction` says what the multiply-adds run on: `fma`, the FP32 FMA
    pipes (every operand type; the default), or `mma_sync`, tensor cores
    through `mma.sync.m16n8k16` (f16 or bf16 operands, f32 accumulation,
    sm_80 and later). With `mma_sync` the warps form a `warps_m` x
    (`warps` / `warps_m`) grid over the output tile; each warp owns a
    `block_m / warps_m` x `block_n / (warps / warps_m)` sub-tile, a multiple
    of 16 x 16, and `block_k` is a multiple of 16. Operand tiles are staged
    in shared memory in a swizzled layout and read with `ldmatrix`. With
    `wgmma` (sm_90a), each warpgroup of 4 warps computes 64 or 128 rows
    (one or two blocks of 64) of the output tile with
    `wgmma.mma_async.m64nNk16` (N = `block_n`), both operands read from
    shared memory (128-byte swizzle; A K-major, B K-major or N-major):
    `warps_m` equals `warps`, `block_m` is 16 x `warps` or 32 x `warps`
    and `block_k` is 64 (32 with `tf32`).

    `tf32 = true` runs a dot on f32 operands on tensor cores with
    `mma_sync` (`mma.sync.m16n8k8` on TensorFloat-32) or `wgmma`
    (`wgmma.mma_async.m64nNk8` on tf32, both operands K-major): each
    operand is rounded to 10 mantissa bits (to nearest, ties away from
    zero), the products are exact and accumulated in f32. It changes results (about
    f16's precision on the operands), so the schedule space proposes it
    only when asked (`allow-tf32`, as `torch.backends.cuda.matmul.
    allow_tf32` asks PyTorch); without it f32 dots stay exact on FMA.

    `warp_specialized = true` (wgmma, 2 or more stages) adds a producer
    warpgroup to the `warps` warps, which then only consume: one of its
    threads issues the bulk tensor copies (TMA) of every stage as soon as
    the consumers release it (an "empty" mbarrier per stage beside the
    "full" one the copies complete on), after giving its registers to the
    consumers (`setmaxnreg`); the consumers wait for a stage, run its
    wgmma and release the stage the group before read, with no barrier of
    the whole block in the K loop, and run the epilogue among themselves
    (named barriers). A kernel the Kernel IR lowering cannot split so (its
    operands not brought in by TMA, or work before its K loop that touches
    memory) runs without the producer warpgroup.

    `ways` (attention only, default 1) splits the key axis over that many
    programs per block of query rows: each folds its share of the keys
    into a partial (maximum, sum, accumulator) and a second kernel
    combines the partials by rescaling, then runs the epilogue
    (flash-decoding: a few query rows against many keys still fill the
    device).

    ```mlir
    #xtile.dot_schedule<block_m = 128, block_n = 64, block_k = 32, stages = 3, warps = 4>
    #xtile.dot_schedule<block_m = 128, block_n = 128, block_k = 32, stages = 3, warps = 8, instruction = mma_sync, warps_m = 2>
    #xtile.dot_schedule<block_m = 128, block_n = 256, block_k = 64, stages = 4, warps = 8, instruction = wgmma, warps_m = 8>
    #xtile.dot_schedule<block_m = 128, block_n = 256, block_k = 64, stages = 4, warps = 8, instruction = wgmma, warps_m = 8, warp_specialized = true>
    #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 3, warps = 4, instruction = mma_sync, warps_m = 2, tf32 = true>
    #xtile.dot_schedule<block_m = 1, block_n = 128, block_k = 64, stages = 1, warps = 4, ways = 16>
    ```
  }];
  let parameters = (ins "int64_t":$block_m, "int64_t":$block_n,
                        "int64_t":$block_k, "int64_t":$stages,
                        "int64_t":$warps,
                        DefaultValuedParameter<"::xtile::tile::DotInstruction",
                            "::xtile::tile::DotInstruction::fma">:$instruction,
                        DefaultValuedParameter<"int64_t", "1">:$warps_m,
                        DefaultValuedParameter<"bool", "false">:$tf32,
                        DefaultValuedParameter<"int64_t", "1">:$ways,
                        DefaultValuedParameter<"bool", "false">:$warp_specialized);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The sub-tile of the output one warp computes (mma_sync).
    int64_t getWarpTileM() const;
    int64_t getWarpTileN() const;
  }];
}

def XTile_PipelineAttr : AttrDef<XTile_Dialect, "Pipeline"> {
  let mnemonic = "pipeline";
  let summary = "how a loop over K is software-pipelined";
  let description = [{
    Set on an `scf.for` of a Tile IR kernel by --xtile-plan-pipelines (as
    `xtile.pipeline`): the loads marked `xtile.async_copy` in its body are
    copied into `stages` buffers in shared memory ahead of the iteration
    that reads them. With `overlap`, each iteration leaves its wgmma group
    in flight while the next one waits for its tiles (every operand of the
    loop's dots is copied, and each dot accumulates into a value only it
    reads); with `warp_specialized`, the kernel splits here into a producer
    warpgroup that issues the copies and the consumers that run the dots.
    The Kernel IR lowering checks that the loop admits what is asked.

    ```mlir
    scf.for %k = %c0 to %c4096 step %c64 iter_args(%acc = %zero) -> ... {
      ...
    } {xtile.pipeline = #xtile.pipeline<stages = 4, overlap = true>}
    ```
  }];
  let parameters = (ins "int64_t":$stages,
      DefaultValuedParameter<"bool", "false">:$overlap,
      DefaultValuedParameter<"bool", "false">:$warp_specialized);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def XTile_AsyncCopyAttr : AttrDef<XTile_Dialect, "AsyncCopy"> {
  let mnemonic = "async_copy";
  let summary = "a dot operand's load copied into shared memory ahead of use";
  let description = [{
    Set on an `xtile.load` in the body of a pipelined loop (as
    `xtile.async_copy`): its tile comes into shared memory by asynchronous
    copies of `group` elements each (cp.async), row by row or, with
    `transposed`, column by column; or, with `tma_box`, by TMA copies of
    that box of the buffer staged with a `swizzle`-byte swizzle (0: none).

    ```mlir
    %b = xtile.load %w[%rows, %cols] ... {xtile.async_copy =
        #xtile.async_copy<group = 8, tma_box = [64, 64],
                          swizzle = 128>}
    ```
  }];
  let parameters = (ins "int64_t":$group,
      DefaultValuedParameter<"bool", "false">:$transposed,
      OptionalParameter<"::mlir::DenseI64ArrayAttr">:$tma_box,
      DefaultValuedParameter<"int64_t", "0">:$swizzle);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // XTILE_DIALECT_TILE_IR_TILEATTRIBUTES_TD
