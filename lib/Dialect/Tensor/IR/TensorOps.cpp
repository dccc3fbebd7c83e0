//===- TensorOps.cpp - xtensor dialect and operations ---------------------===//
//
// Verification and result-type inference of every xtensor op. Inference
// runs on unverified IR (the parser calls it before the verifier), so it
// checks everything it reads and reports a located error instead of
// asserting.
//
//===----------------------------------------------------------------------===//

#include "xtile/Dialect/Tensor/IR/TensorOps.h"
#include "xtile/Support/Storage.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace xtile::tensor;

#include "xtile/Dialect/Tensor/IR/TensorDialect.cpp.inc"
#include "xtile/Dialect/Tensor/IR/TensorEnums.cpp.inc"

void XTensorDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "xtile/Dialect/Tensor/IR/TensorOps.cpp.inc"
      >();
}

Operation *XTensorDialect::materializeConstant(OpBuilder &builder,
                                               Attribute value, Type type,
                                               Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, elements);
}

bool xtile::tensor::isCompositeOp(Operation *op) {
  return isa<RmsNormOp, LayerNormOp, SoftmaxOp, LogSoftmaxOp, GeluOp, SiluOp,
             MeanOp, VarOp, LinearOp>(op);
}

//===----------------------------------------------------------------------===//
// Custom assembly directives
//===----------------------------------------------------------------------===//

/// `custom<SameType>`: one written type for two values of that type.
static ParseResult parseSameType(OpAsmParser &parser, Type &first,
                                 Type &second) {
  if (parser.parseType(first))
    return failure();
  second = first;
  return success();
}
static void printSameType(OpAsmPrinter &printer, Operation *, Type first,
                          Type) {
  printer.printType(first);
}

/// `custom<SelectTypes>`: the value type only; the condition is the i1
/// tensor of the same shape.
static ParseResult parseSelectTypes(OpAsmParser &parser, Type &cond,
                                    Type &trueType, Type &falseType) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  Type type;
  if (parser.parseType(type))
    return failure();
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked)
    return parser.emitError(loc, "expected a ranked tensor type, got ") << type;
  cond = ranked.clone(parser.getBuilder().getI1Type());
  trueType = falseType = type;
  return success();
}
static void printSelectTypes(OpAsmPrinter &printer, Operation *, Type,
                             Type trueType, Type) {
  printer.printType(trueType);
}

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

Type xtile::tensor::detail::withElementType(Type type, Type elementType) {
  if (!elementType)
    return type;
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.clone(elementType);
  return type;
}

namespace {
/// Reports errors from type inference, which has only an optional location.
struct InferenceError {
  std::optional<Location> loc;
  StringRef opName;

  LogicalResult operator()(const Twine &message) const {
    return emitOptionalError(loc, "'", opName, "' op ", message);
  }
};
} // namespace

/// The operand as a ranked tensor, or a located error.
static FailureOr<RankedTensorType> rankedOperand(const InferenceError &error,
                                                 StringRef name, Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type) {
    (void)error("operand '" + name + "' must be a ranked tensor");
    return failure();
  }
  return type;
}

static std::string typeStr(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

/// The element count of `shape`, or nothing when it does not fit in 64 bits.
static std::optional<int64_t> checkedNumElements(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t size : shape)
    if (llvm::MulOverflow(count, size, count))
      return std::nullopt;
  return count;
}

static std::string listStr(ArrayRef<int64_t> values) {
  std::string s = "[";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(values, os);
  os << "]";
  return s;
}

/// Checks that `dims` are sorted, unique dimensions of a rank-`rank` tensor.
static LogicalResult checkDims(const InferenceError &error,
                               ArrayRef<int64_t> dims, RankedTensorType type) {
  for (auto [i, dim] : llvm::enumerate(dims)) {
    if (dim < 0 || dim >= type.getRank())
      return error("dimension " + Twine(dim) + " is out of range for " +
                   typeStr(type));
    if (i > 0 && dims[i - 1] >= dim)
      return error("dims " + listStr(dims) +
                   " must be sorted and free of duplicates");
  }
  return success();
}

