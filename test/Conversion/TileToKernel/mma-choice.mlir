// RUN: xtile-opt %s --xtile-plan-pipelines --convert-xtile-to-xkernel --canonicalize --cse | FileCheck %s --enable-var-scope

// canonicalize and cse only tidy the conversion's output (it materializes
// a constant per use) so that constants can be matched by their values.
// The schedules the cost model chooses for a 4096^3 bf16 matmul and a
// 128x128x64 f32 one, on each target, and how they lower. Which schedule
// it chooses is test/Conversion/LoopToTile/config_mma.mlir's; that an f32
// dot on tensor cores needs tf32 = true is the Tile IR verifier's
// (test/Dialect/Tile/invalid.mlir, and test/Integration/forced-schedules.mlir
// through --lower-to-kernel).

#sm90 = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>
#sm90a = #xtile.target<arch = "sm_90a", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800, wgmma_gflops = 989000>
#sm80 = #xtile.target<arch = "sm_80", sms = 108, max_threads = 1024, shared_memory = 166912, registers = 65536, bandwidth = 2039, l2 = 41943040, fp32_gflops = 19500, l2_bandwidth = 6117, clock_mhz = 1410, mma_sync_gflops = 312000>

// f16 and bf16 matmuls run on tensor cores on sm_90 and sm_80 (128 x 256
// tiles, 8 warps of 64 x 64; block_k 32 and 4 stages on sm_90, 64 and 3
// on sm_80): mma.sync.
// CHECK-LABEL: xkernel.func @bf16_mma_sync(
// CHECK:         scf.for
// CHECK:           xkernel.ldmatrix
// CHECK:           xkernel.mma
xtile.kernel @bf16_mma_sync(%x: memref<4096x4096xbf16>, %w: memref<4096x4096xbf16>) -> (%y: memref<4096x4096xbf16>)
    attributes {grid = array<i64: 512>, num_warps = 8 : i64, schedule = #xtile.dot_schedule<block_m = 128, block_n = 256, block_k = 32, stages = 4, warps = 8, instruction = mma_sync, warps_m = 2>, target = #sm90} {
  %c0 = arith.constant 0 : index
  %c4096 = arith.constant 4096 : index
  %c256 = arith.constant 256 : index
  %c128 = arith.constant 128 : index
  %cst = arith.constant 0.000000e+00 : f32
  %c32 = arith.constant 32 : index
  %c16 = arith.constant 16 : index
  %0 = xtile.program_id 0
  %1 = arith.remui %0, %c16 : index
  %2 = arith.divui %0, %c16 : index
  %3 = arith.remui %2, %c32 : index
  %4 = arith.muli %3, %c128 : index
  %5 = arith.muli %1, %c256 : index
  %6 = xtile.splat %cst : f32 -> tensor<128x256xf32>
  %7 = scf.for %k = %c0 to %c4096 step %c32 iter_args(%acc = %6) -> (tensor<128x256xf32>) {
    %19 = xtile.range 0 to 128 : tensor<128xindex>
    %20 = xtile.splat %4 : index -> tensor<128xindex>
    %21 = arith.addi %19, %20 : tensor<128xindex>
    %22 = xtile.reshape %21 : tensor<128xindex> -> tensor<128x1xindex>
    %23 = xtile.broadcast %22 : tensor<128x1xindex> -> tensor<128x32xindex>
    %24 = xtile.range 0 to 32 : tensor<32xindex>
    %25 = xtile.splat %k : index -> tensor<32xindex>
    %26 = arith.addi %24, %25 : tensor<32xindex>
    %27 = xtile.reshape %26 : tensor<32xindex> -> tensor<1x32xindex>
    %28 = xtile.broadcast %27 : tensor<1x32xindex> -> tensor<128x32xindex>
    %29 = xtile.reshape %26 : tensor<32xindex> -> tensor<32x1xindex>
    %30 = xtile.broadcast %29 : tensor<32x1xindex> -> tensor<32x256xindex>
    %31 = xtile.range 0 to 256 : tensor<256xindex>
    %32 = xtile.splat %5 : index -> tensor<256xindex>
    %33 = arith.addi %31, %32 : tensor<256xindex>
    %34 = xtile.reshape %33 : tensor<256xindex> -> tensor<1x256xindex>
    %35 = xtile.broadcast %34 : tensor<1x256xindex> -> tensor<32x256xindex>
    %36 = xtile.load %x[%23, %28] : memref<4096x4096xbf16>[tensor<128x32xindex>, tensor<128x32xindex>] -> tensor<128x32xbf16>
    %37 = xtile.load %w[%30, %35] : memref<4096x4096xbf16>[tensor<32x256xindex>, tensor<32x256xindex>] -> tensor<32x256xbf16>
    %38 = xtile.dot %36, %37, %acc : tensor<128x32xbf16>, tensor<32x256xbf16>, tensor<128x256xf32>
    scf.yield %38 : tensor<128x256xf32>
  } {xtile.num_stages = 4 : i64}
  %8 = xtile.range 0 to 128 : tensor<128xindex>
  %9 = xtile.splat %4 : index -> tensor<128xindex>
  %10 = arith.addi %8, %9 : tensor<128xindex>
  %11 = xtile.reshape %10 : tensor<128xindex> -> tensor<128x1xindex>
  %12 = xtile.broadcast %11 : tensor<128x1xindex> -> tensor<128x256xindex>
  %13 = xtile.range 0 to 256 : tensor<256xindex>
  %14 = xtile.splat %5 : index -> tensor<256xindex>
  %15 = arith.addi %13, %14 : tensor<256xindex>
  %16 = xtile.reshape %15 : tensor<256xindex> -> tensor<1x256xindex>
  %17 = xtile.broadcast %16 : tensor<1x256xindex> -> tensor<128x256xindex>
  %18 = arith.truncf %7 : tensor<128x256xf32> to tensor<128x256xbf16>
  xtile.store %18, %y[%12, %17] : memref<4096x4096xbf16>[tensor<128x256xindex>, tensor<128x256xindex>], tensor<128x256xbf16>
}

