//===- LoopOps.h - xloop operations -----------------------------*- C++ -*-===//

#ifndef XTILE_DIALECT_LOOP_IR_LOOPOPS_H
#define XTILE_DIALECT_LOOP_IR_LOOPOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "xtile/Dialect/Loop/IR/LoopDialect.h"

#include "xtile/Dialect/Loop/IR/LoopEnums.h.inc"

#define GET_OP_CLASSES
#include "xtile/Dialect/Loop/IR/LoopOps.h.inc"

#endif // XTILE_DIALECT_LOOP_IR_LOOPOPS_H
