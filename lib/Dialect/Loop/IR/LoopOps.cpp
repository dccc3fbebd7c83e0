//===- LoopOps.cpp - xloop dialect and operations -------------------------===//

#include "xtile/Dialect/Loop/IR/LoopOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "xtile/Support/KernelSignature.h"
#include "xtile/Support/Storage.h"
#include "xtile/Support/SymbolicDims.h"
#include "llvm/ADT/TypeSwitch.h"

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

bool KernelOp::isSize(Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  return arg && arg.getOwner() == &getBodyBlock() &&
         llvm::is_contained(getSizes(), arg);
}

SmallVector<BlockArgument> KernelOp::getBufferSizes(BlockArgument buffer) {
  return xtile::getKernelBufferSizes(*this, buffer);
}

/// The position in `buffer_dims` of the first `?` of buffer `index`.
static size_t firstBufferDim(KernelOp kernel, unsigned index) {
  size_t at = 0;
  for (BlockArgument arg : kernel.getBodyBlock().getArguments().take_front(index))
    at += cast<MemRefType>(arg.getType()).getNumDynamicDims();
  return at;
}

/// Inserts a buffer at block argument `index` with its `?` sizes.
static BlockArgument insertBuffer(KernelOp kernel, unsigned index, Type type,
                                  ArrayRef<BlockArgument> sizes, Location loc) {
  SmallVector<int64_t> dims(kernel.getBufferDims().value_or(ArrayRef<int64_t>()));
  size_t at = firstBufferDim(kernel, index);
  ArrayRef<BlockArgument> all = kernel.getSizes();
  SmallVector<int64_t> added;
  for (BlockArgument size : sizes)
    added.push_back(llvm::find(all, size) - all.begin());
  dims.insert(dims.begin() + at, added.begin(), added.end());
  BlockArgument arg = kernel.getBodyBlock().insertArgument(index, type, loc);
  if (!dims.empty())
    kernel.setBufferDims(dims);
  return arg;
}

BlockArgument KernelOp::insertInput(unsigned pos, Type type,
                                    ArrayRef<BlockArgument> sizes,
                                    Location loc) {
  BlockArgument arg = insertBuffer(*this, pos, type, sizes, loc);
  setNumInputs(getNumInputs() + 1);
  return arg;
}

void KernelOp::eraseInput(unsigned pos) {
  BlockArgument arg = getInputs()[pos];
  if (std::optional<ArrayRef<int64_t>> dims = getBufferDims()) {
    SmallVector<int64_t> kept(*dims);
    size_t at = firstBufferDim(*this, pos);
    kept.erase(kept.begin() + at,
               kept.begin() + at +
                   cast<MemRefType>(arg.getType()).getNumDynamicDims());
    setBufferDims(kept);
  }
  getBodyBlock().eraseArgument(arg.getArgNumber());
  setNumInputs(getNumInputs() - 1);
}

BlockArgument KernelOp::addOutput(Type type, ArrayRef<BlockArgument> sizes,
                                  Location loc) {
  unsigned index = getBodyBlock().getNumArguments() - getNumSizes();
  return insertBuffer(*this, index, type, sizes, loc);
}

BlockArgument KernelOp::addSize(int64_t min, int64_t max, int64_t hint,
                                Location loc) {
  SmallVector<int64_t> ranges(getSizeRanges().value_or(ArrayRef<int64_t>()));
  SmallVector<int64_t> hints(getSizeHints().value_or(ArrayRef<int64_t>()));
  // Hints missing so far take their sizes' default.
  for (size_t i = hints.size(); i < getNumSizes(); ++i)
    hints.push_back(xtile::loop::defaultSizeHint(ranges[2 * i],
                                                 ranges[2 * i + 1]));
  ranges.append({min, max});
  hints.push_back(hint);
  setSizeRanges(ranges);
  setSizeHints(hints);
  setNumSizes(getNumSizes() + 1);
  return getBodyBlock().addArgument(IndexType::get(getContext()), loc);
}