// CHECK-LABEL: xkernel.func @bf16_mma_sync_sm80(
// CHECK-SAME:    arch = "sm_80"
// CHECK:         scf.for
// CHECK:           xkernel.ldmatrix
// CHECK:           xkernel.mma
xtile.kernel @bf16_mma_sync_sm80(%x: memref<4096x4096xbf16>, %w: memref<4096x4096xbf16>) -> (%y: memref<4096x4096xbf16>)
    attributes {grid = array<i64: 512>, num_warps = 8 : i64, schedule = #xtile.dot_schedule<block_m = 128, block_n = 256, block_k = 64, stages = 3, warps = 8, instruction = mma_sync, warps_m = 2>, target = #sm80} {
  %c0 = arith.constant 0 : index
  %c4096 = arith.constant 4096 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %c128 = arith.constant 128 : index
  %cst = arith.constant 0.000000e+00 : f32
  %c32 = arith.constant 32 : index
  %c16 = arith.constant 16 : index
  %0 = xtile.program_id 0
  %1 = arith.remui %0, %c16 : index
  %2 = arith.divui %0, %c16 : index
  %3 = arith.remui %2, %c32 : index
  %4 = arith.muli %3, %c128 : index
  %5 = arith.muli %1, %c256 : index
  %6 = xtile.splat %cst : f32 -> tensor<128x256xf32>
  %7 = scf.for %k = %c0 to %c4096 step %c64 iter_args(%acc = %6) -> (tensor<128x256xf32>) {
    %19 = xtile.range 0 to 128 : tensor<128xindex>
    %20 = xtile.splat %4 : index -> tensor<128xindex>
    %21 = arith.addi %19, %20 : tensor<128xindex>
    %22 = xtile.reshape %21 : tensor<128xindex> -> tensor<128x1xindex>
    %23 = xtile.broadcast %22 : tensor<128x1xindex> -> tensor<128x64xindex>
    %24 = xtile.range 0 to 64 : tensor<64xindex>
    %25 = xtile.splat %k : index -> tensor<64xindex>
    %26 = arith.addi %24, %25 : tensor<64xindex>
    %27 = xtile.reshape %26 : tensor<64xindex> -> tensor<1x64xindex>
    %28 = xtile.broadcast %27 : tensor<1x64xindex> -> tensor<128x64xindex>
    %29 = xtile.reshape %26 : tensor<64xindex> -> tensor<64x1xindex>
    %30 = xtile.broadcast %29 : tensor<64x1xindex> -> tensor<64x256xindex>
    %31 = xtile.range 0 to 256 : tensor<256xindex>
    %32 = xtile.splat %5 : index -> tensor<256xindex>
    %33 = arith.addi %31, %32 : tensor<256xindex>
    %34 = xtile.reshape %33 : tensor<256xindex> -> tensor<1x256xindex>
    %35 = xtile.broadcast %34 : tensor<1x256xindex> -> tensor<64x256xindex>
    %36 = xtile.load %x[%23, %28] : memref<4096x4096xbf16>[tensor<128x64xindex>, tensor<128x64xindex>] -> tensor<128x64xbf16>
    %37 = xtile.load %w[%30, %35] : memref<4096x4096xbf16>[tensor<64x256xindex>, tensor<64x256xindex>] -> tensor<64x256xbf16>
    %38 = xtile.dot %36, %37, %acc : tensor<128x64xbf16>, tensor<64x256xbf16>, tensor<128x256xf32>
    scf.yield %38 : tensor<128x256xf32>
  } {xtile.num_stages = 3 : i64}
  %8 = xtile.range 0 to 128 : tensor<128xindex>
  %9 = xtile.splat %4 : index -> tensor<128xindex>
  %10 = arith.addi %8, %9 : tensor<128xindex>
  %11 = xtile.reshape %10 : tensor<128xindex> -> tensor<128x1xindex>
  %12 = xtile.broadcast %11 : tensor<128x1xindex> -> tensor<128x256xindex>
  %13 = xtile.range 0 to 256 : tensor<256xindex>
  %14 = xtile.splat %5 : index -> tensor<256xindex>
  %15 = arith.addi %13, %14 : tensor<256xindex>
  %16 = xtile.reshape %15 : tensor<256xindex> -> tensor<1x256xindex>
  %17 = xtile.broadcast %16 : tensor<1x256xindex> -> tensor<128x256xindex>
  %18 = arith.truncf %7 : tensor<128x256xf32> to tensor<128x256xbf16>
  xtile.store %18, %y[%12, %17] : memref<4096x4096xbf16>[tensor<128x256xindex>, tensor<128x256xindex>], tensor<128x256xbf16>
}

