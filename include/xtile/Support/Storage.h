//===- Storage.h - how values are laid out in device memory -----*- C++ -*-===//

#ifndef XTILE_SUPPORT_STORAGE_H
#define XTILE_SUPPORT_STORAGE_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace xtile {

/// Bytes one element of `type` (an integer, float or index type) occupies
/// in device memory: i1 as a byte, index as 8.
int64_t getElementBytes(mlir::Type type);

/// Device-memory bytes of a statically shaped buffer or tensor type.
int64_t getNumBytes(mlir::Type shaped);

/// The bytes of a shaped type's static dimensions: its bytes with every
/// dynamic size taken as 1 (to be multiplied by the dynamic sizes).
int64_t getStaticNumBytes(mlir::Type shaped);

/// Whether `type` (or its element type) is an fp8 storage type:
/// f8E4M3FN or f8E5M2.
bool isFp8(mlir::Type type);

/// Whether an op under `root` rounds a wider float to fp8 (arith.truncf to
/// f8E4M3FN or f8E5M2): a quantization, whose result changes wherever its
/// operand moves across a rounding tie of the fp8 grid.
bool roundsToFp8(mlir::Operation *root);

/// Whether GPUs of `arch` (sm_NN, sm_NNa) convert to and from fp8: sm_89
/// and later.
bool hasFp8Conversions(llvm::StringRef arch);

} // namespace xtile

#endif // XTILE_SUPPORT_STORAGE_H
