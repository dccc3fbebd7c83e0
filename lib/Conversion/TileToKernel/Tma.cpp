//===- Tma.cpp - Dot operand tiles brought in by bulk tensor copies -------===//
//
// On wgmma kernels (sm_90a), a pipelined operand tile that is a box of its
// buffer comes into shared memory by TMA (`cp.async.bulk.tensor`) instead
// of every thread's cp.async: each buffer dimension is indexed by a start
// plus a range along one axis of the tile, or by a start alone, and the
// load is masked by nothing but the buffer's bounds, which the copy's zero
// fill reproduces. One thread issues, per stage, the copies of every such
// operand on the stage's mbarrier; every thread waits for the barrier's
// phase. The tensor maps are kernel arguments that the host program makes
// (`xkernel.tensor_map`), described by the argument's
// `xkernel.tensor_map` attribute.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

#include "mlir/IR/Matchers.h"
#include "xtile/Support/KernelSignature.h"
#include "xtile/Support/Storage.h"

using namespace mlir;
using namespace xtile;
using namespace xtile::tiletokernel;

namespace {
/// How an index tile of a load runs: `start` (a scalar of the Tile IR
/// kernel, or none for 0) plus `offset`, plus a range along tile axis
/// `axis` (-1: the same everywhere).
struct IndexRun {
  int axis = -1;
  Value start;
  int64_t offset = 0;
};
} // namespace

/// The run of index `v`: a scalar, or a tile that is broadcasts and
/// reshapes of a 1-d `range`, `range + splat(s)` or `splat(s)`, or a splat
/// constant.
static std::optional<IndexRun> indexRun(Value v) {
  // A scalar index (a batch's) is the same everywhere.
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type) {
    if (std::optional<int64_t> c = getConstantIntValue(v))
      return IndexRun{-1, Value(), *c};
    return IndexRun{-1, v, 0};
  }
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (auto splat = dyn_cast<xt::SplatOp>(def)) {
    if (isa<RankedTensorType>(splat.getInput().getType()))
      return std::nullopt;
    IndexRun r;
    if (std::optional<int64_t> c = getConstantIntValue(splat.getInput()))
      r.offset = *c;
    else
      r.start = splat.getInput();
    return r;
  }
  DenseIntElementsAttr dense;
  if (matchPattern(v, m_Constant(&dense)) && dense.isSplat())
    return IndexRun{-1, Value(), dense.getSplatValue<APInt>().getSExtValue()};
  if (auto range = dyn_cast<xt::RangeOp>(def)) {
    if (type.getRank() != 1)
      return std::nullopt;
    return IndexRun{0, Value(), static_cast<int64_t>(range.getLower())};
  }
  if (auto addOp = dyn_cast<arith::AddIOp>(def)) {
    std::optional<IndexRun> x = indexRun(addOp.getLhs());
    std::optional<IndexRun> y = indexRun(addOp.getRhs());
    if (!x || !y || (x->axis >= 0 && y->axis >= 0) || (x->start && y->start))
      return std::nullopt;
    return IndexRun{std::max(x->axis, y->axis), x->start ? x->start : y->start,
                    x->offset + y->offset};
  }
  if (auto broadcast = dyn_cast<xt::BroadcastOp>(def)) {
    std::optional<IndexRun> r = indexRun(broadcast.getInput());
    auto from = cast<RankedTensorType>(broadcast.getInput().getType());
    if (!r || (r->axis >= 0 &&
               from.getDimSize(r->axis) != type.getDimSize(r->axis)))
      return std::nullopt;
    return r;
  }
  if (auto reshape = dyn_cast<xt::ReshapeOp>(def)) {
    auto from = cast<RankedTensorType>(reshape.getInput().getType());
    std::optional<IndexRun> r = indexRun(reshape.getInput());
    if (!r || r->axis < 0)
      return r;
    // A 1-d run becomes the one axis of the result that is not 1.
    if (from.getRank() != 1)
      return std::nullopt;
    int axis = -1;
    for (int64_t a = 0; a < type.getRank(); ++a)
      if (type.getDimSize(a) != 1) {
        if (axis >= 0)
          return std::nullopt;
        axis = a;
      }
    if (axis < 0)
      return IndexRun{-1, r->start, r->offset};
    r->axis = axis;
    return r;
  }
  return std::nullopt;
}

