//===- ContractionLowering.cpp - a contraction as output tiles ------------===//
//
// Applies a #xtile.dot_schedule: one program per [block_m, block_n] tile of
// the output, an scf.for over K in steps of block_k (its loads pipelined
// `stages` deep) loading operand tiles into xtile.dot with an f32
// accumulator, then the epilogue on the accumulator tile.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"
#include "xtile/Support/SymbolicDims.h"
#include "xtile/Dialect/Loop/Utils/Tileable.h"

#include <limits>

using namespace mlir;
using namespace xtile;
using namespace xtile::detail;

namespace {
/// Emits Loop IR values as tiles of one 2-D shape on demand: loop indices
/// map to index tiles, values that depend on none stay scalars.
class TileContext {
public:
  TileContext(OpBuilder &b, Location loc, const IRMapping &scalars,
              ArrayRef<int64_t> shape, Value mask)
      : b(b), loc(loc), local(scalars), shape(shape), mask(mask) {}

  DenseMap<Value, Value> ivs;

  /// The mask of the context's loads (set before the first).
  void setMask(Value m) { mask = m; }

  Type tileOf(Type element) { return RankedTensorType::get(shape, element); }
  bool isTile(Value v) { return isa<RankedTensorType>(v.getType()); }

  Value splat(Value scalar) {
    return xt::SplatOp::create(b, loc, tileOf(scalar.getType()), scalar);
  }

  FailureOr<Value> get(Value v) {
    if (Value iv = ivs.lookup(v))
      return iv;
    if (Value known = memo.lookup(v))
      return known;
    if (local.contains(v))
      return local.lookup(v);
    Operation *def = v.getDefiningOp();
    if (!def)
      return emitError(loc, "a loop index has no tile in this context");
    SmallVector<Value> operands;
    for (Value operand : def->getOperands()) {
      FailureOr<Value> o = get(operand);
      if (failed(o))
        return failure();
      operands.push_back(*o);
    }
    bool anyTile = llvm::any_of(operands, [&](Value o) { return isTile(o); });
    Value result;
    if (auto load = dyn_cast<xl::LoadOp>(def)) {
      ArrayRef<Value> idx = ArrayRef(operands).drop_front();
      if (!anyTile) {
        result = xt::LoadOp::create(b, loc, load.getType(), operands[0], idx,
                                    Value(), Value());
      } else {
        SmallVector<Value> tiled;
        for (Value i : idx)
          tiled.push_back(i);
        Value other = mask ? Value(arith::ConstantOp::create(
                                 b, loc, b.getZeroAttr(load.getType())))
                           : Value();
        result = xt::LoadOp::create(b, loc, tileOf(load.getType()), operands[0],
                                    tiled, mask, other);
      }
    } else if (auto apply = dyn_cast<affine::AffineApplyOp>(def);
               apply && anyTile) {
      result = lowerAffine(apply.getAffineMap().getResult(0), operands,
                           apply.getAffineMap().getNumDims());
    } else if (!anyTile) {
      // On the operands as this context computed them (an index may be a
      // scalar here).
      Operation *copy = b.clone(*def, local);
      copy->setOperands(operands);
      result = copy->getResult(0);
      local.map(v, result);
      return result;
    } else if (def->getNumRegions() == 0 && def->getNumResults() == 1 &&
               isa<arith::ArithDialect, math::MathDialect>(def->getDialect())) {
      SmallVector<Value> tiles;
      for (Value o : operands)
        tiles.push_back(isTile(o) ? o : splat(o));
      OperationState state(loc, def->getName(), tiles,
                           {tileOf(def->getResult(0).getType())},
                           def->getAttrs());
      result = b.create(state)->getResult(0);
    } else {
      return def->emitOpError("cannot be applied to a tile");
    }
    memo[v] = result;
    return result;
  }

private:
  Value lowerAffine(AffineExpr e, ArrayRef<Value> dims, unsigned numDims) {
    SmallVector<Value> tiles;
    for (Value d : dims)
      tiles.push_back(isTile(d) ? d : splat(d));
    return lowerAffineOnTiles(
        b, loc, e, tiles, cast<ShapedType>(tileOf(b.getIndexType())), numDims);
  }

  OpBuilder &b;
  Location loc;
  IRMapping local;
  SmallVector<int64_t, 2> shape;
  Value mask;
  DenseMap<Value, Value> memo;
};

/// `base + [0, size)` laid along dimension `dim` of `shape`.
static Value indexTile(OpBuilder &b, Location loc, Value base, int64_t size,
                       ArrayRef<int64_t> shape, unsigned dim) {
  Type index = b.getIndexType();
  Value range = xt::RangeOp::create(
      b, loc, RankedTensorType::get({size}, index), 0, size);
  Value offset =
      xt::SplatOp::create(b, loc, RankedTensorType::get({size}, index), base);
  Value line = arith::AddIOp::create(b, loc, range, offset);
  SmallVector<int64_t, 2> lineShape(shape.size(), 1);
  lineShape[dim] = size;
  Value shaped = xt::ReshapeOp::create(
      b, loc, RankedTensorType::get(lineShape, index), line);
  return xt::BroadcastOp::create(b, loc, RankedTensorType::get(shape, index),
                                 shaped);
}

/// Whether the right operand of some product reads its batch's matrix at
/// an index computed from memory (a grouped GEMM: each block of rows
/// multiplies its expert's weights, which other blocks share).
static bool gathersRightOperand(const Contraction &c, const RowNest &nest) {
  DenseSet<Value> batchIvs;
  for (xl::ParallelOp row : ArrayRef(nest.rows).drop_back(2))
    batchIvs.insert(row.getInductionVar());
  return !batchIvs.empty() &&
         llvm::any_of(c.products, [&](const Contraction::Product &p) {
           return indexedThroughLoad(p.b, batchIvs);
         });
}

/// The batches a group of the grouped program order holds (0: the plain
/// order, tile column fastest): where the right operand's matrix is
/// chosen per batch from memory, as many as keep the group's left operand
/// rows within a quarter of L2, at least 1 and at most the batches.
static int64_t batchGroup(const RowNest &nest, const Contraction &c,
                          const DotFacts &f, xt::TargetAttr target) {
  if (f.batch <= 1 || !gathersRightOperand(c, nest) ||
      llvm::any_of(ArrayRef(nest.rows).drop_back(2),
                   [](xl::ParallelOp row) { return row.hasDynamicUpper(); }))
    return 0;
  int64_t rowBytes = std::max<int64_t>(1, f.m * f.k * f.inBytes);
  return std::clamp<int64_t>(target.getL2() / 4 / rowBytes, 1, f.batch);
}

/// Computes, at the builder's point, the values the products' operands
/// are computed from that are the same for the whole program
/// (programScalars), mapping them in `scalars`.
static void hoistProgramScalars(OpBuilder &b, Location loc,
                                const Contraction &c, IRMapping &scalars) {
  TileContext pre(b, loc, scalars, {1}, Value());
  for (Value v : programScalars(c)) {
    if (scalars.contains(v))
      continue;
    FailureOr<Value> scalar = pre.get(v);
    if (succeeded(scalar) && !pre.isTile(*scalar))
      scalars.map(v, *scalar);
  }
}

/// The condition, shared by a whole output tile (it depends on neither
/// output index), under which the epilogue reads the contraction's sums,
/// and whether they are read where it holds (else where it fails): every
/// use of every product's sum reaches, through elementwise ops of one
/// result, a side of a select on that condition. None otherwise.
static std::optional<std::pair<Value, bool>> tileGuard(const Contraction &c) {
  std::optional<std::pair<Value, bool>> guard;
  auto uniform = [&](Value cond) {
    DenseSet<Value> ivs;
    xl::collectInductionVars(cond, ivs);
    return !ivs.contains(c.i.getInductionVar()) &&
           !ivs.contains(c.j.getInductionVar());
  };
  DenseSet<Value> seen;
  for (const Contraction::Product &p : c.products) {
    SmallVector<Value> work{(p.blocks ? p.blocks : p.fold).getResult()};
    while (!work.empty()) {
      Value v = work.pop_back_val();
      if (!seen.insert(v).second)
        continue;
      for (OpOperand &use : v.getUses()) {
        Operation *user = use.getOwner();
        auto select = dyn_cast<arith::SelectOp>(user);
        if (select && use.getOperandNumber() != 0 &&
            uniform(select.getCondition())) {
          std::pair<Value, bool> g{select.getCondition(),
                                   use.getOperandNumber() == 1};
          if (guard && *guard != g)
            return std::nullopt;
          guard = g;
          continue;
        }
        if (user->getNumResults() != 1 || user->getNumRegions() ||
            !isPure(user) ||
            !isa<arith::ArithDialect, math::MathDialect>(user->getDialect()))
          return std::nullopt;
        work.push_back(user->getResult(0));
      }
    }
  }
  return guard;
}

/// `tile < bound`, elementwise; the bound `dynamicBound` (an index) where
/// it is given, else `bound`.
static Value below(OpBuilder &b, Location loc, Value tile, int64_t bound,
                   Value dynamicBound = Value()) {
  auto type = cast<ShapedType>(tile.getType());
  Value limit =
      dynamicBound
          ? xt::SplatOp::create(b, loc, type, dynamicBound).getResult()
          : arith::ConstantOp::create(
                b, loc, DenseElementsAttr::get(type, b.getIndexAttr(bound)))
                .getResult();
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, tile, limit);
}

} // namespace

