//===- TileToKernel.cpp - Tile IR to Kernel IR ----------------------------===//
//
// A Tile IR program becomes a CUDA block. Every tile is spread over the
// block's threads by one rule (its *layout*): the tile's elements in
// row-major order form groups of `vec` adjacent elements of the last
// dimension, and group g belongs to thread g mod threads, in chunk
// g / threads. A thread's *slots* are (chunk, lane) pairs; tiles of the same
// shape put the same element in the same slot of the same thread, so
// elementwise ops are per-slot scalar ops.
//
// Values are computed per slot at a *coordinate set* (the coordinates of the
// element each slot stands for). Most tiles are used at their own layout's
// coordinates; `xtile.broadcast` and `xtile.reshape` map coordinates, and
// their operands are computed again at the mapped coordinates (index
// arithmetic, or a re-read of an input buffer): no data moves between
// threads except in folds and dots, which go through shuffles and shared
// memory.
//
// This is a structured lowering rather than a set of independent op
// patterns: how an op lowers depends on the coordinates its users need.
// Every op it does not know is an error at that op's location.
//
//===----------------------------------------------------------------------===//

#include "xtile/Conversion/TileToKernel/TileToKernel.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "xtile/Dialect/Loop/IR/LoopOps.h"
#include "xtile/Support/Storage.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"
#include <deque>
#include <map>

namespace xtile {
#define GEN_PASS_DEF_CONVERTXTILETOXKERNEL
#include "xtile/Conversion/Passes.h.inc"
} // namespace xtile

using namespace mlir;
using namespace xtile;
namespace xt = xtile::tile;
namespace xk = xtile::kernel;

namespace {

/// How the elements of a tile shape are dealt out to the threads.
struct Layout {
  SmallVector<int64_t> shape;
  int64_t elements = 1;
  int64_t vec = 1;     // adjacent elements of the last dimension per group
  int64_t threads = 1; // threads that own groups
  int64_t chunks = 1;  // groups per thread
  int64_t slots() const { return chunks * vec; }
  int64_t lastDim() const { return shape.empty() ? 1 : shape.back(); }
};

/// Per slot, the coordinates of the element it stands for.
struct CoordSet {
  int layout;
  SmallVector<int64_t> shape;
  SmallVector<SmallVector<Value>> coords; // [slot][dim]
};

/// What is known about a tile of integers along the last dimension: its
/// values change by `stride` per element, and at the first element of each
/// group they are multiples of `divisor` (a power of two).
struct Progression {
  bool known = false;
  int64_t stride = 0;
  int64_t divisor = 1;
};

constexpr int64_t kMaxDivisor = int64_t(1) << 30;

static int64_t powerOfTwoFactor(int64_t v) {
  if (v == 0)
    return kMaxDivisor;
  return std::min<int64_t>(kMaxDivisor, int64_t(1) << llvm::countr_zero(
                                            static_cast<uint64_t>(v)));
}

static Type elementTypeOf(Type t) {
  if (auto shaped = dyn_cast<ShapedType>(t))
    return shaped.getElementType();
  return t;
}

static bool isTile(Value v) { return isa<RankedTensorType>(v.getType()); }

/// The element type a buffer of `t` holds in memory.
static Type storageType(Type t) { return t.isIndex() ? IntegerType::get(t.getContext(), 64) : t; }

class KernelLowering {
public:
  KernelLowering(xt::KernelOp src) : src(src), b(src), loc(src.getLoc()) {}

  FailureOr<xk::FuncOp> run();

private:
  // Set up.
  LogicalResult parseSchedule();
  int layoutFor(ArrayRef<int64_t> shape);
  int baseCoords(ArrayRef<int64_t> shape);
  int mappedCoords(int from, ArrayRef<int64_t> shape, bool broadcast);
  Value owned(int layout, int64_t chunk);

  // Index arithmetic, folded where constant.
  Value cst(int64_t v) {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(prelude);
    return b.createOrFold<arith::ConstantIndexOp>(loc, v);
  }
  Value add(Value x, Value y) { return b.createOrFold<arith::AddIOp>(loc, x, y); }
  Value mul(Value x, Value y) { return b.createOrFold<arith::MulIOp>(loc, x, y); }
  Value div(Value x, int64_t y) {
    return y == 1 ? x : b.createOrFold<arith::DivUIOp>(loc, x, cst(y));
  }
  Value rem(Value x, int64_t y) {
    return b.createOrFold<arith::RemUIOp>(loc, x, cst(y));
  }
  Value andPred(Value x, Value y) {
    if (!x)
      return y;
    if (!y)
      return x;
    return b.createOrFold<arith::AndIOp>(loc, x, y);
  }
  Value constantOf(TypedAttr attr);

  // Values.
  FailureOr<Value> scalar(Value v, Operation *user);
  /// The scalars `op`'s operands stand for.
  FailureOr<SmallVector<Value>> scalarOperands(Operation *op);
  /// `op` again (same name and attributes) on `operands`, with `types`.
  Operation *recreate(Operation *op, ValueRange operands, TypeRange types);
  FailureOr<SmallVector<Value>> tile(Value v, int cs);
  FailureOr<SmallVector<Value>> operandAt(Value v, int cs, Operation *user);
  void remember(Value v, int cs, ArrayRef<Value> slots);

  // Statements.
  LogicalResult lowerBlock(Block &block);
  LogicalResult lowerOp(Operation *op);
  LogicalResult lowerFor(scf::ForOp op);
  LogicalResult lowerFold(xt::FoldOp op);
  LogicalResult lowerDot(xt::DotOp op);
  LogicalResult lowerStore(xt::StoreOp op);
  FailureOr<SmallVector<Value>> lowerLoad(xt::LoadOp op, int cs);
  FailureOr<Value> lowerScalarLoad(xt::LoadOp op);

  // Accesses.
  struct Access {
    Value ptr;
    SmallVector<int64_t> strides;
  };
  Access accessOf(Value buffer);
  FailureOr<SmallVector<Value>> offsets(const Access &access,
                                        ValueRange indices, int cs,
                                        Operation *user);
  bool vectorizable(ValueRange indices, Value mask, const Access &access,
                    int64_t vec);
  Progression progression(Value v, int64_t vec);
  int64_t scalarDivisor(Value v);
  bool uniformMask(Value mask, int64_t vec);

  // Cross-thread.
  Value combine(xt::CombineKind kind, Value x, Value y);
  Value shuffleXor(Value v, int64_t offset);
  Value sharedArray(Type element, int64_t size);
  Value dynamicShared(Type element, int64_t elements);

