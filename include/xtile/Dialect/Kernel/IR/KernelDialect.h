//===- KernelDialect.h - xkernel dialect ------------------------*- C++ -*-===//

#ifndef XTILE_DIALECT_KERNEL_IR_KERNELDIALECT_H
#define XTILE_DIALECT_KERNEL_IR_KERNELDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dialect.h"

#include "xtile/Dialect/Kernel/IR/KernelDialect.h.inc"

#endif // XTILE_DIALECT_KERNEL_IR_KERNELDIALECT_H
