// DeepSeek-V3's block-scaled fp8 projections, as the importer writes
// torch._scaled_mm with block scales: e4m3 activations [M, K] scaled per
// row and 1 x 128 block, an e4m3 weight [N, K] scaled per 128 x 128
// block, a bf16 result. A prefill of 4096 tokens through a 7168 -> 2048
// projection, and 128 tokens through an expert's 2048 -> 7168 one.
func.func @prefill(%x: tensor<4096x7168xf8E4M3FN>, %w: tensor<2048x7168xf8E4M3FN>, %sx: tensor<4096x56xf32>, %sw: tensor<56x16xf32>) -> tensor<4096x2048xbf16> {
  %x3 = xtensor.reshape %x : tensor<4096x7168xf8E4M3FN> -> tensor<4096x56x128xf8E4M3FN>
  %xt = xtensor.transpose %x3 perm [1, 0, 2] : tensor<4096x56x128xf8E4M3FN> -> tensor<56x4096x128xf8E4M3FN>
  %w3 = xtensor.reshape %w : tensor<2048x7168xf8E4M3FN> -> tensor<2048x56x128xf8E4M3FN>
  %wt = xtensor.transpose %w3 perm [1, 2, 0] : tensor<2048x56x128xf8E4M3FN> -> tensor<56x128x2048xf8E4M3FN>
  %p = xtensor.matmul %xt, %wt : tensor<56x4096x128xf8E4M3FN>, tensor<56x128x2048xf8E4M3FN> -> tensor<56x4096x2048xf32>
  %sxt = xtensor.transpose %sx perm [1, 0] : tensor<4096x56xf32> -> tensor<56x4096xf32>
  %sx3 = xtensor.reshape %sxt : tensor<56x4096xf32> -> tensor<56x4096x1xf32>
  %sxb = xtensor.broadcast %sx3 : tensor<56x4096x1xf32> -> tensor<56x4096x2048xf32>
  %sw3 = xtensor.reshape %sw : tensor<56x16xf32> -> tensor<56x16x1xf32>
  %swb = xtensor.broadcast %sw3 : tensor<56x16x1xf32> -> tensor<56x16x128xf32>
  %swr = xtensor.reshape %swb : tensor<56x16x128xf32> -> tensor<56x2048xf32>
  %sw4 = xtensor.reshape %swr : tensor<56x2048xf32> -> tensor<56x1x2048xf32>
  %swc = xtensor.broadcast %sw4 : tensor<56x1x2048xf32> -> tensor<56x4096x2048xf32>
  %m1 = xtensor.mul %sxb, %swc : tensor<56x4096x2048xf32>
  %m2 = xtensor.mul %p, %m1 : tensor<56x4096x2048xf32>
  %r = xtensor.reduce sum %m2 dims [0] : tensor<56x4096x2048xf32> -> tensor<4096x2048xf32>
  %o = xtensor.cast %r : tensor<4096x2048xf32> -> tensor<4096x2048xbf16>
  return %o : tensor<4096x2048xbf16>
}
func.func @batch(%x: tensor<128x2048xf8E4M3FN>, %w: tensor<7168x2048xf8E4M3FN>, %sx: tensor<128x16xf32>, %sw: tensor<16x56xf32>) -> tensor<128x7168xbf16> {
  %x3 = xtensor.reshape %x : tensor<128x2048xf8E4M3FN> -> tensor<128x16x128xf8E4M3FN>
  %xt = xtensor.transpose %x3 perm [1, 0, 2] : tensor<128x16x128xf8E4M3FN> -> tensor<16x128x128xf8E4M3FN>
  %w3 = xtensor.reshape %w : tensor<7168x2048xf8E4M3FN> -> tensor<7168x16x128xf8E4M3FN>
  %wt = xtensor.transpose %w3 perm [1, 2, 0] : tensor<7168x16x128xf8E4M3FN> -> tensor<16x128x7168xf8E4M3FN>
  %p = xtensor.matmul %xt, %wt : tensor<16x128x128xf8E4M3FN>, tensor<16x128x7168xf8E4M3FN> -> tensor<16x128x7168xf32>
  %sxt = xtensor.transpose %sx perm [1, 0] : tensor<128x16xf32> -> tensor<16x128xf32>
  %sx3 = xtensor.reshape %sxt : tensor<16x128xf32> -> tensor<16x128x1xf32>
  %sxb = xtensor.broadcast %sx3 : tensor<16x128x1xf32> -> tensor<16x128x7168xf32>
  %sw3 = xtensor.reshape %sw : tensor<16x56xf32> -> tensor<16x56x1xf32>
  %swb = xtensor.broadcast %sw3 : tensor<16x56x1xf32> -> tensor<16x56x128xf32>
  %swr = xtensor.reshape %swb : tensor<16x56x128xf32> -> tensor<16x7168xf32>
  %sw4 = xtensor.reshape %swr : tensor<16x7168xf32> -> tensor<16x1x7168xf32>
  %swc = xtensor.broadcast %sw4 : tensor<16x1x7168xf32> -> tensor<16x128x7168xf32>
  %m1 = xtensor.mul %sxb, %swc : tensor<16x128x7168xf32>
  %m2 = xtensor.mul %p, %m1 : tensor<16x128x7168xf32>
  %r = xtensor.reduce sum %m2 dims [0] : tensor<16x128x7168xf32> -> tensor<128x7168xf32>
  %o = xtensor.cast %r : tensor<128x7168xf32> -> tensor<128x7168xbf16>
  return %o : tensor<128x7168xbf16>
}
