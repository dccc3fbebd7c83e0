// RUN: xtile-opt %s --lower-to-loop | FileCheck %s
// RUN: xtile-opt %s --lower-to-loop --xloop-report -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: xtile-opt %s --lower-to-tile | FileCheck %s --check-prefix=TILE

// Attention under a packed-sequence mask (Hugging Face's, when the
// positions are given without a mask): keys at or before the query and in
// the same sequence, the sequences numbered by a cumulative sum of their
// starts (here drawn from an input: x > 0.8, a kernel of its own).
// The softmax, the mask and
// the last step of the blocked cumulative sum are one online fold; the
// cumulative sum's blocks, whose loops would nest inside it, stay kernels
// of their own. Before, taking them made a kernel Tile IR rejects, and
// attention was scores, softmax and p @ v through device memory.
// (test/Integration/packed-attention.test runs it.)
// CHECK-COUNT-3: xloop.kernel @packed_reduce
// CHECK-NOT:   xloop.kernel
// CHECK:       xloop.kernel @packed_select
// CHECK:         xloop.online_fold %{{.*}} = 0 to 96 : f32 weights 1 {
// CHECK-NOT:   xloop.kernel
// CHECK-LABEL: func.func @packed(
// CHECK-COUNT-4: xloop.launch
// CHECK-NEXT:    xloop.launch @packed_select
// CHECK-NEXT:    return
// The mask is the conjunction of a causal comparison and another
// condition: each query block's key loop ends at its last row (+ 16),
// past which every key is masked.
// TILE-LABEL: xtile.kernel @packed_select
// TILE:         %[[PID:.*]] = xtile.program_id 0
// TILE:         %[[BLOCK:.*]] = arith.remui %[[PID]], %c6 : index
// TILE:         %[[ROW0:.*]] = arith.muli %[[BLOCK]], %c16 : index
// TILE:         %[[LAST:.*]] = arith.addi %[[ROW0]], %c16 : index
// TILE:         %[[ABOVE:.*]] = arith.maxsi %[[LAST]], %c0 : index
// TILE:         %[[END:.*]] = arith.minsi %[[ABOVE]], %c96 : index
// TILE:         scf.for %{{.*}} = %c0 to %[[END]] step %c32
// REPORT: func @packed: 5 launches, {{[0-9]+}} B moved, ideal {{[0-9]+}} B (1.0{{[0-9]}}x)
func.func @packed(%arg0: tensor<1x2x96x16xf32>, %arg1: tensor<1x2x96x16xf32>, %arg2: tensor<1x2x96x16xf32>, %x: tensor<1x96xf32>) -> (tensor<1x2x96x16xf32>) {
  %c = xtensor.constant dense<0.8> : tensor<1x96xf32>
  %starts = xtensor.cmp gt, %x, %c : tensor<1x96xf32>
  %arg3 = xtensor.cast %starts : tensor<1x96xi1> -> tensor<1x96xi64>
  %1 = xtensor.iota dim 0 : tensor<96xi64>
  %2 = xtensor.reshape %arg3 : tensor<1x96xi64> -> tensor<1x3x32xi64>
  %3 = xtensor.reshape %2 : tensor<1x3x32xi64> -> tensor<1x3x1x32xi64>
  %4 = xtensor.broadcast %3 : tensor<1x3x1x32xi64> -> tensor<1x3x32x32xi64>
  %5 = xtensor.iota dim 3 : tensor<1x3x32x32xi64>
  %6 = xtensor.iota dim 2 : tensor<1x3x32x32xi64>
  %7 = xtensor.cmp le, %5, %6 : tensor<1x3x32x32xi64>
  %8 = xtensor.constant dense<0> : tensor<1x3x32x32xi64>
  %9 = xtensor.select %7, %4, %8 : tensor<1x3x32x32xi64>
  %10 = xtensor.reduce sum %9 dims [3] : tensor<1x3x32x32xi64> -> tensor<1x3x32xi64>
  %11 = xtensor.reduce sum %2 dims [2] : tensor<1x3x32xi64> -> tensor<1x3xi64>
  %12 = xtensor.reshape %11 : tensor<1x3xi64> -> tensor<1x1x3xi64>
  %13 = xtensor.broadcast %12 : tensor<1x1x3xi64> -> tensor<1x3x3xi64>
  %14 = xtensor.iota dim 2 : tensor<1x3x3xi64>
  %15 = xtensor.iota dim 1 : tensor<1x3x3xi64>
  %16 = xtensor.cmp le, %14, %15 : tensor<1x3x3xi64>
  %17 = xtensor.constant dense<0> : tensor<1x3x3xi64>
  %18 = xtensor.select %16, %13, %17 : tensor<1x3x3xi64>
  %19 = xtensor.reduce sum %18 dims [2] : tensor<1x3x3xi64> -> tensor<1x3xi64>
  %20 = xtensor.slice %19 starts [0, 0] limits [1, 2] strides [1, 1] : tensor<1x3xi64> -> tensor<1x2xi64>
  %21 = xtensor.pad %20 low [0, 1] high [0, 0] value 0 : i64 : tensor<1x2xi64> -> tensor<1x3xi64>
  %22 = xtensor.reshape %21 : tensor<1x3xi64> -> tensor<1x3x1xi64>
  %23 = xtensor.broadcast %22 : tensor<1x3x1xi64> -> tensor<1x3x32xi64>
  %24 = xtensor.add %10, %23 : tensor<1x3x32xi64>
  %25 = xtensor.reshape %24 : tensor<1x3x32xi64> -> tensor<1x96xi64>
  %26 = xtensor.reshape %1 : tensor<96xi64> -> tensor<1x96xi64>
  %27 = xtensor.reshape %1 : tensor<96xi64> -> tensor<96x1xi64>
  %28 = xtensor.broadcast %26 : tensor<1x96xi64> -> tensor<96x96xi64>
  %29 = xtensor.broadcast %27 : tensor<96x1xi64> -> tensor<96x96xi64>
  %30 = xtensor.cmp le, %28, %29 : tensor<96x96xi64>
  %31 = xtensor.reshape %25 : tensor<1x96xi64> -> tensor<1x96x1xi64>
  %32 = xtensor.reshape %25 : tensor<1x96xi64> -> tensor<1x1x96xi64>
  %33 = xtensor.broadcast %31 : tensor<1x96x1xi64> -> tensor<1x96x96xi64>
  %34 = xtensor.broadcast %32 : tensor<1x1x96xi64> -> tensor<1x96x96xi64>
  %35 = xtensor.cmp eq, %33, %34 : tensor<1x96x96xi64>
  %36 = xtensor.broadcast %30 : tensor<96x96xi1> -> tensor<1x96x96xi1>
  %37 = xtensor.and %36, %35 : tensor<1x96x96xi1>
  %38 = xtensor.reshape %37 : tensor<1x96x96xi1> -> tensor<1x1x96x96xi1>
  %39 = xtensor.transpose %arg1 perm [0, 1, 3, 2] : tensor<1x2x96x16xf32> -> tensor<1x2x16x96xf32>
  %40 = xtensor.matmul %arg0, %39 : tensor<1x2x96x16xf32>, tensor<1x2x16x96xf32> -> tensor<1x2x96x96xf32>
  %41 = xtensor.constant dense<0.25> : tensor<1x2x96x96xf32>
  %42 = xtensor.mul %40, %41 : tensor<1x2x96x96xf32>
  %43 = xtensor.broadcast %38 : tensor<1x1x96x96xi1> -> tensor<1x2x96x96xi1>
  %44 = xtensor.constant dense<0xFF800000> : tensor<1x2x96x96xf32>
  %45 = xtensor.select %43, %42, %44 : tensor<1x2x96x96xf32>
  %46 = xtensor.softmax %45 dim 3 : tensor<1x2x96x96xf32>
  %47 = xtensor.matmul %46, %arg2 : tensor<1x2x96x96xf32>, tensor<1x2x96x16xf32> -> tensor<1x2x96x16xf32>
  %48 = xtensor.reduce max %45 dims [3] keepdim : tensor<1x2x96x96xf32> -> tensor<1x2x96x1xf32>
  %49 = xtensor.constant dense<0xFF800000> : tensor<1x2x96x1xf32>
  %50 = xtensor.cmp eq, %48, %49 : tensor<1x2x96x1xf32>
  %51 = xtensor.broadcast %50 : tensor<1x2x96x1xi1> -> tensor<1x2x96x16xi1>
  %52 = xtensor.constant dense<0.0> : tensor<1x2x96x16xf32>
  %53 = xtensor.select %51, %52, %47 : tensor<1x2x96x16xf32>
  return %53 : tensor<1x2x96x16xf32>
}
