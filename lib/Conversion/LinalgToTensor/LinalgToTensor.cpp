//===- LinalgToTensor.cpp - linalg-on-tensors to Tensor IR ----------------===//
//
// --convert-linalg-to-xtensor: linalg structured ops on static tensors, and
// the tensor ops front ends put around them, become Tensor IR. Contractions
// become xtensor.matmul; every other structured op is evaluated on whole
// tensors over its iteration space (inputs transposed, reshaped and
// broadcast onto it, the payload's scalar ops as xtensor ops, reductions as
// xtensor.reduce). Ops are converted in program order, so the operands of
// each are already Tensor IR.
//
//===----------------------------------------------------------------------===//

#include "xtile/Conversion/LinalgToTensor/LinalgToTensor.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "xtile/Dialect/Tensor/IR/TensorOps.h"
#include "xtile/Dialect/Tensor/Utils/Convolution.h"
#include "xtile/Support/DeadCode.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

namespace xtile {
#define GEN_PASS_DEF_CONVERTLINALGTOXTENSOR
#include "xtile/Conversion/Passes.h.inc"
} // namespace xtile

using namespace mlir;
namespace xt = xtile::tensor;

namespace {

/// Builds Tensor IR for the linalg and tensor ops of a function.
struct Converter {
  OpBuilder &b;
  Location loc;

  /// Tensor IR has no index elements: payload indices are i64.
  RankedTensorType typeOf(ArrayRef<int64_t> shape, Type element) {
    if (element.isIndex())
      element = b.getI64Type();
    return RankedTensorType::get(shape, element);
  }

  /// The zero of a float or integer element type.
  TypedAttr zeroOf(Type element) {
    return isa<FloatType>(element) ? (TypedAttr)b.getFloatAttr(element, 0.0)
                                   : (TypedAttr)b.getIntegerAttr(element, 0);
  }

  /// A splat constant of `type` holding the scalar `value`.
  Value splat(RankedTensorType type, TypedAttr value) {
    if (auto i = dyn_cast<IntegerAttr>(value); i && i.getType().isIndex())
      value = b.getI64IntegerAttr(i.getInt());
    return xt::ConstantOp::create(b, loc, DenseElementsAttr::get(type, value));
  }

  Value reshape(Value v, ArrayRef<int64_t> shape) {
    auto type = cast<RankedTensorType>(v.getType());
    if (type.getShape() == shape)
      return v;
    return xt::ReshapeOp::create(b, loc, typeOf(shape, type.getElementType()),
                                 v);
  }

  Value transpose(Value v, ArrayRef<int64_t> perm) {
    if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
      return v;
    return xt::TransposeOp::create(b, loc, v, perm);
  }

  /// The operands of a product summed into `outElement` (a contraction's,
  /// a convolution's), of one type: 16-bit floats summed into f32 stay
  /// 16-bit (the matmul's result is f32); otherwise both are cast to
  /// `outElement`.
  void productOperands(Value &x, Value &y, Type outElement) {
    auto elementOf = [](Value v) {
      return cast<RankedTensorType>(v.getType()).getElementType();
    };
    Type in = elementOf(x);
    if (in == elementOf(y) && (in.isF16() || in.isBF16()) &&
        outElement.isF32())
      return;
    for (Value *v : {&x, &y})
      if (elementOf(*v) != outElement)
        *v = xt::CastOp::create(
            b, loc,
            RankedTensorType::get(
                cast<RankedTensorType>(v->getType()).getShape(), outElement),
            *v);
  }

  /// `v`, an operand whose dims are the loop dims `map` selects (or unit
  /// dims, `0` in the map), laid out over the whole iteration space
  /// `loops` (transposed into loop order, unit dims for the loops it does
  /// not use, broadcast).
  Value onLoops(Value v, AffineMap map, ArrayRef<int64_t> loops) {
    auto type = cast<RankedTensorType>(v.getType());
    SmallVector<int64_t> dims, shape; // loop dim and size of each dim kept
    for (unsigned i = 0; i < map.getNumResults(); ++i)
      if (auto d = dyn_cast<AffineDimExpr>(map.getResult(i))) {
        dims.push_back(d.getPosition());
        shape.push_back(type.getDimSize(i));
      }
    v = reshape(v, shape);
    SmallVector<int64_t> perm(dims.size());
    std::iota(perm.begin(), perm.end(), 0);
    llvm::sort(perm, [&](int64_t x, int64_t y) { return dims[x] < dims[y]; });
    v = transpose(v, perm);
    SmallVector<int64_t> unit(loops.size(), 1);
    for (int64_t d : dims)
      unit[d] = loops[d];
    v = reshape(v, unit);
    if (ArrayRef<int64_t>(unit) != loops)
      v = xt::BroadcastOp::create(b, loc, typeOf(loops, type.getElementType()),
                                  v);
    return v;
  }

