//===- Folds.cpp - Folds of tiles across threads --------------------------===//
//
// Folds of a tile to one element: each thread combines its slots, warps
// combine through shuffles, and warps through an array in shared memory.
// Also where shared memory (static and dynamic) is allocated.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"
#include "OpLowering.h"

#include "xtile/Support/Storage.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace xtile;
using namespace xtile::tiletokernel;

//===----------------------------------------------------------------------===//
// Folds
//===----------------------------------------------------------------------===//

Value KernelLowering::combine(xt::CombineKind kind, Value x, Value y) {
  bool isFloat = isa<FloatType>(x.getType());
  switch (kind) {
  case xt::CombineKind::add:
    return isFloat ? (Value)arith::AddFOp::create(b, loc, x, y)
                   : (Value)arith::AddIOp::create(b, loc, x, y);
  case xt::CombineKind::mul:
    return isFloat ? (Value)arith::MulFOp::create(b, loc, x, y)
                   : (Value)arith::MulIOp::create(b, loc, x, y);
  case xt::CombineKind::max:
    return isFloat ? (Value)arith::MaximumFOp::create(b, loc, x, y)
                   : (Value)arith::MaxSIOp::create(b, loc, x, y);
  case xt::CombineKind::min:
    return isFloat ? (Value)arith::MinimumFOp::create(b, loc, x, y)
                   : (Value)arith::MinSIOp::create(b, loc, x, y);
  case xt::CombineKind::And:
    return arith::AndIOp::create(b, loc, x, y);
  case xt::CombineKind::Or:
    return arith::OrIOp::create(b, loc, x, y);
  }
  llvm_unreachable("unknown combine");
}

Value KernelLowering::shuffleXor(Value v, int64_t offset) {
  return target.shuffleXor(b, loc, v, offset);
}

Value KernelLowering::toShared(Value v) {
  Type type = v.getType(), memType = sharedType(type);
  if (type == memType)
    return v;
  if (type.isIndex())
    return arith::IndexCastOp::create(b, loc, memType, v);
  return arith::ExtUIOp::create(b, loc, memType, v);
}

Value KernelLowering::fromShared(Value v, Type type) {
  if (v.getType() == type)
    return v;
  if (type.isIndex())
    return arith::IndexCastOp::create(b, loc, type, v);
  return arith::TruncIOp::create(b, loc, type, v);
}

Value KernelLowering::sharedArray(Type element, int64_t size) {
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPoint(ix.prelude);
  return xk::SharedOp::create(
      b, loc, xk::PtrType::get(b.getContext(), element, xk::MemorySpace::shared),
      size);
}

Value KernelLowering::dynamicShared(Type element, int64_t elements,
                                    int64_t align) {
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPoint(ix.prelude);
  int64_t offset = llvm::alignTo(dynamicBytes, align);
  int64_t bytes = elements * getElementBytes(element);
  dynamicBytes = llvm::alignTo(offset + bytes, 16);
  return xk::DynamicSharedOp::create(
      b, loc, xk::PtrType::get(b.getContext(), element, xk::MemorySpace::shared),
      offset);
}

FailureOr<Type> KernelLowering::partialType(xt::FoldOp op) {
  Type type = elementTypeOf(op.getType());
  Type memType = sharedType(type);
  if (memType != type)
    return op.emitOpError("folds part of a tile of ")
           << type << "; the Kernel IR lowering supports floats and "
           << "integers of 8 bits or more";
  return memType;
}

LogicalResult KernelLowering::lowerRowFold(xt::FoldOp op) {
  auto inType = cast<RankedTensorType>(op.getInput().getType());
  int cs = coordinates.base(inType.getShape());
  FailureOr<SmallVector<Value>> values = tile(op.getInput(), cs);
  if (failed(values))
    return failure();
  const Layout &l = layouts[coordinates[cs].layout];
  FailureOr<Type> memType = partialType(op);
  if (failed(memType))
    return failure();
  int64_t rows = inType.getDimSize(0), cols = inType.getDimSize(1);
  int64_t groups = cols / l.vec; // per row
  // Each group's partial result, at [row][group].
  Value partials = sharedArray(*memType, rows * groups);
  if (loopDepth)
    barrier();
  for (int64_t c = 0; c < l.chunks; ++c) {
    ArrayRef<Value> coords = coordinates[cs].coords[c * l.vec];
    Value acc = (*values)[c * l.vec];
    for (int64_t i = 1; i < l.vec; ++i)
      acc = combine(op.getCombine(), acc, (*values)[c * l.vec + i]);
    storeIfOwned(cs, c, acc, partials,
                 add(mul(coords[0], cst(groups)), div(coords[1], l.vec)));
  }
  barrier();
  // The result at its own coordinates: each row's partials, in order.
  combinePartials(op, partials, *memType, groups, [&](Value row, int64_t g) {
    return add(mul(row, cst(groups)), cst(g));
  });
  return success();
}

