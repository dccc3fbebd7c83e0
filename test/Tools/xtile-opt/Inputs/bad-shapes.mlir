func.func @f(%x: tensor<4x8xf32>, %y: tensor<4x4xf32>) -> tensor<4x8xf32> {
  // Broadcasting is explicit: operands of different shapes are an error.
  // (Written in generic form: the custom form cannot even express it.)
  %z = "xtensor.add"(%x, %y) : (tensor<4x8xf32>, tensor<4x4xf32>) -> tensor<4x8xf32>
  return %z : tensor<4x8xf32>
}
