//===- KernelToGPU.h - Kernel IR to the GPU and NVVM dialects ---*- C++ -*-===//

#ifndef XTILE_CONVERSION_KERNELTOGPU_KERNELTOGPU_H
#define XTILE_CONVERSION_KERNELTOGPU_KERNELTOGPU_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/StringRef.h"

namespace mlir {
class LLVMTypeConverter;
class RewritePatternSet;
} // namespace mlir

namespace xtile {

#define GEN_PASS_DECL_CONVERTXKERNELTONVVM
#include "xtile/Conversion/Passes.h.inc"

/// The gpu.module that `--convert-xkernel-to-nvvm` puts the kernels in.
inline constexpr llvm::StringLiteral kKernelModuleName = "xtile_kernels";

/// Teaches `converter` the xkernel pointer types: global memory is LLVM
/// address space 1, shared memory address space 3.
void populateKernelToGPUTypeConversions(mlir::LLVMTypeConverter &converter);

/// Patterns lowering the xkernel device ops (kernels, ids, memory accesses,
/// shared memory, barriers, shuffles, atomics, cp.async) to the GPU, LLVM
/// and NVVM dialects. Kernels become `gpu.func` kernels, which the upstream
/// GPU-to-NVVM patterns must lower further in the same conversion; the
/// shared-memory globals are created in the nearest symbol table above the
/// kernel.
void populateKernelToGPUPatterns(const mlir::LLVMTypeConverter &converter,
                                 mlir::RewritePatternSet &patterns);

} // namespace xtile

#endif // XTILE_CONVERSION_KERNELTOGPU_KERNELTOGPU_H
