//===- TileToKernel.cpp - Tile IR to Kernel IR ----------------------------===//
//
// A Tile IR program becomes a CUDA block. Every tile is spread over the
// block's threads by one rule (its *layout*): the tile's elements in
// row-major order form groups of `vec` adjacent elements of the last
// dimension, and group g belongs to thread g mod threads, in chunk
// g / threads. A thread's *slots* are (chunk, lane) pairs; tiles of the same
// shape put the same element in the same slot of the same thread, so
// elementwise ops are per-slot scalar ops.
//
// Values are computed per slot at a *coordinate set* (the coordinates of the
// element each slot stands for). Most tiles are used at their own layout's
// coordinates; `xtile.broadcast` and `xtile.reshape` map coordinates, and
// their operands are computed again at the mapped coordinates (index
// arithmetic, or a re-read of an input buffer): no data moves between
// threads except in folds and dots, which go through shuffles and shared
// memory.
//
// This is a structured lowering rather than a set of independent op
// patterns: how an op lowers depends on the coordinates its users need.
// Every op it does not know is an error at that op's location.
//
//===----------------------------------------------------------------------===//

#include "xtile/Support/KernelSignature.h"
#include "KernelLowering.h"
#include "OpLowering.h"

#include "xtile/Support/SymbolicDims.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"

namespace xtile {
#define GEN_PASS_DEF_CONVERTXTILETOXKERNEL
#include "xtile/Conversion/Passes.h.inc"
} // namespace xtile

