//===- TranslateToHostPTX.cpp - the PTX path's LLVM IR, for the CPU -------===//
//
// What LLVM's NVPTX backend compiles into our PTX (the kernels after
// KernelToGPU, the NVVM translation and NVPTX's own optimization pipeline)
// is retargeted to the host and compiled by LLVM's host backend, so that the
// PTX path's code runs on the CPU under the emulation, the way CuPBoP and
// POCL run CUDA on CPUs. Host compilation of the IR (rather than
// interpreting the PTX text) keeps every choice LLVM made before
// instruction selection, the part of the PTX path where our own lowering
// and upstream's can go wrong; what is left to NVPTX is instruction
// selection, which only the GPU can check.
//
// Each NVVM intrinsic and each PTX inline-asm string becomes a call into
// runtime/xtile_ptx_host.cpp, which implements it with the emulation's
// threads, shared memory, barriers, shuffles, tensor-core and bulk-copy
// models (runtime/xtile_emulation.h). A call this file does not know is an
// error naming it, never a skip. Shared memory becomes the running block's
// (thread-local to the worker that runs the block's threads as fibers, as
// `__shared__` is in the CUDA C emulation); kernels get host entry points
// that take cuLaunchKernel's parameter array.
//
//===----------------------------------------------------------------------===//

#include "xtile/Target/PTX/PTXEmitter.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "xtile/Dialect/Kernel/IR/KernelOps.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;

uint64_t xtile::hashPTX(StringRef ptx) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : ptx) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

