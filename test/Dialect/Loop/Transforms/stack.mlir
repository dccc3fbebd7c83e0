// A stack of three decoder-style blocks (RMSNorm, SwiGLU MLP, residual):
// three distinct kernels, each launched once per block.
//
// RUN: xtile-opt %s --lower-to-loop | FileCheck %s
// RUN: xtile-opt %s --lower-to-loop --xloop-report | FileCheck %s --check-prefix=REPORT

// RMSNorm.
// CHECK:       xloop.kernel @[[NORM:[a-z_0-9]+]](
// CHECK:         combine add
// CHECK:         math.rsqrt
// Gate and up projections, SiLU and the product: two matmuls in one kernel.
// CHECK:       xloop.kernel @[[MLP:[a-z_0-9]+]](
// CHECK:         xloop.fold
// CHECK:         math.exp
// CHECK:         xloop.fold
// Down projection with the residual add.
// CHECK:       xloop.kernel @[[DOWN:[a-z_0-9]+]](
// CHECK:         xloop.fold
// CHECK-NOT:   xloop.kernel
// CHECK-LABEL: func.func @stack(
// CHECK:         xloop.launch @[[NORM]](
// CHECK-NEXT:    xloop.launch @[[MLP]](
// CHECK-NEXT:    xloop.launch @[[DOWN]](
// CHECK:         xloop.launch @[[NORM]](
// CHECK-NEXT:    xloop.launch @[[MLP]](
// CHECK-NEXT:    xloop.launch @[[DOWN]](
// CHECK:         xloop.launch @[[NORM]](
// CHECK-NEXT:    xloop.launch @[[MLP]](
// CHECK-NEXT:    xloop.launch @[[DOWN]](
// CHECK-NEXT:    return

// REPORT: func @stack: 9 launches
func.func @stack(%x: tensor<64x256xf32>, %n0: tensor<256xf32>, %wg0: tensor<512x256xf32>, %wu0: tensor<512x256xf32>, %wd0: tensor<256x512xf32>, %n1: tensor<256xf32>, %wg1: tensor<512x256xf32>, %wu1: tensor<512x256xf32>, %wd1: tensor<256x512xf32>, %n2: tensor<256xf32>, %wg2: tensor<512x256xf32>, %wu2: tensor<512x256xf32>, %wd2: tensor<256x512xf32>) -> tensor<64x256xf32> {
  %h0 = xtensor.rms_norm %x weight %n0 eps 1.0e-6 : (tensor<64x256xf32>, tensor<256xf32>) -> tensor<64x256xf32>
  %g0 = xtensor.linear %h0, %wg0 : (tensor<64x256xf32>, tensor<512x256xf32>) -> tensor<64x512xf32>
  %u0 = xtensor.linear %h0, %wu0 : (tensor<64x256xf32>, tensor<512x256xf32>) -> tensor<64x512xf32>
  %s0 = xtensor.silu %g0 : tensor<64x512xf32>
  %m0 = xtensor.mul %s0, %u0 : tensor<64x512xf32>
  %d0 = xtensor.linear %m0, %wd0 : (tensor<64x512xf32>, tensor<256x512xf32>) -> tensor<64x256xf32>
  %r0 = xtensor.add %x, %d0 : tensor<64x256xf32>
  %h1 = xtensor.rms_norm %r0 weight %n1 eps 1.0e-6 : (tensor<64x256xf32>, tensor<256xf32>) -> tensor<64x256xf32>
  %g1 = xtensor.linear %h1, %wg1 : (tensor<64x256xf32>, tensor<512x256xf32>) -> tensor<64x512xf32>
  %u1 = xtensor.linear %h1, %wu1 : (tensor<64x256xf32>, tensor<512x256xf32>) -> tensor<64x512xf32>
  %s1 = xtensor.silu %g1 : tensor<64x512xf32>
  %m1 = xtensor.mul %s1, %u1 : tensor<64x512xf32>
  %d1 = xtensor.linear %m1, %wd1 : (tensor<64x512xf32>, tensor<256x512xf32>) -> tensor<64x256xf32>
  %r1 = xtensor.add %r0, %d1 : tensor<64x256xf32>
  %h2 = xtensor.rms_norm %r1 weight %n2 eps 1.0e-6 : (tensor<64x256xf32>, tensor<256xf32>) -> tensor<64x256xf32>
  %g2 = xtensor.linear %h2, %wg2 : (tensor<64x256xf32>, tensor<512x256xf32>) -> tensor<64x512xf32>
  %u2 = xtensor.linear %h2, %wu2 : (tensor<64x256xf32>, tensor<512x256xf32>) -> tensor<64x512xf32>
  %s2 = xtensor.silu %g2 : tensor<64x512xf32>
  %m2 = xtensor.mul %s2, %u2 : tensor<64x512xf32>
  %d2 = xtensor.linear %m2, %wd2 : (tensor<64x512xf32>, tensor<256x512xf32>) -> tensor<64x256xf32>
  %r2 = xtensor.add %r1, %d2 : tensor<64x256xf32>
  return %r2 : tensor<64x256xf32>
}
