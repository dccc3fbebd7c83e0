//===- KernelFacts.cpp - what a schedule is chosen from -------------------===//
//
// Recognizes a Loop IR kernel's row nest or contraction and measures what
// its schedule depends on.
//
//===----------------------------------------------------------------------===//

#include "xtile/Support/SymbolicDims.h"
#include "xtile/Conversion/LoopToTile/KernelFacts.h"
#include "xtile/Support/ErfComplement.h"
#include "xtile/Support/Storage.h"
#include "xtile/Dialect/Loop/Transforms/Passes.h"
#include "xtile/Dialect/Loop/Utils/Tileable.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include <numeric>

using namespace mlir;
using namespace xtile;
namespace xl = xtile::loop;
namespace xt = xtile::tile;

bool xtile::dependsOn(Value v, const DenseSet<Value> &values) {
  // Each value once: a graph that shares values (a binary search's bounds,
  // read by each next step twice) has exponentially many paths.
  SmallVector<Value> work{v};
  DenseSet<Value> seen{v};
  while (!work.empty()) {
    Value x = work.pop_back_val();
    if (values.contains(x))
      return true;
    Operation *def = x.getDefiningOp();
    if (!def || def->getNumRegions())
      continue;
    for (Value o : def->getOperands())
      if (seen.insert(o).second)
        work.push_back(o);
  }
  return false;
}

FailureOr<RowNest> xtile::analyzeRowNest(xl::KernelOp kernel) {
  RowNest nest;
  if (std::optional<xl::TileProblem> problem = xl::findTileProblem(kernel)) {
    InFlightDiagnostic diag = problem->op->emitOpError(problem->message);
    if (problem->dynamicSizes)
      markDynamicSizeLimit(diag);
    return diag;
  }
  xl::RowNestShape shape = xl::findRowNest(kernel);
  nest.rows = shape.rows;
  nest.body = shape.body;
  Block *block = shape.body;
  SmallVector<Value> rowIvs = xl::rowInductionVars(nest.rows);
  for (Operation &op : *block) {
    if (!op.getNumRegions())
      continue;
    int64_t extent;
    // Contractions run as xtile.dot, which accumulates in f32 (16-bit
    // operands are widened before their folds).
    auto checkAccumulator = [&](Value folded) -> LogicalResult {
      if (folded.getType().isF32())
        return success();
      return op.emitOpError("is a contraction accumulating in ")
             << folded.getType()
             << ", which is not supported: matmuls and attention take f16, "
                "bf16 or f32 operands and accumulate in f32";
    };
    if (auto online = dyn_cast<xl::OnlineFoldOp>(op)) {
      if (!online.getAccumulators().empty()) {
        nest.contraction = nest.attention = true;
        if (failed(checkAccumulator(online.getSum())))
          return failure();
      }
      extent = online.getTripCountAtHint();
      ++nest.folds;
    } else if (auto fold = dyn_cast<xl::FoldOp>(op)) {
      if (xl::isAnyContraction(fold, rowIvs)) {
        nest.contraction = true;
        if (failed(checkAccumulator(fold.getResult())))
          return failure();
      }
      extent = fold.getTripCountAtHint();
      ++nest.folds;
    } else {
      extent = cast<xl::ParallelOp>(op).getTripCountAtHint();
    }
    if (nest.columns && extent != nest.columns)
      nest.uniform = false;
    nest.columns = std::max(nest.columns, extent);
  }
  return nest;
}

/// 16-bit operands widened for a product go to the dot narrow: `x` and `y`
/// become the values widened when both are widened from one type.
static void narrowOperands(Value &x, Value &y) {
  auto extX = x.getDefiningOp<arith::ExtFOp>();
  auto extY = y.getDefiningOp<arith::ExtFOp>();
  if (extX && extY && extX.getIn().getType() == extY.getIn().getType()) {
    x = extX.getIn();
    y = extY.getIn();
  }
}