/// `type` with its sizes replaced by `dims` (symbols named in the encoding).
static RankedTensorType withDims(RankedTensorType type, ArrayRef<Dim> dims) {
  return getTensorType(dims, type.getElementType());
}

static RankedTensorType reducedType(RankedTensorType type,
                                    ArrayRef<int64_t> dims, bool keepdim) {
  SmallVector<Dim> result;
  for (auto [d, dim] : llvm::enumerate(getDims(type))) {
    if (!llvm::is_contained(dims, static_cast<int64_t>(d)))
      result.push_back(dim);
    else if (keepdim)
      result.push_back(Dim::fixed(1));
  }
  return withDims(type, result);
}

static StringRef elementwiseOperandName(Operation *op, unsigned index) {
  if (isa<SelectOp>(op))
    return std::array<StringRef, 3>{"cond", "true_value", "false_value"}[index];
  if (op->getNumOperands() == 2)
    return index == 0 ? "lhs" : "rhs";
  return "input";
}

LogicalResult xtile::tensor::detail::verifyElementwiseOp(Operation *op) {
  // The first value operand: select's condition has its own element type.
  unsigned first = isa<SelectOp>(op) ? 1 : 0;
  auto reference = cast<RankedTensorType>(op->getOperand(first).getType());
  for (OpOperand &operand : op->getOpOperands()) {
    unsigned index = operand.getOperandNumber();
    if (index == first)
      continue;
    auto type = cast<RankedTensorType>(operand.get().getType());
    StringRef name = elementwiseOperandName(op, index);
    StringRef refName = elementwiseOperandName(op, first);
    if (getDims(type) != getDims(reference))
      return op->emitOpError()
             << "operand '" << name << "' (" << type << ") and operand '"
             << refName << "' (" << reference
             << ") must have the same shape; broadcasting is explicit "
                "(xtensor.broadcast)";
    if (index > first && type.getElementType() != reference.getElementType())
      return op->emitOpError()
             << "operand '" << name << "' (" << type << ") and operand '"
             << refName << "' (" << reference
             << ") must have the same element type; convert with xtensor.cast";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// CastOp
//===----------------------------------------------------------------------===//

LogicalResult CastOp::verify() {
  auto in = cast<RankedTensorType>(getInput().getType());
  auto out = cast<RankedTensorType>(getType());
  if (getDims(in) != getDims(out))
    return emitOpError() << "result " << out
                         << " must have the shape of operand 'input' " << in;
  return success();
}

//===----------------------------------------------------------------------===//
// ConstantOp and IotaOp
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location>,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &types) {
  types.push_back(adaptor.getValue().getType());
  return success();
}

LogicalResult IotaOp::verify() {
  auto type = cast<RankedTensorType>(getType());
  int64_t dim = static_cast<int64_t>(getDim());
  if (dim < 0 || dim >= type.getRank())
    return emitOpError() << "dim " << dim << " is out of range for " << type;
  return success();
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  InferenceError error{loc, getOperationName()};
  auto type = rankedOperand(error, "input", adaptor.getInput());
  if (failed(type) || failed(checkDims(error, adaptor.getDims(), *type)))
    return failure();
  types.push_back(reducedType(*type, adaptor.getDims(), adaptor.getKeepdim()));
  return success();
}

LogicalResult ReduceOp::verify() {
  Type element = getElementTypeOrSelf(getInput().getType());
  if (isFp8(element))
    return emitOpError() << "reduction over " << element
                         << " elements is unsupported: fp8 is a storage "
                            "type (cast to f32 first)";
  if (element.isInteger(8) || element.isInteger(16))
    return emitOpError() << "reduction over " << element
                         << " elements is unsupported: 8- and 16-bit "
                            "integers are storage types (cast to i32 first)";
  bool isBool = element.isInteger(1);
  bool logical = getKind() == ReduceKind::any || getKind() == ReduceKind::all;
  if (logical != isBool)
    return emitOpError() << "reduction '" << stringifyReduceKind(getKind())
                         << "' is not defined on operand 'input' of type "
                         << getInput().getType()
                         << (logical ? " (any/all take i1)"
                                     : " (use any/all for i1)");
  return success();
}

//===----------------------------------------------------------------------===//
// Movement ops
//===----------------------------------------------------------------------===//

/// Movement ops keep the element type of their operand.
static LogicalResult verifyKeepsElementType(Operation *op, ShapedType in,
                                            ShapedType out) {
  if (in.getElementType() != out.getElementType())
    return op->emitOpError()
           << "result " << out
           << " must have the element type of operand 'input' " << in;
  return success();
}

/// The dynamic sizes of `type` and the static element counts of the runs of
/// static sizes around them: [2, T, 4, 8] -> {T}, {2, 32}.
static std::pair<SmallVector<StringAttr>, SmallVector<std::optional<int64_t>>>
reshapeSegments(RankedTensorType type) {
  SmallVector<StringAttr> symbols;
  SmallVector<std::optional<int64_t>> counts(1, int64_t(1));
  for (const Dim &dim : getDims(type)) {
    if (dim.isDynamic()) {
      symbols.push_back(dim.symbol);
      counts.push_back(int64_t(1));
    } else if (counts.back() &&
               llvm::MulOverflow(*counts.back(), dim.size, *counts.back())) {
      counts.back() = std::nullopt;
    }
  }
  return {symbols, counts};
}

LogicalResult ReshapeOp::verify() {
  auto in = cast<RankedTensorType>(getInput().getType());
  auto out = cast<RankedTensorType>(getType());
  if (failed(verifyKeepsElementType(*this, in, out)))
    return failure();
  if (!in.hasStaticShape() || !out.hasStaticShape()) {
    // Row-major reshape keeps each dynamic size whole: the same symbols in
    // the same order, and the static sizes between them regrouped without
    // crossing one ([T, 32, 128] <-> [T, 4096], not [T, 4] -> [4, T]).
    auto [inSymbols, inCounts] = reshapeSegments(in);
    auto [outSymbols, outCounts] = reshapeSegments(out);
    if (inSymbols == outSymbols && inCounts == outCounts)
      return success();
    // Otherwise a dynamic size is merged or split ([B, T, d] -> [B*T, d]):
    // the element counts, products of the sizes, must be the same
    // expression.
    auto count = [](RankedTensorType t) -> std::optional<SizeExpr> {
      std::optional<SizeExpr> product = SizeExpr::constant(1);
      for (const Dim &dim : getDims(t)) {
        std::optional<SizeExpr> size = SizeExpr::of(dim);
        if (!size || !product)
          return std::nullopt;
        product = product->times(*size);
      }
      return product;
    };
    std::optional<SizeExpr> inCount = count(in), outCount = count(out);
    if (!inCount || !outCount || !(*inCount == *outCount))
      return emitOpError()
             << "cannot reshape " << in << " to " << out << ": the element "
             << "counts " << (inCount ? inCount->str() : "?") << " and "
             << (outCount ? outCount->str() : "?")
             << " differ (a reshape that keeps each dynamic size whole "
                "regroups only the static sizes between them; one that "
                "merges or splits one keeps the count)";
    return success();
  }
  std::optional<int64_t> inCount = checkedNumElements(in.getShape());
  std::optional<int64_t> outCount = checkedNumElements(out.getShape());
  if (!inCount || !outCount)
    return emitOpError() << "element count of " << (inCount ? out : in)
                         << " does not fit in 64 bits";
  if (*inCount != *outCount)
    return emitOpError() << "cannot reshape " << in << " (" << *inCount
                         << " elements) to " << out << " (" << *outCount
                         << " elements)";
  return success();
}

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  InferenceError error{loc, getOperationName()};
  auto type = rankedOperand(error, "input", adaptor.getInput());
  if (failed(type))
    return failure();
  ArrayRef<int64_t> perm = adaptor.getPerm();
  if (static_cast<int64_t>(perm.size()) != type->getRank())
    return error("perm " + listStr(perm) + " has " + Twine(perm.size()) +
                 " entries but operand 'input' " + typeStr(*type) +
                 " has rank " + Twine(type->getRank()));
  SmallVector<bool> seen(perm.size(), false);
  SmallVector<Dim> dims = getDims(*type), shape;
  for (int64_t p : perm) {
    if (p < 0 || p >= type->getRank() || seen[p])
      return error("perm " + listStr(perm) + " is not a permutation of [0, " +
                   Twine(type->getRank()) + ")");
    seen[p] = true;
    shape.push_back(dims[p]);
  }
  types.push_back(withDims(*type, shape));
  return success();
}

