//===- OpLowering.h - Per-family lowerings of Tile IR ops -------*- C++ -*-===//
//
// The Tile-to-Kernel lowering visits a Tile IR kernel's ops in order; the
// ops with a lowering of their own (dots, folds, stores, scalar loads) go
// through the first matching entry of a set of per-family lowerings, each
// in its family's file with a populate function that adds it when the
// target (TargetInfo) has what it needs: dots on FMA (FmaDot.cpp),
// mma.sync (MmaSyncDot.cpp) and wgmma (WgmmaDot.cpp), folds (Folds.cpp),
// memory (Memory.cpp). Elementwise ops, loops and index arithmetic are
// lowered by the lowering's own value machinery. Private to
// lib/Conversion/TileToKernel.
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_LIB_CONVERSION_TILETOKERNEL_OPLOWERING_H
#define XTILE_LIB_CONVERSION_TILETOKERNEL_OPLOWERING_H

#include "TargetInfo.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringMap.h"
#include <memory>

namespace xtile::tiletokernel {

class KernelLowering;

/// The lowering of one family of ops rooted at `rootName`.
class OpLowering {
public:
  OpLowering(llvm::StringRef rootName, unsigned benefit = 1)
      : rootName(rootName), benefit(benefit) {}
  virtual ~OpLowering();

  llvm::StringRef getRootName() const { return rootName; }
  unsigned getBenefit() const { return benefit; }

  /// Whether this lowering applies to `op` in `lowering`'s kernel (its
  /// schedule, its layouts).
  virtual bool matches(mlir::Operation *op,
                       const KernelLowering &lowering) const {
    return true;
  }
  /// Emits `op`'s Kernel IR; a located error where it cannot.
  virtual mlir::LogicalResult lower(mlir::Operation *op,
                                    KernelLowering &lowering) const = 0;

private:
  llvm::StringRef rootName;
  unsigned benefit;
};

/// An OpLowering of `OpTy`, with typed hooks.
template <typename OpTy> class OpLoweringOf : public OpLowering {
public:
  explicit OpLoweringOf(unsigned benefit = 1)
      : OpLowering(OpTy::getOperationName(), benefit) {}
  bool matches(mlir::Operation *op,
               const KernelLowering &lowering) const final {
    return matches(llvm::cast<OpTy>(op), lowering);
  }
  mlir::LogicalResult lower(mlir::Operation *op,
                            KernelLowering &lowering) const final {
    return lower(llvm::cast<OpTy>(op), lowering);
  }
  virtual bool matches(OpTy op, const KernelLowering &lowering) const {
    return true;
  }
  virtual mlir::LogicalResult lower(OpTy op,
                                    KernelLowering &lowering) const = 0;
};

/// Dots whose schedule runs them on `instruction`, lowered by the
/// lowering's `lowerDot` for it.
class DotLowering : public OpLoweringOf<tile::DotOp> {
public:
  using LowerFn = mlir::LogicalResult (KernelLowering::*)(tile::DotOp);
  DotLowering(tile::DotInstruction instruction, LowerFn lowerDot)
      : instruction(instruction), lowerDot(lowerDot) {}
  bool matches(tile::DotOp op, const KernelLowering &lowering) const override;
  mlir::LogicalResult lower(tile::DotOp op,
                            KernelLowering &lowering) const override;

private:
  tile::DotInstruction instruction;
  LowerFn lowerDot;
};

/// The lowerings of a kernel, by root op, highest benefit first.
class OpLoweringSet {
public:
  template <typename T, typename... Args> void add(Args &&...args) {
    auto lowering = std::make_unique<T>(std::forward<Args>(args)...);
    auto &list = byRoot[lowering->getRootName()];
    auto at = llvm::find_if(list, [&](const std::unique_ptr<OpLowering> &l) {
      return l->getBenefit() < lowering->getBenefit();
    });
    list.insert(at, std::move(lowering));
  }
  /// The lowerings of ops named `name` (none: the op is lowered by the
  /// lowering's value machinery).
  llvm::ArrayRef<std::unique_ptr<OpLowering>>
  lookup(llvm::StringRef name) const {
    auto it = byRoot.find(name);
    if (it == byRoot.end())
      return {};
    return it->second;
  }

private:
  llvm::StringMap<llvm::SmallVector<std::unique_ptr<OpLowering>, 2>> byRoot;
};

void populateFmaDotLowerings(OpLoweringSet &set, const TargetInfo &target);
void populateMmaSyncDotLowerings(OpLoweringSet &set, const TargetInfo &target);
void populateWgmmaDotLowerings(OpLoweringSet &set, const TargetInfo &target);
void populateFoldLowerings(OpLoweringSet &set, const TargetInfo &target);
void populateMemoryLowerings(OpLoweringSet &set, const TargetInfo &target);

} // namespace xtile::tiletokernel

#endif // XTILE_LIB_CONVERSION_TILETOKERNEL_OPLOWERING_H
