//===- TensorToLoop.h - Tensor IR to Loop IR --------------------*- C++ -*-===//

#ifndef XTILE_CONVERSION_TENSORTOLOOP_TENSORTOLOOP_H
#define XTILE_CONVERSION_TENSORTOLOOP_TENSORTOLOOP_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "xtile/Dialect/Loop/IR/LoopOps.h"

namespace mlir {
class RewritePatternSet;
class SymbolTable;
} // namespace mlir

namespace xtile {

#define GEN_PASS_DECL_CONVERTXTENSORTOXLOOP
#include "xtile/Conversion/Passes.h.inc"

/// Patterns that turn each atomic xtensor op into a kernel (inserted into
/// `symbols`' table op) and a launch of it.
void populateTensorToLoopPatterns(mlir::RewritePatternSet &patterns,
                                  mlir::SymbolTable &symbols);

} // namespace xtile

#endif // XTILE_CONVERSION_TENSORTOLOOP_TENSORTOLOOP_H
