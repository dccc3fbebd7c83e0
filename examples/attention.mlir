// Scaled dot-product attention, batch 4 x 16 heads, sequence 1024, head
// dimension 64:  softmax(q @ k^T / sqrt(64)) @ v.
func.func @attention(%q: tensor<64x1024x64xf32>, %k: tensor<64x1024x64xf32>,
                     %v: tensor<64x1024x64xf32>) -> tensor<64x1024x64xf32> {
  %kt = xtensor.transpose %k perm [0, 2, 1]
      : tensor<64x1024x64xf32> -> tensor<64x64x1024xf32>
  %s = xtensor.matmul %q, %kt
      : tensor<64x1024x64xf32>, tensor<64x64x1024xf32> -> tensor<64x1024x1024xf32>
  %scale = xtensor.constant dense<0.125> : tensor<64x1024x1024xf32>
  %ss = xtensor.mul %s, %scale : tensor<64x1024x1024xf32>
  %p = xtensor.softmax %ss dim 2 : tensor<64x1024x1024xf32>
  %o = xtensor.matmul %p, %v
      : tensor<64x1024x1024xf32>, tensor<64x1024x64xf32> -> tensor<64x1024x64xf32>
  return %o : tensor<64x1024x64xf32>
}
