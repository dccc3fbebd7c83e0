// RUN: xtile-opt %s --xtile-plan-pipelines --convert-xtile-to-xkernel --canonicalize --cse | FileCheck %s --enable-var-scope

// canonicalize and cse only tidy the conversion's output (it materializes
// a constant per use) so that constants can be matched by their values.

#sm90 = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>

// A ragged bf16 linear layer (100x96 @ (200x96)^T + bias) on tensor cores:
// 4 warps in a 2 x 2 grid, each owning a 32 x 32 sub-tile of the 64 x 64
// output tile (2 x 4 blocks of 16 x 8). The operand tiles come in by 16-byte
// cp.async into shared memory swizzled in 16-byte chunks (the XORs), x row
// by row and the weight ([out, in]: contiguous along K) column by column;
// per step of 16 along K each warp loads 2 fragments of A and 2 pairs of B
// fragments with ldmatrix (no .trans for either: both are staged K-major)
// and issues 2 x 4 mma. The accumulator is the mma's C fragments: the
// epilogue (bias, rounding to bf16) runs on 2 adjacent elements at a time,
// written so into shared memory (rows padded by 16 bytes, the operand
// tiles' space reused), and read back and stored 16 bytes at a time.
// CHECK-LABEL: xkernel.func @linear(
// CHECK-SAME:    %[[X:[^:]*]]: !xkernel.ptr<bf16, global> {xkernel.readonly}, %[[BIAS:[^:]*]]: !xkernel.ptr<f32, global> {xkernel.readonly}, %[[W:[^:]*]]: !xkernel.ptr<bf16, global> {xkernel.readonly}, %[[Y:[^:]*]]: !xkernel.ptr<bf16, global>)
// CHECK-SAME:    dynamic_shared = 24576 : i64, max_threads = 128 : i64
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG:     %[[C96:.*]] = arith.constant 96 : index
// CHECK-DAG:     %[[A:.*]] = xkernel.dynamic_shared 0 : <bf16, shared>
// CHECK-DAG:     %[[B:.*]] = xkernel.dynamic_shared 12288 : <bf16, shared>
// CHECK:         arith.xori
// CHECK:         xkernel.async_copy %[[X]][%{{.*}}] to %[[A]][%{{.*}}], 16 valid
// CHECK:         xkernel.async_copy %[[W]][%{{.*}}] to %[[B]][%{{.*}}], 16 valid
// CHECK:         xkernel.async_commit
// CHECK:         scf.for %{{.*}} = %[[C0]] to %[[C96]] step %[[C32]] iter_args(
// CHECK:           xkernel.async_wait 2
// CHECK-NEXT:      xkernel.barrier
// CHECK-NOT:       xkernel.load {{.*}}, global>
// CHECK-COUNT-2:   xkernel.ldmatrix %[[A]][%{{.*}}] : <bf16, shared> -> vector<8xbf16>
// CHECK-COUNT-2:   xkernel.ldmatrix %[[B]][%{{.*}}] : <bf16, shared> -> vector<8xbf16>
// CHECK-COUNT-8:   xkernel.mma %{{.*}} : vector<8xbf16>, vector<4xbf16> -> vector<4xf32>
// CHECK-COUNT-2:   xkernel.ldmatrix %[[A]]
// CHECK-COUNT-2:   xkernel.ldmatrix %[[B]]
// CHECK-COUNT-8:   xkernel.mma
// CHECK-NOT:       xkernel.ldmatrix
// CHECK:           xkernel.barrier
// CHECK-NOT:       xkernel.
// CHECK:           scf.yield {{.*}} : {{.*}}, i32, i32
// CHECK:         xkernel.async_wait 0
// CHECK:         xkernel.load %[[BIAS]][%{{.*}}] : <f32, global> -> vector<2xf32>
// CHECK:         xkernel.barrier
// CHECK-COUNT-16: xkernel.store %{{.*}}, %[[A]][%{{.*}}] : vector<2xbf16>, <bf16, shared>
// CHECK-NEXT:    xkernel.barrier
// CHECK-COUNT-4: xkernel.store %{{.*}}, %[[Y]][%{{.*}}] : vector<8xbf16>, <bf16, global>
// CHECK-NOT:     xkernel.store
// CHECK:         xkernel.return
xtile.kernel @linear(%x: memref<100x96xbf16>, %b: memref<200xf32>, %w: memref<200x96xbf16>) -> (%y: memref<100x200xbf16>)
    attributes {grid = array<i64: 8>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 3, warps = 4, instruction = mma_sync, warps_m = 2>, target = #sm90} {
  %cst = arith.constant dense<100> : tensor<64x64xindex>
  %cst_0 = arith.constant dense<200> : tensor<64x64xindex>
  %cst_1 = arith.constant 0.000000e+00 : bf16
  %cst_2 = arith.constant dense<96> : tensor<32x64xindex>
  %cst_3 = arith.constant dense<200> : tensor<32x64xindex>
  %cst_4 = arith.constant dense<100> : tensor<64x32xindex>
  %cst_5 = arith.constant dense<96> : tensor<64x32xindex>
  %c0 = arith.constant 0 : index
  %c96 = arith.constant 96 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %cst_6 = arith.constant 0.000000e+00 : f32
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %0 = xtile.program_id 0
  %1 = arith.remui %0, %c4 : index
  %2 = arith.divui %0, %c4 : index
  %3 = arith.remui %2, %c2 : index
  %4 = arith.muli %3, %c64 : index
  %5 = arith.muli %1, %c64 : index
  %6 = xtile.splat %cst_6 : f32 -> tensor<64x64xf32>
  %7 = scf.for %k = %c0 to %c96 step %c32 iter_args(%acc = %6) -> (tensor<64x64xf32>) {
    %23 = xtile.range 0 to 64 : tensor<64xindex>
    %24 = xtile.splat %4 : index -> tensor<64xindex>
    %25 = arith.addi %23, %24 : tensor<64xindex>
    %26 = xtile.reshape %25 : tensor<64xindex> -> tensor<64x1xindex>
    %27 = xtile.broadcast %26 : tensor<64x1xindex> -> tensor<64x32xindex>
    %28 = xtile.range 0 to 32 : tensor<32xindex>
    %29 = xtile.splat %k : index -> tensor<32xindex>
    %30 = arith.addi %28, %29 : tensor<32xindex>
    %31 = xtile.reshape %30 : tensor<32xindex> -> tensor<1x32xindex>
    %32 = xtile.broadcast %31 : tensor<1x32xindex> -> tensor<64x32xindex>
    %33 = xtile.reshape %30 : tensor<32xindex> -> tensor<32x1xindex>
    %34 = xtile.broadcast %33 : tensor<32x1xindex> -> tensor<32x64xindex>
    %35 = xtile.splat %5 : index -> tensor<64xindex>
    %36 = arith.addi %23, %35 : tensor<64xindex>
    %37 = xtile.reshape %36 : tensor<64xindex> -> tensor<1x64xindex>
    %38 = xtile.broadcast %37 : tensor<1x64xindex> -> tensor<32x64xindex>
    %39 = arith.cmpi slt, %32, %cst_5 : tensor<64x32xindex>
    %40 = arith.cmpi slt, %27, %cst_4 : tensor<64x32xindex>
    %41 = arith.andi %40, %39 : tensor<64x32xi1>
    %42 = arith.cmpi slt, %38, %cst_3 : tensor<32x64xindex>
    %43 = arith.cmpi slt, %34, %cst_2 : tensor<32x64xindex>
    %44 = arith.andi %43, %42 : tensor<32x64xi1>
    %45 = xtile.load %x[%27, %32] mask %41 : tensor<64x32xi1> other %cst_1 : bf16 : memref<100x96xbf16>[tensor<64x32xindex>, tensor<64x32xindex>] -> tensor<64x32xbf16>
    %46 = xtile.load %w[%38, %34] mask %44 : tensor<32x64xi1> other %cst_1 : bf16 : memref<200x96xbf16>[tensor<32x64xindex>, tensor<32x64xindex>] -> tensor<32x64xbf16>
    %47 = xtile.splat %cst_1 : bf16 -> tensor<64x32xbf16>
    %48 = arith.select %41, %45, %47 : tensor<64x32xi1>, tensor<64x32xbf16>
    %49 = xtile.splat %cst_1 : bf16 -> tensor<32x64xbf16>
    %50 = arith.select %44, %46, %49 : tensor<32x64xi1>, tensor<32x64xbf16>
    %51 = xtile.dot %48, %50, %acc : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %51 : tensor<64x64xf32>
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
  %20 = xtile.load %b[%16] mask %19 : tensor<64x64xi1> other %cst_6 : f32 : memref<200xf32>[tensor<64x64xindex>] -> tensor<64x64xf32>
  %21 = arith.addf %7, %20 : tensor<64x64xf32>
  %22 = arith.truncf %21 : tensor<64x64xf32> to tensor<64x64xbf16>
  xtile.store %22, %y[%12, %16] mask %19 : tensor<64x64xi1> : memref<100x200xbf16>[tensor<64x64xindex>, tensor<64x64xindex>], tensor<64x64xbf16>
}

// The same kernel without pipelining (stages = 1): the tiles are staged from
// registers: 16-byte loads of x's rows, single elements of the weight's
// columns, stored swizzled.
// CHECK-LABEL: xkernel.func @linear_unpipelined(
// CHECK-SAME:    %[[X:[^:]*]]: !xkernel.ptr<bf16, global> {xkernel.readonly}
// CHECK:         scf.for
// CHECK:           xkernel.load %[[X]][%{{.*}}] : <bf16, global> -> vector<8xbf16>
// CHECK:           xkernel.store %{{.*}} : vector<8xbf16>, <bf16, shared>
// CHECK:           xkernel.barrier
// CHECK:           xkernel.ldmatrix
// CHECK:           xkernel.mma
xtile.kernel @linear_unpipelined(%x: memref<100x96xbf16>, %b: memref<200xf32>, %w: memref<200x96xbf16>) -> (%y: memref<100x200xbf16>)
    attributes {grid = array<i64: 8>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 1, warps = 4, instruction = mma_sync, warps_m = 2>, target = #sm90} {
  %cst = arith.constant dense<100> : tensor<64x64xindex>
  %cst_0 = arith.constant dense<200> : tensor<64x64xindex>
  %cst_1 = arith.constant 0.000000e+00 : bf16
  %cst_2 = arith.constant dense<96> : tensor<32x64xindex>
  %cst_3 = arith.constant dense<200> : tensor<32x64xindex>
  %cst_4 = arith.constant dense<100> : tensor<64x32xindex>
  %cst_5 = arith.constant dense<96> : tensor<64x32xindex>
  %c0 = arith.constant 0 : index
  %c96 = arith.constant 96 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %cst_6 = arith.constant 0.000000e+00 : f32
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %0 = xtile.program_id 0
  %1 = arith.remui %0, %c4 : index
  %2 = arith.divui %0, %c4 : index
  %3 = arith.remui %2, %c2 : index
  %4 = arith.muli %3, %c64 : index
  %5 = arith.muli %1, %c64 : index
  %6 = xtile.splat %cst_6 : f32 -> tensor<64x64xf32>
  %7 = scf.for %k = %c0 to %c96 step %c32 iter_args(%acc = %6) -> (tensor<64x64xf32>) {
    %23 = xtile.range 0 to 64 : tensor<64xindex>
    %24 = xtile.splat %4 : index -> tensor<64xindex>
    %25 = arith.addi %23, %24 : tensor<64xindex>
    %26 = xtile.reshape %25 : tensor<64xindex> -> tensor<64x1xindex>
    %27 = xtile.broadcast %26 : tensor<64x1xindex> -> tensor<64x32xindex>
    %28 = xtile.range 0 to 32 : tensor<32xindex>
    %29 = xtile.splat %k : index -> tensor<32xindex>
    %30 = arith.addi %28, %29 : tensor<32xindex>
    %31 = xtile.reshape %30 : tensor<32xindex> -> tensor<1x32xindex>
    %32 = xtile.broadcast %31 : tensor<1x32xindex> -> tensor<64x32xindex>
    %33 = xtile.reshape %30 : tensor<32xindex> -> tensor<32x1xindex>
    %34 = xtile.broadcast %33 : tensor<32x1xindex> -> tensor<32x64xindex>
    %35 = xtile.splat %5 : index -> tensor<64xindex>
    %36 = arith.addi %23, %35 : tensor<64xindex>
    %37 = xtile.reshape %36 : tensor<64xindex> -> tensor<1x64xindex>
    %38 = xtile.broadcast %37 : tensor<1x64xindex> -> tensor<32x64xindex>
    %39 = arith.cmpi slt, %32, %cst_5 : tensor<64x32xindex>
    %40 = arith.cmpi slt, %27, %cst_4 : tensor<64x32xindex>
    %41 = arith.andi %40, %39 : tensor<64x32xi1>
    %42 = arith.cmpi slt, %38, %cst_3 : tensor<32x64xindex>
    %43 = arith.cmpi slt, %34, %cst_2 : tensor<32x64xindex>
    %44 = arith.andi %43, %42 : tensor<32x64xi1>
    %45 = xtile.load %x[%27, %32] mask %41 : tensor<64x32xi1> other %cst_1 : bf16 : memref<100x96xbf16>[tensor<64x32xindex>, tensor<64x32xindex>] -> tensor<64x32xbf16>
    %46 = xtile.load %w[%38, %34] mask %44 : tensor<32x64xi1> other %cst_1 : bf16 : memref<200x96xbf16>[tensor<32x64xindex>, tensor<32x64xindex>] -> tensor<32x64xbf16>
    %47 = xtile.splat %cst_1 : bf16 -> tensor<64x32xbf16>
    %48 = arith.select %41, %45, %47 : tensor<64x32xi1>, tensor<64x32xbf16>
    %49 = xtile.splat %cst_1 : bf16 -> tensor<32x64xbf16>
    %50 = arith.select %44, %46, %49 : tensor<32x64xi1>, tensor<32x64xbf16>
    %51 = xtile.dot %48, %50, %acc : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %51 : tensor<64x64xf32>
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
  %20 = xtile.load %b[%16] mask %19 : tensor<64x64xi1> other %cst_6 : f32 : memref<200xf32>[tensor<64x64xindex>] -> tensor<64x64xf32>
  %21 = arith.addf %7, %20 : tensor<64x64xf32>
  %22 = arith.truncf %21 : tensor<64x64xf32> to tensor<64x64xbf16>
  xtile.store %22, %y[%12, %16] mask %19 : tensor<64x64xi1> : memref<100x200xbf16>[tensor<64x64xindex>, tensor<64x64xindex>], tensor<64x64xbf16>
}

// x @ W with W [K, N] row-major: B is staged [k][n] and read transposed
// (ldmatrix .trans), A as before; f16 works alike.
// CHECK-LABEL: xkernel.func @matmul(
// CHECK:         scf.for
// CHECK-COUNT-2:   xkernel.ldmatrix %{{.*}} : <f16, shared> -> vector<8xf16>
// CHECK-COUNT-2:   xkernel.ldmatrix %{{.*}} trans : <f16, shared> -> vector<8xf16>
// CHECK-COUNT-8:   xkernel.mma %{{.*}} : vector<8xf16>, vector<4xf16> -> vector<4xf32>
xtile.kernel @matmul(%x: memref<128x64xf16>, %w: memref<64x128xf16>) -> (%y: memref<128x128xf16>)
    attributes {grid = array<i64: 4>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 3, warps = 4, instruction = mma_sync, warps_m = 2>, target = #sm90} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %cst = arith.constant 0.000000e+00 : f32
  %c2 = arith.constant 2 : index
  %0 = xtile.program_id 0
  %1 = arith.remui %0, %c2 : index
  %2 = arith.divui %0, %c2 : index
  %3 = arith.remui %2, %c2 : index
  %4 = arith.muli %3, %c64 : index
  %5 = arith.muli %1, %c64 : index
  %6 = xtile.splat %cst : f32 -> tensor<64x64xf32>
  %7 = scf.for %k = %c0 to %c64 step %c32 iter_args(%acc = %6) -> (tensor<64x64xf32>) {
    %18 = xtile.range 0 to 64 : tensor<64xindex>
    %19 = xtile.splat %4 : index -> tensor<64xindex>
    %20 = arith.addi %18, %19 : tensor<64xindex>
    %21 = xtile.reshape %20 : tensor<64xindex> -> tensor<64x1xindex>
    %22 = xtile.broadcast %21 : tensor<64x1xindex> -> tensor<64x32xindex>
    %23 = xtile.range 0 to 32 : tensor<32xindex>
    %24 = xtile.splat %k : index -> tensor<32xindex>
    %25 = arith.addi %23, %24 : tensor<32xindex>
    %26 = xtile.reshape %25 : tensor<32xindex> -> tensor<1x32xindex>
    %27 = xtile.broadcast %26 : tensor<1x32xindex> -> tensor<64x32xindex>
    %28 = xtile.reshape %25 : tensor<32xindex> -> tensor<32x1xindex>
    %29 = xtile.broadcast %28 : tensor<32x1xindex> -> tensor<32x64xindex>
    %30 = xtile.splat %5 : index -> tensor<64xindex>
    %31 = arith.addi %18, %30 : tensor<64xindex>
    %32 = xtile.reshape %31 : tensor<64xindex> -> tensor<1x64xindex>
    %33 = xtile.broadcast %32 : tensor<1x64xindex> -> tensor<32x64xindex>
    %34 = xtile.load %x[%22, %27] : memref<128x64xf16>[tensor<64x32xindex>, tensor<64x32xindex>] -> tensor<64x32xf16>
    %35 = xtile.load %w[%29, %33] : memref<64x128xf16>[tensor<32x64xindex>, tensor<32x64xindex>] -> tensor<32x64xf16>
    %36 = xtile.dot %34, %35, %acc : tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>
    scf.yield %36 : tensor<64x64xf32>
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
  %17 = arith.truncf %7 : tensor<64x64xf32> to tensor<64x64xf16>
  xtile.store %17, %y[%12, %16] : memref<128x128xf16>[tensor<64x64xindex>, tensor<64x64xindex>], tensor<64x64xf16>
}
