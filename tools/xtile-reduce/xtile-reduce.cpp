//===- xtile-reduce.cpp - test-case reducer for xtile programs ------------===//
//
// MLIR's reducer (mlir-reduce's driver and its Tester) with xtile's
// dialects and passes: it shrinks a module while an interestingness script
// says the module still shows the behaviour of interest (a crash, an error
// text, an xtile-run mismatch). The script gets the candidate's file and
// exits with 1 when it is still interesting. See docs/Running.md.
//
// `--xtile-reduce-ops` is the reduction for Tensor IR programs: one op at a
// time, from the last, it tries replacing the op by an operand of its
// result's type, then by a zero constant of that type; it deletes what
// becomes dead and keeps the candidate if it is still interesting, until
// no op can go. Upstream's `--opt-reduction-pass` (e.g. with symbol-dce or
// canonicalize) and `--reduction-tree` also run here.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Reducer/Tester.h"
#include "mlir/Tools/mlir-reduce/MlirReduceMain.h"
#include "mlir/Transforms/Passes.h"
#include "xtile/Dialect/Tensor/IR/TensorOps.h"
#include "xtile/InitAllDialects.h"
#include "xtile/InitAllPasses.h"
#include "xtile/Support/DeadCode.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"

using namespace mlir;
namespace xten = xtile::tensor;

namespace {

/// The ops the reduction may replace: Tensor IR ops with one ranked tensor
/// result (constants are already as simple as it gets).
SmallVector<Operation *> candidates(ModuleOp module) {
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    if (isa<xten::XTensorDialect>(op->getDialect()) &&
        op->getNumResults() == 1 && !isa<xten::ConstantOp>(op) &&
        isa<RankedTensorType>(op->getResult(0).getType()))
      ops.push_back(op);
  });
  return ops;
}

/// A zero constant of `type`, or null for element types without one.
Value zeroOf(OpBuilder &b, Location loc, RankedTensorType type) {
  Type element = type.getElementType();
  TypedAttr zero;
  if (isa<FloatType>(element))
    zero = b.getFloatAttr(element, 0.0);
  else if (isa<IntegerType, IndexType>(element))
    zero = b.getIntegerAttr(element, 0);
  else
    return nullptr;
  return xten::ConstantOp::create(b, loc, DenseElementsAttr::get(type, zero));
}

struct ReduceOpsPass
    : PassWrapper<ReduceOpsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ReduceOpsPass)
  ReduceOpsPass() = default;
  ReduceOpsPass(const ReduceOpsPass &other) : PassWrapper(other) {}

  StringRef getArgument() const override { return "xtile-reduce-ops"; }
  StringRef getDescription() const override {
    return "Replace Tensor IR ops by an operand or a zero constant, one at a "
           "time, while the test script finds the module interesting";
  }

  Option<std::string> test{*this, "test",
                           llvm::cl::desc("The interestingness script")};
  ListOption<std::string> testArgs{
      *this, "test-arg", llvm::cl::desc("Arguments of the script")};

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (test.empty()) {
      module.emitError("--xtile-reduce-ops needs test=<script>");
      return signalPassFailure();
    }
    // The script by path, or found on PATH.
    std::string script = test;
    if (!llvm::sys::fs::exists(script)) {
      llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName(test);
      if (!found) {
        module.emitError("cannot find the test script '") << test << "'";
        return signalPassFailure();
      }
      script = *found;
    }
    Tester tester(script, testArgs);
    if (tester.isInteresting(module).first != Tester::Interestingness::True) {
      module.emitError("the input is not interesting to '")
          << test << "' (it must exit with 1 on the input)";
      return signalPassFailure();
    }
    // Each accepted step removes at least the op it replaced: it ends.
    bool reduced = true;
    while (reduced) {
      reduced = false;
      int64_t count = candidates(module).size();
      for (int64_t i = count - 1; i >= 0 && !reduced; --i) {
        int64_t ways = candidates(module)[i]->getNumOperands() + 1;
        for (int64_t way = 0; way < ways && !reduced; ++way) {
          OwningOpRef<ModuleOp> copy = module.clone();
          Operation *op = candidates(*copy)[i];
          Value result = op->getResult(0), by;
          if (way + 1 < ways) {
            by = op->getOperand(way);
            if (by.getType() != result.getType())
              continue;
          } else {
            OpBuilder b(op);
            by = zeroOf(b, op->getLoc(),
                        cast<RankedTensorType>(result.getType()));
            if (!by)
              continue;
          }
          result.replaceAllUsesWith(by);
          op->erase();
          IRRewriter rewriter(copy->getContext());
          xtile::eraseDeadOps(*copy, rewriter);
          if (tester.isInteresting(*copy).first !=
              Tester::Interestingness::True)
            continue;
          module.getBodyRegion().takeBody(copy->getBodyRegion());
          reduced = true;
        }
      }
    }
  }
};

} // namespace

int main(int argc, char **argv) {
  DialectRegistry registry;
  xtile::registerAllDialects(registry);
  // Passes for --opt-reduction-pass (symbol-dce, canonicalize, cse, and
  // xtile's own) and the Tensor IR reduction.
  xtile::registerAllPasses();
  registerTransformsPasses();
  PassRegistration<ReduceOpsPass>();
  MLIRContext context(registry);
  return failed(mlirReduceMain(argc, argv, context));
}
