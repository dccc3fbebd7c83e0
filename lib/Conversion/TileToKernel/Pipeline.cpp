//===- Pipeline.cpp - Dot operands in shared memory, pipelined loops ------===//
//
// The operand tiles of dots, staged in shared memory for either family of
// instructions (FmaDot.cpp, MmaSyncDot.cpp): stored from registers, or
// copied asynchronously (cp.async) iterations ahead in software-pipelined
// loops (`scf.for`).
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "xtile/Support/Storage.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace xtile;
using namespace xtile::tiletokernel;

//===----------------------------------------------------------------------===//
// Operand tiles in shared memory
//===----------------------------------------------------------------------===//

Value KernelLowering::sharedOffset(RankedTensorType type, Value row,
                                   Value col, bool reading, bool transposed) {
  if (transposed) {
    // Element (row, col) of the tile is element (col, row) of the buffer.
    std::swap(row, col);
    type = RankedTensorType::get({type.getDimSize(1), type.getDimSize(0)},
                                 type.getElementType());
  }
  int64_t cols = type.getDimSize(1);
  Value linear = add(mul(row, cst(cols)), col);
  if (instruction() == xt::DotInstruction::fma)
    return linear;
  // ldmatrix reads 8 rows of 16 bytes at once; with rows stored plainly,
  // rows 128 bytes apart hit the same banks. Chunk c of row r is stored at
  // chunk c ^ ((r / perPhase) % maxPhase): eight consecutive rows' chunks
  // then fall in distinct bank groups.
  int64_t chunkElements = 16 / getElementBytes(type.getElementType());
  int64_t rowBytes = 16 * cols / chunkElements;
  bool unswizzled = !overrides.swizzleStagedWrites() && !reading;
  if (instruction() == xt::DotInstruction::wgmma && rowBytes > 128) {
    // wgmma reads a tile whose rows are wider than 128 bytes (B contiguous
    // along N) in panels of 128-byte columns, one after the other: element
    // (row, col) lies in panel col / P (P = 128 bytes of elements), row by
    // row within it, and its chunk is XORed with row % 8 as the 128-byte
    // swizzle does (see panelBytes).
    int64_t panel = 128 / getElementBytes(type.getElementType());
    Value within = rem(col, panel);
    Value chunk = div(within, chunkElements);
    if (!unswizzled)
      chunk = b.createOrFold<arith::XOrIOp>(loc, chunk, rem(row, 8));
    return add(add(mul(div(col, panel), cst(panel * type.getDimSize(0))),
                   mul(row, cst(panel))),
               add(mul(chunk, cst(chunkElements)), rem(col, chunkElements)));
  }
  int64_t perPhase = std::max<int64_t>(1, 128 / rowBytes);
  int64_t maxPhase = std::min<int64_t>(8, rowBytes / 16);
  if (maxPhase <= 1 || unswizzled)
    return linear;
  Value phase = rem(div(row, perPhase), maxPhase);
  Value chunk = b.createOrFold<arith::XOrIOp>(loc, div(col, chunkElements),
                                              phase);
  return add(mul(row, cst(cols)),
             add(mul(chunk, cst(chunkElements)), rem(col, chunkElements)));
}

