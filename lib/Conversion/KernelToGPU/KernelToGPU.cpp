//===- KernelToGPU.cpp - Kernel IR to the GPU, LLVM and NVVM dialects -----===//
//
// Kernels move into a gpu.module with an NVVM target; their bodies are
// lowered to LLVM + NVVM by one dialect conversion that combines the xkernel
// patterns below with upstream's GPU, arith, cf, vector, math and ub
// lowerings. Math functions are first rewritten into arithmetic
// (polynomial approximations), so the result never calls libdevice.
//
//===----------------------------------------------------------------------===//

#include "xtile/Conversion/KernelToGPU/KernelToGPU.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"
#include "xtile/Dialect/Kernel/IR/KernelOps.h"
#include "xtile/Dialect/Kernel/Transforms/Passes.h"
#include "xtile/Support/Storage.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

namespace xtile {
#define GEN_PASS_DEF_CONVERTXKERNELTONVVM
#include "xtile/Conversion/Passes.h.inc"
} // namespace xtile

using namespace mlir;
namespace xk = xtile::kernel;

namespace {

constexpr StringLiteral kDynamicSharedName = "xtile_dynamic_shared";

unsigned addressSpace(xk::MemorySpace space) {
  return static_cast<unsigned>(space == xk::MemorySpace::global
                                   ? NVVM::NVVMMemorySpace::Global
                                   : NVVM::NVVMMemorySpace::Shared);
}

/// The alignment an access of `type` may assume: its size, which the
/// xkernel verifier keeps a power of two up to 16 bytes for vectors.
unsigned naturalAlignment(Type type) {
  int64_t lanes = 1;
  Type element = type;
  if (auto vec = dyn_cast<VectorType>(type)) {
    lanes = vec.getNumElements();
    element = vec.getElementType();
  }
  uint64_t bytes = llvm::divideCeil(element.getIntOrFloatBitWidth(), 8);
  return static_cast<unsigned>(llvm::PowerOf2Ceil(bytes * lanes));
}

/// The launch bound of the kernel around `op`: `nvvm.maxntid` once the
/// kernel is lowered, `max_threads` before.
int64_t maxThreadsAround(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (auto func = dyn_cast<xk::FuncOp>(parent))
      return func.getMaxThreads();
    if (auto bound = parent->getAttrOfType<DenseI32ArrayAttr>(
            NVVM::NVVMDialect::getMaxntidAttrName())) {
      int64_t threads = 1;
      for (int32_t d : bound.asArrayRef())
        threads *= d;
      return threads;
    }
    if (isa<FunctionOpInterface>(parent))
      break;
  }
  // CUDA's limit for any block.
  return 1024;
}

/// `ptr[offset]` as an LLVM pointer to one element.
Value elementAddress(OpBuilder &b, Location loc,
                     const LLVMTypeConverter &converter, Value ptr,
                     xk::PtrType type, Value offset) {
  Type element = converter.convertType(type.getElementType());
  return LLVM::GEPOp::create(b, loc, ptr.getType(), element, ptr,
                             ArrayRef<LLVM::GEPArg>{offset},
                             LLVM::GEPNoWrapFlags::inbounds);
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

/// xkernel.func -> gpu.func kernel, lowered further by upstream's gpu.func
/// pattern (which converts the signature and copies the LLVM argument
/// attributes) in the same conversion.
struct FuncOpLowering : ConvertOpToLLVMPattern<xk::FuncOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(xk::FuncOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto func = gpu::GPUFuncOp::create(rewriter, op.getLoc(), op.getSymName(),
                                       op.getFunctionType());
    func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                  rewriter.getUnitAttr());
    // max_threads bounds the block, like __launch_bounds__; the exact block
    // shape is the launch's, so it is not a known block size.
    auto maxThreads = static_cast<int32_t>(op.getMaxThreads());
    func->setAttr(NVVM::NVVMDialect::getMaxntidAttrName(),
                  rewriter.getDenseI32ArrayAttr({maxThreads, 1, 1}));
    if (std::optional<uint64_t> blocks = op.getMinBlocks())
      func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                    rewriter.getI32IntegerAttr(static_cast<int32_t>(*blocks)));
    // Read-only arguments are the CUDA emitter's `const T* __restrict__`:
    // nothing writes their memory while the kernel runs, which lets NVPTX
    // load them through the non-coherent cache.
    for (unsigned i = 0, e = op.getNumArguments(); i < e; ++i) {
      if (!op.getArgAttr(i, xk::FuncOp::getReadonlyAttrName()))
        continue;
      func.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(),
                      rewriter.getUnitAttr());
      func.setArgAttr(i, LLVM::LLVMDialect::getReadonlyAttrName(),
                      rewriter.getUnitAttr());
    }
    Block *builtEntry = &func.getBody().front();
    rewriter.inlineRegionBefore(op.getBody(), func.getBody(),
                                func.getBody().end());
    rewriter.eraseBlock(builtEntry);
    rewriter.eraseOp(op);
    return success();
  }
};

struct ReturnOpLowering : ConvertOpToLLVMPattern<xk::ReturnOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(xk::ReturnOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, ValueRange());
    return success();
  }
};

/// An id op -> the PTX special register of its dimension, zero-extended to
/// index. The register's value range lets LLVM narrow index arithmetic.
template <typename SourceOp, typename XOp, typename YOp, typename ZOp>
struct IdOpLowering : ConvertOpToLLVMPattern<SourceOp> {
  using ConvertOpToLLVMPattern<SourceOp>::ConvertOpToLLVMPattern;
  using OpAdaptor = typename SourceOp::Adaptor;

  LogicalResult
  matchAndRewrite(SourceOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto [lower, upper] = range(op);
    auto rangeAttr =
        LLVM::ConstantRangeAttr::get(rewriter.getContext(), 32, lower, upper);
    Type i32 = rewriter.getI32Type();
    Value reg;
    switch (op.getDim()) {
    case xk::Dim::x:
      reg = XOp::create(rewriter, loc, i32, rangeAttr);
      break;
    case xk::Dim::y:
      reg = YOp::create(rewriter, loc, i32, rangeAttr);
      break;
    case xk::Dim::z:
      reg = ZOp::create(rewriter, loc, i32, rangeAttr);
      break;
    }
    rewriter.replaceOpWithNewOp<LLVM::ZExtOp>(
        op, this->getTypeConverter()->getIndexType(), reg);
    return success();
  }

private:
  /// [lower, upper) of the register: threads are bounded by the kernel's
  /// launch bound, blocks by CUDA's grid limits (2^31 - 1 in x, 65535 in y
  /// and z).
  static std::pair<int64_t, int64_t> range(SourceOp op) {
    int64_t gridLimit = op.getDim() == xk::Dim::x ? 2147483647 : 65535;
    if constexpr (std::is_same_v<SourceOp, xk::ThreadIdOp>)
      return {0, maxThreadsAround(op)};
    else if constexpr (std::is_same_v<SourceOp, xk::BlockDimOp>)
      return {1, maxThreadsAround(op) + 1};
    else if constexpr (std::is_same_v<SourceOp, xk::BlockIdOp>)
      return {0, gridLimit};
    else
      return {1, gridLimit + 1};
  }
};

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/// The symbol table that holds the globals of the kernel around `op`.
Operation *globalsTable(Operation *op) {
  auto func = op->getParentOfType<FunctionOpInterface>();
  if (!func)
    return nullptr;
  return SymbolTable::getNearestSymbolTable(func->getParentOp());
}

