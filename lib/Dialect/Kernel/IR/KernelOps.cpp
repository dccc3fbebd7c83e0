//===- KernelOps.cpp - xkernel dialect, types and operations --------------===//

#include "xtile/Dialect/Kernel/IR/KernelOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "xtile/Support/KernelSignature.h"
#include "xtile/Support/Storage.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace xtile::kernel;

#include "xtile/Dialect/Kernel/IR/KernelDialect.cpp.inc"
#include "xtile/Dialect/Kernel/IR/KernelEnums.cpp.inc"
#define GET_TYPEDEF_CLASSES
#include "xtile/Dialect/Kernel/IR/KernelTypes.cpp.inc"

void XKernelDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "xtile/Dialect/Kernel/IR/KernelOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "xtile/Dialect/Kernel/IR/KernelTypes.cpp.inc"
      >();
}

LogicalResult XKernelDialect::verifyOperationAttribute(Operation *op,
                                                       NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  bool unroll = attr.getName() == getUnrollAttrHelper().getName();
  if (unroll || attr.getName() == getNumStagesAttrHelper().getName()) {
    if (!isa<scf::ForOp>(op))
      return op->emitOpError() << "'" << name << "' belongs on an 'scf.for'";
    if (unroll && !isa<UnitAttr>(attr.getValue()))
      return op->emitOpError() << "'" << name << "' must be a unit attribute, got "
                               << attr.getValue();
    auto stages = dyn_cast<IntegerAttr>(attr.getValue());
    if (!unroll && (!stages || !stages.getValue().isStrictlyPositive()))
      return op->emitOpError() << "'" << name
                               << "' must be a positive integer, got "
                               << attr.getValue();
    return success();
  }
  return op->emitOpError() << "unknown xkernel attribute '" << name << "'";
}

LogicalResult XKernelDialect::verifyRegionArgAttribute(Operation *op,
                                                       unsigned region,
                                                       unsigned index,
                                                       NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name != FuncOp::getReadonlyAttrName() &&
      name != FuncOp::getTensorMapAttrName())
    return op->emitOpError() << "unknown xkernel argument attribute '" << name
                             << "'";
  if (!isa<FuncOp>(op) || region != 0)
    return op->emitOpError() << "'" << name
                             << "' belongs on an argument of an 'xkernel.func'";
  if (name == FuncOp::getTensorMapAttrName()) {
    // {of = buffer argument, box = sizes, swizzle = bytes}, on a pointer to
    // i8 in global memory.
    auto map = dyn_cast<DictionaryAttr>(attr.getValue());
    auto of = map ? map.getAs<IntegerAttr>("of") : IntegerAttr();
    auto box = map ? map.getAs<DenseI64ArrayAttr>("box") : DenseI64ArrayAttr();
    auto swizzle = map ? map.getAs<IntegerAttr>("swizzle") : IntegerAttr();
    if (!of || !box || !swizzle || map.size() != 3 || of.getInt() < 0 ||
        of.getInt() >= index)
      return op->emitOpError()
             << "'" << name << "' on argument #" << index
             << " must be {of = <an earlier argument>, box = array<i64: ...>, "
                "swizzle = <bytes>}, got "
             << attr.getValue();
    Region &body = op->getRegion(0);
    if (body.empty() || index >= body.front().getNumArguments())
      return success();
    auto ptr = dyn_cast<PtrType>(body.front().getArgument(index).getType());
    if (!ptr || !ptr.getElementType().isInteger(8) ||
        ptr.getMemorySpace() != MemorySpace::global)
      return op->emitOpError() << "'" << name << "' on argument #" << index
                               << " needs a pointer to i8 in global memory";
    return success();
  }
  if (!isa<UnitAttr>(attr.getValue()))
    return op->emitOpError() << "'" << name << "' on argument #" << index
                             << " must be a unit attribute, got "
                             << attr.getValue();
  Region &body = op->getRegion(0);
  if (body.empty() || index >= body.front().getNumArguments())
    return success();
  Type type = body.front().getArgument(index).getType();
  if (!isa<PtrType>(type))
    return op->emitOpError() << "'" << name << "' on argument #" << index
                             << " needs a pointer, got " << type;
  return success();
}

