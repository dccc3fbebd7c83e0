// Softmax over the last dimension of 4096 rows of 4096 (attention-score
// sized), as torch.softmax(x, dim=-1).
func.func @softmax(%x: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %y = xtensor.softmax %x dim 1 : tensor<4096x4096xf32>
  return %y : tensor<4096x4096xf32>
}
