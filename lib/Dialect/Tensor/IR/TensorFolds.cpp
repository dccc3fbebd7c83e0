//===- TensorFolds.cpp - exact folders of xtensor ops ---------------------===//
//
// Every folder here is exact: it never changes a result bit, whatever the
// inputs (signed zeros, NaN and infinities included). Float constant folding
// is limited to operations that IEEE 754 defines as correctly rounded and
// that CUDA implements the same way (+ - * /, conversions, comparisons,
// min/max, floor/ceil), so a folded constant equals what the kernel would
// have computed. Transcendentals are not folded: their last bit depends on
// the math library. Value-changing rewrites live in --xtensor-normalize
// behind its fast-math option.
//
//===----------------------------------------------------------------------===//

#include "xtile/Dialect/Tensor/IR/TensorOps.h"
#include "xtile/Support/HostTensor.h"

#include "mlir/Dialect/CommonFolders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace xtile::tensor;

namespace {
using FloatFn = llvm::function_ref<std::optional<APFloat>(APFloat, APFloat)>;
using IntFn = llvm::function_ref<std::optional<APInt>(APInt, APInt)>;
} // namespace

static bool isFloatTensor(Type type) {
  return isa<FloatType>(getElementTypeOrSelf(type));
}

/// Elementwise constant folding of a binary op; `floatFn`/`intFn` may return
/// std::nullopt to refuse an element (e.g. integer division by zero).
static Attribute foldBinary(ArrayRef<Attribute> operands, Type type,
                            FloatFn floatFn, IntFn intFn) {
  if (!operands[0] || !operands[1])
    return {};
  if (isFloatTensor(type)) {
    if (!floatFn)
      return {};
    return constFoldBinaryOpConditional<FloatAttr, APFloat, void>(
        operands, type, floatFn);
  }
  if (!intFn)
    return {};
  return constFoldBinaryOpConditional<IntegerAttr, APInt, void>(operands, type,
                                                                intFn);
}

static Attribute
foldUnary(ArrayRef<Attribute> operands, Type type,
          llvm::function_ref<std::optional<APFloat>(APFloat)> floatFn,
          llvm::function_ref<std::optional<APInt>(APInt)> intFn) {
  if (!operands[0])
    return {};
  if (isFloatTensor(type)) {
    if (!floatFn)
      return {};
    return constFoldUnaryOpConditional<FloatAttr, APFloat, void>(operands, type,
                                                                 floatFn);
  }
  if (!intFn)
    return {};
  return constFoldUnaryOpConditional<IntegerAttr, APInt, void>(operands, type,
                                                               intFn);
}

/// True when `attr` is a splat whose every element satisfies the predicate
/// (for its element kind).
static bool isSplat(Attribute attr, llvm::function_ref<bool(const APFloat &)> f,
                    llvm::function_ref<bool(const APInt &)> i) {
  auto splat = dyn_cast_or_null<SplatElementsAttr>(attr);
  if (!splat)
    return false;
  if (isa<FloatType>(splat.getElementType()))
    return f && f(splat.getSplatValue<APFloat>());
  return i && i(splat.getSplatValue<APInt>());
}

static bool isSplatOne(Attribute attr) {
  return isSplat(
      attr, [](const APFloat &v) { return v.isExactlyValue(1.0); },
      [](const APInt &v) { return v.isOne(); });
}
static bool isSplatIntZero(Attribute attr) {
  return isSplat(attr, nullptr, [](const APInt &v) { return v.isZero(); });
}

// A constant has static sizes: folds to one yield nothing for a type with
// dynamic sizes.

static Attribute zerosLike(Type type) {
  auto shaped = cast<ShapedType>(type);
  if (!shaped.hasStaticShape())
    return {};
  Builder b(type.getContext());
  return DenseElementsAttr::get(shaped, b.getZeroAttr(shaped.getElementType()));
}

/// A splat constant operand re-shaped to `type` (for movement ops, where a
/// splat stays a splat).
static Attribute reshapeSplat(Attribute operand, Type type) {
  auto shaped = cast<ShapedType>(type);
  if (!shaped.hasStaticShape())
    return {};
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(operand))
    return DenseElementsAttr::get(shaped,
                                  splat.getSplatValue<Attribute>());
  return {};
}