int64_t KernelOp::getSizeHint(BlockArgument size) {
  ArrayRef<BlockArgument> sizes = getSizes();
  size_t i = llvm::find(sizes, size) - sizes.begin();
  if (std::optional<ArrayRef<int64_t>> hints = getSizeHints())
    if (i < hints->size())
      return (*hints)[i];
  std::optional<ArrayRef<int64_t>> ranges = getSizeRanges();
  if (ranges && 2 * i + 1 < ranges->size())
    return xtile::loop::defaultSizeHint((*ranges)[2 * i], (*ranges)[2 * i + 1]);
  return 1;
}

int64_t KernelOp::getNumBytesAtHints(BlockArgument buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  if (type.hasStaticShape())
    return xtile::getNumBytes(type);
  SmallVector<BlockArgument> sizes = getBufferSizes(buffer);
  SmallVector<int64_t> shape;
  size_t next = 0;
  for (int64_t d : type.getShape())
    shape.push_back(ShapedType::isDynamic(d) ? getSizeHint(sizes[next++]) : d);
  return xtile::getNumBytes(MemRefType::get(shape, type.getElementType()));
}

//===----------------------------------------------------------------------===//
// LaunchOp
//===----------------------------------------------------------------------===//

using xtile::parseSizeNames;
using xtile::printSizeNames;

LogicalResult LaunchOp::verify() {
  return xtile::verifyLaunchUpdates(*this, getUpdates(), getInputs(),
                                    getOutputs());
}

LogicalResult LaunchOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return xtile::verifyLaunchBuckets(*this, getKernelAttr(), getBucketsAttr(),
                                    getSizes(), getInputs(), getOutputs(),
                                    symbols);
}

//===----------------------------------------------------------------------===//
// ParallelOp and FoldOp
//===----------------------------------------------------------------------===//

/// Parses `%iv = <lower> to <upper>`, the upper bound a constant or a
/// size (`%T`), into `iv`, the bound attributes and the operand.
template <typename OpTy>
static ParseResult parseLoopHeader(OpAsmParser &parser, OperationState &result,
                                   OpAsmParser::Argument &iv) {
  int64_t lower, upper = ShapedType::kDynamic;
  Builder &b = parser.getBuilder();
  OpAsmParser::UnresolvedOperand size;
  if (parser.parseArgument(iv) || parser.parseEqual() ||
      parser.parseInteger(lower) || parser.parseKeyword("to"))
    return failure();
  OptionalParseResult dynamic = parser.parseOptionalOperand(size);
  if (dynamic.has_value()) {
    if (failed(*dynamic) ||
        parser.resolveOperand(size, b.getIndexType(), result.operands))
      return failure();
  } else if (parser.parseInteger(upper)) {
    return failure();
  }
  iv.type = b.getIndexType();
  result.addAttribute(OpTy::getLowerAttrName(result.name),
                      b.getI64IntegerAttr(lower));
  result.addAttribute(OpTy::getStaticUpperAttrName(result.name),
                      b.getI64IntegerAttr(upper));
  return success();
}

/// Prints `%iv = <lower> to <upper>`.
template <typename OpTy>
static void printLoopHeader(OpAsmPrinter &p, OpTy op) {
  p << ' ' << op.getInductionVar() << " = " << op.getLower() << " to ";
  if (Value size = op.getDynamicUpper())
    p << size;
  else
    p << op.getStaticUpper();
}

template <typename OpTy>
static LogicalResult verifyLoop(OpTy op) {
  int64_t lower = op.getLower();
  if (Value size = op.getDynamicUpper()) {
    auto kernel = op->template getParentOfType<KernelOp>();
    if (!kernel || !kernel.isSize(size))
      return op.emitOpError("upper bound must be a constant or a size of "
                            "the enclosing kernel");
    if (op.getStaticUpper() != ShapedType::kDynamic)
      return op.emitOpError("has both a static and a dynamic upper bound");
    if (lower != 0)
      return op.emitOpError() << "lower bound must be 0 with a dynamic upper "
                                 "bound, got "
                              << lower;
  } else if (lower < 0 || op.getStaticUpper() < lower) {
    return op.emitOpError() << "bounds [" << lower << ", "
                            << op.getStaticUpper()
                            << ") must satisfy 0 <= lower <= upper";
  }
  Block &block = op.getBody().front();
  if (block.getNumArguments() != 1 || !block.getArgument(0).getType().isIndex())
    return op.emitOpError("body must have one index argument");
  return success();
}

