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

#include "llvm/ADT/DenseSet.h"

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

/// The kernel's loops, outer to inner, where they are one nest of static
/// parallel loops from 0 (each the only loop of its parent's body, the
/// innermost holding none: an elementwise kernel, a scatter-add's); empty
/// otherwise.
llvm::SmallVector<ParallelOp> getStaticParallelNest(KernelOp kernel);

/// The loop induction variables `v` depends on, through the ops that
/// compute it.
void collectInductionVars(mlir::Value v, llvm::DenseSet<mlir::Value> &ivs);

/// A fold the dot lowering takes: a sum, from a constant, of products.
bool isSumOfProducts(FoldOp fold);

/// A fold that is a contraction over the row indices `rowIvs` (those of
/// more than one iteration): a sum of products whose two factors each
/// depend on a row index the other does not (matmul: A[i, k] x B[k, j]).
/// Any other fold, over however broadcast operands (a masked maximum of
/// rows, a sum of squared differences), is a row reduction per output
/// element.
bool isContractionFold(FoldOp fold, llvm::ArrayRef<mlir::Value> rowIvs);

/// A sum of products a block-scaled contraction's block can be (see
/// getScaledBlockSum): static bounds over a multiple of 32 k (whole K
/// steps of every schedule), an f32 sum from 0, no loops in its body.
bool isBlockSum(FoldOp fold);

/// A block-scaled contraction (DeepSeek-V3's fp8 GEMMs): a sum, from a
/// constant, over blocks `kb` of one contraction fold's result (over the
/// `k` of the block) times factors computed beside it,
/// `sum_kb s(i, kb, j) * sum_k a(i, kb, k) b(kb, k, j)`. Multiplication
/// distributes over the inner sum, so a schedule may scale any part of a
/// block's sum. Returns the inner contraction fold, or null when `fold` is
/// not of this form (static bounds, f32 sums, an inner fold that
/// isBlockSum, nothing else looping in the block's body).
FoldOp getScaledBlockSum(FoldOp fold, llvm::ArrayRef<mlir::Value> rowIvs);

/// A fold the contraction lowering takes: a contraction, or a block-scaled
/// one (several of either kind share a kernel's K loop, not of both).
bool isAnyContraction(FoldOp fold, llvm::ArrayRef<mlir::Value> rowIvs);

/// The induction variables of the loops of `rows` with more than one
/// iteration.
llvm::SmallVector<mlir::Value> rowInductionVars(llvm::ArrayRef<ParallelOp> rows);

/// Why `kernel` has no Tile IR lowering: the op to report at and the
/// message. None when its structure is one the lowering handles.
struct TileProblem {
  mlir::Operation *op;
  std::string message;
  /// A limit of dynamic sizes: the kernel lowers with its sizes static.
  bool dynamicSizes = false;
};
std::optional<TileProblem> findTileProblem(KernelOp kernel);

} // namespace xtile::loop

#endif // XTILE_DIALECT_LOOP_UTILS_TILEABLE_H
