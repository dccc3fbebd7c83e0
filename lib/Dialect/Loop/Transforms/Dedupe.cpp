//===- Dedupe.cpp - kernel identity ---------------------------------------===//
//
// Identical kernels (a stack of identical layers) are compiled once and
// launched several times.
//
//===----------------------------------------------------------------------===//

#include "xtile/Dialect/Loop/Transforms/Passes.h"

#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/SymbolTable.h"
#include "xtile/Support/StructuralHash.h"
#include "llvm/Support/Format.h"

namespace xtile::loop {
#define GEN_PASS_DEF_XLOOPDEDUPE
#include "xtile/Dialect/Loop/Transforms/Passes.h.inc"
} // namespace xtile::loop

using namespace mlir;
using namespace xtile;
using namespace xtile::loop;

uint64_t xtile::loop::computeKernelIdentity(KernelOp kernel) {
  StructuralHasher hasher;
  // The body (buffers, loops, scalar code) is the identity; the name and
  // attributes of the kernel op itself are not.
  uint64_t h = hasher.hashRegions(kernel);
  return StructuralHasher::combine(h, kernel.getNumInputs());
}

static std::string identityString(uint64_t hash) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format_hex(hash, 18);
  return s;
}

namespace {
struct XLoopDedupePass : xtile::loop::impl::XLoopDedupeBase<XLoopDedupePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<KernelOp> kernels(module.getOps<KernelOp>());
    DenseMap<uint64_t, SmallVector<KernelOp>> byHash;
    DenseMap<StringAttr, StringAttr> replacement;
    for (KernelOp kernel : kernels) {
      // Commutative operands in canonical order, so that the full
      // comparison below ignores their order as the hash does.
      sortCommutativeOperands(kernel);
      uint64_t h = computeKernelIdentity(kernel);
      getContext()
          .getOrLoadDialect<XLoopDialect>()
          ->getIdentityAttrHelper()
          .setAttr(kernel, StringAttr::get(&getContext(), identityString(h)));
      SmallVector<KernelOp> &same = byHash[h];
      // A hash collision must not merge different kernels: confirm.
      KernelOp match;
      for (KernelOp candidate : same)
        if (candidate.getNumInputs() == kernel.getNumInputs() &&
            OperationEquivalence::isRegionEquivalentTo(
                &candidate.getBody(), &kernel.getBody(),
                OperationEquivalence::IgnoreLocations)) {
          match = candidate;
          break;
        }
      if (match)
        replacement[kernel.getSymNameAttr()] = match.getSymNameAttr();
      else
        same.push_back(kernel);
    }
    if (replacement.empty())
      return;
    module.walk([&](LaunchOp launch) {
      auto it = replacement.find(launch.getKernelAttr().getAttr());
      if (it != replacement.end())
        launch.setKernelAttr(FlatSymbolRefAttr::get(it->second));
    });
    for (KernelOp kernel : kernels)
      if (replacement.count(kernel.getSymNameAttr()))
        kernel.erase();
  }
};
} // namespace
