// Found by xtile-fuzz (seed 6469): a 16-bit kernel was silently wrong.
// A value computed in f32 (--xloop-compute-f32) was rounded to f16 where a
// 16-bit fold (the row maximum) took it, while the clone of it that fusion
// recomputes for the elementwise consumer kept its f32 value: `v4 - max(v4)`
// over one column was a rounding error instead of 0, which the RMS norm
// below amplified to the output's size. The fold now takes the f32 values.
// RUN: xtile-run --backend=emu --seed=6469 %s | FileCheck %s
// CHECK: @g6469 output #0 tensor<128x1xf16>: {{.*}}: ok
// CHECK: @g6469 output #1 tensor<128x1xf16>: {{.*}}: ok
func.func @g6469(%a0: tensor<128x1xf16>, %a1: tensor<128x1xf16>, %a2: tensor<1xf16>, %a3: tensor<17x1xf16>, %a4: tensor<128xi32>, %a5: tensor<1xf16>, %a6: tensor<1xf16>) -> (tensor<128x1xf16>, tensor<128x1xf16>) {
  %v1 = xtensor.broadcast %a2 : tensor<1xf16> -> tensor<128x1xf16>
  %v2 = xtensor.mul %a1, %v1 : tensor<128x1xf16>
  %v3 = xtensor.gather %a3[%a4] axis 0 : tensor<17x1xf16>, tensor<128xi32> -> tensor<128x1xf16>
  %v4 = xtensor.add %v2, %v3 : tensor<128x1xf16>
  %v5 = xtensor.reduce max %a0 dims [0] keepdim : tensor<128x1xf16> -> tensor<1x1xf16>
  %v6 = xtensor.broadcast %v5 : tensor<1x1xf16> -> tensor<128x1xf16>
  %v7 = xtensor.min %a0, %v6 : tensor<128x1xf16>
  %v8 = xtensor.broadcast %a5 : tensor<1xf16> -> tensor<128x1xf16>
  %v9 = xtensor.mul %v4, %v8 : tensor<128x1xf16>
  %v10 = xtensor.reduce min %a0 dims [1] keepdim : tensor<128x1xf16> -> tensor<128x1xf16>
  %v11 = xtensor.broadcast %v10 : tensor<128x1xf16> -> tensor<128x1xf16>
  %v12 = xtensor.abs %v11 : tensor<128x1xf16>
  %v13 = xtensor.constant dense<1.000000> : tensor<128x1xf16>
  %v14 = xtensor.add %v12, %v13 : tensor<128x1xf16>
  %v15 = xtensor.div %a0, %v14 : tensor<128x1xf16>
  %v16 = xtensor.reduce max %v4 dims [1] keepdim : tensor<128x1xf16> -> tensor<128x1xf16>
  %v17 = xtensor.broadcast %v16 : tensor<128x1xf16> -> tensor<128x1xf16>
  %v18 = xtensor.sub %v4, %v17 : tensor<128x1xf16>
  %v19 = xtensor.cast %v4 : tensor<128x1xf16> -> tensor<128x1xf32>
  %v20 = xtensor.tanh %v19 : tensor<128x1xf32>
  %v21 = xtensor.cast %v20 : tensor<128x1xf32> -> tensor<128x1xf16>
  %v22 = xtensor.rms_norm %v18 weight %a6 eps 1.0e-5 : (tensor<128x1xf16>, tensor<1xf16>) -> tensor<128x1xf16>
  return %v22, %v2 : tensor<128x1xf16>, tensor<128x1xf16>
}

