// RUN: xtile-opt %s --split-input-file --convert-xtensor-to-xloop | FileCheck %s

// Empty tensors are legal everywhere: an op with an empty result needs no
// kernel (its value is known: a constant with no elements), and a
// reduction over an empty dimension is its identity, with no fold.

// CHECK-NOT:   xloop.kernel @empty_slice
// CHECK-NOT:   xloop.kernel @empty_exp
// CHECK-LABEL: xloop.kernel @empty_reduce(
// CHECK-SAME:    -> (%[[OUT:.*]]: memref<4xf32>)
// CHECK-NOT:     xloop.fold
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         xloop.store %[[ZERO]], %[[OUT]]
// CHECK-LABEL: func.func @empty(
// CHECK:         %[[E:.*]] = arith.constant dense<> : tensor<4x0xf32>
// CHECK:         %[[S:.*]] = xloop.launch @empty_reduce(%[[E]])
// CHECK:         %[[E2:.*]] = arith.constant dense<> : tensor<4x0xf32>
// CHECK:         return %[[S]], %[[E2]]
func.func @empty(%x: tensor<4x6xf32>) -> (tensor<4xf32>, tensor<4x0xf32>) {
  %a = xtensor.slice %x starts [0, 2] limits [4, 2] strides [1, 1] : tensor<4x6xf32> -> tensor<4x0xf32>
  %b = xtensor.reduce sum %a dims [1] : tensor<4x0xf32> -> tensor<4xf32>
  %c = xtensor.exp %a : tensor<4x0xf32>
  return %b, %c : tensor<4xf32>, tensor<4x0xf32>
}

// -----

// A splat constant that is returned is written by a fill kernel; one that
// only feeds kernels stays a scalar inside them.
// CHECK-LABEL: xloop.kernel @fill_constant(
// CHECK-SAME:    -> (%[[OUT:.*]]: memref<3xf32>)
// CHECK:         xloop.parallel %[[I:.*]] = 0 to 3 {
// CHECK-NEXT:      %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK-NEXT:      xloop.store %[[NAN]], %[[OUT]][%[[I]]]
// CHECK-LABEL: func.func @fill(
// CHECK:         %[[N:.*]] = xloop.launch @fill_constant() : () -> tensor<3xf32>
// CHECK:         return %{{.*}}, %[[N]]
func.func @fill(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<3xf32>) {
  %c = xtensor.constant dense<2.0> : tensor<4xf32>
  %y = xtensor.add %x, %c : tensor<4xf32>
  %n = xtensor.constant dense<0x7FC00000> : tensor<3xf32>
  return %y, %n : tensor<4xf32>, tensor<3xf32>
}
