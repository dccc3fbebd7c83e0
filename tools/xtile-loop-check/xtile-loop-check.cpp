//===- xtile-loop-check.cpp - fusion preserves results --------------------===//
//
// Lowers a Tensor IR module twice, one op per kernel and through
// --lower-to-loop (fused, deduplicated), runs both with the Loop IR
// interpreter on the same seeded random inputs, and compares every output.
// Exits 1 when they differ, or when anything fails to lower or run.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "xtile/Conversion/Passes.h"
#include "xtile/Dialect/Loop/Utils/Interpreter.h"
#include "xtile/Dialect/Tensor/Transforms/Passes.h"
#include "xtile/InitAllDialects.h"
#include "xtile/Pipelines/Pipelines.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <random>

using namespace mlir;
using namespace xtile;

static llvm::cl::opt<std::string> inputFile(llvm::cl::Positional,
                                            llvm::cl::desc("<Tensor IR file>"),
                                            llvm::cl::init("-"));
static llvm::cl::opt<unsigned> seed("seed", llvm::cl::desc("Random seed"),
                                    llvm::cl::init(1));
static llvm::cl::opt<double>
    flopsPerByte("flops-per-byte",
                 llvm::cl::desc("Fusion's cost parameter (--lower-to-loop)"),
                 llvm::cl::init(4.0));

static llvm::cl::opt<bool>
    onlineSoftmax("online-softmax",
                  llvm::cl::desc("Online folds and softmax fusion "
                                 "(--lower-to-loop)"),
                  llvm::cl::init(true));

static loop::HostTensor randomTensor(Type type, std::mt19937 &rng) {
  auto shaped = cast<ShapedType>(type);
  loop::HostTensor t;
  t.shape.assign(shaped.getShape().begin(), shaped.getShape().end());
  Type element = shaped.getElementType();
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  // Integers stay small so that they are valid gather indices.
  std::uniform_int_distribution<int> small(0, element.isInteger(1) ? 1 : 1);
  for (int64_t i = 0; i < shaped.getNumElements(); ++i)
    t.data.push_back(isa<FloatType>(element) ? real(rng) : small(rng));
  return t;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "xtile-loop-check: fused Loop IR computes what unfused does\n");
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  std::string error;
  auto file = openInputFile(inputFile, &error);
  if (!file) {
    llvm::errs() << "xtile-loop-check: " << error << "\n";
    return 1;
  }
  llvm::SourceMgr sources;
  sources.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sources, &context);
  if (!module)
    return 1;

  OwningOpRef<ModuleOp> unfused = module->clone();
  OwningOpRef<ModuleOp> fused = module->clone();
  PassManager plain(&context);
  plain.addPass(tensor::createXTensorDecompose());
  plain.addPass(tensor::createXTensorNormalize());
  plain.addPass(createConvertXTensorToXLoop());
  PassManager full(&context);
  LowerToLoopOptions options;
  options.flopsPerByte = flopsPerByte;
  options.onlineSoftmax = onlineSoftmax;
  buildLowerToLoopPipeline(full, options);
  if (failed(plain.run(*unfused)) || failed(full.run(*fused)))
    return 1;

  bool ok = true;
  for (auto func : unfused->getOps<func::FuncOp>()) {
    auto other = fused->lookupSymbol<func::FuncOp>(func.getSymName());
    std::mt19937 rng(seed);
    std::vector<loop::HostTensor> inputs;
    for (Type t : func.getArgumentTypes())
      inputs.push_back(randomTensor(t, rng));
    auto a = loop::interpret(*unfused, func, inputs);
    auto b = loop::interpret(*fused, other, inputs);
    if (failed(a) || failed(b))
      return 1;
    auto launches = [](func::FuncOp f) {
      int n = 0;
      f.walk([&](loop::LaunchOp) { ++n; });
      return n;
    };
    double worst = 0;
    for (auto [x, y] : llvm::zip(*a, *b))
      for (auto [u, v] : llvm::zip(x.data, y.data)) {
        double diff = (std::isnan(u) && std::isnan(v)) ? 0 : std::fabs(u - v);
        if (std::isnan(diff))
          diff = INFINITY;
        worst = std::max(worst, diff / std::max(1.0, std::fabs(u)));
      }
    bool same = worst <= 1e-12;
    ok &= same;
    llvm::outs() << "func @" << func.getSymName() << ": " << launches(func)
                 << " unfused launches, " << launches(other)
                 << " fused, max relative difference " << worst
                 << (same ? " (same)" : " (MISMATCH)") << "\n";
  }
  return ok ? 0 : 1;
}
