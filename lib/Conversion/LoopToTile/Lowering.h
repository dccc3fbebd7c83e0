//===- Lowering.h - applying a schedule to a Loop IR kernel -----*- C++ -*-===//
//
// Shared by the row, split and contraction lowerings of
// --convert-xloop-to-xtile: scalar copies, affine index arithmetic on
// tiles, and the emitter of a row body over a tile of columns.
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_LIB_CONVERSION_LOOPTOTILE_LOWERING_H
#define XTILE_LIB_CONVERSION_LOOPTOTILE_LOWERING_H

#include "xtile/Conversion/LoopToTile/KernelFacts.h"
#include "xtile/Support/KernelSignature.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/MathExtras.h"
#include <functional>
#include <limits>

namespace xtile {
namespace detail {

using namespace mlir;
namespace xl = xtile::loop;
namespace xt = xtile::tile;

/// Annotates `loop` with how many iterations ahead its loads are issued
/// (`xtile.num_stages`).
inline void setNumStages(scf::ForOp loop, int64_t stages) {
  Builder b(loop.getContext());
  loop.getContext()
      ->getOrLoadDialect<xt::XTileDialect>()
      ->getNumStagesAttrHelper()
      .setAttr(loop, b.getI64IntegerAttr(stages));
}

/// The identity of `fold`: its initial value, which Tile IR needs constant.
inline FailureOr<TypedAttr> foldIdentity(xl::FoldOp fold) {
  TypedAttr identity;
  if (!matchPattern(fold.getInit(), m_Constant(&identity)))
    return fold.emitOpError("needs a constant initial value for Tile IR");
  return identity;
}

/// The columns [start, end) that way `way` of `ways` folds of a row of
/// `length`: whole chunks, ceil(length / (chunk x ways)) x chunk from
/// way x that (a way past the end folds none).
std::pair<Value, Value> wayShare(OpBuilder &b, Location loc, Value length,
                                 int64_t chunk, int64_t ways, Value way);

/// Whether `kernel` is launched by a launch with buckets (as its kernel or
/// one of its buckets).
bool isBucketed(xl::KernelOp kernel);

/// Replaces every launch of `kernel` by a launch of `partialName` on the
/// same inputs, which makes tensors of the buffer types `partials`, then a
/// launch of `kernel` on the inputs and those tensors (a split's two
/// kernels).
void splitLaunches(xl::KernelOp kernel, StringRef partialName,
                   TypeRange partials);

/// The iterations of a row loop of a kernel: in the Tile IR kernel being
/// built (a constant, or the size argument `scalars` maps), and as an
/// affine expression over the kernel's sizes (symbol i: size i), which grid
/// maps are made of.
struct Extent {
  Value value;
  AffineExpr expr;
};
Extent rowExtent(OpBuilder &b, Location loc, xl::ParallelOp row,
                 const IRMapping &scalars);

/// Appends the dynamic sizes of `kernel` to `block`, the body of `tk` (whose
/// buffers are the kernel's, in order, with static partial buffers among
/// them), with their ranges, hints and buffer dims, and maps them in
/// `scalars`. `inputsOnly`: `tk` takes the inputs but not the outputs (a
/// split's first kernel), so its buffer dims are the inputs'.
void addSizes(xl::KernelOp kernel, xt::KernelOp tk, Block *block,
              IRMapping &scalars, bool inputsOnly = false);

/// Maps the induction variables of `rows` (outer to inner) in `scalars`
/// to their indices in the flat program index `pid`, innermost fastest,
/// multiplying `programs` by their extents; returns what is left of
/// `pid` (0 within the grid).
Value mapRowsFromProgram(OpBuilder &b, Location loc,
                         ArrayRef<xl::ParallelOp> rows, IRMapping &scalars,
                         Value pid, AffineExpr &programs);

/// Copies the per-program scalar ops above the innermost row body of a
/// nest of `rows` (hoisted constants, scalars of outer rows), outer to
/// inner.
void cloneAboveRows(OpBuilder &b, xl::KernelOp kernel,
                    ArrayRef<xl::ParallelOp> rows, IRMapping &scalars);

/// A split's second kernel built (or not: `k1`, the first, is erased):
/// the launches of `kernel` become launches of both (a bucket's, one
/// entry whose partials run first), and `kernel` is erased.
LogicalResult finishSplit(xl::KernelOp kernel, xt::KernelOp k1,
                          FailureOr<xt::KernelOp> k2, StringRef partialName,
                          TypeRange partials);

/// Sets the grid of `tk`, one dimension of `programs` (an affine expression
/// over its sizes): the grid at the sizes' maxima, and the grid map where
/// `programs` depends on them.
void setGrid(xt::KernelOp tk, AffineExpr programs);

/// Copies a per-program scalar op (hoisted above the columns) into a Tile
/// IR kernel: loads become scalar Tile IR loads.
void cloneScalar(OpBuilder &b, Operation &op, IRMapping &map);

/// An affine expression over tiles of indices (all of `type`), as arith on
/// the tiles; `mod` is the non-negative remainder, as affine defines it.
Value lowerAffineOnTiles(OpBuilder &b, Location loc, AffineExpr e,
                         ArrayRef<Value> dims, ShapedType type,
                         unsigned numDims);

/// Builds the Tile IR body: scalars per program, tiles over the columns.
class Emitter {
public:
  Emitter(OpBuilder &b, Location loc, int64_t tile, Value range, Value mask,
          xt::FoldStrategy strategy, int64_t chunk = 0)
      : b(b), loc(loc), tile(tile), range(range), mask(mask),
        strategy(strategy), chunk(chunk) {}

