//===- IndexBounds.cpp - index arithmetic simplified with loop bounds ----===//
//
// Reshapes compose into affine index expressions full of floordiv and mod
// whose values the loop bounds fix: with 0 <= i < 19 and 0 <= j < 19,
// (i * 19 + j) floordiv 361 is 0, and (b * 361 + i * 19 + j) floordiv 1444
// is b floordiv 4. Upstream canonicalization does not know the bounds, so
// two copies of one index computed along different paths can differ in
// form; simplified with the bounds they agree (and the kernels do less
// index arithmetic). The rules, for a divisor c > 0 and an expression
// split into terms Q, a multiple of k (k divides c), and a remainder R
// with 0 <= R < k:
//
//   (Q + R) floordiv c = (Q / k) floordiv (c / k)
//   (Q + R) mod c      = ((Q / k) mod (c / k)) * k + R
//
// and an expression whose range lies in [0, c) is its own remainder and
// has quotient 0.
//
// A loop index is never negative: comparisons of one (cast to an integer)
// with 0 are constants, so an index PyTorch would count from the end when
// negative (x[i] with i from an iota) is the index itself.
//
//===----------------------------------------------------------------------===//

#include "xtile/Dialect/Loop/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"

#include <optional>

using namespace mlir;
using namespace xtile::loop;

namespace {

struct IndexRange {
  int64_t lo, hi; // inclusive
};

class BoundedSimplifier {
public:
  explicit BoundedSimplifier(SmallVector<std::optional<IndexRange>> dims)
      : dims(std::move(dims)) {}

  std::optional<IndexRange> range(AffineExpr e) {
    if (auto c = dyn_cast<AffineConstantExpr>(e))
      return IndexRange{c.getValue(), c.getValue()};
    if (auto d = dyn_cast<AffineDimExpr>(e))
      return dims[d.getPosition()];
    auto bin = dyn_cast<AffineBinaryOpExpr>(e);
    if (!bin)
      return std::nullopt;
    std::optional<IndexRange> l = range(bin.getLHS()), r = range(bin.getRHS());
    if (!l || !r)
      return std::nullopt;
    switch (e.getKind()) {
    case AffineExprKind::Add:
      return IndexRange{l->lo + r->lo, l->hi + r->hi};
    case AffineExprKind::Mul: {
      int64_t c[] = {l->lo * r->lo, l->lo * r->hi, l->hi * r->lo,
                     l->hi * r->hi};
      return IndexRange{*std::min_element(c, c + 4), *std::max_element(c, c + 4)};
    }
    case AffineExprKind::FloorDiv:
      if (r->lo != r->hi || r->lo <= 0)
        return std::nullopt;
      return IndexRange{llvm::divideFloorSigned(l->lo, r->lo),
                   llvm::divideFloorSigned(l->hi, r->lo)};
    case AffineExprKind::Mod:
      if (r->lo != r->hi || r->lo <= 0)
        return std::nullopt;
      if (l->lo >= 0 && l->hi < r->lo)
        return *l;
      return IndexRange{0, r->lo - 1};
    default:
      return std::nullopt;
    }
  }

  /// The additive terms of `e`, each a constant coefficient times a
  /// non-constant factor (null for the constant term).
  static void terms(AffineExpr e, int64_t scale,
                    SmallVector<std::pair<int64_t, AffineExpr>> &out) {
    if (auto c = dyn_cast<AffineConstantExpr>(e)) {
      out.push_back({scale * c.getValue(), AffineExpr()});
      return;
    }
    if (e.getKind() == AffineExprKind::Add) {
      auto bin = cast<AffineBinaryOpExpr>(e);
      terms(bin.getLHS(), scale, out);
      terms(bin.getRHS(), scale, out);
      return;
    }
    if (e.getKind() == AffineExprKind::Mul) {
      auto bin = cast<AffineBinaryOpExpr>(e);
      if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS())) {
        terms(bin.getLHS(), scale * c.getValue(), out);
        return;
      }
    }
    out.push_back({scale, e});
  }

  /// `e` split as Q + R with Q a multiple of the largest k dividing `c`
  /// for which 0 <= R < k: (Q / k, R, k).
  std::optional<std::tuple<AffineExpr, AffineExpr, int64_t>>
  split(AffineExpr e, int64_t c) {
    SmallVector<std::pair<int64_t, AffineExpr>> ts;
    terms(e, 1, ts);
    SmallVector<int64_t> candidates{c};
    for (auto [coeff, _] : ts)
      if (coeff > 0 && c % coeff == 0)
        candidates.push_back(coeff);
    llvm::sort(candidates, std::greater<int64_t>());
    MLIRContext *ctx = e.getContext();
    for (int64_t k : candidates) {
      AffineExpr q = getAffineConstantExpr(0, ctx);
      AffineExpr r = getAffineConstantExpr(0, ctx);
      for (auto [coeff, t] : ts) {
        AffineExpr term = t ? t * coeff : getAffineConstantExpr(coeff, ctx);
        if (coeff % k == 0)
          q = q + (t ? t * (coeff / k) : getAffineConstantExpr(coeff / k, ctx));
        else
          r = r + term;
      }
      std::optional<IndexRange> rr = range(r);
      if (rr && rr->lo >= 0 && rr->hi < k)
        return std::make_tuple(q, r, k);
    }
    return std::nullopt;
  }

  AffineExpr simplify(AffineExpr e) {
    auto bin = dyn_cast<AffineBinaryOpExpr>(e);
    if (!bin)
      return e;
    AffineExpr l = simplify(bin.getLHS()), r = simplify(bin.getRHS());
    auto c = dyn_cast<AffineConstantExpr>(r);
    switch (e.getKind()) {
    case AffineExprKind::Add:
      return l + r;
    case AffineExprKind::Mul:
      return l * r;
    case AffineExprKind::FloorDiv:
    case AffineExprKind::Mod: {
      bool div = e.getKind() == AffineExprKind::FloorDiv;
      if (!c || c.getValue() <= 0)
        return div ? l.floorDiv(r) : l % r;
      int64_t cv = c.getValue();
      std::optional<IndexRange> lr = range(l);
      if (lr && lr->lo >= 0 && lr->hi < cv)
        return div ? getAffineConstantExpr(0, e.getContext()) : l;
      if (auto parts = split(l, cv)) {
        auto [q, rem, k] = *parts;
        if (k > 1) {
          if (div)
            return simplify(q.floorDiv(cv / k));
          return simplify(q % (cv / k)) * k + rem;
        }
      }
      return div ? l.floorDiv(r) : l % r;
    }
    default:
      return e;
    }
  }

