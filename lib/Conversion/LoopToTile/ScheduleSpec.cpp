//===- ScheduleSpec.cpp - schedules from a tuned spec file ----------------===//
//
// --xtile-apply-schedule-spec: sets the schedule a spec file gives for each
// kernel by identity and target, before --xtile-select-schedule chooses
// for the rest.
//
//===----------------------------------------------------------------------===//

#include "xtile/Conversion/LoopToTile/LoopToTile.h"
#include "xtile/Support/Version.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

namespace xtile {
#define GEN_PASS_DEF_XTILEAPPLYSCHEDULESPEC
#include "xtile/Conversion/Passes.h.inc"
} // namespace xtile

using namespace mlir;
using namespace xtile;
namespace xl = xtile::loop;
namespace xt = xtile::tile;

namespace {
struct XTileApplyScheduleSpecPass
    : xtile::impl::XTileApplyScheduleSpecBase<XTileApplyScheduleSpecPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (file.empty()) {
      module.emitError("--xtile-apply-schedule-spec needs file=<spec.json>");
      return signalPassFailure();
    }
    FailureOr<llvm::StringMap<xt::ScheduleAttrInterface>> spec = load(module);
    if (failed(spec))
      return signalPassFailure();
    for (xl::KernelOp kernel : module.getOps<xl::KernelOp>()) {
      if (getKernelSchedule(kernel))
        continue;
      auto it = spec->find(getKernelIdentity(kernel));
      if (it != spec->end())
        setKernelSchedule(kernel, it->second);
    }
  }

  /// The spec's schedules for this target and compiler, by kernel identity.
  FailureOr<llvm::StringMap<xt::ScheduleAttrInterface>> load(ModuleOp module) {
    auto fail = [&](const Twine &why) {
      return module.emitError() << "schedule spec '" << file << "': " << why;
    };
    std::string error;
    std::unique_ptr<llvm::MemoryBuffer> buffer = openInputFile(file, &error);
    if (!buffer)
      return fail(error);
    llvm::Expected<llvm::json::Value> json =
        llvm::json::parse(buffer->getBuffer());
    if (!json)
      return fail(llvm::toString(json.takeError()));
    llvm::json::Object *root = json->getAsObject();
    if (!root || root->getString("format") != "xtile-schedule-spec")
      return fail("not an xtile schedule spec (expected an object with "
                  "\"format\": \"xtile-schedule-spec\")");
    llvm::StringMap<xt::ScheduleAttrInterface> out;
    std::optional<StringRef> compiler = root->getString("compiler");
    if (compiler != getCompilerVersion()) {
      module.emitWarning() << "schedule spec '" << file << "' was tuned by '"
                           << compiler.value_or("an unknown compiler")
                           << "', this is '" << getCompilerVersion()
                           << "': its schedules are ignored";
      return out;
    }
    llvm::json::Array *entries = root->getArray("schedules");
    if (!entries)
      return fail("no \"schedules\" array");
    for (auto [index, entry] : llvm::enumerate(*entries)) {
      llvm::json::Object *o = entry.getAsObject();
      std::optional<StringRef> kernel = o ? o->getString("kernel") : std::nullopt;
      std::optional<StringRef> arch = o ? o->getString("target") : std::nullopt;
      std::optional<StringRef> text = o ? o->getString("schedule") : std::nullopt;
      if (!kernel || !arch || !text)
        return fail("entry " + Twine(index) +
                    " needs string fields \"kernel\", \"target\" and "
                    "\"schedule\"");
      if (*arch != target)
        continue;
      auto schedule = dyn_cast_or_null<xt::ScheduleAttrInterface>(
          parseAttribute(*text, module.getContext()));
      if (!schedule)
        return fail("entry " + Twine(index) + ": '" + *text +
                    "' is not a schedule");
      out[*kernel] = schedule;
    }
    return out;
  }
};
} // namespace