namespace {

/// The NVVM intrinsics (and the LLVM intrinsics that NVPTX selects as
/// approximate PTX instructions) that runtime/xtile_ptx_host.cpp
/// implements: `__xt_ptx_` followed by the name with its dots as
/// underscores (less the pointer types it is overloaded on).
constexpr const char *kHostIntrinsics[] = {
    // Special registers.
    "llvm.nvvm.read.ptx.sreg.tid.x",
    "llvm.nvvm.read.ptx.sreg.tid.y",
    "llvm.nvvm.read.ptx.sreg.tid.z",
    "llvm.nvvm.read.ptx.sreg.ntid.x",
    "llvm.nvvm.read.ptx.sreg.ntid.y",
    "llvm.nvvm.read.ptx.sreg.ntid.z",
    "llvm.nvvm.read.ptx.sreg.ctaid.x",
    "llvm.nvvm.read.ptx.sreg.ctaid.y",
    "llvm.nvvm.read.ptx.sreg.ctaid.z",
    "llvm.nvvm.read.ptx.sreg.nctaid.x",
    "llvm.nvvm.read.ptx.sreg.nctaid.y",
    "llvm.nvvm.read.ptx.sreg.nctaid.z",
    "llvm.nvvm.read.ptx.sreg.laneid",
    "llvm.nvvm.read.ptx.sreg.warpsize",
    // Barriers, whole-block and named.
    "llvm.nvvm.barrier0",
    "llvm.nvvm.barrier.cta.sync.aligned.all",
    "llvm.nvvm.barrier.cta.sync.aligned.count",
    "llvm.nvvm.barrier.cta.sync.all",
    "llvm.nvvm.barrier.cta.sync.count",
    "llvm.nvvm.barrier.sync",
    "llvm.nvvm.barrier.sync.cnt",
    "llvm.nvvm.barrier",
    "llvm.nvvm.barrier.n",
    // Warp shuffles.
    "llvm.nvvm.shfl.sync.bfly.i32",
    "llvm.nvvm.shfl.sync.bfly.f32",
    "llvm.nvvm.shfl.sync.down.i32",
    "llvm.nvvm.shfl.sync.down.f32",
    "llvm.nvvm.shfl.sync.idx.i32",
    "llvm.nvvm.shfl.sync.idx.f32",
    // cp.async.
    "llvm.nvvm.cp.async.ca.shared.global.4",
    "llvm.nvvm.cp.async.ca.shared.global.8",
    "llvm.nvvm.cp.async.ca.shared.global.16",
    "llvm.nvvm.cp.async.cg.shared.global.16",
    "llvm.nvvm.cp.async.ca.shared.global.4.s",
    "llvm.nvvm.cp.async.ca.shared.global.8.s",
    "llvm.nvvm.cp.async.ca.shared.global.16.s",
    "llvm.nvvm.cp.async.cg.shared.global.16.s",
    "llvm.nvvm.cp.async.commit.group",
    "llvm.nvvm.cp.async.wait.group",
    // Tensor cores.
    "llvm.nvvm.ldmatrix.sync.aligned.m8n8.x1.b16",
    "llvm.nvvm.ldmatrix.sync.aligned.m8n8.x2.b16",
    "llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16",
    "llvm.nvvm.ldmatrix.sync.aligned.m8n8.x1.trans.b16",
    "llvm.nvvm.ldmatrix.sync.aligned.m8n8.x2.trans.b16",
    "llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16",
    "llvm.nvvm.mma.m16n8k16.row.col.bf16",
    "llvm.nvvm.mma.m16n8k16.row.col.f32.f32",
    "llvm.nvvm.mma.m16n8k8.row.col.tf32",
    "llvm.nvvm.mma.m16n8k32.row.col.f32.e4m3.e4m3.f32",
    "llvm.nvvm.mma.m16n8k32.row.col.f32.e5m2.e5m2.f32",
    "llvm.nvvm.f2tf32.rna",
    // fp8 conversions.
    "llvm.nvvm.ff.to.e4m3x2.rn",
    "llvm.nvvm.ff.to.e5m2x2.rn",
    "llvm.nvvm.e4m3x2.to.f16x2.rn",
    "llvm.nvvm.e5m2x2.to.f16x2.rn",
    "llvm.nvvm.wgmma.fence.sync.aligned",
    "llvm.nvvm.wgmma.commit_group.sync.aligned",
    "llvm.nvvm.wgmma.wait_group.sync.aligned",
    "llvm.nvvm.setmaxnreg.inc.sync.aligned.u32",
    "llvm.nvvm.setmaxnreg.dec.sync.aligned.u32",
    // mbarriers, bulk tensor copies, fences.
    "llvm.nvvm.mbarrier.init.shared",
    "llvm.nvvm.mbarrier.init",
    "llvm.nvvm.mbarrier.arrive.shared",
    "llvm.nvvm.mbarrier.arrive",
    "llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta",
    "llvm.nvvm.fence.mbarrier_init.release.cluster",
    "llvm.nvvm.fence.proxy.async.shared_cta",
    "llvm.nvvm.cp.async.bulk.tensor.g2s.tile.1d",
    "llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d",
    "llvm.nvvm.cp.async.bulk.tensor.g2s.tile.3d",
    "llvm.nvvm.cp.async.bulk.tensor.g2s.tile.4d",
    "llvm.nvvm.cp.async.bulk.tensor.g2s.tile.5d",
    // Special-function units.
    "llvm.nvvm.ex2.approx.f32",
    "llvm.nvvm.ex2.approx.ftz.f32",
    "llvm.nvvm.ex2.approx.f",
    "llvm.nvvm.ex2.approx.ftz.f",
    "llvm.nvvm.lg2.approx.f",
    "llvm.nvvm.lg2.approx.ftz.f",
    "llvm.nvvm.rcp.approx.ftz.f",
    "llvm.nvvm.div.full",
    "llvm.nvvm.rsqrt.approx.f",
    "llvm.nvvm.rsqrt.approx.ftz.f",
    "llvm.nvvm.sqrt.approx.f",
    "llvm.nvvm.sqrt.approx.ftz.f",
};

/// An intrinsic's name without the pointer types it is overloaded on
/// (`.p3`, `.p0`): the host takes every pointer alike.
StringRef withoutPointerSuffixes(StringRef name) {
  for (;;) {
    auto [rest, last] = name.rsplit('.');
    if (rest == name || !last.consume_front("p") || last.empty() ||
        !llvm::all_of(last, llvm::isDigit))
      return name;
    name = rest;
  }
}

bool hasHostImplementation(StringRef name) {
  name = withoutPointerSuffixes(name);
  return llvm::is_contained(kHostIntrinsics, name);
}

std::string hostName(StringRef intrinsic) {
  std::string name = "__xt_ptx_" + withoutPointerSuffixes(intrinsic).str();
  for (char &c : name)
    if (c == '.')
      c = '_';
  return name;
}

std::string collapseWhitespace(StringRef text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (llvm::isSpace(c)) {
      space = !out.empty();
      continue;
    }
    if (space)
      out += ' ';
    space = false;
    out += c;
  }
  return out;
}

