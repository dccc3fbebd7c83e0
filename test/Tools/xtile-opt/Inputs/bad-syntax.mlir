// The type is missing its colon.
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // Missing ':' before the type.
  %y = xtensor.exp %x tensor<4xf32>
  return %y : tensor<4xf32>
}