FailureOr<std::pair<Value, Value>>
KernelLowering::stageOperand(Value operand, bool &stagedNow,
                             std::optional<bool> orientation) {
  auto it = staged.find(operand);
  if (it != staged.end()) {
    if (orientation && stagedTransposed.contains(operand) != *orientation)
      return emitError(loc, "an operand tile is staged in shared memory in "
                            "the other orientation than its dot reads");
    return it->second;
  }
  bool transposed = orientation.value_or(false);
  auto type = cast<RankedTensorType>(operand.getType());
  int cs = coordinates.base(type.getShape());
  FailureOr<SmallVector<Value>> values = tile(operand, cs);
  if (failed(values))
    return failure();
  Type element = type.getElementType();
  Value buffer =
      dynamicShared(element, type.getNumElements(), sharedAlignment());
  const Layout &l = layouts[coordinates[cs].layout];
  for (int64_t c = 0; c < l.chunks; ++c) {
    // Column by column, a group's elements are apart: stored one by one.
    int64_t group = transposed ? 1 : l.vec;
    for (int64_t i = 0; i < l.vec; i += group) {
      int64_t s0 = c * l.vec + i;
      ArrayRef<Value> coords = coordinates[cs].coords[s0];
      Value offset = sharedOffset(type, coords[0], coords[1],
                                  /*reading=*/false, transposed);
      SmallVector<Value> elements(ArrayRef<Value>(*values).slice(s0, group));
      // wgmma on tf32 reads its operands as they are in shared memory.
      if (wgmmaTf32())
        for (Value &e : elements)
          e = xk::RoundTf32Op::create(b, loc, e);
      Value lanes = group == 1 ? elements[0]
                               : (Value)vector::FromElementsOp::create(
                                     b, loc, VectorType::get({group}, element),
                                     elements);
      predicated(
          b, loc, coordinates.owned(coordinates[cs].layout, c), {},
          [&] {
            xk::StoreOp::create(b, loc, lanes, buffer, offset);
            return SmallVector<Value>{};
          },
          [&] { return SmallVector<Value>{}; });
    }
  }
  staged[operand] = {buffer, cst(0)};
  if (transposed)
    stagedTransposed.insert(operand);
  stagedNow = true;
  return staged[operand];
}

FailureOr<KernelLowering::DotOperands>
KernelLowering::stageDot(xt::DotOp op, std::optional<bool> lhsOrientation,
                         std::optional<bool> rhsOrientation) {
  DotOperands out;
  bool stagedNow = false;
  FailureOr<std::pair<Value, Value>> a =
      stageOperand(op.getLhs(), stagedNow, lhsOrientation);
  if (failed(a))
    return failure();
  FailureOr<std::pair<Value, Value>> rhs =
      stageOperand(op.getRhs(), stagedNow, rhsOrientation);
  if (failed(rhs))
    return failure();
  out.lhs = *a;
  out.rhs = *rhs;
  if (stagedNow) {
    // wgmma reads shared memory through the async proxy: each thread
    // fences its stores before the block meets.
    if (instruction() == xt::DotInstruction::wgmma)
      xk::FenceProxyAsyncOp::create(b, loc);
    barrier();
    stagedInBody = true;
  }
  if (dynamicBytes > target.sharedMemory())
    return op.emitOpError("needs ")
           << dynamicBytes << " bytes of shared memory for its operand tiles, "
           << "more than the target's " << target.sharedMemory();
  out.accumulator = coordinates.base(
      cast<RankedTensorType>(op.getAcc().getType()).getShape());
  FailureOr<SmallVector<Value>> acc = tile(op.getAcc(), out.accumulator);
  if (failed(acc))
    return failure();
  out.slots = std::move(*acc);
  return out;
}

//===----------------------------------------------------------------------===//
// Pipelined dot operands (cp.async)
//===----------------------------------------------------------------------===//

