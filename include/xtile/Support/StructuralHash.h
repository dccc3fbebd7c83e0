//===- StructuralHash.h - run-stable structural hashing ---------*- C++ -*-===//
//
// Hashes of IR that depend only on structure: op names, attributes, types,
// block-argument positions and operands (as a multiset for commutative
// ops). SSA names, locations and pointers never enter, so two separately
// parsed copies of a program hash the same in every run. Tensor IR
// normalization orders commutative operands by it; Loop IR kernel identity
// is built on it.
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_SUPPORT_STRUCTURALHASH_H
#define XTILE_SUPPORT_STRUCTURALHASH_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"

namespace xtile {

class StructuralHasher {
public:
  /// The hash of a value already visited (its defining op or block);
  /// otherwise a hash of its type alone.
  uint64_t hash(mlir::Value value);
  /// Hashes the arguments of `block`.
  void visitBlock(mlir::Block &block);
  /// Hashes `op` and its results; its operands must have been visited.
  /// Returns the op's hash (the results' hashes derive from it).
  uint64_t visitOp(mlir::Operation *op);

  /// A hash of everything nested in `root` (not `root` itself): every
  /// block and op in pre-order, so nesting and op order count.
  uint64_t hashRegions(mlir::Operation *root);

  static uint64_t combine(uint64_t a, uint64_t b);

private:
  uint64_t hashType(mlir::Type type);
  uint64_t hashAttr(mlir::Attribute attr);

  llvm::DenseMap<mlir::Value, uint64_t> hashes;
  llvm::DenseMap<mlir::Type, uint64_t> typeHashes;
  llvm::DenseMap<mlir::Attribute, uint64_t> attrHashes;
};

/// Orders the operands of every commutative op nested in `root`: constants
/// last, then the deeper expression first (depth: the longest path from a
/// block argument), then by structural hash. Returns true on change.
bool sortCommutativeOperands(mlir::Operation *root);

} // namespace xtile

#endif // XTILE_SUPPORT_STRUCTURALHASH_H
