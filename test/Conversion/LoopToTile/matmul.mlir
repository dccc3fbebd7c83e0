// RUN: xtile-opt %s --lower-to-tile | FileCheck %s
// RUN: xtile-opt %s --lower-to-tile="force-schedule='#xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 2, warps = 8>'" | FileCheck %s --check-prefix=FORCED

// A 4096^3 bf16 matmul: programs over 128-row output tiles, a K loop in
// steps of BK with a pipelining depth, bf16 tiles into an f32 accumulator
// on the tensor cores (mma.sync: the cost model prices tensor-core
// schedules at the target's mma_sync_gflops, FMA ones at fp32_gflops),
// rounded to bf16 once at the end.
// CHECK-LABEL: xtile.kernel @mm_matmul(
// CHECK-SAME:    grid = array<i64: {{[0-9]+}}>, num_warps = {{[0-9]+}} : i64, schedule = #xtile.dot_schedule<block_m = 128, block_n = [[BN:[0-9]+]], block_k = [[BK:[0-9]+]], stages = [[STAGES:[0-9]+]], warps = {{[0-9]+}}, instruction = mma_sync, warps_m = {{[0-9]+}}>
// CHECK:         %[[ZERO:.*]] = xtile.splat %{{.*}} : f32 -> tensor<128x[[BN]]xf32>
// CHECK:         %[[ACC:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[IT:.*]] = %[[ZERO]]) -> (tensor<128x[[BN]]xf32>) {
// CHECK:           %[[A:.*]] = xtile.load %{{.*}} : memref<4096x4096xbf16>[tensor<128x[[BK]]xindex>, tensor<128x[[BK]]xindex>] -> tensor<128x[[BK]]xbf16>
// CHECK:           %[[B:.*]] = xtile.load %{{.*}} : memref<4096x4096xbf16>[tensor<[[BK]]x[[BN]]xindex>, tensor<[[BK]]x[[BN]]xindex>] -> tensor<[[BK]]x[[BN]]xbf16>
// CHECK:           %[[D:.*]] = xtile.dot %[[A]], %[[B]], %[[IT]] : tensor<128x[[BK]]xbf16>, tensor<[[BK]]x[[BN]]xbf16>, tensor<128x[[BN]]xf32>
// CHECK:           scf.yield %[[D]]
// CHECK:         } {xtile.num_stages = [[STAGES]] : i64}
// CHECK:         %[[R:.*]] = arith.truncf %[[ACC]] : tensor<128x[[BN]]xf32> to tensor<128x[[BN]]xbf16>
// CHECK:         xtile.store %[[R]], %{{.*}} : memref<4096x4096xbf16>[tensor<128x[[BN]]xindex>, tensor<128x[[BN]]xindex>], tensor<128x[[BN]]xbf16>
// FORCED:       schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 2, warps = 8>
// FORCED:       xtile.dot %{{.*}} : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
// FORCED:       {xtile.num_stages = 2 : i64}
func.func @mm(%a: tensor<4096x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<4096x4096xbf16> {
  %c = xtensor.matmul %a, %b : tensor<4096x4096xbf16>, tensor<4096x4096xbf16> -> tensor<4096x4096xbf16>
  return %c : tensor<4096x4096xbf16>
}

// A linear layer on ragged sizes (100 x 200 @ 200 x 300) with its bias and
// GELU epilogue in the same kernel: masked operand loads (other 0, neutral
// for the dot), the epilogue on the accumulator tile, a masked store. The
// transposed weight is read through swapped index tiles.
// CHECK-LABEL: xtile.kernel @linear_
// CHECK:         scf.for
// CHECK:           xtile.load %{{.*}} mask %{{.*}} : tensor<{{[0-9]+}}x{{[0-9]+}}xi1> other %{{.*}} : f32 : memref<100x200xf32>
// CHECK:           xtile.load %{{.*}} mask %{{.*}} : tensor<{{[0-9]+}}x{{[0-9]+}}xi1> other %{{.*}} : f32 : memref<300x200xf32>
// CHECK:           xtile.dot
// CHECK:         xtile.load %{{.*}} mask %{{.*}} : memref<300xf32>
// CHECK:         math.exp %{{.*}} : tensor<{{[0-9]+}}x{{[0-9]+}}xf32>
// CHECK:         xtile.store %{{.*}} mask %{{.*}} : memref<100x300xf32>
func.func @linear(%x: tensor<100x200xf32>, %w: tensor<300x200xf32>, %bias: tensor<300xf32>) -> tensor<100x300xf32> {
  %y = xtensor.linear %x, %w, %bias : (tensor<100x200xf32>, tensor<300x200xf32>, tensor<300xf32>) -> tensor<100x300xf32>
  %z = xtensor.gelu tanh %y : tensor<100x300xf32>
  return %z : tensor<100x300xf32>
}