struct HostRewriter {
  llvm::Module &m;
  llvm::LLVMContext &ctx;
  std::string error;

  explicit HostRewriter(llvm::Module &m) : m(m), ctx(m.getContext()) {}

  /// Records a reason to fail; every one is reported.
  bool fail(const llvm::Twine &why) {
    if (!error.empty())
      error += "; ";
    error += why.str();
    return false;
  }

  /// Arguments as the host C ABI takes them: integers narrower than 32 bits
  /// widened (zero-extended: i1 predicates and immediate flags).
  /// Packed vectors (<2 x half> fragments of mma.sync) as the integer of
  /// their bits, as the PTX instruction takes them in a register.
  llvm::Value *hostArgument(llvm::IRBuilder<> &b, llvm::Value *v) {
    if (auto *it = dyn_cast<llvm::IntegerType>(v->getType()))
      if (it->getBitWidth() < 32)
        return b.CreateZExt(v, b.getInt32Ty());
    if (auto *vt = dyn_cast<llvm::FixedVectorType>(v->getType())) {
      unsigned bits = vt->getPrimitiveSizeInBits().getFixedValue();
      if (bits == 32 || bits == 64)
        return b.CreateBitCast(v, b.getIntNTy(bits));
      if (bits == 16) // an fp8 pair: widened as an i16 is
        return b.CreateZExt(b.CreateBitCast(v, b.getInt16Ty()),
                            b.getInt32Ty());
    }
    return v;
  }
  llvm::Type *hostType(llvm::Type *t) {
    if (auto *it = dyn_cast<llvm::IntegerType>(t))
      if (it->getBitWidth() < 32)
        return llvm::Type::getInt32Ty(ctx);
    return t;
  }

  /// `call` replaced by a call of `host`: scalar results are returned,
  /// aggregate ones written through a pointer passed first.
  void callHost(llvm::CallBase *call, StringRef host,
                ArrayRef<llvm::Value *> operands) {
    llvm::IRBuilder<> b(call);
    llvm::Type *result = call->getType();
    bool aggregate = result->isStructTy() || result->isArrayTy() ||
                     result->isVectorTy();
    SmallVector<llvm::Type *> params;
    SmallVector<llvm::Value *> args;
    llvm::AllocaInst *slot = nullptr;
    if (aggregate) {
      llvm::IRBuilder<> entry(&*call->getFunction()
                                   ->getEntryBlock()
                                   .getFirstNonPHIOrDbgOrAlloca());
      slot = entry.CreateAlloca(result);
      params.push_back(slot->getType());
      args.push_back(slot);
    }
    for (llvm::Value *v : operands) {
      llvm::Value *a = hostArgument(b, v);
      params.push_back(a->getType());
      args.push_back(a);
    }
    llvm::Type *ret = aggregate ? b.getVoidTy() : hostType(result);
    auto *type = llvm::FunctionType::get(ret, params, false);
    llvm::FunctionCallee callee = m.getOrInsertFunction(host, type);
    llvm::CallInst *hostCall = b.CreateCall(callee, args);
    llvm::Value *value = hostCall;
    if (aggregate)
      value = b.CreateLoad(result, slot);
    else if (ret != result && !result->isVoidTy())
      value = b.CreateTrunc(hostCall, result);
    if (!result->isVoidTy())
      call->replaceAllUsesWith(value);
    call->eraseFromParent();
  }

  bool rewriteIntrinsics() {
    SmallVector<llvm::Function *> declarations;
    for (llvm::Function &f : m)
      if (f.isDeclaration() && f.getName().starts_with("llvm.nvvm."))
        declarations.push_back(&f);
    bool ok = true;
    for (llvm::Function *f : declarations)
      if (!hasHostImplementation(f->getName()))
        ok = fail("the PTX path's LLVM IR calls the NVVM intrinsic '" +
                  f->getName() +
                  "', which the host emulation does not implement");
    if (!ok)
      return false;
    for (llvm::Function *f : declarations) {
      std::string host = hostName(f->getName());
      SmallVector<llvm::CallBase *> calls;
      for (llvm::User *u : f->users()) {
        auto *call = dyn_cast<llvm::CallBase>(u);
        if (!call || call->getCalledFunction() != f)
          return fail("the NVVM intrinsic '" + f->getName() +
                      "' is used other than called");
        calls.push_back(call);
      }
      for (llvm::CallBase *call : calls) {
        SmallVector<llvm::Value *> operands(call->args());
        callHost(call, host, operands);
      }
      f->eraseFromParent();
    }
    return true;
  }