/// xkernel.shared -> the address of an internal addrspace(3) array of the
/// gpu.module, one per op (NVPTX makes it a `.shared` array of the kernel).
struct SharedOpLowering : ConvertOpToLLVMPattern<xk::SharedOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(xk::SharedOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Operation *table = globalsTable(op);
    if (!table)
      return rewriter.notifyMatchFailure(op, "not inside a kernel");
    auto func = op->getParentOfType<FunctionOpInterface>();
    std::string name;
    for (unsigned k = 0;; ++k) {
      name = (func.getName() + "_shared_" + Twine(k)).str();
      if (!SymbolTable::lookupSymbolIn(table, name))
        break;
    }
    xk::PtrType type = op.getResult().getType();
    Type element = getTypeConverter()->convertType(type.getElementType());
    auto array = LLVM::LLVMArrayType::get(element, op.getSize());
    LLVM::GlobalOp global;
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(func);
      // 16 bytes: the widest vector access the kernel may make.
      global = LLVM::GlobalOp::create(
          rewriter, op.getLoc(), array, /*isConstant=*/false,
          LLVM::Linkage::Internal, name, /*value=*/Attribute(),
          /*alignment=*/16, addressSpace(xk::MemorySpace::shared));
    }
    rewriter.replaceOpWithNewOp<LLVM::AddressOfOp>(op, global);
    return success();
  }
};

/// xkernel.dynamic_shared -> a byte offset into the external, 16-byte
/// aligned shared array that every kernel of the module shares (CUDA's
/// `extern __shared__`); the launch sizes it.
struct DynamicSharedOpLowering : ConvertOpToLLVMPattern<xk::DynamicSharedOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(xk::DynamicSharedOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Operation *table = globalsTable(op);
    if (!table)
      return rewriter.notifyMatchFailure(op, "not inside a kernel");
    Location loc = op.getLoc();
    Type i8 = rewriter.getI8Type();
    unsigned space = addressSpace(xk::MemorySpace::shared);
    auto global = dyn_cast_or_null<LLVM::GlobalOp>(
        SymbolTable::lookupSymbolIn(table, kDynamicSharedName));
    if (!global) {
      if (SymbolTable::lookupSymbolIn(table, kDynamicSharedName))
        return rewriter.notifyMatchFailure(
            op, "the dynamic shared memory's name is taken");
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(&table->getRegion(0).front());
      global = LLVM::GlobalOp::create(
          rewriter, loc, LLVM::LLVMArrayType::get(i8, 0),
          /*isConstant=*/false, LLVM::Linkage::External, kDynamicSharedName,
          /*value=*/Attribute(), /*alignment=*/16, space);
    }
    // wgmma's swizzle atoms are 1024-byte aligned.
    bool wgmma = false;
    op->getParentWithTrait<OpTrait::IsIsolatedFromAbove>()->walk(
        [&](Operation *o) {
          wgmma |= isa<xk::WgmmaOp, NVVM::WgmmaMmaAsyncOp>(o);
        });
    if (wgmma && global.getAlignment().value_or(0) < 1024)
      global.setAlignment(1024);
    Value base = LLVM::AddressOfOp::create(rewriter, loc, global);
    int64_t offset = op.getOffset();
    if (offset == 0) {
      rewriter.replaceOp(op, base);
      return success();
    }
    Value bytes =
        LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(), offset);
    rewriter.replaceOpWithNewOp<LLVM::GEPOp>(op, base.getType(), i8, base,
                                             ArrayRef<LLVM::GEPArg>{bytes},
                                             LLVM::GEPNoWrapFlags::inbounds);
    return success();
  }
};

/// How `type` is held in memory: a vector of i1 as a vector of bytes (the
/// LLVM IR of <N x i1> in memory packs its bits; a scalar i1 is a byte).
Type byteBooleans(Type type) {
  auto vec = dyn_cast<VectorType>(type);
  if (!vec || !vec.getElementType().isInteger(1))
    return type;
  return vec.clone(IntegerType::get(type.getContext(), 8));
}

struct LoadOpLowering : ConvertOpToLLVMPattern<xk::LoadOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(xk::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getResult().getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "unsupported result type");
    Value addr = elementAddress(rewriter, op.getLoc(), *getTypeConverter(),
                                adaptor.getPtr(), op.getPtr().getType(),
                                adaptor.getOffset());
    // Booleans are a byte each in memory (CUDA C's bool); a vector of i1
    // would be bit-packed, so it is loaded as bytes and truncated.
    Type memory = byteBooleans(type);
    Value loaded = LLVM::LoadOp::create(
        rewriter, op.getLoc(), memory, addr,
        naturalAlignment(op.getResult().getType()));
    if (memory != type)
      loaded = LLVM::TruncOp::create(rewriter, op.getLoc(), type, loaded);
    rewriter.replaceOp(op, loaded);
    return success();
  }
};

struct StoreOpLowering : ConvertOpToLLVMPattern<xk::StoreOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(xk::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value addr = elementAddress(rewriter, op.getLoc(), *getTypeConverter(),
                                adaptor.getPtr(), op.getPtr().getType(),
                                adaptor.getOffset());
    Value value = adaptor.getValue();
    Type memory = byteBooleans(value.getType());
    if (memory != value.getType())
      value = LLVM::ZExtOp::create(rewriter, op.getLoc(), memory, value);
    rewriter.replaceOpWithNewOp<LLVM::StoreOp>(
        op, value, addr, naturalAlignment(op.getValue().getType()));
    return success();
  }
};

/// xkernel.atomic -> a relaxed llvm.atomicrmw at the default (GPU) scope,
/// as CUDA's atomicAdd/atomicMax/atomicMin.
struct AtomicOpLowering : ConvertOpToLLVMPattern<xk::AtomicOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(xk::AtomicOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = op.getValue().getType();
    bool isFloat = isa<FloatType>(type);
    bool isUnsigned = type.isUnsignedInteger();
    LLVM::AtomicBinOp binOp = LLVM::AtomicBinOp::add;
    switch (op.getKind()) {
    case xk::AtomicKind::add:
      binOp = isFloat ? LLVM::AtomicBinOp::fadd : LLVM::AtomicBinOp::add;
      break;
    case xk::AtomicKind::max:
      binOp = isFloat      ? LLVM::AtomicBinOp::fmax
              : isUnsigned ? LLVM::AtomicBinOp::umax
                           : LLVM::AtomicBinOp::max;
      break;
    case xk::AtomicKind::min:
      binOp = isFloat      ? LLVM::AtomicBinOp::fmin
              : isUnsigned ? LLVM::AtomicBinOp::umin
                           : LLVM::AtomicBinOp::min;
      break;
    }
    Value addr = elementAddress(rewriter, op.getLoc(), *getTypeConverter(),
                                adaptor.getPtr(), op.getPtr().getType(),
                                adaptor.getOffset());
    rewriter.replaceOpWithNewOp<LLVM::AtomicRMWOp>(
        op, binOp, addr, adaptor.getValue(), LLVM::AtomicOrdering::monotonic);
    return success();
  }
};

