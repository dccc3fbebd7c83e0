//===- Passes.h - xkernel passes --------------------------------*- C++ -*-===//

#ifndef XTILE_DIALECT_KERNEL_TRANSFORMS_PASSES_H
#define XTILE_DIALECT_KERNEL_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Pass/Pass.h"
#include "xtile/Dialect/Kernel/IR/KernelOps.h"

namespace xtile::kernel {

#define GEN_PASS_DECL
#include "xtile/Dialect/Kernel/Transforms/Passes.h.inc"

/// Rewrites the math functions under `root` as --xkernel-expand-math does
/// (and nothing else: no folding, no dead-code elimination).
void expandMath(mlir::Operation *root, bool fastMath);

#define GEN_PASS_REGISTRATION
#include "xtile/Dialect/Kernel/Transforms/Passes.h.inc"

} // namespace xtile::kernel

#endif // XTILE_DIALECT_KERNEL_TRANSFORMS_PASSES_H
