//===- Coordinates.cpp - The coordinates each thread's slots hold ---------===//

#include "Coordinates.h"

using namespace mlir;
using namespace xtile;
using namespace xtile::tiletokernel;

Value IndexArith::cst(int64_t v, Type type) {
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPoint(prelude);
  if (type)
    return arith::ConstantIntOp::create(b, loc, type, v);
  return b.createOrFold<arith::ConstantIndexOp>(loc, v);
}

Value IndexArith::andPred(Value x, Value y) {
  if (!x)
    return y;
  if (!y)
    return x;
  return b.createOrFold<arith::AndIOp>(loc, x, y);
}

int Coordinates::add(CoordSet cs) {
  sets.push_back(std::move(cs));
  return sets.size() - 1;
}

Value Coordinates::owned(int id, int64_t chunk) {
  auto key = std::make_pair(id, chunk);
  auto it = ownedCache.find(key);
  if (it != ownedCache.end())
    return it->second;
  const Layout &l = layouts[id];
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPoint(ix.prelude);
  Value pred;
  if (l.threads < layouts.numThreads())
    pred = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ult, tid,
                                         ix.cst(l.threads));
  int64_t groups = l.elements / l.vec;
  if ((chunk + 1) * l.threads > groups) {
    // The last chunk of a tile whose groups do not fill every thread.
    Value group = ix.add(ix.cst(chunk * l.threads), tid);
    pred = ix.andPred(
        pred, b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ult,
                                            group, ix.cst(groups)));
  }
  return ownedCache[key] = pred;
}

int Coordinates::base(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> key(shape);
  auto it = baseIds.find(key);
  if (it != baseIds.end())
    return it->second;
  int id = layouts.layoutFor(shape);
  const Layout &l = layouts[id];
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPoint(ix.prelude);
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
    bool wgmma = layouts.instruction() == xt::DotInstruction::wgmma;
    Value g = ix.div(lane, 4), t = ix.rem(lane, 4);
    Value row0 =
        wgmma ? ix.add(ix.add(ix.mul(ix.div(warp, 4), ix.cst(4 * wmSize)),
                              ix.mul(ix.rem(warp, 4), ix.cst(16))),
                       g)
              : ix.add(ix.mul(ix.div(warp, warpsN), ix.cst(wmSize)), g);
    int64_t blockRows = wgmma ? 64 : 16;
    Value col0 = ix.add(ix.mul(ix.rem(warp, warpsN), ix.cst(wnSize)),
                        ix.mul(t, ix.cst(2)));
    for (int64_t tm = 0; tm < wmSize / 16; ++tm)
      for (int64_t tn = 0; tn < wnSize / 8; ++tn)
        for (int64_t h = 0; h < 2; ++h)
          for (int64_t j = 0; j < 2; ++j)
            cs.coords.push_back({ix.add(row0, ix.cst(blockRows * tm + 8 * h)),
                                 ix.add(col0, ix.cst(8 * tn + j))});
    return baseIds[key] = add(std::move(cs));
  }
  fillRowMajor(cs);
  return baseIds[key] = add(std::move(cs));
}

int Coordinates::rowMajor(ArrayRef<int64_t> shape, int64_t vec) {
  auto key = std::make_pair(SmallVector<int64_t>(shape), vec);
  auto it = rowMajorIds.find(key);
  if (it != rowMajorIds.end())
    return it->second;
  CoordSet cs{layouts.rowMajor(shape, vec), key.first, {}};
  fillRowMajor(cs);
  return rowMajorIds[key] = add(std::move(cs));
}

