//===- Pipelining.h - How Tile IR K loops are pipelined -------*- C++ -*-===//
//-*-===//
//
// The software-pipelining plan of a Tile IR kernel's loops over K: which
// dot operand loads are copied into shared memory ahead of use (by
// cp.async in groups, or by TMA boxes), how many stages, whether wgmma
// groups stay in flight across iterations, and where a warp-specialized
// kernel splits into producer and consumers. --xtile-plan-pipelines
// records the plan as `xtile.pipeline` and `xtile.async_copy` attributes;
// the Kernel IR lowering reads them back and checks that each is
// admissible for the IR it annotates.
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_DIALECT_TILE_ANALYSIS_PIPELINING_H
#define XTILE_DIALECT_TILE_ANALYSIS_PIPELINING_H

#include "xtile/Dialect/Tile/Analysis/Accesses.h"
#include "xtile/Dialect/Tile/Analysis/Layouts.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace xtile::tile {

/// One dot operand tile copied into shared memory ahead of use.
struct CopyPlan {
  mlir::Value operand;       // the dot operand: the load, or a select of zeros
  LoadOp load;               // the load it is
  int64_t group = 1;         // elements per cp.async
  bool transposed = false;   // staged column by column
  bool rhs = false;          // the dot's right-hand operand
  std::optional<TmaBox> tma; // brought in by TMA instead
};

/// How one loop over K runs.
struct LoopPlan {
  int64_t stages = 1;
  llvm::SmallVector<CopyPlan> copies; // in the order of the loop's dots
  bool overlap = false;               // wgmma groups stay in flight
  bool warpSpecialized = false;       // the kernel splits at this loop
};

/// The elements a copy moves at most along a staged row of `extent`
/// elements of `bytes` each: a power of two of at most 16 bytes.
int64_t getCopyVector(int64_t extent, int64_t bytes);

class PipelineAnalysis {
public:
  PipelineAnalysis(KernelOp kernel, LayoutAnalysis &layouts,
                   AccessAnalysis &accesses)
      : kernel(kernel), layouts(layouts), accesses(accesses) {}

  /// The best plan for `loop` with its `xtile.num_stages`.
  LoopPlan plan(mlir::scf::ForOp loop);
  /// The plan `loop`'s attributes record (none: not pipelined), checked:
  /// a located error where the loop does not admit it.
  llvm::FailureOr<LoopPlan> read(mlir::scf::ForOp loop);
  /// Records `plan` on `loop` and its loads.
  static void write(mlir::scf::ForOp loop, const LoopPlan &plan);

  /// The loop at which a warp-specialized kernel splits (none if it does
  /// not): the first top-level loop with dots, if nothing before it
  /// touches memory or has regions.
  mlir::scf::ForOp splitLoop();
  /// A located error at a load marked for an asynchronous copy outside a
  /// pipelined loop.
  llvm::LogicalResult verifyCopies();

private:
  /// The operand tiles of `loop`'s dots that copies can bring in, each at
  /// its widest group (the operand and its load; empty where none can).
  llvm::SmallVector<CopyPlan> candidates(mlir::scf::ForOp loop);
  /// Whether `copy`'s operand of `loop` can be copied ahead in its group
  /// and orientation (its TMA box is checked apart).
  bool admits(mlir::scf::ForOp loop, const CopyPlan &copy);
  /// Whether each of `loop`'s dots accumulates into a loop-carried value
  /// that only it reads and yields only to itself, on wgmma.
  bool canOverlapWgmma(mlir::scf::ForOp loop);
  /// The load (and its select of zeros, if any) behind dot operand
  /// `operand` in `loop`'s body, if it can be copied ahead at all.
  LoadOp copyableLoad(mlir::scf::ForOp loop, mlir::Value operand);

  KernelOp kernel;
  LayoutAnalysis &layouts;
  AccessAnalysis &accesses;
};

} // namespace xtile::tile

#endif // XTILE_DIALECT_TILE_ANALYSIS_PIPELINING_H
