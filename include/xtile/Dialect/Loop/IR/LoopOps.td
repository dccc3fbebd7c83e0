//===- LoopOps.td - xloop operations ----------------------*- tablegen -*-===//

#ifndef XTILE_DIALECT_LOOP_IR_LOOPOPS_TD
#define XTILE_DIALECT_LOOP_IR_LOOPOPS_TD

include "xtile/Dialect/Loop/IR/LoopBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/LoopLikeInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

// The bounds of xloop.parallel, xloop.fold and xloop.online_fold: a static
// lower bound, and an upper bound that is a constant (`static_upper`) or a
// dynamic size of the kernel (`dynamic_upper`; `static_upper` is then
// ShapedType::kDynamic).
defvar XLoop_LoopBounds = [{
    /// Whether the upper bound is a dynamic size.
    bool hasDynamicUpper() { return getDynamicUpper() != nullptr; }
    /// The upper bound where it is a constant.
    std::optional<int64_t> getConstantUpper() {
      if (hasDynamicUpper())
        return std::nullopt;
      return getStaticUpper();
    }
    /// The constant upper bound of a loop known to be static (row loops
    /// aside, Tile IR's findTileProblem rejects dynamic ones).
    int64_t getUpper() {
      assert(!hasDynamicUpper() && "a static bound of a dynamic loop");
      return getStaticUpper();
    }
    /// The upper bound: an attribute or the size argument.
    ::mlir::OpFoldResult getMixedUpper();
    /// Whether `other` runs over the same iterations.
    bool hasSameBounds(::mlir::Operation *other);
    /// The iterations: a dynamic loop's at its size's hint (the size that
    /// fusion and scheduling price the kernel at).
    int64_t getTripCountAtHint();
}];

