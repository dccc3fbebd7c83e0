//===- Accesses.cpp - What is known of a Tile IR kernel's accesses --------===//

#include "xtile/Dialect/Tile/Analysis/Accesses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "xtile/Support/KernelSignature.h"
#include "xtile/Support/Storage.h"

using namespace mlir;
using namespace xtile;
using namespace xtile::tile;
namespace xt = xtile::tile;

constexpr int64_t kMaxDivisor = int64_t(1) << 30;

static int64_t powerOfTwoFactor(int64_t v) {
  if (v == 0)
    return kMaxDivisor;
  return std::min<int64_t>(
      kMaxDivisor, int64_t(1) << llvm::countr_zero(static_cast<uint64_t>(v)));
}

BufferStrides xtile::tile::getBufferStrides(MemRefType type) {
  BufferStrides s;
  s.factors.assign(type.getRank(), 1);
  s.dynamic.assign(type.getRank(), false);
  bool dynamic = false; // a `?` after the current dimension
  for (int64_t d = type.getRank() - 2; d >= 0; --d) {
    int64_t size = type.getDimSize(d + 1);
    if (ShapedType::isDynamic(size)) {
      dynamic = true;
      size = 1;
    }
    s.factors[d] = s.factors[d + 1] * size;
    s.dynamic[d] = dynamic;
  }
  return s;
}

int64_t AccessAnalysis::scalarDivisor(Value v) {
  APInt c;
  if (matchPattern(v, m_ConstantInt(&c)))
    return powerOfTwoFactor(c.getSExtValue());
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()))
      if (arg == loop.getInductionVar())
        return std::min(scalarDivisor(loop.getLowerBound()),
                        scalarDivisor(loop.getStep()));
    return 1;
  }
  Operation *def = v.getDefiningOp();
  if (isa<arith::MulIOp>(def))
    return std::min(kMaxDivisor, scalarDivisor(def->getOperand(0)) *
                                     scalarDivisor(def->getOperand(1)));
  if (isa<arith::AddIOp, arith::SubIOp>(def))
    return std::min(scalarDivisor(def->getOperand(0)),
                    scalarDivisor(def->getOperand(1)));
  if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::ExtUIOp>(def))
    return scalarDivisor(def->getOperand(0));
  return 1;
}

