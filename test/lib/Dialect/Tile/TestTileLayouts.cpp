//===- TestTileLayouts.cpp - Print the layout analysis of Tile IR ---------===//
//
// `--test-print-tile-layouts`: a remark at each op of a Tile IR kernel that
// makes a tile, naming the layout the analysis gives it (how its elements
// are dealt out to the threads).
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"

#include "xtile/Dialect/Tile/Analysis/Layouts.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace xtile::tile;

namespace {
struct TestTileLayouts : PassWrapper<TestTileLayouts, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestTileLayouts)

  StringRef getArgument() const final { return "test-print-tile-layouts"; }
  StringRef getDescription() const final {
    return "For tests only: a remark with the layout of each tile of each "
           "Tile IR kernel";
  }

  void runOnOperation() override {
    getOperation().walk([&](KernelOp kernel) {
      LayoutAnalysis layouts;
      if (failed(layouts.initialize(kernel)))
        return signalPassFailure();
      kernel.walk([&](Operation *op) {
        for (Value v : op->getResults()) {
          auto type = dyn_cast<RankedTensorType>(v.getType());
          if (!type)
            continue;
          const Layout &l = layouts[layouts.layoutFor(type.getShape())];
          InFlightDiagnostic remark = op->emitRemark("layout of ");
          remark << type << ": ";
          if (l.mmaAccumulator)
            remark << "tensor-core accumulator, ";
          remark << l.vec << " adjacent x " << l.chunks << " chunks on "
                 << l.threads << " threads";
        }
      });
    });
  }
};
} // namespace

void xtile::test::registerTestTileLayouts() {
  PassRegistration<TestTileLayouts>();
}