LogicalResult PtrType::verify(function_ref<InFlightDiagnostic()> emitError,
                              Type elementType, MemorySpace) {
  if (!elementType.isIntOrIndexOrFloat() || elementType.isIndex())
    return emitError() << "pointer element type must be an integer or a "
                          "float, got "
                       << elementType;
  return success();
}

//===----------------------------------------------------------------------===//
// FuncOp
//===----------------------------------------------------------------------===//

ParseResult FuncOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildType = [](Builder &b, ArrayRef<Type> args, ArrayRef<Type> results,
                      function_interface_impl::VariadicFlag, std::string &) {
    return b.getFunctionType(args, results);
  };
  SMLoc loc = parser.getCurrentLocation();
  if (failed(function_interface_impl::parseFunctionOp(
          parser, result, /*allowVariadic=*/false,
          getFunctionTypeAttrName(result.name), buildType,
          getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name))))
    return failure();
  // The attribute dictionary is parsed untyped; an inherent attribute of
  // the wrong kind would be dropped when the properties are set.
  return verifyInherentAttrs(result.name, result.attributes, [&] {
    return parser.emitError(loc) << "'" << result.name << "' op ";
  });
}

void FuncOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(
      p, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

LogicalResult FuncOp::verify() {
  if (!getFunctionType().getResults().empty())
    return emitOpError("a kernel returns no values, but the type has ")
           << getFunctionType().getNumResults() << " result(s)";
  if (getMaxThreads() < 1 || getMaxThreads() > 1024)
    return emitOpError("max_threads must be in [1, 1024], got ")
           << getMaxThreads();
  if (static_cast<int64_t>(getDynamicShared()) < 0)
    return emitOpError("dynamic_shared must not be negative, got ")
           << getDynamicShared();
  if (std::optional<uint64_t> blocks = getMinBlocks(); blocks && *blocks < 1)
    return emitOpError("min_blocks must be positive, got ") << *blocks;
  if (std::optional<StringRef> arch = getArch();
      arch && !arch->starts_with("sm_"))
    return emitOpError("arch must name an NVIDIA GPU (sm_80, sm_90, ...), "
                       "got '")
           << *arch << "'";
  for (auto [i, type] : llvm::enumerate(getArgumentTypes())) {
    if (auto ptr = dyn_cast<PtrType>(type)) {
      if (ptr.getMemorySpace() != MemorySpace::global)
        return emitOpError("argument #")
               << i << " must point into global memory, got " << type;
      continue;
    }
    if (!type.isIntOrIndexOrFloat())
      return emitOpError("argument #")
             << i << " must be a pointer or a scalar, got " << type;
  }
  if (getBody().empty())
    return emitOpError("needs a body");
  Block &entry = getBody().front();
  if (entry.getArgumentTypes() != getArgumentTypes())
    return emitOpError("entry block arguments do not match the signature");
  // Conversions to and from fp8, and fp8 tensor-core products, are
  // instructions of sm_89 and later.
  if (std::optional<StringRef> arch = getArch();
      arch && !hasFp8Conversions(*arch)) {
    WalkResult converts = getBody().walk([&](Operation *op) {
      auto numeric = [](Type t) { return isa<FloatType, IntegerType,
                                             IndexType, VectorType>(t); };
      if (op->getNumResults() != 1 || op->getNumOperands() == 0 ||
          op->getNumRegions() != 0 ||
          !llvm::all_of(op->getOperandTypes(), numeric) ||
          llvm::any_of(op->getOperandTypes(), isFp8) ==
              isFp8(op->getResult(0).getType()))
        return WalkResult::advance();
      op->emitError("'")
          << op->getName()
          << "' on fp8 values (cvt, mma) needs sm_89 or later; the kernel's "
             "arch is "
          << *arch;
      return WalkResult::interrupt();
    });
    if (converts.wasInterrupted())
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

static LogicalResult verifySharedPtr(Operation *op, PtrType type) {
  if (type.getMemorySpace() != MemorySpace::shared)
    return op->emitOpError("result must point into shared memory, got ")
           << type;
  return success();
}

LogicalResult SharedOp::verify() {
  if (getSize() < 1)
    return emitOpError("size must be positive, got ") << getSize();
  auto func = dyn_cast<FuncOp>((*this)->getParentOp());
  if (!func)
    return emitOpError("must be in the entry block of an xkernel.func");
  return verifySharedPtr(*this, getResult().getType());
}

LogicalResult DynamicSharedOp::verify() {
  if (static_cast<int64_t>(getOffset()) < 0 || getOffset() % 16)
    return emitOpError("offset must be a non-negative multiple of 16 bytes, "
                       "got ")
           << getOffset();
  auto func = (*this)->getParentOfType<FuncOp>();
  if (func && getOffset() >= func.getDynamicShared())
    return emitOpError("offset ")
           << getOffset() << " is past the kernel's dynamic_shared ("
           << func.getDynamicShared() << " bytes)";
  return verifySharedPtr(*this, getResult().getType());
}

/// A load or store of `lanes` through `ptr`: the element types agree and a
/// vector access is at most 16 bytes of a power-of-two number of lanes.
static LogicalResult verifyAccess(Operation *op, Type lanes, PtrType ptr) {
  Type element = lanes;
  if (auto vec = dyn_cast<VectorType>(lanes)) {
    element = vec.getElementType();
    int64_t n = vec.getNumElements();
    int64_t bytes = n * xtile::getElementBytes(element);
    if (!llvm::isPowerOf2_64(n) || bytes > 16)
      return op->emitOpError("a vector access is a power of two lanes of at "
                             "most 16 bytes, got ")
             << lanes;
  }
  if (element != ptr.getElementType())
    return op->emitOpError("accesses ")
           << element << " through a pointer to " << ptr.getElementType();
  return success();
}

LogicalResult LoadOp::verify() {
  return verifyAccess(*this, getResult().getType(), getPtr().getType());
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getPtrMutable());
}

LogicalResult StoreOp::verify() {
  return verifyAccess(*this, getValue().getType(), getPtr().getType());
}

LogicalResult AtomicOp::verify() {
  if (getValue().getType() != getPtr().getType().getElementType())
    return emitOpError("combines ")
           << getValue().getType() << " into a pointer to "
           << getPtr().getType().getElementType();
  return success();
}

LogicalResult AsyncCopyOp::verify() {
  if (getSrc().getType().getMemorySpace() != MemorySpace::global ||
      getDst().getType().getMemorySpace() != MemorySpace::shared)
    return emitOpError("copies from global to shared memory, got ")
           << getSrc().getType() << " to " << getDst().getType();
  if (getSrc().getType().getElementType() != getDst().getType().getElementType())
    return emitOpError("source and destination element types differ");
  int64_t bytes = getBytes();
  if (bytes != 4 && bytes != 8 && bytes != 16)
    return emitOpError("copies 4, 8 or 16 bytes, got ") << bytes;
  int64_t elementBytes =
      xtile::getElementBytes(getSrc().getType().getElementType());
  if (bytes % elementBytes)
    return emitOpError("copies whole elements: ")
           << bytes << " bytes of " << getSrc().getType().getElementType();
  return success();
}

//===----------------------------------------------------------------------===//
// Bulk tensor copies (TMA) and mbarriers
//===----------------------------------------------------------------------===//

/// An mbarrier operand: 8 bytes (i64) of shared memory.
static LogicalResult verifyBarrier(Operation *op, PtrType bar) {
  if (bar.getMemorySpace() != MemorySpace::shared ||
      !bar.getElementType().isInteger(64))
    return op->emitOpError("takes an mbarrier as a pointer to i64 in shared "
                           "memory, got ")
           << bar;
  return success();
}

LogicalResult MbarrierInitOp::verify() {
  if (getCount() < 1 || getCount() >= (1 << 20))
    return emitOpError("expects 1 to 2^20 - 1 arrivals, got ") << getCount();
  return verifyBarrier(*this, getBar().getType());
}

LogicalResult MbarrierExpectTxOp::verify() {
  if (getBytes() < 1 || getBytes() >= (1 << 20))
    return emitOpError("expects 1 to 2^20 - 1 bytes, got ") << getBytes();
  return verifyBarrier(*this, getBar().getType());
}

LogicalResult MbarrierWaitOp::verify() {
  return verifyBarrier(*this, getBar().getType());
}

LogicalResult MbarrierArriveOp::verify() {
  return verifyBarrier(*this, getBar().getType());
}

LogicalResult SetMaxRegistersOp::verify() {
  if (getCount() < 24 || getCount() > 256 || getCount() % 8)
    return emitOpError("expects 24 to 256 registers in steps of 8, got ")
           << getCount();
  return success();
}

LogicalResult BarrierOp::verify() {
  if (getId().has_value() != getThreads().has_value())
    return emitOpError("takes both a barrier id and a thread count, or "
                       "neither");
  if (!getId())
    return success();
  if (*getId() < 1 || *getId() > 15)
    return emitOpError("names barrier 1 to 15 (0 is the whole block's), got ")
           << *getId();
  if (*getThreads() < 32 || *getThreads() % 32)
    return emitOpError("counts threads in whole warps, got ")
           << *getThreads();
  if (auto func = (*this)->getParentOfType<FuncOp>();
      func && *getThreads() > func.getMaxThreads())
    return emitOpError("waits for ")
           << *getThreads() << " threads, more than the kernel's "
           << func.getMaxThreads();
  return success();
}

LogicalResult TmaLoadOp::verify() {
  if (getMap().getType().getMemorySpace() != MemorySpace::global ||
      !getMap().getType().getElementType().isInteger(8))
    return emitOpError("reads its tensor map through a pointer to i8 in "
                       "global memory, got ")
           << getMap().getType();
  if (getDst().getType().getMemorySpace() != MemorySpace::shared)
    return emitOpError("copies into shared memory, got ")
           << getDst().getType();
  if (getCoords().empty() || getCoords().size() > 5)
    return emitOpError("takes 1 to 5 coordinates, got ")
           << getCoords().size();
  return verifyBarrier(*this, getBar().getType());
}

//===----------------------------------------------------------------------===//
// Tensor cores
//===----------------------------------------------------------------------===//

LogicalResult LdMatrixOp::verify() {
  PtrType ptr = getPtr().getType();
  if (ptr.getMemorySpace() != MemorySpace::shared)
    return emitOpError("loads from shared memory, got ") << ptr;
  VectorType result = getResult().getType();
  int64_t bits = result.getNumElements() * result.getElementTypeBitWidth();
  if (bits != 32 && bits != 64 && bits != 128)
    return emitOpError("loads 1, 2 or 4 matrices: a result of 1, 2 or 4 "
                       "32-bit registers, got ")
           << result;
  if (result.getElementType() != ptr.getElementType())
    return emitOpError("loads ")
           << result.getElementType() << " through a pointer to "
           << ptr.getElementType();
  if (getTrans() && result.getElementTypeBitWidth() != 16)
    return emitOpError("transposes 16-bit elements only, got ")
           << result.getElementType();
  return success();
}

void LdMatrixOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getPtrMutable());
}