SmallVector<KernelLowering::Pipelined>
KernelLowering::pipelineOperands(const xt::LoopPlan &plan) {
  SmallVector<Pipelined> out;
  for (const xt::CopyPlan &copy : plan.copies) {
    auto type = cast<RankedTensorType>(copy.operand.getType());
    int64_t bytes = getElementBytes(type.getElementType());
    // The copies are dealt out row-major, or column-major where staged
    // column by column (the coordinates of the orientations the plan
    // considered are made in the order it considered them).
    int coords = coordinates.rowMajor(
        type.getShape(), xt::getCopyVector(type.getDimSize(1), bytes));
    bool wgmma = instruction() == xt::DotInstruction::wgmma;
    if (copy.transposed ||
        (instruction() == xt::DotInstruction::mma_sync &&
         copy.group * bytes < 16) ||
        (wgmma && copy.rhs)) {
      int colCoords = coordinates.transposed(
          type.getShape(), xt::getCopyVector(type.getDimSize(0), bytes));
      if (copy.transposed)
        coords = colCoords;
    }
    out.push_back({copy.operand, copy.load, Value(), type.getNumElements(),
                   copy.group, copy.transposed, coords});
  }
  for (auto [p, copy] : llvm::zip(out, plan.copies)) {
    copiedLoads.insert(p.load);
    if (Operation *sel = p.operand.getDefiningOp<arith::SelectOp>())
      copiedLoads.insert(sel);
    p.buffer = dynamicShared(
        cast<RankedTensorType>(p.operand.getType()).getElementType(),
        plan.stages * p.elements, sharedAlignment());
    if (copy.tma) {
      p.map = tensorMapArgument(cast<BlockArgument>(p.load.getBuffer()),
                                copy.tma->box,
                                overrides.tensorMapSwizzle(copy.tma->swizzle));
      for (const xt::IndexRun &r : copy.tma->runs)
        p.runs.push_back({r.start, r.offset});
      p.panels = copy.tma->panels;
      p.panelWidth = copy.tma->panelWidth;
      p.panelElements = copy.tma->panelElements;
    }
  }
  return out;
}

/// Starts the copies of iteration `iteration` (an index from 0) of `op`,
/// whose lower bound is `lowerBound`, into stage `stage` of each operand's
/// buffer.
LogicalResult KernelLowering::issueCopies(ArrayRef<Pipelined> operands,
                                          scf::ForOp op, Value lowerBound,
                                          Value iteration, Value stage,
                                          bool elected) {
  int64_t step = *getConstantIntValue(op.getStep());
  Value iv = add(lowerBound, mul(iteration, cst(step)));
  // The iteration's index tiles are computed afresh, for its induction
  // variable.
  DenseMap<std::pair<Value, int>, SmallVector<Value>> savedMemo;
  std::swap(savedMemo, memo);
  scopes.emplace_back();
  Block *savedBody = reissueBody;
  reissueBody = op.getBody();
  reissued.clear();
  reissued[op.getInductionVar()] = iv;
  llvm::scope_exit restore([&] {
    std::swap(savedMemo, memo);
    scopes.pop_back();
    reissueBody = savedBody;
    reissued.clear();
  });
  Type i32 = b.getI32Type();
  for (Pipelined p : operands) {
    if (p.map)
      continue;
    auto type = cast<RankedTensorType>(p.operand.getType());
    int cs = p.coords;
    const Layout &l = layouts[coordinates[cs].layout];
    Access access = accessOf(p.load.getBuffer());
    FailureOr<SmallVector<Value>> offs =
        offsets(access, p.load.getIndices(), cs, p.load);
    if (failed(offs))
      return failure();
    FailureOr<SmallVector<Value>> masks =
        maskSlots(p.load.getMask(), cs, p.load);
    if (failed(masks))
      return failure();
    int64_t bytes = getElementBytes(type.getElementType());
    int64_t group = p.group;
    Value base = mul(stage, cst(p.elements));
    for (int64_t c = 0; c < l.chunks; ++c) {
      for (int64_t i = 0; i < l.vec; i += group) {
        int64_t s0 = c * l.vec + i;
        ArrayRef<Value> coords = coordinates[cs].coords[s0];
        Value local =
            add(base, sharedOffset(type, coords[0], coords[1],
                                   /*reading=*/false, p.transposed));
        Value valid;
        if (!masks->empty())
          valid = arith::SelectOp::create(
              b, loc, (*masks)[s0],
              arith::ConstantIntOp::create(b, loc, i32, group * bytes),
              arith::ConstantIntOp::create(b, loc, i32, 0));
        predicated(
            b, loc, coordinates.owned(coordinates[cs].layout, c), {},
            [&] {
              xk::AsyncCopyOp::create(b, loc, access.ptr, (*offs)[s0],
                                      p.buffer, local, group * bytes, valid);
              return SmallVector<Value>{};
            },
            [&] { return SmallVector<Value>{}; });
      }
    }
  }
  return issueTmaCopies(operands, stage, elected);
}

