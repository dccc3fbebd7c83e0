//===- Passes.h - xloop passes ----------------------------------*- C++ -*-===//

#ifndef XTILE_DIALECT_LOOP_TRANSFORMS_PASSES_H
#define XTILE_DIALECT_LOOP_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "xtile/Dialect/Loop/IR/LoopOps.h"
#include "xtile/Support/Storage.h"

namespace xtile::loop {

#define GEN_PASS_DECL
#include "xtile/Dialect/Loop/Transforms/Passes.h.inc"

using ::xtile::getNumBytes;

/// The structural hash of a kernel: independent of its name, SSA names and
/// locations, stable across runs.
uint64_t computeKernelIdentity(KernelOp kernel);

/// Simplifies the affine index arithmetic under `root` with the bounds of
/// the loops whose indices it uses (IndexBounds.cpp); returns whether it
/// changed anything.
bool simplifyIndexArithmetic(mlir::Operation *root);

/// Rewrites the sums of `kernel` whose terms carry exp(x - max(x)) as
/// online folds (OnlineFold.cpp); returns whether it changed anything.
bool formOnlineFolds(KernelOp kernel);

#define GEN_PASS_REGISTRATION
#include "xtile/Dialect/Loop/Transforms/Passes.h.inc"

} // namespace xtile::loop

#endif // XTILE_DIALECT_LOOP_TRANSFORMS_PASSES_H
