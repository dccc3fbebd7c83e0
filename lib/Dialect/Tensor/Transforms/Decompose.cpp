//===- Decompose.cpp - composite xtensor ops into atomic ops --------------===//
//
// Each composite op is rewritten into the atomic ops that define it, in the
// dialect conversion framework: composites are illegal, so one that no
// pattern can rewrite is a located error rather than a silent leftover.
//
//===----------------------------------------------------------------------===//

#include "xtile/Dialect/Tensor/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
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

  /// A splat constant of `like`'s shape and element type; for a type with
  /// dynamic sizes, a constant with 1 in their place, broadcast to it.
  Value splat(Type like, double value) {
    auto type = cast<RankedTensorType>(like);
    Attribute element = rewriter.getFloatAttr(type.getElementType(), value);
    if (type.hasStaticShape())
      return ConstantOp::create(rewriter, loc,
                                DenseElementsAttr::get(type, element));
    SmallVector<int64_t> ones(type.getShape());
    for (int64_t &size : ones)
      if (ShapedType::isDynamic(size))
        size = 1;
    auto fixed = RankedTensorType::get(ones, type.getElementType());
    return broadcast(ConstantOp::create(rewriter, loc,
                                        DenseElementsAttr::get(fixed, element)),
                     type);
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
  /// `value` with its element type replaced by `element`.
  Value castTo(Value value, Type element) {
    auto type = cast<RankedTensorType>(value.getType());
    if (type.getElementType() == element)
      return value;
    return CastOp::create(rewriter, loc, type.clone(element), value);
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

static bool isNarrowFloat(Type type) {
  auto f = dyn_cast<FloatType>(getElementTypeOrSelf(type));
  return f && f.getWidth() < 32;
}

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
  if (op.getApproximation() == GeluApproximation::tanh) {
    // x/2 (1 + tanh(u)) = x sigmoid(2u), u = sqrt(2/pi) (x + 0.044715 x^3):
    // one exponential and a division where tanh costs two of each, and no
    // cancellation in 1 + tanh(u) for negative x.
    Value cube = e.mul(e.mul(x, x), x);
    Value poly = e.add(x, e.mul(cube, e.splat(type, 0.044715)));
    Value twiceU = e.mul(poly, e.splat(type, 2.0 * std::sqrt(2.0 / M_PI)));
    return e.mul(x, e.create<SigmoidOp>(twiceU));
  }
  // erf(x / sqrt(2)), as x * M_SQRT1_2 the way PyTorch computes it.
  Value inner = e.create<ErfOp>(e.mul(x, e.splat(type, M_SQRT1_2)));
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
  // matmul is batched with equal batch dimensions: flatten the leading
  // dimensions of x into rows and restore them afterwards. With a dynamic
  // size among several leading sizes above 1 (a batch of sequences of a
  // dynamic length, [B, T, in]), their product is no one size: the matmul
  // is batched over all of them but the last (the rows), the weight
  // broadcast over the batch (each program reads it where it is, not a
  // copy per batch element).
  SmallVector<Dim> dims = getDims(xType);
  Dim in = dims.back();
  SmallVector<Dim> lead;
  for (const Dim &d : ArrayRef<Dim>(dims).drop_back())
    if (d.isDynamic() || d.size != 1)
      lead.push_back(d);
  if (lead.size() < 2 || llvm::none_of(lead, [](const Dim &d) {
        return d.isDynamic();
      })) {
    Dim rows = Dim::fixed(1);
    for (const Dim &d : lead)
      rows = d.isDynamic() ? d : Dim::fixed(rows.size * d.size);
    lead = {rows};
  }
  Type xElement = xType.getElementType();
  // [out, in] -> [in, out]: PyTorch's layout made explicit.
  Value wt = e.create<TransposeOp>(op.getWeight(), ArrayRef<int64_t>{1, 0});
  Dim out = Dim::fixed(resultType.getShape().back());
  SmallVector<Dim> weightDims(ArrayRef<Dim>(lead).drop_back());
  weightDims.append({in, out});
  wt = e.broadcast(wt, getTensorType(weightDims, xElement));
  SmallVector<Dim> flatDims(lead);
  flatDims.push_back(in);
  Value flat = e.reshape(x, getTensorType(flatDims, xElement));
  Value bias = op.getBias();
  Type element = resultType.getElementType();
  // A 16-bit bias is added to the f32 accumulator and the sum rounded once,
  // as PyTorch does: rounding the product first loses up to an ulp of the
  // product, which the bias can cancel down to many ulps of the sum.
  Type acc = bias && isNarrowFloat(element)
                 ? Float32Type::get(element.getContext())
                 : element;
  SmallVector<Dim> productDims(lead);
  productDims.push_back(out);
  auto product = getTensorType(productDims, acc);
  auto wideResult = resultType.clone(acc);
  Value y = e.reshape(e.create<MatmulOp>(product, flat, wt), wideResult);
  if (bias)
    y = e.add(y, e.broadcast(e.castTo(bias, acc), wideResult));
  return e.castTo(y, element);
}

/// A composite on f16/bf16 computes in f32 and rounds once at its result,
/// as PyTorch's kernels do (their "opmath" type): decomposed in the 16-bit
/// type, every intermediate (the erf of GELU, the exponentials and the sum
/// of softmax, the statistics of a norm) would be rounded, and the errors
/// compound to many ulps. The op is re-created on f32 operands; that copy
/// is decomposed in turn. Matmul-based composites (linear) keep their
/// operand types: their products already accumulate in f32.
static bool computeInF32(PatternRewriter &rewriter, Operation *op) {
  if (isa<LinearOp>(op) || !isNarrowFloat(op->getResult(0).getType()))
    return false;
  Emitter e(rewriter, op->getLoc());
  Type f32 = rewriter.getF32Type();
  IRMapping operands;
  for (Value operand : op->getOperands())
    if (isNarrowFloat(operand.getType()))
      operands.map(operand, e.castTo(operand, f32));
  Operation *wide = rewriter.clone(*op, operands);
  rewriter.modifyOpInPlace(wide, [&] {
    for (OpResult result : wide->getResults())
      result.setType(cast<RankedTensorType>(result.getType()).clone(f32));
  });
  SmallVector<Value> results;
  for (auto [narrow, result] :
       llvm::zip(op->getResultTypes(), wide->getResults()))
    results.push_back(
        e.castTo(result, cast<RankedTensorType>(narrow).getElementType()));
  rewriter.replaceOp(op, results);
  return true;
}

/// A norm over several trailing dimensions is the norm over one, their
/// product, of a reshaped input (weight and bias flattened alike): one
/// reduction whose row is contiguous, which fuses into one kernel.
template <typename OpT>
static bool collapseNormDims(PatternRewriter &rewriter, OpT op) {
  if constexpr (!llvm::is_one_of<OpT, RmsNormOp, LayerNormOp>::value)
    return false;
  else {
    int64_t rank = static_cast<int64_t>(op.getNormRank());
    if (rank <= 1)
      return false;
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    SmallVector<Dim> dims = getDims(type);
    int64_t lead = type.getRank() - rank, count = 1;
    for (const Dim &d : ArrayRef<Dim>(dims).drop_front(lead)) {
      if (d.isDynamic())
        return false; // The decomposition reports it (a mean over it).
      count *= d.size;
    }
    SmallVector<Dim> flat(ArrayRef<Dim>(dims).take_front(lead));
    flat.push_back(Dim::fixed(count));
    auto flatType = getTensorType(flat, type.getElementType());
    IRMapping operands;
    for (Value operand : op->getOperands()) {
      auto t = cast<RankedTensorType>(operand.getType());
      Type to = operand == op.getInput()
                    ? flatType.clone(t.getElementType())
                    : RankedTensorType::get({count}, t.getElementType());
      operands.map(operand, ReshapeOp::create(rewriter, loc, to, operand));
    }
    auto flatOp = cast<OpT>(rewriter.clone(*op, operands));
    rewriter.modifyOpInPlace(flatOp, [&] {
      flatOp.setNormRank(1);
      flatOp.getResult().setType(flatType);
    });
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, type, flatOp.getResult());
    return true;
  }
}

