// Flat loops split into rows (xloop-split-flat): a [40000] chain in rows of
// 4000, a [1, 32768] bf16 product under its batch of one in rows of 4096,
// both read with vector accesses; a prime length (20011) kept whole.
func.func @flat_exp_add(%a: tensor<40000xf32>, %b: tensor<40000xf32>) -> tensor<40000xf32> {
  %e = xtensor.exp %a : tensor<40000xf32>
  %c = xtensor.add %e, %b : tensor<40000xf32>
  return %c : tensor<40000xf32>
}
func.func @row_of_one(%a: tensor<1x32768xbf16>, %b: tensor<1x32768xbf16>) -> tensor<1x32768xbf16> {
  %c = xtensor.mul %a, %b : tensor<1x32768xbf16>
  return %c : tensor<1x32768xbf16>
}
func.func @prime(%a: tensor<20011xf32>) -> tensor<20011xf32> {
  %c = xtensor.mul %a, %a : tensor<20011xf32>
  return %c : tensor<20011xf32>
}
