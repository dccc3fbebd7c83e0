//===- TileToKernel.h - Tile IR to Kernel IR --------------------*- C++ -*-===//

#ifndef XTILE_CONVERSION_TILETOKERNEL_TILETOKERNEL_H
#define XTILE_CONVERSION_TILETOKERNEL_TILETOKERNEL_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"
#include "mlir/Pass/Pass.h"
#include "xtile/Dialect/Kernel/IR/KernelOps.h"
#include "xtile/Dialect/Tile/IR/TileOps.h"

namespace xtile {

#define GEN_PASS_DECL_CONVERTXTILETOXKERNEL
#include "xtile/Conversion/Passes.h.inc"

/// Choices of the lowering that mutation tests override to break it on
/// purpose, showing that the emulation catches a wrong layout or order
/// (test/lib/TileToKernel registers the overrides as a test pass). The
/// defaults are the correct lowering; production passes use nothing else.
class LoweringOverrides {
public:
  virtual ~LoweringOverrides();
  /// mma.sync: whether a B fragment's two registers trade places.
  virtual bool swapBFragmentRegisters() const { return false; }
  /// Whether operand tiles are written to shared memory swizzled (they
  /// are always read swizzled).
  virtual bool swizzleStagedWrites() const { return true; }
  /// The swizzle (bytes) of the TMA tensor map of a box read with
  /// `swizzle`.
  virtual int64_t tensorMapSwizzle(int64_t swizzle) const { return swizzle; }
  /// The panel stride (bytes) of wgmma's descriptor of an N-major B whose
  /// panels are `stride` apart.
  virtual int64_t wgmmaPanelStride(int64_t stride) const { return stride; }
  /// How many iterations ahead a pipelined loop of `stages` copies; with
  /// `overlap` a wgmma group stays in flight, reading the stage before.
  virtual int64_t copiesAhead(int64_t stages, bool overlap) const {
    return overlap ? stages - 2 : stages - 1;
  }
  /// Whether wgmma's tf32 operands are rounded in shared memory.
  virtual bool roundTf32InShared() const { return true; }
  /// Whether a TMA wait is for the phase its copies complete (else the
  /// other parity, which does not wait).
  virtual bool waitForCopiesPhase() const { return true; }
  /// Whether a warp-specialized producer waits for the consumers to
  /// release a stage before copying into it.
  virtual bool producerWaitsForRelease() const { return true; }
};

/// Lowers one Tile IR kernel to a Kernel IR kernel inserted before it (the
/// Tile IR kernel is left in place). Emits a located error and fails for
/// anything it cannot lower.
llvm::FailureOr<kernel::FuncOp> lowerTileKernel(tile::KernelOp kernel);
llvm::FailureOr<kernel::FuncOp>
lowerTileKernel(tile::KernelOp kernel, const LoweringOverrides &overrides);

/// What --convert-xtile-to-xkernel does to `module`: every Tile IR kernel
/// lowered (with `overrides`), every function of launches lowered to a
/// program, the Tile IR and the functions erased.
llvm::LogicalResult lowerTileModule(mlir::ModuleOp module,
                                    const LoweringOverrides &overrides);

/// A lowered kernel and the grid of programs it runs as: `grid`, or for a
/// kernel over dynamic sizes `gridMap` of them (`grid` at their maxima).
struct LoweredKernel {
  kernel::FuncOp func;
  llvm::SmallVector<int64_t, 3> grid;
  mlir::AffineMap gridMap;
  /// The ranges of its sizes, (min, max) each, in order.
  llvm::SmallVector<std::pair<int64_t, int64_t>> sizeRanges;
  /// A bucket split over two kernels: the first, which makes the partials
  /// this one takes after the launch's inputs (`partials_from`); empty
  /// otherwise.
  std::string partialsFrom;
  /// The buffers of those partials (the first kernel's outputs).
  llvm::SmallVector<mlir::MemRefType> partialTypes;
};

/// Lowers a function of launches (the host side after Tile IR) to an
/// `xkernel.program` inserted before it; `kernels` maps a launched kernel's
/// name to its lowered form.
llvm::FailureOr<kernel::ProgramOp>
lowerHostFunction(mlir::Operation *func,
                  const llvm::StringMap<LoweredKernel> &kernels);

} // namespace xtile

#endif // XTILE_CONVERSION_TILETOKERNEL_TILETOKERNEL_H
