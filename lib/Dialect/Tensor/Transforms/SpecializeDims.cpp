//===- SpecializeDims.cpp - bind dynamic sizes ----------------------------===//
//
// --xtensor-specialize-dims: replaces named dynamic sizes by given values in
// every type of the functions that declare them.
//
//===----------------------------------------------------------------------===//

#include "xtile/Dialect/Tensor/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

namespace xtile::tensor {
#define GEN_PASS_DEF_XTENSORSPECIALIZEDIMS
#include "xtile/Dialect/Tensor/Transforms/Passes.h.inc"
} // namespace xtile::tensor

using namespace mlir;
using namespace xtile::tensor;

namespace {

/// `dim` with the symbols `sizes` binds replaced by their values: a static
/// size, or a size expression of the symbols left (none where it names no
/// bound symbol).
std::optional<Dim> boundDim(const Dim &dim,
                            const llvm::StringMap<int64_t> &sizes) {
  if (!dim.isDynamic())
    return std::nullopt;
  auto it = sizes.find(dim.symbol.getValue());
  if (it != sizes.end())
    return Dim::fixed(it->second);
  std::optional<SizeExpr> e = SizeExpr::of(dim);
  if (!e)
    return std::nullopt;
  std::optional<SizeExpr> bound = e->substitute(sizes);
  if (!bound || *bound == *e)
    return std::nullopt;
  return bound->toDim(dim.symbol.getContext());
}

/// Binds `sizes` in `func`, which declares them all in `declared`.
void specializeFunction(func::FuncOp func, DictionaryAttr declared,
                        const llvm::StringMap<int64_t> &sizes) {
  // A slice's limit along a dynamic size D is counted from its end (-1 is
  // D): D + 1 + limit once D is a number (read before the types change).
  func.walk([&](SliceOp slice) {
    auto in = cast<RankedTensorType>(slice.getInput().getType());
    SmallVector<int64_t> limits(slice.getLimits());
    for (auto [limit, dim] : llvm::zip(limits, getDims(in)))
      if (std::optional<Dim> bound = boundDim(dim, sizes);
          bound && !bound->isDynamic())
        limit = bound->size + 1 + limit;
    slice.setLimits(limits);
  });
  // Every type of the function (its signature, block arguments, results)
  // with the bound sizes in place of their symbols.
  AttrTypeReplacer replacer;
  replacer.addReplacement([&](RankedTensorType type) -> std::optional<Type> {
    if (type.hasStaticShape())
      return std::nullopt;
    SmallVector<Dim> dims = getDims(type);
    for (Dim &dim : dims)
      if (std::optional<Dim> bound = boundDim(dim, sizes))
        dim = *bound;
    return getTensorType(dims, type.getElementType());
  });
  replacer.recursivelyReplaceElementsIn(func, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);
  SmallVector<NamedAttribute> kept;
  for (NamedAttribute entry : declared)
    if (!sizes.contains(entry.getName().getValue()))
      kept.push_back(entry);
  if (kept.empty())
    func->removeAttr(kSymbolsAttrName);
  else
    func->setAttr(kSymbolsAttrName,
                  DictionaryAttr::get(func.getContext(), kept));
}

struct SpecializeDimsPass
    : xtile::tensor::impl::XTensorSpecializeDimsBase<SpecializeDimsPass> {
  using XTensorSpecializeDimsBase::XTensorSpecializeDimsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::StringMap<int64_t> values;
    for (const std::string &binding : sizes) {
      auto [name, text] = StringRef(binding).split('=');
      int64_t size;
      if (name.empty() || text.getAsInteger(10, size)) {
        module.emitError() << "--xtensor-specialize-dims: binding '" << binding
                           << "' must be SYMBOL=SIZE";
        return signalPassFailure();
      }
      values[name] = size;
    }
    llvm::StringMap<bool> used;
    for (auto func : module.getOps<func::FuncOp>()) {
      auto declared = func->getAttrOfType<DictionaryAttr>(kSymbolsAttrName);
      if (!declared)
        continue;
      llvm::StringMap<int64_t> bound;
      for (NamedAttribute entry : declared) {
        auto it = values.find(entry.getName().getValue());
        if (it == values.end())
          continue;
        used[it->first()] = true;
        auto range = dyn_cast<DenseI64ArrayAttr>(entry.getValue());
        if (range && range.size() == 2 &&
            (it->second < range[0] || it->second > range[1])) {
          func.emitError() << "size " << it->second << " of '" << it->first()
                           << "' is outside its declared range [" << range[0]
                           << ", " << range[1] << "]";
          return signalPassFailure();
        }
        bound[it->first()] = it->second;
      }
      if (!bound.empty())
        specializeFunction(func, declared, bound);
    }
    for (const auto &entry : values)
      if (!used.contains(entry.first())) {
        module.emitError() << "--xtensor-specialize-dims: no function declares "
                              "the symbol '"
                           << entry.first() << "'";
        return signalPassFailure();
      }
  }
};

} // namespace
