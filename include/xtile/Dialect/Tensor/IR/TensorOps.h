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
#include "xtile/Support/SymbolicDims.h"
#include <optional>

#include "xtile/Dialect/Tensor/IR/TensorEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "xtile/Dialect/Tensor/IR/TensorAttributes.h.inc"

namespace xtile::tensor {
// The named-size vocabulary lives in Support (below every level);
// `#xtensor.dims` implements its SymbolicDimsAttrInterface.
using ::xtile::DeclaredSymbol;
using ::xtile::Dim;
using ::xtile::getDeclaredSymbol;
using ::xtile::getDeclaredSymbols;
using ::xtile::getDims;
using ::xtile::getSymbols;
using ::xtile::isXTensorType;
using ::xtile::kInPlaceAttrName;
using ::xtile::kSymbolsAttrName;
using ::xtile::SizeExpr;

/// The tensor type of `dims` and `elementType`: dynamic sizes where `dims`
/// has symbols, named by an `#xtensor.dims` encoding.
mlir::RankedTensorType getTensorType(llvm::ArrayRef<Dim> dims,
                                     mlir::Type elementType);

/// Checks that the symbols of `op`'s operand and result types are declared
/// by the enclosing function.
llvm::LogicalResult verifyDeclaredSymbols(mlir::Operation *op);

template <typename ConcreteType>
class DeclaredSymbols
    : public mlir::OpTrait::TraitBase<ConcreteType, DeclaredSymbols> {
public:
  static llvm::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifyDeclaredSymbols(op);
  }
};
} // namespace xtile::tensor

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
