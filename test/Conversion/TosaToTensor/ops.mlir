// RUN: xtile-opt %s --convert-tosa-to-xtensor --split-input-file | FileCheck %s

// A softmax as torch-mlir writes it in TOSA: reductions keep their dim,
// unit dims broadcast explicitly, mul's zero shift and the constant go.
// CHECK-LABEL: func.func @softmax(
// CHECK-NOT:     tosa.
// CHECK:         %[[MAX:.*]] = xtensor.reduce max %arg0 dims [1] keepdim : tensor<4x64xf32> -> tensor<4x1xf32>
// CHECK:         %[[B:.*]] = xtensor.broadcast %[[MAX]] : tensor<4x1xf32> -> tensor<4x64xf32>
// CHECK:         %[[D:.*]] = xtensor.sub %arg0, %[[B]] : tensor<4x64xf32>
// CHECK:         %[[E:.*]] = xtensor.exp %[[D]] : tensor<4x64xf32>
// CHECK:         %[[S:.*]] = xtensor.reduce sum %[[E]] dims [1] keepdim : tensor<4x64xf32> -> tensor<4x1xf32>
// CHECK:         %[[R:.*]] = xtensor.reciprocal %[[S]] : tensor<4x1xf32>
// CHECK:         %[[RB:.*]] = xtensor.broadcast %[[R]] : tensor<4x1xf32> -> tensor<4x64xf32>
// CHECK:         %[[Y:.*]] = xtensor.mul %[[E]], %[[RB]] : tensor<4x64xf32>
// CHECK:         return %[[Y]]
func.func @softmax(%arg0: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %1 = tosa.reduce_max %arg0 {axis = 1 : i32} : (tensor<4x64xf32>) -> tensor<4x1xf32>
  %2 = tosa.sub %arg0, %1 : (tensor<4x64xf32>, tensor<4x1xf32>) -> tensor<4x64xf32>
  %3 = tosa.exp %2 : (tensor<4x64xf32>) -> tensor<4x64xf32>
  %4 = tosa.reduce_sum %3 {axis = 1 : i32} : (tensor<4x64xf32>) -> tensor<4x1xf32>
  %5 = tosa.reciprocal %4 : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %6 = tosa.mul %3, %5, %0 : (tensor<4x64xf32>, tensor<4x1xf32>, tensor<1xi8>) -> tensor<4x64xf32>
  return %6 : tensor<4x64xf32>
}

// -----

