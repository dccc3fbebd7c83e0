// RUN: xtile-opt %s --xtensor-decompose | FileCheck %s

// Only composites change: the decomposition of each is spelled out in full.

// CHECK-LABEL: func.func @rms_norm(
// CHECK-SAME:    %[[X:.*]]: tensor<8x32xf32>, %[[W:.*]]: tensor<32xf32>)
// CHECK:         %[[SQ:.*]] = xtensor.mul %[[X]], %[[X]] : tensor<8x32xf32>
// CHECK:         %[[S:.*]] = xtensor.reduce sum %[[SQ]] dims [1] keepdim : tensor<8x32xf32> -> tensor<8x1xf32>
// CHECK:         %[[N:.*]] = xtensor.constant dense<3.200000e+01> : tensor<8x1xf32>
// CHECK:         %[[M:.*]] = xtensor.div %[[S]], %[[N]] : tensor<8x1xf32>
// CHECK:         %[[EPS:.*]] = xtensor.constant dense<9.99999997E-7> : tensor<8x1xf32>
// CHECK:         %[[E:.*]] = xtensor.add %[[M]], %[[EPS]] : tensor<8x1xf32>
// CHECK:         %[[R:.*]] = xtensor.rsqrt %[[E]] : tensor<8x1xf32>
// CHECK:         %[[RB:.*]] = xtensor.broadcast %[[R]] : tensor<8x1xf32> -> tensor<8x32xf32>
// CHECK:         %[[XR:.*]] = xtensor.mul %[[X]], %[[RB]] : tensor<8x32xf32>
// CHECK:         %[[WB:.*]] = xtensor.broadcast %[[W]] : tensor<32xf32> -> tensor<8x32xf32>
// CHECK:         %[[Y:.*]] = xtensor.mul %[[XR]], %[[WB]] : tensor<8x32xf32>
// CHECK:         return %[[Y]]
// CHECK-NOT:     xtensor.rms_norm
func.func @rms_norm(%x: tensor<8x32xf32>, %w: tensor<32xf32>) -> tensor<8x32xf32> {
  %y = xtensor.rms_norm %x weight %w eps 1.0e-6
      : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}

// Without a weight, over the last two dimensions, in bf16: computed in f32
// (PyTorch's opmath) and rounded once; the two normalized dimensions are
// one reduction over their product.
// CHECK-LABEL: func.func @rms_norm_2d_no_weight(
// CHECK-SAME:    %[[X:.*]]: tensor<2x4x8xbf16>)
// CHECK:         %[[XW:.*]] = xtensor.cast %[[X]] : tensor<2x4x8xbf16> -> tensor<2x4x8xf32>
// CHECK:         %[[XF:.*]] = xtensor.reshape %[[XW]] : tensor<2x4x8xf32> -> tensor<2x32xf32>
// CHECK:         xtensor.reduce sum %{{.*}} dims [1] keepdim : tensor<2x32xf32> -> tensor<2x1xf32>
// CHECK:         xtensor.constant dense<3.200000e+01> : tensor<2x1xf32>
// CHECK:         %[[Y:.*]] = xtensor.mul %[[XF]], %{{.*}} : tensor<2x32xf32>
// CHECK-NEXT:    %[[YS:.*]] = xtensor.reshape %[[Y]] : tensor<2x32xf32> -> tensor<2x4x8xf32>
// CHECK-NEXT:    %[[YN:.*]] = xtensor.cast %[[YS]] : tensor<2x4x8xf32> -> tensor<2x4x8xbf16>
// CHECK-NEXT:    return %[[YN]]
func.func @rms_norm_2d_no_weight(%x: tensor<2x4x8xbf16>) -> tensor<2x4x8xbf16> {
  %y = xtensor.rms_norm %x eps 1.0e-5 {norm_rank = 2 : i64}
      : (tensor<2x4x8xbf16>) -> tensor<2x4x8xbf16>
  return %y : tensor<2x4x8xbf16>
}

