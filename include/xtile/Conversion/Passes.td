//===- Passes.td - xtile conversion passes ----------------*- tablegen -*-===//

#ifndef XTILE_CONVERSION_PASSES_TD
#define XTILE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertLinalgToXTensor : Pass<"convert-linalg-to-xtensor", "::mlir::ModuleOp"> {
  let summary = "Convert linalg-on-tensors (and the tensor ops around it) to Tensor IR";
  let description = [{
    Brings programs from other front ends (torch-mlir, IREE's input, JAX
    through StableHLO) into xtile: every linalg op on static tensors becomes
    Tensor IR, which then decomposes, normalizes, fuses and is scheduled
    like our importer's output. See docs/TensorIR.md for the rules; in
    short:

    - contractions (`linalg.matmul`, `batch_matmul`, `matvec`, and any
      `linalg.generic` that is one: a product summed over its reduction
      dims) become one `xtensor.matmul` with the transposes and reshapes
      that bring their batch, M, N and K dims in order;
    - every other structured op (`linalg.generic`, `map`, `reduce`,
      `fill`, `transpose`, `broadcast`, `copy` and the elementwise named
      ops) with projected-permutation indexing maps is evaluated on whole
      tensors: each input is transposed, reshaped and broadcast onto the
      iteration space, its payload's `arith`/`math` ops become the
      matching `xtensor` ops, and a payload that combines an output with
      `addf`, `mulf`, `maximumf`, `minimumf` (or their integer forms) is a
      reduction over the reduction dims; a payload's `tensor.extract` of a
      tensor from outside at computed indices (an embedding lookup) is an
      `xtensor.gather` from it flattened (its `cf.assert` bounds checks are
      dropped);
    - `tensor.empty` (an undefined tensor) becomes zeros, which only a
      reduction's init could read: that init is then the identity;
      `expand_shape`/`collapse_shape` reshape, `extract_slice` slices,
      `pad` with a constant pads, `concat` concatenates, a static
      `tensor.cast` disappears;
    - `linalg.conv_2d_nchw_fchw` and `conv_2d_nhwc_hwcf` on floats are
      the contraction over the input's patches (im2col: one
      `xtensor.gather`, then one `xtensor.matmul`), plus the init unless it
      is zero.

    What it cannot take (dynamic shapes, non-permutation maps, a payload
    op without an `xtensor` twin such as the NaN-ignoring `maxnumf`, other
    ops of linalg and tensor) is an error at the op that names it.
  }];
  let dependentDialects = ["::xtile::tensor::XTensorDialect"];
}

def ConvertTosaToXTensor : Pass<"convert-tosa-to-xtensor", "::mlir::ModuleOp"> {
  let summary = "Convert the TOSA ops of inference graphs to Tensor IR";
  let description = [{
    TOSA ops are atomic, as Tensor IR's are: each becomes its twin.
    Elementwise ops (`add`, `sub`, `mul` without shift, `maximum`,
    `minimum`, `pow`, `exp`, `log`, `tanh`, `sigmoid`, `rsqrt`,
    `reciprocal`, `abs`, `negate`, `erf`, `sin`, `cos`, `floor`, `ceil`,
    `clamp`, the logical ops, `equal`, `greater`, `greater_equal`, `select`,
    `cast`) with TOSA's implicit broadcasting of unit dims made explicit;
    `reduce_sum`, `reduce_max`, `reduce_min`, `reduce_product`,
    `reduce_any`, `reduce_all` (keeping the dim, as TOSA does); `reshape`,
    `transpose`, `slice`, `pad`, `concat` (shapes read from their
    `tosa.const_shape`); `matmul` (batched, zero points zero); `gather`
    (one `xtensor.gather` along the flattened batch of values); `conv2d`
    on floats (the padded input's patches gathered into rows, im2col, times
    the weight in one `xtensor.matmul`, plus the bias; 16-bit types
    accumulate in f32 and round once); `const`; `identity`. Anything else
    (integer quantized arithmetic, other convolutions, `table`) is an error
    at the op naming it.
  }];
  let dependentDialects = ["::xtile::tensor::XTensorDialect"];
}

