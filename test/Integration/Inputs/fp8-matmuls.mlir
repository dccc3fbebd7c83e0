// fp8 products on fp8 tensor cores (mma.sync m16n8k32, chosen by the cost
// model on sm_89 and later): activations [M, K] by a weight [N, K] (both
// K-major), the f32 accumulator scaled per row and column in the
// epilogue, as torch._scaled_mm computes. Ragged M, N and K (K not a
// multiple of 32), a decode-sized M, both formats, a batch, f32 and bf16
// results; random inputs are rounded to fp8 on the way in.
func.func @rowwise(%x: tensor<77x300xf8E4M3FN>, %w: tensor<200x300xf8E4M3FN>, %sx: tensor<77x1xf32>, %sw: tensor<1x200xf32>) -> tensor<77x200xf32> {
  %wt = xtensor.transpose %w perm [1, 0] : tensor<200x300xf8E4M3FN> -> tensor<300x200xf8E4M3FN>
  %acc = xtensor.matmul %x, %wt : tensor<77x300xf8E4M3FN>, tensor<300x200xf8E4M3FN> -> tensor<77x200xf32>
  %a = xtensor.broadcast %sx : tensor<77x1xf32> -> tensor<77x200xf32>
  %b = xtensor.broadcast %sw : tensor<1x200xf32> -> tensor<77x200xf32>
  %m1 = xtensor.mul %acc, %a : tensor<77x200xf32>
  %m2 = xtensor.mul %m1, %b : tensor<77x200xf32>
  return %m2 : tensor<77x200xf32>
}
func.func @decode_e5m2(%x: tensor<3x512xf8E5M2>, %w: tensor<96x512xf8E5M2>) -> tensor<3x96xbf16> {
  %wt = xtensor.transpose %w perm [1, 0] : tensor<96x512xf8E5M2> -> tensor<512x96xf8E5M2>
  %acc = xtensor.matmul %x, %wt : tensor<3x512xf8E5M2>, tensor<512x96xf8E5M2> -> tensor<3x96xf32>
  %o = xtensor.cast %acc : tensor<3x96xf32> -> tensor<3x96xbf16>
  return %o : tensor<3x96xbf16>
}
func.func @batched(%x: tensor<2x40x64xf8E4M3FN>, %w: tensor<2x24x64xf8E4M3FN>) -> tensor<2x40x24xf32> {
  %wt = xtensor.transpose %w perm [0, 2, 1] : tensor<2x24x64xf8E4M3FN> -> tensor<2x64x24xf8E4M3FN>
  %acc = xtensor.matmul %x, %wt : tensor<2x40x64xf8E4M3FN>, tensor<2x64x24xf8E4M3FN> -> tensor<2x40x24xf32>
  return %acc : tensor<2x40x24xf32>
}
// A K loop of 8 steps of 128 (ragged: 1008; rows 16-byte aligned, so
// the operands come in by TMA on sm_90a), beyond any pipeline's stages,
// so that every stage's buffer is refilled: what the pipelines' waits and
// releases (wgmma, warp-specialized TMA on sm_90a) must order.
func.func @long_k(%x: tensor<70x1008xf8E4M3FN>, %w: tensor<136x1008xf8E4M3FN>) -> tensor<70x136xf32> {
  %wt = xtensor.transpose %w perm [1, 0] : tensor<136x1008xf8E4M3FN> -> tensor<1008x136xf8E4M3FN>
  %acc = xtensor.matmul %x, %wt : tensor<70x1008xf8E4M3FN>, tensor<1008x136xf8E4M3FN> -> tensor<70x136xf32>
  return %acc : tensor<70x136xf32>
}