  /// `v`, laid out over the loop dims `kept` (in increasing order), in the
  /// order `map` gives its result's dims, of shape `shape` (unit dims where
  /// the map has `0`).
  Value toResult(Value v, AffineMap map, ArrayRef<int64_t> kept,
                 ArrayRef<int64_t> shape) {
    SmallVector<int64_t> perm;
    for (AffineExpr e : map.getResults())
      if (auto d = dyn_cast<AffineDimExpr>(e))
        perm.push_back(llvm::find(kept, d.getPosition()) - kept.begin());
    return reshape(transpose(v, perm), shape);
  }
};

/// Whether `v` is a tensor whose contents do not matter or all equal
/// `identity`: a tensor.empty (converted: any constant zero splat of an
/// empty's), or a splat of `identity`.
bool isIdentityInit(Value v, Attribute identity, const DenseSet<Value> &undefined) {
  if (undefined.contains(v))
    return true;
  auto constant = v.getDefiningOp<xt::ConstantOp>();
  if (!constant)
    return false;
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  return dense && dense.isSplat() &&
         dense.getSplatValue<Attribute>() == identity;
}

/// The reduction kind of a payload op combining an output, and its
/// identity as an attribute of `type`; failure for other ops.
FailureOr<std::pair<xt::ReduceKind, TypedAttr>> reductionOf(Operation *op,
                                                           Type type,
                                                           Builder &b) {
  auto floatAttr = [&](double v) -> TypedAttr { return b.getFloatAttr(type, v); };
  auto intAttr = [&](int64_t v) -> TypedAttr { return b.getIntegerAttr(type, v); };
  unsigned bits = type.getIntOrFloatBitWidth();
  return llvm::TypeSwitch<Operation *,
                          FailureOr<std::pair<xt::ReduceKind, TypedAttr>>>(op)
      .Case<arith::AddFOp>([&](auto) {
        return std::make_pair(xt::ReduceKind::sum, floatAttr(0.0));
      })
      .Case<arith::AddIOp>([&](auto) {
        return std::make_pair(xt::ReduceKind::sum, intAttr(0));
      })
      .Case<arith::MulFOp>([&](auto) {
        return std::make_pair(xt::ReduceKind::prod, floatAttr(1.0));
      })
      .Case<arith::MulIOp>([&](auto) {
        return std::make_pair(xt::ReduceKind::prod, intAttr(1));
      })
      .Case<arith::MaximumFOp>([&](auto) {
        return std::make_pair(
            xt::ReduceKind::max,
            (TypedAttr)b.getFloatAttr(
                type, APFloat::getInf(cast<FloatType>(type).getFloatSemantics(),
                                      /*Negative=*/true)));
      })
      .Case<arith::MinimumFOp>([&](auto) {
        return std::make_pair(
            xt::ReduceKind::min,
            (TypedAttr)b.getFloatAttr(
                type, APFloat::getInf(cast<FloatType>(type).getFloatSemantics(),
                                      /*Negative=*/false)));
      })
      .Case<arith::MaxSIOp>([&](auto) {
        return std::make_pair(
            xt::ReduceKind::max,
            (TypedAttr)b.getIntegerAttr(type, APInt::getSignedMinValue(bits)));
      })
      .Case<arith::MinSIOp>([&](auto) {
        return std::make_pair(
            xt::ReduceKind::min,
            (TypedAttr)b.getIntegerAttr(type, APInt::getSignedMaxValue(bits)));
      })
      .Default([](Operation *) { return failure(); });
}

/// A payload op as the xtensor op on whole tensors `operands` (of the
/// iteration space's shape); failure (with an error) for ops without a
/// twin.
FailureOr<Value> payloadOp(Operation *op, ArrayRef<Value> operands,
                           ArrayRef<int64_t> shape, Converter &c,
                           Operation *owner) {
  OpBuilder &b = c.b;
  Location loc = c.loc;
  auto resultType = [&]() {
    return c.typeOf(shape, op->getResult(0).getType());
  };
  auto binary = [&](auto tag) -> Value {
    using OpTy = decltype(tag);
    return OpTy::create(b, loc, operands[0], operands[1]);
  };
  auto unary = [&](auto tag) -> Value {
    using OpTy = decltype(tag);
    return OpTy::create(b, loc, operands[0]);
  };
  auto cmp = [&](xt::CmpPredicate p) -> Value {
    return xt::CmpOp::create(b, loc, p, operands[0], operands[1]);
  };
  auto unsupported = [&](StringRef why) -> FailureOr<Value> {
    InFlightDiagnostic d = owner->emitOpError("has '")
                           << op->getName() << "' in its payload";
    if (!why.empty())
      d << " (" << why << ")";
    d << ", which --convert-linalg-to-xtensor does not support";
    return failure();
  };
  using P = xt::CmpPredicate;
  return llvm::TypeSwitch<Operation *, FailureOr<Value>>(op)
      .Case<arith::AddFOp, arith::AddIOp>(
          [&](auto) { return binary(xt::AddOp()); })
      .Case<arith::SubFOp, arith::SubIOp>(
          [&](auto) { return binary(xt::SubOp()); })
      .Case<arith::MulFOp, arith::MulIOp>(
          [&](auto) { return binary(xt::MulOp()); })
      .Case<arith::DivFOp, arith::DivSIOp>(
          [&](auto) { return binary(xt::DivOp()); })
      .Case<arith::RemFOp, arith::RemSIOp>(
          [&](auto) { return binary(xt::RemOp()); })
      .Case<arith::MaximumFOp, arith::MaxSIOp>(
          [&](auto) { return binary(xt::MaxOp()); })
      .Case<arith::MinimumFOp, arith::MinSIOp>(
          [&](auto) { return binary(xt::MinOp()); })
      .Case<arith::AndIOp>([&](auto) { return binary(xt::AndOp()); })
      .Case<arith::OrIOp>([&](auto) { return binary(xt::OrOp()); })
      .Case<arith::XOrIOp>([&](auto) { return binary(xt::XorOp()); })
      .Case<math::PowFOp>([&](auto) { return binary(xt::PowOp()); })
      .Case<math::FPowIOp>([&](math::FPowIOp p) -> FailureOr<Value> {
        // x^n for a constant n by repeated squaring, as compiler-rt's
        // __powisf2 computes it (pow would be NaN for a negative x).
        APInt n;
        if (!matchPattern(p.getRhs(), m_ConstantInt(&n)))
          return unsupported("a non-constant integer exponent");
        int64_t e = n.getSExtValue();
        auto type = cast<RankedTensorType>(operands[0].getType());
        Value one = c.splat(type, b.getFloatAttr(type.getElementType(), 1.0));
        if (e < -64 || e > 64)
          return unsupported("an exponent beyond 64 in magnitude");
        Value result, square = operands[0];
        for (int64_t k = e < 0 ? -e : e; k; k >>= 1) {
          if (k & 1)
            result = result ? (Value)xt::MulOp::create(b, loc, result, square)
                            : square;
          if (k > 1)
            square = xt::MulOp::create(b, loc, square, square);
        }
        if (!result)
          return one;
        if (e < 0)
          result = xt::DivOp::create(b, loc, one, result);
        return result;
      })
      .Case<arith::NegFOp>([&](auto) { return unary(xt::NegOp()); })
      .Case<math::AbsFOp, math::AbsIOp>(
          [&](auto) { return unary(xt::AbsOp()); })
      .Case<math::ExpOp>([&](auto) { return unary(xt::ExpOp()); })
      .Case<math::LogOp>([&](auto) { return unary(xt::LogOp()); })
      .Case<math::SqrtOp>([&](auto) { return unary(xt::SqrtOp()); })
      .Case<math::RsqrtOp>([&](auto) { return unary(xt::RsqrtOp()); })
      .Case<math::TanhOp>([&](auto) { return unary(xt::TanhOp()); })
      .Case<math::ErfOp>([&](auto) { return unary(xt::ErfOp()); })
      .Case<math::ErfcOp>([&](auto) { return unary(xt::ErfcOp()); })
      .Case<math::SinOp>([&](auto) { return unary(xt::SinOp()); })
      .Case<math::CosOp>([&](auto) { return unary(xt::CosOp()); })
      .Case<math::FloorOp>([&](auto) { return unary(xt::FloorOp()); })
      .Case<math::CeilOp>([&](auto) { return unary(xt::CeilOp()); })
      .Case<arith::SelectOp>([&](auto) -> FailureOr<Value> {
        return (Value)xt::SelectOp::create(b, loc, operands[0], operands[1],
                                           operands[2]);
      })
      .Case<arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::FPToSIOp,
            arith::ExtSIOp, arith::TruncIOp,
            arith::IndexCastOp>([&](auto) -> FailureOr<Value> {
        if (operands[0].getType() == resultType())
          return operands[0]; // i64 <-> index, both i64 here
        return (Value)xt::CastOp::create(b, loc, resultType(), operands[0]);
      })
      .Case<arith::CmpFOp>([&](arith::CmpFOp f) -> FailureOr<Value> {
        switch (f.getPredicate()) {
        case arith::CmpFPredicate::OEQ: return cmp(P::eq);
        case arith::CmpFPredicate::UNE: return cmp(P::ne);
        case arith::CmpFPredicate::OLT: return cmp(P::lt);
        case arith::CmpFPredicate::OLE: return cmp(P::le);
        case arith::CmpFPredicate::OGT: return cmp(P::gt);
        case arith::CmpFPredicate::OGE: return cmp(P::ge);
        default:
          return unsupported("xtensor.cmp compares ordered, and ne unordered");
        }
      })
      .Case<arith::CmpIOp>([&](arith::CmpIOp i) -> FailureOr<Value> {
        switch (i.getPredicate()) {
        case arith::CmpIPredicate::eq: return cmp(P::eq);
        case arith::CmpIPredicate::ne: return cmp(P::ne);
        case arith::CmpIPredicate::slt: return cmp(P::lt);
        case arith::CmpIPredicate::sle: return cmp(P::le);
        case arith::CmpIPredicate::sgt: return cmp(P::gt);
        case arith::CmpIPredicate::sge: return cmp(P::ge);
        default:
          return unsupported("integers are signed in Tensor IR");
        }
      })
      .Case<arith::MaxNumFOp, arith::MinNumFOp>([&](auto) {
        return unsupported("Tensor IR's max and min propagate NaN");
      })
      .Default([&](Operation *) { return unsupported(""); });
}

/// A contraction (a LinalgOp summing products over its K dims) as one
/// xtensor.matmul: A to [batch, M, K] and B to [batch, K, N] by transposes
/// and reshapes, the product back to the init's dims, plus the init unless
/// it is zero or undefined.
FailureOr<Value> convertContraction(linalg::LinalgOp op, Converter &c,
                                    const DenseSet<Value> &undefined) {
  if (!llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
        return map.isProjectedPermutation(/*allowZeroInResults=*/false);
      }))
    return op.emitOpError("is a contraction with unit dims in its indexing "
                          "maps; --convert-linalg-to-xtensor does not "
                          "support it");
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims))
    return op.emitOpError("is a contraction whose dims are not batch, M, N "
                          "and K ones; --convert-linalg-to-xtensor does not "
                          "support it");
  SmallVector<int64_t> loops = op.getStaticLoopRanges();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  Value a = op.getDpsInputOperand(0)->get(), bv = op.getDpsInputOperand(1)->get();
  Value init = op.getDpsInitOperand(0)->get();
  auto outType = cast<RankedTensorType>(init.getType());
  // Bring an operand's dims into the order `want` (loop dims), then group
  // them into `groups` (sizes of consecutive runs).
  auto arrange = [&](Value v, AffineMap map, ArrayRef<unsigned> want,
                     ArrayRef<int64_t> shape) -> Value {
    SmallVector<int64_t> perm;
    for (unsigned d : want)
      for (unsigned i = 0; i < map.getNumResults(); ++i)
        if (map.getDimPosition(i) == d)
          perm.push_back(i);
    return c.reshape(c.transpose(v, perm), shape);
  };
  auto product = [&](ArrayRef<unsigned> ds) {
    int64_t p = 1;
    for (unsigned d : ds)
      p *= loops[d];
    return p;
  };
  int64_t batch = product(dims->batch), m = product(dims->m),
          n = product(dims->n), k = product(dims->k);
  SmallVector<unsigned> aOrder(dims->batch.begin(), dims->batch.end());
  SmallVector<unsigned> bOrder = aOrder, cOrder = aOrder;
  llvm::append_range(aOrder, dims->m);
  llvm::append_range(aOrder, dims->k);
  llvm::append_range(bOrder, dims->k);
  llvm::append_range(bOrder, dims->n);
  llvm::append_range(cOrder, dims->m);
  llvm::append_range(cOrder, dims->n);
  Type outElement = outType.getElementType();
  c.productOperands(a, bv, outElement);
  // Without batch dims, a 2-d product.
  auto shape = [&](int64_t x, int64_t y) {
    return dims->batch.empty() ? SmallVector<int64_t>{x, y}
                               : SmallVector<int64_t>{batch, x, y};
  };
  Value lhs = arrange(a, maps[0], aOrder, shape(m, k));
  Value rhs = arrange(bv, maps[1], bOrder, shape(k, n));
  Value prod = xt::MatmulOp::create(c.b, c.loc,
                                    c.typeOf(shape(m, n), outElement), lhs,
                                    rhs);
  // [batch..., m..., n...] in loop order of each group, then the init's.
  SmallVector<int64_t> grouped;
  for (unsigned d : cOrder)
    grouped.push_back(loops[d]);
  prod = c.reshape(prod, grouped);
  AffineMap outMap = maps[2];
  SmallVector<int64_t> perm;
  for (unsigned i = 0; i < outMap.getNumResults(); ++i)
    perm.push_back(llvm::find(cOrder, outMap.getDimPosition(i)) -
                   cOrder.begin());
  prod = c.transpose(prod, perm);
  if (!isIdentityInit(init, c.zeroOf(outElement), undefined))
    prod = xt::AddOp::create(c.b, c.loc, init, prod);
  return prod;
}

