// RUN: xtile-opt %s --lower-to-kernel="target=sm_90a force-schedule='#xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 64, stages = 3, warps = 4, instruction = wgmma, warps_m = 4>'" | FileCheck %s
// RUN: xtile-opt %s --lower-to-kernel="target=sm_90a force-schedule='#xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 64, stages = 3, warps = 4, instruction = wgmma, warps_m = 4>' test-mutate=swizzle" | FileCheck %s --check-prefix=SWIZZLE
// RUN: xtile-opt %s --lower-to-kernel="target=sm_90a force-schedule='#xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 64, stages = 3, warps = 4, instruction = wgmma, warps_m = 4>' test-mutate=parity" | FileCheck %s --check-prefix=PARITY
// RUN: xtile-opt %s --lower-to-kernel="target=sm_90a force-schedule='#xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 64, stages = 3, warps = 4, instruction = mma_sync, warps_m = 2>'" | FileCheck %s --check-prefix=MMA

// A ragged x W^T on wgmma: both operands are boxes of their buffers, masked
// by their bounds only, so they come in by TMA (the copy's zero fill is the
// mask): A as 64 x 64 boxes of [100, 96] at (row, k), W^T K-major as boxes
// of [200, 96] at (column, k), each 128 bytes wide in the 128-byte swizzle.
// The kernel takes the two tensor maps after its buffers; the program makes
// them. Thread 0 initializes one mbarrier per stage, then per stage expects
// 16 KiB and starts both copies; every thread waits for iteration i's phase
// (i / 3) % 2 of stage i % 3 instead of cp.async's wait and barrier. The
// stage read, the stage copied into ((i + 1) % 3) and the parity are
// carried by the loop as i32.
// CHECK-LABEL: xkernel.func @linear_matmul(
// CHECK-SAME:    %arg3: !xkernel.ptr<i8, global> {xkernel.readonly, xkernel.tensor_map = {box = array<i64: 64, 64>, of = 0 : i64, swizzle = 128 : i64}}
// CHECK-SAME:    %arg4: !xkernel.ptr<i8, global> {xkernel.readonly, xkernel.tensor_map = {box = array<i64: 64, 64>, of = 1 : i64, swizzle = 128 : i64}}
// CHECK-DAG:     %[[A:.*]] = xkernel.dynamic_shared 0 : <bf16, shared>
// CHECK-DAG:     %[[B:.*]] = xkernel.dynamic_shared 24576 : <bf16, shared>
// CHECK-DAG:     %[[BAR:.*]] = xkernel.dynamic_shared 49152 : <i64, shared>
// CHECK-DAG:     %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %c0 : index
// CHECK:         scf.if %[[FIRST]] {
// CHECK-NEXT:      xkernel.mbarrier_init %[[BAR]][%c0], 1
// CHECK-NEXT:      xkernel.mbarrier_init %[[BAR]][%c1], 1
// CHECK-NEXT:      xkernel.mbarrier_init %[[BAR]][%c2], 1
// CHECK-NEXT:    }
// CHECK-NEXT:    xkernel.barrier
// CHECK:         scf.if %[[FIRST]] {
// CHECK-NEXT:      xkernel.mbarrier_arrive_expect_tx %[[BAR]][%c0], 16384
// CHECK:           xkernel.tma_load %arg3[%{{.*}}, %c0_i32] to %[[A]][%c0] barrier %[[BAR]][%c0]
// CHECK:           xkernel.tma_load %arg4[%{{.*}}, %c0_i32] to %[[B]][%c0] barrier %[[BAR]][%c0]
// CHECK-NOT:     xkernel.async_copy
// CHECK:         scf.for %[[IV:.*]] = %c0 to %c96 step %c64 iter_args({{.*}}, %[[S:[a-z0-9_]+]] = %c0_i32, %[[C:[a-z0-9_]+]] = %c1_i32, %[[P:[a-z0-9_]+]] = %c0_i32)
// CHECK:           %[[STAGE:.*]] = arith.index_castui %[[S]] : i32 to index
// CHECK-NEXT:      %[[COPY:.*]] = arith.index_castui %[[C]] : i32 to index
// CHECK:           scf.if
// CHECK:             scf.if %[[FIRST]] {
// CHECK:               xkernel.mbarrier_arrive_expect_tx %[[BAR]][%[[COPY]]], 16384
// CHECK:               xkernel.tma_load %arg3
// CHECK:               xkernel.tma_load %arg4
// CHECK:           %[[BIT:.*]] = arith.index_castui %[[P]] : i32 to index
// CHECK-NEXT:      xkernel.mbarrier_wait %[[BAR]][%[[STAGE]]], %[[BIT]]
// CHECK:           xkernel.wgmma_fence
// The next iteration's stages and parity, without dividing by 3:
// CHECK:           xkernel.barrier
// CHECK-NEXT:      %[[S1:.*]] = arith.addi %[[S]], %c1_i32 : i32
// CHECK-NEXT:      %[[WRAP:.*]] = arith.cmpi eq, %[[S1]], %c3_i32 : i32
// CHECK-NEXT:      %[[NS:.*]] = arith.select %[[WRAP]], %c0_i32, %[[S1]] : i32
// CHECK-NEXT:      %[[C1:.*]] = arith.addi %[[C]], %c1_i32 : i32
// CHECK-NEXT:      %[[CWRAP:.*]] = arith.cmpi eq, %[[C1]], %c3_i32 : i32
// CHECK-NEXT:      %[[NC:.*]] = arith.select %[[CWRAP]], %c0_i32, %[[C1]] : i32
// CHECK-NEXT:      %[[FLIP:.*]] = arith.xori %[[P]], %c1_i32 : i32
// CHECK-NEXT:      %[[NP:.*]] = arith.select %[[WRAP]], %[[FLIP]], %[[P]] : i32
// CHECK:           scf.yield {{.*}}, %[[NS]], %[[NC]], %[[NP]] : {{.*}}, i32, i32, i32
// CHECK-NOT:     xkernel.async_wait
// CHECK-LABEL: xkernel.program @linear(
// CHECK:         %[[MA:.*]] = xkernel.tensor_map %arg0 box [64, 64] swizzle 128 : memref<100x96xbf16> -> memref<128xi8>
// CHECK:         %[[MB:.*]] = xkernel.tensor_map %arg1 box [64, 64] swizzle 128 : memref<200x96xbf16> -> memref<128xi8>
// CHECK:         xkernel.launch @linear_matmul(%arg0, %arg1, %arg2, %[[MA]], %[[MB]])
// The swizzle mutation writes the boxes unswizzled; the parity mutation
// waits for the other parity.
// SWIZZLE: xkernel.tensor_map %arg0 box [64, 64] swizzle 0
// PARITY:      scf.for
// PARITY:      %[[OTHER:.*]] = arith.xori %{{.*}}, %c1 : index
// PARITY-NEXT: xkernel.mbarrier_wait %{{.*}}[%{{.*}}], %[[OTHER]]
// mma.sync (sm_80 on) has no TMA: cp.async.
// MMA-LABEL: xkernel.func @linear_matmul(
// MMA-NOT:   xkernel.tensor_map
// MMA:       xkernel.async_copy
// MMA-NOT:   xkernel.tma_load
func.func @linear(%x: tensor<100x96xbf16>, %w: tensor<200x96xbf16>) -> tensor<100x200xbf16> {
  %y = xtensor.linear %x, %w : (tensor<100x96xbf16>, tensor<200x96xbf16>) -> tensor<100x200xbf16>
  return %y : tensor<100x200xbf16>
}

