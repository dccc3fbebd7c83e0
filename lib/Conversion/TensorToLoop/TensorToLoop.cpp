//===- TensorToLoop.cpp - Tensor IR to Loop IR ----------------------------===//
//
// Each atomic xtensor op becomes a kernel in pointwise form (a perfect nest
// of parallel loops over the result, one store in the innermost body) and a
// launch. Fusion (--xloop-fuse) works on that form.
//
//===----------------------------------------------------------------------===//

#include "xtile/Conversion/TensorToLoop/TensorToLoop.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/DialectConversion.h"
#include "xtile/Dialect/Tensor/IR/TensorOps.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>

namespace xtile {
#define GEN_PASS_DEF_CONVERTXTENSORTOXLOOP
#include "xtile/Conversion/Passes.h.inc"
} // namespace xtile

using namespace mlir;
using namespace xtile;
namespace xt = xtile::tensor;
namespace xl = xtile::loop;

namespace {

/// The body of one kernel under construction: loads operands (or
/// materializes splat constants as scalars) and builds scalar math.
class ElementBuilder {
public:
  ElementBuilder(OpBuilder &b, Location loc, ValueRange operands,
                 ArrayRef<Value> buffers,
                 const DenseMap<StringAttr, Value> &sizes)
      : b(b), loc(loc), operands(operands), buffers(buffers), sizes(sizes) {}

  /// The size of dimension `d` of `type`: a constant, or the kernel's size
  /// argument of its symbol.
  OpFoldResult extent(Type type, unsigned d) {
    auto ranked = cast<RankedTensorType>(type);
    if (!ranked.isDynamicDim(d))
      return b.getI64IntegerAttr(ranked.getDimSize(d));
    return sizes.lookup(xt::getDims(ranked)[d].symbol);
  }

  /// The size of dimension `d` of `type` as an index value.
  Value extentValue(Type type, unsigned d) {
    OpFoldResult size = extent(type, d);
    if (auto v = dyn_cast<Value>(size))
      return v;
    return index(cast<IntegerAttr>(cast<Attribute>(size)).getInt());
  }

  /// Operand `i` of the op at `indices`.
  Value load(unsigned i, ValueRange indices) {
    SplatElementsAttr splat;
    if (matchPattern(operands[i], m_Constant(&splat)))
      return arith::ConstantOp::create(
          b, loc, cast<TypedAttr>(splat.getSplatValue<Attribute>()));
    return xl::LoadOp::create(b, loc, buffers[i], indices);
  }

  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  Value constant(Type type, double value) {
    if (isa<FloatType>(type))
      return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
    return arith::ConstantOp::create(
        b, loc, b.getIntegerAttr(type, static_cast<int64_t>(value)));
  }
  /// `expr` over `operands` as an affine.apply.
  Value apply(AffineExpr expr, ValueRange operands) {
    auto map = AffineMap::get(operands.size(), 0, expr);
    return affine::AffineApplyOp::create(b, loc, map, operands);
  }
  /// `value` clamped to [0, size - 1].
  Value clamp(Value value, int64_t size) {
    Value lo = arith::MaxSIOp::create(b, loc, value, index(0));
    return arith::MinSIOp::create(b, loc, lo, index(size - 1));
  }
  /// `value` clamped to [0, size - 1], for a size that is a value.
  Value clamp(Value value, Value size) {
    Value lo = arith::MaxSIOp::create(b, loc, value, index(0));
    Value last = arith::SubIOp::create(b, loc, size, index(1));
    return arith::MinSIOp::create(b, loc, lo, last);
  }

  OpBuilder &b;
  Location loc;
  /// The op's operands (Tensor IR values): splat constants among them are
  /// scalars, the others the kernel's buffers.
  ValueRange operands;
  ArrayRef<Value> buffers;
  const DenseMap<StringAttr, Value> &sizes;
};

static bool isFloat(Type type) { return isa<FloatType>(type); }

/// The accumulator type of sums, products and matmuls: at least f32.
static Type accumulatorType(Type element) {
  if (auto f = dyn_cast<FloatType>(element))
    if (f.getWidth() < 32)
      return Float32Type::get(element.getContext());
  return element;
}

static Value convertFloat(OpBuilder &b, Location loc, Value v, Type to) {
  auto from = cast<FloatType>(v.getType());
  auto target = cast<FloatType>(to);
  if (from == target)
    return v;
  if (from.getWidth() < target.getWidth())
    return arith::ExtFOp::create(b, loc, to, v);
  if (from.getWidth() > target.getWidth())
    return arith::TruncFOp::create(b, loc, to, v);
  // Same width, other format (f16 <-> bf16): through f32.
  Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), v);
  return arith::TruncFOp::create(b, loc, to, wide);
}

static Value castScalar(OpBuilder &b, Location loc, Value v, Type to) {
  Type from = v.getType();
  if (from == to)
    return v;
  bool fromF = isFloat(from), toF = isFloat(to);
  if (fromF && toF)
    return convertFloat(b, loc, v, to);
  if (to.isInteger(1)) {
    if (fromF)
      return arith::CmpFOp::create(
          b, loc, arith::CmpFPredicate::UNE, v,
          arith::ConstantOp::create(b, loc, b.getFloatAttr(from, 0.0)));
    return arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne, v,
        arith::ConstantOp::create(b, loc, b.getIntegerAttr(from, 0)));
  }
  if (!fromF && !toF) {
    unsigned fw = from.getIntOrFloatBitWidth(), tw = to.getIntOrFloatBitWidth();
    if (from.isInteger(1))
      return arith::ExtUIOp::create(b, loc, to, v);
    if (fw < tw)
      return arith::ExtSIOp::create(b, loc, to, v);
    return arith::TruncIOp::create(b, loc, to, v);
  }
  if (!fromF && toF) {
    if (from.isInteger(1))
      return arith::UIToFPOp::create(b, loc, to, v);
    return arith::SIToFPOp::create(b, loc, to, v);
  }
  return arith::FPToSIOp::create(b, loc, to, v);
}

