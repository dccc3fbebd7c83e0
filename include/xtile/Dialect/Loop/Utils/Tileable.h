//===- Tileable.h - which Loop IR kernels have a Tile IR form ---*- C++ -*-===//
//
// The structure the Tile IR lowering handles: a nest of parallel loops over
// rows, then in the innermost row body folds and column loops whose bodies
// have no loops of their own, and stores in that body or its column loops.
// Fusion asks before it fuses, so that it never builds a kernel the next
// level must reject; the Tile IR lowering reports the same problems.
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_DIALECT_LOOP_UTILS_TILEABLE_H
#define XTILE_DIALECT_LOOP_UTILS_TILEABLE_H

#include "xtile/Dialect/Loop/IR/LoopOps.h"

#include <optional>
#include <string>

namespace xtile::loop {

/// The row nest of `kernel`: the parallel loops, outer to inner, each the
/// only loop of its parent's body and holding loops itself, and the
/// innermost body they lead to (the kernel's own body when there are none).
struct RowNestShape {
  llvm::SmallVector<ParallelOp> rows;
  mlir::Block *body = nullptr;
};
RowNestShape findRowNest(KernelOp kernel);

/// Why `kernel` has no Tile IR lowering: the op to report at and the
/// message. None when its structure is one the lowering handles.
struct TileProblem {
  mlir::Operation *op;
  std::string message;
};
std::optional<TileProblem> findTileProblem(KernelOp kernel);

} // namespace xtile::loop

#endif // XTILE_DIALECT_LOOP_UTILS_TILEABLE_H
