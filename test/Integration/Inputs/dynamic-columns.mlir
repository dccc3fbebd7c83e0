// Work of a dynamic length inside a row: a softmax over T keys, a row sum
// over T, a contraction over T (p @ v), and attention over T keys (with a
// dynamic number Q of queries in p @ v). test/Integration/dynamic-columns.test
// runs it at several sizes from one compile.
#T = #xtensor.dims<T>
func.func @softmax_keys(%x: tensor<8x?xf32, #T>) -> tensor<8x?xf32, #T>
    attributes {xtensor.symbols = {T = array<i64: 1, 4096>}} {
  %y = xtensor.softmax %x dim 1 : tensor<8x?xf32, #T>
  return %y : tensor<8x?xf32, #T>
}
func.func @pv(%p: tensor<?x?xf32, #xtensor.dims<Q, T>>, %v: tensor<?x64xf32, #T>) -> tensor<?x64xf32, #xtensor.dims<Q>>
    attributes {xtensor.symbols = {Q = array<i64: 1, 512>, T = array<i64: 1, 4096>}} {
  %o = xtensor.matmul %p, %v : tensor<?x?xf32, #xtensor.dims<Q, T>>, tensor<?x64xf32, #T> -> tensor<?x64xf32, #xtensor.dims<Q>>
  return %o : tensor<?x64xf32, #xtensor.dims<Q>>
}
func.func @row_sum(%x: tensor<4x?xbf16, #T>) -> tensor<4xf32>
    attributes {xtensor.symbols = {T = array<i64: 1, 4096>}} {
  %e = xtensor.cast %x : tensor<4x?xbf16, #T> -> tensor<4x?xf32, #T>
  %s = xtensor.reduce sum %e dims [1] : tensor<4x?xf32, #T> -> tensor<4xf32>
  return %s : tensor<4xf32>
}
func.func @attention(%q: tensor<2x4x16xf32>, %k: tensor<2x?x16xf32, #T>, %v: tensor<1x2x?x16xf32, #T>) -> tensor<4x32xf32>
    attributes {xtensor.symbols = {T = array<i64: 1, 4096>}} {
  %kt = xtensor.transpose %k perm [0, 2, 1] : tensor<2x?x16xf32, #T> -> tensor<2x16x?xf32, #T>
  %s = xtensor.matmul %q, %kt : tensor<2x4x16xf32>, tensor<2x16x?xf32, #T> -> tensor<2x4x?xf32, #T>
  %p = xtensor.softmax %s dim 2 : tensor<2x4x?xf32, #T>
  %vv = xtensor.reshape %v : tensor<1x2x?x16xf32, #T> -> tensor<2x?x16xf32, #T>
  %o = xtensor.matmul %p, %vv : tensor<2x4x?xf32, #T>, tensor<2x?x16xf32, #T> -> tensor<2x4x16xf32>
  %t = xtensor.transpose %o perm [1, 0, 2] : tensor<2x4x16xf32> -> tensor<4x2x16xf32>
  %r = xtensor.reshape %t : tensor<4x2x16xf32> -> tensor<4x32xf32>
  return %r : tensor<4x32xf32>
}
