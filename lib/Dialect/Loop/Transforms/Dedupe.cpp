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
#include "xtile/Support/SymbolicDims.h"
#include "llvm/Support/Format.h"

#include <algorithm>

namespace xtile::loop {
#define GEN_PASS_DEF_XLOOPDEDUPE
#include "xtile/Dialect/Loop/Transforms/Passes.h.inc"
} // namespace xtile::loop

using namespace mlir;
using namespace xtile;
using namespace xtile::loop;

uint64_t xtile::loop::computeKernelIdentity(KernelOp kernel) {
  StructuralHasher hasher;
  // The body (buffers, sizes, loops, scalar code) is the identity; the name
  // and attributes of the kernel op itself are not, except which size each
  // `?` of a buffer is. A dynamic size is an argument, not a value, so the
  // same layer at two lengths, or at two sizes named differently, is the
  // same kernel; the sizes' ranges and hints are not part of it.
  uint64_t h = hasher.hashRegions(kernel);
  h = StructuralHasher::combine(h, kernel.getNumInputs());
  h = StructuralHasher::combine(h, kernel.getNumSizes());
  // Buffers that may alias are a property of the code (no restrict).
  if (kernel->hasAttr(kMayAliasAttrName))
    h = StructuralHasher::combine(h, 1);
  if (std::optional<ArrayRef<int64_t>> dims = kernel.getBufferDims())
    for (int64_t d : *dims)
      h = StructuralHasher::combine(h, d);
  return h;
}

/// Whether two kernels of equal identity compute the same: the same
/// buffers, sizes and body.
static bool sameKernel(KernelOp a, KernelOp b) {
  return a.getNumInputs() == b.getNumInputs() &&
         a.getNumSizes() == b.getNumSizes() &&
         a->hasAttr(kMayAliasAttrName) == b->hasAttr(kMayAliasAttrName) &&
         a.getBufferDims() == b.getBufferDims() &&
         OperationEquivalence::isRegionEquivalentTo(
             &a.getBody(), &b.getBody(), OperationEquivalence::IgnoreLocations);
}

/// `kept` replaces `other`: its sizes' ranges cover both.
static void widenRanges(KernelOp kept, KernelOp other) {
  std::optional<ArrayRef<int64_t>> a = kept.getSizeRanges(),
                                   b = other.getSizeRanges();
  if (!a || !b || a->size() != b->size())
    return;
  SmallVector<int64_t> ranges(*a);
  for (size_t i = 0; i + 1 < ranges.size(); i += 2) {
    ranges[i] = std::min(ranges[i], (*b)[i]);
    ranges[i + 1] = std::max(ranges[i + 1], (*b)[i + 1]);
  }
  kept.setSizeRanges(ranges);
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
        if (sameKernel(candidate, kernel)) {
          match = candidate;
          break;
        }
      if (match) {
        replacement[kernel.getSymNameAttr()] = match.getSymNameAttr();
        widenRanges(match, kernel);
      } else {
        same.push_back(kernel);
      }
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
