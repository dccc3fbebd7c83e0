//===- WriteInPlace.cpp - results written into their argument's buffer ----===//
//
// A function result returned in place of an argument (`xtensor.in_place`)
// is written into the argument's buffer by the launch that computes it,
// storing only the elements that change.
//
//===----------------------------------------------------------------------===//

#include "xtile/Dialect/Loop/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "xtile/Support/DeadCode.h"
#include "xtile/Support/KernelSignature.h"
#include "xtile/Support/SymbolicDims.h"

namespace xtile::loop {
#define GEN_PASS_DEF_XLOOPWRITEINPLACE
#include "xtile/Dialect/Loop/Transforms/Passes.h.inc"
} // namespace xtile::loop

using namespace mlir;
using namespace xtile;
using namespace xtile::loop;

namespace {
/// A store of `select(condition, new, old)` (or of `old` where the
/// condition is false, `keepWhen`), where `old` is the element the store
/// overwrites, read from the input the output replaces; possibly through
/// an exact round trip (`truncf(select(c, new, extf(old)))`).
struct ConditionalUpdate {
  StoreOp store;
  Value condition;
  bool keepWhen; // the condition's value where the old element stays
  Value fresh;   // the value written elsewhere, before any round trip
  arith::TruncFOp round;
  arith::SelectOp select;
  LoadOp load;
};
} // namespace

/// The one load that `v` is (or an `extf` of one) when it reads `in` at
/// `indices`, and nothing else uses it.
static LoadOp oldElement(Value v, Value in, ValueRange indices) {
  if (auto ext = v.getDefiningOp<arith::ExtFOp>()) {
    if (!ext->hasOneUse())
      return LoadOp();
    v = ext.getIn();
  }
  auto load = v.getDefiningOp<LoadOp>();
  if (!load || load.getBuffer() != in || !load->hasOneUse() ||
      !llvm::equal(load.getIndices(), indices))
    return LoadOp();
  return load;
}

/// Whether `store` writes every element of its buffer once: its indices
/// are the induction variables of all the parallel loops around it, of
/// which there is at least one (what is outside every loop, every program
/// of the kernel runs).
static bool writesEachElementOnce(StoreOp store, KernelOp kernel) {
  if (!isa<ParallelOp>(store->getParentOp()))
    return false;
  SmallVector<Value> ivs;
  for (Operation *op = store->getParentOp(); op != kernel.getOperation();
       op = op->getParentOp()) {
    auto loop = dyn_cast<ParallelOp>(op);
    if (!loop || loop.getLower() != 0)
      return false;
    ivs.push_back(loop.getInductionVar());
  }
  if (ivs.size() != store.getIndices().size())
    return false;
  return llvm::all_of(store.getIndices(), [&](Value i) {
    return llvm::count(ivs, i) == 1 &&
           llvm::count(store.getIndices(), i) == 1;
  });
}

/// The conditional update that output `out` of `kernel` makes of input
/// `in`, when `out` is stored once per element with the old element where
/// a condition says so, and `in` is read nowhere else.
static std::optional<ConditionalUpdate>
matchConditionalUpdate(KernelOp kernel, BlockArgument in, BlockArgument out) {
  SmallVector<StoreOp> stores;
  SmallVector<LoadOp> loads;
  kernel.walk([&](Operation *op) {
    if (auto store = dyn_cast<StoreOp>(op); store && store.getBuffer() == out)
      stores.push_back(store);
    if (auto load = dyn_cast<LoadOp>(op); load && load.getBuffer() == in)
      loads.push_back(load);
  });
  if (stores.size() != 1 || loads.size() != 1 || stores[0].getCondition() ||
      !writesEachElementOnce(stores[0], kernel))
    return std::nullopt;
  ConditionalUpdate update;
  update.store = stores[0];
  Value v = update.store.getValue();
  if (auto round = v.getDefiningOp<arith::TruncFOp>()) {
    // An exact round trip: the element widened, then narrowed back.
    if (!round->hasOneUse())
      return std::nullopt;
    update.round = round;
    v = round.getIn();
  }
  update.select = v.getDefiningOp<arith::SelectOp>();
  if (!update.select || !update.select->hasOneUse() ||
      isa<ShapedType>(update.select.getCondition().getType()))
    return std::nullopt;
  ValueRange indices = update.store.getIndices();
  Type element = cast<MemRefType>(in.getType()).getElementType();
  for (bool keepWhen : {false, true}) {
    Value old = keepWhen ? update.select.getTrueValue()
                         : update.select.getFalseValue();
    LoadOp load = oldElement(old, in, indices);
    // Through a round trip the old element must come back as itself:
    // widened from the stored type (extf is exact).
    if (!load || (update.round && old == load.getResult()) ||
        (!update.round && old != load.getResult()) ||
        load.getType() != element)
      continue;
    update.load = load;
    update.keepWhen = keepWhen;
    update.condition = update.select.getCondition();
    update.fresh = keepWhen ? update.select.getFalseValue()
                            : update.select.getTrueValue();
    return update;
  }
  return std::nullopt;
}

