// RUN: xtile-opt %s --split-input-file --convert-xtensor-to-xloop --xloop-fuse | FileCheck %s
// RUN: xtile-opt %s --split-input-file --convert-xtensor-to-xloop --xloop-write-in-place --xloop-fuse | FileCheck %s --check-prefix=INPLACE

// A tiny kernel (static sizes, at most 16384 operations, no contraction)
// costs its launch: fused into its only consumer when that stays tiny,
// whatever it recomputes. Column sums read row by row, recomputed for
// every element: one kernel at 8 x 8.
// CHECK-LABEL: xloop.kernel @column_share_
// CHECK:         xloop.parallel
// CHECK:           xloop.parallel
// CHECK:             xloop.fold
// CHECK-NOT:   xloop.kernel
// CHECK-LABEL: func.func @column_share(
// CHECK-NEXT:    xloop.launch
// CHECK-NEXT:    return
func.func @column_share(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s = xtensor.reduce sum %a dims [0] : tensor<8x8xf32> -> tensor<8xf32>
  %b = xtensor.broadcast %s : tensor<8xf32> -> tensor<8x8xf32>
  %d = xtensor.div %a, %b : tensor<8x8xf32>
  return %d : tensor<8x8xf32>
}

// -----

// At 256 x 128 the same sums would be recomputed 256 times over 32768
// elements: the cost rule keeps them a kernel of their own.
// CHECK-LABEL: func.func @column_share_large(
// CHECK-NEXT:    xloop.launch
// CHECK-NEXT:    xloop.launch
// CHECK-NEXT:    return
func.func @column_share_large(%a: tensor<256x128xf32>) -> tensor<256x128xf32> {
  %s = xtensor.reduce sum %a dims [0] : tensor<256x128xf32> -> tensor<128xf32>
  %b = xtensor.broadcast %s : tensor<128xf32> -> tensor<256x128xf32>
  %d = xtensor.div %a, %b : tensor<256x128xf32>
  return %d : tensor<256x128xf32>
}

// -----

// Not where the fused kernel would nest a fold in a fold, which Tile IR
// does not lower: a running sum of a running sum (an MoE layer's block
// offsets from its counts) stays two kernels.
// CHECK-LABEL: func.func @offsets(
// CHECK-NEXT:    xloop.launch
// CHECK-NEXT:    xloop.launch
// CHECK-NEXT:    return
func.func @offsets(%counts: tensor<8xi64>) -> tensor<8xi64> {
  %i = xtensor.iota dim 0 : tensor<8x8xi64>
  %j = xtensor.iota dim 1 : tensor<8x8xi64>
  %le = xtensor.cmp le, %j, %i : tensor<8x8xi64>
  %zero = xtensor.constant dense<0> : tensor<8x8xi64>
  %nb = xtensor.broadcast %counts : tensor<8xi64> -> tensor<8x8xi64>
  %m = xtensor.select %le, %nb, %zero : tensor<8x8xi64>
  %ends = xtensor.reduce sum %m dims [1] : tensor<8x8xi64> -> tensor<8xi64>
  %eb = xtensor.broadcast %ends : tensor<8xi64> -> tensor<8x8xi64>
  %m2 = xtensor.select %le, %eb, %zero : tensor<8x8xi64>
  %sums = xtensor.reduce sum %m2 dims [1] : tensor<8x8xi64> -> tensor<8xi64>
  return %sums : tensor<8xi64>
}

// -----

// Merged in the later launch's place only where no launch between them
// writes a buffer in place: fused after --xloop-write-in-place, the row
// sums that read %c stay before the launch that updates %c.
// INPLACE-LABEL: func.func @late_past_update(
// INPLACE:         xloop.launch @late_past_update_{{[a-z_0-9]+}}(%arg1, %arg0)
// INPLACE-NEXT:    xloop.launch @{{[a-z_0-9]+}}(%arg1) {updates = array<i64: 0>}
// INPLACE-COUNT-2: xloop.launch
// INPLACE-NEXT:    return
func.func @late_past_update(%a: tensor<8x8xf32>, %c: tensor<8xf32> {xtensor.in_place = 1 : i64}, %p: tensor<8x4xf32>, %q: tensor<4x8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %s = xtensor.reduce sum %a dims [1] : tensor<8x8xf32> -> tensor<8xf32>
  %x = xtensor.add %s, %c : tensor<8xf32>
  %one = xtensor.constant dense<1.0> : tensor<8xf32>
  %c2 = xtensor.add %c, %one : tensor<8xf32>
  %m = xtensor.matmul %p, %q : tensor<8x4xf32>, tensor<4x8xf32> -> tensor<8x8xf32>
  %e = xtensor.exp %m : tensor<8x8xf32>
  %y = xtensor.reduce max %e dims [1] : tensor<8x8xf32> -> tensor<8xf32>
  return %x, %c2, %y : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