//===----------------------------------------------------------------------===//
// Unary
//===----------------------------------------------------------------------===//

OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  if (auto inner = getInput().getDefiningOp<NegOp>())
    return inner.getInput();
  return foldUnary(
      adaptor.getOperands(), getType(),
      [](APFloat v) -> std::optional<APFloat> { return neg(v); },
      [](APInt v) -> std::optional<APInt> { return -v; });
}

OpFoldResult AbsOp::fold(FoldAdaptor adaptor) {
  if (getInput().getDefiningOp<AbsOp>())
    return getInput();
  return foldUnary(
      adaptor.getOperands(), getType(),
      [](APFloat v) -> std::optional<APFloat> { return abs(v); },
      [](APInt v) -> std::optional<APInt> { return v.abs(); });
}

static std::optional<APFloat> roundTo(APFloat v, llvm::RoundingMode mode) {
  v.roundToIntegral(mode);
  return v;
}

OpFoldResult FloorOp::fold(FoldAdaptor adaptor) {
  if (getInput().getDefiningOp<FloorOp>())
    return getInput();
  return foldUnary(
      adaptor.getOperands(), getType(),
      [](APFloat v) { return roundTo(v, llvm::RoundingMode::TowardNegative); },
      nullptr);
}

OpFoldResult CeilOp::fold(FoldAdaptor adaptor) {
  if (getInput().getDefiningOp<CeilOp>())
    return getInput();
  return foldUnary(
      adaptor.getOperands(), getType(),
      [](APFloat v) { return roundTo(v, llvm::RoundingMode::TowardPositive); },
      nullptr);
}

OpFoldResult NotOp::fold(FoldAdaptor adaptor) {
  if (auto inner = getInput().getDefiningOp<NotOp>())
    return inner.getInput();
  return foldUnary(adaptor.getOperands(), getType(), nullptr,
                   [](APInt v) -> std::optional<APInt> { return ~v; });
}

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  Type from = getElementTypeOrSelf(getInput().getType());
  Type to = getElementTypeOrSelf(getType());
  ArrayRef<Attribute> operands = adaptor.getOperands();
  if (!operands[0])
    return {};
  auto fromFloat = dyn_cast<FloatType>(from), toFloat = dyn_cast<FloatType>(to);
  if (fromFloat && toFloat)
    return constFoldCastOp<FloatAttr, FloatAttr, APFloat, APFloat, void>(
        operands, getType(), [&](const APFloat &v, bool &ok) {
          ok = true;
          return roundFloat(v, toFloat);
        });
  // i1 is a boolean (0 or 1); wider integers are signed.
  if (!fromFloat && !toFloat) {
    unsigned width = to.getIntOrFloatBitWidth();
    return constFoldCastOp<IntegerAttr, IntegerAttr, APInt, APInt, void>(
        operands, getType(), [&](const APInt &v, bool &ok) {
          ok = true;
          if (width == 1)
            return APInt(1, !v.isZero());
          return from.isInteger(1) ? v.zextOrTrunc(width)
                                   : v.sextOrTrunc(width);
        });
  }
  if (!fromFloat && toFloat)
    return constFoldCastOp<IntegerAttr, FloatAttr, APInt, APFloat, void>(
        operands, getType(), [&](const APInt &v, bool &ok) {
          ok = true;
          // fp8 saturates as a float's cast does: through f64 (as PyTorch
          // goes through a wider float), then roundFloat.
          bool fp8 = toFloat.getWidth() == 8;
          APFloat result(fp8 ? APFloat::IEEEdouble()
                             : toFloat.getFloatSemantics());
          result.convertFromAPInt(v, /*IsSigned=*/!from.isInteger(1),
                                  APFloat::rmNearestTiesToEven);
          return fp8 ? roundFloat(result, toFloat) : result;
        });
  // Float to integer is undefined out of range; not folded.
  return {};
}

