//===- TileOps.h - xtile operations and attributes --------------*- C++ -*-===//

#ifndef XTILE_DIALECT_TILE_IR_TILEOPS_H
#define XTILE_DIALECT_TILE_IR_TILEOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "xtile/Dialect/Tile/IR/TileDialect.h"

#include "xtile/Dialect/Tile/IR/TileEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "xtile/Dialect/Tile/IR/TileAttributes.h.inc"

#define GET_OP_CLASSES
#include "xtile/Dialect/Tile/IR/TileOps.h.inc"

#endif // XTILE_DIALECT_TILE_IR_TILEOPS_H
