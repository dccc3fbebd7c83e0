//===- LoopToTile.cpp - Loop IR to Tile IR --------------------------------===//
//
// A row kernel (parallel loops over rows; folds and an elementwise loop over
// the same columns) becomes one program per row whose columns are a tile.
// The schedule (fold strategy, warps, vector width) is chosen per kernel by
// a cost model for the target GPU.
//
//===----------------------------------------------------------------------===//

#include "xtile/Conversion/LoopToTile/LoopToTile.h"
#include "xtile/Dialect/Loop/Transforms/Passes.h"
#include "xtile/Dialect/Loop/Utils/Tileable.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include <functional>

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
  bool contraction = false;
  bool uniform = true; // all column loops have the same length
};

/// The loop induction variables a Loop IR value depends on, through the ops
/// that compute it.
static void inductionVars(Value v, DenseSet<Value> &ivs,
                          DenseSet<Value> &seen) {
  if (!seen.insert(v).second)
    return;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (isa<xl::ParallelOp, xl::FoldOp>(arg.getOwner()->getParentOp()))
      ivs.insert(arg);
    return;
  }
  for (Value operand : v.getDefiningOp()->getOperands())
    inductionVars(operand, ivs, seen);
}

static FailureOr<RowNest> analyze(xl::KernelOp kernel) {
  RowNest nest;
  if (std::optional<xl::TileProblem> problem = xl::findTileProblem(kernel))
    return problem->op->emitOpError(problem->message);
  xl::RowNestShape shape = xl::findRowNest(kernel);
  nest.rows = shape.rows;
  nest.body = shape.body;
  Block *block = shape.body;
  // Row indices of more than one iteration: a fold with a load that uses
  // one of them and another load that uses a different one but not the
  // first is a contraction (matmul: A[i, k] x B[k, j]).
  SmallVector<Value> rowIvs;
  for (xl::ParallelOp row : nest.rows)
    if (row.getUpper() - row.getLower() > 1)
      rowIvs.push_back(row.getInductionVar());
  for (Operation &op : *block) {
    if (!op.getNumRegions())
      continue;
    int64_t extent;
    if (auto fold = dyn_cast<xl::FoldOp>(op)) {
      SmallVector<DenseSet<Value>> uses;
      fold.walk([&](xl::LoadOp load) {
        DenseSet<Value> ivs, seen;
        for (Value index : load.getIndices())
          inductionVars(index, ivs, seen);
        uses.push_back(std::move(ivs));
      });
      for (Value a : rowIvs)
        for (Value b : rowIvs)
          if (a != b &&
              llvm::any_of(
                  uses,
                  [&](auto &u) { return u.contains(a) && !u.contains(b); }) &&
              llvm::any_of(uses, [&](auto &u) {
                return u.contains(b) && !u.contains(a);
              }))
            nest.contraction = true;
      extent = fold.getUpper() - fold.getLower();
      ++nest.folds;
    } else {
      extent = cast<xl::ParallelOp>(op).getUpper() -
               cast<xl::ParallelOp>(op).getLower();
    }
    if (nest.columns && extent != nest.columns)
      nest.uniform = false;
    nest.columns = std::max(nest.columns, extent);
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
  /// Columns per step of a loop over the row (0: the whole row is one
  /// tile). Rows too long to hold at once are processed in chunks, the
  /// next chunk's loads pipelined behind the current one's work.
  int64_t chunk = 0;
  /// Programs per row for the split strategy: each folds a slice of the
  /// row into partial results, and a second kernel combines them.
  int64_t ways = 0;
  double micros = 0;
  std::string why;

  std::string name() const {
    std::string n = (xt::stringifyFoldStrategy(strategy) + ":" + Twine(warps) +
                     ":" + Twine(vector))
                        .str();
    if (chunk)
      n += ":" + std::to_string(chunk);
    if (ways)
      n += ":x" + std::to_string(ways);
    return n;
  }
};

struct KernelFacts {
  int64_t programs = 1;
  int64_t columns = 0;
  int64_t tile = 1; // columns padded to a power of two
  int64_t folds = 0;
  int64_t elementBytes = 4;
  int64_t bytes = 0;       // every buffer once
  int64_t streams = 1;     // tile loads in the body
  bool contiguous = true;  // every column access walks the last dimension
  int64_t passes = 1;      // column loops (folds and the elementwise loop)
  bool splittable = false; // folds independent of each other
  int64_t rowBytes = 0;    // bytes of one row of the column-indexed inputs
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
  if (s.ways) {
    // Two kernels over programs x ways programs, each on a slice of a row;
    // the second re-reads the row (from L2 when it fits) after combining
    // the partial results.
    KernelFacts slice = k;
    slice.programs = k.programs * s.ways;
    slice.columns = llvm::divideCeil(k.columns, s.ways);
    slice.tile = int64_t(llvm::PowerOf2Ceil(slice.columns));
    slice.bytes = k.bytes + k.rowBytes * k.programs;
    Schedule inner = s;
    inner.ways = 0;
    inner.strategy = xt::FoldStrategy::block;
    double one = estimate(slice, target, inner);
    s.micros = one + kLaunchMicros;
    s.why = inner.why + ", 2 kernels";
    return s.micros;
  }
  int64_t threads = 32 * s.warps;
  int64_t perThread = llvm::divideCeil(k.tile, threads);
  int64_t held = llvm::divideCeil(s.chunk ? s.chunk : k.tile, threads);
  // Registers: a baseline plus the tile elements each thread holds (live
  // tiles of the body, about one per load stream).
  int64_t registers = 32 + held * std::max<int64_t>(1, k.streams);
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
  double bytes = k.bytes;
  // In chunks, each pass over the row (each fold, then the elementwise
  // loop) reads it again; from L2 while the resident rows fit, else from
  // device memory.
  double rereads =
      s.chunk ? double(k.passes - 1) * k.rowBytes * k.programs : 0.0;
  bool rereadsFromL2 = double(resident) * k.rowBytes <= target.getL2() / 2;
  if (!rereadsFromL2)
    bytes += rereads;
  double memory = bytes / (bytesPerMicro * fraction);
  // L2 serves re-reads at about three times device-memory bandwidth.
  if (rereadsFromL2)
    memory += rereads / (3 * bytesPerMicro);
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
  // Few rows, long ones: split each row over several programs.
  if (k.splittable)
    for (int64_t ways : {2, 4, 8, 16, 32, 64, 128, 256, 512, 1024})
      for (int64_t warps : {4, 8})
        for (int64_t vector : {1, 4}) {
          int64_t slice = llvm::divideCeil(k.columns, ways);
          if (slice < 1024 || k.programs * ways > 16 * 132 ||
              vector * k.elementBytes > 16 || slice % vector ||
              (vector > 1 && !k.contiguous) ||
              int64_t(llvm::PowerOf2Ceil(slice)) > 4096)
            continue;
          Schedule split{xt::FoldStrategy::split, warps, vector};
          split.ways = ways;
          out.push_back(split);
        }
  // Rows longer than the largest program holds (16 warps, 8 elements per
  // thread): a loop over chunks of the row.
  for (int64_t chunk : {1024, 2048, 4096}) {
    if (k.tile <= 4096)
      break;
    for (int64_t warps : {4, 8, 16})
      for (int64_t vector : {1, 4}) {
        if (vector * k.elementBytes > 16 || k.columns % vector ||
            (vector > 1 && !k.contiguous) || chunk < 32 * warps * vector)
          continue;
        out.push_back({xt::FoldStrategy::block, warps, vector, chunk});
      }
  }
  return out;
}

static FailureOr<Schedule> parseSchedule(StringRef text) {
  // <strategy>:<warps>:<vector>[:<chunk>|:x<ways>]
  SmallVector<StringRef> parts;
  text.split(parts, ':');
  Schedule s;
  std::optional<xt::FoldStrategy> strategy =
      parts.size() == 3 || parts.size() == 4
          ? xt::symbolizeFoldStrategy(parts[0])
          : std::nullopt;
  if (!strategy || parts[1].getAsInteger(10, s.warps) ||
      parts[2].getAsInteger(10, s.vector) || s.warps < 1 || s.vector < 1)
    return failure();
  s.strategy = *strategy;
  bool split = s.strategy == xt::FoldStrategy::split;
  if (parts.size() == 4 && parts[3].consume_front("x")) {
    if (!split || parts[3].getAsInteger(10, s.ways) || s.ways < 2)
      return failure();
  } else if (parts.size() == 4) {
    if (parts[3].getAsInteger(10, s.chunk) || s.chunk < 1 ||
        !llvm::isPowerOf2_64(s.chunk))
      return failure();
  }
  if (split != (s.ways != 0))
    return failure();
  return s;
}

//===----------------------------------------------------------------------===//
// Emission
//===----------------------------------------------------------------------===//

/// Copies a per-program scalar op (hoisted above the columns) into a Tile
/// IR kernel: loads become scalar Tile IR loads.
static void cloneScalar(OpBuilder &b, Operation &op, IRMapping &map) {
  if (auto load = dyn_cast<xl::LoadOp>(op)) {
    SmallVector<Value> indices;
    for (Value i : load.getIndices())
      indices.push_back(map.lookupOrDefault(i));
    map.map(load.getResult(),
            xt::LoadOp::create(b, load.getLoc(), load.getType(),
                               map.lookupOrDefault(load.getBuffer()), indices,
                               Value(), Value())
                .getResult());
    return;
  }
  b.clone(op, map);
}

/// An affine expression over tiles of indices (all of `type`), as arith on
/// the tiles; `mod` is the non-negative remainder, as affine defines it.
static Value lowerAffineOnTiles(OpBuilder &b, Location loc, AffineExpr e,
                                ArrayRef<Value> dims, ShapedType type,
                                unsigned numDims) {
  if (auto d = dyn_cast<AffineDimExpr>(e))
    return dims[d.getPosition()];
  if (auto sym = dyn_cast<AffineSymbolExpr>(e))
    return dims[numDims + sym.getPosition()];
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(type, b.getIndexAttr(c.getValue())));
  auto bin = cast<AffineBinaryOpExpr>(e);
  Value l = lowerAffineOnTiles(b, loc, bin.getLHS(), dims, type, numDims);
  Value r = lowerAffineOnTiles(b, loc, bin.getRHS(), dims, type, numDims);
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
    Value q = arith::FloorDivSIOp::create(b, loc, l, r);
    return arith::SubIOp::create(b, loc, l,
                                 arith::MulIOp::create(b, loc, q, r));
  }
  default:
    llvm_unreachable("not a binary affine expression");
  }
}

