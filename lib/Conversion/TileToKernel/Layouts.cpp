//===- Layouts.cpp - Layouts, coordinates and tiles of values -------------===//
//
// How tiles are dealt out to threads (the schedule and the layouts), the
// coordinates each slot stands for, and the per-slot values of tiles:
// recreated scalar and elementwise ops, broadcasts and reshapes.
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

//===----------------------------------------------------------------------===//
// Set up
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::parseSchedule() {
  if (failed(layouts.initialize(src)))
    return failure();
  if (src.getGrid().size() > 3)
    return src.emitOpError("a CUDA grid has at most 3 dimensions, got ")
           << src.getGrid().size();
  return pipelines.verifyCopies();
}

/// Whether slot `chunk` of this thread holds an element: null when every
/// thread's is.
Value KernelLowering::owned(int id, int64_t chunk) {
  auto key = std::make_pair(id, chunk);
  auto it = ownedCache.find(key);
  if (it != ownedCache.end())
    return it->second;
  const Layout &l = layouts[id];
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPoint(prelude);
  Value pred;
  if (l.threads < layouts.numThreads())
    pred = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ult, tid,
                                         cst(l.threads));
  int64_t groups = l.elements / l.vec;
  if ((chunk + 1) * l.threads > groups) {
    // The last chunk of a tile whose groups do not fill every thread.
    Value group = add(cst(chunk * l.threads), tid);
    pred = andPred(pred, b.createOrFold<arith::CmpIOp>(
                             loc, arith::CmpIPredicate::ult, group,
                             cst(groups)));
  }
  return ownedCache[key] = pred;
}

int KernelLowering::baseCoords(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> key(shape);
  auto it = baseIds.find(key);
  if (it != baseIds.end())
    return it->second;
  int id = layouts.layoutFor(shape);
  const Layout &l = layouts[id];
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPoint(prelude);
  CoordSet cs{id, key, {}};
  if (l.mmaAccumulator) {
    // Lane l = 4 g + t of warp (wm, wn) holds, for each 16 x 8 block
    // (tm, tn) of its sub-tile, rows g and g + 8, columns 2 t and 2 t + 1
    // (PTX ISA, mma.m16n8k16's C and D fragments), in that order.
    int64_t warpsN = layouts.numWarps() / layouts.dotSchedule().getWarpsM();
    int64_t wmSize = l.shape[0] / layouts.dotSchedule().getWarpsM();
    int64_t wnSize = l.shape[1] / warpsN;
    // On wgmma (warps_m = warps) a warpgroup computes its rows in blocks
    // of 64, 16 rows of each per warp (wgmma's D fragment): block tm of
    // warp w of warpgroup q starts at row q 4 wmSize + 64 tm + 16 w.
    bool wgmma = instruction() == xt::DotInstruction::wgmma;
    Value g = div(lane, 4), t = rem(lane, 4);
    Value row0 = wgmma ? add(add(mul(div(warp, 4), cst(4 * wmSize)),
                                 mul(rem(warp, 4), cst(16))),
                             g)
                       : add(mul(div(warp, warpsN), cst(wmSize)), g);
    int64_t blockRows = wgmma ? 64 : 16;
    Value col0 = add(mul(rem(warp, warpsN), cst(wnSize)), mul(t, cst(2)));
    for (int64_t tm = 0; tm < wmSize / 16; ++tm)
      for (int64_t tn = 0; tn < wnSize / 8; ++tn)
        for (int64_t h = 0; h < 2; ++h)
          for (int64_t j = 0; j < 2; ++j)
            cs.coords.push_back({add(row0, cst(blockRows * tm + 8 * h)),
                                 add(col0, cst(8 * tn + j))});
    coordSets.push_back(std::move(cs));
    return baseIds[key] = coordSets.size() - 1;
  }
  fillRowMajorCoords(cs);
  coordSets.push_back(std::move(cs));
  return baseIds[key] = coordSets.size() - 1;
}

int KernelLowering::rowMajorCoords(ArrayRef<int64_t> shape, int64_t vec) {
  auto key = std::make_pair(SmallVector<int64_t>(shape), vec);
  auto it = rowMajorIds.find(key);
  if (it != rowMajorIds.end())
    return it->second;
  CoordSet cs{layouts.rowMajor(shape, vec), key.first, {}};
  fillRowMajorCoords(cs);
  coordSets.push_back(std::move(cs));
  return rowMajorIds[key] = coordSets.size() - 1;
}