FailureOr<Contraction> xtile::analyzeContraction(xl::KernelOp kernel,
                                                 const RowNest &nest) {
  if (nest.rows.size() < 2)
    return kernel.emitOpError("is a contraction without two output "
                              "dimensions; not lowered to Tile IR yet");
  Contraction c;
  c.i = nest.rows[nest.rows.size() - 2];
  c.j = nest.rows.back();
  SmallVector<xl::FoldOp> folds;
  for (Operation &op : *nest.body)
    if (auto fold = dyn_cast<xl::FoldOp>(op))
      folds.push_back(fold);
    else if (isa<xl::ParallelOp>(op))
      return op.emitOpError(
          "loops beside a contraction are not lowered to Tile IR yet");

  // Each fold must be a sum of products a(i, k) * b(k, j), or of such sums
  // over blocks of K, scaled.
  SmallVector<Value> rowIvs = xl::rowInductionVars(nest.rows);
  for (xl::FoldOp fold : folds) {
    xl::FoldOp blocks;
    if (xl::FoldOp inner = xl::getScaledBlockSum(fold, rowIvs)) {
      blocks = fold;
      fold = inner;
    }
    if (!xl::isSumOfProducts(fold))
      return fold.emitOpError("is not a sum of products beside one; not "
                              "lowered to Tile IR yet");
    Operation *mul = fold.getYieldedValue().getDefiningOp();
    auto depends = [&](Value v, Value iv) {
      DenseSet<Value> ivs;
      xl::collectInductionVars(v, ivs);
      return ivs.contains(iv);
    };
    Value x = mul->getOperand(0), y = mul->getOperand(1);
    if (depends(x, c.j.getInductionVar()) || depends(y, c.i.getInductionVar()))
      std::swap(x, y);
    if (depends(x, c.j.getInductionVar()) || depends(y, c.i.getInductionVar()))
      return fold.emitOpError("mixes both output indices in one operand; "
                              "not lowered to Tile IR yet");
    narrowOperands(x, y);
    c.products.push_back({fold, x, y, blocks});
  }
  // (findTileProblem, which analyzeRowNest asks first, has checked that
  // the folds run over one length.)
  return c;
}

/// The attention form of a kernel whose innermost row body holds a
/// weighted online fold (findTileProblem has checked its structure).
static FailureOr<Contraction> analyzeAttention(xl::KernelOp kernel,
                                               const RowNest &nest) {
  Contraction c;
  c.i = nest.rows[nest.rows.size() - 2];
  c.j = nest.rows.back();
  for (Operation &op : *nest.body)
    if (auto online = dyn_cast<xl::OnlineFoldOp>(op))
      c.online = online;
  auto depends = [](Value v, Value iv) {
    DenseSet<Value> ivs;
    xl::collectInductionVars(v, ivs);
    return ivs.contains(iv);
  };
  // findTileProblem has checked that scores do not depend on the output
  // column, nor weights on the output row.
  Value jIv = c.j.getInductionVar(), iIv = c.i.getInductionVar();
  Value key = c.online.getInductionVar();
  for (Operation &op : c.online.getBodyBlock()) {
    auto fold = dyn_cast<xl::FoldOp>(op);
    if (!fold)
      continue;
    Operation *mul = fold.getYieldedValue().getDefiningOp();
    Value x = mul->getOperand(0), y = mul->getOperand(1);
    if (depends(x, key))
      std::swap(x, y);
    if (depends(x, key) || depends(y, iIv) || depends(fold, jIv))
      return fold.emitOpError("is a contraction in attention scores whose "
                              "operands mix the query and key indices; not "
                              "lowered to Tile IR");
    c.score = fold;
    narrowOperands(x, y);
    c.scoreProduct = {fold, x, y};
  }
  if (c.j.getTripCountAtHint() > 256 ||
      (c.score && c.score.getTripCountAtHint() > 256))
    return kernel.emitOpError("has an attention head dimension above 256; "
                              "not lowered to Tile IR yet");
  return c;
}

