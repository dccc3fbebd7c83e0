//===- LoopDialect.h - xloop dialect ----------------------------*- C++ -*-===//

#ifndef XTILE_DIALECT_LOOP_IR_LOOPDIALECT_H
#define XTILE_DIALECT_LOOP_IR_LOOPDIALECT_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Dialect.h"

#include "xtile/Dialect/Loop/IR/LoopDialect.h.inc"

#endif // XTILE_DIALECT_LOOP_IR_LOOPDIALECT_H
