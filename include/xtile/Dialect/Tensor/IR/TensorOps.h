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
#include <optional>

#include "xtile/Dialect/Tensor/IR/TensorEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "xtile/Dialect/Tensor/IR/TensorAttributes.h.inc"

namespace xtile::tensor {
/// One dimension of an xtensor type: a static size, or a dynamic size named
/// by a symbol (`#xtensor.dims`).
struct Dim {
  int64_t size = 0;        ///< ShapedType::kDynamic when symbolic.
  mlir::StringAttr symbol; ///< Null when static.

  static Dim fixed(int64_t size) { return {size, {}}; }
  static Dim named(mlir::StringAttr symbol);
  bool isDynamic() const { return static_cast<bool>(symbol); }
  bool operator==(const Dim &other) const {
    return size == other.size && symbol == other.symbol;
  }
  bool operator!=(const Dim &other) const { return !(*this == other); }
  /// "4096" or "T".
  std::string str() const;
};

/// The dimensions of `type`, symbols taken from its `#xtensor.dims`.
llvm::SmallVector<Dim> getDims(mlir::RankedTensorType type);
/// The tensor type of `dims` and `elementType`: dynamic sizes where `dims`
/// has symbols, named by an `#xtensor.dims` encoding.
mlir::RankedTensorType getTensorType(llvm::ArrayRef<Dim> dims,
                                     mlir::Type elementType);
/// True for a ranked tensor type xtensor accepts: static, or with exactly
/// one `#xtensor.dims` symbol per dynamic size.
bool isXTensorType(mlir::Type type);
/// The symbols of the dynamic sizes in `type`, in order (repeated ones
/// included).
llvm::SmallVector<mlir::StringAttr> getSymbols(mlir::Type type);
/// The name of the function attribute that declares the symbols and their
/// ranges: `xtensor.symbols = {T = array<i64: min, max>}`.
inline constexpr llvm::StringLiteral kSymbolsAttrName = "xtensor.symbols";

/// A symbol declared in a function's `xtensor.symbols`, with its range.
struct DeclaredSymbol {
  mlir::StringAttr name;
  int64_t min, max;
};
/// The symbols `func` declares, sorted by name (none when it declares none
/// or is not a function).
llvm::SmallVector<DeclaredSymbol> getDeclaredSymbols(mlir::Operation *func);
/// The declaration of `symbol` in `func`, if `func` declares it.
std::optional<DeclaredSymbol> getDeclaredSymbol(mlir::Operation *func,
                                                llvm::StringRef symbol);

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
