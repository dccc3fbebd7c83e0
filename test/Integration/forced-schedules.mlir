// A schedule forced on the whole pipeline (--lower-to-kernel's
// force-schedule) that a kernel cannot take is an error that says what it
// needs: at the Tensor IR op the kernel came from where the kernel's
// element types rule it out, at the option where the schedule is invalid
// on its own. (The Tile IR verifier's own tests are in
// test/Dialect/Tile/invalid.mlir.)
// RUN: not xtile-opt %s --lower-to-kernel="force-schedule='#xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 3, warps = 4, instruction = mma_sync, warps_m = 2>'" 2>&1 | FileCheck %s --check-prefix=FORCED
// RUN: not xtile-opt %s --lower-to-kernel="target=sm_90a force-schedule='#xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 64, stages = 3, warps = 4, instruction = mma_sync, warps_m = 2, warp_specialized = true>'" 2>&1 | FileCheck %s --check-prefix=INVALID

// Tensor cores take f16 or bf16 operands, or f32 ones only on tf32: a
// bf16 matmul takes mma.sync, an f32 one does not.
// FORCED-NOT: forced-schedules.mlir:[[@LINE+2]]:{{.*}}error
func.func @bf16(%x: tensor<100x96xbf16>, %w: tensor<200x96xbf16>) -> tensor<100x200xbf16> {
  %y = xtensor.linear %x, %w : (tensor<100x96xbf16>, tensor<200x96xbf16>) -> tensor<100x200xbf16>
  return %y : tensor<100x200xbf16>
}

// FORCED: forced-schedules.mlir:[[@LINE+2]]:8: error: 'xtile.dot' op runs on tensor cores (instruction = mma_sync), which take f16, bf16 or fp8 operands of one type and an f32 accumulator; got 'f32' x 'f32' -> 'f32' (f32 operands need tf32 = true)
func.func @f32(%x: tensor<128x64xf32>, %w: tensor<64x128xf32>) -> tensor<128x128xf32> {
  %y = xtensor.matmul %x, %w : tensor<128x64xf32>, tensor<64x128xf32> -> tensor<128x128xf32>
  return %y : tensor<128x128xf32>
}

// Warp specialization needs wgmma.
// INVALID: error: warp_specialized needs instruction = wgmma, 2 or more stages and one way; got instruction = mma_sync, stages = 3, ways = 1