static Value unaryScalar(OpBuilder &b, Location loc, Operation *op, Value x) {
  Type t = x.getType();
  auto one = [&]() {
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(t, 1.0));
  };
  return TypeSwitch<Operation *, Value>(op)
      .Case([&](xt::NegOp) -> Value {
        if (isFloat(t))
          return arith::NegFOp::create(b, loc, x);
        Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, 0));
        return arith::SubIOp::create(b, loc, zero, x);
      })
      .Case([&](xt::AbsOp) -> Value {
        if (isFloat(t))
          return math::AbsFOp::create(b, loc, x);
        return math::AbsIOp::create(b, loc, x);
      })
      .Case([&](xt::ExpOp) { return math::ExpOp::create(b, loc, x); })
      .Case([&](xt::Exp2Op) { return math::Exp2Op::create(b, loc, x); })
      .Case([&](xt::LogOp) { return math::LogOp::create(b, loc, x); })
      .Case([&](xt::Log2Op) { return math::Log2Op::create(b, loc, x); })
      .Case([&](xt::SqrtOp) { return math::SqrtOp::create(b, loc, x); })
      .Case([&](xt::RsqrtOp) { return math::RsqrtOp::create(b, loc, x); })
      .Case([&](xt::SinOp) { return math::SinOp::create(b, loc, x); })
      .Case([&](xt::CosOp) { return math::CosOp::create(b, loc, x); })
      .Case([&](xt::TanhOp) { return math::TanhOp::create(b, loc, x); })
      .Case([&](xt::ErfOp) { return math::ErfOp::create(b, loc, x); })
      .Case([&](xt::ErfcOp) { return math::ErfcOp::create(b, loc, x); })
      .Case([&](xt::FloorOp) { return math::FloorOp::create(b, loc, x); })
      .Case([&](xt::CeilOp) { return math::CeilOp::create(b, loc, x); })
      .Case([&](xt::ReciprocalOp) {
        return arith::DivFOp::create(b, loc, one(), x);
      })
      .Case([&](xt::SigmoidOp) {
        Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
        return arith::DivFOp::create(b, loc, one(),
                                     arith::AddFOp::create(b, loc, one(), e));
      })
      .Case([&](xt::NotOp) {
        Value ones = arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, -1));
        return arith::XOrIOp::create(b, loc, x, ones);
      })
      .Default([](Operation *) { return Value(); });
}

static Value binaryScalar(OpBuilder &b, Location loc, Operation *op, Value x,
                          Value y) {
  bool f = isFloat(x.getType());
  return TypeSwitch<Operation *, Value>(op)
      .Case([&](xt::AddOp) -> Value {
        return f ? Value(arith::AddFOp::create(b, loc, x, y))
                 : Value(arith::AddIOp::create(b, loc, x, y));
      })
      .Case([&](xt::SubOp) -> Value {
        return f ? Value(arith::SubFOp::create(b, loc, x, y))
                 : Value(arith::SubIOp::create(b, loc, x, y));
      })
      .Case([&](xt::MulOp) -> Value {
        return f ? Value(arith::MulFOp::create(b, loc, x, y))
                 : Value(arith::MulIOp::create(b, loc, x, y));
      })
      .Case([&](xt::DivOp) -> Value {
        return f ? Value(arith::DivFOp::create(b, loc, x, y))
                 : Value(arith::DivSIOp::create(b, loc, x, y));
      })
      .Case([&](xt::RemOp) -> Value {
        return f ? Value(arith::RemFOp::create(b, loc, x, y))
                 : Value(arith::RemSIOp::create(b, loc, x, y));
      })
      .Case([&](xt::PowOp) { return math::PowFOp::create(b, loc, x, y); })
      .Case([&](xt::MaxOp) -> Value {
        return f ? Value(arith::MaximumFOp::create(b, loc, x, y))
                 : Value(arith::MaxSIOp::create(b, loc, x, y));
      })
      .Case([&](xt::MinOp) -> Value {
        return f ? Value(arith::MinimumFOp::create(b, loc, x, y))
                 : Value(arith::MinSIOp::create(b, loc, x, y));
      })
      .Case([&](xt::AndOp) { return arith::AndIOp::create(b, loc, x, y); })
      .Case([&](xt::OrOp) { return arith::OrIOp::create(b, loc, x, y); })
      .Case([&](xt::XorOp) { return arith::XOrIOp::create(b, loc, x, y); })
      .Case([&](xt::CmpOp cmp) -> Value {
        if (f) {
          arith::CmpFPredicate p = arith::CmpFPredicate::OEQ;
          switch (cmp.getPredicate()) {
          case xt::CmpPredicate::eq:
            p = arith::CmpFPredicate::OEQ;
            break;
          case xt::CmpPredicate::ne:
            p = arith::CmpFPredicate::UNE;
            break;
          case xt::CmpPredicate::lt:
            p = arith::CmpFPredicate::OLT;
            break;
          case xt::CmpPredicate::le:
            p = arith::CmpFPredicate::OLE;
            break;
          case xt::CmpPredicate::gt:
            p = arith::CmpFPredicate::OGT;
            break;
          case xt::CmpPredicate::ge:
            p = arith::CmpFPredicate::OGE;
            break;
          }
          return arith::CmpFOp::create(b, loc, p, x, y);
        }
        arith::CmpIPredicate p = arith::CmpIPredicate::eq;
        switch (cmp.getPredicate()) {
        case xt::CmpPredicate::eq:
          p = arith::CmpIPredicate::eq;
          break;
        case xt::CmpPredicate::ne:
          p = arith::CmpIPredicate::ne;
          break;
        case xt::CmpPredicate::lt:
          p = arith::CmpIPredicate::slt;
          break;
        case xt::CmpPredicate::le:
          p = arith::CmpIPredicate::sle;
          break;
        case xt::CmpPredicate::gt:
          p = arith::CmpIPredicate::sgt;
          break;
        case xt::CmpPredicate::ge:
          p = arith::CmpIPredicate::sge;
          break;
        }
        return arith::CmpIOp::create(b, loc, p, x, y);
      })
      .Default([](Operation *) { return Value(); });
}

