//===- PlanPipelines.cpp - --xtile-plan-pipelines -------------------------===//

#include "xtile/Dialect/Tile/Analysis/Pipelining.h"
#include "xtile/Dialect/Tile/Transforms/Passes.h"

namespace xtile::tile {
#define GEN_PASS_DEF_XTILEPLANPIPELINES
#include "xtile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace xtile::tile

using namespace mlir;
using namespace xtile::tile;

namespace {
struct PlanPipelines
    : public xtile::tile::impl::XTilePlanPipelinesBase<PlanPipelines> {
  void runOnOperation() override {
    WalkResult result = getOperation().walk([&](KernelOp kernel) {
      LayoutAnalysis layouts;
      if (failed(layouts.initialize(kernel)))
        return WalkResult::interrupt();
      AccessAnalysis accesses;
      PipelineAnalysis pipelines(kernel, layouts, accesses);
      kernel.walk([&](scf::ForOp loop) {
        if (!loop.getBody()->getOps<DotOp>().empty())
          PipelineAnalysis::write(loop, pipelines.plan(loop));
      });
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
