//===- LoopToTile.h - Loop IR to Tile IR ------------------------*- C++ -*-===//

#ifndef XTILE_CONVERSION_LOOPTOTILE_LOOPTOTILE_H
#define XTILE_CONVERSION_LOOPTOTILE_LOOPTOTILE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "xtile/Dialect/Loop/IR/LoopOps.h"
#include "xtile/Dialect/Tile/IR/TileOps.h"

namespace xtile {

#define GEN_PASS_DECL_CONVERTXLOOPTOXTILE
#include "xtile/Conversion/Passes.h.inc"

} // namespace xtile

#endif // XTILE_CONVERSION_LOOPTOTILE_LOOPTOTILE_H
