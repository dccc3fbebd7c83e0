//===- PTXEmitter.h - Kernel IR to PTX --------------------------*- C++ -*-===//

#ifndef XTILE_TARGET_PTX_PTXEMITTER_H
#define XTILE_TARGET_PTX_PTXEMITTER_H

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace xtile {

/// The target features (PTX ISA version) that `chip` is compiled with:
/// the oldest PTX version that has the chip, or std::nullopt for a chip the
/// PTX path does not support (cp.async needs sm_80 or newer).
std::optional<llvm::StringRef> ptxFeaturesFor(llvm::StringRef chip);

/// Writes the PTX of the Kernel IR kernels of `module` (a builtin.module)
/// to `os`, for `chip` or, without one, for the GPU the kernels were
/// scheduled for (their `arch`; sm_90 when they have none). A chip other
/// than their `arch` is an error. The module is left untouched: a copy goes through
/// `--convert-xkernel-to-nvvm` and `gpu-module-to-binary` (format `isa`,
/// LLVM's NVPTX backend; no CUDA toolkit involved). gpu.modules already in
/// the module are compiled for their own targets. Host programs produce no
/// PTX. Emits a located error and fails for anything it cannot lower.
llvm::LogicalResult translateToPTX(mlir::Operation *module,
                                   llvm::raw_ostream &os,
                                   std::optional<llvm::StringRef> chip = {});

/// Registers `--mlir-to-ptx` (with `--ptx-chip`) with the translation
/// registry.
void registerToPTXTranslation();

/// Registers what translateToPTX needs in a context besides Kernel IR: the
/// gpu, LLVM and NVVM dialects, the NVVM target's serialization and the
/// LLVM IR export. A tool that calls translateToPTX registers these.
void registerToPTXDependencies(mlir::DialectRegistry &registry);

} // namespace xtile

#endif // XTILE_TARGET_PTX_PTXEMITTER_H
