//===- Fuse.cpp - producer-consumer fusion of kernels ---------------------===//
//
// Fusion inlines a producer kernel into a consumer at the consumer's loads
// of the producer's output, then hoists loop-invariant code (whole folds
// included) and merges common subexpressions. Kernels come from Tensor IR
// in pointwise form (a perfect parallel nest storing one element), and
// inlining keeps consumers in that form, so fusion composes: a consumer
// that absorbed its producer can itself be absorbed.
//
//===----------------------------------------------------------------------===//

#include "xtile/Dialect/Loop/Transforms/Passes.h"
#include "xtile/Dialect/Loop/Utils/Tileable.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "xtile/Support/Storage.h"
#include "xtile/Support/SymbolicDims.h"
#include "llvm/ADT/TypeSwitch.h"

namespace xtile::loop {
#define GEN_PASS_DEF_XLOOPFUSE
#include "xtile/Dialect/Loop/Transforms/Passes.h.inc"
} // namespace xtile::loop

using namespace mlir;
using namespace xtile::loop;

namespace {

/// A kernel in pointwise form: parallel loops over the output's dimensions,
/// outer to inner, and one store of the element in the innermost body.
struct PointwiseNest {
  SmallVector<ParallelOp> loops;
  /// Pure ops around the loops (constants, and what a cleaned kernel
  /// hoisted out of inner loops), outermost first: each depends only on
  /// the loops around it.
  SmallVector<Operation *> hoisted;
  Block *body = nullptr;
  StoreOp store;
};

/// The ops of `block` that are not its terminator.
static auto bodyOps(Block *block) {
  return llvm::make_range(block->begin(),
                          block->mightHaveTerminator()
                              ? Block::iterator(block->getTerminator())
                              : block->end());
}

/// With `manyOutputs`, a kernel of elementwise loops storing each of its
/// outputs at the element (the last store is `store`).
static std::optional<PointwiseNest>
getPointwiseNest(KernelOp kernel, bool manyOutputs = false) {
  if (!manyOutputs && kernel.getOutputs().size() != 1)
    return std::nullopt;
  PointwiseNest nest;
  Block *block = &kernel.getBodyBlock();
  while (true) {
    // One parallel loop, and pure ops without regions beside it.
    ParallelOp loop;
    SmallVector<Operation *> pure;
    bool nested = true;
    for (Operation &op : bodyOps(block)) {
      if (auto inner = dyn_cast<ParallelOp>(op); inner && !loop)
        loop = inner;
      else if (op.getNumRegions() == 0 && isMemoryEffectFree(&op))
        pure.push_back(&op);
      else
        nested = false;
    }
    if (!nested || !loop)
      break;
    nest.hoisted.append(pure);
    nest.loops.push_back(loop);
    block = &loop.getBodyBlock();
  }
  nest.body = block;
  int stores = 0;
  bool elementwise = true;
  kernel.walk([&](StoreOp store) {
    ++stores;
    nest.store = store;
    elementwise &= store->getBlock() == block && !store.getCondition() &&
                   store.getIndices().size() == nest.loops.size() &&
                   llvm::all_of(llvm::zip(store.getIndices(), nest.loops),
                                [](auto pair) {
                                  auto [index, loop] = pair;
                                  return index == loop.getInductionVar() &&
                                         loop.getLower() == 0;
                                });
  });
  if ((manyOutputs ? stores < 1 : stores != 1) || !elementwise)
    return std::nullopt;
  return nest;
}

/// The loops of `kernel` nested inside a fold or an online fold.
static unsigned countLoopsInFolds(KernelOp kernel) {
  unsigned count = 0;
  kernel.walk([&](Operation *op) {
    if (!isa<ParallelOp, FoldOp, OnlineFoldOp>(op))
      return;
    for (Operation *p = op->getParentOp(); p != kernel; p = p->getParentOp())
      if (isa<FoldOp, OnlineFoldOp>(p)) {
        ++count;
        return;
      }
  });
  return count;
}

/// The iterations of a loop: a dynamic one's at its size's hint, the size
/// fusion is priced at.
static int64_t tripCount(Operation *op) {
  return TypeSwitch<Operation *, int64_t>(op)
      .Case<ParallelOp, FoldOp, OnlineFoldOp>(
          [](auto loop) { return loop.getTripCountAtHint(); })
      .Default([](Operation *) { return 1; });
}

/// The bytes of a tensor of a function, its dynamic sizes at their hints
/// (the default hint of their declared ranges).
static double bytesAtHints(Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  if (type.hasStaticShape())
    return getNumBytes(type);
  auto func = v.getParentRegion()->getParentOfType<func::FuncOp>();
  SmallVector<int64_t> shape;
  for (const xtile::Dim &dim : xtile::getDims(type)) {
    if (!dim.isDynamic()) {
      shape.push_back(dim.size);
      continue;
    }
    auto declared = xtile::getDeclaredSymbol(func, dim.symbol);
    shape.push_back(declared ? defaultSizeHint(declared->min, declared->max)
                             : 1);
  }
  return getNumBytes(RankedTensorType::get(shape, type.getElementType()));
}

/// Maps the sizes of kernel `from`, launched by `launch`, onto those of
/// `into`, whose launch passes `names` (in order), by the names the two
/// launches pass: a size `into` lacks is added to it and to `names`.
static void mapSizesByName(KernelOp from, LaunchOp launch, KernelOp into,
                           SmallVectorImpl<StringAttr> &names,
                           IRMapping &map) {
  std::optional<ArrayRef<int64_t>> ranges = from.getSizeRanges();
  for (auto [i, size] : llvm::enumerate(from.getSizes())) {
    auto name = cast<StringAttr>(launch.getSizes()[i]);
    auto existing = llvm::find(names, name);
    if (existing != names.end()) {
      map.map(size, into.getSizes()[existing - names.begin()]);
      continue;
    }
    names.push_back(name);
    map.map(size, into.addSize((*ranges)[2 * i], (*ranges)[2 * i + 1],
                               from.getSizeHint(size), size.getLoc()));
  }
}

/// Whether `index` is 0 wherever it is used: the constant, or the index of
/// a parallel loop from 0 to 1.
static bool isAlwaysZero(Value index) {
  if (matchPattern(index, m_Zero()))
    return true;
  auto arg = dyn_cast<BlockArgument>(index);
  auto loop = arg ? dyn_cast<ParallelOp>(arg.getOwner()->getParentOp())
                  : ParallelOp();
  return loop && loop.getInductionVar() == index && !loop.hasDynamicUpper() &&
         loop.getLower() == 0 && loop.getUpper() == 1;
}

/// The query rows of the smallest tile attention's schedules compute a
/// key block's values once for.
static constexpr int64_t kQueryTile = 64;

/// The rows and columns of the tiles the cost rule assumes a
/// contraction's schedule computes its operands for (its smallest tiles on
/// large outputs).
static constexpr int64_t kContractionTile = 64;

/// The folds of a kernel's row body that the contraction lowering takes
/// (operand tiles, tensor cores), and the kernel's output loops (the
/// innermost two row loops of more than one iteration), innermost first.
struct TiledContractions {
  DenseSet<Operation *> folds;
  SmallVector<Operation *, 2> outputLoops;
};
static TiledContractions findTiledContractions(KernelOp kernel) {
  TiledContractions found;
  RowNestShape nest = findRowNest(kernel);
  if (!nest.body)
    return found;
  SmallVector<Value> rowIvs = rowInductionVars(nest.rows);
  for (Operation &op : *nest.body)
    if (auto fold = dyn_cast<FoldOp>(op); fold && isAnyContraction(fold, rowIvs))
      found.folds.insert(fold);
  for (ParallelOp row : llvm::reverse(nest.rows))
    if (found.outputLoops.size() < 2 &&
        llvm::is_contained(rowIvs, row.getInductionVar()))
      found.outputLoops.push_back(row);
  return found;
}

/// Estimated dynamic work of a kernel: every arithmetic op and load,
/// weighted (math functions are several flops), times the trip counts of
/// the loops around it. In an online fold's body, the Tile IR lowering
/// computes values per tile: what does not depend on the parallel loop
/// right around the fold counts once for it (the tile of columns is the
/// whole head dimension), what does not depend on the query rows around
/// that once per kQueryTile rows (a key block's values, a dequantized K or
/// V), and what does not depend on the keys once for the key loop (the
/// query tile, held).
static double estimateWork(Operation *kernel) {
  // The addresses of a contraction's operand tiles are computed once per
  // tile of the output: index arithmetic in a contraction that does not
  // depend on the column loop counts once per kContractionTile columns,
  // what does not depend on the row loop once per kContractionTile rows (a
  // gathered row's index is computed once per column tile, not once per
  // output element). (Float work on an operand, a prologue, is charged per
  // element: it would keep the operand from being copied to shared memory
  // as it is loaded.)
  TiledContractions dots;
  if (auto k = dyn_cast<KernelOp>(kernel))
    dots = findTiledContractions(k);
  const DenseSet<Operation *> &contractions = dots.folds;
  const SmallVector<Operation *, 2> &outputLoops = dots.outputLoops;
  double work = 0;
  kernel->walk([&](Operation *op) {
    if (isa<arith::ConstantOp, affine::AffineApplyOp, YieldOp, ParallelOp,
            FoldOp, OnlineFoldOp, KernelOp>(op))
      return;
    double weight = isa<math::MathDialect>(op->getDialect()) ? 4 : 1;
    bool inContraction = false;
    for (Operation *p = op->getParentOp(); p && !inContraction;
         p = p->getParentOp())
      inContraction = contractions.contains(p);
    inContraction &= op->getNumResults() > 0 &&
                     llvm::all_of(op->getResultTypes(), [](Type t) {
                       return isa<IntegerType, IndexType>(t);
                     });
    DenseSet<Value> operandIvs;
    if (inContraction)
      for (Value v : op->getOperands())
        collectInductionVars(v, operandIvs);
    // The parallel loops tiled around an online fold, innermost first.
    auto online = op->getParentOfType<OnlineFoldOp>();
    SmallVector<Operation *, 2> tiled;
    DenseSet<Value> ivs;
    if (online) {
      for (Operation *p = online->getParentOp();
           p && !isa<KernelOp>(p) && tiled.size() < 2; p = p->getParentOp())
        if (isa<ParallelOp>(p))
          tiled.push_back(p);
      for (Value v : op->getOperands())
        collectInductionVars(v, ivs);
    }
    for (Operation *p = op->getParentOp(); p && !isa<KernelOp>(p);
         p = p->getParentOp()) {
      if (auto loop = dyn_cast<ParallelOp>(p)) {
        int64_t trips = tripCount(loop);
        if (inContraction && llvm::is_contained(outputLoops, p) &&
            !operandIvs.contains(loop.getInductionVar()))
          trips = llvm::divideCeil(trips, kContractionTile);
        if (llvm::is_contained(tiled, p) &&
            !ivs.contains(loop.getInductionVar()))
          trips = p == tiled.front() ? 1 : llvm::divideCeil(trips, kQueryTile);
        weight *= trips;
      } else if (p == online && !ivs.contains(online.getInductionVar())) {
        // Held for the whole key loop (the query tile).
        continue;
      } else if (isa<FoldOp, OnlineFoldOp>(p)) {
        weight *= tripCount(p);
      }
    }
    work += weight;
  });
  return work;
}

/// The most work (estimateWork) of a tiny kernel: a few thousand
/// operations over the whole grid take less time than a launch.
static constexpr double kTinyKernelWork = 16384;

/// The most operations a fused kernel may hold. Recomputing a producer
/// at gathered positions clones it once per load: a consumer that needs
/// few elements of a chain of merge passes (topk's first k of a long row)
/// would take in pass after pass for little work, each a copy per load
/// of the one before, until the kernel holds hundreds of thousands of
/// operations that the CUDA C compiler takes minutes over. The largest
/// kernels fusion otherwise builds hold well under a thousand.
static constexpr int64_t kMaxKernelOps = 4096;

static int64_t countOps(Operation *root) {
  int64_t n = 0;
  root->walk([&](Operation *) { ++n; });
  return n;
}

/// A kernel whose launch is all it costs: static sizes, no contraction or
/// online fold, and at most kTinyKernelWork of work (a routing step over
/// a few experts or token-expert pairs). Fusion saves launches of such
/// kernels whatever it recomputes, and merges them whatever their folds.
static bool isTiny(KernelOp kernel) {
  return kernel.getNumSizes() == 0 &&
         findTiledContractions(kernel).folds.empty() &&
         !kernel->walk([](OnlineFoldOp) { return WalkResult::interrupt(); })
              .wasInterrupted() &&
         estimateWork(kernel) <= kTinyKernelWork;
}

/// Whether every store of `kernel` accumulates (a scatter-add's adds).
static bool accumulatesOnly(KernelOp kernel) {
  return !kernel
              .walk([](StoreOp store) {
                return store.getAccumulate() ? WalkResult::advance()
                                             : WalkResult::interrupt();
              })
              .wasInterrupted();
}

/// How many launches name each kernel, counted once: walking the module
/// for symbol uses at every fusion decision would make fusion quadratic.
static DenseMap<StringAttr, unsigned> countLaunches(ModuleOp module) {
  DenseMap<StringAttr, unsigned> counts;
  module.walk(
      [&](LaunchOp launch) { ++counts[launch.getKernelAttr().getAttr()]; });
  return counts;
}

class KernelCleaner {
public:
  KernelCleaner(MLIRContext *ctx, bool onlineFolds)
      : ctx(ctx), patterns(collect(ctx)), onlineFolds(onlineFolds) {
    // Region simplification would drop the induction variable of a loop
    // whose body no longer uses it; loops keep theirs.
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  }

