//===- KernelOps.h - xkernel types and operations ---------------*- C++ -*-===//

#ifndef XTILE_DIALECT_KERNEL_IR_KERNELOPS_H
#define XTILE_DIALECT_KERNEL_IR_KERNELOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "xtile/Dialect/Kernel/IR/KernelDialect.h"

#include "xtile/Dialect/Kernel/IR/KernelEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "xtile/Dialect/Kernel/IR/KernelTypes.h.inc"

#define GET_OP_CLASSES
#include "xtile/Dialect/Kernel/IR/KernelOps.h.inc"

#endif // XTILE_DIALECT_KERNEL_IR_KERNELOPS_H
