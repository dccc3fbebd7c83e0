// A small layer whose matmul fails to lower under a forced tensor-core
// schedule: the reducer keeps the matmul and drops the rest.
func.func @layer(%x: tensor<64x128xf32>, %w: tensor<128x64xf32>, %g: tensor<128xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %n = xtensor.rms_norm %x weight %g eps 1.0e-06 : (tensor<64x128xf32>, tensor<128xf32>) -> tensor<64x128xf32>
  %e = xtensor.exp %n : tensor<64x128xf32>
  %m = xtensor.matmul %e, %w : tensor<64x128xf32>, tensor<128x64xf32> -> tensor<64x64xf32>
  %s = xtensor.silu %m : tensor<64x64xf32>
  %a = xtensor.add %s, %b : tensor<64x64xf32>
  %t = xtensor.tanh %a : tensor<64x64xf32>
  return %t : tensor<64x64xf32>
}