/// The identity of a fold's combine operation in `type`.
static Value identity(OpBuilder &b, Location loc, xl::CombineKind kind,
                      Type type) {
  if (auto f = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = f.getFloatSemantics();
    APFloat v(sem);
    switch (kind) {
    case xl::CombineKind::add:
      v = APFloat::getZero(sem);
      break;
    case xl::CombineKind::mul:
      v = APFloat(sem, 1);
      break;
    case xl::CombineKind::max:
      v = APFloat::getInf(sem, /*Negative=*/true);
      break;
    case xl::CombineKind::min:
      v = APFloat::getInf(sem);
      break;
    default:
      llvm_unreachable("logical combine on floats");
    }
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, v));
  }
  unsigned width = type.getIntOrFloatBitWidth();
  APInt v;
  switch (kind) {
  case xl::CombineKind::add:
    v = APInt::getZero(width);
    break;
  case xl::CombineKind::mul:
    v = APInt(width, 1);
    break;
  case xl::CombineKind::max:
    v = APInt::getSignedMinValue(width);
    break;
  case xl::CombineKind::min:
    v = APInt::getSignedMaxValue(width);
    break;
  case xl::CombineKind::And:
    v = APInt::getAllOnes(width);
    break;
  case xl::CombineKind::Or:
    v = APInt::getZero(width);
    break;
  }
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, v));
}

static xl::CombineKind combineOf(xt::ReduceKind kind) {
  switch (kind) {
  case xt::ReduceKind::sum:
    return xl::CombineKind::add;
  case xt::ReduceKind::prod:
    return xl::CombineKind::mul;
  case xt::ReduceKind::max:
    return xl::CombineKind::max;
  case xt::ReduceKind::min:
    return xl::CombineKind::min;
  case xt::ReduceKind::all:
    return xl::CombineKind::And;
  case xt::ReduceKind::any:
    return xl::CombineKind::Or;
  }
  llvm_unreachable("unknown reduce kind");
}

/// One fold over the product of `extents`, however many dimensions they
/// are and whether or not they are adjacent in memory: `element(ivs)` gets
/// the coordinates of each iteration, delinearized in row-major order (so
/// consecutive iterations walk the innermost reduced dimension). A single
/// fold keeps every reduction a row kernel that Tile IR lowers; the order of
/// combination changes as it does under any reduction schedule.
static FailureOr<Value>
buildFold(OpBuilder &b, Location loc, xl::CombineKind kind, Type type,
          ArrayRef<OpFoldResult> mixedExtents,
          function_ref<Value(ArrayRef<Value>)> element) {
  Value init = identity(b, loc, kind, type);
  // A fold over one dynamic size runs to it.
  SmallVector<int64_t> extents;
  for (OpFoldResult e : mixedExtents) {
    if (auto attr = dyn_cast<Attribute>(e)) {
      extents.push_back(cast<IntegerAttr>(attr).getInt());
      continue;
    }
    if (mixedExtents.size() != 1)
      return emitError(loc, "a reduction over several dimensions that "
                            "include a dynamic one is not lowered to Loop IR "
                            "yet");
    auto fold = xl::FoldOp::create(b, loc, 0, e, kind, init);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&fold.getBodyBlock());
    Value k = fold.getInductionVar();
    xl::YieldOp::create(b, loc, ValueRange{element({k})});
    return fold.getResult();
  }
  int64_t total = 1;
  for (int64_t e : extents)
    total *= e;
  if (total == 0) // a reduction over nothing is its identity
    return init;
  auto fold = xl::FoldOp::create(b, loc, 0, total, kind, init);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&fold.getBodyBlock());
  Value k = fold.getInductionVar();
  SmallVector<Value> ivs;
  if (extents.size() == 1) {
    ivs.push_back(k);
  } else {
    AffineExpr d0 = b.getAffineDimExpr(0);
    int64_t stride = total;
    for (int64_t e : extents) {
      stride = e ? stride / e : 0;
      AffineExpr coordinate = stride ? d0.floorDiv(stride) % e : d0;
      ivs.push_back(affine::AffineApplyOp::create(
          b, loc, AffineMap::get(1, 0, coordinate), ValueRange{k}));
    }
  }
  xl::YieldOp::create(b, loc, ValueRange{element(ivs)});
  return fold.getResult();
}

//===----------------------------------------------------------------------===//
// The element of each op's result at the kernel's `ivs`
//===----------------------------------------------------------------------===//

/// An elementwise unary op: the scalar op on the operand's element.
static FailureOr<Value> unaryElement(Operation *op, ElementBuilder &e,
                                     ArrayRef<Value> ivs) {
  return unaryScalar(e.b, e.loc, op, e.load(0, ivs));
}

/// An elementwise binary op (a comparison included).
static FailureOr<Value> binaryElement(Operation *op, ElementBuilder &e,
                                      ArrayRef<Value> ivs) {
  Value x = e.load(0, ivs), y = e.load(1, ivs);
  return binaryScalar(e.b, e.loc, op, x, y);
}

static FailureOr<Value> elementOf(xt::ConstantOp c, ElementBuilder &e,
                                  ArrayRef<Value> ivs) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  return Value(arith::ConstantOp::create(
      b, loc,
      cast<TypedAttr>(
          cast<SplatElementsAttr>(c.getValue()).getSplatValue<Attribute>())));
}

static FailureOr<Value> elementOf(xt::SelectOp op, ElementBuilder &e,
                                  ArrayRef<Value> ivs) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  return Value(arith::SelectOp::create(b, loc, e.load(0, ivs), e.load(1, ivs),
                                       e.load(2, ivs)));
}

static FailureOr<Value> elementOf(xt::CastOp op, ElementBuilder &e,
                                  ArrayRef<Value> ivs) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  auto resultType = cast<RankedTensorType>(op.getType());
  Type elementType = resultType.getElementType();
  return castScalar(b, loc, e.load(0, ivs), elementType);
}

