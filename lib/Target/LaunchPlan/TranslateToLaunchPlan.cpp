//===- TranslateToLaunchPlan.cpp - Kernel IR programs as JSON -------------===//

#include "xtile/Target/LaunchPlan/LaunchPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "xtile/Dialect/Kernel/IR/KernelDialect.h"
#include "xtile/Dialect/Kernel/IR/KernelOps.h"
#include "xtile/Support/Storage.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
namespace xk = xtile::kernel;

namespace {

std::string typeString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

llvm::json::Object buffer(StringRef role, MemRefType type) {
  llvm::json::Array shape;
  for (int64_t d : type.getShape())
    shape.push_back(d);
  return llvm::json::Object{{"role", role},
                            {"shape", std::move(shape)},
                            {"element", typeString(type.getElementType())},
                            {"bytes", xtile::getNumBytes(type)}};
}

FailureOr<llvm::json::Object> planOf(xk::ProgramOp program) {
  Block &body = program.getBodyBlock();
  DenseMap<Value, int64_t> index;
  llvm::json::Array buffers, steps;
  for (BlockArgument arg : body.getArguments()) {
    index[arg] = buffers.size();
    buffers.push_back(
        buffer(arg.getArgNumber() < program.getNumInputs() ? "input" : "output",
               cast<MemRefType>(arg.getType())));
  }
  for (Operation &op : body) {
    if (auto alloc = dyn_cast<xk::AllocOp>(op)) {
      index[alloc.getResult()] = buffers.size();
      buffers.push_back(buffer("temporary", alloc.getType()));
    } else if (auto copy = dyn_cast<xk::CopyOp>(op)) {
      steps.push_back(llvm::json::Object{
          {"copy", llvm::json::Object{{"from", index.lookup(copy.getSource())},
                                      {"to", index.lookup(copy.getTarget())}}},
          {"bytes", xtile::getNumBytes(copy.getSource().getType())}});
    } else if (auto launch = dyn_cast<xk::LaunchOp>(op)) {
      llvm::json::Array args;
      for (Value b : launch.getBuffers())
        args.push_back(index.lookup(b));
      steps.push_back(llvm::json::Object{
          {"launch", launch.getKernel()},
          {"grid", llvm::json::Array(launch.getGrid())},
          {"block", llvm::json::Array(launch.getBlock())},
          {"shared", static_cast<int64_t>(launch.getShared())},
          {"args", std::move(args)}});
    } else {
      return op.emitError("cannot write '")
             << op.getName() << "' into a launch plan";
    }
  }
  return llvm::json::Object{{"name", program.getSymName()},
                            {"inputs", static_cast<int64_t>(
                                           program.getNumInputs())},
                            {"buffers", std::move(buffers)},
                            {"steps", std::move(steps)}};
}

} // namespace

LogicalResult xtile::translateToLaunchPlan(Operation *module,
                                           raw_ostream &os) {
  llvm::json::Array programs;
  for (Region &region : module->getRegions())
    for (Block &block : region)
      for (Operation &op : block) {
        if (auto program = dyn_cast<xk::ProgramOp>(op)) {
          FailureOr<llvm::json::Object> plan = planOf(program);
          if (failed(plan))
            return failure();
          programs.push_back(std::move(*plan));
        } else if (!isa<xk::FuncOp>(op)) {
          return op.emitError("cannot write '")
                 << op.getName()
                 << "' into a launch plan: expected Kernel IR (xkernel.func, "
                    "xkernel.program); run --lower-to-kernel first";
        }
      }
  os << llvm::formatv(
      "{0:2}\n", llvm::json::Value(llvm::json::Object{
                     {"programs", std::move(programs)}}));
  return success();
}

void xtile::registerToLaunchPlanTranslation() {
  TranslateFromMLIRRegistration registration(
      "mlir-to-launch-plan",
      "Write each Kernel IR program's buffers and launches as JSON, for a "
      "host that runs the PTX through the CUDA driver API",
      [](Operation *op, raw_ostream &os) {
        return translateToLaunchPlan(op, os);
      },
      [](DialectRegistry &registry) {
        registry.insert<xk::XKernelDialect, func::FuncDialect, arith::ArithDialect,
                        math::MathDialect, scf::SCFDialect,
                        vector::VectorDialect>();
      });
}
