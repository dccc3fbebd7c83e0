func.func @rmsnorm(%x: tensor<256x1024xf32>, %w: tensor<1024xf32>) -> tensor<256x1024xf32> {
  %y = xtensor.rms_norm %x weight %w eps 1.0e-6 : (tensor<256x1024xf32>, tensor<1024xf32>) -> tensor<256x1024xf32>
  return %y : tensor<256x1024xf32>
}
func.func @softmax(%x: tensor<2x65536xf32>) -> tensor<2x65536xf32> {
  %y = xtensor.softmax %x dim 1 : tensor<2x65536xf32>
  return %y : tensor<2x65536xf32>
}
func.func @linear(%x: tensor<100x96xf32>, %w: tensor<200x96xf32>, %b: tensor<200xf32>) -> tensor<100x200xf32> {
  %y = xtensor.linear %x, %w, %b : (tensor<100x96xf32>, tensor<200x96xf32>, tensor<200xf32>) -> tensor<100x200xf32>
  return %y : tensor<100x200xf32>
}