  IRMapping scalars;
  DenseMap<Value, Value> tiles;

  Type tileOf(Type element) {
    if (!foldShape.empty())
      return RankedTensorType::get(foldShape, element);
    return RankedTensorType::get({tile}, element);
  }

  /// A tile of the rows (`[tile]`, column mode) down the steps of the
  /// column fold being emitted (`[chunk, tile]`): the same values in each.
  Value broadcastDown(Value t) {
    auto type = cast<RankedTensorType>(t.getType());
    auto [it, inserted] = splats.try_emplace({t, Type()}, Value());
    if (inserted) {
      Value row = xt::ReshapeOp::create(
          b, loc, RankedTensorType::get({1, foldShape[1]}, type.getElementType()),
          t);
      it->second = xt::BroadcastOp::create(
          b, loc, tileOf(type.getElementType()), row);
    }
    return it->second;
  }

  Value asTile(Value loopValue) {
    if (Value t = tiles.lookup(loopValue)) {
      // A row's tile in a column fold's [chunk, block] body: the same
      // values down every step.
      auto type = cast<RankedTensorType>(t.getType());
      if (foldShape.empty() || type.getShape() == ArrayRef(foldShape))
        return t;
      return broadcastDown(t);
    }
    Value s = scalars.lookupOrDefault(loopValue);
    Type type = tileOf(s.getType());
    auto [it, inserted] = splats.try_emplace({s, type}, Value());
    if (inserted)
      it->second = xt::SplatOp::create(b, loc, type, s);
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

  /// When set, the loops over chunks run over the columns [sliceStart,
  /// sliceEnd) of the row instead of all of it (a split's slice, computed
  /// at run time), masked against sliceEnd.
  Value sliceStart, sliceEnd;

  /// Column mode (a #xtile.column_schedule): the row is a tile of `tile`
  /// adjacent rows, and each fold steps down its length in tiles of
  /// [columnChunk, tile], combined elementwise and folded over their first
  /// dimension at the end.
  int64_t columnChunk = 0;

  LogicalResult emit(Operation *op) {
    if (auto fold = dyn_cast<xl::FoldOp>(op); fold && foldHook) {
      FailureOr<Value> v = foldHook(fold);
      if (failed(v))
        return failure();
      // (A column fold's result is a tile of the block's rows.)
      if (isa<RankedTensorType>(v->getType()))
        tiles[fold.getResult()] = *v;
      else
        scalars.map(fold.getResult(), *v);
      return success();
    }
    if (columnChunk) {
      if (auto fold = dyn_cast<xl::FoldOp>(op))
        return emitColumnFold(fold);
      if (isa<xl::OnlineFoldOp, xl::ParallelOp>(op))
        return op->emitOpError("is not lowered under a column schedule "
                               "(folds only)");
    }
    if (chunk)
      if (isa<xl::FoldOp, xl::OnlineFoldOp, xl::ParallelOp>(op))
        return emitChunked(op);
    if (perLoopTiles) {
      if (auto fold = dyn_cast<xl::FoldOp>(op))
        return emitWithOwnTile(op, fold.getUpper() - fold.getLower());
      if (auto fold = dyn_cast<xl::OnlineFoldOp>(op))
        return emitWithOwnTile(op, fold.getUpper() - fold.getLower());
      if (auto loop = dyn_cast<xl::ParallelOp>(op))
        return emitWithOwnTile(op, loop.getUpper() - loop.getLower());
    }
    if (auto fold = dyn_cast<xl::FoldOp>(op))
      return emitFold(fold);
    if (auto fold = dyn_cast<xl::OnlineFoldOp>(op))
      return emitOnline(fold, Value(), Value());
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
    auto online = dyn_cast<xl::OnlineFoldOp>(op);
    // The row's length: a constant, or a dynamic size of the kernel.
    Value length = fold     ? fold.getDynamicUpper()
                   : online ? online.getDynamicUpper()
                            : cast<xl::ParallelOp>(op).getDynamicUpper();
    int64_t columns =
        length ? 0
               : fold   ? int64_t(fold.getUpper())
               : online ? int64_t(online.getUpper())
                        : int64_t(cast<xl::ParallelOp>(op).getUpper());
    Value lower = sliceStart ? sliceStart
                             : arith::ConstantIndexOp::create(b, loc, 0);
    Value upper = sliceEnd ? sliceEnd
                  : length ? scalars.lookup(length)
                           : arith::ConstantIndexOp::create(b, loc, columns)
                                 .getResult();
    Value step = arith::ConstantIndexOp::create(b, loc, chunk);
    SmallVector<Value> inits;
    TypedAttr identity;
    if (fold) {
      FailureOr<TypedAttr> init = foldIdentity(fold);
      if (failed(init))
        return failure();
      identity = *init;
      inits.push_back(arith::ConstantOp::create(b, loc, identity));
    }
    if (online) {
      Type type = online.getMax().getType();
      inits.push_back(arith::ConstantOp::create(
          b, loc,
          b.getFloatAttr(type, -std::numeric_limits<double>::infinity())));
      inits.push_back(arith::ConstantOp::create(b, loc, b.getZeroAttr(type)));
    }
    auto loop = scf::ForOp::create(b, loc, lower, upper, step, inits);
    setNumStages(loop, 2);
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
    if (length || sliceEnd)
      mask = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::slt, range,
          xt::SplatOp::create(b, loc, indexTile, upper));
    else
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
    if (online) {
      // The chunk's (max, sum) combined into the carried one, rescaled.
      if (failed(emitOnline(online, loop.getRegionIterArgs()[0],
                            loop.getRegionIterArgs()[1])))
        return failure();
      scf::YieldOp::create(
          b, loc,
          ValueRange{scalars.lookup(online.getMax()),
                     scalars.lookup(online.getSum())});
      scalars.map(online.getMax(), loop.getResult(0));
      scalars.map(online.getSum(), loop.getResult(1));
      return success();
    }
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

  /// `a` combined with `c`: scalars, or tiles elementwise.
  Value combineScalars(xl::CombineKind kind, Value a, Value c) {
    bool isFloat = isa<FloatType>(getElementTypeOrSelf(a.getType()));
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
    // Lanes past the ragged edge hold the identity, neutral for the fold.
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

  /// An unweighted online fold over the current tile of columns: the
  /// tile's maximum, then the sum of its exponentials shifted by it. With
  /// `carriedMax` and `carriedSum` (a chunk of a longer row), the shift is
  /// the maximum so far and the carried sum is rescaled to it.
  LogicalResult emitOnline(xl::OnlineFoldOp fold, Value carriedMax,
                           Value carriedSum) {
    if (!fold.getAccumulators().empty())
      return fold.emitOpError("with weights is not lowered in a row kernel");
    tiles[fold.getInductionVar()] = range;
    if (failed(emitBlock(fold.getBodyBlock())))
      return failure();
    Type type = fold.getMax().getType();
    auto constant = [&](double v) -> Value {
      return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, v));
    };
    double inf = std::numeric_limits<double>::infinity();
    Value scores = asTile(fold.getYieldedScore());
    if (mask)
      scores = arith::SelectOp::create(
          b, loc, mask, scores,
          xt::SplatOp::create(b, loc, tileOf(type), constant(-inf)));
    auto foldTo = [&](xt::CombineKind kind, Value tileValue, double identity) {
      return xt::FoldOp::create(b, loc, type, kind, tileValue,
                                ArrayRef<int64_t>{0},
                                b.getFloatAttr(type, identity),
                                /*associative=*/true, /*commutative=*/true,
                                strategy)
          .getResult();
    };
    Value max = foldTo(xt::CombineKind::max, scores, -inf);
    if (carriedMax)
      max = arith::MaximumFOp::create(b, loc, carriedMax, max);
    Value allInf = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                         max, constant(-inf));
    if (!carriedMax) {
      // A whole row: exp(x - max), which the kernel's own exp(x - max)
      // (softmax's output) shares after CSE, so that each element is
      // exponentiated once; a row of -inf sums to 0.
      Value e = math::ExpOp::create(
          b, loc,
          arith::SubFOp::create(b, loc, scores,
                                xt::SplatOp::create(b, loc, tileOf(type), max)));
      Value sum = arith::SelectOp::create(b, loc, allInf, constant(0),
                                          foldTo(xt::CombineKind::add, e, 0));
      scalars.map(fold.getMax(), max);
      scalars.map(fold.getSum(), sum);
      return success();
    }
    // Shifted by 0 while every score is -inf: exponentials of -inf are 0.
    Value shift = arith::SelectOp::create(b, loc, allInf, constant(0), max);
    Value e = math::ExpOp::create(
        b, loc,
        arith::SubFOp::create(b, loc, scores,
                              xt::SplatOp::create(b, loc, tileOf(type), shift)));
    Value sum = foldTo(xt::CombineKind::add, e, 0);
    if (carriedSum) {
      Value alpha = math::ExpOp::create(
          b, loc, arith::SubFOp::create(b, loc, carriedMax, shift));
      sum = arith::AddFOp::create(
          b, loc, arith::MulFOp::create(b, loc, carriedSum, alpha), sum);
    }
    scalars.map(fold.getMax(), max);
    scalars.map(fold.getSum(), sum);
    return success();
  }

