//===- LoopToTile.cpp - Loop IR to Tile IR --------------------------------===//
//
// A row kernel (parallel loops over rows; folds and an elementwise loop over
// the same columns) becomes one program per row whose columns are a tile.
// The schedule (fold strategy, warps, vector width) is chosen per kernel by
// a cost model for the target GPU.
//
//===----------------------------------------------------------------------===//

#include "xtile/Conversion/LoopToTile/LoopToTile.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"

namespace xtile {
#define GEN_PASS_DEF_CONVERTXLOOPTOXTILE
#include "xtile/Conversion/Passes.h.inc"
} // namespace xtile

using namespace mlir;
using namespace xtile;
namespace xl = xtile::loop;
namespace xt = xtile::tile;

namespace {

//===----------------------------------------------------------------------===//
// Kernel structure
//===----------------------------------------------------------------------===//

/// A row kernel: `rows` (outer to inner) give one program per iteration;
/// the innermost row body holds folds and at most one column loop, all over
/// `columns` iterations (0: no column work).
struct RowNest {
  SmallVector<xl::ParallelOp> rows;
  Block *body = nullptr;
  int64_t columns = 0;
  int64_t folds = 0;
};

static bool hasRegionOps(Block &block) {
  return llvm::any_of(block, [](Operation &op) { return op.getNumRegions(); });
}

static FailureOr<RowNest> analyze(xl::KernelOp kernel) {
  RowNest nest;
  Block *block = &kernel.getBodyBlock();
  while (true) {
    SmallVector<Operation *> regionOps;
    for (Operation &op : *block)
      if (op.getNumRegions())
        regionOps.push_back(&op);
    auto loop = regionOps.size() == 1 ? dyn_cast<xl::ParallelOp>(regionOps[0])
                                      : xl::ParallelOp();
    if (loop && hasRegionOps(loop.getBodyBlock())) {
      nest.rows.push_back(loop);
      block = &loop.getBodyBlock();
      continue;
    }
    break;
  }
  nest.body = block;
  for (Operation &op : *block) {
    if (!op.getNumRegions())
      continue;
    int64_t extent;
    if (auto fold = dyn_cast<xl::FoldOp>(op)) {
      if (hasRegionOps(fold.getBodyBlock()))
        return kernel.emitOpError(
            "has nested folds, which are not lowered to Tile IR yet");
      // A fold with a load that leaves out one of several row dimensions
      // is a contraction (matmul: A[i, k] x B[k, j]); its schedule (BM/BN/BK
      // tiles, pipelining) is to come. A single row dimension (a matrix-
      // vector product) is a plain row reduction.
      SmallVector<Value> rowIvs;
      for (xl::ParallelOp row : nest.rows)
        if (row.getUpper() - row.getLower() > 1)
          rowIvs.push_back(row.getInductionVar());
      bool contraction = false;
      fold.walk([&](xl::LoadOp load) {
        for (Value iv : rowIvs)
          if (!llvm::is_contained(load.getIndices(), iv))
            contraction = rowIvs.size() >= 2;
      });
      if (contraction)
        return kernel.emitOpError(
            "is a contraction (a fold over loads that leave out a row "
            "dimension); matmul schedules are not lowered to Tile IR yet");
      extent = fold.getUpper() - fold.getLower();
      ++nest.folds;
    } else if (auto loop = dyn_cast<xl::ParallelOp>(op)) {
      extent = loop.getUpper() - loop.getLower();
    } else {
      return op.emitOpError("is not supported in a Tile IR row kernel");
    }
    if (nest.columns && extent != nest.columns)
      return kernel.emitOpError()
             << "has column loops of different extents (" << nest.columns
             << " and " << extent << "); not lowered to Tile IR yet";
    nest.columns = extent;
  }
  return nest;
}

//===----------------------------------------------------------------------===//
// Schedules and the cost model
//===----------------------------------------------------------------------===//

struct Schedule {
  xt::FoldStrategy strategy = xt::FoldStrategy::serial;
  int64_t warps = 1;
  int64_t vector = 1;
  double micros = 0;
  std::string why;

