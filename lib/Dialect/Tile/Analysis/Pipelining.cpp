//===- Pipelining.cpp - How a Tile IR kernel's K loops are pipelined ------===//

#include "xtile/Dialect/Tile/Analysis/Pipelining.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "xtile/Support/Storage.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace xtile;
using namespace xtile::tile;

int64_t xtile::tile::getCopyVector(int64_t extent, int64_t bytes) {
  int64_t v = 1;
  while (2 * v * bytes <= 16 && extent % (2 * v) == 0)
    v *= 2;
  return v;
}

static bool isZero(Value v) {
  if (auto splat = v.getDefiningOp<SplatOp>())
    v = splat.getInput();
  return matchPattern(v, m_Zero()) || matchPattern(v, m_AnyZeroFloat());
}

/// Whether `v` is computed in `body` from the loop's induction variable,
/// values defined outside and pure index arithmetic only: then it can be
/// computed for any iteration.
static bool computableForAnyIteration(Value v, Block *body, Value iv) {
  if (v == iv)
    return true;
  Operation *def = v.getDefiningOp();
  if (!def)
    return !body->getParentOp()->isAncestor(
        cast<BlockArgument>(v).getOwner()->getParentOp());
  if (!body->findAncestorOpInBlock(*def))
    return true;
  if (def->getNumRegions() || !isPure(def) || isa<LoadOp>(def))
    return false;
  return llvm::all_of(def->getOperands(), [&](Value o) {
    return computableForAnyIteration(o, body, iv);
  });
}

LoadOp PipelineAnalysis::copyableLoad(scf::ForOp loop, Value operand) {
  Block *body = loop.getBody();
  // A load (masked with zeros), or a select of zeros where the load's mask
  // is false.
  LoadOp load = operand.getDefiningOp<LoadOp>();
  Operation *select = nullptr;
  if (auto sel = operand.getDefiningOp<arith::SelectOp>()) {
    load = sel.getTrueValue().getDefiningOp<LoadOp>();
    if (!load || !load.getMask() || sel.getCondition() != load.getMask() ||
        !isZero(sel.getFalseValue()))
      return {};
    select = sel;
  }
  if (!load || load->getBlock() != body)
    return {};
  if (load.getOther() && !isZero(load.getOther()))
    return {};
  auto type = cast<RankedTensorType>(operand.getType());
  if (type.getRank() != 2)
    return {};
  // Only dots (through the select) may use the tile.
  Value tileValue = select ? select->getResult(0) : load.getResult();
  if (!llvm::all_of(tileValue.getUsers(),
                    [](Operation *u) { return isa<DotOp>(u); }) ||
      (select && !load.getResult().hasOneUse()))
    return {};
  if (!llvm::all_of(load->getOperands().drop_front(), [&](Value v) {
        return computableForAnyIteration(v, body, loop.getInductionVar());
      }))
    return {};
  return load;
}

