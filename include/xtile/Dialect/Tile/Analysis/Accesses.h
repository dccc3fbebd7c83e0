//===- Accesses.h - What is known of Tile IR accesses ---------*- C++ -*-===//
//-*-===//
//
// Analyses of the index tiles of loads and stores: how an integer tile
// progresses along a dimension and how aligned it is (which decides
// whether an access can move groups of elements at once), and whether a
// load reads a box of its buffer (which a TMA copy can bring in). They
// build no IR.
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_DIALECT_TILE_ANALYSIS_ACCESSES_H
#define XTILE_DIALECT_TILE_ANALYSIS_ACCESSES_H

#include "xtile/Dialect/Tile/IR/TileOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace xtile::tile {

/// What is known about a tile of integers along one dimension: its values
/// change by `stride` per element, and at the first element of each group
/// they are multiples of `divisor` (a power of two).
struct Progression {
  bool known = false;
  int64_t stride = 0;
  int64_t divisor = 1;
};

/// The element strides of a row-major buffer: each dimension's static
/// factor, and whether a dynamic size follows it (then the stride is that
/// factor times sizes known at run time).
struct BufferStrides {
  llvm::SmallVector<int64_t> factors;
  llvm::SmallVector<bool> dynamic;
};
BufferStrides getBufferStrides(mlir::MemRefType type);

class AccessAnalysis {
public:
  /// How integer tile (or scalar) `v` changes along dimension `dim` (-1:
  /// the last), in groups of `vec`.
  Progression progression(mlir::Value v, int64_t vec, int64_t dim = -1);
  /// The largest power of two (up to 2^30) known to divide scalar `v`.
  int64_t scalarDivisor(mlir::Value v);
  /// Whether a mask is the same for the `vec` elements of every group.
  bool uniformMask(mlir::Value mask, int64_t vec, int64_t dim = -1);
  /// Whether groups of `vec` elements adjacent along dimension `dim` (-1:
  /// the last) of an access of `buffer` at `indices` are adjacent and
  /// aligned in memory, and masked alike (at most 16 bytes a group).
  bool vectorizable(mlir::ValueRange indices, mlir::Value mask,
                    mlir::MemRefType buffer, int64_t vec, int64_t dim = -1);

private:
  llvm::DenseMap<std::tuple<mlir::Value, int64_t, int64_t>, Progression>
      progressions;
};

/// How an index of a load runs: `start` (a scalar of the kernel, or none
/// for 0) plus `offset`, plus a range along tile axis `axis` (-1: the same
/// everywhere).
struct IndexRun {
  int axis = -1;
  mlir::Value start;
  int64_t offset = 0;
};
/// The run of index `v`: a scalar, or a tile that is broadcasts and
/// reshapes of a 1-d `range`, `range + splat(s)` or `splat(s)`, or a splat
/// constant.
std::optional<IndexRun> getIndexRun(mlir::Value v);

/// A 2-d tile load that a TMA copy can bring into shared memory: the box
/// of its buffer each copy moves and the swizzle (bytes; 0 for none) the
/// tile is staged with, in panels of `panelWidth` elements along the
/// buffer's innermost dimension.
struct TmaBox {
  llvm::SmallVector<int64_t> box;
  int64_t swizzle = 0;
  int64_t panels = 1, panelWidth = 0, panelElements = 0;
  /// Each buffer dimension's start: a scalar or none, plus a constant.
  llvm::SmallVector<IndexRun> runs;
};
/// The box of `load` in `kernel` staged row by row (or, `transposed`,
/// column by column), if a TMA copy can bring it in: 16-bit elements, a
/// box of its buffer masked by the buffer's bounds only, 16-byte-aligned
/// strides, 32-bit coordinates.
std::optional<TmaBox> getTmaBox(KernelOp kernel, LoadOp load, bool transposed);

} // namespace xtile::tile

#endif // XTILE_DIALECT_TILE_ANALYSIS_ACCESSES_H