LogicalResult MmaOp::verify() {
  VectorType a = getA().getType(), b = getB().getType();
  if (a.getElementType() != b.getElementType())
    return emitOpError("multiplies ")
           << a.getElementType() << " by " << b.getElementType()
           << ": both operands have one type";
  // m16n8k16 on 16-bit operands, m16n8k8 on tf32: 4 registers of A and 2
  // of B per lane.
  int64_t perRegister = 32 / a.getElementTypeBitWidth();
  if (a.getNumElements() != 4 * perRegister ||
      b.getNumElements() != 2 * perRegister)
    return emitOpError("takes fragments of 4 registers of A and 2 of B (")
           << 4 * perRegister << " and " << 2 * perRegister << " lanes of "
           << a.getElementType() << "), got " << a << " and " << b;
  return success();
}

LogicalResult WgmmaOp::verify() {
  PtrType a = getA().getType(), b = getB().getType();
  if (a.getMemorySpace() != MemorySpace::shared ||
      b.getMemorySpace() != MemorySpace::shared)
    return emitOpError("reads its operands from shared memory, got ")
           << a << " and " << b;
  Type element = a.getElementType();
  if (element != b.getElementType() ||
      !(element.isF16() || element.isBF16() || element.isF32() ||
        xtile::isFp8(element)))
    return emitOpError("multiplies f16, bf16, f32 (tf32) or fp8 operands of "
                       "one type, got ")
           << element << " and " << b.getElementType();
  if ((element.isF32() || xtile::isFp8(element)) && getBPanelBytes())
    return emitOpError("reads ")
           << (element.isF32() ? "tf32" : "fp8")
           << " operands K-major only: n_major takes 16-bit operands";
  int64_t n = getN();
  if (n < 8 || n > 256 || n % 8)
    return emitOpError("computes 64 x N with N a multiple of 8 up to 256 (an "
                       "accumulator of N / 2 lanes), got ")
           << getAcc().getType();
  if (std::optional<int64_t> panel = getBPanelBytes()) {
    if (n % 64)
      return emitOpError("reads an N-major B in panels of 64 columns: N must "
                         "be a multiple of 64, got ")
             << n;
    // The descriptor holds the stride / 16 in 14 bits; panels start on
    // swizzle atoms.
    if (*panel <= 0 || *panel % 1024 || *panel >= (int64_t(1) << 18))
      return emitOpError("n_major takes the bytes between B's panels, a "
                         "positive multiple of 1024 below 2^18, got ")
             << *panel;
  }
  return success();
}

void WgmmaOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getAMutable());
  effects.emplace_back(MemoryEffects::Read::get(), &getBMutable());
}

//===----------------------------------------------------------------------===//
// ShuffleOp
//===----------------------------------------------------------------------===//

LogicalResult ShuffleOp::verify() {
  int64_t width = getWidth();
  if (width < 1 || width > 32 || !llvm::isPowerOf2_64(width))
    return emitOpError("width must be a power of two up to 32, got ") << width;
  Type type = getValue().getType();
  if (type.isIndex() || type.getIntOrFloatBitWidth() != 32)
    return emitOpError("shuffles 32-bit values, got ") << type;
  return success();
}

//===----------------------------------------------------------------------===//
// ProgramOp and LaunchOp
//===----------------------------------------------------------------------===//

ParseResult ProgramOp::parse(OpAsmParser &parser, OperationState &result) {
  return xtile::parseKernel(parser, result, getNumInputsAttrName(result.name));
}

void ProgramOp::print(OpAsmPrinter &p) {
  xtile::printKernel(p, *this, getSymName(), getNumInputs(),
                     getNumInputsAttrName());
}

LogicalResult ProgramOp::verify() {
  if (failed(xtile::verifyKernelBuffers(*this, getBodyBlock(),
                                        static_cast<int64_t>(getNumInputs()))))
    return failure();
  std::optional<ArrayAttr> names = getSizeNames();
  if (getNumSizes() && (!names || names->size() != getNumSizes()))
    return emitOpError() << "needs one name per size (size_names) for its "
                         << getNumSizes() << " size(s)";
  if (!getNumSizes() && names && !names->empty())
    return emitOpError("has size names but no sizes");
  if (std::optional<ArrayRef<int64_t>> inPlace = getInPlace()) {
    ArrayRef<BlockArgument> buffers = getBuffers();
    int64_t inputs = getNumInputs();
    if (int64_t(inPlace->size()) != int64_t(buffers.size()) - inputs)
      return emitOpError() << "needs one 'in_place' entry per output ("
                           << int64_t(buffers.size()) - inputs << "), has "
                           << inPlace->size();
    for (auto [i, input] : llvm::enumerate(*inPlace)) {
      if (input == -1)
        continue;
      if (input < 0 || input >= inputs)
        return emitOpError() << "output #" << i << " is in place of input #"
                             << input << ", which it does not have";
      if (buffers[input].getType() != buffers[inputs + i].getType())
        return emitOpError() << "output #" << i << " "
                             << buffers[inputs + i].getType()
                             << " cannot be in place of input #" << input
                             << " " << buffers[input].getType();
    }
  }
  return success();
}