/// `tile` with 0 wherever `mask` is false (no mask: `tile`).
static Value zeroOutside(OpBuilder &b, Location loc, Value tile, Value mask) {
  if (!mask)
    return tile;
  auto type = cast<ShapedType>(tile.getType());
  Value zero = xt::SplatOp::create(
      b, loc, type,
      arith::ConstantOp::create(b, loc, b.getZeroAttr(type.getElementType())));
  return arith::SelectOp::create(b, loc, mask, tile, zero);
}

/// The stores of the innermost row body, their values and indices computed
/// on the output tile by `ctx`, masked by `mask`.
static LogicalResult emitStores(OpBuilder &b, Location loc,
                                const RowNest &nest, TileContext &ctx,
                                const IRMapping &scalars, Value mask) {
  for (Operation &op : *nest.body) {
    auto store = dyn_cast<xl::StoreOp>(op);
    if (!store)
      continue;
    FailureOr<Value> value = ctx.get(store.getValue());
    if (failed(value))
      return failure();
    SmallVector<Value> indices;
    for (Value i : store.getIndices()) {
      FailureOr<Value> t = ctx.get(i);
      if (failed(t))
        return failure();
      indices.push_back(*t);
    }
    Value tile = ctx.isTile(*value) ? *value : ctx.splat(*value);
    Value where = mask;
    if (Value condition = store.getCondition()) {
      FailureOr<Value> c = ctx.get(condition);
      if (failed(c))
        return failure();
      Value t = ctx.isTile(*c) ? *c : ctx.splat(*c);
      where = where ? arith::AndIOp::create(b, loc, where, t).getResult() : t;
    }
    xt::StoreOp::create(b, loc, tile, scalars.lookup(store.getBuffer()),
                        indices, where);
  }
  return success();
}

/// The Tile IR kernel `name` of `programs` programs for `kernel`, with `b`
/// at the start of its body, its buffers and the kernel's top-level scalars
/// mapped in `scalars`. Its arguments: the kernel's inputs, then buffers of
/// `partials` (in `partialArgs`), then the kernel's outputs unless
/// `withOutputs` is false; the partials are inputs when the outputs follow.
static xt::KernelOp beginProgram(OpBuilder &b, xl::KernelOp kernel,
                                 StringRef name, int64_t programs,
                                 xt::DotScheduleAttr schedule,
                                 xt::TargetAttr target, IRMapping &scalars,
                                 TypeRange partials = {},
                                 bool withOutputs = true,
                                 SmallVectorImpl<Value> *partialArgs = nullptr) {
  int64_t inputs = kernel.getNumInputs();
  auto tk = xt::KernelOp::create(
      b, kernel.getLoc(), name,
      inputs + (withOutputs ? int64_t(partials.size()) : 0),
      ArrayRef<int64_t>{programs}, schedule.getWarps(), target, schedule);
  Block *block = b.createBlock(&tk.getBody());
  b.setInsertionPointToStart(block);
  ArrayRef<BlockArgument> args = kernel.getBodyBlock().getArguments();
  for (BlockArgument arg : args.take_front(inputs))
    scalars.map(arg, block->addArgument(arg.getType(), arg.getLoc()));
  for (Type t : partials) {
    Value arg = block->addArgument(t, kernel.getLoc());
    if (partialArgs)
      partialArgs->push_back(arg);
  }
  if (withOutputs)
    for (BlockArgument arg : kernel.getOutputs())
      scalars.map(arg, block->addArgument(arg.getType(), arg.getLoc()));
  // Partial buffers (attention split over its keys) are static; the
  // first kernel, without the outputs, names the inputs' sizes only.
  addSizes(kernel, tk, block, scalars, /*inputsOnly=*/!withOutputs);
  for (Operation &op : kernel.getBodyBlock())
    if (!op.getNumRegions())
      cloneScalar(b, op, scalars);
  return tk;
}

/// The batch rows (all but the innermost `inner`) of a program index
/// `rest`, the last fastest; returns their number (over the kernel's
/// sizes).
static AffineExpr mapBatchRows(OpBuilder &b, Location loc,
                               const RowNest &nest, Value rest,
                               IRMapping &scalars, unsigned inner = 2) {
  AffineExpr batch = getAffineConstantExpr(1, b.getContext());
  mapRowsFromProgram(b, loc, ArrayRef(nest.rows).drop_back(inner), scalars,
                     rest, batch);
  return batch;
}

