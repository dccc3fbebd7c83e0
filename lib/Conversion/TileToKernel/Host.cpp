//===- Host.cpp - The host side of Kernel IR ------------------------------===//
//
// Lowers a function of `xtile.launch`es (the host side of a program in
// Tile IR) to an `xkernel.program`: buffers for arguments, results and
// intermediates, the launches of the lowered kernels, and result copies.
//
//===----------------------------------------------------------------------===//

#include "xtile/Conversion/TileToKernel/TileToKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "xtile/Support/KernelSignature.h"
#include "xtile/Support/SymbolicDims.h"
#include <set>

using namespace mlir;
using namespace xtile;
namespace xk = xtile::kernel;
namespace xt = xtile::tile;

//===----------------------------------------------------------------------===//
// The host side
//===----------------------------------------------------------------------===//

namespace {
/// The lowering of one function of launches to an `xkernel.program`.
class HostLowering {
public:
  HostLowering(func::FuncOp fn, const llvm::StringMap<LoweredKernel> &kernels)
      : fn(fn), kernels(kernels), b(fn), symbols(getDeclaredSymbols(fn)),
        ret(cast<func::ReturnOp>(fn.getBody().front().getTerminator())) {
    addExpressionSizes();
  }

  FailureOr<xk::ProgramOp> run();

private:
  /// The position of `symbol` among the function's declared sizes.
  std::optional<int64_t> symbolIndex(StringAttr symbol) const {
    for (auto [i, s] : llvm::enumerate(symbols))
      if (s.name == symbol)
        return i;
    return std::nullopt;
  }
  /// Appends to `symbols` the size expressions of declared symbols
  /// (`T + 1`) that the function's tensors and launches name, sorted: the
  /// program takes them as sizes too, and checks each against its symbols.
  void addExpressionSizes() {
    std::set<std::string> names;
    auto note = [&](StringRef name) {
      if (!symbolIndex(StringAttr::get(fn.getContext(), name)))
        names.insert(name.str());
    };
    fn.walk([&](Operation *op) {
      for (Type t : llvm::concat<const Type>(op->getOperandTypes(),
                                             op->getResultTypes()))
        for (StringAttr symbol : getSymbols(t))
          note(symbol.getValue());
      if (auto launch = dyn_cast<xt::LaunchOp>(op))
        for (StringRef name : launch.getSizes().getAsValueRange<StringAttr>())
          note(name);
    });
    for (Type t : fn.getArgumentTypes())
      for (StringAttr symbol : getSymbols(t))
        note(symbol.getValue());
    for (const std::string &name : names)
      if (std::optional<DeclaredSymbol> d = getDeclaredSymbol(fn, name))
        symbols.push_back(*d);
  }
  /// The buffer type of a tensor of the function (an error at `user`
  /// where its sizes are not named by the function).
  FailureOr<MemRefType> memrefOf(Type t, Operation *user) const;
  /// The program op: its buffers (arguments, then results) and sizes.
  LogicalResult createProgram();
  /// The values of the `?`s of a tensor of the function, in order.
  SmallVector<Value> sizesOf(Type t) const {
    SmallVector<Value> values;
    for (StringAttr symbol : getSymbols(t))
      values.push_back(sizes[*symbolIndex(symbol)]);
    return values;
  }
  LogicalResult lowerOp(Operation &op);
  LogicalResult lowerLaunch(xt::LaunchOp launch);
  /// An error at `op`, or where it is used when it has no location.
  static InFlightDiagnostic emitLocatedOpError(Operation &op,
                                               const Twine &message);
  /// Whether `out`, a result of `launch` that updates `operand`, may be
  /// written into the operand's own buffer: nothing after the launch uses
  /// the operand, and an argument's buffer is updated only by the result
  /// returned in its place.
  bool mayUpdate(Value out, Value operand, Operation *launch);
  /// The operand that result `out` of a launch updates, if it updates one.
  static Value updatedOperand(Value out);
  /// Copies the results that no kernel writes into their buffers.
  LogicalResult copyResults();

  func::FuncOp fn;
  const llvm::StringMap<LoweredKernel> &kernels;
  OpBuilder b;
  // The function's sizes (its declared symbols, sorted by name), which
  // become the program's after its buffers.
  SmallVector<DeclaredSymbol> symbols;
  func::ReturnOp ret;
  xk::ProgramOp program;
  Block *body = nullptr;
  SmallVector<Value> sizes;
  // The program's buffer of each tensor of the function.
  DenseMap<Value, Value> bufferOf;
  // Returned values that a kernel writes into the result buffer directly,
  // and those copied there after the launches (an input, or a value
  // returned twice).
  DenseMap<Value, unsigned> outputOf;
  SmallVector<std::pair<Value, unsigned>> copies;
  // For each result, the argument it is returned in place of, or -1.
  SmallVector<int64_t> inPlaceOf;
  // Launch results written into the buffer of the operand they update.
  DenseSet<Value> updatedInPlace;
};
} // namespace

