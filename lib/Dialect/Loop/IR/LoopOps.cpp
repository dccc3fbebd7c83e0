//===- LoopOps.cpp - xloop dialect and operations -------------------------===//

#include "xtile/Dialect/Loop/IR/LoopOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "xtile/Support/KernelSignature.h"

using namespace mlir;
using namespace xtile::loop;

#include "xtile/Dialect/Loop/IR/LoopDialect.cpp.inc"
#include "xtile/Dialect/Loop/IR/LoopEnums.cpp.inc"

void XLoopDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "xtile/Dialect/Loop/IR/LoopOps.cpp.inc"
      >();
}

LogicalResult XLoopDialect::verifyOperationAttribute(Operation *op,
                                                     NamedAttribute attr) {
  if (attr.getName() == getIdentityAttrHelper().getName()) {
    if (!isa<KernelOp>(op))
      return op->emitOpError() << "'" << attr.getName().getValue()
                               << "' belongs on an 'xloop.kernel'";
    if (!isa<StringAttr>(attr.getValue()))
      return op->emitOpError() << "'" << attr.getName().getValue()
                               << "' must be a string, got "
                               << attr.getValue();
    return success();
  }
  return op->emitOpError() << "unknown xloop attribute '"
                           << attr.getName().getValue() << "'";
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  return xtile::parseKernel(parser, result, getNumInputsAttrName(result.name));
}

void KernelOp::print(OpAsmPrinter &p) {
  xtile::printKernel(p, *this, getSymName(), getNumInputs(),
                     getNumInputsAttrName());
}

