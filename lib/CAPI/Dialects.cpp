//===- Dialects.cpp - C API of xtile's dialects and passes ----------------===//

#include "xtile-c/Dialects.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/Transforms/Passes.h"
#include "xtile/InitAllDialects.h"
#include "xtile/InitAllPasses.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(XTensor, xtensor,
                                      xtile::tensor::XTensorDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(XLoop, xloop, xtile::loop::XLoopDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(XTile, xtile, xtile::tile::XTileDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(XKernel, xkernel,
                                      xtile::kernel::XKernelDialect)

void xtileRegisterAllDialects(MlirDialectRegistry registry) {
  xtile::registerAllDialects(*unwrap(registry));
}

void mlirRegisterXTilePasses() {
  xtile::registerAllPasses();
  mlir::registerTransformsPasses();
}