static bool isEmpty(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && t.hasStaticShape() && t.getNumElements() == 0;
}

FailureOr<MemRefType> HostLowering::memrefOf(Type t, Operation *user) const {
  auto type = dyn_cast<RankedTensorType>(t);
  if (!type || !isXTensorType(type))
    return user->emitOpError("needs ranked tensors whose dynamic sizes "
                             "are named (#xtensor.dims), got ")
           << t;
  for (StringAttr symbol : getSymbols(type))
    if (!symbolIndex(symbol))
      return user->emitOpError("has the dynamic size '")
             << symbol.getValue() << "', which the function does not declare";
  return MemRefType::get(type.getShape(), type.getElementType());
}

LogicalResult HostLowering::createProgram() {
  SmallVector<Type> buffers;
  for (Type t :
       llvm::concat<const Type>(fn.getArgumentTypes(), fn.getResultTypes())) {
    FailureOr<MemRefType> m = memrefOf(t, fn);
    if (failed(m))
      return failure();
    buffers.push_back(*m);
  }
  program = xk::ProgramOp::create(b, fn.getLoc(), fn.getSymName(),
                                  fn.getNumArguments());
  if (llvm::any_of(inPlaceOf, [](int64_t a) { return a >= 0; }))
    program.setInPlace(inPlaceOf);
  body = b.createBlock(&program.getBody(), {}, buffers,
                       SmallVector<Location>(buffers.size(), fn.getLoc()));
  bool dynamic = llvm::any_of(
      buffers, [](Type t) { return !cast<MemRefType>(t).hasStaticShape(); });
  if (dynamic) {
    SmallVector<int64_t> ranges, bufferDims;
    SmallVector<StringRef> names;
    for (const DeclaredSymbol &symbol : symbols) {
      sizes.push_back(body->addArgument(b.getIndexType(), fn.getLoc()));
      ranges.append({symbol.min, symbol.max});
      names.push_back(symbol.name.getValue());
    }
    for (Type t :
         llvm::concat<const Type>(fn.getArgumentTypes(), fn.getResultTypes()))
      for (StringAttr symbol : getSymbols(t))
        bufferDims.push_back(*symbolIndex(symbol));
    program.setNumSizes(symbols.size());
    program.setSizeRanges(ranges);
    program.setBufferDims(bufferDims);
    program.setSizeNamesAttr(b.getStrArrayAttr(names));
  }
  b.setInsertionPointToStart(body);
  for (auto [arg, buffer] : llvm::zip(fn.getArguments(), body->getArguments()))
    bufferOf[arg] = buffer;
  return success();
}

LogicalResult HostLowering::lowerOp(Operation &op) {
  // An empty tensor (Loop IR makes every empty result a constant) is a
  // buffer of no bytes: a kernel may take it, nothing reads it.
  if (auto constant = dyn_cast<arith::ConstantOp>(op);
      constant && isEmpty(constant.getResult())) {
    if (llvm::all_of(constant->getUsers(),
                     [](Operation *user) { return isa<func::ReturnOp>(user); }))
      return success();
    FailureOr<MemRefType> m = memrefOf(constant.getType(), constant);
    if (failed(m))
      return failure();
    bufferOf[constant.getResult()] = xk::AllocOp::create(
        b, constant.getLoc(), *m, sizesOf(constant.getType()));
    return success();
  }
  if (isa<arith::ConstantOp>(op) && isa<RankedTensorType>(op.getResult(0).getType()))
    return emitLocatedOpError(
        op, "a constant tensor that is not a splat, as a kernel's input or a "
            "result, is not supported (pass it as an argument: xtile.compile "
            "does unless params_as_constants=True)");
  if (auto launch = dyn_cast<xt::LaunchOp>(op))
    return lowerLaunch(launch);
  return emitLocatedOpError(op, "is not supported on the host side of Kernel "
                                "IR (only kernel launches are)");
}

InFlightDiagnostic HostLowering::emitLocatedOpError(Operation &op,
                                                    const Twine &message) {
  // A constant the canonicalizer hoisted has no location of its own: the
  // error is reported where it is used, else at the function.
  Location loc = op.getLoc();
  if (isa<UnknownLoc>(loc)) {
    for (Operation *user : op.getUsers())
      if (!isa<UnknownLoc>(user->getLoc())) {
        loc = user->getLoc();
        break;
      }
  }
  if (isa<UnknownLoc>(loc))
    if (auto fn = op.getParentOfType<FunctionOpInterface>())
      loc = fn.getLoc();
  return mlir::emitError(loc) << "'" << op.getName() << "' op " << message;
}

