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
#include <algorithm>
#include <limits>
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

/// A part of the range of a kernel's dynamic size and the schedule that
/// serves it.
struct Bucket {
  int64_t min, max;
  xt::ScheduleAttrInterface schedule;
  /// The most the schedule costs over the best at a priced size in it.
  double worst;
};

/// The sizes a range is priced at: its ends, the powers of two in it and
/// their midpoints (3 * 2^k).
SmallVector<int64_t> pricedSizes(int64_t min, int64_t max) {
  std::set<int64_t> sizes{min, max};
  for (int64_t p = 1; p <= max && p < (int64_t(1) << 40); p *= 2)
    for (int64_t s : {p, p + p / 2})
      if (s >= min && s <= max)
        sizes.insert(s);
  return SmallVector<int64_t>(sizes.begin(), sizes.end());
}

/// Buckets for `kernel`, a kernel over one dynamic size, whose schedule at
/// its hint is `chosen`: one bucket with `chosen` where it is within
/// `tolerance` of the best at every priced size, else the fewest buckets
/// (greedily from the smallest size) whose schedules each are at the
/// sizes they hold; where those are more than `maxBuckets`, the split into
/// `maxBuckets` with the lowest worst cost over the best. Empty where the kernel cannot be priced across its
/// range (then it keeps one schedule).
SmallVector<Bucket> planBuckets(xl::KernelOp kernel,
                                xt::ScheduleAttrInterface chosen,
                                const CostModel &model, xt::TargetAttr target,
                                bool fastMath, bool allowTf32,
                                double tolerance, int64_t maxBuckets) {
  ArrayRef<int64_t> range = *kernel.getSizeRanges();
  DenseI64ArrayAttr hints = kernel.getSizeHintsAttr();
  SmallVector<int64_t> sizes = pricedSizes(range[0], range[1]);
  // Each size's candidates, cheapest first, and their cost over the best.
  struct Priced {
    SmallVector<xt::ScheduleAttrInterface> order;
    DenseMap<Attribute, double> ratio;
  };
  SmallVector<Priced> priced;
  bool ok = true;
  {
    // Pricing away from the hint is a question: what it cannot answer is
    // no error.
    ScopedDiagnosticHandler quiet(kernel.getContext(),
                                  [](Diagnostic &) { return success(); });
    for (int64_t size : sizes) {
      kernel.setSizeHints(ArrayRef<int64_t>{size});
      FailureOr<KernelCandidates> candidates =
          price(kernel, model, target, fastMath, allowTf32);
      if (failed(candidates)) {
        ok = false;
        break;
      }
      Priced p;
      double best =
          std::max(candidates->candidates.front().estimate.micros, 1e-9);
      for (const Candidate &c : candidates->candidates) {
        p.order.push_back(c.schedule);
        p.ratio[c.schedule] = c.estimate.micros / best;
      }
      priced.push_back(std::move(p));
    }
  }
  if (hints)
    kernel.setSizeHintsAttr(hints);
  else
    kernel.removeSizeHintsAttr();
  if (!ok)
    return {};
  // span[i][j]: the schedule with the lowest worst cost over the best at
  // sizes i..j (infinite where it is not a candidate at one of them), the
  // cheapest at size i first on ties.
  size_t n = sizes.size();
  double inf = std::numeric_limits<double>::infinity();
  std::vector<std::vector<std::pair<double, xt::ScheduleAttrInterface>>> span(
      n, std::vector<std::pair<double, xt::ScheduleAttrInterface>>(n, {inf, {}}));
  for (size_t i = 0; i < n; ++i) {
    SmallVector<double> worst;
    for (xt::ScheduleAttrInterface s : priced[i].order)
      worst.push_back(priced[i].ratio.lookup(s));
    for (size_t j = i; j < n; ++j) {
      for (auto [k, s] : llvm::enumerate(priced[i].order)) {
        if (j > i) {
          auto it = priced[j].ratio.find(s);
          worst[k] = it == priced[j].ratio.end() ? inf
                                                 : std::max(worst[k], it->second);
        }
        if (worst[k] < span[i][j].first)
          span[i][j] = {worst[k], s};
      }
    }
  }
  double chosenWorst = 0;
  for (const Priced &p : priced) {
    auto it = p.ratio.find(chosen);
    chosenWorst = std::max(chosenWorst, it == p.ratio.end() ? inf : it->second);
  }
  if (chosenWorst <= tolerance)
    return {Bucket{range[0], range[1], chosen, chosenWorst}};
  // Greedily from the smallest size, each bucket as long as one schedule
  // stays within the tolerance over it (at size i alone its own best is).
  SmallVector<Bucket> buckets;
  for (size_t i = 0; i < n;) {
    size_t j = i + 1;
    while (j < n && span[i][j].first <= tolerance)
      ++j;
    auto [worst, schedule] = span[i][j - 1];
    buckets.push_back(
        Bucket{sizes[i], j < n ? sizes[j] - 1 : range[1], schedule, worst});
    i = j;
  }
  size_t most = std::max<int64_t>(maxBuckets, 1);
  if (buckets.size() <= most)
    return buckets;
  // More than `maxBuckets` (each is a kernel to compile): the split into
  // that many whose worst cost over the best is lowest, by dynamic
  // programming over the priced sizes.
  // cost[k][j]: the lowest worst of sizes 0..j in k + 1 buckets; from[k][j]
  // the first size of the last of them.
  std::vector<std::vector<double>> cost(most, std::vector<double>(n, inf));
  std::vector<std::vector<size_t>> from(most, std::vector<size_t>(n, 0));
  for (size_t j = 0; j < n; ++j)
    cost[0][j] = span[0][j].first;
  for (size_t k = 1; k < most; ++k)
    for (size_t j = k; j < n; ++j)
      for (size_t i = k; i <= j; ++i) {
        double c = std::max(cost[k - 1][i - 1], span[i][j].first);
        if (c < cost[k][j]) {
          cost[k][j] = c;
          from[k][j] = i;
        }
      }
  SmallVector<Bucket> split;
  size_t end = n - 1;
  for (size_t k = most; k-- > 0;) {
    size_t start = k ? from[k][end] : 0;
    auto [worst, schedule] = span[start][end];
    if (!schedule)
      return {};
    split.push_back(Bucket{sizes[start],
                           end + 1 < n ? sizes[end + 1] - 1 : range[1],
                           schedule, worst});
    if (!k)
      break;
    end = start - 1;
  }
  std::reverse(split.begin(), split.end());
  split.front().min = range[0];
  return split;
}