SmallVector<Value> ProgramOp::getBufferSizes(Value buffer) {
  if (auto alloc = buffer.getDefiningOp<AllocOp>())
    return SmallVector<Value>(alloc.getDynamicSizes());
  SmallVector<Value> sizes;
  if (auto arg = dyn_cast<BlockArgument>(buffer))
    for (BlockArgument size : xtile::getKernelBufferSizes(*this, arg))
      sizes.push_back(size);
  return sizes;
}

LogicalResult AllocOp::verify() {
  int64_t dynamic = getType().getNumDynamicDims();
  if (static_cast<int64_t>(getDynamicSizes().size()) != dynamic)
    return emitOpError() << "has " << getDynamicSizes().size()
                         << " dynamic size(s) for " << getType() << ", which "
                         << "has " << dynamic;
  return success();
}

int TensorMapOp::getDataType() {
  Type element = getSource().getType().getElementType();
  if (element.isBF16())
    return 9;
  if (element.isF16())
    return 6;
  if (element.isF32())
    return 7;
  if (element.isF64())
    return 8;
  switch (xtile::getElementBytes(element)) {
  case 1:
    return 0;
  case 2:
    return 1;
  case 4:
    return 3;
  default:
    return 5;
  }
}

LogicalResult TensorMapOp::verify() {
  auto source = cast<MemRefType>(getSource().getType());
  if (getResult().getType().getNumElements() != 128)
    return emitOpError("makes 128 bytes (memref<128xi8>), got ")
           << getResult().getType();
  ArrayRef<int64_t> box = getBox();
  if (source.getRank() < 1 || source.getRank() > 5 ||
      static_cast<int64_t>(box.size()) != source.getRank())
    return emitOpError("needs a box of one size per dimension of a tensor of "
                       "rank 1 to 5, got ")
           << box.size() << " for " << source;
  for (int64_t d : box)
    if (d < 1 || d > 256)
      return emitOpError("box sizes are 1 to 256, got ") << d;
  Type element = source.getElementType();
  if (!element.isIntOrFloat() || element.isInteger(1))
    return emitOpError("maps a buffer of integers or floats, got ") << element;
  int64_t innerBytes = box.back() * xtile::getElementBytes(element);
  int64_t swizzle = getSwizzle();
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitOpError("swizzles 0, 32, 64 or 128 bytes, got ") << swizzle;
  if (innerBytes % 16 || (swizzle && innerBytes > swizzle))
    return emitOpError("needs a box whose innermost size is a multiple of 16 "
                       "bytes and, swizzled, at most the swizzle's bytes; got ")
           << innerBytes << " bytes with swizzle " << swizzle;
  return success();
}