  void operator()(KernelOp kernel) const {
    kernel.walk([](LoopLikeOpInterface loop) { moveLoopInvariantCode(loop); });
    (void)applyPatternsGreedily(kernel, patterns, config);
    if (simplifyIndexArithmetic(kernel))
      (void)applyPatternsGreedily(kernel, patterns, config);
    IRRewriter rewriter(ctx);
    DominanceInfo dominance(kernel);
    eliminateCommonSubExpressions(rewriter, dominance, kernel);
    kernel.walk([](LoopLikeOpInterface loop) { moveLoopInvariantCode(loop); });
    // Sums of exponentials shifted by their maximum become online folds;
    // what they replaced (the maximum, a normalizing sum) is then dead.
    if (onlineFolds && formOnlineFolds(kernel)) {
      (void)applyPatternsGreedily(kernel, patterns, config);
      DominanceInfo after(kernel);
      eliminateCommonSubExpressions(rewriter, after, kernel);
      kernel.walk(
          [](LoopLikeOpInterface loop) { moveLoopInvariantCode(loop); });
    }
  }

  bool formsOnlineFolds() const { return onlineFolds; }

private:
  /// Canonicalization of the scalar and index code kernels contain; built
  /// once, since fusion cleans up a kernel after every trial.
  static RewritePatternSet collect(MLIRContext *ctx) {
    RewritePatternSet patterns(ctx);
    for (Dialect *dialect : ctx->getLoadedDialects())
      if (isa<arith::ArithDialect, affine::AffineDialect, math::MathDialect>(
              dialect))
        dialect->getCanonicalizationPatterns(patterns);
    for (RegisteredOperationName op : ctx->getRegisteredOperations())
      if (isa<arith::ArithDialect, affine::AffineDialect, math::MathDialect>(
              op.getDialect()))
        op.getCanonicalizationPatterns(patterns, ctx);
    FoldOp::getCanonicalizationPatterns(patterns, ctx);
    return patterns;
  }

  MLIRContext *ctx;
  FrozenRewritePatternSet patterns;
  GreedyRewriteConfig config;
  bool onlineFolds;
};

class Fuser {
public:
  Fuser(ModuleOp module, const KernelCleaner &clean, double flopsPerByte)
      : module(module), symbols(module), clean(clean),
        flopsPerByte(flopsPerByte), launches(countLaunches(module)) {}

  void run(func::FuncOp func) {
    SmallVector<LaunchOp> launches;
    func.walk([&](LaunchOp launch) { launches.push_back(launch); });
    // Consumers last in program order pull their producers first, so a
    // chain ends up in the kernel that produces the graph's output. A
    // producer is still in pointwise form when it is pulled: it is only
    // cleaned up once it is processed as a consumer, after all its
    // consumers.
    //
    // First, each elementwise consumer (no fold) whose elementwise
    // producers gather and share values among themselves (a merge pass of
    // a sort: a binary search whose bounds the next step and the final
    // choice both read) takes in the producers it alone reads, each at its
    // own loop indices: no element is computed twice, and the graph
    // becomes one kernel before the next pass recomputes a part of it
    // through its gathers.
    for (LaunchOp consumer : llvm::reverse(launches))
      takeElementwise(consumer);
    launches.clear();
    func.walk([&](LaunchOp launch) { launches.push_back(launch); });
    for (LaunchOp consumer : llvm::reverse(launches))
      process(consumer);
    // A producer with several users is judged while it still reads its own
    // producers (its consumers come first), so it may be rejected for the
    // new reads it would bring (an index computation that two layers
    // share, before it took in its iotas). Once it has taken in producers
    // of its own, the consumers that rejected it try it again, until
    // nothing changes.
    while (true) {
      SmallPtrSet<Operation *, 8> retry;
      for (auto &[producer, consumers] : waiting)
        if (grown.contains(producer) && !erased.contains(producer))
          for (Operation *consumer : consumers)
            if (!erased.contains(consumer))
              retry.insert(consumer);
      waiting.clear();
      grown.clear();
      if (retry.empty())
        break;
      // (The launches as they are now: a consumer that took a producer's
      // output as its own is a new launch.)
      launches.clear();
      func.walk([&](LaunchOp launch) { launches.push_back(launch); });
      for (LaunchOp consumer : llvm::reverse(launches))
        if (retry.contains(consumer))
          process(consumer);
    }
  }

private:
  /// Pulls producers into `consumer` while the cost model allows.
  void process(LaunchOp consumer) {
    // (A launch that updates an operand in place stores only what
    // changes: it is neither fused into nor fused. A scatter-add's, whose
    // stores all accumulate, takes producers of its other operands.)
    if (erased.contains(consumer) ||
        (consumer.getUpdates() && !onlyAccumulates(consumer)))
      return;
    KernelOp ck = kernelOf(consumer);
    if (!ck || !launchedOnce(ck))
      return;
    clean(ck);
    if (clean.formsOnlineFolds() && tryOnlineFusion(consumer, ck))
      grown.insert(consumer);
    // A producer rejected once is not tried again for this consumer (each
    // trial copies and cleans the whole consumer) until its number of
    // users changes, which changes the bytes its fusion saves.
    DenseMap<Operation *, size_t> rejected;
    bool changed = true;
    while (changed) {
      changed = false;
      for (unsigned pos = 0; pos < consumer.getInputs().size(); ++pos) {
        auto producer = consumer.getInputs()[pos].getDefiningOp<LaunchOp>();
        if (!producer || producer.getUpdates() || updatesInput(consumer, pos))
          continue;
        size_t users =
            std::distance(producer->use_begin(), producer->use_end());
        auto it = rejected.find(producer);
        if (it != rejected.end() && it->second == users)
          continue;
        if (tryInline(producer, consumer, ck, pos)) {
          changed = true;
          grown.insert(consumer);
          // A sum just taken in (p @ v under an epilogue) may now take
          // its softmax.
          if (clean.formsOnlineFolds() && tryOnlineFusion(consumer, ck))
            rejected.clear();
          break;
        }
        rejected[producer] = users;
      }
    }
    for (auto &[producer, users] : rejected)
      waiting[producer].push_back(consumer);
  }

