// The f32 matmul of test/Target/Oracle/cute-oracle.test, run on tf32.
func.func @linear_f32(%x: tensor<256x96xf32>, %w: tensor<256x96xf32>) -> tensor<256x256xf32> {
  %y = xtensor.linear %x, %w : (tensor<256x96xf32>, tensor<256x96xf32>) -> tensor<256x256xf32>
  return %y : tensor<256x256xf32>
}
