// RUN: xtile-opt %s --xtile-plan-pipelines --convert-xtile-to-xkernel --canonicalize --cse | FileCheck %s --enable-var-scope
// RUN: xtile-opt %s --xtile-plan-pipelines --test-convert-xtile-to-xkernel-mutated="mutation=release" --canonicalize --cse | FileCheck %s --enable-var-scope --check-prefix=RELEASE

// canonicalize and cse only tidy the conversion's output (it materializes
// a constant per use) so that constants can be matched by their values.
// That a warp-specialized schedule needs wgmma is the schedule attribute's
// verifier's (test/Integration/forced-schedules.mlir reports it through
// --lower-to-kernel).

#sm90a = #xtile.target<arch = "sm_90a", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800, wgmma_gflops = 989000>
#ws = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 64, stages = 3, warps = 4, instruction = wgmma, warps_m = 4, warp_specialized = true>

// A ragged x W^T, warp-specialized: the block is the schedule's 4 warps of
// consumers and a producer warpgroup (threads 128 to 255). Thread 0
// initializes a full mbarrier per stage (one arrival, the producer's
// expect_tx, and the 16 KiB of the stage's two boxes) and an empty one
// (128 arrivals: every consumer thread's), and the whole block meets once.
// CHECK-LABEL: xkernel.func @linear_matmul(
// CHECK-SAME:    %[[MAPA:[^:]*]]: !xkernel.ptr<i8, global> {xkernel.readonly, xkernel.tensor_map = {box = array<i64: 64, 64>, of = 0 : i64, swizzle = 128 : i64}}
// CHECK-SAME:    %[[MAPB:[^:]*]]: !xkernel.ptr<i8, global> {xkernel.readonly, xkernel.tensor_map = {box = array<i64: 64, 64>, of = 1 : i64, swizzle = 128 : i64}}
// CHECK-SAME:    max_threads = 256
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG:     %[[C96:.*]] = arith.constant 96 : index
// CHECK-DAG:     %[[C128:.*]] = arith.constant 128 : index
// CHECK-DAG:     %[[I0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[I1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[I2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[A:.*]] = xkernel.dynamic_shared 0 : <bf16, shared>
// CHECK-DAG:     %[[B:.*]] = xkernel.dynamic_shared 24576 : <bf16, shared>
// CHECK-DAG:     %[[FULL:.*]] = xkernel.dynamic_shared 49152 : <i64, shared>
// CHECK-DAG:     %[[EMPTY:.*]] = xkernel.dynamic_shared 49184 : <i64, shared>
// CHECK:         xkernel.mbarrier_init %[[FULL]][%[[C2]]], 1
// CHECK-NEXT:    xkernel.mbarrier_init %[[EMPTY]][%[[C0]]], 128
// CHECK-NEXT:    xkernel.mbarrier_init %[[EMPTY]][%[[C1]]], 128
// CHECK-NEXT:    xkernel.mbarrier_init %[[EMPTY]][%[[C2]]], 128
// CHECK-NEXT:  }
// CHECK-NEXT:  xkernel.barrier
// The producer warpgroup goes to 40 registers; its first thread loops over
// the K steps (2 of 64 for K = 96), carrying the stage and the round's
// parity r % 2: it waits for parity (r - 1) % 2 of the stage's empty
// barrier (round 0 waits for parity 1, the phase before the first, which
// counts as complete), expects the bytes and starts the boxes.
// CHECK-NEXT:  %[[P:.*]] = arith.cmpi uge, %[[TID:.*]], %[[C128]] : index
// CHECK-NEXT:  scf.if %[[P]] {
// CHECK-NEXT:    xkernel.set_max_registers decrease 40
// CHECK-NEXT:    %[[ELECTED:.*]] = arith.cmpi eq, %[[TID]], %[[C128]] : index
// CHECK-NEXT:    scf.if %[[ELECTED]] {
// CHECK-NEXT:      scf.for %{{.*}} = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%[[S:.*]] = %[[I0]], %[[R:.*]] = %[[I0]]) -> (i32, i32) {
// CHECK-NEXT:        %[[W:.*]] = arith.xori %[[R]], %[[I1]] : i32
// CHECK-NEXT:        %[[WI:.*]] = arith.index_castui %[[W]] : i32 to index
// CHECK-NEXT:        %[[SI:.*]] = arith.index_castui %[[S]] : i32 to index
// CHECK-NEXT:        xkernel.mbarrier_wait %[[EMPTY]][%[[SI]]], %[[WI]]
// CHECK:             xkernel.mbarrier_arrive_expect_tx %[[FULL]][%[[SI]]], 16384
// CHECK:             xkernel.tma_load %[[MAPA]][{{.*}}] to %[[A]][{{.*}}] barrier %[[FULL]][%[[SI]]]
// CHECK:             xkernel.tma_load %[[MAPB]][{{.*}}] to %[[B]][{{.*}}] barrier %[[FULL]][%[[SI]]]
// CHECK:             scf.yield
// The consumers take 96 registers (32 accumulators, 40 for the loop and 24
// for the epilogue) and wait for each stage's copies; each
// K step leaves its wgmma group in flight and then releases the stage the
// previous step read (not in the first step), whose group the wait
// retired: one arrival per consumer thread, no barrier of the block.
// CHECK:       %[[C:.*]] = arith.cmpi ult, %[[TID]], %[[C128]] : index
// CHECK-NEXT:  scf.if %[[C]] {
// CHECK-NEXT:    xkernel.set_max_registers increase 96
// CHECK-NEXT:    scf.for %[[K:.*]] = %[[C0]] to %[[C96]] step %[[C64]] iter_args({{.*}}, %[[CUR:.*]] = %[[I0]], %[[PAR:.*]] = %[[I0]]) -> ({{.*}}, i32, i32) {
// CHECK-NEXT:      %[[CURI:.*]] = arith.index_castui %[[CUR]] : i32 to index
// CHECK-NEXT:      %[[DOWN:.*]] = arith.subi %[[CUR]], %[[I1]] : i32
// CHECK-NEXT:      %[[WRAP:.*]] = arith.cmpi eq, %[[CUR]], %[[I0]] : i32
// CHECK-NEXT:      %[[PREV:.*]] = arith.select %[[WRAP]], %[[I2]], %[[DOWN]] : i32
// CHECK-NEXT:      %[[LATER:.*]] = arith.cmpi ne, %[[K]], %[[C0]] : index
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
xtile.kernel @linear_matmul(%x: memref<100x96xbf16>, %w: memref<200x96xbf16>) -> (%y: memref<100x200xbf16>)
    attributes {grid = array<i64: 8>, num_warps = 4 : i64, schedule = #ws, target = #sm90a} {
  %cst = arith.constant 0.000000e+00 : bf16
  %cst_0 = arith.constant dense<200> : tensor<64x64xindex>
  %cst_1 = arith.constant dense<100> : tensor<64x64xindex>
  %cst_2 = arith.constant dense<96> : tensor<64x64xindex>
  %c0 = arith.constant 0 : index
  %c96 = arith.constant 96 : index
  %c64 = arith.constant 64 : index
  %cst_3 = arith.constant 0.000000e+00 : f32
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %0 = xtile.program_id 0
  %1 = arith.remui %0, %c4 : index
  %2 = arith.divui %0, %c4 : index
  %3 = arith.remui %2, %c2 : index
  %4 = arith.muli %3, %c64 : index
  %5 = arith.muli %1, %c64 : index
  %6 = xtile.splat %cst_3 : f32 -> tensor<64x64xf32>
  %7 = scf.for %k = %c0 to %c96 step %c64 iter_args(%acc = %6) -> (tensor<64x64xf32>) {
    %21 = xtile.range 0 to 64 : tensor<64xindex>
    %22 = xtile.splat %4 : index -> tensor<64xindex>
    %23 = arith.addi %21, %22 : tensor<64xindex>
    %24 = xtile.reshape %23 : tensor<64xindex> -> tensor<64x1xindex>
    %25 = xtile.broadcast %24 : tensor<64x1xindex> -> tensor<64x64xindex>
    %26 = xtile.splat %k : index -> tensor<64xindex>
    %27 = arith.addi %21, %26 : tensor<64xindex>
    %28 = xtile.reshape %27 : tensor<64xindex> -> tensor<1x64xindex>
    %29 = xtile.broadcast %28 : tensor<1x64xindex> -> tensor<64x64xindex>
    %30 = xtile.reshape %27 : tensor<64xindex> -> tensor<64x1xindex>
    %31 = xtile.broadcast %30 : tensor<64x1xindex> -> tensor<64x64xindex>
    %32 = xtile.splat %5 : index -> tensor<64xindex>
    %33 = arith.addi %21, %32 : tensor<64xindex>
    %34 = xtile.reshape %33 : tensor<64xindex> -> tensor<1x64xindex>
    %35 = xtile.broadcast %34 : tensor<1x64xindex> -> tensor<64x64xindex>
    %36 = arith.cmpi slt, %29, %cst_2 : tensor<64x64xindex>
    %37 = arith.cmpi slt, %25, %cst_1 : tensor<64x64xindex>
    %38 = arith.andi %37, %36 : tensor<64x64xi1>
    %39 = arith.cmpi slt, %35, %cst_0 : tensor<64x64xindex>
    %40 = arith.cmpi slt, %31, %cst_2 : tensor<64x64xindex>
    %41 = arith.andi %40, %39 : tensor<64x64xi1>
    %42 = xtile.load %x[%25, %29] mask %38 : tensor<64x64xi1> other %cst : bf16 : memref<100x96xbf16>[tensor<64x64xindex>, tensor<64x64xindex>] -> tensor<64x64xbf16>
    %43 = xtile.load %w[%35, %31] mask %41 : tensor<64x64xi1> other %cst : bf16 : memref<200x96xbf16>[tensor<64x64xindex>, tensor<64x64xindex>] -> tensor<64x64xbf16>
    %44 = xtile.splat %cst : bf16 -> tensor<64x64xbf16>
    %45 = arith.select %38, %42, %44 : tensor<64x64xi1>, tensor<64x64xbf16>
    %46 = arith.select %41, %43, %44 : tensor<64x64xi1>, tensor<64x64xbf16>
    %47 = xtile.dot %45, %46, %acc : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    scf.yield %47 : tensor<64x64xf32>
  } {xtile.num_stages = 3 : i64}
  %8 = xtile.range 0 to 64 : tensor<64xindex>
  %9 = xtile.splat %4 : index -> tensor<64xindex>
  %10 = arith.addi %8, %9 : tensor<64xindex>
  %11 = xtile.reshape %10 : tensor<64xindex> -> tensor<64x1xindex>
  %12 = xtile.broadcast %11 : tensor<64x1xindex> -> tensor<64x64xindex>
  %13 = xtile.splat %5 : index -> tensor<64xindex>
  %14 = arith.addi %8, %13 : tensor<64xindex>
  %15 = xtile.reshape %14 : tensor<64xindex> -> tensor<1x64xindex>
  %16 = xtile.broadcast %15 : tensor<1x64xindex> -> tensor<64x64xindex>
  %17 = arith.cmpi slt, %16, %cst_0 : tensor<64x64xindex>
  %18 = arith.cmpi slt, %12, %cst_1 : tensor<64x64xindex>
  %19 = arith.andi %18, %17 : tensor<64x64xi1>
  %20 = arith.truncf %7 : tensor<64x64xf32> to tensor<64x64xbf16>
  xtile.store %20, %y[%12, %16] mask %19 : tensor<64x64xi1> : memref<100x200xbf16>[tensor<64x64xindex>, tensor<64x64xindex>], tensor<64x64xbf16>
}

