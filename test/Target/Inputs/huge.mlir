// Offsets past 2^31 elements: compiled and assembled (the emitters' tests),
// too large to run here (the float64 reference alone would need 37 GB).
// 70000 x 32768 = 2.3e9 elements.
func.func @huge(%x: tensor<70000x32768xf32>, %w: tensor<32768xf32>) -> tensor<70000x32768xf32> {
  %y = xtensor.rms_norm %x weight %w eps 1.0e-6 : (tensor<70000x32768xf32>, tensor<32768xf32>) -> tensor<70000x32768xf32>
  return %y : tensor<70000x32768xf32>
}

