//===- TileOps.cpp - xtile dialect, attributes and operations -------------===//

#include "xtile/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "xtile/Support/KernelSignature.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace xtile::tile;

#include "xtile/Dialect/Tile/IR/TileDialect.cpp.inc"
#include "xtile/Dialect/Tile/IR/TileEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "xtile/Dialect/Tile/IR/TileAttributes.cpp.inc"

void XTileDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "xtile/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "xtile/Dialect/Tile/IR/TileAttributes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// TargetAttr
//===----------------------------------------------------------------------===//

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef arch, int64_t sms,
                                 int64_t maxThreads, int64_t sharedMemory,
                                 int64_t registers, int64_t bandwidth,
                                 int64_t l2) {
  if (!arch.starts_with("sm_"))
    return emitError() << "arch must name an NVIDIA architecture (sm_XY), got '"
                       << arch << "'";
  for (auto [name, value] : {std::pair<StringRef, int64_t>{"sms", sms},
                             {"max_threads", maxThreads},
                             {"shared_memory", sharedMemory},
                             {"registers", registers},
                             {"bandwidth", bandwidth},
                             {"l2", l2}})
    if (value <= 0)
      return emitError() << name << " must be positive, got " << value;
  return success();
}

TargetAttr TargetAttr::getBuiltin(MLIRContext *ctx, StringRef arch) {
  // Published figures: H100 SXM (sm_90; the H200 has the same SMs and more
  // bandwidth) and A100 SXM 80 GB (sm_80). Shared memory is the most a block
  // can opt into.
  if (arch == "sm_90")
    return TargetAttr::get(ctx, arch, /*sms=*/132, /*max_threads=*/1024,
                           /*shared_memory=*/232448, /*registers=*/65536,
                           /*bandwidth=*/3350, /*l2=*/52428800);
  if (arch == "sm_80")
    return TargetAttr::get(ctx, arch, /*sms=*/108, /*max_threads=*/1024,
                           /*shared_memory=*/166912, /*registers=*/65536,
                           /*bandwidth=*/2039, /*l2=*/41943040);
  return {};
}

//===----------------------------------------------------------------------===//
// KernelOp and ProgramIdOp
//===----------------------------------------------------------------------===//

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  return xtile::parseKernel(parser, result, getNumInputsAttrName(result.name));
}

void KernelOp::print(OpAsmPrinter &p) {
  xtile::printKernel(p, *this, getSymName(), getNumInputs(),
                     getNumInputsAttrName());
}

LogicalResult KernelOp::verify() {
  if (failed(xtile::verifyKernelBuffers(*this, getBodyBlock(),
                                        static_cast<int64_t>(getNumInputs()))))
    return failure();
  ArrayRef<int64_t> grid = getGrid();
  if (grid.empty() || grid.size() > 3 ||
      llvm::any_of(grid, [](int64_t g) { return g <= 0; }))
    return emitOpError() << "grid must have 1 to 3 positive dimensions, got ["
                         << grid << "]";
  int64_t warps = static_cast<int64_t>(getNumWarps());
  if (warps < 1 || warps > 32 || !llvm::isPowerOf2_64(warps))
    return emitOpError() << "num_warps must be a power of two in [1, 32], got "
                         << warps;
  if (std::optional<TargetAttr> target = getTarget())
    if (warps * 32 > target->getMaxThreads())
      return emitOpError() << warps << " warps exceed the "
                           << target->getMaxThreads()
                           << " threads per block of " << target->getArch();
  return success();
}

LogicalResult ProgramIdOp::verify() {
  auto kernel = (*this)->getParentOfType<KernelOp>();
  if (!kernel)
    return emitOpError("must be inside an xtile.kernel");
  int64_t dim = static_cast<int64_t>(getDim());
  if (dim < 0 || dim >= static_cast<int64_t>(kernel.getGrid().size()))
    return emitOpError() << "dim " << dim << " is out of range for a grid of "
                         << kernel.getGrid().size() << " dimension(s)";
  return success();
}

//===----------------------------------------------------------------------===//
// Tile construction
//===----------------------------------------------------------------------===//

LogicalResult RangeOp::verify() {
  auto type = cast<RankedTensorType>(getType());
  int64_t lower = static_cast<int64_t>(getLower());
  int64_t upper = static_cast<int64_t>(getUpper());
  if (upper <= lower)
    return emitOpError() << "upper " << upper << " must exceed lower " << lower;
  if (type.getRank() != 1 || type.getDimSize(0) != upper - lower)
    return emitOpError() << "result " << type << " must be a 1-D tile of "
                         << "upper - lower = " << upper - lower << " elements";
  return success();
}

