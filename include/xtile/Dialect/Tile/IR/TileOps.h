//===- TileOps.h - xtile operations and attributes --------------*- C++ -*-===//

#ifndef XTILE_DIALECT_TILE_IR_TILEOPS_H
#define XTILE_DIALECT_TILE_IR_TILEOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "xtile/Dialect/Tile/IR/TileDialect.h"

#include "xtile/Dialect/Tile/IR/TileEnums.h.inc"

namespace xtile::tile {
class TargetAttr;

/// What a schedule's resource needs depend on: the kernel's shape.
struct ScheduleShape {
  /// Row kernels: columns of a row (0: no column work).
  int64_t columns = 0;
  /// Row kernels: tiles live at once per thread (about one per load).
  int64_t streams = 1;
  /// Bytes of the widest element of any buffer (row kernels) or of the
  /// dot operands (contractions).
  int64_t elementBytes = 4;
  /// Contractions: dots per step of K (independent accumulators).
  int64_t contractions = 1;
  /// Contractions: accumulator tiles per dot (2 where each block of K is
  /// summed apart and scaled into the total).
  int64_t accumulatorSets = 1;
  /// Contractions: the left operand's tiles are loaded through registers
  /// (rows gathered by a load per row), each thread holding its share of
  /// a K step's tile.
  bool lhsThroughRegisters = false;
  /// Contractions: index values computed once per program and kept through
  /// the K loop (a grouped GEMM's block's group and rows).
  int64_t programScalars = 0;
};

/// What a schedule needs of the target to run a kernel.
struct ScheduleNeeds {
  int64_t threads = 32;            // per block
  int64_t registersPerThread = 32; // estimated
  int64_t sharedMemory = 0;        // bytes per block
};

/// Whether `target` can run a kernel with `needs`; when not and `reason`
/// is given, says which limit is exceeded.
bool fitsTarget(const ScheduleNeeds &needs, TargetAttr target,
                std::string *reason = nullptr);
} // namespace xtile::tile

#include "xtile/Dialect/Tile/IR/TileAttrInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "xtile/Dialect/Tile/IR/TileAttributes.h.inc"

namespace xtile::tile {
/// Whether `target` has the warp-level tensor-core instruction mma.sync
/// (sm_80 and later).
bool hasMmaSync(TargetAttr target);
/// Whether `target` has the warpgroup tensor-core instruction wgmma (sm_90a).
bool hasWgmma(TargetAttr target);
/// Whether `target`'s mma.sync multiplies fp8 (m16n8k32 on e4m3/e5m2:
/// sm_89 and later).
bool hasFp8MmaSync(TargetAttr target);
} // namespace xtile::tile

#define GET_OP_CLASSES
#include "xtile/Dialect/Tile/IR/TileOps.h.inc"

#endif // XTILE_DIALECT_TILE_IR_TILEOPS_H
