//===- HostTensor.h - dense tensors on the host -----------------*- C++ -*-===//
//
// The array type shared by the float64 reference interpreter, the .npy
// reader and writer, and the tools that run programs: a dense row-major
// tensor of a builtin tensor type, with the rounding of values to an
// element type. Knows no dialect.
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_SUPPORT_HOSTTENSOR_H
#define XTILE_SUPPORT_HOSTTENSOR_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"

#include <vector>

namespace xtile {

/// A dense row-major tensor: `real` holds float elements, `integer` holds
/// integer ones (i1 as 0 or 1), according to the element type.
struct RefTensor {
  mlir::RankedTensorType type;
  std::vector<double> real;
  std::vector<int64_t> integer;

  bool isInteger() const {
    return !type || !llvm::isa<mlir::FloatType>(type.getElementType());
  }
  int64_t size() const { return isInteger() ? integer.size() : real.size(); }
  double at(int64_t i) const {
    return isInteger() ? double(integer[i]) : real[i];
  }
};

/// `v` rounded to the float type `to` as PyTorch's casts round: to nearest
/// even; overflow goes to infinity, except in f8E4M3FN (no infinity), where
/// it saturates to the largest finite value of its sign.
llvm::APFloat roundFloat(const llvm::APFloat &v, mlir::FloatType to);

/// Rounds `v` to what type `t` (a float or integer type) can hold: floats
/// to nearest even in their format, integers wrapped to their width.
double roundToType(mlir::Type t, double v);
int64_t wrapToType(mlir::Type t, int64_t v);

} // namespace xtile

#endif // XTILE_SUPPORT_HOSTTENSOR_H
