//===- Passes.td - xtile conversion passes ----------------*- tablegen -*-===//

#ifndef XTILE_CONVERSION_PASSES_TD
#define XTILE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

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

#endif // XTILE_CONVERSION_PASSES_TD