SmallVector<int64_t, 3> LaunchOp::getGridAt(ArrayRef<int64_t> sizes) {
  SmallVector<int64_t, 3> grid(getGrid());
  if (std::optional<AffineMap> map = getGridMap())
    for (auto [i, g] : llvm::enumerate(xtile::evaluateSizeMap(*map, sizes)))
      grid[i] = g;
  return grid;
}

LogicalResult LaunchOp::verify() {
  for (auto [what, dims] : {std::pair<StringRef, ArrayRef<int64_t>>{
                                "grid", getGrid()},
                            {"block", getBlock()}}) {
    if (dims.size() != 3)
      return emitOpError() << what << " must have 3 dimensions, got "
                           << dims.size();
    for (int64_t d : dims)
      if (d < 1)
        return emitOpError() << what << " dimensions must be positive, got "
                             << d;
  }
  if (getGrid()[1] > 65535 || getGrid()[2] > 65535)
    return emitOpError("grid y and z are at most 65535, got ")
           << getGrid()[1] << " and " << getGrid()[2];
  if (getGrid()[0] > 2147483647)
    return emitOpError("grid x is at most 2^31 - 1, got ") << getGrid()[0];
  int64_t threads = getBlock()[0] * getBlock()[1] * getBlock()[2];
  if (threads > 1024)
    return emitOpError("a block has at most 1024 threads, got ") << threads;
  if (static_cast<int64_t>(getShared()) < 0)
    return emitOpError("shared must not be negative");
  if (std::optional<AffineMap> map = getGridMap()) {
    if (map->getNumDims() != 0 || map->getNumSymbols() != getSizes().size() ||
        map->getNumResults() < 1 || map->getNumResults() > 3)
      return emitOpError() << "grid map " << AffineMapAttr::get(*map)
                           << " must have no dimensions, one symbol per size ("
                           << getSizes().size() << ") and 1 to 3 results";
  }
  if (std::optional<ArrayRef<int64_t>> when = getWhen()) {
    if (when->size() != 2 * getSizes().size())
      return emitOpError("when must give a minimum and a maximum for each of "
                         "the ")
             << getSizes().size() << " size(s), got " << when->size()
             << " value(s)";
    for (unsigned i = 0; i < when->size(); i += 2)
      if ((*when)[i] < 1 || (*when)[i] > (*when)[i + 1])
        return emitOpError("when's range of size #")
               << i / 2 << " must be 1 <= min <= max, got [" << (*when)[i]
               << ", " << (*when)[i + 1] << "]";
  }
  return success();
}

