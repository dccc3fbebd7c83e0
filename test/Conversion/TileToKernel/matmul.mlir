// RUN: xtile-opt %s --lower-to-kernel="force-schedule=dot:64x64x32:1:4" | FileCheck %s

// A ragged linear layer (100x96 @ 96x200 + bias) on 64x64 output tiles with
// 128 threads: each thread holds 8 rows x 4 adjacent columns of the
// accumulator. Per step of K, the operand tiles are loaded (masked at the
// ragged edges), staged in dynamic shared memory, and each thread
// accumulates its 32 elements with FMAs, reading a row of A once per row
// and 4 adjacent columns of B with one 16-byte shared-memory load.
// CHECK-LABEL: xkernel.func @linear_add(
// CHECK-SAME:    attributes {dynamic_shared = 16384 : i64, max_threads = 128 : i64}
// CHECK-DAG:     %[[A:.*]] = xkernel.dynamic_shared 0 : <f32, shared>
// CHECK-DAG:     %[[B:.*]] = xkernel.dynamic_shared 8192 : <f32, shared>
// CHECK:         %[[ACC:.*]]:32 = scf.for %{{.*}} = %c0 to %c96 step %c32 iter_args(
// CHECK:           scf.if %{{.*}} -> (vector<4xf32>) {
// CHECK:           xkernel.store %{{.*}}, %[[A]][%{{.*}}] : vector<4xf32>, <f32, shared>
// CHECK:           xkernel.store %{{.*}}, %[[B]][%{{.*}}] : vector<4xf32>, <f32, shared>
// CHECK:           xkernel.barrier
// CHECK:           scf.for %{{.*}} = %c0 to %c32 step %c1 iter_args(
// CHECK:             xkernel.load %[[A]][%{{.*}}] : <f32, shared> -> f32
// CHECK:             xkernel.load %[[B]][%{{.*}}] : <f32, shared> -> vector<4xf32>
// CHECK-COUNT-4:     math.fma
// CHECK:           } {xkernel.unroll}
// CHECK-NEXT:      xkernel.barrier
// CHECK-NEXT:      scf.yield
// CHECK:         }
// CHECK:         arith.addf %{{.*}}, %[[ACC]]#0 : f32
// CHECK:         xkernel.return
// CHECK-LABEL: xkernel.program @linear(
// CHECK:         xkernel.launch @linear_add(%arg0, %arg2, %arg1, %arg3) grid [8, 1, 1] block [128, 1, 1] shared 16384
func.func @linear(%x: tensor<100x96xf32>, %w: tensor<200x96xf32>, %b: tensor<200xf32>) -> tensor<100x200xf32> {
  %y = xtensor.linear %x, %w, %b : (tensor<100x96xf32>, tensor<200x96xf32>, tensor<200xf32>) -> tensor<100x200xf32>
  return %y : tensor<100x200xf32>
}
