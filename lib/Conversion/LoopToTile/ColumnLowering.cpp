//===- ColumnLowering.cpp - a column reduction over blocks of rows --------===//
//
// Applies a #xtile.column_schedule: the innermost row loop becomes a tile
// of `block` adjacent rows per program (masked when ragged), contiguous in
// memory, and each fold a loop down its length over [chunk, block] tiles,
// combined in registers and folded over their first dimension once. With
// `ways` > 1, a first kernel folds each way's share of the length into
// partial results and a second combines them down the ways.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

using namespace mlir;
using namespace xtile;
using namespace xtile::detail;

namespace {
/// Where a program of a column kernel is: its block of rows (a tile of
/// their indices and its mask), the outer rows flattened, and its way.
struct ColumnProgram {
  Value rows, mask, outerFlat, way;
};

/// Builds the kernels of one column schedule.
class ColumnKernelBuilder {
public:
  ColumnKernelBuilder(xl::KernelOp kernel, const RowNest &nest,
                      const RowFacts &facts, xt::ColumnScheduleAttr schedule,
                      xt::TargetAttr target)
      : kernel(kernel), nest(nest), facts(facts), schedule(schedule),
        target(target), loc(kernel.getLoc()) {
    for (Operation &op : *nest.body)
      if (auto fold = dyn_cast<xl::FoldOp>(op))
        folds.push_back(fold);
    int64_t outer = facts.programs / std::max<int64_t>(1, facts.innerRows);
    for (xl::FoldOp fold : folds)
      partialTypes.push_back(MemRefType::get(
          {outer, schedule.getWays(), facts.innerRows}, fold.getType()));
  }

  /// The whole kernel, one program per block of rows.
  LogicalResult lowerWhole() {
    FailureOr<xt::KernelOp> k = build(
        kernel.getSymName(), /*partials=*/false, /*combine=*/false,
        [&](OpBuilder &, Emitter &e, ArrayRef<Value>, const ColumnProgram &) {
          return e.emitBlock(*nest.body);
        });
    if (failed(k))
      return failure();
    kernel.erase();
    return success();
  }

  /// The split kernels: each way's partial folds, then their combine and
  /// the rest of the body.
  LogicalResult lowerSplit() {
    std::string partialName = (kernel.getSymName() + "_partial").str();
    int64_t ways = schedule.getWays();
    DenseSet<Value> foldResults;
    for (xl::FoldOp fold : folds)
      foldResults.insert(fold.getResult());
    FailureOr<xt::KernelOp> k1 = build(
        partialName, /*partials=*/true, /*combine=*/false,
        [&](OpBuilder &b, Emitter &e, ArrayRef<Value> partials,
            const ColumnProgram &p) -> LogicalResult {
          Value length = foldLength(b, e);
          std::tie(e.sliceStart, e.sliceEnd) =
              wayShare(b, loc, length, schedule.getChunk(), ways, p.way);
          for (Operation &op : *nest.body) {
            if (isa<xl::StoreOp>(op) || op.hasTrait<OpTrait::IsTerminator>())
              continue;
            if (!isa<xl::FoldOp>(op) &&
                llvm::any_of(op.getOperands(), [&](Value v) {
                  return dependsOn(v, foldResults);
                }))
              continue;
            if (failed(e.emit(&op)))
              return failure();
          }
          auto rowTile = cast<RankedTensorType>(p.rows.getType());
          for (auto [fold, buffer] : llvm::zip(folds, partials)) {
            auto splat = [&](Value v) -> Value {
              return xt::SplatOp::create(b, loc, rowTile, v);
            };
            xt::StoreOp::create(b, loc, e.tiles.lookup(fold.getResult()),
                                buffer,
                                ValueRange{splat(p.outerFlat), splat(p.way),
                                           p.rows},
                                p.mask);
          }
          return success();
        });
    if (failed(k1))
      return failure();
    FailureOr<xt::KernelOp> k2 = build(
        kernel.getSymName(), /*partials=*/true, /*combine=*/true,
        [&](OpBuilder &b, Emitter &e, ArrayRef<Value> partials,
            const ColumnProgram &p) -> LogicalResult {
          e.foldHook = [&](xl::FoldOp fold) -> FailureOr<Value> {
            return combineWays(b, fold, partials[llvm::find(folds, fold) -
                                                 folds.begin()],
                               p);
          };
          return e.emitBlock(*nest.body);
        });
    return finishSplit(kernel, *k1, k2, partialName, partialTypes);
  }

private:
  using Body = function_ref<LogicalResult(OpBuilder &, Emitter &,
                                          ArrayRef<Value>,
                                          const ColumnProgram &)>;

  /// The fold's length (the first fold's: a column kernel's folds are
  /// uniform), in the kernel being built.
  Value foldLength(OpBuilder &b, Emitter &e) {
    xl::FoldOp fold = folds.front();
    if (Value size = fold.getDynamicUpper())
      return e.scalars.lookup(size);
    return arith::ConstantIndexOp::create(b, loc, fold.getUpper());
  }

