//===- Reference.h - the float64 reference of Tensor IR ---------*- C++ -*-===//
//
// Executes a Tensor IR function op by op on the host: floats in float64
// (no rounding between ops, except where the program casts), integers
// exactly in their width. Slow and simple on purpose: it is the oracle that
// compiled kernels are checked against.
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_DIALECT_TENSOR_UTILS_REFERENCE_H
#define XTILE_DIALECT_TENSOR_UTILS_REFERENCE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include <vector>

namespace xtile::tensor {

/// A dense row-major tensor: `real` holds float elements, `integer` holds
/// integer ones (i1 as 0 or 1), according to the element type.
struct RefTensor {
  mlir::RankedTensorType type;
  std::vector<double> real;
  std::vector<int64_t> integer;

  bool isInteger() const { return !type || !llvm::isa<mlir::FloatType>(type.getElementType()); }
  int64_t size() const { return isInteger() ? integer.size() : real.size(); }
  double at(int64_t i) const { return isInteger() ? double(integer[i]) : real[i]; }
};

/// Runs `func` on `inputs` (one per argument, of its types). Composite ops
/// are run through their decomposition (--xtensor-decompose, applied to a
/// copy). With `roundOps`, every float result is rounded to its element
/// type, as a straightforward evaluation in that type would: the error of
/// that against the float64 run measures how sensitive the program is to
/// rounding. Fails with a located error on an op it cannot execute.
llvm::FailureOr<std::vector<RefTensor>>
runReference(mlir::func::FuncOp func, const std::vector<RefTensor> &inputs,
             bool roundOps = false);

/// Rounds `v` to what type `t` (a float or integer type) can hold: floats
/// to nearest even in their format, integers wrapped to their width.
double roundToType(mlir::Type t, double v);
int64_t wrapToType(mlir::Type t, int64_t v);

} // namespace xtile::tensor

#endif // XTILE_DIALECT_TENSOR_UTILS_REFERENCE_H