/// Builds the Tile IR body: scalars per program, tiles over the columns.
class Emitter {
public:
  Emitter(OpBuilder &b, Location loc, int64_t tile, Value range, Value mask,
          xt::FoldStrategy strategy, int64_t columns = 0, int64_t chunk = 0)
      : b(b), loc(loc), tile(tile), range(range), mask(mask),
        strategy(strategy), columns(columns), chunk(chunk) {}

  IRMapping scalars;
  DenseMap<Value, Value> tiles;

  Type tileOf(Type element) { return RankedTensorType::get({tile}, element); }

  Value asTile(Value loopValue) {
    if (Value t = tiles.lookup(loopValue))
      return t;
    Value s = scalars.lookupOrDefault(loopValue);
    auto [it, inserted] = splats.try_emplace({s, tile}, Value());
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

  /// When set, computes a fold's result instead of folding its body (the
  /// second kernel of a split combines partial results).
  std::function<FailureOr<Value>(xl::FoldOp)> foldHook;

  LogicalResult emit(Operation *op) {
    if (auto fold = dyn_cast<xl::FoldOp>(op); fold && foldHook) {
      FailureOr<Value> v = foldHook(fold);
      if (failed(v))
        return failure();
      scalars.map(fold.getResult(), *v);
      return success();
    }
    if (chunk)
      if (isa<xl::FoldOp, xl::ParallelOp>(op))
        return emitChunked(op);
    if (perLoopTiles) {
      if (auto fold = dyn_cast<xl::FoldOp>(op))
        return emitWithOwnTile(op, fold.getUpper() - fold.getLower());
      if (auto loop = dyn_cast<xl::ParallelOp>(op))
        return emitWithOwnTile(op, loop.getUpper() - loop.getLower());
    }
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
  /// A fold or elementwise loop over a long row, as a loop over chunks of
  /// it (the next chunk's loads pipelined: xtile.num_stages = 2); a fold
  /// combines each chunk's partial result into the loop-carried one.
  LogicalResult emitChunked(Operation *op) {
    auto fold = dyn_cast<xl::FoldOp>(op);
    int64_t columns = fold ? int64_t(fold.getUpper())
                           : int64_t(cast<xl::ParallelOp>(op).getUpper());
    Value lower = arith::ConstantIndexOp::create(b, loc, 0);
    Value upper = arith::ConstantIndexOp::create(b, loc, columns);
    Value step = arith::ConstantIndexOp::create(b, loc, chunk);
    SmallVector<Value> inits;
    TypedAttr identity;
    if (fold) {
      if (!matchPattern(fold.getInit(), m_Constant(&identity)))
        return fold.emitOpError("needs a constant initial value for Tile IR");
      inits.push_back(arith::ConstantOp::create(b, loc, identity));
    }
    auto loop = scf::ForOp::create(b, loc, lower, upper, step, inits);
    loop->setAttr("xtile.num_stages", b.getI64IntegerAttr(2));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    // Tiles of this chunk; splats made outside the loop stay valid, those
    // made inside must not leak out.
    auto outerSplats = splats;
    Value outerRange = range, outerMask = mask;
    Type indexTile = tileOf(b.getIndexType());
    range = arith::AddIOp::create(
        b, loc, xt::RangeOp::create(b, loc, indexTile, 0, chunk),
        xt::SplatOp::create(b, loc, indexTile, loop.getInductionVar()));
    mask = columns % chunk
               ? Value(arith::CmpIOp::create(
                     b, loc, arith::CmpIPredicate::slt, range,
                     arith::ConstantOp::create(
                         b, loc,
                         DenseElementsAttr::get(cast<ShapedType>(indexTile),
                                                b.getIndexAttr(columns)))))
               : Value();
    llvm::scope_exit restore([&] {
      splats = outerSplats;
      range = outerRange;
      mask = outerMask;
    });
    if (!fold) {
      auto parallel = cast<xl::ParallelOp>(op);
      tiles[parallel.getInductionVar()] = range;
      b.setInsertionPoint(loop.getBody()->getTerminator());
      return emitBlock(parallel.getBodyBlock());
    }
    FailureOr<Value> partial = foldTile(fold, identity);
    if (failed(partial))
      return failure();
    Value combined = combineScalars(fold.getCombine(),
                                    loop.getRegionIterArgs()[0], *partial);
    scf::YieldOp::create(b, loc, combined);
    scalars.map(fold.getResult(), loop.getResult(0));
    return success();
  }

  Value combineScalars(xl::CombineKind kind, Value a, Value c) {
    bool isFloat = isa<FloatType>(a.getType());
    switch (kind) {
    case xl::CombineKind::add:
      return isFloat ? Value(arith::AddFOp::create(b, loc, a, c))
                     : Value(arith::AddIOp::create(b, loc, a, c));
    case xl::CombineKind::mul:
      return isFloat ? Value(arith::MulFOp::create(b, loc, a, c))
                     : Value(arith::MulIOp::create(b, loc, a, c));
    case xl::CombineKind::max:
      return isFloat ? Value(arith::MaximumFOp::create(b, loc, a, c))
                     : Value(arith::MaxSIOp::create(b, loc, a, c));
    case xl::CombineKind::min:
      return isFloat ? Value(arith::MinimumFOp::create(b, loc, a, c))
                     : Value(arith::MinSIOp::create(b, loc, a, c));
    case xl::CombineKind::And:
      return arith::AndIOp::create(b, loc, a, c);
    case xl::CombineKind::Or:
      return arith::OrIOp::create(b, loc, a, c);
    }
    llvm_unreachable("unknown combine");
  }

  /// The fold of one tile of `fold`'s body (masked lanes neutral).
  FailureOr<Value> foldTile(xl::FoldOp fold, TypedAttr identity) {
    tiles[fold.getInductionVar()] = range;
    if (failed(emitBlock(fold.getBodyBlock())))
      return failure();
    Type element = fold.getType();
    Value values = asTile(fold.getYieldedValue());
    if (mask) {
      Value neutral = xt::SplatOp::create(
          b, loc, tileOf(element), arith::ConstantOp::create(b, loc, identity));
      values = arith::SelectOp::create(b, loc, mask, values, neutral);
    }
    return xt::FoldOp::create(
               b, loc, element, static_cast<xt::CombineKind>(fold.getCombine()),
               values, ArrayRef<int64_t>{0}, identity, /*associative=*/true,
               /*commutative=*/true, strategy)
        .getResult();
  }

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
    tiles[apply.getResult()] =
        lowerAffineOnTiles(b, loc, apply.getAffineMap().getResult(0), dims,
                           cast<ShapedType>(tileOf(b.getIndexType())),
                           apply.getAffineMap().getNumDims());
    return success();
  }

  OpBuilder &b;
  Location loc;
  int64_t tile;
  Value range, mask;
  xt::FoldStrategy strategy;
  int64_t columns, chunk;
  DenseMap<std::pair<Value, int64_t>, Value> splats;
  /// Column loops of different lengths in one row body each get a tile of
  /// their own length (set for plain, unchunked, unsplit row kernels).
  bool perLoopTiles = false;
  DenseMap<int64_t, std::pair<Value, Value>> loopTiles;

public:
  void enablePerLoopTiles() { perLoopTiles = true; }

private:
  /// Emits a column loop of `extent` iterations over its own tile.
  LogicalResult emitWithOwnTile(Operation *op, int64_t extent) {
    int64_t size = int64_t(llvm::PowerOf2Ceil(extent));
    auto [it, inserted] = loopTiles.try_emplace(extent);
    if (inserted) {
      Type indexTile = RankedTensorType::get({size}, b.getIndexType());
      Value r = xt::RangeOp::create(b, loc, indexTile, 0, size);
      Value m;
      if (size != extent)
        m = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::slt, r,
            arith::ConstantOp::create(
                b, loc,
                DenseElementsAttr::get(cast<ShapedType>(indexTile),
                                       b.getIndexAttr(extent))));
      it->second = {r, m};
    }
    int64_t outerTile = tile;
    Value outerRange = range, outerMask = mask;
    tile = size;
    range = it->second.first;
    mask = it->second.second;
    llvm::scope_exit restore([&] {
      tile = outerTile;
      range = outerRange;
      mask = outerMask;
    });
    if (auto fold = dyn_cast<xl::FoldOp>(op))
      return emitFold(fold);
    auto loop = cast<xl::ParallelOp>(op);
    tiles[loop.getInductionVar()] = range;
    return emitBlock(loop.getBodyBlock());
  }
};