  /// The inline PTX that MLIR's NVVM lowering and KernelToGPU write, each
  /// recognized by its whole text (whitespace collapsed):
  /// - the empty asm that keeps reads of wgmma accumulators after
  ///   wgmma.wait_group (an identity of its operand);
  /// - xkernel.mbarrier_wait's loop on mbarrier.try_wait.parity, on the
  ///   mbarrier's 32-bit shared address;
  /// - wgmma.mma_async with its accumulators, descriptors, scale-d
  ///   predicate and immediates.
  bool rewriteInlineAsm() {
    SmallVector<llvm::CallBase *> calls;
    for (llvm::Function &f : m)
      for (llvm::Instruction &i : llvm::instructions(f))
        if (auto *call = dyn_cast<llvm::CallBase>(&i))
          if (isa<llvm::InlineAsm>(call->getCalledOperand()))
            calls.push_back(call);
    llvm::Regex tryWait(
        "^\\{ \\.reg \\.pred ([A-Za-z0-9_]+); ([A-Za-z0-9_]+): "
        "mbarrier\\.try_wait\\.parity\\.shared\\.b64 \\1, \\[\\$0\\], "
        "\\$1, \\$2; @\\1 bra(\\.uni)? ([A-Za-z0-9_]+); bra(\\.uni)? \\2; "
        "\\4: \\}$");
    llvm::Regex wgmma(
        "^\\{ \\.reg \\.pred p; setp\\.ne\\.b32 p, \\$([0-9]+), 0; "
        "wgmma\\.mma_async\\.sync\\.aligned\\.m64n([0-9]+)k([0-9]+)\\.f32\\."
        "(bf16|f16|tf32|e4m3|e5m2)\\.(bf16|f16|tf32|e4m3|e5m2) "
        "\\{[$0-9, ]*\\}, \\$([0-9]+), "
        "\\$([0-9]+), p(, \\$([0-9]+))*; \\}$");
    for (llvm::CallBase *call : calls) {
      auto *asmCallee = cast<llvm::InlineAsm>(call->getCalledOperand());
      std::string text = collapseWhitespace(asmCallee->getAsmString());
      StringRef constraints = asmCallee->getConstraintString();
      SmallVector<StringRef> groups;
      if (text.empty() && constraints == "=f,0") {
        call->replaceAllUsesWith(call->getArgOperand(0));
        call->eraseFromParent();
      } else if (tryWait.match(text) && constraints == "r,r,n" &&
                 call->arg_size() == 3) {
        // The mbarrier as a (32-bit) shared pointer, or as its address.
        llvm::Value *bar = call->getArgOperand(0);
        callHost(call,
                 bar->getType()->isPointerTy()
                     ? "__xt_ptx_mbarrier_try_wait_parity_loop"
                     : "__xt_ptx_mbarrier_try_wait_parity_loop_at",
                 {bar, call->getArgOperand(1)});
      } else if (wgmma.match(text, &groups)) {
        if (!rewriteWgmma(call, text, groups))
          return false;
      } else {
        fail("the PTX path's LLVM IR has the inline PTX '" + text +
             "' (constraints '" + constraints +
             "'), which the host emulation does not implement");
      }
    }
    return error.empty();
  }

