//===- PTXEmitter.h - Kernel IR to PTX --------------------------*- C++ -*-===//

#ifndef XTILE_TARGET_PTX_PTXEMITTER_H
#define XTILE_TARGET_PTX_PTXEMITTER_H

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

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

/// The PTX of translateToPTX in `ptx`, and, when `optimizedBitcode` is
/// given, the LLVM IR (bitcode) that LLVM's NVPTX backend compiled into it:
/// after KernelToGPU, the NVVM translation and NVPTX's optimization
/// pipeline. Fails with a located error like translateToPTX.
llvm::LogicalResult
serializeKernelsToPTX(mlir::Operation *module,
                      std::optional<llvm::StringRef> chip, std::string &ptx,
                      llvm::SmallVectorImpl<char> *optimizedBitcode = nullptr);

/// What translateToHostPTX writes.
enum class HostPTXFormat { LLVMIR, Object };

/// The PTX path's own code, for the CPU: the LLVM IR that serializeKernels-
/// ToPTX hands to NVPTX, retargeted to the host (each NVVM intrinsic and
/// each PTX inline-asm string a call into the emulation's implementation
/// of it, runtime/xtile_ptx_host.cpp; shared memory per block; a host entry
/// point per kernel and the table `xt_ptx_kernels` of them; the hash of the
/// PTX it stands for in `xt_ptx_image_hash`), written as LLVM IR or as a
/// host object file compiled by LLVM's host backend. An intrinsic or asm
/// string without a host implementation is an error that names it. `ptx`,
/// when given, receives the PTX it stands for.
llvm::LogicalResult translateToHostPTX(mlir::Operation *module,
                                       llvm::raw_ostream &os,
                                       std::optional<llvm::StringRef> chip,
                                       HostPTXFormat format,
                                       std::string *ptx = nullptr);

/// The 64-bit FNV-1a hash of a PTX image: what the emulated driver compares
/// a loaded image with (runtime/xtile_ptx_host.cpp computes the same).
uint64_t hashPTX(llvm::StringRef ptx);

/// Registers `--mlir-to-ptx` (with `--ptx-chip`) with the translation
/// registry.
void registerToPTXTranslation();

/// Registers what translateToPTX needs in a context besides Kernel IR: the
/// gpu, LLVM and NVVM dialects, the NVVM target's serialization and the
/// LLVM IR export. A tool that calls translateToPTX registers these.
void registerToPTXDependencies(mlir::DialectRegistry &registry);

} // namespace xtile

#endif // XTILE_TARGET_PTX_PTXEMITTER_H
