//===- Values.cpp - The per-slot values of scalars and tiles --------------===//
//
// What each thread computes of a Tile IR value: scalars (every thread the
// same), and tiles at the coordinates of their slots (Coordinates.h):
// recreated elementwise ops, broadcasts and reshapes, and exchanges
// through shared memory between coordinate sets.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace xtile;
using namespace xtile::tiletokernel;

Value KernelLowering::constantOf(TypedAttr attr) {
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPoint(ix.prelude);
  return arith::ConstantOp::create(b, loc, attr);
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

FailureOr<Value> KernelLowering::scalar(Value v, Operation *user) {
  if (reissueBody) {
    auto r = reissued.find(v);
    if (r != reissued.end())
      return r->second;
    Operation *def = v.getDefiningOp();
    if (def && reissueBody->findAncestorOpInBlock(*def)) {
      FailureOr<SmallVector<Value>> operands = scalarOperands(def);
      if (failed(operands))
        return failure();
      Value result;
      if (auto apply = dyn_cast<affine::AffineApplyOp>(def)) {
        // Index arithmetic, expanded into arith as lowerOp does.
        std::optional<SmallVector<Value, 8>> expanded =
            affine::expandAffineMap(b, loc, apply.getAffineMap(), *operands);
        if (!expanded)
          return def->emitOpError("cannot be expanded into arith ops");
        result = (*expanded)[0];
      } else {
        result = recreate(def, *operands, def->getResultTypes())
                     ->getResult(cast<OpResult>(v).getResultNumber());
      }
      reissued[v] = result;
      return result;
    }
  }
  auto it = scalars.find(v);
  if (it != scalars.end())
    return it->second;
  return user->emitOpError("uses a value the Kernel IR lowering has not "
                           "computed");
}

FailureOr<SmallVector<Value>> KernelLowering::scalarOperands(Operation *op) {
  SmallVector<Value> operands;
  for (Value operand : op->getOperands()) {
    FailureOr<Value> s = scalar(operand, op);
    if (failed(s))
      return failure();
    operands.push_back(*s);
  }
  return operands;
}

Operation *KernelLowering::recreate(Operation *op, ValueRange operands,
                                    TypeRange types) {
  OperationState state(loc, op->getName());
  state.addOperands(operands);
  state.addTypes(types);
  state.addAttributes(op->getAttrs());
  return b.create(state);
}

void KernelLowering::remember(Value v, int cs, ArrayRef<Value> slots) {
  memo[{v, cs}] = SmallVector<Value>(slots);
  scopes.back().push_back({v, cs});
}

/// `v` (a tile, or a scalar used by a tile op) at coordinate set `cs`.
FailureOr<SmallVector<Value>>
KernelLowering::operandAt(Value v, int cs, Operation *user) {
  if (isTile(v))
    return tile(v, cs);
  FailureOr<Value> s = scalar(v, user);
  if (failed(s))
    return failure();
  return SmallVector<Value>(coordinates[cs].coords.size(), *s);
}

FailureOr<SmallVector<Value>>
KernelLowering::maskSlots(Value mask, int cs, Operation *user) {
  if (!mask)
    return SmallVector<Value>();
  return operandAt(mask, cs, user);
}

FailureOr<SmallVector<Value>> KernelLowering::tile(Value v, int cs) {
  auto it = memo.find({v, cs});
  if (it != memo.end())
    return it->second;
  Operation *def = v.getDefiningOp();
  // What cannot be recomputed elsewhere (loop-carried tiles, loop results,
  // dots, folds) moves between threads through shared memory.
  if (!def || isa<xt::DotOp, xt::FoldOp, scf::ForOp>(def))
    return exchange(v, cs);
  const CoordSet &set = coordinates[cs];
  size_t n = set.coords.size();
  SmallVector<Value> out;
  out.reserve(n);
  Type element = elementTypeOf(v.getType());

  LogicalResult result =
      llvm::TypeSwitch<Operation *, LogicalResult>(def)
          .Case<xt::RangeOp>([&](xt::RangeOp op) {
            for (size_t s = 0; s < n; ++s) {
              Value i = add(coordinates[cs].coords[s][0], cst(op.getLower()));
              if (!element.isIndex())
                i = arith::IndexCastOp::create(b, loc, element, i);
              out.push_back(i);
            }
            return success();
          })
          .Case<xt::SplatOp>([&](xt::SplatOp op) -> LogicalResult {
            FailureOr<Value> s = scalar(op.getInput(), op);
            if (failed(s))
              return failure();
            out.assign(n, *s);
            return success();
          })
          .Case<arith::ConstantOp>([&](arith::ConstantOp op) -> LogicalResult {
            auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
            if (!dense || !dense.isSplat())
              return op.emitOpError("a constant tile that is not a splat is "
                                    "not supported by the Kernel IR lowering");
            out.assign(n, constantOf(cast<TypedAttr>(
                              dense.getSplatValue<Attribute>())));
            return success();
          })
          .Case<xt::BroadcastOp, xt::ReshapeOp>([&](Operation *op)
                                                    -> LogicalResult {
            auto inType = cast<RankedTensorType>(op->getOperand(0).getType());
            int from = coordinates.mapped(cs, inType.getShape(),
                                          isa<xt::BroadcastOp>(op));
            FailureOr<SmallVector<Value>> in = tile(op->getOperand(0), from);
            if (failed(in))
              return failure();
            out = *in;
            return success();
          })
          .Case<xt::LoadOp>([&](xt::LoadOp op) -> LogicalResult {
            FailureOr<SmallVector<Value>> loaded = lowerLoad(op, cs);
            if (failed(loaded))
              return failure();
            out = *loaded;
            return success();
          })
          .Default([&](Operation *op) -> LogicalResult {
            bool elementwise =
                op->getNumRegions() == 0 && op->getNumResults() == 1 &&
                (isa<arith::ArithDialect, math::MathDialect>(op->getDialect()));
            if (!elementwise)
              return op->emitOpError("on tiles is not supported by the "
                                     "Kernel IR lowering");
            SmallVector<SmallVector<Value>> operands;
            for (Value operand : op->getOperands()) {
              if (isTile(operand) &&
                  cast<RankedTensorType>(operand.getType()).getShape() !=
                      ArrayRef<int64_t>(set.shape))
                return op->emitOpError("mixes tiles of different shapes");
              FailureOr<SmallVector<Value>> slots = operandAt(operand, cs, op);
              if (failed(slots))
                return failure();
              operands.push_back(std::move(*slots));
            }
            for (size_t s = 0; s < n; ++s) {
              SmallVector<Value> slot;
              for (auto &slots : operands)
                slot.push_back(slots[s]);
              out.push_back(recreate(op, slot, element)->getResult(0));
            }
            return success();
          });
  if (failed(result))
    return failure();
  remember(v, cs, out);
  return out;
}

FailureOr<SmallVector<Value>> KernelLowering::exchange(Value v, int cs) {
  // Where `v` is known: the innermost scope that remembered it.
  int from = -1;
  for (auto &scope : llvm::reverse(scopes)) {
    for (auto &[value, set] : llvm::reverse(scope))
      if (value == v && coordinates[set].shape == coordinates[cs].shape) {
        from = set;
        break;
      }
    if (from >= 0)
      break;
  }
  if (from < 0) {
    Operation *at = v.getDefiningOp();
    if (!at)
      at = cast<BlockArgument>(v).getOwner()->getParentOp();
    return at->emitOpError("a tile is used at coordinates it cannot be "
                           "computed at, before it is known at any");
  }
  SmallVector<Value> known = memo.lookup({v, from});
  ArrayRef<int64_t> shape = coordinates[cs].shape;
  int64_t elements = 1;
  for (int64_t d : shape)
    elements *= d;
  Type element = elementTypeOf(v.getType());
  Type memType = sharedType(element);
  auto linear = [&](ArrayRef<Value> coords) {
    Value lin = cst(0);
    for (auto [d, c] : llvm::enumerate(coords))
      lin = add(mul(lin, cst(shape[d])), c);
    return lin;
  };
  Value buffer = sharedArray(memType, elements);
  // In a loop, the previous iteration's readers must be done.
  if (loopDepth)
    barrier();
  const Layout &lf = layouts[coordinates[from].layout];
  for (int64_t c = 0; c < lf.chunks; ++c)
    for (int64_t i = 0; i < lf.vec; ++i) {
      int64_t s = c * lf.vec + i;
      Value offset = linear(coordinates[from].coords[s]);
      predicated(
          b, loc, coordinates.owned(coordinates[from].layout, c), {},
          [&] {
            xk::StoreOp::create(b, loc, toShared(known[s]), buffer, offset);
            return SmallVector<Value>{};
          },
          [&] { return SmallVector<Value>{}; });
    }
  barrier();
  const Layout &lt = layouts[coordinates[cs].layout];
  SmallVector<Value> out;
  for (int64_t c = 0; c < lt.chunks; ++c)
    for (int64_t i = 0; i < lt.vec; ++i) {
      int64_t s = c * lt.vec + i;
      // Slots no thread holds read element 0, not past the array.
      Value offset = linear(coordinates[cs].coords[s]);
      if (Value own = coordinates.owned(coordinates[cs].layout, c))
        offset = arith::SelectOp::create(b, loc, own, offset, cst(0));
      out.push_back(fromShared(
          xk::LoadOp::create(b, loc, memType, buffer, offset), element));
    }
  remember(v, cs, out);
  return out;
}
