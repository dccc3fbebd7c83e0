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

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
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
/// underscores. Exact names, or prefixes ending in '.'.
constexpr const char *kHostIntrinsics[] = {
    // Special registers.
    "llvm.nvvm.read.ptx.sreg.tid.",
    "llvm.nvvm.read.ptx.sreg.ntid.",
    "llvm.nvvm.read.ptx.sreg.ctaid.",
    "llvm.nvvm.read.ptx.sreg.nctaid.",
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
    "llvm.nvvm.mma.m16n8k16.row.col.f32.f16.f16.f32",
    "llvm.nvvm.mma.m16n8k8.row.col.tf32",
    "llvm.nvvm.f2tf32.rna",
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
    "llvm.nvvm.mbarrier.arrive.expect.tx.",
    "llvm.nvvm.mbarrier.try.wait.parity.",
    "llvm.nvvm.fence.mbarrier_init.release.cluster",
    "llvm.nvvm.fence.proxy.async.shared_cta",
    "llvm.nvvm.cp.async.bulk.tensor.g2s.tile.",
    // Special-function units.
    "llvm.nvvm.ex2.approx.f32",
    "llvm.nvvm.ex2.approx.ftz.f32",
    "llvm.nvvm.ex2.approx.f",
    "llvm.nvvm.ex2.approx.ftz.f",
    "llvm.nvvm.lg2.approx.f",
    "llvm.nvvm.lg2.approx.ftz.f",
    "llvm.nvvm.rcp.approx.ftz.f",
    "llvm.nvvm.rsqrt.approx.f",
    "llvm.nvvm.rsqrt.approx.ftz.f",
    "llvm.nvvm.sqrt.approx.f",
    "llvm.nvvm.sqrt.approx.ftz.f",
};

bool hasHostImplementation(StringRef name) {
  for (StringRef known : kHostIntrinsics)
    if (known.ends_with(".") ? name.starts_with(known) : name == known)
      return true;
  return false;
}

std::string hostName(StringRef intrinsic) {
  std::string name = "__xt_ptx_" + intrinsic.str();
  for (char &c : name)
    if (c == '.')
      c = '_';
  return name;
}

