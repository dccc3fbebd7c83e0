//===- Tileable.cpp - which Loop IR kernels have a Tile IR form -----------===//

#include "xtile/Dialect/Loop/Utils/Tileable.h"

using namespace mlir;
using namespace xtile::loop;

static bool hasRegionOps(Block &block) {
  return llvm::any_of(block, [](Operation &op) { return op.getNumRegions(); });
}

RowNestShape xtile::loop::findRowNest(KernelOp kernel) {
  RowNestShape nest;
  Block *block = &kernel.getBodyBlock();
  while (true) {
    SmallVector<Operation *> regionOps;
    for (Operation &op : *block)
      if (op.getNumRegions())
        regionOps.push_back(&op);
    auto loop = regionOps.size() == 1 ? dyn_cast<ParallelOp>(regionOps[0])
                                      : ParallelOp();
    if (!loop || !hasRegionOps(loop.getBodyBlock()))
      break;
    nest.rows.push_back(loop);
    block = &loop.getBodyBlock();
  }
  nest.body = block;
  return nest;
}

std::optional<TileProblem> xtile::loop::findTileProblem(KernelOp kernel) {
  std::optional<TileProblem> problem;
  // Loops starting elsewhere than 0 never come from Tensor IR.
  kernel.walk([&](Operation *op) {
    auto lower = op->getAttrOfType<IntegerAttr>("lower");
    auto upper = op->getAttrOfType<IntegerAttr>("upper");
    if (!isa<ParallelOp, FoldOp>(op) || !lower)
      return WalkResult::advance();
    if (lower.getInt() != 0 || upper.getInt() == 0) {
      problem = TileProblem{op, "with a non-zero lower bound or no iterations "
                                "is not lowered to Tile IR"};
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (problem)
    return problem;
  Block *block = findRowNest(kernel).body;
  for (Operation &op : *block) {
    if (auto fold = dyn_cast<FoldOp>(op)) {
      if (hasRegionOps(fold.getBodyBlock()))
        return TileProblem{kernel, "has nested folds, which are not lowered "
                                   "to Tile IR yet"};
    } else if (auto loop = dyn_cast<ParallelOp>(op)) {
      // A loop inside the column loop would share its index tile.
      if (hasRegionOps(loop.getBodyBlock()))
        return TileProblem{kernel, "has a loop nested in its column loop; not "
                                   "lowered to Tile IR yet"};
    } else if (op.getNumRegions()) {
      return TileProblem{&op, "is not supported in a Tile IR row kernel"};
    }
  }
  // Stores belong in the innermost row body (or its column loop).
  kernel.walk([&](StoreOp store) {
    Operation *parent = store->getParentOp();
    if (store->getBlock() != block && parent->getBlock() != block) {
      problem = TileProblem{store, "outside the innermost row body is not "
                                   "lowered to Tile IR"};
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return problem;
}
