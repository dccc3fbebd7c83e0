//===- KernelSignature.cpp - kernel ops' shared syntax --------------------===//

#include "xtile/Support/KernelSignature.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "xtile/Support/SymbolicDims.h"

using namespace mlir;

namespace {
constexpr llvm::StringLiteral kNumSizes = "num_sizes";
constexpr llvm::StringLiteral kSizeRanges = "size_ranges";
constexpr llvm::StringLiteral kSizeHints = "size_hints";
constexpr llvm::StringLiteral kBufferDims = "buffer_dims";

/// Whether ops named `name` declare dynamic sizes.
bool takesSizes(OperationName name) {
  return llvm::any_of(name.getAttributeNames(), [](StringAttr attr) {
    return attr.getValue() == kNumSizes;
  });
}

int64_t numSizesOf(Operation *op) {
  auto n = op->getAttrOfType<IntegerAttr>(kNumSizes);
  return n ? n.getInt() : 0;
}
} // namespace

ParseResult xtile::parseKernel(OpAsmParser &parser, OperationState &result,
                               StringAttr numInputsName) {
  StringAttr name;
  if (parser.parseSymbolName(name, SymbolTable::getSymbolAttrName(),
                             result.attributes))
    return failure();
  Builder &b = parser.getBuilder();
  // [%T = 1 to 4096, ...]
  SmallVector<OpAsmParser::Argument> sizes;
  SmallVector<int64_t> ranges;
  if (takesSizes(result.name) && succeeded(parser.parseOptionalLSquare())) {
    if (parser.parseCommaSeparatedList([&]() -> ParseResult {
          OpAsmParser::Argument size;
          int64_t lo, hi;
          if (parser.parseArgument(size) || parser.parseEqual() ||
              parser.parseInteger(lo) || parser.parseKeyword("to") ||
              parser.parseInteger(hi))
            return failure();
          size.type = b.getIndexType();
          sizes.push_back(size);
          ranges.append({lo, hi});
          return success();
        }) ||
        parser.parseRSquare())
      return failure();
  }
  // (%x: memref<?x8xf32> [%T], ...)
  SmallVector<int64_t> bufferDims;
  auto parseBuffers = [&](SmallVector<OpAsmParser::Argument> &buffers) {
    return parser.parseCommaSeparatedList(
        OpAsmParser::Delimiter::Paren, [&]() -> ParseResult {
          OpAsmParser::Argument buffer;
          if (parser.parseArgument(buffer, /*allowType=*/true))
            return failure();
          buffers.push_back(buffer);
          if (sizes.empty() || failed(parser.parseOptionalLSquare()))
            return success();
          return failure(
              parser.parseCommaSeparatedList([&]() -> ParseResult {
                OpAsmParser::UnresolvedOperand use;
                llvm::SMLoc at = parser.getCurrentLocation();
                if (parser.parseOperand(use))
                  return failure();
                auto it = llvm::find_if(sizes, [&](auto &size) {
                  return size.ssaName.name == use.name &&
                         size.ssaName.number == use.number;
                });
                if (it == sizes.end())
                  return parser.emitError(at, "'")
                         << use.name << "' is not a size of the kernel";
                bufferDims.push_back(it - sizes.begin());
                return success();
              }) ||
              parser.parseRSquare());
        });
  };
  SmallVector<OpAsmParser::Argument> inputs, outputs;
  if (parseBuffers(inputs) || parser.parseArrow() || parseBuffers(outputs))
    return failure();
  // The op's own attributes must have their declared kinds (as generated
  // parsers check): a wrongly typed one would otherwise be dropped.
  llvm::SMLoc attrLoc = parser.getCurrentLocation();
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes) ||
      failed(result.name.verifyInherentAttrs(
          result.attributes, [&] { return parser.emitError(attrLoc); })))
    return failure();
  result.addAttribute(numInputsName, b.getI64IntegerAttr(inputs.size()));
  if (!sizes.empty()) {
    result.addAttribute(kNumSizes, b.getI64IntegerAttr(sizes.size()));
    result.addAttribute(kSizeRanges, b.getDenseI64ArrayAttr(ranges));
    result.addAttribute(kBufferDims, b.getDenseI64ArrayAttr(bufferDims));
  }
  SmallVector<OpAsmParser::Argument> args(inputs);
  llvm::append_range(args, outputs);
  llvm::append_range(args, sizes);
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, args))
    return failure();
  if (body->empty())
    body->emplaceBlock();
  return success();
}

