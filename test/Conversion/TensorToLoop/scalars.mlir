// RUN: xtile-opt %s --convert-xtensor-to-xloop | FileCheck %s

// The scalar code of each elementwise op, splat constants as scalars, and
// f32 accumulation of half-precision sums and matmuls.

// CHECK-LABEL: xloop.kernel @unary_neg(
// CHECK:         arith.negf
// CHECK-LABEL: xloop.kernel @unary_sigmoid(
// CHECK:         %[[N:.*]] = arith.negf %[[X:.*]] : f32
// CHECK-NEXT:    %[[E:.*]] = math.exp %[[N]] : f32
// CHECK:         %[[D:.*]] = arith.addf %{{.*}}, %[[E]] : f32
// CHECK:         arith.divf %{{.*}}, %[[D]] : f32
// CHECK-LABEL: xloop.kernel @unary_rsqrt(
// CHECK:         math.rsqrt
// CHECK-LABEL: xloop.kernel @unary_reciprocal(
// CHECK:         %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    arith.divf %[[ONE]], %{{.*}} : f32
func.func @unary(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %a = xtensor.neg %x : tensor<8xf32>
  %b = xtensor.sigmoid %x : tensor<8xf32>
  %c = xtensor.rsqrt %x : tensor<8xf32>
  %d = xtensor.reciprocal %x : tensor<8xf32>
  return %a, %b, %c, %d : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// Splat operands are scalar constants, not buffers.
// CHECK-LABEL: xloop.kernel @splat_mul(
// CHECK-SAME:    %[[X:.*]]: memref<8xi32>) -> (%[[Y:.*]]: memref<8xi32>)
// CHECK:         %[[V:.*]] = xloop.load %[[X]]
// CHECK-NEXT:    %[[C:.*]] = arith.constant 3 : i32
// CHECK-NEXT:    arith.muli %[[V]], %[[C]] : i32
// CHECK-LABEL: func.func @splat(
// CHECK-NEXT:    xloop.launch @splat_mul(%arg0) : (tensor<8xi32>) -> tensor<8xi32>
func.func @splat(%x: tensor<8xi32>) -> tensor<8xi32> {
  %c = xtensor.constant dense<3> : tensor<8xi32>
  %y = xtensor.mul %x, %c : tensor<8xi32>
  return %y : tensor<8xi32>
}

// Dense constants are tensors the kernel reads.
// CHECK-LABEL: xloop.kernel @dense_add(
// CHECK-SAME:    %{{.*}}: memref<2xf32>, %{{.*}}: memref<2xf32>)
// CHECK-LABEL: func.func @dense(
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    xloop.launch @dense_add(%arg0, %[[C]])
func.func @dense(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = xtensor.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %y = xtensor.add %x, %c : tensor<2xf32>
  return %y : tensor<2xf32>
}

// bf16 sums accumulate in f32 and round once at the end.
// CHECK-LABEL: xloop.kernel @half_reduce(
// CHECK:         %[[ACC:.*]] = xloop.fold %{{.*}} combine add init(%{{.*}}) : f32 {
// CHECK:           %[[V:.*]] = xloop.load
// CHECK-NEXT:      %[[W:.*]] = arith.extf %[[V]] : bf16 to f32
// CHECK-NEXT:      xloop.yield %[[W]] : f32
// CHECK:         %[[R:.*]] = arith.truncf %[[ACC]] : f32 to bf16
// CHECK-NEXT:    xloop.store %[[R]]
// CHECK-LABEL: xloop.kernel @half_matmul(
// CHECK:         xloop.fold %{{.*}} combine add init(%{{.*}}) : f32 {
// CHECK:           arith.extf %{{.*}} : f16 to f32
// CHECK:           arith.extf %{{.*}} : f16 to f32
// CHECK:           arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK:         arith.truncf %{{.*}} : f32 to f16
func.func @half(%x: tensor<4x8xbf16>, %a: tensor<4x8xf16>, %b: tensor<8x2xf16>) -> (tensor<4xbf16>, tensor<4x2xf16>) {
  %s = xtensor.reduce sum %x dims [1] : tensor<4x8xbf16> -> tensor<4xbf16>
  %m = xtensor.matmul %a, %b : tensor<4x8xf16>, tensor<8x2xf16> -> tensor<4x2xf16>
  return %s, %m : tensor<4xbf16>, tensor<4x2xf16>
}

// Integer and boolean ops; any/all are or/and folds over i1.
// CHECK-LABEL: xloop.kernel @ints_div(
// CHECK:         arith.divsi
// CHECK-LABEL: xloop.kernel @ints_max(
// CHECK:         arith.maxsi
// CHECK-LABEL: xloop.kernel @ints_cmp(
// CHECK:         arith.cmpi sge
// CHECK-LABEL: xloop.kernel @ints_reduce(
// CHECK:         %[[TRUE:.*]] = arith.constant true
// CHECK:         xloop.fold %{{.*}} = 0 to 8 combine and init(%[[TRUE]]) : i1
// CHECK-LABEL: xloop.kernel @ints_cast(
// CHECK:         arith.extui %{{.*}} : i1 to i32
func.func @ints(%x: tensor<4x8xi32>, %y: tensor<4x8xi32>) -> (tensor<4x8xi32>, tensor<4x8xi32>, tensor<4xi1>, tensor<4x8xi32>) {
  %d = xtensor.div %x, %y : tensor<4x8xi32>
  %m = xtensor.max %x, %y : tensor<4x8xi32>
  %c = xtensor.cmp ge, %x, %y : tensor<4x8xi32>
  %all = xtensor.reduce all %c dims [1] : tensor<4x8xi1> -> tensor<4xi1>
  %ci = xtensor.cast %c : tensor<4x8xi1> -> tensor<4x8xi32>
  return %d, %m, %all, %ci : tensor<4x8xi32>, tensor<4x8xi32>, tensor<4xi1>, tensor<4x8xi32>
}