/// Sets the bound attributes and operand of a loop being built.
template <typename OpTy>
static void addBounds(OpBuilder &builder, OperationState &result,
                      int64_t lower, OpFoldResult upper) {
  result.addAttribute(OpTy::getLowerAttrName(result.name),
                      builder.getI64IntegerAttr(lower));
  int64_t bound = ShapedType::kDynamic;
  if (auto attr = dyn_cast<Attribute>(upper))
    bound = cast<IntegerAttr>(attr).getInt();
  else
    result.addOperands(cast<Value>(upper));
  result.addAttribute(OpTy::getStaticUpperAttrName(result.name),
                      builder.getI64IntegerAttr(bound));
}

void ParallelOp::build(OpBuilder &builder, OperationState &result,
                       int64_t lower, OpFoldResult upper) {
  addBounds<ParallelOp>(builder, result, lower, upper);
  // Not builder.createBlock: that would move the insertion point into the
  // loop being built.
  Region *body = result.addRegion();
  body->emplaceBlock().addArgument(builder.getIndexType(), result.location);
  ensureTerminator(*body, builder, result.location);
}

ParseResult ParallelOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::Argument iv;
  if (parseLoopHeader<ParallelOp>(parser, result, iv) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, {iv}))
    return failure();
  ensureTerminator(*body, parser.getBuilder(), result.location);
  return success();
}