// f32 matmuls stay on the FMA pipes (exact), on sm_90 as on sm_80 (the same
// schedule).
// CHECK-LABEL: xkernel.func @f32_fma(
// CHECK-NOT:     xkernel.mma
// CHECK:         math.fma
// CHECK:         xkernel.return
xtile.kernel @f32_fma(%x: memref<128x64xf32>, %w: memref<64x128xf32>) -> (%y: memref<128x128xf32>)
    attributes {grid = array<i64: 16>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 32, block_n = 32, block_k = 32, stages = 2, warps = 4>, target = #sm90} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c32 = arith.constant 32 : index
  %cst = arith.constant 0.000000e+00 : f32
  %c4 = arith.constant 4 : index
  %0 = xtile.program_id 0
  %1 = arith.remui %0, %c4 : index
  %2 = arith.divui %0, %c4 : index
  %3 = arith.remui %2, %c4 : index
  %4 = arith.muli %3, %c32 : index
  %5 = arith.muli %1, %c32 : index
  %6 = xtile.splat %cst : f32 -> tensor<32x32xf32>
  %7 = scf.for %k = %c0 to %c64 step %c32 iter_args(%acc = %6) -> (tensor<32x32xf32>) {
    %17 = xtile.range 0 to 32 : tensor<32xindex>
    %18 = xtile.splat %4 : index -> tensor<32xindex>
    %19 = arith.addi %17, %18 : tensor<32xindex>
    %20 = xtile.reshape %19 : tensor<32xindex> -> tensor<32x1xindex>
    %21 = xtile.broadcast %20 : tensor<32x1xindex> -> tensor<32x32xindex>
    %22 = xtile.splat %k : index -> tensor<32xindex>
    %23 = arith.addi %17, %22 : tensor<32xindex>
    %24 = xtile.reshape %23 : tensor<32xindex> -> tensor<1x32xindex>
    %25 = xtile.broadcast %24 : tensor<1x32xindex> -> tensor<32x32xindex>
    %26 = xtile.reshape %23 : tensor<32xindex> -> tensor<32x1xindex>
    %27 = xtile.broadcast %26 : tensor<32x1xindex> -> tensor<32x32xindex>
    %28 = xtile.splat %5 : index -> tensor<32xindex>
    %29 = arith.addi %17, %28 : tensor<32xindex>
    %30 = xtile.reshape %29 : tensor<32xindex> -> tensor<1x32xindex>
    %31 = xtile.broadcast %30 : tensor<1x32xindex> -> tensor<32x32xindex>
    %32 = xtile.load %x[%21, %25] : memref<128x64xf32>[tensor<32x32xindex>, tensor<32x32xindex>] -> tensor<32x32xf32>
    %33 = xtile.load %w[%27, %31] : memref<64x128xf32>[tensor<32x32xindex>, tensor<32x32xindex>] -> tensor<32x32xf32>
    %34 = xtile.dot %32, %33, %acc : tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>
    scf.yield %34 : tensor<32x32xf32>
  } {xtile.num_stages = 2 : i64}
  %8 = xtile.range 0 to 32 : tensor<32xindex>
  %9 = xtile.splat %4 : index -> tensor<32xindex>
  %10 = arith.addi %8, %9 : tensor<32xindex>
  %11 = xtile.reshape %10 : tensor<32xindex> -> tensor<32x1xindex>
  %12 = xtile.broadcast %11 : tensor<32x1xindex> -> tensor<32x32xindex>
  %13 = xtile.splat %5 : index -> tensor<32xindex>
  %14 = arith.addi %8, %13 : tensor<32xindex>
  %15 = xtile.reshape %14 : tensor<32xindex> -> tensor<1x32xindex>
  %16 = xtile.broadcast %15 : tensor<1x32xindex> -> tensor<32x32xindex>
  xtile.store %7, %y[%12, %16] : memref<128x128xf32>[tensor<32x32xindex>, tensor<32x32xindex>], tensor<32x32xf32>
}

