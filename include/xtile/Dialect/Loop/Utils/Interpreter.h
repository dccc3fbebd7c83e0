//===- Interpreter.h - reference execution of Loop IR -----------*- C++ -*-===//
//
// Runs functions that launch Loop IR kernels, in double precision (integers
// exact up to 2^53), one iteration at a time. Slow and simple on purpose:
// it is the check that fusion preserves what a program computes.
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_DIALECT_LOOP_UTILS_INTERPRETER_H
#define XTILE_DIALECT_LOOP_UTILS_INTERPRETER_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <vector>

namespace xtile::loop {

/// A dense row-major tensor of doubles.
struct HostTensor {
  std::vector<int64_t> shape;
  std::vector<double> data;
};

/// Runs `func` (whose body launches xloop kernels of `module`) on `inputs`.
/// Fails with a located error on an op it cannot execute.
llvm::FailureOr<std::vector<HostTensor>>
interpret(mlir::ModuleOp module, mlir::func::FuncOp func,
          const std::vector<HostTensor> &inputs);

} // namespace xtile::loop

#endif // XTILE_DIALECT_LOOP_UTILS_INTERPRETER_H