//===----------------------------------------------------------------------===//
// Contractions (matmul)
//===----------------------------------------------------------------------===//

struct DotSchedule {
  int64_t bm = 64, bn = 64, bk = 32, stages = 2, warps = 4;
  double micros = 0;
  std::string why;

  std::string name() const {
    return ("dot:" + Twine(bm) + "x" + Twine(bn) + "x" + Twine(bk) + ":" +
            Twine(stages) + ":" + Twine(warps))
        .str();
  }
};

struct DotFacts {
  int64_t batch = 1, m = 1, n = 1, k = 1, folds = 1;
  int64_t inBytes = 4;    // operand element size
  int64_t otherBytes = 0; // output and epilogue buffers
  int64_t aBytes = 0, bBytes = 0;
};

/// Peak dense throughput, TFLOP/s: tensor cores for 16-bit operands, the
/// FP32 pipes otherwise (published figures for the built-in targets).
static double peakTflops(StringRef arch, int64_t inBytes) {
  bool tensorCores = inBytes <= 2;
  if (arch == "sm_90")
    return tensorCores ? 989.0 : 67.0;
  return tensorCores ? 312.0 : 19.5;
}

/// Estimated time of a matmul schedule: the slower of compute (padded work
/// over peak, derated when the pipeline is too shallow to hide loads) and
/// device memory (A re-read once per column of tiles and B once per row of
/// tiles, unless they fit in L2), times the tail of the last wave.
static double estimateDot(const DotFacts &f, const xt::TargetAttr &target,
                          DotSchedule &s) {
  int64_t mb = llvm::divideCeil(f.m, s.bm), nb = llvm::divideCeil(f.n, s.bn);
  int64_t tiles = mb * nb * f.batch;
  double padded = double(mb * s.bm) * (nb * s.bn) * f.k * 2 * f.batch * f.folds;
  // Pipeline depth hides the operand loads; larger tiles reuse each loaded
  // element across more of the output and keep the tensor cores fed.
  double efficiency =
      std::min(1.0, 0.4 + 0.2 * s.stages) *
      std::min(1.0, std::sqrt(double(s.bm * s.bn) / (128 * 128)));
  double compute =
      padded / (peakTflops(target.getArch(), f.inBytes) * 1e6 * efficiency);
  int64_t smem = s.stages * (s.bm * s.bk + s.bk * s.bn) * f.inBytes;
  int64_t perSM = std::max<int64_t>(
      1, std::min(target.getSharedMemory() / std::max<int64_t>(1, smem),
                  int64_t(2048) / (32 * s.warps)));
  double slots = double(target.getSms() * perSM);
  double waves = std::ceil(tiles / slots);
  double tail = waves / std::max(1.0, tiles / slots);
  // The tiles of one wave run together and share operand panels through L2:
  // a roughly square block of W tiles reads sqrt(W) row panels of A and
  // sqrt(W) column panels of B from device memory.
  double side = std::sqrt(std::min(double(tiles), slots));
  double perWave =
      side * s.bm * f.k * f.inBytes + side * s.bn * f.k * f.inBytes * f.folds;
  double traffic = waves * perWave + f.otherBytes;
  double memory = traffic / (target.getBandwidth() * 1e3);
  s.micros = 3.0 + std::max(compute, memory) * tail;
  std::string why;
  llvm::raw_string_ostream os(why);
  os << tiles << " tile(s) in " << llvm::format("%.0f", waves) << " wave(s), "
     << (compute >= memory ? "compute" : "memory") << "-bound, " << smem / 1024
     << " KiB shared";
  s.why = why;
  return s.micros;
}