LogicalResult BroadcastOp::verify() {
  auto in = cast<RankedTensorType>(getInput().getType());
  auto out = cast<RankedTensorType>(getType());
  if (failed(verifyKeepsElementType(*this, in, out)))
    return failure();
  if (in.getRank() > out.getRank())
    return emitOpError() << "cannot broadcast " << in << " to " << out
                         << " of lower rank";
  int64_t offset = out.getRank() - in.getRank();
  SmallVector<Dim> inDims = getDims(in), outDims = getDims(out);
  for (int64_t d = 0; d < in.getRank(); ++d) {
    const Dim &size = inDims[d];
    if (size != Dim::fixed(1) && size != outDims[d + offset])
      return emitOpError() << "cannot broadcast " << in << " to " << out
                           << ": operand dimension " << d << " (size "
                           << size.str() << ") must be 1 or "
                           << outDims[d + offset].str();
  }
  return success();
}

LogicalResult SliceOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  InferenceError error{loc, getOperationName()};
  auto type = rankedOperand(error, "input", adaptor.getInput());
  if (failed(type))
    return failure();
  ArrayRef<int64_t> starts = adaptor.getStarts(), limits = adaptor.getLimits(),
                    strides = adaptor.getStrides();
  int64_t rank = type->getRank();
  if (static_cast<int64_t>(starts.size()) != rank ||
      static_cast<int64_t>(limits.size()) != rank ||
      static_cast<int64_t>(strides.size()) != rank)
    return error("starts, limits and strides need one entry per dimension of " +
                 typeStr(*type));
  SmallVector<Dim> dims = getDims(*type), shape;
  for (int64_t d = 0; d < rank; ++d) {
    if (dims[d].isDynamic()) {
      // Along a dynamic size D, a limit l < 0 is D + 1 + l (-1 is its end),
      // and the size taken is the expression D + 1 + l - start.
      if (starts[d] < 0 || limits[d] >= 0 || strides[d] != 1)
        return error("dimension " + Twine(d) + " of " + typeStr(*type) +
                     " has the dynamic size " + dims[d].str() +
                     ": a slice of it takes stride 1 from a start of 0 or "
                     "more to a limit counted from its end (-1 is the end)");
      std::optional<SizeExpr> size = SizeExpr::of(dims[d]);
      if (!size)
        return error("slice along dimension " + Twine(d) + " of " +
                     typeStr(*type) + ", of dynamic size " + dims[d].str() +
                     ", which is not a size expression, is not supported");
      std::optional<SizeExpr> limit =
          size->plus(SizeExpr::constant(limits[d] + 1));
      size = limit ? limit->minus(SizeExpr::constant(starts[d])) : limit;
      if (!size)
        return error("slice [" + Twine(starts[d]) + ", " + dims[d].str() +
                     " + 1 + (" + Twine(limits[d]) + ")) of dimension " +
                     Twine(d) + " of " + typeStr(*type) +
                     " overflows 64 bits");
      if (std::optional<int64_t> n = size->getConstant(); n && *n < 0)
        return error("slice of dimension " + Twine(d) + " of " +
                     typeStr(*type) + " has a negative size");
      shape.push_back(size->toDim(type->getContext()));
      continue;
    }
    if (strides[d] <= 0)
      return error("stride " + Twine(strides[d]) + " of dimension " + Twine(d) +
                   " must be positive");
    if (starts[d] < 0 || starts[d] > limits[d] ||
        limits[d] > type->getDimSize(d))
      return error("slice [" + Twine(starts[d]) + ", " + Twine(limits[d]) +
                   ") of dimension " + Twine(d) + " is out of bounds for " +
                   typeStr(*type));
    shape.push_back(
        Dim::fixed(llvm::divideCeil(limits[d] - starts[d], strides[d])));
  }
  types.push_back(withDims(*type, shape));
  return success();
}

