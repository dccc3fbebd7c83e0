// RUN: xtile-opt %s --xtile-plan-pipelines | FileCheck %s

// --xtile-plan-pipelines records how each loop over K is pipelined.

#sm90 = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>
#sm90a = #xtile.target<arch = "sm_90a", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800, wgmma_gflops = 989000>

// mma.sync: x (contiguous along K, its rows) is copied row by row in
// 16-byte groups; the weight w, read as [K, N] but contiguous along K (its
// columns), column by column. Three stages, nothing in flight across
// iterations (no wgmma).
// CHECK-LABEL: xtile.kernel @mma_sync
// CHECK:         xtile.load %{{.*}} {xtile.async_copy = #xtile.async_copy<group = 8>}
// CHECK:         xtile.load %{{.*}} {xtile.async_copy = #xtile.async_copy<group = 8, transposed = true>}
// CHECK:       } {xtile.num_stages = 3 : i64, xtile.pipeline = #xtile.pipeline<stages = 3>}
xtile.kernel @mma_sync(%x: memref<64x96xbf16>, %w: memref<64x96xbf16>) -> (%y: memref<64x64xf32>)
    attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 3, warps = 4, instruction = mma_sync, warps_m = 2>, target = #sm90} {
  %c0 = arith.constant 0 : index
  %c96 = arith.constant 96 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %init = xtile.splat %zero : f32 -> tensor<64x64xf32>
  %r64 = xtile.range 0 to 64 : tensor<64xindex>
  %rows = xtile.reshape %r64 : tensor<64xindex> -> tensor<64x1xindex>
  %xrows = xtile.broadcast %rows : tensor<64x1xindex> -> tensor<64x32xindex>
  %cols = xtile.reshape %r64 : tensor<64xindex> -> tensor<1x64xindex>
  %wrows = xtile.broadcast %cols : tensor<1x64xindex> -> tensor<32x64xindex>
  %acc = scf.for %k = %c0 to %c96 step %c32 iter_args(%a = %init) -> (tensor<64x64xf32>) {
    %r32 = xtile.range 0 to 32 : tensor<32xindex>
    %ks = xtile.splat %k : index -> tensor<32xindex>
    %kk = arith.addi %r32, %ks : tensor<32xindex>
    %krow = xtile.reshape %kk : tensor<32xindex> -> tensor<1x32xindex>
    %xk = xtile.broadcast %krow : tensor<1x32xindex> -> tensor<64x32xindex>
    %kcol = xtile.reshape %kk : tensor<32xindex> -> tensor<32x1xindex>
    %wk = xtile.broadcast %kcol : tensor<32x1xindex> -> tensor<32x64xindex>
    %xt = xtile.load %x[%xrows, %xk] : memref<64x96xbf16>[tensor<64x32xindex>, tensor<64x32xindex>] -> tensor<64x32xbf16>
    %wt = xtile.load %w[%wrows, %wk] : memref<64x96xbf16>[tensor<32x64xindex>, tensor<32x64xindex>] -> tensor<32x64xbf16>
    %d = xtile.dot %xt, %wt, %a : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  } {xtile.num_stages = 3 : i64}
  %yr = xtile.broadcast %rows : tensor<64x1xindex> -> tensor<64x64xindex>
  %yc = xtile.broadcast %cols : tensor<1x64xindex> -> tensor<64x64xindex>
  xtile.store %acc, %y[%yr, %yc] : memref<64x64xf32>[tensor<64x64xindex>, tensor<64x64xindex>], tensor<64x64xf32>
}