static SmallVector<DotSchedule> enumerateDots(const DotFacts &f,
                                              const xt::TargetAttr &target) {
  SmallVector<DotSchedule> out;
  for (int64_t bm : {32, 64, 128})
    for (int64_t bn : {32, 64, 128})
      for (int64_t bk : {32, 64})
        for (int64_t stages : {1, 2, 3, 4})
          for (int64_t warps : {4, 8}) {
            // No tile larger than the padded problem, no pipeline deeper
            // than the K loop, and the stages must fit in shared memory.
            if (bm > int64_t(llvm::PowerOf2Ceil(f.m)) && bm > 32)
              continue;
            if (bn > int64_t(llvm::PowerOf2Ceil(f.n)) && bn > 32)
              continue;
            if (bk > int64_t(llvm::PowerOf2Ceil(f.k)) && bk > 32)
              continue;
            if (stages > static_cast<int64_t>(llvm::divideCeil(f.k, bk)))
              continue;
            if (stages * (bm * bk + bk * bn) * f.inBytes >
                target.getSharedMemory())
              continue;
            if (bm * bn / (32 * warps) < 4)
              continue;
            // Each thread keeps its share of every accumulator in
            // registers; beyond 64 of them, with operands and addresses,
            // a thread spills past the 255 registers it can have.
            if (bm * bn * f.folds / (32 * warps) > 64)
              continue;
            out.push_back({bm, bn, bk, stages, warps});
          }
  return out;
}

static FailureOr<DotSchedule> parseDotSchedule(StringRef text) {
  // dot:<BM>x<BN>x<BK>:<stages>:<warps>
  SmallVector<StringRef> parts, sizes;
  text.split(parts, ':');
  if (parts.size() != 4 || parts[0] != "dot")
    return failure();
  parts[1].split(sizes, 'x');
  DotSchedule s;
  if (sizes.size() != 3 || sizes[0].getAsInteger(10, s.bm) ||
      sizes[1].getAsInteger(10, s.bn) || sizes[2].getAsInteger(10, s.bk) ||
      parts[2].getAsInteger(10, s.stages) ||
      parts[3].getAsInteger(10, s.warps) || s.bm < 1 || s.bn < 1 || s.bk < 1 ||
      s.stages < 1 || s.warps < 1)
    return failure();
  return s;
}

/// Emits Loop IR values as tiles of one 2-D shape on demand: loop indices
/// map to index tiles, values that depend on none stay scalars.
class TileContext {
public:
  TileContext(OpBuilder &b, Location loc, const IRMapping &scalars,
              ArrayRef<int64_t> shape, Value mask)
      : b(b), loc(loc), local(scalars), shape(shape), mask(mask) {}

  DenseMap<Value, Value> ivs;

  Type tileOf(Type element) { return RankedTensorType::get(shape, element); }
  bool isTile(Value v) { return isa<RankedTensorType>(v.getType()); }

  Value splat(Value scalar) {
    return xt::SplatOp::create(b, loc, tileOf(scalar.getType()), scalar);
  }

  FailureOr<Value> get(Value v) {
    if (Value iv = ivs.lookup(v))
      return iv;
    if (Value known = memo.lookup(v))
      return known;
    if (local.contains(v))
      return local.lookup(v);
    Operation *def = v.getDefiningOp();
    if (!def)
      return emitError(loc, "a loop index has no tile in this context");
    SmallVector<Value> operands;
    for (Value operand : def->getOperands()) {
      FailureOr<Value> o = get(operand);
      if (failed(o))
        return failure();
      operands.push_back(*o);
    }
    bool anyTile = llvm::any_of(operands, [&](Value o) { return isTile(o); });
    Value result;
    if (auto load = dyn_cast<xl::LoadOp>(def)) {
      ArrayRef<Value> idx = ArrayRef(operands).drop_front();
      if (!anyTile) {
        result = xt::LoadOp::create(b, loc, load.getType(), operands[0], idx,
                                    Value(), Value());
      } else {
        SmallVector<Value> tiled;
        for (Value i : idx)
          tiled.push_back(i);
        Value other = mask ? Value(arith::ConstantOp::create(
                                 b, loc, b.getZeroAttr(load.getType())))
                           : Value();
        result = xt::LoadOp::create(b, loc, tileOf(load.getType()), operands[0],
                                    tiled, mask, other);
      }
    } else if (auto apply = dyn_cast<affine::AffineApplyOp>(def);
               apply && anyTile) {
      result = lowerAffine(apply.getAffineMap().getResult(0), operands,
                           apply.getAffineMap().getNumDims());
    } else if (!anyTile) {
      result = b.clone(*def, local)->getResult(0);
      local.map(v, result);
      return result;
    } else if (def->getNumRegions() == 0 && def->getNumResults() == 1 &&
               isa<arith::ArithDialect, math::MathDialect>(def->getDialect())) {
      SmallVector<Value> tiles;
      for (Value o : operands)
        tiles.push_back(isTile(o) ? o : splat(o));
      OperationState state(loc, def->getName(), tiles,
                           {tileOf(def->getResult(0).getType())},
                           def->getAttrs());
      result = b.create(state)->getResult(0);
    } else {
      return def->emitOpError("cannot be applied to a tile");
    }
    memo[v] = result;
    return result;
  }

private:
  Value lowerAffine(AffineExpr e, ArrayRef<Value> dims, unsigned numDims) {
    SmallVector<Value> tiles;
    for (Value d : dims)
      tiles.push_back(isTile(d) ? d : splat(d));
    return lowerAffineOnTiles(
        b, loc, e, tiles, cast<ShapedType>(tileOf(b.getIndexType())), numDims);
  }