void KernelLowering::forOwnedSlots(
    int cs, ArrayRef<Value> values, Value identity,
    function_ref<void(int64_t chunk, int64_t lane, Value x, bool always)>
        fn) {
  const Layout &l = layouts[coordinates[cs].layout];
  for (int64_t c = 0; c < l.chunks; ++c) {
    Value own = coordinates.owned(coordinates[cs].layout, c);
    for (int64_t i = 0; i < l.vec; ++i) {
      Value x = values[c * l.vec + i];
      if (own)
        x = arith::SelectOp::create(b, loc, own, x, identity);
      fn(c, i, x, !own);
    }
  }
}

void KernelLowering::storeIfOwned(int cs, int64_t chunk, Value v, Value buffer,
                                  Value offset) {
  predicated(
      b, loc, coordinates.owned(coordinates[cs].layout, chunk), {},
      [&] {
        xk::StoreOp::create(b, loc, v, buffer, offset);
        return SmallVector<Value>{};
      },
      [&] { return SmallVector<Value>{}; });
}

void KernelLowering::combinePartials(
    xt::FoldOp op, Value buffer, Type memType, int64_t count,
    function_ref<Value(Value key, int64_t i)> offset) {
  auto outType = cast<RankedTensorType>(op.getType());
  int out = coordinates.base(outType.getShape());
  const Layout &lo = layouts[coordinates[out].layout];
  SmallVector<Value> slots;
  for (int64_t c = 0; c < lo.chunks; ++c)
    for (int64_t i = 0; i < lo.vec; ++i) {
      // Slots no thread holds read at key 0, inside the array.
      Value key = coordinates[out].coords[c * lo.vec + i][0];
      if (Value own = coordinates.owned(coordinates[out].layout, c))
        key = arith::SelectOp::create(b, loc, own, key, cst(0));
      Value acc = xk::LoadOp::create(b, loc, memType, buffer, offset(key, 0));
      for (int64_t j = 1; j < count; ++j)
        acc = combine(op.getCombine(), acc,
                      xk::LoadOp::create(b, loc, memType, buffer,
                                         offset(key, j)));
      slots.push_back(acc);
    }
  remember(op.getResult(), out, slots);
}

LogicalResult KernelLowering::lowerColumnFold(xt::FoldOp op) {
  auto inType = cast<RankedTensorType>(op.getInput().getType());
  int cs = coordinates.base(inType.getShape());
  const Layout &l = layouts[coordinates[cs].layout];
  int64_t cols = inType.getDimSize(1);
  int64_t per = l.threads * l.vec;
  // Row-major groups of `vec`: with `per` dividing the columns, chunk c of
  // a thread holds columns of set c mod (cols / per) (every row); with the
  // columns dividing `per`, the same columns in every chunk, and
  // per / cols threads hold each column (at rows below per / cols in
  // their first chunk).
  if (l.mmaAccumulator || (per % cols && cols % per))
    return op.emitOpError("folds the rows of a ")
           << inType << " tile whose layout (" << l.threads << " threads x "
           << l.vec
           << ") does not tile its columns; the Kernel IR lowering needs "
              "one to divide the other";
  FailureOr<SmallVector<Value>> values = tile(op.getInput(), cs);
  if (failed(values))
    return failure();
  FailureOr<Type> memType = partialType(op);
  if (failed(memType))
    return failure();
  Value identity = constantOf(cast<TypedAttr>(op.getIdentity()));
  int64_t sets = per % cols == 0 ? 1 : cols / per;
  int64_t sharers = std::max<int64_t>(1, per / cols);
  // Each thread's partials, one per column it holds.
  SmallVector<Value> partials(sets * l.vec, identity);
  forOwnedSlots(cs, *values, identity,
                [&](int64_t c, int64_t i, Value x, bool always) {
                  Value &acc = partials[(c % sets) * l.vec + i];
                  acc = c < sets && always ? x
                                           : combine(op.getCombine(), acc, x);
                });
  // At [row][column] of the first chunks' coordinates: the rows below
  // `sharers`.
  Value shared = sharedArray(*memType, sharers * cols);
  if (loopDepth)
    barrier();
  for (int64_t c = 0; c < sets; ++c)
    for (int64_t i = 0; i < l.vec; ++i) {
      ArrayRef<Value> coords = coordinates[cs].coords[c * l.vec + i];
      storeIfOwned(cs, c, partials[c * l.vec + i], shared,
                   add(mul(coords[0], cst(cols)), coords[1]));
    }
  barrier();
  // The result at its own coordinates: each column's partials, in order.
  combinePartials(op, shared, *memType, sharers, [&](Value col, int64_t r) {
    return add(col, cst(r * cols));
  });
  return success();
}

