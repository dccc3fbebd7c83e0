/*===-- xtile-c/Dialects.h - C API of xtile's dialects ------------*- C -*-===*\
|*                                                                            *|
|* The dialect handles of Tensor, Loop, Tile and Kernel IR, and the          *|
|* registration of everything an xtile program contains, for MLIR's C API    *|
|* (mlir-c/IR.h): libXTileCAPI.so, installed with the dialects.              *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef XTILE_C_DIALECTS_H
#define XTILE_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(XTensor, xtensor);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(XLoop, xloop);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(XTile, xtile);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(XKernel, xkernel);

/// Inserts xtile's dialects and the upstream ones xtile programs contain or
/// are lowered to (func, arith, math, scf, affine, vector, gpu, llvm, nvvm)
/// into `registry`.
MLIR_CAPI_EXPORTED void xtileRegisterAllDialects(MlirDialectRegistry registry);

/// Registers xtile's passes and pipelines (--lower-to-kernel and the rest)
/// and upstream's generic ones (canonicalize, cse, ...) with the global
/// registry, for mlirParsePassPipeline.
MLIR_CAPI_EXPORTED void mlirRegisterXTilePasses(void);

#ifdef __cplusplus
}
#endif

#endif // XTILE_C_DIALECTS_H
