//===- SpecializeDims.cpp - bind dynamic sizes ----------------------------===//
//
// --xtensor-specialize-dims: replaces named dynamic sizes by given values in
// every type of the functions that declare them.
//
//===----------------------------------------------------------------------===//

#include "xtile/Dialect/Tensor/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

namespace xtile::tensor {
#define GEN_PASS_DEF_XTENSORSPECIALIZEDIMS
#include "xtile/Dialect/Tensor/Transforms/Passes.h.inc"
} // namespace xtile::tensor

using namespace mlir;
using namespace xtile::tensor;

namespace {

/// `type` with the symbols bound in `sizes` replaced by their values.
Type specialize(Type type, const llvm::StringMap<int64_t> &sizes) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked || ranked.hasStaticShape())
    return type;
  SmallVector<Dim> dims = getDims(ranked);
  bool changed = false;
  for (Dim &dim : dims) {
    auto it = dim.isDynamic() ? sizes.find(dim.symbol.getValue()) : sizes.end();
    if (it == sizes.end())
      continue;
    dim = Dim::fixed(it->second);
    changed = true;
  }
  return changed ? getTensorType(dims, ranked.getElementType()) : type;
}

/// Binds `sizes` in `func`, which declares them all in `declared`.
void specializeFunction(func::FuncOp func, DictionaryAttr declared,
                        const llvm::StringMap<int64_t> &sizes) {
  // A slice keeps a dynamic dimension whole with limit -1 (read before the
  // types change).
  func.walk([&](SliceOp slice) {
    auto in = cast<RankedTensorType>(slice.getInput().getType());
    SmallVector<int64_t> limits(slice.getLimits());
    for (auto [limit, dim] : llvm::zip(limits, getDims(in))) {
      auto it =
          dim.isDynamic() ? sizes.find(dim.symbol.getValue()) : sizes.end();
      if (it != sizes.end())
        limit = it->second;
    }
    slice.setLimits(limits);
  });
  func.walk([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          arg.setType(specialize(arg.getType(), sizes));
    for (OpResult result : op->getResults())
      result.setType(specialize(result.getType(), sizes));
  });
  auto map = [&](TypeRange types) {
    return llvm::map_to_vector(types,
                               [&](Type t) { return specialize(t, sizes); });
  };
  func.setFunctionType(FunctionType::get(func.getContext(),
                                         map(func.getArgumentTypes()),
                                         map(func.getResultTypes())));
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