/// Copies move 4, 8 or 16 bytes: the widest part of a vector group whose
/// elements are adjacent and aligned in memory, or single 4-byte elements.
/// They are dealt out row-major in groups of up to 16 bytes (or
/// column-major, transposed), not by the tile's register layout: a tile of
/// the accumulator's shape would have its fragments' pairs.
SmallVector<CopyPlan> PipelineAnalysis::candidates(scf::ForOp loop) {
  SmallVector<CopyPlan> out;
  DenseSet<Value> seen;
  DotInstruction instruction = layouts.instruction();
  bool wgmma = instruction == DotInstruction::wgmma;
  for (auto dot : loop.getBody()->getOps<DotOp>()) {
    for (Value operand : {dot.getLhs(), dot.getRhs()}) {
      if (seen.contains(operand))
        continue;
      bool rhs = operand == dot.getRhs();
      LoadOp load = copyableLoad(loop, operand);
      if (!load)
        continue;
      auto type = cast<RankedTensorType>(operand.getType());
      auto buffer = cast<MemRefType>(load.getBuffer().getType());
      int64_t bytes = getElementBytes(type.getElementType());
      int64_t group = 0;
      for (int64_t g = getCopyVector(type.getDimSize(1), bytes);
           g >= 1 && g * bytes >= 4; g /= 2)
        if (g * bytes <= 16 &&
            (g == 1 || accesses.vectorizable(load.getIndices(), load.getMask(),
                                             buffer, g))) {
          group = g;
          break;
        }
      // mma.sync reads either orientation (ldmatrix with or without
      // .trans): a tile contiguous along its rows in memory, as PyTorch's
      // [out, in] weights are for x W^T, is copied and staged column by
      // column. wgmma reads A K-major, row by row, and B either K-major
      // (column by column) or N-major in 128-byte panels (row by row),
      // which needs whole panels (and tf32 is read K-major only).
      bool transposed = false;
      int64_t rowGroup = 0;
      if (wgmma && rhs) {
        if (type.getDimSize(1) % (128 / bytes) == 0 && bytes == 2)
          rowGroup = group;
        group = 0;
      }
      if ((instruction == DotInstruction::mma_sync && group * bytes < 16) ||
          (wgmma && rhs)) {
        for (int64_t g = std::min<int64_t>(
                 getCopyVector(type.getDimSize(0), bytes), 16 / bytes);
             g > group && g * bytes >= 4; g /= 2)
          if (accesses.vectorizable(load.getIndices(), load.getMask(), buffer,
                                    g, /*dim=*/0)) {
            group = g;
            transposed = true;
            break;
          }
      }
      if (!group)
        group = rowGroup;
      if (!group)
        continue;
      seen.insert(operand);
      CopyPlan copy;
      copy.operand = operand;
      copy.load = load;
      copy.group = group;
      copy.transposed = transposed;
      copy.rhs = rhs;
      out.push_back(copy);
    }
  }
  if (wgmma)
    for (CopyPlan &copy : out)
      copy.tma = getTmaBox(kernel, copy.load, copy.transposed);
  return out;
}

bool PipelineAnalysis::admits(scf::ForOp loop, const CopyPlan &copy) {
  DotInstruction instruction = layouts.instruction();
  bool wgmma = instruction == DotInstruction::wgmma;
  if (copyableLoad(loop, copy.operand) != copy.load)
    return false;
  LoadOp load = copy.load;
  auto type = cast<RankedTensorType>(copy.operand.getType());
  auto buffer = cast<MemRefType>(load.getBuffer().getType());
  int64_t bytes = getElementBytes(type.getElementType());
  int64_t g = copy.group;
  if (g * bytes < 4 || g * bytes > 16)
    return false;
  if (copy.transposed) {
    // Column by column: mma.sync's either operand, or wgmma's B K-major.
    if (!(instruction == DotInstruction::mma_sync || (wgmma && copy.rhs)) ||
        g > getCopyVector(type.getDimSize(0), bytes) ||
        !accesses.vectorizable(load.getIndices(), load.getMask(), buffer, g,
                               /*dim=*/0))
      return false;
  } else {
    // Row by row; wgmma's B N-major in whole 128-byte panels of 16-bit
    // elements.
    if (wgmma && copy.rhs && (bytes != 2 || type.getDimSize(1) % (128 / bytes)))
      return false;
    if (g > getCopyVector(type.getDimSize(1), bytes) ||
        (g > 1 &&
         !accesses.vectorizable(load.getIndices(), load.getMask(), buffer, g)))
      return false;
  }
  return true;
}

bool PipelineAnalysis::canOverlapWgmma(scf::ForOp loop) {
  if (layouts.instruction() != DotInstruction::wgmma)
    return false;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  auto dots = loop.getBody()->getOps<DotOp>();
  if (dots.empty())
    return false;
  for (DotOp dot : dots) {
    auto acc = dyn_cast<BlockArgument>(dot.getAcc());
    if (!acc || acc.getOwner() != loop.getBody() || acc.getArgNumber() == 0 ||
        !acc.hasOneUse() || !dot.getResult().hasOneUse() ||
        *dot.getResult().getUsers().begin() != yield.getOperation() ||
        yield.getOperand(acc.getArgNumber() - 1) != dot.getResult())
      return false;
  }
  return true;
}

