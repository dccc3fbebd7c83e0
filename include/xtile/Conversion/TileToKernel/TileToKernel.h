//===- TileToKernel.h - Tile IR to Kernel IR --------------------*- C++ -*-===//

#ifndef XTILE_CONVERSION_TILETOKERNEL_TILETOKERNEL_H
#define XTILE_CONVERSION_TILETOKERNEL_TILETOKERNEL_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"
#include "mlir/Pass/Pass.h"
#include "xtile/Dialect/Kernel/IR/KernelOps.h"
#include "xtile/Dialect/Tile/IR/TileOps.h"

namespace xtile {

#define GEN_PASS_DECL_CONVERTXTILETOXKERNEL
#include "xtile/Conversion/Passes.h.inc"

/// Lowers one Tile IR kernel to a Kernel IR kernel inserted before it (the
/// Tile IR kernel is left in place). Emits a located error and fails for
/// anything it cannot lower.
/// `testMutate` breaks the lowering on purpose, for tests (see the pass's
/// test-mutate option).
llvm::FailureOr<kernel::FuncOp>
lowerTileKernel(tile::KernelOp kernel, llvm::StringRef testMutate = "");

/// A lowered kernel and the grid of programs it runs as: `grid`, or for a
/// kernel over dynamic sizes `gridMap` of them (`grid` at their maxima).
struct LoweredKernel {
  kernel::FuncOp func;
  llvm::SmallVector<int64_t, 3> grid;
  mlir::AffineMap gridMap;
};

/// Lowers a function of launches (the host side after Tile IR) to an
/// `xkernel.program` inserted before it; `kernels` maps a launched kernel's
/// name to its lowered form.
llvm::FailureOr<kernel::ProgramOp>
lowerHostFunction(mlir::Operation *func,
                  const llvm::StringMap<LoweredKernel> &kernels);

} // namespace xtile

#endif // XTILE_CONVERSION_TILETOKERNEL_TILETOKERNEL_H
