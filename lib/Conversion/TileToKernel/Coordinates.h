//===- Coordinates.h - The coordinates each thread's slots hold -*- C++ -*-===//
//
// The materialization of the layout analysis in the kernel being built:
// for each layout (and the orientations and mappings the lowering asks
// for), the coordinates of the element each of a thread's slots holds,
// computed once per thread in the kernel's prelude, and whether the slot
// holds one at all. Private to lib/Conversion/TileToKernel.
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_LIB_CONVERSION_TILETOKERNEL_COORDINATES_H
#define XTILE_LIB_CONVERSION_TILETOKERNEL_COORDINATES_H

#include "xtile/Dialect/Tile/Analysis/Layouts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include <deque>
#include <map>

namespace xtile::tiletokernel {

using namespace mlir;
namespace xt = xtile::tile;
using xt::Layout;

/// Index arithmetic in the kernel being built, folded where constant.
/// Constants (index, or the integer `type`) are made in the prelude.
class IndexArith {
public:
  IndexArith(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  /// Everything computed once per thread is placed before this op.
  Operation *prelude = nullptr;

  Value cst(int64_t v, Type type = {});
  Value add(Value x, Value y) {
    return b.createOrFold<arith::AddIOp>(loc, x, y);
  }
  Value mul(Value x, Value y) {
    return b.createOrFold<arith::MulIOp>(loc, x, y);
  }
  Value div(Value x, int64_t y) {
    return y == 1 ? x : b.createOrFold<arith::DivUIOp>(loc, x, cst(y));
  }
  Value rem(Value x, int64_t y) {
    return b.createOrFold<arith::RemUIOp>(loc, x, cst(y));
  }
  /// `x` and `y`, where a null predicate is true.
  Value andPred(Value x, Value y);

private:
  OpBuilder &b;
  Location loc;
};

/// Per slot, the coordinates of the element it stands for.
struct CoordSet {
  int layout;
  SmallVector<int64_t> shape;
  SmallVector<SmallVector<Value>> coords; // [slot][dim]
};

/// The coordinate sets of one kernel, numbered as they are asked for.
class Coordinates {
public:
  Coordinates(xt::LayoutAnalysis &layouts, IndexArith &ix, OpBuilder &b,
              Location loc)
      : layouts(layouts), ix(ix), b(b), loc(loc) {}

  /// The thread's id, lane and warp in the block (set before any set is
  /// asked for).
  void setThread(Value tid, Value lane, Value warp) {
    this->tid = tid;
    this->lane = lane;
    this->warp = warp;
  }

  const CoordSet &operator[](int id) const { return sets[id]; }

  /// The coordinates of a tile of `shape` at its layout.
  int base(ArrayRef<int64_t> shape);
  /// The coordinates of a tile of `shape` dealt out in groups of `vec`
  /// adjacent elements of its last dimension, consecutive groups to
  /// consecutive threads (the layout of every tile but the accumulator of
  /// tensor cores, with the schedule's vector width).
  int rowMajor(ArrayRef<int64_t> shape, int64_t vec);
  /// The coordinates in a tile of `shape` that an operand of a broadcast
  /// (or a reshape) to coordinate set `from` stands at.
  int mapped(int from, ArrayRef<int64_t> shape, bool broadcast);
  /// The coordinates of a 2-d tile dealt out in groups of adjacent rows:
  /// those of the transposed shape's layout, or (`vec` > 0) of its
  /// row-major layout in groups of `vec`.
  int transposed(ArrayRef<int64_t> shape, int64_t vec = 0);
  /// Whether set `id` is its shape's base set (at the shape's layout).
  bool isBase(int id) const {
    auto it = baseIds.find(sets[id].shape);
    return it != baseIds.end() && it->second == id;
  }
  /// Whether slot `chunk` of this thread holds an element of layout
  /// `layout`: null when every thread's does.
  Value owned(int layout, int64_t chunk);

private:
  void fillRowMajor(CoordSet &cs);
  int add(CoordSet cs);

  xt::LayoutAnalysis &layouts;
  IndexArith &ix;
  OpBuilder &b;
  Location loc;
  Value tid, lane, warp;
  // A deque: references to sets stay valid as more are added.
  std::deque<CoordSet> sets;
  std::map<SmallVector<int64_t>, int> baseIds;
  std::map<std::pair<SmallVector<int64_t>, int64_t>, int> rowMajorIds;
  std::map<std::tuple<int, SmallVector<int64_t>, bool>, int> mappedIds;
  std::map<std::pair<SmallVector<int64_t>, int64_t>, int> transposedIds;
  std::map<std::pair<int, int64_t>, Value> ownedCache;
};

} // namespace xtile::tiletokernel

#endif // XTILE_LIB_CONVERSION_TILETOKERNEL_COORDINATES_H
