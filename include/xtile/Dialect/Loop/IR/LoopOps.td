//===- LoopOps.td - xloop operations ----------------------*- tablegen -*-===//

#ifndef XTILE_DIALECT_LOOP_IR_LOOPOPS_TD
#define XTILE_DIALECT_LOOP_IR_LOOPOPS_TD

include "xtile/Dialect/Loop/IR/LoopBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/LoopLikeInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

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
  let arguments = (ins SymbolNameAttr:$sym_name, I64Attr:$num_inputs);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    ::llvm::ArrayRef<::mlir::BlockArgument> getInputs() {
      return getBodyBlock().getArguments().take_front(getNumInputs());
    }
    ::llvm::ArrayRef<::mlir::BlockArgument> getOutputs() {
      return getBodyBlock().getArguments().drop_front(getNumInputs());
    }
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
  }];
  let arguments = (ins FlatSymbolRefAttr:$kernel,
                   Variadic<AnyStaticShapeTensor>:$inputs);
  let results = (outs Variadic<AnyStaticShapeTensor>:$outputs);
  let assemblyFormat = [{
    $kernel `(` $inputs `)` attr-dict `:` functional-type($inputs, $outputs)
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
  let arguments = (ins I64Attr:$lower, I64Attr:$upper);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "int64_t":$lower, "int64_t":$upper)>];
  let extraClassDeclaration = [{
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
  let arguments = (ins I64Attr:$lower, I64Attr:$upper,
                   XLoop_CombineKind:$combine, XLoop_Scalar:$init);
  let results = (outs XLoop_Scalar:$result);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  // A fold without iterations, or whose body yields a value from outside
  // that leaves the result unchanged (the combine's identity; for max, min,
  // and, or the initial value itself), is its initial value.
  let hasFolder = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "int64_t":$lower, "int64_t":$upper,
                                 "CombineKind":$combine, "::mlir::Value":$init)>];
  let extraClassDeclaration = [{
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
  let arguments = (ins I64Attr:$lower, I64Attr:$upper);
  let results = (outs AnyFloat:$max, AnyFloat:$sum,
                 Variadic<AnyFloat>:$accumulators);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "int64_t":$lower, "int64_t":$upper,
                                 "::mlir::Type":$type,
                                 "unsigned":$numAccumulators)>];
  let extraClassDeclaration = [{
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
  let arguments = (ins AnyStaticShapeMemRef:$buffer, Variadic<Index>:$indices);
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

def XLoop_StoreOp : XLoop_Op<"store", [
    TypesMatchWith<"value is the buffer's element type", "buffer", "value",
                   "::llvm::cast<::mlir::MemRefType>($_self).getElementType()">]> {
  let summary = "writes one element of a kernel output";
  let description = [{
    ```mlir
    xloop.store %v, %y[%i, %j] : memref<4096x4096xf32>
    ```
  }];
  let arguments = (ins AnyType:$value,
                   Arg<AnyStaticShapeMemRef, "", [MemWrite]>:$buffer,
                   Variadic<Index>:$indices);
  let assemblyFormat = [{
    $value `,` $buffer `[` $indices `]` attr-dict `:` type($buffer)
  }];
  let hasVerifier = 1;
}

#endif // XTILE_DIALECT_LOOP_IR_LOOPOPS_TD