  /// Whether every store of `launch`'s kernel accumulates (a
  /// scatter-add's adds).
  bool onlyAccumulates(LaunchOp launch) {
    KernelOp kernel = kernelOf(launch);
    return kernel && accumulatesOnly(kernel);
  }

  /// Whether `launch` updates its input #pos in place.
  static bool updatesInput(LaunchOp launch, unsigned pos) {
    std::optional<ArrayRef<int64_t>> updates = launch.getUpdates();
    return updates && llvm::is_contained(*updates, int64_t(pos));
  }

  /// Pulls into the elementwise `consumer` (no fold) the elementwise
  /// producers whose only user it is and which it reads only at its own
  /// loop indices (the first phase of run()).
  void takeElementwise(LaunchOp consumer) {
    if (erased.contains(consumer) || consumer.getUpdates())
      return;
    KernelOp ck = kernelOf(consumer);
    if (!ck || !launchedOnce(ck) || !foldFree(ck) ||
        !sharesInCone(consumer))
      return;
    bool changed = true;
    while (changed) {
      changed = false;
      std::optional<PointwiseNest> nest = getPointwiseNest(ck);
      if (!nest)
        return;
      for (unsigned pos = 0; pos < consumer.getInputs().size(); ++pos) {
        auto producer = consumer.getInputs()[pos].getDefiningOp<LaunchOp>();
        if (!producer || producer.getUpdates() ||
            producer->getNumResults() != 1 ||
            llvm::any_of(producer->getUsers(),
                         [&](Operation *u) { return u != consumer; }) ||
            !readsAtLoopIndices(ck, pos, *nest))
          continue;
        KernelOp pk = kernelOf(producer);
        if (!pk || !foldFree(pk))
          continue;
        if (tryInline(producer, consumer, ck, pos)) {
          changed = true;
          grown.insert(consumer);
          break;
        }
      }
    }
  }

  /// Whether the producers that the first phase could bring into
  /// `consumer` (transitively: elementwise, read at the loop indices)
  /// gather (load at positions computed from loaded values) and share
  /// values: one of them has several users, all of them such producers or
  /// the consumer. Only there does the first phase act (a binary search
  /// along sorted runs). A chain without sharing is left to the cost rule
  /// step by step, which counts each intermediate's bytes (a
  /// dequantization chain taken into attention's key operand), and so is
  /// a graph without gathers (topk's rounds, whose masks row reductions
  /// take in).
  bool sharesInCone(LaunchOp consumer) {
    SmallPtrSet<Operation *, 16> cone{consumer};
    SmallVector<LaunchOp> work{consumer};
    bool gathers = false;
    while (!work.empty()) {
      LaunchOp launch = work.pop_back_val();
      KernelOp kernel = kernelOf(launch);
      if (!kernel || !foldFree(kernel))
        continue;
      std::optional<PointwiseNest> nest = getPointwiseNest(kernel);
      if (!nest)
        continue;
      gathers |= kernel
                     .walk([](LoadOp load) {
                       return llvm::any_of(load.getIndices(), computedFromLoad)
                                  ? WalkResult::interrupt()
                                  : WalkResult::advance();
                     })
                     .wasInterrupted();
      for (unsigned pos = 0; pos < launch.getInputs().size(); ++pos) {
        auto producer = launch.getInputs()[pos].getDefiningOp<LaunchOp>();
        if (!producer || producer.getUpdates() ||
            producer->getNumResults() != 1 ||
            !readsAtLoopIndices(kernel, pos, *nest))
          continue;
        if (cone.insert(producer).second)
          work.push_back(producer);
      }
    }
    return gathers && llvm::any_of(cone, [&](Operation *member) {
      if (member == consumer.getOperation())
        return false;
      SmallPtrSet<Operation *, 4> users(member->user_begin(),
                                        member->user_end());
      return users.size() > 1 &&
             llvm::all_of(users, [&](Operation *u) { return cone.contains(u); });
    });
  }

  /// Whether `v` is computed from a value loaded in its kernel.
  static bool computedFromLoad(Value v) {
    SmallVector<Value> work{v};
    DenseSet<Value> seen{v};
    while (!work.empty()) {
      Operation *def = work.pop_back_val().getDefiningOp();
      if (!def)
        continue;
      if (isa<LoadOp>(def))
        return true;
      for (Value o : def->getOperands())
        if (seen.insert(o).second)
          work.push_back(o);
    }
    return false;
  }

  /// Whether `kernel` has no fold (nor online fold).
  static bool foldFree(KernelOp kernel) {
    return !kernel
                .walk([](Operation *op) {
                  return isa<FoldOp, OnlineFoldOp>(op) ? WalkResult::interrupt()
                                                       : WalkResult::advance();
                })
                .wasInterrupted();
  }

  /// Whether every read of input `pos` of `ck` (pointwise, `nest`) is a
  /// load at the nest's loop indices of a buffer of the output's shape.
  static bool readsAtLoopIndices(KernelOp ck, unsigned pos,
                                 PointwiseNest &nest) {
    Value input = ck.getInputs()[pos];
    if (cast<ShapedType>(input.getType()).getShape() !=
        cast<ShapedType>(nest.store.getBuffer().getType()).getShape())
      return false;
    return llvm::all_of(input.getUsers(), [&](Operation *user) {
      auto load = dyn_cast<LoadOp>(user);
      return load && load.getIndices().size() == nest.loops.size() &&
             llvm::all_of(llvm::zip(load.getIndices(), nest.loops),
                          [](auto pair) {
                            auto [index, loop] = pair;
                            return index == loop.getInductionVar();
                          });
    });
  }

  KernelOp kernelOf(LaunchOp launch) {
    return symbols.lookup<KernelOp>(launch.getKernel());
  }

  bool launchedOnce(KernelOp kernel) {
    return launches.lookup(kernel.getSymNameAttr()) == 1;
  }

  /// The work of a producer once cleaned up, measured on a copy. A
  /// producer does not change until it is erased, so it is measured once.
  double cleanedWork(KernelOp kernel) {
    auto [it, inserted] = producerWork.try_emplace(kernel, 0.0);
    if (!inserted)
      return it->second;
    auto copy = cast<KernelOp>(kernel->clone());
    clean(copy);
    it->second = estimateWork(copy);
    copy->erase();
    return it->second;
  }

  /// Whether `producer` sums, in a fold, the blocks of a contraction
  /// batched over them that it has yet to take in (through elementwise
  /// kernels: a block-scaled product's sum over K blocks, before it is
  /// one). Its consumers wait until it has: taken in alone, a sum beside a
  /// sibling's would stay apart from its contraction.
  bool sumsBlocksAhead(LaunchOp producer, KernelOp pk) {
    bool ahead = false;
    pk.walk([&](FoldOp fold) {
      for (Operation *user : fold.getInductionVar().getUsers()) {
        auto load = dyn_cast<LoadOp>(user);
        if (!load || load.getIndices().empty() ||
            load.getIndices().front() != fold.getInductionVar() ||
            !fold->isAncestor(load))
          continue;
        auto input = dyn_cast<BlockArgument>(load.getBuffer());
        if (!input || input.getOwner()->getParentOp() != pk)
          continue;
        // Through single-use elementwise launches to a batched contraction
        // over the fold's length.
        ahead |= reachesBatchedContraction(
            producer.getInputs()[input.getArgNumber()],
            fold.getTripCountAtHint(), /*depth=*/4);
      }
    });
    return ahead;
  }

