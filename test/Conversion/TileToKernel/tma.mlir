// RUN: xtile-opt %s --xtile-plan-pipelines --convert-xtile-to-xkernel --canonicalize --cse | FileCheck %s --enable-var-scope
// RUN: xtile-opt %s --xtile-plan-pipelines --test-convert-xtile-to-xkernel-mutated="mutation=swizzle" --canonicalize --cse | FileCheck %s --enable-var-scope --check-prefix=SWIZZLE
// RUN: xtile-opt %s --xtile-plan-pipelines --test-convert-xtile-to-xkernel-mutated="mutation=parity" --canonicalize --cse | FileCheck %s --enable-var-scope --check-prefix=PARITY

// canonicalize and cse only tidy the conversion's output (it materializes
// a constant per use) so that constants can be matched by their values.

#sm90a = #xtile.target<arch = "sm_90a", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800, wgmma_gflops = 989000>
#wgmma = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 64, stages = 3, warps = 4, instruction = wgmma, warps_m = 4>
#map = affine_map<()[s0] -> (s0 ceildiv 64)>

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
// CHECK-SAME:    %[[MAPA:[^:]*]]: !xkernel.ptr<i8, global> {xkernel.readonly, xkernel.tensor_map = {box = array<i64: 64, 64>, of = 0 : i64, swizzle = 128 : i64}}
// CHECK-SAME:    %[[MAPB:[^:]*]]: !xkernel.ptr<i8, global> {xkernel.readonly, xkernel.tensor_map = {box = array<i64: 64, 64>, of = 1 : i64, swizzle = 128 : i64}}
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG:     %[[C96:.*]] = arith.constant 96 : index
// CHECK-DAG:     %[[I0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[I1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[I3:.*]] = arith.constant 3 : i32
// CHECK-DAG:     %[[A:.*]] = xkernel.dynamic_shared 0 : <bf16, shared>
// CHECK-DAG:     %[[B:.*]] = xkernel.dynamic_shared 24576 : <bf16, shared>
// CHECK-DAG:     %[[BAR:.*]] = xkernel.dynamic_shared 49152 : <i64, shared>
// CHECK-DAG:     %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %[[C0]] : index
// CHECK:         scf.if %[[FIRST]] {
// CHECK-NEXT:      xkernel.mbarrier_init %[[BAR]][%[[C0]]], 1
// CHECK-NEXT:      xkernel.mbarrier_init %[[BAR]][%[[C1]]], 1
// CHECK-NEXT:      xkernel.mbarrier_init %[[BAR]][%[[C2]]], 1
// CHECK-NEXT:    }
// CHECK-NEXT:    xkernel.barrier
// CHECK:         scf.if %[[FIRST]] {
// CHECK-NEXT:      xkernel.mbarrier_arrive_expect_tx %[[BAR]][%[[C0]]], 16384
// CHECK:           xkernel.tma_load %[[MAPA]][%{{.*}}, %[[I0]]] to %[[A]][%[[C0]]] barrier %[[BAR]][%[[C0]]]
// CHECK:           xkernel.tma_load %[[MAPB]][%{{.*}}, %[[I0]]] to %[[B]][%[[C0]]] barrier %[[BAR]][%[[C0]]]
// CHECK-NOT:     xkernel.async_copy
// CHECK:         scf.for %[[IV:.*]] = %[[C0]] to %[[C96]] step %[[C64]] iter_args({{.*}}, %[[S:[a-z0-9_]+]] = %[[I0]], %[[C:[a-z0-9_]+]] = %[[I1]], %[[P:[a-z0-9_]+]] = %[[I0]])
// CHECK:           %[[STAGE:.*]] = arith.index_castui %[[S]] : i32 to index
// CHECK-NEXT:      %[[COPY:.*]] = arith.index_castui %[[C]] : i32 to index
// CHECK:           scf.if
// CHECK:             scf.if %[[FIRST]] {
// CHECK:               xkernel.mbarrier_arrive_expect_tx %[[BAR]][%[[COPY]]], 16384
// CHECK:               xkernel.tma_load %[[MAPA]]
// CHECK:               xkernel.tma_load %[[MAPB]]
// CHECK:           %[[BIT:.*]] = arith.index_castui %[[P]] : i32 to index
// CHECK-NEXT:      xkernel.mbarrier_wait %[[BAR]][%[[STAGE]]], %[[BIT]]
// CHECK:           xkernel.wgmma_fence
// The next iteration's stages and parity, without dividing by 3:
// CHECK:           xkernel.barrier
// CHECK-NEXT:      %[[S1:.*]] = arith.addi %[[S]], %[[I1]] : i32
// CHECK-NEXT:      %[[WRAP:.*]] = arith.cmpi eq, %[[S1]], %[[I3]] : i32
// CHECK-NEXT:      %[[NS:.*]] = arith.select %[[WRAP]], %[[I0]], %[[S1]] : i32
// CHECK-NEXT:      %[[CP1:.*]] = arith.addi %[[C]], %[[I1]] : i32
// CHECK-NEXT:      %[[CWRAP:.*]] = arith.cmpi eq, %[[CP1]], %[[I3]] : i32
// CHECK-NEXT:      %[[NC:.*]] = arith.select %[[CWRAP]], %[[I0]], %[[CP1]] : i32
// CHECK-NEXT:      %[[FLIP:.*]] = arith.xori %[[P]], %[[I1]] : i32
// CHECK-NEXT:      %[[NP:.*]] = arith.select %[[WRAP]], %[[FLIP]], %[[P]] : i32
// CHECK:           scf.yield {{.*}}, %[[NS]], %[[NC]], %[[NP]] : {{.*}}, i32, i32, i32
// CHECK-NOT:     xkernel.async_wait
// The parity mutation waits for the other parity.
// PARITY-LABEL: xkernel.func @linear_matmul(
// PARITY-DAG:   %[[C1:.*]] = arith.constant 1 : index
// PARITY:       scf.for
// PARITY:       %[[OTHER:.*]] = arith.xori %{{.*}}, %[[C1]] : index
// PARITY-NEXT:  xkernel.mbarrier_wait %{{.*}}[%{{.*}}], %[[OTHER]]
xtile.kernel @linear_matmul(%x: memref<100x96xbf16>, %w: memref<200x96xbf16>) -> (%y: memref<100x200xbf16>)
    attributes {grid = array<i64: 8>, num_warps = 4 : i64, schedule = #wgmma, target = #sm90a} {
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

// The program makes the tensor maps of x and W and passes them after the
// buffers. The swizzle mutation makes them unswizzled.
// CHECK-LABEL: xkernel.program @linear(
// CHECK-SAME:    %[[X:[^:]*]]: memref<100x96xbf16>, %[[W:[^:]*]]: memref<200x96xbf16>) -> (%[[Y:[^:]*]]: memref<100x200xbf16>)
// CHECK:         %[[MA:.*]] = xkernel.tensor_map %[[X]] box [64, 64] swizzle 128 : memref<100x96xbf16> -> memref<128xi8>
// CHECK:         %[[MB:.*]] = xkernel.tensor_map %[[W]] box [64, 64] swizzle 128 : memref<200x96xbf16> -> memref<128xi8>
// CHECK:         xkernel.launch @linear_matmul(%[[X]], %[[W]], %[[Y]], %[[MA]], %[[MB]])
// SWIZZLE-LABEL: xkernel.program @linear(
// SWIZZLE-SAME:    %[[X:[^:]*]]: memref<100x96xbf16>
// SWIZZLE:         xkernel.tensor_map %[[X]] box [64, 64] swizzle 0
func.func @linear(%x: tensor<100x96xbf16>, %w: tensor<200x96xbf16>) -> tensor<100x200xbf16> {
  %0 = xtile.launch @linear_matmul(%x, %w) : (tensor<100x96xbf16>, tensor<200x96xbf16>) -> tensor<100x200xbf16>
  return %0 : tensor<100x200xbf16>
}

// The same kernel on mma.sync (sm_80 on), which has no TMA: cp.async.
// CHECK-LABEL: xkernel.func @linear_mma_sync(
// CHECK-NOT:     xkernel.tensor_map
// CHECK:         xkernel.async_copy
// CHECK-NOT:     xkernel.tma_load
xtile.kernel @linear_mma_sync(%x: memref<100x96xbf16>, %w: memref<200x96xbf16>) -> (%y: memref<100x200xbf16>)
    attributes {grid = array<i64: 8>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 64, stages = 3, warps = 4, instruction = mma_sync, warps_m = 2>, target = #sm90a} {
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

// Rows 200 bytes apart (K = 100) are not 16-byte aligned for a tensor map:
// both operands stay on cp.async.
// CHECK-LABEL: xkernel.func @k100_matmul(
// CHECK-NOT:     xkernel.tensor_map
// CHECK:         xkernel.async_copy
// CHECK-NOT:     xkernel.tma_load
xtile.kernel @k100_matmul(%x: memref<64x100xbf16>, %w: memref<64x100xbf16>) -> (%y: memref<64x64xbf16>)
    attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #wgmma, target = #sm90a} {
  %cst = arith.constant 0.000000e+00 : bf16
  %cst_0 = arith.constant dense<64> : tensor<64x64xindex>
  %cst_1 = arith.constant dense<100> : tensor<64x64xindex>
  %c0 = arith.constant 0 : index
  %c100 = arith.constant 100 : index
  %c64 = arith.constant 64 : index
  %cst_2 = arith.constant 0.000000e+00 : f32
  %0 = xtile.splat %cst_2 : f32 -> tensor<64x64xf32>
  %1 = scf.for %k = %c0 to %c100 step %c64 iter_args(%acc = %0) -> (tensor<64x64xf32>) {
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
    %29 = xtile.load %x[%14, %18] mask %25 : tensor<64x64xi1> other %cst : bf16 : memref<64x100xbf16>[tensor<64x64xindex>, tensor<64x64xindex>] -> tensor<64x64xbf16>
    %30 = xtile.load %w[%22, %20] mask %28 : tensor<64x64xi1> other %cst : bf16 : memref<64x100xbf16>[tensor<64x64xindex>, tensor<64x64xindex>] -> tensor<64x64xbf16>
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

// Over a dynamic token count the rows' bound is the size T: still a box of
// [T, 128], the map made at T. W ([128, 64], contiguous along N) is one
// N-major panel of 64 columns.
// CHECK-LABEL: xkernel.func @tokens_matmul(
// CHECK-SAME:    xkernel.tensor_map = {box = array<i64: 64, 64>, of = 0 : i64, swizzle = 128 : i64}
// CHECK-SAME:    xkernel.tensor_map = {box = array<i64: 64, 64>, of = 1 : i64, swizzle = 128 : i64}
// CHECK-SAME:    %{{.*}}: index
// CHECK:         xkernel.tma_load
xtile.kernel @tokens_matmul[%T = 1 to 4096](%x: memref<?x128xbf16> [%T], %w: memref<128x64xbf16>) -> (%y: memref<?x64xbf16> [%T])
    attributes {grid = array<i64: 64>, grid_map = #map, num_warps = 4 : i64, schedule = #wgmma, size_hints = array<i64: 1024>, target = #sm90a} {
  %cst = arith.constant dense<64> : tensor<64x64xindex>
  %cst_0 = arith.constant 0.000000e+00 : bf16
  %cst_1 = arith.constant dense<128> : tensor<64x64xindex>
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %cst_2 = arith.constant 0.000000e+00 : f32
  %c64 = arith.constant 64 : index
  %c63 = arith.constant 63 : index
  %0 = arith.addi %T, %c63 : index
  %1 = arith.divui %0, %c64 : index
  %2 = xtile.program_id 0
  %3 = arith.remui %2, %1 : index
  %4 = arith.muli %3, %c64 : index
  %5 = xtile.splat %cst_2 : f32 -> tensor<64x64xf32>
  %6 = scf.for %k = %c0 to %c128 step %c64 iter_args(%acc = %5) -> (tensor<64x64xf32>) {
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
    %32 = xtile.splat %c0 : index -> tensor<64xindex>
    %33 = arith.addi %21, %32 : tensor<64xindex>
    %34 = xtile.reshape %33 : tensor<64xindex> -> tensor<1x64xindex>
    %35 = xtile.broadcast %34 : tensor<1x64xindex> -> tensor<64x64xindex>
    %36 = arith.cmpi slt, %29, %cst_1 : tensor<64x64xindex>
    %37 = xtile.splat %T : index -> tensor<64x64xindex>
    %38 = arith.cmpi slt, %25, %37 : tensor<64x64xindex>
    %39 = arith.andi %38, %36 : tensor<64x64xi1>
    %40 = xtile.load %x[%25, %29] mask %39 : tensor<64x64xi1> other %cst_0 : bf16 : memref<?x128xbf16>[tensor<64x64xindex>, tensor<64x64xindex>] -> tensor<64x64xbf16>
    %41 = xtile.load %w[%31, %35] : memref<128x64xbf16>[tensor<64x64xindex>, tensor<64x64xindex>] -> tensor<64x64xbf16>
    %42 = xtile.splat %cst_0 : bf16 -> tensor<64x64xbf16>
    %43 = arith.select %39, %40, %42 : tensor<64x64xi1>, tensor<64x64xbf16>
    %44 = xtile.dot %43, %41, %acc : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    scf.yield %44 : tensor<64x64xf32>
  } {xtile.num_stages = 3 : i64}
  %7 = xtile.range 0 to 64 : tensor<64xindex>
  %8 = xtile.splat %4 : index -> tensor<64xindex>
  %9 = arith.addi %7, %8 : tensor<64xindex>
  %10 = xtile.reshape %9 : tensor<64xindex> -> tensor<64x1xindex>
  %11 = xtile.broadcast %10 : tensor<64x1xindex> -> tensor<64x64xindex>
  %12 = xtile.splat %c0 : index -> tensor<64xindex>
  %13 = arith.addi %7, %12 : tensor<64xindex>
  %14 = xtile.reshape %13 : tensor<64xindex> -> tensor<1x64xindex>
  %15 = xtile.broadcast %14 : tensor<1x64xindex> -> tensor<64x64xindex>
  %16 = arith.cmpi slt, %15, %cst : tensor<64x64xindex>
  %17 = xtile.splat %T : index -> tensor<64x64xindex>
  %18 = arith.cmpi slt, %11, %17 : tensor<64x64xindex>
  %19 = arith.andi %18, %16 : tensor<64x64xi1>
  %20 = arith.truncf %6 : tensor<64x64xf32> to tensor<64x64xbf16>
  xtile.store %20, %y[%11, %15] mask %19 : tensor<64x64xi1> : memref<?x64xbf16>[tensor<64x64xindex>, tensor<64x64xindex>], tensor<64x64xbf16>
}

// CHECK-LABEL: xkernel.program @tokens[
// CHECK-SAME:    (%[[X:[^:]*]]: memref<?x128xbf16>
// CHECK:         xkernel.tensor_map %[[X]] box [64, 64] swizzle 128 : memref<?x128xbf16> -> memref<128xi8>
func.func @tokens(%x: tensor<?x128xbf16, #xtensor.dims<T>>, %w: tensor<128x64xbf16>) -> tensor<?x64xbf16, #xtensor.dims<T>>
    attributes {xtensor.symbols = {T = array<i64: 1, 4096>}} {
  %0 = xtile.launch @tokens_matmul[T](%x, %w) : (tensor<?x128xbf16, #xtensor.dims<T>>, tensor<128x64xbf16>) -> tensor<?x64xbf16, #xtensor.dims<T>>
  return %0 : tensor<?x64xbf16, #xtensor.dims<T>>
}

// Batched: the batch is a box of 1 at the program's batch index.
// CHECK-LABEL: xkernel.func @batched_matmul(
// CHECK-SAME:    %[[MAPA:[^:]*]]: !xkernel.ptr<i8, global> {xkernel.readonly, xkernel.tensor_map = {box = array<i64: 1, 64, 64>, of = 0 : i64, swizzle = 128 : i64}}
// CHECK:         xkernel.tma_load %[[MAPA]][%{{.*}}, %{{.*}}, %{{.*}}]
xtile.kernel @batched_matmul(%x: memref<2x64x128xbf16>, %w: memref<2x128x64xbf16>) -> (%y: memref<2x64x64xbf16>)
    attributes {grid = array<i64: 2>, num_warps = 4 : i64, schedule = #wgmma, target = #sm90a} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %c64 = arith.constant 64 : index
  %c2 = arith.constant 2 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = xtile.program_id 0
  %1 = arith.remui %0, %c2 : index
  %2 = xtile.splat %cst : f32 -> tensor<64x64xf32>
  %3 = scf.for %k = %c0 to %c128 step %c64 iter_args(%acc = %2) -> (tensor<64x64xf32>) {
    %12 = xtile.range 0 to 64 : tensor<64xindex>
    %13 = xtile.splat %c0 : index -> tensor<64xindex>
    %14 = arith.addi %12, %13 : tensor<64xindex>
    %15 = xtile.reshape %14 : tensor<64xindex> -> tensor<64x1xindex>
    %16 = xtile.broadcast %15 : tensor<64x1xindex> -> tensor<64x64xindex>
    %17 = xtile.splat %k : index -> tensor<64xindex>
    %18 = arith.addi %12, %17 : tensor<64xindex>
    %19 = xtile.reshape %18 : tensor<64xindex> -> tensor<1x64xindex>
    %20 = xtile.broadcast %19 : tensor<1x64xindex> -> tensor<64x64xindex>
    %21 = xtile.reshape %18 : tensor<64xindex> -> tensor<64x1xindex>
    %22 = xtile.broadcast %21 : tensor<64x1xindex> -> tensor<64x64xindex>
    %23 = xtile.reshape %14 : tensor<64xindex> -> tensor<1x64xindex>
    %24 = xtile.broadcast %23 : tensor<1x64xindex> -> tensor<64x64xindex>
    %25 = xtile.load %x[%1, %16, %20] : memref<2x64x128xbf16>[index, tensor<64x64xindex>, tensor<64x64xindex>] -> tensor<64x64xbf16>
    %26 = xtile.load %w[%1, %22, %24] : memref<2x128x64xbf16>[index, tensor<64x64xindex>, tensor<64x64xindex>] -> tensor<64x64xbf16>
    %27 = xtile.dot %25, %26, %acc : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    scf.yield %27 : tensor<64x64xf32>
  } {xtile.num_stages = 3 : i64}
  %4 = xtile.range 0 to 64 : tensor<64xindex>
  %5 = xtile.splat %c0 : index -> tensor<64xindex>
  %6 = arith.addi %4, %5 : tensor<64xindex>
  %7 = xtile.reshape %6 : tensor<64xindex> -> tensor<64x1xindex>
  %8 = xtile.broadcast %7 : tensor<64x1xindex> -> tensor<64x64xindex>
  %9 = xtile.reshape %6 : tensor<64xindex> -> tensor<1x64xindex>
  %10 = xtile.broadcast %9 : tensor<1x64xindex> -> tensor<64x64xindex>
  %11 = arith.truncf %3 : tensor<64x64xf32> to tensor<64x64xbf16>
  xtile.store %11, %y[%1, %8, %10] : memref<2x64x64xbf16>[index, tensor<64x64xindex>, tensor<64x64xindex>], tensor<64x64xbf16>
}

// A dimension of 2^31 rows does not fit TMA's 32-bit coordinates: x stays
// on cp.async, W comes in by TMA.
// CHECK-LABEL: xkernel.func @huge_matmul(
// CHECK-SAME:    %[[X:[^:]*]]: !xkernel.ptr<bf16, global> {xkernel.readonly}
// CHECK-SAME:    %[[MAPB:[^:]*]]: !xkernel.ptr<i8, global> {xkernel.readonly, xkernel.tensor_map = {box = array<i64: 64, 64>, of = 1 : i64, swizzle = 128 : i64}}
// CHECK-NOT:     of = 0 : i64
// CHECK:         xkernel.async_copy %[[X]]
// CHECK:         xkernel.tma_load %[[MAPB]]
xtile.kernel @huge_matmul(%x: memref<2147483648x128xbf16>, %w: memref<64x128xbf16>) -> (%y: memref<2147483648x64xbf16>)
    attributes {grid = array<i64: 33554432>, num_warps = 4 : i64, schedule = #wgmma, target = #sm90a} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %c64 = arith.constant 64 : index
  %cst = arith.constant 0.000000e+00 : f32
  %c33554432 = arith.constant 33554432 : index
  %0 = xtile.program_id 0
  %1 = arith.remui %0, %c33554432 : index
  %2 = arith.muli %1, %c64 : index
  %3 = xtile.splat %cst : f32 -> tensor<64x64xf32>
  %4 = scf.for %k = %c0 to %c128 step %c64 iter_args(%acc = %3) -> (tensor<64x64xf32>) {
    %15 = xtile.range 0 to 64 : tensor<64xindex>
    %16 = xtile.splat %2 : index -> tensor<64xindex>
    %17 = arith.addi %15, %16 : tensor<64xindex>
    %18 = xtile.reshape %17 : tensor<64xindex> -> tensor<64x1xindex>
    %19 = xtile.broadcast %18 : tensor<64x1xindex> -> tensor<64x64xindex>
    %20 = xtile.splat %k : index -> tensor<64xindex>
    %21 = arith.addi %15, %20 : tensor<64xindex>
    %22 = xtile.reshape %21 : tensor<64xindex> -> tensor<1x64xindex>
    %23 = xtile.broadcast %22 : tensor<1x64xindex> -> tensor<64x64xindex>
    %24 = xtile.reshape %21 : tensor<64xindex> -> tensor<64x1xindex>
    %25 = xtile.broadcast %24 : tensor<64x1xindex> -> tensor<64x64xindex>
    %26 = xtile.splat %c0 : index -> tensor<64xindex>
    %27 = arith.addi %15, %26 : tensor<64xindex>
    %28 = xtile.reshape %27 : tensor<64xindex> -> tensor<1x64xindex>
    %29 = xtile.broadcast %28 : tensor<1x64xindex> -> tensor<64x64xindex>
    %30 = xtile.load %x[%19, %23] : memref<2147483648x128xbf16>[tensor<64x64xindex>, tensor<64x64xindex>] -> tensor<64x64xbf16>
    %31 = xtile.load %w[%29, %25] : memref<64x128xbf16>[tensor<64x64xindex>, tensor<64x64xindex>] -> tensor<64x64xbf16>
    %32 = xtile.dot %30, %31, %acc : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    scf.yield %32 : tensor<64x64xf32>
  } {xtile.num_stages = 3 : i64}
  %5 = xtile.range 0 to 64 : tensor<64xindex>
  %6 = xtile.splat %2 : index -> tensor<64xindex>
  %7 = arith.addi %5, %6 : tensor<64xindex>
  %8 = xtile.reshape %7 : tensor<64xindex> -> tensor<64x1xindex>
  %9 = xtile.broadcast %8 : tensor<64x1xindex> -> tensor<64x64xindex>
  %10 = xtile.splat %c0 : index -> tensor<64xindex>
  %11 = arith.addi %5, %10 : tensor<64xindex>
  %12 = xtile.reshape %11 : tensor<64xindex> -> tensor<1x64xindex>
  %13 = xtile.broadcast %12 : tensor<1x64xindex> -> tensor<64x64xindex>
  %14 = arith.truncf %4 : tensor<64x64xf32> to tensor<64x64xbf16>
  xtile.store %14, %y[%9, %13] : memref<2147483648x64xbf16>[tensor<64x64xindex>, tensor<64x64xindex>], tensor<64x64xbf16>
}
