//===- Pipelines.h - xtile's lowering pipelines -----------------*- C++ -*-===//

#ifndef XTILE_PIPELINES_PIPELINES_H
#define XTILE_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace xtile {

struct LowerToLoopOptions
    : public mlir::PassPipelineOptions<LowerToLoopOptions> {
  Option<bool> fastMath{*this, "fast-math",
                        llvm::cl::desc("Allow normalization rewrites that may "
                                       "change floating-point results"),
                        llvm::cl::init(false)};
  Option<double> flopsPerByte{
      *this, "flops-per-byte",
      llvm::cl::desc("Work fusion may add per byte of traffic it removes"),
      llvm::cl::init(4.0)};
};

/// Tensor IR to fused Loop IR: decompose, normalize, one kernel per op,
/// fuse, dedupe.
void buildLowerToLoopPipeline(mlir::OpPassManager &pm,
                              const LowerToLoopOptions &options);

/// Registers `--lower-to-loop` (and the later levels' pipelines as they
/// come).
void registerPipelines();

} // namespace xtile

#endif // XTILE_PIPELINES_PIPELINES_H
