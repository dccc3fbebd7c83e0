//===- CUDAEmitter.h - Kernel IR to CUDA C ----------------------*- C++ -*-===//

#ifndef XTILE_TARGET_CUDA_CUDAEMITTER_H
#define XTILE_TARGET_CUDA_CUDAEMITTER_H

#include "mlir/IR/Operation.h"
#include "llvm/Support/raw_ostream.h"

namespace xtile {

/// Prints the Kernel IR kernels (`xkernel.func`) and host programs
/// (`xkernel.program`) of `module` as one CUDA C++ source file: an
/// `extern "C" __global__` function per kernel and an `extern "C"` host
/// function per program that runs it on a stream. Emits a located error for
/// anything it cannot print.
llvm::LogicalResult translateToCUDA(mlir::Operation *module,
                                    llvm::raw_ostream &os);

/// Registers `--mlir-to-cuda` with the translation registry.
void registerToCUDATranslation();

} // namespace xtile

#endif // XTILE_TARGET_CUDA_CUDAEMITTER_H
