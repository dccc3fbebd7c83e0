//===- Pipelines.h - xtile's lowering pipelines -----------------*- C++ -*-===//

#ifndef XTILE_PIPELINES_PIPELINES_H
#define XTILE_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace xtile {

/// Options of the stages from Tensor IR to Loop IR, shared by every
/// pipeline that runs them.
template <typename Derived>
struct LoopStageOptions : public mlir::PassPipelineOptions<Derived> {
  mlir::detail::PassOptions::Option<bool> fastMath{
      *this, "fast-math",
      llvm::cl::desc("Allow normalization rewrites that may change "
                     "floating-point results, and (--lower-to-kernel) the "
                     "bare approximate math instructions"),
      llvm::cl::init(false)};
  mlir::detail::PassOptions::Option<double> flopsPerByte{
      *this, "flops-per-byte",
      llvm::cl::desc("Work fusion may add per byte of traffic it removes"),
      llvm::cl::init(4.0)};
  mlir::detail::PassOptions::Option<bool> onlineSoftmax{
      *this, "online-softmax",
      llvm::cl::desc("Sums of exponentials shifted by their maximum as "
                     "online folds, softmax fused into the weighted sum "
                     "that consumes it (--xloop-fuse)"),
      llvm::cl::init(true)};
  mlir::detail::PassOptions::Option<bool> horizontal{
      *this, "horizontal",
      llvm::cl::desc("Elementwise kernels over the same iteration space "
                     "that share no input merged into one (--xloop-fuse)"),
      llvm::cl::init(true)};
  mlir::detail::PassOptions::Option<bool> writeInPlace{
      *this, "write-in-place",
      llvm::cl::desc("Results returned in place of an argument written into "
                     "its buffer, only where they change "
                     "(--xloop-write-in-place)"),
      llvm::cl::init(true)};
};

struct LowerToLoopOptions : public LoopStageOptions<LowerToLoopOptions> {};

/// Options of the stages up to Tile IR.
template <typename Derived>
struct TileStageOptions : public LoopStageOptions<Derived> {
  mlir::detail::PassOptions::Option<std::string> target{
      *this, "target", llvm::cl::desc("GPU to schedule for (sm_90, sm_90a, sm_80)"),
      llvm::cl::init("sm_90")};
  mlir::detail::PassOptions::Option<std::string> scheduleSpec{
      *this, "schedule-spec",
      llvm::cl::desc("Take the schedules of the kernels it names from this "
                     "spec file (--xtile-apply-schedule-spec)"),
      llvm::cl::init("")};
  mlir::detail::PassOptions::Option<std::string> scheduleReport{
      *this, "schedule-report",
      llvm::cl::desc("Write every kernel's candidate schedules, estimates "
                     "and choice as JSON to this file (- for stdout)"),
      llvm::cl::init("")};
  mlir::detail::PassOptions::Option<bool> allowTf32{
      *this, "allow-tf32",
      llvm::cl::desc("Let f32 matmuls run on tensor cores with TF32 "
                     "operands (changes results; "
                     "torch.backends.cuda.matmul.allow_tf32)"),
      llvm::cl::init(false)};
  mlir::detail::PassOptions::Option<std::string> forceSchedule{
      *this, "force-schedule",
      llvm::cl::desc("Use this schedule (attribute syntax) for every kernel "
                     "of its kind (--xtile-select-schedule's force)"),
      llvm::cl::init("")};
  mlir::detail::PassOptions::Option<bool> buckets{
      *this, "buckets",
      llvm::cl::desc("Compile a kernel over a dynamic size under several "
                     "schedules for parts of its range where one costs more "
                     "than 1.1x the best (--xtile-select-schedule's "
                     "buckets)"),
      llvm::cl::init(true)};
};

struct LowerToTileOptions : public TileStageOptions<LowerToTileOptions> {};

struct LowerToKernelOptions : public TileStageOptions<LowerToKernelOptions> {
  mlir::detail::PassOptions::Option<std::string> testMutate{
      *this, "test-mutate",
      llvm::cl::desc("For tests only: lower to Kernel IR with "
                     "--test-convert-xtile-to-xkernel-mutated's mutation "
                     "(break the tensor-core layouts on purpose)"),
      llvm::cl::init("")};
};

/// Tensor IR to fused Loop IR: decompose, normalize, one kernel per op,
/// fuse, dedupe.
void buildLowerToLoopPipeline(mlir::OpPassManager &pm,
                              const LowerToLoopOptions &options);

/// Tensor IR to Tile IR: --lower-to-loop, then a schedule per kernel.
void buildLowerToTilePipeline(mlir::OpPassManager &pm,
                              const LowerToTileOptions &options);

/// Tensor IR to Kernel IR: --lower-to-tile, then threads, shared memory
/// and the host program.
void buildLowerToKernelPipeline(mlir::OpPassManager &pm,
                                const LowerToKernelOptions &options);

/// Registers `--lower-to-loop`, `--lower-to-tile` and `--lower-to-kernel`.
void registerPipelines();

} // namespace xtile

#endif // XTILE_PIPELINES_PIPELINES_H
