//===- Memory.cpp - Loads and stores of tiles -----------------------------===//
//
// Global-memory accesses: the offsets of a tile's elements in a buffer,
// what is known of index tiles (progressions) to vectorize accesses, and
// the predicated loads and stores each thread issues for its slots.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"
#include "OpLowering.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "xtile/Support/KernelSignature.h"
#include "xtile/Support/Storage.h"

using namespace mlir;
using namespace xtile;
using namespace xtile::tiletokernel;

//===----------------------------------------------------------------------===//
// Accesses
//===----------------------------------------------------------------------===//

KernelLowering::Access KernelLowering::accessOf(Value buffer) {
  auto arg = cast<BlockArgument>(buffer);
  auto type = cast<MemRefType>(buffer.getType());
  Access a;
  a.type = type;
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
      b.setInsertionPoint(ix.prelude);
      Value value = scalars.lookup(sizes[--next]);
      dynamic = dynamic ? mul(dynamic, value) : value;
      size = 1;
    }
    a.strides[d] = a.strides[d + 1] * size;
    if (dynamic) {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPoint(ix.prelude);
      a.dynamicStrides[d] = mul(dynamic, cst(a.strides[d]));
    }
  }
  return a;
}

FailureOr<SmallVector<Value>>
KernelLowering::offsets(const Access &access, ValueRange indices, int cs,
                        Operation *user) {
  size_t n = cs < 0 ? 1 : coordinates[cs].coords.size();
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
  const CoordSet &set = coordinates[cs];
  const Layout &l = layouts[set.layout];
  bool vec = coordinates.isBase(cs) &&
             vectorizable(op.getIndices(), op.getMask(), access, l.vec);
  SmallVector<Value> out;
  Value ptr = access.ptr;
  Type memType = storageType(element);
  auto convert = [&](Value loaded) -> Value {
    if (memType == element)
      return loaded;
    return arith::IndexCastOp::create(b, loc, element, loaded);
  };
  for (int64_t c = 0; c < l.chunks; ++c) {
    Value own = coordinates.owned(set.layout, c);
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
  // One element written, or (accumulating) added atomically.
  bool accumulate = op.getAccumulate();
  auto write = [&](Value v, Value offset) {
    if (accumulate)
      xk::AtomicOp::create(b, loc, xk::AtomicKind::add, v, access.ptr, offset);
    else
      xk::StoreOp::create(b, loc, v, access.ptr, offset);
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
          write(toMemory(*v), (*offs)[0]);
          return SmallVector<Value>{};
        },
        [&] { return SmallVector<Value>{}; });
    return success();
  }
  int cs = coordinates.base(cast<RankedTensorType>(value.getType()).getShape());
  FailureOr<SmallVector<Value>> values = tile(value, cs);
  if (failed(values))
    return failure();
  if (!accumulate) {
    FailureOr<bool> throughShared =
        storeThroughShared(op, access, *values, cs);
    if (failed(throughShared))
      return failure();
    if (*throughShared)
      return success();
  }
  FailureOr<SmallVector<Value>> offs = offsets(access, op.getIndices(), cs, op);
  if (failed(offs))
    return failure();
  FailureOr<SmallVector<Value>> masks = maskSlots(op.getMask(), cs, op);
  if (failed(masks))
    return failure();
  const Layout &l = layouts[coordinates[cs].layout];
  bool vec = !accumulate &&
             vectorizable(op.getIndices(), op.getMask(), access, l.vec);
  for (int64_t c = 0; c < l.chunks; ++c) {
    Value own = coordinates.owned(coordinates[cs].layout, c);
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
            write(toMemory((*values)[s]), (*offs)[s]);
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
  const Layout &l = layouts[coordinates[cs].layout];
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
    b.setInsertionPoint(ix.prelude);
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
  const CoordSet &from = coordinates[cs];
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
  int rowMajor = coordinates.rowMajor(l.shape, vec);
  FailureOr<SmallVector<Value>> offs =
      offsets(access, op.getIndices(), rowMajor, op);
  if (failed(offs))
    return failure();
  FailureOr<SmallVector<Value>> masks =
      maskSlots(op.getMask(), rowMajor, op);
  if (failed(masks))
    return failure();
  const CoordSet &to = coordinates[rowMajor];
  const Layout &rl = layouts[to.layout];
  auto type = VectorType::get({vec}, memType);
  for (int64_t c = 0; c < rl.chunks; ++c) {
    int64_t s0 = c * vec;
    Value pred = andPred(coordinates.owned(to.layout, c),
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

//===----------------------------------------------------------------------===//
// The family's lowering
//===----------------------------------------------------------------------===//

namespace {
/// Stores of tiles and scalars. (Tile loads are lowered where their values
/// are needed, at the coordinates their users read them at.)
struct StoreLowering : OpLoweringOf<xt::StoreOp> {
  LogicalResult lower(xt::StoreOp op, KernelLowering &lowering) const override {
    return lowering.lowerStore(op);
  }
};

/// Loads of one element, which every thread makes.
struct ScalarLoadLowering : OpLoweringOf<xt::LoadOp> {
  bool matches(xt::LoadOp op, const KernelLowering &) const override {
    return !isTile(op.getResult());
  }
  LogicalResult lower(xt::LoadOp op, KernelLowering &lowering) const override {
    FailureOr<Value> v = lowering.lowerScalarLoad(op);
    if (failed(v))
      return failure();
    lowering.bindScalar(op.getResult(), *v);
    return success();
  }
};
} // namespace

void xtile::tiletokernel::populateMemoryLowerings(OpLoweringSet &set,
                                                  const TargetInfo &target) {
  set.add<StoreLowering>();
  set.add<ScalarLoadLowering>();
}
