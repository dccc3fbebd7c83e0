//===- SelectSchedule.cpp - choosing each kernel's schedule ---------------===//
//
// --xtile-select-schedule sets the cheapest candidate as the schedule of
// every kernel that has none; --xtile-list-schedules writes every kernel's
// candidates and estimates for a tuner and, with `check`, lowers each one.
//
//===----------------------------------------------------------------------===//

#include "xtile/Conversion/LoopToTile/CostModel.h"
#include "xtile/Conversion/LoopToTile/LoopToTile.h"
#include "xtile/Support/Version.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"
#include <set>

namespace xtile {
#define GEN_PASS_DEF_XTILESELECTSCHEDULE
#define GEN_PASS_DEF_XTILELISTSCHEDULES
#include "xtile/Conversion/Passes.h.inc"
} // namespace xtile

using namespace mlir;
using namespace xtile;
namespace xl = xtile::loop;
namespace xt = xtile::tile;

namespace {

struct Candidate {
  xt::ScheduleAttrInterface schedule;
  Estimate estimate;
};

/// A kernel, its facts and its priced candidates, cheapest first.
struct KernelCandidates {
  xl::KernelOp kernel;
  KernelFacts facts;
  SmallVector<Candidate> candidates;
};

std::string printed(Attribute attr) {
  std::string s;
  llvm::raw_string_ostream os(s);
  attr.print(os);
  return s;
}

FailureOr<KernelCandidates> price(xl::KernelOp kernel, const CostModel &model,
                                  xt::TargetAttr target, bool fastMath,
                                  bool allowTf32) {
  FailureOr<KernelFacts> facts = computeKernelFacts(kernel, fastMath);
  if (failed(facts))
    return failure();
  KernelCandidates out{kernel, *facts, {}};
  for (xt::ScheduleAttrInterface s :
       enumerateSchedules(kernel.getContext(), *facts, target, allowTf32))
    out.candidates.push_back({s, model.estimate(*facts, s, target)});
  if (out.candidates.empty())
    return kernel.emitOpError() << "has no schedule that fits "
                                << target.getArch();
  llvm::stable_sort(out.candidates, [](const Candidate &a, const Candidate &b) {
    return a.estimate.micros < b.estimate.micros;
  });
  return out;
}

llvm::json::Object toJSON(KernelCandidates &k, xt::TargetAttr target,
                          const CostModel &model) {
  llvm::json::Array candidates;
  for (const Candidate &c : k.candidates)
    candidates.push_back(llvm::json::Object{
        {"schedule", printed(c.schedule)},
        {"name", scheduleName(c.schedule)},
        {"micros", c.estimate.micros},
        {"memory_micros", c.estimate.memoryMicros},
        {"issue_micros", c.estimate.computeMicros},
        {"why", c.estimate.why}});
  llvm::json::Object o{{"kernel", k.kernel.getSymName()},
                       {"identity", getKernelIdentity(k.kernel)},
                       {"target", target.getArch()},
                       {"cost_model", model.getName()},
                       {"facts", k.facts.toJSON()},
                       {"candidates", std::move(candidates)}};
  if (xt::ScheduleAttrInterface s = getKernelSchedule(k.kernel)) {
    o["schedule"] = printed(s);
    o["name"] = scheduleName(s);
    Estimate e = model.estimate(k.facts, s, target);
    o["micros"] = e.micros;
    o["memory_micros"] = e.memoryMicros;
    o["issue_micros"] = e.computeMicros;
  }
  return o;
}

LogicalResult writeJSON(Operation *anchor, StringRef path,
                        llvm::json::Value value) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> out = openOutputFile(path, &error);
  if (!out)
    return anchor->emitError() << "cannot write '" << path << "': " << error;
  out->os() << llvm::formatv("{0:2}", value) << "\n";
  out->keep();
  return success();
}

/// The target and cost model the options name, or an error on `module`.
LogicalResult resolve(ModuleOp module, StringRef targetName,
                      StringRef modelName, xt::TargetAttr &target,
                      std::unique_ptr<CostModel> &model) {
  target = lookupTarget(module, targetName);
  if (!target)
    return failure();
  model = createCostModel(modelName);
  if (!model)
    return module.emitError() << "unknown cost model '" << modelName
                              << "' (expected analytic)";
  return success();
}

