//===- Decompose.cpp - composite xtensor ops into atomic ops --------------===//
//
// Each composite op is rewritten into the atomic ops that define it, in the
// dialect conversion framework: composites are illegal, so one that no
// pattern can rewrite is a located error rather than a silent leftover.
//
//===----------------------------------------------------------------------===//

#include "xtile/Dialect/Tensor/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

#include <cmath>

namespace xtile::tensor {
#define GEN_PASS_DEF_XTENSORDECOMPOSE
#include "xtile/Dialect/Tensor/Transforms/Passes.h.inc"
} // namespace xtile::tensor

using namespace mlir;
using namespace xtile::tensor;

namespace {

/// Small builder for the atomic ops a decomposition emits at one location.
class Emitter {
public:
  Emitter(PatternRewriter &rewriter, Location loc)
      : rewriter(rewriter), loc(loc) {}

  /// A splat constant of `like`'s shape and element type.
  Value splat(Type like, double value) {
    auto type = cast<RankedTensorType>(like);
    Attribute element = rewriter.getFloatAttr(type.getElementType(), value);
    return ConstantOp::create(rewriter, loc,
                              DenseElementsAttr::get(type, element));
  }
  Value broadcast(Value value, Type to) {
    if (value.getType() == to)
      return value;
    return BroadcastOp::create(rewriter, loc, to, value);
  }
  Value reshape(Value value, Type to) {
    if (value.getType() == to)
      return value;
    return ReshapeOp::create(rewriter, loc, to, value);
  }
  Value reduce(ReduceKind kind, Value value, ArrayRef<int64_t> dims,
               bool keepdim) {
    return ReduceOp::create(rewriter, loc, kind, value, dims, keepdim);
  }
  /// sum(value, dims) / count.
  Value mean(Value value, ArrayRef<int64_t> dims, bool keepdim) {
    Value sum = reduce(ReduceKind::sum, value, dims, keepdim);
    return div(sum, splat(sum.getType(), count(value, dims)));
  }

  template <typename OpT, typename... Args> Value create(Args &&...args) {
    return OpT::create(rewriter, loc, std::forward<Args>(args)...);
  }
  Value add(Value a, Value b) { return create<AddOp>(a, b); }
  Value sub(Value a, Value b) { return create<SubOp>(a, b); }
  Value mul(Value a, Value b) { return create<MulOp>(a, b); }
  Value div(Value a, Value b) { return create<DivOp>(a, b); }