/// xkernel.async_copy -> cp.async; 16-byte copies bypass L1 (.cg), the
/// smaller ones may only use .ca.
struct AsyncCopyOpLowering : ConvertOpToLLVMPattern<xk::AsyncCopyOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(xk::AsyncCopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value src =
        elementAddress(rewriter, loc, *getTypeConverter(), adaptor.getSrc(),
                       op.getSrc().getType(), adaptor.getSrcOffset());
    Value dst =
        elementAddress(rewriter, loc, *getTypeConverter(), adaptor.getDst(),
                       op.getDst().getType(), adaptor.getDstOffset());
    auto bytes = static_cast<uint32_t>(op.getBytes());
    auto cache = bytes == 16 ? NVVM::LoadCacheModifierKind::CG
                             : NVVM::LoadCacheModifierKind::CA;
    NVVM::CpAsyncOp::create(rewriter, loc, dst, src, bytes, cache,
                            adaptor.getValid());
    rewriter.eraseOp(op);
    return success();
  }
};

using AsyncCommitOpLowering =
    OneToOneConvertToLLVMPattern<xk::AsyncCommitOp,
                                 NVVM::CpAsyncCommitGroupOp>;

struct AsyncWaitOpLowering : ConvertOpToLLVMPattern<xk::AsyncWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(xk::AsyncWaitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncWaitGroupOp>(
        op, static_cast<uint32_t>(op.getPending()));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Synchronization
//===----------------------------------------------------------------------===//

/// xkernel.barrier -> bar.sync 0, or bar.sync id, threads (a named
/// barrier).
struct BarrierOpLowering : ConvertOpToLLVMPattern<xk::BarrierOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(xk::BarrierOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getId()) {
      rewriter.replaceOpWithNewOp<NVVM::BarrierOp>(op);
      return success();
    }
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Value id = LLVM::ConstantOp::create(rewriter, loc, i32,
                                        static_cast<int32_t>(*op.getId()));
    Value threads = LLVM::ConstantOp::create(
        rewriter, loc, i32, static_cast<int32_t>(*op.getThreads()));
    rewriter.replaceOpWithNewOp<NVVM::BarrierOp>(
        op, TypeRange{}, id, threads, NVVM::BarrierReductionAttr(), Value());
    return success();
  }
};

/// xkernel.set_max_registers -> setmaxnreg.{inc,dec}.sync.aligned.u32.
struct SetMaxRegistersOpLowering
    : ConvertOpToLLVMPattern<xk::SetMaxRegistersOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(xk::SetMaxRegistersOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::SetMaxRegisterOp>(
        op, static_cast<int32_t>(op.getCount()),
        op.getIncrease() ? NVVM::SetMaxRegisterAction::increase
                         : NVVM::SetMaxRegisterAction::decrease);
    return success();
  }
};

