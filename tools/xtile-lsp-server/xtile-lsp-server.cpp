//===- xtile-lsp-server.cpp - the MLIR language server for xtile's IR -----===//
//
// Upstream's MLIR language server with xtile's dialects (and those its IR
// uses: func, arith, math, scf, vector, affine, gpu, llvm, nvvm) registered:
// diagnostics, hover, go-to-definition and completion for Tensor, Loop,
// Tile and Kernel IR in an editor. docs/Editors.md says how to set one up.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"
#include "xtile/InitAllDialects.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  xtile::registerAllDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
}
