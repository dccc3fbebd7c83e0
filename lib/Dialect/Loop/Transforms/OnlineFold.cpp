//===- OnlineFold.cpp - sums of exponentials as online folds --------------===//
//
// A sum over j whose terms carry the factor exp(x_j - M), where M is the
// maximum of the same x_j over the same j, is one fold over (max, sum,
// weighted sum): xloop.online_fold. The rewrite is algebraic, not a match
// of softmax or attention:
//
//   Σ_j exp(x_j - M) · g_j · c  =  c · acc    (c independent of j)
//   Σ_j exp(x_j - M) / L · g_j  =  acc / sum  when L is Σ_j exp(x_j - M)
//
// (a rounding of a term to a narrower type and back, as 16-bit
// probabilities fed to a matmul are, is looked through: the fold keeps
// them in f32)
// with (max, sum, acc) = online_fold_j (x_j, g_j); and M itself, where an
// online fold of the same scores is computed before it is used, is that
// fold's max. Softmax rows, log-sum-exp and attention's softmax(s) · v all
// take this form; nothing else changes.
//
//===----------------------------------------------------------------------===//

#include "xtile/Dialect/Loop/Transforms/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

namespace xtile::loop {
#define GEN_PASS_DEF_XLOOPONLINEFOLD
#include "xtile/Dialect/Loop/Transforms/Passes.h.inc"
} // namespace xtile::loop

using namespace mlir;
using namespace xtile::loop;

namespace {

/// Whether two values compute the same thing, `a` in one loop body and `b`
/// in another, with the loops' induction variables (and further block
/// arguments met in nested regions) paired in `map`. Values defined outside
/// both are the same only when identical. Every op in a loop body is pure
/// (loads read inputs that never change), so comparing what the yields
/// compute is enough.
class Equivalence {
public:
  void pair(Value a, Value b) { map[a] = b; }

  bool same(Value a, Value b) {
    auto it = map.find(a);
    if (it != map.end())
      return it->second == b;
    if (a == b)
      return true;
    // An index known to be one value (a constant, the index of a loop of
    // one iteration) is that value.
    std::optional<int64_t> ca = knownIndex(a), cb = knownIndex(b);
    if (ca && cb)
      return *ca == *cb && a.getType() == b.getType();
    Operation *da = a.getDefiningOp(), *db = b.getDefiningOp();
    if (!da || !db || da->getName() != db->getName() ||
        da->getAttrDictionary() != db->getAttrDictionary() ||
        da->getResultTypes() != db->getResultTypes() ||
        da->getNumOperands() != db->getNumOperands() ||
        da->getNumRegions() != db->getNumRegions() ||
        cast<OpResult>(a).getResultNumber() !=
            cast<OpResult>(b).getResultNumber())
      return false;
    for (auto [x, y] : llvm::zip(da->getOperands(), db->getOperands()))
      if (!same(x, y))
        return false;
    for (auto [ra, rb] : llvm::zip(da->getRegions(), db->getRegions())) {
      if (!ra.hasOneBlock() || !rb.hasOneBlock())
        return false;
      Block &ba = ra.front(), &bb = rb.front();
      if (ba.getNumArguments() != bb.getNumArguments())
        return false;
      for (auto [x, y] : llvm::zip(ba.getArguments(), bb.getArguments()))
        pair(x, y);
      Operation *ta = ba.getTerminator(), *tb = bb.getTerminator();
      if (ta->getNumOperands() != tb->getNumOperands())
        return false;
      for (auto [x, y] : llvm::zip(ta->getOperands(), tb->getOperands()))
        if (!same(x, y))
          return false;
    }
    map[a] = b;
    return true;
  }

private:
  /// The value of an integer known without running the kernel: constants,
  /// the index of a loop of one iteration, and casts and sums of those.
  static std::optional<int64_t> knownIndex(Value v) {
    if (!v.getType().isIntOrIndex())
      return std::nullopt;
    APInt value;
    if (matchPattern(v, m_ConstantInt(&value)))
      return value.getSExtValue();
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (auto loop = dyn_cast<ParallelOp>(arg.getOwner()->getParentOp()))
        if (std::optional<int64_t> upper = loop.getConstantUpper();
            upper && *upper - loop.getLower() == 1)
          return loop.getLower();
      return std::nullopt;
    }
    Operation *def = v.getDefiningOp();
    if (isa<arith::IndexCastOp, arith::ExtSIOp>(def))
      return knownIndex(def->getOperand(0));
    if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def)) {
      std::optional<int64_t> x = knownIndex(def->getOperand(0));
      std::optional<int64_t> y = knownIndex(def->getOperand(1));
      if (!x || !y)
        return std::nullopt;
      if (isa<arith::AddIOp>(def))
        return *x + *y;
      if (isa<arith::SubIOp>(def))
        return *x - *y;
      return *x * *y;
    }
    return std::nullopt;
  }

  DenseMap<Value, Value> map;
};