/// Visits the affine.apply ops that `roots` are computed from (through
/// ops without regions), each once; `visit` says whether to look on
/// through the op's operands.
static void walkApplies(ArrayRef<Value> roots,
                        function_ref<bool(affine::AffineApplyOp)> visit) {
  SmallVector<Value> pending(roots);
  DenseSet<Value> seen;
  while (!pending.empty()) {
    Value v = pending.pop_back_val();
    Operation *def = v.getDefiningOp();
    if (!def || def->getNumRegions() || !seen.insert(v).second)
      continue;
    auto apply = dyn_cast<affine::AffineApplyOp>(def);
    if (!apply || visit(apply))
      llvm::append_range(pending, def->getOperands());
  }
}

/// Maps, in `ctx`, every index `kb * block + k` that `p`'s operands are
/// read at (kb the block's loop, k the block's contraction) to `flat`,
/// the tile of the K step's indices.
static void seedBlockIndex(const Contraction::Product &p, int64_t block,
                           TileContext &ctx, Value flat) {
  Value kb = p.blocks.getInductionVar(), k = p.fold.getInductionVar();
  walkApplies({p.a, p.b}, [&](affine::AffineApplyOp apply) {
    ValueRange operands = apply.getMapOperands();
    if (apply.getAffineMap().getNumSymbols() || operands.size() != 2)
      return true;
    unsigned at = operands[0] == kb ? 0 : 1;
    if (operands[at] != kb || operands[1 - at] != k)
      return true;
    MLIRContext *mc = apply.getContext();
    AffineExpr expected = getAffineDimExpr(at, mc) * block +
                          getAffineDimExpr(1 - at, mc);
    AffineExpr diff =
        simplifyAffineExpr(apply.getAffineMap().getResult(0) - expected, 2, 0);
    auto zero = dyn_cast<AffineConstantExpr>(diff);
    if (zero && zero.getValue() == 0)
      ctx.ivs[apply.getResult()] = flat;
    return true;
  });
}

namespace {
/// The output tile's extent along one dimension: from `base`, `size`
/// indices, below the dynamic `bound` where given (else the problem's).
struct TileSpan {
  Value base;
  int64_t size;
  Value bound;
};
} // namespace

/// A block-scaled product's step: `part`, the dot of the step's operand
/// tiles, times the block's factors (the products between the block's sum
/// and the fold's yield). Each factor is read on the smallest tile it
/// needs: [BM, 1] for a row's, [1, BN] for a column's, a scalar for the
/// tile's (a factor of `index floordiv c` whose blocks of c hold the
/// tile's rows or columns whole, as 128 x 128 weight scales do), and
/// broadcast.
static FailureOr<Value> scaleBlockSum(OpBuilder &b, Location loc,
                                      const Contraction::Product &p,
                                      const Contraction &c, const DotFacts &f,
                                      const IRMapping &scalars, Value part,
                                      Value block, TileSpan rows,
                                      TileSpan cols) {
  auto accType = cast<RankedTensorType>(part.getType());
  Value i = c.i.getInductionVar(), j = c.j.getInductionVar();
  Value v = part;
  for (Value cur = p.fold.getResult(); cur != p.blocks.getYieldedValue();) {
    Operation *mul = *cur.getUsers().begin();
    Value factor = mul->getOperand(mul->getOperand(0) == cur ? 1 : 0);
    cur = mul->getResult(0);
    // `index floordiv c` with c a multiple of the tile's extent: one
    // value for the whole tile (its first index's).
    DenseMap<Value, Value> firstOfTile;
    walkApplies({factor}, [&](affine::AffineApplyOp apply) {
      AffineExpr e = apply.getAffineMap().getResult(0);
      if (e.getKind() != AffineExprKind::FloorDiv ||
          apply.getMapOperands().size() != 1)
        return true;
      auto quotient = cast<AffineBinaryOpExpr>(e);
      auto divisor = dyn_cast<AffineConstantExpr>(quotient.getRHS());
      Value index = apply.getMapOperands()[0];
      int64_t extent = index == i ? rows.size : index == j ? cols.size : 0;
      if (!divisor || !isa<AffineDimExpr>(quotient.getLHS()) || !extent ||
          divisor.getValue() % extent)
        return true;
      firstOfTile[apply.getResult()] = arith::DivUIOp::create(
          b, loc, index == i ? rows.base : cols.base,
          arith::ConstantIndexOp::create(b, loc, divisor.getValue()));
      return false;
    });
    // The output indices the factor reads at, besides those.
    bool perRow = false, perColumn = false;
    SmallVector<Value> pending{factor};
    DenseSet<Value> seen;
    while (!pending.empty()) {
      Value x = pending.pop_back_val();
      if (firstOfTile.count(x) || !seen.insert(x).second)
        continue;
      perRow |= x == i;
      perColumn |= x == j;
      if (Operation *def = x.getDefiningOp())
        llvm::append_range(pending, def->getOperands());
    }
    SmallVector<int64_t, 2> shape{perRow ? rows.size : 1,
                                  perColumn ? cols.size : 1};
    Value mask;
    auto inside = [&](TileSpan span, int64_t extent, unsigned dim) {
      Value tile = indexTile(b, loc, span.base, span.size, shape, dim);
      if (extent % span.size || span.bound) {
        Value below_ = below(b, loc, tile, extent, span.bound);
        mask = mask ? arith::AndIOp::create(b, loc, mask, below_) : below_;
      }
      return tile;
    };
    TileContext ctx(b, loc, scalars, shape, Value());
    ctx.ivs[p.blocks.getInductionVar()] = block;
    if (perRow)
      ctx.ivs[i] = inside(rows, f.m, 0);
    if (perColumn)
      ctx.ivs[j] = inside(cols, f.n, 1);
    for (auto [v, first] : firstOfTile)
      ctx.ivs[v] = first;
    ctx.setMask(mask);
    FailureOr<Value> t = ctx.get(factor);
    if (failed(t))
      return failure();
    Value tile = *t;
    if (!ctx.isTile(tile))
      tile = xt::SplatOp::create(b, loc, accType, tile);
    else if (cast<RankedTensorType>(tile.getType()).getShape() !=
             accType.getShape())
      tile = xt::BroadcastOp::create(b, loc, accType, tile);
    v = arith::MulFOp::create(b, loc, v, tile);
  }
  return v;
}