bool LaunchOp::runsAt(ArrayRef<int64_t> sizes) {
  std::optional<ArrayRef<int64_t>> when = getWhen();
  if (!when)
    return true;
  for (auto [i, size] : llvm::enumerate(sizes))
    if (size < (*when)[2 * i] || size > (*when)[2 * i + 1])
      return false;
  return true;
}

LogicalResult LaunchOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto kernel = symbolTable.lookupNearestSymbolFrom<FuncOp>(*this,
                                                            getKernelAttr());
  if (!kernel)
    return emitOpError("'") << getKernel() << "' is not an xkernel.func";
  ArrayRef<Type> params = kernel.getArgumentTypes();
  if (params.size() != getBuffers().size() + getSizes().size())
    return emitOpError("'") << getKernel() << "' takes " << params.size()
                            << " argument(s), launched with "
                            << getBuffers().size() << " buffer(s) and "
                            << getSizes().size() << " size(s)";
  for (auto [i, param] :
       llvm::enumerate(params.drop_front(getBuffers().size())))
    if (!param.isIndex())
      return emitOpError("size #") << i << " is passed to argument type "
                                   << param << " of '" << getKernel()
                                   << "', which is not an index";
  for (auto [i, param, buffer] :
       llvm::enumerate(params.take_front(getBuffers().size()),
                       getBuffers().getTypes())) {
    auto ptr = dyn_cast<PtrType>(param);
    auto memref = cast<MemRefType>(buffer);
    if (!ptr || ptr.getElementType() != memref.getElementType())
      return emitOpError("buffer #")
             << i << " of type " << buffer << " does not match argument type "
             << param << " of '" << getKernel() << "'";
  }
  int64_t threads = getBlock()[0] * getBlock()[1] * getBlock()[2];
  if (threads > static_cast<int64_t>(kernel.getMaxThreads()))
    return emitOpError("launches ")
           << threads << " threads per block, more than '" << getKernel()
           << "' allows (max_threads = " << kernel.getMaxThreads() << ")";
  if (getShared() < kernel.getDynamicShared())
    return emitOpError("gives ")
           << getShared() << " bytes of dynamic shared memory, '"
           << getKernel() << "' needs " << kernel.getDynamicShared();
  return success();
}

#define GET_OP_CLASSES
#include "xtile/Dialect/Kernel/IR/KernelOps.cpp.inc"