/// linalg.conv_2d_nchw_fchw and linalg.conv_2d_nhwc_hwcf, whose input the
/// front end has padded (tensor.pad): the contraction over the input's
/// patches (xtile::tensor::buildConvolution2D, in NHWC), plus the output
/// tensor it accumulates into. Element types as for contractions.
FailureOr<Value> convertConvolution(linalg::LinalgOp op, Converter &c,
                                    const DenseSet<Value> &undefined) {
  Value input = op.getDpsInputOperand(0)->get();
  Value filter = op.getDpsInputOperand(1)->get();
  Value init = op.getDpsInitOperand(0)->get();
  DenseIntElementsAttr stridesAttr, dilationsAttr;
  bool nchw = false;
  if (auto conv = dyn_cast<linalg::Conv2DNchwFchwOp>(op.getOperation())) {
    stridesAttr = conv.getStrides();
    dilationsAttr = conv.getDilations();
    nchw = true;
  } else {
    auto hwcf = cast<linalg::Conv2DNhwcHwcfOp>(op.getOperation());
    stridesAttr = hwcf.getStrides();
    dilationsAttr = hwcf.getDilations();
  }
  SmallVector<int64_t> strides(stridesAttr.getValues<int64_t>()),
      dilations(dilationsAttr.getValues<int64_t>());
  auto outType = cast<RankedTensorType>(init.getType());
  Type outElement = outType.getElementType();
  if (!isa<FloatType>(outElement))
    return op.emitOpError("is an integer convolution; "
                          "--convert-linalg-to-xtensor does not support it");
  c.productOperands(input, filter, outElement);
  // To [N, H, W, C] and [F, KH, KW, C].
  if (nchw) {
    input = c.transpose(input, {0, 2, 3, 1});
    filter = c.transpose(filter, {0, 2, 3, 1});
  } else {
    filter = c.transpose(filter, {3, 0, 1, 2});
  }
  FailureOr<Value> y = xt::buildConvolution2D(c.b, c.loc, input, filter,
                                              strides, dilations, outElement);
  if (failed(y))
    return failure();
  Value prod = nchw ? c.transpose(*y, {0, 3, 1, 2}) : *y;
  if (cast<RankedTensorType>(prod.getType()).getShape() != outType.getShape())
    return op.emitOpError("has an output shape that its input, strides and "
                          "dilations do not give");
  if (!isIdentityInit(init, c.zeroOf(outElement), undefined))
    prod = xt::AddOp::create(c.b, c.loc, init, prod);
  return prod;
}