static FailureOr<Value> elementOf(xt::IotaOp iota, ElementBuilder &e,
                                  ArrayRef<Value> ivs) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  auto resultType = cast<RankedTensorType>(iota.getType());
  Type elementType = resultType.getElementType();
  Value i = ivs[iota.getDim()];
  if (isFloat(elementType))
    return Value(arith::SIToFPOp::create(
        b, loc, elementType,
        arith::IndexCastOp::create(b, loc, b.getI64Type(), i)));
  return Value(arith::IndexCastOp::create(b, loc, elementType, i));
}

static FailureOr<Value> elementOf(xt::ReduceOp reduce, ElementBuilder &e,
                                  ArrayRef<Value> ivs) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  auto resultType = cast<RankedTensorType>(reduce.getType());
  Type elementType = resultType.getElementType();
  auto inType = cast<RankedTensorType>(reduce.getInput().getType());
  ArrayRef<int64_t> dims = reduce.getDims();
  SmallVector<OpFoldResult> extents;
  for (int64_t d : dims)
    extents.push_back(e.extent(inType, d));
  xl::CombineKind kind = combineOf(reduce.getKind());
  bool widen = kind == xl::CombineKind::add || kind == xl::CombineKind::mul;
  Type acc = widen ? accumulatorType(elementType) : elementType;
  FailureOr<Value> r =
      buildFold(b, loc, kind, acc, extents, [&](ArrayRef<Value> rivs) {
        SmallVector<Value> idx;
        unsigned next = 0, reduced = 0;
        for (int64_t d = 0; d < inType.getRank(); ++d) {
          if (llvm::is_contained(dims, d)) {
            idx.push_back(rivs[reduced++]);
            if (reduce.getKeepdim())
              ++next;
          } else {
            idx.push_back(ivs[next++]);
          }
        }
        Value v = e.load(0, idx);
        return acc == elementType ? v : convertFloat(b, loc, v, acc);
      });
  if (failed(r))
    return failure();
  return acc == elementType ? *r : convertFloat(b, loc, *r, elementType);
}

static FailureOr<Value> elementOf(xt::MatmulOp mm, ElementBuilder &e,
                                  ArrayRef<Value> ivs) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  auto resultType = cast<RankedTensorType>(mm.getType());
  Type elementType = resultType.getElementType();
  auto lhsType = cast<RankedTensorType>(mm.getLhs().getType());
  int64_t rank = lhsType.getRank();
  Type acc = accumulatorType(elementType);
  FailureOr<Value> r =
      buildFold(b, loc, xl::CombineKind::add, acc,
                {e.extent(lhsType, rank - 1)}, [&](ArrayRef<Value> k) {
                  SmallVector<Value> a(ivs.drop_back()), c(ivs.drop_back(2));
                  a.push_back(k[0]);
                  c.push_back(k[0]);
                  c.push_back(ivs.back());
                  Value x = e.load(0, a), y = e.load(1, c);
                  if (isFloat(acc)) {
                    x = convertFloat(b, loc, x, acc);
                    y = convertFloat(b, loc, y, acc);
                    return Value(arith::MulFOp::create(b, loc, x, y));
                  }
                  return Value(arith::MulIOp::create(b, loc, x, y));
                });
  if (failed(r))
    return failure();
  return acc == elementType ? *r : convertFloat(b, loc, *r, elementType);
}

static FailureOr<Value> elementOf(xt::TransposeOp t, ElementBuilder &e,
                                  ArrayRef<Value> ivs) {
  SmallVector<Value> idx(ivs.size());
  for (auto [i, p] : llvm::enumerate(t.getPerm()))
    idx[p] = ivs[i];
  return e.load(0, idx);
}

static FailureOr<Value> elementOf(xt::BroadcastOp bc, ElementBuilder &e,
                                  ArrayRef<Value> ivs) {
  auto resultType = cast<RankedTensorType>(bc.getType());
  auto inType = cast<RankedTensorType>(bc.getInput().getType());
  int64_t offset = resultType.getRank() - inType.getRank();
  // A size-1 dimension that the broadcast expands is read at 0; one that
  // stays size 1 is read at its own iv (0 too), so that fusion sees the
  // same index as the producer's store (a decode step's [1, 1, d] rows).
  SmallVector<Value> idx;
  for (int64_t d = 0; d < inType.getRank(); ++d)
    idx.push_back(inType.getDimSize(d) == 1 &&
                          resultType.getDimSize(d + offset) != 1
                      ? e.index(0)
                      : ivs[d + offset]);
  return e.load(0, idx);
}

