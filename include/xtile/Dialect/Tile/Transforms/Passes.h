//===- Passes.h - xtile passes ----------------------------------*- C++ -*-===//

#ifndef XTILE_DIALECT_TILE_TRANSFORMS_PASSES_H
#define XTILE_DIALECT_TILE_TRANSFORMS_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "xtile/Dialect/Tile/IR/TileOps.h"

namespace xtile::tile {

#define GEN_PASS_DECL
#include "xtile/Dialect/Tile/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "xtile/Dialect/Tile/Transforms/Passes.h.inc"

} // namespace xtile::tile

#endif // XTILE_DIALECT_TILE_TRANSFORMS_PASSES_H