void KernelLowering::roundCopiedTf32(const Pipelined &p, Value stage) {
  auto type = cast<RankedTensorType>(p.operand.getType());
  const Layout &l = layouts[coordinates[p.coords].layout];
  Value base = mul(stage, cst(p.elements));
  auto vector = VectorType::get({p.group}, b.getF32Type());
  for (int64_t c = 0; c < l.chunks; ++c)
    for (int64_t i = 0; i < l.vec; i += p.group) {
      ArrayRef<Value> coords = coordinates[p.coords].coords[c * l.vec + i];
      Value local = add(base, sharedOffset(type, coords[0], coords[1],
                                           /*reading=*/false, p.transposed));
      predicated(
          b, loc, coordinates.owned(coordinates[p.coords].layout, c), {},
          [&] {
            Value v = xk::LoadOp::create(b, loc, vector, p.buffer, local);
            SmallVector<Value> lanes;
            for (int64_t e = 0; e < p.group; ++e)
              lanes.push_back(xk::RoundTf32Op::create(
                  b, loc, vector::ExtractOp::create(b, loc, v, e)));
            xk::StoreOp::create(
                b, loc,
                vector::FromElementsOp::create(b, loc, vector, lanes),
                p.buffer, local);
            return SmallVector<Value>{};
          },
          [&] { return SmallVector<Value>{}; });
    }
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

std::pair<Value, Value> KernelLowering::nextStage(Value stage,
                                                 int64_t stages) {
  Type i32 = b.getI32Type();
  Value up = add(stage, cst(1, i32));
  Value wraps = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                              up, cst(stages, i32));
  return {b.createOrFold<arith::SelectOp>(loc, wraps, cst(0, i32), up), wraps};
}

//===----------------------------------------------------------------------===//
// Warp specialization
//===----------------------------------------------------------------------===//

void KernelLowering::splitConsumers(function_ref<void()> producer) {
  if (producer) {
    Value isProducer = b.createOrFold<arith::CmpIOp>(
        loc, arith::CmpIPredicate::uge, tid, cst(layouts.numThreads()));
    predicated(
        b, loc, isProducer, {},
        [&] {
          producer();
          return SmallVector<Value>{};
        },
        [&] { return SmallVector<Value>{}; });
  }
  Value isConsumer = b.createOrFold<arith::CmpIOp>(
      loc, arith::CmpIPredicate::ult, tid, cst(layouts.numThreads()));
  auto consumers =
      scf::IfOp::create(b, loc, TypeRange{}, isConsumer, /*withElse=*/false);
  Block *then = consumers.thenBlock();
  if (then->empty() || !then->back().hasTrait<OpTrait::IsTerminator>()) {
    b.setInsertionPointToEnd(then);
    scf::YieldOp::create(b, loc);
  }
  b.setInsertionPoint(then->getTerminator());
  consumersOnly = true;
}

