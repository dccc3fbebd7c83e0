//===- xtile-opt.cpp - the xtile optimizer driver -------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "xtile/InitAllDialects.h"
#include "xtile/InitAllPasses.h"
#include "xtile/Support/Version.h"

#include "TestPasses.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  xtile::registerAllDialects(registry);
  xtile::registerAllPasses();
  xtile::test::registerTestPasses();
  // Upstream's generic passes (canonicalize, cse, ...) for pipelines and tests.
  mlir::registerTransformsPasses();
  // `--version` names this compiler too (the PyTorch frontend keys its
  // build cache on it).
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << xtile::getCompilerVersion() << "\n";
  });
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "xtile optimizer: Tensor, Loop, Tile and Kernel IR\n",
      registry));
}