  /// Whether `producer` chooses, by a condition that is the same for a
  /// whole output tile (one per batch: a grouped GEMM's block that holds no
  /// group's rows), between a tiled contraction's result, which it alone
  /// reads, and something else. Its consumers wait until it has taken the
  /// contraction in: the choice is then the contraction's epilogue, and the
  /// contraction's K loop runs only where the choice reads it (Tile IR).
  bool guardsContractionAhead(LaunchOp producer, const PointwiseNest &nest) {
    SmallVector<Value, 2> tileIvs;
    for (ParallelOp loop : llvm::reverse(nest.loops))
      if (tileIvs.size() < 2 &&
          (loop.hasDynamicUpper() || loop.getUpper() - loop.getLower() > 1))
        tileIvs.push_back(loop.getInductionVar());
    KernelOp pk = kernelOf(producer);
    for (auto [pos, input] : llvm::enumerate(producer.getInputs())) {
      auto source = input.getDefiningOp<LaunchOp>();
      KernelOp sk = source ? kernelOf(source) : KernelOp();
      if (!sk || !input.hasOneUse() ||
          findTiledContractions(sk).folds.empty())
        continue;
      Value arg = pk.getInputs()[pos];
      for (Operation &op : *nest.body) {
        auto select = dyn_cast<arith::SelectOp>(op);
        if (!select)
          continue;
        DenseSet<Value> ivs;
        collectThroughBroadcasts(select.getCondition(), producer, pk, ivs);
        if (llvm::any_of(tileIvs, [&](Value iv) { return ivs.contains(iv); }))
          continue;
        for (Value side : {select.getTrueValue(), select.getFalseValue()}) {
          Operation *def = side.getDefiningOp();
          while (def && !isa<LoadOp>(def) && def->getNumOperands() == 1)
            def = def->getOperand(0).getDefiningOp();
          if (auto load = dyn_cast_or_null<LoadOp>(def);
              load && load.getBuffer() == arg)
            return true;
        }
      }
    }
    return false;
  }

  /// The induction variables `v` (in the kernel `k` that `launch`
  /// launches) depends on, where a load of an input that a broadcast
  /// produces (a kernel storing one element of its own input, not yet
  /// taken in) depends only on the indices at the dimensions the broadcast
  /// reads.
  void collectThroughBroadcasts(Value v, LaunchOp launch, KernelOp k,
                                DenseSet<Value> &ivs) {
    SmallVector<Value> work{v};
    DenseSet<Value> seen;
    while (!work.empty()) {
      Value value = work.pop_back_val();
      if (!seen.insert(value).second)
        continue;
      Operation *def = value.getDefiningOp();
      if (!def) {
        collectInductionVars(value, ivs);
        continue;
      }
      auto load = dyn_cast<LoadOp>(def);
      auto arg = load ? dyn_cast<BlockArgument>(load.getBuffer()) : nullptr;
      auto source = arg && arg.getOwner()->getParentOp() == k
                        ? launch.getInputs()[arg.getArgNumber()]
                              .getDefiningOp<LaunchOp>()
                        : LaunchOp();
      KernelOp bk = source ? kernelOf(source) : KernelOp();
      std::optional<PointwiseNest> nest =
          bk ? getPointwiseNest(bk) : std::nullopt;
      auto read = nest ? nest->store.getValue().getDefiningOp<LoadOp>()
                       : LoadOp();
      if (!read || read->getBlock() != nest->body ||
          nest->loops.size() != load.getIndices().size()) {
        llvm::append_range(work, def->getOperands());
        continue;
      }
      // A broadcast's element: the indices at the dimensions it reads.
      for (auto [d, loop] : llvm::enumerate(nest->loops))
        if (llvm::is_contained(read.getIndices(), loop.getInductionVar()))
          work.push_back(load.getIndices()[d]);
    }
  }

  /// Whether `v` is the result of a contraction batched over `batch` (its
  /// leading dimension), or of a single-use elementwise launch of `v`'s
  /// shape (no folds) that reads one, within `depth` launches.
  bool reachesBatchedContraction(Value v, int64_t batch, int depth) {
    auto launch = v.getDefiningOp<LaunchOp>();
    KernelOp k = launch ? kernelOf(launch) : KernelOp();
    if (!k || launch->getNumResults() != 1 || depth == 0)
      return false;
    auto type = cast<RankedTensorType>(v.getType());
    if (hasContraction(k)) {
      // (Over blocks that a block-scaled sum can hold.)
      bool blocks = false;
      k.walk([&](FoldOp fold) { blocks |= isBlockSum(fold); });
      return blocks && type.getRank() >= 3 && type.getDimSize(0) == batch;
    }
    bool folds = false;
    k.walk([&](FoldOp) { folds = true; });
    if (folds || !launch->hasOneUse())
      return false;
    return llvm::any_of(launch.getInputs(), [&](Value in) {
      return in.getType() == type &&
             reachesBatchedContraction(in, batch, depth - 1);
    });
  }

  /// Whether `kernel` contains a contraction (a sum of products).
  static bool hasContraction(KernelOp kernel) {
    bool found = false;
    kernel.walk([&](FoldOp fold) { found |= isSumOfProducts(fold); });
    return found;
  }

  /// Whether a producer the online-softmax fusion could take (through
  /// producers that are not contractions) folds a maximum: a cheap test
  /// before trying it.
  bool reachesMaximum(LaunchOp consumer) {
    SmallVector<LaunchOp> work{consumer};
    DenseSet<Operation *> seen;
    while (!work.empty() && seen.size() < 64) {
      LaunchOp launch = work.pop_back_val();
      for (Value input : launch.getInputs()) {
        auto producer = input.getDefiningOp<LaunchOp>();
        if (!producer || !seen.insert(producer).second)
          continue;
        KernelOp pk = kernelOf(producer);
        if (!pk || hasContraction(pk))
          continue;
        bool max = false;
        pk.walk([&](FoldOp fold) {
          max |= fold.getCombine() == CombineKind::max;
        });
        if (max)
          return true;
        work.push_back(producer);
      }
    }
    return false;
  }

  /// Online-softmax fusion: a consumer that sums `p_j * g_j`, where `p` is
  /// computed from scores by exponentials shifted by their row maximum and
  /// normalized by their sum (softmax, under any masking or scaling), takes
  /// in the whole computation of `p` from the scores (the producers that
  /// are not contractions, nearest first) when that turns its sum into an
  /// online fold (OnlineFold.cpp) and every producer it took disappears.
  /// Fusing these one at a time never pays (each step alone would recompute
  /// exponentials for every column); together they read each score once.
  /// The producer of the scores (a contraction) is left to the cost rule.
  bool tryOnlineFusion(LaunchOp consumer, KernelOp ck) {
    bool sums = false;
    ck.walk([&](FoldOp fold) {
      sums |= fold.getCombine() == CombineKind::add &&
              isa<FloatType>(fold.getType());
    });
    if (!sums || !reachesMaximum(consumer))
      return false;
    auto trial = cast<KernelOp>(ck->clone());
    SmallVector<Value> inputs(consumer.getInputs());
    SmallVector<StringAttr> names = sizeNames(consumer);
    SmallVector<LaunchOp> taken;
    // Every producer taken must disappear (its users are the consumer and
    // the other producers taken), but for generators without inputs (an
    // iota, a constant), which are index arithmetic wherever they are.
    DenseSet<Operation *> absorbed{consumer};
    auto dies = [&](LaunchOp p) {
      return llvm::all_of(p->getUsers(), [&](Operation *u) {
        return absorbed.contains(u);
      });
    };
    DenseSet<Operation *> kept;
    bool formed = false;
    // Until no producer is left to take (a bounded number of copies: a
    // producer read on several paths, as a mask's iota, is taken again
    // each time another producer brings it back).
    for (int round = 0; round < 96; ++round) {
      LaunchOp next;
      unsigned pos = 0;
      for (auto [k, input] : llvm::enumerate(inputs)) {
        auto producer = input.getDefiningOp<LaunchOp>();
        KernelOp pk = producer && !producer.getUpdates() ? kernelOf(producer)
                                                         : KernelOp();
        if (!pk || pk == ck || kept.contains(producer) ||
            producer->getNumResults() != 1 || !launchedOnce(pk) ||
            hasContraction(pk) || !getPointwiseNest(pk) ||
            !llvm::all_of(trial.getInputs()[k].getUsers(),
                          [](Operation *u) { return isa<LoadOp>(u); }))
          continue;
        // Not yet: a producer that others outside (another layer's
        // attention reading the same mask) keep alive stays a kernel of
        // its own, read by the fused one.
        if (!dies(producer) && !producer.getInputs().empty())
          continue;
        next = producer;
        pos = k;
        break;
      }
      if (!next)
        break;
      KernelOp pk = kernelOf(next);
      std::optional<PointwiseNest> nest = getPointwiseNest(pk);
      // A producer whose computation would loop inside a fold of the
      // consumer (a cumulative sum's blocks behind the positions a mask
      // compares) stays a kernel of its own, read by the fused one.
      unsigned nestedBefore = countLoopsInFolds(trial);
      auto backup = cast<KernelOp>(trial->clone());
      SmallVector<Value> backupInputs(inputs);
      SmallVector<StringAttr> backupNames(names);
      inputs = inlineInto(trial, inputs, names, pos, next, pk, *nest);
      clean(trial);
      if (countLoopsInFolds(trial) > nestedBefore) {
        trial->erase();
        trial = backup;
        inputs = std::move(backupInputs);
        names = std::move(backupNames);
        kept.insert(next);
        continue;
      }
      backup->erase();
      if (!llvm::is_contained(taken, next))
        taken.push_back(next);
      absorbed.insert(next);
      // Formed: a weighted online fold, and no maximum left over.
      bool weighted = false, maxLeft = false;
      trial.walk([&](OnlineFoldOp op) {
        weighted |= !op.getAccumulators().empty();
      });
      trial.walk([&](FoldOp op) {
        maxLeft |= op.getCombine() == CombineKind::max;
      });
      formed = weighted && !maxLeft;
    }
    if (!formed || findTileProblem(trial)) {
      trial->erase();
      return false;
    }
    // What the producers computed is now computed in the consumer: it may
    // cost more there (a producer of the weights is recomputed per query)
    // only as far as the traffic saved pays for it.
    double savedBytes = 0, producersWork = 0;
    for (LaunchOp p : taken) {
      if (!dies(p))
        continue;
      savedBytes += 2 * bytesAtHints(p.getOutputs()[0]);
      producersWork += cleanedWork(kernelOf(p));
    }
    if (estimateWork(trial) - estimateWork(ck) - producersWork >
        flopsPerByte * savedBytes) {
      trial->erase();
      return false;
    }
    adopt(consumer, ck, trial, inputs, names);
    // Later producers use earlier ones: erased last first.
    llvm::sort(taken, [](LaunchOp a, LaunchOp b) {
      return b->isBeforeInBlock(a);
    });
    for (LaunchOp p : taken)
      eraseIfUnused(p);
    return true;
  }