bool isConstantFloat(Value v, double expected) {
  FloatAttr attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return false;
  double got = attr.getValueAsDouble();
  return got == expected || (std::isnan(expected) && std::isnan(got));
}

bool sameRange(Operation *a, Operation *b) {
  return TypeSwitch<Operation *, bool>(a)
      .Case<ParallelOp, FoldOp, OnlineFoldOp>(
          [&](auto loop) { return loop.hasSameBounds(b); })
      .Default([](Operation *) { return false; });
}

/// `M`: a fold of the maximum from -inf.
FoldOp maxFold(Value m) {
  auto fold = m.getDefiningOp<FoldOp>();
  if (!fold || fold.getCombine() != CombineKind::max ||
      !isa<FloatType>(fold.getType()) ||
      !isConstantFloat(fold.getInit(), -INFINITY))
    return {};
  return fold;
}

/// The terms of a sum over `loop` (induction variable `iv`), as a product
/// of factors.
struct Term {
  Value score;           // x, of the factor exp(x - M)
  FoldOp max;            // M
  SmallVector<Value> variant;   // other factors that depend on the loop
  SmallVector<std::pair<Value, bool>> invariant; // c, or 1/c when true
};

/// Splits `v` (computed in `loop`'s body) into factors: products split,
/// quotients by a value from outside the loop too.
void collectFactors(Value v, Operation *loop, Value iv, Term &term) {
  Operation *def = v.getDefiningOp();
  if (!def || !loop->isProperAncestor(def)) {
    if (v == iv)
      term.variant.push_back(v);
    else
      term.invariant.push_back({v, false});
    return;
  }
  if (auto mul = dyn_cast<arith::MulFOp>(def)) {
    collectFactors(mul.getLhs(), loop, iv, term);
    collectFactors(mul.getRhs(), loop, iv, term);
    return;
  }
  // A round trip through a narrower type of the probabilities (16-bit
  // probabilities fed to a matmul) is looked through: the online fold keeps
  // them in f32. Any other factor's (16-bit values computed in the loop, a
  // dequantized V) keeps its rounding.
  if (auto ext = dyn_cast<arith::ExtFOp>(def))
    if (auto trunc = ext.getIn().getDefiningOp<arith::TruncFOp>();
        trunc && trunc.getIn().getType() == ext.getType() &&
        loop->isProperAncestor(trunc) && !term.max) {
      Term inner;
      collectFactors(trunc.getIn(), loop, iv, inner);
      if (inner.max) {
        term.score = inner.score;
        term.max = inner.max;
        llvm::append_range(term.variant, inner.variant);
        llvm::append_range(term.invariant, inner.invariant);
        return;
      }
    }
  if (auto div = dyn_cast<arith::DivFOp>(def)) {
    Operation *d = div.getRhs().getDefiningOp();
    if (!d || !loop->isProperAncestor(d)) {
      collectFactors(div.getLhs(), loop, iv, term);
      term.invariant.push_back({div.getRhs(), true});
      return;
    }
  }
  if (auto exp = dyn_cast<math::ExpOp>(def); exp && !term.max) {
    if (auto sub = exp.getOperand().getDefiningOp<arith::SubFOp>()) {
      // The maximum of 16-bit scores widened, and the scores widened alike
      // (widening is exact and monotonic: the widened maximum is the
      // maximum of the widened scores).
      Value m = sub.getRhs(), x = sub.getLhs();
      if (auto extM = m.getDefiningOp<arith::ExtFOp>())
        if (auto extX = x.getDefiningOp<arith::ExtFOp>();
            extX && extX.getIn().getType() == extM.getIn().getType()) {
          m = extM.getIn();
          x = extX.getIn();
        }
      FoldOp max = maxFold(m);
      if (max && !loop->isAncestor(max) && sameRange(max, loop)) {
        Equivalence eq;
        eq.pair(max.getInductionVar(), iv);
        if (eq.same(max.getYieldedValue(), x)) {
          term.score = sub.getLhs();
          term.max = max;
          return;
        }
      }
    }
  }
  term.variant.push_back(v);
}