LogicalResult KernelLowering::lowerFold(xt::FoldOp op) {
  auto inType = cast<RankedTensorType>(op.getInput().getType());
  if (inType.getRank() == 2 && op.getDims().size() == 1 &&
      op.getDims()[0] == 1)
    return lowerRowFold(op);
  if (inType.getRank() == 2 && op.getDims().size() == 1 &&
      op.getDims()[0] == 0)
    return lowerColumnFold(op);
  if (isa<RankedTensorType>(op.getType()) ||
      static_cast<int64_t>(op.getDims().size()) != inType.getRank())
    return op.emitOpError("folds only some dimensions of its tile; the "
                          "Kernel IR lowering supports folds to one element "
                          "and folds of either dimension of a 2-d tile");
  int cs = coordinates.base(inType.getShape());
  FailureOr<SmallVector<Value>> values = tile(op.getInput(), cs);
  if (failed(values))
    return failure();
  Type type = op.getType();
  Value identity = constantOf(cast<TypedAttr>(op.getIdentity()));
  Value acc = identity;
  forOwnedSlots(cs, *values, identity,
                [&](int64_t c, int64_t i, Value x, bool always) {
                  acc = c == 0 && i == 0 && always
                            ? x
                            : combine(op.getCombine(), acc, x);
                });
  // Across the warp: every lane ends with the warp's result.
  for (int64_t offset = 16; offset >= 1; offset /= 2)
    acc = combine(op.getCombine(), acc, shuffleXor(acc, offset));
  if (layouts.numWarps() > 1) {
    Type memType = sharedType(type);
    Value partials = sharedArray(memType, layouts.numWarps());
    // In a loop, the previous iteration's readers must be done.
    if (loopDepth)
      barrier();
    Value first = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                                lane, cst(0));
    predicated(
        b, loc, first, {},
        [&] {
          xk::StoreOp::create(b, loc, toShared(acc), partials, warp);
          return SmallVector<Value>{};
        },
        [&] { return SmallVector<Value>{}; });
    barrier();
    acc = fromShared(xk::LoadOp::create(b, loc, memType, partials, cst(0)),
                     type);
    for (int64_t w = 1; w < layouts.numWarps(); ++w)
      acc = combine(op.getCombine(), acc,
                    fromShared(xk::LoadOp::create(b, loc, memType, partials,
                                                  cst(w)),
                               type));
  }
  scalars[op.getResult()] = acc;
  return success();
}

//===----------------------------------------------------------------------===//
// The family's lowering
//===----------------------------------------------------------------------===//

namespace {
/// Folds, by their strategy (serial, per thread, or across the block with
/// shuffles and shared memory).
struct FoldLowering : OpLoweringOf<xt::FoldOp> {
  LogicalResult lower(xt::FoldOp op, KernelLowering &lowering) const override {
    return lowering.lowerFold(op);
  }
};
} // namespace

void xtile::tiletokernel::populateFoldLowerings(OpLoweringSet &set,
                                                const TargetInfo &target) {
  set.add<FoldLowering>();
}