void KernelLowering::fillRowMajorCoords(CoordSet &cs) {
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPoint(prelude);
  const Layout &l = layouts[cs.layout];
  ArrayRef<int64_t> shape = l.shape;
  int64_t rank = shape.size();
  int64_t per = l.threads * l.vec, last = l.lastDim();
  Value tv = mul(tid, cst(l.vec));
  // Threads past l.threads own nothing; their coordinates only have to be
  // computable.
  for (int64_t c = 0; c < l.chunks; ++c) {
    Value lastBase, high;
    if (per % last == 0) {
      lastBase = rem(tv, last);
      high = add(cst(c * (per / last)), div(tv, last));
    } else if (last % per == 0) {
      lastBase = add(cst((c % (last / per)) * per), tv);
      high = cst(c / (last / per));
    } else {
      Value lin = add(cst(c * per), tv);
      lastBase = rem(lin, last);
      high = div(lin, last);
    }
    for (int64_t v = 0; v < l.vec; ++v) {
      SmallVector<Value> coords(rank);
      if (rank) {
        coords[rank - 1] = add(lastBase, cst(v));
        Value h = high;
        for (int64_t d = rank - 2; d >= 0; --d) {
          coords[d] = d == 0 ? h : rem(h, shape[d]);
          if (d)
            h = div(h, shape[d]);
        }
      }
      cs.coords.push_back(coords);
    }
  }
}

/// The coordinates in a tile of `shape` that an operand of a broadcast (or
/// a reshape) to coordinate set `from` stands at.
int KernelLowering::mappedCoords(int from, ArrayRef<int64_t> shape,
                                 bool broadcast) {
  auto key = std::make_tuple(from, SmallVector<int64_t>(shape), broadcast);
  auto it = mappedIds.find(key);
  if (it != mappedIds.end())
    return it->second;
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPoint(prelude);
  CoordSet cs{coordSets[from].layout, SmallVector<int64_t>(shape), {}};
  ArrayRef<int64_t> outShape = coordSets[from].shape;
  // Reshapes that only add or drop unit dimensions keep coordinates.
  SmallVector<int64_t> inNonUnit, outNonUnit;
  for (int64_t d : shape)
    if (d != 1)
      inNonUnit.push_back(d);
  for (int64_t d : outShape)
    if (d != 1)
      outNonUnit.push_back(d);
  for (const SmallVector<Value> &coords : coordSets[from].coords) {
    SmallVector<Value> mapped(shape.size());
    if (broadcast) {
      for (size_t d = 0; d < shape.size(); ++d)
        mapped[d] = shape[d] == 1 && outShape[d] != 1 ? cst(0) : coords[d];
    } else if (inNonUnit == outNonUnit) {
      SmallVector<Value> kept;
      for (size_t d = 0; d < outShape.size(); ++d)
        if (outShape[d] != 1)
          kept.push_back(coords[d]);
      size_t k = 0;
      for (size_t d = 0; d < shape.size(); ++d)
        mapped[d] = shape[d] == 1 ? cst(0) : kept[k++];
    } else {
      Value lin = cst(0);
      for (size_t d = 0; d < outShape.size(); ++d)
        lin = add(mul(lin, cst(outShape[d])), coords[d]);
      for (int64_t d = shape.size() - 1; d >= 0; --d) {
        mapped[d] = d == 0 ? lin : rem(lin, shape[d]);
        if (d)
          lin = div(lin, shape[d]);
      }
    }
    cs.coords.push_back(mapped);
  }
  coordSets.push_back(std::move(cs));
  return mappedIds[key] = coordSets.size() - 1;
}

Value KernelLowering::constantOf(TypedAttr attr) {
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPoint(prelude);
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
  return SmallVector<Value>(coordSets[cs].coords.size(), *s);
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
  const CoordSet &set = coordSets[cs];
  size_t n = set.coords.size();
  SmallVector<Value> out;
  out.reserve(n);
  Type element = elementTypeOf(v.getType());

  LogicalResult result =
      llvm::TypeSwitch<Operation *, LogicalResult>(def)
          .Case<xt::RangeOp>([&](xt::RangeOp op) {
            for (size_t s = 0; s < n; ++s) {
              Value i = add(coordSets[cs].coords[s][0], cst(op.getLower()));
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
            int from = mappedCoords(cs, inType.getShape(),
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
      if (value == v && coordSets[set].shape == coordSets[cs].shape) {
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
  ArrayRef<int64_t> shape = coordSets[cs].shape;
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
  const Layout &lf = layouts[coordSets[from].layout];
  for (int64_t c = 0; c < lf.chunks; ++c)
    for (int64_t i = 0; i < lf.vec; ++i) {
      int64_t s = c * lf.vec + i;
      Value offset = linear(coordSets[from].coords[s]);
      predicated(
          b, loc, owned(coordSets[from].layout, c), {},
          [&] {
            xk::StoreOp::create(b, loc, toShared(known[s]), buffer, offset);
            return SmallVector<Value>{};
          },
          [&] { return SmallVector<Value>{}; });
    }
  barrier();
  const Layout &lt = layouts[coordSets[cs].layout];
  SmallVector<Value> out;
  for (int64_t c = 0; c < lt.chunks; ++c)
    for (int64_t i = 0; i < lt.vec; ++i) {
      int64_t s = c * lt.vec + i;
      // Slots no thread holds read element 0, not past the array.
      Value offset = linear(coordSets[cs].coords[s]);
      if (Value own = owned(coordSets[cs].layout, c))
        offset = arith::SelectOp::create(b, loc, own, offset, cst(0));
      out.push_back(fromShared(
          xk::LoadOp::create(b, loc, memType, buffer, offset), element));
    }
  remember(v, cs, out);
  return out;
}