/// Any other structured op, on whole tensors over its iteration space.
/// Only the outputs something uses are computed (front ends leave some
/// unused: the index of torch.max next to the max softmax needs).
FailureOr<SmallVector<Value>> convertStructured(linalg::LinalgOp op,
                                                Converter &c,
                                                const DenseSet<Value> &undefined) {
  SmallVector<int64_t> loops = op.getStaticLoopRanges();
  Block *body = op.getBlock();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  SmallVector<unsigned> reductionDims;
  op.getReductionDims(reductionDims);
  SmallVector<int64_t> kept;
  for (unsigned d = 0; d < loops.size(); ++d)
    if (!llvm::is_contained(reductionDims, d))
      kept.push_back(d);
  int64_t numInits = op.getNumDpsInits();
  auto initArg = [&](int64_t i) {
    return op.getMatchingBlockArgument(op.getDpsInitOperand(i));
  };

  // Each live output: what it yields, and for a reduction the combine op.
  SmallVector<bool> live(numInits);
  SmallVector<Operation *> combines(numInits, nullptr);
  SmallVector<Value> roots;
  for (int64_t i = 0; i < numInits; ++i) {
    live[i] = !op->getResult(i).use_empty();
    if (!live[i])
      continue;
    BlockArgument arg = initArg(i);
    Value yielded = yield.getOperand(i);
    if (reductionDims.empty() || arg.use_empty()) {
      if (!reductionDims.empty())
        return op.emitOpError("has reduction dims but output #")
               << i << " does not combine with its init; "
                  "--convert-linalg-to-xtensor does not support it";
      roots.push_back(yielded);
      continue;
    }
    // out = combine(f(inputs), out), out used by the combine only.
    Operation *combine = yielded.getDefiningOp();
    if (!combine || combine->getBlock() != body ||
        combine->getNumOperands() != 2 ||
        !llvm::is_contained(combine->getOperands(), arg) ||
        failed(reductionOf(combine, arg.getType(), c.b)))
      return op.emitOpError("reduces output #")
             << i << " with a payload that is not combine(f(inputs), out) "
                "for an add, mul, max or min; --convert-linalg-to-xtensor "
                "does not support it";
    combines[i] = combine;
    roots.push_back(combine->getOperand(0) == arg ? combine->getOperand(1)
                                                  : combine->getOperand(0));
  }
  // The payload ops the live outputs need.
  DenseSet<Operation *> needed;
  SmallVector<Value> work(roots);
  while (!work.empty()) {
    Value v = work.pop_back_val();
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != body || !needed.insert(def).second)
      continue;
    llvm::append_range(work, def->getOperands());
  }

  // What a reduction computes may not read a reduction's accumulator
  // (only dead outputs may, as the index of an argmax does).
  if (!reductionDims.empty())
    for (int64_t i = 0; i < numInits; ++i)
      for (Operation *user : initArg(i).getUsers())
        if (needed.contains(user))
          return op.emitOpError("reads output #")
                 << i << "'s accumulator in what it reduces; "
                    "--convert-linalg-to-xtensor does not support it";
  DenseMap<Value, Value> values;
  // Inputs: tensors laid out over the loops; scalars (fill's value) as
  // splats when constant.
  for (OpOperand *in : op.getDpsInputOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(in);
    if (arg.use_empty())
      continue;
    Value v = in->get();
    if (isa<RankedTensorType>(v.getType())) {
      values[arg] = c.onLoops(v, op.getMatchingIndexingMap(in), loops);
      continue;
    }
    Attribute constant;
    if (!matchPattern(v, m_Constant(&constant)))
      return op.emitOpError("takes the scalar operand #")
             << in->getOperandNumber()
             << " that is not a constant; --convert-linalg-to-xtensor "
                "takes constant scalars only";
    values[arg] =
        c.splat(c.typeOf(loops, v.getType()), cast<TypedAttr>(constant));
  }
  // An output the payload reads without reducing: its init over the loops.
  if (reductionDims.empty())
    for (int64_t i = 0; i < numInits; ++i)
      if (!initArg(i).use_empty()) {
        OpOperand *out = op.getDpsInitOperand(i);
        values[initArg(i)] =
            c.onLoops(out->get(), op.getMatchingIndexingMap(out), loops);
      }
  // The payload, op by op; values from outside it are constants.
  auto valueOf = [&](Value v) -> FailureOr<Value> {
    auto it = values.find(v);
    if (it != values.end())
      return it->second;
    Attribute constant;
    if (matchPattern(v, m_Constant(&constant)))
      return c.splat(c.typeOf(loops, v.getType()), cast<TypedAttr>(constant));
    return op.emitOpError("uses a value defined outside it in its payload "
                          "that is not a constant; "
                          "--convert-linalg-to-xtensor does not support it");
  };
  for (Operation &inner : body->without_terminator()) {
    if (!needed.contains(&inner))
      continue;
    if (inner.getNumResults() != 1)
      return inner.emitOpError("in the payload of '")
             << op->getName() << "' has " << inner.getNumResults()
             << " results; --convert-linalg-to-xtensor does not support it";
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      values[index] = xt::IotaOp::create(
          c.b, c.loc, c.typeOf(loops, c.b.getI64Type()), index.getDim());
      continue;
    }
    if (auto extract = dyn_cast<tensor::ExtractOp>(inner)) {
      // A read of a tensor from outside at computed indices (an embedding
      // lookup): a gather from the tensor flattened, at the row-major
      // offset of the indices. Out-of-range indices are undefined, as in
      // xtensor.gather (the front end's cf.assert checks are dropped).
      auto table = cast<RankedTensorType>(extract.getTensor().getType());
      if (!table.hasStaticShape())
        return extract.emitOpError("reads a tensor of dynamic shape; "
                                   "--convert-linalg-to-xtensor does not "
                                   "support it");
      int64_t count = 1;
      for (int64_t size : table.getShape())
        if (llvm::MulOverflow(count, size, count))
          return extract.emitOpError("reads a tensor whose element count "
                                     "does not fit in 64 bits");
      RankedTensorType idType = c.typeOf(loops, c.b.getI64Type());
      Value offset;
      int64_t stride = 1;
      for (int64_t d = table.getRank() - 1; d >= 0; --d) {
        FailureOr<Value> i = valueOf(extract.getIndices()[d]);
        if (failed(i))
          return failure();
        Value term = *i;
        if (stride != 1)
          term = xt::MulOp::create(
              c.b, c.loc, term,
              c.splat(idType, c.b.getI64IntegerAttr(stride)));
        offset = offset ? (Value)xt::AddOp::create(c.b, c.loc, offset, term)
                        : term;
        stride *= table.getDimSize(d);
      }
      Value flat = c.reshape(extract.getTensor(), {count});
      values[extract] =
          offset ? (Value)xt::GatherOp::create(c.b, c.loc, flat, offset, 0)
                 : (Value)xt::BroadcastOp::create(
                       c.b, c.loc, c.typeOf(loops, table.getElementType()),
                       extract.getTensor());
      continue;
    }
    SmallVector<Value> operands;
    for (Value v : inner.getOperands()) {
      FailureOr<Value> t = valueOf(v);
      if (failed(t))
        return failure();
      operands.push_back(*t);
    }
    FailureOr<Value> v =
        inner.getNumOperands() == 0
            ? valueOf(inner.getResult(0))
            : payloadOp(&inner, operands, loops, c, op);
    if (failed(v))
      return failure();
    values[inner.getResult(0)] = *v;
  }
  // Each result: the yielded tensor, reduced where the payload reduces,
  // in the order and shape of its indexing map; a dead one, zeros.
  SmallVector<Value> results;
  for (int64_t i = 0; i < numInits; ++i) {
    OpOperand *out = op.getDpsInitOperand(i);
    auto outType = cast<RankedTensorType>(out->get().getType());
    if (!live[i]) {
      results.push_back(
          c.splat(outType, c.zeroOf(outType.getElementType())));
      continue;
    }
    AffineMap map = op.getMatchingIndexingMap(out);
    Value result;
    if (Operation *combine = combines[i]) {
      BlockArgument arg = initArg(i);
      Value f = combine->getOperand(0) == arg ? combine->getOperand(1)
                                              : combine->getOperand(0);
      auto [kind, identity] = *reductionOf(combine, arg.getType(), c.b);
      FailureOr<Value> full = valueOf(f);
      if (failed(full))
        return failure();
      SmallVector<int64_t> rdims(reductionDims.begin(), reductionDims.end());
      llvm::sort(rdims);
      Value reduced = xt::ReduceOp::create(c.b, c.loc, kind, *full, rdims,
                                           /*keepdim=*/false);
      result = c.toResult(reduced, map, kept, outType.getShape());
      if (!isIdentityInit(out->get(), identity, undefined)) {
        SmallVector<Value> both = {out->get(), result};
        FailureOr<Value> joined =
            payloadOp(combine, both, outType.getShape(), c, op);
        if (failed(joined))
          return failure();
        result = *joined;
      }
    } else {
      FailureOr<Value> full = valueOf(yield.getOperand(i));
      if (failed(full))
        return failure();
      result = c.toResult(*full, map, kept, outType.getShape());
    }
    results.push_back(result);
  }
  return results;
}

