//===- Report.cpp - kernel identity and memory traffic --------------------===//

#include "xtile/Dialect/Loop/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/ToolOutputFile.h"

namespace xtile::loop {
#define GEN_PASS_DEF_XLOOPREPORT
#include "xtile/Dialect/Loop/Transforms/Passes.h.inc"
} // namespace xtile::loop

using namespace mlir;
using namespace xtile::loop;

namespace {
struct Traffic {
  int64_t reads = 0, writes = 0;
};

/// Each buffer a kernel touches, counted once and in full.
static Traffic kernelTraffic(KernelOp kernel) {
  Traffic t;
  for (BlockArgument in : kernel.getInputs())
    t.reads += getNumBytes(in.getType());
  for (BlockArgument out : kernel.getOutputs())
    t.writes += getNumBytes(out.getType());
  return t;
}

struct XLoopReportPass : xtile::loop::impl::XLoopReportBase<XLoopReportPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(xtile::loop::checkStaticKernels(getOperation(), "--xloop-report")))
      return signalPassFailure();
    ModuleOp module = getOperation();
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(output, &error);
    if (!file) {
      module.emitError() << "cannot open report file: " << error;
      return signalPassFailure();
    }
    llvm::raw_ostream &os = file->os();
    SymbolTable symbols(module);
    for (KernelOp kernel : module.getOps<KernelOp>()) {
      Traffic t = kernelTraffic(kernel);
      os << "kernel @" << kernel.getSymName() << " identity "
         << llvm::format_hex(computeKernelIdentity(kernel), 18) << " reads "
         << t.reads << " B writes " << t.writes << " B\n";
    }
    for (auto func : module.getOps<func::FuncOp>()) {
      int64_t launches = 0, moved = 0, ideal = 0;
      func.walk([&](LaunchOp launch) {
        auto kernel = symbols.lookup<KernelOp>(launch.getKernel());
        if (!kernel)
          return;
        Traffic t = kernelTraffic(kernel);
        moved += t.reads + t.writes;
        ++launches;
      });
      for (BlockArgument arg : func.getArguments())
        if (isa<ShapedType>(arg.getType()) && !arg.use_empty())
          ideal += getNumBytes(arg.getType());
      for (Type result : func.getResultTypes())
        if (isa<ShapedType>(result))
          ideal += getNumBytes(result);
      os << "func @" << func.getName() << ": " << launches
         << (launches == 1 ? " launch, " : " launches, ") << moved
         << " B moved, ideal " << ideal << " B ("
         << llvm::format("%.2f", ideal ? double(moved) / ideal : 0.0) << "x)\n";
    }
    file->keep();
    markAllAnalysesPreserved();
  }
};
} // namespace
