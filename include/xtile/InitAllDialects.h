//===- InitAllDialects.h - register xtile's dialects ------------*- C++ -*-===//
//
// For tools built on xtile, inside or outside this repository.
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_INITALLDIALECTS_H
#define XTILE_INITALLDIALECTS_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "xtile/Conversion/LinalgToTensor/LinalgToTensor.h"
#include "xtile/Conversion/TosaToTensor/TosaToTensor.h"
#include "xtile/Dialect/Kernel/IR/KernelDialect.h"
#include "xtile/Dialect/Loop/IR/LoopDialect.h"
#include "xtile/Dialect/Tensor/IR/TensorDialect.h"
#include "xtile/Dialect/Tile/IR/TileDialect.h"

namespace xtile {

/// Registers the xtile dialects only.
inline void registerXTileDialects(mlir::DialectRegistry &registry) {
  registry.insert<tensor::XTensorDialect, loop::XLoopDialect,
                  tile::XTileDialect, kernel::XKernelDialect>();
}

/// Registers the xtile dialects and the upstream dialects that xtile
/// programs contain (functions, scalar arithmetic and math, structured
/// control flow), come from (linalg on tensors and the tensor ops around
/// it, TOSA: for --convert-linalg-to-xtensor and --convert-tosa-to-xtensor)
/// or are lowered to (gpu modules of LLVM and NVVM code).
inline void registerAllDialects(mlir::DialectRegistry &registry) {
  registerXTileDialects(registry);
  registry.insert<mlir::func::FuncDialect, mlir::arith::ArithDialect,
                  mlir::math::MathDialect, mlir::scf::SCFDialect,
                  mlir::affine::AffineDialect, mlir::vector::VectorDialect,
                  mlir::gpu::GPUDialect, mlir::LLVM::LLVMDialect,
                  mlir::NVVM::NVVMDialect>();
  registerLinalgInputDialects(registry);
  registerTosaInputDialects(registry);
}

} // namespace xtile

#endif // XTILE_INITALLDIALECTS_H