  /// wgmma.mma_async.sync.aligned.m64nNkK.f32.T.T: the asm's N/2
  /// accumulators (results, and the tied operands before the others),
  /// then descriptors of A and B, the scale-d operand and the immediates
  /// imm-scale-a, imm-scale-b (and, for 16-bit types, imm-trans-a,
  /// imm-trans-b; tf32 and fp8 take none). The host takes the accumulators in memory.
  bool rewriteWgmma(llvm::CallBase *call, StringRef text,
                    ArrayRef<StringRef> groups) {
    unsigned n = 0, k = 0;
    groups[2].getAsInteger(10, n);
    groups[3].getAsInteger(10, k);
    StringRef type = groups[4];
    unsigned regs = n / 2;
    bool sixteen = type == "bf16" || type == "f16";
    unsigned immediates = sixteen ? 4 : 2;
    auto *result = dyn_cast<llvm::StructType>(call->getType());
    // The operands after the tied accumulators: the descriptors are $2r
    // and $2r+1 (r results, r tied operands), scale-d $2r+2.
    unsigned descA = 0, scaleD = 0;
    groups[6].getAsInteger(10, descA);
    groups[1].getAsInteger(10, scaleD);
    if (groups[5] != type || !result || result->getNumElements() != regs ||
        call->arg_size() != regs + 3 + immediates || descA != 2 * regs ||
        scaleD != 2 * regs + 2)
      return fail("the inline PTX '" + text +
                  "' does not have the operands of wgmma.mma_async with " +
                  llvm::Twine(regs) + " accumulators");
    llvm::IRBuilder<> entry(
        &*call->getFunction()->getEntryBlock().getFirstNonPHIOrDbgOrAlloca());
    llvm::AllocaInst *acc =
        entry.CreateAlloca(llvm::ArrayType::get(entry.getFloatTy(), regs));
    llvm::IRBuilder<> b(call);
    for (unsigned i = 0; i < regs; ++i)
      b.CreateStore(call->getArgOperand(i),
                    b.CreateConstGEP2_32(acc->getAllocatedType(), acc, 0, i));
    SmallVector<llvm::Value *> args = {
        acc, call->getArgOperand(regs), call->getArgOperand(regs + 1),
        b.CreateZExtOrTrunc(call->getArgOperand(regs + 2), b.getInt32Ty())};
    for (unsigned i = 0; i < 4; ++i)
      args.push_back(i < immediates ? b.CreateSExtOrTrunc(
                                          call->getArgOperand(regs + 3 + i),
                                          b.getInt32Ty())
                                    : b.getInt32(0));
    args.push_back(b.getInt32(n));
    args.push_back(b.getInt32(k));
    args.push_back(b.getInt32(llvm::StringSwitch<unsigned>(type)
                                  .Case("bf16", 0)
                                  .Case("f16", 1)
                                  .Case("tf32", 2)
                                  .Case("e4m3", 3)
                                  .Default(4)));
    SmallVector<llvm::Type *> params;
    for (llvm::Value *v : args)
      params.push_back(v->getType());
    llvm::FunctionCallee host = m.getOrInsertFunction(
        "__xt_ptx_wgmma_mma_async",
        llvm::FunctionType::get(b.getVoidTy(), params, false));
    b.CreateCall(host, args);
    llvm::Value *out = llvm::PoisonValue::get(result);
    for (unsigned i = 0; i < regs; ++i)
      out = b.CreateInsertValue(
          out,
          b.CreateLoad(b.getFloatTy(), b.CreateConstGEP2_32(
                                           acc->getAllocatedType(), acc, 0, i)),
          i);
    call->replaceAllUsesWith(out);
    call->eraseFromParent();
    return true;
  }