/// One pattern per composite, each defined by its decompose() above.
template <typename OpT> struct Decomposition : OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;
  // The f32 copy made by computeInF32 is rewritten by this same pattern.
  void initialize() { this->setHasBoundedRewriteRecursion(); }
  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    if (computeInF32(rewriter, op) || collapseNormDims(rewriter, op))
      return success();
    Emitter e(rewriter, op.getLoc());
    rewriter.replaceOp(op, decompose(e, op));
    return success();
  }
};

/// A reduction over several dimensions that keeps them is the reduction
/// without them, reshaped: the kept unit dimensions would otherwise be
/// loops of one iteration nested under the fold's row, a kernel shape Tile
/// IR does not take.
static bool keepsSeveralDims(Operation *op) {
  auto reduce = dyn_cast<ReduceOp>(op);
  return reduce && reduce.getKeepdim() && reduce.getDims().size() > 1;
}

struct KeptDimsAsReshape : OpRewritePattern<ReduceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReduceOp op,
                                PatternRewriter &rewriter) const override {
    if (!keepsSeveralDims(op))
      return failure();
    Value reduced = ReduceOp::create(rewriter, op.getLoc(), op.getKind(),
                                     op.getInput(), op.getDims(), false);
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), reduced);
    return success();
  }
};

struct XTensorDecomposePass
    : xtile::tensor::impl::XTensorDecomposeBase<XTensorDecomposePass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    ConversionTarget target(*context);
    target.markUnknownOpDynamicallyLegal([](Operation *op) {
      return !isCompositeOp(op) && !keepsSeveralDims(op);
    });
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
           Decomposition<VarOp>, Decomposition<LinearOp>, KeptDimsAsReshape>(
          patterns.getContext());
}