/// The softmax term of an add fold from 0, if its terms have one.
std::optional<Term> softmaxTerm(FoldOp fold) {
  if (fold.getCombine() != CombineKind::add ||
      !isa<FloatType>(fold.getType()) || !isConstantFloat(fold.getInit(), 0))
    return std::nullopt;
  Term term;
  collectFactors(fold.getYieldedValue(), fold, fold.getInductionVar(), term);
  if (!term.max || term.score.getType() != fold.getType() ||
      llvm::any_of(term.variant,
                   [&](Value v) { return v.getType() != fold.getType(); }))
    return std::nullopt;
  return term;
}

/// Whether `sum` is Σ_j exp(x_j - M) over the scores `score` of `loop`
/// (with maximum `max`): a fold of just that term, or an online fold's
/// sum over the same scores.
bool isSumOfExponentials(Value sum, Operation *loop, Value iv, Value score,
                         FoldOp max) {
  auto equalScores = [&](Operation *other, Value otherIv, Value otherScore) {
    if (!sameRange(other, loop))
      return false;
    Equivalence eq;
    eq.pair(otherIv, iv);
    return eq.same(otherScore, score);
  };
  if (auto fold = sum.getDefiningOp<FoldOp>()) {
    std::optional<Term> term = softmaxTerm(fold);
    return term && term->max == max && term->variant.empty() &&
           term->invariant.empty() &&
           equalScores(fold, fold.getInductionVar(), term->score);
  }
  if (auto online = sum.getDefiningOp<OnlineFoldOp>())
    return sum == online.getSum() &&
           equalScores(online, online.getInductionVar(),
                       online.getYieldedScore());
  return false;
}

/// Rewrites the add fold `fold` with softmax term `term` as an online fold.
void rewrite(FoldOp fold, const Term &term) {
  OpBuilder b(fold);
  Location loc = fold.getLoc();
  Type type = fold.getType();
  auto online =
      OnlineFoldOp::create(b, loc, fold.getLower(), fold.getMixedUpper(), type,
                           term.variant.empty() ? 0 : 1);
  IRMapping map;
  map.map(fold.getInductionVar(), online.getInductionVar());
  b.setInsertionPointToStart(&online.getBodyBlock());
  for (Operation &op : fold.getBodyBlock().without_terminator())
    b.clone(op, map);
  SmallVector<Value> yielded{map.lookupOrDefault(term.score)};
  if (!term.variant.empty()) {
    Value g = map.lookupOrDefault(term.variant.front());
    for (Value v : ArrayRef(term.variant).drop_front())
      g = arith::MulFOp::create(b, loc, g, map.lookupOrDefault(v));
    yielded.push_back(g);
  }
  YieldOp::create(b, loc, yielded);

  b.setInsertionPointAfter(online);
  Value result = term.variant.empty()
                     ? Value(online.getSum())
                     : Value(online.getAccumulators().front());
  for (auto [c, reciprocal] : term.invariant) {
    if (!reciprocal) {
      result = arith::MulFOp::create(b, loc, result, c);
      continue;
    }
    // Normalized by the sum of the same exponentials: this fold's own.
    Value divisor = isSumOfExponentials(c, fold, fold.getInductionVar(),
                                        term.score, term.max)
                        ? online.getSum()
                        : c;
    result = arith::DivFOp::create(b, loc, result, divisor);
  }
  fold.getResult().replaceAllUsesWith(result);
  fold.erase();
}

} // namespace