LogicalResult xtile::detail::lowerContractionKernel(xl::KernelOp kernel,
                                             const RowNest &nest,
                                             const Contraction &c,
                                             const DotFacts &f,
                                             xt::DotScheduleAttr schedule,
                                             xt::TargetAttr target) {
  int64_t bm = schedule.getBlockM(), bn = schedule.getBlockN(),
          bkSize = schedule.getBlockK();
  if (f.scaleBlock % bkSize)
    return kernel.emitOpError("is a block-scaled contraction whose scales "
                              "change every ")
           << f.scaleBlock << " of K; schedule " << schedule
           << " steps over " << bkSize << ", which does not divide it";
  int64_t mb = llvm::divideCeil(f.m, bm);
  int64_t nb = llvm::divideCeil(f.n, bn);
  OpBuilder b(kernel);
  Location loc = kernel.getLoc();
  IRMapping scalars;
  xt::KernelOp tk = beginProgram(b, kernel, kernel.getSymName(),
                                 f.batch * mb * nb, schedule, target, scalars);

  // Program -> (batch..., tile row, tile column), tile column fastest.
  // Dynamic M and N (rows over sizes) give as many tiles as they need at
  // run time, masked at the edges.
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value mSize, nSize; // the dynamic extents
  AffineExpr mExpr = getAffineConstantExpr(f.m, b.getContext()),
             nExpr = getAffineConstantExpr(f.n, b.getContext());
  Value mBlocks = constant(mb), nBlocks = constant(nb);
  // ceil(size / block), as (size + block - 1) / block.
  auto blocks = [&](Value size, int64_t block) -> Value {
    return arith::DivUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, size, constant(block - 1)),
        constant(block));
  };
  if (c.i.hasDynamicUpper()) {
    Extent e = rowExtent(b, loc, c.i, scalars);
    mSize = e.value;
    mExpr = e.expr;
    mBlocks = blocks(mSize, bm);
  }
  if (c.j.hasDynamicUpper()) {
    Extent e = rowExtent(b, loc, c.j, scalars);
    nSize = e.value;
    nExpr = e.expr;
    nBlocks = blocks(nSize, bn);
  }
  Value pid = xt::ProgramIdOp::create(b, loc, 0);
  Value pn, pm, rest;
  if (int64_t group = batchGroup(nest, c, f, target)) {
    b.getContext()
        ->getOrLoadDialect<xt::XTileDialect>()
        ->getBatchGroupAttrHelper()
        .setAttr(tk, b.getI64IntegerAttr(group));
    // Batches in groups of `group`, the batch fastest, then the tile row,
    // then the tile column: a wave's programs share each column panel of
    // the matrices the group's batches choose, and the group's rows,
    // through L2 (Triton's grouped ordering, over batches).
    Value perGroup = constant(group * mb * nb);
    Value g = arith::DivUIOp::create(b, loc, pid, perGroup);
    Value q = arith::RemUIOp::create(b, loc, pid, perGroup);
    Value first = arith::MulIOp::create(b, loc, g, constant(group));
    // (The last group holds what is left.)
    Value size = arith::MinUIOp::create(
        b, loc, constant(group),
        arith::SubIOp::create(b, loc, constant(f.batch), first));
    rest = arith::AddIOp::create(b, loc, first,
                                 arith::RemUIOp::create(b, loc, q, size));
    Value tile = arith::DivUIOp::create(b, loc, q, size);
    pm = arith::RemUIOp::create(b, loc, tile, mBlocks);
    pn = arith::DivUIOp::create(b, loc, tile, mBlocks);
  } else {
    pn = arith::RemUIOp::create(b, loc, pid, nBlocks);
    rest = arith::DivUIOp::create(b, loc, pid, nBlocks);
    pm = arith::RemUIOp::create(b, loc, rest, mBlocks);
    rest = arith::DivUIOp::create(b, loc, rest, mBlocks);
  }
  AffineExpr batch = mapBatchRows(b, loc, nest, rest, scalars);
  setGrid(tk, batch * mExpr.ceilDiv(bm) * nExpr.ceilDiv(bn));
  Value mBase = arith::MulIOp::create(b, loc, pm, constant(bm));
  Value nBase = arith::MulIOp::create(b, loc, pn, constant(bn));

  // What the operands are computed from that is the same for the whole
  // program (a grouped GEMM's block: its group, the group's first row,
  // read from memory) is computed once, before the K loop; the operand
  // tiles' indices are then index arithmetic on the loop's step, which
  // the pipelining can compute ahead (asynchronous copies).
  hoistProgramScalars(b, loc, c, scalars);

  // The K loop: operand tiles, one dot per contraction.
  SmallVector<Value> inits;
  SmallVector<int64_t, 2> accShape{bm, bn};
  for (const Contraction::Product &p : c.products) {
    // The fold's initial value starts every output element's sum (the sum
    // over blocks, block-scaled).
    xl::FoldOp total = p.blocks ? p.blocks : p.fold;
    Type acc = total.getType();
    Value init = scalars.lookupOrDefault(total.getInit());
    if (!init.getParentBlock() ||
        init.getParentBlock()->getParentOp() != tk) {
      TypedAttr value;
      matchPattern(total.getInit(), m_Constant(&value));
      init = arith::ConstantOp::create(b, loc, value);
    }
    inits.push_back(xt::SplatOp::create(
        b, loc, RankedTensorType::get(accShape, acc), init));
  }
  // K: a constant, or a dynamic size (then every K tile is masked by it).
  Value kSize;
  if (Value size = c.products.front().fold.getDynamicUpper())
    kSize = scalars.lookup(size);
  // The output tile's indices and mask (block-scaled, the scales are read
  // on it in the loop).
  Value ci = indexTile(b, loc, mBase, bm, accShape, 0);
  Value cj = indexTile(b, loc, nBase, bn, accShape, 1);
  Value cMask;
  if (f.m % bm || f.n % bn || mSize || nSize)
    cMask = arith::AndIOp::create(b, loc, below(b, loc, ci, f.m, mSize),
                                  below(b, loc, cj, f.n, nSize));
  Value kEnd = kSize ? kSize : constant(f.k);
  // A K loop whose sums the epilogue reads only where a condition the
  // whole tile shares picks them runs only there (a grouped GEMM's block
  // that holds no group's rows skips its loads and products).
  if (std::optional<std::pair<Value, bool>> guard = tileGuard(c)) {
    TileContext gctx(b, loc, scalars, accShape, Value());
    FailureOr<Value> cond = gctx.get(guard->first);
    if (succeeded(cond) && !gctx.isTile(*cond))
      kEnd = guard->second
                 ? arith::SelectOp::create(b, loc, *cond, kEnd, constant(0))
                 : arith::SelectOp::create(b, loc, *cond, constant(0), kEnd);
  }
  auto loop = scf::ForOp::create(b, loc, constant(0), kEnd, constant(bkSize),
                                 inits);
  setNumStages(loop, schedule.getStages());
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value k0 = loop.getInductionVar();
    bool raggedK = f.k % bkSize != 0 || kSize;
    SmallVector<int64_t, 2> aShape{bm, bkSize},
        bShape{bkSize, bn};
    Value ai = indexTile(b, loc, mBase, bm, aShape, 0);
    Value ak = indexTile(b, loc, k0, bkSize, aShape, 1);
    Value bk = indexTile(b, loc, k0, bkSize, bShape, 0);
    // Block-scaled (K a whole number of blocks, steps within one): the
    // step's block, and its k within the block.
    Value block, akIn = ak, bkIn = bk;
    if (f.scaleBlock) {
      block = arith::DivUIOp::create(b, loc, k0, constant(f.scaleBlock));
      Value kIn = arith::RemUIOp::create(b, loc, k0, constant(f.scaleBlock));
      akIn = indexTile(b, loc, kIn, bkSize, aShape, 1);
      bkIn = indexTile(b, loc, kIn, bkSize, bShape, 0);
    }
    Value bj = indexTile(b, loc, nBase, bn, bShape, 1);
    Value aMask, bMask;
    if (f.m % bm || mSize || raggedK)
      aMask = arith::AndIOp::create(b, loc, below(b, loc, ai, f.m, mSize),
                                    below(b, loc, ak, f.k, kSize));
    if (f.n % bn || nSize || raggedK)
      bMask = arith::AndIOp::create(b, loc, below(b, loc, bk, f.k, kSize),
                                    below(b, loc, bj, f.n, nSize));
    SmallVector<Value> next;
    for (auto [index, p] : llvm::enumerate(c.products)) {
      TileContext actx(b, loc, scalars, aShape, aMask);
      actx.ivs[c.i.getInductionVar()] = ai;
      actx.ivs[p.fold.getInductionVar()] = akIn;
      TileContext bctx(b, loc, scalars, bShape, bMask);
      bctx.ivs[p.fold.getInductionVar()] = bkIn;
      bctx.ivs[c.j.getInductionVar()] = bj;
      if (p.blocks) {
        actx.ivs[p.blocks.getInductionVar()] = block;
        bctx.ivs[p.blocks.getInductionVar()] = block;
        // The operands' `kb * block + k` is the step's k tile itself (the
        // copies then see a tile contiguous along the loop's K).
        seedBlockIndex(p, f.scaleBlock, actx, ak);
        seedBlockIndex(p, f.scaleBlock, bctx, bk);
      }
      FailureOr<Value> a = actx.get(p.a), bt = bctx.get(p.b);
      if (failed(a) || failed(bt)) {
        tk.erase();
        return failure();
      }
      Value lhs = actx.isTile(*a) ? *a : actx.splat(*a);
      Value rhs = bctx.isTile(*bt) ? *bt : bctx.splat(*bt);
      // Lanes past the ragged edges contribute 0, whatever the operand's
      // computation made of the loads' padding (0 / 0, log 0).
      lhs = zeroOutside(b, loc, lhs, aMask);
      rhs = zeroOutside(b, loc, rhs, bMask);
      Value total = loop.getRegionIterArgs()[index];
      if (!p.blocks) {
        next.push_back(xt::DotOp::create(b, loc, lhs, rhs, total));
        continue;
      }
      // Block-scaled: the step's sum from 0, times its block's factors
      // (read on the output tile), into the total.
      auto accType = cast<RankedTensorType>(total.getType());
      Value zero = xt::SplatOp::create(
          b, loc, accType,
          arith::ConstantOp::create(b, loc,
                                    b.getZeroAttr(accType.getElementType())));
      Value part = xt::DotOp::create(b, loc, lhs, rhs, zero);
      FailureOr<Value> scaled =
          scaleBlockSum(b, loc, p, c, f, scalars, part, block,
                        {mBase, bm, mSize}, {nBase, bn, nSize});
      if (failed(scaled)) {
        tk.erase();
        return failure();
      }
      next.push_back(arith::AddFOp::create(b, loc, total, *scaled));
    }
    scf::YieldOp::create(b, loc, next);
  }

  // The epilogue over the [BM, BN] output tile.
  TileContext cctx(b, loc, scalars, accShape, cMask);
  cctx.ivs[c.i.getInductionVar()] = ci;
  cctx.ivs[c.j.getInductionVar()] = cj;
  for (auto [index, p] : llvm::enumerate(c.products))
    cctx.ivs[(p.blocks ? p.blocks : p.fold).getResult()] =
        loop.getResult(index);
  if (failed(emitStores(b, loc, nest, cctx, scalars, cMask))) {
    tk.erase();
    return failure();
  }
  kernel.erase();
  return success();
}

