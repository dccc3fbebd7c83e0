//===- DeadCode.cpp - erasing what nothing uses ---------------------------===//

#include "xtile/Support/DeadCode.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

void xtile::eraseDeadOps(Operation *root, RewriterBase &rewriter) {
  for (bool erased = true; erased;) {
    SmallVector<Operation *> dead;
    root->walk([&](Operation *op) {
      if (op != root && isOpTriviallyDead(op))
        dead.push_back(op);
    });
    for (Operation *op : dead)
      rewriter.eraseOp(op);
    erased = !dead.empty();
  }
}
