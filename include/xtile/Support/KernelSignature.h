//===- KernelSignature.h - kernel ops' shared syntax ------------*- C++ -*-===//
//
// Loop IR and Tile IR kernels are symbols whose body block arguments are
// their buffers, inputs first:
//
//   @name(%in: memref<...>, ...) -> (%out: memref<...>, ...) [attributes {...}]
//   {
//     body
//   }
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_SUPPORT_KERNELSIGNATURE_H
#define XTILE_SUPPORT_KERNELSIGNATURE_H

#include "mlir/IR/OpImplementation.h"

namespace xtile {

/// Parses the symbol name, the buffers, the optional attributes and the body;
/// records the number of inputs in the attribute `numInputsName`.
mlir::ParseResult parseKernel(mlir::OpAsmParser &parser,
                              mlir::OperationState &result,
                              mlir::StringAttr numInputsName);

/// Prints what parseKernel parses.
void printKernel(mlir::OpAsmPrinter &printer, mlir::Operation *op,
                 mlir::StringRef name, unsigned numInputs,
                 mlir::StringAttr numInputsName);

/// Verifies `numInputs` against the body's buffers, that every buffer is a
/// statically shaped memref and that there is at least one output.
llvm::LogicalResult verifyKernelBuffers(mlir::Operation *op, mlir::Block &body,
                                        int64_t numInputs);

/// The (inputs, outputs) buffers of a kernel op of either level: a symbol
/// with a `num_inputs` attribute and a body whose block arguments are its
/// buffers. None for any other op.
std::optional<std::pair<llvm::ArrayRef<mlir::BlockArgument>,
                        llvm::ArrayRef<mlir::BlockArgument>>>
getKernelBuffers(mlir::Operation *op);

} // namespace xtile

#endif // XTILE_SUPPORT_KERNELSIGNATURE_H