static FailureOr<Value> elementOf(xt::ReshapeOp r, ElementBuilder &e,
                                  ArrayRef<Value> ivs) {
  OpBuilder &b = e.b;
  auto resultType = cast<RankedTensorType>(r.getType());
  auto inType = cast<RankedTensorType>(r.getInput().getType());
  // Tensor IR keeps each dynamic dimension whole and in order through
  // a reshape, so the dimensions split into segments between them
  // whose static sizes have equal products: a dynamic dimension of
  // the operand is read at the iv of the result's, and within each
  // segment the row-major linear index of the result element gives
  // the operand's coordinates.
  MLIRContext *ctx = b.getContext();
  auto dynamicDims = [](RankedTensorType t) {
    SmallVector<int64_t> out;
    for (int64_t d = 0; d < t.getRank(); ++d)
      if (t.isDynamicDim(d))
        out.push_back(d);
    out.push_back(t.getRank()); // the end of the last segment
    return out;
  };
  SmallVector<int64_t> inCuts = dynamicDims(inType),
                       outCuts = dynamicDims(resultType);
  // The dynamic sizes in order, each with the product of the static sizes
  // before it, and the product after the last: equal for a reshape that
  // keeps each dynamic size whole.
  auto segments = [](RankedTensorType t) {
    SmallVector<std::pair<int64_t, StringAttr>> out;
    int64_t count = 1;
    for (const Dim &dim : xt::getDims(t)) {
      if (dim.isDynamic()) {
        out.push_back({count, dim.symbol});
        count = 1;
      } else {
        count *= dim.size;
      }
    }
    out.push_back({count, StringAttr()});
    return out;
  };
  if (segments(inType) != segments(resultType)) {
    // A dynamic size merged or split (`[B, T, d]` -> `[B*T, d]`): the
    // row-major linear index of the result element, with strides that are
    // products of the sizes, gives the operand's coordinates.
    Location loc = e.loc;
    int64_t outRank = resultType.getRank(), inRank = inType.getRank();
    Value linear = outRank ? ivs[outRank - 1] : e.index(0);
    Value stride;
    for (int64_t d = outRank - 2; d >= 0; --d) {
      Value size = e.extentValue(resultType, d + 1);
      stride = stride ? Value(arith::MulIOp::create(b, loc, stride, size))
                      : size;
      Value term = arith::MulIOp::create(b, loc, ivs[d], stride);
      linear = arith::AddIOp::create(b, loc, linear, term);
    }
    SmallVector<Value> idx(inRank);
    for (int64_t d = inRank - 1; d > 0; --d) {
      Value size = e.extentValue(inType, d);
      idx[d] = arith::RemSIOp::create(b, loc, linear, size);
      linear = arith::DivSIOp::create(b, loc, linear, size);
    }
    if (inRank)
      idx[0] = linear;
    return e.load(0, idx);
  }
  SmallVector<Value> idx(inType.getRank());
  int64_t inStart = 0, outStart = 0;
  for (auto [inEnd, outEnd] : llvm::zip(inCuts, outCuts)) {
    AffineExpr linear = getAffineConstantExpr(0, ctx);
    int64_t stride = 1;
    for (int64_t d = outEnd - 1; d >= outStart; --d) {
      linear = linear + getAffineDimExpr(d, ctx) * stride;
      stride *= resultType.getDimSize(d);
    }
    stride = 1;
    for (int64_t d = inEnd - 1; d >= inStart; --d) {
      idx[d] = e.apply(linear.floorDiv(stride) % inType.getDimSize(d), ivs);
      stride *= inType.getDimSize(d);
    }
    if (inEnd < inType.getRank())
      idx[inEnd] = ivs[outEnd];
    inStart = inEnd + 1;
    outStart = outEnd + 1;
  }
  return e.load(0, idx);
}

static FailureOr<Value> elementOf(xt::SliceOp s, ElementBuilder &e,
                                  ArrayRef<Value> ivs) {
  OpBuilder &b = e.b;
  SmallVector<Value> idx;
  MLIRContext *ctx = b.getContext();
  for (auto [d, iv] : llvm::enumerate(ivs)) {
    int64_t start = s.getStarts()[d], stride = s.getStrides()[d];
    if (start == 0 && stride == 1)
      idx.push_back(iv);
    else
      idx.push_back(e.apply(getAffineDimExpr(0, ctx) * stride + start, iv));
  }
  return e.load(0, idx);
}

static FailureOr<Value> elementOf(xt::PadOp p, ElementBuilder &e,
                                  ArrayRef<Value> ivs) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  auto inType = cast<RankedTensorType>(p.getInput().getType());
  MLIRContext *ctx = b.getContext();
  SmallVector<Value> idx;
  Value inside;
  for (auto [d, iv] : llvm::enumerate(ivs)) {
    int64_t low = p.getLow()[d], high = p.getHigh()[d];
    if (low == 0 && high == 0) {
      idx.push_back(iv);
      continue;
    }
    Value shifted = e.apply(getAffineDimExpr(0, ctx) - low, iv);
    Value ge = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, shifted,
                                     e.index(0));
    Value size = e.extentValue(inType, d);
    Value lt = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, shifted,
                                     size);
    Value ok = arith::AndIOp::create(b, loc, ge, lt);
    inside = inside ? Value(arith::AndIOp::create(b, loc, inside, ok)) : ok;
    idx.push_back(inType.isDynamicDim(d) ? e.clamp(shifted, size)
                                         : e.clamp(shifted, inType.getDimSize(d)));
  }
  Value v = e.load(0, idx);
  if (!inside)
    return v;
  Value pad = arith::ConstantOp::create(b, loc, p.getValue());
  return Value(arith::SelectOp::create(b, loc, inside, v, pad));
}

static FailureOr<Value> elementOf(xt::ConcatOp c, ElementBuilder &e,
                                  ArrayRef<Value> ivs) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  int64_t dim = c.getDim();
  MLIRContext *ctx = b.getContext();
  // Each operand's offset along `dim`: a number, or (after a dynamic
  // size) the sum of the sizes before it as a value.
  SmallVector<Value> offsets;
  SmallVector<Value> values;
  int64_t offset = 0;
  Value dynamicOffset;
  for (auto [k, input] : llvm::enumerate(c.getInputs())) {
    auto type = cast<RankedTensorType>(input.getType());
    SmallVector<Value> idx(ivs);
    if (!dynamicOffset && !type.isDynamicDim(dim)) {
      int64_t size = type.getDimSize(dim);
      idx[dim] =
          e.clamp(e.apply(getAffineDimExpr(0, ctx) - offset, ivs[dim]), size);
      offsets.push_back(e.index(offset));
      offset += size;
    } else {
      Value at = dynamicOffset ? dynamicOffset : e.index(offset);
      Value size = e.extentValue(type, dim);
      idx[dim] = e.clamp(arith::SubIOp::create(b, loc, ivs[dim], at), size);
      offsets.push_back(at);
      dynamicOffset = arith::AddIOp::create(b, loc, at, size);
    }
    values.push_back(e.load(k, idx));
  }
  Value result = values.back();
  for (int64_t k = static_cast<int64_t>(values.size()) - 2; k >= 0; --k) {
    Value before = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                         ivs[dim], offsets[k + 1]);
    result = arith::SelectOp::create(b, loc, before, values[k], result);
  }
  return result;
}

