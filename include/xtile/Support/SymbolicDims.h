//===- SymbolicDims.h - named dynamic sizes ---------------------*- C++ -*-===//
//
// Dynamic sizes named by symbols, shared by every IR level: a tensor type's
// encoding (any attribute implementing SymbolicDimsAttrInterface, such as
// `#xtensor.dims<T>`) names its `?` sizes, and a function declares each
// symbol with its range in `xtensor.symbols = {T = array<i64: min, max>}`.
// This header knows no dialect: the levels above read sizes through it.
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_SUPPORT_SYMBOLICDIMS_H
#define XTILE_SUPPORT_SYMBOLICDIMS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include <optional>
#include <string>

#include "xtile/Support/SymbolicDims.h.inc"

namespace xtile {
/// One dimension of a tensor type: a static size, or a dynamic size named
/// by a symbol.
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

/// The dimensions of `type`, symbols taken from its encoding.
llvm::SmallVector<Dim> getDims(mlir::RankedTensorType type);
/// True for a ranked tensor type whose sizes are all known or named:
/// static, or with exactly one symbol per dynamic size.
bool isXTensorType(mlir::Type type);
/// The symbols of the dynamic sizes in `type`, in order (repeated ones
/// included).
llvm::SmallVector<mlir::StringAttr> getSymbols(mlir::Type type);

/// The name of the function attribute that declares the symbols and their
/// ranges: `xtensor.symbols = {T = array<i64: min, max>}`.
inline constexpr llvm::StringLiteral kSymbolsAttrName = "xtensor.symbols";

/// The name of the argument attribute that makes a function's result
/// take the argument's place: `%cache: tensor<...> {xtensor.in_place = 0}`
/// returns result #0 in the argument's buffer (the caller's input is
/// updated, as an in-place assignment such as `index_copy_` updates it).
inline constexpr llvm::StringLiteral kInPlaceAttrName = "xtensor.in_place";
/// The kernel attribute (Loop, Tile and Kernel IR kernels) that says an
/// output of the kernel is one of its inputs' buffers, read element by
/// element before the element is written (`--xloop-write-in-place`): its
/// buffers may alias, so no pointer of it is `__restrict__`/`noalias` or
/// read through the non-coherent cache.
inline constexpr llvm::StringLiteral kMayAliasAttrName = "xtile.may_alias";
/// For each result of `func`, the argument whose buffer it is returned in
/// (`xtensor.in_place`), or -1.
llvm::SmallVector<int64_t> getInPlaceArguments(mlir::Operation *func);

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
/// The note that marks an error as a limit of compiling over dynamic sizes
/// (not a fault of the program): the same module compiles once its sizes
/// are specialized. The frontend falls back to per-size compiles on errors
/// that carry it, and only on those.
inline constexpr llvm::StringLiteral kDynamicSizeLimitNote =
    "xtile: a limit of compiling over dynamic sizes; the module compiles "
    "with its sizes specialized (--xtensor-specialize-dims)";

/// Attaches kDynamicSizeLimitNote to `diag`.
mlir::InFlightDiagnostic &markDynamicSizeLimit(mlir::InFlightDiagnostic &diag);

} // namespace xtile

#endif // XTILE_SUPPORT_SYMBOLICDIMS_H