/// Gives `kernel` the first bucket and a copy of itself for each other,
/// and names the copies on every launch of it.
void applyBuckets(ModuleOp module, SymbolTable &symbols, xl::KernelOp kernel,
                  ArrayRef<Bucket> buckets) {
  int64_t hint = kernel.getSizeHint(kernel.getSizes()[0]);
  auto narrow = [&](xl::KernelOp k, const Bucket &bucket) {
    k.setSizeRanges(ArrayRef<int64_t>{bucket.min, bucket.max});
    k.setSizeHints(ArrayRef<int64_t>{std::clamp(hint, bucket.min, bucket.max)});
    setKernelSchedule(k, bucket.schedule);
  };
  SmallVector<Attribute> names;
  Operation *last = kernel;
  for (const Bucket &bucket : buckets.drop_front()) {
    OpBuilder b(kernel->getContext());
    b.setInsertionPointAfter(last);
    auto copy = cast<xl::KernelOp>(b.clone(*kernel));
    copy.setSymName((kernel.getSymName() + "_b" + Twine(names.size() + 1)).str());
    copy->remove();
    symbols.insert(copy, Block::iterator(last->getNextNode()));
    narrow(copy, bucket);
    names.push_back(FlatSymbolRefAttr::get(copy.getSymNameAttr()));
    last = copy;
  }
  narrow(kernel, buckets.front());
  auto list = ArrayAttr::get(kernel->getContext(), names);
  module.walk([&](xl::LaunchOp launch) {
    if (launch.getKernel() == kernel.getSymName())
      launch.setBucketsAttr(list);
  });
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

/// Whether a forced schedule applies to a kernel: one of its kind (row or
/// contraction), and a column schedule only to a column reduction (a split
/// one only to folds that do not use each other's results).
static bool forcedApplies(xt::ScheduleAttrInterface forced,
                          const KernelFacts &facts) {
  if (isa<xt::DotScheduleAttr>(forced) != facts.contraction)
    return false;
  auto column = dyn_cast<xt::ColumnScheduleAttr>(forced);
  return !column || (facts.row.columnKernel &&
                     (column.getWays() == 1 || facts.row.splittable));
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
                           << "' is not a schedule (#xtile.row_schedule<...>, "
                              "#xtile.column_schedule<...> or "
                              "#xtile.dot_schedule<...>)";
        return signalPassFailure();
      }
    }
    llvm::json::Array kernels;
    SymbolTable symbols(module);
    // (Bucket copies are added as it goes, with their schedules.)
    SmallVector<xl::KernelOp> all(module.getOps<xl::KernelOp>());
    for (xl::KernelOp kernel : all) {
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
      } else if (forced && forcedApplies(forced, priced->facts)) {
        chosen = forced;
        reason = "forced";
      }
      SmallVector<Bucket> plan;
      if (buckets && !preset && reason == "lowest estimated time" &&
          kernel.getNumSizes() == 1)
        plan = planBuckets(kernel, chosen, *model, targetAttr, fastMath,
                           allowTf32, bucketTolerance, maxBuckets);
      if (plan.size() == 1)
        plan.clear();
      setKernelSchedule(kernel, chosen);
      Estimate e = model->estimate(priced->facts, chosen, targetAttr);
      llvm::json::Array bucketsJSON;
      for (const Bucket &bucket : plan) {
        if (remarks)
          kernel.emitRemark()
              << "sizes " << bucket.min << " to " << bucket.max
              << ": schedule " << bucket.schedule
              << llvm::formatv(" (at most {0:f2}x the best priced there)",
                               bucket.worst);
        bucketsJSON.push_back(llvm::json::Object{
            {"min", bucket.min},
            {"max", bucket.max},
            {"schedule", printed(bucket.schedule)},
            {"name", scheduleName(bucket.schedule)},
            {"worst", bucket.worst}});
      }
      if (!plan.empty())
        applyBuckets(module, symbols, kernel, plan);
      if (remarks)
        kernel.emitRemark() << "schedule " << chosen << " (" << reason
                            << llvm::formatv(", estimated {0:f2} us of ",
                                             e.micros)
                            << priced->candidates.size()
                            << " candidate(s): " << e.why << ")";
      if (!report.empty()) {
        llvm::json::Object o = toJSON(*priced, targetAttr, *model);
        o["reason"] = reason;
        if (!plan.empty())
          o["buckets"] = std::move(bucketsJSON);
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
