//===- RowLowering.cpp - a row kernel as one program per row --------------===//
//
// Applies a #xtile.row_schedule: the row loops become the program id, the
// columns a tile (padded to a power of two and masked when ragged, or a
// loop over chunks), each fold an xtile.fold with the schedule's strategy.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

using namespace mlir;
using namespace xtile;
using namespace xtile::detail;

void xtile::detail::cloneScalar(OpBuilder &b, Operation &op, IRMapping &map) {
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

Extent xtile::detail::rowExtent(OpBuilder &b, Location loc, xl::ParallelOp row,
                                const IRMapping &scalars) {
  if (Value size = row.getDynamicUpper()) {
    auto kernel = row->getParentOfType<xl::KernelOp>();
    auto position = llvm::find(kernel.getSizes(), size) -
                    kernel.getSizes().begin();
    return {scalars.lookup(size), getAffineSymbolExpr(position, b.getContext())};
  }
  int64_t extent = row.getUpper() - row.getLower();
  return {arith::ConstantIndexOp::create(b, loc, extent),
          getAffineConstantExpr(extent, b.getContext())};
}

void xtile::detail::addSizes(xl::KernelOp kernel, xt::KernelOp tk,
                             Block *block, IRMapping &scalars,
                             bool inputsOnly) {
  if (!kernel.getNumSizes())
    return;
  tk.setNumSizes(kernel.getNumSizes());
  tk.setSizeRangesAttr(kernel.getSizeRangesAttr());
  tk.setSizeHintsAttr(kernel.getSizeHintsAttr());
  tk.setBufferDimsAttr(kernel.getBufferDimsAttr());
  for (BlockArgument size : kernel.getSizes())
    scalars.map(size, block->addArgument(size.getType(), size.getLoc()));
  if (DenseI64ArrayAttr dims = tk.getBufferDimsAttr(); dims && inputsOnly) {
    int64_t named = 0;
    for (BlockArgument arg : kernel.getInputs())
      named += cast<MemRefType>(arg.getType()).getNumDynamicDims();
    tk.setBufferDims(dims.asArrayRef().take_front(named));
  }
}

void xtile::detail::setGrid(xt::KernelOp tk, AffineExpr programs) {
  if (auto constant = dyn_cast<AffineConstantExpr>(programs)) {
    tk.setGrid(ArrayRef<int64_t>{constant.getValue()});
    return;
  }
  SmallVector<int64_t> maxima;
  for (auto [min, max] : getKernelSizeRanges(tk))
    maxima.push_back(max);
  auto map = AffineMap::get(0, maxima.size(), programs);
  tk.setGrid(evaluateSizeMap(map, maxima));
  tk.setGridMap(map);
}

/// An affine expression over tiles of indices (all of `type`), as arith on
/// the tiles; `mod` is the non-negative remainder, as affine defines it.
Value xtile::detail::lowerAffineOnTiles(OpBuilder &b, Location loc, AffineExpr e,
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


Value xtile::detail::mapRowsFromProgram(OpBuilder &b, Location loc,
                                        ArrayRef<xl::ParallelOp> rows,
                                        IRMapping &scalars, Value pid,
                                        AffineExpr &programs) {
  for (xl::ParallelOp row : llvm::reverse(rows)) {
    Extent extent = rowExtent(b, loc, row, scalars);
    scalars.map(row.getInductionVar(),
                arith::RemUIOp::create(b, loc, pid, extent.value));
    pid = arith::DivUIOp::create(b, loc, pid, extent.value);
    programs = programs * extent.expr;
  }
  return pid;
}

void xtile::detail::cloneAboveRows(OpBuilder &b, xl::KernelOp kernel,
                                   ArrayRef<xl::ParallelOp> rows,
                                   IRMapping &scalars) {
  // (Without rows the kernel's block is the row body itself.)
  if (rows.empty())
    return;
  SmallVector<Block *> outer{&kernel.getBodyBlock()};
  for (xl::ParallelOp row : rows.drop_back())
    outer.push_back(&row.getBodyBlock());
  for (Block *above : outer)
    for (Operation &op : *above)
      if (!op.getNumRegions() && !op.hasTrait<OpTrait::IsTerminator>())
        cloneScalar(b, op, scalars);
}

LogicalResult xtile::detail::lowerRowKernel(xl::KernelOp kernel, const RowNest &nest,
                                     const RowFacts &facts,
                                     xt::RowScheduleAttr schedule,
                                     xt::TargetAttr target) {
  // The Tile IR kernel, in place of the Loop IR one, same name and buffers.
  OpBuilder b(kernel);
  Location loc = kernel.getLoc();
  auto tk =
      xt::KernelOp::create(b, loc, kernel.getSymName(), kernel.getNumInputs(),
                           ArrayRef<int64_t>{1}, schedule.getWarps(),
                           target, schedule);
  Block *block = b.createBlock(&tk.getBody());
  b.setInsertionPointToStart(block);

  Value range, mask;
  if (facts.columns && !schedule.getChunk()) {
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
  Emitter e(b, loc, schedule.getChunk() ? schedule.getChunk() : facts.tile,
            range, mask, schedule.getStrategy(), schedule.getChunk());
  if (!nest.uniform && !schedule.getChunk())
    e.enablePerLoopTiles();
  for (BlockArgument arg : kernel.getInputs())
    e.scalars.map(arg, block->addArgument(arg.getType(), arg.getLoc()));
  for (BlockArgument arg : kernel.getOutputs())
    e.scalars.map(arg, block->addArgument(arg.getType(), arg.getLoc()));
  addSizes(kernel, tk, block, e.scalars);

  // Row indices from the program id, innermost row fastest; one program
  // per row (of the rows' sizes, where they are dynamic).
  AffineExpr programs = getAffineConstantExpr(1, b.getContext());
  mapRowsFromProgram(b, loc, nest.rows, e.scalars,
                     xt::ProgramIdOp::create(b, loc, 0), programs);
  setGrid(tk, programs);
  cloneAboveRows(b, kernel, nest.rows, e.scalars);
  if (failed(e.emitBlock(*nest.body))) {
    tk.erase();
    return failure();
  }
  kernel.erase();
  return success();
}