/// xkernel.shuffle -> shfl.sync over the full warp. `width` means what it
/// means in CUDA (independent segments of `width` lanes, all lanes taking
/// part), which is not what gpu.shuffle's width means (only the first
/// `width` lanes active), so the mask and clamp operand are CUDA's:
/// ((32 - width) << 8) | 31.
struct ShuffleOpLowering : ConvertOpToLLVMPattern<xk::ShuffleOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(xk::ShuffleOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Value value = adaptor.getValue();
    Type type = value.getType();
    // shfl.sync moves b32 registers; other 32-bit types travel as i32.
    bool asInt = !type.isF32() && !type.isInteger(32);
    if (asInt)
      value = LLVM::BitcastOp::create(rewriter, loc, i32, value);
    NVVM::ShflKind kind = NVVM::ShflKind::bfly;
    switch (op.getKind()) {
    case xk::ShuffleKind::Xor:
      kind = NVVM::ShflKind::bfly;
      break;
    case xk::ShuffleKind::down:
      kind = NVVM::ShflKind::down;
      break;
    case xk::ShuffleKind::idx:
      kind = NVVM::ShflKind::idx;
      break;
    }
    int64_t clamp = ((32 - op.getWidth()) << 8) | 31;
    Value allLanes = LLVM::ConstantOp::create(rewriter, loc, i32, -1);
    Value maskAndClamp = LLVM::ConstantOp::create(rewriter, loc, i32, clamp);
    Value result =
        NVVM::ShflOp::create(rewriter, loc, value.getType(), allLanes, value,
                             adaptor.getOffset(), maskAndClamp, kind,
                             /*return_value_and_is_valid=*/UnitAttr());
    if (asInt)
      result = LLVM::BitcastOp::create(rewriter, loc, type, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Tensor cores
//===----------------------------------------------------------------------===//

/// `count` i32 registers of `v` (a vector of 16-bit lanes, two per
/// register).
SmallVector<Value> registers(OpBuilder &b, Location loc, Value v,
                             int64_t count) {
  Type i32 = b.getI32Type();
  Value words = LLVM::BitcastOp::create(b, loc, VectorType::get({count}, i32), v);
  SmallVector<Value> regs;
  for (int64_t i = 0; i < count; ++i)
    regs.push_back(LLVM::ExtractElementOp::create(
        b, loc, words, LLVM::ConstantOp::create(b, loc, i32, i)));
  return regs;
}

/// The vector of `type` whose lanes are the members of the struct (or the
/// one value) `value`.
Value fromMembers(OpBuilder &b, Location loc, Value value, int64_t count,
                  VectorType type) {
  Type i32 = b.getI32Type();
  Value v = LLVM::PoisonOp::create(b, loc, type);
  for (int64_t i = 0; i < count; ++i) {
    Value member =
        count == 1 ? value : LLVM::ExtractValueOp::create(b, loc, value, i);
    v = LLVM::InsertElementOp::create(b, loc, v, member,
                                      LLVM::ConstantOp::create(b, loc, i32, i));
  }
  return v;
}

/// xkernel.ldmatrix -> ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].b16:
/// one i32 register per matrix, reinterpreted as two 16-bit lanes.
struct LdMatrixOpLowering : ConvertOpToLLVMPattern<xk::LdMatrixOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(xk::LdMatrixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value addr =
        elementAddress(rewriter, loc, *getTypeConverter(), adaptor.getPtr(),
                       op.getPtr().getType(), adaptor.getOffset());
    int64_t n = op.getNumMatrices();
    Type i32 = rewriter.getI32Type();
    Type regs = n == 1 ? i32
                       : LLVM::LLVMStructType::getLiteral(
                             ctx, SmallVector<Type>(n, i32));
    Value loaded = NVVM::LdMatrixOp::create(
        rewriter, loc, regs, addr, static_cast<uint32_t>(n),
        op.getTrans() ? NVVM::MMALayout::col : NVVM::MMALayout::row,
        NVVM::LdStMatrixShapeAttr::get(ctx, 8, 8), NVVM::LdStMatrixEltType::B16);
    Value words =
        fromMembers(rewriter, loc, loaded, n, VectorType::get({n}, i32));
    rewriter.replaceOpWithNewOp<LLVM::BitcastOp>(
        op, getTypeConverter()->convertType(op.getType()), words);
    return success();
  }
};

/// xkernel.mma -> mma.sync.aligned.m16n8k16.row.col.f32.{bf16,f16},
/// m16n8k8.row.col.f32.tf32.tf32.f32 or m16n8k32.row.col.f32.{e4m3,e5m2}:
/// the fragments as the instruction's registers (vector<2xf16> for f16,
/// i32 for bf16, tf32 and fp8), the result
/// struct as a vector again.
struct MmaOpLowering : ConvertOpToLLVMPattern<xk::MmaOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(xk::MmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Type element = op.getA().getType().getElementType();
    auto operand = [&](Value v, int64_t count) {
      SmallVector<Value> regs = registers(rewriter, loc, v, count);
      if (element.isF16())
        for (Value &r : regs)
          r = LLVM::BitcastOp::create(
              rewriter, loc, VectorType::get({2}, rewriter.getF16Type()), r);
      return regs;
    };
    SmallVector<Value> a = operand(adaptor.getA(), 4);
    SmallVector<Value> b = operand(adaptor.getB(), 2);
    Type i32 = rewriter.getI32Type(), f32 = rewriter.getF32Type();
    SmallVector<Value> c;
    for (int64_t i = 0; i < 4; ++i)
      c.push_back(LLVM::ExtractElementOp::create(
          rewriter, loc, adaptor.getC(),
          LLVM::ConstantOp::create(rewriter, loc, i32, i)));
    auto result =
        LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(4, f32));
    if (xtile::isFp8(element)) {
      // nvvm.mma.sync's verifier (LLVM 22) takes no fp8 multiplicand:
      // NVPTX's intrinsic, called directly.
      std::string name = isa<Float8E4M3FNType>(element)
                             ? "llvm.nvvm.mma.m16n8k32.row.col.f32.e4m3.e4m3.f32"
                             : "llvm.nvvm.mma.m16n8k32.row.col.f32.e5m2.e5m2.f32";
      SmallVector<Value> args(a);
      llvm::append_range(args, b);
      llvm::append_range(args, c);
      Value d = LLVM::CallIntrinsicOp::create(
                    rewriter, loc, result, rewriter.getStringAttr(name), args)
                    .getResult(0);
      rewriter.replaceOp(op, fromMembers(rewriter, loc, d, 4, op.getType()));
      return success();
    }
    NVVM::MMATypes type = element.isBF16()  ? NVVM::MMATypes::bf16
                          : element.isF16() ? NVVM::MMATypes::f16
                                            : NVVM::MMATypes::tf32;
    Value d = NVVM::MmaOp::create(
        rewriter, loc, result, a, b, c, ArrayRef<int64_t>{16, 8, op.getK()},
        std::nullopt, std::nullopt,
        std::array<NVVM::MMATypes, 2>{type, type},
        std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                       NVVM::MMALayout::col});
    rewriter.replaceOp(op,
                       fromMembers(rewriter, loc, d, 4, op.getType()));
    return success();
  }
};

/// xkernel.round_tf32 -> cvt.rna.tf32.f32, its b32 result an f32 again.
struct RoundTf32OpLowering : ConvertOpToLLVMPattern<xk::RoundTf32Op> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(xk::RoundTf32Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value bits = NVVM::ConvertFloatToTF32Op::create(
        rewriter, op.getLoc(), rewriter.getI32Type(), adaptor.getValue(),
        NVVM::FPRoundingMode::RNA, NVVM::SaturationMode::NONE,
        /*relu=*/false);
    rewriter.replaceOpWithNewOp<LLVM::BitcastOp>(op, rewriter.getF32Type(),
                                                 bits);
    return success();
  }
};

/// The wgmma descriptor of an operand in the 128-byte swizzle layout at
/// `addr` (a shared pointer): address / 16, the leading-dimension offset
/// / 16 (`panelBytes` between an N-major B's panels; 1, unused, for a
/// K-major operand), 1024 bytes between 8-row groups, swizzle mode 1.
static Value wgmmaDescriptor(OpBuilder &b, Location loc, Value addr,
                             uint64_t panelBytes = 16) {
  Type i64 = b.getI64Type();
  auto c = [&](uint64_t v) -> Value {
    return LLVM::ConstantOp::create(b, loc, i64, static_cast<int64_t>(v));
  };
  Value a = LLVM::PtrToIntOp::create(b, loc, i64, addr);
  a = LLVM::LShrOp::create(b, loc, LLVM::AndOp::create(b, loc, a, c(0x3ffff)),
                           c(4));
  return LLVM::OrOp::create(
      b, loc, a,
      c((panelBytes >> 4) << 16 | uint64_t(64) << 32 | uint64_t(1) << 62));
}