  xt::KernelOp src;
  OpBuilder b;
  Location loc;
  xk::FuncOp func;
  Operation *prelude = nullptr; // hoisted values go before it
  int64_t numWarps = 1, numThreads = 32, vecWidth = 1, layoutThreads = 32;
  int loopDepth = 0;
  Value tid, lane, warp;
  int64_t dynamicBytes = 0;

  std::map<SmallVector<int64_t>, int> layoutIds;
  // Deques: references to elements stay valid as more are added.
  std::deque<Layout> layouts;
  std::deque<CoordSet> coordSets;
  std::map<SmallVector<int64_t>, int> baseIds;
  std::map<std::tuple<int, SmallVector<int64_t>, bool>, int> mappedIds;
  std::map<std::pair<int, int64_t>, Value> ownedCache;
  DenseMap<Value, Value> scalars;
  DenseMap<std::pair<Value, int>, SmallVector<Value>> memo;
  SmallVector<SmallVector<std::pair<Value, int>>> scopes;
  DenseMap<std::pair<Value, int64_t>, Progression> progressions;
  // Operand tiles of dots staged in shared memory in the current loop body:
  // the buffer and the offset of this iteration's tile in it.
  DenseMap<Value, std::pair<Value, Value>> staged;
  bool stagedInBody = false;
  // Loads that asynchronous copies bring into shared memory instead.
  DenseSet<Operation *> copiedLoads;
  // While issuing the copies of another iteration of a pipelined loop: the
  // loop body, and its scalars recomputed for that iteration.
  Block *reissueBody = nullptr;
  DenseMap<Value, Value> reissued;