namespace {
/// Builds the programs of an attention kernel: per block of `bm` query
/// rows, the query tile, the key loop carrying (maximum, sum, accumulator),
/// and the epilogue; with a split of the keys, the partials' stores and
/// their combination.
class AttentionLowering {
public:
  AttentionLowering(OpBuilder &b, const RowNest &nest, const Contraction &c,
                    const DotFacts &f, xt::DotScheduleAttr schedule,
                    Location loc)
      : b(b), loc(loc), nest(nest), c(c), f(f), bm(schedule.getBlockM()),
        bd(schedule.getBlockN()), bk(schedule.getBlockK()),
        stages(schedule.getStages()),
        mb(llvm::divideCeil(f.m, bm)), raggedRows(f.m % bm != 0),
        packed(f.packsHeads(bm)),
        tensorCores(schedule.getInstruction() == xt::DotInstruction::mma_sync) {
    if (packed)
      head = nest.rows[nest.rows.size() - 3];
    // The scores' product comes narrow (KernelFacts); with tensor cores, so
    // do 16-bit values, the probabilities rounded to their type.
    weights = c.online.getYieldedWeights().front();
    if (tensorCores)
      if (auto ext = weights.getDefiningOp<arith::ExtFOp>())
        weights = ext.getIn();
  }

  IRMapping scalars;
  Value mBase;

  Value constant(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }

  /// The programs over the rows (batch rows times query blocks), as an
  /// expression of the kernel's sizes: a prefill over dynamic queries has
  /// as many query blocks as its length needs.
  AffineExpr programs;

  /// The program's rows, `rowBlock` = (batch..., block) with the block
  /// fastest; packed: (batch..., group), each row a (head of the group,
  /// query) pair. Binds the dynamic query and key counts first.
  void mapRows(Value rowBlock) {
    if (c.online.hasDynamicUpper())
      kSize = scalars.lookup(c.online.getDynamicUpper());
    if (!packed) {
      Value blocks = constant(mb);
      AffineExpr blocksExpr = getAffineConstantExpr(mb, b.getContext());
      if (c.i.hasDynamicUpper()) {
        Extent e = rowExtent(b, loc, c.i, scalars);
        mSize = e.value;
        blocks = arith::DivUIOp::create(
            b, loc, arith::AddIOp::create(b, loc, mSize, constant(bm - 1)),
            constant(bm));
        blocksExpr = e.expr.ceilDiv(bm);
      }
      mBase = arith::MulIOp::create(
          b, loc, arith::RemUIOp::create(b, loc, rowBlock, blocks),
          constant(bm));
      programs = mapBatchRows(b, loc, nest,
                              arith::DivUIOp::create(b, loc, rowBlock, blocks),
                              scalars) *
                 blocksExpr;
      return;
    }
    mBase = constant(0);
    int64_t groups = (head.getUpper() - head.getLower()) / f.group;
    headBase = arith::MulIOp::create(
        b, loc, arith::RemUIOp::create(b, loc, rowBlock, constant(groups)),
        constant(f.group));
    // K and V reach the head only through `head floordiv c` (KernelFacts):
    // the group's first head reads them for all.
    scalars.map(head.getInductionVar(), headBase);
    programs = mapBatchRows(b, loc, nest,
                            arith::DivUIOp::create(b, loc, rowBlock,
                                                   constant(groups)),
                            scalars, /*inner=*/3) *
               groups;
  }

