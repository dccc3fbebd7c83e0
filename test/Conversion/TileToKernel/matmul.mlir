// RUN: xtile-opt %s --lower-to-kernel="force-schedule='#xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 1, warps = 4>'" | FileCheck %s
// RUN: xtile-opt %s --lower-to-kernel="force-schedule='#xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 3, warps = 4>'" | FileCheck %s --check-prefix=PIPE

// A ragged linear layer (100x96 @ 96x200 + bias) on 64x64 output tiles with
// 128 threads: each thread holds 8 rows x 4 adjacent columns of the
// accumulator. Per step of K, the operand tiles are loaded (masked at the
// ragged edges), staged in dynamic shared memory, and each thread
// accumulates its 32 elements with FMAs, reading a row of A once per row
// and 4 adjacent columns of B with one 16-byte shared-memory load.
// CHECK-LABEL: xkernel.func @linear_add(
// CHECK-SAME:    attributes {arch = "sm_90", dynamic_shared = 16384 : i64, max_threads = 128 : i64, min_blocks = 1 : i64}
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
// CHECK:         arith.addf {{.*}}%[[ACC]]#0{{.*}} : f32
// CHECK:         xkernel.return
// CHECK-LABEL: xkernel.program @linear(
// CHECK:         xkernel.launch @linear_add(%arg0, %arg2, %arg1, %arg3) grid [8, 1, 1] block [128, 1, 1] shared 16384
func.func @linear(%x: tensor<100x96xf32>, %w: tensor<200x96xf32>, %b: tensor<200xf32>) -> tensor<100x200xf32> {
  %y = xtensor.linear %x, %w, %b : (tensor<100x96xf32>, tensor<200x96xf32>, tensor<200xf32>) -> tensor<100x200xf32>
  return %y : tensor<100x200xf32>
}

// Three stages: the operand tiles go to shared memory with cp.async, two
// iterations ahead. 16-byte copies for A (rows contiguous along K), 4-byte
// copies for B (W^T, strided); a copy past a ragged edge reads nothing and
// zero-fills. The prologue starts iterations 0 and 1; iteration i starts
// i + 2, waits until at most 2 groups are in flight (its own has landed),
// and meets the block at a barrier before reading its stage.
// PIPE-LABEL: xkernel.func @linear_add(
// PIPE-SAME:    dynamic_shared = 49152 : i64
// PIPE-DAG:     %[[A:.*]] = xkernel.dynamic_shared 0 : <f32, shared>
// PIPE-DAG:     %[[B:.*]] = xkernel.dynamic_shared 24576 : <f32, shared>
// PIPE:         xkernel.async_copy %arg0[%{{.*}}] to %[[A]][%{{.*}}], 16 valid %{{.*}} : <f32, global> to <f32, shared>
// PIPE:         xkernel.async_copy %arg2[%{{.*}}] to %[[B]][%{{.*}}], 4 valid %{{.*}} : <f32, global> to <f32, shared>
// PIPE:         xkernel.async_commit
// PIPE:         xkernel.async_copy
// PIPE:         xkernel.async_commit
// PIPE:         scf.for %[[IV:.*]] = %c0 to %c96 step %c32
// PIPE:           %[[AHEAD:.*]] = arith.addi %{{.*}}, %c2 : index
// PIPE:           %[[MORE:.*]] = arith.cmpi ult, %[[AHEAD]], %c3 : index
// PIPE:           scf.if %[[MORE]] {
// PIPE:             xkernel.async_copy
// PIPE:           }
// PIPE-NEXT:      xkernel.async_commit
// PIPE-NEXT:      xkernel.async_wait 2
// PIPE-NEXT:      xkernel.barrier
// PIPE-NOT:       xkernel.load %arg0
// PIPE:           scf.for
// PIPE:             math.fma
// PIPE:           } {xkernel.unroll}
// PIPE-NEXT:      xkernel.barrier
// PIPE:         } {xkernel.num_stages = 3 : i64}
// PIPE-NEXT:    xkernel.async_wait 0
