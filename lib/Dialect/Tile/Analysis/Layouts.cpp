//===- Layouts.cpp - How a Tile IR kernel's tiles are dealt out -----------===//

#include "xtile/Dialect/Tile/Analysis/Layouts.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace xtile::tile;

LogicalResult LayoutAnalysis::initialize(KernelOp kernel) {
  warps = kernel.getNumWarps();
  if (warps < 1 || warps > 32)
    return kernel.emitOpError("num_warps must be in [1, 32] for a CUDA block, "
                              "got ")
           << warps;
  threads = warps * 32;
  dealtTo = threads;
  vecWidth = 1;
  // Without a schedule (hand-written Tile IR), scalar accesses.
  if (ScheduleAttrInterface schedule = kernel.getScheduleAttr())
    vecWidth = schedule.getVectorWidth();
  dots = dyn_cast_or_null<DotScheduleAttr>(kernel.getScheduleAttr());
  if (instruction() != DotInstruction::fma) {
    // Every dot's accumulator is block_m rows (warps_m warps of them) by
    // columns the other warps share in whole 16-column blocks: the
    // schedule's block_n, or another (attention's scores, block_k).
    int64_t warpsN = warps / dots.getWarpsM();
    WalkResult bad = kernel.walk([&](DotOp dot) {
      auto acc = cast<RankedTensorType>(dot.getAcc().getType());
      if (acc.getRank() != 2 || acc.getDimSize(0) != dots.getBlockM() ||
          acc.getDimSize(1) % (16 * warpsN)) {
        dot.emitOpError("has a ")
            << acc << " accumulator; on tensor cores it must have the "
            << "schedule's block_m rows and whole 16-column blocks for each "
               "of its "
            << warpsN << " warp(s) across (" << dots << ")";
        return WalkResult::interrupt();
      }
      SmallVector<int64_t> shape(acc.getShape());
      if (!llvm::is_contained(accumulators, shape))
        accumulators.push_back(shape);
      return WalkResult::advance();
    });
    if (bad.wasInterrupted())
      return failure();
  }
  // A serial fold is computed in order by one thread: every tile then
  // belongs to thread 0.
  kernel.walk([&](FoldOp fold) {
    if (fold.getStrategy() == FoldStrategy::serial)
      dealtTo = 1;
  });
  // Each element a thread holds is a register: beyond a few hundred the
  // kernel spills, and the unrolled code grows without bound.
  constexpr int64_t kMaxElementsPerThread = 256;
  WalkResult tooLarge = kernel.walk([&](Operation *op) {
    for (Value v : op->getResults())
      if (auto type = dyn_cast<RankedTensorType>(v.getType()))
        if (type.getNumElements() / dealtTo > kMaxElementsPerThread) {
          InFlightDiagnostic diag = op->emitOpError("makes a tile of ");
          diag << type.getNumElements() << " elements, "
               << type.getNumElements() / dealtTo
               << " per thread with schedule ";
          if (ScheduleAttrInterface schedule = kernel.getScheduleAttr())
            diag << schedule;
          else
            diag << "(none)";
          diag << " (" << dealtTo << " thread(s)); at most "
               << kMaxElementsPerThread
               << " are supported: choose a schedule with more threads";
          return WalkResult::interrupt();
        }
    return WalkResult::advance();
  });
  if (tooLarge.wasInterrupted())
    return failure();
  return success();
}

int LayoutAnalysis::add(Layout l) {
  layouts.push_back(std::move(l));
  return layouts.size() - 1;
}

int LayoutAnalysis::layoutFor(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> key(shape);
  auto it = byShape.find(key);
  if (it != byShape.end())
    return it->second;
  Layout l;
  l.shape = key;
  for (int64_t d : shape)
    l.elements *= d;
  if (llvm::is_contained(accumulators, key)) {
    // Per lane: for each 16 x 8 block of the warp's sub-tile, the C
    // fragment of mma.m16n8k16, two rows of two adjacent elements.
    l.mmaAccumulator = true;
    l.vec = 2;
    l.threads = threads;
    l.chunks = l.elements / (2 * threads);
    return byShape[key] = add(std::move(l));
  }
  int64_t last = l.lastDim();
  l.vec = 1;
  while (l.vec * 2 <= vecWidth && last % (l.vec * 2) == 0)
    l.vec *= 2;
  int64_t groups = l.elements / l.vec;
  l.threads = std::min(dealtTo, groups);
  l.chunks = llvm::divideCeil(groups, l.threads);
  return byShape[key] = add(std::move(l));
}

int LayoutAnalysis::rowMajor(ArrayRef<int64_t> shape, int64_t vec) {
  auto key = std::make_pair(SmallVector<int64_t>(shape), vec);
  auto it = rowMajorIds.find(key);
  if (it != rowMajorIds.end())
    return it->second;
  Layout l;
  l.shape = key.first;
  for (int64_t d : shape)
    l.elements *= d;
  l.vec = vec;
  int64_t groups = l.elements / vec;
  l.threads = std::min(dealtTo, groups);
  l.chunks = llvm::divideCeil(groups, l.threads);
  return rowMajorIds[key] = add(std::move(l));
}