/// xkernel.wgmma -> wgmma.mma_async.sync.aligned.m64nNk16.f32.{bf16,f16},
/// m64nNk8.f32.tf32 or m64nNk32.f32.{e4m3,e5m2} with both operands from
/// descriptors (B K-major or, 16-bit only, N-major); the
/// accumulators as the instruction's struct of registers.
struct WgmmaOpLowering : ConvertOpToLLVMPattern<xk::WgmmaOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(xk::WgmmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    const LLVMTypeConverter &converter = *getTypeConverter();
    // The descriptor of each operand's buffer (the same for every wgmma
    // of a loop) plus the offset in 16-byte units: the address field
    // cannot carry, as shared addresses stay below 2^18 and operands are
    // 16-byte aligned.
    Type i64 = rewriter.getI64Type();
    int64_t bytes =
        op.getA().getType().getElementType().getIntOrFloatBitWidth() / 8;
    auto plus = [&](Value desc, Value offset) -> Value {
      Value units = LLVM::LShrOp::create(
          rewriter, loc,
          LLVM::MulOp::create(
              rewriter, loc, offset,
              LLVM::ConstantOp::create(rewriter, loc, i64, bytes)),
          LLVM::ConstantOp::create(rewriter, loc, i64, 4));
      return LLVM::AddOp::create(rewriter, loc, desc, units);
    };
    Value a = plus(wgmmaDescriptor(rewriter, loc, adaptor.getA()),
                   adaptor.getAOffset());
    std::optional<int64_t> panelBytes = op.getBPanelBytes();
    Value b = wgmmaDescriptor(rewriter, loc, adaptor.getB(),
                              panelBytes.value_or(16));
    b = plus(b, adaptor.getBOffset());
    int64_t regs = op.getAcc().getType().getNumElements();
    Type f32 = rewriter.getF32Type(), i32 = rewriter.getI32Type();
    auto structType =
        LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(regs, f32));
    Value acc = LLVM::PoisonOp::create(rewriter, loc, structType);
    for (int64_t i = 0; i < regs; ++i)
      acc = LLVM::InsertValueOp::create(
          rewriter, loc, acc,
          LLVM::ExtractElementOp::create(
              rewriter, loc, adaptor.getAcc(),
              LLVM::ConstantOp::create(rewriter, loc, i32, i)),
          i);
    Type element = op.getA().getType().getElementType();
    NVVM::WGMMATypes type =
        element.isBF16()                   ? NVVM::WGMMATypes::bf16
        : element.isF16()                  ? NVVM::WGMMATypes::f16
        : element.isF32()                  ? NVVM::WGMMATypes::tf32
        : isa<Float8E4M3FNType>(element) ? NVVM::WGMMATypes::e4m3
                                           : NVVM::WGMMATypes::e5m2;
    Value d = NVVM::WgmmaMmaAsyncOp::create(
        rewriter, loc, structType, acc, a, b,
        NVVM::MMAShapeAttr::get(ctx, 64, op.getN(), op.getK()), type, type,
        NVVM::WGMMATypes::f32, NVVM::WGMMAScaleOut::one,
        NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one,
        // A row-major B (N-major) is the transposed one: imm-trans-b 1.
        NVVM::MMALayout::row,
        panelBytes ? NVVM::MMALayout::row : NVVM::MMALayout::col, nullptr);
    rewriter.replaceOp(op, fromMembers(rewriter, loc, d, regs,
                                       cast<VectorType>(converter.convertType(
                                           op.getType()))));
    return success();
  }
};

using WgmmaFenceOpLowering =
    OneToOneConvertToLLVMPattern<xk::WgmmaFenceOp, NVVM::WgmmaFenceAlignedOp>;
using WgmmaCommitOpLowering =
    OneToOneConvertToLLVMPattern<xk::WgmmaCommitOp,
                                 NVVM::WgmmaGroupSyncAlignedOp>;

