//===- SymbolicDims.cpp - named dynamic sizes -----------------------------===//

#include "xtile/Support/SymbolicDims.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace xtile;

#include "xtile/Support/SymbolicDims.cpp.inc"

Dim Dim::named(StringAttr symbol) { return {ShapedType::kDynamic, symbol}; }

std::string Dim::str() const {
  return symbol ? symbol.getValue().str() : std::to_string(size);
}

SmallVector<Dim> xtile::getDims(RankedTensorType type) {
  auto names = dyn_cast_or_null<SymbolicDimsAttrInterface>(type.getEncoding());
  SmallVector<Dim> dims;
  unsigned next = 0;
  for (int64_t size : type.getShape()) {
    if (!ShapedType::isDynamic(size)) {
      dims.push_back(Dim::fixed(size));
      continue;
    }
    // Types reaching here passed isXTensorType; an unnamed size (from a
    // caller that did not check) gets the symbol "?" rather than a crash.
    StringAttr symbol = names && next < names.getSymbols().size()
                            ? names.getSymbols()[next++]
                            : StringAttr::get(type.getContext(), "?");
    dims.push_back(Dim::named(symbol));
  }
  return dims;
}

bool xtile::isXTensorType(Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked)
    return false;
  int64_t dynamic = ranked.getNumDynamicDims();
  if (!ranked.getEncoding())
    return dynamic == 0;
  auto names = dyn_cast<SymbolicDimsAttrInterface>(ranked.getEncoding());
  return names && dynamic > 0 &&
         static_cast<int64_t>(names.getSymbols().size()) == dynamic;
}

SmallVector<StringAttr> xtile::getSymbols(Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked)
    return {};
  if (auto names =
          dyn_cast_or_null<SymbolicDimsAttrInterface>(ranked.getEncoding()))
    return llvm::to_vector(names.getSymbols());
  return {};
}

SmallVector<DeclaredSymbol> xtile::getDeclaredSymbols(Operation *func) {
  SmallVector<DeclaredSymbol> symbols;
  auto declared =
      func ? func->getAttrOfType<DictionaryAttr>(kSymbolsAttrName) : nullptr;
  if (!declared)
    return symbols;
  for (NamedAttribute entry : declared)
    if (auto range = dyn_cast<DenseI64ArrayAttr>(entry.getValue());
        range && range.size() == 2)
      symbols.push_back({entry.getName(), range[0], range[1]});
  return symbols;
}

SmallVector<int64_t> xtile::getInPlaceArguments(Operation *func) {
  auto fn = dyn_cast_or_null<FunctionOpInterface>(func);
  if (!fn)
    return {};
  SmallVector<int64_t> argOf(fn.getNumResults(), -1);
  for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i)
    if (auto r = fn.getArgAttrOfType<IntegerAttr>(i, kInPlaceAttrName);
        r && r.getInt() >= 0 && r.getInt() < int64_t(argOf.size()))
      argOf[r.getInt()] = i;
  return argOf;
}

std::optional<DeclaredSymbol> xtile::getDeclaredSymbol(Operation *func,
                                                       StringRef symbol) {
  for (const DeclaredSymbol &declared : getDeclaredSymbols(func))
    if (declared.name.getValue() == symbol)
      return declared;
  return std::nullopt;
}

mlir::InFlightDiagnostic &
xtile::markDynamicSizeLimit(mlir::InFlightDiagnostic &diag) {
  diag.attachNote() << kDynamicSizeLimitNote;
  return diag;
}