/// The query heads of an attention kernel that share a K/V head: K and V
/// (the scores' right operand and the weights) reach the innermost batch
/// row (the head) only through `head floordiv c`, c a multiple of the
/// group; K and V that do not depend on it are shared by every head. 1
/// when any other use of the head reaches them.
static int64_t headGroup(const RowNest &nest, const Contraction &c) {
  if (nest.rows.size() < 3)
    return 1;
  xl::ParallelOp row = nest.rows[nest.rows.size() - 3];
  Value head = row.getInductionVar();
  int64_t heads = row.getTripCountAtHint(), group = 0;
  SmallVector<Value> work{c.online.getYieldedWeights().front()};
  if (c.score)
    work.push_back(c.scoreProduct.b);
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (v == head)
      return 1;
    Operation *def = v.getDefiningOp();
    if (!def)
      continue;
    if (def->getNumRegions())
      return 1;
    if (auto apply = dyn_cast<affine::AffineApplyOp>(def)) {
      AffineExpr e = apply.getAffineMap().getResult(0);
      auto bin = dyn_cast<AffineBinaryOpExpr>(e);
      if (bin && e.getKind() == AffineExprKind::FloorDiv) {
        auto dim = dyn_cast<AffineDimExpr>(bin.getLHS());
        auto divisor = dyn_cast<AffineConstantExpr>(bin.getRHS());
        if (dim && divisor && divisor.getValue() > 0 &&
            apply.getOperands()[dim.getPosition()] == head &&
            llvm::count(apply.getOperands(), head) == 1) {
          group = std::gcd(group, divisor.getValue());
          for (Value o : apply.getOperands())
            if (o != head)
              work.push_back(o);
          continue;
        }
      }
    }
    llvm::append_range(work, def->getOperands());
  }
  if (group == 0)
    group = heads;
  return heads % group == 0 ? group : 1;
}

bool xtile::indexedThroughLoad(Value v, const DenseSet<Value> &ivs) {
  // (Value, whether it is an index of a load: 1 or 0), each visited once.
  SmallVector<std::pair<Value, int>> work{{v, 0}};
  DenseSet<std::pair<Value, int>> seen;
  while (!work.empty()) {
    auto [value, index] = work.pop_back_val();
    Operation *def = value.getDefiningOp();
    if (!def || !seen.insert({value, index}).second)
      continue;
    auto load = dyn_cast<xl::LoadOp>(def);
    if (load && index) {
      DenseSet<Value> used;
      for (Value i : load.getIndices())
        xl::collectInductionVars(i, used);
      if (llvm::any_of(used, [&](Value iv) { return ivs.contains(iv); }))
        return true;
    }
    if (load)
      for (Value i : load.getIndices())
        work.push_back({i, 1});
    else
      for (Value o : def->getOperands())
        work.push_back({o, index});
  }
  return false;
}

SmallVector<Value> xtile::programScalars(const Contraction &c) {
  DenseSet<Value> varying{c.i.getInductionVar(), c.j.getInductionVar()};
  for (const Contraction::Product &p : c.products) {
    varying.insert(p.fold.getInductionVar());
    if (p.blocks)
      varying.insert(p.blocks.getInductionVar());
  }
  auto invariant = [&](Value v) {
    DenseSet<Value> ivs;
    xl::collectInductionVars(v, ivs);
    return llvm::none_of(ivs, [&](Value iv) { return varying.contains(iv); });
  };
  SmallVector<Value> found;
  DenseSet<Value> seen;
  SmallVector<Value> work;
  for (const Contraction::Product &p : c.products)
    work.append({p.a, p.b});
  while (!work.empty()) {
    Value v = work.pop_back_val();
    Operation *def = v.getDefiningOp();
    if (!def || !seen.insert(v).second || matchPattern(v, m_Constant()))
      continue;
    if (!invariant(v) || def->getNumRegions() ||
        (!isPure(def) && !isa<xl::LoadOp>(def))) {
      llvm::append_range(work, def->getOperands());
      continue;
    }
    found.push_back(v);
  }
  return found;
}

