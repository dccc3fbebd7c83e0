// A cast to fp8 and back, over ragged sizes (random inputs in [-1, 1]).
func.func @quantize(%x: tensor<3x1001xf32>) -> (tensor<3x1001xf8E4M3FN>, tensor<3x1001xf32>) {
  %q = xtensor.cast %x : tensor<3x1001xf32> -> tensor<3x1001xf8E4M3FN>
  %d = xtensor.cast %q : tensor<3x1001xf8E4M3FN> -> tensor<3x1001xf32>
  return %q, %d : tensor<3x1001xf8E4M3FN>, tensor<3x1001xf32>
}
