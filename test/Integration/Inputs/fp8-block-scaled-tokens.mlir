// A block-scaled fp8 product (1 x 128 activation scales, 128 x 128 weight
// scales, as test/Integration/Inputs/fp8-block-scaled.mlir's @blocks) over
// a serving batch: the token count T dynamic (1 to 4096), as a decode or
// prefill step's activations are. One kernel for every T, its rows masked
// at the edge.
#T = #xtensor.dims<T>
func.func @tokens(%x: tensor<?x384xf8E4M3FN, #T>, %w: tensor<136x384xf8E4M3FN>, %sx: tensor<?x3xf32, #T>, %sw: tensor<3x2xf32>) -> tensor<?x136xf32, #T>
    attributes {xtensor.symbols = {T = array<i64: 1, 4096>}} {
  %x3 = xtensor.reshape %x : tensor<?x384xf8E4M3FN, #T> -> tensor<?x3x128xf8E4M3FN, #T>
  %xt = xtensor.transpose %x3 perm [1, 0, 2] : tensor<?x3x128xf8E4M3FN, #T> -> tensor<3x?x128xf8E4M3FN, #T>
  %w3 = xtensor.reshape %w : tensor<136x384xf8E4M3FN> -> tensor<136x3x128xf8E4M3FN>
  %wt = xtensor.transpose %w3 perm [1, 2, 0] : tensor<136x3x128xf8E4M3FN> -> tensor<3x128x136xf8E4M3FN>
  %p = xtensor.matmul %xt, %wt : tensor<3x?x128xf8E4M3FN, #T>, tensor<3x128x136xf8E4M3FN> -> tensor<3x?x136xf32, #T>
  %sxt = xtensor.transpose %sx perm [1, 0] : tensor<?x3xf32, #T> -> tensor<3x?xf32, #T>
  %sx3 = xtensor.reshape %sxt : tensor<3x?xf32, #T> -> tensor<3x?x1xf32, #T>
  %sxb = xtensor.broadcast %sx3 : tensor<3x?x1xf32, #T> -> tensor<3x?x136xf32, #T>
  %sw3 = xtensor.reshape %sw : tensor<3x2xf32> -> tensor<3x2x1xf32>
  %swb = xtensor.broadcast %sw3 : tensor<3x2x1xf32> -> tensor<3x2x128xf32>
  %swr = xtensor.reshape %swb : tensor<3x2x128xf32> -> tensor<3x256xf32>
  %sws = xtensor.slice %swr starts [0, 0] limits [3, 136] strides [1, 1] : tensor<3x256xf32> -> tensor<3x136xf32>
  %sw4 = xtensor.reshape %sws : tensor<3x136xf32> -> tensor<3x1x136xf32>
  %swc = xtensor.broadcast %sw4 : tensor<3x1x136xf32> -> tensor<3x?x136xf32, #T>
  %s = xtensor.mul %sxb, %swc : tensor<3x?x136xf32, #T>
  %m = xtensor.mul %p, %s : tensor<3x?x136xf32, #T>
  %r = xtensor.reduce sum %m dims [0] : tensor<3x?x136xf32, #T> -> tensor<?x136xf32, #T>
  return %r : tensor<?x136xf32, #T>
}
