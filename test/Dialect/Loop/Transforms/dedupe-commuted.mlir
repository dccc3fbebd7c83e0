// RUN: xtile-opt %s --xloop-dedupe | FileCheck %s

// Two kernels that differ only in SSA names, the order of commutative
// operands and locations are one kernel; a third that computes something
// else is kept.

// CHECK:       xloop.kernel @first(
// CHECK-NOT:   xloop.kernel @second
// CHECK:       xloop.kernel @third(
// CHECK-LABEL: func.func @f(
// CHECK-NEXT:    %[[A:.*]] = xloop.launch @first(%arg0, %arg1)
// CHECK-NEXT:    %[[B:.*]] = xloop.launch @first(%[[A]], %arg1)
// CHECK-NEXT:    %[[C:.*]] = xloop.launch @third(%[[B]], %arg1)
xloop.kernel @first(%x: memref<8xf32>, %y: memref<8xf32>) -> (%z: memref<8xf32>) {
  xloop.parallel %i = 0 to 8 {
    %a = xloop.load %x[%i] : memref<8xf32>
    %b = xloop.load %y[%i] : memref<8xf32>
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %p, %a : f32
    xloop.store %s, %z[%i] : memref<8xf32>
  }
}
xloop.kernel @second(%u: memref<8xf32>, %v: memref<8xf32>) -> (%w: memref<8xf32>) {
  xloop.parallel %k = 0 to 8 {
    %0 = xloop.load %u[%k] : memref<8xf32> loc("elsewhere":3:4)
    %1 = xloop.load %v[%k] : memref<8xf32>
    %2 = arith.mulf %1, %0 : f32
    %3 = arith.addf %0, %2 : f32
    xloop.store %3, %w[%k] : memref<8xf32>
  }
}
xloop.kernel @third(%x: memref<8xf32>, %y: memref<8xf32>) -> (%z: memref<8xf32>) {
  xloop.parallel %i = 0 to 8 {
    %a = xloop.load %x[%i] : memref<8xf32>
    %b = xloop.load %y[%i] : memref<8xf32>
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %p, %b : f32
    xloop.store %s, %z[%i] : memref<8xf32>
  }
}
func.func @f(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %a = xloop.launch @first(%x, %y) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %b = xloop.launch @second(%a, %y) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %c = xloop.launch @third(%b, %y) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %c : tensor<8xf32>
}