LogicalResult KernelOp::verify() {
  if (failed(xtile::verifyKernelBuffers(
          *this, getBodyBlock(), static_cast<int64_t>(getNumInputs()))))
    return failure();
  // Inputs are read-only: a store to one would break the purity of loads.
  WalkResult result = walk([&](StoreOp store) {
    auto arg = dyn_cast<BlockArgument>(store.getBuffer());
    if (!arg || arg.getOwner() != &getBodyBlock() ||
        arg.getArgNumber() < getNumInputs()) {
      store.emitOpError("must store to an output buffer of its kernel");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// LaunchOp
//===----------------------------------------------------------------------===//

LogicalResult LaunchOp::verifySymbolUses(SymbolTableCollection &symbols) {
  // Loop IR kernels, and the Tile IR kernels they are lowered to, share
  // one form: buffers as block arguments, inputs first (num_inputs).
  Operation *kernel = symbols.lookupNearestSymbolFrom(*this, getKernelAttr());
  std::optional<std::pair<ArrayRef<BlockArgument>, ArrayRef<BlockArgument>>>
      buffers = kernel ? xtile::getKernelBuffers(kernel) : std::nullopt;
  if (!buffers)
    return emitOpError() << "'" << getKernel()
                         << "' does not reference a kernel";
  auto matches = [](Type tensor, Type buffer) {
    auto t = cast<ShapedType>(tensor);
    auto b = cast<ShapedType>(buffer);
    return t.getShape() == b.getShape() &&
           t.getElementType() == b.getElementType();
  };
  auto [ins, outs] = *buffers;
  if (ins.size() != getInputs().size() || outs.size() != getOutputs().size())
    return emitOpError() << "passes " << getInputs().size()
                         << " input(s) and expects " << getOutputs().size()
                         << " output(s) but kernel @" << getKernel() << " has "
                         << ins.size() << " input(s) and " << outs.size()
                         << " output(s)";
  auto check = [&](StringRef what, ValueRange values,
                   ArrayRef<BlockArgument> buffers) -> LogicalResult {
    for (auto [i, pair] : llvm::enumerate(llvm::zip(values, buffers)))
      if (!matches(std::get<0>(pair).getType(), std::get<1>(pair).getType()))
        return emitOpError()
               << what << " #" << i << " " << std::get<0>(pair).getType()
               << " does not match kernel buffer "
               << std::get<1>(pair).getType();
    return success();
  };
  if (failed(check("input", getInputs(), ins)))
    return failure();
  return check("output", getOutputs(), outs);
}

//===----------------------------------------------------------------------===//
// ParallelOp and FoldOp
//===----------------------------------------------------------------------===//

/// Parses `%iv = <lower> to <upper>` into `iv` and the bound attributes.
static ParseResult parseLoopHeader(OpAsmParser &parser, OperationState &result,
                                   OpAsmParser::Argument &iv,
                                   StringAttr lowerName, StringAttr upperName) {
  int64_t lower, upper;
  if (parser.parseArgument(iv) || parser.parseEqual() ||
      parser.parseInteger(lower) || parser.parseKeyword("to") ||
      parser.parseInteger(upper))
    return failure();
  iv.type = parser.getBuilder().getIndexType();
  result.addAttribute(lowerName, parser.getBuilder().getI64IntegerAttr(lower));
  result.addAttribute(upperName, parser.getBuilder().getI64IntegerAttr(upper));
  return success();
}

static LogicalResult verifyLoop(Operation *op, Region &body, int64_t lower,
                                int64_t upper) {
  if (lower < 0 || upper < lower)
    return op->emitOpError() << "bounds [" << lower << ", " << upper
                             << ") must satisfy 0 <= lower <= upper";
  Block &block = body.front();
  if (block.getNumArguments() != 1 || !block.getArgument(0).getType().isIndex())
    return op->emitOpError("body must have one index argument");
  return success();
}

void ParallelOp::build(OpBuilder &builder, OperationState &result,
                       int64_t lower, int64_t upper) {
  result.addAttribute(getLowerAttrName(result.name),
                      builder.getI64IntegerAttr(lower));
  result.addAttribute(getUpperAttrName(result.name),
                      builder.getI64IntegerAttr(upper));
  // Not builder.createBlock: that would move the insertion point into the
  // loop being built.
  Region *body = result.addRegion();
  body->emplaceBlock().addArgument(builder.getIndexType(), result.location);
  ensureTerminator(*body, builder, result.location);
}

ParseResult ParallelOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::Argument iv;
  if (parseLoopHeader(parser, result, iv, getLowerAttrName(result.name),
                      getUpperAttrName(result.name)) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, {iv}))
    return failure();
  ensureTerminator(*body, parser.getBuilder(), result.location);
  return success();
}

void ParallelOp::print(OpAsmPrinter &p) {
  p << ' ' << getInductionVar() << " = " << getLower() << " to " << getUpper();
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {getLowerAttrName(), getUpperAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
}

LogicalResult ParallelOp::verify() {
  if (failed(verifyLoop(*this, getBody(), getLower(), getUpper())))
    return failure();
  Block &block = getBodyBlock();
  if (!block.empty())
    if (auto yield = dyn_cast<YieldOp>(block.back()))
      if (!yield.getValues().empty())
        return emitOpError("body must end with an xloop.yield of no values");
  return success();
}

void FoldOp::build(OpBuilder &builder, OperationState &result, int64_t lower,
                   int64_t upper, CombineKind combine, Value init) {
  result.addAttribute(getLowerAttrName(result.name),
                      builder.getI64IntegerAttr(lower));
  result.addAttribute(getUpperAttrName(result.name),
                      builder.getI64IntegerAttr(upper));
  result.addAttribute(getCombineAttrName(result.name),
                      CombineKindAttr::get(builder.getContext(), combine));
  result.addOperands(init);
  result.addTypes(init.getType());
  Region *body = result.addRegion();
  body->emplaceBlock().addArgument(builder.getIndexType(), result.location);
}

// %r = xloop.fold %iv = <lower> to <upper> combine <kind> init(%v) : type { }
ParseResult FoldOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::Argument iv;
  OpAsmParser::UnresolvedOperand init;
  StringRef kindName;
  Type type;
  if (parseLoopHeader(parser, result, iv, getLowerAttrName(result.name),
                      getUpperAttrName(result.name)) ||
      parser.parseKeyword("combine"))
    return failure();
  llvm::SMLoc kindLoc = parser.getCurrentLocation();
  if (parser.parseKeyword(&kindName))
    return failure();
  std::optional<CombineKind> kind = symbolizeCombineKind(kindName);
  if (!kind)
    return parser.emitError(kindLoc, "unknown combine operation '")
           << kindName << "' (expected add, mul, max, min, and or or)";
  result.addAttribute(getCombineAttrName(result.name),
                      CombineKindAttr::get(parser.getContext(), *kind));
  if (parser.parseKeyword("init") || parser.parseLParen() ||
      parser.parseOperand(init) || parser.parseRParen() ||
      parser.parseColonType(type) ||
      parser.resolveOperand(init, type, result.operands) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  result.addTypes(type);
  Region *body = result.addRegion();
  return parser.parseRegion(*body, {iv});
}

void FoldOp::print(OpAsmPrinter &p) {
  p << ' ' << getInductionVar() << " = " << getLower() << " to " << getUpper()
    << " combine " << stringifyCombineKind(getCombine()) << " init("
    << getInit() << ") : " << getType();
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {getLowerAttrName(), getUpperAttrName(), getCombineAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

Value FoldOp::getYieldedValue() {
  auto yield = cast<YieldOp>(getBodyBlock().getTerminator());
  return yield.getValues().front();
}

OpFoldResult FoldOp::fold(FoldAdaptor) {
  if (getUpper() <= getLower())
    return getInit();
  Value yielded = getYieldedValue();
  // Only a value the iterations do not compute.
  if (getBody().isAncestor(yielded.getParentRegion()))
    return {};
  CombineKind kind = getCombine();
  bool idempotent = kind == CombineKind::max || kind == CombineKind::min ||
                    kind == CombineKind::And || kind == CombineKind::Or;
  if (idempotent && yielded == getInit())
    return getInit();
  if (kind != CombineKind::add && kind != CombineKind::mul)
    return {};
  bool add = kind == CombineKind::add;
  APInt integer;
  if (matchPattern(yielded, m_ConstantInt(&integer)))
    return (add ? integer.isZero() : integer.isOne()) ? getInit()
                                                       : OpFoldResult();
  FloatAttr value;
  if (!matchPattern(yielded, m_Constant(&value)))
    return {};
  const APFloat &v = value.getValue();
  if (!add)
    return v.isExactlyValue(1.0) ? getInit() : OpFoldResult();
  if (!v.isZero())
    return {};
  // x + -0 is x; x + +0 is x except for x = -0.
  FloatAttr init;
  if (v.isNegative() ||
      (matchPattern(getInit(), m_Constant(&init)) &&
       !(init.getValue().isZero() && init.getValue().isNegative())))
    return getInit();
  return {};
}

LogicalResult FoldOp::verify() {
  if (failed(verifyLoop(*this, getBody(), getLower(), getUpper())))
    return failure();
  if (getInit().getType() != getType())
    return emitOpError() << "init " << getInit().getType()
                         << " must have the result type " << getType();
  Block &block = getBodyBlock();
  auto yield = block.empty() ? YieldOp() : dyn_cast<YieldOp>(block.back());
  if (!yield || yield.getValues().size() != 1 ||
      yield.getValues().front().getType() != getType())
    return emitOpError() << "body must yield one " << getType()
                         << " per iteration";
  bool isFloat = isa<FloatType>(getType());
  CombineKind kind = getCombine();
  if (isFloat && (kind == CombineKind::And || kind == CombineKind::Or))
    return emitOpError() << "combine '" << stringifyCombineKind(kind)
                         << "' needs an integer type, got " << getType();
  return success();
}

void OnlineFoldOp::build(OpBuilder &builder, OperationState &result,
                         int64_t lower, int64_t upper, Type type,
                         unsigned numAccumulators) {
  result.addAttribute(getLowerAttrName(result.name),
                      builder.getI64IntegerAttr(lower));
  result.addAttribute(getUpperAttrName(result.name),
                      builder.getI64IntegerAttr(upper));
  result.addTypes(SmallVector<Type>(2 + numAccumulators, type));
  Region *body = result.addRegion();
  body->emplaceBlock().addArgument(builder.getIndexType(), result.location);
}

// %m, %l, %a... = xloop.online_fold %iv = <lower> to <upper> : type
//     [weights <n>] { }
ParseResult OnlineFoldOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::Argument iv;
  Type type;
  int64_t weights = 0;
  if (parseLoopHeader(parser, result, iv, getLowerAttrName(result.name),
                      getUpperAttrName(result.name)) ||
      parser.parseColonType(type))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("weights"))) {
    llvm::SMLoc at = parser.getCurrentLocation();
    if (parser.parseInteger(weights))
      return failure();
    if (weights < 0 || weights > 64)
      return parser.emitError(at, "expected 0 to 64 weights");
  }
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  result.addTypes(SmallVector<Type>(2 + weights, type));
  Region *body = result.addRegion();
  return parser.parseRegion(*body, {iv});
}

void OnlineFoldOp::print(OpAsmPrinter &p) {
  p << ' ' << getInductionVar() << " = " << getLower() << " to " << getUpper()
    << " : " << getMax().getType();
  if (!getAccumulators().empty())
    p << " weights " << getAccumulators().size();
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {getLowerAttrName(), getUpperAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

Value OnlineFoldOp::getYieldedScore() {
  return cast<YieldOp>(getBodyBlock().getTerminator()).getValues().front();
}

ValueRange OnlineFoldOp::getYieldedWeights() {
  return cast<YieldOp>(getBodyBlock().getTerminator())
      .getValues()
      .drop_front();
}

LogicalResult OnlineFoldOp::verify() {
  if (failed(verifyLoop(*this, getBody(), getLower(), getUpper())))
    return failure();
  Type type = getMax().getType();
  for (Value r : getResults())
    if (r.getType() != type)
      return emitOpError() << "results must all be " << type << ", got "
                           << r.getType();
  Block &block = getBodyBlock();
  auto yield = block.empty() ? YieldOp() : dyn_cast<YieldOp>(block.back());
  size_t expected = 1 + getAccumulators().size();
  if (!yield || yield.getValues().size() != expected ||
      llvm::any_of(yield.getValues().getTypes(),
                   [&](Type t) { return t != type; }))
    return emitOpError() << "body must yield a score and "
                         << getAccumulators().size() << " weights, all "
                         << type << ", per iteration";
  return success();
}

static SmallVector<Region *> loopRegions(Region &body) { return {&body}; }

#define XLOOP_LOOP_LIKE(Op)                                                    \
  SmallVector<Region *> Op::getLoopRegions() {                                 \
    return loopRegions(getBody());                                             \
  }                                                                            \
  std::optional<SmallVector<Value>> Op::getLoopInductionVars() {               \
    return SmallVector<Value>{getInductionVar()};                              \
  }                                                                            \
  std::optional<SmallVector<OpFoldResult>> Op::getLoopLowerBounds() {          \
    return SmallVector<OpFoldResult>{                                          \
        Builder(getContext()).getIndexAttr(getLower())};                       \
  }                                                                            \
  std::optional<SmallVector<OpFoldResult>> Op::getLoopUpperBounds() {          \
    return SmallVector<OpFoldResult>{                                          \
        Builder(getContext()).getIndexAttr(getUpper())};                       \
  }                                                                            \
  std::optional<SmallVector<OpFoldResult>> Op::getLoopSteps() {                \
    return SmallVector<OpFoldResult>{Builder(getContext()).getIndexAttr(1)};   \
  }
XLOOP_LOOP_LIKE(ParallelOp)
XLOOP_LOOP_LIKE(FoldOp)
XLOOP_LOOP_LIKE(OnlineFoldOp)
#undef XLOOP_LOOP_LIKE

//===----------------------------------------------------------------------===//
// LoadOp and StoreOp
//===----------------------------------------------------------------------===//

static LogicalResult verifyAccess(Operation *op, Value buffer,
                                  size_t numIndices) {
  auto type = cast<MemRefType>(buffer.getType());
  if (static_cast<int64_t>(numIndices) != type.getRank())
    return op->emitOpError() << "has " << numIndices << " indices for " << type
                             << " of rank " << type.getRank();
  auto arg = dyn_cast<BlockArgument>(buffer);
  if (!arg || !isa<KernelOp>(arg.getOwner()->getParentOp()))
    return op->emitOpError("must access a buffer of its enclosing kernel");
  return success();
}

LogicalResult LoadOp::verify() {
  if (failed(verifyAccess(*this, getBuffer(), getIndices().size())))
    return failure();
  // Loads are pure because inputs never change while the kernel runs;
  // outputs do, so they are write-only.
  auto arg = cast<BlockArgument>(getBuffer());
  auto kernel = cast<KernelOp>(arg.getOwner()->getParentOp());
  if (arg.getArgNumber() >= kernel.getNumInputs())
    return emitOpError("must load from an input buffer of its kernel "
                       "(outputs are write-only)");
  return success();
}

LogicalResult StoreOp::verify() {
  return verifyAccess(*this, getBuffer(), getIndices().size());
}

#define GET_OP_CLASSES
#include "xtile/Dialect/Loop/IR/LoopOps.cpp.inc"