LogicalResult PadOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &types) {
  InferenceError error{loc, getOperationName()};
  auto type = rankedOperand(error, "input", adaptor.getInput());
  if (failed(type))
    return failure();
  ArrayRef<int64_t> low = adaptor.getLow(), high = adaptor.getHigh();
  if (static_cast<int64_t>(low.size()) != type->getRank() ||
      static_cast<int64_t>(high.size()) != type->getRank())
    return error("low and high need one entry per dimension of " +
                 typeStr(*type));
  if (adaptor.getValue().getType() != type->getElementType())
    return error("padding value " + typeStr(adaptor.getValue().getType()) +
                 " must have the element type of " + typeStr(*type));
  SmallVector<Dim> dims = getDims(*type), shape;
  for (int64_t d = 0; d < type->getRank(); ++d) {
    if (low[d] < 0 || high[d] < 0)
      return error("padding of dimension " + Twine(d) +
                   " must be non-negative");
    if (dims[d].isDynamic()) {
      std::optional<SizeExpr> size = SizeExpr::of(dims[d]);
      if (size)
        size = size->plus(SizeExpr::constant(low[d]));
      if (size)
        size = size->plus(SizeExpr::constant(high[d]));
      if (!size)
        return error("dimension " + Twine(d) + " of " + typeStr(*type) +
                     " has the dynamic size " + dims[d].str() +
                     ", whose padded size is not a size expression");
      shape.push_back(size->toDim(type->getContext()));
      continue;
    }
    int64_t size;
    if (llvm::AddOverflow(type->getDimSize(d), low[d], size) ||
        llvm::AddOverflow(size, high[d], size))
      return error("padded size of dimension " + Twine(d) +
                   " does not fit in 64 bits");
    shape.push_back(Dim::fixed(size));
  }
  types.push_back(withDims(*type, shape));
  return success();
}

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  InferenceError error{loc, getOperationName()};
  if (adaptor.getInputs().empty())
    return error("needs at least one operand");
  auto first = rankedOperand(error, "inputs", adaptor.getInputs().front());
  if (failed(first))
    return failure();
  int64_t dim = static_cast<int64_t>(adaptor.getDim());
  if (dim < 0 || dim >= first->getRank())
    return error("dim " + Twine(dim) + " is out of range for " +
                 typeStr(*first));
  SmallVector<Dim> shape = getDims(*first);
  // The size along `dim`: the sum of the operands', an expression where
  // one of them is dynamic.
  auto sizeOf = [&](RankedTensorType t, const Dim &d) -> FailureOr<SizeExpr> {
    std::optional<SizeExpr> e = SizeExpr::of(d);
    if (!e)
      return error("concatenation along dimension " + Twine(dim) + " of " +
                   typeStr(t) + ", of dynamic size " + d.str() +
                   ", which is not a size expression, is not supported");
    return *e;
  };
  FailureOr<SizeExpr> total = sizeOf(*first, shape[dim]);
  if (failed(total))
    return failure();
  for (Value input : adaptor.getInputs().drop_front()) {
    auto type = rankedOperand(error, "inputs", input);
    if (failed(type))
      return failure();
    bool compatible = type->getRank() == first->getRank() &&
                      type->getElementType() == first->getElementType();
    SmallVector<Dim> dims = compatible ? getDims(*type) : SmallVector<Dim>();
    for (int64_t d = 0; compatible && d < first->getRank(); ++d)
      compatible = d == dim || dims[d] == shape[d];
    if (!compatible)
      return error("operand " + typeStr(*type) +
                   " cannot be concatenated with " + typeStr(*first) +
                   " along dimension " + Twine(dim));
    FailureOr<SizeExpr> size = sizeOf(*type, dims[dim]);
    if (failed(size))
      return failure();
    std::optional<SizeExpr> sum = total->plus(*size);
    if (!sum)
      return error("concatenated size of dimension " + Twine(dim) +
                   " does not fit in 64 bits");
    *total = *sum;
  }
  shape[dim] = total->toDim(first->getContext());
  types.push_back(withDims(*first, shape));
  return success();
}