void xtile::printKernel(OpAsmPrinter &p, Operation *op, StringRef name,
                        unsigned numInputs, StringAttr numInputsName) {
  p << ' ';
  p.printSymbolName(name);
  Block &body = op->getRegion(0).front();
  ArrayRef<BlockArgument> sizes = getKernelSizes(op);
  auto ranges = op->getAttrOfType<DenseI64ArrayAttr>(kSizeRanges);
  if (!sizes.empty()) {
    p << '[';
    llvm::interleaveComma(llvm::enumerate(sizes), p, [&](auto item) {
      p.printOperand(item.value());
      if (ranges && static_cast<int64_t>(ranges.size()) >
                        2 * static_cast<int64_t>(item.index()) + 1)
        p << " = " << ranges[2 * item.index()] << " to "
          << ranges[2 * item.index() + 1];
    });
    p << ']';
  }
  auto printArgs = [&](ArrayRef<BlockArgument> args) {
    p << '(';
    llvm::interleaveComma(args, p, [&](BlockArgument arg) {
      p.printRegionArgument(arg);
      SmallVector<BlockArgument> dims = getKernelBufferSizes(op, arg);
      if (dims.empty())
        return;
      p << " [";
      llvm::interleaveComma(dims, p,
                            [&](BlockArgument d) { p.printOperand(d); });
      p << ']';
    });
    p << ')';
  };
  ArrayRef<BlockArgument> buffers =
      body.getArguments().drop_back(sizes.size());
  printArgs(buffers.take_front(numInputs));
  p << " -> ";
  printArgs(buffers.drop_front(numInputs));
  p.printOptionalAttrDictWithKeyword(
      op->getAttrs(), {SymbolTable::getSymbolAttrName(), numInputsName,
                       kNumSizes, kSizeRanges, kBufferDims});
  p << ' ';
  p.printRegion(op->getRegion(0), /*printEntryBlockArgs=*/false);
}

LogicalResult xtile::verifyKernelBuffers(Operation *op, Block &body,
                                         int64_t numInputs) {
  int64_t numArgs = body.getNumArguments();
  int64_t numSizes = numSizesOf(op);
  if (numInputs < 0)
    return op->emitOpError()
           << "num_inputs must be non-negative, got " << numInputs;
  if (numSizes < 0 || numSizes > numArgs)
    return op->emitOpError() << "num_sizes " << numSizes
                             << " does not fit its " << numArgs
                             << " arguments";
  int64_t numBuffers = numArgs - numSizes;
  if (numInputs > numBuffers)
    return op->emitOpError() << "num_inputs " << numInputs << " exceeds its "
                             << numBuffers << " buffers";
  if (numInputs == numBuffers)
    return op->emitOpError() << "needs at least one output buffer";
  auto ranges = op->getAttrOfType<DenseI64ArrayAttr>(kSizeRanges);
  auto hints = op->getAttrOfType<DenseI64ArrayAttr>(kSizeHints);
  auto dims = op->getAttrOfType<DenseI64ArrayAttr>(kBufferDims);
  if (numSizes == 0 && ((ranges && !ranges.empty()) ||
                        (hints && !hints.empty()) || (dims && !dims.empty())))
    return op->emitOpError("has size ranges, hints or buffer dims but no "
                           "sizes");
  if (numSizes > 0) {
    if (!ranges || static_cast<int64_t>(ranges.size()) != 2 * numSizes)
      return op->emitOpError() << "needs a range (min, max) for each of its "
                               << numSizes << " sizes";
    for (int64_t i = 0; i < numSizes; ++i) {
      if (ranges[2 * i] < 1 || ranges[2 * i] > ranges[2 * i + 1])
        return op->emitOpError()
               << "size #" << i << " has the range [" << ranges[2 * i] << ", "
               << ranges[2 * i + 1] << "]; it needs 1 <= min <= max";
      if (!body.getArgument(numBuffers + i).getType().isIndex())
        return op->emitOpError() << "size #" << i << " must be an index";
    }
    if (hints) {
      if (static_cast<int64_t>(hints.size()) != numSizes)
        return op->emitOpError()
               << "has " << hints.size() << " size hints for " << numSizes
               << " sizes";
      for (int64_t i = 0; i < numSizes; ++i)
        if (hints[i] < ranges[2 * i] || hints[i] > ranges[2 * i + 1])
          return op->emitOpError()
                 << "size hint " << hints[i] << " of size #" << i
                 << " is outside its range [" << ranges[2 * i] << ", "
                 << ranges[2 * i + 1] << "]";
    }
  }
  int64_t dynamic = 0;
  for (BlockArgument arg : body.getArguments().take_front(numBuffers)) {
    auto memref = dyn_cast<MemRefType>(arg.getType());
    if (!memref || (!memref.hasStaticShape() && numSizes == 0))
      return op->emitOpError()
             << "buffer #" << arg.getArgNumber() << " must be a "
             << (numSizes ? "" : "statically shaped ") << "memref, got "
             << arg.getType();
    dynamic += memref.getNumDynamicDims();
  }
  int64_t named = dims ? static_cast<int64_t>(dims.size()) : 0;
  if (named != dynamic)
    return op->emitOpError() << "names " << named << " sizes for the "
                             << dynamic << " dynamic sizes of its buffers";
  for (int64_t d : dims ? dims.asArrayRef() : ArrayRef<int64_t>())
    if (d < 0 || d >= numSizes)
      return op->emitOpError() << "buffer dim refers to size #" << d
                               << " of " << numSizes;
  return success();
}

