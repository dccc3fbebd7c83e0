// RUN: xtile-opt %s --xtile-plan-pipelines --convert-xtile-to-xkernel --canonicalize --cse | FileCheck %s --enable-var-scope

// canonicalize and cse only tidy the conversion's output (it materializes
// a constant per use) so that constants can be matched by their values.

#sm90 = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>

// A ragged linear layer (100x96 @ (200x96)^T + bias) on 64x64 output tiles
// with 128 threads: each thread holds 8 rows x 4 adjacent columns of the
// accumulator. Per step of K, the operand tiles are loaded (masked at the
// ragged edges), staged in dynamic shared memory, and each thread
// accumulates its 32 elements with FMAs, reading a row of A once per row
// and 4 adjacent columns of B with one 16-byte shared-memory load.
// CHECK-LABEL: xkernel.func @linear_add(
// CHECK-SAME:    attributes {arch = "sm_90", dynamic_shared = 16384 : i64, max_threads = 128 : i64, min_blocks = 1 : i64}
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG:     %[[C96:.*]] = arith.constant 96 : index
// CHECK-DAG:     %[[A:.*]] = xkernel.dynamic_shared 0 : <f32, shared>
// CHECK-DAG:     %[[B:.*]] = xkernel.dynamic_shared 8192 : <f32, shared>
// CHECK:         %[[ACC:.*]]:32 = scf.for %{{.*}} = %[[C0]] to %[[C96]] step %[[C32]] iter_args(
// CHECK:           scf.if %{{.*}} -> (vector<4xf32>) {
// CHECK:           xkernel.store %{{.*}}, %[[A]][%{{.*}}] : vector<4xf32>, <f32, shared>
// CHECK:           xkernel.store %{{.*}}, %[[B]][%{{.*}}] : vector<4xf32>, <f32, shared>
// CHECK:           xkernel.barrier
// CHECK:           scf.for %{{.*}} = %[[C0]] to %[[C32]] step %[[C1]] iter_args(
// CHECK:             xkernel.load %[[A]][%{{.*}}] : <f32, shared> -> f32
// CHECK:             xkernel.load %[[B]][%{{.*}}] : <f32, shared> -> vector<4xf32>
// CHECK-COUNT-4:     math.fma
// CHECK:           } {xkernel.unroll}
// CHECK-NEXT:      xkernel.barrier
// CHECK-NEXT:      scf.yield
// CHECK:         }
// CHECK:         arith.addf {{.*}}%[[ACC]]#0{{.*}} : f32
// CHECK:         xkernel.return
xtile.kernel @linear_add(%x: memref<100x96xf32>, %b: memref<200xf32>, %w: memref<200x96xf32>) -> (%y: memref<100x200xf32>)
    attributes {grid = array<i64: 8>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 1, warps = 4>, target = #sm90} {
  %cst = arith.constant dense<100> : tensor<64x64xindex>
  %cst_0 = arith.constant dense<200> : tensor<64x64xindex>
  %cst_1 = arith.constant dense<96> : tensor<32x64xindex>
  %cst_2 = arith.constant dense<200> : tensor<32x64xindex>
  %cst_3 = arith.constant dense<100> : tensor<64x32xindex>
  %cst_4 = arith.constant dense<96> : tensor<64x32xindex>
  %c0 = arith.constant 0 : index
  %c96 = arith.constant 96 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %cst_5 = arith.constant 0.000000e+00 : f32
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %0 = xtile.program_id 0
  %1 = arith.remui %0, %c4 : index
  %2 = arith.divui %0, %c4 : index
  %3 = arith.remui %2, %c2 : index
  %4 = arith.muli %3, %c64 : index
  %5 = arith.muli %1, %c64 : index
  %6 = xtile.splat %cst_5 : f32 -> tensor<64x64xf32>
  %7 = scf.for %k = %c0 to %c96 step %c32 iter_args(%acc = %6) -> (tensor<64x64xf32>) {
    %22 = xtile.range 0 to 64 : tensor<64xindex>
    %23 = xtile.splat %4 : index -> tensor<64xindex>
    %24 = arith.addi %22, %23 : tensor<64xindex>
    %25 = xtile.reshape %24 : tensor<64xindex> -> tensor<64x1xindex>
    %26 = xtile.broadcast %25 : tensor<64x1xindex> -> tensor<64x32xindex>
    %27 = xtile.range 0 to 32 : tensor<32xindex>
    %28 = xtile.splat %k : index -> tensor<32xindex>
    %29 = arith.addi %27, %28 : tensor<32xindex>
    %30 = xtile.reshape %29 : tensor<32xindex> -> tensor<1x32xindex>
    %31 = xtile.broadcast %30 : tensor<1x32xindex> -> tensor<64x32xindex>
    %32 = xtile.reshape %29 : tensor<32xindex> -> tensor<32x1xindex>
    %33 = xtile.broadcast %32 : tensor<32x1xindex> -> tensor<32x64xindex>
    %34 = xtile.splat %5 : index -> tensor<64xindex>
    %35 = arith.addi %22, %34 : tensor<64xindex>
    %36 = xtile.reshape %35 : tensor<64xindex> -> tensor<1x64xindex>
    %37 = xtile.broadcast %36 : tensor<1x64xindex> -> tensor<32x64xindex>
    %38 = arith.cmpi slt, %31, %cst_4 : tensor<64x32xindex>
    %39 = arith.cmpi slt, %26, %cst_3 : tensor<64x32xindex>
    %40 = arith.andi %39, %38 : tensor<64x32xi1>
    %41 = arith.cmpi slt, %37, %cst_2 : tensor<32x64xindex>
    %42 = arith.cmpi slt, %33, %cst_1 : tensor<32x64xindex>
    %43 = arith.andi %42, %41 : tensor<32x64xi1>
    %44 = xtile.load %x[%26, %31] mask %40 : tensor<64x32xi1> other %cst_5 : f32 : memref<100x96xf32>[tensor<64x32xindex>, tensor<64x32xindex>] -> tensor<64x32xf32>
    %45 = xtile.load %w[%37, %33] mask %43 : tensor<32x64xi1> other %cst_5 : f32 : memref<200x96xf32>[tensor<32x64xindex>, tensor<32x64xindex>] -> tensor<32x64xf32>
    %46 = xtile.splat %cst_5 : f32 -> tensor<64x32xf32>
    %47 = arith.select %40, %44, %46 : tensor<64x32xi1>, tensor<64x32xf32>
    %48 = xtile.splat %cst_5 : f32 -> tensor<32x64xf32>
    %49 = arith.select %43, %45, %48 : tensor<32x64xi1>, tensor<32x64xf32>
    %50 = xtile.dot %47, %49, %acc : tensor<64x32xf32>, tensor<32x64xf32>, tensor<64x64xf32>
    scf.yield %50 : tensor<64x64xf32>
  } {xtile.num_stages = 1 : i64}
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
  %18 = arith.cmpi slt, %12, %cst : tensor<64x64xindex>
  %19 = arith.andi %18, %17 : tensor<64x64xi1>
  %20 = xtile.load %b[%16] mask %19 : tensor<64x64xi1> other %cst_5 : f32 : memref<200xf32>[tensor<64x64xindex>] -> tensor<64x64xf32>
  %21 = arith.addf %7, %20 : tensor<64x64xf32>
  xtile.store %21, %y[%12, %16] mask %19 : tensor<64x64xi1> : memref<100x200xf32>[tensor<64x64xindex>, tensor<64x64xindex>], tensor<64x64xf32>
}

