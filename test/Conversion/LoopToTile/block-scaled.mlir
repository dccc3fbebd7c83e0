// RUN: xtile-opt %s --xtile-select-schedule="target=sm_90a force='#xtile.dot_schedule<block_m = 64, block_n = 128, block_k = 128, stages = 3, warps = 4, instruction = wgmma, warps_m = 4>'" --convert-xloop-to-xtile=target=sm_90a --canonicalize --cse | FileCheck %s

// A block-scaled contraction (docs/TileIR.md, "Block-scaled contractions"):
// a sum over blocks of 128 k of each block's contraction, scaled by a
// scale per row and block and one per 128 x 128 block. One K loop: the
// operands read at the step's own K tile, each step's dot from a zero tile,
// the row scale read as [64, 1], the weight's block scale as one value for
// the whole tile (its 128 columns lie in one block), the scaled sum added
// to the carried total (block-scaled-invalid.mlir: a K step longer than
// the blocks).
// CHECK-LABEL: xtile.kernel @blocks
// CHECK: %[[ZERO:.*]] = xtile.splat %{{.*}} : f32 -> tensor<64x128xf32>
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[TOTAL:.*]] = %[[ZERO]])
// CHECK: %[[KB:.*]] = arith.divui %[[K]], %{{.*}} : index
// CHECK: %[[PART:.*]] = xtile.dot %{{.*}}, %{{.*}}, %[[ZERO]] : tensor<64x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>, tensor<64x128xf32>
// CHECK: %[[ROW:.*]] = xtile.load %{{.*}}[%{{.*}}, %[[KB]]] mask %{{.*}} : tensor<64x1xi1> {{.*}} -> tensor<64x1xf32>
// CHECK: %[[BLOCK:.*]] = xtile.load %{{.*}}[%[[KB]], %{{.*}}] : memref<3x2xf32>[index, index] -> f32
// CHECK: %[[BLOCKS:.*]] = xtile.splat %[[BLOCK]] : f32 -> tensor<64x1xf32>
// CHECK: %[[S:.*]] = arith.mulf %[[ROW]], %[[BLOCKS]] : tensor<64x1xf32>
// CHECK: %[[SB:.*]] = xtile.broadcast %[[S]] : tensor<64x1xf32> -> tensor<64x128xf32>
// CHECK: %[[SCALED:.*]] = arith.mulf %[[PART]], %[[SB]] : tensor<64x128xf32>
// CHECK: %[[NEXT:.*]] = arith.addf %[[TOTAL]], %[[SCALED]] : tensor<64x128xf32>
// CHECK: scf.yield %[[NEXT]]
xloop.kernel @blocks(%x: memref<70x384xf8E4M3FN>, %w: memref<136x384xf8E4M3FN>, %sx: memref<70x3xf32>, %sw: memref<3x2xf32>) -> (%out: memref<70x136xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  xloop.parallel %i = 0 to 70 {
    xloop.parallel %j = 0 to 136 {
      %nb = affine.apply affine_map<(d0) -> (d0 floordiv 128)>(%j)
      %acc = xloop.fold %kb = 0 to 3 combine add init(%zero) : f32 {
        %part = xloop.fold %k = 0 to 128 combine add init(%zero) : f32 {
          %kk = affine.apply affine_map<(d0, d1) -> (d0 * 128 + d1)>(%kb, %k)
          %a = xloop.load %x[%i, %kk] : memref<70x384xf8E4M3FN>
          %b = xloop.load %w[%j, %kk] : memref<136x384xf8E4M3FN>
          %a32 = arith.extf %a : f8E4M3FN to f32
          %b32 = arith.extf %b : f8E4M3FN to f32
          %p = arith.mulf %a32, %b32 : f32
          xloop.yield %p : f32
        }
        %s1 = xloop.load %sx[%i, %kb] : memref<70x3xf32>
        %s2 = xloop.load %sw[%kb, %nb] : memref<3x2xf32>
        %s = arith.mulf %s1, %s2 : f32
        %scaled = arith.mulf %part, %s : f32
        xloop.yield %scaled : f32
      }
      xloop.store %acc, %out[%i, %j] : memref<70x136xf32>
    }
  }
}