static DotFacts dotFacts(xl::KernelOp kernel, const RowNest &nest,
                         const Contraction &c) {
  DotFacts f;
  xl::FoldOp first = c.products.front().fold;
  f.m = c.i.getTripCountAtHint();
  f.n = c.j.getTripCountAtHint();
  f.k = first.getTripCountAtHint();
  if (xl::FoldOp blocks = c.products.front().blocks) {
    f.scaleBlock = f.k;
    f.k *= blocks.getTripCountAtHint();
  }
  f.folds = c.products.size();
  for (xl::ParallelOp row : ArrayRef(nest.rows).drop_back(2))
    f.batch *= row.getTripCountAtHint();
  f.inBytes = getElementBytes(c.products.front().a.getType());
  f.tensorCoreOperands = llvm::all_of(c.products, [](const auto &p) {
    Type a = p.a.getType();
    return (a.isF16() || a.isBF16()) && p.b.getType() == a;
  });
  f.f32Operands = llvm::all_of(c.products, [](const auto &p) {
    return p.a.getType().isF32() && p.b.getType().isF32();
  });
  // Whether `v` is a load whose innermost index is `iv`: contiguous along
  // that loop in memory.
  // (Within a block of K: `kb * block + k`, the index plus others'.)
  auto loadedAlong = [](Value v, Value iv) {
    auto load = v.getDefiningOp<xl::LoadOp>();
    if (!load || load.getIndices().empty())
      return false;
    Value index = load.getIndices().back();
    if (index == iv)
      return true;
    auto apply = index.getDefiningOp<affine::AffineApplyOp>();
    if (!apply)
      return false;
    AffineMap map = apply.getAffineMap();
    AffineExpr e = map.getResult(0);
    for (auto [pos, operand] : llvm::enumerate(apply.getMapOperands()))
      if (operand == iv &&
          !simplifyAffineExpr(e - getAffineDimExpr(pos, e.getContext()),
                              map.getNumDims(), map.getNumSymbols())
               .isFunctionOfDim(pos))
        return llvm::count(apply.getMapOperands(), iv) == 1;
    return false;
  };
  f.rhsKMajor = llvm::all_of(c.products, [&](const auto &p) {
    return loadedAlong(p.b, p.fold.getInductionVar());
  });
  f.rhsNMajor = llvm::all_of(c.products, [&](const auto &p) {
    return loadedAlong(p.b, c.j.getInductionVar());
  });
  f.fp8Operands = f.rhsKMajor && llvm::all_of(c.products, [&](const auto &p) {
    Type a = p.a.getType();
    return xtile::isFp8(a) && p.b.getType() == a &&
           loadedAlong(p.a, p.fold.getInductionVar());
  });
  DenseSet<Value> rows{c.i.getInductionVar()};
  f.lhsRowsGathered = llvm::any_of(
      c.products, [&](const auto &p) { return indexedThroughLoad(p.a, rows); });
  f.programScalars = programScalars(c).size();
  for (BlockArgument out : kernel.getOutputs())
    f.otherBytes += kernel.getNumBytesAtHints(out);
  return f;
}

InstructionCost xtile::instructionCost(Operation *op, bool fastMath,
                                       bool halfOutputs) {
  // SASS per scalar operation on sm_90 (ptxas of CUDA 13), measured on
  // one-function elementwise kernels (docs/Math.md): an arithmetic op,
  // compare, select or conversion is one instruction, and so is a load or
  // store with its address and lane extraction, per element; IEEE division
  // and square root are MUFU.RCP / MUFU.RSQ with Newton steps and a range
  // check (their slow paths, for denormal or huge operands, not counted);
  // the math functions are what --xkernel-expand-math builds.
  if (isa<xl::YieldOp, arith::ConstantOp>(op) || op->getNumRegions())
    return {};
  static const llvm::StringMap<InstructionCost> table = {
      {"arith.divf", {9, 1}},  {"arith.remf", {20, 1}},
      {"math.sqrt", {9, 1}},   {"math.rsqrt", {10, 1}},
      {"math.exp", {12, 1}},   {"math.exp2", {4, 1}},
      {"math.log", {38, 1}},   {"math.log2", {50, 1}},
      {"math.tanh", {29, 2}},  {"math.erf", {31, 1}},
      {"math.powf", {60, 2}},  {"math.sin", {20, 0}},
      {"math.cos", {20, 0}},   {"math.log1p", {40, 1}},
      {"math.expm1", {20, 1}}, {"math.atan", {25, 0}},
      {"math.atan2", {35, 1}}, {"math.erfc", {55, 3}},
  };
  // Fast-math: the bare instruction and its argument scaling.
  static const llvm::StringMap<InstructionCost> fast = {
      {"arith.divf", {2, 1}}, {"math.sqrt", {1, 1}}, {"math.rsqrt", {1, 1}},
      {"math.exp", {2, 1}},   {"math.exp2", {1, 1}}, {"math.log", {2, 1}},
      {"math.log2", {1, 1}},  {"math.tanh", {8, 2}}, {"math.erf", {25, 1}},
      {"math.erfc", {15, 2}},
  };
  // Results rounded to 16 bits where they are stored: the bare ex2 of
  // x log2(e) with its subnormal scaling, tanh's exponential and
  // reciprocal without correction, division by div.full (or, by a value
  // of the row, a product with its one reciprocal).
  static const llvm::StringMap<InstructionCost> half = {
      {"arith.divf", {2, 1}}, {"math.exp", {5, 1}}, {"math.tanh", {22, 2}},
      {"math.erf", {28, 1}},
  };
  StringRef name = op->getName().getStringRef();
  // 1 + erf(y) for a 16-bit result: erfc's reciprocal, polynomial,
  // exponential and sign select (the sum counted on its own).
  if (auto erf = dyn_cast<math::ErfOp>(op);
      erf && halfOutputs && !fastMath && xtile::complementOfErf(erf))
    return {14, 2};
  if ((fastMath || halfOutputs) && op->getNumResults() == 1 &&
      op->getResult(0).getType().isF32()) {
    auto it = (fastMath ? fast : half).find(name);
    if (it != (fastMath ? fast : half).end())
      return it->second;
  }
  auto it = table.find(name);
  if (it != table.end())
    return it->second;
  return {1, 0};
}

