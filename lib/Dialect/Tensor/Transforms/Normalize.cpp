//===- Normalize.cpp - canonical form of Tensor IR ------------------------===//
//
// Normalization makes the printed form of a program a function of what it
// computes, not of how it was written: exact folds, a canonical operand
// order for commutative ops, CSE, and a canonical op order. Two programs
// that differ only in SSA names, op order or the order of commutative
// operands print byte-identically afterwards, which is what kernel
// identity (structural dedupe at Loop IR) relies on.
//
//===----------------------------------------------------------------------===//

#include "xtile/Dialect/Tensor/Transforms/Passes.h"

#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "xtile/Support/StructuralHash.h"

namespace xtile::tensor {
#define GEN_PASS_DEF_XTENSORNORMALIZE
#include "xtile/Dialect/Tensor/Transforms/Passes.h.inc"
} // namespace xtile::tensor

using namespace mlir;
using namespace xtile::tensor;

/// Reorders the ops of each block whose ops are all free of side effects
/// into a depth-first post-order from the terminator's operands, so the
/// order depends only on the dataflow graph.
static void scheduleCanonically(Operation *root) {
  root->walk([&](Block *block) {
    if (block->empty() || !block->back().hasTrait<OpTrait::IsTerminator>())
      return;
    Operation *terminator = &block->back();
    for (Operation &op : block->without_terminator())
      if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op))
        return;

    SmallVector<Operation *> order;
    DenseSet<Operation *> visited;
    // Explicit stack: graphs of many thousand ops would overflow recursion.
    SmallVector<std::pair<Operation *, unsigned>> stack;
    auto push = [&](Value value) {
      Operation *def = value.getDefiningOp();
      if (def && def->getBlock() == block && visited.insert(def).second)
        stack.push_back({def, 0});
    };
    for (Value value : terminator->getOperands()) {
      push(value);
      while (!stack.empty()) {
        auto &[op, next] = stack.back();
        if (next < op->getNumOperands()) {
          push(op->getOperand(next++));
          continue;
        }
        order.push_back(op);
        stack.pop_back();
      }
    }
    for (Operation *op : order)
      op->moveBefore(terminator);
  });
}

//===----------------------------------------------------------------------===//
// Fast-math patterns
//===----------------------------------------------------------------------===//

namespace {

static bool isFloat(Value value) {
  return isa<FloatType>(getElementTypeOrSelf(value.getType()));
}

static std::optional<APFloat> splatFloat(Value value) {
  SplatElementsAttr splat;
  if (!isFloat(value) || !matchPattern(value, m_Constant(&splat)))
    return std::nullopt;
  return splat.getSplatValue<APFloat>();
}

static Value floatSplat(PatternRewriter &rewriter, Location loc, Type type,
                        const APFloat &value) {
  auto shaped = cast<ShapedType>(type);
  return ConstantOp::create(
      rewriter, loc,
      DenseElementsAttr::get(
          shaped, rewriter.getFloatAttr(shaped.getElementType(), value)));
}

/// x - x -> 0 (wrong for NaN and infinities).
struct SubSelf : OpRewritePattern<SubOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SubOp op,
                                PatternRewriter &rewriter) const override {
    if (!isFloat(op.getLhs()) || op.getLhs() != op.getRhs() ||
        !cast<ShapedType>(op.getType()).hasStaticShape())
      return failure();
    auto elementType = cast<FloatType>(getElementTypeOrSelf(op.getType()));
    rewriter.replaceOp(
        op, floatSplat(rewriter, op.getLoc(), op.getType(),
                       APFloat::getZero(elementType.getFloatSemantics())));
    return success();
  }
};

/// x * 0 -> 0 (wrong for NaN, infinities and the sign of zero).
struct MulZero : OpRewritePattern<MulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MulOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<APFloat> c = splatFloat(op.getRhs());
    if (!c || !c->isZero())
      return failure();
    rewriter.replaceOp(op, op.getRhs());
    return success();
  }
};

/// x + 0.0 -> x (wrong for x = -0.0).
struct AddPositiveZero : OpRewritePattern<AddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AddOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<APFloat> c = splatFloat(op.getRhs());
    if (!c || !c->isPosZero())
      return failure();
    rewriter.replaceOp(op, op.getLhs());
    return success();
  }
};

/// x / c -> x * (1/c) (wrong in the last bit unless 1/c is exact).
struct DivByConstant : OpRewritePattern<DivOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DivOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<APFloat> c = splatFloat(op.getRhs());
    if (!c || c->isZero() || !c->isFinite())
      return failure();
    APFloat reciprocal(c->getSemantics(), 1);
    reciprocal.divide(*c, APFloat::rmNearestTiesToEven);
    Value r = floatSplat(rewriter, op.getLoc(), op.getType(), reciprocal);
    rewriter.replaceOpWithNewOp<MulOp>(op, op.getLhs(), r);
    return success();
  }
};

/// (x op c1) op c2 -> x op (c1 op c2) for op in {add, mul}.
template <typename OpT> struct ReassociateConstants : OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getLhs().template getDefiningOp<OpT>();
    if (!inner || !isFloat(op.getLhs()) || !splatFloat(op.getRhs()) ||
        !splatFloat(inner.getRhs()))
      return failure();
    Value constants =
        OpT::create(rewriter, op.getLoc(), inner.getRhs(), op.getRhs());
    rewriter.replaceOpWithNewOp<OpT>(op, inner.getLhs(), constants);
    return success();
  }
};

struct XTensorNormalizePass
    : xtile::tensor::impl::XTensorNormalizeBase<XTensorNormalizePass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(normalize(getOperation(), fastMath)))
      signalPassFailure();
  }
};

} // namespace

void xtile::tensor::populateFastMathPatterns(RewritePatternSet &patterns) {
  patterns.add<SubSelf, MulZero, AddPositiveZero, DivByConstant,
               ReassociateConstants<AddOp>, ReassociateConstants<MulOp>>(
      patterns.getContext());
}

LogicalResult xtile::tensor::normalize(Operation *root, bool fastMath) {
  MLIRContext *context = root->getContext();
  RewritePatternSet patterns(context);
  if (fastMath)
    populateFastMathPatterns(patterns);
  FrozenRewritePatternSet frozen(std::move(patterns));
  GreedyRewriteConfig config;
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);

  // Folding can expose common subexpressions and CSE can expose folds;
  // iterate to a fixed point (bounded: each round only shrinks the IR or
  // reorders operands once).
  constexpr int kMaxRounds = 8;
  for (int round = 0; round < kMaxRounds; ++round) {
    bool folded = false;
    // Not converging is not an error: the IR is still valid.
    (void)applyPatternsGreedily(root, frozen, config, &folded);
    bool sorted = xtile::sortCommutativeOperands(root);
    bool eliminated = false;
    IRRewriter rewriter(context);
    DominanceInfo dominance(root);
    eliminateCommonSubExpressions(rewriter, dominance, root, &eliminated);
    if (!folded && !sorted && !eliminated)
      break;
  }
  scheduleCanonically(root);
  return success();
}
