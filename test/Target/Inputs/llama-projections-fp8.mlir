// Llama-3-8B's QKV and down projections with row-wise fp8 scales, as
// torch._scaled_mm computes them: e4m3 activations [M, K] by an e4m3
// weight [N, K] (both K-major), the f32 accumulator scaled per row and
// column, a bf16 result; a prefill (M = 4096) and a batch of 128.
func.func @qkv(%x: tensor<4096x4096xf8E4M3FN>, %w: tensor<6144x4096xf8E4M3FN>, %sx: tensor<4096x1xf32>, %sw: tensor<1x6144xf32>) -> tensor<4096x6144xbf16> {
  %wt = xtensor.transpose %w perm [1, 0] : tensor<6144x4096xf8E4M3FN> -> tensor<4096x6144xf8E4M3FN>
  %acc = xtensor.matmul %x, %wt : tensor<4096x4096xf8E4M3FN>, tensor<4096x6144xf8E4M3FN> -> tensor<4096x6144xf32>
  %a = xtensor.broadcast %sx : tensor<4096x1xf32> -> tensor<4096x6144xf32>
  %b = xtensor.broadcast %sw : tensor<1x6144xf32> -> tensor<4096x6144xf32>
  %m1 = xtensor.mul %acc, %a : tensor<4096x6144xf32>
  %m2 = xtensor.mul %m1, %b : tensor<4096x6144xf32>
  %o = xtensor.cast %m2 : tensor<4096x6144xf32> -> tensor<4096x6144xbf16>
  return %o : tensor<4096x6144xbf16>
}
func.func @down(%x: tensor<128x14336xf8E4M3FN>, %w: tensor<4096x14336xf8E4M3FN>, %sx: tensor<128x1xf32>, %sw: tensor<1x4096xf32>) -> tensor<128x4096xbf16> {
  %wt = xtensor.transpose %w perm [1, 0] : tensor<4096x14336xf8E4M3FN> -> tensor<14336x4096xf8E4M3FN>
  %acc = xtensor.matmul %x, %wt : tensor<128x14336xf8E4M3FN>, tensor<14336x4096xf8E4M3FN> -> tensor<128x4096xf32>
  %a = xtensor.broadcast %sx : tensor<128x1xf32> -> tensor<128x4096xf32>
  %b = xtensor.broadcast %sw : tensor<1x4096xf32> -> tensor<128x4096xf32>
  %m1 = xtensor.mul %acc, %a : tensor<128x4096xf32>
  %m2 = xtensor.mul %m1, %b : tensor<128x4096xf32>
  %o = xtensor.cast %m2 : tensor<128x4096xf32> -> tensor<128x4096xbf16>
  return %o : tensor<128x4096xbf16>
}
