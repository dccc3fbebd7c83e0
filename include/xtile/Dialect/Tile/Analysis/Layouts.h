//===- Layouts.h - How a Tile IR kernel's tiles are dealt out ---*- C++ -*-===//
//
// The layout analysis of a Tile IR kernel: from its schedule (warps, vector
// width, the dots' instruction) and its tiles' shapes, which thread holds
// which elements of every tile. Kernel IR lowering materializes a layout as
// per-slot coordinates; the analysis itself builds no IR.
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_DIALECT_TILE_ANALYSIS_LAYOUTS_H
#define XTILE_DIALECT_TILE_ANALYSIS_LAYOUTS_H

#include "xtile/Dialect/Tile/IR/TileOps.h"

#include "llvm/ADT/SmallVector.h"
#include <deque>
#include <map>

namespace xtile::tile {

/// How the elements of a tile shape are dealt out to the threads.
struct Layout {
  llvm::SmallVector<int64_t> shape;
  // The accumulator of a tensor-core dot: each warp owns a sub-tile, each
  // lane the elements of the instruction's C fragments.
  bool mmaAccumulator = false;
  int64_t elements = 1;
  int64_t vec = 1;     // adjacent elements of the last dimension per group
  int64_t threads = 1; // threads that own groups
  int64_t chunks = 1;  // groups per thread
  int64_t slots() const { return chunks * vec; }
  int64_t lastDim() const { return shape.empty() ? 1 : shape.back(); }
};

/// The layouts of one Tile IR kernel's tiles, numbered as they are asked
/// for. A tile's layout depends on its shape only: the accumulator shapes
/// of tensor-core dots take the instruction's fragment layout, every other
/// shape is dealt out row-major in groups of the schedule's vector width.
class LayoutAnalysis {
public:
  /// Reads `kernel`'s schedule; a located error where the kernel cannot be
  /// laid out (warps, accumulator shapes, tiles too large per thread).
  llvm::LogicalResult initialize(KernelOp kernel);

  int64_t numWarps() const { return warps; }
  /// The threads of the block that run the tile program.
  int64_t numThreads() const { return threads; }
  /// The threads tiles are dealt out to: all of them, or one when a fold
  /// is serial.
  int64_t layoutThreads() const { return dealtTo; }
  int64_t vectorWidth() const { return vecWidth; }
  DotScheduleAttr dotSchedule() const { return dots; }
  /// What the kernel's dots run on.
  DotInstruction instruction() const {
    return dots ? dots.getInstruction() : DotInstruction::fma;
  }
  /// The shapes of the tensor-core dots' accumulators.
  llvm::ArrayRef<llvm::SmallVector<int64_t>> accumulatorShapes() const {
    return accumulators;
  }

  /// The layout of a tile of `shape` (its number).
  int layoutFor(llvm::ArrayRef<int64_t> shape);
  /// The row-major layout of `shape` in groups of `vec` (its number).
  int rowMajor(llvm::ArrayRef<int64_t> shape, int64_t vec);
  const Layout &operator[](int id) const { return layouts[id]; }

private:
  int add(Layout l);

  int64_t warps = 1, threads = 32, dealtTo = 32, vecWidth = 1;
  DotScheduleAttr dots;
  llvm::SmallVector<llvm::SmallVector<int64_t>> accumulators;
  // A deque: references to layouts stay valid as more are added.
  std::deque<Layout> layouts;
  std::map<llvm::SmallVector<int64_t>, int> byShape;
  std::map<std::pair<llvm::SmallVector<int64_t>, int64_t>, int> rowMajorIds;
};

} // namespace xtile::tile

#endif // XTILE_DIALECT_TILE_ANALYSIS_LAYOUTS_H
