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

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

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

/// A size that is a polynomial of symbols with integer coefficients
/// (`T + 1`, `2*T`, `S + T`, `B*T`, `T - 1`): the size a concatenation, a
/// slice or a padding along a dynamic size makes. Tensor types name such a
/// size by its canonical text, as they name a symbol, so equal expressions
/// are equal sizes and every level below takes it as one more named size;
/// its range follows from its symbols' declared ranges, and its value from
/// theirs.
class SizeExpr {
public:
  static SizeExpr constant(int64_t value);
  static SizeExpr symbol(llvm::StringRef name);
  /// The size of `dim`: its static size, or its name read as an expression
  /// (none where the name is not one: a name that is not an identifier,
  /// or text that is not in canonical form).
  static std::optional<SizeExpr> of(const Dim &dim);
  /// `text` read as a sum of terms `[c*]S[*S...]` or `c` joined by `+` and
  /// `-` (none where it is not one, or a coefficient overflows).
  static std::optional<SizeExpr> parse(llvm::StringRef text);

  /// Sums, differences and products; none on overflow.
  std::optional<SizeExpr> plus(const SizeExpr &other) const;
  std::optional<SizeExpr> minus(const SizeExpr &other) const;
  std::optional<SizeExpr> times(const SizeExpr &other) const;

  /// The value where the expression is a number.
  std::optional<int64_t> getConstant() const;
  /// True where the expression is one symbol (`T`), not an expression.
  bool isSymbol() const;
  /// The symbols it names, sorted, each once.
  std::vector<std::string> getSymbols() const;
  /// The canonical text: terms in the order of their sorted symbols, the
  /// number last (`2*B*T + S - 1`).
  std::string str() const;
  /// The text with each symbol written as `nameOf` gives it (a C expression
  /// of size variables).
  std::string str(llvm::function_ref<std::string(llvm::StringRef)> nameOf) const;
  /// The expression as an affine (or, with products of symbols,
  /// semi-affine) expression, each symbol as `symbolOf` gives it (none where
  /// it gives none).
  std::optional<mlir::AffineExpr> toAffine(
      llvm::function_ref<std::optional<mlir::AffineExpr>(llvm::StringRef)>
          symbolOf,
      mlir::MLIRContext *context) const;
  /// The dimension of this size: static where it is a number, else named
  /// by its canonical text.
  Dim toDim(mlir::MLIRContext *context) const;

  /// The value with each symbol's value from `valueOf`, none where one is
  /// unknown or the value overflows.
  std::optional<int64_t>
  evaluate(llvm::function_ref<std::optional<int64_t>(llvm::StringRef)> valueOf)
      const;
  /// The expression with the symbols `values` binds replaced by their values.
  std::optional<SizeExpr>
  substitute(const llvm::StringMap<int64_t> &values) const;
  /// The least and greatest value over the symbols' ranges [min, max]
  /// (each at least 0), none where a symbol has no range or a bound
  /// overflows.
  std::optional<std::pair<int64_t, int64_t>> range(
      llvm::function_ref<std::optional<std::pair<int64_t, int64_t>>(
          llvm::StringRef)>
          rangeOf) const;

  bool operator==(const SizeExpr &other) const { return terms == other.terms; }

private:
  /// Adds `coefficient` times `monomial` (its symbols in any order) in
  /// place; false on overflow.
  bool addTerm(std::vector<std::string> monomial, int64_t coefficient);

  /// Coefficient (never 0) of each monomial: its symbols sorted, with
  /// repeats; the empty monomial is the number.
  std::map<std::vector<std::string>, int64_t> terms;
};

/// The value of the size named `name` where `values` binds its symbols: a
/// bound symbol's, or an expression's of bound symbols.
std::optional<int64_t> evaluateSize(llvm::StringRef name,
                                    const llvm::StringMap<int64_t> &values);

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
/// The declaration of `symbol` in `func`, if `func` declares it; for a
/// size expression of declared symbols (`T + 1`), its range over theirs.
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