  OpBuilder &b;
  Location loc;
  IRMapping local;
  SmallVector<int64_t, 2> shape;
  Value mask;
  DenseMap<Value, Value> memo;
};

/// `base + [0, size)` laid along dimension `dim` of `shape`.
static Value indexTile(OpBuilder &b, Location loc, Value base, int64_t size,
                       ArrayRef<int64_t> shape, unsigned dim) {
  Type index = b.getIndexType();
  Value range = xt::RangeOp::create(
      b, loc, RankedTensorType::get({size}, index), 0, size);
  Value offset =
      xt::SplatOp::create(b, loc, RankedTensorType::get({size}, index), base);
  Value line = arith::AddIOp::create(b, loc, range, offset);
  SmallVector<int64_t, 2> lineShape(shape.size(), 1);
  lineShape[dim] = size;
  Value shaped = xt::ReshapeOp::create(
      b, loc, RankedTensorType::get(lineShape, index), line);
  return xt::BroadcastOp::create(b, loc, RankedTensorType::get(shape, index),
                                 shaped);
}

/// `tile < bound`, elementwise.
static Value below(OpBuilder &b, Location loc, Value tile, int64_t bound) {
  auto type = cast<ShapedType>(tile.getType());
  Value limit = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, b.getIndexAttr(bound)));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, tile, limit);
}

/// Estimates every candidate, picks the fastest (or the forced one), and
/// when `report` is set prints them all under `header`, the chosen one
/// marked.
template <typename ScheduleT, typename EstimateFn>
static ScheduleT chooseSchedule(SmallVectorImpl<ScheduleT> &candidates,
                                std::optional<ScheduleT> forced,
                                EstimateFn estimateFn, bool report,
                                const std::string &header, unsigned width) {
  for (ScheduleT &s : candidates)
    estimateFn(s);
  ScheduleT chosen = *llvm::min_element(
      candidates, [](const ScheduleT &a, const ScheduleT &b) {
        return a.micros < b.micros;
      });
  std::string reason = "lowest estimated time";
  if (forced) {
    chosen = *forced;
    estimateFn(chosen);
    reason = "forced";
  }
  if (report) {
    llvm::outs() << header << "\n";
    for (const ScheduleT &s : candidates)
      llvm::outs() << (s.name() == chosen.name() ? "  * " : "    ")
                   << llvm::left_justify(s.name(), width)
                   << llvm::format("%10.2f us  ", s.micros) << s.why << "\n";
    llvm::outs() << "  chosen " << chosen.name() << ": " << reason << "\n";
  }
  return chosen;
}

