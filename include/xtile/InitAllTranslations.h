//===- InitAllTranslations.h - register xtile's translations ----*- C++ -*-===//

#ifndef XTILE_INITALLTRANSLATIONS_H
#define XTILE_INITALLTRANSLATIONS_H

#include "xtile/Target/CUDA/CUDAEmitter.h"
#include "xtile/Target/LaunchPlan/LaunchPlan.h"
#include "xtile/Target/PTX/PTXEmitter.h"

namespace mlir {
void registerToLLVMIRTranslation();
} // namespace mlir

namespace xtile {

/// Registers the translations that xtile-translate offers with the global
/// translation registry: Kernel IR to CUDA C (`--mlir-to-cuda`) and to PTX
/// (`--mlir-to-ptx`, through the LLVM dialect and NVPTX), programs to
/// launch plans (`--mlir-to-launch-plan`), and upstream's `--mlir-to-llvmir`.
inline void registerAllTranslations() {
  mlir::registerToLLVMIRTranslation();
  registerToCUDATranslation();
  registerToPTXTranslation();
  registerToLaunchPlanTranslation();
}

} // namespace xtile

#endif // XTILE_INITALLTRANSLATIONS_H
