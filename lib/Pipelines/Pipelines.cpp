//===- Pipelines.cpp - xtile's lowering pipelines -------------------------===//

#include "xtile/Pipelines/Pipelines.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
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

void xtile::registerPipelines() {
  PassPipelineRegistration<LowerToLoopOptions>(
      "lower-to-loop",
      "Lower Tensor IR to fused Loop IR (decompose, normalize, convert, "
      "fuse, dedupe)",
      buildLowerToLoopPipeline);
}