LogicalResult KernelLowering::produce(ArrayRef<Pipelined> operands,
                                      scf::ForOp op, Value lowerBound,
                                      Value trips, int64_t stages) {
  // Every thread of the warpgroup gives up its registers (an aligned
  // instruction); one of them then issues the copies.
  xk::SetMaxRegistersOp::create(b, loc, /*increase=*/false,
                                kProducerRegisters);
  Value elected = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                                tid, cst(layouts.numThreads()));
  LogicalResult result = success();
  Type i32 = b.getI32Type();
  predicated(
      b, loc, elected, {},
      [&] {
        // Iteration i goes into stage i mod stages, in round
        // r = i / stages of it: round r waits until the consumers released
        // round r - 1, the phase of parity (r - 1) mod 2 of the stage's
        // empty barrier. In round 0 that is the phase before the first,
        // which counts as complete.
        auto loop = scf::ForOp::create(b, loc, cst(0), trips, cst(1),
                                       ValueRange{cst(0, i32), cst(0, i32)});
        OpBuilder::InsertionGuard g(b);
        if (!loop.getBody()->empty())
          loop.getBody()->back().erase();
        b.setInsertionPointToStart(loop.getBody());
        Value stage = loop.getRegionIterArgs()[0];
        Value round = loop.getRegionIterArgs()[1];
        // The parity waited for, and the next round's when the stage wraps.
        Value flipped =
            b.createOrFold<arith::XOrIOp>(loc, round, cst(1, i32));
        if (overrides.producerWaitsForRelease())
          xk::MbarrierWaitOp::create(b, loc, emptyBarriers, asIndex(stage),
                                     asIndex(flipped));
        result = issueCopies(operands, op, lowerBound, loop.getInductionVar(),
                             asIndex(stage), /*elected=*/true);
        auto [next, wraps] = nextStage(stage, stages);
        scf::YieldOp::create(
            b, loc,
            ValueRange{next, b.createOrFold<arith::SelectOp>(loc, wraps,
                                                             flipped, round)});
        return SmallVector<Value>{};
      },
      [&] { return SmallVector<Value>{}; });
  return result;
}

FailureOr<KernelLowering::LoopPipeline>
KernelLowering::planLoop(scf::ForOp op) {
  // The plan --xtile-plan-pipelines recorded (none: not pipelined),
  // checked against the loop.
  FailureOr<xt::LoopPlan> plan = pipelines.read(op);
  if (failed(plan))
    return failure();
  LoopPipeline p;
  // Pipelining: the operand tiles of the loop's dots are copied into
  // shared memory asynchronously, stages - 1 iterations ahead.
  p.stages = plan->stages;
  p.operands = pipelineOperands(*plan);
  // wgmma overlap: each iteration leaves its wgmma group in flight
  // (wgmma_wait 1), so the tensor cores run it while the next iteration
  // waits for its tiles. The copies then run stages - 2 iterations ahead,
  // not stages - 1: iteration i overwrites the stage iteration i - 2 read,
  // whose group every warpgroup retired before the barrier that ends
  // iteration i - 1, never the stage of the group still in flight (i - 1)
  // (LoweringOverrides::copiesAhead).
  p.overlap = plan->overlap;
  p.ahead = overrides.copiesAhead(p.stages, p.overlap);
  // Operands copied by cp.async (the others come in by TMA, on one
  // mbarrier per stage).
  p.copies = llvm::any_of(
      p.operands, [](const Pipelined &operand) { return !operand.map; });
  p.tma = llvm::any_of(p.operands,
                       [](const Pipelined &operand) { return operand.map; });
  // Warp specialization: a producer warpgroup issues every TMA copy as soon
  // as the consumers release its stage (its "empty" mbarrier), and the
  // consumers only wait for the copies ("full"), with no barrier of the
  // whole block in the loop. A loop it does not suit (operands not all by
  // TMA, or no wgmma group to leave in flight) runs on the consumers as
  // usual, the producer warpgroup idle.
  p.specialized = plan->warpSpecialized;
  p.produced = p.specialized && p.overlap && !p.copies && p.tma;
  return p;
}

