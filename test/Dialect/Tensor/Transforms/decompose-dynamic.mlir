// RUN: xtile-opt %s --xtensor-decompose | FileCheck %s
// RUN: xtile-opt %s --xtensor-decompose --xtensor-normalize | FileCheck %s --check-prefix=NORM
// RUN: xtile-opt %s --xtensor-decompose --xtensor-specialize-dims="sizes=T=5" --xtensor-normalize | FileCheck %s --check-prefix=STATIC

// Composites on tensors with dynamic sizes decompose as on static ones;
// their constants, which have static sizes, are broadcast to the dynamic
// shape. Specialized afterwards, the broadcasts of constants fold away.

#T = #xtensor.dims<T>

// CHECK-LABEL: func.func @rms_norm(
// CHECK: %[[SQ:.*]] = xtensor.mul %{{.*}}, %{{.*}} : tensor<?x64xf32, #xtensor.dims<T>>
// CHECK: %[[SUM:.*]] = xtensor.reduce sum %[[SQ]] dims [1] keepdim : tensor<?x64xf32, #xtensor.dims<T>> -> tensor<?x1xf32, #xtensor.dims<T>>
// CHECK: %[[N:.*]] = xtensor.constant dense<6.400000e+01> : tensor<1x1xf32>
// CHECK: %[[NB:.*]] = xtensor.broadcast %[[N]] : tensor<1x1xf32> -> tensor<?x1xf32, #xtensor.dims<T>>
// CHECK: xtensor.div %[[SUM]], %[[NB]] : tensor<?x1xf32, #xtensor.dims<T>>
// NORM-LABEL: func.func @rms_norm(
// NORM-NOT: xtensor.constant {{.*}} : tensor<?
// STATIC-LABEL: func.func @rms_norm(
// STATIC: xtensor.constant dense<6.400000e+01> : tensor<5x1xf32>
// STATIC-NOT: xtensor.broadcast %{{.*}} : tensor<1x1xf32>
func.func @rms_norm(%x: tensor<?x64xf32, #T>, %w: tensor<64xf32>) -> tensor<?x64xf32, #T>
    attributes {xtensor.symbols = {T = array<i64: 1, 4096>}} {
  %y = xtensor.rms_norm %x weight %w eps 1.0e-6
      : (tensor<?x64xf32, #T>, tensor<64xf32>) -> tensor<?x64xf32, #T>
  return %y : tensor<?x64xf32, #T>
}

// CHECK-LABEL: func.func @softmax_bf16(
// CHECK: xtensor.cast %{{.*}} : tensor<?x100xbf16, #xtensor.dims<T>> -> tensor<?x100xf32, #xtensor.dims<T>>
// CHECK: xtensor.reduce max %{{.*}} dims [1] keepdim : tensor<?x100xf32, #xtensor.dims<T>> -> tensor<?x1xf32, #xtensor.dims<T>>
// CHECK: xtensor.exp %{{.*}} : tensor<?x100xf32, #xtensor.dims<T>>
// CHECK: xtensor.cast %{{.*}} : tensor<?x100xf32, #xtensor.dims<T>> -> tensor<?x100xbf16, #xtensor.dims<T>>
func.func @softmax_bf16(%x: tensor<?x100xbf16, #T>) -> tensor<?x100xbf16, #T>
    attributes {xtensor.symbols = {T = array<i64: 1, 4096>}} {
  %y = xtensor.softmax %x dim 1 : tensor<?x100xbf16, #T>
  return %y : tensor<?x100xbf16, #T>
}

// A norm over two trailing dimensions is one over their product.
// CHECK-LABEL: func.func @layer_norm_2d(
// CHECK: xtensor.reshape %{{.*}} : tensor<?x4x8xf32, #xtensor.dims<T>> -> tensor<?x32xf32, #xtensor.dims<T>>
// CHECK: xtensor.reduce sum %{{.*}} dims [1] keepdim : tensor<?x32xf32, #xtensor.dims<T>> -> tensor<?x1xf32, #xtensor.dims<T>>
// CHECK: xtensor.reshape %{{.*}} : tensor<?x32xf32, #xtensor.dims<T>> -> tensor<?x4x8xf32, #xtensor.dims<T>>
func.func @layer_norm_2d(%x: tensor<?x4x8xf32, #T>, %w: tensor<4x8xf32>) -> tensor<?x4x8xf32, #T>
    attributes {xtensor.symbols = {T = array<i64: 1, 4096>}} {
  %y = xtensor.layer_norm %x weight %w eps 1.0e-5 {norm_rank = 2 : i64}
      : (tensor<?x4x8xf32, #T>, tensor<4x8xf32>) -> tensor<?x4x8xf32, #T>
  return %y : tensor<?x4x8xf32, #T>
}

// The rows of a linear layer are the dynamic size.
// CHECK-LABEL: func.func @linear(
// CHECK: xtensor.transpose %{{.*}} perm [1, 0] : tensor<32x64xf32> -> tensor<64x32xf32>
// CHECK: xtensor.reshape %{{.*}} : tensor<1x?x64xf32, #xtensor.dims<T>> -> tensor<?x64xf32, #xtensor.dims<T>>
// CHECK: xtensor.matmul %{{.*}}, %{{.*}} : tensor<?x64xf32, #xtensor.dims<T>>, tensor<64x32xf32> -> tensor<?x32xf32, #xtensor.dims<T>>
// CHECK: xtensor.reshape %{{.*}} : tensor<?x32xf32, #xtensor.dims<T>> -> tensor<1x?x32xf32, #xtensor.dims<T>>
func.func @linear(%x: tensor<1x?x64xf32, #T>, %w: tensor<32x64xf32>) -> tensor<1x?x32xf32, #T>
    attributes {xtensor.symbols = {T = array<i64: 1, 4096>}} {
  %y = xtensor.linear %x, %w : (tensor<1x?x64xf32, #T>, tensor<32x64xf32>) -> tensor<1x?x32xf32, #T>
  return %y : tensor<1x?x32xf32, #T>
}

// A batch of rows of a dynamic length ([2, T, 64], [B, T, 64]): their
// product is no one size, so the matmul is batched over the leading sizes
// but the last, the weight broadcast over the batch; unit sizes dropped.
// CHECK-LABEL: func.func @linear_batch(
// CHECK: %[[WT:.*]] = xtensor.transpose %{{.*}} perm [1, 0] : tensor<32x64xf32> -> tensor<64x32xf32>
// CHECK: %[[WB:.*]] = xtensor.broadcast %[[WT]] : tensor<64x32xf32> -> tensor<2x64x32xf32>
// CHECK: %[[X:.*]] = xtensor.reshape %{{.*}} : tensor<2x1x?x64xf32, #xtensor.dims<T>> -> tensor<2x?x64xf32, #xtensor.dims<T>>
// CHECK: xtensor.matmul %[[X]], %[[WB]] : tensor<2x?x64xf32, #xtensor.dims<T>>, tensor<2x64x32xf32> -> tensor<2x?x32xf32, #xtensor.dims<T>>
// CHECK: xtensor.reshape %{{.*}} : tensor<2x?x32xf32, #xtensor.dims<T>> -> tensor<2x1x?x32xf32, #xtensor.dims<T>>
func.func @linear_batch(%x: tensor<2x1x?x64xf32, #T>, %w: tensor<32x64xf32>) -> tensor<2x1x?x32xf32, #T>
    attributes {xtensor.symbols = {T = array<i64: 1, 4096>}} {
  %y = xtensor.linear %x, %w : (tensor<2x1x?x64xf32, #T>, tensor<32x64xf32>) -> tensor<2x1x?x32xf32, #T>
  return %y : tensor<2x1x?x32xf32, #T>
}

// CHECK-LABEL: func.func @linear_dynamic_batch(
// CHECK: %[[WB:.*]] = xtensor.broadcast %{{.*}} : tensor<64x32xf32> -> tensor<?x64x32xf32, #xtensor.dims<B>>
// CHECK: xtensor.matmul %{{.*}}, %[[WB]] : tensor<?x?x64xf32, #xtensor.dims<B, T>>, tensor<?x64x32xf32, #xtensor.dims<B>> -> tensor<?x?x32xf32, #xtensor.dims<B, T>>
// CHECK-NOT: xtensor.reshape
func.func @linear_dynamic_batch(%x: tensor<?x?x64xf32, #xtensor.dims<B, T>>, %w: tensor<32x64xf32>) -> tensor<?x?x32xf32, #xtensor.dims<B, T>>
    attributes {xtensor.symbols = {B = array<i64: 1, 16>, T = array<i64: 1, 4096>}} {
  %y = xtensor.linear %x, %w : (tensor<?x?x64xf32, #xtensor.dims<B, T>>, tensor<32x64xf32>) -> tensor<?x?x32xf32, #xtensor.dims<B, T>>
  return %y : tensor<?x?x32xf32, #xtensor.dims<B, T>>
}
