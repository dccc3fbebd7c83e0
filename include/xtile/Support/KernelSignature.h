//===- KernelSignature.h - kernel ops' shared syntax ------------*- C++ -*-===//
//
// Loop IR and Tile IR kernels (and Kernel IR programs) are symbols whose
// body block arguments are their buffers, inputs first:
//
//   @name(%in: memref<...>, ...) -> (%out: memref<...>, ...) [attributes {...}]
//   {
//     body
//   }
//
// An op that declares the attributes `num_sizes`, `size_ranges` and
// `buffer_dims` may also take dynamic sizes: `index` block arguments after
// the buffers, declared in brackets with their ranges, and named after each
// buffer with `?` sizes, in order:
//
//   @name[%T = 1 to 4096](%in: memref<?x512xf32> [%T]) -> (...)
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_SUPPORT_KERNELSIGNATURE_H
#define XTILE_SUPPORT_KERNELSIGNATURE_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"

namespace xtile {

/// The attribute of a Tile IR kernel that is one bucket of a launch and the
/// second of a split's two kernels: the symbol of the first, which makes
/// the partials it takes after the launch's inputs (TileOps.td).
inline constexpr llvm::StringLiteral kPartialsFromAttrName = "partials_from";

/// Parses the symbol name, the sizes (where the op has them), the buffers,
/// the optional attributes and the body; records the number of inputs in
/// the attribute `numInputsName`.
mlir::ParseResult parseKernel(mlir::OpAsmParser &parser,
                              mlir::OperationState &result,
                              mlir::StringAttr numInputsName);

/// Prints what parseKernel parses.
void printKernel(mlir::OpAsmPrinter &printer, mlir::Operation *op,
                 mlir::StringRef name, unsigned numInputs,
                 mlir::StringAttr numInputsName);

/// Verifies `numInputs` against the body's buffers, that every buffer is a
/// memref whose dynamic sizes are sizes of the op (`buffer_dims`), that the
/// sizes are `index` arguments with ranges 1 <= min <= max (and hints in
/// them), and that there is at least one output.
llvm::LogicalResult verifyKernelBuffers(mlir::Operation *op, mlir::Block &body,
                                        int64_t numInputs);

/// The (inputs, outputs) buffers of a kernel op of either level: a symbol
/// with a `num_inputs` attribute and a body whose block arguments are its
/// buffers, then its `num_sizes` sizes. None for any other op.
std::optional<std::pair<llvm::ArrayRef<mlir::BlockArgument>,
                        llvm::ArrayRef<mlir::BlockArgument>>>
getKernelBuffers(mlir::Operation *op);

/// The dynamic sizes of a kernel op (its trailing `num_sizes` block
/// arguments); empty for one without.
llvm::ArrayRef<mlir::BlockArgument> getKernelSizes(mlir::Operation *op);

/// The size arguments that the `?` sizes of `buffer`, a buffer of kernel
/// op `op`, are (`buffer_dims`), in order.
llvm::SmallVector<mlir::BlockArgument>
getKernelBufferSizes(mlir::Operation *op, mlir::BlockArgument buffer);

/// The values of `map`, an affine map of no dimensions (a grid map), at
/// `symbols`.
llvm::SmallVector<int64_t> evaluateSizeMap(mlir::AffineMap map,
                                           llvm::ArrayRef<int64_t> symbols);

/// The ranges (min, max) of a kernel op's sizes, from `size_ranges`.
llvm::SmallVector<std::pair<int64_t, int64_t>>
getKernelSizeRanges(mlir::Operation *op);

/// Verifies a grid map of kernel op `op` against its `grid`: no dimensions,
/// one symbol per size, one result per grid dimension, equal to `grid` at
/// the sizes' maxima, positive at their minima, and within CUDA's grid
/// limits at the maxima.
llvm::LogicalResult verifyGridMap(mlir::Operation *op, mlir::AffineMap map,
                                  llvm::ArrayRef<int64_t> grid);

/// `[T, S]`: the names of a launch's sizes (none: nothing). The custom
/// directive `custom<SizeNames>($sizes)` of the launch ops of Loop and Tile
/// IR.
mlir::ParseResult parseSizeNames(mlir::OpAsmParser &parser,
                                 mlir::ArrayAttr &sizes);
void printSizeNames(mlir::OpAsmPrinter &printer, mlir::Operation *op,
                    mlir::ArrayAttr sizes);

/// Verifies a launch of `kernel` (a kernel op of either level) on tensors:
/// the sizes it passes by name are the kernel's in number and declared by
/// the enclosing function; inputs and outputs match the kernel's buffers in
/// number, shape and element type, and each `?` is named as the size its
/// buffer's `?` is given.
llvm::LogicalResult verifyKernelLaunch(mlir::Operation *launch,
                                       mlir::FlatSymbolRefAttr kernel,
                                       mlir::ArrayAttr sizeNames,
                                       mlir::ValueRange inputs,
                                       mlir::ValueRange outputs,
                                       mlir::SymbolTableCollection &symbols);

/// Verifies a launch of `kernel` (verifyKernelLaunch) and its `buckets`
/// (when it has them): kernels launched as `kernel` is (or, where one
/// names `partials_from`, that kernel on the inputs and it on the inputs
/// and the partials), each named once,
/// whose declared ranges differ in one size only, along which the ranges
/// of `kernel` and its buckets follow each other without gaps or overlaps.
llvm::LogicalResult verifyLaunchBuckets(mlir::Operation *launch,
                                        mlir::FlatSymbolRefAttr kernel,
                                        mlir::ArrayAttr buckets,
                                        mlir::ArrayAttr sizeNames,
                                        mlir::ValueRange inputs,
                                        mlir::ValueRange outputs,
                                        mlir::SymbolTableCollection &symbols);
/// Whether anything after `launch` (in its block, a terminator included)
/// uses `value`: a launch's buffer that a later step still reads.
bool isUsedAfter(mlir::Value value, mlir::Operation *launch);

/// Verifies a launch's `updates` (when it has them): one entry per output,
/// -1 or the index of an input of the output's type, no input twice.
llvm::LogicalResult verifyLaunchUpdates(mlir::Operation *launch,
                                        std::optional<llvm::ArrayRef<int64_t>> updates,
                                        mlir::ValueRange inputs,
                                        mlir::ValueRange outputs);

} // namespace xtile

#endif // XTILE_SUPPORT_KERNELSIGNATURE_H
