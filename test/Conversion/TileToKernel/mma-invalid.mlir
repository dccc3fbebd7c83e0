// RUN: xtile-opt %s --split-input-file --convert-xtile-to-xkernel -verify-diagnostics
// RUN: not xtile-opt %s --split-input-file --test-convert-xtile-to-xkernel-mutated="mutation=bogus" 2>&1 | FileCheck %s --check-prefix=MUTATE

// MUTATE: error: unknown test-mutate 'bogus'

// The tensor-core lowering lays accumulators out over the schedule's warp
// grid: block_m rows, and whole 16-column blocks for each warp across. A
// dot of another shape is an error, not a wrong layout.
xtile.kernel @small_dot(%a: memref<32x32xbf16>, %b: memref<32x32xbf16>) -> (%c: memref<32x32xf32>)
    attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 1, warps = 4, instruction = mma_sync, warps_m = 2>, target = #xtile.target<arch = "sm_80", sms = 108, max_threads = 1024, shared_memory = 166912, registers = 65536, bandwidth = 2039, l2 = 41943040, mma_sync_gflops = 312000>} {
  %x = arith.constant dense<1.0> : tensor<32x32xbf16>
  %y = arith.constant dense<1.0> : tensor<32x32xbf16>
  %z = arith.constant dense<0.0> : tensor<32x32xf32>
  // expected-error @+1 {{'xtile.dot' op has a 'tensor<32x32xf32>' accumulator; on tensor cores it must have the schedule's block_m rows and whole 16-column blocks for each of its 2 warp(s) across (#xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 1, warps = 4, instruction = mma_sync, warps_m = 2>)}}
  %d = xtile.dot %x, %y, %z : tensor<32x32xbf16>, tensor<32x32xbf16>, tensor<32x32xf32>
}

// -----

// Accumulators of other widths (attention's scores beside its output) are
// laid out alike, each in whole 16-column blocks per warp: 64 x 16 over
// two warps across is not.
xtile.kernel @two_shapes(%a: memref<64x32xbf16>, %b: memref<32x64xbf16>) -> (%c: memref<64x64xf32>)
    attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 1, warps = 4, instruction = mma_sync, warps_m = 2>, target = #xtile.target<arch = "sm_80", sms = 108, max_threads = 1024, shared_memory = 166912, registers = 65536, bandwidth = 2039, l2 = 41943040, mma_sync_gflops = 312000>} {
  %x = arith.constant dense<1.0> : tensor<64x32xbf16>
  %y = arith.constant dense<1.0> : tensor<32x64xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = xtile.dot %x, %y, %z : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
  %y2 = arith.constant dense<1.0> : tensor<32x32xbf16>
  %z2 = arith.constant dense<0.0> : tensor<64x32xf32>
  %e = xtile.dot %x, %y2, %z2 : tensor<64x32xbf16>, tensor<32x32xbf16>, tensor<64x32xf32>
  %y3 = arith.constant dense<1.0> : tensor<32x16xbf16>
  %z3 = arith.constant dense<0.0> : tensor<64x16xf32>
  // expected-error @+1 {{'xtile.dot' op has a 'tensor<64x16xf32>' accumulator; on tensor cores it must have the schedule's block_m rows and whole 16-column blocks for each of its 2 warp(s) across}}
  %f = xtile.dot %x, %y3, %z3 : tensor<64x32xbf16>, tensor<32x16xbf16>, tensor<64x16xf32>
}
