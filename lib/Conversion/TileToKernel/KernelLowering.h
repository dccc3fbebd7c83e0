//===- KernelLowering.h - Tile IR to Kernel IR lowering ---------*- C++ -*-===//
//
// The state of the lowering of one Tile IR kernel (`KernelLowering`), the
// structs it describes tiles with (layouts, coordinate sets, progressions)
// and helpers its files share. Private to lib/Conversion/TileToKernel.
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_LIB_CONVERSION_TILETOKERNEL_KERNELLOWERING_H
#define XTILE_LIB_CONVERSION_TILETOKERNEL_KERNELLOWERING_H

#include "Coordinates.h"
#include "OpLowering.h"
#include "TargetInfo.h"
#include "xtile/Conversion/TileToKernel/TileToKernel.h"
#include "xtile/Dialect/Tile/Analysis/Pipelining.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <deque>
#include <map>
#include <tuple>
#include <utility>

namespace xtile::tiletokernel {

using namespace mlir;
namespace xt = xtile::tile;
namespace xk = xtile::kernel;

using xt::Progression;

static inline Type elementTypeOf(Type t) {
  if (auto shaped = dyn_cast<ShapedType>(t))
    return shaped.getElementType();
  return t;
}

static inline bool isTile(Value v) {
  return isa<RankedTensorType>(v.getType());
}

/// The element type a buffer of `t` holds in memory.
static inline Type storageType(Type t) {
  return t.isIndex() ? IntegerType::get(t.getContext(), 64) : t;
}

/// Runs `body` under `pred` (always when null); `body` returns the values
/// to yield, `otherwise` those of the other branch.
SmallVector<Value> predicated(OpBuilder &b, Location loc, Value pred,
                              TypeRange types,
                              function_ref<SmallVector<Value>()> body,
                              function_ref<SmallVector<Value>()> otherwise);

class KernelLowering {
public:
  KernelLowering(xt::KernelOp src, const LoweringOverrides &overrides)
      : src(src), b(src), loc(src.getLoc()), target(src.getTargetAttr()),
        overrides(overrides) {}

  FailureOr<xk::FuncOp> run();

  // What the family lowerings (OpLowering.h) call.
  /// What the kernel's dots run on.
  xt::DotInstruction instruction() const { return layouts.instruction(); }
  LogicalResult lowerFold(xt::FoldOp op);
  LogicalResult lowerFmaDot(xt::DotOp op);
  LogicalResult lowerMmaSyncDot(xt::DotOp op);
  LogicalResult lowerWgmmaDot(xt::DotOp op);
  LogicalResult lowerStore(xt::StoreOp op);
  FailureOr<Value> lowerScalarLoad(xt::LoadOp op);
  /// `v` of the Tile IR kernel stands for scalar `lowered`.
  void bindScalar(Value v, Value lowered) { scalars[v] = lowered; }

private:
  // Set up.
  /// The kernel's layouts and what else the lowering needs of its schedule
  /// and grid; a located error where they do not fit a CUDA block.
  LogicalResult parseSchedule();

  // Index arithmetic, folded where constant (IndexArith).
  Value cst(int64_t v, Type type = {}) { return ix.cst(v, type); }
  Value add(Value x, Value y) { return ix.add(x, y); }
  Value mul(Value x, Value y) { return ix.mul(x, y); }
  Value div(Value x, int64_t y) { return ix.div(x, y); }
  Value rem(Value x, int64_t y) { return ix.rem(x, y); }
  Value andPred(Value x, Value y) { return ix.andPred(x, y); }
  Value constantOf(TypedAttr attr);

  // Values.
  FailureOr<Value> scalar(Value v, Operation *user);
  /// The scalars `op`'s operands stand for.
  FailureOr<SmallVector<Value>> scalarOperands(Operation *op);
  /// `op` again (same name and attributes) on `operands`, with `types`.
  Operation *recreate(Operation *op, ValueRange operands, TypeRange types);
  FailureOr<SmallVector<Value>> tile(Value v, int cs);
  /// `v`, known at another coordinate set of its shape (a loop-carried
  /// tile, a dot or a fold), at `cs`: written to shared memory by the
  /// threads that hold it, read back where `cs` needs it.
  FailureOr<SmallVector<Value>> exchange(Value v, int cs);
  FailureOr<SmallVector<Value>> operandAt(Value v, int cs, Operation *user);
  /// The slots of an access's mask (none when it has no mask).
  FailureOr<SmallVector<Value>> maskSlots(Value mask, int cs, Operation *user);
  void remember(Value v, int cs, ArrayRef<Value> slots);