static RowFacts rowFacts(xl::KernelOp kernel, const RowNest &nest,
                         bool fastMath) {
  RowFacts facts;
  for (xl::ParallelOp row : nest.rows)
    facts.programs *= row.getTripCountAtHint();
  facts.columns = nest.columns;
  for (Operation &op : *nest.body) {
    auto dynamic = [](auto loop) { return loop && loop.hasDynamicUpper(); };
    facts.dynamicColumns |= dynamic(dyn_cast<xl::FoldOp>(op)) ||
                            dynamic(dyn_cast<xl::OnlineFoldOp>(op)) ||
                            dynamic(dyn_cast<xl::ParallelOp>(op));
  }
  facts.tile = nest.columns ? int64_t(llvm::PowerOf2Ceil(nest.columns)) : 1;
  bool halfOutputs =
      !kernel.getOutputs().empty() &&
      llvm::all_of(kernel.getOutputs(), [](BlockArgument out) {
        Type t = cast<MemRefType>(out.getType()).getElementType();
        return t.isF16() || t.isBF16();
      }) &&
      // As ExpandMath decides: a rounding to fp8 inside keeps f32 accuracy.
      !xtile::roundsToFp8(kernel);
  facts.folds = nest.folds;
  SmallVector<BlockArgument> buffers(kernel.getInputs());
  llvm::append_range(buffers, kernel.getOutputs());
  bool adds = kernel
                  .walk([](xl::StoreOp store) {
                    return store.getAccumulate() ? WalkResult::interrupt()
                                                 : WalkResult::advance();
                  })
                  .wasInterrupted();
  for (BlockArgument arg : buffers) {
    // In a scatter-add's kernel, the operand it updates in place is never
    // read, and an output whose stores all accumulate moves what they
    // touch: each store reads and writes one element (at most the whole
    // buffer, each way).
    if (adds && arg.use_empty())
      continue;
    bool accumulated = adds && llvm::all_of(arg.getUsers(), [](Operation *u) {
      auto store = dyn_cast<xl::StoreOp>(u);
      return store && store.getAccumulate();
    });
    if (!accumulated) {
      facts.bytes += kernel.getNumBytesAtHints(arg);
      continue;
    }
    int64_t touched = 0;
    for (Operation *user : arg.getUsers()) {
      int64_t stores = 1;
      for (auto loop = user->getParentOfType<xl::ParallelOp>(); loop;
           loop = loop->getParentOfType<xl::ParallelOp>())
        stores *= loop.getTripCountAtHint();
      touched += stores;
    }
    int64_t element =
        getElementBytes(cast<MemRefType>(arg.getType()).getElementType());
    facts.bytes += 2 * std::min(touched * element,
                                kernel.getNumBytesAtHints(arg));
  }
  // Every access of a group moves `vector` elements in at most 16 bytes:
  // the widest element of any buffer bounds the vector width (a bf16
  // input sized alone would give an 8-lane f32 store).
  facts.elementBytes = 1;
  for (BlockArgument arg : buffers)
    facts.elementBytes = std::max<int64_t>(
        facts.elementBytes,
        getElementBytes(cast<MemRefType>(arg.getType()).getElementType()));
  facts.streams = 0;
  nest.body->walk([&](xl::LoadOp) { ++facts.streams; });
  // Vector accesses need the column to be the last (contiguous) index of
  // every access that depends on it.
  DenseSet<Value> columnIvs;
  for (Operation &op : *nest.body) {
    if (auto fold = dyn_cast<xl::FoldOp>(op))
      columnIvs.insert(fold.getInductionVar());
    if (auto fold = dyn_cast<xl::OnlineFoldOp>(op))
      columnIvs.insert(fold.getInductionVar());
    if (auto loop = dyn_cast<xl::ParallelOp>(op))
      columnIvs.insert(loop.getInductionVar());
  }
  auto dependsOnColumn = [&](Value v) {
    if (columnIvs.contains(v))
      return true;
    Operation *def = v.getDefiningOp();
    return def && llvm::any_of(def->getOperands(), [&](Value o) {
             return columnIvs.contains(o);
           });
  };
  // (Loads read down a non-last dimension: each element its own sector
  // when a program takes one row.)
  DenseSet<Value> strided;
  // The column, or the column plus terms without it (a flat buffer read
  // in rows: r * c + j, xloop-split-flat's index).
  auto columnPlusOffset = [&](Value v) {
    auto apply = v.getDefiningOp<affine::AffineApplyOp>();
    if (!apply)
      return false;
    AffineMap map = apply.getAffineMap();
    std::optional<unsigned> column;
    for (auto [pos, operand] : llvm::enumerate(apply.getMapOperands())) {
      if (!dependsOnColumn(operand))
        continue;
      if (column || pos >= map.getNumDims() || !columnIvs.contains(operand))
        return false;
      column = pos;
    }
    if (!column)
      return false;
    AffineExpr rest = simplifyAffineExpr(
        map.getResult(0) - getAffineDimExpr(*column, apply.getContext()),
        map.getNumDims(), map.getNumSymbols());
    return !rest.isFunctionOfDim(*column);
  };
  auto checkAccess = [&](ValueRange indices) {
    bool contiguous =
        !llvm::any_of(indices, dependsOnColumn) ||
        (!indices.empty() && columnIvs.contains(indices.back())) ||
        (!indices.empty() && columnPlusOffset(indices.back()) &&
         llvm::none_of(indices.drop_back(), dependsOnColumn));
    facts.contiguous &= contiguous;
    return contiguous;
  };
  nest.body->walk([&](xl::LoadOp load) {
    if (!checkAccess(load.getIndices()))
      strided.insert(load.getBuffer());
  });
  for (Value buffer : strided)
    facts.stridedBytes +=
        kernel.getNumBytesAtHints(cast<BlockArgument>(buffer));
  DenseSet<Value> rowInputs;
  nest.body->walk([&](xl::LoadOp load) {
    if (llvm::any_of(load.getIndices(), dependsOnColumn))
      rowInputs.insert(load.getBuffer());
  });
  facts.passes = std::max<int64_t>(1, columnIvs.size());
  facts.rowBytes = facts.columns * facts.elementBytes *
                   std::max<size_t>(1, rowInputs.size());
  nest.body->walk([&](xl::StoreOp store) { checkAccess(store.getIndices()); });

  // Split needs folds that do not use each other's results, and at most
  // one elementwise loop.
  DenseSet<Value> foldResults;
  int64_t loops = 0;
  bool independent = true;
  for (Operation &op : *nest.body) {
    if (isa<xl::ParallelOp>(op))
      ++loops;
    // An online fold's partial carriers are combined by rescaling, which
    // the split's combining kernel does not do (yet).
    if (isa<xl::OnlineFoldOp>(op))
      independent = false;
    auto fold = dyn_cast<xl::FoldOp>(op);
    if (!fold)
      continue;
    fold.walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        if (dependsOn(v, foldResults))
          independent = false;
    });
    foldResults.insert(fold.getResult());
  }
  // (A split's partials are per row: not over dynamic rows, for now; a
  // row of a dynamic length is split at run time.)
  facts.dynamicRows = llvm::any_of(
      nest.rows, [](xl::ParallelOp row) { return row.hasDynamicUpper(); });
  facts.splittable = independent && facts.folds > 0 && loops <= 1 &&
                     facts.columns > 0 && nest.uniform && !facts.dynamicRows;

  // A column reduction: folds only, and the innermost row (static) the
  // last index of every access that depends on it, and no other index.
  xl::ParallelOp innermost = nest.rows.empty() ? xl::ParallelOp()
                                                : nest.rows.back();
  if (innermost && !innermost.hasDynamicUpper() &&
      nest.folds > 0 && nest.uniform && loops == 0 &&
      llvm::all_of(*nest.body, [](Operation &op) {
        return !op.getNumRegions() || isa<xl::FoldOp>(op);
      })) {
    Value row = innermost.getInductionVar();
    DenseSet<Value> rowSet{row};
    auto walksRow = [&](ValueRange indices) {
      for (auto [d, index] : llvm::enumerate(indices)) {
        bool last = d + 1 == indices.size();
        if (last ? index != row && dependsOn(index, rowSet)
                 : dependsOn(index, rowSet))
          return false;
      }
      return true;
    };
    WalkResult walk = nest.body->walk([&](Operation *op) {
      if (auto load = dyn_cast<xl::LoadOp>(op))
        if (!walksRow(load.getIndices()))
          return WalkResult::interrupt();
      if (auto store = dyn_cast<xl::StoreOp>(op))
        if (!walksRow(store.getIndices()))
          return WalkResult::interrupt();
      return WalkResult::advance();
    });
    facts.columnKernel = !walk.wasInterrupted();
    facts.innerRows = innermost.getTripCountAtHint();
  }

  // What runs for each element of a row: the bodies of the column loops.
  for (Operation &op : *nest.body) {
    if (!isa<xl::FoldOp, xl::OnlineFoldOp, xl::ParallelOp>(op))
      continue;
    // An online fold also shifts, exponentiates and sums each score.
    if (isa<xl::OnlineFoldOp>(op)) {
      facts.instructions += halfOutputs && !fastMath ? 8 : 15;
      facts.specialFunctions += 1;
    }
    op.walk([&](Operation *inner) {
      InstructionCost c = instructionCost(inner, fastMath, halfOutputs);
      // A division by a value of the row (its sum) multiplies by one
      // reciprocal per row.
      if (halfOutputs && !fastMath && isa<arith::DivFOp>(inner) &&
          !op.isAncestor(inner->getOperand(1).getParentBlock()->getParentOp()))
        c = {1, 0};
      facts.instructions += c.instructions;
      facts.specialFunctions += c.specialFunctions;
    });
  }
  return facts;
}

