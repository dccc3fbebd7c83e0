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
#include "xtile/Support/HostTensor.h"

#include <vector>

namespace xtile::tensor {

using ::xtile::RefTensor;
using ::xtile::roundToType;
using ::xtile::wrapToType;

/// Runs `func` on `inputs` (one per argument, of its types). Composite ops
/// are run through their decomposition (--xtensor-decompose, applied to a
/// copy). With `roundOps`, every float result is rounded to its element
/// type, as a straightforward evaluation in that type would: the error of
/// that against the float64 run measures how sensitive the program is to
/// rounding. Fails with a located error on an op it cannot execute.
llvm::FailureOr<std::vector<RefTensor>>
runReference(mlir::func::FuncOp func, const std::vector<RefTensor> &inputs,
             bool roundOps = false);

} // namespace xtile::tensor

#endif // XTILE_DIALECT_TENSOR_UTILS_REFERENCE_H