/// Whether every indexing map of `op` selects distinct loop dims, or `0`
/// for an operand dim of size 1 (how front ends broadcast unit dims).
bool mapsAreSupported(linalg::LinalgOp op) {
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.get().getType());
    AffineMap map = op.getMatchingIndexingMap(&operand);
    llvm::SmallDenseSet<unsigned> seen;
    for (auto [i, e] : llvm::enumerate(map.getResults())) {
      if (auto d = dyn_cast<AffineDimExpr>(e)) {
        if (!seen.insert(d.getPosition()).second)
          return false;
        continue;
      }
      auto c = dyn_cast<AffineConstantExpr>(e);
      if (!c || c.getValue() != 0 || !type || type.getDimSize(i) != 1)
        return false;
    }
  }
  return true;
}

/// The tensor ops front ends put around linalg.
FailureOr<Value> convertTensorOp(Operation *op, Converter &c,
                                 DenseSet<Value> &undefined) {
  auto resultType = [&]() {
    return cast<RankedTensorType>(op->getResult(0).getType());
  };
  return llvm::TypeSwitch<Operation *, FailureOr<Value>>(op)
      .Case<tensor::EmptyOp>([&](tensor::EmptyOp e) -> FailureOr<Value> {
        Value v = c.splat(resultType(),
                          c.zeroOf(resultType().getElementType()));
        undefined.insert(v);
        return v;
      })
      .Case<arith::ConstantOp>([&](arith::ConstantOp k) -> FailureOr<Value> {
        // Blobs (dense_resource, as torch-mlir stores parameters) as dense
        // elements: Tensor IR's constants carry their data.
        Attribute value = k.getValue();
        if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
          AsmResourceBlob *blob = resource.getRawHandle().getBlob();
          if (!blob)
            return k.emitOpError("has a dense_resource without data");
          value = DenseElementsAttr::getFromRawBuffer(resultType(),
                                                      blob->getData());
        }
        auto elements = dyn_cast<DenseElementsAttr>(value);
        if (!elements)
          return k.emitOpError("holds ")
                 << value << ", which --convert-linalg-to-xtensor does not "
                             "support (dense elements only)";
        return (Value)xt::ConstantOp::create(c.b, c.loc, elements);
      })
      .Case<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(
          [&](auto r) -> FailureOr<Value> {
            return c.reshape(r.getSrc(), resultType().getShape());
          })
      .Case<tensor::CastOp>([&](tensor::CastOp cast) -> FailureOr<Value> {
        if (cast.getSource().getType() != cast.getType())
          return cast.emitOpError("changes static to dynamic shapes; "
                                  "--convert-linalg-to-xtensor takes static "
                                  "shapes only");
        return cast.getSource();
      })
      .Case<tensor::ExtractSliceOp>(
          [&](tensor::ExtractSliceOp s) -> FailureOr<Value> {
            SmallVector<int64_t> starts, limits, strides;
            for (auto [o, z, t] : llvm::zip(s.getStaticOffsets(),
                                            s.getStaticSizes(),
                                            s.getStaticStrides())) {
              if (ShapedType::isDynamic(o) || ShapedType::isDynamic(z) ||
                  ShapedType::isDynamic(t))
                return s.emitOpError("has dynamic offsets, sizes or strides; "
                                     "--convert-linalg-to-xtensor takes "
                                     "static ones only");
              starts.push_back(o);
              limits.push_back(o + (z - 1) * t + 1);
              strides.push_back(t);
            }
            if (s.getSourceType().getRank() != s.getType().getRank()) {
              // A rank-reducing slice: the full-rank slice, then a reshape.
              auto full = RankedTensorType::get(s.getStaticSizes(),
                                                s.getType().getElementType());
              Value v = xt::SliceOp::create(c.b, c.loc, full, s.getSource(),
                                            starts, limits, strides);
              return c.reshape(v, s.getType().getShape());
            }
            return (Value)xt::SliceOp::create(c.b, c.loc, s.getType(),
                                              s.getSource(), starts, limits,
                                              strides);
          })
      .Case<tensor::InsertSliceOp>(
          [&](tensor::InsertSliceOp s) -> FailureOr<Value> {
            // dest where the slice is not, src (padded to dest's shape)
            // where it is.
            if (!s.hasUnitStride() ||
                llvm::any_of(s.getStaticOffsets(), ShapedType::isDynamic) ||
                llvm::any_of(s.getStaticSizes(), ShapedType::isDynamic))
              return s.emitOpError("is not a static unit-stride insertion; "
                                   "--convert-linalg-to-xtensor takes those "
                                   "only");
            RankedTensorType dest = s.getDestType();
            Type element = dest.getElementType();
            Value src = c.reshape(s.getSource(), s.getStaticSizes());
            SmallVector<int64_t> low, high;
            for (auto [o, z, d] : llvm::zip(s.getStaticOffsets(),
                                            s.getStaticSizes(),
                                            dest.getShape())) {
              low.push_back(o);
              high.push_back(d - o - z);
            }
            Value padded = xt::PadOp::create(c.b, c.loc, src, low, high,
                                             c.zeroOf(element));
            auto indexType = c.typeOf(dest.getShape(), c.b.getI64Type());
            Value inside;
            for (int64_t d = 0; d < dest.getRank(); ++d) {
              if (low[d] == 0 && high[d] == 0)
                continue;
              Value iota = xt::IotaOp::create(c.b, c.loc, indexType, d);
              auto bound = [&](int64_t v) {
                return c.splat(indexType, c.b.getI64IntegerAttr(v));
              };
              Value in = xt::AndOp::create(
                  c.b, c.loc,
                  xt::CmpOp::create(c.b, c.loc, xt::CmpPredicate::ge, iota,
                                    bound(low[d])),
                  xt::CmpOp::create(c.b, c.loc, xt::CmpPredicate::lt, iota,
                                    bound(dest.getDimSize(d) - high[d])));
              inside = inside ? (Value)xt::AndOp::create(c.b, c.loc, inside, in)
                              : in;
            }
            if (!inside)
              return padded;
            return (Value)xt::SelectOp::create(c.b, c.loc, inside, padded,
                                               s.getDest());
          })
      .Case<tensor::PadOp>([&](tensor::PadOp p) -> FailureOr<Value> {
        Value pad = p.getConstantPaddingValue();
        Attribute constant;
        if (!pad || !matchPattern(pad, m_Constant(&constant)))
          return p.emitOpError("pads with a value that is not a constant; "
                               "--convert-linalg-to-xtensor does not support "
                               "it");
        if (llvm::any_of(p.getStaticLow(), ShapedType::isDynamic) ||
            llvm::any_of(p.getStaticHigh(), ShapedType::isDynamic))
          return p.emitOpError("has dynamic padding; "
                               "--convert-linalg-to-xtensor takes static "
                               "padding only");
        return (Value)xt::PadOp::create(c.b, c.loc, p.getSource(),
                                        p.getStaticLow(), p.getStaticHigh(),
                                        cast<TypedAttr>(constant));
      })
      .Case<tensor::ConcatOp>([&](tensor::ConcatOp cc) -> FailureOr<Value> {
        return (Value)xt::ConcatOp::create(c.b, c.loc, cc.getType(),
                                           cc.getInputs(), cc.getDim());
      })
      .Default([&](Operation *) -> FailureOr<Value> {
        return op->emitOpError("is not supported by "
                               "--convert-linalg-to-xtensor");
      });
}

} // namespace