/// Whether every operand of `loop`'s dots is among `copies`.
static bool copiesEveryOperand(scf::ForOp loop, ArrayRef<CopyPlan> copies) {
  return llvm::all_of(loop.getBody()->getOps<DotOp>(), [&](DotOp d) {
    return llvm::all_of(ValueRange{d.getLhs(), d.getRhs()}, [&](Value v) {
      return llvm::any_of(copies,
                          [&](const CopyPlan &c) { return c.operand == v; });
    });
  });
}

scf::ForOp PipelineAnalysis::splitLoop() {
  DotScheduleAttr dots = layouts.dotSchedule();
  if (!dots || !dots.getWarpSpecialized())
    return {};
  Block &top = kernel.getBodyBlock();
  for (Operation &op : top) {
    auto loop = dyn_cast<scf::ForOp>(op);
    if (loop && !loop.getBody()->getOps<DotOp>().empty())
      return loop;
    // The producer warpgroup runs what comes before the split too, with
    // thread ids past the tiles' layouts.
    if (op.getNumRegions() || !isMemoryEffectFree(&op))
      return {};
  }
  return {};
}

LoopPlan PipelineAnalysis::plan(scf::ForOp loop) {
  LoopPlan p;
  auto *dialect = loop->getContext()->getOrLoadDialect<XTileDialect>();
  if (IntegerAttr attr = dialect->getNumStagesAttrHelper().getAttr(loop))
    p.stages = attr.getInt();
  // The tiles of stages - 1 iterations ahead are copied while this one
  // runs; the loop's bounds may be computed (attention's visible keys),
  // its step is known.
  if (p.stages >= 2 && getConstantIntValue(loop.getStep()))
    p.copies = candidates(loop);
  // wgmma overlap: with 3 or more stages each iteration leaves its wgmma
  // group in flight (wgmma_wait 1), so the tensor cores run it while the
  // next iteration waits for its tiles. Every operand tile must come in by
  // the copies, into its stage: one staged from registers would be
  // rewritten under the group in flight.
  p.overlap = !p.copies.empty() && p.stages >= 3 && canOverlapWgmma(loop) &&
              copiesEveryOperand(loop, p.copies);
  p.warpSpecialized = loop == splitLoop();
  return p;
}

void PipelineAnalysis::write(scf::ForOp loop, const LoopPlan &plan) {
  MLIRContext *ctx = loop->getContext();
  auto *dialect = ctx->getOrLoadDialect<XTileDialect>();
  if (plan.copies.empty() && !plan.warpSpecialized) {
    loop->removeAttr(dialect->getPipelineAttrHelper().getName());
    return;
  }
  dialect->getPipelineAttrHelper().setAttr(
      loop,
      PipelineAttr::get(ctx, plan.stages, plan.overlap, plan.warpSpecialized));
  for (const CopyPlan &copy : plan.copies)
    dialect->getAsyncCopyAttrHelper().setAttr(
        copy.load,
        AsyncCopyAttr::get(ctx, copy.group, copy.transposed,
                           copy.tma ? DenseI64ArrayAttr::get(ctx, copy.tma->box)
                                    : DenseI64ArrayAttr(),
                           copy.tma ? copy.tma->swizzle : 0));
}

