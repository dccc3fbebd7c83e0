//===- xtile-loop-check.cpp - fusion preserves results --------------------===//
//
// Lowers a Tensor IR module twice, one op per kernel and through
// --lower-to-loop (fused, deduplicated), runs both with the Loop IR
// interpreter on the same seeded random inputs, and compares every output.
// Exits 1 when they differ, or when anything fails to lower or run.
//
// A module with dynamic sizes is lowered both ways once, its sizes
// dynamic, and checked at each binding of --dims, also against the module
// specialized to that binding and fused.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "xtile/Conversion/Passes.h"
#include "xtile/Dialect/Loop/Utils/Interpreter.h"
#include "xtile/Dialect/Tensor/IR/TensorOps.h"
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

static llvm::cl::list<std::string>
    dims("dims",
         llvm::cl::desc("A binding of the dynamic sizes (T=7 or T=7,S=3); "
                        "repeat for several"));

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

  bool dynamic = false;
  module->walk([&](func::FuncOp func) {
    dynamic |= func->hasAttr(tensor::kSymbolsAttrName);
  });
  if (dynamic && dims.empty()) {
    llvm::errs() << "xtile-loop-check: the module has dynamic sizes: give "
                    "bindings to check it at (--dims T=7)\n";
    return 1;
  }
  if (!dynamic && !dims.empty()) {
    llvm::errs() << "xtile-loop-check: --dims given, but the module has no "
                    "dynamic sizes\n";
    return 1;
  }
  auto plainPipeline = [&](PassManager &pm) {
    pm.addPass(tensor::createXTensorDecompose());
    pm.addPass(tensor::createXTensorNormalize());
    pm.addPass(createConvertXTensorToXLoop());
  };
  LowerToLoopOptions options;
  options.flopsPerByte = flopsPerByte;
  options.onlineSoftmax = onlineSoftmax;

  // The module lowered once one op per kernel and once fused (with its
  // sizes dynamic, if it has some); at each binding, also the module
  // specialized to it and fused.
  OwningOpRef<ModuleOp> unfused = module->clone();
  OwningOpRef<ModuleOp> fused = module->clone();
  PassManager plain(&context), full(&context);
  plainPipeline(plain);
  buildLowerToLoopPipeline(full, options);
  if (failed(plain.run(*unfused)) || failed(full.run(*fused)))
    return 1;
  std::vector<std::string> bindings(dims.begin(), dims.end());
  if (bindings.empty())
    bindings.push_back("");

  auto launches = [](func::FuncOp f) {
    int n = 0;
    f.walk([&](loop::LaunchOp) { ++n; });
    return n;
  };
  auto difference = [](const std::vector<loop::HostTensor> &a,
                       const std::vector<loop::HostTensor> &b) {
    double worst = 0;
    for (auto [x, y] : llvm::zip(a, b))
      for (auto [u, v] : llvm::zip(x.data, y.data)) {
        double diff = (std::isnan(u) && std::isnan(v)) ? 0 : std::fabs(u - v);
        if (std::isnan(diff))
          diff = INFINITY;
        worst = std::max(worst, diff / std::max(1.0, std::fabs(u)));
      }
    return worst;
  };
  bool ok = true;
  for (const std::string &binding : bindings) {
    OwningOpRef<ModuleOp> specialized;
    if (!binding.empty()) {
      specialized = module->clone();
      PassManager pm(&context);
      tensor::XTensorSpecializeDimsOptions bind;
      SmallVector<StringRef> entries;
      StringRef(binding).split(entries, ',');
      for (StringRef entry : entries)
        bind.sizes.push_back(entry.str());
      pm.addPass(tensor::createXTensorSpecializeDims(bind));
      buildLowerToLoopPipeline(pm, options);
      if (failed(pm.run(*specialized)))
        return 1;
    }
    for (auto func : unfused->getOps<func::FuncOp>()) {
      auto other = fused->lookupSymbol<func::FuncOp>(func.getSymName());
      auto bound = specialized
                       ? specialized->lookupSymbol<func::FuncOp>(
                             func.getSymName())
                       : func::FuncOp();
      std::mt19937 rng(seed);
      std::vector<loop::HostTensor> inputs;
      // Inputs of the bound (static) types, which the dynamic modules take.
      for (Type t : (bound ? bound : func).getArgumentTypes())
        inputs.push_back(randomTensor(t, rng));
      auto a = loop::interpret(*unfused, func, inputs);
      auto b = loop::interpret(*fused, other, inputs);
      if (failed(a) || failed(b))
        return 1;
      double worst = difference(*a, *b);
      if (bound) {
        auto c = loop::interpret(*specialized, bound, inputs);
        if (failed(c))
          return 1;
        worst = std::max(worst, difference(*a, *c));
      }
      bool same = worst <= 1e-12;
      ok &= same;
      llvm::outs() << "func @" << func.getSymName()
                   << (binding.empty() ? "" : " at " + binding) << ": "
                   << launches(func) << " unfused launches, "
                   << launches(other) << " fused";
      if (bound)
        llvm::outs() << " (" << launches(bound) << " when specialized)";
      llvm::outs() << ", max relative difference " << worst
                   << (same ? " (same)" : " (MISMATCH)") << "\n";
    }
  }
  return ok ? 0 : 1;
}
