// Two kernels: a ragged softmax and a small matmul.
func.func @two(%x: tensor<64x1000xf32>, %a: tensor<96x80xf32>, %b: tensor<80x72xf32>) -> (tensor<64x1000xf32>, tensor<96x72xf32>) {
  %y = xtensor.softmax %x dim 1 : tensor<64x1000xf32>
  %c = xtensor.matmul %a, %b : tensor<96x80xf32>, tensor<80x72xf32> -> tensor<96x72xf32>
  return %y, %c : tensor<64x1000xf32>, tensor<96x72xf32>
}
