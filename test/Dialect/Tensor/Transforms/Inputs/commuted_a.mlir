// 2*x + y and y + x*x, written one way.
func.func @axpy(%x: tensor<64x128xf32>, %y: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %two = xtensor.constant dense<2.0> : tensor<64x128xf32>
  %tx = xtensor.mul %two, %x : tensor<64x128xf32>
  %r = xtensor.add %tx, %y : tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}
func.func @square_plus(%x: tensor<64x128xf32>, %y: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %sq = xtensor.mul %x, %x : tensor<64x128xf32>
  %r = xtensor.add %y, %sq : tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}
// A deeper expression: exp(x) * (y + 1) + max(x, y), with a redundant
// duplicate of a subexpression.
func.func @nested(%x: tensor<64x128xf32>, %y: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %one = xtensor.constant dense<1.0> : tensor<64x128xf32>
  %e = xtensor.exp %x : tensor<64x128xf32>
  %y1 = xtensor.add %y, %one : tensor<64x128xf32>
  %p = xtensor.mul %e, %y1 : tensor<64x128xf32>
  %m = xtensor.max %x, %y : tensor<64x128xf32>
  %r = xtensor.add %p, %m : tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}
