//===- KeyWindow.cpp - the keys an attention row can see -------------------===//
//
// Finds, from the score an online fold yields, the range of key - row
// outside which every score is -inf: a causal mask bounds it above, a
// sliding window below. Masks are selects of -inf on index comparisons
// (or on conjunctions of them with other conditions), or their additive
// form (x + (visible ? 0 : -inf)), anywhere in a chain of such masks and
// casts.
//
//===----------------------------------------------------------------------===//

#include "xtile/Conversion/LoopToTile/KernelFacts.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace xtile;
namespace xl = xtile::loop;

namespace {
/// An integer as a linear combination of the key and query indices and a
/// constant.
struct Linear {
  int64_t key = 0, row = 0, constant = 0;
};

std::optional<Linear> linearIn(Value v, Value key, Value row) {
  if (v == key)
    return Linear{1, 0, 0};
  if (v == row)
    return Linear{0, 1, 0};
  APInt value;
  if (matchPattern(v, m_ConstantInt(&value)))
    return Linear{0, 0, value.getSExtValue()};
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (isa<arith::IndexCastOp, arith::ExtSIOp>(def))
    return linearIn(def->getOperand(0), key, row);
  if (isa<arith::AddIOp, arith::SubIOp>(def)) {
    std::optional<Linear> x = linearIn(def->getOperand(0), key, row);
    std::optional<Linear> y = linearIn(def->getOperand(1), key, row);
    if (!x || !y)
      return std::nullopt;
    int64_t sign = isa<arith::AddIOp>(def) ? 1 : -1;
    return Linear{x->key + sign * y->key, x->row + sign * y->row,
                  x->constant + sign * y->constant};
  }
  if (auto apply = dyn_cast<affine::AffineApplyOp>(def)) {
    // d_i + c only.
    AffineExpr e = apply.getAffineMap().getResult(0);
    int64_t c = 0;
    if (auto bin = dyn_cast<AffineBinaryOpExpr>(e);
        bin && e.getKind() == AffineExprKind::Add)
      if (auto k = dyn_cast<AffineConstantExpr>(bin.getRHS())) {
        c = k.getValue();
        e = bin.getLHS();
      }
    auto d = dyn_cast<AffineDimExpr>(e);
    if (!d)
      return std::nullopt;
    std::optional<Linear> x =
        linearIn(apply.getOperands()[d.getPosition()], key, row);
    if (!x)
      return std::nullopt;
    x->constant += c;
    return x;
  }
  return std::nullopt;
}

/// A float constant, through casts between float types (a bf16 -inf
/// widened to f32 is still -inf, a zero still zero).
Value throughFloatCasts(Value v) {
  while (isa_and_nonnull<arith::ExtFOp, arith::TruncFOp>(v.getDefiningOp()))
    v = v.getDefiningOp()->getOperand(0);
  return v;
}

bool isMinusInfinity(Value v) {
  v = throughFloatCasts(v);
  FloatAttr attr;
  return matchPattern(v, m_Constant(&attr)) && attr.getValue().isInfinity() &&
         attr.getValue().isNegative();
}

bool isZeroFloat(Value v) {
  v = throughFloatCasts(v);
  FloatAttr attr;
  return matchPattern(v, m_Constant(&attr)) && attr.getValue().isZero();
}

KeyWindow intersect(KeyWindow a, const KeyWindow &b) {
  if (b.lower)
    a.lower = a.lower ? std::max(*a.lower, *b.lower) : *b.lower;
  if (b.upper)
    a.upper = a.upper ? std::min(*a.upper, *b.upper) : *b.upper;
  return a;
}

/// Where `cond` (or its negation) holds, as a half-line of t = key - row:
/// t <= x or t >= x; unbounded when `cond` is not such a comparison.
KeyWindow halfLine(Value cond, Value key, Value row, bool negated) {
  // Both of a conjunction hold (a causal mask and a packed sequence's);
  // neither of a disjunction.
  Operation *def = cond.getDefiningOp();
  if ((isa_and_nonnull<arith::AndIOp>(def) && !negated) ||
      (isa_and_nonnull<arith::OrIOp>(def) && negated))
    return intersect(halfLine(def->getOperand(0), key, row, negated),
                     halfLine(def->getOperand(1), key, row, negated));
  auto cmp = cond.getDefiningOp<arith::CmpIOp>();
  if (!cmp)
    return {};
  std::optional<Linear> l = linearIn(cmp.getLhs(), key, row);
  std::optional<Linear> r = linearIn(cmp.getRhs(), key, row);
  if (!l || !r)
    return {};
  // lhs - rhs = s t + c.
  Linear d{l->key - r->key, l->row - r->row, l->constant - r->constant};
  if (d.key != -d.row || (d.key != 1 && d.key != -1))
    return {};
  int64_t s = d.key, c = d.constant;
  KeyWindow w;
  using P = arith::CmpIPredicate;
  switch (cmp.getPredicate()) {
  case P::sle: // s t + c <= 0
    s == 1 ? w.upper = -c : w.lower = c;
    break;
  case P::slt: // s t + c < 0
    s == 1 ? w.upper = -c - 1 : w.lower = c + 1;
    break;
  case P::sge: // s t + c >= 0
    s == 1 ? w.lower = -c : w.upper = c;
    break;
  case P::sgt: // s t + c > 0
    s == 1 ? w.lower = -c + 1 : w.upper = c - 1;
    break;
  default:
    return {};
  }
  if (!negated)
    return w;
  // Not (t <= x) is t >= x + 1; not (t >= x) is t <= x - 1.
  KeyWindow n;
  if (w.upper)
    n.lower = *w.upper + 1;
  if (w.lower)
    n.upper = *w.lower - 1;
  return n;
}

KeyWindow visible(Value score, Value key, Value row) {
  Operation *def = score.getDefiningOp();
  if (auto select = dyn_cast_or_null<arith::SelectOp>(def)) {
    // The score kept where the condition holds (or fails), -inf elsewhere.
    if (isMinusInfinity(select.getFalseValue()))
      return intersect(halfLine(select.getCondition(), key, row, false),
                       visible(select.getTrueValue(), key, row));
    if (isMinusInfinity(select.getTrueValue()))
      return intersect(halfLine(select.getCondition(), key, row, true),
                       visible(select.getFalseValue(), key, row));
    return {};
  }
  if (auto add = dyn_cast_or_null<arith::AddFOp>(def)) {
    // x + (visible ? 0 : -inf): -inf wherever either operand is.
    KeyWindow w;
    for (Value operand : {add.getLhs(), add.getRhs()}) {
      auto select = operand.getDefiningOp<arith::SelectOp>();
      if (select && isMinusInfinity(select.getFalseValue()) &&
          isZeroFloat(select.getTrueValue()))
        w = intersect(w, halfLine(select.getCondition(), key, row, false));
      else if (select && isMinusInfinity(select.getTrueValue()) &&
               isZeroFloat(select.getFalseValue()))
        w = intersect(w, halfLine(select.getCondition(), key, row, true));
      else
        w = intersect(w, visible(operand, key, row));
    }
    return w;
  }
  if (isa_and_nonnull<arith::ExtFOp, arith::TruncFOp>(def))
    return visible(def->getOperand(0), key, row);
  return {};
}
} // namespace

KeyWindow xtile::keyWindow(const Contraction &c) {
  return visible(c.online.getYieldedScore(), c.online.getInductionVar(),
                 c.i.getInductionVar());
}

std::pair<int64_t, int64_t> xtile::keyRange(const KeyWindow &w, int64_t row0,
                                            int64_t rows, int64_t keys,
                                            int64_t blockK) {
  int64_t start = 0, end = keys;
  if (w.lower)
    start = std::max<int64_t>(0, row0 + *w.lower) / blockK * blockK;
  if (w.upper)
    end = std::min<int64_t>(keys, std::max<int64_t>(0, row0 + rows + *w.upper));
  return {start, std::max(start, end)};
}
