//===- ErfComplement.h - 1 + erf(y) as erfc -------------------*- C++ -*-===//
//
// Kernels whose outputs are all f16 or bf16 build `1 + erf(y)` and
// `1 - erf(y)` as erfc(-y) and erfc(y), relative to the value where the
// f32 sum cancels (docs/Math.md, "16-bit outputs"): the math expansion
// rewrites them and the cost model prices them with one predicate.
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_SUPPORT_ERFCOMPLEMENT_H
#define XTILE_SUPPORT_ERFCOMPLEMENT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"

#include <optional>

namespace xtile {

/// The sum that uses an f32 `erf` as its only use, and whether it is
/// erfc(-y) (`1 + erf(y)`, `erf(y) + 1`) or erfc(y) (`1 - erf(y)`).
struct ErfComplement {
  mlir::Operation *sum;
  bool negated;
};

inline std::optional<ErfComplement> complementOfErf(mlir::math::ErfOp erf) {
  if (!erf.getType().isF32() || !erf->hasOneUse())
    return std::nullopt;
  mlir::Operation *sum = *erf->user_begin();
  auto isOne = [](mlir::Value v) {
    mlir::FloatAttr c;
    return mlir::matchPattern(v, mlir::m_Constant(&c)) &&
           c.getValue().isExactlyValue(1.0);
  };
  mlir::Value lhs = sum->getNumOperands() == 2 ? sum->getOperand(0) : nullptr;
  mlir::Value rhs = sum->getNumOperands() == 2 ? sum->getOperand(1) : nullptr;
  if (mlir::isa<mlir::arith::AddFOp>(sum) &&
      (isOne(lhs) || isOne(rhs)))
    return ErfComplement{sum, /*negated=*/true};
  if (mlir::isa<mlir::arith::SubFOp>(sum) && isOne(lhs) &&
      rhs == erf.getResult())
    return ErfComplement{sum, /*negated=*/false};
  return std::nullopt;
}

} // namespace xtile

#endif // XTILE_SUPPORT_ERFCOMPLEMENT_H
