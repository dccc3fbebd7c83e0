//===- SplitFlat.cpp - a lone loop over many elements as rows -------------===//
//
// Tile IR maps a kernel's outer parallel loops to programs and its
// innermost loop to the threads of one program. A kernel whose loops are
// one long loop with few iterations around it (an elementwise op on a
// flat tensor or a [1, N] one, a flat scatter-add, the fill of its
// destination) would run as one program, or a few, on one SM each: the
// long loop is split into rows of a divisor of its trip count.
//
//===----------------------------------------------------------------------===//

#include "xtile/Dialect/Loop/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "xtile/Dialect/Loop/Utils/Tileable.h"

namespace xtile::loop {
#define GEN_PASS_DEF_XLOOPSPLITFLAT
#include "xtile/Dialect/Loop/Transforms/Passes.h.inc"
} // namespace xtile::loop

using namespace mlir;
using namespace xtile::loop;

namespace {

/// The longest row splitFlat makes, and the shortest.
constexpr int64_t kMaxRow = 4096;
constexpr int64_t kMinRow = 256;

/// The row length for a lone loop of `n` iterations: the largest divisor
/// of n in [kMinRow, kMaxRow]; 0 where there is none.
int64_t rowLength(int64_t n) {
  for (int64_t c = kMaxRow; c >= kMinRow; --c)
    if (n % c == 0)
      return c;
  return 0;
}

/// The most iterations of the loops around the split loop: more rows
/// already spread a kernel over the device's SMs.
constexpr int64_t kMaxOuterTrips = 128;

/// The innermost of the kernel's loops where they are one static nest
/// (getStaticParallelNest) whose loops around it run at most
/// kMaxOuterTrips times in all (a flat tensor's loop, or a [1, N] one's);
/// null otherwise.
ParallelOp loneLoop(KernelOp kernel) {
  SmallVector<ParallelOp> nest = getStaticParallelNest(kernel);
  if (nest.empty())
    return nullptr;
  int64_t outer = 1;
  for (ParallelOp loop : ArrayRef(nest).drop_back())
    outer *= loop.getUpper();
  return outer <= kMaxOuterTrips ? nest.back() : nullptr;
}

void splitFlat(KernelOp kernel, int64_t minElements) {
  ParallelOp loop = loneLoop(kernel);
  if (!loop || loop.getUpper() < minElements)
    return;
  int64_t n = loop.getUpper(), c = rowLength(n);
  if (!c)
    return;
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  auto rows = ParallelOp::create(b, loc, 0, n / c);
  b.setInsertionPointToStart(&rows.getBodyBlock());
  auto columns = ParallelOp::create(b, loc, 0, c);
  Block &body = columns.getBodyBlock();
  b.setInsertionPointToStart(&body);
  AffineExpr r = b.getAffineDimExpr(0), j = b.getAffineDimExpr(1);
  Value flat = affine::AffineApplyOp::create(
      b, loc, AffineMap::get(2, 0, r * c + j),
      ValueRange{rows.getInductionVar(), columns.getInductionVar()});
  Block &old = loop.getBodyBlock();
  old.getArgument(0).replaceAllUsesWith(flat);
  body.getOperations().splice(Block::iterator(body.getTerminator()),
                              old.getOperations(), old.begin(),
                              Block::iterator(old.getTerminator()));
  loop->erase();
}

struct XLoopSplitFlatPass
    : xtile::loop::impl::XLoopSplitFlatBase<XLoopSplitFlatPass> {
  using XLoopSplitFlatBase::XLoopSplitFlatBase;

  void runOnOperation() override {
    getOperation().walk([&](KernelOp kernel) {
      splitFlat(kernel, minElements);
    });
  }
};

} // namespace