static FailureOr<Value> elementOf(xt::GatherOp g, ElementBuilder &e,
                                  ArrayRef<Value> ivs) {
  OpBuilder &b = e.b;
  Location loc = e.loc;
  int64_t axis = g.getAxis();
  int64_t idxRank = cast<RankedTensorType>(g.getIndices().getType()).getRank();
  Value i = e.load(1, ivs.slice(axis, idxRank));
  Value at = arith::IndexCastOp::create(b, loc, b.getIndexType(), i);
  SmallVector<Value> idx(ivs.take_front(axis));
  idx.push_back(at);
  llvm::append_range(idx, ivs.drop_front(axis + idxRank));
  return e.load(0, idx);
}

/// A splat constant that a function returns is written by a kernel of its
/// own (a fill): the program's outputs are buffers that kernels write.
static bool isReturnedSplat(Operation *op) {
  auto constant = dyn_cast<xt::ConstantOp>(op);
  if (!constant || !isa<SplatElementsAttr>(constant.getValue()) ||
      cast<RankedTensorType>(constant.getType()).getNumElements() == 0)
    return false;
  return llvm::any_of(op->getUsers(), [](Operation *user) {
    return isa<func::ReturnOp>(user);
  });
}

/// Replaces a constant by an arith.constant tensor (its consumers' kernels
/// take it as an input, or inline it as a scalar when it is a splat).
struct ConstantLowering : OpConversionPattern<xt::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(xt::ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (isReturnedSplat(op))
      return failure();
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, op.getValue());
    return success();
  }
};

/// The element of an op's result at the kernel's induction variables.
using ElementFn =
    function_ref<FailureOr<Value>(ElementBuilder &, ArrayRef<Value>)>;

/// The body of a kernel's innermost loop: what it stores into `output`
/// at the loops' induction variables.
using BodyFn = function_ref<LogicalResult(ElementBuilder &, ArrayRef<Value>,
                                          Value output)>;

/// A kernel for `op` (named after it and `suffix`) with a nest of parallel
/// loops over `loopType` filled by `body`, over the buffers of `inputs`
/// (Tensor IR values, `converted` their converted values; splat constants
/// become scalars in the kernel) and one output of `resultType`, and its
/// launch, created before `op`.
static FailureOr<xl::LaunchOp>
buildKernel(Operation *op, ValueRange inputs, ValueRange converted,
            RankedTensorType resultType, RankedTensorType loopType,
            StringRef suffix, ConversionPatternRewriter &rewriter,
            SymbolTable &symbols, BodyFn body) {
  auto func = op->getParentOfType<func::FuncOp>();
  if (!func)
    return op->emitOpError("must be inside a func.func to be lowered");
  Location loc = op->getLoc();

  // Buffers: one per operand that is not a splat constant (those become
  // scalars inside the kernel), then the output.
  SmallVector<Value> launchInputs;
  SmallVector<Type> bufferTypes;
  SmallVector<int> bufferOf(inputs.size(), -1);
  for (auto [i, operand] : llvm::enumerate(inputs)) {
    if (matchPattern(operand, m_Constant<SplatElementsAttr>(nullptr)))
      continue;
    auto it = llvm::find(launchInputs, converted[i]);
    if (it != launchInputs.end()) {
      bufferOf[i] = it - launchInputs.begin();
      continue;
    }
    bufferOf[i] = launchInputs.size();
    launchInputs.push_back(converted[i]);
    auto t = cast<RankedTensorType>(operand.getType());
    bufferTypes.push_back(MemRefType::get(t.getShape(), t.getElementType()));
  }
  int64_t numInputs = launchInputs.size();
  bufferTypes.push_back(
      MemRefType::get(resultType.getShape(), resultType.getElementType()));

  // The dynamic sizes: one size argument per symbol, in order of first
  // appearance in the buffers; each `?` of a buffer names its symbol's.
  SmallVector<StringAttr> names;
  SmallVector<int64_t> bufferDims;
  SmallVector<Type> tensorTypes;
  for (Value v : launchInputs)
    tensorTypes.push_back(v.getType());
  tensorTypes.push_back(resultType);
  for (Type t : tensorTypes)
    for (StringAttr symbol : xt::getSymbols(t)) {
      auto it = llvm::find(names, symbol);
      bufferDims.push_back(it - names.begin());
      if (it == names.end())
        names.push_back(symbol);
    }
  for (StringAttr symbol : xt::getSymbols(loopType))
    if (!llvm::is_contained(names, symbol))
      return op->emitOpError()
             << "runs over the dynamic size '" << symbol.getValue()
             << "', which none of its buffers has";
  SmallVector<int64_t> ranges, hints;
  for (StringAttr name : names) {
    auto declared = xt::getDeclaredSymbol(func, name.getValue());
    if (!declared)
      return op->emitOpError() << "has the dynamic size '" << name.getValue()
                               << "', which its function does not declare";
    ranges.append({declared->min, declared->max});
    hints.push_back(xl::defaultSizeHint(declared->min, declared->max));
  }

  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(func);
  auto kernel = xl::KernelOp::create(
      rewriter, loc,
      (func.getName() + "_" + op->getName().stripDialect() + suffix).str(),
      numInputs);
  symbols.insert(kernel);
  Block *block = rewriter.createBlock(&kernel.getBody());
  for (Type t : bufferTypes)
    block->addArgument(t, loc);
  DenseMap<StringAttr, Value> sizes;
  if (!names.empty()) {
    kernel.setNumSizes(names.size());
    kernel.setSizeRanges(ranges);
    kernel.setSizeHints(hints);
    kernel.setBufferDims(bufferDims);
    for (StringAttr name : names)
      sizes[name] = block->addArgument(rewriter.getIndexType(), loc);
  }

  SmallVector<Value> buffers(inputs.size());
  for (auto [i, b] : llvm::enumerate(bufferOf))
    if (b >= 0)
      buffers[i] = block->getArgument(b);

  SmallVector<Value> ivs;
  rewriter.setInsertionPointToStart(block);
  ElementBuilder builder(rewriter, loc, inputs, buffers, sizes);
  for (int64_t d = 0; d < loopType.getRank(); ++d) {
    auto loop =
        xl::ParallelOp::create(rewriter, loc, 0, builder.extent(loopType, d));
    ivs.push_back(loop.getInductionVar());
    rewriter.setInsertionPointToStart(&loop.getBodyBlock());
  }
  if (failed(body(builder, ivs, block->getArgument(bufferTypes.size() - 1))))
    return failure();

  rewriter.setInsertionPoint(op);
  SmallVector<StringRef> launchSizes;
  for (StringAttr name : names)
    launchSizes.push_back(name.getValue());
  auto launch = xl::LaunchOp::create(rewriter, loc, TypeRange{resultType},
                                     kernel.getSymName(), launchInputs);
  launch.setSizesAttr(rewriter.getStrArrayAttr(launchSizes));
  return launch;
}

