//===- Memory.cpp - Loads and stores of tiles -----------------------------===//
//
// Global-memory accesses: the offsets of a tile's elements in a buffer,
// what is known of index tiles (progressions) to vectorize accesses, and
// the predicated loads and stores each thread issues for its slots.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "xtile/Support/KernelSignature.h"
#include "xtile/Support/Storage.h"

using namespace mlir;
using namespace xtile;
using namespace xtile::tiletokernel;

constexpr int64_t kMaxDivisor = int64_t(1) << 30;

static int64_t powerOfTwoFactor(int64_t v) {
  if (v == 0)
    return kMaxDivisor;
  return std::min<int64_t>(kMaxDivisor, int64_t(1) << llvm::countr_zero(
                                            static_cast<uint64_t>(v)));
}

//===----------------------------------------------------------------------===//
// Accesses
//===----------------------------------------------------------------------===//

KernelLowering::Access KernelLowering::accessOf(Value buffer) {
  auto arg = cast<BlockArgument>(buffer);
  auto type = cast<MemRefType>(buffer.getType());
  Access a;
  a.ptr = func.getArgument(arg.getArgNumber());
  a.strides.assign(type.getRank(), 1);
  a.dynamicStrides.assign(type.getRank(), Value());
  // The values of the buffer's `?`s, innermost last.
  SmallVector<BlockArgument> sizes = getKernelBufferSizes(src, arg);
  size_t next = sizes.size();
  Value dynamic; // product of the `?`s after the current dimension
  for (int64_t d = type.getRank() - 2; d >= 0; --d) {
    int64_t size = type.getDimSize(d + 1);
    if (ShapedType::isDynamic(size)) {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPoint(prelude);
      Value value = scalars.lookup(sizes[--next]);
      dynamic = dynamic ? mul(dynamic, value) : value;
      size = 1;
    }
    a.strides[d] = a.strides[d + 1] * size;
    if (dynamic) {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPoint(prelude);
      a.dynamicStrides[d] = mul(dynamic, cst(a.strides[d]));
    }
  }
  return a;
}

FailureOr<SmallVector<Value>>
KernelLowering::offsets(const Access &access, ValueRange indices, int cs,
                        Operation *user) {
  size_t n = cs < 0 ? 1 : coordSets[cs].coords.size();
  SmallVector<Value> out(n, Value());
  for (auto [index, stride, dynamicStride] :
       llvm::zip(indices, access.strides, access.dynamicStrides)) {
    SmallVector<Value> slots;
    if (isTile(index)) {
      FailureOr<SmallVector<Value>> t = tile(index, cs);
      if (failed(t))
        return failure();
      slots = *t;
    } else {
      FailureOr<Value> s = scalar(index, user);
      if (failed(s))
        return failure();
      slots.assign(n, *s);
    }
    for (size_t s = 0; s < n; ++s) {
      Value term = mul(slots[s], dynamicStride ? dynamicStride : cst(stride));
      out[s] = out[s] ? add(out[s], term) : term;
    }
  }
  for (Value &o : out)
    if (!o)
      o = cst(0);
  return out;
}