void xtile::registerLinalgInputDialects(DialectRegistry &registry) {
  // cf: the bounds checks (cf.assert) front ends put in gathers' payloads.
  registry.insert<mlir::linalg::LinalgDialect, mlir::tensor::TensorDialect,
                  mlir::cf::ControlFlowDialect>();
}

namespace {

struct ConvertLinalgToXTensorPass
    : xtile::impl::ConvertLinalgToXTensorBase<ConvertLinalgToXTensorPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      // Not the ops of payloads and pad bodies: they go with their owner.
      auto ours = [](Operation *o) {
        return o && isa<linalg::LinalgDialect, tensor::TensorDialect>(
                        o->getDialect());
      };
      if (ours(op) && !ours(op->getParentOp()) &&
          !op->getParentOfType<linalg::LinalgOp>())
        ops.push_back(op);
      // Tensor constants (front ends' weights) become Tensor IR's.
      if (auto constant = dyn_cast<arith::ConstantOp>(op))
        if (isa<RankedTensorType>(constant.getType()) &&
            !ours(op->getParentOp()))
          ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    DenseSet<Value> undefined; // converted tensor.empty results
    bool failedAny = false;
    for (Operation *op : ops) {
      rewriter.setInsertionPoint(op);
      Converter c{rewriter, op->getLoc()};
      for (Value result : op->getResults()) {
        auto type = dyn_cast<RankedTensorType>(result.getType());
        if (!type || !type.hasStaticShape()) {
          op->emitOpError("has a result of type ")
              << result.getType()
              << "; --convert-linalg-to-xtensor takes static tensors only";
          failedAny = true;
          break;
        }
      }
      if (failedAny)
        break;
      SmallVector<Value> replacement;
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
        if (!linalgOp.hasPureTensorSemantics() ||
            llvm::any_of(linalgOp.getStaticLoopRanges(),
                         ShapedType::isDynamic)) {
          op->emitOpError("is not on static tensors; "
                          "--convert-linalg-to-xtensor takes static tensors "
                          "only");
          failedAny = true;
          break;
        }
        if (isa<linalg::Conv2DNchwFchwOp, linalg::Conv2DNhwcHwcfOp>(op)) {
          FailureOr<Value> v = convertConvolution(linalgOp, c, undefined);
          if (failed(v)) {
            failedAny = true;
            break;
          }
          rewriter.replaceOp(op, *v);
          continue;
        }
        if (!mapsAreSupported(linalgOp)) {
          op->emitOpError("has indexing maps that are not projected "
                          "permutations (with 0 for unit dims); "
                          "--convert-linalg-to-xtensor does not support "
                          "them");
          failedAny = true;
          break;
        }
        if (linalg::isaContractionOpInterface(linalgOp)) {
          FailureOr<Value> v = convertContraction(linalgOp, c, undefined);
          if (failed(v)) {
            failedAny = true;
            break;
          }
          replacement.push_back(*v);
        } else {
          FailureOr<SmallVector<Value>> vs =
              convertStructured(linalgOp, c, undefined);
          if (failed(vs)) {
            failedAny = true;
            break;
          }
          replacement = *vs;
        }
      } else {
        FailureOr<Value> v = convertTensorOp(op, c, undefined);
        if (failed(v)) {
          failedAny = true;
          break;
        }
        replacement.push_back(*v);
      }
      rewriter.replaceOp(op, replacement);
    }
    if (failedAny)
      return signalPassFailure();
    // What the converted ops no longer use (undefined tensors, fill
    // values) goes.
    xtile::eraseDeadOps(module, rewriter);
  }
};

} // namespace