// K = 97: the operand tiles are staged from registers in each step, not
// brought in by TMA, and there is nothing for a producer to issue. The
// kernel keeps its 256 threads, the producer warpgroup idle: the consumers
// run the usual loop, their barriers named.
// CHECK-LABEL: xkernel.func @k97_matmul(
// CHECK-SAME:    max_threads = 256
// CHECK-DAG:     %[[C128:.*]] = arith.constant 128 : index
// CHECK-NOT:     xkernel.set_max_registers
// CHECK:         %[[C:.*]] = arith.cmpi ult, %{{.*}}, %[[C128]] : index
// CHECK-NEXT:    scf.if %[[C]] {
// CHECK-NEXT:      scf.for
// CHECK-NOT:         xkernel.tma_load
// CHECK:             xkernel.barrier 1, 128
// CHECK:             xkernel.wgmma
// CHECK:             xkernel.barrier 1, 128
// CHECK-NOT:     xkernel.barrier{{$}}
// CHECK:         xkernel.return
xtile.kernel @k97_matmul(%x: memref<64x97xbf16>, %w: memref<64x97xbf16>) -> (%y: memref<64x64xbf16>)
    attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #ws, target = #sm90a} {
  %cst = arith.constant 0.000000e+00 : bf16
  %cst_0 = arith.constant dense<64> : tensor<64x64xindex>
  %cst_1 = arith.constant dense<97> : tensor<64x64xindex>
  %c0 = arith.constant 0 : index
  %c97 = arith.constant 97 : index
  %c64 = arith.constant 64 : index
  %cst_2 = arith.constant 0.000000e+00 : f32
  %0 = xtile.splat %cst_2 : f32 -> tensor<64x64xf32>
  %1 = scf.for %k = %c0 to %c97 step %c64 iter_args(%acc = %0) -> (tensor<64x64xf32>) {
    %10 = xtile.range 0 to 64 : tensor<64xindex>
    %11 = xtile.splat %c0 : index -> tensor<64xindex>
    %12 = arith.addi %10, %11 : tensor<64xindex>
    %13 = xtile.reshape %12 : tensor<64xindex> -> tensor<64x1xindex>
    %14 = xtile.broadcast %13 : tensor<64x1xindex> -> tensor<64x64xindex>
    %15 = xtile.splat %k : index -> tensor<64xindex>
    %16 = arith.addi %10, %15 : tensor<64xindex>
    %17 = xtile.reshape %16 : tensor<64xindex> -> tensor<1x64xindex>
    %18 = xtile.broadcast %17 : tensor<1x64xindex> -> tensor<64x64xindex>
    %19 = xtile.reshape %16 : tensor<64xindex> -> tensor<64x1xindex>
    %20 = xtile.broadcast %19 : tensor<64x1xindex> -> tensor<64x64xindex>
    %21 = xtile.reshape %12 : tensor<64xindex> -> tensor<1x64xindex>
    %22 = xtile.broadcast %21 : tensor<1x64xindex> -> tensor<64x64xindex>
    %23 = arith.cmpi slt, %18, %cst_1 : tensor<64x64xindex>
    %24 = arith.cmpi slt, %14, %cst_0 : tensor<64x64xindex>
    %25 = arith.andi %24, %23 : tensor<64x64xi1>
    %26 = arith.cmpi slt, %22, %cst_0 : tensor<64x64xindex>
    %27 = arith.cmpi slt, %20, %cst_1 : tensor<64x64xindex>
    %28 = arith.andi %27, %26 : tensor<64x64xi1>
    %29 = xtile.load %x[%14, %18] mask %25 : tensor<64x64xi1> other %cst : bf16 : memref<64x97xbf16>[tensor<64x64xindex>, tensor<64x64xindex>] -> tensor<64x64xbf16>
    %30 = xtile.load %w[%22, %20] mask %28 : tensor<64x64xi1> other %cst : bf16 : memref<64x97xbf16>[tensor<64x64xindex>, tensor<64x64xindex>] -> tensor<64x64xbf16>
    %31 = xtile.splat %cst : bf16 -> tensor<64x64xbf16>
    %32 = arith.select %25, %29, %31 : tensor<64x64xi1>, tensor<64x64xbf16>
    %33 = arith.select %28, %30, %31 : tensor<64x64xi1>, tensor<64x64xbf16>
    %34 = xtile.dot %32, %33, %acc : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    scf.yield %34 : tensor<64x64xf32>
  } {xtile.num_stages = 3 : i64}
  %2 = xtile.range 0 to 64 : tensor<64xindex>
  %3 = xtile.splat %c0 : index -> tensor<64xindex>
  %4 = arith.addi %2, %3 : tensor<64xindex>
  %5 = xtile.reshape %4 : tensor<64xindex> -> tensor<64x1xindex>
  %6 = xtile.broadcast %5 : tensor<64x1xindex> -> tensor<64x64xindex>
  %7 = xtile.reshape %4 : tensor<64xindex> -> tensor<1x64xindex>
  %8 = xtile.broadcast %7 : tensor<1x64xindex> -> tensor<64x64xindex>
  %9 = arith.truncf %1 : tensor<64x64xf32> to tensor<64x64xbf16>
  xtile.store %9, %y[%6, %8] : memref<64x64xbf16>[tensor<64x64xindex>, tensor<64x64xindex>], tensor<64x64xbf16>
}