  LogicalResult emitFold(xl::FoldOp fold) {
    FailureOr<TypedAttr> identity = foldIdentity(fold);
    if (failed(identity))
      return failure();
    FailureOr<Value> result = foldTile(fold, *identity);
    if (failed(result))
      return failure();
    scalars.map(fold.getResult(), *result);
    return success();
  }

  SmallVector<Value> indices(ValueRange loopIndices) {
    SmallVector<Value> out;
    for (Value v : loopIndices)
      out.push_back(isTile(v) ? asTile(v) : scalars.lookupOrDefault(v));
    return out;
  }

  /// A loop down a column fold's length (from sliceStart to sliceEnd
  /// where set) in steps of [columnChunk, tile] tiles, the next step's
  /// loads pipelined, carrying `init`; `body` emits a step with the step's
  /// index tile mapped to `iv` and `mask` set to the lanes inside both
  /// edges (null: all are), given the carried value, and returns what the
  /// step yields.
  FailureOr<scf::ForOp>
  columnSteps(Value iv, Value length, int64_t columns, Value init,
              function_ref<FailureOr<Value>(Value mask, Value carried)> body) {
    Value upper = sliceEnd ? sliceEnd
                  : length ? scalars.lookup(length)
                           : arith::ConstantIndexOp::create(b, loc, columns)
                                 .getResult();
    auto loop = scf::ForOp::create(
        b, loc,
        sliceStart ? sliceStart : arith::ConstantIndexOp::create(b, loc, 0),
        upper, arith::ConstantIndexOp::create(b, loc, columnChunk),
        ValueRange{init});
    setNumStages(loop, 2);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    auto outerSplats = splats;
    Value outerMask = mask;
    foldShape = {columnChunk, tile};
    llvm::scope_exit restore([&] {
      splats = outerSplats;
      mask = outerMask;
      foldShape.clear();
    });
    // The step's column indices, down the tile's first dimension.
    auto steps = RankedTensorType::get({columnChunk}, b.getIndexType());
    Value down = arith::AddIOp::create(
        b, loc, xt::RangeOp::create(b, loc, steps, 0, columnChunk),
        xt::SplatOp::create(b, loc, steps, loop.getInductionVar()));
    Value index = xt::BroadcastOp::create(
        b, loc, tileOf(b.getIndexType()),
        xt::ReshapeOp::create(
            b, loc, RankedTensorType::get({columnChunk, 1}, b.getIndexType()),
            down));
    tiles[iv] = index;
    Value where = outerMask ? broadcastDown(outerMask) : Value();
    if (length || sliceEnd || columns % columnChunk) {
      Value inside = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::slt, index,
          xt::SplatOp::create(b, loc, tileOf(b.getIndexType()), upper));
      where = where ? arith::AndIOp::create(b, loc, where, inside).getResult()
                    : inside;
    }
    mask = where;
    FailureOr<Value> yielded = body(where, loop.getRegionIterArgs()[0]);
    if (failed(yielded))
      return failure();
    scf::YieldOp::create(b, loc, *yielded);
    return loop;
  }