LogicalResult KernelLowering::startPipeline(LoopPipeline &p, scf::ForOp op,
                                            Value lb, Value ub) {
  if (p.specialized && !p.produced)
    splitConsumers(nullptr);
  if (p.tma)
    initTmaBarriers(p.stages, p.produced ? layouts.numThreads() : 0);
  if (p.operands.empty())
    return success();
  p.step = *getConstantIntValue(op.getStep());
  std::optional<int64_t> lbConst = getConstantIntValue(op.getLowerBound());
  std::optional<int64_t> ubConst = getConstantIntValue(op.getUpperBound());
  if (lbConst && ubConst)
    p.trips = cst(
        std::max<int64_t>(0, llvm::divideCeil(*ubConst - *lbConst, p.step)));
  else
    p.trips =
        div(add(b.createOrFold<arith::MaxSIOp>(
                    loc, b.createOrFold<arith::SubIOp>(loc, ub, lb), cst(0)),
                cst(p.step - 1)),
            p.step);
  // The first `ahead` iterations' copies, those that exist (the
  // producer's, with warp specialization).
  if (p.produced) {
    LogicalResult issued = success();
    Value tripCount = p.trips;
    splitConsumers(
        [&] { issued = produce(p.operands, op, lb, tripCount, p.stages); });
    if (failed(issued))
      return failure();
    // The consumers take the registers the producer gave up.
    xk::SetMaxRegistersOp::create(b, loc, /*increase=*/true,
                                  consumerRegisters());
    p.ahead = 0;
  }
  for (int64_t j = 0; j < p.ahead; ++j) {
    LogicalResult issued = success();
    predicated(
        b, loc,
        b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ult, cst(j),
                                      p.trips),
        {},
        [&] {
          issued = issueCopies(p.operands, op, lb, cst(j), cst(j));
          return SmallVector<Value>{};
        },
        [&] { return SmallVector<Value>{}; });
    if (failed(issued))
      return failure();
    if (p.copies)
      xk::AsyncCommitOp::create(b, loc);
  }
  return success();
}

LogicalResult KernelLowering::startIteration(LoopPipeline &p, scf::ForOp op,
                                             scf::ForOp loop, Value lb) {
  ValueRange args = loop.getRegionIterArgs();
  Value current;
  if (p.produced) {
    current = asIndex(args[p.carried]);
    // The stage the previous iteration read, whose wgmma group the wait of
    // this one retires (see lowerWgmmaDot), is released after the body.
    p.releasedStage = b.createOrFold<arith::SelectOp>(
        loc,
        b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                      args[p.carried], i32(0)),
        i32(p.stages - 1),
        b.createOrFold<arith::SubIOp>(loc, args[p.carried], i32(1)));
    p.releases = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ne,
                                               loop.getInductionVar(), lb);
  } else {
    // Iteration i starts the copies of iteration i + ahead, then waits for
    // its own (committed `ahead` groups earlier).
    Value i = div(
        b.createOrFold<arith::SubIOp>(loc, loop.getInductionVar(), lb), p.step);
    Value later = add(i, cst(p.ahead));
    Value inRange = b.createOrFold<arith::CmpIOp>(
        loc, arith::CmpIPredicate::ult, later, p.trips);
    current = asIndex(args[p.carried]);
    Value copyStage = asIndex(args[p.carried + 1]);
    LogicalResult issued = success();
    predicated(
        b, loc, inRange, {},
        [&] {
          issued = issueCopies(p.operands, op, lb, later, copyStage);
          return SmallVector<Value>{};
        },
        [&] { return SmallVector<Value>{}; });
    if (failed(issued))
      return failure();
  }
  if (p.copies) {
    xk::AsyncCommitOp::create(b, loc);
    xk::AsyncWaitOp::create(b, loc, p.ahead);
    // wgmma on tf32 reads its operands as they are in shared memory: each
    // thread rounds what it copied there.
    if (wgmmaTf32()) {
      for (const Pipelined &operand : p.operands)
        roundCopiedTf32(operand, current);
    }
    // wgmma reads shared memory through the async proxy: the copies this
    // thread made are fenced before the block meets.
    if (instruction() == xt::DotInstruction::wgmma)
      xk::FenceProxyAsyncOp::create(b, loc);
    barrier();
  }
  if (p.tma) {
    // Iteration i's boxes complete phase i / stages of its stage's
    // barrier.
    Value parity = asIndex(args[p.parityArg]);
    if (!overrides.waitForCopiesPhase())
      parity = b.createOrFold<arith::XOrIOp>(loc, parity, cst(1));
    xk::MbarrierWaitOp::create(b, loc, tmaBarriers, current, parity);
  }
  for (const Pipelined &operand : p.operands) {
    staged[operand.operand] = {operand.buffer,
                               mul(current, cst(operand.elements))};
    if (operand.transposed)
      stagedTransposed.insert(operand.operand);
  }
  stagedInBody = true;
  return success();
}

