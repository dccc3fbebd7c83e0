//===- InitAllTranslations.h - register xtile's translations ----*- C++ -*-===//

#ifndef XTILE_INITALLTRANSLATIONS_H
#define XTILE_INITALLTRANSLATIONS_H

#include "xtile/Target/PTX/PTXEmitter.h"

namespace mlir {
void registerToLLVMIRTranslation();
} // namespace mlir

namespace xtile {

/// Registers the translations that xtile-translate offers with the global
/// translation registry. The PTX path goes through the LLVM dialect, so
/// upstream's `--mlir-to-llvmir` is part of it, next to the Kernel IR
/// emitters (`--mlir-to-ptx`).
inline void registerAllTranslations() {
  mlir::registerToLLVMIRTranslation();
  registerToPTXTranslation();
}

} // namespace xtile

#endif // XTILE_INITALLTRANSLATIONS_H