  /// One Tile IR kernel named `name`: the inputs, then (`partials`) the
  /// partial results' buffers (outputs of the first kernel, inputs of the
  /// combine, which also takes the outputs); programs over blocks of rows,
  /// the outer rows, and (a first kernel of a split) the ways.
  FailureOr<xt::KernelOp> build(StringRef name, bool partials, bool combine,
                                Body body) {
    OpBuilder b(kernel);
    bool ways = partials && !combine;
    auto inputs = kernel.getInputs();
    auto tk = xt::KernelOp::create(
        b, loc, name, inputs.size() + (combine ? folds.size() : 0),
        ArrayRef<int64_t>{1}, schedule.getWarps(), target, schedule);
    Block *block = b.createBlock(&tk.getBody());
    b.setInsertionPointToStart(block);

    int64_t rows = facts.innerRows, width = schedule.getBlock();
    auto rowTile = RankedTensorType::get({width}, b.getIndexType());
    ColumnProgram p;
    Value pid = xt::ProgramIdOp::create(b, loc, 0);
    AffineExpr programs = getAffineConstantExpr(1, b.getContext());
    if (ways) {
      Value count = arith::ConstantIndexOp::create(b, loc, schedule.getWays());
      p.way = arith::RemUIOp::create(b, loc, pid, count);
      pid = arith::DivUIOp::create(b, loc, pid, count);
      programs = programs * schedule.getWays();
    }
    int64_t blocks = llvm::divideCeil(rows, width);
    Value count = arith::ConstantIndexOp::create(b, loc, blocks);
    Value first = arith::MulIOp::create(
        b, loc, arith::RemUIOp::create(b, loc, pid, count),
        arith::ConstantIndexOp::create(b, loc, width));
    pid = arith::DivUIOp::create(b, loc, pid, count);
    p.outerFlat = pid;
    programs = programs * blocks;
    p.rows = arith::AddIOp::create(
        b, loc, xt::RangeOp::create(b, loc, rowTile, 0, width),
        xt::SplatOp::create(b, loc, rowTile, first));
    if (rows % width)
      p.mask = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::slt, p.rows,
          arith::ConstantOp::create(
              b, loc, DenseElementsAttr::get(rowTile, b.getIndexAttr(rows))));
    Emitter e(b, loc, width, p.rows, p.mask, xt::FoldStrategy::block);
    e.columnChunk = schedule.getChunk();
    e.tiles[xl::ParallelOp(nest.rows.back()).getInductionVar()] = p.rows;
    for (BlockArgument arg : inputs)
      e.scalars.map(arg, block->addArgument(arg.getType(), arg.getLoc()));
    SmallVector<Value> partialArgs;
    if (partials)
      for (Type t : partialTypes)
        partialArgs.push_back(block->addArgument(t, loc));
    if (!ways)
      for (BlockArgument arg : kernel.getOutputs())
        e.scalars.map(arg, block->addArgument(arg.getType(), arg.getLoc()));
    addSizes(kernel, tk, block, e.scalars, /*inputsOnly=*/ways);
    mapRowsFromProgram(b, loc, ArrayRef(nest.rows).drop_back(), e.scalars,
                       pid, programs);
    setGrid(tk, programs);
    cloneAboveRows(b, kernel, nest.rows, e.scalars);
    if (failed(body(b, e, partialArgs, p))) {
      tk.erase();
      return failure();
    }
    return tk;
  }

  /// A fold's result from its ways' partial results: a [ways, block] tile
  /// (ways padded to a power of two, masked) folded down the ways.
  FailureOr<Value> combineWays(OpBuilder &b, xl::FoldOp fold, Value buffer,
                               const ColumnProgram &p) {
    FailureOr<TypedAttr> identity = foldIdentity(fold);
    if (failed(identity))
      return failure();
    int64_t ways = schedule.getWays(), width = schedule.getBlock();
    int64_t lanes = int64_t(llvm::PowerOf2Ceil(ways));
    auto shape = RankedTensorType::get({lanes, width}, b.getIndexType());
    auto down = [&](Value column) -> Value {
      auto type = cast<RankedTensorType>(column.getType());
      return xt::BroadcastOp::create(
          b, loc, shape.clone(type.getElementType()),
          xt::ReshapeOp::create(
              b, loc, RankedTensorType::get({1, width}, type.getElementType()),
              column));
    };
    Value way = xt::BroadcastOp::create(
        b, loc, shape,
        xt::ReshapeOp::create(
            b, loc, RankedTensorType::get({lanes, 1}, b.getIndexType()),
            xt::RangeOp::create(
                b, loc, RankedTensorType::get({lanes}, b.getIndexType()), 0,
                lanes)));
    Value mask = p.mask ? down(p.mask) : Value();
    if (lanes != ways) {
      Value inside = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::slt, way,
          arith::ConstantOp::create(
              b, loc, DenseElementsAttr::get(shape, b.getIndexAttr(ways))));
      mask = mask ? arith::AndIOp::create(b, loc, mask, inside).getResult()
                  : inside;
    }
    Value other =
        mask ? arith::ConstantOp::create(b, loc, *identity).getResult()
             : Value();
    Value values = xt::LoadOp::create(
        b, loc, shape.clone(fold.getType()), buffer,
        ValueRange{xt::SplatOp::create(b, loc, shape, p.outerFlat), way,
                   down(p.rows)},
        mask, other);
    return xt::FoldOp::create(b, loc, RankedTensorType::get({width},
                                                            fold.getType()),
                              static_cast<xt::CombineKind>(fold.getCombine()),
                              values, ArrayRef<int64_t>{0}, *identity,
                              /*associative=*/true, /*commutative=*/true,
                              xt::FoldStrategy::block)
        .getResult();
  }

  xl::KernelOp kernel;
  const RowNest &nest;
  const RowFacts &facts;
  xt::ColumnScheduleAttr schedule;
  xt::TargetAttr target;
  Location loc;
  SmallVector<xl::FoldOp> folds;
  SmallVector<Type> partialTypes;
};
} // namespace

LogicalResult xtile::detail::lowerColumnKernel(xl::KernelOp kernel,
                                               const RowNest &nest,
                                               const RowFacts &facts,
                                               xt::ColumnScheduleAttr schedule,
                                               xt::TargetAttr target) {
  ColumnKernelBuilder builder(kernel, nest, facts, schedule, target);
  return schedule.getWays() > 1 ? builder.lowerSplit() : builder.lowerWhole();
}