  /// Keeps the trial as the consumer's kernel, launched on `inputs` with
  /// the sizes `names`.
  void adopt(LaunchOp consumer, KernelOp ck, KernelOp trial,
             ArrayRef<Value> inputs, ArrayRef<StringAttr> names) {
    ck.getBody().takeBody(trial.getBody());
    ck.setNumInputs(trial.getNumInputs());
    ck.setNumSizes(trial.getNumSizes());
    ck.setSizeRangesAttr(trial.getSizeRangesAttr());
    ck.setSizeHintsAttr(trial.getSizeHintsAttr());
    ck.setBufferDimsAttr(trial.getBufferDimsAttr());
    trial->erase();
    consumer.getInputsMutable().assign(inputs);
    consumer.setSizesAttr(
        ArrayAttr::get(consumer.getContext(),
                       SmallVector<Attribute>(names.begin(), names.end())));
  }

  /// The names of the sizes a launch passes.
  static SmallVector<StringAttr> sizeNames(LaunchOp launch) {
    return llvm::to_vector(llvm::map_range(launch.getSizes(), [](Attribute a) {
      return cast<StringAttr>(a);
    }));
  }

  /// Erases a producer's launch that nothing uses any more, and its kernel
  /// with its last launch.
  void eraseIfUnused(LaunchOp producer) {
    if (!producer->use_empty())
      return;
    KernelOp pk = kernelOf(producer);
    erased.insert(producer);
    producer.erase();
    if (--launches[pk.getSymNameAttr()] == 0) {
      producerWork.erase(pk);
      symbols.erase(pk);
    }
  }

  /// Inlines `producer` (kernel `pk` in pointwise form `nest`) into
  /// `target`, a kernel whose launch takes `inputs` and the sizes `names`,
  /// at every load of input `pos`. Returns the target's new launch inputs;
  /// `names` gets the sizes the producer brings.
  SmallVector<Value> inlineInto(KernelOp target, ArrayRef<Value> inputs,
                                SmallVector<StringAttr> &names, unsigned pos,
                                LaunchOp producer, KernelOp pk,
                                PointwiseNest &nest) {
    SmallVector<Value> newInputs(inputs);
    BlockArgument buffer = target.getInputs()[pos];

    // Map the producer's sizes onto the target's by the names their
    // launches pass (the same function's sizes), adding new ones.
    IRMapping base;
    mapSizesByName(pk, producer, target, names, base);
    auto mappedSizes = [&](BlockArgument parg) {
      SmallVector<BlockArgument> sizes;
      for (BlockArgument size : pk.getBufferSizes(parg))
        sizes.push_back(cast<BlockArgument>(base.lookup(size)));
      return sizes;
    };

    // Map the producer's inputs onto the target's, adding new ones.
    for (auto [k, input] : llvm::enumerate(producer.getInputs())) {
      BlockArgument parg = pk.getInputs()[k];
      auto existing = llvm::find(newInputs, input);
      if (existing != newInputs.end()) {
        base.map(parg, target.getInputs()[existing - newInputs.begin()]);
        continue;
      }
      BlockArgument arg =
          target.insertInput(target.getNumInputs(), parg.getType(),
                             mappedSizes(parg), parg.getLoc());
      newInputs.push_back(input);
      base.map(parg, arg);
    }

    OpBuilder builder(target.getContext());
    for (Operation *user : llvm::make_early_inc_range(buffer.getUsers())) {
      auto load = cast<LoadOp>(user);
      // A fresh mapping per copy: Region::cloneInto treats block arguments
      // already in the mapping as deleted.
      IRMapping map = base;
      builder.setInsertionPoint(load);
      for (auto [loop, index] : llvm::zip(nest.loops, load.getIndices()))
        map.map(loop.getInductionVar(), index);
      for (Operation *op : nest.hoisted)
        builder.clone(*op, map);
      for (Operation &op : bodyOps(nest.body))
        if (&op != nest.store.getOperation())
          builder.clone(op, map);
      load.replaceAllUsesWith(map.lookupOrDefault(nest.store.getValue()));
      load.erase();
    }

    target.eraseInput(buffer.getArgNumber());
    newInputs.erase(newInputs.begin() + pos);
    return newInputs;
  }

  /// Whether `producer` computes integers or booleans (no math functions,
  /// at most 8 operations per element) into at least 8 times the bytes it
  /// reads: a broadcast of a few vectors into a grid.
  bool isCheapExpansion(LaunchOp producer, KernelOp pk) {
    auto type = cast<RankedTensorType>(producer->getResult(0).getType());
    if (!type.getElementType().isIntOrIndex())
      return false;
    double read = 0;
    for (Value input : producer.getInputs())
      read += bytesAtHints(input);
    double written = bytesAtHints(producer->getResult(0));
    if (written < 8 * read)
      return false;
    bool math = pk.walk([](Operation *op) {
                    return isa<math::MathDialect>(op->getDialect())
                               ? WalkResult::interrupt()
                               : WalkResult::advance();
                  }).wasInterrupted();
    double elements = written / xtile::getElementBytes(type.getElementType());
    return !math && cleanedWork(pk) <= 8 * elements;
  }

  /// Fuses `producer` into `consumer` when the cost model says it pays:
  /// the work it adds (recomputation) must not exceed what the device
  /// memory traffic it removes is worth, `flopsPerByte` per byte.
  bool tryInline(LaunchOp producer, LaunchOp &consumer, KernelOp ck,
                 unsigned pos) {
    if (producer->getNumResults() != 1)
      return false;
    KernelOp pk = kernelOf(producer);
    if (!pk || pk == ck || !launchedOnce(pk) || sumsBlocksAhead(producer, pk))
      return false;
    std::optional<PointwiseNest> nest = getPointwiseNest(pk);
    if (!nest || guardsContractionAhead(producer, *nest))
      return false;
    for (Operation *user : ck.getInputs()[pos].getUsers())
      if (!isa<LoadOp>(user))
        return false;
    // A launch updating an operand in place never reads it through a
    // producer: the buffer changes while the kernel runs.
    if (std::optional<ArrayRef<int64_t>> updates = consumer.getUpdates())
      for (int64_t u : *updates)
        if (u >= 0 && llvm::is_contained(producer.getInputs(),
                                         consumer.getInputs()[u]))
          return false;
    // Read by others too: the consumer may write what they read (not a
    // launch that updates in place, whose outputs stay its operands').
    if (!consumer.getUpdates() &&
        llvm::any_of(producer->getUsers(),
                     [&](Operation *u) { return u != consumer; }) &&
        tryInlineWriting(producer, consumer, ck, pos, pk, *nest))
      return true;

    // Try it on a copy of the consumer.
    auto trial = cast<KernelOp>(ck->clone());
    SmallVector<Value> inputs(consumer.getInputs());
    SmallVector<StringAttr> names = sizeNames(consumer);
    SmallVector<Value> newInputs =
        inlineInto(trial, inputs, names, pos, producer, pk, *nest);
    clean(trial);
    // Never build a kernel the Tile IR lowering must reject when the
    // consumer alone has a Tile IR form, nor turn a tiled contraction into
    // one dot product per output element (a gather of a matmul's rows
    // reads them from the matmul instead) other than attention's scores.
    auto online = [](KernelOp k) {
      return k.walk([](OnlineFoldOp) { return WalkResult::interrupt(); })
          .wasInterrupted();
    };
    if (!findTiledContractions(pk).folds.empty() &&
        findTiledContractions(trial).folds.empty() && !online(trial)) {
      trial->erase();
      return false;
    }
    if (findTileProblem(trial) && !findTileProblem(ck)) {
      trial->erase();
      return false;
    }
    if (countOps(trial) > kMaxKernelOps) {
      trial->erase();
      return false;
    }

    // Device-memory traffic saved. The consumer no longer reads the
    // producer's output. If this consumer is the producer's only user, the
    // producer disappears: its write goes, and so do its reads of inputs the
    // consumer reads anyway (its other reads move to the consumer). Else the
    // producer still runs, and its inputs the consumer did not read are new
    // reads.
    bool producerDies = producer->hasOneUse();
    double savedBytes = bytesAtHints(producer.getOutputs()[0]);
    if (producerDies)
      savedBytes += bytesAtHints(producer.getOutputs()[0]);
    for (Value input : producer.getInputs()) {
      bool shared = llvm::is_contained(inputs, input);
      if (producerDies && shared)
        savedBytes += bytesAtHints(input);
      else if (!producerDies && !shared)
        savedBytes -= bytesAtHints(input);
    }
    double addedWork = estimateWork(trial) - estimateWork(ck) -
                       (producerDies ? cleanedWork(pk) : 0.0);
    // A mask or an index grid computed from a few vectors is recomputed
    // by each consumer rather than read (every layer's attention reads the
    // model's S x S mask: computed there, with no S x S traffic, and its
    // causal part bounds the keys each query block visits), whatever the
    // consumer repeats it over (the heads).
    bool recomputed = isCheapExpansion(producer, pk);
    // A tiny producer whose launch goes, fused into a consumer that stays
    // tiny: the launch saved outweighs what is recomputed.
    bool launchSaved = producerDies && isTiny(pk) && isTiny(trial);
    if (!recomputed && !launchSaved && addedWork > flopsPerByte * savedBytes) {
      trial->erase();
      return false;
    }

    // The operands updated in place, at their new positions.
    SmallVector<int64_t> updates;
    if (std::optional<ArrayRef<int64_t>> old = consumer.getUpdates())
      for (int64_t u : *old)
        updates.push_back(u < 0 ? u
                                : llvm::find(newInputs, inputs[u]) -
                                      newInputs.begin());
    adopt(consumer, ck, trial, newInputs, names);
    if (!updates.empty())
      consumer.setUpdates(updates);
    eraseIfUnused(producer);
    return true;
  }