  /// Shared memory is the running block's window (runtime/xtile_ptx_host
  /// .cpp): dynamic shared memory at its base, the module's static shared
  /// variables after the launch's dynamic bytes, each at its offset in
  /// `xt_ptx_static_shared_bytes` bytes laid out here. One window holds
  /// both, as on the GPU, so that a shared address taken as a 32-bit
  /// integer (mbarrier operands of inline PTX) still names its byte.
  bool rewriteSharedMemory() {
    SmallVector<llvm::GlobalVariable *> shared;
    for (llvm::GlobalVariable &g : m.globals())
      if (g.getAddressSpace() == 3)
        shared.push_back(&g);
    llvm::Type *ptr = llvm::PointerType::get(ctx, 0);
    llvm::FunctionCallee dynamicBase = m.getOrInsertFunction(
        "__xt_ptx_dynamic_shared", llvm::FunctionType::get(ptr, false));
    llvm::FunctionCallee staticBase = m.getOrInsertFunction(
        "__xt_ptx_static_shared", llvm::FunctionType::get(ptr, false));
    const llvm::DataLayout &layout = m.getDataLayout();
    uint64_t staticBytes = 0;
    // Each function asks for each base once, at its entry.
    llvm::DenseMap<std::pair<llvm::Function *, llvm::Value *>, llvm::Value *>
        bases;
    auto baseIn = [&](llvm::Function *f, llvm::FunctionCallee base) {
      llvm::Value *&p = bases[{f, base.getCallee()}];
      if (!p) {
        llvm::IRBuilder<> b(&*f->getEntryBlock().getFirstNonPHIOrDbgOrAlloca());
        p = b.CreateCall(base);
      }
      return p;
    };
    for (llvm::GlobalVariable *g : shared) {
      SmallVector<llvm::Constant *> self = {g};
      llvm::convertUsersOfConstantsToInstructions(self);
      llvm::FunctionCallee base = dynamicBase;
      uint64_t offset = 0;
      if (!g->isDeclaration()) {
        base = staticBase;
        llvm::Align align = g->getAlign().value_or(llvm::Align(16));
        offset = llvm::alignTo(staticBytes, align);
        staticBytes = offset + layout.getTypeAllocSize(g->getValueType());
      }
      SmallVector<llvm::Use *> uses;
      for (llvm::Use &u : g->uses())
        uses.push_back(&u);
      for (llvm::Use *u : uses) {
        auto *user = dyn_cast<llvm::Instruction>(u->getUser());
        if (!user)
          return fail("shared memory '" + g->getName() +
                      "' is used outside a function");
        llvm::Value *window = baseIn(user->getFunction(), base);
        llvm::IRBuilder<> b(cast<llvm::Instruction>(window)->getNextNode());
        llvm::Value *p = b.CreateConstGEP1_64(b.getInt8Ty(), window, offset);
        u->set(b.CreateAddrSpaceCast(p, g->getType()));
      }
      g->eraseFromParent();
    }
    new llvm::GlobalVariable(
        m, llvm::Type::getInt64Ty(ctx), /*isConstant=*/true,
        llvm::GlobalValue::ExternalLinkage,
        llvm::ConstantInt::get(llvm::Type::getInt64Ty(ctx), staticBytes),
        "xt_ptx_static_shared_bytes");
    return true;
  }

  /// Kernels become host functions (C calling convention) with an entry
  /// point that takes cuLaunchKernel's parameter array; the table
  /// `xt_ptx_kernels` lists them by PTX name.
  bool rewriteKernels(uint64_t ptxHash) {
    SmallVector<llvm::Function *> kernels;
    for (llvm::Function &f : m) {
      if (f.isDeclaration())
        continue;
      f.removeFnAttr("target-cpu");
      f.removeFnAttr("target-features");
      if (f.getCallingConv() == llvm::CallingConv::PTX_Kernel) {
        f.setCallingConv(llvm::CallingConv::C);
        kernels.push_back(&f);
      }
    }
    if (llvm::NamedMDNode *annotations = m.getNamedMetadata("nvvm.annotations"))
      annotations->eraseFromParent();

    llvm::Type *ptr = llvm::PointerType::get(ctx, 0);
    auto *entryType =
        llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr}, false);
    llvm::StructType *row = llvm::StructType::get(ctx, {ptr, ptr});
    SmallVector<llvm::Constant *> rows;
    for (llvm::Function *k : kernels) {
      auto *entry = llvm::Function::Create(
          entryType, llvm::GlobalValue::InternalLinkage,
          "__xt_ptx_entry." + k->getName(), m);
      llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", entry));
      SmallVector<llvm::Value *> args;
      for (llvm::Argument &a : k->args()) {
        llvm::Value *slot = b.CreateLoad(
            ptr, b.CreateConstGEP1_64(ptr, entry->getArg(0), a.getArgNo()));
        // A byval parameter (a tensor map) is passed by the address of
        // its bytes, as cuLaunchKernel's array has it.
        if (a.hasByValAttr())
          args.push_back(b.CreateAddrSpaceCast(slot, a.getType()));
        else
          args.push_back(b.CreateLoad(a.getType(), slot));
      }
      b.CreateCall(k, args);
      b.CreateRetVoid();
      rows.push_back(llvm::ConstantStruct::get(
          row, {b.CreateGlobalString(k->getName(), "", 0, &m), entry}));
    }
    rows.push_back(llvm::ConstantStruct::get(
        row, {llvm::ConstantPointerNull::get(cast<llvm::PointerType>(ptr)),
              llvm::ConstantPointerNull::get(cast<llvm::PointerType>(ptr))}));
    auto *tableType = llvm::ArrayType::get(row, rows.size());
    new llvm::GlobalVariable(m, tableType, /*isConstant=*/true,
                             llvm::GlobalValue::ExternalLinkage,
                             llvm::ConstantArray::get(tableType, rows),
                             "xt_ptx_kernels");
    new llvm::GlobalVariable(
        m, llvm::Type::getInt64Ty(ctx), /*isConstant=*/true,
        llvm::GlobalValue::ExternalLinkage,
        llvm::ConstantInt::get(llvm::Type::getInt64Ty(ctx), ptxHash),
        "xt_ptx_image_hash");
    return true;
  }
};

} // namespace