  /// A fold under a column schedule: its steps combined elementwise into
  /// the carried tile, lanes past either edge holding the identity; then
  /// one fold of that tile over its steps.
  LogicalResult emitColumnFold(xl::FoldOp fold) {
    FailureOr<TypedAttr> identity = foldIdentity(fold);
    if (failed(identity))
      return failure();
    Type element = fold.getType();
    auto accType = RankedTensorType::get({columnChunk, tile}, element);
    auto neutral = [&]() -> Value {
      return arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(accType, Attribute(*identity)));
    };
    Value init = neutral();
    FailureOr<scf::ForOp> loop = columnSteps(
        fold.getInductionVar(), fold.getDynamicUpper(),
        fold.getDynamicUpper() ? 0 : int64_t(fold.getUpper()), init,
        [&](Value where, Value carried) -> FailureOr<Value> {
          if (failed(emitBlock(fold.getBodyBlock())))
            return failure();
          Value values = asTile(fold.getYieldedValue());
          if (where)
            values = arith::SelectOp::create(b, loc, where, values, neutral());
          return combineScalars(fold.getCombine(), carried, values);
        });
    if (failed(loop))
      return failure();
    tiles[fold.getResult()] =
        xt::FoldOp::create(b, loc, RankedTensorType::get({tile}, element),
                           static_cast<xt::CombineKind>(fold.getCombine()),
                           loop->getResult(0), ArrayRef<int64_t>{0}, *identity,
                           /*associative=*/true, /*commutative=*/true,
                           xt::FoldStrategy::block)
            .getResult();
    return success();
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
    Value condition = store.getCondition();
    if (!tiled) {
      if (isTile(store.getValue()) || (condition && isTile(condition)))
        return store.emitOpError("stores a tile to a single element");
      if (condition) {
        // One element, as a tile of one under a mask of one.
        auto one = [&](Value v) -> Value {
          v = scalars.lookupOrDefault(v);
          return xt::SplatOp::create(b, loc,
                                     RankedTensorType::get({1}, v.getType()), v);
        };
        xt::StoreOp::create(b, loc, one(store.getValue()), buffer, idx,
                            one(condition), store.getAccumulate());
        return success();
      }
      xt::StoreOp::create(b, loc, scalars.lookupOrDefault(store.getValue()),
                          buffer, idx, Value(), store.getAccumulate());
      return success();
    }
    Value where = mask;
    if (condition) {
      Value c = asTile(condition);
      where = where ? arith::AndIOp::create(b, loc, where, c).getResult() : c;
    }
    xt::StoreOp::create(b, loc, asTile(store.getValue()), buffer, idx, where,
                        store.getAccumulate());
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
  int64_t chunk;
  /// Splats of scalars by tile type; a row's tile broadcast down a column
  /// fold's steps (type null).
  DenseMap<std::pair<Value, Type>, Value> splats;
  /// A column fold's [chunk, block] tile shape, while its body is emitted.
  SmallVector<int64_t, 2> foldShape;
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
    if (auto fold = dyn_cast<xl::OnlineFoldOp>(op))
      return emitOnline(fold, Value(), Value());
    auto loop = cast<xl::ParallelOp>(op);
    tiles[loop.getInductionVar()] = range;
    return emitBlock(loop.getBodyBlock());
  }
};