// With allow-tf32 they go to tensor cores on tf32 (mma.sync m16n8k8,
// operands rounded first).
// CHECK-LABEL: xkernel.func @f32_tf32(
// CHECK:         xkernel.ldmatrix {{.*}} -> vector<4xf32>
// CHECK:         xkernel.round_tf32
// CHECK:         xkernel.mma {{.*}} : vector<4xf32>, vector<2xf32> -> vector<4xf32>
xtile.kernel @f32_tf32(%x: memref<128x64xf32>, %w: memref<64x128xf32>) -> (%y: memref<128x128xf32>)
    attributes {grid = array<i64: 16>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 16, block_n = 64, block_k = 32, stages = 2, warps = 4, instruction = mma_sync, tf32 = true>, target = #sm80} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c16 = arith.constant 16 : index
  %cst = arith.constant 0.000000e+00 : f32
  %c8 = arith.constant 8 : index
  %c2 = arith.constant 2 : index
  %0 = xtile.program_id 0
  %1 = arith.remui %0, %c2 : index
  %2 = arith.divui %0, %c2 : index
  %3 = arith.remui %2, %c8 : index
  %4 = arith.muli %3, %c16 : index
  %5 = arith.muli %1, %c64 : index
  %6 = xtile.splat %cst : f32 -> tensor<16x64xf32>
  %7 = scf.for %k = %c0 to %c64 step %c32 iter_args(%acc = %6) -> (tensor<16x64xf32>) {
    %18 = xtile.range 0 to 16 : tensor<16xindex>
    %19 = xtile.splat %4 : index -> tensor<16xindex>
    %20 = arith.addi %18, %19 : tensor<16xindex>
    %21 = xtile.reshape %20 : tensor<16xindex> -> tensor<16x1xindex>
    %22 = xtile.broadcast %21 : tensor<16x1xindex> -> tensor<16x32xindex>
    %23 = xtile.range 0 to 32 : tensor<32xindex>
    %24 = xtile.splat %k : index -> tensor<32xindex>
    %25 = arith.addi %23, %24 : tensor<32xindex>
    %26 = xtile.reshape %25 : tensor<32xindex> -> tensor<1x32xindex>
    %27 = xtile.broadcast %26 : tensor<1x32xindex> -> tensor<16x32xindex>
    %28 = xtile.reshape %25 : tensor<32xindex> -> tensor<32x1xindex>
    %29 = xtile.broadcast %28 : tensor<32x1xindex> -> tensor<32x64xindex>
    %30 = xtile.range 0 to 64 : tensor<64xindex>
    %31 = xtile.splat %5 : index -> tensor<64xindex>
    %32 = arith.addi %30, %31 : tensor<64xindex>
    %33 = xtile.reshape %32 : tensor<64xindex> -> tensor<1x64xindex>
    %34 = xtile.broadcast %33 : tensor<1x64xindex> -> tensor<32x64xindex>
    %35 = xtile.load %x[%22, %27] : memref<128x64xf32>[tensor<16x32xindex>, tensor<16x32xindex>] -> tensor<16x32xf32>
    %36 = xtile.load %w[%29, %34] : memref<64x128xf32>[tensor<32x64xindex>, tensor<32x64xindex>] -> tensor<32x64xf32>
    %37 = xtile.dot %35, %36, %acc : tensor<16x32xf32>, tensor<32x64xf32>, tensor<16x64xf32>
    scf.yield %37 : tensor<16x64xf32>
  } {xtile.num_stages = 2 : i64}
  %8 = xtile.range 0 to 16 : tensor<16xindex>
  %9 = xtile.splat %4 : index -> tensor<16xindex>
  %10 = arith.addi %8, %9 : tensor<16xindex>
  %11 = xtile.reshape %10 : tensor<16xindex> -> tensor<16x1xindex>
  %12 = xtile.broadcast %11 : tensor<16x1xindex> -> tensor<16x64xindex>
  %13 = xtile.range 0 to 64 : tensor<64xindex>
  %14 = xtile.splat %5 : index -> tensor<64xindex>
  %15 = arith.addi %13, %14 : tensor<64xindex>
  %16 = xtile.reshape %15 : tensor<64xindex> -> tensor<1x64xindex>
  %17 = xtile.broadcast %16 : tensor<1x64xindex> -> tensor<16x64xindex>
  xtile.store %7, %y[%12, %17] : memref<128x128xf32>[tensor<16x64xindex>, tensor<16x64xindex>], tensor<16x64xf32>
}