/// Inline-asm strings with a host implementation: the pattern of the whole
/// string (whitespace collapsed) and the host function, which takes the
/// asm's results by pointer (one slot per result, in order) then its
/// operands. An empty host name: the asm is an identity (a scheduling
/// barrier of the compiler) and its operand is its result.
struct HostAsm {
  const char *pattern;
  const char *host;
};
constexpr HostAsm kHostAsm[] = {
    // xkernel.wgmma_wait: reads of the accumulators kept after the wait.
    {"^$", ""},
};

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

  bool fail(const llvm::Twine &why) {
    if (error.empty())
      error = why.str();
    return false;
  }

  /// Arguments as the host C ABI takes them: integers narrower than 32 bits
  /// widened (zero-extended: i1 predicates and immediate flags).
  llvm::Value *hostArgument(llvm::IRBuilder<> &b, llvm::Value *v) {
    if (auto *it = dyn_cast<llvm::IntegerType>(v->getType()))
      if (it->getBitWidth() < 32)
        return b.CreateZExt(v, b.getInt32Ty());
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
    for (llvm::Function *f : declarations) {
      if (!hasHostImplementation(f->getName()))
        return fail("the PTX path's LLVM IR calls the NVVM intrinsic '" +
                    f->getName() +
                    "', which the host emulation does not implement");
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

  bool rewriteInlineAsm() {
    SmallVector<llvm::CallBase *> calls;
    for (llvm::Function &f : m)
      for (llvm::Instruction &i : llvm::instructions(f))
        if (auto *call = dyn_cast<llvm::CallBase>(&i))
          if (isa<llvm::InlineAsm>(call->getCalledOperand()))
            calls.push_back(call);
    for (llvm::CallBase *call : calls) {
      auto *asmCallee = cast<llvm::InlineAsm>(call->getCalledOperand());
      std::string text = collapseWhitespace(asmCallee->getAsmString());
      const HostAsm *found = nullptr;
      for (const HostAsm &h : kHostAsm)
        if (llvm::Regex(h.pattern).match(text)) {
          found = &h;
          break;
        }
      if (!found)
        return fail("the PTX path's LLVM IR has the inline PTX '" + text +
                    "' (constraints '" + asmCallee->getConstraintString() +
                    "'), which the host emulation does not implement");
      if (StringRef(found->host).empty()) {
        if (call->arg_size() != 1 || call->getType() != call->getArgOperand(0)->getType())
          return fail("the empty inline PTX with constraints '" +
                      asmCallee->getConstraintString() +
                      "' is not an identity of one value");
        call->replaceAllUsesWith(call->getArgOperand(0));
        call->eraseFromParent();
        continue;
      }
      SmallVector<llvm::Value *> operands(call->args());
      callHost(call, found->host, operands);
    }
    return true;
  }

  /// Static shared memory: one copy per worker thread (the fibers of the
  /// block it runs share it); dynamic shared memory: the running block's
  /// buffer, from the emulation.
  bool rewriteSharedMemory() {
    SmallVector<llvm::GlobalVariable *> shared;
    for (llvm::GlobalVariable &g : m.globals())
      if (g.getAddressSpace() == 3)
        shared.push_back(&g);
    for (llvm::GlobalVariable *g : shared) {
      SmallVector<llvm::Constant *> self = {g};
      llvm::convertUsersOfConstantsToInstructions(self);
      if (g->isDeclaration()) {
        // extern __shared__: the block's dynamic shared memory.
        llvm::FunctionCallee base = m.getOrInsertFunction(
            "__xt_ptx_dynamic_shared",
            llvm::FunctionType::get(llvm::PointerType::get(ctx, 0), false));
        SmallVector<llvm::Use *> uses;
        for (llvm::Use &u : g->uses())
          uses.push_back(&u);
        for (llvm::Use *u : uses) {
          auto *user = dyn_cast<llvm::Instruction>(u->getUser());
          if (!user)
            return fail("dynamic shared memory '" + g->getName() +
                        "' is used outside a function");
          llvm::IRBuilder<> b(&*user->getFunction()
                                   ->getEntryBlock()
                                   .getFirstNonPHIOrDbgOrAlloca());
          llvm::Value *p = b.CreateCall(base);
          u->set(b.CreateAddrSpaceCast(p, g->getType()));
        }
        g->eraseFromParent();
        continue;
      }
      auto *copy = new llvm::GlobalVariable(
          m, g->getValueType(), /*isConstant=*/false,
          llvm::GlobalValue::InternalLinkage,
          llvm::Constant::getNullValue(g->getValueType()),
          g->getName() + ".block", nullptr,
          llvm::GlobalValue::GeneralDynamicTLSModel, /*AddressSpace=*/0);
      copy->setAlignment(g->getAlign());
      SmallVector<llvm::Use *> uses;
      for (llvm::Use &u : g->uses())
        uses.push_back(&u);
      for (llvm::Use *u : uses) {
        auto *user = dyn_cast<llvm::Instruction>(u->getUser());
        if (!user)
          return fail("shared memory '" + g->getName() +
                      "' is used outside a function");
        llvm::IRBuilder<> b(user);
        if (auto *phi = dyn_cast<llvm::PHINode>(user))
          b.SetInsertPoint(
              phi->getIncomingBlock(*u)->getTerminator());
        u->set(b.CreateAddrSpaceCast(copy, g->getType()));
      }
      g->eraseFromParent();
    }
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
    if (kernels.empty())
      return fail("the PTX path's LLVM IR has no kernel");

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
  if (failed(serializeKernelsToPTX(op, chip, ptx, &bitcode)))
    return failure();
  Location loc = op->getLoc();
  llvm::LLVMContext ctx;
  auto parsed = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(StringRef(bitcode.data(), bitcode.size()),
                            "ptx-path"),
      ctx);
  if (!parsed)
    return emitError(loc, "cannot read back the PTX path's LLVM IR: ")
           << llvm::toString(parsed.takeError());
  llvm::Module &m = **parsed;

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
  if (!rewriter.rewriteIntrinsics() || !rewriter.rewriteInlineAsm() ||
      !rewriter.rewriteSharedMemory() ||
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