  struct Pipelined {
    Value operand;     // the dot operand
    xt::LoadOp load;   // the load it is
    Value buffer;      // stages x tile elements in shared memory
    int64_t elements;  // of one tile
  };
  SmallVector<Pipelined> pipelineOperands(scf::ForOp op, int64_t stages);
  LogicalResult issueCopies(ArrayRef<Pipelined> operands, scf::ForOp op,
                            Value iteration, Value stage);
};

//===----------------------------------------------------------------------===//
// Set up
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::parseSchedule() {
  numWarps = src.getNumWarps();
  if (numWarps < 1 || numWarps > 32)
    return src.emitOpError("num_warps must be in [1, 32] for a CUDA block, "
                           "got ")
           << numWarps;
  numThreads = numWarps * 32;
  layoutThreads = numThreads;
  vecWidth = 1;
  if (std::optional<StringRef> schedule = src.getSchedule()) {
    SmallVector<StringRef> parts;
    schedule->split(parts, ':');
    if (parts.size() >= 3 && parts[0] != "dot")
      (void)parts[2].getAsInteger(10, vecWidth);
    else if (parts[0] == "dot")
      vecWidth = 4;
    if (vecWidth < 1 || !llvm::isPowerOf2_64(vecWidth))
      vecWidth = 1;
  }
  // A serial fold is computed in order by one thread: every tile then
  // belongs to thread 0.
  src.walk([&](xt::FoldOp fold) {
    if (fold.getStrategy() == xt::FoldStrategy::serial)
      layoutThreads = 1;
  });
  // Each element a thread holds is a register: beyond a few hundred the
  // kernel spills, and the unrolled code grows without bound.
  constexpr int64_t kMaxElementsPerThread = 256;
  WalkResult tooLarge = src.walk([&](Operation *op) {
    for (Value v : op->getResults())
      if (auto type = dyn_cast<RankedTensorType>(v.getType()))
        if (type.getNumElements() / layoutThreads > kMaxElementsPerThread) {
          op->emitOpError("makes a tile of ")
              << type.getNumElements() << " elements, "
              << type.getNumElements() / layoutThreads
              << " per thread with schedule '"
              << src.getSchedule().value_or("") << "' (" << layoutThreads
              << " thread(s)); at most " << kMaxElementsPerThread
              << " are supported: choose a schedule with more threads";
          return WalkResult::interrupt();
        }
    return WalkResult::advance();
  });
  if (tooLarge.wasInterrupted())
    return failure();
  if (src.getGrid().size() > 3)
    return src.emitOpError("a CUDA grid has at most 3 dimensions, got ")
           << src.getGrid().size();
  return success();
}

int KernelLowering::layoutFor(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> key(shape);
  auto it = layoutIds.find(key);
  if (it != layoutIds.end())
    return it->second;
  Layout l;
  l.shape = key;
  for (int64_t d : shape)
    l.elements *= d;
  int64_t last = l.lastDim();
  l.vec = 1;
  while (l.vec * 2 <= vecWidth && last % (l.vec * 2) == 0)
    l.vec *= 2;
  int64_t groups = l.elements / l.vec;
  l.threads = std::min(layoutThreads, groups);
  l.chunks = llvm::divideCeil(groups, l.threads);
  layouts.push_back(l);
  return layoutIds[key] = layouts.size() - 1;
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
  if (l.threads < numThreads)
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
  int id = layoutFor(shape);
  const Layout &l = layouts[id];
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPoint(prelude);
  CoordSet cs{id, key, {}};
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
  coordSets.push_back(std::move(cs));
  return baseIds[key] = coordSets.size() - 1;
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
      Value result = recreate(def, *operands, def->getResultTypes())
                         ->getResult(cast<OpResult>(v).getResultNumber());
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

FailureOr<SmallVector<Value>> KernelLowering::tile(Value v, int cs) {
  auto it = memo.find({v, cs});
  if (it != memo.end())
    return it->second;
  Operation *def = v.getDefiningOp();
  if (!def) {
    Operation *owner = cast<BlockArgument>(v).getOwner()->getParentOp();
    return owner->emitOpError("a loop-carried tile is used at other "
                              "coordinates (through a broadcast or reshape), "
                              "which needs data from other threads: not "
                              "supported");
  }
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
          .Case<xt::DotOp, xt::FoldOp>([&](Operation *op) {
            return op->emitOpError("result is used at other coordinates "
                                   "(through a broadcast or reshape), which "
                                   "needs data from other threads: not "
                                   "supported");
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

//===----------------------------------------------------------------------===//
// Accesses
//===----------------------------------------------------------------------===//

KernelLowering::Access KernelLowering::accessOf(Value buffer) {
  auto arg = cast<BlockArgument>(buffer);
  auto type = cast<MemRefType>(buffer.getType());
  Access a;
  a.ptr = func.getArgument(arg.getArgNumber());
  a.strides.assign(type.getRank(), 1);
  for (int64_t d = type.getRank() - 2; d >= 0; --d)
    a.strides[d] = a.strides[d + 1] * type.getDimSize(d + 1);
  return a;
}

FailureOr<SmallVector<Value>>
KernelLowering::offsets(const Access &access, ValueRange indices, int cs,
                        Operation *user) {
  size_t n = cs < 0 ? 1 : coordSets[cs].coords.size();
  SmallVector<Value> out(n, Value());
  for (auto [index, stride] : llvm::zip(indices, access.strides)) {
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
      Value term = mul(slots[s], cst(stride));
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

Progression KernelLowering::progression(Value v, int64_t vec) {
  if (!isTile(v))
    return {true, 0, scalarDivisor(v)};
  auto key = std::make_pair(v, vec);
  auto it = progressions.find(key);
  if (it != progressions.end())
    return it->second;
  Progression p;
  Operation *def = v.getDefiningOp();
  auto shape = cast<RankedTensorType>(v.getType()).getShape();
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
      Progression x = progression(def->getOperand(0), vec);
      Progression y = progression(def->getOperand(1), vec);
      if (x.known && y.known)
        p = {true,
             isa<arith::AddIOp>(def) ? x.stride + y.stride
                                     : x.stride - y.stride,
             std::min(x.divisor, y.divisor)};
    } else if (isa<arith::MulIOp>(def)) {
      Progression x = progression(def->getOperand(0), vec);
      Progression y = progression(def->getOperand(1), vec);
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
      p = progression(def->getOperand(0), vec);
    } else if (!isa<xt::LoadOp>(def) && def->getNumRegions() == 0 &&
               llvm::all_of(def->getOperands(), [&](Value o) {
                 Progression q = progression(o, vec);
                 return q.known && q.stride == 0;
               })) {
      p = {true, 0, 1};
    }
  }
  return progressions[key] = p;
}

/// Whether a mask is the same for the `vec` elements of every group.
bool KernelLowering::uniformMask(Value mask, int64_t vec) {
  if (!mask)
    return true;
  Progression p = progression(mask, vec);
  if (p.known && p.stride == 0)
    return true;
  Operation *def = mask.getDefiningOp();
  if (auto a = dyn_cast_or_null<arith::AndIOp>(def))
    return uniformMask(a.getLhs(), vec) && uniformMask(a.getRhs(), vec);
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
  Progression px = progression(x, vec), pb = progression(bound, vec);
  return px.known && pb.known && px.stride == 1 && pb.stride == 0 &&
         px.divisor % vec == 0 && pb.divisor % vec == 0;
}

bool KernelLowering::vectorizable(ValueRange indices, Value mask,
                                  const Access &access, int64_t vec) {
  if (vec == 1)
    return false;
  int64_t stride = 0, divisor = kMaxDivisor;
  for (auto [index, bufferStride] : llvm::zip(indices, access.strides)) {
    Progression p = progression(index, vec);
    if (!p.known)
      return false;
    stride += p.stride * bufferStride;
    divisor = std::min(divisor, std::min(kMaxDivisor, p.divisor *
                                          powerOfTwoFactor(bufferStride)));
  }
  return stride == 1 && divisor % vec == 0 && uniformMask(mask, vec);
}

/// Runs `body` under `pred` (always when null); `body` returns the values
/// to yield, `otherwise` those of the other branch.
static SmallVector<Value>
predicated(OpBuilder &b, Location loc, Value pred, TypeRange types,
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
  SmallVector<Value> masks;
  if (Value m = op.getMask()) {
    FailureOr<SmallVector<Value>> t = operandAt(m, cs, op);
    if (failed(t))
      return failure();
    masks = *t;
  }
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
      Value pred = andPred(own, masks.empty() ? Value() : masks[s0]);
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
      Value pred = andPred(own, masks.empty() ? Value() : masks[s]);
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
  FailureOr<SmallVector<Value>> offs = offsets(access, op.getIndices(), cs, op);
  if (failed(offs))
    return failure();
  SmallVector<Value> masks;
  if (Value m = op.getMask()) {
    FailureOr<SmallVector<Value>> t = operandAt(m, cs, op);
    if (failed(t))
      return failure();
    masks = *t;
  }
  const Layout &l = layouts[coordSets[cs].layout];
  bool vec = vectorizable(op.getIndices(), op.getMask(), access, l.vec);
  for (int64_t c = 0; c < l.chunks; ++c) {
    Value own = owned(coordSets[cs].layout, c);
    if (vec) {
      int64_t s0 = c * l.vec;
      Value pred = andPred(own, masks.empty() ? Value() : masks[s0]);
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
      Value pred = andPred(own, masks.empty() ? Value() : masks[s]);
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

/// A shuffle of any scalar: shuffles move 32 bits, so narrower values are
/// widened (exactly) and wider ones moved in two halves.
Value KernelLowering::shuffleXor(Value v, int64_t offset) {
  Type type = v.getType();
  Type i32 = b.getI32Type(), i64 = b.getI64Type(), f32 = b.getF32Type();
  Value off = arith::ConstantIntOp::create(b, loc, i32, offset);
  auto shuffle = [&](Value x) -> Value {
    return xk::ShuffleOp::create(b, loc, xk::ShuffleKind::Xor, x, off, 32);
  };
  if (type.isF32() || type.isInteger(32))
    return shuffle(v);
  if (isa<FloatType>(type) && type.getIntOrFloatBitWidth() < 32)
    return arith::TruncFOp::create(
        b, loc, type, shuffle(arith::ExtFOp::create(b, loc, f32, v)));
  if (type.isInteger() && type.getIntOrFloatBitWidth() < 32)
    return arith::TruncIOp::create(
        b, loc, type, shuffle(arith::ExtUIOp::create(b, loc, i32, v)));
  Value bits = v;
  if (type.isIndex())
    bits = arith::IndexCastOp::create(b, loc, i64, v);
  else if (type.isF64())
    bits = arith::BitcastOp::create(b, loc, i64, v);
  Value lo = arith::TruncIOp::create(b, loc, i32, bits);
  Value hi = arith::TruncIOp::create(
      b, loc, i32,
      arith::ShRUIOp::create(b, loc, bits,
                             arith::ConstantIntOp::create(b, loc, i64, 32)));
  Value lo2 = arith::ExtUIOp::create(b, loc, i64, shuffle(lo));
  Value hi2 = arith::ShLIOp::create(
      b, loc, arith::ExtUIOp::create(b, loc, i64, shuffle(hi)),
      arith::ConstantIntOp::create(b, loc, i64, 32));
  Value joined = arith::OrIOp::create(b, loc, lo2, hi2);
  if (type.isIndex())
    return arith::IndexCastOp::create(b, loc, type, joined);
  if (type.isF64())
    return arith::BitcastOp::create(b, loc, type, joined);
  return joined;
}

Value KernelLowering::sharedArray(Type element, int64_t size) {
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPoint(prelude);
  return xk::SharedOp::create(
      b, loc, xk::PtrType::get(b.getContext(), element, xk::MemorySpace::shared),
      size);
}

Value KernelLowering::dynamicShared(Type element, int64_t elements) {
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPoint(prelude);
  int64_t offset = dynamicBytes;
  int64_t bytes = elements * getElementBytes(element);
  dynamicBytes = llvm::alignTo(offset + bytes, 16);
  return xk::DynamicSharedOp::create(
      b, loc, xk::PtrType::get(b.getContext(), element, xk::MemorySpace::shared),
      offset);
}

LogicalResult KernelLowering::lowerFold(xt::FoldOp op) {
  auto inType = cast<RankedTensorType>(op.getInput().getType());
  if (isa<RankedTensorType>(op.getType()) ||
      static_cast<int64_t>(op.getDims().size()) != inType.getRank())
    return op.emitOpError("folds only some dimensions of its tile; the "
                          "Kernel IR lowering supports folds to one element");
  int cs = baseCoords(inType.getShape());
  FailureOr<SmallVector<Value>> values = tile(op.getInput(), cs);
  if (failed(values))
    return failure();
  Type type = op.getType();
  Value identity = constantOf(cast<TypedAttr>(op.getIdentity()));
  const Layout &l = layouts[coordSets[cs].layout];
  Value acc = identity;
  for (int64_t c = 0; c < l.chunks; ++c) {
    Value own = owned(coordSets[cs].layout, c);
    for (int64_t i = 0; i < l.vec; ++i) {
      Value x = (*values)[c * l.vec + i];
      if (own)
        x = arith::SelectOp::create(b, loc, own, x, identity);
      acc = c == 0 && i == 0 && !own ? x : combine(op.getCombine(), acc, x);
    }
  }
  // Across the warp: every lane ends with the warp's result.
  for (int64_t offset = 16; offset >= 1; offset /= 2)
    acc = combine(op.getCombine(), acc, shuffleXor(acc, offset));
  if (numWarps > 1) {
    Type memType = type.isInteger(1) ? b.getI8Type() : storageType(type);
    Value partials = sharedArray(memType, numWarps);
    auto toMem = [&](Value v) -> Value {
      if (type == memType)
        return v;
      if (type.isIndex())
        return arith::IndexCastOp::create(b, loc, memType, v);
      return arith::ExtUIOp::create(b, loc, memType, v);
    };
    auto fromMem = [&](Value v) -> Value {
      if (type == memType)
        return v;
      if (type.isIndex())
        return arith::IndexCastOp::create(b, loc, type, v);
      return arith::TruncIOp::create(b, loc, type, v);
    };
    // In a loop, the previous iteration's readers must be done.
    if (loopDepth)
      xk::BarrierOp::create(b, loc);
    Value first = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                                lane, cst(0));
    predicated(
        b, loc, first, {},
        [&] {
          xk::StoreOp::create(b, loc, toMem(acc), partials, warp);
          return SmallVector<Value>{};
        },
        [&] { return SmallVector<Value>{}; });
    xk::BarrierOp::create(b, loc);
    acc = fromMem(xk::LoadOp::create(b, loc, memType, partials, cst(0)));
    for (int64_t w = 1; w < numWarps; ++w)
      acc = combine(op.getCombine(), acc,
                    fromMem(xk::LoadOp::create(b, loc, memType, partials,
                                               cst(w))));
  }
  scalars[op.getResult()] = acc;
  return success();
}

//===----------------------------------------------------------------------===//
// Dots
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::lowerDot(xt::DotOp op) {
  auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
  auto rhsType = cast<RankedTensorType>(op.getRhs().getType());
  auto accType = cast<RankedTensorType>(op.getAcc().getType());
  if (lhsType.getRank() != 2 || rhsType.getRank() != 2)
    return op.emitOpError("the Kernel IR lowering supports 2-d dots only");
  int64_t k = lhsType.getDimSize(1), n = rhsType.getDimSize(1);
  Type accElement = accType.getElementType();
  if (!accElement.isF32())
    return op.emitOpError("the Kernel IR lowering accumulates dots in f32 "
                          "only, got ")
           << accElement;
  // Stage each operand tile in shared memory, row-major.
  bool stagedNow = false;
  auto stage = [&](Value operand) -> FailureOr<std::pair<Value, Value>> {
    auto it = staged.find(operand);
    if (it != staged.end())
      return it->second;
    auto type = cast<RankedTensorType>(operand.getType());
    int cs = baseCoords(type.getShape());
    FailureOr<SmallVector<Value>> values = tile(operand, cs);
    if (failed(values))
      return failure();
    Type element = type.getElementType();
    Value buffer = dynamicShared(element, type.getNumElements());
    const Layout &l = layouts[coordSets[cs].layout];
    for (int64_t c = 0; c < l.chunks; ++c) {
      int64_t s0 = c * l.vec;
      ArrayRef<Value> coords = coordSets[cs].coords[s0];
      Value offset = add(mul(coords[0], cst(type.getDimSize(1))), coords[1]);
      Value lanes = l.vec == 1 ? (*values)[s0]
                               : (Value)vector::FromElementsOp::create(
                                     b, loc, VectorType::get({l.vec}, element),
                                     ArrayRef<Value>(*values).slice(s0, l.vec));
      predicated(
          b, loc, owned(coordSets[cs].layout, c), {},
          [&] {
            xk::StoreOp::create(b, loc, lanes, buffer, offset);
            return SmallVector<Value>{};
          },
          [&] { return SmallVector<Value>{}; });
    }
    staged[operand] = {buffer, cst(0)};
    stagedNow = true;
    return staged[operand];
  };
  FailureOr<std::pair<Value, Value>> a = stage(op.getLhs());
  if (failed(a))
    return failure();
  FailureOr<std::pair<Value, Value>> bb = stage(op.getRhs());
  if (failed(bb))
    return failure();
  if (stagedNow) {
    xk::BarrierOp::create(b, loc);
    stagedInBody = true;
  }
  if (dynamicBytes > src.getTarget().value().getSharedMemory())
    return op.emitOpError("needs ")
           << dynamicBytes << " bytes of shared memory for its operand tiles, "
           << "more than the target's " << src.getTarget()->getSharedMemory();

  int cs = baseCoords(accType.getShape());
  FailureOr<SmallVector<Value>> acc = tile(op.getAcc(), cs);
  if (failed(acc))
    return failure();
  const Layout &l = layouts[coordSets[cs].layout];
  const CoordSet &set = coordSets[cs];
  Value zero = cst(0), one = cst(1);
  auto loop = scf::ForOp::create(b, loc, zero, cst(k), one, *acc);
  loop->setAttr("xkernel.unroll", b.getUnitAttr());
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    Value kk = loop.getInductionVar();
    Type f32 = b.getF32Type();
    auto widen = [&](Value v) -> Value {
      return v.getType() == f32 ? v : (Value)arith::ExtFOp::create(b, loc, f32, v);
    };
    DenseMap<Value, Value> rows;
    DenseMap<Value, SmallVector<Value>> cols;
    SmallVector<Value> next;
    for (int64_t c = 0; c < l.chunks; ++c) {
      int64_t s0 = c * l.vec;
      Value row = set.coords[s0][0], col = set.coords[s0][1];
      if (!rows.count(row))
        rows[row] = widen(xk::LoadOp::create(
            b, loc, lhsType.getElementType(), a->first,
            add(a->second, add(mul(row, cst(k)), kk))));
      if (!cols.count(col)) {
        Value offset = add(bb->second, add(mul(kk, cst(n)), col));
        Type element = rhsType.getElementType();
        SmallVector<Value> lanes;
        if (l.vec == 1) {
          lanes.push_back(
              widen(xk::LoadOp::create(b, loc, element, bb->first, offset)));
        } else {
          Value v = xk::LoadOp::create(
              b, loc, VectorType::get({l.vec}, element), bb->first, offset);
          for (int64_t i = 0; i < l.vec; ++i)
            lanes.push_back(widen(vector::ExtractOp::create(b, loc, v, i)));
        }
        cols[col] = lanes;
      }
      for (int64_t i = 0; i < l.vec; ++i)
        next.push_back(math::FmaOp::create(b, loc, rows[row], cols[col][i],
                                           loop.getRegionIterArgs()[s0 + i]));
    }
    scf::YieldOp::create(b, loc, next);
  }
  remember(op.getResult(), cs, SmallVector<Value>(loop.getResults()));
  return success();
}

//===----------------------------------------------------------------------===//
// Pipelined dot operands (cp.async)
//===----------------------------------------------------------------------===//

/// Whether `v` is a zero of its type (a splat tile or a scalar).
static bool isZero(Value v) {
  if (auto splat = v.getDefiningOp<xt::SplatOp>())
    v = splat.getInput();
  return matchPattern(v, m_Zero()) || matchPattern(v, m_AnyZeroFloat());
}

/// Whether `v` is computed in `body` from the loop's induction variable,
/// values defined outside and pure index arithmetic only: then it can be
/// computed for any iteration.
static bool computableForAnyIteration(Value v, Block *body, Value iv) {
  if (v == iv)
    return true;
  Operation *def = v.getDefiningOp();
  if (!def)
    return !body->getParentOp()->isAncestor(
        cast<BlockArgument>(v).getOwner()->getParentOp());
  if (!body->findAncestorOpInBlock(*def))
    return true;
  if (def->getNumRegions() || !isPure(def) || isa<xt::LoadOp>(def))
    return false;
  return llvm::all_of(def->getOperands(), [&](Value o) {
    return computableForAnyIteration(o, body, iv);
  });
}

SmallVector<KernelLowering::Pipelined>
KernelLowering::pipelineOperands(scf::ForOp op, int64_t stages) {
  SmallVector<Pipelined> out;
  if (stages < 2 || !getConstantIntValue(op.getLowerBound()) ||
      !getConstantIntValue(op.getUpperBound()) ||
      !getConstantIntValue(op.getStep()))
    return out;
  Block *body = op.getBody();
  Value iv = op.getInductionVar();
  DenseSet<Value> seen;
  for (auto dot : body->getOps<xt::DotOp>()) {
    for (Value operand : {dot.getLhs(), dot.getRhs()}) {
      if (seen.contains(operand))
        continue;
      // A load (masked with zeros), or a select of zeros where the load's
      // mask is false.
      xt::LoadOp load = operand.getDefiningOp<xt::LoadOp>();
      Operation *select = nullptr;
      if (auto sel = operand.getDefiningOp<arith::SelectOp>()) {
        load = sel.getTrueValue().getDefiningOp<xt::LoadOp>();
        if (!load || !load.getMask() || sel.getCondition() != load.getMask() ||
            !isZero(sel.getFalseValue()))
          continue;
        select = sel;
      }
      if (!load || !load->getParentOp()->isAncestor(dot) ||
          load->getBlock() != body)
        continue;
      if (load.getOther() && !isZero(load.getOther()))
        continue;
      auto type = cast<RankedTensorType>(operand.getType());
      if (type.getRank() != 2)
        continue;
      // Only the dot (through the select) may use the tile.
      Value tileValue = select ? select->getResult(0) : load.getResult();
      if (!llvm::all_of(tileValue.getUsers(),
                        [](Operation *u) { return isa<xt::DotOp>(u); }) ||
          (select && !load.getResult().hasOneUse()))
        continue;
      if (!llvm::all_of(load->getOperands().drop_front(), [&](Value v) {
            return computableForAnyIteration(v, body, iv);
          }))
        continue;
      // Copies move 4, 8 or 16 bytes: whole vector groups, or single 4-byte
      // elements.
      int64_t bytes = getElementBytes(type.getElementType());
      const Layout &l = layouts[layoutFor(type.getShape())];
      Access access = accessOf(load.getBuffer());
      bool vec = vectorizable(load.getIndices(), load.getMask(), access, l.vec);
      int64_t copy = vec ? l.vec * bytes : bytes;
      if (!vec && l.vec > 1 && bytes != 4)
        continue;
      if (copy != 4 && copy != 8 && copy != 16)
        continue;
      seen.insert(operand);
      out.push_back({operand, load, Value(), type.getNumElements()});
    }
  }
  for (Pipelined &p : out) {
    copiedLoads.insert(p.load);
    if (Operation *sel = p.operand.getDefiningOp<arith::SelectOp>())
      copiedLoads.insert(sel);
    p.buffer = dynamicShared(
        cast<RankedTensorType>(p.operand.getType()).getElementType(),
        stages * p.elements);
  }
  return out;
}

/// Starts the copies of iteration `iteration` (an index from 0) of `op`
/// into stage `stage` of each operand's buffer.
LogicalResult KernelLowering::issueCopies(ArrayRef<Pipelined> operands,
                                          scf::ForOp op, Value iteration,
                                          Value stage) {
  int64_t lb = *getConstantIntValue(op.getLowerBound());
  int64_t step = *getConstantIntValue(op.getStep());
  Value iv = add(cst(lb), mul(iteration, cst(step)));
  // The iteration's index tiles are computed afresh, for its induction
  // variable.
  DenseMap<std::pair<Value, int>, SmallVector<Value>> savedMemo;
  std::swap(savedMemo, memo);
  scopes.emplace_back();
  Block *savedBody = reissueBody;
  reissueBody = op.getBody();
  reissued.clear();
  reissued[op.getInductionVar()] = iv;
  llvm::scope_exit restore([&] {
    std::swap(savedMemo, memo);
    scopes.pop_back();
    reissueBody = savedBody;
    reissued.clear();
  });
  Type i32 = b.getI32Type();
  for (Pipelined p : operands) {
    auto type = cast<RankedTensorType>(p.operand.getType());
    int cs = baseCoords(type.getShape());
    const Layout &l = layouts[coordSets[cs].layout];
    Access access = accessOf(p.load.getBuffer());
    FailureOr<SmallVector<Value>> offs =
        offsets(access, p.load.getIndices(), cs, p.load);
    if (failed(offs))
      return failure();
    SmallVector<Value> masks;
    if (Value m = p.load.getMask()) {
      FailureOr<SmallVector<Value>> t = operandAt(m, cs, p.load);
      if (failed(t))
        return failure();
      masks = *t;
    }
    int64_t bytes = getElementBytes(type.getElementType());
    bool vec = vectorizable(p.load.getIndices(), p.load.getMask(), access,
                            l.vec);
    int64_t group = vec ? l.vec : 1;
    Value base = mul(stage, cst(p.elements));
    for (int64_t c = 0; c < l.chunks; ++c) {
      for (int64_t i = 0; i < l.vec; i += group) {
        int64_t s0 = c * l.vec + i;
        ArrayRef<Value> coords = coordSets[cs].coords[s0];
        Value local =
            add(base, add(mul(coords[0], cst(type.getDimSize(1))), coords[1]));
        Value valid;
        if (!masks.empty())
          valid = arith::SelectOp::create(
              b, loc, masks[s0],
              arith::ConstantIntOp::create(b, loc, i32, group * bytes),
              arith::ConstantIntOp::create(b, loc, i32, 0));
        predicated(
            b, loc, owned(coordSets[cs].layout, c), {},
            [&] {
              xk::AsyncCopyOp::create(b, loc, access.ptr, (*offs)[s0],
                                      p.buffer, local, group * bytes, valid);
              return SmallVector<Value>{};
            },
            [&] { return SmallVector<Value>{}; });
      }
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::lowerFor(scf::ForOp op) {
  FailureOr<Value> lb = scalar(op.getLowerBound(), op);
  FailureOr<Value> ub = scalar(op.getUpperBound(), op);
  FailureOr<Value> step = scalar(op.getStep(), op);
  if (failed(lb) || failed(ub) || failed(step))
    return failure();
  SmallVector<Value> inits;
  SmallVector<std::pair<int64_t, int>> spans; // (slots, coordinate set or -1)
  for (Value init : op.getInitArgs()) {
    if (!isTile(init)) {
      FailureOr<Value> s = scalar(init, op);
      if (failed(s))
        return failure();
      inits.push_back(*s);
      spans.push_back({1, -1});
      continue;
    }
    int cs = baseCoords(cast<RankedTensorType>(init.getType()).getShape());
    FailureOr<SmallVector<Value>> t = tile(init, cs);
    if (failed(t))
      return failure();
    llvm::append_range(inits, *t);
    spans.push_back({(int64_t)t->size(), cs});
  }
  // Pipelining: the operand tiles of the loop's dots are copied into
  // shared memory asynchronously, stages - 1 iterations ahead.
  int64_t stages = 1;
  if (auto attr = op->getAttrOfType<IntegerAttr>("xtile.num_stages"))
    stages = attr.getInt();
  SmallVector<Pipelined> pipelined = pipelineOperands(op, stages);
  APInt lbConst, stepConst;
  if (!pipelined.empty()) {
    matchPattern(op.getLowerBound(), m_ConstantInt(&lbConst));
    matchPattern(op.getStep(), m_ConstantInt(&stepConst));
    for (int64_t j = 0; j + 1 < stages; ++j) {
      if (failed(issueCopies(pipelined, op, cst(j), cst(j))))
        return failure();
      xk::AsyncCommitOp::create(b, loc);
    }
  }
  auto loop = scf::ForOp::create(b, loc, *lb, *ub, *step, inits);
  // The builder gives a loop without results its terminator; ours comes last.
  if (!loop.getBody()->empty())
    loop.getBody()->back().erase();
  DenseMap<Value, std::pair<Value, Value>> savedStaged;
  std::swap(savedStaged, staged);
  bool savedStagedInBody = stagedInBody;
  stagedInBody = false;
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    scalars[op.getInductionVar()] = loop.getInductionVar();
    scopes.emplace_back();
    int64_t pos = 0;
    for (auto [arg, span] : llvm::zip(op.getRegionIterArgs(), spans)) {
      ValueRange slots = loop.getRegionIterArgs().slice(pos, span.first);
      if (span.second < 0)
        scalars[arg] = slots[0];
      else
        remember(arg, span.second, SmallVector<Value>(slots));
      pos += span.first;
    }
    if (!pipelined.empty()) {
      // Iteration i starts the copies of iteration i + stages - 1, then waits
      // for its own (committed stages - 1 groups earlier).
      Value i = div(b.createOrFold<arith::SubIOp>(loc, loop.getInductionVar(),
                                                  *lb),
                    stepConst.getSExtValue());
      int64_t n = llvm::divideCeil(
          *getConstantIntValue(op.getUpperBound()) - lbConst.getSExtValue(),
          stepConst.getSExtValue());
      Value ahead = add(i, cst(stages - 1));
      Value inRange = b.createOrFold<arith::CmpIOp>(
          loc, arith::CmpIPredicate::ult, ahead, cst(n));
      LogicalResult issued = success();
      predicated(
          b, loc, inRange, {},
          [&] {
            issued = issueCopies(pipelined, op, ahead, rem(ahead, stages));
            return SmallVector<Value>{};
          },
          [&] { return SmallVector<Value>{}; });
      if (failed(issued))
        return failure();
      xk::AsyncCommitOp::create(b, loc);
      xk::AsyncWaitOp::create(b, loc, stages - 1);
      xk::BarrierOp::create(b, loc);
      Value current = rem(i, stages);
      for (const Pipelined &p : pipelined)
        staged[p.operand] = {p.buffer, mul(current, cst(p.elements))};
      stagedInBody = true;
    }
    ++loopDepth;
    LogicalResult body = lowerBlock(*op.getBody());
    --loopDepth;
    if (failed(body))
      return failure();
    SmallVector<Value> yielded;
    auto yield = cast<scf::YieldOp>(op.getBody()->getTerminator());
    for (auto [v, span] : llvm::zip(yield.getOperands(), spans)) {
      if (span.second < 0) {
        FailureOr<Value> s = scalar(v, yield);
        if (failed(s))
          return failure();
        yielded.push_back(*s);
      } else {
        FailureOr<SmallVector<Value>> t = tile(v, span.second);
        if (failed(t))
          return failure();
        llvm::append_range(yielded, *t);
      }
    }
    // Shared-memory tiles are rewritten by the next iteration.
    if (stagedInBody)
      xk::BarrierOp::create(b, loc);
    scf::YieldOp::create(b, loc, yielded);
    for (auto &key : scopes.back())
      memo.erase(key);
    scopes.pop_back();
  }
  std::swap(savedStaged, staged);
  stagedInBody = savedStagedInBody;
  if (!pipelined.empty())
    xk::AsyncWaitOp::create(b, loc, 0);
  if (auto stagesAttr = op->getAttrOfType<IntegerAttr>("xtile.num_stages"))
    loop->setAttr("xkernel.num_stages", stagesAttr);
  int64_t pos = 0;
  for (auto [result, span] : llvm::zip(op.getResults(), spans)) {
    ValueRange slots = loop.getResults().slice(pos, span.first);
    if (span.second < 0)
      scalars[result] = slots[0];
    else
      remember(result, span.second, SmallVector<Value>(slots));
    pos += span.first;
  }
  return success();
}

LogicalResult KernelLowering::lowerOp(Operation *op) {
  if (auto id = dyn_cast<xt::ProgramIdOp>(op)) {
    static const xk::Dim dims[] = {xk::Dim::x, xk::Dim::y, xk::Dim::z};
    if (id.getDim() > 2)
      return op->emitOpError("a CUDA grid has 3 dimensions");
    scalars[id.getResult()] = xk::BlockIdOp::create(b, loc, dims[id.getDim()]);
    return success();
  }
  if (auto fold = dyn_cast<xt::FoldOp>(op))
    return lowerFold(fold);
  if (auto dot = dyn_cast<xt::DotOp>(op))
    return lowerDot(dot);
  if (auto store = dyn_cast<xt::StoreOp>(op))
    return lowerStore(store);
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return lowerFor(loop);
  if (auto load = dyn_cast<xt::LoadOp>(op); load && !isTile(load.getResult())) {
    FailureOr<Value> v = lowerScalarLoad(load);
    if (failed(v))
      return failure();
    scalars[load.getResult()] = *v;
    return success();
  }
  bool tileOp = llvm::any_of(op->getOperands(), isTile) ||
                llvm::any_of(op->getResults(), isTile);
  if (auto apply = dyn_cast<affine::AffineApplyOp>(op); apply && !tileOp) {
    // Index arithmetic of reshapes: expanded into arith.
    FailureOr<SmallVector<Value>> operands = scalarOperands(op);
    if (failed(operands))
      return failure();
    std::optional<SmallVector<Value, 8>> expanded =
        affine::expandAffineMap(b, loc, apply.getAffineMap(), *operands);
    if (!expanded)
      return op->emitOpError("cannot be expanded into arith ops");
    scalars[apply.getResult()] = (*expanded)[0];
    return success();
  }
  if (!tileOp) {
    // Scalar arithmetic: every thread computes it.
    if (op->getNumRegions() ||
        !isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
      return op->emitOpError("is not supported by the Kernel IR lowering");
    FailureOr<SmallVector<Value>> operands = scalarOperands(op);
    if (failed(operands))
      return failure();
    Operation *clone = recreate(op, *operands, op->getResultTypes());
    for (auto [from, to] : llvm::zip(op->getResults(), clone->getResults()))
      scalars[from] = to;
    return success();
  }
  if (op->getNumResults() != 1)
    return op->emitOpError("is not supported by the Kernel IR lowering");
  // A tile: computed here, at its own coordinates, unless it is only seen
  // through broadcasts and reshapes (then where and as they need it).
  Value result = op->getResult(0);
  if (copiedLoads.contains(op))
    return success();
  bool ownCoordinates = llvm::any_of(result.getUsers(), [](Operation *user) {
    return !isa<xt::BroadcastOp, xt::ReshapeOp>(user);
  });
  if (!ownCoordinates)
    return success();
  int cs = baseCoords(cast<RankedTensorType>(result.getType()).getShape());
  return tile(result, cs);
}

LogicalResult KernelLowering::lowerBlock(Block &block) {
  for (Operation &op : block.without_terminator())
    if (failed(lowerOp(&op)))
      return failure();
  return success();
}

FailureOr<xk::FuncOp> KernelLowering::run() {
  if (failed(parseSchedule()))
    return failure();
  if (!src.getTarget())
    return src.emitOpError("has no target: run --convert-xloop-to-xtile, "
                           "which chooses one");
  MLIRContext *ctx = src.getContext();
  Block &body = src.getBodyBlock();
  SmallVector<Type> argTypes;
  SmallVector<Attribute> argAttrs;
  for (BlockArgument arg : body.getArguments()) {
    auto memref = dyn_cast<MemRefType>(arg.getType());
    if (!memref || !memref.getLayout().isIdentity())
      return src.emitOpError("buffer #")
             << arg.getArgNumber() << " must be a row-major memref";
    argTypes.push_back(xk::PtrType::get(
        ctx, storageType(memref.getElementType()), xk::MemorySpace::global));
    NamedAttrList attrs;
    if (arg.getArgNumber() < src.getNumInputs())
      attrs.append(xk::FuncOp::getReadonlyAttrName(), UnitAttr::get(ctx));
    argAttrs.push_back(attrs.getDictionary(ctx));
  }
  b.setInsertionPoint(src);
  func = xk::FuncOp::create(b, loc, src.getSymName(),
                            FunctionType::get(ctx, argTypes, {}),
                            ArrayAttr::get(ctx, argAttrs), ArrayAttr(),
                            numThreads, 0);
  Block *entry = b.createBlock(&func.getBody(), {}, argTypes,
                               SmallVector<Location>(argTypes.size(), loc));
  b.setInsertionPointToStart(entry);
  tid = xk::ThreadIdOp::create(b, loc, xk::Dim::x);
  // Everything computed once per thread is placed before this marker.
  prelude = arith::ConstantIndexOp::create(b, loc, 0);
  b.setInsertionPoint(prelude);
  lane = rem(tid, 32);
  warp = div(tid, 32);
  b.setInsertionPointAfter(prelude);
  scopes.emplace_back();
  if (failed(lowerBlock(body))) {
    func.erase();
    return failure();
  }
  xk::ReturnOp::create(b, loc);
  func.setDynamicShared(dynamicBytes);
  return func;
}

} // namespace

FailureOr<xk::FuncOp> xtile::lowerTileKernel(xt::KernelOp kernel) {
  return KernelLowering(kernel).run();
}

//===----------------------------------------------------------------------===//
// The host side
//===----------------------------------------------------------------------===//

FailureOr<xk::ProgramOp>
xtile::lowerHostFunction(Operation *op,
                         const llvm::StringMap<LoweredKernel> &kernels) {
  auto fn = dyn_cast<func::FuncOp>(op);
  if (!fn || fn.isExternal())
    return op->emitOpError("is not a function of launches");
  auto memrefOf = [&](Type t, Operation *user) -> FailureOr<MemRefType> {
    auto tensor = dyn_cast<RankedTensorType>(t);
    if (!tensor || !tensor.hasStaticShape())
      return user->emitOpError("needs statically shaped tensors, got ") << t;
    return MemRefType::get(tensor.getShape(), tensor.getElementType());
  };
  auto ret = cast<func::ReturnOp>(fn.getBody().front().getTerminator());
  SmallVector<Type> buffers;
  for (Type t : fn.getArgumentTypes()) {
    FailureOr<MemRefType> m = memrefOf(t, fn);
    if (failed(m))
      return failure();
    buffers.push_back(*m);
  }
  for (Type t : fn.getResultTypes()) {
    FailureOr<MemRefType> m = memrefOf(t, fn);
    if (failed(m))
      return failure();
    buffers.push_back(*m);
  }
  // A returned value that is an input, or that is returned again, is
  // copied into its output buffer after the launches; any other is
  // written by its kernel directly.
  DenseMap<Value, unsigned> outputOf;
  SmallVector<std::pair<Value, unsigned>> copies;
  for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
    if (!v.getDefiningOp<loop::LaunchOp>() || outputOf.count(v))
      copies.push_back({v, unsigned(i)});
    else
      outputOf[v] = i;
  }
  OpBuilder b(fn);
  auto program = xk::ProgramOp::create(b, fn.getLoc(), fn.getSymName(),
                                       fn.getNumArguments());
  Block *body = b.createBlock(&program.getBody(), {}, buffers,
                              SmallVector<Location>(buffers.size(), fn.getLoc()));
  b.setInsertionPointToStart(body);
  DenseMap<Value, Value> bufferOf;
  for (auto [arg, buffer] : llvm::zip(fn.getArguments(), body->getArguments()))
    bufferOf[arg] = buffer;
  auto isEmpty = [](Value v) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    return t && t.hasStaticShape() && t.getNumElements() == 0;
  };
  for (Operation &inner : fn.getBody().front().without_terminator()) {
    // An empty tensor (Loop IR makes every empty result a constant) is a
    // buffer of no bytes: a kernel may take it, nothing reads it.
    if (auto constant = dyn_cast<arith::ConstantOp>(inner);
        constant && isEmpty(constant.getResult())) {
      if (llvm::all_of(constant->getUsers(),
                       [](Operation *user) { return isa<func::ReturnOp>(user); }))
        continue;
      FailureOr<MemRefType> m = memrefOf(constant.getType(), constant);
      if (failed(m)) {
        program.erase();
        return failure();
      }
      bufferOf[constant.getResult()] =
          xk::AllocOp::create(b, constant.getLoc(), *m);
      continue;
    }
    auto launch = dyn_cast<loop::LaunchOp>(inner);
    if (isa<arith::ConstantOp>(inner)) {
      program.erase();
      return inner.emitOpError(
          "a constant tensor that is not a splat, as a kernel's input or a "
          "result, is not supported (pass it as an argument: xtile.compile "
          "does unless params_as_constants=True)");
    }
    if (!launch) {
      program.erase();
      return inner.emitOpError("is not supported on the host side of Kernel "
                               "IR (only kernel launches are)");
    }
    auto lowered = kernels.find(launch.getKernel());
    if (lowered == kernels.end()) {
      program.erase();
      return launch.emitOpError("launches '")
             << launch.getKernel() << "', which has no Kernel IR kernel";
    }
    SmallVector<Value> operands;
    for (Value in : launch.getOperands())
      operands.push_back(bufferOf.lookup(in));
    for (Value out : launch.getResults()) {
      Value buffer;
      auto it = outputOf.find(out);
      if (it != outputOf.end()) {
        buffer = body->getArgument(fn.getNumArguments() + it->second);
      } else {
        FailureOr<MemRefType> m = memrefOf(out.getType(), launch);
        if (failed(m)) {
          program.erase();
          return failure();
        }
        buffer = xk::AllocOp::create(b, launch.getLoc(), *m);
      }
      bufferOf[out] = buffer;
      operands.push_back(buffer);
    }
    if (llvm::any_of(operands, [](Value v) { return !v; })) {
      program.erase();
      return launch.emitOpError("uses a tensor that is not a buffer of the "
                                "program");
    }
    xk::FuncOp kernel = lowered->second.func;
    SmallVector<int64_t> grid(lowered->second.grid.begin(),
                              lowered->second.grid.end());
    grid.resize(3, 1);
    xk::LaunchOp::create(b, launch.getLoc(), kernel.getSymName(),
                         b.getDenseI64ArrayAttr(grid),
                         b.getDenseI64ArrayAttr(
                             {(int64_t)kernel.getMaxThreads(), 1, 1}),
                         kernel.getDynamicShared(), operands);
  }
  for (auto [v, i] : copies) {
    if (isEmpty(v)) // nothing to copy
      continue;
    Value source = bufferOf.lookup(v);
    if (!source) {
      program.erase();
      return ret.emitOpError("result #")
             << i << " is neither an input nor computed by a kernel";
    }
    xk::CopyOp::create(b, ret.getLoc(), source,
                       body->getArgument(fn.getNumArguments() + i));
  }
  return program;
}

namespace {
struct ConvertXTileToXKernelPass
    : public xtile::impl::ConvertXTileToXKernelBase<ConvertXTileToXKernelPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool failedAny = false;
    SmallVector<xt::KernelOp> kernels(module.getOps<xt::KernelOp>());
    llvm::StringMap<LoweredKernel> lowered;
    for (xt::KernelOp kernel : kernels) {
      FailureOr<xk::FuncOp> func = lowerTileKernel(kernel);
      if (failed(func)) {
        failedAny = true;
        continue;
      }
      lowered[kernel.getSymName()] = {
          *func, SmallVector<int64_t, 3>(kernel.getGrid())};
    }
    if (failedAny)
      return signalPassFailure();
    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    for (func::FuncOp fn : funcs) {
      if (fn.isExternal())
        continue;
      if (failed(lowerHostFunction(fn, lowered)))
        failedAny = true;
    }
    if (failedAny)
      return signalPassFailure();
    for (func::FuncOp fn : funcs)
      if (!fn.isExternal())
        fn.erase();
    for (xt::KernelOp kernel : kernels)
      kernel.erase();
  }
};
} // namespace
