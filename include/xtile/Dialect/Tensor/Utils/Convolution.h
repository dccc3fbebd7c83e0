//===- Convolution.h - convolutions as contractions in Tensor IR -*- C++ -*-===//
//
// Tensor IR has no convolution op: a convolution is a contraction over the
// input's patches (im2col), as the PyTorch importer builds it
// (python/xtile/importer/convolution.py). The conversions from other
// front ends' convolutions (tosa.conv2d, linalg.conv_2d_*) build it here.
//
//===----------------------------------------------------------------------===//

#ifndef XTILE_DIALECT_TENSOR_UTILS_CONVOLUTION_H
#define XTILE_DIALECT_TENSOR_UTILS_CONVOLUTION_H

#include "mlir/IR/Builders.h"
#include "mlir/Support/LLVM.h"

namespace xtile::tensor {

/// The 2-D convolution of `input` [N, H, W, C], already padded, with
/// `weight` [O, KH, KW, C] at `strides` and `dilations` (height, width): the
/// patches gathered into rows [N*OH*OW, KH*KW*C] by one xtensor.gather,
/// times the weight flattened to [KH*KW*C, O] (one xtensor.matmul, so the
/// contraction schedules apply), reshaped to [N, OH, OW, O], where OH =
/// (H - dilation * (KH - 1) - 1) / stride + 1 (OW alike). The result has
/// `resultElement` (f32 for 16-bit float operands: the unrounded
/// accumulator). Static shapes only; emits an error at `loc` and fails
/// for shapes that do not form a convolution.
mlir::FailureOr<mlir::Value>
buildConvolution2D(mlir::OpBuilder &b, mlir::Location loc, mlir::Value input,
                   mlir::Value weight, llvm::ArrayRef<int64_t> strides,
                   llvm::ArrayRef<int64_t> dilations,
                   mlir::Type resultElement);

} // namespace xtile::tensor

#endif // XTILE_DIALECT_TENSOR_UTILS_CONVOLUTION_H
