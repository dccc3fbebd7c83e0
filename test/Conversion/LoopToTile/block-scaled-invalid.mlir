// RUN: xtile-opt %s --xtile-select-schedule="force='#xtile.dot_schedule<block_m = 32, block_n = 32, block_k = 64, stages = 2, warps = 4>'" --convert-xloop-to-xtile -verify-diagnostics

// A block-scaled contraction's K steps lie within its blocks (the scales
// change every 32 k here): a forced schedule stepping over 64 is an error
// at the kernel.
// expected-error @+1 {{'xloop.kernel' op is a block-scaled contraction whose scales change every 32 of K; schedule #xtile.dot_schedule<block_m = 32, block_n = 32, block_k = 64, stages = 2, warps = 4> steps over 64, which does not divide it}}
xloop.kernel @blocks(%x: memref<8x64xf32>, %w: memref<64x8xf32>, %s: memref<8x2xf32>) -> (%out: memref<8x8xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  xloop.parallel %i = 0 to 8 {
    xloop.parallel %j = 0 to 8 {
      %acc = xloop.fold %kb = 0 to 2 combine add init(%zero) : f32 {
        %part = xloop.fold %k = 0 to 32 combine add init(%zero) : f32 {
          %kk = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1)>(%kb, %k)
          %a = xloop.load %x[%i, %kk] : memref<8x64xf32>
          %b = xloop.load %w[%kk, %j] : memref<64x8xf32>
          %p = arith.mulf %a, %b : f32
          xloop.yield %p : f32
        }
        %sc = xloop.load %s[%i, %kb] : memref<8x2xf32>
        %scaled = arith.mulf %part, %sc : f32
        xloop.yield %scaled : f32
      }
      xloop.store %acc, %out[%i, %j] : memref<8x8xf32>
    }
  }
}
