// Not the same programs: 3*x + y, y - x*x, and exp(y) in place of exp(x).
func.func @axpy(%x: tensor<64x128xf32>, %y: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %c3 = xtensor.constant dense<3.0> : tensor<64x128xf32>
  %xx = xtensor.mul %x, %c3 : tensor<64x128xf32>
  %sum = xtensor.add %y, %xx : tensor<64x128xf32>
  return %sum : tensor<64x128xf32>
}
func.func @square_plus(%x: tensor<64x128xf32>, %y: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %0 = xtensor.mul %x, %x : tensor<64x128xf32>
  %1 = xtensor.sub %y, %0 : tensor<64x128xf32>
  return %1 : tensor<64x128xf32>
}
func.func @nested(%x: tensor<64x128xf32>, %y: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %one = xtensor.constant dense<1.0> : tensor<64x128xf32>
  %e = xtensor.exp %y : tensor<64x128xf32>
  %y1 = xtensor.add %y, %one : tensor<64x128xf32>
  %p = xtensor.mul %e, %y1 : tensor<64x128xf32>
  %m = xtensor.max %x, %y : tensor<64x128xf32>
  %r = xtensor.add %p, %m : tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}