  /// The program's rows laid along dimension 0 of `shape` in `ctx`: the
  /// query index (and, packed, the head) of each; the mask of real rows.
  Value mapRowTiles(TileContext &ctx, ArrayRef<int64_t> shape) {
    if (!packed) {
      Value rows = indexTile(b, loc, mBase, bm, shape, 0);
      ctx.ivs[c.i.getInductionVar()] = rows;
      return raggedRows || mSize ? below(b, loc, rows, f.m, mSize) : Value();
    }
    Value r = indexTile(b, loc, constant(0), bm, shape, 0);
    auto type = cast<ShapedType>(r.getType());
    auto splat = [&](int64_t v) -> Value {
      return arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(type, b.getIndexAttr(v)));
    };
    // Row r is query r mod m of head headBase + r / m (one query: head
    // headBase + r).
    Value heads = xt::SplatOp::create(b, loc, type, headBase);
    if (f.m == 1) {
      ctx.ivs[c.i.getInductionVar()] = constant(0);
      ctx.ivs[head.getInductionVar()] =
          arith::AddIOp::create(b, loc, heads, r);
    } else {
      ctx.ivs[c.i.getInductionVar()] =
          arith::RemUIOp::create(b, loc, r, splat(f.m));
      ctx.ivs[head.getInductionVar()] = arith::AddIOp::create(
          b, loc, heads, arith::DivUIOp::create(b, loc, r, splat(f.m)));
    }
    return f.group * f.m < bm ? below(b, loc, r, f.group * f.m) : Value();
  }

  /// The query tile of the scores' contraction: loaded once.
  LogicalResult loadQuery() {
    if (!c.score)
      return success();
    dk = c.score.getUpper() - c.score.getLower();
    dkTile = int64_t(llvm::PowerOf2Ceil(dk));
    SmallVector<int64_t, 2> shape{bm, dkTile};
    Value kk = indexTile(b, loc, constant(0), dkTile, shape, 1);
    TileContext ctx(b, loc, scalars, shape, Value());
    Value mask = both(mapRowTiles(ctx, shape),
                      dk % dkTile ? below(b, loc, kk, dk) : Value());
    ctx.setMask(mask);
    ctx.ivs[c.score.getInductionVar()] = kk;
    FailureOr<Value> q = asTile(ctx, ctx.get(c.scoreProduct.a));
    if (failed(q))
      return failure();
    query = zeroOutside(b, loc, *q, mask);
    return success();
  }

  /// The keys the block's rows see, [start, end): under a causal mask the
  /// block's rows see keys up to its last row plus the mask's offset, under
  /// a sliding window from its first row minus the window (rounded down to
  /// a key block). Blocks outside are skipped, not computed and masked.
  std::pair<Value, Value> keyRange() {
    Value start = constant(0), end = kSize ? kSize : constant(f.k);
    if (f.windowLower) {
      Value first = arith::AddIOp::create(b, loc, mBase,
                                          constant(*f.windowLower));
      first = arith::MaxSIOp::create(b, loc, first, constant(0));
      start = arith::MulIOp::create(
          b, loc, arith::DivUIOp::create(b, loc, first, constant(bk)),
          constant(bk));
    }
    if (f.windowUpper) {
      Value last = arith::AddIOp::create(
          b, loc, mBase, constant((packed ? f.m : bm) + *f.windowUpper));
      last = arith::MaxSIOp::create(b, loc, last, constant(0));
      end = arith::MinSIOp::create(b, loc, last, end);
    }
    return {start, end};
  }

  /// The key loop over [start, end) in steps of block_k, carrying each
  /// row's running maximum and sum and the accumulator; its results.
  FailureOr<scf::ForOp> keyLoop(Value start, Value end) {
    SmallVector<int64_t, 2> accShape{bm, bd};
    auto loop = scf::ForOp::create(
        b, loc, start, end, constant(bk),
        ValueRange{splatF({bm}, -inf), splatF({bm}, 0), splatF(accShape, 0)});
    // K and V tiles copied `stages - 1` blocks ahead.
    if (stages > 1)
      setNumStages(loop, stages);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value key0 = loop.getInductionVar();
    Value m = loop.getRegionIterArgs()[0], l = loop.getRegionIterArgs()[1],
          acc = loop.getRegionIterArgs()[2];
    bool raggedKeys = f.k % bk != 0 || kSize;

    // Scores of this block of keys.
    SmallVector<int64_t, 2> sShape{bm, bk};
    Value keys = indexTile(b, loc, key0, bk, sShape, 1);
    Value keyMask = raggedKeys ? below(b, loc, keys, f.k, kSize) : Value();
    TileContext sctx(b, loc, scalars, sShape, Value());
    sctx.setMask(both(mapRowTiles(sctx, sShape), keyMask));
    sctx.ivs[c.online.getInductionVar()] = keys;
    if (c.score) {
      SmallVector<int64_t, 2> kShape{dkTile, bk};
      Value kk = indexTile(b, loc, constant(0), dkTile, kShape, 0);
      Value kj = indexTile(b, loc, key0, bk, kShape, 1);
      Value mask = both(dk % dkTile ? below(b, loc, kk, dk) : Value(),
                        raggedKeys ? below(b, loc, kj, f.k, kSize) : Value());
      TileContext kctx(b, loc, scalars, kShape, mask);
      kctx.ivs[c.score.getInductionVar()] = kk;
      kctx.ivs[c.online.getInductionVar()] = kj;
      FailureOr<Value> kt = asTile(kctx, kctx.get(c.scoreProduct.b));
      if (failed(kt))
        return failure();
      sctx.ivs[c.score.getResult()] = xt::DotOp::create(
          b, loc, query, zeroOutside(b, loc, *kt, mask), splatF(sShape, 0));
    }
    FailureOr<Value> x = asTile(sctx, sctx.get(c.online.getYieldedScore()));
    if (failed(x))
      return failure();
    Value scores = *x;
    if (keyMask)
      scores = arith::SelectOp::create(b, loc, keyMask, scores,
                                       splatF(sShape, -inf));

    // The online update: each row shifts by its new maximum (0 while every
    // score so far is -inf, so that exponentials of -inf are 0, not NaN).
    Value mNew = arith::MaximumFOp::create(
        b, loc, m, foldRows(xt::CombineKind::max, scores, -inf));
    Value shift = shiftOf(mNew);
    Value alpha =
        math::ExpOp::create(b, loc, arith::SubFOp::create(b, loc, m, shift));
    Value p = math::ExpOp::create(
        b, loc, arith::SubFOp::create(b, loc, scores, perRow(shift, bk)));
    Value lNew = arith::AddFOp::create(
        b, loc, arith::MulFOp::create(b, loc, l, alpha),
        foldRows(xt::CombineKind::add, p, 0));

    // Weights of this block of keys, over the head-dimension columns.
    SmallVector<int64_t, 2> gShape{bk, bd};
    Value gk = indexTile(b, loc, key0, bk, gShape, 0);
    Value gj = indexTile(b, loc, constant(0), bd, gShape, 1);
    Value gMask = both(raggedKeys ? below(b, loc, gk, f.k, kSize) : Value(),
                       f.n % bd ? below(b, loc, gj, f.n) : Value());
    TileContext gctx(b, loc, scalars, gShape, gMask);
    gctx.ivs[c.online.getInductionVar()] = gk;
    gctx.ivs[c.j.getInductionVar()] = gj;
    FailureOr<Value> g =
        asTile(gctx, gctx.get(weights));
    if (failed(g))
      return failure();
    Value scaled = arith::MulFOp::create(b, loc, acc, perRow(alpha, bd));
    Type gType = cast<ShapedType>((*g).getType()).getElementType();
    if (gType != cast<ShapedType>(p.getType()).getElementType())
      p = arith::TruncFOp::create(
          b, loc, RankedTensorType::get({bm, bk}, gType), p);
    Value accNew = xt::DotOp::create(b, loc, p, zeroOutside(b, loc, *g, gMask),
                                     scaled);
    scf::YieldOp::create(b, loc, ValueRange{mNew, lNew, accNew});
    return loop;
  }

