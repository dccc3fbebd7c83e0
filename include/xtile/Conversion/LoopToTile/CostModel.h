//===- CostModel.h - estimated time of a schedule ---------------*- C++ -*-===//
//
// The interface between the schedule selection and what prices a
// schedule: `estimate(facts, schedule, target)`. The analytic model is the
// first implementation; a measured or learned one plugs in beside it.
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_CONVERSION_LOOPTOTILE_COSTMODEL_H
#define XTILE_CONVERSION_LOOPTOTILE_COSTMODEL_H

#include "xtile/Conversion/LoopToTile/KernelFacts.h"
#include <memory>
#include <string>

namespace xtile {

struct Estimate {
  double micros = 0;
  /// Its device-memory time and the time to issue its arithmetic (or, for
  /// contractions, its FMA time); `micros` counts the larger.
  double memoryMicros = 0, computeMicros = 0;
  /// What dominates, in words, for reports.
  std::string why;
};

class CostModel {
public:
  virtual ~CostModel();
  virtual llvm::StringRef getName() const = 0;
  /// The estimated time of `facts`' kernel under `schedule` on `target`.
  virtual Estimate estimate(const KernelFacts &facts,
                            tile::ScheduleAttrInterface schedule,
                            tile::TargetAttr target) const = 0;
};

/// Device-memory bytes over bandwidth scaled by the bytes the grid keeps in
/// flight, waves of programs over the SMs, reduction steps and launch cost
/// for row kernels; the slower of FMA work and operand traffic through L2
/// for contractions. Every hardware number is a field of the target.
class AnalyticCostModel : public CostModel {
public:
  llvm::StringRef getName() const override { return "analytic"; }
  Estimate estimate(const KernelFacts &facts,
                    tile::ScheduleAttrInterface schedule,
                    tile::TargetAttr target) const override;
};

/// The cost model called `name` ("analytic"), or null.
std::unique_ptr<CostModel> createCostModel(llvm::StringRef name);

/// Every schedule worth considering for `facts` on `target`, none of which
/// exceeds the target's limits (threads, registers, shared memory); when
/// every candidate would exceed the estimated registers per thread, those
/// that only spill are kept. `allowTf32`: f32 contractions may run on
/// tensor cores with TF32 operands (`tf32 = true`), which changes results.
llvm::SmallVector<tile::ScheduleAttrInterface>
enumerateSchedules(mlir::MLIRContext *ctx, const KernelFacts &facts,
                   tile::TargetAttr target, bool allowTf32 = false);

/// A short name of a schedule for tables: `block:8:4`, `split:8:4:x16`,
/// `dot:64x64x32:3:4`.
std::string scheduleName(tile::ScheduleAttrInterface schedule);

} // namespace xtile

#endif // XTILE_CONVERSION_LOOPTOTILE_COSTMODEL_H
