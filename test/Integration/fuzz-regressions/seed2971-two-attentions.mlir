// Found by xtile-fuzz (seed 2971): two attentions over the same queries
// (sibling kernels) were fused into one kernel with two online folds,
// which the attention lowering, taking one, lowered wrongly (an
// invalid-IR crash). Fusion now keeps an attention online fold alone in
// its row body, as a contraction, and the graph runs.
// RUN: xtile-run --backend=emu --seed=2971 %s | FileCheck %s
// CHECK: @g2971 output #0 tensor<3x1x1xf32>: {{.*}}: ok
// CHECK: @g2971 output #1 tensor<3x1x1xf32>: {{.*}}: ok
func.func @g2971(%a0: tensor<3x1x1xf32>, %a1: tensor<3x1x1xf32>, %a2: tensor<1xf32>, %a3: tensor<1xf32>, %a4: tensor<3x1x1xf32>, %a5: tensor<3x1x1xf32>, %a6: tensor<3x7x1xf32>, %a7: tensor<3x7x1xf32>) -> (tensor<3x1x1xf32>, tensor<3x1x1xf32>) {
  %v1 = xtensor.broadcast %a2 : tensor<1xf32> -> tensor<3x1x1xf32>
  %v2 = xtensor.max %a1, %v1 : tensor<3x1x1xf32>
  %v3 = xtensor.rms_norm %v2 weight %a3 eps 1.0e-5 : (tensor<3x1x1xf32>, tensor<1xf32>) -> tensor<3x1x1xf32>
  %v4 = xtensor.max %v3, %v2 : tensor<3x1x1xf32>
  %v5 = xtensor.transpose %a4 perm [0, 2, 1] : tensor<3x1x1xf32> -> tensor<3x1x1xf32>
  %v6 = xtensor.matmul %a0, %v5 : tensor<3x1x1xf32>, tensor<3x1x1xf32> -> tensor<3x1x1xf32>
  %v7 = xtensor.constant dense<1.000000> : tensor<3x1x1xf32>
  %v8 = xtensor.mul %v6, %v7 : tensor<3x1x1xf32>
  %v9 = xtensor.softmax %v8 dim 2 : tensor<3x1x1xf32>
  %v10 = xtensor.matmul %v9, %a5 : tensor<3x1x1xf32>, tensor<3x1x1xf32> -> tensor<3x1x1xf32>
  %v11 = xtensor.reduce sum %v2 dims [0] keepdim : tensor<3x1x1xf32> -> tensor<1x1x1xf32>
  %v12 = xtensor.broadcast %v11 : tensor<1x1x1xf32> -> tensor<3x1x1xf32>
  %v13 = xtensor.max %v2, %v12 : tensor<3x1x1xf32>
  %v14 = xtensor.transpose %a6 perm [0, 2, 1] : tensor<3x7x1xf32> -> tensor<3x1x7xf32>
  %v15 = xtensor.matmul %a0, %v14 : tensor<3x1x1xf32>, tensor<3x1x7xf32> -> tensor<3x1x7xf32>
  %v16 = xtensor.constant dense<1.000000> : tensor<3x1x7xf32>
  %v17 = xtensor.mul %v15, %v16 : tensor<3x1x7xf32>
  %v18 = xtensor.softmax %v17 dim 2 : tensor<3x1x7xf32>
  %v19 = xtensor.matmul %v18, %a7 : tensor<3x1x7xf32>, tensor<3x7x1xf32> -> tensor<3x1x1xf32>
  return %v19, %v10 : tensor<3x1x1xf32>, tensor<3x1x1xf32>
}