FailureOr<KernelFacts> xtile::computeKernelFacts(xl::KernelOp kernel,
                                                 const RowNest &nest,
                                                 Contraction *contraction,
                                                 bool fastMath) {
  KernelFacts facts;
  facts.contraction = nest.contraction;
  if (!nest.contraction) {
    facts.row = rowFacts(kernel, nest, fastMath);
    return facts;
  }
  if (nest.attention) {
    FailureOr<Contraction> c = analyzeAttention(kernel, nest);
    if (failed(c))
      return failure();
    DotFacts &f = facts.dot;
    f.attention = true;
    f.m = c->i.getTripCountAtHint();
    f.n = c->j.getTripCountAtHint();
    f.k = c->online.getTripCountAtHint();
    f.scoreK = c->score ? c->score.getTripCountAtHint() : 0;
    f.dynamicRows = c->i.hasDynamicUpper();
    f.dynamicKeys = c->online.hasDynamicUpper();
    // A decode step's grouped heads share their K/V reads (at most 64
    // rows per program).
    if (f.m < 16 && !f.dynamicRows) {
      int64_t group = headGroup(nest, *c);
      if (group > 1 && group * f.m <= 64)
        f.group = group;
    }
    // Tensor cores: queries and keys (the scores' product, narrowed) and
    // values (widened) of one 16-bit type.
    Type values;
    if (auto ext =
            c->online.getYieldedWeights().front().getDefiningOp<arith::ExtFOp>())
      if (ext.getIn().getType().isF16() || ext.getIn().getType().isBF16())
        values = ext.getIn().getType();
    f.valueBytes = values ? 2 : 4;
    f.tensorCoreOperands = c->score && values &&
                           c->scoreProduct.a.getType() == values &&
                           c->scoreProduct.b.getType() == values;
    KeyWindow window = keyWindow(*c);
    f.windowLower = window.lower;
    f.windowUpper = window.upper;
    for (xl::ParallelOp row : ArrayRef(nest.rows).drop_back(2)) {
      f.batch *= row.getTripCountAtHint();
      f.dynamicBatch |= row.hasDynamicUpper();
    }
    // Scores and weighted sums: two contractions, in f32.
    f.folds = 2;
    f.inBytes = 4;
    for (BlockArgument out : kernel.getOutputs())
      f.otherBytes += kernel.getNumBytesAtHints(out);
    if (contraction)
      *contraction = std::move(*c);
    return facts;
  }
  FailureOr<Contraction> c = analyzeContraction(kernel, nest);
  if (failed(c))
    return failure();
  facts.dot = dotFacts(kernel, nest, *c);
  if (contraction)
    *contraction = std::move(*c);
  return facts;
}