/// The row kernel `kernel` (nest `nest`) as one Tile IR kernel with one
/// program per row, under `schedule` (not a split).
LogicalResult lowerRowKernel(xl::KernelOp kernel, const RowNest &nest,
                             const RowFacts &facts,
                             xt::RowScheduleAttr schedule,
                             xt::TargetAttr target);

/// The row kernel `kernel` split over `schedule.getWays()` programs per
/// row: a kernel of partial folds and a combining one; its launches become
/// launches of both.
LogicalResult lowerSplitKernel(xl::KernelOp kernel, const RowNest &nest,
                               const RowFacts &facts,
                               xt::RowScheduleAttr schedule,
                               xt::TargetAttr target);

/// The column reduction `kernel` (facts.columnKernel) as one program per
/// block of adjacent rows, under a #xtile.column_schedule.
LogicalResult lowerColumnKernel(xl::KernelOp kernel, const RowNest &nest,
                                const RowFacts &facts,
                                xt::ColumnScheduleAttr schedule,
                                xt::TargetAttr target);

/// The contraction kernel `kernel` as one program per output tile.
LogicalResult lowerContractionKernel(xl::KernelOp kernel, const RowNest &nest,
                                     const Contraction &contraction,
                                     const DotFacts &facts,
                                     xt::DotScheduleAttr schedule,
                                     xt::TargetAttr target);

/// The attention kernel `kernel` (a weighted online fold over keys) as one
/// program per query row: the keys in blocks of `block_k`, each block's
/// scores a dot (when they are a contraction), its softmax weights folded
/// into the running (max, sum) and its weighted sum into the accumulator
/// of the `block_n` head-dimension columns, rescaled as the maximum grows.
LogicalResult lowerAttentionKernel(xl::KernelOp kernel, const RowNest &nest,
                                   const Contraction &attention,
                                   const DotFacts &facts,
                                   xt::DotScheduleAttr schedule,
                                   xt::TargetAttr target);

} // namespace detail
} // namespace xtile

#endif // XTILE_LIB_CONVERSION_LOOPTOTILE_LOWERING_H
