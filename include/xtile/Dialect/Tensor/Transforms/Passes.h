//===- Passes.h - xtensor passes --------------------------------*- C++ -*-===//

#ifndef XTILE_DIALECT_TENSOR_TRANSFORMS_PASSES_H
#define XTILE_DIALECT_TENSOR_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"
#include "xtile/Dialect/Tensor/IR/TensorOps.h"

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace xtile::tensor {

#define GEN_PASS_DECL
#include "xtile/Dialect/Tensor/Transforms/Passes.h.inc"

/// Patterns that rewrite each composite op into atomic ops.
void populateDecompositionPatterns(mlir::RewritePatternSet &patterns);

/// Patterns that may change floating-point results (--xtensor-normalize's
/// fast-math option).
void populateFastMathPatterns(mlir::RewritePatternSet &patterns);

/// Runs the normalization of --xtensor-normalize on `root` and everything
/// nested in it.
llvm::LogicalResult normalize(mlir::Operation *root, bool fastMath);

#define GEN_PASS_REGISTRATION
#include "xtile/Dialect/Tensor/Transforms/Passes.h.inc"

} // namespace xtile::tensor

#endif // XTILE_DIALECT_TENSOR_TRANSFORMS_PASSES_H