Value KernelLowering::tensorMapArgument(BlockArgument buffer,
                                        ArrayRef<int64_t> box,
                                        int64_t swizzle) {
  MLIRContext *ctx = b.getContext();
  auto map = DictionaryAttr::get(
      ctx, {b.getNamedAttr("of", b.getI64IntegerAttr(buffer.getArgNumber())),
            b.getNamedAttr("box", b.getDenseI64ArrayAttr(box)),
            b.getNamedAttr("swizzle", b.getI64IntegerAttr(swizzle))});
  auto it = tensorMaps.find(map);
  if (it != tensorMaps.end())
    return it->second;
  // After the buffers and the maps so far, before the sizes.
  unsigned index = src.getBodyBlock().getNumArguments() - src.getNumSizes() +
                   tensorMaps.size();
  NamedAttrList attrs;
  attrs.append(xk::FuncOp::getReadonlyAttrName(), UnitAttr::get(ctx));
  attrs.append(xk::FuncOp::getTensorMapAttrName(), map);
  (void)func.insertArgument(
      index, xk::PtrType::get(ctx, b.getI8Type(), xk::MemorySpace::global),
      attrs.getDictionary(ctx), loc);
  return tensorMaps[map] = func.getArgument(index);
}

bool KernelLowering::planTma(Pipelined &p) {
  if (instruction() != xt::DotInstruction::wgmma)
    return false;
  auto type = cast<RankedTensorType>(p.operand.getType());
  int64_t bytes = getElementBytes(type.getElementType());
  auto buffer = dyn_cast<BlockArgument>(p.load.getBuffer());
  if (bytes != 2 || !buffer || type.getRank() != 2)
    return false;
  auto memref = cast<MemRefType>(buffer.getType());
  int64_t rank = memref.getRank();
  if (rank > 5)
    return false;
  // Coordinates are 32-bit: every dimension (a dynamic one at its largest)
  // is below 2^31.
  SmallVector<BlockArgument> sizes = getKernelBufferSizes(src, buffer);
  SmallVector<std::pair<int64_t, int64_t>> ranges = getKernelSizeRanges(src);
  ArrayRef<BlockArgument> kernelSizes = getKernelSizes(src);
  for (int64_t d = 0, k = 0; d < rank; ++d) {
    int64_t largest = memref.getDimSize(d);
    if (memref.isDynamicDim(d))
      largest =
          ranges[llvm::find(kernelSizes, sizes[k++]) - kernelSizes.begin()]
              .second;
    if (largest >= (int64_t(1) << 31))
      return false;
  }
  // Every stride but the innermost's is static and a multiple of 16 bytes.
  int64_t stride = bytes;
  for (int64_t d = rank - 1; d >= 1; --d) {
    if (memref.isDynamicDim(d))
      return false;
    stride *= memref.getDimSize(d);
    if (stride % 16)
      return false;
  }
  // Each tile axis longer than 1 is one dimension's range.
  SmallVector<IndexRun> runs;
  int64_t dimOfAxis[2] = {-1, -1};
  for (auto [d, index] : llvm::enumerate(p.load.getIndices())) {
    std::optional<IndexRun> r = indexRun(index);
    if (!r)
      return false;
    if (r->axis >= 0) {
      if (dimOfAxis[r->axis] >= 0)
        return false;
      dimOfAxis[r->axis] = d;
    }
    runs.push_back(*r);
  }
  for (int a = 0; a < 2; ++a)
    if (dimOfAxis[a] < 0 && type.getDimSize(a) > 1)
      return false;
  // The innermost dimension runs along the tile's rows (staged row by row)
  // or its columns (staged column by column), as the copies would stage it.
  int inner = runs.back().axis;
  if (inner < 0 || (inner == 0) != p.transposed)
    return false;
  // The mask, if any, is the buffer's bounds on ranged dimensions only.
  if (Value mask = p.load.getMask()) {
    SmallVector<Value> terms{mask};
    while (!terms.empty()) {
      Value t = terms.pop_back_val();
      if (auto both = t.getDefiningOp<arith::AndIOp>()) {
        terms.append({both.getLhs(), both.getRhs()});
        continue;
      }
      auto cmp = t.getDefiningOp<arith::CmpIOp>();
      if (!cmp || (cmp.getPredicate() != arith::CmpIPredicate::slt &&
                   cmp.getPredicate() != arith::CmpIPredicate::ult))
        return false;
      auto d = llvm::find(p.load.getIndices(), cmp.getLhs()) -
               p.load.getIndices().begin();
      if (d == rank || runs[d].axis < 0)
        return false;
      std::optional<IndexRun> bound = indexRun(cmp.getRhs());
      if (!bound || bound->axis >= 0)
        return false;
      if (memref.isDynamicDim(d)) {
        int64_t k = 0;
        for (int64_t e = 0; e < d; ++e)
          k += memref.isDynamicDim(e);
        if (bound->offset != 0 || bound->start != sizes[k])
          return false;
      } else if (bound->start || bound->offset != memref.getDimSize(d)) {
        return false;
      }
    }
  }
  // Staged as rows of `row` elements along the innermost dimension, `rows`
  // of them: in 64-element panels when wider than 128 bytes (see
  // sharedOffset), each its own box.
  int64_t row = type.getDimSize(inner);
  int64_t rows = type.getDimSize(1 - inner);
  int64_t rowBytes = row * bytes;
  int64_t swizzle = std::min<int64_t>(rowBytes, 128);
  if (rowBytes > 128 ? rowBytes % 128 : !llvm::isPowerOf2_64(rowBytes) ||
                                            rowBytes < 16)
    return false;
  int64_t panel = swizzle / bytes;
  // Stages and panels keep the swizzle's 1024-byte phase.
  if ((type.getNumElements() * bytes) % 1024 || (rows * panel * bytes) % 1024)
    return false;
  if (swizzle == 16)
    swizzle = 0;
  SmallVector<int64_t> box;
  for (const IndexRun &r : runs)
    box.push_back(r.axis < 0 ? 1 : r.axis == inner ? panel
                                                   : type.getDimSize(r.axis));
  if (llvm::any_of(box, [](int64_t s) { return s > 256; }))
    return false;
  p.map = tensorMapArgument(buffer, box, overrides.tensorMapSwizzle(swizzle));
  p.runs.clear();
  for (const IndexRun &r : runs)
    p.runs.push_back({r.start, r.offset});
  p.panels = row / panel;
  p.panelWidth = panel;
  p.panelElements = rows * panel;
  return true;
}