  static int64_t count(Value value, ArrayRef<int64_t> dims) {
    auto type = cast<RankedTensorType>(value.getType());
    int64_t n = 1;
    for (int64_t d : dims)
      n *= type.getDimSize(d);
    return n;
  }

private:
  PatternRewriter &rewriter;
  Location loc;
};

/// The trailing `rank` dimensions of `value`.
static SmallVector<int64_t> trailingDims(Value value, int64_t rank) {
  int64_t total = cast<RankedTensorType>(value.getType()).getRank();
  return llvm::to_vector(llvm::seq<int64_t>(total - rank, total));
}

static Value decompose(Emitter &e, RmsNormOp op) {
  Value x = op.getInput();
  Value meanSquare =
      e.mean(e.mul(x, x),
             trailingDims(x, static_cast<int64_t>(op.getNormRank())), true);
  Value scale = e.create<RsqrtOp>(
      e.add(meanSquare,
            e.splat(meanSquare.getType(), op.getEps().convertToDouble())));
  Value y = e.mul(x, e.broadcast(scale, x.getType()));
  if (Value w = op.getWeight())
    y = e.mul(y, e.broadcast(w, x.getType()));
  return y;
}

static Value decompose(Emitter &e, LayerNormOp op) {
  Value x = op.getInput();
  SmallVector<int64_t> dims =
      trailingDims(x, static_cast<int64_t>(op.getNormRank()));
  Value centered = e.sub(x, e.broadcast(e.mean(x, dims, true), x.getType()));
  Value variance = e.mean(e.mul(centered, centered), dims, true);
  Value scale = e.create<RsqrtOp>(e.add(
      variance, e.splat(variance.getType(), op.getEps().convertToDouble())));
  Value y = e.mul(centered, e.broadcast(scale, x.getType()));
  if (Value w = op.getWeight())
    y = e.mul(y, e.broadcast(w, x.getType()));
  if (Value b = op.getBias())
    y = e.add(y, e.broadcast(b, x.getType()));
  return y;
}

/// x - max(x) along `dim`, broadcast back: the stable shift of softmax.
static Value shiftByMax(Emitter &e, Value x, int64_t dim) {
  Value max = e.reduce(ReduceKind::max, x, {dim}, true);
  return e.sub(x, e.broadcast(max, x.getType()));
}

static Value decompose(Emitter &e, SoftmaxOp op) {
  Value x = op.getInput();
  Value exp =
      e.create<ExpOp>(shiftByMax(e, x, static_cast<int64_t>(op.getDim())));
  Value sum =
      e.reduce(ReduceKind::sum, exp, {static_cast<int64_t>(op.getDim())}, true);
  return e.div(exp, e.broadcast(sum, x.getType()));
}

static Value decompose(Emitter &e, LogSoftmaxOp op) {
  Value x = op.getInput();
  Value shifted = shiftByMax(e, x, static_cast<int64_t>(op.getDim()));
  Value sum = e.reduce(ReduceKind::sum, e.create<ExpOp>(shifted),
                       {static_cast<int64_t>(op.getDim())}, true);
  Value logSum = e.create<LogOp>(sum);
  return e.sub(shifted, e.broadcast(logSum, x.getType()));
}

static Value decompose(Emitter &e, GeluOp op) {
  Value x = op.getInput();
  Type type = x.getType();
  Value inner;
  if (op.getApproximation() == GeluApproximation::erf) {
    // erf(x / sqrt(2)), as x * M_SQRT1_2 the way PyTorch computes it.
    inner = e.create<ErfOp>(e.mul(x, e.splat(type, M_SQRT1_2)));
  } else {
    // tanh(sqrt(2/pi) * (x + 0.044715 * x^3)).
    Value cube = e.mul(e.mul(x, x), x);
    Value poly = e.add(x, e.mul(cube, e.splat(type, 0.044715)));
    inner = e.create<TanhOp>(e.mul(poly, e.splat(type, std::sqrt(2.0 / M_PI))));
  }
  Value halfX = e.mul(x, e.splat(type, 0.5));
  return e.mul(halfX, e.add(inner, e.splat(type, 1.0)));
}

static Value decompose(Emitter &e, SiluOp op) {
  Value x = op.getInput();
  return e.mul(x, e.create<SigmoidOp>(x));
}

static Value decompose(Emitter &e, MeanOp op) {
  return e.mean(op.getInput(), op.getDims(), op.getKeepdim());
}

static Value decompose(Emitter &e, VarOp op) {
  Value x = op.getInput();
  ArrayRef<int64_t> dims = op.getDims();
  Value centered = e.sub(x, e.broadcast(e.mean(x, dims, true), x.getType()));
  Value sumSquares = e.reduce(ReduceKind::sum, e.mul(centered, centered), dims,
                              op.getKeepdim());
  double dof = static_cast<double>(Emitter::count(x, dims) -
                                   static_cast<int64_t>(op.getCorrection()));
  return e.div(sumSquares, e.splat(sumSquares.getType(), dof));
}

static Value decompose(Emitter &e, LinearOp op) {
  Value x = op.getInput();
  auto xType = cast<RankedTensorType>(x.getType());
  auto resultType = cast<RankedTensorType>(op.getType());
  // [out, in] -> [in, out]: PyTorch's layout made explicit.
  Value wt = e.create<TransposeOp>(op.getWeight(), ArrayRef<int64_t>{1, 0});
  int64_t in = xType.getShape().back();
  // matmul is batched with equal batch dimensions: flatten the leading
  // dimensions of x into rows and restore them afterwards.
  int64_t rows = xType.getNumElements() / in;
  Value flat = e.reshape(x, xType.clone({rows, in}));
  Value y = e.reshape(e.create<MatmulOp>(flat, wt), resultType);
  if (Value b = op.getBias())
    y = e.add(y, e.broadcast(b, resultType));
  return y;
}

/// One pattern per composite, each defined by its decompose() above.
template <typename OpT> struct Decomposition : OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    Emitter e(rewriter, op.getLoc());
    rewriter.replaceOp(op, decompose(e, op));
    return success();
  }
};

struct XTensorDecomposePass
    : xtile::tensor::impl::XTensorDecomposeBase<XTensorDecomposePass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    ConversionTarget target(*context);
    target.markUnknownOpDynamicallyLegal(
        [](Operation *op) { return !isCompositeOp(op); });
    RewritePatternSet patterns(context);
    populateDecompositionPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void xtile::tensor::populateDecompositionPatterns(RewritePatternSet &patterns) {
  patterns
      .add<Decomposition<RmsNormOp>, Decomposition<LayerNormOp>,
           Decomposition<SoftmaxOp>, Decomposition<LogSoftmaxOp>,
           Decomposition<GeluOp>, Decomposition<SiluOp>, Decomposition<MeanOp>,
           Decomposition<VarOp>, Decomposition<LinearOp>>(
          patterns.getContext());
}
