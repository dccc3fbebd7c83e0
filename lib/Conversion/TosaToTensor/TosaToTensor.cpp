//===- TosaToTensor.cpp - TOSA to Tensor IR -------------------------------===//
//
// --convert-tosa-to-xtensor: the TOSA ops inference graphs use become
// Tensor IR, op by op in program order. TOSA ops are atomic like Tensor
// IR's; the differences are TOSA's implicit broadcasting of unit dims
// (made explicit), shapes given as !tosa.shape values (read from their
// tosa.const_shape), and zero points and shifts, which must be zero on the
// float graphs taken here.
//
//===----------------------------------------------------------------------===//

#include "xtile/Conversion/TosaToTensor/TosaToTensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "xtile/Dialect/Tensor/IR/TensorOps.h"
#include "xtile/Dialect/Tensor/Utils/Convolution.h"
#include "xtile/Support/DeadCode.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

namespace xtile {
#define GEN_PASS_DEF_CONVERTTOSATOXTENSOR
#include "xtile/Conversion/Passes.h.inc"
} // namespace xtile

using namespace mlir;
namespace xt = xtile::tensor;

void xtile::registerTosaInputDialects(DialectRegistry &registry) {
  registry.insert<tosa::TosaDialect>();
}

namespace {

/// The integers of a !tosa.shape value made by tosa.const_shape.
FailureOr<SmallVector<int64_t>> shapeValues(Value v) {
  auto def = v.getDefiningOp<tosa::ConstShapeOp>();
  if (!def)
    return failure();
  SmallVector<int64_t> out;
  for (const APInt &i : def.getValues().getValues<APInt>())
    out.push_back(i.getSExtValue());
  return out;
}

/// Whether `v` is a constant tensor of zeros (a zero point or a shift).
bool isZeros(Value v) {
  DenseElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return false;
  if (attr.getElementType().isIntOrIndex())
    return llvm::all_of(attr.getValues<APInt>(),
                        [](const APInt &i) { return i.isZero(); });
  return llvm::all_of(attr.getValues<APFloat>(),
                      [](const APFloat &f) { return f.isZero(); });
}

struct Converter {
  OpBuilder &b;
  Operation *op;

