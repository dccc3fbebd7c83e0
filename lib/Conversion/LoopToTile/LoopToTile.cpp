//===- LoopToTile.cpp - Loop IR to Tile IR --------------------------------===//
//
// --convert-xloop-to-xtile: applies each kernel's schedule, dispatching to
// the row, split and contraction lowerings. It decides nothing: the
// schedule comes from --xtile-select-schedule, a spec or the input.
//
//===----------------------------------------------------------------------===//

#include "xtile/Support/SymbolicDims.h"
#include "xtile/Conversion/LoopToTile/LoopToTile.h"
#include "Lowering.h"
#include "xtile/Dialect/Loop/Transforms/Passes.h"

#include "llvm/Support/Format.h"

namespace xtile {
#define GEN_PASS_DEF_CONVERTXLOOPTOXTILE
#include "xtile/Conversion/Passes.h.inc"
} // namespace xtile

using namespace mlir;
using namespace xtile;
using namespace xtile::detail;

static auto scheduleHelper(MLIRContext *ctx) {
  return ctx->getOrLoadDialect<xt::XTileDialect>()->getScheduleAttrHelper();
}

xt::ScheduleAttrInterface xtile::getKernelSchedule(xl::KernelOp kernel) {
  return dyn_cast_or_null<xt::ScheduleAttrInterface>(
      scheduleHelper(kernel.getContext()).getAttr(kernel));
}

void xtile::setKernelSchedule(xl::KernelOp kernel,
                              xt::ScheduleAttrInterface schedule) {
  scheduleHelper(kernel.getContext()).setAttr(kernel, schedule);
}

std::string xtile::getKernelIdentity(xl::KernelOp kernel) {
  if (StringAttr identity = kernel.getContext()
                                ->getOrLoadDialect<xl::XLoopDialect>()
                                ->getIdentityAttrHelper()
                                .getAttr(kernel))
    return identity.str();
  std::string s;
  llvm::raw_string_ostream(s)
      << llvm::format_hex(xl::computeKernelIdentity(kernel), 18);
  return s;
}

xt::TargetAttr xtile::lookupTarget(ModuleOp module, StringRef arch) {
  xt::TargetAttr target = xt::TargetAttr::getBuiltin(module.getContext(), arch);
  if (!target)
    module.emitError() << "unknown target '" << arch
                       << "' (expected sm_90, sm_90a or sm_80)";
  return target;
}

namespace {
struct ConvertXLoopToXTilePass
    : xtile::impl::ConvertXLoopToXTileBase<ConvertXLoopToXTilePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    xt::TargetAttr targetAttr = lookupTarget(module, target);
    if (!targetAttr)
      return signalPassFailure();
    for (auto kernel :
         llvm::make_early_inc_range(module.getOps<xl::KernelOp>())) {
      bool mayAlias = kernel->hasAttr(kMayAliasAttrName);
      StringAttr name = kernel.getSymNameAttr();
      if (failed(convert(kernel, targetAttr)))
        return signalPassFailure();
      // (The Tile IR kernel keeps the name.)
      if (mayAlias)
        if (Operation *lowered = SymbolTable::lookupSymbolIn(module, name))
          lowered->setAttr(kMayAliasAttrName, UnitAttr::get(&getContext()));
    }
    // The host side: each launch of a Loop IR kernel becomes the launch of
    // the Tile IR kernel it was lowered to.
    SmallVector<xl::LaunchOp> launches;
    module.walk([&](xl::LaunchOp launch) { launches.push_back(launch); });
    for (xl::LaunchOp launch : launches) {
      OpBuilder b(launch);
      auto lowered = xt::LaunchOp::create(
          b, launch.getLoc(), launch.getResultTypes(), launch.getKernelAttr(),
          launch.getSizesAttr(), launch.getInputs(), launch.getUpdatesAttr(),
          launch.getBucketsAttr());
      launch.replaceAllUsesWith(lowered.getResults());
      launch.erase();
    }
  }

  LogicalResult convert(xl::KernelOp kernel, xt::TargetAttr target) {
    FailureOr<RowNest> nest = analyzeRowNest(kernel);
    if (failed(nest))
      return failure();
    Contraction contraction;
    FailureOr<KernelFacts> facts =
        computeKernelFacts(kernel, *nest, &contraction);
    if (failed(facts))
      return failure();
    xt::ScheduleAttrInterface schedule = getKernelSchedule(kernel);
    if (!schedule)
      return kernel.emitOpError(
          "has no schedule (xtile.schedule): run --xtile-select-schedule or "
          "--xtile-apply-schedule-spec first");
    // The target's hard limits (registers are an estimate: spilling is
    // legal).
    xt::ScheduleNeeds needs = schedule.getNeeds(facts->shape());
    needs.registersPerThread = 0;
    std::string reason;
    if (!xt::fitsTarget(needs, target, &reason))
      return kernel.emitOpError()
             << "schedule " << schedule << " does not fit the target: "
             << reason;
    if (facts->contraction) {
      auto dot = dyn_cast<xt::DotScheduleAttr>(schedule);
      if (!dot)
        return kernel.emitOpError()
               << "is a contraction; it needs a #xtile.dot_schedule, got "
               << schedule;
      if (dot.getWays() > 1 && !facts->dot.attention)
        return kernel.emitOpError()
               << "cannot use the schedule " << dot
               << ": ways > 1 (a split of the key axis) applies to attention "
                  "only";
      if (facts->dot.attention)
        return lowerAttentionKernel(kernel, *nest, contraction, facts->dot,
                                    dot, target);
      return lowerContractionKernel(kernel, *nest, contraction, facts->dot,
                                    dot, target);
    }
    if (auto column = dyn_cast<xt::ColumnScheduleAttr>(schedule)) {
      if (!facts->row.columnKernel)
        return kernel.emitOpError()
               << "cannot use the schedule " << schedule
               << ": a column schedule needs a kernel of folds only whose "
                  "innermost row (of a static length) is the last index of "
                  "every access that depends on it, and no other index";
      if (column.getWays() > 1 && !facts->row.splittable)
        return kernel.emitOpError()
               << "cannot use the schedule " << schedule
               << ": ways > 1 needs folds that do not use each other's "
                  "results, over rows of static lengths";
      return lowerColumnKernel(kernel, *nest, facts->row, column, target);
    }
    auto row = dyn_cast<xt::RowScheduleAttr>(schedule);
    if (!row)
      return kernel.emitOpError()
             << "is a row kernel; it needs a #xtile.row_schedule or "
                "#xtile.column_schedule, got "
             << schedule;
    if (facts->row.dynamicColumns && !row.getChunk())
      return kernel.emitOpError()
             << "cannot use the schedule " << schedule
             << ": a row of a dynamic length needs a loop over chunks of it "
                "(chunk > 0)";
    if (!row.getWays())
      return lowerRowKernel(kernel, *nest, facts->row, row, target);
    if (facts->row.dynamicRows) {
      InFlightDiagnostic diag =
          kernel.emitOpError()
          << "cannot use the schedule " << schedule
          << ": a split (ways > 0) of a dynamic number of rows is not "
             "lowered to Tile IR yet (a row of a dynamic length is)";
      return markDynamicSizeLimit(diag);
    }
    if (!facts->row.splittable)
      return kernel.emitOpError()
             << "cannot use the schedule " << schedule
             << ": split needs folds that do not use each other's results "
                "and at most one elementwise loop";
    return lowerSplitKernel(kernel, *nest, facts->row, row, target);
  }
};
} // namespace