void KernelLowering::endIteration(const LoopPipeline &p, scf::ForOp loop,
                                  SmallVector<Value> &yielded) {
  // Shared-memory tiles are rewritten by the next iteration: the threads
  // meet, or with warp specialization each consumer thread releases the
  // stage its retired group read to the producer.
  if (p.produced) {
    Value stage = asIndex(p.releasedStage);
    predicated(
        b, loc, p.releases, {},
        [&] {
          xk::MbarrierArriveOp::create(b, loc, emptyBarriers, stage);
          return SmallVector<Value>{};
        },
        [&] { return SmallVector<Value>{}; });
  } else if (stagedInBody) {
    barrier();
  }
  if (p.operands.empty())
    return;
  // The next iteration's stages and parity.
  ValueRange args = loop.getRegionIterArgs();
  auto [current, wraps] = nextStage(args[p.carried], p.stages);
  yielded.push_back(current);
  if (!p.produced)
    yielded.push_back(nextStage(args[p.carried + 1], p.stages).first);
  if (p.tma) {
    Value parity = args[p.parityArg];
    yielded.push_back(b.createOrFold<arith::SelectOp>(
        loc, wraps, b.createOrFold<arith::XOrIOp>(loc, parity, i32(1)),
        parity));
  }
}

void KernelLowering::drainWgmma(scf::ForOp op,
                                ArrayRef<std::pair<int64_t, int>> spans,
                                SmallVector<Value> &results) {
  // The last iteration's wgmma group is still in flight: wait for it
  // before the accumulators are read, passing them through the wait.
  SmallVector<std::pair<int64_t, int64_t>> spansOfDots; // (first, count)
  int64_t pos = 0;
  for (auto [v, span] : llvm::zip(op.getResults(), spans)) {
    if (span.second >= 0 &&
        llvm::any_of(op.getBody()->getOps<xt::DotOp>(), [&](xt::DotOp d) {
          return cast<BlockArgument>(d.getAcc()).getArgNumber() - 1 ==
                 cast<OpResult>(v).getResultNumber();
        }))
      spansOfDots.push_back({pos, span.first});
    pos += span.first;
  }
  SmallVector<Value> vectors;
  SmallVector<Type> types;
  for (auto [first, count] : spansOfDots) {
    auto type = VectorType::get({count}, b.getF32Type());
    vectors.push_back(vector::FromElementsOp::create(
        b, loc, type, ArrayRef<Value>(results).slice(first, count)));
    types.push_back(type);
  }
  auto wait =
      xk::WgmmaWaitOp::create(b, loc, types, b.getI64IntegerAttr(0), vectors);
  for (auto [k, span] : llvm::enumerate(spansOfDots))
    for (int64_t e = 0; e < span.second; ++e)
      results[span.first + e] =
          vector::ExtractOp::create(b, loc, wait.getResult(k), e);
}