/// Whether `type` has no elements (known without running anything: a
/// dynamic size is at least 1).
static bool isEmptyTensor(RankedTensorType type) {
  return llvm::is_contained(type.getShape(), 0);
}

/// Lowers `op` (its operands converted to `operands`) to a kernel of its
/// own, a nest of parallel loops over its result whose body stores the
/// element `elementAt` computes, and a launch of it.
static LogicalResult lowerToKernel(Operation *op, ValueRange operands,
                                   ConversionPatternRewriter &rewriter,
                                   SymbolTable &symbols, ElementFn elementAt) {
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  if (isEmptyTensor(resultType)) {
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, DenseElementsAttr::get(resultType, ArrayRef<Attribute>{}));
    return success();
  }
  FailureOr<xl::LaunchOp> launch = buildKernel(
      op, op->getOperands(), operands, resultType, resultType, "", rewriter,
      symbols, [&](ElementBuilder &e, ArrayRef<Value> ivs, Value output) {
        FailureOr<Value> element = elementAt(e, ivs);
        if (failed(element))
          return failure();
        xl::StoreOp::create(e.b, e.loc, *element, output, ivs);
        return success();
      });
  if (failed(launch))
    return failure();
  rewriter.replaceOp(op, launch->getResults());
  return success();
}

/// `xtensor.scatter_add` as two kernels: one writes `dest` into the
/// result (a fill where it is a splat), and one, over the source, adds
/// each element into the result in place (`updates`) with an accumulating
/// store, its index along the axis read from `indices`.
struct ScatterAddLowering : OpConversionPattern<xt::ScatterAddOp> {
  ScatterAddLowering(MLIRContext *ctx, SymbolTable &symbols)
      : OpConversionPattern(ctx), symbols(symbols) {}

  LogicalResult
  matchAndRewrite(xt::ScatterAddOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op.getType());
    auto sourceType = cast<RankedTensorType>(op.getSource().getType());
    if (isEmptyTensor(resultType)) {
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, DenseElementsAttr::get(resultType, ArrayRef<Attribute>{}));
      return success();
    }
    // A destination that is another scatter-add's result, read by nothing
    // else (a chain of adds into one buffer: grid_sample's taps), is
    // added into where it is; any other is copied first (a fill).
    Value dest = adaptor.getDest();
    if (!op.getDest().getDefiningOp<xt::ScatterAddOp>() ||
        !op.getDest().hasOneUse() || isEmptyTensor(sourceType)) {
      FailureOr<xl::LaunchOp> init = buildKernel(
          op, op.getDest(), adaptor.getDest(), resultType, resultType,
          "_init", rewriter, symbols,
          [&](ElementBuilder &e, ArrayRef<Value> ivs, Value output) {
            xl::StoreOp::create(e.b, e.loc, e.load(0, ivs), output, ivs);
            return success();
          });
      if (failed(init))
        return failure();
      if (isEmptyTensor(sourceType)) {
        rewriter.replaceOp(op, init->getResults());
        return success();
      }
      dest = init->getResult(0);
    }
    int64_t axis = op.getAxis();
    int64_t k = cast<RankedTensorType>(op.getIndices().getType()).getRank();
    SmallVector<Value> inputs{dest, op.getIndices(), op.getSource()};
    SmallVector<Value> converted{dest, adaptor.getIndices(),
                                 adaptor.getSource()};
    FailureOr<xl::LaunchOp> add = buildKernel(
        op, inputs, converted, resultType, sourceType, "", rewriter, symbols,
        [&](ElementBuilder &e, ArrayRef<Value> ivs, Value output) {
          Value i = e.load(1, ivs.slice(axis, k));
          Value at = arith::IndexCastOp::create(e.b, e.loc,
                                                e.b.getIndexType(), i);
          SmallVector<Value> idx(ivs.take_front(axis));
          idx.push_back(at);
          llvm::append_range(idx, ivs.drop_front(axis + k));
          auto store = xl::StoreOp::create(e.b, e.loc, e.load(2, ivs),
                                           output, idx);
          store.setAccumulate(true);
          return success();
        });
    if (failed(add))
      return failure();
    // The result is the filled (or previous) buffer, operand #0 of the
    // launch.
    add->setUpdates(ArrayRef<int64_t>{0});
    rewriter.replaceOp(op, add->getResults());
    return success();
  }

  SymbolTable &symbols;
};

/// An xtensor op lowered to a kernel of its own, its element given by
/// `Element`: one pattern per op.
template <typename OpTy, auto Element>
struct ToKernel : OpConversionPattern<OpTy> {
  ToKernel(MLIRContext *ctx, SymbolTable &symbols)
      : OpConversionPattern<OpTy>(ctx), symbols(symbols) {}

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // Only a splat constant that a function returns needs a kernel (see
    // ConstantLowering).
    if constexpr (std::is_same_v<OpTy, xt::ConstantOp>)
      if (!isReturnedSplat(op))
        return failure();
    return lowerToKernel(op, adaptor.getOperands(), rewriter, symbols,
                         [&](ElementBuilder &e, ArrayRef<Value> ivs) {
                           return Element(op, e, ivs);
                         });
  }

  SymbolTable &symbols;
};