Progression AccessAnalysis::progression(Value v, int64_t vec, int64_t dim) {
  if (!isa<RankedTensorType>(v.getType()))
    return {true, 0, scalarDivisor(v)};
  auto shape = cast<RankedTensorType>(v.getType()).getShape();
  if (dim == static_cast<int64_t>(shape.size()) - 1)
    dim = -1;
  auto key = std::make_tuple(v, vec, dim);
  auto it = progressions.find(key);
  if (it != progressions.end())
    return it->second;
  Progression p;
  Operation *def = v.getDefiningOp();
  if (def && dim >= 0 && isa<xt::BroadcastOp, xt::ReshapeOp>(def)) {
    // Along another dimension than the last: a broadcast keeps or
    // replicates it; a reshape that only adds or drops unit dimensions
    // moves it.
    ArrayRef<int64_t> in =
        cast<RankedTensorType>(def->getOperand(0).getType()).getShape();
    if (isa<xt::BroadcastOp>(def) && in.size() == shape.size()) {
      if (in[dim] == shape[dim]) {
        p = progression(def->getOperand(0), vec, dim);
      } else if (in[dim] == 1) {
        Progression q = progression(def->getOperand(0), 1);
        if (q.known)
          p = {true, 0, q.divisor};
      }
    } else if (isa<xt::ReshapeOp>(def) && shape[dim] != 1) {
      auto nonUnit = [](ArrayRef<int64_t> dims) {
        SmallVector<int64_t> positions;
        for (auto [i, d] : llvm::enumerate(dims))
          if (d != 1)
            positions.push_back(i);
        return positions;
      };
      SmallVector<int64_t> from = nonUnit(in), to = nonUnit(shape);
      bool same = from.size() == to.size() &&
                  llvm::all_of(llvm::zip(from, to), [&](auto pair) {
                    return in[std::get<0>(pair)] == shape[std::get<1>(pair)];
                  });
      if (same)
        p = progression(def->getOperand(0), vec,
                        from[llvm::find(to, dim) - to.begin()]);
    }
    return progressions[key] = p;
  }
  if (def) {
    auto operandShape = [&](unsigned i) {
      return cast<RankedTensorType>(def->getOperand(i).getType()).getShape();
    };
    if (auto range = dyn_cast<xt::RangeOp>(def)) {
      p = {true, 1, std::min(powerOfTwoFactor(range.getLower()), vec)};
    } else if (auto splat = dyn_cast<xt::SplatOp>(def)) {
      p = {true, 0, scalarDivisor(splat.getInput())};
    } else if (auto c = dyn_cast<arith::ConstantOp>(def)) {
      auto dense = dyn_cast<DenseIntElementsAttr>(c.getValue());
      if (dense && dense.isSplat())
        p = {true, 0,
             powerOfTwoFactor(dense.getSplatValue<APInt>().getSExtValue())};
    } else if (isa<xt::BroadcastOp, xt::ReshapeOp>(def)) {
      ArrayRef<int64_t> in = operandShape(0);
      int64_t inLast = in.empty() ? 1 : in.back();
      if (!shape.empty() && inLast == shape.back() &&
          (isa<xt::BroadcastOp>(def) || shape.size() == 1 || in.size() == 1 ||
           in.drop_back() == shape.drop_back() ||
           llvm::all_of(in.drop_back(), [](int64_t d) { return d == 1; }))) {
        p = progression(def->getOperand(0), vec);
      } else if (!shape.empty() && shape.back() == 1) {
        // Constant along the last dimension; any of the operand's values.
        Progression q = progression(def->getOperand(0), 1);
        if (q.known)
          p = {true, 0, q.divisor};
      } else if (isa<xt::BroadcastOp>(def) && inLast == 1) {
        Progression q = progression(def->getOperand(0), 1);
        if (q.known)
          p = {true, 0, q.divisor};
      }
    } else if (isa<arith::AddIOp, arith::SubIOp>(def)) {
      Progression x = progression(def->getOperand(0), vec, dim);
      Progression y = progression(def->getOperand(1), vec, dim);
      if (x.known && y.known)
        p = {true,
             isa<arith::AddIOp>(def) ? x.stride + y.stride
                                     : x.stride - y.stride,
             std::min(x.divisor, y.divisor)};
    } else if (isa<arith::MulIOp>(def)) {
      Progression x = progression(def->getOperand(0), vec, dim);
      Progression y = progression(def->getOperand(1), vec, dim);
      APInt c;
      auto constantOf = [&](Value t) -> std::optional<int64_t> {
        DenseIntElementsAttr dense;
        if (matchPattern(t, m_Constant(&dense)) && dense.isSplat())
          return dense.getSplatValue<APInt>().getSExtValue();
        if (auto s = t.getDefiningOp<xt::SplatOp>())
          if (matchPattern(s.getInput(), m_ConstantInt(&c)))
            return c.getSExtValue();
        return std::nullopt;
      };
      std::optional<int64_t> cx = constantOf(def->getOperand(0));
      std::optional<int64_t> cy = constantOf(def->getOperand(1));
      int64_t divisor = std::min(kMaxDivisor, x.divisor * y.divisor);
      if (x.known && y.known) {
        if (cy)
          p = {true, x.stride * *cy, divisor};
        else if (cx)
          p = {true, y.stride * *cx, divisor};
        else if (x.stride == 0 && y.stride == 0)
          p = {true, 0, divisor};
      }
    } else if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::ExtUIOp>(def)) {
      p = progression(def->getOperand(0), vec, dim);
    } else if (!isa<xt::LoadOp>(def) && def->getNumRegions() == 0 &&
               llvm::all_of(def->getOperands(), [&](Value o) {
                 Progression q = progression(o, vec, dim);
                 return q.known && q.stride == 0;
               })) {
      p = {true, 0, 1};
    }
  }
  return progressions[key] = p;
}