LogicalResult KernelLowering::lowerFor(scf::ForOp op) {
  FailureOr<Value> lb = scalar(op.getLowerBound(), op);
  FailureOr<Value> ub = scalar(op.getUpperBound(), op);
  FailureOr<Value> step = scalar(op.getStep(), op);
  if (failed(lb) || failed(ub) || failed(step))
    return failure();
  SmallVector<Value> inits;
  SmallVector<std::pair<int64_t, int>> spans; // (slots, coordinate set or -1)
  for (Value init : op.getInitArgs()) {
    if (!isTile(init)) {
      FailureOr<Value> s = scalar(init, op);
      if (failed(s))
        return failure();
      inits.push_back(*s);
      spans.push_back({1, -1});
      continue;
    }
    int cs =
        coordinates.base(cast<RankedTensorType>(init.getType()).getShape());
    FailureOr<SmallVector<Value>> t = tile(init, cs);
    if (failed(t))
      return failure();
    llvm::append_range(inits, *t);
    spans.push_back({(int64_t)t->size(), cs});
  }
  // The loop's values (iteration arguments, results) stand for their slots:
  // a scalar each, or a tile's at its coordinate set.
  auto bind = [&](ValueRange values, ValueRange slots) {
    int64_t pos = 0;
    for (auto [v, span] : llvm::zip(values, spans)) {
      ValueRange own = slots.slice(pos, span.first);
      if (span.second < 0)
        scalars[v] = own[0];
      else
        remember(v, span.second, SmallVector<Value>(own));
      pos += span.first;
    }
  };
  FailureOr<LoopPipeline> planned = planLoop(op);
  if (failed(planned))
    return failure();
  LoopPipeline &p = *planned;
  if (failed(startPipeline(p, op, *lb, *ub)))
    return failure();
  // The stage iteration i reads (i mod stages), the stage it copies into
  // ((i + ahead) mod stages) and, with TMA, the parity of the phase it
  // waits for ((i / stages) mod 2) are carried by the loop, each stepped
  // by a compare and a select instead of a division by the stage count.
  // They are 32-bit: index arithmetic is 64-bit in PTX.
  // With warp specialization only the stage read and its parity.
  p.carried = inits.size();
  p.parityArg = p.carried + (p.produced ? 1 : 2);
  if (!p.operands.empty()) {
    inits.push_back(i32(0));
    if (!p.produced)
      inits.push_back(i32(p.ahead % p.stages));
    if (p.tma)
      inits.push_back(i32(0));
  }
  auto loop = scf::ForOp::create(b, loc, *lb, *ub, *step, inits);
  // The builder gives a loop without results its terminator; ours comes last.
  if (!loop.getBody()->empty())
    loop.getBody()->back().erase();
  DenseMap<Value, std::pair<Value, Value>> savedStaged;
  std::swap(savedStaged, staged);
  bool savedStagedInBody = stagedInBody;
  stagedInBody = false;
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    scalars[op.getInductionVar()] = loop.getInductionVar();
    scopes.emplace_back();
    bind(op.getRegionIterArgs(), loop.getRegionIterArgs());
    if (!p.operands.empty() && failed(startIteration(p, op, loop, *lb)))
      return failure();
    ++loopDepth;
    Operation *savedOverlap = overlapLoop;
    overlapLoop = p.overlap ? op.getOperation() : nullptr;
    LogicalResult body = lowerBlock(*op.getBody());
    overlapLoop = savedOverlap;
    --loopDepth;
    if (failed(body))
      return failure();
    SmallVector<Value> yielded;
    auto yield = cast<scf::YieldOp>(op.getBody()->getTerminator());
    for (auto [v, span] : llvm::zip(yield.getOperands(), spans)) {
      if (span.second < 0) {
        FailureOr<Value> s = scalar(v, yield);
        if (failed(s))
          return failure();
        yielded.push_back(*s);
      } else {
        FailureOr<SmallVector<Value>> t = tile(v, span.second);
        if (failed(t))
          return failure();
        llvm::append_range(yielded, *t);
      }
    }
    endIteration(p, loop, yielded);
    scf::YieldOp::create(b, loc, yielded);
    for (auto &key : scopes.back())
      memo.erase(key);
    scopes.pop_back();
  }
  std::swap(savedStaged, staged);
  stagedInBody = savedStagedInBody;
  if (p.copies)
    xk::AsyncWaitOp::create(b, loc, 0);
  SmallVector<Value> results(loop.getResults());
  if (p.overlap)
    drainWgmma(op, spans, results);
  auto *ctx = op->getContext();
  if (IntegerAttr stagesAttr = ctx->getOrLoadDialect<xt::XTileDialect>()
                                   ->getNumStagesAttrHelper()
                                   .getAttr(op))
    ctx->getOrLoadDialect<xk::XKernelDialect>()
        ->getNumStagesAttrHelper()
        .setAttr(loop, stagesAttr);
  bind(op.getResults(), results);
  return success();
}