  // Statements.
  LogicalResult lowerBlock(Block &block);
  LogicalResult lowerOp(Operation *op);
  LogicalResult lowerFor(scf::ForOp op);
  /// A fold of the last dimension of a 2-d tile: each thread combines its
  /// groups, the groups' partial results meet in shared memory, and each
  /// row's are combined where the result's coordinates need them.
  LogicalResult lowerRowFold(xt::FoldOp op);
  /// The fold of a [rows, cols] tile over its rows: each thread combines
  /// its slots of a column, then the threads' partials through shared
  /// memory.
  LogicalResult lowerColumnFold(xt::FoldOp op);
  /// The type a fold of part of a tile exchanges its partial results in
  /// (its own); an error where shared memory would widen it.
  FailureOr<Type> partialType(xt::FoldOp op);
  /// Visits the slots `values` of coordinate set `cs` (chunk, lane),
  /// those this thread may not own replaced by `identity` (`always`: it
  /// owns the slot wherever it runs).
  void forOwnedSlots(
      int cs, ArrayRef<Value> values, Value identity,
      function_ref<void(int64_t chunk, int64_t lane, Value x, bool always)>
          fn);
  /// Stores `v` at `offset` of `buffer` where this thread owns chunk
  /// `chunk` of coordinate set `cs`.
  void storeIfOwned(int cs, int64_t chunk, Value v, Value buffer,
                    Value offset);
  /// The 1-d result of `op` at its own coordinates: each slot combines
  /// the `count` partial results at offset(its coordinate, 0 .. count - 1)
  /// of the shared array `buffer`, in order.
  void combinePartials(xt::FoldOp op, Value buffer, Type memType,
                       int64_t count,
                       function_ref<Value(Value key, int64_t i)> offset);
  /// Stages a dot's operand tile in shared memory (unless the loop's copies
  /// do): the buffer and the offset of the tile in it.
  /// `orientation`: true to store it column by column (see sharedOffset);
  /// none for either (row by row unless the loop's copies did otherwise).
  FailureOr<std::pair<Value, Value>>
  stageOperand(Value operand, bool &stagedNow,
               std::optional<bool> orientation = std::nullopt);
  /// What every dot lowering starts from: its operand tiles staged in
  /// shared memory (buffer, offset of this iteration's tile), in the given
  /// orientations, and the accumulator's slots at its base coordinates.
  struct DotOperands {
    std::pair<Value, Value> lhs, rhs;
    int accumulator; // coordinate set
    SmallVector<Value> slots;
  };
  FailureOr<DotOperands> stageDot(xt::DotOp op,
                                  std::optional<bool> lhsOrientation,
                                  std::optional<bool> rhsOrientation);
  /// Whether the dots run on wgmma with tf32 operands, which must be
  /// rounded in shared memory (the instruction reads them there).
  bool wgmmaTf32() const {
    return instruction() == xt::DotInstruction::wgmma &&
           layouts.dotSchedule().getTf32() && overrides.roundTf32InShared();
  }
  /// The alignment of operand tiles in dynamic shared memory: wgmma's
  /// 128-byte swizzle atoms are 1024 bytes, aligned.
  int64_t sharedAlignment() const {
    return instruction() == xt::DotInstruction::wgmma ? 1024 : 16;
  }
  /// The offset of element (row, col) of a staged operand tile of `type`
  /// in its buffer: row-major, swizzled in 16-byte chunks for tensor cores.
  /// `reading`: for ldmatrix (LoweringOverrides::swizzleStagedWrites
  /// concerns writes only).
  /// `transposed`: the tile is staged column by column.
  Value sharedOffset(RankedTensorType type, Value row, Value col,
                     bool reading = false, bool transposed = false);
  FailureOr<SmallVector<Value>> lowerLoad(xt::LoadOp op, int cs);

  // Accesses.
  /// A buffer's pointer and strides: `strides` the static factor of each,
  /// `dynamicStrides` the whole stride where a `?` follows its dimension
  /// (a product of sizes, computed once per kernel), else null.
  struct Access {
    MemRefType type;
    Value ptr;
    SmallVector<int64_t> strides;
    SmallVector<Value> dynamicStrides;
  };
  Access accessOf(Value buffer);
  FailureOr<SmallVector<Value>> offsets(const Access &access,
                                        ValueRange indices, int cs,
                                        Operation *user);
  /// Whether groups of `vec` elements adjacent along dimension `dim` (-1:
  /// the last) are adjacent and aligned in memory, and masked alike.
  bool vectorizable(ValueRange indices, Value mask, const Access &access,
                    int64_t vec, int64_t dim = -1) {
    return accesses.vectorizable(indices, mask, access.type, vec, dim);
  }
  /// Stores a tensor-core accumulator tile (slots `values`) through shared
  /// memory: written in its fragment layout, read back in 16-byte groups
  /// of a row, stored so. Returns false (nothing emitted) where it does not
  /// apply.
  FailureOr<bool> storeThroughShared(xt::StoreOp op, const Access &access,
                                     ArrayRef<Value> values, int cs);