void Coordinates::fillRowMajor(CoordSet &cs) {
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPoint(ix.prelude);
  const Layout &l = layouts[cs.layout];
  ArrayRef<int64_t> shape = l.shape;
  int64_t rank = shape.size();
  int64_t per = l.threads * l.vec, last = l.lastDim();
  Value tv = ix.mul(tid, ix.cst(l.vec));
  // Threads past l.threads own nothing; their coordinates only have to be
  // computable.
  for (int64_t c = 0; c < l.chunks; ++c) {
    Value lastBase, high;
    if (per % last == 0) {
      lastBase = ix.rem(tv, last);
      high = ix.add(ix.cst(c * (per / last)), ix.div(tv, last));
    } else if (last % per == 0) {
      lastBase = ix.add(ix.cst((c % (last / per)) * per), tv);
      high = ix.cst(c / (last / per));
    } else {
      Value lin = ix.add(ix.cst(c * per), tv);
      lastBase = ix.rem(lin, last);
      high = ix.div(lin, last);
    }
    for (int64_t v = 0; v < l.vec; ++v) {
      SmallVector<Value> coords(rank);
      if (rank) {
        coords[rank - 1] = ix.add(lastBase, ix.cst(v));
        Value h = high;
        for (int64_t d = rank - 2; d >= 0; --d) {
          coords[d] = d == 0 ? h : ix.rem(h, shape[d]);
          if (d)
            h = ix.div(h, shape[d]);
        }
      }
      cs.coords.push_back(coords);
    }
  }
}

int Coordinates::mapped(int from, ArrayRef<int64_t> shape, bool broadcast) {
  auto key = std::make_tuple(from, SmallVector<int64_t>(shape), broadcast);
  auto it = mappedIds.find(key);
  if (it != mappedIds.end())
    return it->second;
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPoint(ix.prelude);
  CoordSet cs{sets[from].layout, SmallVector<int64_t>(shape), {}};
  ArrayRef<int64_t> outShape = sets[from].shape;
  // Reshapes that only add or drop unit dimensions keep coordinates.
  SmallVector<int64_t> inNonUnit, outNonUnit;
  for (int64_t d : shape)
    if (d != 1)
      inNonUnit.push_back(d);
  for (int64_t d : outShape)
    if (d != 1)
      outNonUnit.push_back(d);
  for (const SmallVector<Value> &coords : sets[from].coords) {
    SmallVector<Value> mapped(shape.size());
    if (broadcast) {
      for (size_t d = 0; d < shape.size(); ++d)
        mapped[d] = shape[d] == 1 && outShape[d] != 1 ? ix.cst(0) : coords[d];
    } else if (inNonUnit == outNonUnit) {
      SmallVector<Value> kept;
      for (size_t d = 0; d < outShape.size(); ++d)
        if (outShape[d] != 1)
          kept.push_back(coords[d]);
      size_t k = 0;
      for (size_t d = 0; d < shape.size(); ++d)
        mapped[d] = shape[d] == 1 ? ix.cst(0) : kept[k++];
    } else {
      Value lin = ix.cst(0);
      for (size_t d = 0; d < outShape.size(); ++d)
        lin = ix.add(ix.mul(lin, ix.cst(outShape[d])), coords[d]);
      for (int64_t d = shape.size() - 1; d >= 0; --d) {
        mapped[d] = d == 0 ? lin : ix.rem(lin, shape[d]);
        if (d)
          lin = ix.div(lin, shape[d]);
      }
    }
    cs.coords.push_back(mapped);
  }
  return mappedIds[key] = add(std::move(cs));
}

int Coordinates::transposed(ArrayRef<int64_t> shape, int64_t vec) {
  auto key = std::make_pair(SmallVector<int64_t>(shape), vec);
  auto it = transposedIds.find(key);
  if (it != transposedIds.end())
    return it->second;
  int from =
      vec ? rowMajor({shape[1], shape[0]}, vec) : base({shape[1], shape[0]});
  CoordSet cs{sets[from].layout, key.first, {}};
  for (ArrayRef<Value> coords : sets[from].coords)
    cs.coords.push_back({coords[1], coords[0]});
  return transposedIds[key] = add(std::move(cs));
}
