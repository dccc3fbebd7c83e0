//===- LinalgToTensor.h - linalg-on-tensors to Tensor IR --------*- C++ -*-===//

#ifndef XTILE_CONVERSION_LINALGTOTENSOR_LINALGTOTENSOR_H
#define XTILE_CONVERSION_LINALGTOTENSOR_LINALGTOTENSOR_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace xtile {

/// Registers the dialects --convert-linalg-to-xtensor takes (linalg, tensor
/// and what their ops contain).
void registerLinalgInputDialects(mlir::DialectRegistry &registry);

#define GEN_PASS_DECL_CONVERTLINALGTOXTENSOR
#include "xtile/Conversion/Passes.h.inc"

} // namespace xtile

#endif // XTILE_CONVERSION_LINALGTOTENSOR_LINALGTOTENSOR_H