LogicalResult SplatOp::verify() {
  Type element = cast<ShapedType>(getType()).getElementType();
  if (getInput().getType() != element)
    return emitOpError() << "operand " << getInput().getType()
                         << " must be the element type of " << getType();
  return success();
}

LogicalResult BroadcastOp::verify() {
  auto in = cast<RankedTensorType>(getInput().getType());
  auto out = cast<RankedTensorType>(getType());
  bool ok = in.getRank() == out.getRank() &&
            in.getElementType() == out.getElementType();
  for (int64_t d = 0; ok && d < in.getRank(); ++d)
    ok = in.getDimSize(d) == 1 || in.getDimSize(d) == out.getDimSize(d);
  if (!ok)
    return emitOpError() << "cannot broadcast " << in << " to " << out
                         << " (same rank and element type; each dimension 1 "
                            "or equal)";
  return success();
}

LogicalResult ReshapeOp::verify() {
  auto in = cast<RankedTensorType>(getInput().getType());
  auto out = cast<RankedTensorType>(getType());
  if (in.getElementType() != out.getElementType() ||
      in.getNumElements() != out.getNumElements())
    return emitOpError() << "cannot reshape " << in << " to " << out;
  return success();
}

//===----------------------------------------------------------------------===//
// LoadOp and StoreOp
//===----------------------------------------------------------------------===//

/// Checks the indices of an access against the buffer, and that every tile
/// operand (indices, mask) has the shape of `value`, or that `value` is one
/// element when all indices are scalars.
static LogicalResult verifyAccess(Operation *op, MemRefType buffer,
                                  ValueRange indices, Value mask, Type value) {
  if (static_cast<int64_t>(indices.size()) != buffer.getRank())
    return op->emitOpError() << "has " << indices.size() << " indices for "
                             << buffer << " of rank " << buffer.getRank();
  bool anyTile = llvm::any_of(
      indices, [](Value v) { return isa<RankedTensorType>(v.getType()); });
  auto tile = dyn_cast<RankedTensorType>(value);
  if (!anyTile) {
    if (value != buffer.getElementType())
      return op->emitOpError() << "with scalar indices accesses one "
                               << buffer.getElementType() << ", not " << value;
    if (mask)
      return op->emitOpError("with scalar indices takes no mask");
    return success();
  }
  if (!tile)
    return op->emitOpError()
           << "with tile indices accesses a tile of " << buffer.getElementType()
           << ", not one " << value;
  if (tile.getElementType() != buffer.getElementType())
    return op->emitOpError() << "accesses a tile of " << buffer.getElementType()
                             << ", not " << value;
  for (Value index : indices)
    if (auto indexTile = dyn_cast<RankedTensorType>(index.getType()))
      if (indexTile.getShape() != tile.getShape())
        return op->emitOpError() << "index tile " << indexTile
                                 << " must have the shape of " << tile;
  if (mask &&
      cast<RankedTensorType>(mask.getType()).getShape() != tile.getShape())
    return op->emitOpError()
           << "mask " << mask.getType() << " must have the shape of " << tile;
  return success();
}

LogicalResult LoadOp::verify() {
  if (failed(verifyAccess(*this, getBuffer().getType(), getIndices(), getMask(),
                          getType())))
    return failure();
  // Loads are pure because kernel inputs are read-only.
  auto arg = dyn_cast<BlockArgument>(getBuffer());
  auto kernel =
      arg ? dyn_cast<KernelOp>(arg.getOwner()->getParentOp()) : KernelOp();
  if (!kernel || arg.getArgNumber() >= kernel.getNumInputs())
    return emitOpError("must load from an input buffer of its kernel");
  if (Value other = getOther()) {
    if (!getMask())
      return emitOpError("takes 'other' only with a mask");
    if (other.getType() != getElementTypeOrSelf(getType()))
      return emitOpError() << "other " << other.getType()
                           << " must be the element type of " << getType();
  }
  return success();
}

LogicalResult StoreOp::verify() {
  return verifyAccess(*this, getBuffer().getType(), getIndices(), getMask(),
                      getValue().getType());
}

//===----------------------------------------------------------------------===//
// FoldOp and DotOp
//===----------------------------------------------------------------------===//