  // Cross-thread.
  /// A barrier of the threads that run the tile program: the whole block,
  /// or after a warp-specialized split the consumers alone (named barrier
  /// 1 of numThreads threads).
  void barrier() {
    target.barrier(b, loc, consumersOnly ? layouts.numThreads() : 0);
  }
  Value combine(xt::CombineKind kind, Value x, Value y);
  Value shuffleXor(Value v, int64_t offset);
  Value sharedArray(Type element, int64_t size);
  /// The type a value of `type` is kept as in shared memory (i1 as i8,
  /// index as i64), and the conversions to and from it.
  Type sharedType(Type type) {
    return type.isInteger(1) ? b.getI8Type() : storageType(type);
  }
  Value toShared(Value v);
  Value fromShared(Value v, Type type);
  Value dynamicShared(Type element, int64_t elements, int64_t align = 16);

  xt::KernelOp src;
  OpBuilder b;
  Location loc;
  TargetInfo target; // of `src` (run() checks that it has one)
  OpLoweringSet familyLowerings;      // for `target`
  const LoweringOverrides &overrides; // the defaults but in mutation tests
  // Analyses of the Tile IR kernel: its layouts (and schedule), what is
  // known of its accesses, and the pipelining plan its loops record.
  xt::LayoutAnalysis layouts;
  xt::AccessAnalysis accesses;
  xt::PipelineAnalysis pipelines{src, layouts, accesses};
  // The kernel being built: its index arithmetic (and prelude) and the
  // coordinates of the layouts' slots.
  IndexArith ix{b, loc};
  Coordinates coordinates{layouts, ix, b, loc};
  xk::FuncOp func;
  int loopDepth = 0;
  Value tid, lane, warp;
  int64_t dynamicBytes = 0;