  std::string name() const {
    return (xt::stringifyFoldStrategy(strategy) + ":" + Twine(warps) + ":" +
            Twine(vector))
        .str();
  }
};

struct KernelFacts {
  int64_t programs = 1;
  int64_t columns = 0;
  int64_t tile = 1; // columns padded to a power of two
  int64_t folds = 0;
  int64_t elementBytes = 4;
  int64_t bytes = 0;   // every buffer once
  int64_t streams = 1; // tile loads in the body
  bool contiguous = true; // every column access walks the last dimension
};

/// Estimated time of one schedule, in microseconds. Memory time is bytes over
/// bandwidth, slowed when the grid cannot keep enough bytes in flight to
/// cover memory latency (Little's law, ~0.6 us on HBM); reductions cost a
/// step per shuffle, barrier or serial element, repeated per wave of
/// programs; each kernel pays a launch.
static double estimate(const KernelFacts &k, const xt::TargetAttr &target,
                       Schedule &s) {
  constexpr double kLaunchMicros = 3.0, kLatencyMicros = 0.6,
                   kStepMicros = 0.02, kIssueMicros = 0.002;
  int64_t threads = 32 * s.warps;
  int64_t perThread = llvm::divideCeil(k.tile, threads);
  // Registers: a baseline plus the tile elements each thread holds (live
  // tiles of the body, about one per load stream).
  int64_t registers = 32 + perThread * std::max<int64_t>(1, k.streams);
  bool spills = registers > 255;
  int64_t byRegisters =
      target.getRegisters() / (std::min<int64_t>(registers, 255) * threads);
  int64_t perSM = std::max<int64_t>(
      1, std::min({int64_t(32), 2048 / threads, byRegisters}));
  int64_t resident = std::min(k.programs, target.getSms() * perSM);
  double bytesPerMicro = target.getBandwidth() * 1e3; // GB/s -> B/us
  double inFlight = double(resident) * threads * s.vector * k.elementBytes *
                    std::max<int64_t>(1, k.streams);
  double fraction = std::min(1.0, inFlight / (bytesPerMicro * kLatencyMicros));
  double memory = k.bytes / (bytesPerMicro * fraction);
  if (spills)
    memory *= 4;
  double waves = std::ceil(double(k.programs) / (target.getSms() * perSM));
  double steps = 0;
  switch (s.strategy) {
  case xt::FoldStrategy::serial:
    steps = k.tile;
    break;
  case xt::FoldStrategy::warp:
    steps = perThread + 5;
    break;
  case xt::FoldStrategy::block:
    steps = perThread + 5 + llvm::Log2_64(s.warps) + 2;
    break;
  case xt::FoldStrategy::split:
    steps = perThread + 5;
    break;
  }
  double reduce = k.folds * steps * kStepMicros * waves;
  // Issuing memory instructions: fewer, wider accesses are cheaper.
  double issue = double(perThread) / s.vector *
                 std::max<int64_t>(1, k.streams) * waves * kIssueMicros;
  s.micros = kLaunchMicros + memory + reduce + issue;
  std::string why;
  llvm::raw_string_ostream os(why);
  os << llvm::format("%.0f%% of bandwidth in flight, %.0f wave(s), ",
                     100 * fraction, waves)
     << perThread << " element(s)/thread" << (spills ? ", spills" : "");
  s.why = why;
  return s.micros;
}

static SmallVector<Schedule> enumerate(const KernelFacts &k) {
  SmallVector<Schedule> out;
  if (k.columns == 0) {
    out.push_back({xt::FoldStrategy::serial, 1, 1});
    return out;
  }
  // One thread doing the whole row.
  out.push_back({xt::FoldStrategy::serial, 1, 1});
  for (int64_t warps : {1, 2, 4, 8, 16}) {
    for (int64_t vector : {1, 2, 4, 8}) {
      if (vector * k.elementBytes > 16 || k.columns % vector ||
          (vector > 1 && !k.contiguous))
        continue;
      if (vector > 1 && k.tile < 32 * warps * vector)
        continue;
      if (warps > 1 && k.tile < 32 * warps)
        continue;
      out.push_back(
          {warps == 1 ? xt::FoldStrategy::warp : xt::FoldStrategy::block, warps,
           vector});
    }
  }
  return out;
}

static FailureOr<Schedule> parseSchedule(StringRef text) {
  SmallVector<StringRef> parts;
  text.split(parts, ':');
  Schedule s;
  std::optional<xt::FoldStrategy> strategy =
      parts.size() == 3 ? xt::symbolizeFoldStrategy(parts[0]) : std::nullopt;
  if (!strategy || parts[1].getAsInteger(10, s.warps) ||
      parts[2].getAsInteger(10, s.vector) || s.warps < 1 || s.vector < 1)
    return failure();
  s.strategy = *strategy;
  return s;
}

//===----------------------------------------------------------------------===//
// Emission
//===----------------------------------------------------------------------===//

/// Builds the Tile IR body: scalars per program, tiles over the columns.
class Emitter {
public:
  Emitter(OpBuilder &b, Location loc, int64_t tile, Value range, Value mask,
          xt::FoldStrategy strategy)
      : b(b), loc(loc), tile(tile), range(range), mask(mask),
        strategy(strategy) {}