LogicalResult GatherOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  InferenceError error{loc, getOperationName()};
  auto type = rankedOperand(error, "input", adaptor.getInput());
  auto indices = rankedOperand(error, "indices", adaptor.getIndices());
  if (failed(type) || failed(indices))
    return failure();
  int64_t axis = static_cast<int64_t>(adaptor.getAxis());
  if (axis < 0 || axis >= type->getRank())
    return error("axis " + Twine(axis) + " is out of range for " +
                 typeStr(*type));
  SmallVector<Dim> dims = getDims(*type);
  SmallVector<Dim> shape(ArrayRef<Dim>(dims).take_front(axis));
  llvm::append_range(shape, getDims(*indices));
  llvm::append_range(shape, ArrayRef<Dim>(dims).drop_front(axis + 1));
  types.push_back(withDims(*type, shape));
  return success();
}

//===----------------------------------------------------------------------===//
// ScatterAddOp
//===----------------------------------------------------------------------===//

LogicalResult ScatterAddOp::verify() {
  auto dest = cast<RankedTensorType>(getDest().getType());
  auto source = cast<RankedTensorType>(getSource().getType());
  auto indices = cast<RankedTensorType>(getIndices().getType());
  Type element = dest.getElementType();
  if (!element.isF32() && !element.isF64() && !element.isInteger(32) &&
      !element.isInteger(64))
    return emitOpError("adds ")
           << element << " elements; only f32, f64, i32 and i64 are added "
           << "atomically (add 16-bit values into f32 and round after)";
  if (source.getElementType() != element)
    return emitOpError("adds ") << source.getElementType() << " into "
                                << element;
  int64_t axis = getAxis();
  if (axis < 0 || axis >= dest.getRank())
    return emitOpError("axis ") << axis << " is out of range for " << dest;
  // The source is what gather would read from dest at the indices.
  SmallVector<Dim> dims = getDims(dest);
  SmallVector<Dim> shape(ArrayRef<Dim>(dims).take_front(axis));
  llvm::append_range(shape, getDims(indices));
  llvm::append_range(shape, ArrayRef<Dim>(dims).drop_front(axis + 1));
  if (getDims(source) != shape)
    return emitOpError("source ")
           << source << " is not the shape of the slices of " << dest
           << " at indices " << indices << " along axis " << axis << " ("
           << withDims(source, shape) << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// MatmulOp
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  InferenceError error{loc, getOperationName()};
  auto lhs = rankedOperand(error, "lhs", adaptor.getLhs());
  auto rhs = rankedOperand(error, "rhs", adaptor.getRhs());
  if (failed(lhs) || failed(rhs))
    return failure();
  std::string shapes =
      " (lhs " + typeStr(*lhs) + ", rhs " + typeStr(*rhs) + ")";
  if (lhs->getRank() < 2 || lhs->getRank() != rhs->getRank())
    return error("operands must have the same rank, at least 2" + shapes);
  if (lhs->getElementType() != rhs->getElementType())
    return error("operands must have the same element type" + shapes);
  int64_t rank = lhs->getRank();
  SmallVector<Dim> l = getDims(*lhs), r = getDims(*rhs);
  if (ArrayRef<Dim>(l).drop_back(2) != ArrayRef<Dim>(r).drop_back(2))
    return error("batch dimensions must be equal (broadcast explicitly)" +
                 shapes);
  if (l[rank - 1] != r[rank - 2])
    return error("contracted dimensions differ: " + l[rank - 1].str() +
                 " vs " + r[rank - 2].str() + shapes);
  SmallVector<Dim> shape(ArrayRef<Dim>(l).drop_back(1));
  shape.push_back(r[rank - 1]);
  RankedTensorType result = withDims(*lhs, shape);
  // fp8 operands give their f32 accumulator.
  if (isFp8(lhs->getElementType()))
    result = result.clone(Float32Type::get(result.getContext()));
  types.push_back(result);
  return success();
}

