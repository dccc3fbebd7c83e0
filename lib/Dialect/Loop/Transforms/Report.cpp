//===- Report.cpp - kernel identity and memory traffic --------------------===//

#include "xtile/Dialect/Loop/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Support/FileUtilities.h"
#include "xtile/Support/Storage.h"
#include "xtile/Support/SymbolicDims.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/ToolOutputFile.h"

#include <map>
#include <string>
#include <vector>

namespace xtile::loop {
#define GEN_PASS_DEF_XLOOPREPORT
#include "xtile/Dialect/Loop/Transforms/Passes.h.inc"
} // namespace xtile::loop

using namespace mlir;
using namespace xtile::loop;

namespace {
/// Bytes as a polynomial in the dynamic sizes (a size expression, whose
/// symbols are the sizes' symbols: `T + 1` rows count as T and 1).
using xtile::SizeExpr;
using Bytes = SizeExpr;

/// The size named `name` as an expression of symbols (a name that is not
/// one, such as a kernel's positional `s0`, is a symbol of its own).
static SizeExpr sizeNamed(StringRef name) {
  if (std::optional<SizeExpr> e = SizeExpr::parse(name))
    return *e;
  return SizeExpr::symbol(name);
}

/// The bytes of a buffer or tensor of `type` whose `?` sizes are `names`.
static Bytes bytesOf(ShapedType type, ArrayRef<std::string> names) {
  SmallVector<int64_t> shape;
  for (int64_t d : type.getShape())
    shape.push_back(ShapedType::isDynamic(d) ? 1 : d);
  std::optional<SizeExpr> b = SizeExpr::constant(
      getNumBytes(RankedTensorType::get(shape, type.getElementType())));
  for (const std::string &name : names)
    if (b)
      b = b->times(sizeNamed(name));
  return b.value_or(SizeExpr::constant(0));
}

static void add(Bytes &into, const Bytes &b) {
  into = into.plus(b).value_or(into);
}

/// The polynomial at `values` (sizes missing from it count as 1).
static double evaluate(const Bytes &b, const llvm::StringMap<int64_t> &values) {
  return double(b.evaluate([&](StringRef name) -> std::optional<int64_t> {
                  int64_t v = values.lookup(name);
                  return v ? v : 1;
                }).value_or(0));
}

/// `2048*S*T + 512*T + 64`, or a plain number without sizes.
static std::string print(const Bytes &b) { return b.str(); }

struct Traffic {
  Bytes reads, writes;
  // Outputs stored only where they change (an input updated in place):
  // at most these bytes, in fact the changed elements'.
  Bytes updates;
};

/// Whether a kernel stores output `out` only where a condition holds, or
/// adds into it (at the elements its stores reach).
static bool storesConditionally(Value out) {
  return llvm::any_of(out.getUsers(), [](Operation *user) {
    auto store = dyn_cast<StoreOp>(user);
    return store && (store.getCondition() || store.getAccumulate());
  });
}

/// Each buffer a kernel touches, counted once and in full (an input it
/// never reads not at all, an output it stores conditionally among its
/// updates); its sizes named by `names` (a launch's), or s0, s1... by
/// position.
static Traffic kernelTraffic(KernelOp kernel, ArrayAttr names = {}) {
  ArrayRef<BlockArgument> sizes = kernel.getSizes();
  auto nameOf = [&](BlockArgument size) {
    size_t i = llvm::find(sizes, size) - sizes.begin();
    if (names && i < names.size())
      return cast<StringAttr>(names[i]).str();
    return "s" + std::to_string(i);
  };
  auto bytes = [&](BlockArgument buffer) {
    std::vector<std::string> dims;
    for (BlockArgument size : kernel.getBufferSizes(buffer))
      dims.push_back(nameOf(size));
    return bytesOf(cast<ShapedType>(buffer.getType()), dims);
  };
  Traffic t;
  for (BlockArgument in : kernel.getInputs())
    if (!in.use_empty())
      add(t.reads, bytes(in));
  for (BlockArgument out : kernel.getOutputs())
    add(storesConditionally(out) ? t.updates : t.writes, bytes(out));
  return t;
}

/// The bytes of a function's tensor, its `?` sizes named by its encoding.
static Bytes tensorBytes(Type type) {
  std::vector<std::string> names;
  for (StringAttr symbol : xtile::getSymbols(type))
    names.push_back(symbol.str());
  return bytesOf(cast<ShapedType>(type), names);
}

struct XLoopReportPass : xtile::loop::impl::XLoopReportBase<XLoopReportPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(output, &error);
    if (!file) {
      module.emitError() << "cannot open report file: " << error;
      return signalPassFailure();
    }
    llvm::raw_ostream &os = file->os();
    SymbolTable symbols(module);
    // A kernel's sizes are named as its first launch names them.
    DenseMap<StringAttr, ArrayAttr> namesOf;
    module.walk([&](LaunchOp launch) {
      namesOf.try_emplace(launch.getKernelAttr().getAttr(), launch.getSizes());
    });
    for (KernelOp kernel : module.getOps<KernelOp>()) {
      Traffic t =
          kernelTraffic(kernel, namesOf.lookup(kernel.getSymNameAttr()));
      os << "kernel @" << kernel.getSymName() << " identity "
         << llvm::format_hex(computeKernelIdentity(kernel), 18) << " reads "
         << print(t.reads) << " B writes " << print(t.writes) << " B";
      if (t.updates.getConstant() != 0)
        os << " (and updates in place at most " << print(t.updates) << " B)";
      os << "\n";
    }
    for (auto func : module.getOps<func::FuncOp>()) {
      int64_t launches = 0;
      Bytes moved, ideal, updates;
      func.walk([&](LaunchOp launch) {
        auto kernel = symbols.lookup<KernelOp>(launch.getKernel());
        if (!kernel)
          return;
        Traffic t = kernelTraffic(kernel, launch.getSizes());
        add(moved, t.reads);
        add(moved, t.writes);
        add(updates, t.updates);
        ++launches;
      });
      for (BlockArgument arg : func.getArguments())
        if (isa<ShapedType>(arg.getType()) && !arg.use_empty())
          add(ideal, tensorBytes(arg.getType()));
      // A result returned in place of an argument is one buffer with it:
      // ideally written only where it changes (counted once when its
      // kernel stores every element, not at all when it stores only the
      // changed ones).
      auto ret = dyn_cast<func::ReturnOp>(func.getBody().front().getTerminator());
      for (auto [i, type, argument] :
           llvm::enumerate(func.getResultTypes(),
                           xtile::getInPlaceArguments(func))) {
        if (!isa<ShapedType>(type))
          continue;
        if (argument >= 0 && ret)
          if (auto result = dyn_cast<OpResult>(ret.getOperand(i)))
            if (auto launch = dyn_cast<LaunchOp>(result.getOwner()))
              if (auto kernel = symbols.lookup<KernelOp>(launch.getKernel());
                  kernel && storesConditionally(
                                kernel.getOutputs()[result.getResultNumber()]))
                continue;
        add(ideal, tensorBytes(type));
      }
      // The ratio at the sizes' hints, where there are sizes.
      llvm::StringMap<int64_t> hints;
      std::string at;
      for (const xtile::DeclaredSymbol &symbol :
           xtile::getDeclaredSymbols(func)) {
        int64_t hint = defaultSizeHint(symbol.min, symbol.max);
        hints[symbol.name.getValue()] = hint;
        at += (at.empty() ? " at " : ", ") + symbol.name.getValue().str() +
              "=" + std::to_string(hint);
      }
      double m = evaluate(moved, hints), i = evaluate(ideal, hints);
      os << "func @" << func.getName() << ": " << launches
         << (launches == 1 ? " launch, " : " launches, ") << print(moved)
         << " B moved, ideal " << print(ideal) << " B ("
         << llvm::format("%.2f", i ? m / i : 0.0) << "x" << at << ")";
      if (updates.getConstant() != 0)
        os << ", and updates in place of at most " << print(updates) << " B";
      os << "\n";
    }
    file->keep();
    markAllAnalysesPreserved();
  }
};
} // namespace