std::optional<std::pair<ArrayRef<BlockArgument>, ArrayRef<BlockArgument>>>
xtile::getKernelBuffers(Operation *op) {
  auto numInputs = op->getAttrOfType<IntegerAttr>("num_inputs");
  if (!numInputs || op->getNumRegions() != 1 || op->getRegion(0).empty())
    return std::nullopt;
  ArrayRef<BlockArgument> args = op->getRegion(0).front().getArguments();
  int64_t n = numInputs.getInt(), sizes = numSizesOf(op);
  if (n < 0 || sizes < 0 || n + sizes > static_cast<int64_t>(args.size()))
    return std::nullopt;
  args = args.drop_back(sizes);
  return std::make_pair(args.take_front(n), args.drop_front(n));
}

ArrayRef<BlockArgument> xtile::getKernelSizes(Operation *op) {
  int64_t n = numSizesOf(op);
  if (n <= 0 || op->getNumRegions() != 1 || op->getRegion(0).empty())
    return {};
  ArrayRef<BlockArgument> args = op->getRegion(0).front().getArguments();
  if (n > static_cast<int64_t>(args.size()))
    return {};
  return args.take_back(n);
}

SmallVector<BlockArgument> xtile::getKernelBufferSizes(Operation *op,
                                                       BlockArgument buffer) {
  ArrayRef<BlockArgument> sizes = getKernelSizes(op);
  auto dims = op->getAttrOfType<DenseI64ArrayAttr>(kBufferDims);
  if (sizes.empty() || !dims)
    return {};
  // The `?` sizes of the buffers before this one come first.
  int64_t first = 0;
  for (BlockArgument arg : op->getRegion(0).front().getArguments()) {
    if (arg == buffer)
      break;
    if (auto memref = dyn_cast<MemRefType>(arg.getType()))
      first += memref.getNumDynamicDims();
  }
  auto memref = dyn_cast<MemRefType>(buffer.getType());
  if (!memref)
    return {};
  SmallVector<BlockArgument> out;
  for (size_t i = 0; i < memref.getNumDynamicDims(); ++i) {
    int64_t at = first + i;
    if (at >= static_cast<int64_t>(dims.size()) || dims[at] < 0 ||
        dims[at] >= static_cast<int64_t>(sizes.size()))
      return {};
    out.push_back(sizes[dims[at]]);
  }
  return out;
}

SmallVector<int64_t> xtile::evaluateSizeMap(AffineMap map,
                                            ArrayRef<int64_t> symbols) {
  SmallVector<AffineExpr> values;
  for (int64_t v : symbols)
    values.push_back(getAffineConstantExpr(v, map.getContext()));
  AffineMap folded = map.replaceDimsAndSymbols({}, values, 0, 0);
  SmallVector<int64_t> results;
  for (AffineExpr e : folded.getResults())
    results.push_back(cast<AffineConstantExpr>(e).getValue());
  return results;
}

SmallVector<std::pair<int64_t, int64_t>>
xtile::getKernelSizeRanges(Operation *op) {
  SmallVector<std::pair<int64_t, int64_t>> result;
  auto ranges = op->getAttrOfType<DenseI64ArrayAttr>(kSizeRanges);
  if (!ranges)
    return result;
  for (int64_t i = 0; i + 1 < ranges.size(); i += 2)
    result.push_back({ranges[i], ranges[i + 1]});
  return result;
}