struct XTileSelectSchedulePass
    : xtile::impl::XTileSelectScheduleBase<XTileSelectSchedulePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    xt::TargetAttr targetAttr;
    std::unique_ptr<CostModel> model;
    if (failed(resolve(module, target, costModel, targetAttr, model)))
      return signalPassFailure();
    xt::ScheduleAttrInterface forced;
    if (!force.empty()) {
      forced = dyn_cast_or_null<xt::ScheduleAttrInterface>(
          parseAttribute(force, &getContext()));
      if (!forced) {
        module.emitError() << "force '" << force
                           << "' is not a schedule (#xtile.row_schedule<...> "
                              "or #xtile.dot_schedule<...>)";
        return signalPassFailure();
      }
    }
    llvm::json::Array kernels;
    for (xl::KernelOp kernel : module.getOps<xl::KernelOp>()) {
      xt::ScheduleAttrInterface preset = getKernelSchedule(kernel);
      if (preset && report.empty() && !remarks)
        continue;
      FailureOr<KernelCandidates> priced = price(kernel, *model, targetAttr, fastMath,
                                                 allowTf32);
      if (failed(priced))
        return signalPassFailure();
      xt::ScheduleAttrInterface chosen = priced->candidates.front().schedule;
      StringRef reason = "lowest estimated time";
      if (preset) {
        chosen = preset;
        reason = "given";
      } else if (forced &&
                 isa<xt::DotScheduleAttr>(forced) == priced->facts.contraction) {
        chosen = forced;
        reason = "forced";
      }
      setKernelSchedule(kernel, chosen);
      Estimate e = model->estimate(priced->facts, chosen, targetAttr);
      if (remarks)
        kernel.emitRemark() << "schedule " << chosen << " (" << reason
                            << llvm::formatv(", estimated {0:f2} us of ",
                                             e.micros)
                            << priced->candidates.size()
                            << " candidate(s): " << e.why << ")";
      if (!report.empty()) {
        llvm::json::Object o = toJSON(*priced, targetAttr, *model);
        o["reason"] = reason;
        kernels.push_back(std::move(o));
      }
    }
    if (!report.empty() &&
        failed(writeJSON(module, report,
                         llvm::json::Object{{"kernels", std::move(kernels)}})))
      return signalPassFailure();
  }
};

struct XTileListSchedulesPass
    : xtile::impl::XTileListSchedulesBase<XTileListSchedulesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    xt::TargetAttr targetAttr;
    std::unique_ptr<CostModel> model;
    if (failed(resolve(module, target, costModel, targetAttr, model)))
      return signalPassFailure();
    llvm::json::Array kernels;
    std::set<std::string> seen;
    int64_t checked = 0, failures = 0;
    for (xl::KernelOp kernel : module.getOps<xl::KernelOp>()) {
      if (!seen.insert(getKernelIdentity(kernel)).second)
        continue;
      FailureOr<KernelCandidates> priced = price(kernel, *model, targetAttr, fastMath,
                                                 allowTf32);
      if (failed(priced))
        return signalPassFailure();
      kernels.push_back(toJSON(*priced, targetAttr, *model));
      if (!check)
        continue;
      for (const Candidate &c : priced->candidates) {
        ++checked;
        if (failed(lowerCandidate(kernel, c.schedule)))
          ++failures;
      }
    }
    if (failed(writeJSON(module, output,
                         llvm::json::Object{{"compiler", getCompilerVersion()},
                                            {"kernels", std::move(kernels)}})))
      return signalPassFailure();
    if (check && failures) {
      module.emitError() << failures << " of " << checked
                         << " candidate schedule(s) failed to lower";
      return signalPassFailure();
    }
  }

  /// Lowers a copy of `kernel` under `schedule` to Kernel IR in a module of
  /// its own; an error at the kernel when that fails.
  LogicalResult lowerCandidate(xl::KernelOp kernel,
                               xt::ScheduleAttrInterface schedule) {
    MLIRContext *ctx = kernel.getContext();
    OwningOpRef<ModuleOp> scratch = ModuleOp::create(kernel.getLoc());
    OpBuilder b(ctx);
    b.setInsertionPointToEnd(scratch->getBody());
    auto copy = cast<xl::KernelOp>(b.clone(*kernel));
    setKernelSchedule(copy, schedule);
    PassManager pm(ctx, ModuleOp::getOperationName());
    std::string pipeline =
        "convert-xloop-to-xtile{target=" + target +
        "},canonicalize,cse,xtile-plan-pipelines,convert-xtile-to-xkernel";
    if (failed(parsePassPipeline(pipeline, pm)))
      return kernel.emitOpError("cannot build the lowering pipeline ")
             << pipeline;
    std::string diagnostics;
    LogicalResult result = success();
    {
      ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &d) {
        if (d.getSeverity() == DiagnosticSeverity::Error)
          diagnostics += d.str() + "; ";
        return success();
      });
      result = pm.run(*scratch);
    }
    if (failed(result))
      return kernel.emitError()
             << "kernel @" << kernel.getSymName() << " under candidate "
             << schedule << " fails to lower: " << diagnostics;
    return success();
  }
};

} // namespace
