//===- ComputeF32.cpp - 16-bit float kernels compute in f32 ---------------===//

#include "xtile/Dialect/Loop/Transforms/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"

namespace xtile::loop {
#define GEN_PASS_DEF_XLOOPCOMPUTEF32
#include "xtile/Dialect/Loop/Transforms/Passes.h.inc"
} // namespace xtile::loop

using namespace mlir;
using namespace xtile::loop;

namespace {

bool isHalf(Type t) { return t.isF16() || t.isBF16(); }

/// Arithmetic that computes a 16-bit float from its operands, elementwise:
/// what moves to f32. Casts, constants and memory accesses do not.
bool computesHalf(Operation *op) {
  if (op->getNumResults() != 1 || op->getNumRegions() != 0 ||
      !isHalf(op->getResult(0).getType()))
    return false;
  if (isa<math::MathDialect>(op->getDialect()))
    return true;
  return isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
             arith::RemFOp, arith::NegFOp, arith::MaximumFOp,
             arith::MinimumFOp, arith::MaxNumFOp, arith::MinNumFOp,
             arith::SelectOp>(op);
}

struct XLoopComputeF32Pass
    : xtile::loop::impl::XLoopComputeF32Base<XLoopComputeF32Pass> {
  void runOnOperation() override {
    getOperation().walk([&](KernelOp kernel) { widen(kernel); });
  }

  void widen(KernelOp kernel) {
    OpBuilder b(kernel.getContext());
    Type f32 = b.getF32Type();
    // The f32 value of each 16-bit value computed here, and the roundings
    // this pass put in (which the f32 value bypasses).
    DenseMap<Value, Value> wide;
    llvm::DenseSet<Operation *> ours;
    // A 16-bit value from elsewhere (a load) is extended once, where it is
    // defined.
    auto wideOf = [&](Value v) -> Value {
      if (Value w = wide.lookup(v))
        return w;
      OpBuilder::InsertionGuard guard(b);
      if (Operation *def = v.getDefiningOp())
        b.setInsertionPointAfter(def);
      else
        b.setInsertionPointToStart(cast<BlockArgument>(v).getOwner());
      Value w = arith::ExtFOp::create(b, v.getLoc(), f32, v);
      wide[v] = w;
      return w;
    };
    SmallVector<Operation *> work;
    kernel.walk([&](Operation *op) {
      if (computesHalf(op))
        work.push_back(op);
    });
    for (Operation *op : work) {
      // A choice between values none of which this pass computed (loads,
      // constants: a masked load) is exact in 16 bits and stays there, so
      // a masked 16-bit operand of a product reaches it narrow (tensor
      // cores take it).
      if (isa<arith::SelectOp>(op) &&
          llvm::none_of(op->getOperands(), [&](Value v) {
            return ours.contains(v.getDefiningOp());
          }))
        continue;
      b.setInsertionPoint(op);
      SmallVector<Value> operands;
      for (Value v : op->getOperands())
        operands.push_back(isHalf(v.getType()) ? wideOf(v) : v);
      OperationState state(op->getLoc(), op->getName(), operands, {f32},
                           op->getAttrs());
      Operation *computed = b.create(state);
      auto rounded = arith::TruncFOp::create(b, op->getLoc(),
                                             op->getResult(0).getType(),
                                             computed->getResult(0));
      ours.insert(rounded);
      wide[rounded] = computed->getResult(0);
      op->getResult(0).replaceAllUsesWith(rounded.getResult());
      op->erase();
    }
    // A 16-bit fold of values this pass computed in f32 folds the f32
    // values and rounds its result once: every other use of those values
    // (a clone that fusion recomputes beside the fold) sees them unrounded,
    // so `x - max(x)` stays exactly 0 where x is the maximum. Rounding is
    // monotone, so max and min are unchanged; sums and products only gain
    // precision. Inner folds come first, so an outer fold of an inner one
    // widens too.
    SmallVector<FoldOp> folds;
    kernel.walk([&](FoldOp fold) {
      if (isHalf(fold.getType()))
        folds.push_back(fold);
    });
    for (FoldOp fold : folds) {
      Value yielded = fold.getYieldedValue();
      Value wideYield = wide.lookup(yielded);
      auto yieldTrunc = yielded.getDefiningOp<arith::TruncFOp>();
      if (!wideYield || !yieldTrunc || !ours.contains(yieldTrunc))
        continue;
      b.setInsertionPoint(fold);
      // The initial value stays a constant (Tile IR needs one): widening
      // is exact.
      Value init;
      FloatAttr initAttr;
      if (matchPattern(fold.getInit(), m_Constant(&initAttr))) {
        APFloat value = initAttr.getValue();
        bool lost;
        value.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven,
                      &lost);
        init = arith::ConstantOp::create(b, fold.getLoc(), f32,
                                         b.getFloatAttr(f32, value));
      } else {
        init = arith::ExtFOp::create(b, fold.getLoc(), f32, fold.getInit());
      }
      auto widened =
          FoldOp::create(b, fold.getLoc(), fold.getLower(),
                         fold.getMixedUpper(), fold.getCombine(), init);
      widened.getBody().takeBody(fold.getBody());
      Operation *terminator = widened.getBodyBlock().getTerminator();
      terminator->replaceUsesOfWith(yielded, wideYield);
      auto rounded = arith::TruncFOp::create(b, fold.getLoc(), fold.getType(),
                                             widened.getResult());
      ours.insert(rounded);
      wide[rounded] = widened.getResult();
      fold.getResult().replaceAllUsesWith(rounded.getResult());
      fold.erase();
    }
    // Extensions of values this pass rounded take the f32 value itself;
    // roundings nobody uses go.
    kernel.walk([&](arith::ExtFOp ext) {
      auto trunc = ext.getIn().getDefiningOp<arith::TruncFOp>();
      if (trunc && ours.contains(trunc) && ext.getType().isF32()) {
        ext.replaceAllUsesWith(trunc.getIn());
        ext.erase();
      }
    });
    for (Operation *op : ours)
      if (op->use_empty())
        op->erase();
  }
};

} // namespace
