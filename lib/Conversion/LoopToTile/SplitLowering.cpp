//===- SplitLowering.cpp - a row kernel split over several programs -------===//
//
// Applies a #xtile.row_schedule with the split strategy: few long rows,
// each split over `ways` programs. A first kernel folds each slice into
// partial results, a second combines them and runs the elementwise loop.
// A slice is one tile, or, with chunks (`chunk > 0`, rows of a dynamic
// length), a loop over chunks of it: each way's share of the row is then
// computed at run time, whole chunks, and a way past the end folds none.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

using namespace mlir;
using namespace xtile;
using namespace xtile::detail;

LogicalResult xtile::detail::lowerSplitKernel(xl::KernelOp kernel,
                                       const RowNest &nest,
                                       const RowFacts &facts,
                                       xt::RowScheduleAttr schedule,
                                       xt::TargetAttr target) {
  MLIRContext *ctx = kernel.getContext();
  Location loc = kernel.getLoc();
  int64_t rows = facts.programs, ways = schedule.getWays();
  int64_t chunk = schedule.getChunk();
  int64_t slice = llvm::divideCeil(facts.columns, ways);
  int64_t tile = chunk ? chunk : int64_t(llvm::PowerOf2Ceil(slice));
  SmallVector<xl::FoldOp> folds;
  for (Operation &op : *nest.body)
    if (auto fold = dyn_cast<xl::FoldOp>(op))
      folds.push_back(fold);
  SmallVector<Type> partialBuffers;
  for (xl::FoldOp fold : folds)
    partialBuffers.push_back(MemRefType::get({rows, ways}, fold.getType()));
  auto inputs = kernel.getInputs();
  auto outputs = kernel.getOutputs();

  // Program -> (row, slice); the slice's columns as a masked tile.
  struct Prologue {
    Value rowFlat, sliceIndex;
  };
  // Programs over (row, slice), or over rows only (`sliced` false: the
  // combine of a split without an elementwise loop, one program per row).
  auto prologue = [&](OpBuilder &b, Emitter &e, bool sliced) -> Prologue {
    // Without row loops the kernel block is the row body, emitted later.
    if (!nest.rows.empty())
      for (Operation &op : kernel.getBodyBlock())
        if (!op.getNumRegions())
          cloneScalar(b, op, e.scalars);
    Value pid = xt::ProgramIdOp::create(b, loc, 0);
    Value sliceIndex, rowFlat = pid;
    if (sliced) {
      Value w = arith::ConstantIndexOp::create(b, loc, ways);
      sliceIndex = arith::RemUIOp::create(b, loc, pid, w);
      rowFlat = arith::DivUIOp::create(b, loc, pid, w);
    }
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
  // With chunks: the way's share of the row's length, whole chunks,
  // ceil(length / (chunk x ways)) x chunk; its columns [start, end).
  Value rowLength;
  for (Operation &op : *nest.body)
    if (auto fold = dyn_cast<xl::FoldOp>(op); fold && fold.hasDynamicUpper())
      rowLength = fold.getDynamicUpper();
  auto sliceBounds = [&](OpBuilder &b, Emitter &e,
                         Value sliceIndex) -> std::pair<Value, Value> {
    Value length = rowLength ? e.scalars.lookup(rowLength)
                             : arith::ConstantIndexOp::create(b, loc,
                                                              facts.columns)
                                   .getResult();
    return wayShare(b, loc, length, chunk, ways, sliceIndex);
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
  // The combine runs over (row, slice) where it has an elementwise loop
  // over the slices, else one program per row.
  bool elementwise = llvm::any_of(
      *nest.body, [](Operation &op) { return isa<xl::ParallelOp>(op); });
  // Both kernels: programs over (row, slice) (or rows: `sliced`), the
  // original inputs, then the partial-result buffers, then (the second
  // only) the outputs; `body` emits with an emitter over the program's
  // slice.
  auto buildKernel =
      [&](StringRef name, bool withOutputs, bool sliced,
          function_ref<LogicalResult(OpBuilder &, Emitter &, ArrayRef<Value>,
                                     const Prologue &)>
              body) -> FailureOr<xt::KernelOp> {
    auto k = xt::KernelOp::create(
        b, loc, name, inputs.size() + (withOutputs ? folds.size() : 0),
        ArrayRef<int64_t>{rows * (sliced ? ways : 1)}, schedule.getWarps(),
        target, schedule);
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
    // The row's length where it is dynamic; the rows themselves are static
    // (the partials are per row), so the grid is.
    addSizes(kernel, k, block, e.scalars, /*inputsOnly=*/!withOutputs);
    Prologue p = prologue(kb, e, sliced);
    Value range, mask;
    if (!chunk && sliced)
      std::tie(range, mask) = sliceTiles(kb, p.sliceIndex);
    Emitter fe(kb, loc, tile, range, mask, xt::FoldStrategy::block, chunk);
    fe.scalars = e.scalars;
    if (chunk && sliced)
      std::tie(fe.sliceStart, fe.sliceEnd) =
          sliceBounds(kb, fe, p.sliceIndex);
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
      partialName, /*withOutputs=*/false, /*sliced=*/true,
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
      kernel.getSymName(), /*withOutputs=*/true, /*sliced=*/elementwise,
      [&](OpBuilder &kb, Emitter &fe, ArrayRef<Value> partials,
          const Prologue &p) -> LogicalResult {
        int64_t wayTile = int64_t(llvm::PowerOf2Ceil(ways));
        fe.foldHook = [&](xl::FoldOp fold) -> FailureOr<Value> {
          FailureOr<TypedAttr> init = foldIdentity(fold);
          if (failed(init))
            return failure();
          TypedAttr identity = *init;
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
  return finishSplit(kernel, *k1, k2, partialName, partialBuffers);
}

LogicalResult xtile::detail::finishSplit(xl::KernelOp kernel, xt::KernelOp k1,
                                         FailureOr<xt::KernelOp> k2,
                                         StringRef partialName,
                                         TypeRange partials) {
  if (failed(k2)) {
    k1.erase();
    return failure();
  }
  // A bucket of a launch stays one entry of it: the host runs the partials'
  // kernel before it, where the bucket's range holds the size.
  if (isBucketed(kernel))
    (*k2).setPartialsFromAttr(
        FlatSymbolRefAttr::get(kernel.getContext(), partialName));
  else
    splitLaunches(kernel, partialName, partials);
  kernel.erase();
  return success();
}

std::pair<Value, Value> xtile::detail::wayShare(OpBuilder &b, Location loc,
                                                Value length, int64_t chunk,
                                                int64_t ways, Value way) {
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value share = arith::MulIOp::create(
      b, loc,
      arith::DivUIOp::create(
          b, loc,
          arith::AddIOp::create(b, loc, length, constant(chunk * ways - 1)),
          constant(chunk * ways)),
      constant(chunk));
  Value start = arith::MinUIOp::create(
      b, loc, arith::MulIOp::create(b, loc, way, share), length);
  Value end = arith::MinUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, start, share), length);
  return {start, end};
}

bool xtile::detail::isBucketed(xl::KernelOp kernel) {
  bool bucketed = false;
  kernel->getParentOfType<ModuleOp>().walk([&](xl::LaunchOp launch) {
    ArrayAttr buckets = launch.getBucketsAttr();
    if (!buckets)
      return WalkResult::advance();
    auto name = FlatSymbolRefAttr::get(kernel.getSymNameAttr());
    bucketed = launch.getKernelAttr() == name || llvm::is_contained(buckets, name);
    return bucketed ? WalkResult::interrupt() : WalkResult::advance();
  });
  return bucketed;
}

void xtile::detail::splitLaunches(xl::KernelOp kernel, StringRef partialName,
                                  TypeRange partials) {
  SmallVector<Type> tensors;
  for (Type t : partials) {
    auto buffer = cast<MemRefType>(t);
    tensors.push_back(
        RankedTensorType::get(buffer.getShape(), buffer.getElementType()));
  }
  SmallVector<xl::LaunchOp> launches;
  kernel->getParentOfType<ModuleOp>().walk([&](xl::LaunchOp launch) {
    if (launch.getKernel() == kernel.getSymName())
      launches.push_back(launch);
  });
  for (xl::LaunchOp launch : launches) {
    OpBuilder lb(launch);
    // Both take the launch's sizes (attention over dynamic keys).
    auto first = xl::LaunchOp::create(lb, launch.getLoc(), tensors,
                                      partialName, launch.getInputs());
    first.setSizesAttr(launch.getSizesAttr());
    SmallVector<Value> operands(launch.getInputs());
    llvm::append_range(operands, first.getResults());
    auto second =
        xl::LaunchOp::create(lb, launch.getLoc(), launch.getResultTypes(),
                             kernel.getSymName(), operands);
    second.setSizesAttr(launch.getSizesAttr());
    // (The partials come after the inputs: an input's index stays.)
    second.setUpdatesAttr(launch.getUpdatesAttr());
    launch.replaceAllUsesWith(second.getResults());
    launch.erase();
  }
}