bool MatmulOp::isCompatibleReturnTypes(TypeRange inferred, TypeRange actual) {
  if (inferred == actual)
    return true;
  if (inferred.size() != 1 || actual.size() != 1)
    return false;
  // 16-bit float operands may give the f32 accumulator unrounded.
  auto from = dyn_cast<RankedTensorType>(inferred.front());
  auto to = dyn_cast<RankedTensorType>(actual.front());
  auto narrow = from ? dyn_cast<FloatType>(from.getElementType()) : nullptr;
  return narrow && to && narrow.getWidth() == 16 &&
         to == from.clone(Float32Type::get(from.getContext()));
}

//===----------------------------------------------------------------------===//
// Composite ops
//===----------------------------------------------------------------------===//

/// Checks the optional per-feature operand (`weight`, `bias`) of a norm.
static LogicalResult checkNormParam(const InferenceError &error, StringRef name,
                                    Value param, RankedTensorType input,
                                    int64_t normRank) {
  if (!param)
    return success();
  auto type = rankedOperand(error, name, param);
  if (failed(type))
    return failure();
  SmallVector<Dim> inputDims = getDims(input);
  ArrayRef<Dim> expected = ArrayRef<Dim>(inputDims).take_back(normRank);
  if (ArrayRef<Dim>(getDims(*type)) != expected ||
      type->getElementType() != input.getElementType())
    return error("operand '" + name + "' " + typeStr(*type) + " must be " +
                 typeStr(withDims(input, expected)) +
                 ": the normalized trailing dimensions of " + typeStr(input));
  return success();
}