  IRMapping scalars;
  DenseMap<Value, Value> tiles;

  Type tileOf(Type element) { return RankedTensorType::get({tile}, element); }

  Value asTile(Value loopValue) {
    if (Value t = tiles.lookup(loopValue))
      return t;
    Value s = scalars.lookupOrDefault(loopValue);
    auto [it, inserted] = splats.try_emplace(s, Value());
    if (inserted)
      it->second = xt::SplatOp::create(b, loc, tileOf(s.getType()), s);
    return it->second;
  }

  bool isTile(Value loopValue) { return tiles.count(loopValue); }

  /// Emits the ops of `block` (except its terminator); returns failure on an
  /// op it cannot express.
  LogicalResult emitBlock(Block &block) {
    for (Operation &op : block) {
      if (op.hasTrait<OpTrait::IsTerminator>())
        continue;
      if (failed(emit(&op)))
        return failure();
    }
    return success();
  }

  LogicalResult emit(Operation *op) {
    if (auto fold = dyn_cast<xl::FoldOp>(op))
      return emitFold(fold);
    if (auto loop = dyn_cast<xl::ParallelOp>(op)) {
      tiles[loop.getInductionVar()] = range;
      return emitBlock(loop.getBodyBlock());
    }
    if (auto load = dyn_cast<xl::LoadOp>(op))
      return emitLoad(load);
    if (auto store = dyn_cast<xl::StoreOp>(op))
      return emitStore(store);
    if (auto apply = dyn_cast<affine::AffineApplyOp>(op))
      if (llvm::any_of(apply.getOperands(), [&](Value v) { return isTile(v); }))
        return emitApply(apply);
    bool anyTile =
        llvm::any_of(op->getOperands(), [&](Value v) { return isTile(v); });
    if (!anyTile) {
      b.clone(*op, scalars);
      return success();
    }
    if (op->getNumRegions() || op->getNumResults() != 1 ||
        !isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
      return op->emitOpError("cannot be applied to a tile");
    SmallVector<Value> operands;
    for (Value v : op->getOperands())
      operands.push_back(asTile(v));
    OperationState state(loc, op->getName(), operands,
                         {tileOf(op->getResult(0).getType())}, op->getAttrs());
    tiles[op->getResult(0)] = b.create(state)->getResult(0);
    return success();
  }

private:
  LogicalResult emitFold(xl::FoldOp fold) {
    tiles[fold.getInductionVar()] = range;
    if (failed(emitBlock(fold.getBodyBlock())))
      return failure();
    Value yielded = fold.getYieldedValue();
    Type element = fold.getType();
    TypedAttr identity;
    if (!matchPattern(fold.getInit(), m_Constant(&identity)))
      return fold.emitOpError("needs a constant initial value for Tile IR");
    Value values = asTile(yielded);
    // Lanes past the ragged edge hold the identity, neutral for the fold.
    if (mask) {
      Value neutral = xt::SplatOp::create(
          b, loc, tileOf(element), arith::ConstantOp::create(b, loc, identity));
      values = arith::SelectOp::create(b, loc, mask, values, neutral);
    }
    auto result = xt::FoldOp::create(
        b, loc, element, static_cast<xt::CombineKind>(fold.getCombine()),
        values, ArrayRef<int64_t>{0}, identity, /*associative=*/true,
        /*commutative=*/true, strategy);
    scalars.map(fold.getResult(), result.getResult());
    return success();
  }

  SmallVector<Value> indices(ValueRange loopIndices) {
    SmallVector<Value> out;
    for (Value v : loopIndices)
      out.push_back(isTile(v) ? tiles.lookup(v) : scalars.lookupOrDefault(v));
    return out;
  }

  LogicalResult emitLoad(xl::LoadOp load) {
    Value buffer = scalars.lookupOrDefault(load.getBuffer());
    SmallVector<Value> idx = indices(load.getIndices());
    bool tiled =
        llvm::any_of(load.getIndices(), [&](Value v) { return isTile(v); });
    if (!tiled) {
      scalars.map(load.getResult(),
                  xt::LoadOp::create(b, loc, load.getType(), buffer, idx,
                                     Value(), Value())
                      .getResult());
      return success();
    }
    Value other;
    if (mask)
      other = arith::ConstantOp::create(b, loc, b.getZeroAttr(load.getType()));
    tiles[load.getResult()] = xt::LoadOp::create(b, loc, tileOf(load.getType()),
                                                 buffer, idx, mask, other)
                                  .getResult();
    return success();
  }

  LogicalResult emitStore(xl::StoreOp store) {
    Value buffer = scalars.lookupOrDefault(store.getBuffer());
    SmallVector<Value> idx = indices(store.getIndices());
    bool tiled =
        llvm::any_of(store.getIndices(), [&](Value v) { return isTile(v); });
    if (!tiled) {
      if (isTile(store.getValue()))
        return store.emitOpError("stores a tile to a single element");
      xt::StoreOp::create(b, loc, scalars.lookupOrDefault(store.getValue()),
                          buffer, idx, Value());
      return success();
    }
    xt::StoreOp::create(b, loc, asTile(store.getValue()), buffer, idx, mask);
    return success();
  }

  /// affine.apply on tiles of indices, as arith on index tiles.
  LogicalResult emitApply(affine::AffineApplyOp apply) {
    SmallVector<Value> dims;
    for (Value v : apply.getOperands())
      dims.push_back(asTile(v));
    Type type = tileOf(b.getIndexType());
    std::function<Value(AffineExpr)> lower = [&](AffineExpr e) -> Value {
      if (auto d = dyn_cast<AffineDimExpr>(e))
        return dims[d.getPosition()];
      if (auto c = dyn_cast<AffineConstantExpr>(e))
        return arith::ConstantOp::create(
            b, loc,
            DenseElementsAttr::get(cast<ShapedType>(type),
                                   b.getIndexAttr(c.getValue())));
      auto bin = cast<AffineBinaryOpExpr>(e);
      Value l = lower(bin.getLHS()), r = lower(bin.getRHS());
      switch (e.getKind()) {
      case AffineExprKind::Add:
        return arith::AddIOp::create(b, loc, l, r);
      case AffineExprKind::Mul:
        return arith::MulIOp::create(b, loc, l, r);
      case AffineExprKind::FloorDiv:
        return arith::FloorDivSIOp::create(b, loc, l, r);
      case AffineExprKind::CeilDiv:
        return arith::CeilDivSIOp::create(b, loc, l, r);
      case AffineExprKind::Mod: {
        // Non-negative remainder, as affine defines it.
        Value q = arith::FloorDivSIOp::create(b, loc, l, r);
        return arith::SubIOp::create(b, loc, l,
                                     arith::MulIOp::create(b, loc, q, r));
      }
      default:
        llvm_unreachable("not a binary affine expression");
      }
    };
    tiles[apply.getResult()] = lower(apply.getAffineMap().getResult(0));
    return success();
  }

  OpBuilder &b;
  Location loc;
  int64_t tile;
  Value range, mask;
  xt::FoldStrategy strategy;
  DenseMap<Value, Value> splats;
};

struct ConvertXLoopToXTilePass
    : xtile::impl::ConvertXLoopToXTileBase<ConvertXLoopToXTilePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    xt::TargetAttr targetAttr = xt::TargetAttr::getBuiltin(ctx, target);
    if (!targetAttr) {
      module.emitError() << "unknown target '" << target
                         << "' (expected sm_90 or sm_80)";
      return signalPassFailure();
    }
    std::optional<Schedule> forced;
    if (!forceSchedule.empty()) {
      FailureOr<Schedule> parsed = parseSchedule(forceSchedule);
      if (failed(parsed)) {
        module.emitError() << "force-schedule '" << forceSchedule
                           << "' is not <serial|warp|block|split>:<warps>:"
                              "<vector>";
        return signalPassFailure();
      }
      forced = *parsed;
    }
    for (auto kernel :
         llvm::make_early_inc_range(module.getOps<xl::KernelOp>()))
      if (failed(convert(kernel, targetAttr, forced)))
        return signalPassFailure();
  }

