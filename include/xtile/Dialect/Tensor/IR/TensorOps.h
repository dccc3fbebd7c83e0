//===- TensorOps.h - xtensor operations -------------------------*- C++ -*-===//

#ifndef XTILE_DIALECT_TENSOR_IR_TENSOROPS_H
#define XTILE_DIALECT_TENSOR_IR_TENSOROPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "xtile/Dialect/Tensor/IR/TensorDialect.h"

#include "xtile/Dialect/Tensor/IR/TensorEnums.h.inc"

namespace xtile::tensor::detail {
/// Shared verifier of elementwise ops: every tensor operand and the result
/// have the same shape; value operands have the same element type.
llvm::LogicalResult verifyElementwiseOp(mlir::Operation *op);
/// `type` with its element type replaced by `elementType` (if non-null).
mlir::Type withElementType(mlir::Type type, mlir::Type elementType);
} // namespace xtile::tensor::detail

#define GET_OP_CLASSES
#include "xtile/Dialect/Tensor/IR/TensorOps.h.inc"

namespace xtile::tensor {
/// True for the ops that --xtensor-decompose removes.
bool isCompositeOp(mlir::Operation *op);
} // namespace xtile::tensor

#endif // XTILE_DIALECT_TENSOR_IR_TENSOROPS_H