static LogicalResult inferNorm(const InferenceError &error, Value input,
                               ArrayRef<std::pair<StringRef, Value>> params,
                               int64_t normRank, SmallVectorImpl<Type> &types) {
  auto type = rankedOperand(error, "input", input);
  if (failed(type))
    return failure();
  if (type->getRank() == 0)
    return error("operand 'input' " + typeStr(*type) +
                 " must have at least one dimension to normalize");
  if (normRank < 1 || normRank > type->getRank())
    return error("norm_rank " + Twine(normRank) + " must be in [1, " +
                 Twine(type->getRank()) + "] for " + typeStr(*type));
  for (auto [name, value] : params)
    if (failed(checkNormParam(error, name, value, *type, normRank)))
      return failure();
  types.push_back(*type);
  return success();
}

LogicalResult RmsNormOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  InferenceError error{loc, getOperationName()};
  return inferNorm(error, adaptor.getInput(), {{"weight", adaptor.getWeight()}},
                   static_cast<int64_t>(adaptor.getNormRank()), types);
}

LogicalResult LayerNormOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  InferenceError error{loc, getOperationName()};
  return inferNorm(
      error, adaptor.getInput(),
      {{"weight", adaptor.getWeight()}, {"bias", adaptor.getBias()}},
      static_cast<int64_t>(adaptor.getNormRank()), types);
}

static LogicalResult inferAlongDim(const InferenceError &error, Value input,
                                   int64_t dim, SmallVectorImpl<Type> &types) {
  auto type = rankedOperand(error, "input", input);
  if (failed(type))
    return failure();
  if (dim < 0 || dim >= type->getRank())
    return error("dim " + Twine(dim) + " is out of range for " +
                 typeStr(*type));
  types.push_back(*type);
  return success();
}

LogicalResult SoftmaxOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  return inferAlongDim({loc, getOperationName()}, adaptor.getInput(),
                       static_cast<int64_t>(adaptor.getDim()), types);
}

LogicalResult LogSoftmaxOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &types) {
  return inferAlongDim({loc, getOperationName()}, adaptor.getInput(),
                       static_cast<int64_t>(adaptor.getDim()), types);
}

LogicalResult GeluOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  types.push_back(adaptor.getInput().getType());
  return success();
}

