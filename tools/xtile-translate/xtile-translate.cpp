//===- xtile-translate.cpp - xtile's translation driver -------------------===//
//
// Translations out of MLIR (Kernel IR to CUDA C or PTX) are registered by
// xtile::registerAllTranslations().
//
//===----------------------------------------------------------------------===//

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "xtile/InitAllTranslations.h"

int main(int argc, char **argv) {
  xtile::registerAllTranslations();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "xtile translation driver\n"));
}