bool AccessAnalysis::uniformMask(Value mask, int64_t vec, int64_t dim) {
  if (!mask)
    return true;
  Progression p = progression(mask, vec, dim);
  if (p.known && p.stride == 0)
    return true;
  Operation *def = mask.getDefiningOp();
  // A mask brought to the tile's shape (a block's rows down a column
  // fold's steps): as uniform as the mask it was brought from, along a
  // last dimension it keeps; constant along one it broadcasts.
  if (def && isa<xt::BroadcastOp, xt::ReshapeOp>(def) && dim < 0) {
    auto shape = cast<RankedTensorType>(mask.getType()).getShape();
    auto in = cast<RankedTensorType>(def->getOperand(0).getType()).getShape();
    int64_t inLast = in.empty() ? 1 : in.back();
    if (!shape.empty() && inLast == shape.back() &&
        (isa<xt::BroadcastOp>(def) || in.size() == 1 ||
         llvm::all_of(in.drop_back(), [](int64_t d) { return d == 1; })))
      return uniformMask(def->getOperand(0), vec, dim);
    if (isa<xt::BroadcastOp>(def) && inLast == 1 && !shape.empty())
      return true;
  }
  if (auto a = dyn_cast_or_null<arith::AndIOp>(def))
    return uniformMask(a.getLhs(), vec, dim) &&
           uniformMask(a.getRhs(), vec, dim);
  auto cmp = dyn_cast_or_null<arith::CmpIOp>(def);
  if (!cmp)
    return false;
  Value x = cmp.getLhs(), bound = cmp.getRhs();
  arith::CmpIPredicate pred = cmp.getPredicate();
  if (pred == arith::CmpIPredicate::sgt || pred == arith::CmpIPredicate::ugt) {
    std::swap(x, bound);
    pred = pred == arith::CmpIPredicate::sgt ? arith::CmpIPredicate::slt
                                             : arith::CmpIPredicate::ult;
  }
  if (pred != arith::CmpIPredicate::slt && pred != arith::CmpIPredicate::ult)
    return false;
  // x0 + v < b, with x0 and b multiples of vec, holds for all v < vec or none.
  Progression px = progression(x, vec, dim), pb = progression(bound, vec, dim);
  return px.known && pb.known && px.stride == 1 && pb.stride == 0 &&
         px.divisor % vec == 0 && pb.divisor % vec == 0;
}

bool AccessAnalysis::vectorizable(ValueRange indices, Value mask,
                                  MemRefType buffer, int64_t vec, int64_t dim) {
  // One access moves at most 16 bytes.
  if (vec == 1 || vec * getElementBytes(buffer.getElementType()) > 16)
    return false;
  BufferStrides strides = getBufferStrides(buffer);
  int64_t stride = 0, divisor = kMaxDivisor;
  for (auto [index, bufferStride, dynamicStride] :
       llvm::zip(indices, strides.factors, strides.dynamic)) {
    Progression p = progression(index, vec, dim);
    // A dynamic stride is its static factor times sizes: as aligned as
    // that factor, but of unknown step.
    if (!p.known || (dynamicStride && p.stride != 0))
      return false;
    stride += p.stride * bufferStride;
    divisor =
        std::min(divisor, std::min(kMaxDivisor,
                                   p.divisor * powerOfTwoFactor(bufferStride)));
  }
  return stride == 1 && divisor % vec == 0 && uniformMask(mask, vec, dim);
}