  /// Fuses `producer`, whose output others read too, into `consumer` so
  /// that the consumer also writes that output, which the others then
  /// read from it: the producer's work is done once, in the consumer, and
  /// its launch goes (a row's statistic beside the row: a quantization's
  /// scale, the mean and rstd a LayerNorm keeps for its backward). Only
  /// where the consumer's row loops visit each element of the producer's
  /// output exactly once (static shapes: its dimensions other than 1 are
  /// the row loops', in order, read at their indices), so that the value
  /// is stored at the row level; the others must come after the consumer.
  bool tryInlineWriting(LaunchOp producer, LaunchOp &consumer, KernelOp ck,
                        unsigned pos, KernelOp pk, PointwiseNest &nest) {
    // The consumer reads the output once (its other readers are then
    // pointed at the consumer's new output).
    if (llvm::count(consumer.getInputs(), producer->getResult(0)) != 1)
      return false;
    // Other readers before the consumer move after it, with what they
    // feed before it, where the consumer reads none of that.
    SmallVector<Operation *> movedAfter;
    SmallVector<Operation *> work;
    for (Operation *u : producer->getUsers())
      if (u != consumer)
        work.push_back(u);
    while (!work.empty()) {
      Operation *u = work.pop_back_val();
      if (u == consumer || u->getBlock() != consumer->getBlock())
        return false;
      if (consumer->isBeforeInBlock(u) || llvm::is_contained(movedAfter, u))
        continue;
      movedAfter.push_back(u);
      for (Operation *reader : u->getUsers())
        work.push_back(reader);
    }
    auto outType = cast<MemRefType>(pk.getOutputs()[0].getType());
    if (!outType.hasStaticShape())
      return false;
    if (ck.getInputs()[pos].use_empty())
      return false;
    // The consumer's loops that visit each element of the output once: its
    // row loops (a row statistic), or all its loops where it is elementwise
    // (an optimizer's moments, which its update of the parameter reads).
    auto elementLoops = [&](KernelOp k, bool elementwise) -> RowNestShape {
      if (!elementwise)
        return findRowNest(k);
      std::optional<PointwiseNest> nest =
          getPointwiseNest(k, /*manyOutputs=*/true);
      return nest ? RowNestShape{nest->loops, nest->body} : RowNestShape{};
    };
    // The loops of more than one iteration, matched with the producer's
    // dimensions: the same extents in the same order; every load reads the
    // element of its row: dimensions of 1 at 0, the others at those loops'
    // indices.
    auto wideLoops =
        [&](RowNestShape &rows) -> std::optional<SmallVector<unsigned>> {
      if (!rows.body)
        return std::nullopt;
      SmallVector<unsigned> wide;
      for (auto [k, loop] : llvm::enumerate(rows.rows)) {
        if (loop.hasDynamicUpper() || loop.getLower() != 0)
          return std::nullopt;
        if (loop.getUpper() != 1)
          wide.push_back(k);
      }
      SmallVector<int64_t> extents;
      for (int64_t d : outType.getShape())
        if (d != 1)
          extents.push_back(d);
      if (extents.size() != wide.size())
        return std::nullopt;
      for (auto [e, k] : llvm::zip(extents, wide))
        if (rows.rows[k].getUpper() != e)
          return std::nullopt;
      for (Operation *user : ck.getInputs()[pos].getUsers()) {
        auto indices = cast<LoadOp>(user).getIndices();
        unsigned next = 0;
        for (auto [d, index] : llvm::enumerate(indices)) {
          if (outType.getDimSize(d) == 1) {
            if (!isAlwaysZero(index))
              return std::nullopt;
            continue;
          }
          if (index != rows.rows[wide[next++]].getInductionVar())
            return std::nullopt;
        }
      }
      return wide;
    };
    bool elementwise = false;
    RowNestShape rows = elementLoops(ck, elementwise);
    std::optional<SmallVector<unsigned>> matched = wideLoops(rows);
    // (Elementwise consumers take elementwise producers whose value the
    // function returns, which is written anyway: a value only kernels
    // read is cheaper recomputed by each, and a product or a reduction
    // stays where sibling fusion shares it.)
    bool folds = pk.walk([](Operation *op) {
                     return isa<FoldOp, OnlineFoldOp>(op) ? WalkResult::interrupt()
                                                          : WalkResult::advance();
                   }).wasInterrupted();
    bool returned = llvm::any_of(producer->getUsers(), [](Operation *u) {
      return isa<func::ReturnOp>(u);
    });
    // (What neither folds nor is returned, only kernels read: each
    // computes it.)
    if (!folds && !returned)
      return false;
    if (!matched && !folds && returned) {
      elementwise = true;
      rows = elementLoops(ck, elementwise);
      matched = wideLoops(rows);
    }
    if (!matched)
      return false;
    SmallVector<unsigned> wide = *matched;

    // Try it on a copy of the consumer: a load and store of the element
    // at the end of its row body, then the producer inlined at its loads.
    auto trial = cast<KernelOp>(ck->clone());
    RowNestShape trialRows = elementLoops(trial, elementwise);
    BlockArgument out = trial.addOutput(outType, {}, producer.getLoc());
    OpBuilder builder(trial.getContext());
    Block *body = trialRows.body;
    if (body->mightHaveTerminator())
      builder.setInsertionPoint(body->getTerminator());
    else
      builder.setInsertionPointToEnd(body);
    Location loc = producer.getLoc();
    // The element's indices as the consumer reads it: a dimension of 1 at
    // 0 or at the index of a row loop from 0 to 1 (the same value, and the
    // same expression, which the inlined producer's then shares).
    auto read = cast<LoadOp>(*ck.getInputs()[pos].getUsers().begin());
    SmallVector<Value> indices;
    Value zero;
    unsigned next = 0;
    for (auto [d, size] : llvm::enumerate(outType.getShape())) {
      if (size != 1) {
        indices.push_back(trialRows.rows[wide[next++]].getInductionVar());
        continue;
      }
      auto row = llvm::find_if(rows.rows, [&](ParallelOp loop) {
        return loop.getInductionVar() == read.getIndices()[d];
      });
      if (row != rows.rows.end()) {
        indices.push_back(
            trialRows.rows[row - rows.rows.begin()].getInductionVar());
        continue;
      }
      if (!zero)
        zero = arith::ConstantIndexOp::create(builder, loc, 0);
      indices.push_back(zero);
    }
    Value element =
        LoadOp::create(builder, loc, trial.getInputs()[pos], indices);
    StoreOp::create(builder, loc, element, out, indices);
    SmallVector<Value> inputs(consumer.getInputs());
    SmallVector<StringAttr> names = sizeNames(consumer);
    SmallVector<Value> newInputs =
        inlineInto(trial, inputs, names, pos, producer, pk, nest);
    clean(trial);
    if (findTileProblem(trial) && !findTileProblem(ck)) {
      trial->erase();
      return false;
    }
    // Saved: the consumer's read of the output and the producer's reads of
    // what the consumer reads anyway; the output is still written once.
    double savedBytes = bytesAtHints(producer.getOutputs()[0]);
    for (Value input : producer.getInputs())
      if (llvm::is_contained(inputs, input))
        savedBytes += bytesAtHints(input);
    double addedWork =
        estimateWork(trial) - estimateWork(ck) - cleanedWork(pk);
    if (addedWork > flopsPerByte * savedBytes) {
      trial->erase();
      return false;
    }
    adopt(consumer, ck, trial, newInputs, names);
    llvm::sort(movedAfter,
               [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
    Operation *last = consumer;
    for (Operation *u : movedAfter) {
      u->moveAfter(last);
      last = u;
    }
    // The consumer's launch gains the output; the others read it there.
    builder.setInsertionPoint(consumer);
    SmallVector<Type> results(consumer.getResultTypes());
    results.push_back(producer->getResult(0).getType());
    auto launch = LaunchOp::create(builder, consumer.getLoc(), results,
                                   consumer.getKernel(), consumer.getInputs());
    launch.setSizesAttr(consumer.getSizesAttr());
    // (A new launch may reuse an erased one's address.)
    erased.erase(launch);
    consumer.replaceAllUsesWith(launch.getResults().drop_back(1));
    producer->getResult(0).replaceAllUsesWith(launch.getResults().back());
    erased.insert(consumer);
    replaced(consumer, launch);
    consumer.erase();
    consumer = launch;
    eraseIfUnused(producer);
    return true;
  }

  /// Carries what the revisits know of launch `old` over to `now`, which
  /// replaces it: a consumer that rejected a producer is revisited as the
  /// launch that replaced it, and one that grew is tried again by the
  /// consumers that rejected it.
  void replaced(Operation *old, Operation *now) {
    for (auto &[producer, consumers] : waiting)
      llvm::replace(consumers, old, now);
    if (auto it = waiting.find(old); it != waiting.end()) {
      SmallVector<Operation *> consumers = std::move(it->second);
      waiting.erase(it);
      waiting[now].append(consumers);
    }
    if (grown.erase(old))
      grown.insert(now);
  }

  ModuleOp module;
  SymbolTable symbols;
  const KernelCleaner &clean;
  double flopsPerByte;
  DenseMap<StringAttr, unsigned> launches;
  DenseMap<Operation *, double> producerWork;
  DenseSet<Operation *> erased;
  /// Producers rejected by consumers, and the launches that took in a
  /// producer, since the last revisit.
  DenseMap<Operation *, SmallVector<Operation *>> waiting;
  DenseSet<Operation *> grown;
};

/// Merges adjacent parallel loops with the same bounds in `block`, then
/// the loops that become adjacent inside them. Legal for any two loops of
/// one kernel: loops have no results and bodies only read inputs, so one
/// loop's body never observes the other's stores.
static void mergeAdjacentLoops(Block *block) {
  bool merged = true;
  while (merged) {
    merged = false;
    for (Operation &op : *block) {
      auto first = dyn_cast<ParallelOp>(&op);
      if (!first)
        continue;
      // The next parallel loop; pure ops in between (folds included) move
      // above `first` (they cannot use it: loops have no results).
      SmallVector<Operation *> between;
      Operation *next = first->getNextNode();
      while (next && !isa<ParallelOp>(next) && isMemoryEffectFree(next)) {
        between.push_back(next);
        next = next->getNextNode();
      }
      auto second = dyn_cast_or_null<ParallelOp>(next);
      if (!second || !first.hasSameBounds(second))
        continue;
      for (Operation *moved : between)
        moved->moveBefore(first);
      Block &into = first.getBodyBlock();
      second.getInductionVar().replaceAllUsesWith(first.getInductionVar());
      Operation *yield = into.getTerminator();
      for (Operation &inner :
           llvm::make_early_inc_range(bodyOps(&second.getBodyBlock())))
        inner.moveBefore(yield);
      second.erase();
      mergeAdjacentLoops(&into);
      merged = true;
      break;
    }
  }
}

/// Fills `merged`, whose buffers `map` maps `ka`'s and `kb`'s to, with both
/// bodies, their loop nests merged; false (and `merged` erased) where it
/// loses the Tile IR form both had.
static bool mergeBodies(KernelOp merged, KernelOp ka, KernelOp kb,
                        IRMapping &map) {
  Block *block = &merged.getBodyBlock();
  OpBuilder builder = OpBuilder::atBlockEnd(block);
  for (KernelOp k : {ka, kb})
    for (Operation &op : k.getBodyBlock())
      builder.clone(op, map);
  mergeAdjacentLoops(block);
  if (findTileProblem(merged) && !findTileProblem(ka) &&
      !findTileProblem(kb)) {
    merged->erase();
    return false;
  }
  return true;
}

/// Whether a launch strictly between `a` and `b` (of one block) writes a
/// buffer in place.
static bool updatesBetween(LaunchOp a, LaunchOp b) {
  for (Operation *op = a->getNextNode(); op && op != b.getOperation();
       op = op->getNextNode())
    if (auto l = dyn_cast<LaunchOp>(op); l && l.getUpdates())
      return true;
  return false;
}

/// The most buffers a kernel merged horizontally takes (its parameters
/// stay far below CUDA's 4 KiB).
static constexpr unsigned kMaxHorizontalBuffers = 128;

/// Sibling fusion: two launches that read a common input over the same
/// iteration space become one kernel with both outputs, so the shared input
/// is read once. Horizontal fusion: two elementwise launches over the same
/// iteration space that share nothing (an optimizer step's per-parameter
/// updates, each parameter's step count) become one kernel too, for one
/// launch instead of two at the same traffic.
static void fuseSiblings(ModuleOp module, func::FuncOp func,
                         bool horizontal) {
  SymbolTable symbols(module);
  DenseMap<StringAttr, unsigned> counts = countLaunches(module);
  auto launchedOnce = [&](KernelOp kernel) {
    return counts.lookup(kernel.getSymNameAttr()) == 1;
  };
  SmallVector<LaunchOp> launches;
  func.walk([&](LaunchOp launch) { launches.push_back(launch); });
  // Merging inserts the new launch where the first one was; dominance
  // between existing values and ops is unaffected.
  DominanceInfo dominance(func);
  DenseSet<Operation *> dead;
  // Only launches that share an input are candidates: per input, the
  // launches that read it, in program order.
  DenseMap<Value, SmallVector<size_t>> readers;
  for (auto [k, launch] : llvm::enumerate(launches))
    for (Value v : launch.getInputs())
      if (readers[v].empty() || readers[v].back() != k)
        readers[v].push_back(k);
  // Facts per kernel, each computed once (an erased kernel's entry goes
  // with it): elementwise (stores at the loops' indices and no fold: a
  // reduction keeps the schedule its own shape calls for), and tiny (its
  // launch is all it costs, so its folds' schedule does not matter).
  DenseMap<Operation *, bool> elementwiseKernels, tinyKernels;
  auto known = [&](DenseMap<Operation *, bool> &facts, LaunchOp launch,
                   function_ref<bool(KernelOp)> fact) {
    auto kernel = symbols.lookup<KernelOp>(launch.getKernel());
    if (!kernel)
      return false;
    auto [it, inserted] = facts.try_emplace(kernel, false);
    if (inserted)
      it->second = fact(kernel);
    return it->second;
  };
  auto elementwise = [&](LaunchOp launch) {
    return known(elementwiseKernels, launch, [](KernelOp kernel) {
      return getPointwiseNest(kernel, /*manyOutputs=*/true) &&
             !kernel
                  .walk([](Operation *op) {
                    return isa<FoldOp, OnlineFoldOp>(op)
                               ? WalkResult::interrupt()
                               : WalkResult::advance();
                  })
                  .wasInterrupted();
    });
  };
  auto tiny = [&](LaunchOp launch) {
    return known(tinyKernels, launch, isTiny);
  };
  auto mergeable = [&](LaunchOp a, LaunchOp b) {
    return (elementwise(a) && elementwise(b)) || (tiny(a) && tiny(b));
  };
  // Per iteration space (the first result's shape and dynamic sizes), the
  // launches over it, in program order.
  auto space = [](LaunchOp launch) -> Type {
    auto type = cast<RankedTensorType>(launch.getResult(0).getType());
    return type.clone(IntegerType::get(type.getContext(), 1));
  };
  DenseMap<Type, SmallVector<size_t>> spaces;
  if (horizontal)
    for (auto [k, launch] : llvm::enumerate(launches))
      if (launch->getNumResults())
        spaces[space(launch)].push_back(k);
  auto candidatesAfter = [&](LaunchOp launch, size_t after) {
    SmallVector<size_t> out;
    for (Value v : launch.getInputs())
      for (size_t k : readers.lookup(v))
        if (k > after)
          out.push_back(k);
    // Elementwise: the later launches of the same iteration space (those
    // that are elementwise are taken below).
    if (horizontal && (elementwise(launch) || tiny(launch)))
      for (size_t k : spaces.lookup(space(launch)))
        if (k > after)
          out.push_back(k);
    llvm::sort(out);
    out.erase(llvm::unique(out), out.end());
    return out;
  };
  for (size_t i = 0; i < launches.size(); ++i) {
    if (dead.contains(launches[i]))
      continue;
    SmallVector<size_t> candidates = candidatesAfter(launches[i], i);
    for (size_t c = 0; c < candidates.size(); ++c) {
      size_t j = candidates[c];
      LaunchOp a = launches[i], b = launches[j];
      if (dead.contains(b))
        continue;
      KernelOp ka = symbols.lookup<KernelOp>(a.getKernel());
      KernelOp kb = symbols.lookup<KernelOp>(b.getKernel());
      // (A launch that updates an input in place keeps its own kernel: the
      // merged launch would not say which results are whose.)
      if (!ka || !kb || ka == kb || !launchedOnce(ka) || !launchedOnce(kb) ||
          a->getBlock() != b->getBlock() || a.getUpdates() || b.getUpdates())
        continue;
      // The same iteration space: the same output shape, its dynamic
      // sizes the same sizes of the function.
      auto dimsOf = [](LaunchOp l) {
        return xtile::getDims(cast<RankedTensorType>(l.getResult(0).getType()));
      };
      if (dimsOf(a) != dimsOf(b))
        continue;
      bool shares = llvm::any_of(b.getInputs(), [&](Value v) {
        return llvm::is_contained(a.getInputs(), v);
      });
      // The merged launch replaces `a`: `b`'s inputs must exist there
      // (which also rules out `b` depending on `a`); a constant defined
      // between them moves up.
      auto movableConstant = [&](Value v) {
        Operation *def = v.getDefiningOp();
        return def && def->getNumOperands() == 0 && def->getNumRegions() == 0 &&
               isMemoryEffectFree(def) && def->getBlock() == a->getBlock();
      };
      bool available = llvm::all_of(b.getInputs(), [&](Value v) {
        return dominance.properlyDominates(v, a) || movableConstant(v);
      });
      // Else the merged launch may replace `b` instead, where nothing
      // reads `a`'s results before `b` and nothing between them writes a
      // buffer in place (which `a` would then read updated).
      bool late =
          !available &&
          llvm::all_of(a->getUsers(),
                       [&](Operation *user) {
                         Operation *at =
                             a->getBlock()->findAncestorOpInBlock(*user);
                         return at && b->isBeforeInBlock(at);
                       }) &&
          !updatesBetween(a, b);
      if (!available && !late)
        continue;
      if (!shares) {
        auto buffers = [](LaunchOp l) {
          return l.getInputs().size() + l.getNumResults();
        };
        if (!horizontal || buffers(a) + buffers(b) > kMaxHorizontalBuffers ||
            !mergeable(a, b))
          continue;
      }

      // One kernel: the sizes of both (by the names their launches pass);
      // a's buffers, then b's inputs not already there; a's outputs then
      // b's.
      SmallVector<Value> inputs(a.getInputs());
      OpBuilder builder(ka);
      auto merged = KernelOp::create(builder, ka.getLoc(), ka.getSymName(), 0);
      Block *block = builder.createBlock(&merged.getBody());
      IRMapping map;
      SmallVector<StringAttr> names;
      for (auto [l, k] : {std::make_pair(a, ka), std::make_pair(b, kb)})
        mapSizesByName(k, l, merged, names, map);
      auto mappedSizes = [&](KernelOp k, BlockArgument buffer) {
        SmallVector<BlockArgument> sizes;
        for (BlockArgument size : k.getBufferSizes(buffer))
          sizes.push_back(cast<BlockArgument>(map.lookup(size)));
        return sizes;
      };
      for (BlockArgument in : ka.getInputs())
        map.map(in, merged.insertInput(merged.getNumInputs(), in.getType(),
                                       mappedSizes(ka, in), ka.getLoc()));
      for (auto [k, v] : llvm::enumerate(b.getInputs())) {
        auto existing = llvm::find(inputs, v);
        if (existing != inputs.end()) {
          map.map(kb.getInputs()[k],
                  block->getArgument(existing - inputs.begin()));
          continue;
        }
        inputs.push_back(v);
        BlockArgument in = kb.getInputs()[k];
        map.map(in, merged.insertInput(merged.getNumInputs(), in.getType(),
                                       mappedSizes(kb, in), kb.getLoc()));
      }
      for (KernelOp k : {ka, kb})
        for (BlockArgument out : k.getOutputs())
          map.map(out, merged.addOutput(out.getType(), mappedSizes(k, out),
                                        k.getLoc()));
      if (!mergeBodies(merged, ka, kb, map))
        continue;

      if (!late)
        for (Value v : b.getInputs())
          if (!dominance.properlyDominates(v, a))
            v.getDefiningOp()->moveBefore(a);
      builder.setInsertionPoint(late ? b : a);
      SmallVector<Type> results(a.getResultTypes());
      llvm::append_range(results, b.getResultTypes());
      auto launch = LaunchOp::create(builder, a.getLoc(), results,
                                     merged.getSymName(), inputs);
      launch.setSizesAttr(ArrayAttr::get(
          builder.getContext(),
          SmallVector<Attribute>(names.begin(), names.end())));
      a.replaceAllUsesWith(launch.getResults().take_front(a.getNumResults()));
      b.replaceAllUsesWith(launch.getResults().drop_front(a.getNumResults()));
      dead.insert(a);
      dead.insert(b);
      a.erase();
      b.erase();
      counts.erase(kb.getSymNameAttr());
      elementwiseKernels.erase(ka);
      elementwiseKernels.erase(kb);
      tinyKernels.erase(ka);
      tinyKernels.erase(kb);
      symbols.erase(ka);
      symbols.erase(kb);
      symbols.insert(merged);
      counts[merged.getSymNameAttr()] = 1;
      // The merged launch may take further siblings, among the readers of
      // its inputs (a's and b's) after b.
      launches[i] = launch;
      candidates = candidatesAfter(launch, j);
      c = size_t(-1);
    }
  }
}

/// Chains of scatter-adds into one buffer (grid_sample's taps: each adds
/// into the result of the one before, which nothing else reads) become
/// one kernel over their common loops, doing every add: adds commute, and
/// what the adds read in common (the incoming gradient) is read once.
static void mergeAccumulatingChains(ModuleOp module, func::FuncOp func) {
  SymbolTable symbols(module);
  DenseMap<StringAttr, unsigned> counts = countLaunches(module);
  SmallVector<LaunchOp> launches;
  func.walk([&](LaunchOp launch) { launches.push_back(launch); });
  // The one operand a launch adds into, where it only adds.
  auto addsInto = [&](LaunchOp launch) -> std::optional<int64_t> {
    std::optional<ArrayRef<int64_t>> updates = launch.getUpdates();
    auto kernel = symbols.lookup<KernelOp>(launch.getKernel());
    if (!updates || updates->size() != 1 || (*updates)[0] < 0 || !kernel ||
        launch->getNumResults() != 1 || kernel.getNumSizes() ||
        counts.lookup(kernel.getSymNameAttr()) != 1 ||
        !accumulatesOnly(kernel))
      return std::nullopt;
    return (*updates)[0];
  };
  for (LaunchOp b : launches) {
    std::optional<int64_t> ub = addsInto(b);
    if (!ub)
      continue;
    auto a = b.getInputs()[*ub].getDefiningOp<LaunchOp>();
    if (!a || a->getBlock() != b->getBlock() || !a->hasOneUse())
      continue;
    std::optional<int64_t> ua = addsInto(a);
    if (!ua)
      continue;
    auto ka = symbols.lookup<KernelOp>(a.getKernel());
    auto kb = symbols.lookup<KernelOp>(b.getKernel());
    auto bounds = [](KernelOp k) {
      SmallVector<int64_t> out;
      for (ParallelOp loop : getStaticParallelNest(k))
        out.push_back(loop.getUpper());
      return out;
    };
    SmallVector<int64_t> nest = bounds(ka);
    if (nest.empty() || nest != bounds(kb) ||
        a.getInputs().size() + b.getInputs().size() + 1 >
            kMaxHorizontalBuffers)
      continue;
    // `a`'s reads move to `b`: nothing between them may write a buffer.
    if (updatesBetween(a, b))
      continue;

    // b's buffers, adding into what a added into; then a's other inputs.
    SmallVector<Value> inputs(b.getInputs());
    inputs[*ub] = a.getInputs()[*ua];
    OpBuilder builder(kb);
    auto merged = KernelOp::create(builder, kb.getLoc(), kb.getSymName(), 0);
    Block *block = builder.createBlock(&merged.getBody());
    IRMapping map;
    for (BlockArgument in : kb.getInputs())
      map.map(in, merged.insertInput(merged.getNumInputs(), in.getType(), {},
                                     kb.getLoc()));
    for (auto [k, v] : llvm::enumerate(a.getInputs())) {
      BlockArgument in = ka.getInputs()[k];
      auto existing = llvm::find(inputs, v);
      if (int64_t(k) == *ua)
        existing = inputs.begin() + *ub;
      if (existing != inputs.end()) {
        map.map(in, block->getArgument(existing - inputs.begin()));
        continue;
      }
      inputs.push_back(v);
      map.map(in, merged.insertInput(merged.getNumInputs(), in.getType(), {},
                                     ka.getLoc()));
    }
    BlockArgument out = kb.getOutputs()[0];
    BlockArgument sum = merged.addOutput(out.getType(), {}, kb.getLoc());
    map.map(ka.getOutputs()[0], sum);
    map.map(out, sum);
    if (!mergeBodies(merged, ka, kb, map))
      continue;
    builder.setInsertionPoint(b);
    auto launch = LaunchOp::create(builder, b.getLoc(), b.getResultTypes(),
                                   merged.getSymName(), inputs);
    launch.setSizesAttr(builder.getArrayAttr({}));
    launch.setUpdates(ArrayRef<int64_t>{*ub});
    b.replaceAllUsesWith(launch.getResults());
    b.erase();
    a.erase();
    counts.erase(ka.getSymNameAttr());
    counts.erase(kb.getSymNameAttr());
    symbols.erase(ka);
    symbols.erase(kb);
    symbols.insert(merged);
    counts[merged.getSymNameAttr()] = 1;
  }
}

struct XLoopFusePass : xtile::loop::impl::XLoopFuseBase<XLoopFusePass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    KernelCleaner clean(&getContext(), onlineSoftmax);
    Fuser fuser(module, clean, flopsPerByte);
    for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      fuser.run(func);
    // Kernels that no launch pulled anything into are cleaned up too.
    for (KernelOp kernel : module.getOps<KernelOp>())
      clean(kernel);
    for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      fuseSiblings(module, func, horizontal);
    for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      mergeAccumulatingChains(module, func);
    for (KernelOp kernel : module.getOps<KernelOp>())
      clean(kernel);
    // Constants whose only users were inlined are dead now.
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    for (auto func : module.getOps<func::FuncOp>())
      (void)applyPatternsGreedily(func, RewritePatternSet(&getContext()),
                                  config);
  }
};

} // namespace