/// xkernel.wgmma_wait -> wgmma.wait_group.sync.aligned; each value read
/// after it passes through an empty volatile asm, which keeps the reads
/// after the wait.
struct WgmmaWaitOpLowering : ConvertOpToLLVMPattern<xk::WgmmaWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(xk::WgmmaWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, op.getPending());
    Type f32 = rewriter.getF32Type(), i32 = rewriter.getI32Type();
    SmallVector<Value> results;
    for (Value v : adaptor.getValues()) {
      auto type = cast<VectorType>(v.getType());
      Value out = LLVM::PoisonOp::create(rewriter, loc, type);
      for (int64_t i = 0; i < type.getNumElements(); ++i) {
        Value index = LLVM::ConstantOp::create(rewriter, loc, i32, i);
        Value lane = LLVM::ExtractElementOp::create(rewriter, loc, v, index);
        Value ready =
            LLVM::InlineAsmOp::create(
                rewriter, loc, f32, ValueRange{lane}, "", "=f,0",
                /*has_side_effects=*/true, /*is_align_stack=*/false,
                LLVM::TailCallKind::None, LLVM::AsmDialectAttr(),
                ArrayAttr())
                .getResult(0);
        out = LLVM::InsertElementOp::create(rewriter, loc, out, ready, index);
      }
      results.push_back(out);
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Bulk tensor copies (TMA) and mbarriers
//===----------------------------------------------------------------------===//

/// The mbarrier ops, on the barrier's shared address:
/// - xkernel.mbarrier_init -> mbarrier.init.shared.b64, then
///   fence.mbarrier_init.release.cluster;
/// - xkernel.mbarrier_arrive_expect_tx -> mbarrier.arrive.expect_tx;
/// - xkernel.mbarrier_arrive -> mbarrier.arrive.shared.b64;
/// - xkernel.mbarrier_wait -> a loop on mbarrier.try_wait.parity.
template <typename OpTy>
struct MbarrierOpLowering : ConvertOpToLLVMPattern<OpTy> {
  using ConvertOpToLLVMPattern<OpTy>::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Value bar = elementAddress(rewriter, loc, *this->getTypeConverter(),
                               adaptor.getBar(), op.getBar().getType(),
                               adaptor.getOffset());
    auto constant = [&](int64_t v) -> Value {
      return LLVM::ConstantOp::create(rewriter, loc, i32,
                                      static_cast<int32_t>(v));
    };
    if constexpr (std::is_same_v<OpTy, xk::MbarrierInitOp>) {
      NVVM::MBarrierInitOp::create(rewriter, loc, bar,
                                   constant(op.getCount()), Value());
      NVVM::FenceMbarrierInitOp::create(rewriter, loc);
    } else if constexpr (std::is_same_v<OpTy, xk::MbarrierExpectTxOp>) {
      NVVM::MBarrierArriveExpectTxOp::create(
          rewriter, loc, Type(), bar, constant(op.getBytes()),
          NVVM::MemScopeKindAttr(), BoolAttr(), Value());
    } else if constexpr (std::is_same_v<OpTy, xk::MbarrierArriveOp>) {
      NVVM::MBarrierArriveOp::create(rewriter, loc, Type(), bar, Value());
    } else {
      // The suspend-time hint of each try, in nanoseconds.
      NVVM::MBarrierTryWaitParityOp::create(
          rewriter, loc, bar,
          LLVM::TruncOp::create(rewriter, loc, i32, adaptor.getParity()),
          constant(10000000));
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// xkernel.tma_load ->
/// cp.async.bulk.tensor.Nd.shared::cluster.global.mbarrier::complete_tx::bytes,
/// coordinates innermost first; the map is read through its generic address.
struct TmaLoadOpLowering : ConvertOpToLLVMPattern<xk::TmaLoadOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(xk::TmaLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value dst =
        elementAddress(rewriter, loc, *getTypeConverter(), adaptor.getDst(),
                       op.getDst().getType(), adaptor.getDstOffset());
    Value bar =
        elementAddress(rewriter, loc, *getTypeConverter(), adaptor.getBar(),
                       op.getBar().getType(), adaptor.getBarOffset());
    // The destination as a shared::cluster address (this block's own
    // shared memory; address space 7).
    dst = LLVM::AddrSpaceCastOp::create(
        rewriter, loc, LLVM::LLVMPointerType::get(rewriter.getContext(), 7),
        dst);
    Value map = LLVM::AddrSpaceCastOp::create(
        rewriter, loc, LLVM::LLVMPointerType::get(rewriter.getContext()),
        adaptor.getMap());
    SmallVector<Value> coords(llvm::reverse(adaptor.getCoords()));
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        rewriter, loc, dst, map, coords, bar, ValueRange(), Value(), Value(),
        NVVM::TMALoadModeAttr(), BoolAttr(), NVVM::CTAGroupKindAttr(),
        Value());
    rewriter.eraseOp(op);
    return success();
  }
};

/// xkernel.fence_proxy_async -> fence.proxy.async.shared::cta.
struct FenceProxyAsyncOpLowering
    : ConvertOpToLLVMPattern<xk::FenceProxyAsyncOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(xk::FenceProxyAsyncOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MLIRContext *ctx = rewriter.getContext();
    NVVM::FenceProxyOp::create(
        rewriter, op.getLoc(),
        NVVM::ProxyKindAttr::get(ctx, NVVM::ProxyKind::async_shared),
        NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Special-function instructions
//===----------------------------------------------------------------------===//

/// xkernel.approx -> the NVVM intrinsic of its PTX instruction.
struct ApproxOpLowering : ConvertOpToLLVMPattern<xk::ApproxOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(xk::ApproxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StringRef ftz = op.getFtz() ? ".ftz" : "";
    std::string name;
    switch (op.getKind()) {
    case xk::ApproxKind::ex2: // overloaded on the float type
      name = ("llvm.nvvm.ex2.approx" + ftz + ".f32").str();
      break;
    case xk::ApproxKind::lg2:
      name = ("llvm.nvvm.lg2.approx" + ftz + ".f").str();
      break;
    case xk::ApproxKind::rcp:
      if (!op.getFtz()) {
        // div.full.f32 of 1 by x: NVVM has no rcp.approx without ftz.
        Value one = LLVM::ConstantOp::create(rewriter, op.getLoc(),
                                             rewriter.getF32FloatAttr(1.0f));
        auto call = LLVM::CallIntrinsicOp::create(
            rewriter, op.getLoc(), op.getType(),
            rewriter.getStringAttr("llvm.nvvm.div.full"),
            ValueRange{one, adaptor.getValue()});
        rewriter.replaceOp(op, call.getResults());
        return success();
      }
      name = "llvm.nvvm.rcp.approx.ftz.f";
      break;
    case xk::ApproxKind::rsqrt:
      name = ("llvm.nvvm.rsqrt.approx" + ftz + ".f").str();
      break;
    case xk::ApproxKind::sqrt:
      name = ("llvm.nvvm.sqrt.approx" + ftz + ".f").str();
      break;
    }
    auto call = LLVM::CallIntrinsicOp::create(
        rewriter, op.getLoc(), op.getType(), rewriter.getStringAttr(name),
        ValueRange{adaptor.getValue()});
    rewriter.replaceOp(op, call.getResults());
    return success();
  }
};

/// xkernel.div_full -> div.full.f32.
struct DivFullOpLowering : ConvertOpToLLVMPattern<xk::DivFullOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(xk::DivFullOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::CallIntrinsicOp>(
        op, op.getType(), rewriter.getStringAttr("llvm.nvvm.div.full"),
        ValueRange{adaptor.getLhs(), adaptor.getRhs()});
    return success();
  }
};

/// arith.truncf to fp8 -> cvt.rn.satfinite.{e4m3,e5m2}x2.f32 on (0, x),
/// whose lower byte is x's; then PyTorch's cast (the CUDA C prelude's
/// xt_float_to_e4m3/e5m2): e5m2 is infinity from 61440 on, where the
/// instruction saturates; NaN keeps its sign (the instruction gives 0x7f).
/// From f16 and bf16 through f32 (exact); from f64 through f32, as PyTorch
/// converts.
struct TruncToFp8Lowering : ConvertOpToLLVMPattern<arith::TruncFOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(arith::TruncFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type to = op.getType();
    if (!xtile::isFp8(to) || isa<VectorType>(to))
      return failure();
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type(), i8 = rewriter.getI8Type(),
         i16 = rewriter.getI16Type(), i32 = rewriter.getI32Type();
    Value x = adaptor.getIn();
    if (x.getType().isF64())
      x = LLVM::FPTruncOp::create(rewriter, loc, f32, x);
    else if (!x.getType().isF32())
      x = LLVM::FPExtOp::create(rewriter, loc, f32, x);
    Value zero = LLVM::ConstantOp::create(rewriter, loc, f32,
                                          rewriter.getF32FloatAttr(0));
    Value packed = NVVM::ConvertF32x2ToF8x2Op::create(
        rewriter, loc, i16, zero, x, NVVM::FPRoundingMode::RN,
        NVVM::SaturationMode::SATFINITE, /*relu=*/false, to);
    Value byte = LLVM::TruncOp::create(rewriter, loc, i8, packed);
    auto constant = [&](Type t, int64_t v) -> Value {
      return LLVM::ConstantOp::create(rewriter, loc, t,
                                      rewriter.getIntegerAttr(t, v));
    };
    if (isa<Float8E5M2Type>(to)) {
      Value magnitude = LLVM::FAbsOp::create(rewriter, loc, x);
      Value limit = LLVM::ConstantOp::create(
          rewriter, loc, f32, rewriter.getF32FloatAttr(61440.0f));
      Value overflows = LLVM::FCmpOp::create(
          rewriter, loc, LLVM::FCmpPredicate::oge, magnitude, limit);
      byte = LLVM::SelectOp::create(rewriter, loc, overflows,
                                    constant(i8, 0x7c), byte);
    }
    Value bits = LLVM::BitcastOp::create(rewriter, loc, i32, x);
    Value sign = LLVM::LShrOp::create(rewriter, loc, bits, constant(i32, 24));
    sign = LLVM::AndOp::create(rewriter, loc, sign, constant(i32, 0x80));
    sign = LLVM::TruncOp::create(rewriter, loc, i8, sign);
    rewriter.replaceOpWithNewOp<LLVM::OrOp>(op, byte, sign);
    return success();
  }
};