def ConvertXTensorToXLoop : Pass<"convert-xtensor-to-xloop", "::mlir::ModuleOp"> {
  let summary = "Lower Tensor IR to Loop IR, one kernel per op";
  let description = [{
    Every atomic xtensor op becomes a kernel of its own (`xloop.kernel`,
    inserted before its function) and a launch of it in place of the op.
    Each kernel is in *pointwise form*: a perfect nest of `xloop.parallel`
    loops over the result's dimensions whose innermost body computes one
    result element and stores it, which is the form `--xloop-fuse` inlines.
    Reductions and matmuls compute their element with `xloop.fold` loops;
    f16 and bf16 sums, products and matmuls accumulate in f32. Movement ops
    are index arithmetic (`affine.apply`) on loads. Splat constants become
    scalar constants inside the kernels that use them; other constants
    become `arith.constant` tensors, inputs of their kernels.

    Composite ops must be decomposed first (`--xtensor-decompose`); any
    xtensor op left is an error at its location.
  }];
  let dependentDialects = [
    "::xtile::loop::XLoopDialect", "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect", "::mlir::affine::AffineDialect"];
}

def XTileSelectSchedule : Pass<"xtile-select-schedule", "::mlir::ModuleOp"> {
  let summary = "Choose a schedule for every Loop IR kernel that has none";
  let description = [{
    For each `xloop.kernel` without an `xtile.schedule`, enumerates the
    candidate schedules for the target (none of which exceeds its threads,
    registers or shared memory), prices each with the cost model and sets
    the cheapest as the kernel's `xtile.schedule`. A kernel that already has
    one (from the input, or from `--xtile-apply-schedule-spec`) keeps it:
    that is the hook for tuners.

    Row kernels (norms, softmax, elementwise and reduction kernels) get a
    `#xtile.row_schedule`: a fold strategy (serial, warp or block), warps
    per program and elements per vector access (up to 16 bytes); for rows
    longer than 4096, a loop over chunks of the row with its loads
    pipelined; for few rows with independent folds, a split of each row
    over several programs. Column reductions (folds down the columns of
    buffers whose rows are contiguous: weight and bias gradients) also get
    `#xtile.column_schedule` candidates: blocks of adjacent rows per program,
    stepping down the columns in coalesced tiles. Contraction kernels get a `#xtile.dot_schedule`:
    block sizes in {32, 64, 128} (K: {32, 64}), 1 to 4 stages, 4 or 8 warps.

    `cost-model` names the model (`analytic`: see CostModel.h; every
    hardware number it uses is a field of `#xtile.target`). `report=FILE`
    writes every kernel's facts, candidates, estimates and choice as JSON
    (`-` for stdout); `remarks` emits the choice of each kernel as a remark.
    `force=<schedule>` (a schedule in attribute syntax) is used for every
    kernel of its kind (row or contraction; a column schedule for every
    column reduction), for tests.

    A kernel over one dynamic size is priced at sizes across its range
    (powers of two, their midpoints and the range's ends), not only at its
    hint. Where the schedule chosen at the hint costs more than
    `bucket-tolerance` times the best at some of them, the range is cut
    into buckets, consecutive sub-ranges each served by one schedule
    within that tolerance at each of its sizes (the fewest, greedily from
    the smallest size): the kernel keeps the first and its copies
    (`<name>_b1`, ...) declare the others, and every `xloop.launch` of it
    names them (`buckets`), to be switched on the size at run time.
    Each bucket is a kernel to compile: where more than `max-buckets` would
    be needed, the range is split into that many with the lowest worst
    cost over the best (by dynamic programming over the priced sizes).
    `buckets=false` keeps one schedule per kernel.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"sm_90\"",
           "GPU to schedule for (sm_90, sm_90a or sm_80)">,
    Option<"costModel", "cost-model", "std::string", /*default=*/"\"analytic\"",
           "Cost model that prices the candidates (analytic)">,
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "Write the candidates and choices as JSON to this file (- for stdout)">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit each kernel's choice as a remark">,
    Option<"force", "force", "std::string", /*default=*/"\"\"",
           "Use this schedule (attribute syntax) for every kernel of its kind">,
    Option<"fastMath", "fast-math", "bool", /*default=*/"false",
           "Price math as --xkernel-expand-math=fast-math=true builds it">,
    Option<"allowTf32", "allow-tf32", "bool", /*default=*/"false",
           "Let f32 contractions run on tensor cores with TF32 operands "
           "(changes results, as torch.backends.cuda.matmul.allow_tf32)">,
    Option<"buckets", "buckets", "bool", /*default=*/"true",
           "Cut a dynamic size's range into buckets with schedules of their "
           "own where one schedule costs more than bucket-tolerance times "
           "the best">,
    Option<"bucketTolerance", "bucket-tolerance", "double",
           /*default=*/"1.1",
           "The most a bucket's schedule may cost over the best at each "
           "priced size">,
    Option<"maxBuckets", "max-buckets", "int64_t", /*default=*/"5",
           "The most buckets of one kernel (where more would be needed, the "
           "split into that many with the lowest worst cost)">,
  ];
  let dependentDialects = ["::xtile::tile::XTileDialect"];
}

def XTileListSchedules : Pass<"xtile-list-schedules", "::mlir::ModuleOp"> {
  let summary = "Write every Loop IR kernel's candidate schedules and their estimates as JSON";
  let description = [{
    For an external tuner (`xtile-tune`): for each distinct kernel, its
    identity (`xloop.identity`), facts, schedule if it has one, and every
    candidate schedule with the cost model's estimate, cheapest first. The
    IR is not changed. With `check`, every candidate of every kernel is also
    applied to a copy of the kernel and lowered to Tile IR and Kernel IR;
    a candidate that fails is reported as an error (the schedule space must
    never propose a schedule the target cannot run).
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"sm_90\"",
           "GPU to schedule for (sm_90, sm_90a or sm_80)">,
    Option<"costModel", "cost-model", "std::string", /*default=*/"\"analytic\"",
           "Cost model that prices the candidates (analytic)">,
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "Write the JSON to this file (- for stdout)">,
    Option<"check", "check", "bool", /*default=*/"false",
           "Lower every candidate to Kernel IR and report those that fail">,
    Option<"fastMath", "fast-math", "bool", /*default=*/"false",
           "Price math as --xkernel-expand-math=fast-math=true builds it">,
    Option<"allowTf32", "allow-tf32", "bool", /*default=*/"false",
           "Let f32 contractions run on tensor cores with TF32 operands "
           "(changes results, as torch.backends.cuda.matmul.allow_tf32)">,
  ];
  let dependentDialects = ["::xtile::tile::XTileDialect"];
}

def XTileApplyScheduleSpec : Pass<"xtile-apply-schedule-spec", "::mlir::ModuleOp"> {
  let summary = "Set the schedules a spec file gives for kernels by identity and target";
  let description = [{
    A schedule spec is a JSON file written by `xtile-tune` (or by hand):

    ```json
    {
      "format": "xtile-schedule-spec",
      "compiler": "xtile 0.1.0",
      "schedules": [
        {
          "kernel": "0x5f3a9c0d1e2b4a67",
          "target": "sm_90",
          "schedule": "#xtile.row_schedule<block, warps = 8, vector = 4>"
        }
      ]
    }
    ```

    Each `xloop.kernel` whose identity (`xloop.identity`, the structural
    hash set by `--xloop-dedupe`, computed here when absent) and target
    match an entry gets that schedule as its `xtile.schedule`, unless it
    has one. Entries tuned by another compiler version are ignored, with a
    warning: the identity hashes Loop IR, which changes between versions.
    A missing or malformed file, or a schedule that does not parse, is an
    error.
  }];
  let options = [
    Option<"file", "file", "std::string", /*default=*/"\"\"",
           "The spec file">,
    Option<"target", "target", "std::string", /*default=*/"\"sm_90\"",
           "Apply the entries for this GPU">,
  ];
  let dependentDialects = ["::xtile::tile::XTileDialect"];
}

def ConvertXLoopToXTile : Pass<"convert-xloop-to-xtile", "::mlir::ModuleOp"> {
  let summary = "Lower Loop IR kernels to Tile IR, applying each kernel's schedule";
  let description = [{
    Each Loop IR kernel becomes a Tile IR kernel run as a grid of programs,
    under the schedule in its `xtile.schedule` attribute (set by
    `--xtile-select-schedule`, `--xtile-apply-schedule-spec` or the input);
    a kernel without one is an error. The pass decides nothing. The host
    side follows: each `xloop.launch` becomes an `xtile.launch` of the
    lowered kernel, so the lowering to Kernel IR reads Tile IR only.

    Row kernels (a nest of parallel loops over rows, then folds and an
    elementwise loop over the same columns: norms, softmax, elementwise and
    reduction kernels) take a `#xtile.row_schedule` and run one program per
    row: the columns become a tile (padded to a power of two and masked
    when ragged), each fold an `xtile.fold` with its algebra and the
    schedule's strategy. With a `chunk`, each column loop becomes an
    `scf.for` over chunks of the row, its loads pipelined
    (`xtile.num_stages` = 2). With `ways` (the split strategy), a first
    kernel folds slices of each row into partial results and a second
    combines them; launches of the kernel become launches of both.

    Contraction kernels (folds of products a(i, k) * b(k, j): matmul,
    batched matmul, linear layers with their fused epilogues) take a
    `#xtile.dot_schedule` and run one program per [block_m, block_n]
    output tile: an `scf.for` over K in steps of block_k, annotated with
    its pipelining depth (`xtile.num_stages`), loads operand tiles (16-bit
    operands stay narrow) into `xtile.dot` with an f32 accumulator, then
    applies the epilogue to the accumulator tile. Reductions over several
    dimensions at once (nested folds) are not lowered yet: an error names
    them.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"sm_90\"",
           "GPU the kernels are scheduled for (sm_90, sm_90a or sm_80)">,
  ];
  let dependentDialects = [
    "::xtile::tile::XTileDialect", "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect"];
}

def ConvertXTileToXKernel : Pass<"convert-xtile-to-xkernel", "::mlir::ModuleOp"> {
  let summary = "Lower Tile IR kernels to Kernel IR (abstract CUDA) and launches to a host program";
  let description = [{
    Each `xtile.kernel` becomes an `xkernel.func`: one CUDA block per
    program (`xtile.program_id` is the block index), `num_warps` x 32
    threads. A tile is spread over the threads of the block: its elements,
    in row-major order, are dealt out in groups of `vector` adjacent
    elements of the last dimension (the schedule's vector width), group g
    to thread g mod threads, so every thread holds the same slots of every
    tile of a shape and elementwise ops need no communication.

    - Index tiles (`xtile.range`, `splat`, `broadcast`, `reshape` and the
      arithmetic on them) are computed per element from the element's
      coordinates, where they are used.
    - `xtile.load` and `xtile.store` become one access per element, or one
      vector access per group (up to 16 bytes) where the addresses of a
      group are provably adjacent and aligned and its mask uniform;
      masked-off and unowned elements are never accessed.
    - `xtile.fold` folds a thread's elements in order, then across the warp
      with butterfly shuffles, then across warps through shared memory;
      every thread gets the result.
    - `xtile.dot` stages its operand tiles in dynamic shared memory; each
      thread accumulates its elements of the result with FMAs in f32. In a
      loop annotated with `xtile.num_stages` = S > 1 whose operand tiles are
      loaded in the loop, the loads become asynchronous copies (cp.async)
      into S shared-memory stages, S - 1 iterations ahead.

    Each function of `xtile.launch`es becomes an `xkernel.program`: its
    arguments and results are the buffers; results of launches that are
    not returned become temporaries (`xkernel.alloc`).
  }];
  let dependentDialects = [
    "::xtile::kernel::XKernelDialect", "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"];
}

def ConvertXKernelToNVVM : Pass<"convert-xkernel-to-nvvm", "::mlir::ModuleOp"> {
  let summary = "Lower Kernel IR kernels to the LLVM and NVVM dialects in a gpu.module";
  let description = [{
    Moves every `xkernel.func` of the module into one
    `gpu.module @xtile_kernels` targeting `#nvvm.target<chip, features>`,
    where it becomes a kernel of the same name (launch bound
    `nvvm.maxntid = [max_threads, 1, 1]`; `xkernel.readonly` arguments
    become `noalias readonly` pointers, so their loads may use the
    non-coherent cache), and lowers the bodies to the LLVM and NVVM
    dialects, ready for `gpu-module-to-binary`. Host programs
    (`xkernel.program`) launch the kernels by names that no longer resolve
    in the outer module, so they are dropped: the device code is the
    whole result.

    - `!xkernel.ptr<T, global>` becomes `!llvm.ptr<1>`, `shared` becomes
      `!llvm.ptr<3>`; `index` is i64, so element offsets are 64-bit.
    - Ids read the PTX special registers, with value ranges from the
      launch bound and the grid limits.
    - Loads and stores are a `getelementptr` and one access aligned to
      its size (16 bytes for `vector<4xf32>`).
    - `xkernel.shared` is an internal addrspace(3) global of the
      gpu.module; `xkernel.dynamic_shared` is a byte offset into the
      external, 16-byte aligned `xtile_dynamic_shared` array.
    - Shuffles are `nvvm.shfl.sync` over the whole warp with CUDA's
      segment encoding of `width`; barriers `bar.sync 0`; atomics
      `llvm.atomicrmw` (relaxed); cp.async copies, commits and waits their
      `nvvm.cp.async` counterparts, with the zero-fill source size when
      `valid` is given.
    - Loops marked `xkernel.unroll` carry a full-unroll hint to LLVM.
    - Math functions are rewritten to polynomial approximations and
      expansions (`log10` through `log`), so no libdevice is linked; a
      math op that would still need libdevice is an error at its
      location, as is any op the conversion does not know.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "GPU architecture of the NVVM target">,
    Option<"features", "features", "std::string", /*default=*/"\"+ptx80\"",
           "Target features, the PTX ISA version among them">,
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::cf::ControlFlowDialect",
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::vector::VectorDialect", "::mlir::ub::UBDialect"];
}

#endif // XTILE_CONVERSION_PASSES_TD
