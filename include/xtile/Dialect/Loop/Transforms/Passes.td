//===- Passes.td - xloop passes ---------------------------*- tablegen -*-===//

#ifndef XTILE_DIALECT_LOOP_TRANSFORMS_PASSES_TD
#define XTILE_DIALECT_LOOP_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def XLoopFuse : Pass<"xloop-fuse", "::mlir::ModuleOp"> {
  let summary = "Fuse producer kernels into their consumers";
  let description = [{
    Merges kernels by aligning iteration spaces. A producer kernel is
    inlined into a consumer at each of the consumer's loads of the
    producer's output: the producer's computation of one element is cloned
    there with its loop indices replaced by the load's indices. Afterwards
    loop-invariant code (loads, arithmetic and whole folds that depend only
    on outer loops) is hoisted to the loop it depends on, and common
    subexpressions are merged, so a row reduction followed by elementwise
    work over the row (RMSNorm, softmax, LayerNorm) becomes one kernel with
    the fold nested in the row loop.

    Whether to fuse is a cost decision, made by trying it: the consumer is
    fused on a copy and cleaned up, and the fusion is kept when the work it
    adds is worth less than the device-memory traffic it removes:

        work(fused) - work(consumer) - work(producer, if it disappears)
            <= flops-per-byte * bytes saved

    Work is estimated statically: each arithmetic op and load (math
    functions count 4) times the trip counts of the loops around it (in
    an online fold's body, per tile, as the Tile IR lowering computes
    attention: once per block of queries for a key block's values). The
    bytes saved are the producer's output written and read (2x its size)
    when the consumer is its only user, else only the consumer's read
    (the producer still runs for its other users, or for the function's
    result). So elementwise chains and a reduction followed by elementwise
    work over its rows fuse (nothing is recomputed once invariant folds
    are hoisted), a matmul takes its elementwise epilogue and a cheap
    prologue on its operands, and a matmul or reduction feeding several
    consumers, or an elementwise chain that a contraction would recompute
    for every output column, is materialized.

    Then launches over the same iteration space that read a common input
    become one kernel (sibling fusion: the input is read once), and so do
    elementwise launches over the same iteration space that share nothing
    (horizontal fusion: one launch instead of several, at the same
    traffic). docs/LoopIR.md has the details.
  }];
  let options = [
    Option<"flopsPerByte", "flops-per-byte", "double", /*default=*/"4.0",
           "Work (in flops) that fusion may add per byte of device-memory "
           "traffic it removes">,
    Option<"onlineSoftmax", "online-softmax", "bool", /*default=*/"true",
           "Rewrite sums of exponentials shifted by their maximum as online "
           "folds, and fuse softmax into the weighted sum that consumes it "
           "(attention) (--xloop-online-fold)">,
    Option<"horizontal", "horizontal", "bool", /*default=*/"true",
           "Merge elementwise kernels over the same iteration space that "
           "share no input (an optimizer step's per-parameter updates) into "
           "one kernel">,
  ];
  let dependentDialects = ["::xtile::loop::XLoopDialect"];
}

