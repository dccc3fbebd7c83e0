// Small kernels for the mutations of the PTX path's code in ptx-path.test:
// a softmax whose rows are folded with warp shuffles, and an x W^T matmul
// that runs on wgmma when scheduled so.
func.func @softmax(%x: tensor<64x1000xf32>) -> tensor<64x1000xf32> {
  %y = xtensor.softmax %x dim 1 : tensor<64x1000xf32>
  return %y : tensor<64x1000xf32>
}

func.func @linear(%x: tensor<128x256xbf16>, %w: tensor<192x256xbf16>) -> tensor<128x192xbf16> {
  %y = xtensor.linear %x, %w : (tensor<128x256xbf16>, tensor<192x256xbf16>) -> tensor<128x192xbf16>
  return %y : tensor<128x192xbf16>
}