LogicalResult xtile::translateToHostPTX(Operation *op, raw_ostream &os,
                                        std::optional<StringRef> chip,
                                        HostPTXFormat format,
                                        std::string *ptxOut) {
  std::string ptx;
  SmallVector<char> bitcode;
  Location loc = op->getLoc();
  // A module of host programs only (copies, empty results) has no PTX: its
  // host object has an empty table of kernels.
  bool kernels = false;
  op->walk([&](Operation *inner) {
    if (isa<xtile::kernel::FuncOp, gpu::GPUModuleOp>(inner))
      kernels = true;
  });
  if (!isa<ModuleOp>(op) || kernels) {
    if (failed(serializeKernelsToPTX(op, chip, ptx, &bitcode)))
      return failure();
  }
  llvm::LLVMContext ctx;
  std::unique_ptr<llvm::Module> owned;
  if (bitcode.empty()) {
    owned = std::make_unique<llvm::Module>("ptx-path", ctx);
  } else {
    auto parsed = llvm::parseBitcodeFile(
        llvm::MemoryBufferRef(StringRef(bitcode.data(), bitcode.size()),
                              "ptx-path"),
        ctx);
    if (!parsed)
      return emitError(loc, "cannot read back the PTX path's LLVM IR: ")
             << llvm::toString(parsed.takeError());
    owned = std::move(*parsed);
  }
  llvm::Module &m = *owned;

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  std::string triple = llvm::sys::getProcessTriple(), why;
  llvm::Triple hostTriple(triple);
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(hostTriple, why);
  if (!target)
    return emitError(loc, "no LLVM backend for the host (")
           << triple << "): " << why;
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      hostTriple, "generic", "", options, llvm::Reloc::PIC_));
  if (!machine)
    return emitError(loc, "cannot make a target machine for ") << triple;

  HostRewriter rewriter(m);
  bool rewritten = rewriter.rewriteIntrinsics();
  rewritten &= rewriter.rewriteInlineAsm();
  if (!rewritten || !rewriter.rewriteSharedMemory() ||
      !rewriter.rewriteKernels(hashPTX(ptx)))
    return emitError(loc, rewriter.error);
  m.setTargetTriple(hostTriple);
  m.setDataLayout(machine->createDataLayout());
  std::string broken;
  llvm::raw_string_ostream brokenStream(broken);
  if (llvm::verifyModule(m, &brokenStream))
    return emitError(loc, "the PTX path's LLVM IR, retargeted to the host, "
                          "does not verify: ")
           << broken;

  if (ptxOut)
    *ptxOut = ptx;
  if (format == HostPTXFormat::LLVMIR) {
    m.print(os, nullptr);
    return success();
  }
  SmallVector<char> object;
  llvm::raw_svector_ostream objectStream(object);
  llvm::legacy::PassManager pm;
  if (machine->addPassesToEmitFile(pm, objectStream, nullptr,
                                   llvm::CodeGenFileType::ObjectFile))
    return emitError(loc, "the host backend cannot write an object file");
  pm.run(m);
  os.write(object.data(), object.size());
  return success();
}
