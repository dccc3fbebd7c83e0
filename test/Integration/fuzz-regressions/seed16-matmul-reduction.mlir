// Found by xtile-fuzz (seed 16): a reduction of a linear layer's output
// (a row sum over exp(tanh(x W^T))) was fused into the matmul, a fold nested
// in a fold, which the Tile IR lowering rejects; fusion now keeps such
// kernels apart and the graph runs.
// RUN: xtile-run --backend=emu --seed=16 %s | FileCheck %s
// CHECK: @g16 output #0 tensor<37x32xf32>: {{.*}}: ok
func.func @g16(%a0: tensor<37x32xf32>, %a1: tensor<37x32xf32>, %a2: tensor<96x32xf32>, %a3: tensor<32x32xf32>) -> (tensor<37x32xf32>) {
  %v1 = xtensor.sigmoid %a1 : tensor<37x32xf32>
  %v2 = xtensor.abs %a0 : tensor<37x32xf32>
  %v3 = xtensor.constant dense<1.000000> : tensor<37x32xf32>
  %v4 = xtensor.add %v2, %v3 : tensor<37x32xf32>
  %v5 = xtensor.log %v4 : tensor<37x32xf32>
  %v6 = xtensor.linear %a1, %a2 : (tensor<37x32xf32>, tensor<96x32xf32>) -> tensor<37x96xf32>
  %v7 = xtensor.tanh %v6 : tensor<37x96xf32>
  %v8 = xtensor.exp %v7 : tensor<37x96xf32>
  %v9 = xtensor.reduce sum %v8 dims [1] keepdim : tensor<37x96xf32> -> tensor<37x1xf32>
  %v10 = xtensor.broadcast %v9 : tensor<37x1xf32> -> tensor<37x32xf32>
  %v11 = xtensor.add %a1, %v10 : tensor<37x32xf32>
  %v12 = xtensor.linear %a1, %a3 : (tensor<37x32xf32>, tensor<32x32xf32>) -> tensor<37x32xf32>
  %v13 = xtensor.neg %v12 : tensor<37x32xf32>
  %v14 = xtensor.reduce sum %v13 dims [1] keepdim : tensor<37x32xf32> -> tensor<37x1xf32>
  %v15 = xtensor.broadcast %v14 : tensor<37x1xf32> -> tensor<37x32xf32>
  %v16 = xtensor.sub %a1, %v15 : tensor<37x32xf32>
  %v17 = xtensor.reduce sum %v11 dims [1] keepdim : tensor<37x32xf32> -> tensor<37x1xf32>
  %v18 = xtensor.broadcast %v17 : tensor<37x1xf32> -> tensor<37x32xf32>
  %v19 = xtensor.max %v11, %v18 : tensor<37x32xf32>
  return %v19 : tensor<37x32xf32>
}

