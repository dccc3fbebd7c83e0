//===- Pipelines.cpp - xtile's lowering pipelines -------------------------===//

#include "xtile/Pipelines/Pipelines.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "xtile/Conversion/Passes.h"
#include "xtile/Dialect/Loop/Transforms/Passes.h"
#include "xtile/Dialect/Tensor/Transforms/Passes.h"

using namespace mlir;

void xtile::buildLowerToLoopPipeline(OpPassManager &pm,
                                     const LowerToLoopOptions &options) {
  pm.addPass(tensor::createXTensorDecompose());
  tensor::XTensorNormalizeOptions normalize;
  normalize.fastMath = options.fastMath;
  pm.addPass(tensor::createXTensorNormalize(normalize));
  pm.addPass(createConvertXTensorToXLoop());
  loop::XLoopFuseOptions fuse;
  fuse.flopsPerByte = options.flopsPerByte;
  pm.addPass(loop::createXLoopFuse(fuse));
  pm.addPass(loop::createXLoopDedupe());
}

void xtile::buildLowerToTilePipeline(OpPassManager &pm,
                                     const LowerToTileOptions &options) {
  LowerToLoopOptions loop;
  loop.fastMath = options.fastMath;
  loop.flopsPerByte = options.flopsPerByte;
  buildLowerToLoopPipeline(pm, loop);
  ConvertXLoopToXTileOptions tile;
  tile.target = options.target;
  tile.reportSchedules = options.reportSchedules;
  tile.forceSchedule = options.forceSchedule;
  pm.addPass(createConvertXLoopToXTile(tile));
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
      "kernel for the target GPU",
      buildLowerToTilePipeline);
}
