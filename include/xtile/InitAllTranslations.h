//===- InitAllTranslations.h - register xtile's translations ----*- C++ -*-===//

#ifndef XTILE_INITALLTRANSLATIONS_H
#define XTILE_INITALLTRANSLATIONS_H

namespace mlir {
void registerToLLVMIRTranslation();
} // namespace mlir

namespace xtile {

/// Registers the translations that xtile-translate offers with the global
/// translation registry. The PTX path goes through the LLVM dialect, so
/// upstream's `--mlir-to-llvmir` is part of it; the Kernel IR emitters
/// (`--mlir-to-cuda`, `--mlir-to-ptx`) join here with the Kernel IR level.
inline void registerAllTranslations() { mlir::registerToLLVMIRTranslation(); }

} // namespace xtile

#endif // XTILE_INITALLTRANSLATIONS_H