// On sm_90a the bf16 matmul runs on wgmma, warp-specialized. Its B ([K, N],
// contiguous along N) is brought in by TMA as four boxes of 64 x 64, N-major
// 64-column panels of 64 x 128 bytes, which the descriptor steps through
// (n_major(8192)); A (one 128 x 64 box) stays K-major. 384 threads, the
// last warpgroup a producer. Thread 0 initializes a "full" mbarrier per
// stage (one arrival: the producer's, with the stage's 48 KiB) and an
// "empty" one (the 256 consumer threads' arrivals) before the block meets.
// The producer gives up registers and one of its threads loops over the K
// steps: it waits until the consumers released the stage, expects its
// bytes and starts its five boxes. The consumers take 192 registers (128
// accumulators, 40 and 24), wait for each stage's copies, leave each K step's
// group in flight (wgmma_wait 1) and release the stage the group before
// read; no barrier of the whole block is left in the loop, and the
// epilogue's barriers are the consumers' (named barrier 1 of 256 threads).
// CHECK-LABEL: xkernel.func @bf16_wgmma(
// CHECK-SAME:    %[[MAPA:[^:]*]]: !xkernel.ptr<i8, global> {xkernel.readonly, xkernel.tensor_map = {box = array<i64: 128, 64>, of = 0 : i64, swizzle = 128 : i64}}
// CHECK-SAME:    %[[MAPB:[^:]*]]: !xkernel.ptr<i8, global> {xkernel.readonly, xkernel.tensor_map = {box = array<i64: 64, 64>, of = 1 : i64, swizzle = 128 : i64}}
// CHECK-SAME:    max_threads = 384
// CHECK-DAG:     %[[C256:.*]] = arith.constant 256 : index
// CHECK-COUNT-3: xkernel.mbarrier_init %{{.*}}[%{{.*}}], 1 : <i64, shared>
// CHECK-COUNT-3: xkernel.mbarrier_init %{{.*}}[%{{.*}}], 256 : <i64, shared>
// CHECK:         xkernel.barrier
// CHECK-NEXT:    %[[PRODUCER:.*]] = arith.cmpi uge, %{{.*}}, %[[C256]] : index
// CHECK-NEXT:    scf.if %[[PRODUCER]] {
// CHECK-NEXT:      xkernel.set_max_registers decrease 40
// CHECK:           scf.for
// CHECK:             xkernel.mbarrier_wait
// CHECK:             xkernel.mbarrier_arrive_expect_tx %{{.*}}[%{{.*}}], 49152
// CHECK:             xkernel.tma_load %[[MAPA]]
// CHECK-COUNT-4:     xkernel.tma_load %[[MAPB]]
// CHECK-NOT:     xkernel.async_copy
// CHECK:         %[[CONSUMER:.*]] = arith.cmpi ult, %{{.*}}, %[[C256]] : index
// CHECK-NEXT:    scf.if %[[CONSUMER]] {
// CHECK-NEXT:      xkernel.set_max_registers increase 192
// CHECK-NEXT:      scf.for
// CHECK:             xkernel.mbarrier_wait
// CHECK:             xkernel.wgmma_fence
// CHECK-COUNT-4:     xkernel.wgmma %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}] n_major(8192), %{{.*}} : <bf16, shared>, <bf16, shared>, vector<128xf32>
// CHECK:             xkernel.wgmma_commit
// CHECK-NEXT:        xkernel.wgmma_wait 1
// CHECK-NOT:         xkernel.barrier
// CHECK:             xkernel.mbarrier_arrive
// CHECK-NOT:         xkernel.barrier
// CHECK:             scf.yield
// CHECK-NOT:       xkernel.async_wait
// CHECK:           vector.from_elements
// CHECK-NEXT:      xkernel.wgmma_wait 0, %{{.*}} : vector<128xf32>
// CHECK:           xkernel.barrier 1, 256
// CHECK:         xkernel.return
xtile.kernel @bf16_wgmma(%x: memref<4096x4096xbf16>, %w: memref<4096x4096xbf16>) -> (%y: memref<4096x4096xbf16>)
    attributes {grid = array<i64: 512>, num_warps = 8 : i64, schedule = #xtile.dot_schedule<block_m = 128, block_n = 256, block_k = 64, stages = 3, warps = 8, instruction = wgmma, warps_m = 8, warp_specialized = true>, target = #sm90a} {
  %c0 = arith.constant 0 : index
  %c4096 = arith.constant 4096 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %c128 = arith.constant 128 : index
  %cst = arith.constant 0.000000e+00 : f32
  %c32 = arith.constant 32 : index
  %c16 = arith.constant 16 : index
  %0 = xtile.program_id 0
  %1 = arith.remui %0, %c16 : index
  %2 = arith.divui %0, %c16 : index
  %3 = arith.remui %2, %c32 : index
  %4 = arith.muli %3, %c128 : index
  %5 = arith.muli %1, %c256 : index
  %6 = xtile.splat %cst : f32 -> tensor<128x256xf32>
  %7 = scf.for %k = %c0 to %c4096 step %c64 iter_args(%acc = %6) -> (tensor<128x256xf32>) {
    %19 = xtile.range 0 to 128 : tensor<128xindex>
    %20 = xtile.splat %4 : index -> tensor<128xindex>
    %21 = arith.addi %19, %20 : tensor<128xindex>
    %22 = xtile.reshape %21 : tensor<128xindex> -> tensor<128x1xindex>
    %23 = xtile.broadcast %22 : tensor<128x1xindex> -> tensor<128x64xindex>
    %24 = xtile.range 0 to 64 : tensor<64xindex>
    %25 = xtile.splat %k : index -> tensor<64xindex>
    %26 = arith.addi %24, %25 : tensor<64xindex>
    %27 = xtile.reshape %26 : tensor<64xindex> -> tensor<1x64xindex>
    %28 = xtile.broadcast %27 : tensor<1x64xindex> -> tensor<128x64xindex>
    %29 = xtile.reshape %26 : tensor<64xindex> -> tensor<64x1xindex>
    %30 = xtile.broadcast %29 : tensor<64x1xindex> -> tensor<64x256xindex>
    %31 = xtile.range 0 to 256 : tensor<256xindex>
    %32 = xtile.splat %5 : index -> tensor<256xindex>
    %33 = arith.addi %31, %32 : tensor<256xindex>
    %34 = xtile.reshape %33 : tensor<256xindex> -> tensor<1x256xindex>
    %35 = xtile.broadcast %34 : tensor<1x256xindex> -> tensor<64x256xindex>
    %36 = xtile.load %x[%23, %28] : memref<4096x4096xbf16>[tensor<128x64xindex>, tensor<128x64xindex>] -> tensor<128x64xbf16>
    %37 = xtile.load %w[%30, %35] : memref<4096x4096xbf16>[tensor<64x256xindex>, tensor<64x256xindex>] -> tensor<64x256xbf16>
    %38 = xtile.dot %36, %37, %acc : tensor<128x64xbf16>, tensor<64x256xbf16>, tensor<128x256xf32>
    scf.yield %38 : tensor<128x256xf32>
  } {xtile.num_stages = 3 : i64}
  %8 = xtile.range 0 to 128 : tensor<128xindex>
  %9 = xtile.splat %4 : index -> tensor<128xindex>
  %10 = arith.addi %8, %9 : tensor<128xindex>
  %11 = xtile.reshape %10 : tensor<128xindex> -> tensor<128x1xindex>
  %12 = xtile.broadcast %11 : tensor<128x1xindex> -> tensor<128x256xindex>
  %13 = xtile.range 0 to 256 : tensor<256xindex>
  %14 = xtile.splat %5 : index -> tensor<256xindex>
  %15 = arith.addi %13, %14 : tensor<256xindex>
  %16 = xtile.reshape %15 : tensor<256xindex> -> tensor<1x256xindex>
  %17 = xtile.broadcast %16 : tensor<1x256xindex> -> tensor<128x256xindex>
  %18 = arith.truncf %7 : tensor<128x256xf32> to tensor<128x256xbf16>
  xtile.store %18, %y[%12, %17] : memref<4096x4096xbf16>[tensor<128x256xindex>, tensor<128x256xindex>], tensor<128x256xbf16>
}