// wgmma, warp-specialized: both operands are boxes of their buffers, so
// TMA brings them in (x row by row with a 128-byte swizzle, w column by
// column: K-major B); each dot accumulates into a value only it reads, so
// its group stays in flight; the kernel splits at this loop.
// CHECK-LABEL: xtile.kernel @wgmma_specialized
// CHECK:         xtile.load %{{.*}} {xtile.async_copy = #xtile.async_copy<group = 8, tma_box = [64, 64], swizzle = 128>}
// CHECK:         xtile.load %{{.*}} {xtile.async_copy = #xtile.async_copy<group = 8, transposed = true, tma_box = [64, 64], swizzle = 128>}
// CHECK:       } {xtile.num_stages = 3 : i64, xtile.pipeline = #xtile.pipeline<stages = 3, overlap = true, warp_specialized = true>}
xtile.kernel @wgmma_specialized(%x: memref<64x128xbf16>, %w: memref<64x128xbf16>) -> (%y: memref<64x64xf32>)
    attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 64, stages = 3, warps = 4, instruction = wgmma, warps_m = 4, warp_specialized = true>, target = #sm90a} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %init = xtile.splat %zero : f32 -> tensor<64x64xf32>
  %r64 = xtile.range 0 to 64 : tensor<64xindex>
  %rows = xtile.reshape %r64 : tensor<64xindex> -> tensor<64x1xindex>
  %xrows = xtile.broadcast %rows : tensor<64x1xindex> -> tensor<64x64xindex>
  %cols = xtile.reshape %r64 : tensor<64xindex> -> tensor<1x64xindex>
  %wrows = xtile.broadcast %cols : tensor<1x64xindex> -> tensor<64x64xindex>
  %acc = scf.for %k = %c0 to %c128 step %c64 iter_args(%a = %init) -> (tensor<64x64xf32>) {
    %r32 = xtile.range 0 to 64 : tensor<64xindex>
    %ks = xtile.splat %k : index -> tensor<64xindex>
    %kk = arith.addi %r32, %ks : tensor<64xindex>
    %krow = xtile.reshape %kk : tensor<64xindex> -> tensor<1x64xindex>
    %xk = xtile.broadcast %krow : tensor<1x64xindex> -> tensor<64x64xindex>
    %kcol = xtile.reshape %kk : tensor<64xindex> -> tensor<64x1xindex>
    %wk = xtile.broadcast %kcol : tensor<64x1xindex> -> tensor<64x64xindex>
    %xt = xtile.load %x[%xrows, %xk] : memref<64x128xbf16>[tensor<64x64xindex>, tensor<64x64xindex>] -> tensor<64x64xbf16>
    %wt = xtile.load %w[%wrows, %wk] : memref<64x128xbf16>[tensor<64x64xindex>, tensor<64x64xindex>] -> tensor<64x64xbf16>
    %d = xtile.dot %xt, %wt, %a : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  } {xtile.num_stages = 3 : i64}
  %yr = xtile.broadcast %rows : tensor<64x1xindex> -> tensor<64x64xindex>
  %yc = xtile.broadcast %cols : tensor<1x64xindex> -> tensor<64x64xindex>
  xtile.store %acc, %y[%yr, %yc] : memref<64x64xf32>[tensor<64x64xindex>, tensor<64x64xindex>], tensor<64x64xf32>
}


// Two stages: copies one iteration ahead, no group left in flight (that
// needs a third stage).
// CHECK-LABEL: xtile.kernel @wgmma_two_stages
// CHECK:       } {xtile.num_stages = 2 : i64, xtile.pipeline = #xtile.pipeline<stages = 2>}
xtile.kernel @wgmma_two_stages(%x: memref<64x128xbf16>, %w: memref<64x128xbf16>) -> (%y: memref<64x64xf32>)
    attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 64, stages = 2, warps = 4, instruction = wgmma, warps_m = 4>, target = #sm90a} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %init = xtile.splat %zero : f32 -> tensor<64x64xf32>
  %r64 = xtile.range 0 to 64 : tensor<64xindex>
  %rows = xtile.reshape %r64 : tensor<64xindex> -> tensor<64x1xindex>
  %xrows = xtile.broadcast %rows : tensor<64x1xindex> -> tensor<64x64xindex>
  %cols = xtile.reshape %r64 : tensor<64xindex> -> tensor<1x64xindex>
  %wrows = xtile.broadcast %cols : tensor<1x64xindex> -> tensor<64x64xindex>
  %acc = scf.for %k = %c0 to %c128 step %c64 iter_args(%a = %init) -> (tensor<64x64xf32>) {
    %r32 = xtile.range 0 to 64 : tensor<64xindex>
    %ks = xtile.splat %k : index -> tensor<64xindex>
    %kk = arith.addi %r32, %ks : tensor<64xindex>
    %krow = xtile.reshape %kk : tensor<64xindex> -> tensor<1x64xindex>
    %xk = xtile.broadcast %krow : tensor<1x64xindex> -> tensor<64x64xindex>
    %kcol = xtile.reshape %kk : tensor<64xindex> -> tensor<64x1xindex>
    %wk = xtile.broadcast %kcol : tensor<64x1xindex> -> tensor<64x64xindex>
    %xt = xtile.load %x[%xrows, %xk] : memref<64x128xbf16>[tensor<64x64xindex>, tensor<64x64xindex>] -> tensor<64x64xbf16>
    %wt = xtile.load %w[%wrows, %wk] : memref<64x128xbf16>[tensor<64x64xindex>, tensor<64x64xindex>] -> tensor<64x64xbf16>
    %d = xtile.dot %xt, %wt, %a : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  } {xtile.num_stages = 2 : i64}
  %yr = xtile.broadcast %rows : tensor<64x1xindex> -> tensor<64x64xindex>
  %yc = xtile.broadcast %cols : tensor<1x64xindex> -> tensor<64x64xindex>
  xtile.store %acc, %y[%yr, %yc] : memref<64x64xf32>[tensor<64x64xindex>, tensor<64x64xindex>], tensor<64x64xf32>
}