/// The errors of the xtensor ops no pattern lowers: composites (which
/// --xtensor-decompose rewrites) and any other.
struct Unlowered : ConversionPattern {
  Unlowered(MLIRContext *ctx, DenseSet<TypeID> lowered)
      : ConversionPattern(MatchAnyOpTypeTag(), /*benefit=*/0, ctx),
        lowered(std::move(lowered)) {}

  LogicalResult matchAndRewrite(Operation *op, ArrayRef<Value>,
                                ConversionPatternRewriter &) const override {
    if (!isa<xt::XTensorDialect>(op->getDialect()) ||
        lowered.contains(op->getName().getTypeID()))
      return failure();
    if (xt::isCompositeOp(op))
      return op->emitOpError(
          "is a composite op: run --xtensor-decompose before lowering");
    return op->emitOpError("has no lowering to Loop IR");
  }

  DenseSet<TypeID> lowered;
};

struct ConvertXTensorToXLoopPass
    : xtile::impl::ConvertXTensorToXLoopBase<ConvertXTensorToXLoopPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    // A clear error for composites, before the conversion reports them as
    // merely illegal.
    WalkResult composites = module.walk([](Operation *op) {
      if (xt::isCompositeOp(op)) {
        op->emitOpError("is a composite op: run --xtensor-decompose before "
                        "--convert-xtensor-to-xloop");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (composites.wasInterrupted())
      return signalPassFailure();
    // Folds run over one dynamic size at most (before the conversion, which
    // would report the op as merely illegal).
    WalkResult reductions = module.walk([](xt::ReduceOp reduce) {
      auto type = cast<RankedTensorType>(reduce.getInput().getType());
      ArrayRef<int64_t> dims = reduce.getDims();
      if (dims.size() > 1 && llvm::any_of(dims, [&](int64_t d) {
            return type.isDynamicDim(d);
          })) {
        reduce.emitOpError("is a reduction over several dimensions that "
                           "include a dynamic one, which is not lowered to "
                           "Loop IR yet");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (reductions.wasInterrupted())
      return signalPassFailure();
    SymbolTable symbols(module);
    ConversionTarget target(*ctx);
    target.addIllegalDialect<xt::XTensorDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    RewritePatternSet patterns(ctx);
    populateTensorToLoopPatterns(patterns, symbols);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    // Splat constants that every user took as a scalar are dead now.
    module.walk([](arith::ConstantOp constant) {
      if (constant->use_empty() && isa<TensorType>(constant.getType()))
        constant.erase();
    });
  }
};

} // namespace

namespace {
/// Adds a ToKernel pattern for each of `OpTys`, whose elements `Element`
/// computes, and records that they are lowered.
template <auto Element, typename... OpTys>
void addKernels(RewritePatternSet &patterns, SymbolTable &symbols,
                DenseSet<TypeID> &lowered) {
  (patterns.add<ToKernel<OpTys, Element>>(patterns.getContext(), symbols), ...);
  (lowered.insert(TypeID::get<OpTys>()), ...);
}

template <typename OpTy>
FailureOr<Value> opElement(OpTy op, ElementBuilder &e, ArrayRef<Value> ivs) {
  return elementOf(op, e, ivs);
}
template <typename OpTy>
FailureOr<Value> unaryOpElement(OpTy op, ElementBuilder &e,
                                ArrayRef<Value> ivs) {
  return unaryElement(op, e, ivs);
}
template <typename OpTy>
FailureOr<Value> binaryOpElement(OpTy op, ElementBuilder &e,
                                 ArrayRef<Value> ivs) {
  return binaryElement(op, e, ivs);
}

template <typename... OpTys>
void addUnary(RewritePatternSet &patterns, SymbolTable &symbols,
              DenseSet<TypeID> &lowered) {
  (addKernels<unaryOpElement<OpTys>, OpTys>(patterns, symbols, lowered), ...);
}
template <typename... OpTys>
void addBinary(RewritePatternSet &patterns, SymbolTable &symbols,
               DenseSet<TypeID> &lowered) {
  (addKernels<binaryOpElement<OpTys>, OpTys>(patterns, symbols, lowered), ...);
}
template <typename... OpTys>
void addOthers(RewritePatternSet &patterns, SymbolTable &symbols,
               DenseSet<TypeID> &lowered) {
  (addKernels<opElement<OpTys>, OpTys>(patterns, symbols, lowered), ...);
}
} // namespace

void xtile::populateTensorToLoopPatterns(RewritePatternSet &patterns,
                                         SymbolTable &symbols) {
  patterns.add<ConstantLowering>(patterns.getContext());
  DenseSet<TypeID> lowered;
  addUnary<xt::NegOp, xt::AbsOp, xt::ExpOp, xt::Exp2Op, xt::LogOp, xt::Log2Op,
           xt::SqrtOp, xt::RsqrtOp, xt::SinOp, xt::CosOp, xt::TanhOp, xt::ErfOp,
           xt::ErfcOp, xt::FloorOp, xt::CeilOp, xt::ReciprocalOp, xt::SigmoidOp,
           xt::NotOp>(
      patterns, symbols, lowered);
  addBinary<xt::AddOp, xt::SubOp, xt::MulOp, xt::DivOp, xt::RemOp, xt::PowOp,
            xt::MaxOp, xt::MinOp, xt::AndOp, xt::OrOp, xt::XorOp, xt::CmpOp>(
      patterns, symbols, lowered);
  addOthers<xt::ConstantOp, xt::SelectOp, xt::CastOp, xt::IotaOp, xt::ReduceOp,
            xt::MatmulOp, xt::TransposeOp, xt::BroadcastOp, xt::ReshapeOp,
            xt::SliceOp, xt::PadOp, xt::ConcatOp, xt::GatherOp>(
      patterns, symbols, lowered);
  patterns.add<ScatterAddLowering>(patterns.getContext(), symbols);
  lowered.insert(TypeID::get<xt::ScatterAddOp>());
  patterns.add<Unlowered>(patterns.getContext(), std::move(lowered));
}