int64_t KernelLowering::scalarDivisor(Value v) {
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

Progression KernelLowering::progression(Value v, int64_t vec, int64_t dim) {
  if (!isTile(v))
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

/// Whether a mask is the same for the `vec` elements of every group.
bool KernelLowering::uniformMask(Value mask, int64_t vec, int64_t dim) {
  if (!mask)
    return true;
  Progression p = progression(mask, vec, dim);
  if (p.known && p.stride == 0)
    return true;
  Operation *def = mask.getDefiningOp();
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
  Progression px = progression(x, vec, dim),
              pb = progression(bound, vec, dim);
  return px.known && pb.known && px.stride == 1 && pb.stride == 0 &&
         px.divisor % vec == 0 && pb.divisor % vec == 0;
}

bool KernelLowering::vectorizable(ValueRange indices, Value mask,
                                  const Access &access, int64_t vec,
                                  int64_t dim) {
  // One access moves at most 16 bytes.
  if (vec == 1 ||
      vec * getElementBytes(cast<xk::PtrType>(access.ptr.getType())
                                .getElementType()) >
          16)
    return false;
  int64_t stride = 0, divisor = kMaxDivisor;
  for (auto [index, bufferStride, dynamicStride] :
       llvm::zip(indices, access.strides, access.dynamicStrides)) {
    Progression p = progression(index, vec, dim);
    // A dynamic stride is its static factor times sizes: as aligned as
    // that factor, but of unknown step.
    if (!p.known || (dynamicStride && p.stride != 0))
      return false;
    stride += p.stride * bufferStride;
    divisor = std::min(divisor, std::min(kMaxDivisor, p.divisor *
                                          powerOfTwoFactor(bufferStride)));
  }
  return stride == 1 && divisor % vec == 0 && uniformMask(mask, vec, dim);
}

SmallVector<Value>
xtile::tiletokernel::predicated(OpBuilder &b, Location loc, Value pred,
                                TypeRange types,
                                function_ref<SmallVector<Value>()> body,
                                function_ref<SmallVector<Value>()> otherwise) {
  if (!pred)
    return body();
  auto ifOp = scf::IfOp::create(b, loc, types, pred, /*withElse=*/!types.empty());
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    SmallVector<Value> values = body();
    if (!types.empty())
      scf::YieldOp::create(b, loc, values);
    else if (ifOp.thenBlock()->empty() ||
             !ifOp.thenBlock()->back().hasTrait<OpTrait::IsTerminator>())
      scf::YieldOp::create(b, loc);
    if (!types.empty()) {
      b.setInsertionPointToStart(&ifOp.getElseRegion().front());
      scf::YieldOp::create(b, loc, otherwise());
    }
  }
  return SmallVector<Value>(ifOp.getResults());
}

FailureOr<SmallVector<Value>> KernelLowering::lowerLoad(xt::LoadOp op,
                                                        int cs) {
  Access access = accessOf(op.getBuffer());
  FailureOr<SmallVector<Value>> offs =
      offsets(access, op.getIndices(), cs, op);
  if (failed(offs))
    return failure();
  FailureOr<SmallVector<Value>> masks = maskSlots(op.getMask(), cs, op);
  if (failed(masks))
    return failure();
  Type element = elementTypeOf(op.getType());
  Value other;
  if (Value o = op.getOther()) {
    FailureOr<Value> s = scalar(o, op);
    if (failed(s))
      return failure();
    other = *s;
  } else {
    other = constantOf(b.getZeroAttr(element));
  }
  const CoordSet &set = coordSets[cs];
  const Layout &l = layouts[set.layout];
  bool base = baseIds.count(set.shape) && baseIds[set.shape] == cs;
  bool vec = base && vectorizable(op.getIndices(), op.getMask(), access, l.vec);
  SmallVector<Value> out;
  Value ptr = access.ptr;
  Type memType = storageType(element);
  auto convert = [&](Value loaded) -> Value {
    if (memType == element)
      return loaded;
    return arith::IndexCastOp::create(b, loc, element, loaded);
  };
  for (int64_t c = 0; c < l.chunks; ++c) {
    Value own = owned(set.layout, c);
    if (vec) {
      int64_t s0 = c * l.vec;
      Value pred = andPred(own, masks->empty() ? Value() : (*masks)[s0]);
      auto vt = VectorType::get({l.vec}, memType);
      Value v = predicated(
          b, loc, pred, {vt},
          [&] {
            return SmallVector<Value>{
                xk::LoadOp::create(b, loc, vt, ptr, (*offs)[s0])};
          },
          [&] {
            Value o = other;
            if (memType != element)
              o = arith::IndexCastOp::create(b, loc, memType, o);
            return SmallVector<Value>{vector::BroadcastOp::create(b, loc, vt, o)};
          })[0];
      for (int64_t i = 0; i < l.vec; ++i)
        out.push_back(convert(vector::ExtractOp::create(b, loc, v, i)));
      continue;
    }
    for (int64_t i = 0; i < l.vec; ++i) {
      int64_t s = c * l.vec + i;
      Value pred = andPred(own, masks->empty() ? Value() : (*masks)[s]);
      out.push_back(predicated(
          b, loc, pred, {element},
          [&] {
            return SmallVector<Value>{convert(
                xk::LoadOp::create(b, loc, memType, ptr, (*offs)[s]))};
          },
          [&] { return SmallVector<Value>{other}; })[0]);
    }
  }
  return out;
}

FailureOr<Value> KernelLowering::lowerScalarLoad(xt::LoadOp op) {
  Access access = accessOf(op.getBuffer());
  FailureOr<SmallVector<Value>> offs = offsets(access, op.getIndices(), -1, op);
  if (failed(offs))
    return failure();
  Type element = op.getType();
  Type memType = storageType(element);
  Value pred, other;
  if (Value m = op.getMask()) {
    FailureOr<Value> s = scalar(m, op);
    if (failed(s))
      return failure();
    pred = *s;
  }
  if (Value o = op.getOther()) {
    FailureOr<Value> s = scalar(o, op);
    if (failed(s))
      return failure();
    other = *s;
  }
  return predicated(
      b, loc, pred, {element},
      [&] {
        Value v = xk::LoadOp::create(b, loc, memType, access.ptr, (*offs)[0]);
        if (memType != element)
          v = arith::IndexCastOp::create(b, loc, element, v);
        return SmallVector<Value>{v};
      },
      [&] { return SmallVector<Value>{other}; })[0];
}

LogicalResult KernelLowering::lowerStore(xt::StoreOp op) {
  Access access = accessOf(op.getBuffer());
  Value value = op.getValue();
  Type element = elementTypeOf(value.getType());
  Type memType = storageType(element);
  auto toMemory = [&](Value v) -> Value {
    return memType == element ? v
                              : arith::IndexCastOp::create(b, loc, memType, v);
  };
  if (!isTile(value)) {
    // A scalar store: every thread has the value; thread 0 writes it.
    FailureOr<SmallVector<Value>> offs =
        offsets(access, op.getIndices(), -1, op);
    FailureOr<Value> v = scalar(value, op);
    if (failed(offs) || failed(v))
      return failure();
    Value pred = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                               tid, cst(0));
    if (Value m = op.getMask()) {
      FailureOr<Value> s = scalar(m, op);
      if (failed(s))
        return failure();
      pred = andPred(pred, *s);
    }
    predicated(
        b, loc, pred, {},
        [&] {
          xk::StoreOp::create(b, loc, toMemory(*v), access.ptr, (*offs)[0]);
          return SmallVector<Value>{};
        },
        [&] { return SmallVector<Value>{}; });
    return success();
  }
  int cs = baseCoords(cast<RankedTensorType>(value.getType()).getShape());
  FailureOr<SmallVector<Value>> values = tile(value, cs);
  if (failed(values))
    return failure();
  FailureOr<bool> throughShared = storeThroughShared(op, access, *values, cs);
  if (failed(throughShared))
    return failure();
  if (*throughShared)
    return success();
  FailureOr<SmallVector<Value>> offs = offsets(access, op.getIndices(), cs, op);
  if (failed(offs))
    return failure();
  FailureOr<SmallVector<Value>> masks = maskSlots(op.getMask(), cs, op);
  if (failed(masks))
    return failure();
  const Layout &l = layouts[coordSets[cs].layout];
  bool vec = vectorizable(op.getIndices(), op.getMask(), access, l.vec);
  for (int64_t c = 0; c < l.chunks; ++c) {
    Value own = owned(coordSets[cs].layout, c);
    if (vec) {
      int64_t s0 = c * l.vec;
      Value pred = andPred(own, masks->empty() ? Value() : (*masks)[s0]);
      SmallVector<Value> lanes;
      for (int64_t i = 0; i < l.vec; ++i)
        lanes.push_back(toMemory((*values)[s0 + i]));
      Value v = vector::FromElementsOp::create(
          b, loc, VectorType::get({l.vec}, memType), lanes);
      predicated(
          b, loc, pred, {},
          [&] {
            xk::StoreOp::create(b, loc, v, access.ptr, (*offs)[s0]);
            return SmallVector<Value>{};
          },
          [&] { return SmallVector<Value>{}; });
      continue;
    }
    for (int64_t i = 0; i < l.vec; ++i) {
      int64_t s = c * l.vec + i;
      Value pred = andPred(own, masks->empty() ? Value() : (*masks)[s]);
      predicated(
          b, loc, pred, {},
          [&] {
            xk::StoreOp::create(b, loc, toMemory((*values)[s]), access.ptr,
                                (*offs)[s]);
            return SmallVector<Value>{};
          },
          [&] { return SmallVector<Value>{}; });
    }
  }
  return success();
}