// The program launches the kernel on its buffers, the weight after the bias
// as the kernel takes them.
// CHECK-LABEL: xkernel.program @linear(
// CHECK-SAME:    %[[X:[^:]*]]: memref<100x96xf32>, %[[W:[^:]*]]: memref<200x96xf32>, %[[BIAS:[^:]*]]: memref<200xf32>) -> (%[[Y:[^:]*]]: memref<100x200xf32>)
// CHECK:         xkernel.launch @linear_add(%[[X]], %[[BIAS]], %[[W]], %[[Y]]) grid [8, 1, 1] block [128, 1, 1] shared 16384
func.func @linear(%x: tensor<100x96xf32>, %w: tensor<200x96xf32>, %b: tensor<200xf32>) -> tensor<100x200xf32> {
  %y = xtile.launch @linear_add(%x, %b, %w) : (tensor<100x96xf32>, tensor<200xf32>, tensor<200x96xf32>) -> tensor<100x200xf32>
  return %y : tensor<100x200xf32>
}

// The same kernel with three stages (the K loop's xtile.num_stages = 3):
// the operand tiles go to shared memory with cp.async, two iterations
// ahead. 16-byte copies for A (rows contiguous along K), 4-byte copies for
// B (W^T, strided); a copy past a ragged edge reads nothing and
// zero-fills. The prologue starts iterations 0 and 1; iteration i starts
// i + 2, waits until at most 2 groups are in flight (its own has landed),
// and meets the block at a barrier before reading its stage.
// CHECK-LABEL: xkernel.func @linear_add_pipelined(
// CHECK-SAME:    %[[X:[^:]*]]: !xkernel.ptr<f32, global> {xkernel.readonly}, %{{[^:]*}}: !xkernel.ptr<f32, global> {xkernel.readonly}, %[[W:[^:]*]]: !xkernel.ptr<f32, global> {xkernel.readonly}
// CHECK-SAME:    dynamic_shared = 49152 : i64
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG:     %[[C96:.*]] = arith.constant 96 : index
// CHECK-DAG:     %[[A:.*]] = xkernel.dynamic_shared 0 : <f32, shared>
// CHECK-DAG:     %[[B:.*]] = xkernel.dynamic_shared 24576 : <f32, shared>
// CHECK:         xkernel.async_copy %[[X]][%{{.*}}] to %[[A]][%{{.*}}], 16 valid %{{.*}} : <f32, global> to <f32, shared>
// CHECK:         xkernel.async_copy %[[W]][%{{.*}}] to %[[B]][%{{.*}}], 4 valid %{{.*}} : <f32, global> to <f32, shared>
// CHECK:         xkernel.async_commit
// CHECK:         xkernel.async_copy
// CHECK:         xkernel.async_commit
// CHECK:         scf.for %{{.*}} = %[[C0]] to %[[C96]] step %[[C32]]
// CHECK:           %[[AHEAD:.*]] = arith.addi %{{.*}}, %[[C2]] : index
// CHECK:           %[[MORE:.*]] = arith.cmpi ult, %[[AHEAD]], %[[C3]] : index
// CHECK:           scf.if %[[MORE]] {
// CHECK:             xkernel.async_copy
// CHECK:           }
// CHECK-NEXT:      xkernel.async_commit
// CHECK-NEXT:      xkernel.async_wait 2
// CHECK-NEXT:      xkernel.barrier
// CHECK-NOT:       xkernel.load %[[X]]
// CHECK:           scf.for
// CHECK:             math.fma
// CHECK:           } {xkernel.unroll}
// CHECK-NEXT:      xkernel.barrier
// CHECK:         } {xkernel.num_stages = 3 : i64}
// CHECK-NEXT:    xkernel.async_wait 0
xtile.kernel @linear_add_pipelined(%x: memref<100x96xf32>, %b: memref<200xf32>, %w: memref<200x96xf32>) -> (%y: memref<100x200xf32>)
    attributes {grid = array<i64: 8>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 3, warps = 4>, target = #sm90} {
  %cst = arith.constant dense<100> : tensor<64x64xindex>
  %cst_0 = arith.constant dense<200> : tensor<64x64xindex>
  %cst_1 = arith.constant dense<96> : tensor<32x64xindex>
  %cst_2 = arith.constant dense<200> : tensor<32x64xindex>
  %cst_3 = arith.constant dense<100> : tensor<64x32xindex>
  %cst_4 = arith.constant dense<96> : tensor<64x32xindex>
  %c0 = arith.constant 0 : index
  %c96 = arith.constant 96 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %cst_5 = arith.constant 0.000000e+00 : f32
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %0 = xtile.program_id 0
  %1 = arith.remui %0, %c4 : index
  %2 = arith.divui %0, %c4 : index
  %3 = arith.remui %2, %c2 : index
  %4 = arith.muli %3, %c64 : index
  %5 = arith.muli %1, %c64 : index
  %6 = xtile.splat %cst_5 : f32 -> tensor<64x64xf32>
  %7 = scf.for %k = %c0 to %c96 step %c32 iter_args(%acc = %6) -> (tensor<64x64xf32>) {
    %22 = xtile.range 0 to 64 : tensor<64xindex>
    %23 = xtile.splat %4 : index -> tensor<64xindex>
    %24 = arith.addi %22, %23 : tensor<64xindex>
    %25 = xtile.reshape %24 : tensor<64xindex> -> tensor<64x1xindex>
    %26 = xtile.broadcast %25 : tensor<64x1xindex> -> tensor<64x32xindex>
    %27 = xtile.range 0 to 32 : tensor<32xindex>
    %28 = xtile.splat %k : index -> tensor<32xindex>
    %29 = arith.addi %27, %28 : tensor<32xindex>
    %30 = xtile.reshape %29 : tensor<32xindex> -> tensor<1x32xindex>
    %31 = xtile.broadcast %30 : tensor<1x32xindex> -> tensor<64x32xindex>
    %32 = xtile.reshape %29 : tensor<32xindex> -> tensor<32x1xindex>
    %33 = xtile.broadcast %32 : tensor<32x1xindex> -> tensor<32x64xindex>
    %34 = xtile.splat %5 : index -> tensor<64xindex>
    %35 = arith.addi %22, %34 : tensor<64xindex>
    %36 = xtile.reshape %35 : tensor<64xindex> -> tensor<1x64xindex>
    %37 = xtile.broadcast %36 : tensor<1x64xindex> -> tensor<32x64xindex>
    %38 = arith.cmpi slt, %31, %cst_4 : tensor<64x32xindex>
    %39 = arith.cmpi slt, %26, %cst_3 : tensor<64x32xindex>
    %40 = arith.andi %39, %38 : tensor<64x32xi1>
    %41 = arith.cmpi slt, %37, %cst_2 : tensor<32x64xindex>
    %42 = arith.cmpi slt, %33, %cst_1 : tensor<32x64xindex>
    %43 = arith.andi %42, %41 : tensor<32x64xi1>
    %44 = xtile.load %x[%26, %31] mask %40 : tensor<64x32xi1> other %cst_5 : f32 : memref<100x96xf32>[tensor<64x32xindex>, tensor<64x32xindex>] -> tensor<64x32xf32>
    %45 = xtile.load %w[%37, %33] mask %43 : tensor<32x64xi1> other %cst_5 : f32 : memref<200x96xf32>[tensor<32x64xindex>, tensor<32x64xindex>] -> tensor<32x64xf32>
    %46 = xtile.splat %cst_5 : f32 -> tensor<64x32xf32>
    %47 = arith.select %40, %44, %46 : tensor<64x32xi1>, tensor<64x32xf32>
    %48 = xtile.splat %cst_5 : f32 -> tensor<32x64xf32>
    %49 = arith.select %43, %45, %48 : tensor<32x64xi1>, tensor<32x64xf32>
    %50 = xtile.dot %47, %49, %acc : tensor<64x32xf32>, tensor<32x64xf32>, tensor<64x64xf32>
    scf.yield %50 : tensor<64x64xf32>
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
  %18 = arith.cmpi slt, %12, %cst : tensor<64x64xindex>
  %19 = arith.andi %18, %17 : tensor<64x64xi1>
  %20 = xtile.load %b[%16] mask %19 : tensor<64x64xi1> other %cst_5 : f32 : memref<200xf32>[tensor<64x64xindex>] -> tensor<64x64xf32>
  %21 = arith.addf %7, %20 : tensor<64x64xf32>
  xtile.store %21, %y[%12, %16] mask %19 : tensor<64x64xi1> : memref<100x200xf32>[tensor<64x64xindex>, tensor<64x64xindex>], tensor<64x64xf32>
}