/// Rewrites the update into a store of the new value where it changes.
static void storeOnlyChanges(ConditionalUpdate update,
                             RewriterBase &rewriter) {
  StoreOp store = update.store;
  rewriter.setInsertionPoint(store);
  Location loc = store.getLoc();
  Value value = update.fresh;
  if (update.round)
    value = arith::TruncFOp::create(rewriter, loc, update.round.getType(),
                                    value);
  Value where = update.condition;
  if (update.keepWhen) {
    Value yes;
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(
          &store->getParentOfType<KernelOp>().getBodyBlock());
      yes = arith::ConstantIntOp::create(rewriter, loc, 1, 1);
    }
    where = arith::XOrIOp::create(rewriter, loc, where, yes);
  }
  StoreOp::create(rewriter, loc, value, store.getBuffer(), store.getIndices(),
                  where);
  rewriter.eraseOp(store);
  if (update.round)
    rewriter.eraseOp(update.round);
  rewriter.eraseOp(update.select);
}

/// Whether output `out` of `kernel` may share input `in`'s buffer as it
/// is: an elementwise kernel (no fold) that stores `out` once per element
/// and reads `in` only at the element it stores, in the same loop body,
/// into the value it stores (so the read comes first, in the iteration
/// that writes the element).
static bool updatesPointwise(KernelOp kernel, BlockArgument in,
                             BlockArgument out) {
  SmallVector<StoreOp> stores;
  SmallVector<LoadOp> loads;
  bool folds = false;
  kernel.walk([&](Operation *op) {
    if (auto store = dyn_cast<StoreOp>(op); store && store.getBuffer() == out)
      stores.push_back(store);
    if (auto load = dyn_cast<LoadOp>(op); load && load.getBuffer() == in)
      loads.push_back(load);
    folds |= isa<FoldOp, OnlineFoldOp>(op);
  });
  if (folds || stores.size() != 1 || stores[0].getCondition() ||
      !writesEachElementOnce(stores[0], kernel))
    return false;
  // What the stored value is computed from, in the kernel.
  DenseSet<Operation *> feeds;
  SmallVector<Value> work{stores[0].getValue()};
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (def && feeds.insert(def).second)
      llvm::append_range(work, def->getOperands());
  }
  // In the store's own body: the iteration that stores the element (a
  // load in another loop, or around the loops, reads it in others).
  return llvm::all_of(loads, [&](LoadOp load) {
    return load->getBlock() == stores[0]->getBlock() &&
           llvm::equal(load.getIndices(), stores[0].getIndices()) &&
           feeds.contains(load);
  });
}

namespace {
struct XLoopWriteInPlacePass
    : xtile::loop::impl::XLoopWriteInPlaceBase<XLoopWriteInPlacePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    DenseMap<StringAttr, int> launches;
    module.walk([&](LaunchOp launch) {
      ++launches[launch.getKernelAttr().getAttr()];
    });
    IRRewriter rewriter(&getContext());
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      auto ret = dyn_cast<func::ReturnOp>(func.getBody().front().getTerminator());
      if (!ret)
        continue;
      for (auto [r, a] : llvm::enumerate(getInPlaceArguments(func))) {
        if (a < 0)
          continue;
        Value arg = func.getArgument(a);
        Value result = ret.getOperand(r);
        auto launch = result.getDefiningOp<LaunchOp>();
        if (!launch || isUsedAfter(arg, launch))
          continue;
        auto operand = llvm::find(launch.getInputs(), arg);
        if (operand == launch.getInputs().end() ||
            llvm::count(launch.getInputs(), arg) != 1)
          continue;
        int64_t p = operand - launch.getInputs().begin();
        auto kernel = symbols.lookup<KernelOp>(launch.getKernel());
        if (!kernel || launches.lookup(kernel.getSymNameAttr()) != 1)
          continue;
        unsigned k = cast<OpResult>(result).getResultNumber();
        BlockArgument in = kernel.getInputs()[p], out = kernel.getOutputs()[k];
        if (std::optional<ConditionalUpdate> update =
                matchConditionalUpdate(kernel, in, out)) {
          storeOnlyChanges(*update, rewriter);
          eraseDeadOps(kernel, rewriter);
        } else if (updatesPointwise(kernel, in, out)) {
          kernel->setAttr(kMayAliasAttrName, rewriter.getUnitAttr());
        } else {
          continue;
        }
        SmallVector<int64_t> updates(launch.getNumResults(), -1);
        if (std::optional<ArrayRef<int64_t>> old = launch.getUpdates())
          updates.assign(old->begin(), old->end());
        updates[k] = p;
        launch.setUpdates(updates);
      }
    }
  }
};
} // namespace