FailureOr<LoopPlan> PipelineAnalysis::read(scf::ForOp loop) {
  auto *dialect = loop->getContext()->getOrLoadDialect<XTileDialect>();
  auto pipeline = dyn_cast_or_null<PipelineAttr>(
      dialect->getPipelineAttrHelper().getAttr(loop));
  LoopPlan p;
  if (!pipeline)
    return p;
  p.stages = pipeline.getStages();
  // The copies, in the order of the loop's dots and their operands.
  DenseSet<Operation *> planned;
  for (auto dot : loop.getBody()->getOps<DotOp>()) {
    for (Value operand : {dot.getLhs(), dot.getRhs()}) {
      if (llvm::any_of(p.copies,
                       [&](const CopyPlan &c) { return c.operand == operand; }))
        continue;
      Operation *def = operand.getDefiningOp();
      LoadOp load = dyn_cast_or_null<LoadOp>(def);
      if (auto sel = dyn_cast_or_null<arith::SelectOp>(def))
        load = sel.getTrueValue().getDefiningOp<LoadOp>();
      if (!load)
        continue;
      auto copy = dyn_cast_or_null<AsyncCopyAttr>(
          dialect->getAsyncCopyAttrHelper().getAttr(load));
      if (!copy)
        continue;
      CopyPlan c;
      c.operand = operand;
      c.load = load;
      c.group = copy.getGroup();
      c.transposed = copy.getTransposed();
      c.rhs = operand == dot.getRhs();
      if (!admits(loop, c))
        return load.emitOpError("cannot be copied into shared memory as ")
               << copy
               << " asks: it must be a dot operand's load of a 2-d tile in "
                  "the loop's body, indexed alike in every iteration, read "
                  "by dots only, and each group of elements adjacent and "
                  "aligned in memory along the orientation it is staged in";
      if (copy.getTmaBox()) {
        std::optional<TmaBox> box =
            layouts.instruction() == DotInstruction::wgmma
                ? getTmaBox(kernel, load, c.transposed)
                : std::nullopt;
        if (!box ||
            ArrayRef<int64_t>(box->box) != copy.getTmaBox().asArrayRef() ||
            box->swizzle != copy.getSwizzle()) {
          InFlightDiagnostic diag =
              load.emitOpError("cannot be brought in by TMA as ")
              << copy << " asks: ";
          if (box)
            diag << "its box is [" << box->box << "] with a " << box->swizzle
                 << "-byte swizzle";
          else
            diag << "TMA copies need wgmma and a box of the buffer of "
                    "16-bit or fp8 elements, masked by its bounds only";
          return diag;
        }
        c.tma = box;
      }
      planned.insert(load);
      p.copies.push_back(c);
    }
  }
  for (auto load : loop.getBody()->getOps<LoadOp>())
    if (dialect->getAsyncCopyAttrHelper().getAttr(load) &&
        !planned.contains(load))
      return load.emitOpError(
          "is marked for an asynchronous copy but is no operand of a dot of "
          "its loop");
  if (pipeline.getOverlap() && (p.copies.empty() || !canOverlapWgmma(loop) ||
                                !copiesEveryOperand(loop, p.copies)))
    return loop.emitOpError(
        "cannot leave wgmma groups in flight across iterations: each dot "
        "must run on wgmma, accumulate into a value only it reads and "
        "yields, and have every operand copied ahead");
  p.overlap = pipeline.getOverlap();
  if (pipeline.getWarpSpecialized() && loop != splitLoop())
    return loop.emitOpError(
        "cannot be where the kernel splits into producer and consumer "
        "warpgroups: the schedule must be warp-specialized, and this must be "
        "the first loop with dots of the kernel's body, after nothing that "
        "touches memory or has regions");
  p.warpSpecialized = pipeline.getWarpSpecialized();
  return p;
}

LogicalResult PipelineAnalysis::verifyCopies() {
  auto *dialect = kernel->getContext()->getOrLoadDialect<XTileDialect>();
  WalkResult stray = kernel.walk([&](LoadOp load) {
    if (!dialect->getAsyncCopyAttrHelper().getAttr(load))
      return WalkResult::advance();
    auto loop = dyn_cast<scf::ForOp>(load->getParentOp());
    if (loop && dialect->getPipelineAttrHelper().getAttr(loop))
      return WalkResult::advance();
    load.emitOpError("is marked for an asynchronous copy outside a "
                     "pipelined loop (one with 'xtile.pipeline')");
    return WalkResult::interrupt();
  });
  return failure(stray.wasInterrupted());
}