Value KernelLowering::firstThread() {
  if (!isFirstThread) {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(prelude);
    isFirstThread =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, cst(0));
  }
  return isFirstThread;
}

void KernelLowering::initTmaBarriers(int64_t stages, int64_t emptyArrivals) {
  tmaBarriers = dynamicShared(b.getI64Type(), stages, 8);
  emptyBarriers =
      emptyArrivals ? dynamicShared(b.getI64Type(), stages, 8) : Value();
  predicated(
      b, loc, firstThread(), {},
      [&] {
        for (int64_t s = 0; s < stages; ++s)
          xk::MbarrierInitOp::create(b, loc, tmaBarriers, cst(s), 1);
        if (emptyArrivals)
          for (int64_t s = 0; s < stages; ++s)
            xk::MbarrierInitOp::create(b, loc, emptyBarriers, cst(s),
                                       emptyArrivals);
        return SmallVector<Value>{};
      },
      [&] { return SmallVector<Value>{}; });
  barrier();
}

LogicalResult KernelLowering::issueTmaCopies(ArrayRef<Pipelined> operands,
                                             Value stage, bool elected) {
  int64_t bytes = 0;
  for (const Pipelined &p : operands)
    if (p.map)
      bytes += p.elements *
               getElementBytes(cast<RankedTensorType>(p.operand.getType())
                                   .getElementType());
  if (!bytes)
    return success();
  // The starts of this iteration's boxes (the caller recomputes the loop
  // body's scalars for it).
  SmallVector<SmallVector<Value>> coords;
  for (const Pipelined &p : operands) {
    if (!p.map)
      continue;
    SmallVector<Value> c;
    for (auto [start, offset] : p.runs) {
      Value v = cst(offset);
      if (start) {
        FailureOr<Value> s = scalar(start, p.load);
        if (failed(s))
          return failure();
        v = add(*s, v);
      }
      c.push_back(v);
    }
    coords.push_back(std::move(c));
  }
  predicated(
      b, loc, elected ? Value() : firstThread(), {},
      [&] {
        xk::MbarrierExpectTxOp::create(b, loc, tmaBarriers, stage, bytes);
        auto c = coords.begin();
        for (const Pipelined &p : operands) {
          if (!p.map)
            continue;
          Value base = mul(stage, cst(p.elements));
          for (int64_t q = 0; q < p.panels; ++q) {
            SmallVector<Value> at;
            for (auto [d, v] : llvm::enumerate(*c)) {
              Value x = v;
              // Panels follow each other along the innermost dimension.
              if (d + 1 == c->size())
                x = add(x, cst(q * p.panelWidth));
              at.push_back(arith::IndexCastOp::create(b, loc, b.getI32Type(),
                                                      x));
            }
            xk::TmaLoadOp::create(b, loc, p.map, at, p.buffer,
                                  add(base, cst(q * p.panelElements)),
                                  tmaBarriers, stage);
          }
          ++c;
        }
        return SmallVector<Value>{};
      },
      [&] { return SmallVector<Value>{}; });
  return success();
}
