// RUN: xtile-opt %s --lower-to-kernel="target=sm_90a force-schedule='#xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 64, stages = 3, warps = 4, instruction = wgmma, warps_m = 4, warp_specialized = true>'" | FileCheck %s
// RUN: xtile-opt %s --lower-to-kernel="target=sm_90a force-schedule='#xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 64, stages = 3, warps = 4, instruction = wgmma, warps_m = 4, warp_specialized = true>' test-mutate=release" | FileCheck %s --check-prefix=RELEASE
// RUN: not xtile-opt %s --lower-to-kernel="target=sm_90a force-schedule='#xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 64, stages = 3, warps = 4, instruction = mma_sync, warps_m = 2, warp_specialized = true>'" 2>&1 | FileCheck %s --check-prefix=INVALID

// A ragged x W^T, warp-specialized: the block is the schedule's 4 warps of
// consumers and a producer warpgroup (threads 128 to 255). Thread 0
// initializes a full mbarrier per stage (one arrival, the producer's
// expect_tx, and the 16 KiB of the stage's two boxes) and an empty one
// (128 arrivals: every consumer thread's), and the whole block meets once.
// CHECK-LABEL: xkernel.func @linear_matmul(
// CHECK-SAME:    max_threads = 256
// CHECK-DAG:     %[[A:.*]] = xkernel.dynamic_shared 0 : <bf16, shared>
// CHECK-DAG:     %[[B:.*]] = xkernel.dynamic_shared 24576 : <bf16, shared>
// CHECK-DAG:     %[[FULL:.*]] = xkernel.dynamic_shared 49152 : <i64, shared>
// CHECK-DAG:     %[[EMPTY:.*]] = xkernel.dynamic_shared 49184 : <i64, shared>
// CHECK:         xkernel.mbarrier_init %[[FULL]][%c2], 1
// CHECK-NEXT:    xkernel.mbarrier_init %[[EMPTY]][%c0], 128
// CHECK-NEXT:    xkernel.mbarrier_init %[[EMPTY]][%c1], 128
// CHECK-NEXT:    xkernel.mbarrier_init %[[EMPTY]][%c2], 128
// CHECK-NEXT:  }
// CHECK-NEXT:  xkernel.barrier
// The producer warpgroup goes to 40 registers; its first thread loops over
// the K steps (2 of 64 for K = 96), carrying the stage and the round's
// parity r % 2: it waits for parity (r - 1) % 2 of the stage's empty
// barrier (round 0 waits for parity 1, the phase before the first, which
// counts as complete), expects the bytes and starts the boxes.
// CHECK-NEXT:  %[[P:.*]] = arith.cmpi uge, %[[TID:.*]], %c128 : index
// CHECK-NEXT:  scf.if %[[P]] {
// CHECK-NEXT:    xkernel.set_max_registers decrease 40
// CHECK-NEXT:    %[[ELECTED:.*]] = arith.cmpi eq, %[[TID]], %c128 : index
// CHECK-NEXT:    scf.if %[[ELECTED]] {
// CHECK-NEXT:      scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args(%[[S:.*]] = %c0_i32, %[[R:.*]] = %c0_i32) -> (i32, i32) {
// CHECK-NEXT:        %[[W:.*]] = arith.xori %[[R]], %c1_i32 : i32
// CHECK-NEXT:        %[[WI:.*]] = arith.index_castui %[[W]] : i32 to index
// CHECK-NEXT:        %[[SI:.*]] = arith.index_castui %[[S]] : i32 to index
// CHECK-NEXT:        xkernel.mbarrier_wait %[[EMPTY]][%[[SI]]], %[[WI]]
// CHECK:             xkernel.mbarrier_arrive_expect_tx %[[FULL]][%[[SI]]], 16384
// CHECK:             xkernel.tma_load %arg3[{{.*}}] to %[[A]][{{.*}}] barrier %[[FULL]][%[[SI]]]
// CHECK:             xkernel.tma_load %arg4[{{.*}}] to %[[B]][{{.*}}] barrier %[[FULL]][%[[SI]]]
// CHECK:             scf.yield
// The consumers take 72 registers (32 accumulators and 40) and wait for
// each stage's copies; each
// K step leaves its wgmma group in flight and then releases the stage the
// previous step read (not in the first step), whose group the wait
// retired: one arrival per consumer thread, no barrier of the block.
// CHECK:       %[[C:.*]] = arith.cmpi ult, %[[TID]], %c128 : index
// CHECK-NEXT:  scf.if %[[C]] {
// CHECK-NEXT:    xkernel.set_max_registers increase 72
// CHECK-NEXT:    scf.for %[[K:.*]] = %c0 to %c96 step %c64 iter_args({{.*}}, %[[CUR:.*]] = %c0_i32, %[[PAR:.*]] = %c0_i32) -> ({{.*}}, i32, i32) {
// CHECK-NEXT:      %[[CURI:.*]] = arith.index_castui %[[CUR]] : i32 to index
// CHECK-NEXT:      %[[DOWN:.*]] = arith.subi %[[CUR]], %c1_i32 : i32
// CHECK-NEXT:      %[[WRAP:.*]] = arith.cmpi eq, %[[CUR]], %c0_i32 : i32
// CHECK-NEXT:      %[[PREV:.*]] = arith.select %[[WRAP]], %c2_i32, %[[DOWN]] : i32
// CHECK-NEXT:      %[[LATER:.*]] = arith.cmpi ne, %[[K]], %c0 : index
// CHECK-NEXT:      %[[PARI:.*]] = arith.index_castui %[[PAR]] : i32 to index
// CHECK-NEXT:      xkernel.mbarrier_wait %[[FULL]][%[[CURI]]], %[[PARI]]
// CHECK:           xkernel.wgmma_commit
// CHECK-NEXT:      xkernel.wgmma_wait 1
// CHECK-NOT:       xkernel.barrier
// CHECK:           %[[PREVI:.*]] = arith.index_castui %[[PREV]] : i32 to index
// CHECK-NEXT:      scf.if %[[LATER]] {
// CHECK-NEXT:        xkernel.mbarrier_arrive %[[EMPTY]][%[[PREVI]]]
// CHECK-NEXT:      }
// CHECK-NOT:       xkernel.barrier
// CHECK:           scf.yield
// The epilogue (through shared memory) runs on the consumers alone, which
// meet on named barrier 1; the function returns after both branches.
// CHECK:         xkernel.wgmma_wait 0
// CHECK:         xkernel.barrier 1, 128
// CHECK:         xkernel.barrier 1, 128
// CHECK-NOT:     xkernel.barrier
// CHECK:         xkernel.return
// The release mutation: the producer does not wait for the consumers.
// RELEASE-LABEL: xkernel.func @linear_matmul(
// RELEASE:         xkernel.set_max_registers decrease 40
// RELEASE-NOT:     xkernel.mbarrier_wait
// RELEASE:         xkernel.mbarrier_arrive_expect_tx
func.func @linear(%x: tensor<100x96xbf16>, %w: tensor<200x96xbf16>) -> tensor<100x200xbf16> {
  %y = xtensor.linear %x, %w : (tensor<100x96xbf16>, tensor<200x96xbf16>) -> tensor<100x200xbf16>
  return %y : tensor<100x200xbf16>
}