def XLoop_KernelOp : XLoop_Op<"kernel", [
    Symbol, IsolatedFromAbove, SingleBlock, NoTerminator]> {
  let summary = "a kernel: loop nests that read inputs and write outputs";
  let description = [{
    A kernel definition. Its block arguments are the buffers it works on:
    first the `num_inputs` inputs, which it only reads, then the outputs,
    which it writes. The body is a nest of `xloop.parallel` and
    `xloop.fold` loops; every output element is stored exactly once.
    Kernels are launched from functions with `xloop.launch`; one kernel can
    be launched several times (see `--xloop-dedupe`).

    A kernel over dynamic sizes takes them as `index` arguments after its
    buffers, declared in brackets with their ranges (`num_sizes`,
    `size_ranges`); a buffer's `?` sizes name them in order after its type
    (`buffer_dims`), and loops run to them. `size_hints` is the size that
    fusion and scheduling price the kernel at.

    ```mlir
    xloop.kernel @scale[%T = 1 to 4096](%a: memref<?x8xf32> [%T]) -> (%c: memref<?x8xf32> [%T])
        attributes {size_hints = array<i64: 1024>} {
      xloop.parallel %i = 0 to %T {
        ...
      }
    }
    ```

    ```mlir
    xloop.kernel @add(%a: memref<8xf32>, %b: memref<8xf32>) -> (%c: memref<8xf32>) {
      xloop.parallel %i = 0 to 8 {
        %x = xloop.load %a[%i] : memref<8xf32>
        %y = xloop.load %b[%i] : memref<8xf32>
        %z = arith.addf %x, %y : f32
        xloop.store %z, %c[%i] : memref<8xf32>
      }
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, I64Attr:$num_inputs,
                   DefaultValuedAttr<I64Attr, "0">:$num_sizes,
                   OptionalAttr<DenseI64ArrayAttr>:$size_ranges,
                   OptionalAttr<DenseI64ArrayAttr>:$size_hints,
                   OptionalAttr<DenseI64ArrayAttr>:$buffer_dims);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name,
                                 "int64_t":$numInputs), [{
    build($_builder, $_state, name, numInputs, /*num_sizes=*/0, nullptr,
          nullptr, nullptr);
  }]>];
  let extraClassDeclaration = [{
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    ::llvm::ArrayRef<::mlir::BlockArgument> getInputs() {
      return getBodyBlock().getArguments().take_front(getNumInputs());
    }
    ::llvm::ArrayRef<::mlir::BlockArgument> getOutputs() {
      return getBodyBlock().getArguments().drop_front(getNumInputs())
          .drop_back(getNumSizes());
    }
    /// The dynamic sizes, after the buffers.
    ::llvm::ArrayRef<::mlir::BlockArgument> getSizes() {
      return getBodyBlock().getArguments().take_back(getNumSizes());
    }
    /// Whether `v` is one of the dynamic sizes.
    bool isSize(::mlir::Value v);
    /// The size arguments that the `?` sizes of `buffer` are, in order.
    ::llvm::SmallVector<::mlir::BlockArgument>
    getBufferSizes(::mlir::BlockArgument buffer);
    /// Inserts an input buffer at input position `pos` whose `?` sizes are
    /// `sizes` (size arguments of this kernel).
    ::mlir::BlockArgument insertInput(unsigned pos, ::mlir::Type type,
        ::llvm::ArrayRef<::mlir::BlockArgument> sizes, ::mlir::Location loc);
    /// Erases input buffer `pos`, which nothing uses.
    void eraseInput(unsigned pos);
    /// Appends an output buffer whose `?` sizes are `sizes`.
    ::mlir::BlockArgument addOutput(::mlir::Type type,
        ::llvm::ArrayRef<::mlir::BlockArgument> sizes, ::mlir::Location loc);
    /// Appends a size argument with its range and hint.
    ::mlir::BlockArgument addSize(int64_t min, int64_t max, int64_t hint,
                                  ::mlir::Location loc);
    /// The hint of a size argument: the value pricing takes for it.
    int64_t getSizeHint(::mlir::BlockArgument size);
    /// The bytes of `buffer`, its dynamic sizes at their hints.
    int64_t getNumBytesAtHints(::mlir::BlockArgument buffer);
  }];
}

def XLoop_LaunchOp : XLoop_Op<"launch", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "runs a kernel on tensors";
  let description = [{
    Launches `kernel` with the operands as its inputs; the results are its
    outputs. Operand and result types match the kernel's buffers in shape
    and element type.

    ```mlir
    %c = xloop.launch @add(%a, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    ```

    A kernel over dynamic sizes is launched with the names of the
    function's sizes (its `xtensor.symbols`) that its size arguments take,
    in brackets; each `?` of an operand or result is named (by its
    `#xtensor.dims`) as the size its buffer's `?` is.

    ```mlir
    %c = xloop.launch @scale[T](%a) : (tensor<?x8xf32, #xtensor.dims<T>>)
        -> tensor<?x8xf32, #xtensor.dims<T>>
    ```

    `updates` ties results to operands: where its entry for a result is
    an operand's index (not -1), the kernel writes that result into the
    operand's buffer, which holds the operand's value when the kernel
    starts, and stores only the elements that change (`xloop.store ...
    if`). The operand's value is not used after the launch
    (`xloop-write-in-place` ties them; see docs/LoopIR.md).

    ```mlir
    %new = xloop.launch @append(%cache, %kv, %pos) {updates = array<i64: 0>}
        : (tensor<2x48x16xbf16>, tensor<2x1x16xbf16>, tensor<1xi64>)
        -> tensor<2x48x16xbf16>
    ```

    `buckets` names other kernels of the same buffers and sizes that each
    cover a part of one size's range (`--xtile-select-schedule` makes them:
    the kernel under different schedules). The ranges that `kernel` and
    its buckets declare for that size are disjoint and follow each other;
    the launch runs the one whose ranges hold the sizes.

    ```mlir
    %y = xloop.launch @proj[T](%x, %w) buckets [@proj_b1, @proj_b2]
        : (tensor<?x4096xbf16, #xtensor.dims<T>>, tensor<4096x4096xbf16>)
        -> tensor<?x4096xbf16, #xtensor.dims<T>>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$kernel,
                   DefaultValuedAttr<StrArrayAttr, "{}">:$sizes,
                   Variadic<AnyRankedTensor>:$inputs,
                   OptionalAttr<DenseI64ArrayAttr>:$updates,
                   OptionalAttr<FlatSymbolRefArrayAttr>:$buckets);
  let results = (outs Variadic<AnyRankedTensor>:$outputs);
  let hasVerifier = 1;
  let builders = [OpBuilder<(ins "::mlir::TypeRange":$outputs,
                                 "::llvm::StringRef":$kernel,
                                 "::mlir::ValueRange":$inputs), [{
    build($_builder, $_state, outputs, kernel, $_builder.getStrArrayAttr({}),
          inputs, /*updates=*/nullptr, /*buckets=*/nullptr);
  }]>];
  let assemblyFormat = [{
    $kernel `` custom<SizeNames>($sizes) `` `(` $inputs `)`
    (`buckets` $buckets^)? attr-dict `:` functional-type($inputs, $outputs)
  }];
}

def XLoop_ParallelOp : XLoop_Op<"parallel", [
    RecursiveMemoryEffects, SingleBlockImplicitTerminator<"YieldOp">,
    DeclareOpInterfaceMethods<LoopLikeOpInterface,
        ["getLoopInductionVars", "getLoopLowerBounds", "getLoopUpperBounds",
         "getLoopSteps"]>]> {
  let summary = "a loop whose iterations are independent";
  let description = [{
    Runs its body for every `%iv` in `[lower, upper)`, in any order or at
    once. The body's stores of different iterations never overlap.

    ```mlir
    xloop.parallel %i = 0 to 4096 {
      ...
    }
    ```
  }];
  let arguments = (ins I64Attr:$lower, I64Attr:$static_upper,
                   Optional<Index>:$dynamic_upper);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "int64_t":$lower, "::mlir::OpFoldResult":$upper)>,
                  OpBuilder<(ins "int64_t":$lower, "int64_t":$upper), [{
    build($_builder, $_state, lower, $_builder.getI64IntegerAttr(upper));
  }]>];
  let extraClassDeclaration = XLoop_LoopBounds # [{
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    ::mlir::BlockArgument getInductionVar() {
      return getBodyBlock().getArgument(0);
    }
  }];
}

def XLoop_FoldOp : XLoop_Op<"fold", [
    RecursiveMemoryEffects, RecursivelySpeculatable,
    DeclareOpInterfaceMethods<LoopLikeOpInterface,
        ["getLoopInductionVars", "getLoopLowerBounds", "getLoopUpperBounds",
         "getLoopSteps"]>]> {
  let summary = "a reduction loop with its combine operation and initial value";
  let description = [{
    `init ⊕ body(lower) ⊕ body(lower + 1) ⊕ ... ⊕ body(upper - 1)` with
    `⊕` the `combine` operation (`add mul max min and or`; on floats `max`
    and `min` propagate NaN). The combine operations are associative and
    commutative, which is what lets Tile IR reorder the fold (tree, warp
    shuffle, split); the body yields one element per iteration.

    ```mlir
    %s = xloop.fold %j = 0 to 4096 combine add init(%zero) : f32 {
      %v = xloop.load %x[%i, %j] : memref<4096x4096xf32>
      %sq = arith.mulf %v, %v : f32
      xloop.yield %sq : f32
    }
    ```
  }];
  let arguments = (ins I64Attr:$lower, I64Attr:$static_upper,
                   Optional<Index>:$dynamic_upper,
                   XLoop_CombineKind:$combine, XLoop_Scalar:$init);
  let results = (outs XLoop_Scalar:$result);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  // A fold without iterations, or whose body yields a value from outside
  // that leaves the result unchanged (the combine's identity; for max, min,
  // and, or the initial value itself), is its initial value.
  let hasFolder = 1;
  // The maximum (minimum) of its own induction variable, cast to an
  // integer, is the last (first) index, combined with the initial value:
  // the size of a dynamic dimension as a value (an iota's largest index).
  let hasCanonicalizer = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "int64_t":$lower, "::mlir::OpFoldResult":$upper,
                                 "CombineKind":$combine, "::mlir::Value":$init)>,
                  OpBuilder<(ins "int64_t":$lower, "int64_t":$upper,
                                 "CombineKind":$combine, "::mlir::Value":$init), [{
    build($_builder, $_state, lower, $_builder.getI64IntegerAttr(upper),
          combine, init);
  }]>];
  let extraClassDeclaration = XLoop_LoopBounds # [{
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    ::mlir::BlockArgument getInductionVar() {
      return getBodyBlock().getArgument(0);
    }
    /// The value yielded by the body for one iteration.
    ::mlir::Value getYieldedValue();
  }];
}

def XLoop_OnlineFoldOp : XLoop_Op<"online_fold", [
    RecursiveMemoryEffects, RecursivelySpeculatable,
    DeclareOpInterfaceMethods<LoopLikeOpInterface,
        ["getLoopInductionVars", "getLoopLowerBounds", "getLoopUpperBounds",
         "getLoopSteps"]>]> {
  let summary = "a softmax-weighted fold: maximum, sum of exponentials and "
                "exponential-weighted sums in one pass";
  let description = [{
    The body yields a score `x` and weights `g_1 ... g_n` per iteration
    (all of one float type); the results are

    ```
    max   = max_j x_j
    sum   = Σ_j exp(x_j - max)
    acc_k = Σ_j exp(x_j - max) · g_k,j
    ```

    with every exponential taken as 0 when `max` is -inf (every score is
    -inf, or there are no iterations): then `sum` and every `acc` are 0.
    `acc_k / sum` is the softmax-weighted average of `g_k` (attention's
    `softmax(s) · v`), `max + log(sum)` the log-sum-exp.

    It is a fold whose carrier is `(max, sum, acc...)` and whose combine
    rescales the partial sums of the side with the smaller maximum:

    ```
    (m1, l1, a1) ⊕ (m2, l2, a2) = (m, l1·e1 + l2·e2, a1·e1 + a2·e2)
        with m = max(m1, m2), e1 = exp(m1 - m), e2 = exp(m2 - m)
    ```

    from the identity `(-inf, 0, 0)`. The combine is associative and
    commutative, so every schedule of a fold applies: the iterations can be
    visited in blocks (flash attention's online softmax), split over
    programs and the partial carriers combined (flash-decoding), or folded
    in two passes where the scores are at hand (a row in registers).
    `--xloop-fuse` forms it (docs/LoopIR.md).

    ```mlir
    %m, %l, %o = xloop.online_fold %j = 0 to 1024 : f32 {
      %s = xloop.load %scores[%i, %j] : memref<64x1024xf32>
      %v = xloop.load %values[%j, %d] : memref<1024x64xf32>
      xloop.yield %s, %v : f32, f32
    }
    ```
  }];
  let arguments = (ins I64Attr:$lower, I64Attr:$static_upper,
                   Optional<Index>:$dynamic_upper);
  let results = (outs AnyFloat:$max, AnyFloat:$sum,
                 Variadic<AnyFloat>:$accumulators);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "int64_t":$lower, "::mlir::OpFoldResult":$upper,
                                 "::mlir::Type":$type,
                                 "unsigned":$numAccumulators)>,
                  OpBuilder<(ins "int64_t":$lower, "int64_t":$upper,
                                 "::mlir::Type":$type,
                                 "unsigned":$numAccumulators), [{
    build($_builder, $_state, lower, $_builder.getI64IntegerAttr(upper), type,
          numAccumulators);
  }]>];
  let extraClassDeclaration = XLoop_LoopBounds # [{
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    ::mlir::BlockArgument getInductionVar() {
      return getBodyBlock().getArgument(0);
    }
    /// The score yielded by the body for one iteration.
    ::mlir::Value getYieldedScore();
    /// The weights yielded by the body for one iteration.
    ::mlir::ValueRange getYieldedWeights();
  }];
}

def XLoop_YieldOp : XLoop_Op<"yield", [
    Pure, ReturnLike, Terminator, ParentOneOf<["ParallelOp", "FoldOp", "OnlineFoldOp"]>]> {
  let summary = "ends a loop body";
  let description = [{
    Ends the body of `xloop.parallel` (no operands, implicit in the custom
    form), of `xloop.fold` (the iteration's element) or of
    `xloop.online_fold` (the iteration's score and weights).
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ /* nothing to do */ }]>];
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

def XLoop_LoadOp : XLoop_Op<"load", [
    Pure, TypesMatchWith<"result is the buffer's element type", "buffer",
                         "result", "::llvm::cast<::mlir::MemRefType>($_self).getElementType()">]> {
  let summary = "reads one element of a kernel input";
  let description = [{
    Reads the element at `indices`. Kernel inputs are never written while
    the kernel runs, so a load has no side effect: it can be hoisted, merged
    with an identical load, or dropped when unused.

    ```mlir
    %v = xloop.load %x[%i, %j] : memref<4096x4096xf32>
    ```
  }];
  let arguments = (ins AnyMemRef:$buffer, Variadic<Index>:$indices);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$buffer `[` $indices `]` attr-dict `:` type($buffer)";
  let hasVerifier = 1;
  let builders = [OpBuilder<(ins "::mlir::Value":$buffer,
                                 "::mlir::ValueRange":$indices), [{
    build($_builder, $_state,
          ::llvm::cast<::mlir::MemRefType>(buffer.getType()).getElementType(),
          buffer, indices);
  }]>];
}

def XLoop_StoreOp : XLoop_Op<"store", [AttrSizedOperandSegments,
    TypesMatchWith<"value is the buffer's element type", "buffer", "value",
                   "::llvm::cast<::mlir::MemRefType>($_self).getElementType()">]> {
  let summary = "writes one element of a kernel output";
  let description = [{
    ```mlir
    xloop.store %v, %y[%i, %j] : memref<4096x4096xf32>
    ```

    With `if %c`, the element is written only where `%c` is true; the
    others keep the buffer's contents. Only an output that updates an
    input in place (`updates` of the launch) is stored conditionally.

    ```mlir
    xloop.store %v, %cache[%h, %l, %d] if %written : memref<2x48x16xbf16>
    ```

    With `accumulate`, the element becomes its value plus `%v`: the stores
    of all iterations to one element add up, in an unspecified order (on a
    GPU, atomically). Indices may then be any values (a scatter), and the
    output updates an input in place, which holds its starting value.
    Elements are f32, f64, i32 or i64.

    ```mlir
    xloop.store %g, %table[%id, %j] accumulate : memref<32000x4096xf32>
    ```
  }];
  let arguments = (ins AnyType:$value,
                   Arg<AnyMemRef, "", [MemWrite]>:$buffer,
                   Variadic<Index>:$indices,
                   Optional<I1>:$condition,
                   UnitAttr:$accumulate);
  let assemblyFormat = [{
    $value `,` $buffer `[` $indices `]` (`if` $condition^)?
    (`accumulate` $accumulate^)? attr-dict `:` type($buffer)
  }];
  let builders = [OpBuilder<(ins "::mlir::Value":$value,
                                 "::mlir::Value":$buffer,
                                 "::mlir::ValueRange":$indices), [{
    build($_builder, $_state, value, buffer, indices, ::mlir::Value());
  }]>];
  let hasVerifier = 1;
}

#endif // XTILE_DIALECT_LOOP_IR_LOOPOPS_TD