  /// The split's partials: per query row (blocks padded to `bm` rows) and
  /// way, the maximum, the sum and the accumulator's `bd` columns.
  SmallVector<Type> partialTypes(int64_t ways) {
    int64_t rows = f.rowPrograms(bm) * bm;
    Type f32 = b.getF32Type();
    return {MemRefType::get({rows, ways}, f32),
            MemRefType::get({rows, ways}, f32),
            MemRefType::get({rows, ways, bd}, f32)};
  }

  /// The indices of way `way`'s partials of the rows from `row0`: of the
  /// [bm] maxima and sums, or (`columns`) of the [bm, bd] accumulator.
  SmallVector<Value, 3> partialIndices(Value row0, Value way, bool columns) {
    SmallVector<int64_t, 2> shape{bm};
    if (columns)
      shape.push_back(bd);
    SmallVector<Value, 3> indices{
        indexTile(b, loc, row0, bm, shape, 0),
        xt::SplatOp::create(b, loc,
                            RankedTensorType::get(shape, b.getIndexType()),
                            way)};
    if (columns)
      indices.push_back(indexTile(b, loc, constant(0), bd, shape, 1));
    return indices;
  }

  /// Stores way `way`'s (maximum, sum, accumulator) of the rows of
  /// `rowBlock`.
  void storePartials(ArrayRef<Value> partials, Value rowBlock, Value way,
                     ValueRange results) {
    Value row0 = arith::MulIOp::create(b, loc, rowBlock, constant(bm));
    SmallVector<Value, 3> rows = partialIndices(row0, way, false);
    for (int i : {0, 1})
      xt::StoreOp::create(b, loc, results[i], partials[i], rows, Value());
    xt::StoreOp::create(b, loc, results[2], partials[2],
                        partialIndices(row0, way, true), Value());
  }

  /// The rows of `rowBlock` combined over `ways` partials: the maximum
  /// over the ways, and the sums and accumulators rescaled to it.
  SmallVector<Value> combinePartials(ArrayRef<Value> partials, Value rowBlock,
                                     int64_t ways) {
    Value row0 = arith::MulIOp::create(b, loc, rowBlock, constant(bm));
    int64_t waysTile = int64_t(llvm::PowerOf2Ceil(ways));
    SmallVector<int64_t, 2> wShape{bm, waysTile};
    Value rows = indexTile(b, loc, row0, bm, wShape, 0);
    Value lanes = indexTile(b, loc, constant(0), waysTile, wShape, 1);
    Value laneMask = waysTile != ways ? below(b, loc, lanes, ways) : Value();
    auto load = [&](Value buffer, double other) -> Value {
      Value padding =
          laneMask ? Value(arith::ConstantOp::create(b, loc,
                                                     b.getF32FloatAttr(other)))
                   : Value();
      return xt::LoadOp::create(b, loc, tileType(wShape), buffer,
                                ValueRange{rows, lanes}, laneMask, padding);
    };
    Value maxima = load(partials[0], -inf);
    Value m = foldRows(xt::CombineKind::max, maxima, -inf);
    Value shift = shiftOf(m);
    Value scale = math::ExpOp::create(
        b, loc,
        arith::SubFOp::create(b, loc, maxima, perRow(shift, waysTile)));
    Value l = foldRows(xt::CombineKind::add,
                       arith::MulFOp::create(b, loc, load(partials[1], 0),
                                             scale),
                       0);
    // The accumulators, one way at a time.
    SmallVector<int64_t, 2> accShape{bm, bd};
    auto loop = scf::ForOp::create(b, loc, constant(0), constant(ways),
                                   constant(1),
                                   ValueRange{splatF(accShape, 0)});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value way = loop.getInductionVar();
      Value alpha = math::ExpOp::create(
          b, loc,
          arith::SubFOp::create(
              b, loc,
              xt::LoadOp::create(b, loc, tileType({bm}), partials[0],
                                 partialIndices(row0, way, false), Value(),
                                 Value()),
              shift));
      Value acc = xt::LoadOp::create(b, loc, tileType(accShape), partials[2],
                                     partialIndices(row0, way, true), Value(),
                                     Value());
      Value sum = arith::AddFOp::create(
          b, loc, loop.getRegionIterArgs()[0],
          arith::MulFOp::create(b, loc, acc, perRow(alpha, bd)));
      scf::YieldOp::create(b, loc, sum);
    }
    return {m, l, loop.getResult(0)};
  }

  /// The epilogue over the [bm, bd] output tile, from the rows' maximum,
  /// sum and accumulator.
  LogicalResult epilogue(ValueRange results) {
    SmallVector<int64_t, 2> accShape{bm, bd};
    Value cj = indexTile(b, loc, constant(0), bd, accShape, 1);
    TileContext cctx(b, loc, scalars, accShape, Value());
    Value cMask = both(mapRowTiles(cctx, accShape),
                       f.n % bd ? below(b, loc, cj, f.n) : Value());
    cctx.setMask(cMask);
    cctx.ivs[c.j.getInductionVar()] = cj;
    cctx.ivs[c.online.getMax()] = perRow(results[0], bd);
    cctx.ivs[c.online.getSum()] = perRow(results[1], bd);
    cctx.ivs[c.online.getAccumulators().front()] = results[2];
    return emitStores(b, loc, nest, cctx, scalars, cMask);
  }