LogicalResult xtile::verifyGridMap(Operation *op, AffineMap map,
                                   ArrayRef<int64_t> grid) {
  int64_t numSizes = numSizesOf(op);
  if (numSizes == 0)
    return op->emitOpError("has a grid map but no dynamic sizes");
  if (map.getNumDims() != 0 ||
      static_cast<int64_t>(map.getNumSymbols()) != numSizes ||
      map.getNumResults() != grid.size())
    return op->emitOpError()
           << "grid map " << AffineMapAttr::get(map) << " must have no dimensions, one symbol per "
           << "size (" << numSizes << ") and one result per grid dimension ("
           << grid.size() << ")";
  SmallVector<int64_t> lo, hi;
  for (auto [min, max] : getKernelSizeRanges(op)) {
    lo.push_back(min);
    hi.push_back(max);
  }
  if (static_cast<int64_t>(hi.size()) != numSizes)
    return failure(); // verifyKernelBuffers reports it
  SmallVector<int64_t> atMax = evaluateSizeMap(map, hi);
  if (ArrayRef<int64_t>(atMax) != grid)
    return op->emitOpError() << "grid [" << grid
                             << "] is not its grid map at the sizes' maxima ["
                             << atMax << "]";
  SmallVector<int64_t> atMin = evaluateSizeMap(map, lo);
  if (llvm::any_of(atMin, [](int64_t g) { return g <= 0; }))
    return op->emitOpError() << "grid map " << AffineMapAttr::get(map)
                             << " has no programs at the sizes' minima";
  if (atMax[0] > 2147483647 ||
      llvm::any_of(ArrayRef(atMax).drop_front(),
                   [](int64_t g) { return g > 65535; })) {
    InFlightDiagnostic diag =
        op->emitOpError()
        << "grid map " << AffineMapAttr::get(map) << " gives [" << atMax
        << "] programs at the sizes' maxima, past CUDA's grid limits (x < "
           "2^31, y and z <= 65535): declare a narrower range for the "
           "sizes";
    return markDynamicSizeLimit(diag);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Launches of kernels on tensors
//===----------------------------------------------------------------------===//

ParseResult xtile::parseSizeNames(OpAsmParser &parser, ArrayAttr &sizes) {
  SmallVector<Attribute> names;
  if (succeeded(parser.parseOptionalLSquare()) &&
      (parser.parseCommaSeparatedList([&]() -> ParseResult {
        std::string name;
        if (parser.parseKeywordOrString(&name))
          return failure();
        names.push_back(parser.getBuilder().getStringAttr(name));
        return success();
      }) ||
       parser.parseRSquare()))
    return failure();
  sizes = parser.getBuilder().getArrayAttr(names);
  return success();
}

void xtile::printSizeNames(OpAsmPrinter &p, Operation *, ArrayAttr sizes) {
  if (!sizes || sizes.empty())
    return;
  p << '[';
  llvm::interleaveComma(sizes.getAsValueRange<StringAttr>(), p,
                        [&](StringRef name) { p.printKeywordOrString(name); });
  p << ']';
}

/// verifyKernelLaunch on the types of the launch's tensors.
static LogicalResult verifyLaunchTypes(Operation *launch,
                                       FlatSymbolRefAttr kernelName,
                                       ArrayAttr names, TypeRange inputs,
                                       TypeRange outputs,
                                       SymbolTableCollection &symbols) {
  // Loop IR kernels, and the Tile IR kernels they are lowered to, share
  // one form: buffers as block arguments, inputs first (num_inputs).
  Operation *kernel = symbols.lookupNearestSymbolFrom(launch, kernelName);
  std::optional<std::pair<ArrayRef<BlockArgument>, ArrayRef<BlockArgument>>>
      buffers = kernel ? xtile::getKernelBuffers(kernel) : std::nullopt;
  if (!buffers)
    return launch->emitOpError()
           << "'" << kernelName.getValue() << "' does not reference a kernel";
  // A tensor matches its buffer in shape (`?` where the buffer has one)
  // and element type, and each `?` is named by the size its buffer's `?`
  // is given.
  ArrayRef<BlockArgument> kernelSizes = xtile::getKernelSizes(kernel);
  if (names.size() != kernelSizes.size())
    return launch->emitOpError()
           << "passes " << names.size() << " size(s) but kernel @"
           << kernelName.getValue() << " takes " << kernelSizes.size();
  if (!names.empty()) {
    Operation *func = launch->getParentOfType<FunctionOpInterface>();
    for (StringRef name : names.getAsValueRange<StringAttr>())
      if (!xtile::getDeclaredSymbol(func, name))
        return launch->emitOpError()
               << "passes the size '" << name
               << "', which the enclosing function does not "
                  "declare in 'xtensor.symbols'";
  }
  auto matches = [&](Type tensor, BlockArgument buffer) {
    auto t = cast<ShapedType>(tensor);
    auto b = cast<ShapedType>(buffer.getType());
    if (t.getShape() != b.getShape() ||
        t.getElementType() != b.getElementType())
      return false;
    SmallVector<StringAttr> named = xtile::getSymbols(tensor);
    SmallVector<BlockArgument> sizes = xtile::getKernelBufferSizes(kernel, buffer);
    if (named.size() != sizes.size())
      return false;
    for (auto [symbol, size] : llvm::zip(named, sizes))
      if (names[llvm::find(kernelSizes, size) - kernelSizes.begin()] != symbol)
        return false;
    return true;
  };
  auto [ins, outs] = *buffers;
  if (ins.size() != inputs.size() || outs.size() != outputs.size())
    return launch->emitOpError()
           << "passes " << inputs.size() << " input(s) and expects "
           << outputs.size() << " output(s) but kernel @"
           << kernelName.getValue() << " has " << ins.size() << " input(s) and "
           << outs.size() << " output(s)";
  auto check = [&](StringRef what, TypeRange types,
                   ArrayRef<BlockArgument> buffers) -> LogicalResult {
    for (auto [i, pair] : llvm::enumerate(llvm::zip(types, buffers)))
      if (!matches(std::get<0>(pair), std::get<1>(pair)))
        return launch->emitOpError()
               << what << " #" << i << " " << std::get<0>(pair)
               << " does not match kernel buffer "
               << std::get<1>(pair).getType();
    return success();
  };
  if (failed(check("input", inputs, ins)))
    return failure();
  return check("output", outputs, outs);
}

LogicalResult xtile::verifyKernelLaunch(Operation *launch,
                                        FlatSymbolRefAttr kernelName,
                                        ArrayAttr names, ValueRange inputs,
                                        ValueRange outputs,
                                        SymbolTableCollection &symbols) {
  return verifyLaunchTypes(launch, kernelName, names, inputs.getTypes(),
                           outputs.getTypes(), symbols);
}

/// A bucket of a launch: launched as the launch's kernel is, or, where it
/// names the kernel of its partials (`partials_from`, a split over two
/// kernels), that kernel launched on the inputs and it on the inputs and
/// the partials.
static LogicalResult verifyBucket(Operation *launch, FlatSymbolRefAttr bucket,
                                  ArrayAttr names, ValueRange inputs,
                                  ValueRange outputs,
                                  SymbolTableCollection &symbols) {
  Operation *kernel = symbols.lookupNearestSymbolFrom(launch, bucket);
  auto first = kernel ? kernel->getAttrOfType<FlatSymbolRefAttr>(
                            xtile::kPartialsFromAttrName)
                      : FlatSymbolRefAttr();
  if (!first)
    return xtile::verifyKernelLaunch(launch, bucket, names, inputs, outputs, symbols);
  Operation *partial = symbols.lookupNearestSymbolFrom(launch, first);
  auto buffers = partial ? xtile::getKernelBuffers(partial) : std::nullopt;
  if (!buffers)
    return launch->emitOpError()
           << "launches @" << bucket.getValue() << ", whose partials come from '"
           << first.getValue() << "', which is not a kernel";
  SmallVector<Type> partials;
  for (BlockArgument out : buffers->second) {
    auto memref = cast<MemRefType>(out.getType());
    if (!memref.hasStaticShape())
      return launch->emitOpError()
             << "launches @" << bucket.getValue() << ", whose partials from @"
             << first.getValue() << " are not static buffers: " << memref;
    partials.push_back(
        RankedTensorType::get(memref.getShape(), memref.getElementType()));
  }
  SmallVector<Type> withPartials(inputs.getTypes());
  llvm::append_range(withPartials, partials);
  if (failed(verifyLaunchTypes(launch, first, names, inputs.getTypes(),
                               partials, symbols)) ||
      failed(verifyLaunchTypes(launch, bucket, names, withPartials,
                               outputs.getTypes(), symbols)))
    return failure();
  if (xtile::getKernelSizeRanges(partial) != xtile::getKernelSizeRanges(kernel))
    return launch->emitOpError()
           << "launches @" << bucket.getValue() << " and its partials' kernel @"
           << first.getValue() << ", which declare different size ranges";
  return success();
}

LogicalResult
xtile::verifyLaunchUpdates(Operation *launch,
                           std::optional<ArrayRef<int64_t>> updates,
                           ValueRange inputs, ValueRange outputs) {
  if (!updates)
    return success();
  if (updates->size() != outputs.size())
    return launch->emitOpError()
           << "has " << updates->size() << " 'updates' entries for "
           << outputs.size() << " output(s)";
  for (auto [i, operand] : llvm::enumerate(*updates)) {
    if (operand == -1)
      continue;
    if (operand < 0 || operand >= int64_t(inputs.size()))
      return launch->emitOpError()
             << "output #" << i << " updates operand #" << operand
             << ", which the launch does not have";
    if (inputs[operand].getType() != outputs[i].getType())
      return launch->emitOpError()
             << "output #" << i << " " << outputs[i].getType()
             << " cannot update operand #" << operand << " "
             << inputs[operand].getType() << " in place";
    if (llvm::is_contained(updates->take_front(i), operand))
      return launch->emitOpError()
             << "updates operand #" << operand << " twice";
  }
  return success();
}

LogicalResult xtile::verifyLaunchBuckets(Operation *launch,
                                         FlatSymbolRefAttr kernelName,
                                         ArrayAttr buckets, ArrayAttr names,
                                         ValueRange inputs, ValueRange outputs,
                                         SymbolTableCollection &symbols) {
  if (!buckets)
    return verifyKernelLaunch(launch, kernelName, names, inputs, outputs,
                              symbols);
  if (failed(verifyBucket(launch, kernelName, names, inputs, outputs,
                          symbols)))
    return failure();
  if (buckets.empty())
    return launch->emitOpError("has an empty list of buckets");
  SmallVector<FlatSymbolRefAttr> all{kernelName};
  for (Attribute a : buckets)
    all.push_back(cast<FlatSymbolRefAttr>(a));
  // Each is launched as the kernel is: the same buffers and sizes.
  for (FlatSymbolRefAttr bucket : ArrayRef(all).drop_front()) {
    if (llvm::count(all, bucket) > 1)
      return launch->emitOpError()
             << "names @" << bucket.getValue() << " twice among its kernels";
    if (failed(verifyBucket(launch, bucket, names, inputs, outputs, symbols)))
      return failure();
  }
  // They differ in the range of one size, which they split into
  // consecutive parts.
  SmallVector<SmallVector<std::pair<int64_t, int64_t>>> ranges;
  for (FlatSymbolRefAttr k : all)
    ranges.push_back(
        getKernelSizeRanges(symbols.lookupNearestSymbolFrom(launch, k)));
  std::optional<unsigned> split;
  for (unsigned d = 0; d < ranges.front().size(); ++d)
    if (llvm::any_of(ranges, [&](auto &r) { return r[d] != ranges[0][d]; })) {
      if (split)
        return launch->emitOpError()
               << "has buckets whose kernels differ in the ranges of sizes #"
               << *split << " and #" << d << " (at most one size is split)";
      split = d;
    }
  if (!split)
    return launch->emitOpError()
           << "has buckets whose kernels declare the same size ranges";
  SmallVector<std::pair<int64_t, int64_t>> parts;
  for (auto &r : ranges)
    parts.push_back(r[*split]);
  llvm::sort(parts);
  for (unsigned i = 1; i < parts.size(); ++i)
    if (parts[i].first != parts[i - 1].second + 1)
      return launch->emitOpError()
             << "has buckets whose ranges of size #" << *split
             << " do not follow each other: [" << parts[i - 1].first << ", "
             << parts[i - 1].second << "] then [" << parts[i].first << ", "
             << parts[i].second << "]";
  return success();
}

bool xtile::isUsedAfter(Value value, Operation *launch) {
  return llvm::any_of(value.getUsers(), [&](Operation *user) {
    return user != launch && (user->getBlock() != launch->getBlock() ||
                              launch->isBeforeInBlock(user));
  });
}