// A linear layer: transpose, reshapes through tosa.const_shape, a batched
// matmul with zero points, a broadcast bias; clamp, slice, pad, concat.
// CHECK-LABEL: func.func @linear(
// CHECK:         %[[T:.*]] = xtensor.transpose %arg1 perm [1, 0] : tensor<16x32xf32> -> tensor<32x16xf32>
// CHECK:         %[[X3:.*]] = xtensor.reshape %arg0 : tensor<8x32xf32> -> tensor<1x8x32xf32>
// CHECK:         %[[W3:.*]] = xtensor.reshape %[[T]] : tensor<32x16xf32> -> tensor<1x32x16xf32>
// CHECK:         %[[M:.*]] = xtensor.matmul %[[X3]], %[[W3]] : tensor<1x8x32xf32>, tensor<1x32x16xf32> -> tensor<1x8x16xf32>
// CHECK:         %[[M2:.*]] = xtensor.reshape %[[M]] : tensor<1x8x16xf32> -> tensor<8x16xf32>
// CHECK:         %[[C:.*]] = xtensor.max %[[M2]], %{{.*}} : tensor<8x16xf32>
// CHECK:         %[[C2:.*]] = xtensor.min %[[C]], %{{.*}} : tensor<8x16xf32>
// CHECK:         %[[S:.*]] = xtensor.slice %[[C2]] starts [0, 4] limits [8, 12] strides [1, 1] : tensor<8x16xf32> -> tensor<8x8xf32>
// CHECK:         %[[P:.*]] = xtensor.pad %[[S]] low [1, 0] high [0, 2] value 0.000000e+00 : f32 : tensor<8x8xf32> -> tensor<9x10xf32>
// CHECK:         xtensor.concat %[[P]], %[[P]] dim 0 : tensor<9x10xf32>, tensor<9x10xf32> -> tensor<18x10xf32>
func.func @linear(%x: tensor<8x32xf32>, %w: tensor<16x32xf32>) -> tensor<18x10xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s3x = tosa.const_shape {values = dense<[1, 8, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s3w = tosa.const_shape {values = dense<[1, 32, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s2 = tosa.const_shape {values = dense<[8, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %t = tosa.transpose %w {perms = array<i32: 1, 0>} : (tensor<16x32xf32>) -> tensor<32x16xf32>
  %x3 = tosa.reshape %x, %s3x : (tensor<8x32xf32>, !tosa.shape<3>) -> tensor<1x8x32xf32>
  %w3 = tosa.reshape %t, %s3w : (tensor<32x16xf32>, !tosa.shape<3>) -> tensor<1x32x16xf32>
  %m = tosa.matmul %x3, %w3, %zp, %zp : (tensor<1x8x32xf32>, tensor<1x32x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x16xf32>
  %m2 = tosa.reshape %m, %s2 : (tensor<1x8x16xf32>, !tosa.shape<2>) -> tensor<8x16xf32>
  %c = tosa.clamp %m2 {min_val = -1.0 : f32, max_val = 1.0 : f32} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %start = tosa.const_shape {values = dense<[0, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[8, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s = tosa.slice %c, %start, %size : (tensor<8x16xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<8x8xf32>
  %pads = tosa.const_shape {values = dense<[1, 0, 0, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %pv = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %p = tosa.pad %s, %pads, %pv : (tensor<8x8xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<9x10xf32>
  %k = tosa.concat %p, %p {axis = 0 : i32} : (tensor<9x10xf32>, tensor<9x10xf32>) -> tensor<18x10xf32>
  return %k : tensor<18x10xf32>
}

// -----

// An embedding lookup as torch-mlir writes it: tosa.gather over [N, K, C]
// with [N, W] indices becomes one gather along the rows of the values
// flattened to [N*K, C]; the indices of batch n are offset by n*K.
// CHECK-LABEL: func.func @embedding(
// CHECK:         %[[F:.*]] = xtensor.reshape %arg0 : tensor<1x100x16xf32> -> tensor<100x16xf32>
// CHECK:         %[[I:.*]] = xtensor.reshape %arg1 : tensor<1x7xi32> -> tensor<7xi32>
// CHECK:         %[[G:.*]] = xtensor.gather %[[F]][%[[I]]] axis 0 : tensor<100x16xf32>, tensor<7xi32> -> tensor<7x16xf32>
// CHECK:         %[[R:.*]] = xtensor.reshape %[[G]] : tensor<7x16xf32> -> tensor<1x7x16xf32>
// CHECK:         return %[[R]]
func.func @embedding(%arg0: tensor<1x100x16xf32>, %arg1: tensor<1x7xi32>) -> tensor<1x7x16xf32> {
  %0 = tosa.gather %arg0, %arg1 : (tensor<1x100x16xf32>, tensor<1x7xi32>) -> tensor<1x7x16xf32>
  return %0 : tensor<1x7x16xf32>
}

// -----

// CHECK-LABEL: func.func @batched_gather(
// CHECK:         %[[F:.*]] = xtensor.reshape %arg0 : tensor<3x10x4xf16> -> tensor<30x4xf16>
// CHECK:         %[[ROW:.*]] = xtensor.iota dim 0 : tensor<3x5xi32>
// CHECK:         %[[K:.*]] = xtensor.constant dense<10> : tensor<3x5xi32>
// CHECK:         %[[OFF:.*]] = xtensor.mul %[[ROW]], %[[K]] : tensor<3x5xi32>
// CHECK:         %[[IDS:.*]] = xtensor.add %arg1, %[[OFF]] : tensor<3x5xi32>
// CHECK:         %[[I:.*]] = xtensor.reshape %[[IDS]] : tensor<3x5xi32> -> tensor<15xi32>
// CHECK:         %[[G:.*]] = xtensor.gather %[[F]][%[[I]]] axis 0 : tensor<30x4xf16>, tensor<15xi32> -> tensor<15x4xf16>
// CHECK:         xtensor.reshape %[[G]] : tensor<15x4xf16> -> tensor<3x5x4xf16>
func.func @batched_gather(%arg0: tensor<3x10x4xf16>, %arg1: tensor<3x5xi32>) -> tensor<3x5x4xf16> {
  %0 = tosa.gather %arg0, %arg1 : (tensor<3x10x4xf16>, tensor<3x5xi32>) -> tensor<3x5x4xf16>
  return %0 : tensor<3x5x4xf16>
}

// -----

// A convolution is a contraction over the padded input's patches: the
// row each patch element reads, ((n*H + oh*sh + kh*dh) * W + ow*sw +
// kw*dw) of the input flattened to [N*H*W, C], gathered (im2col); times
// the weight [O, KH*KW*C] transposed; plus the bias. bf16 accumulates in
// f32 and rounds once.
// CHECK-LABEL: func.func @conv2d(
// CHECK:         %[[P:.*]] = xtensor.pad %arg0 low [0, 1, 0, 0] high [0, 2, 1, 0] value 0.000000e+00 : bf16 : tensor<2x5x6x3xbf16> -> tensor<2x8x7x3xbf16>
// CHECK-DAG:     xtensor.constant dense<8> : tensor<2x3x3x2x2xi64>
// CHECK-DAG:     xtensor.constant dense<7> : tensor<2x3x3x2x2xi64>
// CHECK-DAG:     xtensor.constant dense<3> : tensor<2x3x3x2x2xi64>
// CHECK:         %[[ROWS:.*]] = xtensor.reshape %[[P]] : tensor<2x8x7x3xbf16> -> tensor<112x3xbf16>
// CHECK:         %[[G:.*]] = xtensor.gather %[[ROWS]][%{{.*}}] axis 0 : tensor<112x3xbf16>, tensor<2x3x3x2x2xi64> -> tensor<2x3x3x2x2x3xbf16>
// CHECK:         %[[COLS:.*]] = xtensor.reshape %[[G]] : tensor<2x3x3x2x2x3xbf16> -> tensor<18x12xbf16>
// CHECK:         %[[W:.*]] = xtensor.reshape %arg1 : tensor<4x2x2x3xbf16> -> tensor<4x12xbf16>
// CHECK:         %[[WT:.*]] = xtensor.transpose %[[W]] perm [1, 0] : tensor<4x12xbf16> -> tensor<12x4xbf16>
// CHECK:         %[[MM:.*]] = xtensor.matmul %[[COLS]], %[[WT]] : tensor<18x12xbf16>, tensor<12x4xbf16> -> tensor<18x4xf32>
// CHECK:         %[[Y:.*]] = xtensor.reshape %[[MM]] : tensor<18x4xf32> -> tensor<2x3x3x4xf32>
// CHECK:         %[[B:.*]] = xtensor.cast %arg2 : tensor<4xbf16> -> tensor<4xf32>
// CHECK:         %[[BB:.*]] = xtensor.broadcast %[[B]] : tensor<4xf32> -> tensor<2x3x3x4xf32>
// CHECK:         %[[S:.*]] = xtensor.add %[[Y]], %[[BB]] : tensor<2x3x3x4xf32>
// CHECK:         %[[R:.*]] = xtensor.cast %[[S]] : tensor<2x3x3x4xf32> -> tensor<2x3x3x4xbf16>
// CHECK:         return %[[R]]
func.func @conv2d(%x: tensor<2x5x6x3xbf16>, %w: tensor<4x2x2x3xbf16>, %b: tensor<4xbf16>) -> tensor<2x3x3x4xbf16> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 2>, pad = array<i64: 1, 2, 0, 1>, stride = array<i64: 3, 2>} : (tensor<2x5x6x3xbf16>, tensor<4x2x2x3xbf16>, tensor<4xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<2x3x3x4xbf16>
  return %y : tensor<2x3x3x4xbf16>
}
