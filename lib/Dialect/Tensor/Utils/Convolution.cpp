//===- Convolution.cpp - convolutions as contractions in Tensor IR --------===//

#include "xtile/Dialect/Tensor/Utils/Convolution.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "xtile/Dialect/Tensor/IR/TensorOps.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
namespace xt = xtile::tensor;

FailureOr<Value> xt::buildConvolution2D(OpBuilder &b, Location loc,
                                        Value input, Value weight,
                                        ArrayRef<int64_t> strides,
                                        ArrayRef<int64_t> dilations,
                                        Type resultElement) {
  auto xType = dyn_cast<RankedTensorType>(input.getType());
  auto wType = dyn_cast<RankedTensorType>(weight.getType());
  if (!xType || !wType || !xType.hasStaticShape() || !wType.hasStaticShape() ||
      xType.getRank() != 4 || wType.getRank() != 4)
    return emitError(loc, "a convolution needs a static input [N, H, W, C] "
                          "and weight [O, KH, KW, C]");
  int64_t n = xType.getDimSize(0), h = xType.getDimSize(1),
          w = xType.getDimSize(2), ch = xType.getDimSize(3);
  int64_t o = wType.getDimSize(0), kh = wType.getDimSize(1),
          kw = wType.getDimSize(2);
  if (wType.getDimSize(3) != ch)
    return emitError(loc, "a convolution's weight has ")
           << wType.getDimSize(3) << " input channels for an input of " << ch;
  if (strides.size() != 2 || dilations.size() != 2 || strides[0] < 1 ||
      strides[1] < 1 || dilations[0] < 1 || dilations[1] < 1)
    return emitError(loc, "a convolution needs two positive strides and "
                          "dilations");
  int64_t spanH = dilations[0] * (kh - 1) + 1,
          spanW = dilations[1] * (kw - 1) + 1;
  if (kh < 1 || kw < 1 || spanH > h || spanW > w)
    return emitError(loc, "a convolution's dilated kernel ")
           << spanH << "x" << spanW << " is larger than its padded input "
           << h << "x" << w;
  int64_t oh = (h - spanH) / strides[0] + 1, ow = (w - spanW) / strides[1] + 1;
  int64_t pixels, rows, k, patches;
  auto product = [](std::initializer_list<int64_t> factors, int64_t &out) {
    out = 1;
    for (int64_t f : factors)
      if (llvm::MulOverflow(out, f, out))
        return true;
    return false;
  };
  if (product({n, h, w}, pixels) || product({n, oh, ow}, rows) ||
      product({kh, kw, ch}, k) || product({rows, k}, patches))
    return emitError(loc, "a convolution's sizes overflow 64 bits");

  // The row of the input (flattened to [N*H*W, C]) that each patch element
  // reads: ((n * H + oh * sh + kh * dh) * W + ow * sw + kw * dw.
  auto indexType = RankedTensorType::get({n, oh, ow, kh, kw}, b.getI64Type());
  auto scaled = [&](Value v, int64_t scale) -> Value {
    return MulOp::create(
        b, loc, v,
        ConstantOp::create(b, loc,
                           DenseElementsAttr::get(indexType,
                                                  b.getI64IntegerAttr(scale))));
  };
  auto iota = [&](int64_t dim, int64_t scale) -> Value {
    Value v = IotaOp::create(b, loc, indexType, dim);
    return scale == 1 ? v : scaled(v, scale);
  };
  auto add = [&](Value x, Value y) -> Value {
    return AddOp::create(b, loc, x, y);
  };
  Value height =
      add(iota(0, h), add(iota(1, strides[0]), iota(3, dilations[0])));
  Value across = add(iota(2, strides[1]), iota(4, dilations[1]));
  Value at = add(scaled(height, w), across);
  Type element = xType.getElementType();
  Value flat = ReshapeOp::create(
      b, loc, RankedTensorType::get({pixels, ch}, element), input);
  Value gathered = GatherOp::create(b, loc, flat, at, /*axis=*/0);
  Value cols = ReshapeOp::create(
      b, loc, RankedTensorType::get({rows, k}, element), gathered);
  Value filter = ReshapeOp::create(
      b, loc, RankedTensorType::get({o, k}, wType.getElementType()), weight);
  filter = TransposeOp::create(b, loc, filter, ArrayRef<int64_t>{1, 0});
  Value y = MatmulOp::create(
      b, loc, RankedTensorType::get({rows, o}, resultElement), cols, filter);
  return (Value)ReshapeOp::create(
      b, loc, RankedTensorType::get({n, oh, ow, o}, resultElement), y);
}