LogicalResult HostLowering::lowerLaunch(xt::LaunchOp launch) {
  // The kernel and its buckets, each launched where its ranges hold the
  // sizes.
  SmallVector<const LoweredKernel *> launched;
  SmallVector<StringRef> names{launch.getKernel()};
  if (ArrayAttr buckets = launch.getBucketsAttr())
    for (auto bucket : buckets.getAsRange<FlatSymbolRefAttr>())
      names.push_back(bucket.getValue());
  for (StringRef name : names) {
    auto lowered = kernels.find(name);
    if (lowered == kernels.end())
      return launch.emitOpError("launches '")
             << name << "', which has no Kernel IR kernel";
    launched.push_back(&lowered->second);
  }
  SmallVector<Value> operands;
  for (Value in : launch.getOperands())
    operands.push_back(bufferOf.lookup(in));
  for (Value out : launch.getResults()) {
    Value buffer;
    auto it = outputOf.find(out);
    if (Value updated = updatedOperand(out)) {
      // The result is the operand's buffer, updated: its own, or a copy
      // of it made first.
      buffer = bufferOf.lookup(updated);
      if (buffer && !updatedInPlace.contains(out)) {
        FailureOr<MemRefType> m = memrefOf(out.getType(), launch);
        if (failed(m))
          return failure();
        Value copy =
            xk::AllocOp::create(b, launch.getLoc(), *m, sizesOf(out.getType()));
        xk::CopyOp::create(b, launch.getLoc(), buffer, copy);
        buffer = copy;
      }
    } else if (it != outputOf.end()) {
      buffer = body->getArgument(fn.getNumArguments() + it->second);
    } else {
      FailureOr<MemRefType> m = memrefOf(out.getType(), launch);
      if (failed(m))
        return failure();
      buffer =
          xk::AllocOp::create(b, launch.getLoc(), *m, sizesOf(out.getType()));
    }
    bufferOf[out] = buffer;
    operands.push_back(buffer);
  }
  if (llvm::any_of(operands, [](Value v) { return !v; }))
    return launch.emitOpError("uses a tensor that is not a buffer of the "
                              "program");
  // The kernel's sizes, by the names the launch passes.
  SmallVector<Value> launchSizes;
  for (StringRef name : launch.getSizes().getAsValueRange<StringAttr>())
    launchSizes.push_back(
        sizes[*symbolIndex(StringAttr::get(fn.getContext(), name))]);
  // A bucket split over two kernels (attention's keys over ways): the
  // first makes the partials, static buffers the second takes after the
  // inputs; both run in the bucket's range.
  SmallVector<std::pair<const LoweredKernel *, SmallVector<Value>>> runs;
  for (const LoweredKernel *lowered : launched) {
    if (lowered->partialsFrom.empty()) {
      runs.push_back({lowered, operands});
      continue;
    }
    auto first = kernels.find(lowered->partialsFrom);
    if (first == kernels.end())
      return launch.emitOpError("launches '")
             << lowered->partialsFrom << "', which has no Kernel IR kernel";
    unsigned numInputs = launch.getNumOperands();
    SmallVector<Value> partials, second(operands.begin(),
                                        operands.begin() + numInputs);
    for (MemRefType memref : lowered->partialTypes) {
      if (!memref.hasStaticShape())
        return launch.emitOpError("launches '")
               << xk::FuncOp(lowered->func).getSymName()
               << "', whose partials are not static buffers";
      partials.push_back(xk::AllocOp::create(b, launch.getLoc(), memref,
                                             ValueRange()));
    }
    SmallVector<Value> firstOperands(second);
    llvm::append_range(firstOperands, partials);
    llvm::append_range(second, partials);
    second.append(operands.begin() + numInputs, operands.end());
    runs.push_back({&first->second, firstOperands});
    runs.push_back({lowered, second});
  }
  for (auto &[lowered, launchOperands] : runs) {
    xk::FuncOp kernel = lowered->func;
    SmallVector<Value> arguments(launchOperands);
    // The TMA tensor maps the kernel takes after its buffers, made here of
    // the buffers they describe.
    for (unsigned i = 0, e = kernel.getNumArguments(); i < e; ++i) {
      auto map = kernel.getArgAttrOfType<DictionaryAttr>(
          i, xk::FuncOp::getTensorMapAttrName());
      if (!map)
        continue;
      arguments.push_back(xk::TensorMapOp::create(
          b, launch.getLoc(),
          launchOperands[map.getAs<IntegerAttr>("of").getInt()],
          map.getAs<DenseI64ArrayAttr>("box").asArrayRef(),
          map.getAs<IntegerAttr>("swizzle").getInt()));
    }
    SmallVector<int64_t> grid(lowered->grid.begin(), lowered->grid.end());
    grid.resize(3, 1);
    AffineMap gridMap = lowered->gridMap;
    DenseI64ArrayAttr when;
    if (launched.size() > 1) {
      SmallVector<int64_t> bounds;
      for (auto [min, max] : lowered->sizeRanges)
        bounds.append({min, max});
      when = b.getDenseI64ArrayAttr(bounds);
    }
    xk::LaunchOp::create(
        b, launch.getLoc(), kernel.getSymName(), b.getDenseI64ArrayAttr(grid),
        b.getDenseI64ArrayAttr({(int64_t)kernel.getMaxThreads(), 1, 1}),
        kernel.getDynamicShared(), arguments, launchSizes,
        gridMap ? AffineMapAttr::get(gridMap) : AffineMapAttr(), when);
  }
  return success();
}