/// Whether `identity` is the neutral element of `kind`.
static bool isNeutral(CombineKind kind, TypedAttr identity) {
  if (auto f = dyn_cast<FloatAttr>(identity)) {
    APFloat v = f.getValue();
    switch (kind) {
    case CombineKind::add:
      return v.isZero();
    case CombineKind::mul:
      return v.isExactlyValue(1.0);
    case CombineKind::max:
      return v.isInfinity() && v.isNegative();
    case CombineKind::min:
      return v.isInfinity() && !v.isNegative();
    default:
      return false;
    }
  }
  auto i = dyn_cast<IntegerAttr>(identity);
  if (!i)
    return false;
  APInt v = i.getValue();
  switch (kind) {
  case CombineKind::add:
    return v.isZero();
  case CombineKind::mul:
    return v.isOne();
  case CombineKind::max:
    return v.isMinSignedValue();
  case CombineKind::min:
    return v.isMaxSignedValue();
  case CombineKind::And:
    return v.isAllOnes();
  case CombineKind::Or:
    return v.isZero();
  }
  return false;
}

LogicalResult FoldOp::verify() {
  auto input = cast<RankedTensorType>(getInput().getType());
  ArrayRef<int64_t> dims = getDims();
  if (dims.empty())
    return emitOpError("must reduce at least one dimension");
  SmallVector<int64_t> kept;
  for (auto [i, d] : llvm::enumerate(dims))
    if (d < 0 || d >= input.getRank() || (i > 0 && dims[i - 1] >= d))
      return emitOpError() << "dims [" << dims << "] must be sorted, unique "
                           << "dimensions of " << input;
  for (int64_t d = 0; d < input.getRank(); ++d)
    if (!llvm::is_contained(dims, d))
      kept.push_back(input.getDimSize(d));
  Type expected =
      kept.empty() ? input.getElementType() : Type(input.clone(kept));
  if (getType() != expected)
    return emitOpError() << "result " << getType() << " must be " << expected
                         << " (" << input << " without dims [" << dims << "])";
  if (getIdentity().getType() != input.getElementType())
    return emitOpError() << "identity " << getIdentity()
                         << " must have the element type of " << input;
  bool isFloat = isa<FloatType>(input.getElementType());
  CombineKind kind = getCombine();
  if (isFloat && (kind == CombineKind::And || kind == CombineKind::Or))
    return emitOpError() << "combine '" << stringifyCombineKind(kind)
                         << "' needs integers, got " << input;
  // Masked-off elements hold the identity, so it must be neutral.
  if (!isNeutral(kind, getIdentity()))
    return emitOpError() << "identity " << getIdentity()
                         << " is not the neutral element of '"
                         << stringifyCombineKind(kind) << "'";
  if (getStrategy() != FoldStrategy::serial &&
      !(getAssociative() && getCommutative()))
    return emitOpError() << "strategy '" << stringifyFoldStrategy(getStrategy())
                         << "' reorders the fold: it must be associative and "
                            "commutative";
  return success();
}

LogicalResult DotOp::verify() {
  auto lhs = cast<RankedTensorType>(getLhs().getType());
  auto rhs = cast<RankedTensorType>(getRhs().getType());
  auto acc = cast<RankedTensorType>(getAcc().getType());
  if (lhs.getRank() != 2 || rhs.getRank() != 2 || acc.getRank() != 2 ||
      lhs.getDimSize(1) != rhs.getDimSize(0) ||
      acc.getDimSize(0) != lhs.getDimSize(0) ||
      acc.getDimSize(1) != rhs.getDimSize(1))
    return emitOpError() << "needs [M, K] x [K, N] -> [M, N] tiles, got " << lhs
                         << " x " << rhs << " -> " << acc;
  if (lhs.getElementType() != rhs.getElementType())
    return emitOpError() << "operands " << lhs << " and " << rhs
                         << " must have the same element type";
  Type in = lhs.getElementType(), out = acc.getElementType();
  if (isa<IntegerType>(in) &&
      (!isa<IntegerType>(out) ||
       out.getIntOrFloatBitWidth() < std::max(32u, in.getIntOrFloatBitWidth())))
    return emitOpError() << "accumulator " << acc
                         << " must be an integer of at least 32 bits and as "
                            "wide as "
                         << in;
  if (isa<FloatType>(in) &&
      (!isa<FloatType>(out) ||
       out.getIntOrFloatBitWidth() < std::max(32u, in.getIntOrFloatBitWidth())))
    return emitOpError() << "accumulator " << acc
                         << " must be at least f32 and as wide as " << in;
  return success();
}

#define GET_OP_CLASSES
#include "xtile/Dialect/Tile/IR/TileOps.cpp.inc"
