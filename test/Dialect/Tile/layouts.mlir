// RUN: xtile-opt %s --test-print-tile-layouts -o /dev/null 2>&1 | FileCheck %s

// The layout analysis: how each tile of a Tile IR kernel is dealt out to
// the threads, from its shape and the schedule.

#sm90 = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>

// On mma.sync the dot's 64x64 accumulator shape takes the instruction's
// fragment layout (2 adjacent elements of 16 blocks per lane); every other
// tile is row-major in groups of the schedule's vector width (8 here), as
// few threads as it has groups.
// CHECK: remark: layout of 'tensor<64xindex>': 8 adjacent x 1 chunks on 8 threads
// CHECK: remark: layout of 'tensor<64x1xindex>': 1 adjacent x 1 chunks on 64 threads
// CHECK: remark: layout of 'tensor<64x32xbf16>': 8 adjacent x 2 chunks on 128 threads
// CHECK: remark: layout of 'tensor<64x64xf32>': tensor-core accumulator, 2 adjacent x 16 chunks on 128 threads
xtile.kernel @linear(%x: memref<64x96xbf16>, %w: memref<64x96xbf16>) -> (%y: memref<64x64xf32>)
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


// With FMA dots the accumulator is a tile like the others, in groups of
// this schedule's vector width (4).
// CHECK: remark: layout of 'tensor<64x64xf32>': 4 adjacent x 8 chunks on 128 threads
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