  RankedTensorType resultType() {
    return cast<RankedTensorType>(op->getResult(0).getType());
  }
  /// `v` broadcast to `shape` where TOSA broadcasts it implicitly.
  Value to(Value v, ArrayRef<int64_t> shape) {
    auto type = cast<RankedTensorType>(v.getType());
    if (type.getShape() == shape)
      return v;
    return xt::BroadcastOp::create(
        b, op->getLoc(), RankedTensorType::get(shape, type.getElementType()),
        v);
  }
  Value operand(unsigned i) {
    // Elementwise operands take the result's shape.
    return to(op->getOperand(i), resultType().getShape());
  }
  Value splat(Type element, TypedAttr value) {
    return xt::ConstantOp::create(
        b, op->getLoc(),
        DenseElementsAttr::get(
            RankedTensorType::get(resultType().getShape(), element), value));
  }
  FailureOr<Value> error(const Twine &why) {
    return op->emitOpError(why);
  }
};

template <typename OpTy>
Value binary(Converter &c) {
  return OpTy::create(c.b, c.op->getLoc(), c.operand(0), c.operand(1));
}
template <typename OpTy>
Value unary(Converter &c) {
  return OpTy::create(c.b, c.op->getLoc(), c.op->getOperand(0));
}

FailureOr<Value> convert(Converter &c) {
  Operation *op = c.op;
  Location loc = op->getLoc();
  OpBuilder &b = c.b;
  StringRef name = op->getName().stripDialect();
  auto reduce = [&](xt::ReduceKind kind) -> FailureOr<Value> {
    int64_t axis = op->getAttrOfType<IntegerAttr>("axis").getInt();
    return (Value)xt::ReduceOp::create(b, loc, kind, op->getOperand(0),
                                       ArrayRef<int64_t>{axis},
                                       /*keepdim=*/true);
  };
  auto cmp = [&](xt::CmpPredicate p) -> FailureOr<Value> {
    return (Value)xt::CmpOp::create(b, loc, p, c.operand(0), c.operand(1));
  };
  if (name == "add") return binary<xt::AddOp>(c);
  if (name == "sub") return binary<xt::SubOp>(c);
  if (name == "maximum") return binary<xt::MaxOp>(c);
  if (name == "minimum") return binary<xt::MinOp>(c);
  if (name == "pow") return binary<xt::PowOp>(c);
  if (name == "logical_and") return binary<xt::AndOp>(c);
  if (name == "logical_or") return binary<xt::OrOp>(c);
  if (name == "logical_xor") return binary<xt::XorOp>(c);
  if (name == "mul") {
    if (op->getNumOperands() > 2 && !isZeros(op->getOperand(2)))
      return c.error("has a non-zero shift, which --convert-tosa-to-xtensor "
                     "does not support");
    return binary<xt::MulOp>(c);
  }
  if (name == "exp") return unary<xt::ExpOp>(c);
  if (name == "log") return unary<xt::LogOp>(c);
  if (name == "tanh") return unary<xt::TanhOp>(c);
  if (name == "sigmoid") return unary<xt::SigmoidOp>(c);
  if (name == "rsqrt") return unary<xt::RsqrtOp>(c);
  if (name == "reciprocal") return unary<xt::ReciprocalOp>(c);
  if (name == "abs") return unary<xt::AbsOp>(c);
  if (name == "erf") return unary<xt::ErfOp>(c);
  if (name == "sin") return unary<xt::SinOp>(c);
  if (name == "cos") return unary<xt::CosOp>(c);
  if (name == "floor") return unary<xt::FloorOp>(c);
  if (name == "ceil") return unary<xt::CeilOp>(c);
  if (name == "logical_not") return unary<xt::NotOp>(c);
  if (name == "negate") {
    for (unsigned i = 1; i < op->getNumOperands(); ++i)
      if (!isZeros(op->getOperand(i)))
        return c.error("has a non-zero zero point, which "
                       "--convert-tosa-to-xtensor does not support");
    return unary<xt::NegOp>(c);
  }
  if (name == "identity")
    return op->getOperand(0);
  if (name == "equal") return cmp(xt::CmpPredicate::eq);
  if (name == "greater") return cmp(xt::CmpPredicate::gt);
  if (name == "greater_equal") return cmp(xt::CmpPredicate::ge);
  if (name == "select")
    return (Value)xt::SelectOp::create(b, loc, c.operand(0), c.operand(1),
                                       c.operand(2));
  if (name == "cast")
    return (Value)xt::CastOp::create(b, loc, c.resultType(), op->getOperand(0));
  if (name == "clamp") {
    auto lo = op->getAttrOfType<TypedAttr>("min_val");
    auto hi = op->getAttrOfType<TypedAttr>("max_val");
    if (!lo || !hi)
      return c.error("has no min_val/max_val");
    Type element = c.resultType().getElementType();
    Value v = xt::MaxOp::create(b, loc, op->getOperand(0), c.splat(element, lo));
    return (Value)xt::MinOp::create(b, loc, v, c.splat(element, hi));
  }
  if (name == "reduce_sum") return reduce(xt::ReduceKind::sum);
  if (name == "reduce_max") return reduce(xt::ReduceKind::max);
  if (name == "reduce_min") return reduce(xt::ReduceKind::min);
  if (name == "reduce_product") return reduce(xt::ReduceKind::prod);
  if (name == "reduce_any") return reduce(xt::ReduceKind::any);
  if (name == "reduce_all") return reduce(xt::ReduceKind::all);
  if (name == "reshape")
    return (Value)xt::ReshapeOp::create(b, loc, c.resultType(),
                                        op->getOperand(0));
  if (name == "transpose") {
    auto perms = op->getAttrOfType<DenseI32ArrayAttr>("perms");
    SmallVector<int64_t> perm(perms.asArrayRef().begin(),
                              perms.asArrayRef().end());
    return (Value)xt::TransposeOp::create(b, loc, op->getOperand(0), perm);
  }
  if (name == "slice") {
    FailureOr<SmallVector<int64_t>> start = shapeValues(op->getOperand(1));
    if (failed(start))
      return c.error("has a start that is not a tosa.const_shape");
    SmallVector<int64_t> limits, strides;
    for (auto [s, n] : llvm::zip(*start, c.resultType().getShape())) {
      limits.push_back(s + n);
      strides.push_back(1);
    }
    return (Value)xt::SliceOp::create(b, loc, c.resultType(),
                                      op->getOperand(0), *start, limits,
                                      strides);
  }
  if (name == "pad") {
    FailureOr<SmallVector<int64_t>> padding = shapeValues(op->getOperand(1));
    DenseElementsAttr value;
    if (failed(padding) ||
        !matchPattern(op->getOperand(2), m_Constant(&value)) ||
        !value.isSplat())
      return c.error("has padding that is not constant");
    SmallVector<int64_t> low, high;
    for (size_t i = 0; i + 1 < padding->size(); i += 2) {
      low.push_back((*padding)[i]);
      high.push_back((*padding)[i + 1]);
    }
    return (Value)xt::PadOp::create(b, loc, op->getOperand(0), low, high,
                                    value.getSplatValue<TypedAttr>());
  }
  if (name == "concat") {
    int64_t axis = op->getAttrOfType<IntegerAttr>("axis").getInt();
    return (Value)xt::ConcatOp::create(b, loc, c.resultType(),
                                       op->getOperands(), axis);
  }
  if (name == "matmul") {
    for (unsigned i = 2; i < op->getNumOperands(); ++i)
      if (!isZeros(op->getOperand(i)))
        return c.error("has a non-zero zero point, which "
                       "--convert-tosa-to-xtensor does not support");
    return (Value)xt::MatmulOp::create(b, loc, c.resultType(),
                                       op->getOperand(0), op->getOperand(1));
  }
  if (name == "gather") {
    // values [N, K, C], indices [N, W] -> [N, W, C]: one gather along the
    // rows of values flattened to [N*K, C], batch n's indices offset by
    // n*K (xtensor.gather has no batch dimension).
    Value values = op->getOperand(0), indices = op->getOperand(1);
    auto vType = cast<RankedTensorType>(values.getType());
    auto iType = cast<RankedTensorType>(indices.getType());
    if (vType.getRank() != 3 || iType.getRank() != 2)
      return c.error("needs values [N, K, C] and indices [N, W]");
    int64_t n = vType.getDimSize(0), k = vType.getDimSize(1),
            ch = vType.getDimSize(2), w = iType.getDimSize(1), numRows, numIds;
    if (!vType.hasStaticShape() || !iType.hasStaticShape() ||
        iType.getDimSize(0) != n || llvm::MulOverflow(n, k, numRows) ||
        llvm::MulOverflow(n, w, numIds))
      return c.error("needs static values [N, K, C] and indices [N, W] "
                     "whose N*K and N*W fit in 64 bits");
    Type element = vType.getElementType();
    Value flat = xt::ReshapeOp::create(
        b, loc, RankedTensorType::get({numRows, ch}, element), values);
    Value ids = indices;
    if (n > 1) {
      Value row = xt::IotaOp::create(b, loc, iType, /*dim=*/0);
      Value stride = xt::ConstantOp::create(
          b, loc,
          DenseElementsAttr::get(
              iType, b.getIntegerAttr(iType.getElementType(), k)));
      ids = xt::AddOp::create(b, loc, indices,
                              xt::MulOp::create(b, loc, row, stride));
    }
    auto flatType = RankedTensorType::get({numIds}, iType.getElementType());
    Value flatIds = xt::ReshapeOp::create(b, loc, flatType, ids);
    Value rows = xt::GatherOp::create(b, loc, flat, flatIds, /*axis=*/0);
    return (Value)xt::ReshapeOp::create(b, loc, c.resultType(), rows);
  }
  if (name == "conv2d") {
    // input [N, H, W, C], weight [O, KH, KW, C], bias [O] or [1]; the
    // result [N, OH, OW, O] is the contraction of the padded input's
    // patches, plus the bias, in the accumulator type, rounded once.
    for (unsigned i = 3; i < op->getNumOperands(); ++i)
      if (!isZeros(op->getOperand(i)))
        return c.error("has a non-zero zero point, which "
                       "--convert-tosa-to-xtensor does not support");
    RankedTensorType result = c.resultType();
    Type element = result.getElementType();
    if (!isa<FloatType>(element))
      return c.error("is an integer (quantized) convolution, which "
                     "--convert-tosa-to-xtensor does not support");
    auto pad = op->getAttrOfType<DenseI64ArrayAttr>("pad");
    auto stride = op->getAttrOfType<DenseI64ArrayAttr>("stride");
    auto dilation = op->getAttrOfType<DenseI64ArrayAttr>("dilation");
    if (!pad || pad.size() != 4 || !stride || !dilation)
      return c.error("needs pad, stride and dilation");
    Value input = op->getOperand(0);
    if (llvm::any_of(pad.asArrayRef(), [](int64_t p) { return p != 0; }))
      input = xt::PadOp::create(b, loc, input,
                                ArrayRef<int64_t>{0, pad[0], pad[2], 0},
                                ArrayRef<int64_t>{0, pad[1], pad[3], 0},
                                b.getFloatAttr(element, 0.0));
    Type acc = element.getIntOrFloatBitWidth() < 32 ? b.getF32Type() : element;
    FailureOr<Value> y = xt::buildConvolution2D(
        b, loc, input, op->getOperand(1), stride.asArrayRef(),
        dilation.asArrayRef(), acc);
    if (failed(y))
      return failure();
    auto yType = cast<RankedTensorType>(y->getType());
    if (yType.getShape() != result.getShape())
      return c.error("has a result shape that its padding, stride and "
                     "dilation do not give");
    Value bias = op->getOperand(2);
    auto bType = cast<RankedTensorType>(bias.getType());
    if (bType.getElementType() != acc)
      bias = xt::CastOp::create(
          b, loc, RankedTensorType::get(bType.getShape(), acc), bias);
    Value sum = xt::AddOp::create(b, loc, *y, c.to(bias, yType.getShape()));
    if (acc == element)
      return sum;
    return (Value)xt::CastOp::create(b, loc, result, sum);
  }
  if (name == "const") {
    auto values = op->getAttrOfType<DenseElementsAttr>("values");
    if (!values)
      return c.error("holds values that are not dense elements");
    return (Value)xt::ConstantOp::create(b, loc, values);
  }
  return op->emitOpError("is not supported by --convert-tosa-to-xtensor");
}

struct ConvertTosaToXTensorPass
    : xtile::impl::ConvertTosaToXTensorBase<ConvertTosaToXTensorPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (isa<tosa::TosaDialect>(op->getDialect()) &&
          !isa<tosa::ConstShapeOp>(op))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : ops) {
      if (op->getNumResults() != 1 ||
          !isa<RankedTensorType>(op->getResult(0).getType()) ||
          !cast<RankedTensorType>(op->getResult(0).getType())
               .hasStaticShape()) {
        op->emitOpError("is not an op on static tensors with one result; "
                        "--convert-tosa-to-xtensor does not support it");
        return signalPassFailure();
      }
      rewriter.setInsertionPoint(op);
      Converter c{rewriter, op};
      FailureOr<Value> v = convert(c);
      if (failed(v))
        return signalPassFailure();
      rewriter.replaceOp(op, *v);
    }
    // The shapes and constants only the converted ops used go.
    xtile::eraseDeadOps(module, rewriter);
    WalkResult left = module.walk([&](Operation *op) {
      if (isa<tosa::TosaDialect>(op->getDialect())) {
        op->emitOpError("is left after --convert-tosa-to-xtensor (a shape "
                        "used by an op it does not convert)");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
