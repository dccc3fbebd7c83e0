//===- TileDialect.h - xtile dialect ----------------------------*- C++ -*-===//

#ifndef XTILE_DIALECT_TILE_IR_TILEDIALECT_H
#define XTILE_DIALECT_TILE_IR_TILEDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dialect.h"

#include "xtile/Dialect/Tile/IR/TileDialect.h.inc"

#endif // XTILE_DIALECT_TILE_IR_TILEDIALECT_H