//===----------------------------------------------------------------------===//
// Binary
//===----------------------------------------------------------------------===//

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  // x + (-0.0) == x for every x (+0.0 is not an identity: -0 + +0 = +0).
  if (isSplat(
          adaptor.getRhs(), [](const APFloat &v) { return v.isNegZero(); },
          [](const APInt &v) { return v.isZero(); }))
    return getLhs();
  return foldBinary(
      adaptor.getOperands(), getType(),
      [](APFloat a, APFloat b) -> std::optional<APFloat> { return a + b; },
      [](APInt a, APInt b) -> std::optional<APInt> { return a + b; });
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  if (isSplat(
          adaptor.getRhs(), [](const APFloat &v) { return v.isPosZero(); },
          [](const APInt &v) { return v.isZero(); }))
    return getLhs();
  // x - x == 0 only for integers (NaN and infinities break it for floats).
  if (getLhs() == getRhs() && !isFloatTensor(getType()))
    return zerosLike(getType());
  return foldBinary(
      adaptor.getOperands(), getType(),
      [](APFloat a, APFloat b) -> std::optional<APFloat> { return a - b; },
      [](APInt a, APInt b) -> std::optional<APInt> { return a - b; });
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  if (isSplatOne(adaptor.getRhs()))
    return getLhs();
  if (isSplatIntZero(adaptor.getRhs()))
    return adaptor.getRhs();
  return foldBinary(
      adaptor.getOperands(), getType(),
      [](APFloat a, APFloat b) -> std::optional<APFloat> { return a * b; },
      [](APInt a, APInt b) -> std::optional<APInt> { return a * b; });
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  if (isSplatOne(adaptor.getRhs()))
    return getLhs();
  return foldBinary(
      adaptor.getOperands(), getType(),
      [](APFloat a, APFloat b) -> std::optional<APFloat> { return a / b; },
      [](APInt a, APInt b) -> std::optional<APInt> {
        if (b.isZero() || (a.isMinSignedValue() && b.isAllOnes()))
          return std::nullopt;
        return a.sdiv(b);
      });
}

OpFoldResult RemOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      adaptor.getOperands(), getType(),
      [](APFloat a, APFloat b) -> std::optional<APFloat> {
        // APFloat::mod is exact and keeps the sign of the dividend, as fmod.
        a.mod(b);
        return a;
      },
      [](APInt a, APInt b) -> std::optional<APInt> {
        if (b.isZero() || (a.isMinSignedValue() && b.isAllOnes()))
          return std::nullopt;
        return a.srem(b);
      });
}

OpFoldResult PowOp::fold(FoldAdaptor adaptor) {
  // pow(x, 1) == x exactly (C99 F.9.4.4); other powers depend on libm.
  if (isSplatOne(adaptor.getRhs()))
    return getLhs();
  return {};
}

OpFoldResult MaxOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs())
    return getLhs();
  return foldBinary(
      adaptor.getOperands(), getType(),
      [](APFloat a, APFloat b) -> std::optional<APFloat> {
        return llvm::maximum(a, b);
      },
      [](APInt a, APInt b) -> std::optional<APInt> {
        return a.sge(b) ? a : b;
      });
}

OpFoldResult MinOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs())
    return getLhs();
  return foldBinary(
      adaptor.getOperands(), getType(),
      [](APFloat a, APFloat b) -> std::optional<APFloat> {
        return llvm::minimum(a, b);
      },
      [](APInt a, APInt b) -> std::optional<APInt> {
        return a.sle(b) ? a : b;
      });
}

OpFoldResult AndOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs())
    return getLhs();
  if (isSplatIntZero(adaptor.getRhs()))
    return adaptor.getRhs();
  if (isSplat(adaptor.getRhs(), nullptr,
              [](const APInt &v) { return v.isAllOnes(); }))
    return getLhs();
  return foldBinary(
      adaptor.getOperands(), getType(), nullptr,
      [](APInt a, APInt b) -> std::optional<APInt> { return a & b; });
}

OpFoldResult OrOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs() || isSplatIntZero(adaptor.getRhs()))
    return getLhs();
  return foldBinary(
      adaptor.getOperands(), getType(), nullptr,
      [](APInt a, APInt b) -> std::optional<APInt> { return a | b; });
}

OpFoldResult XorOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs())
    return zerosLike(getType());
  if (isSplatIntZero(adaptor.getRhs()))
    return getLhs();
  return foldBinary(
      adaptor.getOperands(), getType(), nullptr,
      [](APInt a, APInt b) -> std::optional<APInt> { return a ^ b; });
}

