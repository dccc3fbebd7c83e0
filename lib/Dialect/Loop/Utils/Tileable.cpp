//===- Tileable.cpp - which Loop IR kernels have a Tile IR form -----------===//

#include "xtile/Dialect/Loop/Utils/Tileable.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace xtile::loop;

static void inductionVars(Value v, DenseSet<Value> &ivs,
                          DenseSet<Value> &seen) {
  if (!seen.insert(v).second)
    return;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (isa<ParallelOp, FoldOp, OnlineFoldOp>(arg.getOwner()->getParentOp()))
      ivs.insert(arg);
    return;
  }
  for (Value operand : v.getDefiningOp()->getOperands())
    inductionVars(operand, ivs, seen);
}

void xtile::loop::collectInductionVars(Value v, DenseSet<Value> &ivs) {
  DenseSet<Value> seen;
  inductionVars(v, ivs, seen);
}

static bool hasRegionOps(Block &block) {
  return llvm::any_of(block, [](Operation &op) { return op.getNumRegions(); });
}

bool xtile::loop::isSumOfProducts(FoldOp fold) {
  Operation *mul = fold.getYieldedValue().getDefiningOp();
  TypedAttr init;
  return fold.getCombine() == CombineKind::add &&
         isa_and_nonnull<arith::MulFOp, arith::MulIOp>(mul) &&
         matchPattern(fold.getInit(), m_Constant(&init));
}

bool xtile::loop::isContractionFold(FoldOp fold, ArrayRef<Value> rowIvs) {
  if (!isSumOfProducts(fold))
    return false;
  Operation *mul = fold.getYieldedValue().getDefiningOp();
  DenseSet<Value> x, y;
  collectInductionVars(mul->getOperand(0), x);
  collectInductionVars(mul->getOperand(1), y);
  for (Value a : rowIvs)
    for (Value b : rowIvs)
      if (a != b && x.contains(a) && !x.contains(b) && y.contains(b) &&
          !y.contains(a))
        return true;
  return false;
}

/// The shortest K step of any contraction schedule (the FMA pipes').
static constexpr int64_t kSmallestBlockStep = 32;

bool xtile::loop::isBlockSum(FoldOp fold) {
  return isSumOfProducts(fold) && !fold.hasDynamicUpper() &&
         fold.getType().isF32() &&
         fold.getTripCountAtHint() % kSmallestBlockStep == 0 &&
         matchPattern(fold.getInit(), m_AnyZeroFloat()) &&
         !hasRegionOps(fold.getBodyBlock());
}

FoldOp xtile::loop::getScaledBlockSum(FoldOp fold, ArrayRef<Value> rowIvs) {
  TypedAttr init;
  if (fold.getCombine() != CombineKind::add || fold.hasDynamicUpper() ||
      !fold.getType().isF32() ||
      !matchPattern(fold.getInit(), m_Constant(&init)))
    return {};
  FoldOp inner;
  for (Operation &op : fold.getBodyBlock()) {
    if (!op.getNumRegions())
      continue;
    auto f = dyn_cast<FoldOp>(op);
    if (inner || !f)
      return {};
    inner = f;
  }
  if (!inner || !isBlockSum(inner) || !inner.getResult().hasOneUse() ||
      !isContractionFold(inner, rowIvs))
    return {};
  // The yielded value is a product of factors, one of them the inner sum
  // (reached through products only: the sum is scaled, nothing else).
  for (Value v = inner.getResult(); v != fold.getYieldedValue();) {
    if (!v.hasOneUse())
      return {};
    Operation *user = *v.getUsers().begin();
    if (!isa<arith::MulFOp>(user) || user->getBlock() != &fold.getBodyBlock())
      return {};
    v = user->getResult(0);
  }
  return inner;
}

bool xtile::loop::isAnyContraction(FoldOp fold, ArrayRef<Value> rowIvs) {
  return getScaledBlockSum(fold, rowIvs) || isContractionFold(fold, rowIvs);
}

