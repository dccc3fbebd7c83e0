// Found by xtile-fuzz (seed 31): fusion built, from row statistics of a
// 1-row input, a kernel with a loop nested in its column loop, which the
// Tile IR lowering rejects; fusion now keeps such kernels apart and the
// graph runs.
// RUN: xtile-run --backend=emu --seed=31 %s | FileCheck %s
// CHECK: @g31 output #0 tensor<1x1024xf32>: {{.*}}: ok
// CHECK: @g31 output #1 tensor<1x1024xf32>: {{.*}}: ok
func.func @g31(%a0: tensor<1x1024xf32>) -> (tensor<1x1024xf32>, tensor<1x1024xf32>) {
  %v1 = xtensor.sub %a0, %a0 : tensor<1x1024xf32>
  %v2 = xtensor.reduce sum %a0 dims [1] keepdim : tensor<1x1024xf32> -> tensor<1x1xf32>
  %v3 = xtensor.broadcast %v2 : tensor<1x1xf32> -> tensor<1x1024xf32>
  %v4 = xtensor.sub %a0, %v3 : tensor<1x1024xf32>
  %v5 = xtensor.reduce min %v4 dims [1] keepdim : tensor<1x1024xf32> -> tensor<1x1xf32>
  %v6 = xtensor.broadcast %v5 : tensor<1x1xf32> -> tensor<1x1024xf32>
  %v7 = xtensor.max %v4, %v6 : tensor<1x1024xf32>
  return %v7, %v1 : tensor<1x1024xf32>, tensor<1x1024xf32>
}