FailureOr<bool> KernelLowering::storeThroughShared(xt::StoreOp op,
                                                   const Access &access,
                                                   ArrayRef<Value> values,
                                                   int cs) {
  // A tensor-core accumulator lane holds pairs of adjacent elements: 4 or
  // 8 bytes per store. Through shared memory each thread stores 16 bytes
  // of a row instead. Only at the kernel's top level (after the K loop,
  // whose tiles are dead by then: the buffer reuses their space) and to
  // device memory, where 16-byte groups are adjacent, aligned and masked
  // alike.
  const Layout &l = layouts[coordSets[cs].layout];
  auto ptr = cast<xk::PtrType>(access.ptr.getType());
  Type memType = ptr.getElementType();
  int64_t bytes = getElementBytes(memType);
  int64_t vec = 16 / bytes;
  if (!l.mmaAccumulator || loopDepth != 0 || l.shape.size() != 2 ||
      !isa<FloatType>(memType) ||
      ptr.getMemorySpace() != xk::MemorySpace::global || vec <= l.vec ||
      l.shape[1] % vec ||
      !vectorizable(op.getIndices(), op.getMask(), access, vec))
    return false;
  // Rows padded by 16 bytes: the 8 rows of a fragment store fall in
  // distinct banks.
  int64_t rows = l.shape[0], pitch = l.shape[1] + vec;
  int64_t needed = rows * pitch * bytes;
  if (needed > target.sharedMemory())
    return false;
  Value buffer;
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(prelude);
    buffer = xk::DynamicSharedOp::create(
        b, loc,
        xk::PtrType::get(b.getContext(), memType, xk::MemorySpace::shared),
        0);
  }
  dynamicBytes =
      std::max<int64_t>(dynamicBytes, llvm::alignTo(needed, 16));
  // Every thread has finished with the operand tiles (and the previous
  // such store) before the buffer is written.
  barrier();
  const CoordSet &from = coordSets[cs];
  for (int64_t s = 0; s < l.slots(); s += l.vec) {
    SmallVector<Value> lanes;
    for (int64_t i = 0; i < l.vec; ++i)
      lanes.push_back(values[s + i]);
    Value offset = add(mul(from.coords[s][0], cst(pitch)), from.coords[s][1]);
    xk::StoreOp::create(
        b, loc,
        vector::FromElementsOp::create(
            b, loc, VectorType::get({l.vec}, memType), lanes),
        buffer, offset);
  }
  barrier();
  int rowMajor = rowMajorCoords(l.shape, vec);
  FailureOr<SmallVector<Value>> offs =
      offsets(access, op.getIndices(), rowMajor, op);
  if (failed(offs))
    return failure();
  FailureOr<SmallVector<Value>> masks =
      maskSlots(op.getMask(), rowMajor, op);
  if (failed(masks))
    return failure();
  const CoordSet &to = coordSets[rowMajor];
  const Layout &rl = layouts[to.layout];
  auto type = VectorType::get({vec}, memType);
  for (int64_t c = 0; c < rl.chunks; ++c) {
    int64_t s0 = c * vec;
    Value pred = andPred(owned(to.layout, c),
                         masks->empty() ? Value() : (*masks)[s0]);
    Value offset = add(mul(to.coords[s0][0], cst(pitch)), to.coords[s0][1]);
    predicated(
        b, loc, pred, {},
        [&] {
          Value v = xk::LoadOp::create(b, loc, type, buffer, offset);
          xk::StoreOp::create(b, loc, v, access.ptr, (*offs)[s0]);
          return SmallVector<Value>{};
        },
        [&] { return SmallVector<Value>{}; });
  }
  return true;
}