void ParallelOp::print(OpAsmPrinter &p) {
  printLoopHeader(p, *this);
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {getLowerAttrName(), getStaticUpperAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
}

LogicalResult ParallelOp::verify() {
  if (failed(verifyLoop(*this)))
    return failure();
  Block &block = getBodyBlock();
  if (!block.empty())
    if (auto yield = dyn_cast<YieldOp>(block.back()))
      if (!yield.getValues().empty())
        return emitOpError("body must end with an xloop.yield of no values");
  return success();
}

void FoldOp::build(OpBuilder &builder, OperationState &result, int64_t lower,
                   OpFoldResult upper, CombineKind combine, Value init) {
  addBounds<FoldOp>(builder, result, lower, upper);
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
  if (parseLoopHeader<FoldOp>(parser, result, iv) ||
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
  printLoopHeader(p, *this);
  p << " combine " << stringifyCombineKind(getCombine()) << " init("
    << getInit() << ") : " << getType();
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {getLowerAttrName(), getStaticUpperAttrName(), getCombineAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

Value FoldOp::getYieldedValue() {
  auto yield = cast<YieldOp>(getBodyBlock().getTerminator());
  return yield.getValues().front();
}

OpFoldResult FoldOp::fold(FoldAdaptor) {
  // (A dynamic size is at least 1.)
  if (!hasDynamicUpper() && getStaticUpper() <= getLower())
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

namespace {
/// max over i in [lower, upper) of cast(i) is cast(upper - 1); min is
/// cast(lower); each combined with the fold's initial value.
struct FoldOfInductionVar : OpRewritePattern<FoldOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(FoldOp fold,
                                PatternRewriter &rewriter) const override {
    CombineKind kind = fold.getCombine();
    if ((kind != CombineKind::max && kind != CombineKind::min) ||
        !isa<IntegerType>(fold.getType()))
      return failure();
    Operation *cast = fold.getYieldedValue().getDefiningOp();
    if (!isa_and_nonnull<arith::IndexCastOp, arith::IndexCastUIOp>(cast) ||
        cast->getOperand(0) != fold.getInductionVar())
      return failure();
    // (A dynamic upper bound is at least 1, a static one above lower:
    // the folder takes empty folds.)
    if (!fold.hasDynamicUpper() && fold.getStaticUpper() <= fold.getLower())
      return failure();
    Location loc = fold.getLoc();
    Value index;
    if (kind == CombineKind::min)
      index = arith::ConstantIndexOp::create(rewriter, loc, fold.getLower());
    else if (fold.hasDynamicUpper())
      index = arith::SubIOp::create(
          rewriter, loc, fold.getDynamicUpper(),
          arith::ConstantIndexOp::create(rewriter, loc, 1));
    else
      index = arith::ConstantIndexOp::create(rewriter, loc,
                                             fold.getStaticUpper() - 1);
    Value value =
        arith::IndexCastOp::create(rewriter, loc, fold.getType(), index);
    if (kind == CombineKind::max)
      rewriter.replaceOpWithNewOp<arith::MaxSIOp>(fold, fold.getInit(), value);
    else
      rewriter.replaceOpWithNewOp<arith::MinSIOp>(fold, fold.getInit(), value);
    return success();
  }
};
} // namespace

void FoldOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                         MLIRContext *context) {
  patterns.add<FoldOfInductionVar>(context);
}

LogicalResult FoldOp::verify() {
  if (failed(verifyLoop(*this)))
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
                         int64_t lower, OpFoldResult upper, Type type,
                         unsigned numAccumulators) {
  addBounds<OnlineFoldOp>(builder, result, lower, upper);
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
  if (parseLoopHeader<OnlineFoldOp>(parser, result, iv) ||
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
  printLoopHeader(p, *this);
  p << " : " << getMax().getType();
  if (!getAccumulators().empty())
    p << " weights " << getAccumulators().size();
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {getLowerAttrName(), getStaticUpperAttrName()});
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
  if (failed(verifyLoop(*this)))
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

/// The (lower, static upper, dynamic upper) bounds of a loop op.
static std::optional<std::tuple<int64_t, int64_t, Value>>
boundsOf(Operation *op) {
  return TypeSwitch<Operation *,
                    std::optional<std::tuple<int64_t, int64_t, Value>>>(op)
      .Case<ParallelOp, FoldOp, OnlineFoldOp>([](auto loop) {
        return std::make_tuple(int64_t(loop.getLower()),
                               int64_t(loop.getStaticUpper()),
                               loop.getDynamicUpper());
      })
      .Default([](Operation *) { return std::nullopt; });
}

static bool sameBounds(Operation *a, Operation *b) {
  auto x = boundsOf(a), y = boundsOf(b);
  return x && y && *x == *y;
}

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
    if (Value size = getDynamicUpper())                                        \
      return SmallVector<OpFoldResult>{size};                                  \
    return SmallVector<OpFoldResult>{                                          \
        Builder(getContext()).getIndexAttr(getStaticUpper())};                 \
  }                                                                            \
  OpFoldResult Op::getMixedUpper() {                                           \
    if (Value size = getDynamicUpper())                                        \
      return size;                                                             \
    return Builder(getContext()).getI64IntegerAttr(getStaticUpper());          \
  }                                                                            \
  bool Op::hasSameBounds(Operation *other) {                                   \
    return sameBounds(getOperation(), other);                                  \
  }                                                                            \
  int64_t Op::getTripCountAtHint() {                                           \
    if (Value size = getDynamicUpper())                                        \
      return (*this)->getParentOfType<KernelOp>().getSizeHint(                 \
                 cast<BlockArgument>(size)) -                                  \
             getLower();                                                       \
    return getStaticUpper() - getLower();                                      \
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
  if (getAccumulate()) {
    Type t = getValue().getType();
    if (!t.isF32() && !t.isF64() && !t.isInteger(32) && !t.isInteger(64))
      return emitOpError("accumulates ")
             << t << "; only f32, f64, i32 and i64 are added atomically";
  }
  return verifyAccess(*this, getBuffer(), getIndices().size());
}

#define GET_OP_CLASSES
#include "xtile/Dialect/Loop/IR/LoopOps.cpp.inc"