LogicalResult HostLowering::copyResults() {
  for (auto [v, i] : copies) {
    if (isEmpty(v)) // nothing to copy
      continue;
    Value source = bufferOf.lookup(v);
    if (!source)
      return ret.emitOpError("result #")
             << i << " is neither an input nor computed by a kernel";
    xk::CopyOp::create(b, ret.getLoc(), source,
                       body->getArgument(fn.getNumArguments() + i));
  }
  return success();
}

Value HostLowering::updatedOperand(Value out) {
  auto launch = out.getDefiningOp<xt::LaunchOp>();
  if (!launch || !launch.getUpdates())
    return Value();
  int64_t operand = (*launch.getUpdates())[cast<OpResult>(out).getResultNumber()];
  return operand >= 0 ? launch.getInputs()[operand] : Value();
}

bool HostLowering::mayUpdate(Value out, Value operand,
                             Operation *launch) {
  if (isUsedAfter(operand, launch))
    return false;
  auto arg = dyn_cast<BlockArgument>(operand);
  if (!arg)
    return true; // a temporary that nothing reads again
  for (auto [r, a] : llvm::enumerate(inPlaceOf))
    if (a == arg.getArgNumber())
      return ret.getOperand(r) == out;
  return false;
}

FailureOr<xk::ProgramOp> HostLowering::run() {
  inPlaceOf = getInPlaceArguments(fn);
  for (Operation &op : fn.getBody().front())
    if (auto launch = dyn_cast<xt::LaunchOp>(op))
      for (Value out : launch.getResults())
        if (Value operand = updatedOperand(out);
            operand && mayUpdate(out, operand, launch))
          updatedInPlace.insert(out);
  for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
    if (int64_t a = inPlaceOf[i]; a >= 0) {
      // Returned in the argument's buffer: already there, written there
      // by the launch that updates it, or copied there at the end (after
      // every launch has read the argument).
      Value arg = fn.getArgument(a);
      if (v == arg || (updatedInPlace.contains(v) && updatedOperand(v) == arg))
        continue;
      copies.push_back({v, unsigned(i)});
      continue;
    }
    if (!v.getDefiningOp<xt::LaunchOp>() || outputOf.count(v)) {
      copies.push_back({v, unsigned(i)});
      continue;
    }
    if (updatedOperand(v)) {
      // A chain of updates in place (a scatter-add's fill, then its adds):
      // the launch that starts it writes the result buffer, and the
      // updates follow it there, unless that temporary is returned too.
      Value root = v;
      while (updatedInPlace.contains(root))
        root = updatedOperand(root);
      if (root == v || updatedOperand(root) || outputOf.count(root) ||
          !root.getDefiningOp<xt::LaunchOp>() ||
          llvm::is_contained(ret.getOperands(), root))
        copies.push_back({v, unsigned(i)});
      else
        outputOf[root] = i;
      continue;
    }
    outputOf[v] = i;
  }
  if (failed(createProgram()))
    return failure();
  for (Operation &op : fn.getBody().front().without_terminator())
    if (failed(lowerOp(op))) {
      program.erase();
      return failure();
    }
  if (failed(copyResults())) {
    program.erase();
    return failure();
  }
  return program;
}

FailureOr<xk::ProgramOp>
xtile::lowerHostFunction(Operation *op,
                         const llvm::StringMap<LoweredKernel> &kernels) {
  auto fn = dyn_cast<func::FuncOp>(op);
  if (!fn || fn.isExternal())
    return op->emitOpError("is not a function of launches");
  return HostLowering(fn, kernels).run();
}
