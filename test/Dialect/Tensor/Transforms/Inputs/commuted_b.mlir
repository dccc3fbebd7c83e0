// The same programs as commuted_a.mlir: y + 2*x and x*x + y, other SSA
// names, other op order, commutative operands swapped.
func.func @axpy(%x: tensor<64x128xf32>, %y: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %c2 = xtensor.constant dense<2.0> : tensor<64x128xf32>
  %xx = xtensor.mul %x, %c2 : tensor<64x128xf32>
  %sum = xtensor.add %y, %xx : tensor<64x128xf32>
  return %sum : tensor<64x128xf32>
}
func.func @square_plus(%x: tensor<64x128xf32>, %y: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %0 = xtensor.mul %x, %x : tensor<64x128xf32>
  %1 = xtensor.add %0, %y : tensor<64x128xf32>
  return %1 : tensor<64x128xf32>
}
func.func @nested(%x: tensor<64x128xf32>, %y: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %a = xtensor.max %y, %x : tensor<64x128xf32>
  %one = xtensor.constant dense<1.0> : tensor<64x128xf32>
  %b = xtensor.add %one, %y : tensor<64x128xf32>
  %e = xtensor.exp %x : tensor<64x128xf32>
  %b2 = xtensor.add %y, %one : tensor<64x128xf32>
  %unused = xtensor.mul %b, %e : tensor<64x128xf32>
  %c = xtensor.mul %b2, %e : tensor<64x128xf32>
  %r = xtensor.add %a, %c : tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}
