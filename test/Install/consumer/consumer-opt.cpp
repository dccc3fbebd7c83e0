// An opt-like tool of another project, built against an installed xtile.
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "xtile/InitAllDialects.h"
#include "xtile/InitAllPasses.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  xtile::registerAllDialects(registry);
  xtile::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "xtile consumer\n", registry));
}
