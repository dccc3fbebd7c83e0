//===- LoopToTile.h - Loop IR to Tile IR ------------------------*- C++ -*-===//

#ifndef XTILE_CONVERSION_LOOPTOTILE_LOOPTOTILE_H
#define XTILE_CONVERSION_LOOPTOTILE_LOOPTOTILE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "xtile/Dialect/Loop/IR/LoopOps.h"
#include "xtile/Dialect/Tile/IR/TileOps.h"

namespace xtile {

#define GEN_PASS_DECL_CONVERTXLOOPTOXTILE
#define GEN_PASS_DECL_XTILESELECTSCHEDULE
#define GEN_PASS_DECL_XTILELISTSCHEDULES
#define GEN_PASS_DECL_XTILEAPPLYSCHEDULESPEC
#include "xtile/Conversion/Passes.h.inc"

/// The schedule set on `kernel` (`xtile.schedule`), or null.
tile::ScheduleAttrInterface getKernelSchedule(loop::KernelOp kernel);
/// Sets `kernel`'s schedule.
void setKernelSchedule(loop::KernelOp kernel,
                       tile::ScheduleAttrInterface schedule);
/// The kernel's identity (`xloop.identity`, set by --xloop-dedupe), computed
/// when absent.
std::string getKernelIdentity(loop::KernelOp kernel);

/// The built-in target `arch` names; an error on `module` when there is
/// none.
tile::TargetAttr lookupTarget(mlir::ModuleOp module, llvm::StringRef arch);

} // namespace xtile

#endif // XTILE_CONVERSION_LOOPTOTILE_LOOPTOTILE_H
