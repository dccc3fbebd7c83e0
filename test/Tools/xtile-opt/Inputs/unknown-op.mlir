func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // Not an xtensor op.
  %y = xtensor.frobnicate %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
