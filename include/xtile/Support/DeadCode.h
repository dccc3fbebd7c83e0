//===- DeadCode.h - erasing what nothing uses -------------------*- C++ -*-===//

#ifndef XTILE_SUPPORT_DEADCODE_H
#define XTILE_SUPPORT_DEADCODE_H

namespace mlir {
class Operation;
class RewriterBase;
} // namespace mlir

namespace xtile {

/// Erases the ops nested in `root` that nothing uses and that have no
/// effects, until none is left (what a conversion's replaced ops leave:
/// shapes, constants, undefined tensors).
void eraseDeadOps(mlir::Operation *root, mlir::RewriterBase &rewriter);

} // namespace xtile

#endif // XTILE_SUPPORT_DEADCODE_H