static bool evaluate(CmpPredicate predicate, APFloat::cmpResult r) {
  switch (predicate) {
  case CmpPredicate::eq:
    return r == APFloat::cmpEqual;
  case CmpPredicate::ne:
    return r != APFloat::cmpEqual;
  case CmpPredicate::lt:
    return r == APFloat::cmpLessThan;
  case CmpPredicate::le:
    return r == APFloat::cmpLessThan || r == APFloat::cmpEqual;
  case CmpPredicate::gt:
    return r == APFloat::cmpGreaterThan;
  case CmpPredicate::ge:
    return r == APFloat::cmpGreaterThan || r == APFloat::cmpEqual;
  }
  llvm_unreachable("unknown predicate");
}

OpFoldResult CmpOp::fold(FoldAdaptor adaptor) {
  ArrayRef<Attribute> operands = adaptor.getOperands();
  if (!operands[0] || !operands[1])
    return {};
  CmpPredicate predicate = getPredicate();
  if (isFloatTensor(getLhs().getType()))
    return constFoldBinaryOpConditional<FloatAttr, APFloat, void, IntegerAttr>(
        operands, getType(), [&](APFloat a, APFloat b) -> std::optional<APInt> {
          return APInt(1, evaluate(predicate, a.compare(b)));
        });
  return constFoldBinaryOpConditional<IntegerAttr, APInt, void, IntegerAttr>(
      operands, getType(), [&](APInt a, APInt b) -> std::optional<APInt> {
        APFloat::cmpResult r = a.slt(b) ? APFloat::cmpLessThan
                               : a == b ? APFloat::cmpEqual
                                        : APFloat::cmpGreaterThan;
        return APInt(1, evaluate(predicate, r));
      });
}

OpFoldResult SelectOp::fold(FoldAdaptor adaptor) {
  if (getTrueValue() == getFalseValue())
    return getTrueValue();
  if (auto cond = dyn_cast_or_null<SplatElementsAttr>(adaptor.getCond()))
    return cond.getSplatValue<bool>() ? getTrueValue() : getFalseValue();
  auto cond = dyn_cast_or_null<DenseElementsAttr>(adaptor.getCond());
  auto a = dyn_cast_or_null<DenseElementsAttr>(adaptor.getTrueValue());
  auto b = dyn_cast_or_null<DenseElementsAttr>(adaptor.getFalseValue());
  if (!cond || !a || !b)
    return {};
  SmallVector<Attribute> values;
  values.reserve(cond.getNumElements());
  for (auto [c, x, y] :
       llvm::zip_equal(cond.getValues<bool>(), a.getValues<Attribute>(),
                       b.getValues<Attribute>()))
    values.push_back(c ? x : y);
  return DenseElementsAttr::get(cast<ShapedType>(getType()), values);
}

//===----------------------------------------------------------------------===//
// Sources, reductions, movement
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

OpFoldResult ReduceOp::fold(FoldAdaptor) {
  if (getDims().empty() && getInput().getType() == getType())
    return getInput();
  return {};
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  if (auto inner = getInput().getDefiningOp<ReshapeOp>()) {
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput()))
    return dense.reshape(cast<ShapedType>(getType()));
  return {};
}

OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  ArrayRef<int64_t> perm = getPerm();
  if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
    return getInput();
  if (auto inner = getInput().getDefiningOp<TransposeOp>()) {
    // transpose(transpose(x, p), q)[i] = x[p[q[i]]].
    SmallVector<int64_t> composed;
    for (int64_t q : perm)
      composed.push_back(inner.getPerm()[q]);
    setPerm(composed);
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  return reshapeSplat(adaptor.getInput(), getType());
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  // Trailing-aligned broadcasts compose: a dimension of size 1 that the
  // inner broadcast expanded is expanded directly by the outer one.
  if (auto inner = getInput().getDefiningOp<BroadcastOp>()) {
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  return reshapeSplat(adaptor.getInput(), getType());
}

OpFoldResult SliceOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType() &&
      llvm::all_of(getStrides(), [](int64_t s) { return s == 1; }))
    return getInput();
  return reshapeSplat(adaptor.getInput(), getType());
}

OpFoldResult PadOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

OpFoldResult ConcatOp::fold(FoldAdaptor) {
  if (getInputs().size() == 1)
    return getInputs().front();
  return {};
}
