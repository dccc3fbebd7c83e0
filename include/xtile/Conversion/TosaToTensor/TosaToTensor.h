//===- TosaToTensor.h - TOSA to Tensor IR -----------------------*- C++ -*-===//

#ifndef XTILE_CONVERSION_TOSATOTENSOR_TOSATOTENSOR_H
#define XTILE_CONVERSION_TOSATOTENSOR_TOSATOTENSOR_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace xtile {

/// Registers the dialect --convert-tosa-to-xtensor takes.
void registerTosaInputDialects(mlir::DialectRegistry &registry);

#define GEN_PASS_DECL_CONVERTTOSATOXTENSOR
#include "xtile/Conversion/Passes.h.inc"

} // namespace xtile

#endif // XTILE_CONVERSION_TOSATOTENSOR_TOSATOTENSOR_H