using namespace mlir;
using namespace xtile;
using namespace xtile::tiletokernel;

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::lowerOp(Operation *op) {
  if (auto id = dyn_cast<xt::ProgramIdOp>(op)) {
    static const xk::Dim dims[] = {xk::Dim::x, xk::Dim::y, xk::Dim::z};
    if (id.getDim() > 2)
      return op->emitOpError("a CUDA grid has 3 dimensions");
    scalars[id.getResult()] = xk::BlockIdOp::create(b, loc, dims[id.getDim()]);
    return success();
  }
  // Ops with a family lowering (dots, folds, stores, scalar loads).
  ArrayRef<std::unique_ptr<OpLowering>> family =
      familyLowerings.lookup(op->getName().getStringRef());
  for (const std::unique_ptr<OpLowering> &lowering : family)
    if (lowering->matches(op, *this))
      return lowering->lower(op, *this);
  if (auto dot = dyn_cast<xt::DotOp>(op))
    return op->emitOpError("has no lowering on ")
           << target.attr().getArch() << " for schedule "
           << src.getScheduleAttr();
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return lowerFor(loop);
  bool tileOp = llvm::any_of(op->getOperands(), isTile) ||
                llvm::any_of(op->getResults(), isTile);
  if (auto apply = dyn_cast<affine::AffineApplyOp>(op); apply && !tileOp) {
    // Index arithmetic of reshapes: expanded into arith.
    FailureOr<SmallVector<Value>> operands = scalarOperands(op);
    if (failed(operands))
      return failure();
    std::optional<SmallVector<Value, 8>> expanded =
        affine::expandAffineMap(b, loc, apply.getAffineMap(), *operands);
    if (!expanded)
      return op->emitOpError("cannot be expanded into arith ops");
    scalars[apply.getResult()] = (*expanded)[0];
    return success();
  }
  if (!tileOp) {
    // Scalar arithmetic: every thread computes it.
    if (op->getNumRegions() ||
        !isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
      return op->emitOpError("is not supported by the Kernel IR lowering");
    FailureOr<SmallVector<Value>> operands = scalarOperands(op);
    if (failed(operands))
      return failure();
    Operation *clone = recreate(op, *operands, op->getResultTypes());
    for (auto [from, to] : llvm::zip(op->getResults(), clone->getResults()))
      scalars[from] = to;
    return success();
  }
  if (op->getNumResults() != 1)
    return op->emitOpError("is not supported by the Kernel IR lowering");
  // A tile: computed here, at its own coordinates, unless it is only seen
  // through broadcasts and reshapes (then where and as they need it).
  Value result = op->getResult(0);
  if (copiedLoads.contains(op))
    return success();
  bool ownCoordinates = llvm::any_of(result.getUsers(), [](Operation *user) {
    return !isa<xt::BroadcastOp, xt::ReshapeOp>(user);
  });
  if (!ownCoordinates)
    return success();
  int cs =
      coordinates.base(cast<RankedTensorType>(result.getType()).getShape());
  return tile(result, cs);
}

LogicalResult KernelLowering::lowerBlock(Block &block) {
  for (Operation &op : block.without_terminator())
    if (failed(lowerOp(&op)))
      return failure();
  return success();
}

LogicalResult KernelLowering::parseSchedule() {
  if (failed(layouts.initialize(src)))
    return failure();
  if (src.getGrid().size() > 3)
    return src.emitOpError("a CUDA grid has at most 3 dimensions, got ")
           << src.getGrid().size();
  return pipelines.verifyCopies();
}

FailureOr<xk::FuncOp> KernelLowering::run() {
  if (failed(parseSchedule()))
    return failure();
  if (!src.getTarget())
    return src.emitOpError("has no target: run --convert-xloop-to-xtile, "
                           "which chooses one");
  MLIRContext *ctx = src.getContext();
  Block &body = src.getBodyBlock();
  populateFmaDotLowerings(familyLowerings, target);
  populateMmaSyncDotLowerings(familyLowerings, target);
  populateWgmmaDotLowerings(familyLowerings, target);
  populateFoldLowerings(familyLowerings, target);
  populateMemoryLowerings(familyLowerings, target);
  // Warp specialization splits the block at the loop its plan says (see
  // lowerFor); elsewhere the kernel runs without the producer warpgroup.
  auto *tileDialect = ctx->getOrLoadDialect<xt::XTileDialect>();
  for (auto loop : body.getOps<scf::ForOp>())
    if (auto plan = dyn_cast_or_null<xt::PipelineAttr>(
            tileDialect->getPipelineAttrHelper().getAttr(loop)))
      if (plan.getWarpSpecialized())
        producerLoop = loop;
  SmallVector<Type> argTypes;
  SmallVector<Attribute> argAttrs;
  for (BlockArgument arg : body.getArguments()) {
    // Dynamic sizes become index arguments after the buffers' pointers.
    if (arg.getArgNumber() >= body.getNumArguments() - src.getNumSizes()) {
      argTypes.push_back(arg.getType());
      argAttrs.push_back(DictionaryAttr::get(ctx));
      continue;
    }
    auto memref = dyn_cast<MemRefType>(arg.getType());
    if (!memref || !memref.getLayout().isIdentity())
      return src.emitOpError("buffer #")
             << arg.getArgNumber() << " must be a row-major memref";
    argTypes.push_back(xk::PtrType::get(
        ctx, storageType(memref.getElementType()), xk::MemorySpace::global));
    NamedAttrList attrs;
    // (An input that an output updates in place is not read-only.)
    if (arg.getArgNumber() < src.getNumInputs() &&
        !src->hasAttr(kMayAliasAttrName))
      attrs.append(xk::FuncOp::getReadonlyAttrName(), UnitAttr::get(ctx));
    argAttrs.push_back(attrs.getDictionary(ctx));
  }
  b.setInsertionPoint(src);
  func = xk::FuncOp::create(
      b, loc, src.getSymName(), FunctionType::get(ctx, argTypes, {}),
      ArrayAttr::get(ctx, argAttrs), ArrayAttr(),
      layouts.numThreads() + (producerLoop ? kProducerThreads : 0), 0,
      b.getStringAttr(src.getTarget()->getArch()), IntegerAttr());
  if (src->hasAttr(kMayAliasAttrName))
    func->setAttr(kMayAliasAttrName, b.getUnitAttr());
  Block *entry = b.createBlock(&func.getBody(), {}, argTypes,
                               SmallVector<Location>(argTypes.size(), loc));
  b.setInsertionPointToStart(entry);
  for (BlockArgument size : src.getSizes())
    scalars[size] = entry->getArgument(size.getArgNumber());
  tid = xk::ThreadIdOp::create(b, loc, xk::Dim::x);
  // Everything computed once per thread is placed before this marker.
  ix.prelude = arith::ConstantIndexOp::create(b, loc, 0);
  b.setInsertionPoint(ix.prelude);
  lane = rem(tid, 32);
  warp = div(tid, 32);
  coordinates.setThread(tid, lane, warp);
  b.setInsertionPointAfter(ix.prelude);
  scopes.emplace_back();
  if (failed(lowerBlock(body))) {
    func.erase();
    return failure();
  }
  // (After a warp-specialized split the builder is in the consumers'
  // branch.)
  b.setInsertionPointToEnd(entry);
  xk::ReturnOp::create(b, loc);
  func.setDynamicShared(dynamicBytes);
  // Contraction kernels run one or two blocks per SM by design: every
  // register the assembler can use goes to the accumulators.
  if (layouts.dotSchedule())
    func.setMinBlocks(1);
  return func;
}

LoweringOverrides::~LoweringOverrides() = default;
OpLowering::~OpLowering() = default;

bool DotLowering::matches(xt::DotOp, const KernelLowering &lowering) const {
  return lowering.instruction() == instruction;
}

LogicalResult DotLowering::lower(xt::DotOp op, KernelLowering &lowering) const {
  return (lowering.*lowerDot)(op);
}

FailureOr<xk::FuncOp>
xtile::lowerTileKernel(xt::KernelOp kernel,
                       const LoweringOverrides &overrides) {
  return KernelLowering(kernel, overrides).run();
}

FailureOr<xk::FuncOp> xtile::lowerTileKernel(xt::KernelOp kernel) {
  return lowerTileKernel(kernel, LoweringOverrides());
}

LogicalResult xtile::lowerTileModule(ModuleOp module,
                                     const LoweringOverrides &overrides) {
  bool failedAny = false;
  SmallVector<xt::KernelOp> kernels(module.getOps<xt::KernelOp>());
  llvm::StringMap<LoweredKernel> lowered;
  // The partials of the buckets split over two kernels: the outputs of the
  // first, read before the kernels are lowered.
  llvm::StringMap<SmallVector<MemRefType>> partials;
  for (xt::KernelOp kernel : kernels)
    if (std::optional<StringRef> first = kernel.getPartialsFrom())
      if (auto k = module.lookupSymbol<xt::KernelOp>(*first)) {
        auto buffers = xtile::getKernelBuffers(k);
        for (BlockArgument out : buffers->second)
          partials[kernel.getSymName()].push_back(
              cast<MemRefType>(out.getType()));
      }
  for (xt::KernelOp kernel : kernels) {
    FailureOr<xk::FuncOp> func = lowerTileKernel(kernel, overrides);
    if (failed(func)) {
      failedAny = true;
      continue;
    }
    LoweredKernel &l = lowered[kernel.getSymName()];
    l = {*func, SmallVector<int64_t, 3>(kernel.getGrid()),
         kernel.getGridMap().value_or(AffineMap()),
         xtile::getKernelSizeRanges(kernel),
         kernel.getPartialsFrom().value_or("").str()};
    l.partialTypes = partials.lookup(kernel.getSymName());
  }
  if (failedAny)
    return failure();
  SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
  for (func::FuncOp fn : funcs) {
    if (fn.isExternal())
      continue;
    if (failed(lowerHostFunction(fn, lowered)))
      failedAny = true;
  }
  if (failedAny)
    return failure();
  for (func::FuncOp fn : funcs)
    if (!fn.isExternal())
      fn.erase();
  for (xt::KernelOp kernel : kernels)
    kernel.erase();
  return success();
}

namespace {
struct ConvertXTileToXKernelPass
    : public xtile::impl::ConvertXTileToXKernelBase<ConvertXTileToXKernelPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(lowerTileModule(getOperation(), LoweringOverrides())))
      signalPassFailure();
  }
};
} // namespace