// FMA dots stage their operands too; a loop without stages is left alone.
// CHECK-LABEL: xtile.kernel @fma
// CHECK:         xtile.load %{{.*}} {xtile.async_copy = #xtile.async_copy<group = 8>}
// CHECK:       } {xtile.num_stages = 3 : i64, xtile.pipeline = #xtile.pipeline<stages = 3>}
// CHECK-LABEL: xtile.kernel @one_stage
// CHECK-NOT:     xtile.async_copy
// CHECK-NOT:     xtile.pipeline
// CHECK:       }
xtile.kernel @fma(%x: memref<64x96xbf16>, %w: memref<64x96xbf16>) -> (%y: memref<64x64xf32>)
    attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 3, warps = 4>, target = #sm90} {
  %c0 = arith.constant 0 : index
  %c96 = arith.constant 96 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %init = xtile.splat %zero : f32 -> tensor<64x64xf32>
  %r64 = xtile.range 0 to 64 : tensor<64xindex>
  %rows = xtile.reshape %r64 : tensor<64xindex> -> tensor<64x1xindex>
  %xrows = xtile.broadcast %rows : tensor<64x1xindex> -> tensor<64x32xindex>
  %cols = xtile.reshape %r64 : tensor<64xindex> -> tensor<1x64xindex>
  %wrows = xtile.broadcast %cols : tensor<1x64xindex> -> tensor<32x64xindex>
  %acc = scf.for %k = %c0 to %c96 step %c32 iter_args(%a = %init) -> (tensor<64x64xf32>) {
    %r32 = xtile.range 0 to 32 : tensor<32xindex>
    %ks = xtile.splat %k : index -> tensor<32xindex>
    %kk = arith.addi %r32, %ks : tensor<32xindex>
    %krow = xtile.reshape %kk : tensor<32xindex> -> tensor<1x32xindex>
    %xk = xtile.broadcast %krow : tensor<1x32xindex> -> tensor<64x32xindex>
    %kcol = xtile.reshape %kk : tensor<32xindex> -> tensor<32x1xindex>
    %wk = xtile.broadcast %kcol : tensor<32x1xindex> -> tensor<32x64xindex>
    %xt = xtile.load %x[%xrows, %xk] : memref<64x96xbf16>[tensor<64x32xindex>, tensor<64x32xindex>] -> tensor<64x32xbf16>
    %wt = xtile.load %w[%wrows, %wk] : memref<64x96xbf16>[tensor<32x64xindex>, tensor<32x64xindex>] -> tensor<32x64xbf16>
    %d = xtile.dot %xt, %wt, %a : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  } {xtile.num_stages = 3 : i64}
  %yr = xtile.broadcast %rows : tensor<64x1xindex> -> tensor<64x64xindex>
  %yc = xtile.broadcast %cols : tensor<1x64xindex> -> tensor<64x64xindex>
  xtile.store %acc, %y[%yr, %yc] : memref<64x64xf32>[tensor<64x64xindex>, tensor<64x64xindex>], tensor<64x64xf32>
}

xtile.kernel @one_stage(%x: memref<64x96xbf16>, %w: memref<64x96xbf16>) -> (%y: memref<64x64xf32>)
    attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 1, warps = 4>, target = #sm90} {
  %c0 = arith.constant 0 : index
  %c96 = arith.constant 96 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %init = xtile.splat %zero : f32 -> tensor<64x64xf32>
  %r64 = xtile.range 0 to 64 : tensor<64xindex>
  %rows = xtile.reshape %r64 : tensor<64xindex> -> tensor<64x1xindex>
  %xrows = xtile.broadcast %rows : tensor<64x1xindex> -> tensor<64x32xindex>
  %cols = xtile.reshape %r64 : tensor<64xindex> -> tensor<1x64xindex>
  %wrows = xtile.broadcast %cols : tensor<1x64xindex> -> tensor<32x64xindex>
  %acc = scf.for %k = %c0 to %c96 step %c32 iter_args(%a = %init) -> (tensor<64x64xf32>) {
    %r32 = xtile.range 0 to 32 : tensor<32xindex>
    %ks = xtile.splat %k : index -> tensor<32xindex>
    %kk = arith.addi %r32, %ks : tensor<32xindex>
    %krow = xtile.reshape %kk : tensor<32xindex> -> tensor<1x32xindex>
    %xk = xtile.broadcast %krow : tensor<1x32xindex> -> tensor<64x32xindex>
    %kcol = xtile.reshape %kk : tensor<32xindex> -> tensor<32x1xindex>
    %wk = xtile.broadcast %kcol : tensor<32x1xindex> -> tensor<32x64xindex>
    %xt = xtile.load %x[%xrows, %xk] : memref<64x96xbf16>[tensor<64x32xindex>, tensor<64x32xindex>] -> tensor<64x32xbf16>
    %wt = xtile.load %w[%wrows, %wk] : memref<64x96xbf16>[tensor<32x64xindex>, tensor<32x64xindex>] -> tensor<32x64xbf16>
    %d = xtile.dot %xt, %wt, %a : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %yr = xtile.broadcast %rows : tensor<64x1xindex> -> tensor<64x64xindex>
  %yc = xtile.broadcast %cols : tensor<1x64xindex> -> tensor<64x64xindex>
  xtile.store %acc, %y[%yr, %yc] : memref<64x64xf32>[tensor<64x64xindex>, tensor<64x64xindex>], tensor<64x64xf32>
}

