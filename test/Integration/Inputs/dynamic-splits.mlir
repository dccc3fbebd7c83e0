// Few rows of a dynamic length: long ones are split over ways at run
// time (test/Integration/dynamic-splits.test).

// Eight rows of T: a sum each.
func.func @row_sums(%x: tensor<8x?xf32, #xtensor.dims<T>>) -> tensor<8xf32>
    attributes {xtensor.symbols = {T = array<i64: 1, 1048576>}} {
  %0 = xtensor.reduce sum %x dims [1] : tensor<8x?xf32, #xtensor.dims<T>> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// One row of T (a loss summed over the tokens).
func.func @token_sum(%x: tensor<?xf32, #xtensor.dims<T>>) -> tensor<f32>
    attributes {xtensor.symbols = {T = array<i64: 1, 1048576>}} {
  %0 = xtensor.reduce sum %x dims [0] : tensor<?xf32, #xtensor.dims<T>> -> tensor<f32>
  return %0 : tensor<f32>
}

// Four bf16 rows of T: each divided by its sum of squares (a fold, then
// the elementwise loop over the same way's share of the row), and each
// row's maximum.
func.func @scaled_rows(%x: tensor<4x?xbf16, #xtensor.dims<T>>) -> (tensor<4x?xbf16, #xtensor.dims<T>>, tensor<4xbf16>)
    attributes {xtensor.symbols = {T = array<i64: 1, 1048576>}} {
  %w = xtensor.cast %x : tensor<4x?xbf16, #xtensor.dims<T>> -> tensor<4x?xf32, #xtensor.dims<T>>
  %sq = xtensor.mul %w, %w : tensor<4x?xf32, #xtensor.dims<T>>
  %s = xtensor.reduce sum %sq dims [1] keepdim : tensor<4x?xf32, #xtensor.dims<T>> -> tensor<4x1xf32>
  %m = xtensor.reduce max %w dims [1] keepdim : tensor<4x?xf32, #xtensor.dims<T>> -> tensor<4x1xf32>
  %sb = xtensor.broadcast %s : tensor<4x1xf32> -> tensor<4x?xf32, #xtensor.dims<T>>
  %y = xtensor.div %w, %sb : tensor<4x?xf32, #xtensor.dims<T>>
  %yb = xtensor.cast %y : tensor<4x?xf32, #xtensor.dims<T>> -> tensor<4x?xbf16, #xtensor.dims<T>>
  %mr = xtensor.reshape %m : tensor<4x1xf32> -> tensor<4xf32>
  %mb = xtensor.cast %mr : tensor<4xf32> -> tensor<4xbf16>
  return %yb, %mb : tensor<4x?xbf16, #xtensor.dims<T>>, tensor<4xbf16>
}