private:
  SmallVector<std::optional<IndexRange>> dims;
};

std::optional<IndexRange> boundsOf(Value v) {
  APInt value;
  if (matchPattern(v, m_ConstantInt(&value)))
    return IndexRange{value.getSExtValue(), value.getSExtValue()};
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || arg.getArgNumber() != 0)
    return std::nullopt;
  Operation *loop = arg.getOwner()->getParentOp();
  if (!isa_and_nonnull<ParallelOp, FoldOp, OnlineFoldOp>(loop))
    return std::nullopt;
  int64_t lower = loop->getAttrOfType<IntegerAttr>("lower").getInt();
  int64_t upper = loop->getAttrOfType<IntegerAttr>("static_upper").getInt();
  // A dynamic upper bound (kDynamic) has no range here.
  if (upper == ShapedType::kDynamic || upper <= lower)
    return std::nullopt;
  return IndexRange{lower, upper - 1};
}

/// Whether `v` is a loop index starting at 0 or above, or such an index
/// cast to an integer.
bool isLoopIndex(Value v) {
  while (isa_and_nonnull<arith::IndexCastOp, arith::IndexCastUIOp,
                         arith::ExtSIOp, arith::ExtUIOp>(v.getDefiningOp()))
    v = v.getDefiningOp()->getOperand(0);
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || arg.getArgNumber() != 0)
    return false;
  Operation *loop = arg.getOwner()->getParentOp();
  return isa_and_nonnull<ParallelOp, FoldOp, OnlineFoldOp>(loop) &&
         loop->getAttrOfType<IntegerAttr>("lower").getInt() >= 0;
}

/// The value of `cmp` where one side is a loop index and the other 0: an
/// index is never below 0.
std::optional<bool> comparedWithZero(arith::CmpIOp cmp) {
  using P = arith::CmpIPredicate;
  P pred = cmp.getPredicate();
  Value index = cmp.getLhs();
  if (!matchPattern(cmp.getRhs(), m_Zero())) {
    // 0 op x is x op' 0, op' the swapped predicate.
    if (!matchPattern(cmp.getLhs(), m_Zero()))
      return std::nullopt;
    index = cmp.getRhs();
    switch (pred) {
    case P::slt: pred = P::sgt; break;
    case P::sle: pred = P::sge; break;
    case P::sgt: pred = P::slt; break;
    case P::sge: pred = P::sle; break;
    default: return std::nullopt;
    }
  }
  if (!isLoopIndex(index))
    return std::nullopt;
  if (pred == P::slt)
    return false;
  if (pred == P::sge)
    return true;
  return std::nullopt;
}

} // namespace

bool xtile::loop::simplifyIndexArithmetic(Operation *root) {
  bool changed = false;
  root->walk([&](arith::CmpIOp cmp) {
    std::optional<bool> known = comparedWithZero(cmp);
    if (!known)
      return;
    OpBuilder b(cmp);
    Value c = arith::ConstantOp::create(
        b, cmp.getLoc(), b.getIntegerAttr(cmp.getType(), *known ? 1 : 0));
    cmp.replaceAllUsesWith(c);
    cmp.erase();
    changed = true;
  });
  root->walk([&](affine::AffineApplyOp apply) {
    AffineMap map = apply.getAffineMap();
    if (map.getNumSymbols() || map.getNumResults() != 1)
      return;
    SmallVector<std::optional<IndexRange>> dims;
    for (Value operand : apply.getOperands())
      dims.push_back(boundsOf(operand));
    BoundedSimplifier simplifier(dims);
    AffineExpr e = simplifyAffineExpr(map.getResult(0), map.getNumDims(), 0);
    // Twice: a rewrite can expose another (a quotient that cancels).
    for (int pass = 0; pass < 2; ++pass)
      e = simplifyAffineExpr(simplifier.simplify(e), map.getNumDims(), 0);
    if (e == map.getResult(0))
      return;
    apply.setMap(AffineMap::get(map.getNumDims(), 0, e));
    changed = true;
  });
  return changed;
}