  DenseMap<Value, Value> scalars;
  DenseMap<std::pair<Value, int>, SmallVector<Value>> memo;
  SmallVector<SmallVector<std::pair<Value, int>>> scopes;
  // Operand tiles of dots staged in shared memory in the current loop body:
  // the buffer and the offset of this iteration's tile in it.
  DenseMap<Value, std::pair<Value, Value>> staged;
  // Staged operand tiles stored column by column (see sharedOffset).
  DenseSet<Value> stagedTransposed;
  bool stagedInBody = false;
  // The pipelined loop whose wgmma dots leave their group in flight
  // (wgmma_wait 1) for the next iteration's to follow (see lowerFor).
  Operation *overlapLoop = nullptr;
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
    int64_t group;     // elements per copy
    bool transposed;   // staged [col][row]: contiguous along rows in memory
    int coords;        // the coordinate set the copies are dealt out by
    // Brought in by TMA instead (see Tma.cpp): the tensor map argument,
    // each buffer dimension's box start (a scalar of the Tile IR kernel or
    // none, plus a constant), and the boxes of a stage: `panels` of
    // `panelWidth` elements along the innermost dimension,
    // `panelElements` apart.
    Value map;
    SmallVector<std::pair<Value, int64_t>> runs;
    int64_t panels = 1, panelWidth = 0, panelElements = 0;
  };
  /// The operand tiles `plan` copies ahead: their coordinates, stages in
  /// shared memory and tensor maps.
  SmallVector<Pipelined> pipelineOperands(const xt::LoopPlan &plan);
  /// How a loop over K runs: what is decided before it is emitted
  /// (planLoop), then what its emission carries along.
  struct LoopPipeline {
    int64_t stages = 1;
    SmallVector<Pipelined> operands; // copied into stages ahead of use
    bool overlap = false;     // wgmma groups stay in flight across iterations
    int64_t ahead = 0;        // iterations the copies run ahead
    bool copies = false;      // some operand comes in by cp.async
    bool tma = false;         // some operand comes in by TMA
    bool specialized = false; // the K loop of warp specialization
    bool produced = false;    // a producer warpgroup issues its copies
    // Emission: the loop's constant step, trip count, the positions of the
    // carried stages and parity, and (warp-specialized) the stage the
    // consumers release after the body and whether they do.
    int64_t step = 0;
    Value trips;
    int64_t carried = 0, parityArg = 0;
    Value releasedStage, releases;
  };
  /// The stages, the operands to pipeline, TMA, wgmma overlap and warp
  /// specialization of `op`, as its plan records them (allocating the
  /// stages' shared memory).
  FailureOr<LoopPipeline> planLoop(scf::ForOp op);
  /// Before the loop: the warp-specialized split or TMA barriers, the trip
  /// count, and the copies of the first `ahead` iterations.
  LogicalResult startPipeline(LoopPipeline &p, scf::ForOp op, Value lb,
                              Value ub);
  /// At the top of the new loop's body: the copies of a later iteration,
  /// the waits for this one's, and the staged operand tiles.
  LogicalResult startIteration(LoopPipeline &p, scf::ForOp op, scf::ForOp loop,
                               Value lb);
  /// At the end of the body: the barrier or the stage's release, and the
  /// next iteration's stages and parity appended to `yielded`.
  void endIteration(const LoopPipeline &p, scf::ForOp loop,
                    SmallVector<Value> &yielded);
  /// After a loop that left a wgmma group in flight: waits for it, the
  /// accumulators among `results` passed through the wait.
  void drainWgmma(scf::ForOp op, ArrayRef<std::pair<int64_t, int>> spans,
                  SmallVector<Value> &results);
  Value i32(int64_t v) { return cst(v, b.getI32Type()); }
  /// The kernel argument of the tensor map of `buffer` with `box` and
  /// `swizzle`, added (after the buffers) when first asked for.
  Value tensorMapArgument(BlockArgument buffer, ArrayRef<int64_t> box,
                          int64_t swizzle);
  /// One mbarrier per stage in shared memory (tmaBarriers) and, with
  /// `emptyArrivals`, a second one per stage (emptyBarriers) expecting that
  /// many, initialized by thread 0 before a barrier.
  void initTmaBarriers(int64_t stages, int64_t emptyArrivals = 0);
  /// Thread 0 (or, `elected`, the thread running this) expects the bytes
  /// of `operands`' TMA boxes on stage `stage`'s mbarrier and starts their
  /// copies.
  LogicalResult issueTmaCopies(ArrayRef<Pipelined> operands, Value stage,
                               bool elected = false);
  /// Whether this is thread 0 of the block (the TMA issuer), computed once
  /// per kernel.
  Value firstThread();
  Value isFirstThread;
  DenseMap<Attribute, Value> tensorMaps; // by their argument attribute
  Value tmaBarriers; // of the pipelined loop being lowered
  // Warp specialization (the schedule's warp_specialized): the K loop whose
  // copies a producer warpgroup (threads numThreads to numThreads + 127)
  // issues, the "empty" mbarriers the consumers release its stages on,
  // and whether the lowering is past the split (the rest runs on the
  // consumers alone).
  static constexpr int64_t kProducerThreads = 128;
  /// Registers a producer thread keeps (setmaxnreg.dec): its loop's
  /// addresses, stage and phase.
  static constexpr int64_t kProducerRegisters = 40;
  Operation *producerLoop = nullptr;
  /// The registers each consumer thread takes (setmaxnreg.inc): its
  /// accumulators, 40 more for the main loop (addresses, descriptors, the
  /// loop) and 24 for the epilogue's fused values (scales, biases,
  /// residuals, their addresses: a 128 x 256 tile's 128 accumulators and a
  /// row- and column-scaled epilogue spill within 168), within what the
  /// target's registers allow (TargetInfo::consumerRegisters). ptxas
  /// allots the kernel that many at launch: fewer for smaller tiles keep
  /// more blocks on an SM.
  int64_t consumerRegisters() const {
    int64_t accumulators = 0;
    for (ArrayRef<int64_t> shape : layouts.accumulatorShapes())
      accumulators += shape[0] * shape[1];
    return target.consumerRegisters(
        40 + 24 + accumulators / layouts.numThreads(), layouts.numThreads(),
        kProducerThreads, kProducerRegisters);
  }
  Value emptyBarriers;
  bool consumersOnly = false;
  /// Branches off the producer warpgroup: `producer` (if any) is emitted
  /// for it; the builder is left in the consumers' branch, where the rest
  /// of the kernel is lowered.
  void splitConsumers(function_ref<void()> producer);
  /// The producer's loop: for each of the loop's `trips` iterations, waits
  /// until the consumers released its stage, then starts its copies.
  LogicalResult produce(ArrayRef<Pipelined> operands, scf::ForOp op,
                        Value lowerBound, Value trips, int64_t stages);
  /// Rounds to tf32, in place, what this thread copied of `p` into stage
  /// `stage` (once its copies have landed).
  void roundCopiedTf32(const Pipelined &p, Value stage);
  LogicalResult issueCopies(ArrayRef<Pipelined> operands, scf::ForOp op,
                            Value lowerBound, Value iteration, Value stage,
                            bool elected = false);
  /// The stage after `stage` (an i32 below `stages`), and whether it wrapped
  /// around to 0.
  std::pair<Value, Value> nextStage(Value stage, int64_t stages);
  Value asIndex(Value v) {
    return b.createOrFold<arith::IndexCastUIOp>(loc, b.getIndexType(), v);
  }
};

} // namespace xtile::tiletokernel

#endif // XTILE_LIB_CONVERSION_TILETOKERNEL_KERNELLOWERING_H