/// Whether `v` is (computed from) one of `values`.
static bool dependsOn(Value v, const DenseSet<Value> &values) {
  if (values.contains(v))
    return true;
  Operation *def = v.getDefiningOp();
  if (!def || def->getNumRegions())
    return false;
  return llvm::any_of(def->getOperands(),
                      [&](Value o) { return dependsOn(o, values); });
}

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
      if (succeeded(parsed))
        forced = *parsed;
      else if (succeeded(parseDotSchedule(forceSchedule)))
        forcedDot = *parseDotSchedule(forceSchedule);
      else {
        module.emitError() << "force-schedule '" << forceSchedule
                           << "' is not <serial|warp|block|split>:<warps>:"
                              "<vector> nor dot:<BM>x<BN>x<BK>:<stages>:"
                              "<warps>";
        return signalPassFailure();
      }
    }
    for (auto kernel :
         llvm::make_early_inc_range(module.getOps<xl::KernelOp>()))
      if (failed(convert(kernel, targetAttr, forced)))
        return signalPassFailure();
  }

  std::optional<DotSchedule> forcedDot;

  LogicalResult convertContraction(xl::KernelOp kernel, const RowNest &nest,
                                   xt::TargetAttr target) {
    if (nest.rows.size() < 2)
      return kernel.emitOpError("is a contraction without two output "
                                "dimensions; not lowered to Tile IR yet");
    xl::ParallelOp iLoop = nest.rows[nest.rows.size() - 2];
    xl::ParallelOp jLoop = nest.rows.back();
    SmallVector<xl::FoldOp> folds;
    for (Operation &op : *nest.body)
      if (auto fold = dyn_cast<xl::FoldOp>(op))
        folds.push_back(fold);
      else if (isa<xl::ParallelOp>(op))
        return op.emitOpError(
            "loops beside a contraction are not lowered to Tile IR yet");

    // Each fold must be a sum of products a(i, k) * b(k, j).
    struct Product {
      mutable xl::FoldOp fold;
      Value a, b;
    };
    SmallVector<Product> products;
    for (xl::FoldOp fold : folds) {
      Operation *mul = fold.getYieldedValue().getDefiningOp();
      TypedAttr init;
      if (fold.getCombine() != xl::CombineKind::add ||
          !isa_and_nonnull<arith::MulFOp, arith::MulIOp>(mul) ||
          !matchPattern(fold.getInit(), m_Constant(&init)))
        return fold.emitOpError(
            "is not a sum of products; not lowered to Tile IR yet");
      auto depends = [&](Value v, Value iv) {
        DenseSet<Value> ivs, seen;
        inductionVars(v, ivs, seen);
        return ivs.contains(iv);
      };
      Value x = mul->getOperand(0), y = mul->getOperand(1);
      if (depends(x, jLoop.getInductionVar()) ||
          depends(y, iLoop.getInductionVar()))
        std::swap(x, y);
      if (depends(x, jLoop.getInductionVar()) ||
          depends(y, iLoop.getInductionVar()))
        return fold.emitOpError("mixes both output indices in one operand; "
                                "not lowered to Tile IR yet");
      // 16-bit operands widened for the product go to the dot narrow.
      auto extX = x.getDefiningOp<arith::ExtFOp>();
      auto extY = y.getDefiningOp<arith::ExtFOp>();
      if (extX && extY && extX.getIn().getType() == extY.getIn().getType()) {
        x = extX.getIn();
        y = extY.getIn();
      }
      products.push_back({fold, x, y});
    }

    for (xl::FoldOp fold : folds)
      if (fold.getUpper() != folds.front().getUpper())
        return kernel.emitOpError(
            "has contractions over different lengths; not lowered to Tile IR "
            "yet");

    DotFacts f;
    f.m = iLoop.getUpper() - iLoop.getLower();
    f.n = jLoop.getUpper() - jLoop.getLower();
    f.k = folds.front().getUpper() - folds.front().getLower();
    f.folds = folds.size();
    for (xl::ParallelOp row : ArrayRef(nest.rows).drop_back(2))
      f.batch *= row.getUpper() - row.getLower();
    f.inBytes = getElementBytes(products.front().a.getType());
    f.aBytes = f.batch * f.m * f.k * f.inBytes;
    f.bBytes = f.batch * f.k * f.n * f.inBytes * f.folds;
    for (BlockArgument out :
         kernel.getBodyBlock().getArguments().drop_front(kernel.getNumInputs()))
      f.otherBytes += xl::getNumBytes(out.getType());

    SmallVector<DotSchedule> candidates = enumerateDots(f, target);
    if (candidates.empty())
      candidates.push_back({32, 32, 32, 1, 4});
    std::string header;
    llvm::raw_string_ostream(header)
        << "kernel @" << kernel.getSymName() << ": " << f.batch << " x [" << f.m
        << " x " << f.k << "] @ [" << f.k << " x " << f.n << "], " << f.folds
        << " contraction(s) on " << target.getArch();
    DotSchedule chosen = chooseSchedule<DotSchedule>(
        candidates, forcedDot,
        [&](DotSchedule &s) { estimateDot(f, target, s); }, reportSchedules,
        header, 20);

    int64_t mb = llvm::divideCeil(f.m, chosen.bm);
    int64_t nb = llvm::divideCeil(f.n, chosen.bn);
    OpBuilder b(kernel);
    Location loc = kernel.getLoc();
    auto tk =
        xt::KernelOp::create(b, loc, kernel.getSymName(), kernel.getNumInputs(),
                             ArrayRef<int64_t>{f.batch * mb * nb}, chosen.warps,
                             target, b.getStringAttr(chosen.name()));
    Block *block = b.createBlock(&tk.getBody());
    b.setInsertionPointToStart(block);
    IRMapping scalars;
    for (BlockArgument arg : kernel.getBodyBlock().getArguments())
      scalars.map(arg, block->addArgument(arg.getType(), arg.getLoc()));
    for (Operation &op : kernel.getBodyBlock())
      if (!op.getNumRegions())
        cloneScalar(b, op, scalars);

    // Program -> (batch..., tile row, tile column), tile column fastest.
    auto constant = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(b, loc, v);
    };
    Value pid = xt::ProgramIdOp::create(b, loc, 0);
    Value pn = arith::RemUIOp::create(b, loc, pid, constant(nb));
    Value rest = arith::DivUIOp::create(b, loc, pid, constant(nb));
    Value pm = arith::RemUIOp::create(b, loc, rest, constant(mb));
    rest = arith::DivUIOp::create(b, loc, rest, constant(mb));
    for (xl::ParallelOp row : llvm::reverse(ArrayRef(nest.rows).drop_back(2))) {
      Value extent = constant(row.getUpper() - row.getLower());
      scalars.map(row.getInductionVar(),
                  arith::RemUIOp::create(b, loc, rest, extent));
      rest = arith::DivUIOp::create(b, loc, rest, extent);
    }
    Value mBase = arith::MulIOp::create(b, loc, pm, constant(chosen.bm));
    Value nBase = arith::MulIOp::create(b, loc, pn, constant(chosen.bn));

    // The K loop: operand tiles, one dot per contraction.
    SmallVector<Value> inits;
    SmallVector<int64_t, 2> accShape{chosen.bm, chosen.bn};
    for (const Product &p : products) {
      Type acc = p.fold.getType();
      // The fold's initial value starts every output element's sum.
      Value init = scalars.lookupOrDefault(p.fold.getInit());
      if (!init.getParentBlock() ||
          init.getParentBlock()->getParentOp() != tk) {
        TypedAttr value;
        matchPattern(p.fold.getInit(), m_Constant(&value));
        init = arith::ConstantOp::create(b, loc, value);
      }
      inits.push_back(xt::SplatOp::create(
          b, loc, RankedTensorType::get(accShape, acc), init));
    }
    auto loop = scf::ForOp::create(b, loc, constant(0), constant(f.k),
                                   constant(chosen.bk), inits);
    loop->setAttr("xtile.num_stages", b.getI64IntegerAttr(chosen.stages));
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value k0 = loop.getInductionVar();
      bool raggedK = f.k % chosen.bk != 0;
      SmallVector<int64_t, 2> aShape{chosen.bm, chosen.bk},
          bShape{chosen.bk, chosen.bn};
      Value ai = indexTile(b, loc, mBase, chosen.bm, aShape, 0);
      Value ak = indexTile(b, loc, k0, chosen.bk, aShape, 1);
      Value bk = indexTile(b, loc, k0, chosen.bk, bShape, 0);
      Value bj = indexTile(b, loc, nBase, chosen.bn, bShape, 1);
      Value aMask, bMask;
      if (f.m % chosen.bm || raggedK)
        aMask = arith::AndIOp::create(b, loc, below(b, loc, ai, f.m),
                                      below(b, loc, ak, f.k));
      if (f.n % chosen.bn || raggedK)
        bMask = arith::AndIOp::create(b, loc, below(b, loc, bk, f.k),
                                      below(b, loc, bj, f.n));
      SmallVector<Value> next;
      for (auto [index, p] : llvm::enumerate(products)) {
        TileContext actx(b, loc, scalars, aShape, aMask);
        actx.ivs[iLoop.getInductionVar()] = ai;
        actx.ivs[p.fold.getInductionVar()] = ak;
        TileContext bctx(b, loc, scalars, bShape, bMask);
        bctx.ivs[p.fold.getInductionVar()] = bk;
        bctx.ivs[jLoop.getInductionVar()] = bj;
        FailureOr<Value> a = actx.get(p.a), bt = bctx.get(p.b);
        if (failed(a) || failed(bt)) {
          tk.erase();
          return failure();
        }
        Value lhs = actx.isTile(*a) ? *a : actx.splat(*a);
        Value rhs = bctx.isTile(*bt) ? *bt : bctx.splat(*bt);
        // Lanes past the ragged edges contribute 0, whatever the operand's
        // computation made of the loads' padding (0 / 0, log 0).
        auto zeroed = [&](Value tile, Value mask) -> Value {
          if (!mask)
            return tile;
          auto type = cast<ShapedType>(tile.getType());
          Value zero = xt::SplatOp::create(
              b, loc, type,
              arith::ConstantOp::create(b, loc,
                                        b.getZeroAttr(type.getElementType())));
          return arith::SelectOp::create(b, loc, mask, tile, zero);
        };
        lhs = zeroed(lhs, aMask);
        rhs = zeroed(rhs, bMask);
        next.push_back(xt::DotOp::create(b, loc, lhs, rhs,
                                         loop.getRegionIterArgs()[index]));
      }
      scf::YieldOp::create(b, loc, next);
    }

    // The epilogue over the [BM, BN] output tile.
    Value ci = indexTile(b, loc, mBase, chosen.bm, accShape, 0);
    Value cj = indexTile(b, loc, nBase, chosen.bn, accShape, 1);
    Value cMask;
    if (f.m % chosen.bm || f.n % chosen.bn)
      cMask = arith::AndIOp::create(b, loc, below(b, loc, ci, f.m),
                                    below(b, loc, cj, f.n));
    TileContext cctx(b, loc, scalars, accShape, cMask);
    cctx.ivs[iLoop.getInductionVar()] = ci;
    cctx.ivs[jLoop.getInductionVar()] = cj;
    for (auto [index, p] : llvm::enumerate(products))
      cctx.ivs[p.fold.getResult()] = loop.getResult(index);
    for (Operation &op : *nest.body) {
      auto store = dyn_cast<xl::StoreOp>(op);
      if (!store)
        continue;
      FailureOr<Value> value = cctx.get(store.getValue());
      if (failed(value)) {
        tk.erase();
        return failure();
      }
      SmallVector<Value> indices;
      for (Value i : store.getIndices()) {
        FailureOr<Value> t = cctx.get(i);
        if (failed(t)) {
          tk.erase();
          return failure();
        }
        indices.push_back(*t);
      }
      Value tile = cctx.isTile(*value) ? *value : cctx.splat(*value);
      xt::StoreOp::create(b, loc, tile, scalars.lookup(store.getBuffer()),
                          indices, cMask);
    }
    kernel.erase();
    return success();
  }

  /// The split strategy: a first kernel where each of `ways` programs per
  /// row folds a slice of the row into partial results (one [rows, ways]
  /// buffer per fold), and a second where each program combines a row's
  /// partials with a fold of their own and runs its slice of the
  /// elementwise loop. Launches of the kernel become launches of both.
  LogicalResult convertSplit(xl::KernelOp kernel, const RowNest &nest,
                             const KernelFacts &facts, const Schedule &chosen,
                             xt::TargetAttr target) {
    MLIRContext *ctx = kernel.getContext();
    Location loc = kernel.getLoc();
    int64_t rows = facts.programs, ways = chosen.ways;
    int64_t slice = llvm::divideCeil(facts.columns, ways);
    int64_t tile = int64_t(llvm::PowerOf2Ceil(slice));
    SmallVector<xl::FoldOp> folds;
    for (Operation &op : *nest.body)
      if (auto fold = dyn_cast<xl::FoldOp>(op))
        folds.push_back(fold);
    SmallVector<Type> partialBuffers, partialTensors;
    for (xl::FoldOp fold : folds) {
      partialBuffers.push_back(MemRefType::get({rows, ways}, fold.getType()));
      partialTensors.push_back(
          RankedTensorType::get({rows, ways}, fold.getType()));
    }
    ArrayRef<BlockArgument> inputs =
        kernel.getBodyBlock().getArguments().take_front(kernel.getNumInputs());
    ArrayRef<BlockArgument> outputs =
        kernel.getBodyBlock().getArguments().drop_front(kernel.getNumInputs());

    // Program -> (row, slice); the slice's columns as a masked tile.
    struct Prologue {
      Value rowFlat, sliceIndex;
    };
    auto prologue = [&](OpBuilder &b, Emitter &e) -> Prologue {
      // Without row loops the kernel block is the row body, emitted later.
      if (!nest.rows.empty())
        for (Operation &op : kernel.getBodyBlock())
          if (!op.getNumRegions())
            cloneScalar(b, op, e.scalars);
      Value pid = xt::ProgramIdOp::create(b, loc, 0);
      Value w = arith::ConstantIndexOp::create(b, loc, ways);
      Value sliceIndex = arith::RemUIOp::create(b, loc, pid, w);
      Value rowFlat = arith::DivUIOp::create(b, loc, pid, w);
      Value rest = rowFlat;
      for (xl::ParallelOp row : llvm::reverse(nest.rows)) {
        Value extent = arith::ConstantIndexOp::create(
            b, loc, row.getUpper() - row.getLower());
        e.scalars.map(row.getInductionVar(),
                      arith::RemUIOp::create(b, loc, rest, extent));
        rest = arith::DivUIOp::create(b, loc, rest, extent);
      }
      for (xl::ParallelOp row :
           ArrayRef(nest.rows).drop_back(nest.rows.empty() ? 0 : 1))
        for (Operation &op : row.getBodyBlock())
          if (!op.getNumRegions() && !op.hasTrait<OpTrait::IsTerminator>())
            cloneScalar(b, op, e.scalars);
      return {rowFlat, sliceIndex};
    };
    auto sliceTiles = [&](OpBuilder &b,
                          Value sliceIndex) -> std::pair<Value, Value> {
      Type indexTile = RankedTensorType::get({tile}, b.getIndexType());
      Value start = arith::MulIOp::create(
          b, loc, sliceIndex, arith::ConstantIndexOp::create(b, loc, slice));
      Value range = arith::AddIOp::create(
          b, loc, xt::RangeOp::create(b, loc, indexTile, 0, tile),
          xt::SplatOp::create(b, loc, indexTile, start));
      Value end = arith::MinUIOp::create(
          b, loc,
          arith::AddIOp::create(b, loc, start,
                                arith::ConstantIndexOp::create(b, loc, slice)),
          arith::ConstantIndexOp::create(b, loc, facts.columns));
      Value mask =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, range,
                                xt::SplatOp::create(b, loc, indexTile, end));
      return {range, mask};
    };

    OpBuilder b(kernel);
    std::string partialName = (kernel.getSymName() + "_partial").str();
    // Both kernels: programs over (row, slice), the original inputs, then
    // the partial-result buffers, then (the second only) the outputs; `body`
    // emits with an emitter over the program's slice.
    auto buildKernel =
        [&](StringRef name, bool withOutputs,
            function_ref<LogicalResult(OpBuilder &, Emitter &, ArrayRef<Value>,
                                       const Prologue &)>
                body) -> FailureOr<xt::KernelOp> {
      auto k = xt::KernelOp::create(
          b, loc, name, inputs.size() + (withOutputs ? folds.size() : 0),
          ArrayRef<int64_t>{rows * ways}, chosen.warps, target,
          b.getStringAttr(chosen.name()));
      OpBuilder kb(ctx);
      Block *block = kb.createBlock(&k.getBody());
      Emitter e(kb, loc, tile, Value(), Value(), xt::FoldStrategy::block);
      for (BlockArgument in : inputs)
        e.scalars.map(in, block->addArgument(in.getType(), in.getLoc()));
      SmallVector<Value> partials;
      for (Type t : partialBuffers)
        partials.push_back(block->addArgument(t, loc));
      if (withOutputs)
        for (BlockArgument out : outputs)
          e.scalars.map(out, block->addArgument(out.getType(), out.getLoc()));
      Prologue p = prologue(kb, e);
      auto [range, mask] = sliceTiles(kb, p.sliceIndex);
      Emitter fe(kb, loc, tile, range, mask, xt::FoldStrategy::block);
      fe.scalars = e.scalars;
      if (failed(body(kb, fe, partials, p))) {
        k.erase();
        return failure();
      }
      return k;
    };

    // Kernel 1: partial folds.
    DenseSet<Value> foldResults;
    for (xl::FoldOp fold : folds)
      foldResults.insert(fold.getResult());
    FailureOr<xt::KernelOp> k1 = buildKernel(
        partialName, /*withOutputs=*/false,
        [&](OpBuilder &kb, Emitter &fe, ArrayRef<Value> partials,
            const Prologue &p) -> LogicalResult {
          for (Operation &op : *nest.body) {
            if (isa<xl::ParallelOp, xl::StoreOp>(op) ||
                op.hasTrait<OpTrait::IsTerminator>())
              continue;
            if (!isa<xl::FoldOp>(op) &&
                llvm::any_of(op.getOperands(), [&](Value v) {
                  return dependsOn(v, foldResults);
                }))
              continue;
            if (failed(fe.emit(&op)))
              return failure();
          }
          for (auto [fold, buffer] : llvm::zip(folds, partials))
            xt::StoreOp::create(kb, loc, fe.scalars.lookup(fold.getResult()),
                                buffer, ValueRange{p.rowFlat, p.sliceIndex},
                                Value());
          return success();
        });
    if (failed(k1))
      return failure();
    // Kernel 2: combine the partials, then the slice's elementwise loop.
    FailureOr<xt::KernelOp> k2 = buildKernel(
        kernel.getSymName(), /*withOutputs=*/true,
        [&](OpBuilder &kb, Emitter &fe, ArrayRef<Value> partials,
            const Prologue &p) -> LogicalResult {
          int64_t wayTile = int64_t(llvm::PowerOf2Ceil(ways));
          fe.foldHook = [&](xl::FoldOp fold) -> FailureOr<Value> {
            TypedAttr identity;
            if (!matchPattern(fold.getInit(), m_Constant(&identity)))
              return fold.emitOpError(
                  "needs a constant initial value for Tile IR");
            unsigned index = llvm::find(folds, fold) - folds.begin();
            Type indexTile =
                RankedTensorType::get({wayTile}, kb.getIndexType());
            Value lanes = xt::RangeOp::create(kb, loc, indexTile, 0, wayTile);
            Value rowTile = xt::SplatOp::create(kb, loc, indexTile, p.rowFlat);
            Value laneMask, other;
            if (wayTile != ways) {
              laneMask = arith::CmpIOp::create(
                  kb, loc, arith::CmpIPredicate::slt, lanes,
                  arith::ConstantOp::create(
                      kb, loc,
                      DenseElementsAttr::get(cast<ShapedType>(indexTile),
                                             kb.getIndexAttr(ways))));
              other = arith::ConstantOp::create(kb, loc, identity);
            }
            Value values = xt::LoadOp::create(
                kb, loc, RankedTensorType::get({wayTile}, fold.getType()),
                partials[index], ValueRange{rowTile, lanes}, laneMask, other);
            return xt::FoldOp::create(
                       kb, loc, fold.getType(),
                       static_cast<xt::CombineKind>(fold.getCombine()), values,
                       ArrayRef<int64_t>{0}, identity, /*associative=*/true,
                       /*commutative=*/true, xt::FoldStrategy::warp)
                .getResult();
          };
          return fe.emitBlock(*nest.body);
        });
    if (failed(k2)) {
      k1->erase();
      return failure();
    }

    // Launches: partials first, then the combining kernel.
    SmallVector<xl::LaunchOp> launches;
    getOperation().walk([&](xl::LaunchOp launch) {
      if (launch.getKernel() == kernel.getSymName())
        launches.push_back(launch);
    });
    for (xl::LaunchOp launch : launches) {
      OpBuilder lb(launch);
      auto first = xl::LaunchOp::create(lb, launch.getLoc(), partialTensors,
                                        partialName, launch.getInputs());
      SmallVector<Value> operands(launch.getInputs());
      llvm::append_range(operands, first.getResults());
      auto second =
          xl::LaunchOp::create(lb, launch.getLoc(), launch.getResultTypes(),
                               kernel.getSymName(), operands);
      launch.replaceAllUsesWith(second.getResults());
      launch.erase();
    }
    kernel.erase();
    return success();
  }

  LogicalResult convert(xl::KernelOp kernel, xt::TargetAttr target,
                        std::optional<Schedule> forced) {
    FailureOr<RowNest> nest = analyze(kernel);
    if (failed(nest))
      return failure();
    if (nest->contraction)
      return convertContraction(kernel, *nest, target);

    KernelFacts facts;
    for (xl::ParallelOp row : nest->rows)
      facts.programs *= row.getUpper() - row.getLower();
    facts.columns = nest->columns;
    facts.tile = nest->columns ? int64_t(llvm::PowerOf2Ceil(nest->columns)) : 1;
    facts.folds = nest->folds;
    for (BlockArgument arg : kernel.getBodyBlock().getArguments())
      facts.bytes += xl::getNumBytes(arg.getType());
    // Every access of a group moves `vector` elements in at most 16 bytes:
    // the widest element of any buffer bounds the vector width (a bf16
    // input sized alone would give an 8-lane f32 store).
    facts.elementBytes = 1;
    for (BlockArgument arg : kernel.getBodyBlock().getArguments())
      facts.elementBytes = std::max<int64_t>(
          facts.elementBytes,
          getElementBytes(cast<MemRefType>(arg.getType()).getElementType()));
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
    DenseSet<Value> rowInputs;
    nest->body->walk([&](xl::LoadOp load) {
      if (llvm::any_of(load.getIndices(), dependsOnColumn))
        rowInputs.insert(load.getBuffer());
    });
    facts.passes = std::max<int64_t>(1, columnIvs.size());
    facts.rowBytes = facts.columns * facts.elementBytes *
                     std::max<size_t>(1, rowInputs.size());
    nest->body->walk(
        [&](xl::StoreOp store) { checkAccess(store.getIndices()); });

    // Split needs folds that do not use each other's results, and at most
    // one elementwise loop.
    {
      DenseSet<Value> foldResults;
      int64_t loops = 0;
      bool independent = true;
      for (Operation &op : *nest->body) {
        if (isa<xl::ParallelOp>(op))
          ++loops;
        auto fold = dyn_cast<xl::FoldOp>(op);
        if (!fold)
          continue;
        fold.walk([&](Operation *inner) {
          for (Value v : inner->getOperands())
            if (dependsOn(v, foldResults))
              independent = false;
        });
        foldResults.insert(fold.getResult());
      }
      facts.splittable = independent && facts.folds > 0 && loops <= 1 &&
                         facts.columns > 0 && nest->uniform;
    }
    SmallVector<Schedule> candidates = enumerate(facts);
    std::string header;
    llvm::raw_string_ostream(header)
        << "kernel @" << kernel.getSymName() << ": " << facts.programs
        << " program(s) x " << facts.columns << " column(s) (tile "
        << facts.tile << "), " << facts.folds << " fold(s), " << facts.bytes
        << " B on " << target.getArch();
    Schedule chosen = chooseSchedule<Schedule>(
        candidates, forced, [&](Schedule &s) { estimate(facts, target, s); },
        reportSchedules, header, 12);

    if (chosen.ways && !facts.splittable)
      return kernel.emitOpError()
             << "cannot use the forced schedule " << chosen.name()
             << ": split needs folds that do not use each other's results "
                "and at most one elementwise loop";
    if (chosen.ways)
      return convertSplit(kernel, *nest, facts, chosen, target);

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
    if (facts.columns && !chosen.chunk) {
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
    Emitter e(b, loc, chosen.chunk ? chosen.chunk : facts.tile, range, mask,
              chosen.strategy, facts.columns, chosen.chunk);
    if (!nest->uniform && !chosen.chunk)
      e.enablePerLoopTiles();
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
            cloneScalar(b, op, e.scalars);
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
