//===- Pipelines.cpp - xtile's lowering pipelines -------------------------===//

#include "xtile/Pipelines/Pipelines.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "xtile/Conversion/Passes.h"
#include "xtile/Dialect/Kernel/Transforms/Passes.h"
#include "xtile/Dialect/Loop/Transforms/Passes.h"
#include "xtile/Dialect/Tensor/Transforms/Passes.h"
#include "xtile/Dialect/Tile/Transforms/Passes.h"

using namespace mlir;

/// Decompose, normalize, one kernel per op, fuse, compute 16-bit floats in
/// f32, write in place, split lone flat loops into rows, dedupe.
template <typename Options>
static void addLoopStages(OpPassManager &pm,
                          const xtile::LoopStageOptions<Options> &options) {
  pm.addPass(xtile::tensor::createXTensorDecompose());
  xtile::tensor::XTensorNormalizeOptions normalize;
  normalize.fastMath = options.fastMath;
  pm.addPass(xtile::tensor::createXTensorNormalize(normalize));
  pm.addPass(xtile::createConvertXTensorToXLoop());
  xtile::loop::XLoopFuseOptions fuse;
  fuse.flopsPerByte = options.flopsPerByte;
  fuse.onlineSoftmax = options.onlineSoftmax;
  fuse.horizontal = options.horizontal;
  pm.addPass(xtile::loop::createXLoopFuse(fuse));
  pm.addPass(xtile::loop::createXLoopComputeF32());
  if (options.writeInPlace)
    pm.addPass(xtile::loop::createXLoopWriteInPlace());
  pm.addPass(xtile::loop::createXLoopSplitFlat());
  pm.addPass(xtile::loop::createXLoopDedupe());
}

void xtile::buildLowerToLoopPipeline(OpPassManager &pm,
                                     const LowerToLoopOptions &options) {
  addLoopStages(pm, options);
}

template <typename Options>
static void addTileStages(OpPassManager &pm,
                          const xtile::TileStageOptions<Options> &options) {
  addLoopStages(pm, options);
  if (!options.scheduleSpec.empty()) {
    xtile::XTileApplyScheduleSpecOptions spec;
    spec.file = options.scheduleSpec;
    spec.target = options.target;
    pm.addPass(xtile::createXTileApplyScheduleSpec(spec));
  }
  xtile::XTileSelectScheduleOptions select;
  select.target = options.target;
  select.report = options.scheduleReport;
  select.force = options.forceSchedule;
  select.fastMath = options.fastMath;
  select.allowTf32 = options.allowTf32;
  select.buckets = options.buckets;
  pm.addPass(xtile::createXTileSelectSchedule(select));
  xtile::ConvertXLoopToXTileOptions tile;
  tile.target = options.target;
  pm.addPass(xtile::createConvertXLoopToXTile(tile));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void xtile::buildLowerToTilePipeline(OpPassManager &pm,
                                     const LowerToTileOptions &options) {
  addTileStages(pm, options);
}

void xtile::buildLowerToKernelPipeline(OpPassManager &pm,
                                       const LowerToKernelOptions &options) {
  addTileStages(pm, options);
  pm.addPass(xtile::tile::createXTilePlanPipelines());
  if (options.testMutate.empty()) {
    pm.addPass(createConvertXTileToXKernel());
  } else {
    // The mutation tests' lowering, a test-only pass (test/lib) that the
    // tools which run those tests register.
    std::string mutated =
        "test-convert-xtile-to-xkernel-mutated{mutation=" + options.testMutate +
        "}";
    if (failed(parsePassPipeline(mutated, pm, llvm::errs())))
      llvm::errs() << "xtile: test-mutate needs the test passes, which "
                      "xtile-opt and xtile-run register\n";
  }
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  xtile::kernel::XKernelExpandMathOptions math;
  math.fastMath = options.fastMath;
  pm.addPass(xtile::kernel::createXKernelExpandMath(math));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void xtile::registerPipelines() {
  PassPipelineRegistration<LowerToLoopOptions>(
      "lower-to-loop",
      "Lower Tensor IR to fused Loop IR (decompose, normalize, convert, "
      "fuse, dedupe)",
      buildLowerToLoopPipeline);
  PassPipelineRegistration<LowerToTileOptions>(
      "lower-to-tile",
      "Lower Tensor IR to Tile IR: --lower-to-loop, then a schedule per "
      "kernel for the target GPU (from a spec, else the cost model) and its "
      "application",
      buildLowerToTilePipeline);
  PassPipelineRegistration<LowerToKernelOptions>(
      "lower-to-kernel",
      "Lower Tensor IR to Kernel IR: --lower-to-tile, then the code of each "
      "thread and the host program of launches",
      buildLowerToKernelPipeline);
}