def XLoopOnlineFold : Pass<"xloop-online-fold", "::mlir::ModuleOp"> {
  let summary = "Compute sums of exponentials shifted by their maximum in one pass";
  let description = [{
    Rewrites every sum over `j` whose terms carry the factor
    `exp(x_j - M)`, where `M` is the maximum of the same `x_j` over the
    same `j`, as an `xloop.online_fold` over `(x_j, g_j)` (`g_j` the
    product of the term's other factors that depend on `j`); factors
    independent of `j` move out of the sum, and a division by the sum of
    the same exponentials becomes a division by the online fold's own
    sum. A maximum used after an online fold of the same scores becomes
    that fold's `max`. Softmax, log-softmax and log-sum-exp rows then read
    their scores once, and attention's `softmax(s) · v` becomes one fold
    (`--xloop-fuse` applies this rewrite to the kernels it builds).
  }];
  let dependentDialects = ["::xtile::loop::XLoopDialect",
                           "::mlir::arith::ArithDialect"];
}

def XLoopComputeF32 : Pass<"xloop-compute-f32", "::mlir::ModuleOp"> {
  let summary = "Compute 16-bit floating-point kernels in f32, rounding once";
  let description = [{
    Inside every kernel, arithmetic and math on f16 and bf16 values runs in
    f32: 16-bit loads are extended where they are used, each chain of
    operations keeps its f32 value, and the result is rounded to the
    stored type once, at the store (or where a 16-bit value is compared
    with something that stays 16-bit). A 16-bit fold of computed
    values folds their f32 values and rounds its result once, so that every
    use of a value sees the same number (`x - max(x)` is exactly 0 at the
    maximum, as in the reference). This is what TorchInductor
    does, and what eager PyTorch does inside one op (its "opmath" type):
    a fused `x * w + b` in bf16 rounds once, not twice.

    Rounding that the program asks for stays: an `arith.truncf` present
    before the pass (an explicit cast, or the 16-bit result of a reduction,
    which accumulates in f32) still rounds, and what follows computes in
    f32 from the rounded value.

    ```mlir
    %2 = arith.mulf %1, %0 : bf16       // before
    %3 = math.exp %2 : bf16
    xloop.store %3, ...

    %a = arith.extf %1 : bf16 to f32    // after
    %b = arith.extf %0 : bf16 to f32
    %2 = arith.mulf %a, %b : f32
    %3 = math.exp %2 : f32
    %4 = arith.truncf %3 : f32 to bf16
    xloop.store %4, ...
    ```
  }];
  let dependentDialects = ["::xtile::loop::XLoopDialect",
                           "::mlir::arith::ArithDialect"];
}

def XLoopWriteInPlace : Pass<"xloop-write-in-place", "::mlir::ModuleOp"> {
  let summary = "Write results that replace an argument into its buffer, "
                "storing only what changes";
  let description = [{
    A function's result returned in place of an argument (`%arg:
    tensor<...> {xtensor.in_place = R}`, an in-place assignment such as
    a KV cache's `index_copy_`) is written into the argument's buffer by
    the launch that computes it, when that is safe:

    - nothing after the launch uses the argument (no later launch reads
      the old value, and the function does not return it);
    - the launch's kernel is launched once, writes the result with one
      store, at the indices of all its parallel loops (each element once),
      and reads the argument only at those indices (each element before
      it is overwritten, by the iteration that overwrites it).

    The launch then `updates` its operand: the result is the operand's
    buffer. When the stored value is the old element wherever a condition
    says so (`select(%c, %new, old)`, through a round trip to f32), the
    store becomes a conditional one (`xloop.store %new, ... if %c`) and
    the read of the old element goes: a KV cache step writes the new
    token's keys and values, not the whole cache.

    ```mlir
    %old = xloop.load %cache[%h, %l, %d] : memref<2x48x16xbf16>
    %o = arith.extf %old : bf16 to f32
    %v = arith.select %written, %new, %o : f32
    %r = arith.truncf %v : f32 to bf16
    xloop.store %r, %out[%h, %l, %d] : memref<2x48x16xbf16>
    // becomes
    %r = arith.truncf %new : f32 to bf16
    xloop.store %r, %out[%h, %l, %d] if %written : memref<2x48x16xbf16>
    ```

    An elementwise kernel (no fold) whose new value reads the element it
    overwrites (`x.mul_(2)`, an optimizer's step) is written in place as it
    is, when the argument is read only at the stored element and only into
    the stored value: each element is read before it is written, by the
    iteration that writes it. The kernel is marked `xtile.may_alias`: its
    pointers are not restrict-qualified (CUDA C) nor `noalias` (PTX), and
    no input is read through the non-coherent cache.

    A result that cannot be written in place is computed into a temporary
    and copied into the argument's buffer after the program's last launch
    (the Kernel IR host lowering does this).
  }];
  let dependentDialects = ["::xtile::loop::XLoopDialect",
                           "::mlir::arith::ArithDialect"];
}

def XLoopSplitFlat : Pass<"xloop-split-flat", "::mlir::ModuleOp"> {
  let summary = "Split a kernel's lone loop over many elements into rows";
  let description = [{
    Tile IR runs a kernel's outer parallel loops as programs and its
    innermost loop within one program. A kernel whose loops are one nest
    of static parallel loops, the innermost with nothing nested and those
    around it running at most 128 times in all (an elementwise op on a
    flat tensor or a [1, N] one, a flat scatter-add and the fill of its
    destination), would run as that many programs, one on one SM. Where
    the innermost loop has at least `min-elements` iterations it becomes
    two, rows of `c` iterations (`c` the largest divisor of the trip count
    in [256, 4096]), the old index `r * c + j`:

    ```mlir
    xloop.parallel %i = 0 to 67108864 { ... %i ... }
    // becomes
    xloop.parallel %r = 0 to 16384 {
      xloop.parallel %j = 0 to 4096 {
        %i = affine.apply affine_map<(d0, d1) -> (d0 * 4096 + d1)>(%r, %j)
        ...
      }
    }
    ```

    A trip count with no such divisor (a large prime) keeps its loop.
  }];
  let options = [
    Option<"minElements", "min-elements", "int64_t", /*default=*/"16384",
           "Split lone loops of at least this many iterations">,
  ];
  let dependentDialects = ["::xtile::loop::XLoopDialect",
                           "::mlir::affine::AffineDialect"];
}

def XLoopDedupe : Pass<"xloop-dedupe", "::mlir::ModuleOp"> {
  let summary = "Compile each distinct kernel once";
  let description = [{
    Computes a structural hash of every kernel (ignoring its name, SSA
    names and locations; commutative operands are already in canonical
    order from Tensor IR normalization), confirms equal hashes with a full
    structural comparison, and makes identical kernels one kernel launched
    several times. Each kernel is annotated with its hash as
    `xloop.identity`. Dynamic sizes are arguments, so the identity ignores
    their values and names (which launches pass) but not which size each
    `?` of a buffer is: the same layer over `T` and over `S` is one kernel,
    launched `[T]` and `[S]`, whose sizes' ranges cover both.
  }];
  let dependentDialects = ["::xtile::loop::XLoopDialect"];
}

def XLoopReport : Pass<"xloop-report", "::mlir::ModuleOp"> {
  let summary = "Print each kernel's identity and device-memory traffic";
  let description = [{
    Prints, for every kernel, its structural hash and the bytes it reads
    and writes in device memory (each buffer it touches counted once, in
    full: inside one kernel a row is read from memory once and reused from
    registers or shared memory), and for every function the launches, the
    total bytes and the ideal (each function argument read once, each
    result written once). The IR is left unchanged. Output goes to stdout,
    or to the file named by `output`.

    ```
    kernel @rmsnorm_mul_9 identity 0x1f2e... reads 67125248 B writes 67108864 B
    func @rmsnorm: 1 launch, 134234112 B moved, ideal 134234112 B (1.00x)
    ```
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "File to write the report to ('-' for stdout)">,
  ];
}

#endif // XTILE_DIALECT_LOOP_TRANSFORMS_PASSES_TD