SmallVector<Value> xtile::loop::rowInductionVars(ArrayRef<ParallelOp> rows) {
  SmallVector<Value> ivs;
  for (ParallelOp row : rows)
    if (row.hasDynamicUpper() || row.getUpper() - row.getLower() > 1)
      ivs.push_back(row.getInductionVar());
  return ivs;
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

SmallVector<ParallelOp> xtile::loop::getStaticParallelNest(KernelOp kernel) {
  RowNestShape nest = findRowNest(kernel);
  SmallVector<ParallelOp> loops(nest.rows);
  ParallelOp inner;
  for (Operation &op : *nest.body) {
    if (!op.getNumRegions())
      continue;
    if (inner)
      return {};
    inner = dyn_cast<ParallelOp>(op);
    if (!inner || hasRegionOps(inner.getBodyBlock()))
      return {};
  }
  if (!inner)
    return {};
  loops.push_back(inner);
  for (ParallelOp loop : loops)
    if (loop.getLower() != 0 || loop.hasDynamicUpper())
      return {};
  return loops;
}

std::optional<TileProblem> xtile::loop::findTileProblem(KernelOp kernel) {
  std::optional<TileProblem> problem;
  // Loops starting elsewhere than 0 never come from Tensor IR.
  kernel.walk([&](Operation *op) {
    auto lower = op->getAttrOfType<IntegerAttr>("lower");
    auto upper = op->getAttrOfType<IntegerAttr>("static_upper");
    if (!isa<ParallelOp, FoldOp>(op) || !lower)
      return WalkResult::advance();
    // (A dynamic upper bound, static_upper kDynamic, is at least 1.)
    if (lower.getInt() != 0 || upper.getInt() == 0) {
      problem = TileProblem{op, "with a non-zero lower bound or no iterations "
                                "is not lowered to Tile IR"};
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (problem)
    return problem;
  // An accumulating store (a scatter-add) is lowered in elementwise
  // kernels: each element of a tile adds itself atomically.
  bool folds = kernel
                   .walk([](Operation *op) {
                     return isa<FoldOp, OnlineFoldOp>(op)
                                ? WalkResult::interrupt()
                                : WalkResult::advance();
                   })
                   .wasInterrupted();
  if (folds)
    kernel.walk([&](StoreOp store) {
      if (!store.getAccumulate())
        return WalkResult::advance();
      problem = TileProblem{store, "accumulates in a kernel with a fold; not "
                                   "lowered to Tile IR yet"};
      return WalkResult::interrupt();
    });
  if (problem)
    return problem;
  RowNestShape nest = findRowNest(kernel);
  Block *block = nest.body;
  // A contraction is lowered as output tiles: nothing else may reduce or
  // loop beside it (a row reduction fused into one of its operands would
  // have to be recomputed per tile).
  // Attention (a weighted online fold) is lowered alone in its row body,
  // as a contraction is. Each check names the first loop in the way.
  // Dynamic sizes: rows (programs, or a contraction's output tiles,
  // masked at the edges), and the column loops, folds and contraction Ks
  // of the innermost row body (loops over masked chunks); not deeper.
  problem = std::nullopt;
  block->walk([&](Operation *op) {
    auto dynamic = [](auto loop) { return loop && loop.hasDynamicUpper(); };
    if (op->getBlock() == block ||
        (!dynamic(dyn_cast<ParallelOp>(op)) && !dynamic(dyn_cast<FoldOp>(op)) &&
         !dynamic(dyn_cast<OnlineFoldOp>(op))))
      return WalkResult::advance();
    problem = TileProblem{op,
                          "runs over a dynamic size inside a column loop "
                          "or fold (attention scores over dynamic keys, "
                          "say); not lowered to Tile IR yet",
                          /*dynamicSizes=*/true};
    return WalkResult::interrupt();
  });
  if (problem)
    return problem;
  SmallVector<Value> rowIvs = rowInductionVars(nest.rows);
  Operation *contraction = nullptr, *other = nullptr;
  Operation *attention = nullptr, *besideAttention = nullptr;
  for (Operation &op : *block) {
    if (!op.getNumRegions())
      continue;
    auto fold = dyn_cast<FoldOp>(op);
    if (fold && isAnyContraction(fold, rowIvs))
      contraction = contraction ? contraction : &op;
    else
      other = other ? other : &op;
    auto online = dyn_cast<OnlineFoldOp>(op);
    if (online && !online.getAccumulators().empty() && !attention)
      attention = &op;
    else
      besideAttention = besideAttention ? besideAttention : &op;
  }
  if (contraction && other)
    return TileProblem{other, "beside a contraction is not lowered to Tile "
                              "IR yet"};
  if (attention && besideAttention)
    return TileProblem{besideAttention, "beside an attention online fold is "
                                        "not lowered to Tile IR yet"};
  // One K loop per output tile: the contractions of a kernel (siblings
  // merged, or a parallel residual's two projections) run over one length.
  FoldOp firstContraction;
  // Block-scaled contractions share it with others over blocks of the
  // same length only.
  FoldOp firstBlock;
  for (Operation &op : *block) {
    auto fold = dyn_cast<FoldOp>(op);
    if (!fold || !isAnyContraction(fold, rowIvs))
      continue;
    FoldOp inner = getScaledBlockSum(fold, rowIvs);
    if (firstContraction && bool(inner) != bool(firstBlock))
      return TileProblem{fold, "beside a contraction that is not "
                               "block-scaled alike is not lowered to Tile "
                               "IR yet"};
    if (!firstContraction) {
      firstContraction = fold;
      firstBlock = inner;
    } else if (!fold.hasSameBounds(firstContraction) ||
               (inner && !inner.hasSameBounds(firstBlock))) {
      return TileProblem{kernel, "has contractions over different lengths; "
                                 "not lowered to Tile IR yet"};
    }
  }
  // Attention over dynamic sizes: the batch rows, the query rows and the
  // keys may run over sizes (a prefill over the prompt length, a batch of
  // a dynamic number of sequences); the head dimension and the scores'
  // contraction not.
  if (attention && kernel.getNumSizes()) {
    bool other = !nest.rows.empty() && nest.rows.back().hasDynamicUpper();
    attention->walk([&](FoldOp fold) { other |= fold.hasDynamicUpper(); });
    if (other)
      return TileProblem{attention,
                         "is attention whose head dimension or scores' "
                         "contraction run over dynamic sizes, which is not "
                         "lowered to Tile IR yet",
                         /*dynamicSizes=*/true};
  }
  // Each operand of a contraction depends on one of the two output indices
  // (the innermost two rows), as a(i, k) and b(k, j).
  if (contraction && nest.rows.size() >= 2) {
    Value i = nest.rows[nest.rows.size() - 2].getInductionVar();
    Value j = nest.rows.back().getInductionVar();
    for (Operation &op : *block) {
      auto fold = dyn_cast<FoldOp>(op);
      if (!fold || !isAnyContraction(fold, rowIvs))
        continue;
      if (FoldOp inner = getScaledBlockSum(fold, rowIvs))
        fold = inner;
      Operation *mul = fold.getYieldedValue().getDefiningOp();
      DenseSet<Value> x, y;
      collectInductionVars(mul->getOperand(0), x);
      collectInductionVars(mul->getOperand(1), y);
      if (x.contains(j) || y.contains(i))
        std::swap(x, y);
      if (x.contains(j) || y.contains(i))
        return TileProblem{fold, "mixes both output indices in one operand; "
                                 "not lowered to Tile IR yet"};
    }
  }
  for (Operation &op : *block) {
    if (auto online = dyn_cast<OnlineFoldOp>(op)) {
      // Unweighted: a row's log-sum-exp. Weighted: attention, one weighted
      // sum per output element over the innermost two rows (query and
      // head dimension), its scores possibly a contraction of their own.
      SmallVector<Operation *> inner;
      for (Operation &o : online.getBodyBlock())
        if (o.getNumRegions())
          inner.push_back(&o);
      if (online.getAccumulators().empty()) {
        if (!inner.empty())
          return TileProblem{&op, "with loops in its body is not lowered "
                                  "to Tile IR"};
        continue;
      }
      if (online.getAccumulators().size() > 1 || nest.rows.size() < 2)
        return TileProblem{&op, "with more than one weighted sum, or "
                                "without two output dimensions, is not "
                                "lowered to Tile IR yet"};
      // Scores are per (query row, key), weights per (key, column): the
      // lowering's tiles. (With a unit dimension dropped, the rows can be
      // other loops than the query and the column.)
      Value row = nest.rows[nest.rows.size() - 2].getInductionVar();
      Value column = nest.rows.back().getInductionVar();
      DenseSet<Value> scoreIvs, weightIvs;
      collectInductionVars(online.getYieldedScore(), scoreIvs);
      collectInductionVars(online.getYieldedWeights().front(), weightIvs);
      if (scoreIvs.contains(column) || weightIvs.contains(row))
        return TileProblem{&op, "has scores that depend on the output "
                                "column or weights that depend on the "
                                "output row; not lowered to Tile IR"};
      // Only the scores may hold a loop (their contraction): the weights
      // are read per key and column.
      SmallVector<Value> pending(online.getYieldedWeights());
      DenseSet<Value> seen;
      while (!pending.empty()) {
        Operation *def = pending.pop_back_val().getDefiningOp();
        if (!def || !online->isAncestor(def))
          continue;
        if (def->getNumRegions())
          return TileProblem{&op, "has weights computed by a loop; not "
                                  "lowered to Tile IR"};
        for (Value v : def->getOperands())
          if (seen.insert(v).second)
            pending.push_back(v);
      }
      if (inner.size() > 1 ||
          (inner.size() == 1 &&
           (!isa<FoldOp>(inner[0]) ||
            !isSumOfProducts(cast<FoldOp>(inner[0])) ||
            hasRegionOps(cast<FoldOp>(inner[0]).getBodyBlock()))))
        return TileProblem{&op, "has scores other than one contraction and "
                                "elementwise work on it; not lowered to "
                                "Tile IR yet"};
      continue;
    }
    if (auto fold = dyn_cast<FoldOp>(op)) {
      if (hasRegionOps(fold.getBodyBlock()) && !getScaledBlockSum(fold, rowIvs))
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