/// arith.extf from fp8 -> cvt.rn.f16x2.{e4m3,e5m2}x2 on (0, x), whose lower
/// half is x's value (exact: every fp8 value is an f16 value), then to the
/// wider type (exact).
struct ExtFromFp8Lowering : ConvertOpToLLVMPattern<arith::ExtFOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(arith::ExtFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type from = op.getIn().getType(), to = op.getType();
    if (!xtile::isFp8(from) || isa<VectorType>(from))
      return failure();
    Location loc = op.getLoc();
    Type i8 = rewriter.getI8Type(), i32 = rewriter.getI32Type(),
         f16 = rewriter.getF16Type(), f32 = rewriter.getF32Type();
    auto pairType = VectorType::get({2}, i8);
    Value pair = LLVM::ConstantOp::create(
        rewriter, loc, pairType,
        DenseElementsAttr::get(pairType, rewriter.getI8IntegerAttr(0)));
    Value first = LLVM::ConstantOp::create(rewriter, loc, i32,
                                           rewriter.getI32IntegerAttr(0));
    pair = LLVM::InsertElementOp::create(rewriter, loc, pair, adaptor.getIn(),
                                         first);
    Value halves = NVVM::ConvertF8x2ToF16x2Op::create(
        rewriter, loc, VectorType::get({2}, f16), pair, /*relu=*/false, from);
    Value value = LLVM::ExtractElementOp::create(rewriter, loc, halves, first);
    if (to.isBF16()) {
      value = LLVM::FPExtOp::create(rewriter, loc, f32, value);
      value = LLVM::FPTruncOp::create(rewriter, loc, to, value);
    } else if (!to.isF16()) {
      value = LLVM::FPExtOp::create(rewriter, loc, to, value);
    }
    rewriter.replaceOp(op, value);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Preparation: loop hints, math, structured control flow
//===----------------------------------------------------------------------===//

/// `xkernel.unroll` is a full-unroll hint, CUDA's `#pragma unroll`: it
/// becomes LLVM loop metadata. scf-to-cf moves the annotation to the loop's
/// latch branch and the cf lowering copies it onto the llvm.br, under the
/// name of the llvm.br's own `loop_annotation` attribute.
void attachUnrollHints(Operation *root) {
  MLIRContext *ctx = root->getContext();
  auto full = LLVM::LoopUnrollAttr::get(
      ctx, /*disable=*/{}, /*count=*/{}, /*runtimeDisable=*/{},
      /*full=*/BoolAttr::get(ctx, true), /*followupUnrolled=*/{},
      /*followupRemainder=*/{}, /*followupAll=*/{});
  auto annotation = LLVM::LoopAnnotationAttr::get(
      ctx, /*disableNonforced=*/{}, /*vectorize=*/{}, /*interleave=*/{}, full,
      /*unrollAndJam=*/{}, /*licm=*/{}, /*distribute=*/{}, /*pipeline=*/{},
      /*peeled=*/{}, /*unswitch=*/{}, /*mustProgress=*/{},
      /*isVectorized=*/{}, /*startLoc=*/{}, /*endLoc=*/{},
      /*parallelAccesses=*/{});
  auto unroll = root->getContext()
                    ->getOrLoadDialect<xk::XKernelDialect>()
                    ->getUnrollAttrHelper();
  root->walk([&](scf::ForOp loop) {
    if (!loop->removeAttr(unroll.getName()))
      return;
    loop->setAttr("loop_annotation", annotation);
  });
}

/// Functions that only libdevice computes directly; the lowering rewrites
/// them into arithmetic for f32 (and for f16 and bf16 through f32).
bool needsApproximation(Operation *op) {
  return isa<math::AcosOp, math::AcoshOp, math::AsinOp, math::AsinhOp,
             math::Atan2Op, math::AtanOp, math::AtanhOp, math::CbrtOp,
             math::CosOp, math::CoshOp, math::ErfOp, math::ErfcOp, math::Exp2Op,
             math::ExpM1Op, math::ExpOp, math::FPowIOp, math::Log10Op,
             math::Log1pOp, math::Log2Op, math::LogOp, math::PowFOp,
             math::SinOp, math::SincosOp, math::SinhOp, math::TanOp,
             math::TanhOp>(op);
}

/// The element type of a math function's operand, when it is one that the
/// function has no approximation for.
std::optional<Type> unapproximatedType(Operation *op) {
  if (!needsApproximation(op))
    return std::nullopt;
  Type type = getElementTypeOrSelf(op->getOperand(0).getType());
  if (type.isF32() || type.isF16() || type.isBF16())
    return std::nullopt;
  return type;
}

/// Reports the math functions of a type that has no approximation, with
/// the reason, before expansions turn them into other functions that would
/// fail under a less telling name.
LogicalResult checkMathTypes(Operation *root) {
  bool ok = true;
  root->walk([&](Operation *op) {
    std::optional<Type> type = unapproximatedType(op);
    if (!type)
      return;
    op->emitOpError("on ") << *type
                           << " needs libdevice, which is not linked into the "
                              "PTX: math functions are approximated for f32, "
                              "f16 and bf16 only";
    ok = false;
  });
  return success(ok);
}

/// Rewrites what the LLVM conversion cannot take directly: signed floor and
/// ceil divisions into plain ones. (Math functions are arithmetic by now:
/// xtile::kernel::expandMath.)
LogicalResult expandDivisions(Operation *root) {
  MLIRContext *ctx = root->getContext();
  RewritePatternSet patterns(ctx);
  arith::populateCeilFloorDivExpandOpsPatterns(patterns);
  return applyPatternsGreedily(root, std::move(patterns));
}

LogicalResult lowerStructuredControlFlow(Operation *root) {
  MLIRContext *ctx = root->getContext();
  RewritePatternSet patterns(ctx);
  populateSCFToControlFlowConversionPatterns(patterns);
  ConversionTarget target(*ctx);
  target.addIllegalDialect<scf::SCFDialect>();
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  return applyPartialConversion(root, target, std::move(patterns));
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct ConvertXKernelToNVVMPass
    : xtile::impl::ConvertXKernelToNVVMBase<ConvertXKernelToNVVMPass> {
  using ConvertXKernelToNVVMBase::ConvertXKernelToNVVMBase;

  void runOnOperation() override;

private:
  LogicalResult lowerBodies(gpu::GPUModuleOp gpuModule);
};

LogicalResult
ConvertXKernelToNVVMPass::lowerBodies(gpu::GPUModuleOp gpuModule) {
  MLIRContext *ctx = &getContext();
  LowerToLLVMOptions options(ctx, DataLayout(gpuModule));
  options.overrideIndexBitwidth(64);
  LLVMTypeConverter converter(ctx, options);
  configureGpuToNVVMTypeConverter(converter);
  xtile::populateKernelToGPUTypeConversions(converter);

  RewritePatternSet patterns(ctx);
  xtile::populateKernelToGPUPatterns(converter, patterns);
  // Upstream's GPU patterns bring libdevice calls for math (and remf,
  // maxnumf, minnumf) at this benefit; the LLVM intrinsics win above it, and
  // the calls are illegal below, so an op falls back to libdevice only to
  // fail.
  populateGpuToNVVMConversionPatterns(converter, patterns, /*benefit=*/10);
  populateMathToLLVMConversionPatterns(converter, patterns,
                                       /*approximateLog1p=*/true,
                                       /*benefit=*/20);
  arith::populateArithToLLVMConversionPatterns(converter, patterns);
  cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
  populateVectorToLLVMConversionPatterns(converter, patterns);
  ub::populateUBToLLVMConversionPatterns(converter, patterns);

  LLVMConversionTarget target(*ctx);
  configureGpuToNVVMConversionLegality(target);
  // NVPTX selects these intrinsics itself. Those it cannot select (exp, log,
  // sin, pow, tanh, atan, ..., and exp2 of f64) must stay illegal: in the
  // backend they would abort the process.
  target.addLegalOp<LLVM::FAbsOp, LLVM::FFloorOp, LLVM::FCeilOp,
                    LLVM::CopySignOp, LLVM::SqrtOp, LLVM::RoundOp,
                    LLVM::RoundEvenOp, LLVM::FRemOp>();
  target.addDynamicallyLegalOp<LLVM::Exp2Op>([](LLVM::Exp2Op op) {
    return !getElementTypeOrSelf(op.getType()).isF64();
  });
  target.addIllegalOp<LLVM::ACosOp, LLVM::ASinOp, LLVM::ATanOp, LLVM::ATan2Op,
                      LLVM::CoshOp, LLVM::SinhOp, LLVM::TanOp, LLVM::TanhOp,
                      LLVM::Exp10Op, LLVM::SincosOp>();
  target.addDynamicallyLegalOp<LLVM::CallOp>([](LLVM::CallOp call) {
    std::optional<StringRef> callee = call.getCallee();
    return !callee || !callee->starts_with("__nv_");
  });
  target.addIllegalDialect<xk::XKernelDialect>();
  target.addLegalOp<gpu::GPUModuleOp>();
  if (failed(applyFullConversion(gpuModule, target, std::move(patterns))))
    return failure();

  SmallVector<UnrealizedConversionCastOp> casts;
  gpuModule.walk(
      [&](UnrealizedConversionCastOp cast) { casts.push_back(cast); });
  SmallVector<UnrealizedConversionCastOp> left;
  reconcileUnrealizedCasts(casts, &left);
  if (!left.empty())
    return left.front().emitError("a value of type ")
           << left.front().getOperandTypes() << " is used as "
           << left.front().getResultTypes() << " after the lowering";

  // NVVM ops without an intrinsic (wgmma.mma_async) become their PTX, as
  // inline assembly.
  RewritePatternSet ptx(ctx);
  populateNVVMToLLVMConversionPatterns(ptx);
  walkAndApplyPatterns(gpuModule, std::move(ptx));

  // Libdevice patterns that were tried and rolled back leave their function
  // declarations behind.
  for (auto func :
       llvm::make_early_inc_range(gpuModule.getOps<LLVM::LLVMFuncOp>()))
    if (func.isExternal() && func.getName().starts_with("__nv_") &&
        SymbolTable::symbolKnownUseEmpty(func, gpuModule))
      func.erase();
  return success();
}

void ConvertXKernelToNVVMPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *ctx = &getContext();
  SmallVector<xk::FuncOp> kernels(module.getOps<xk::FuncOp>());
  if (kernels.empty())
    return;

  if (Operation *taken =
          SymbolTable::lookupSymbolIn(module, xtile::kKernelModuleName)) {
    taken->emitError("the kernels' gpu.module would be named '")
        << xtile::kKernelModuleName << "', which this symbol already is";
    return signalPassFailure();
  }
  StringRef arch = chip;
  unsigned smVersion = 0;
  if (!arch.consume_front("sm_") || arch.consumeInteger(10, smVersion) ||
      !(arch.empty() || arch == "a" || arch == "f")) {
    module.emitError("chip '") << chip << "' is not an NVIDIA GPU (sm_XX)";
    return signalPassFailure();
  }
  auto nvvmTarget = NVVM::NVVMTargetAttr::getChecked(
      [&] { return module.emitError("invalid NVVM target: "); }, ctx,
      /*optLevel=*/3, StringRef("nvptx64-nvidia-cuda"), StringRef(chip),
      StringRef(features), /*targetFlags=*/DictionaryAttr(),
      /*linkFiles=*/ArrayAttr(), /*verifyTarget=*/true);
  if (!nvvmTarget)
    return signalPassFailure();

  OpBuilder builder(ctx);
  builder.setInsertionPointToEnd(module.getBody());
  auto gpuModule = gpu::GPUModuleOp::create(
      builder, kernels.front().getLoc(), xtile::kKernelModuleName,
      builder.getArrayAttr({Attribute(nvvmTarget)}));
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  builder.getUnitAttr());
  Block &body = gpuModule.getBodyRegion().front();
  for (xk::FuncOp kernel : kernels)
    kernel->moveBefore(&body, body.end());
  // Programs launch kernels by names that now live in the gpu.module, which
  // an xkernel.launch cannot refer to.
  for (auto program :
       llvm::make_early_inc_range(module.getOps<xk::ProgramOp>()))
    program.erase();

  if (failed(checkMathTypes(gpuModule)))
    return signalPassFailure();
  attachUnrollHints(gpuModule);
  // Math that --lower-to-kernel has not built yet (hand-written Kernel IR)
  // is built as the CUDA C path builds it.
  xtile::kernel::expandMath(gpuModule, /*fastMath=*/false);
  // Not converging is harmless: whatever was left unrewritten is reported
  // by the conversion below.
  (void)expandDivisions(gpuModule);
  if (failed(lowerStructuredControlFlow(gpuModule)) ||
      failed(lowerBodies(gpuModule)))
    return signalPassFailure();
}

} // namespace

