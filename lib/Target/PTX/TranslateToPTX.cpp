//===- TranslateToPTX.cpp - Kernel IR to PTX ------------------------------===//
//
// PTX is never printed here: the kernels are lowered to the LLVM and NVVM
// dialects and LLVM's NVPTX backend writes the assembly (gpu-module-to-
// binary, format `isa`); this file only drives that and collects the text.
//
//===----------------------------------------------------------------------===//

#include "xtile/Target/PTX/PTXEmitter.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "xtile/Conversion/KernelToGPU/KernelToGPU.h"
#include "xtile/Dialect/Kernel/IR/KernelOps.h"
#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringSwitch.h"
#include "xtile/Support/Storage.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Module.h"

using namespace mlir;

std::optional<StringRef> xtile::ptxFeaturesFor(StringRef chip) {
  // NVPTX's default PTX version is too old for the newer chips (and aborts
  // the process for sm_90), so the version is always given.
  return llvm::StringSwitch<std::optional<StringRef>>(chip)
      .Case("sm_80", StringRef("+ptx70"))
      .Case("sm_86", StringRef("+ptx71"))
      .Case("sm_89", StringRef("+ptx78"))
      .Cases({"sm_90", "sm_90a"}, StringRef("+ptx80"))
      .Default(std::nullopt);
}

LogicalResult
xtile::serializeKernelsToPTX(Operation *op, std::optional<StringRef> requested,
                             std::string &ptx,
                             SmallVectorImpl<char> *optimizedBitcode) {
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    return op->emitError("PTX is translated from a builtin.module, got '")
           << op->getName() << "'";
  // The GPU the kernels were scheduled for travels with them: it is the
  // default chip, and another one is an error (their tiles and shared
  // memory were sized for it).
  std::optional<StringRef> scheduled;
  for (auto func : module.getOps<xtile::kernel::FuncOp>()) {
    std::optional<StringRef> arch = func.getArch();
    if (!arch)
      continue;
    if (scheduled && *scheduled != *arch)
      return func.emitError("kernels scheduled for different GPUs (")
             << *scheduled << " and " << *arch << ") in one module";
    scheduled = arch;
  }
  if (requested && scheduled && *requested != *scheduled)
    return module.emitError("the kernels were scheduled for ")
           << *scheduled << " (their Tile IR target), not --ptx-chip="
           << *requested << ": lower them with target=" << *requested;
  StringRef chip = requested ? *requested : scheduled.value_or("sm_90");
  std::optional<StringRef> features = ptxFeaturesFor(chip);
  if (!features)
    return module.emitError("no PTX for chip '")
           << chip << "': expected sm_80, sm_86, sm_89, sm_90 or sm_90a";

  // fp8 products (mma.sync m16n8k32 on e4m3/e5m2) are PTX 8.4's.
  bool fp8Mma = module
                    .walk([](xtile::kernel::MmaOp mma) {
                      return xtile::isFp8(mma.getA().getType())
                                 ? WalkResult::interrupt()
                                 : WalkResult::advance();
                    })
                    .wasInterrupted();
  if (fp8Mma && (chip == "sm_89" || chip.starts_with("sm_90")))
    features = StringRef("+ptx84");

  OwningOpRef<ModuleOp> copy = module.clone();
  PassManager pm = PassManager::on<ModuleOp>(module.getContext());
  ConvertXKernelToNVVMOptions lowering;
  lowering.chip = chip.str();
  lowering.features = features->str();
  pm.addPass(createConvertXKernelToNVVM(lowering));
  if (failed(pm.run(*copy)))
    return failure();

  // gpu-module-to-binary (format `isa`), called directly so that the LLVM
  // IR that NVPTX compiles (after NVPTX's optimization pipeline) can be
  // kept: it is what the host emulation of the PTX path runs.
  std::optional<SymbolTable> symbols;
  auto symbolTable = [&]() -> SymbolTable * {
    if (!symbols)
      symbols.emplace(*copy);
    return &*symbols;
  };
  unsigned modules = 0;
  auto keepIR = [&](llvm::Module &ir) {
    ++modules;
    if (!optimizedBitcode)
      return;
    optimizedBitcode->clear();
    llvm::raw_svector_ostream bitcode(*optimizedBitcode);
    llvm::WriteBitcodeToFile(ir, bitcode);
  };
  gpu::TargetOptions options(
      /*toolkitPath=*/{}, /*librariesToLink=*/{}, /*cmdOptions=*/{},
      /*elfSection=*/{}, gpu::CompilationTarget::Assembly, symbolTable,
      /*initialLlvmIRCallback=*/{}, /*linkedLlvmIRCallback=*/{}, keepIR);
  if (failed(gpu::transformGpuModulesToBinaries(*copy, nullptr, options)))
    return failure();
  if (optimizedBitcode && modules > 1)
    return module.emitError("the host emulation of the PTX path takes one "
                            "gpu.module, this module has ")
           << modules;

  bool any = false;
  for (auto bin : copy->getOps<gpu::BinaryOp>()) {
    for (Attribute attr : bin.getObjectsAttr()) {
      auto object = cast<gpu::ObjectAttr>(attr);
      if (object.getFormat() != gpu::CompilationTarget::Assembly)
        return bin.emitError("expected PTX assembly, got a binary object");
      ptx += object.getObject().getValue();
      any = true;
    }
  }
  if (!any)
    return module.emitError("no kernels to translate to PTX: the module has "
                            "no xkernel.func and no gpu.module");
  return success();
}

LogicalResult xtile::translateToPTX(Operation *op, raw_ostream &os,
                                    std::optional<StringRef> requested) {
  std::string ptx;
  if (failed(serializeKernelsToPTX(op, requested, ptx)))
    return failure();
  os << ptx;
  return success();
}