FailureOr<KernelFacts> xtile::computeKernelFacts(xl::KernelOp kernel,
                                                 bool fastMath) {
  FailureOr<RowNest> nest = analyzeRowNest(kernel);
  if (failed(nest))
    return failure();
  return computeKernelFacts(kernel, *nest, /*contraction=*/nullptr, fastMath);
}

xt::ScheduleShape RowFacts::shape() const {
  xt::ScheduleShape s;
  s.columns = columns;
  s.streams = std::max<int64_t>(1, streams);
  s.elementBytes = elementBytes;
  return s;
}

xt::ScheduleShape KernelFacts::shape() const {
  if (!contraction)
    return row.shape();
  xt::ScheduleShape s;
  s.elementBytes = dot.inBytes;
  s.contractions = dot.folds;
  s.accumulatorSets = dot.scaleBlock ? 2 : 1;
  s.lhsThroughRegisters = dot.lhsRowsGathered;
  s.programScalars = dot.programScalars;
  return s;
}

llvm::json::Object KernelFacts::toJSON() const {
  if (contraction && dot.attention)
    return llvm::json::Object{{"kind", "attention"},  {"batch", dot.batch},
                              {"queries", dot.m},     {"head_dim", dot.n},
                              {"keys", dot.k},        {"score_k", dot.scoreK},
                              {"other_bytes", dot.otherBytes},
                              {"head_group", dot.group},
                              {"window_lower", dot.windowLower
                                                   ? llvm::json::Value(
                                                         *dot.windowLower)
                                                   : nullptr},
                              {"window_upper", dot.windowUpper
                                                   ? llvm::json::Value(
                                                         *dot.windowUpper)
                                                   : nullptr}};
  if (contraction)
    return llvm::json::Object{{"kind", "contraction"}, {"batch", dot.batch},
                              {"m", dot.m},           {"n", dot.n},
                              {"k", dot.k},           {"contractions", dot.folds},
                              {"operand_bytes", dot.inBytes},
                              {"other_bytes", dot.otherBytes}};
  return llvm::json::Object{{"kind", "row"},
                            {"programs", row.programs},
                            {"columns", row.columns},
                            {"folds", row.folds},
                            {"element_bytes", row.elementBytes},
                            {"bytes", row.bytes},
                            {"streams", row.streams},
                            {"instructions_per_element", row.instructions},
                            {"special_functions_per_element",
                             row.specialFunctions},
                            {"contiguous", row.contiguous},
                            {"splittable", row.splittable},
                            {"column_kernel", row.columnKernel},
                            {"strided_bytes", row.stridedBytes}};
}
