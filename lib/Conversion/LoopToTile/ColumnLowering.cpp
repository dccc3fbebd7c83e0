//===- ColumnLowering.cpp - a column reduction over blocks of rows --------===//
//
// Applies a #xtile.column_schedule: the innermost row loop becomes a tile
// of `block` adjacent rows per program (masked when ragged), contiguous in
// memory, and each fold a loop down its length over [chunk, block] tiles,
// combined in registers and folded over their first dimension once.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

using namespace mlir;
using namespace xtile;
using namespace xtile::detail;

LogicalResult xtile::detail::lowerColumnKernel(xl::KernelOp kernel,
                                               const RowNest &nest,
                                               const RowFacts &facts,
                                               xt::ColumnScheduleAttr schedule,
                                               xt::TargetAttr target) {
  OpBuilder b(kernel);
  Location loc = kernel.getLoc();
  auto tk =
      xt::KernelOp::create(b, loc, kernel.getSymName(), kernel.getNumInputs(),
                           ArrayRef<int64_t>{1}, schedule.getWarps(), target,
                           schedule);
  Block *block = b.createBlock(&tk.getBody());
  b.setInsertionPointToStart(block);

  int64_t rows = facts.innerRows, width = schedule.getBlock();
  auto rowTile = RankedTensorType::get({width}, b.getIndexType());
  // The block of rows from the program id, then the outer rows.
  Value pid = xt::ProgramIdOp::create(b, loc, 0);
  int64_t blocks = llvm::divideCeil(rows, width);
  Value count = arith::ConstantIndexOp::create(b, loc, blocks);
  Value first = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, pid, count),
      arith::ConstantIndexOp::create(b, loc, width));
  pid = arith::DivUIOp::create(b, loc, pid, count);
  AffineExpr programs = getAffineConstantExpr(blocks, b.getContext());
  Value range = arith::AddIOp::create(
      b, loc, xt::RangeOp::create(b, loc, rowTile, 0, width),
      xt::SplatOp::create(b, loc, rowTile, first));
  Value mask;
  if (rows % width)
    mask = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::slt, range,
        arith::ConstantOp::create(
            b, loc, DenseElementsAttr::get(rowTile, b.getIndexAttr(rows))));
  Emitter e(b, loc, width, range, mask, xt::FoldStrategy::block);
  e.columnChunk = schedule.getChunk();
  e.tiles[xl::ParallelOp(nest.rows.back()).getInductionVar()] = range;
  for (BlockArgument arg : kernel.getInputs())
    e.scalars.map(arg, block->addArgument(arg.getType(), arg.getLoc()));
  for (BlockArgument arg : kernel.getOutputs())
    e.scalars.map(arg, block->addArgument(arg.getType(), arg.getLoc()));
  addSizes(kernel, tk, block, e.scalars);
  for (xl::ParallelOp row : llvm::reverse(ArrayRef(nest.rows).drop_back())) {
    Extent extent = rowExtent(b, loc, row, e.scalars);
    e.scalars.map(row.getInductionVar(),
                  arith::RemUIOp::create(b, loc, pid, extent.value));
    pid = arith::DivUIOp::create(b, loc, pid, extent.value);
    programs = programs * extent.expr;
  }
  setGrid(tk, programs);
  // Ops above the innermost row body (hoisted constants, scalars of outer
  // rows) first, outer to inner.
  SmallVector<Block *> outer{&kernel.getBodyBlock()};
  for (xl::ParallelOp row : ArrayRef(nest.rows).drop_back())
    outer.push_back(&row.getBodyBlock());
  for (Block *above : outer)
    for (Operation &op : *above)
      if (!op.getNumRegions() && !op.hasTrait<OpTrait::IsTerminator>())
        cloneScalar(b, op, e.scalars);
  if (failed(e.emitBlock(*nest.body))) {
    tk.erase();
    return failure();
  }
  kernel.erase();
  return success();
}
