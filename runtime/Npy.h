//===- Npy.h - .npy files for xtile-run -------------------------*- C++ -*-===//

#ifndef XTILE_RUNTIME_NPY_H
#define XTILE_RUNTIME_NPY_H

#include "xtile/Support/HostTensor.h"

#include "mlir/Support/LLVM.h"

namespace xtile::npy {

/// Reads a little-endian, C-order .npy file whose shape is `type`'s; any
/// float or integer dtype converts to the element type (bf16 tensors read
/// from float32 files). Prints an error and fails otherwise.
llvm::FailureOr<RefTensor> read(llvm::StringRef path,
                                mlir::RankedTensorType type);

/// Writes `t` as .npy: float32 for f32, bf16 and f16 as float16, float64,
/// int8/16/32/64, bool for i1. (NumPy has no bf16: bf16 is written as
/// float32.)
llvm::LogicalResult write(llvm::StringRef path, const RefTensor &t);

} // namespace xtile::npy

#endif // XTILE_RUNTIME_NPY_H
