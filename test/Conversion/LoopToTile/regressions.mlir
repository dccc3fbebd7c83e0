// Cases that once produced wrong Tile IR or crashed; each now lowers
// correctly or is an error naming what is not supported.
//
// RUN: xtile-opt %s --split-input-file --lower-to-tile -verify-diagnostics | FileCheck %s

// A fused elementwise operand of a matmul (a / d) is zeroed past the ragged
// K edge before the dot: the loads' padding would otherwise give 0 / 0.
// CHECK-LABEL: xtile.kernel @ragged_operand_
// CHECK:         %[[Q:.*]] = arith.divf %{{.*}}, %{{.*}} : tensor<{{[0-9]+}}x{{[0-9]+}}xf32>
// CHECK:         %[[QZ:.*]] = arith.select %{{.*}}, %[[Q]], %{{.*}} : tensor<{{[0-9]+}}x{{[0-9]+}}xi1>, tensor<{{[0-9]+}}x{{[0-9]+}}xf32>
// CHECK:         xtile.dot %[[QZ]]
func.func @ragged_operand(%a: tensor<64x40xf32>, %d: tensor<64x40xf32>, %b: tensor<40x4xf32>) -> tensor<64x4xf32> {
  %q = xtensor.div %a, %d : tensor<64x40xf32>
  %c = xtensor.matmul %q, %b : tensor<64x40xf32>, tensor<40x4xf32> -> tensor<64x4xf32>
  return %c : tensor<64x4xf32>
}

// -----

// A scale loaded once per kernel (hoisted above the rows) is a scalar Tile
// IR load.
// CHECK-LABEL: xtile.kernel @hoisted_
// CHECK:         xtile.load %{{.*}}[%{{.*}}] : memref<1xf32>[index] -> f32
func.func @hoisted(%x: tensor<8x16xf32>, %s: tensor<1xf32>) -> tensor<8x16xf32> {
  %sb = xtensor.broadcast %s : tensor<1xf32> -> tensor<8x16xf32>
  %y = xtensor.mul %x, %sb : tensor<8x16xf32>
  %z = xtensor.softmax %y dim 1 : tensor<8x16xf32>
  return %z : tensor<8x16xf32>
}

// -----

// A full reduction of a long vector: split across programs, partials
// combined by a second kernel.
// CHECK-LABEL: xtile.kernel @full_reduce_{{.*}}_partial(
// CHECK-LABEL: xtile.kernel @full_reduce_
// CHECK:         xtile.fold add
// CHECK:         xtile.store %{{.*}}, %{{.*}}[] : memref<f32>, f32
func.func @full_reduce(%x: tensor<1000000xf32>) -> tensor<f32> {
  %s = xtensor.reduce sum %x dims [0] : tensor<1000000xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// -----

// A row sum beside a copy of the row's first element (siblings): the split
// partial kernel writes only partials.
// CHECK-LABEL: xtile.kernel @sum_and_first_{{.*}}_partial(
// CHECK-SAME:    -> (%{{.*}}: memref<8x{{[0-9]+}}xf32>) attributes
// CHECK-NOT:     xtile.store %{{.*}} : memref<8xf32>
// CHECK-LABEL: xtile.kernel @sum_and_first_
// CHECK-LABEL: func.func @sum_and_first(
func.func @sum_and_first(%x: tensor<8x50000xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %s = xtensor.reduce sum %x dims [1] : tensor<8x50000xf32> -> tensor<8xf32>
  %c = xtensor.slice %x starts [0, 0] limits [8, 1] strides [1, 1] : tensor<8x50000xf32> -> tensor<8x1xf32>
  %r = xtensor.reshape %c : tensor<8x1xf32> -> tensor<8xf32>
  return %s, %r : tensor<8xf32>, tensor<8xf32>
}

// -----

// A row reduction broadcast over two dimensions leaves a loop inside the
// column loop: not lowered yet, and said so (it used to share one index
// tile between the two loops).
func.func @nested_columns(%x: tensor<4x8x8xf32>, %z: tensor<4x8xf32>) -> tensor<4x8x8xf32> {
  %s = xtensor.reduce sum %z dims [1] keepdim : tensor<4x8xf32> -> tensor<4x1xf32>
  %r = xtensor.reshape %s : tensor<4x1xf32> -> tensor<4x1x1xf32>
  %b = xtensor.broadcast %r : tensor<4x1x1xf32> -> tensor<4x8x8xf32>
  // expected-error @+1 {{has a loop nested in its column loop; not lowered to Tile IR yet}}
  %y = xtensor.mul %x, %b : tensor<4x8x8xf32>
  return %y : tensor<4x8x8xf32>
}