bool xtile::loop::formOnlineFolds(KernelOp kernel) {
  // Inner folds first (the walk is post-order), each analyzed as it is
  // rewritten: a normalizing sum rewritten before the weighted sum that
  // divides by it is recognized in its online form.
  SmallVector<FoldOp> folds;
  kernel.walk([&](FoldOp fold) { folds.push_back(fold); });
  bool changed = false;
  for (FoldOp fold : folds)
    if (std::optional<Term> term = softmaxTerm(fold)) {
      rewrite(fold, *term);
      changed = true;
    }

  // A maximum used after an online fold of the same scores is its max;
  // the max and sum of an online fold used after another one of the same
  // scores, nested deeper, are that one's (the weighted sum of attention
  // is then normalized by its own sum, and the row's fold dies).
  DominanceInfo dominance(kernel);
  SmallVector<OnlineFoldOp> onlines;
  kernel.walk([&](OnlineFoldOp op) { onlines.push_back(op); });
  // Whether `a` (induction variable `aIv`) folds `aScore` where `b` folds
  // `bScore` (by default, its yielded score).
  auto sameScores = [](Operation *a, Value aIv, Value aScore, OnlineFoldOp b,
                       Value bScore = Value()) {
    if (!sameRange(a, b))
      return false;
    Equivalence eq;
    eq.pair(aIv, b.getInductionVar());
    return eq.same(aScore, bScore ? bScore : b.getYieldedScore());
  };
  auto replaceAfter = [&](Value from, Value to, Operation *after) {
    bool any = false;
    from.replaceUsesWithIf(to, [&](OpOperand &use) {
      // Not inside `after` itself: it cannot use its own results.
      bool dominated = dominance.properlyDominates(after, use.getOwner(),
                                                   /*enclosingOpOk=*/false);
      any |= dominated;
      return dominated;
    });
    changed |= any;
  };
  SmallVector<FoldOp> maxes;
  kernel.walk([&](FoldOp fold) {
    if (maxFold(fold.getResult()))
      maxes.push_back(fold);
  });
  // Pure uses of `from` hoisted above `after` (a test of the row's
  // maximum, computed once per row) whose own users all come after it move
  // just after it, so that they can use its results.
  auto sinkUses = [&](Value from, Operation *after) {
    bool moved = true;
    while (moved) {
      moved = false;
      SmallVector<Operation *> users(from.getUsers());
      for (Operation *user : users) {
        if (dominance.properlyDominates(after, user, /*enclosingOpOk=*/false) ||
            user->getNumRegions() || user->getNumResults() != 1 ||
            !isMemoryEffectFree(user) ||
            !user->getBlock()->findAncestorOpInBlock(*after) ||
            !user->isBeforeInBlock(
                user->getBlock()->findAncestorOpInBlock(*after)))
          continue;
        bool usersAfter = llvm::all_of(user->getUsers(), [&](Operation *u) {
          return dominance.properlyDominates(after, u,
                                             /*enclosingOpOk=*/false);
        });
        if (!usersAfter || user->getResult(0).use_empty())
          continue;
        user->moveAfter(after);
        moved = true;
      }
    }
  };
  for (FoldOp max : maxes)
    for (OnlineFoldOp online : onlines) {
      if (sameScores(max, max.getInductionVar(), max.getYieldedValue(),
                     online)) {
        sinkUses(max.getResult(), online);
        replaceAfter(max.getResult(), online.getMax(), online);
        continue;
      }
      // A maximum of 16-bit scores that the online fold widened: its max
      // narrowed back (exactly: it is one of the scores, or -inf).
      auto ext = online.getYieldedScore().getDefiningOp<arith::ExtFOp>();
      if (!ext || ext.getIn().getType() != max.getType() ||
          !sameScores(max, max.getInductionVar(), max.getYieldedValue(),
                      online, ext.getIn()))
        continue;
      sinkUses(max.getResult(), online);
      OpBuilder b(online->getContext());
      b.setInsertionPointAfter(online);
      auto narrow = arith::TruncFOp::create(b, online.getLoc(), max.getType(),
                                            online.getMax());
      replaceAfter(max.getResult(), narrow, narrow);
      if (narrow->use_empty())
        narrow->erase();
    }
  for (OnlineFoldOp outer : onlines)
    for (OnlineFoldOp inner : onlines) {
      if (outer == inner || outer->getBlock() == inner->getBlock() ||
          !outer->getParentRegion()->isProperAncestor(
              inner->getParentRegion()) ||
          !sameScores(outer, outer.getInductionVar(),
                      outer.getYieldedScore(), inner))
        continue;
      // A test of the row's maximum hoisted above the column loop (SDPA's
      // zeros for fully masked rows) moves next to the inner fold first.
      sinkUses(outer.getMax(), inner);
      sinkUses(outer.getSum(), inner);
      replaceAfter(outer.getMax(), inner.getMax(), inner);
      replaceAfter(outer.getSum(), inner.getSum(), inner);
    }
  return changed;
}

namespace {
struct XLoopOnlineFoldPass
    : xtile::loop::impl::XLoopOnlineFoldBase<XLoopOnlineFoldPass> {
  void runOnOperation() override {
    for (KernelOp kernel : getOperation().getOps<KernelOp>())
      formOnlineFolds(kernel);
  }
};
} // namespace