// CHECK-LABEL: func.func @layer_norm(
// CHECK-SAME:    %[[X:.*]]: tensor<4x16xf32>, %[[W:.*]]: tensor<16xf32>, %[[B:.*]]: tensor<16xf32>)
// CHECK:         %[[S:.*]] = xtensor.reduce sum %[[X]] dims [1] keepdim
// CHECK:         %[[N:.*]] = xtensor.constant dense<1.600000e+01> : tensor<4x1xf32>
// CHECK:         %[[MEAN:.*]] = xtensor.div %[[S]], %[[N]]
// CHECK:         %[[MB:.*]] = xtensor.broadcast %[[MEAN]] : tensor<4x1xf32> -> tensor<4x16xf32>
// CHECK:         %[[D:.*]] = xtensor.sub %[[X]], %[[MB]]
// CHECK:         %[[D2:.*]] = xtensor.mul %[[D]], %[[D]]
// CHECK:         %[[S2:.*]] = xtensor.reduce sum %[[D2]] dims [1] keepdim
// CHECK:         %[[N2:.*]] = xtensor.constant dense<1.600000e+01> : tensor<4x1xf32>
// CHECK:         %[[VAR:.*]] = xtensor.div %[[S2]], %[[N2]]
// CHECK:         %[[EPS:.*]] = xtensor.constant dense<9.99999974E-6> : tensor<4x1xf32>
// CHECK:         %[[VE:.*]] = xtensor.add %[[VAR]], %[[EPS]]
// CHECK:         %[[R:.*]] = xtensor.rsqrt %[[VE]]
// CHECK:         %[[RB:.*]] = xtensor.broadcast %[[R]]
// CHECK:         %[[Y0:.*]] = xtensor.mul %[[D]], %[[RB]]
// CHECK:         %[[WB:.*]] = xtensor.broadcast %[[W]] : tensor<16xf32> -> tensor<4x16xf32>
// CHECK:         %[[Y1:.*]] = xtensor.mul %[[Y0]], %[[WB]]
// CHECK:         %[[BB:.*]] = xtensor.broadcast %[[B]] : tensor<16xf32> -> tensor<4x16xf32>
// CHECK:         %[[Y2:.*]] = xtensor.add %[[Y1]], %[[BB]]
// CHECK:         return %[[Y2]]
func.func @layer_norm(%x: tensor<4x16xf32>, %w: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %y = xtensor.layer_norm %x weight %w bias %b eps 1.0e-5
      : (tensor<4x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @softmax(
// CHECK-SAME:    %[[X:.*]]: tensor<4x10xf32>)
// CHECK:         %[[M:.*]] = xtensor.reduce max %[[X]] dims [0] keepdim : tensor<4x10xf32> -> tensor<1x10xf32>
// CHECK:         %[[MB:.*]] = xtensor.broadcast %[[M]] : tensor<1x10xf32> -> tensor<4x10xf32>
// CHECK:         %[[D:.*]] = xtensor.sub %[[X]], %[[MB]]
// CHECK:         %[[E:.*]] = xtensor.exp %[[D]]
// CHECK:         %[[S:.*]] = xtensor.reduce sum %[[E]] dims [0] keepdim
// CHECK:         %[[SB:.*]] = xtensor.broadcast %[[S]]
// CHECK:         %[[Y:.*]] = xtensor.div %[[E]], %[[SB]]
// CHECK:         return %[[Y]]
func.func @softmax(%x: tensor<4x10xf32>) -> tensor<4x10xf32> {
  %y = xtensor.softmax %x dim 0 : tensor<4x10xf32>
  return %y : tensor<4x10xf32>
}

// In f16: computed in f32, rounded once at the result.
// CHECK-LABEL: func.func @log_softmax(
// CHECK-SAME:    %[[XN:.*]]: tensor<4x10xf16>)
// CHECK:         %[[X:.*]] = xtensor.cast %[[XN]] : tensor<4x10xf16> -> tensor<4x10xf32>
// CHECK:         %[[M:.*]] = xtensor.reduce max %[[X]] dims [1] keepdim
// CHECK:         %[[MB:.*]] = xtensor.broadcast %[[M]]
// CHECK:         %[[D:.*]] = xtensor.sub %[[X]], %[[MB]]
// CHECK:         %[[E:.*]] = xtensor.exp %[[D]]
// CHECK:         %[[S:.*]] = xtensor.reduce sum %[[E]] dims [1] keepdim
// CHECK:         %[[L:.*]] = xtensor.log %[[S]] : tensor<4x1xf32>
// CHECK:         %[[LB:.*]] = xtensor.broadcast %[[L]]
// CHECK:         %[[Y:.*]] = xtensor.sub %[[D]], %[[LB]]
// CHECK:         %[[YN:.*]] = xtensor.cast %[[Y]] : tensor<4x10xf32> -> tensor<4x10xf16>
// CHECK:         return %[[YN]]
func.func @log_softmax(%x: tensor<4x10xf16>) -> tensor<4x10xf16> {
  %y = xtensor.log_softmax %x dim 1 : tensor<4x10xf16>
  return %y : tensor<4x10xf16>
}

// CHECK-LABEL: func.func @gelu_erf(
// CHECK-SAME:    %[[X:.*]]: tensor<8xf32>)
// CHECK:         %[[C:.*]] = xtensor.constant dense<0.707106769> : tensor<8xf32>
// CHECK:         %[[XS:.*]] = xtensor.mul %[[X]], %[[C]]
// CHECK:         %[[ERF:.*]] = xtensor.erf %[[XS]]
// CHECK:         %[[HALF:.*]] = xtensor.constant dense<5.000000e-01> : tensor<8xf32>
// CHECK:         %[[HX:.*]] = xtensor.mul %[[X]], %[[HALF]]
// CHECK:         %[[ONE:.*]] = xtensor.constant dense<1.000000e+00> : tensor<8xf32>
// CHECK:         %[[P:.*]] = xtensor.add %[[ERF]], %[[ONE]]
// CHECK:         %[[Y:.*]] = xtensor.mul %[[HX]], %[[P]]
// CHECK:         return %[[Y]]
func.func @gelu_erf(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = xtensor.gelu erf %x : tensor<8xf32>
  return %y : tensor<8xf32>
}

// CHECK-LABEL: func.func @gelu_tanh(
// CHECK-SAME:    %[[X:.*]]: tensor<8xf32>)
// CHECK:         %[[X2:.*]] = xtensor.mul %[[X]], %[[X]]
// CHECK:         %[[X3:.*]] = xtensor.mul %[[X2]], %[[X]]
// CHECK:         %[[K:.*]] = xtensor.constant dense<4.471500e-02>
// CHECK:         %[[KX3:.*]] = xtensor.mul %[[X3]], %[[K]]
// CHECK:         %[[IN:.*]] = xtensor.add %[[X]], %[[KX3]]
// x/2 (1 + tanh(u)) as x sigmoid(2u), u = sqrt(2/pi) (x + 0.044715 x^3).
// CHECK:         %[[B:.*]] = xtensor.constant dense<1.59576917>
// CHECK:         %[[BIN:.*]] = xtensor.mul %[[IN]], %[[B]]
// CHECK:         %[[S:.*]] = xtensor.sigmoid %[[BIN]]
// CHECK:         %[[Y:.*]] = xtensor.mul %[[X]], %[[S]]
// CHECK:         return %[[Y]]
func.func @gelu_tanh(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = xtensor.gelu tanh %x : tensor<8xf32>
  return %y : tensor<8xf32>
}

// CHECK-LABEL: func.func @silu(
// CHECK-SAME:    %[[X:.*]]: tensor<8xf32>)
// CHECK:         %[[S:.*]] = xtensor.sigmoid %[[X]]
// CHECK:         %[[Y:.*]] = xtensor.mul %[[X]], %[[S]]
// CHECK:         return %[[Y]]
func.func @silu(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = xtensor.silu %x : tensor<8xf32>
  return %y : tensor<8xf32>
}

// Mean without keepdim divides the reduced tensor by the element count.
// CHECK-LABEL: func.func @mean(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3x4xf32>)
// CHECK:         %[[S:.*]] = xtensor.reduce sum %[[X]] dims [0, 2] : tensor<2x3x4xf32> -> tensor<3xf32>
// CHECK:         %[[N:.*]] = xtensor.constant dense<8.000000e+00> : tensor<3xf32>
// CHECK:         %[[Y:.*]] = xtensor.div %[[S]], %[[N]]
// CHECK:         return %[[Y]]
func.func @mean(%x: tensor<2x3x4xf32>) -> tensor<3xf32> {
  %y = xtensor.mean %x dims [0, 2] : tensor<2x3x4xf32> -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// Unbiased variance (correction 1): sum of squares over n - 1 = 9.
// CHECK-LABEL: func.func @var(
// CHECK-SAME:    %[[X:.*]]: tensor<4x10xf32>)
// CHECK:         %[[S:.*]] = xtensor.reduce sum %[[X]] dims [1] keepdim
// CHECK:         %[[MEAN:.*]] = xtensor.div %[[S]], %{{.*}} : tensor<4x1xf32>
// CHECK:         %[[MB:.*]] = xtensor.broadcast %[[MEAN]]
// CHECK:         %[[D:.*]] = xtensor.sub %[[X]], %[[MB]]
// CHECK:         %[[D2:.*]] = xtensor.mul %[[D]], %[[D]]
// CHECK:         %[[SS:.*]] = xtensor.reduce sum %[[D2]] dims [1] : tensor<4x10xf32> -> tensor<4xf32>
// CHECK:         %[[DOF:.*]] = xtensor.constant dense<9.000000e+00> : tensor<4xf32>
// CHECK:         %[[Y:.*]] = xtensor.div %[[SS]], %[[DOF]]
// CHECK:         return %[[Y]]
func.func @var(%x: tensor<4x10xf32>) -> tensor<4xf32> {
  %y = xtensor.var %x dims [1] correction 1 : tensor<4x10xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// linear on a 3-D input: the [out, in] weight is transposed explicitly and
// the leading dimensions are flattened around a 2-D matmul.
// CHECK-LABEL: func.func @linear(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3x8xf32>, %[[W:.*]]: tensor<5x8xf32>, %[[B:.*]]: tensor<5xf32>)
// CHECK:         %[[WT:.*]] = xtensor.transpose %[[W]] perm [1, 0] : tensor<5x8xf32> -> tensor<8x5xf32>
// CHECK:         %[[XF:.*]] = xtensor.reshape %[[X]] : tensor<2x3x8xf32> -> tensor<6x8xf32>
// CHECK:         %[[MM:.*]] = xtensor.matmul %[[XF]], %[[WT]] : tensor<6x8xf32>, tensor<8x5xf32> -> tensor<6x5xf32>
// CHECK:         %[[Y:.*]] = xtensor.reshape %[[MM]] : tensor<6x5xf32> -> tensor<2x3x5xf32>
// CHECK:         %[[BB:.*]] = xtensor.broadcast %[[B]] : tensor<5xf32> -> tensor<2x3x5xf32>
// CHECK:         %[[YB:.*]] = xtensor.add %[[Y]], %[[BB]]
// CHECK:         return %[[YB]]
func.func @linear(%x: tensor<2x3x8xf32>, %w: tensor<5x8xf32>, %b: tensor<5xf32>) -> tensor<2x3x5xf32> {
  %y = xtensor.linear %x, %w, %b
      : (tensor<2x3x8xf32>, tensor<5x8xf32>, tensor<5xf32>) -> tensor<2x3x5xf32>
  return %y : tensor<2x3x5xf32>
}

// A 2-D input needs no reshape; no bias, no add.
// CHECK-LABEL: func.func @linear_2d(
// CHECK-SAME:    %[[X:.*]]: tensor<6x8xf32>, %[[W:.*]]: tensor<5x8xf32>)
// CHECK:         %[[WT:.*]] = xtensor.transpose %[[W]] perm [1, 0]
// CHECK-NEXT:    %[[MM:.*]] = xtensor.matmul %[[X]], %[[WT]]
// CHECK-NEXT:    return %[[MM]]
func.func @linear_2d(%x: tensor<6x8xf32>, %w: tensor<5x8xf32>) -> tensor<6x5xf32> {
  %y = xtensor.linear %x, %w : (tensor<6x8xf32>, tensor<5x8xf32>) -> tensor<6x5xf32>
  return %y : tensor<6x5xf32>
}

// Atomic ops are left alone.
// CHECK-LABEL: func.func @atomic(
// CHECK:         xtensor.exp
func.func @atomic(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = xtensor.exp %x : tensor<8xf32>
  return %y : tensor<8xf32>
}

// A 16-bit linear with a bias: the product stays in f32 (the matmul gives
// its accumulator unrounded), the bias is added in f32 and the sum rounded
// once, as PyTorch does; without a bias the matmul rounds its own result.
// CHECK-LABEL: func.func @linear_bf16_bias(
// CHECK-SAME:    %[[X:.*]]: tensor<6x8xbf16>, %[[W:.*]]: tensor<5x8xbf16>, %[[B:.*]]: tensor<5xbf16>)
// CHECK:         %[[WT:.*]] = xtensor.transpose %[[W]] perm [1, 0]
// CHECK:         %[[MM:.*]] = xtensor.matmul %[[X]], %[[WT]] : tensor<6x8xbf16>, tensor<8x5xbf16> -> tensor<6x5xf32>
// CHECK:         %[[BW:.*]] = xtensor.cast %[[B]] : tensor<5xbf16> -> tensor<5xf32>
// CHECK:         %[[BB:.*]] = xtensor.broadcast %[[BW]] : tensor<5xf32> -> tensor<6x5xf32>
// CHECK:         %[[S:.*]] = xtensor.add %[[MM]], %[[BB]] : tensor<6x5xf32>
// CHECK:         %[[Y:.*]] = xtensor.cast %[[S]] : tensor<6x5xf32> -> tensor<6x5xbf16>
// CHECK:         return %[[Y]]
func.func @linear_bf16_bias(%x: tensor<6x8xbf16>, %w: tensor<5x8xbf16>, %b: tensor<5xbf16>) -> tensor<6x5xbf16> {
  %y = xtensor.linear %x, %w, %b
      : (tensor<6x8xbf16>, tensor<5x8xbf16>, tensor<5xbf16>) -> tensor<6x5xbf16>
  return %y : tensor<6x5xbf16>
}

// Empty contraction: K = 0 (no division by the empty dimension).
// CHECK-LABEL: func.func @linear_empty(
// CHECK:         xtensor.matmul %{{.*}}, %{{.*}} : tensor<12x0xf32>, tensor<0x5xf32> -> tensor<12x5xf32>
func.func @linear_empty(%x: tensor<3x4x0xf32>, %w: tensor<5x0xf32>) -> tensor<3x4x5xf32> {
  %y = xtensor.linear %x, %w : (tensor<3x4x0xf32>, tensor<5x0xf32>) -> tensor<3x4x5xf32>
  return %y : tensor<3x4x5xf32>
}

// A reduction that keeps several dimensions is the reduction without
// them, reshaped.
// CHECK-LABEL: func.func @keep_two(
// CHECK:         %[[R:.*]] = xtensor.reduce max %{{.*}} dims [0, 2] : tensor<3x5x7xf32> -> tensor<5xf32>
// CHECK:         xtensor.reshape %[[R]] : tensor<5xf32> -> tensor<1x5x1xf32>
func.func @keep_two(%x: tensor<3x5x7xf32>) -> tensor<1x5x1xf32> {
  %y = xtensor.reduce max %x dims [0, 2] keepdim : tensor<3x5x7xf32> -> tensor<1x5x1xf32>
  return %y : tensor<1x5x1xf32>
}