/// The run of index `v`: a scalar, or a tile that is broadcasts and
/// reshapes of a 1-d `range`, `range + splat(s)` or `splat(s)`, or a splat
/// constant.
std::optional<IndexRun> xtile::tile::getIndexRun(Value v) {
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
    std::optional<IndexRun> x = getIndexRun(addOp.getLhs());
    std::optional<IndexRun> y = getIndexRun(addOp.getRhs());
    if (!x || !y || (x->axis >= 0 && y->axis >= 0) || (x->start && y->start))
      return std::nullopt;
    return IndexRun{std::max(x->axis, y->axis), x->start ? x->start : y->start,
                    x->offset + y->offset};
  }
  if (auto broadcast = dyn_cast<xt::BroadcastOp>(def)) {
    std::optional<IndexRun> r = getIndexRun(broadcast.getInput());
    auto from = cast<RankedTensorType>(broadcast.getInput().getType());
    if (!r ||
        (r->axis >= 0 && from.getDimSize(r->axis) != type.getDimSize(r->axis)))
      return std::nullopt;
    return r;
  }
  if (auto reshape = dyn_cast<xt::ReshapeOp>(def)) {
    auto from = cast<RankedTensorType>(reshape.getInput().getType());
    std::optional<IndexRun> r = getIndexRun(reshape.getInput());
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

std::optional<TmaBox> xtile::tile::getTmaBox(KernelOp kernel, LoadOp load,
                                             bool transposed) {
  auto type = cast<RankedTensorType>(load.getType());
  int64_t bytes = getElementBytes(type.getElementType());
  auto buffer = dyn_cast<BlockArgument>(load.getBuffer());
  // 16-bit operands, and fp8 ones (bytes; K-major, as wgmma reads them).
  bool fp8 = isFp8(type.getElementType());
  if ((bytes != 2 && !fp8) || !buffer || type.getRank() != 2)
    return std::nullopt;
  auto memref = cast<MemRefType>(buffer.getType());
  int64_t rank = memref.getRank();
  if (rank > 5)
    return std::nullopt;
  // Coordinates are 32-bit: every dimension (a dynamic one at its largest)
  // is below 2^31.
  SmallVector<BlockArgument> sizes = getKernelBufferSizes(kernel, buffer);
  SmallVector<std::pair<int64_t, int64_t>> ranges = getKernelSizeRanges(kernel);
  ArrayRef<BlockArgument> kernelSizes = getKernelSizes(kernel);
  for (int64_t d = 0, k = 0; d < rank; ++d) {
    int64_t largest = memref.getDimSize(d);
    if (memref.isDynamicDim(d))
      largest =
          ranges[llvm::find(kernelSizes, sizes[k++]) - kernelSizes.begin()]
              .second;
    if (largest >= (int64_t(1) << 31))
      return std::nullopt;
  }
  // Every stride but the innermost's is static and a multiple of 16 bytes.
  int64_t stride = bytes;
  for (int64_t d = rank - 1; d >= 1; --d) {
    if (memref.isDynamicDim(d))
      return std::nullopt;
    stride *= memref.getDimSize(d);
    if (stride % 16)
      return std::nullopt;
  }
  // Each tile axis longer than 1 is one dimension's range.
  SmallVector<IndexRun> runs;
  int64_t dimOfAxis[2] = {-1, -1};
  for (auto [d, index] : llvm::enumerate(load.getIndices())) {
    std::optional<IndexRun> r = getIndexRun(index);
    if (!r)
      return std::nullopt;
    if (r->axis >= 0) {
      if (dimOfAxis[r->axis] >= 0)
        return std::nullopt;
      dimOfAxis[r->axis] = d;
    }
    runs.push_back(*r);
  }
  for (int a = 0; a < 2; ++a)
    if (dimOfAxis[a] < 0 && type.getDimSize(a) > 1)
      return std::nullopt;
  // The innermost dimension runs along the tile's rows (staged row by row)
  // or its columns (staged column by column), as the copies would stage it.
  int inner = runs.back().axis;
  if (inner < 0 || (inner == 0) != transposed)
    return std::nullopt;
  // The mask, if any, is the buffer's bounds on ranged dimensions only.
  if (Value mask = load.getMask()) {
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
        return std::nullopt;
      auto d = llvm::find(load.getIndices(), cmp.getLhs()) -
               load.getIndices().begin();
      if (d == rank || runs[d].axis < 0)
        return std::nullopt;
      std::optional<IndexRun> bound = getIndexRun(cmp.getRhs());
      if (!bound || bound->axis >= 0)
        return std::nullopt;
      if (memref.isDynamicDim(d)) {
        int64_t k = 0;
        for (int64_t e = 0; e < d; ++e)
          k += memref.isDynamicDim(e);
        if (bound->offset != 0 || bound->start != sizes[k])
          return std::nullopt;
      } else if (bound->start || bound->offset != memref.getDimSize(d)) {
        return std::nullopt;
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
  if (rowBytes > 128 ? rowBytes % 128
                     : !llvm::isPowerOf2_64(rowBytes) || rowBytes < 16)
    return std::nullopt;
  int64_t panel = swizzle / bytes;
  // Stages and panels keep the swizzle's 1024-byte phase.
  if ((type.getNumElements() * bytes) % 1024 || (rows * panel * bytes) % 1024)
    return std::nullopt;
  if (swizzle == 16)
    swizzle = 0;
  SmallVector<int64_t> box;
  for (const IndexRun &r : runs)
    box.push_back(r.axis < 0        ? 1
                  : r.axis == inner ? panel
                                    : type.getDimSize(r.axis));
  if (llvm::any_of(box, [](int64_t s) { return s > 256; }))
    return std::nullopt;
  TmaBox result;
  result.box = box;
  result.swizzle = swizzle;
  result.runs = runs;
  result.panels = row / panel;
  result.panelWidth = panel;
  result.panelElements = rows * panel;
  return result;
}