  LogicalResult convert(xl::KernelOp kernel, xt::TargetAttr target,
                        std::optional<Schedule> forced) {
    FailureOr<RowNest> nest = analyze(kernel);
    if (failed(nest))
      return failure();

    KernelFacts facts;
    for (xl::ParallelOp row : nest->rows)
      facts.programs *= row.getUpper() - row.getLower();
    facts.columns = nest->columns;
    facts.tile = nest->columns ? int64_t(llvm::PowerOf2Ceil(nest->columns)) : 1;
    facts.folds = nest->folds;
    for (BlockArgument arg : kernel.getBodyBlock().getArguments()) {
      auto type = cast<MemRefType>(arg.getType());
      facts.bytes += type.getNumElements() *
                     std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
    }
    // Vector accesses are sized by the first buffer's elements.
    facts.elementBytes = std::max<int64_t>(
        1, cast<MemRefType>(kernel.getBodyBlock().getArgument(0).getType())
                   .getElementTypeBitWidth() /
               8);
    facts.streams = 0;
    nest->body->walk([&](xl::LoadOp) { ++facts.streams; });
    // Vector accesses need the column to be the last (contiguous) index of
    // every access that depends on it.
    DenseSet<Value> columnIvs;
    for (Operation &op : *nest->body) {
      if (auto fold = dyn_cast<xl::FoldOp>(op))
        columnIvs.insert(fold.getInductionVar());
      if (auto loop = dyn_cast<xl::ParallelOp>(op))
        columnIvs.insert(loop.getInductionVar());
    }
    auto dependsOnColumn = [&](Value v) {
      if (columnIvs.contains(v))
        return true;
      Operation *def = v.getDefiningOp();
      return def && llvm::any_of(def->getOperands(), [&](Value o) {
               return columnIvs.contains(o);
             });
    };
    auto checkAccess = [&](ValueRange indices) {
      if (llvm::any_of(indices, dependsOnColumn) &&
          (indices.empty() || !columnIvs.contains(indices.back())))
        facts.contiguous = false;
    };
    nest->body->walk([&](xl::LoadOp load) { checkAccess(load.getIndices()); });
    nest->body->walk(
        [&](xl::StoreOp store) { checkAccess(store.getIndices()); });

    SmallVector<Schedule> candidates = enumerate(facts);
    for (Schedule &s : candidates)
      estimate(facts, target, s);
    Schedule chosen = *llvm::min_element(
        candidates, [](const Schedule &a, const Schedule &b) {
          return a.micros < b.micros;
        });
    std::string reason = "lowest estimated time";
    if (forced) {
      chosen = *forced;
      estimate(facts, target, chosen);
      reason = "forced";
    }
    if (reportSchedules) {
      llvm::outs() << "kernel @" << kernel.getSymName() << ": "
                   << facts.programs << " program(s) x " << facts.columns
                   << " column(s) (tile " << facts.tile << "), " << facts.folds
                   << " fold(s), " << facts.bytes << " B on "
                   << target.getArch() << "\n";
      for (const Schedule &s : candidates)
        llvm::outs() << (s.name() == chosen.name() ? "  * " : "    ")
                     << llvm::left_justify(s.name(), 12)
                     << llvm::format("%10.2f us  ", s.micros) << s.why << "\n";
      llvm::outs() << "  chosen " << chosen.name() << ": " << reason << "\n";
    }

    // The Tile IR kernel, in place of the Loop IR one, same name and buffers.
    OpBuilder b(kernel);
    Location loc = kernel.getLoc();
    auto tk =
        xt::KernelOp::create(b, loc, kernel.getSymName(), kernel.getNumInputs(),
                             ArrayRef<int64_t>{facts.programs}, chosen.warps,
                             target, b.getStringAttr(chosen.name()));
    Block *block = b.createBlock(&tk.getBody());
    b.setInsertionPointToStart(block);

    Value range, mask;
    if (facts.columns) {
      range = xt::RangeOp::create(
          b, loc, RankedTensorType::get({facts.tile}, b.getIndexType()), 0,
          facts.tile);
      if (facts.tile != facts.columns) {
        Value bound = arith::ConstantOp::create(
            b, loc,
            DenseElementsAttr::get(
                RankedTensorType::get({facts.tile}, b.getIndexType()),
                b.getIndexAttr(facts.columns)));
        mask = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, range,
                                     bound);
      }
    }
    Emitter e(b, loc, facts.tile, range, mask, chosen.strategy);
    for (BlockArgument arg : kernel.getBodyBlock().getArguments())
      e.scalars.map(arg, block->addArgument(arg.getType(), arg.getLoc()));

    // Row indices from the program id, innermost row fastest.
    Value pid = xt::ProgramIdOp::create(b, loc, 0);
    for (xl::ParallelOp row : llvm::reverse(nest->rows)) {
      Value extent = arith::ConstantIndexOp::create(
          b, loc, row.getUpper() - row.getLower());
      e.scalars.map(row.getInductionVar(),
                    arith::RemUIOp::create(b, loc, pid, extent));
      pid = arith::DivUIOp::create(b, loc, pid, extent);
    }
    // Ops above the innermost row body (hoisted constants, per-row scalars
    // of outer rows) first, outer to inner.
    if (!nest->rows.empty()) {
      SmallVector<Block *> outer{&kernel.getBodyBlock()};
      for (xl::ParallelOp row : ArrayRef(nest->rows).drop_back())
        outer.push_back(&row.getBodyBlock());
      for (Block *above : outer)
        for (Operation &op : *above)
          if (!op.getNumRegions() && !op.hasTrait<OpTrait::IsTerminator>())
            b.clone(op, e.scalars);
    }
    if (failed(e.emitBlock(*nest->body))) {
      tk.erase();
      return failure();
    }
    kernel.erase();
    return success();
  }
};

} // namespace
