// erfc to f32's accuracy (both tails, relative to the value) and to 16
// bits, beside erf: ptx-path.test runs it on the PTX path against the
// CUDA C path (bit for bit) and the float64 reference.
func.func @erfc_rows(%x: tensor<64x1000xf32>, %y: tensor<64x1000xbf16>)
    -> (tensor<64x1000xf32>, tensor<64x1000xbf16>, tensor<64x1000xf32>) {
  %a = xtensor.erfc %x : tensor<64x1000xf32>
  %b = xtensor.erfc %y : tensor<64x1000xbf16>
  %c = xtensor.erf %x : tensor<64x1000xf32>
  return %a, %b, %c : tensor<64x1000xf32>, tensor<64x1000xbf16>, tensor<64x1000xf32>
}