// Rows 200 bytes apart (K = 100) are not 16-byte aligned for a tensor map:
// both operands stay on cp.async.
// CHECK-LABEL: xkernel.func @k100_matmul(
// CHECK-NOT:     xkernel.tensor_map
// CHECK:         xkernel.async_copy
// CHECK-NOT:     xkernel.tma_load
func.func @k100(%x: tensor<64x100xbf16>, %w: tensor<64x100xbf16>) -> tensor<64x64xbf16> {
  %y = xtensor.linear %x, %w : (tensor<64x100xbf16>, tensor<64x100xbf16>) -> tensor<64x64xbf16>
  return %y : tensor<64x64xbf16>
}

// Over a dynamic token count the rows' bound is the size T: still a box of
// [T, 128], the map made at T. W ([128, 64], contiguous along N) is one
// N-major panel of 64 columns.
// CHECK-LABEL: xkernel.func @tokens_matmul(
// CHECK-SAME:    xkernel.tensor_map = {box = array<i64: 64, 64>, of = 0 : i64, swizzle = 128 : i64}
// CHECK-SAME:    xkernel.tensor_map = {box = array<i64: 64, 64>, of = 1 : i64, swizzle = 128 : i64}
// CHECK-SAME:    %{{.*}}: index
// CHECK:         xkernel.tma_load
// CHECK-LABEL: xkernel.program @tokens[
// CHECK:         xkernel.tensor_map %arg0 box [64, 64] swizzle 128 : memref<?x128xbf16> -> memref<128xi8>
#T = #xtensor.dims<T>
func.func @tokens(%x: tensor<?x128xbf16, #T>, %w: tensor<128x64xbf16>) -> tensor<?x64xbf16, #T>
    attributes {xtensor.symbols = {T = array<i64: 1, 4096>}} {
  %y = xtensor.matmul %x, %w : tensor<?x128xbf16, #T>, tensor<128x64xbf16> -> tensor<?x64xbf16, #T>
  return %y : tensor<?x64xbf16, #T>
}

// Batched: the batch is a box of 1 at the program's batch index.
// CHECK-LABEL: xkernel.func @batched_matmul(
// CHECK-SAME:    xkernel.tensor_map = {box = array<i64: 1, 64, 64>, of = 0 : i64, swizzle = 128 : i64}
// CHECK:         xkernel.tma_load %arg3[%{{.*}}, %{{.*}}, %{{.*}}]
func.func @batched(%x: tensor<2x64x128xbf16>, %w: tensor<2x128x64xbf16>) -> tensor<2x64x64xbf16> {
  %y = xtensor.matmul %x, %w : tensor<2x64x128xbf16>, tensor<2x128x64xbf16> -> tensor<2x64x64xbf16>
  return %y : tensor<2x64x64xbf16>
}

// A dimension of 2^31 rows does not fit TMA's 32-bit coordinates: x stays
// on cp.async, W comes in by TMA.
// CHECK-LABEL: xkernel.func @huge_matmul(
// CHECK-SAME:    xkernel.tensor_map = {box = array<i64: 64, 64>, of = 1 : i64, swizzle = 128 : i64}
// CHECK-NOT:     of = 0 : i64
// CHECK:         xkernel.async_copy %arg0
// CHECK:         xkernel.tma_load %arg3
func.func @huge(%x: tensor<2147483648x128xbf16>, %w: tensor<64x128xbf16>) -> tensor<2147483648x64xbf16> {
  %y = xtensor.linear %x, %w : (tensor<2147483648x128xbf16>, tensor<64x128xbf16>) -> tensor<2147483648x64xbf16>
  return %y : tensor<2147483648x64xbf16>
}