// K = 97: the operand tiles are staged from registers in each step, not
// brought in by TMA, and there is nothing for a producer to issue. The
// kernel keeps its 256 threads, the producer warpgroup idle: the consumers
// run the usual loop, their barriers named.
// CHECK-LABEL: xkernel.func @k97_matmul(
// CHECK-SAME:    max_threads = 256
// CHECK-NOT:     xkernel.set_max_registers
// CHECK:         %[[C:.*]] = arith.cmpi ult, %{{.*}}, %c128 : index
// CHECK-NEXT:    scf.if %[[C]] {
// CHECK-NEXT:      scf.for
// CHECK-NOT:         xkernel.tma_load
// CHECK:             xkernel.barrier 1, 128
// CHECK:             xkernel.wgmma
// CHECK:             xkernel.barrier 1, 128
// CHECK-NOT:     xkernel.barrier{{$}}
// CHECK:         xkernel.return
func.func @k97(%x: tensor<64x97xbf16>, %w: tensor<64x97xbf16>) -> tensor<64x64xbf16> {
  %y = xtensor.linear %x, %w : (tensor<64x97xbf16>, tensor<64x97xbf16>) -> tensor<64x64xbf16>
  return %y : tensor<64x64xbf16>
}

// INVALID: error: warp_specialized needs instruction = wgmma, 2 or more stages and one way; got instruction = mma_sync, stages = 3, ways = 1
