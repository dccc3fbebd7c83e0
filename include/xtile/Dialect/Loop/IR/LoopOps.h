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

#include <algorithm>

#include "xtile/Dialect/Loop/IR/LoopEnums.h.inc"

#define GET_OP_CLASSES
#include "xtile/Dialect/Loop/IR/LoopOps.h.inc"

namespace xtile::loop {

/// The size a dynamic size in [min, max] is priced at unless told
/// otherwise (`size_hints`): fusion and schedule decisions on a dynamic
/// dimension are taken once for its range, at 1024 within it
/// (docs/DynamicShapes.md).
inline int64_t defaultSizeHint(int64_t min, int64_t max) {
  return std::clamp<int64_t>(1024, min, max);
}

} // namespace xtile::loop

#endif // XTILE_DIALECT_LOOP_IR_LOOPOPS_H