LogicalResult SiluOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  types.push_back(adaptor.getInput().getType());
  return success();
}

static LogicalResult inferStatistic(const InferenceError &error, Value input,
                                    ArrayRef<int64_t> dims, bool keepdim,
                                    int64_t correction,
                                    SmallVectorImpl<Type> &types) {
  auto type = rankedOperand(error, "input", input);
  if (failed(type) || failed(checkDims(error, dims, *type)))
    return failure();
  int64_t count = 1;
  SmallVector<Dim> sizes = getDims(*type);
  for (int64_t d : dims)
    if (sizes[d].isDynamic())
      return error("a mean or variance over dimension " + Twine(d) + " of " +
                   typeStr(*type) + ", of dynamic size " + sizes[d].str() +
                   ", is not supported (its element count is not a "
                   "constant)");
  for (int64_t d : dims)
    if (llvm::MulOverflow(count, type->getDimSize(d), count))
      return error("element count of the reduced dimensions of " +
                   typeStr(*type) + " does not fit in 64 bits");
  if (count == 0)
    return error("reduces over an empty dimension of " + typeStr(*type));
  if (count - correction <= 0)
    return error("correction " + Twine(correction) +
                 " leaves no degrees of freedom over " + Twine(count) +
                 " elements");
  types.push_back(reducedType(*type, dims, keepdim));
  return success();
}

LogicalResult MeanOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  return inferStatistic({loc, getOperationName()}, adaptor.getInput(),
                        adaptor.getDims(), adaptor.getKeepdim(), 0, types);
}

LogicalResult VarOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &types) {
  auto correction = static_cast<int64_t>(adaptor.getCorrection());
  if (correction < 0)
    return emitOptionalError(loc, "'", getOperationName(),
                             "' op correction must be non-negative");
  return inferStatistic({loc, getOperationName()}, adaptor.getInput(),
                        adaptor.getDims(), adaptor.getKeepdim(), correction,
                        types);
}

LogicalResult LinearOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  InferenceError error{loc, getOperationName()};
  auto input = rankedOperand(error, "input", adaptor.getInput());
  auto weight = rankedOperand(error, "weight", adaptor.getWeight());
  if (failed(input) || failed(weight))
    return failure();
  if (input->getRank() < 1)
    return error("operand 'input' " + typeStr(*input) +
                 " must have at least one dimension (the features)");
  SmallVector<Dim> inputDims = getDims(*input);
  // The leading sizes are the rows (flattened into one matmul's rows, or
  // with a dynamic size among several, a matmul batched over all but the
  // last); the features must be static.
  if (inputDims.back().isDynamic())
    return error("operand 'input' " + typeStr(*input) +
                 " is not supported: the features (its last dimension) "
                 "must be static");
  if (!weight->hasStaticShape())
    return error("operand 'weight' " + typeStr(*weight) +
                 " must have static sizes");
  if (weight->getRank() != 2 ||
      Dim::fixed(weight->getDimSize(1)) != inputDims.back() ||
      weight->getElementType() != input->getElementType())
    return error("operand 'weight' " + typeStr(*weight) +
                 " must be [out, in] with in = the last dimension of operand "
                 "'input' " +
                 typeStr(*input) + " and the same element type");
  int64_t out = weight->getDimSize(0);
  if (Value bias = adaptor.getBias()) {
    auto biasType = rankedOperand(error, "bias", bias);
    if (failed(biasType))
      return failure();
    if (biasType->getShape() != ArrayRef<int64_t>{out} ||
        biasType->getElementType() != input->getElementType())
      return error("operand 'bias' " + typeStr(*biasType) + " must be " +
                   typeStr(RankedTensorType::get({out},
                                                 input->getElementType())));
  }
  SmallVector<Dim> shape(ArrayRef<Dim>(inputDims).drop_back());
  shape.push_back(Dim::fixed(out));
  types.push_back(withDims(*input, shape));
  return success();
}

#define GET_OP_CLASSES
#include "xtile/Dialect/Tensor/IR/TensorOps.cpp.inc"
