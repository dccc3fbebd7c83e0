//===- TargetInfo.h - What the lowering asks of a GPU ----------*- C++ -*-===//
//
// The target hooks of the lowering, built from a kernel's `#xtile.target`:
// the instructions it has (which family lowerings are added), its shared
// memory and register budget, and how threads meet (barriers) and exchange
// values (shuffles). The lowering asks these questions here
// rather than of magic numbers, as Triton's TargetInfo does. Private to
// lib/Conversion/TileToKernel.
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_LIB_CONVERSION_TILETOKERNEL_TARGETINFO_H
#define XTILE_LIB_CONVERSION_TILETOKERNEL_TARGETINFO_H

#include "xtile/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/Builders.h"

namespace xtile::tiletokernel {

class TargetInfo {
public:
  explicit TargetInfo(tile::TargetAttr target) : target(target) {}

  tile::TargetAttr attr() const { return target; }

  /// Threads per warp.
  static constexpr int64_t kWarpSize = 32;
  /// The most registers `setmaxnreg` gives a thread (PTX ISA 8.0,
  /// setmaxnreg: 24 to 256 in steps of 8; 240 leaves the block's share for
  /// others).
  static constexpr int64_t kMaxSetRegisters = 240;

  /// Tensor-core instructions: mma.sync (sm_80 and later), and wgmma with
  /// TMA copies and setmaxnreg (sm_90a).
  bool hasMmaSync() const { return tile::hasMmaSync(target); }
  bool hasWgmma() const { return tile::hasWgmma(target); }

  /// Bytes of shared memory one block may use.
  int64_t sharedMemory() const { return target.getSharedMemory(); }
  /// 32-bit registers of an SM, and of one thread at most.
  int64_t registersPerSM() const { return target.getRegisters(); }
  int64_t maxRegistersPerThread() const {
    return target.getMaxRegistersPerThread();
  }

  /// The registers each of `consumers` threads takes (setmaxnreg.inc) in a
  /// warp-specialized block whose `producers` threads keep
  /// `producerRegisters` each: what they `need`, rounded up to 8, at most
  /// kMaxSetRegisters and what the block's launch share leaves them.
  int64_t consumerRegisters(int64_t need, int64_t consumers, int64_t producers,
                            int64_t producerRegisters) const;

  /// A barrier of the whole block, or (`namedThreads` > 0) named barrier 1
  /// of that many threads.
  void barrier(mlir::OpBuilder &b, mlir::Location loc,
               int64_t namedThreads = 0) const;

  /// `v` from the lane whose id is this lane's xor `offset`: shuffles move
  /// 32 bits, so narrower scalars are widened (exactly) and wider ones
  /// moved in two halves.
  mlir::Value shuffleXor(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                         int64_t offset) const;

private:
  tile::TargetAttr target;
};

} // namespace xtile::tiletokernel

#endif // XTILE_LIB_CONVERSION_TILETOKERNEL_TARGETINFO_H
