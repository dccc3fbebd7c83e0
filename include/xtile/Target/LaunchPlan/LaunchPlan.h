//===- LaunchPlan.h - Kernel IR programs as JSON launch plans ---*- C++ -*-===//
//
// A launch plan is what a host needs to run a program's kernels from PTX
// through the CUDA driver API, without compiling host code: the program's
// buffers (arguments, then temporaries) and its steps in order (launches
// with grid, block, dynamic shared memory and buffer arguments; copies).
// The kernels are named as in the PTX (`.entry` names). python/xtile
// runs programs from a plan where nvcc is absent.
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_TARGET_LAUNCHPLAN_LAUNCHPLAN_H
#define XTILE_TARGET_LAUNCHPLAN_LAUNCHPLAN_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/raw_ostream.h"

namespace xtile {

/// Writes the launch plan of every `xkernel.program` of `module` to `os` as
/// JSON (docs/KernelIR.md, "Launch plans"). Emits a located error and
/// fails for anything else in a program.
llvm::LogicalResult translateToLaunchPlan(mlir::Operation *module,
                                          llvm::raw_ostream &os);

/// Registers `--mlir-to-launch-plan` with the translation registry.
void registerToLaunchPlanTranslation();

} // namespace xtile

#endif // XTILE_TARGET_LAUNCHPLAN_LAUNCHPLAN_H
