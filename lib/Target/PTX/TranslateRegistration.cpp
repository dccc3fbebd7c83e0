//===- TranslateRegistration.cpp - register --mlir-to-ptx -----------------===//

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "xtile/Dialect/Kernel/IR/KernelDialect.h"
#include "xtile/Target/PTX/PTXEmitter.h"
#include "llvm/Support/CommandLine.h"

using namespace mlir;

void xtile::registerToPTXTranslation() {
  static llvm::cl::opt<std::string> chip(
      "ptx-chip",
      llvm::cl::desc("GPU that --mlir-to-ptx writes PTX for (sm_80, sm_86, "
                     "sm_89, sm_90, sm_90a); by default the one the kernels "
                     "were scheduled for (their `arch`), else sm_90"));

  TranslateFromMLIRRegistration registration(
      "mlir-to-ptx",
      "Lower Kernel IR through the gpu and nvvm dialects to PTX (LLVM's "
      "NVPTX backend)",
      [](Operation *op, raw_ostream &os) {
        return translateToPTX(op, os, chip.getNumOccurrences()
                                          ? std::optional<StringRef>(chip)
                                          : std::nullopt);
      },
      [](DialectRegistry &registry) {
        registry.insert<kernel::XKernelDialect, arith::ArithDialect,
                        math::MathDialect, scf::SCFDialect,
                        vector::VectorDialect>();
        registerToPTXDependencies(registry);
      });

  static llvm::cl::opt<bool> object(
      "host-ptx-object",
      llvm::cl::desc("--mlir-to-host-ptx writes a host object file (LLVM's "
                     "host backend) instead of LLVM IR"));
  TranslateFromMLIRRegistration host(
      "mlir-to-host-ptx",
      "The PTX path's LLVM IR (what NVPTX compiles) retargeted to the host, "
      "its NVVM intrinsics and inline PTX calls into the emulation "
      "(runtime/xtile_ptx_host.cpp): LLVM IR, or an object file with "
      "--host-ptx-object",
      [](Operation *op, raw_ostream &os) {
        return translateToHostPTX(
            op, os,
            chip.getNumOccurrences() ? std::optional<StringRef>(chip)
                                     : std::nullopt,
            object ? HostPTXFormat::Object : HostPTXFormat::LLVMIR);
      },
      [](DialectRegistry &registry) {
        registry.insert<kernel::XKernelDialect, arith::ArithDialect,
                        math::MathDialect, scf::SCFDialect,
                        vector::VectorDialect>();
        registerToPTXDependencies(registry);
      });
}

void xtile::registerToPTXDependencies(DialectRegistry &registry) {
  registry.insert<cf::ControlFlowDialect, ub::UBDialect, gpu::GPUDialect,
                  LLVM::LLVMDialect, NVVM::NVVMDialect>();
  // gpu-module-to-binary serializes through the NVVM target attribute's
  // interface and the LLVM IR export, which are external models: without
  // them it crashes.
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
}
