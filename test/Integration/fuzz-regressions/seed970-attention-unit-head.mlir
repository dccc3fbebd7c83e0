// Found by xtile-fuzz (seed 970): attention with a head dimension of 1
// whose queries and output pass through transposes. With the unit output
// column dropped, the loops the fused online fold took for (query row,
// column) were other ones, its weights depended on the "row", and the
// Tile IR lowering rejected the kernel. Fusion now asks that question
// before it keeps the online fold, and the graph runs.
// RUN: xtile-run --backend=emu --seed=970 %s | FileCheck %s
// CHECK: @g970 output #0 tensor<128x1xbf16>: {{.*}}: ok
// CHECK: @g970 output #1 tensor<128x1xbf16>: {{.*}}: ok
func.func @g970(%a0: tensor<128x1xbf16>, %a1: tensor<7x1xbf16>, %a2: tensor<7x1xbf16>, %a3: tensor<8x1xbf16>, %a4: tensor<96x1xbf16>) -> (tensor<128x1xbf16>, tensor<128x1xbf16>) {
  %v1 = xtensor.abs %a0 : tensor<128x1xbf16>
  %v2 = xtensor.constant dense<1.000000> : tensor<128x1xbf16>
  %v3 = xtensor.add %v1, %v2 : tensor<128x1xbf16>
  %v4 = xtensor.log %v3 : tensor<128x1xbf16>
  %v5 = xtensor.transpose %a0 perm [1, 0] : tensor<128x1xbf16> -> tensor<1x128xbf16>
  %v6 = xtensor.neg %v5 : tensor<1x128xbf16>
  %v7 = xtensor.transpose %v6 perm [1, 0] : tensor<1x128xbf16> -> tensor<128x1xbf16>
  %v8 = xtensor.transpose %a1 perm [1, 0] : tensor<7x1xbf16> -> tensor<1x7xbf16>
  %v9 = xtensor.matmul %v7, %v8 : tensor<128x1xbf16>, tensor<1x7xbf16> -> tensor<128x7xbf16>
  %v10 = xtensor.constant dense<1.000000> : tensor<128x7xbf16>
  %v11 = xtensor.mul %v9, %v10 : tensor<128x7xbf16>
  %v12 = xtensor.softmax %v11 dim 1 : tensor<128x7xbf16>
  %v13 = xtensor.matmul %v12, %a2 : tensor<128x7xbf16>, tensor<7x1xbf16> -> tensor<128x1xbf16>
  %v14 = xtensor.transpose %v13 perm [1, 0] : tensor<128x1xbf16> -> tensor<1x128xbf16>
  %v15 = xtensor.neg %v14 : tensor<1x128xbf16>
  %v16 = xtensor.transpose %v15 perm [1, 0] : tensor<1x128xbf16> -> tensor<128x1xbf16>
  %v17 = xtensor.floor %v7 : tensor<128x1xbf16>
  %v18 = xtensor.linear %v16, %a3 : (tensor<128x1xbf16>, tensor<8x1xbf16>) -> tensor<128x8xbf16>
  %v19 = xtensor.abs %v18 : tensor<128x8xbf16>
  %v20 = xtensor.sqrt %v19 : tensor<128x8xbf16>
  %v21 = xtensor.reduce sum %v20 dims [1] keepdim : tensor<128x8xbf16> -> tensor<128x1xbf16>
  %v22 = xtensor.broadcast %v21 : tensor<128x1xbf16> -> tensor<128x1xbf16>
  %v23 = xtensor.sub %v16, %v22 : tensor<128x1xbf16>
  %v24 = xtensor.add %v7, %v17 : tensor<128x1xbf16>
  %v25 = xtensor.linear %v23, %a4 : (tensor<128x1xbf16>, tensor<96x1xbf16>) -> tensor<128x96xbf16>
  %v26 = xtensor.abs %v25 : tensor<128x96xbf16>
  %v27 = xtensor.sqrt %v26 : tensor<128x96xbf16>
  %v28 = xtensor.reduce sum %v27 dims [1] keepdim : tensor<128x96xbf16> -> tensor<128x1xbf16>
  %v29 = xtensor.broadcast %v28 : tensor<128x1xbf16> -> tensor<128x1xbf16>
  %v30 = xtensor.sub %v23, %v29 : tensor<128x1xbf16>
  return %v30, %v4 : tensor<128x1xbf16>, tensor<128x1xbf16>
}

