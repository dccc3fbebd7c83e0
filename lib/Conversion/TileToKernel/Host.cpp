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
#include "xtile/Support/SymbolicDims.h"

using namespace mlir;
using namespace xtile;
namespace xk = xtile::kernel;
namespace xt = xtile::tile;

//===----------------------------------------------------------------------===//
// The host side
//===----------------------------------------------------------------------===//

FailureOr<xk::ProgramOp>
xtile::lowerHostFunction(Operation *op,
                         const llvm::StringMap<LoweredKernel> &kernels) {
  auto fn = dyn_cast<func::FuncOp>(op);
  if (!fn || fn.isExternal())
    return op->emitOpError("is not a function of launches");
  // The function's sizes (its declared symbols, sorted by name) become
  // the program's, after its buffers.
  SmallVector<DeclaredSymbol> symbols = getDeclaredSymbols(fn);
  auto symbolIndex = [&](StringAttr symbol) -> std::optional<int64_t> {
    for (auto [i, s] : llvm::enumerate(symbols))
      if (s.name == symbol)
        return i;
    return std::nullopt;
  };
  auto memrefOf = [&](Type t, Operation *user) -> FailureOr<MemRefType> {
    auto type = dyn_cast<RankedTensorType>(t);
    if (!type || !isXTensorType(type))
      return user->emitOpError("needs ranked tensors whose dynamic sizes "
                               "are named (#xtensor.dims), got ")
             << t;
    for (StringAttr symbol : getSymbols(type))
      if (!symbolIndex(symbol))
        return user->emitOpError("has the dynamic size '")
               << symbol.getValue()
               << "', which the function does not declare";
    return MemRefType::get(type.getShape(), type.getElementType());
  };
  auto ret = cast<func::ReturnOp>(fn.getBody().front().getTerminator());
  SmallVector<Type> buffers;
  for (Type t : fn.getArgumentTypes()) {
    FailureOr<MemRefType> m = memrefOf(t, fn);
    if (failed(m))
      return failure();
    buffers.push_back(*m);
  }
  for (Type t : fn.getResultTypes()) {
    FailureOr<MemRefType> m = memrefOf(t, fn);
    if (failed(m))
      return failure();
    buffers.push_back(*m);
  }
  // A returned value that is an input, or that is returned again, is
  // copied into its output buffer after the launches; any other is
  // written by its kernel directly.
  DenseMap<Value, unsigned> outputOf;
  SmallVector<std::pair<Value, unsigned>> copies;
  for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
    if (!v.getDefiningOp<xt::LaunchOp>() || outputOf.count(v))
      copies.push_back({v, unsigned(i)});
    else
      outputOf[v] = i;
  }
  OpBuilder b(fn);
  auto program = xk::ProgramOp::create(b, fn.getLoc(), fn.getSymName(),
                                       fn.getNumArguments());
  Block *body = b.createBlock(&program.getBody(), {}, buffers,
                              SmallVector<Location>(buffers.size(), fn.getLoc()));
  SmallVector<Value> sizes;
  bool dynamic = llvm::any_of(buffers, [](Type t) {
    return !cast<MemRefType>(t).hasStaticShape();
  });
  if (dynamic) {
    SmallVector<int64_t> ranges, bufferDims;
    SmallVector<StringRef> names;
    for (const DeclaredSymbol &symbol : symbols) {
      sizes.push_back(body->addArgument(b.getIndexType(), fn.getLoc()));
      ranges.append({symbol.min, symbol.max});
      names.push_back(symbol.name.getValue());
    }
    for (Type t : llvm::concat<const Type>(fn.getArgumentTypes(),
                                     fn.getResultTypes()))
      for (StringAttr symbol : getSymbols(t))
        bufferDims.push_back(*symbolIndex(symbol));
    program.setNumSizes(symbols.size());
    program.setSizeRanges(ranges);
    program.setBufferDims(bufferDims);
    program.setSizeNamesAttr(b.getStrArrayAttr(names));
  }
  // The values of the `?`s of a tensor of the function, in order.
  auto sizesOf = [&](Type t) {
    SmallVector<Value> values;
    for (StringAttr symbol : getSymbols(t))
      values.push_back(sizes[*symbolIndex(symbol)]);
    return values;
  };
  b.setInsertionPointToStart(body);
  DenseMap<Value, Value> bufferOf;
  for (auto [arg, buffer] : llvm::zip(fn.getArguments(), body->getArguments()))
    bufferOf[arg] = buffer;
  auto isEmpty = [](Value v) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    return t && t.hasStaticShape() && t.getNumElements() == 0;
  };
  for (Operation &inner : fn.getBody().front().without_terminator()) {
    // An empty tensor (Loop IR makes every empty result a constant) is a
    // buffer of no bytes: a kernel may take it, nothing reads it.
    if (auto constant = dyn_cast<arith::ConstantOp>(inner);
        constant && isEmpty(constant.getResult())) {
      if (llvm::all_of(constant->getUsers(),
                       [](Operation *user) { return isa<func::ReturnOp>(user); }))
        continue;
      FailureOr<MemRefType> m = memrefOf(constant.getType(), constant);
      if (failed(m)) {
        program.erase();
        return failure();
      }
      bufferOf[constant.getResult()] = xk::AllocOp::create(
          b, constant.getLoc(), *m, sizesOf(constant.getType()));
      continue;
    }
    auto launch = dyn_cast<xt::LaunchOp>(inner);
    if (isa<arith::ConstantOp>(inner)) {
      program.erase();
      return inner.emitOpError(
          "a constant tensor that is not a splat, as a kernel's input or a "
          "result, is not supported (pass it as an argument: xtile.compile "
          "does unless params_as_constants=True)");
    }
    if (!launch) {
      program.erase();
      return inner.emitOpError("is not supported on the host side of Kernel "
                               "IR (only kernel launches are)");
    }
    auto lowered = kernels.find(launch.getKernel());
    if (lowered == kernels.end()) {
      program.erase();
      return launch.emitOpError("launches '")
             << launch.getKernel() << "', which has no Kernel IR kernel";
    }
    SmallVector<Value> operands;
    for (Value in : launch.getOperands())
      operands.push_back(bufferOf.lookup(in));
    for (Value out : launch.getResults()) {
      Value buffer;
      auto it = outputOf.find(out);
      if (it != outputOf.end()) {
        buffer = body->getArgument(fn.getNumArguments() + it->second);
      } else {
        FailureOr<MemRefType> m = memrefOf(out.getType(), launch);
        if (failed(m)) {
          program.erase();
          return failure();
        }
        buffer = xk::AllocOp::create(b, launch.getLoc(), *m,
                                     sizesOf(out.getType()));
      }
      bufferOf[out] = buffer;
      operands.push_back(buffer);
    }
    if (llvm::any_of(operands, [](Value v) { return !v; })) {
      program.erase();
      return launch.emitOpError("uses a tensor that is not a buffer of the "
                                "program");
    }
    xk::FuncOp kernel = lowered->second.func;
    // The TMA tensor maps the kernel takes after its buffers, made here of
    // the buffers they describe.
    for (unsigned i = 0, e = kernel.getNumArguments(); i < e; ++i) {
      auto map = kernel.getArgAttrOfType<DictionaryAttr>(
          i, xk::FuncOp::getTensorMapAttrName());
      if (!map)
        continue;
      operands.push_back(xk::TensorMapOp::create(
          b, launch.getLoc(), operands[map.getAs<IntegerAttr>("of").getInt()],
          map.getAs<DenseI64ArrayAttr>("box").asArrayRef(),
          map.getAs<IntegerAttr>("swizzle").getInt()));
    }
    // The kernel's sizes, by the names the launch passes.
    SmallVector<Value> launchSizes;
    for (StringRef name : launch.getSizes().getAsValueRange<StringAttr>())
      launchSizes.push_back(
          sizes[*symbolIndex(StringAttr::get(fn.getContext(), name))]);
    SmallVector<int64_t> grid(lowered->second.grid.begin(),
                              lowered->second.grid.end());
    grid.resize(3, 1);
    AffineMap gridMap = lowered->second.gridMap;
    xk::LaunchOp::create(
        b, launch.getLoc(), kernel.getSymName(), b.getDenseI64ArrayAttr(grid),
        b.getDenseI64ArrayAttr({(int64_t)kernel.getMaxThreads(), 1, 1}),
        kernel.getDynamicShared(), operands, launchSizes,
        gridMap ? AffineMapAttr::get(gridMap) : AffineMapAttr());
  }
  for (auto [v, i] : copies) {
    if (isEmpty(v)) // nothing to copy
      continue;
    Value source = bufferOf.lookup(v);
    if (!source) {
      program.erase();
      return ret.emitOpError("result #")
             << i << " is neither an input nor computed by a kernel";
    }
    xk::CopyOp::create(b, ret.getLoc(), source,
                       body->getArgument(fn.getNumArguments() + i));
  }
  return program;
}