private:
  static constexpr double inf = std::numeric_limits<double>::infinity();

  Type tileType(ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, b.getF32Type());
  }
  Value splatF(ArrayRef<int64_t> shape, double v) {
    return xt::SplatOp::create(
        b, loc, tileType(shape),
        arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v)));
  }
  Value both(Value x, Value y) {
    if (!x)
      return y;
    if (!y)
      return x;
    return arith::AndIOp::create(b, loc, x, y);
  }
  FailureOr<Value> asTile(TileContext &ctx, FailureOr<Value> v) {
    if (failed(v))
      return failure();
    return ctx.isTile(*v) ? *v : ctx.splat(*v);
  }
  /// A [bm] tile of per-row values over `cols` columns.
  Value perRow(Value rows, int64_t cols) {
    Value column = xt::ReshapeOp::create(b, loc, tileType({bm, 1}), rows);
    return xt::BroadcastOp::create(b, loc, tileType({bm, cols}), column);
  }
  Value foldRows(xt::CombineKind kind, Value tile, double identity) {
    return xt::FoldOp::create(b, loc, tileType({bm}), kind, tile,
                              ArrayRef<int64_t>{1},
                              b.getF32FloatAttr(identity),
                              /*associative=*/true, /*commutative=*/true,
                              xt::FoldStrategy::block)
        .getResult();
  }
  /// What exponentials of a row shift by: its maximum, 0 while that is
  /// -inf (every score masked), so that exp(-inf - shift) is 0, not NaN.
  Value shiftOf(Value maxima) {
    Value allInf = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                         maxima, splatF({bm}, -inf));
    return arith::SelectOp::create(b, loc, allInf, splatF({bm}, 0), maxima);
  }

  OpBuilder &b;
  Location loc;
  const RowNest &nest;
  const Contraction &c;
  const DotFacts &f;
  int64_t bm, bd, bk, stages, mb;
  bool raggedRows, packed, tensorCores;
  Value weights;
  xl::ParallelOp head;
  Value headBase;
  Value mSize, kSize; // dynamic query and key counts
  Value query;
  int64_t dk = 0, dkTile = 0;
};
} // namespace

LogicalResult xtile::detail::lowerAttentionKernel(xl::KernelOp kernel,
                                           const RowNest &nest,
                                           const Contraction &c,
                                           const DotFacts &f,
                                           xt::DotScheduleAttr schedule,
                                           xt::TargetAttr target) {
  int64_t bd = schedule.getBlockN(), ways = schedule.getWays();
  if (bd < f.n || schedule.getInstruction() == xt::DotInstruction::wgmma)
    return kernel.emitOpError()
           << "is attention; its schedule has block_n at least the head "
              "dimension ("
           << f.n << ") and instruction = fma or mma_sync, got " << schedule;
  // Tensor cores: both dots' accumulators ([block_m, block_k] scores and
  // the [block_m, block_n] output) split over the warps across in whole
  // 16-column blocks.
  int64_t warpsN = schedule.getWarps() / schedule.getWarpsM();
  if (schedule.getInstruction() == xt::DotInstruction::mma_sync &&
      (schedule.getBlockK() % (16 * warpsN) || !f.tensorCoreOperands))
    return kernel.emitOpError()
           << "is attention; on tensor cores (instruction = mma_sync) its "
              "block_k is whole 16-column blocks for each warp across and "
              "its query, keys and values are f16 or bf16, got "
           << schedule;
  OpBuilder b(kernel);
  Location loc = kernel.getLoc();
  int64_t rowBlocks = f.rowPrograms(schedule.getBlockM());

  if (ways == 1) {
    AttentionLowering a(b, nest, c, f, schedule, loc);
    xt::KernelOp tk = beginProgram(b, kernel, kernel.getSymName(), rowBlocks,
                                   schedule, target, a.scalars);
    a.mapRows(xt::ProgramIdOp::create(b, loc, 0));
    if (f.dynamicRows || f.dynamicBatch)
      setGrid(tk, a.programs);
    FailureOr<scf::ForOp> loop;
    auto [start, end] = a.keyRange();
    if (failed(a.loadQuery()) || failed(loop = a.keyLoop(start, end)) ||
        failed(a.epilogue((*loop).getResults()))) {
      tk.erase();
      return failure();
    }
    kernel.erase();
    return success();
  }

  if (f.dynamicRows || f.dynamicBatch) {
    InFlightDiagnostic diag =
        kernel.emitOpError()
        << "is attention over a dynamic number of "
        << (f.dynamicRows ? "queries" : "batch rows")
        << "; its keys are not split over ways (ways = 1), got "
        << schedule;
    return markDynamicSizeLimit(diag);
  }
  // Split keys (flash-decoding). A first kernel, over (row block, way)
  // with the way fastest, folds each way's share of the block's keys
  // (whole key blocks; a way past the end folds none) into its partials.
  std::string partialName = (kernel.getSymName() + "_partial").str();
  AttentionLowering first(b, nest, c, f, schedule, loc);
  SmallVector<Type> partialTypes = first.partialTypes(ways);
  SmallVector<Value> partials;
  xt::KernelOp k1 =
      beginProgram(b, kernel, partialName, rowBlocks * ways, schedule, target,
                   first.scalars, partialTypes, /*withOutputs=*/false,
                   &partials);
  Value pid = xt::ProgramIdOp::create(b, loc, 0);
  Value way = arith::RemUIOp::create(b, loc, pid, first.constant(ways));
  Value rowBlock = arith::DivUIOp::create(b, loc, pid, first.constant(ways));
  first.mapRows(rowBlock);
  auto [blockStart, blockEnd] = first.keyRange();
  // share = ceil(max(end - start, 0) / (bk * ways)) * bk.
  int64_t bk = schedule.getBlockK();
  Value span = arith::MaxSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, blockEnd, blockStart),
      first.constant(0));
  Value share = arith::MulIOp::create(
      b, loc,
      arith::DivUIOp::create(
          b, loc,
          arith::AddIOp::create(b, loc, span,
                                first.constant(bk * ways - 1)),
          first.constant(bk * ways)),
      first.constant(bk));
  Value start = arith::AddIOp::create(
      b, loc, blockStart, arith::MulIOp::create(b, loc, way, share));
  Value end = arith::MinSIOp::create(
      b, loc, arith::AddIOp::create(b, loc, start, share), blockEnd);
  FailureOr<scf::ForOp> loop;
  if (failed(first.loadQuery()) || failed(loop = first.keyLoop(start, end))) {
    k1.erase();
    return failure();
  }
  first.storePartials(partials, rowBlock, way, (*loop).getResults());

  // The second kernel, one program per row block: the partials combined,
  // then the epilogue.
  b.setInsertionPoint(kernel);
  AttentionLowering second(b, nest, c, f, schedule, loc);
  partials.clear();
  xt::KernelOp k2 = beginProgram(b, kernel, kernel.getSymName(), rowBlocks,
                                 schedule, target, second.scalars,
                                 partialTypes, /*withOutputs=*/true,
                                 &partials);
  rowBlock = xt::ProgramIdOp::create(b, loc, 0);
  second.mapRows(rowBlock);
  if (failed(second.epilogue(
          second.combinePartials(partials, rowBlock, ways)))) {
    k1.erase();
    k2.erase();
    return failure();
  }
  // A bucket of a launch stays one entry of it: the host runs the partials'
  // kernel before it, where the bucket's range holds the size.
  if (isBucketed(kernel))
    k2.setPartialsFromAttr(FlatSymbolRefAttr::get(b.getContext(), partialName));
  else
    splitLaunches(kernel, partialName, partialTypes);
  kernel.erase();
  return success();
}