void xtile::populateKernelToGPUTypeConversions(LLVMTypeConverter &converter) {
  converter.addConversion([](xk::PtrType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext(),
                                      addressSpace(type.getMemorySpace()));
  });
}

void xtile::populateKernelToGPUPatterns(const LLVMTypeConverter &converter,
                                        RewritePatternSet &patterns) {
  patterns.add<FuncOpLowering, ReturnOpLowering,
               IdOpLowering<xk::ThreadIdOp, NVVM::ThreadIdXOp,
                            NVVM::ThreadIdYOp, NVVM::ThreadIdZOp>,
               IdOpLowering<xk::BlockIdOp, NVVM::BlockIdXOp, NVVM::BlockIdYOp,
                            NVVM::BlockIdZOp>,
               IdOpLowering<xk::BlockDimOp, NVVM::BlockDimXOp,
                            NVVM::BlockDimYOp, NVVM::BlockDimZOp>,
               IdOpLowering<xk::GridDimOp, NVVM::GridDimXOp, NVVM::GridDimYOp,
                            NVVM::GridDimZOp>,
               SharedOpLowering, DynamicSharedOpLowering, LoadOpLowering,
               StoreOpLowering, AtomicOpLowering, AsyncCopyOpLowering,
               AsyncCommitOpLowering, AsyncWaitOpLowering, BarrierOpLowering,
               ShuffleOpLowering, ApproxOpLowering, DivFullOpLowering,
               LdMatrixOpLowering,
               MmaOpLowering, RoundTf32OpLowering, WgmmaOpLowering,
               WgmmaFenceOpLowering, WgmmaCommitOpLowering,
               WgmmaWaitOpLowering, FenceProxyAsyncOpLowering,
               MbarrierOpLowering<xk::MbarrierInitOp>,
               MbarrierOpLowering<xk::MbarrierExpectTxOp>,
               MbarrierOpLowering<xk::MbarrierArriveOp>,
               MbarrierOpLowering<xk::MbarrierWaitOp>, TmaLoadOpLowering,
               SetMaxRegistersOpLowering>(
      converter);
  // Above upstream's arith lowering, which would take fp8 (i8 in LLVM) for
  // a float.
  patterns.add<TruncToFp8Lowering, ExtFromFp8Lowering>(converter,
                                                       /*benefit=*/2);
}
