// Work of a dynamic length inside a row: a softmax over T keys, a row sum
// over T, a contraction over T (p @ v), and attention over T keys (with a
// dynamic number Q of queries in p @ v). test/Integration/dynamic-columns.test
// runs it at several sizes from one compile. Then causal grouped-query
// attention over T queries and keys, and a decode step over T keys.
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

// Causal grouped-query attention (8 query heads over 2 K/V heads), bf16,
// over T queries and T keys, as SDPA imports: one flash-attention kernel
// on tensor cores over every T, key blocks past the diagonal skipped and
// the last one masked by T.
func.func @causal_gqa_bf16(%arg0: tensor<1x8x?x64xbf16, #xtensor.dims<T>>, %arg1: tensor<1x2x?x64xbf16, #xtensor.dims<T>>, %arg2: tensor<1x2x?x64xbf16, #xtensor.dims<T>>) -> (tensor<1x8x?x64xbf16, #xtensor.dims<T>>) attributes {xtensor.symbols = {T = array<i64: 1, 4096>}} {
  %1 = xtensor.reshape %arg1 : tensor<1x2x?x64xbf16, #xtensor.dims<T>> -> tensor<1x2x1x?x64xbf16, #xtensor.dims<T>>
  %2 = xtensor.broadcast %1 : tensor<1x2x1x?x64xbf16, #xtensor.dims<T>> -> tensor<1x2x4x?x64xbf16, #xtensor.dims<T>>
  %3 = xtensor.reshape %2 : tensor<1x2x4x?x64xbf16, #xtensor.dims<T>> -> tensor<1x8x?x64xbf16, #xtensor.dims<T>>
  %4 = xtensor.reshape %arg2 : tensor<1x2x?x64xbf16, #xtensor.dims<T>> -> tensor<1x2x1x?x64xbf16, #xtensor.dims<T>>
  %5 = xtensor.broadcast %4 : tensor<1x2x1x?x64xbf16, #xtensor.dims<T>> -> tensor<1x2x4x?x64xbf16, #xtensor.dims<T>>
  %6 = xtensor.reshape %5 : tensor<1x2x4x?x64xbf16, #xtensor.dims<T>> -> tensor<1x8x?x64xbf16, #xtensor.dims<T>>
  %7 = xtensor.transpose %3 perm [0, 1, 3, 2] : tensor<1x8x?x64xbf16, #xtensor.dims<T>> -> tensor<1x8x64x?xbf16, #xtensor.dims<T>>
  %8 = xtensor.matmul %arg0, %7 : tensor<1x8x?x64xbf16, #xtensor.dims<T>>, tensor<1x8x64x?xbf16, #xtensor.dims<T>> -> tensor<1x8x?x?xbf16, #xtensor.dims<T, T>>
  %9 = xtensor.constant dense<0.125> : tensor<1x8x1x1xbf16>
  %10 = xtensor.broadcast %9 : tensor<1x8x1x1xbf16> -> tensor<1x8x?x?xbf16, #xtensor.dims<T, T>>
  %11 = xtensor.mul %8, %10 : tensor<1x8x?x?xbf16, #xtensor.dims<T, T>>
  %12 = xtensor.iota dim 2 : tensor<1x8x?x?xi64, #xtensor.dims<T, T>>
  %13 = xtensor.iota dim 3 : tensor<1x8x?x?xi64, #xtensor.dims<T, T>>
  %14 = xtensor.cmp le, %13, %12 : tensor<1x8x?x?xi64, #xtensor.dims<T, T>>
  %15 = xtensor.constant dense<0xFF80> : tensor<1x8x1x1xbf16>
  %16 = xtensor.broadcast %15 : tensor<1x8x1x1xbf16> -> tensor<1x8x?x?xbf16, #xtensor.dims<T, T>>
  %17 = xtensor.select %14, %11, %16 : tensor<1x8x?x?xbf16, #xtensor.dims<T, T>>
  %18 = xtensor.softmax %17 dim 3 : tensor<1x8x?x?xbf16, #xtensor.dims<T, T>>
  %19 = xtensor.matmul %18, %6 : tensor<1x8x?x?xbf16, #xtensor.dims<T, T>>, tensor<1x8x?x64xbf16, #xtensor.dims<T>> -> tensor<1x8x?x64xbf16, #xtensor.dims<T>>
  %20 = xtensor.reduce max %17 dims [3] keepdim : tensor<1x8x?x?xbf16, #xtensor.dims<T, T>> -> tensor<1x8x?x1xbf16, #xtensor.dims<T>>
  %21 = xtensor.constant dense<0xFF80> : tensor<1x8x1x1xbf16>
  %22 = xtensor.broadcast %21 : tensor<1x8x1x1xbf16> -> tensor<1x8x?x1xbf16, #xtensor.dims<T>>
  %23 = xtensor.cmp eq, %20, %22 : tensor<1x8x?x1xbf16, #xtensor.dims<T>>
  %24 = xtensor.broadcast %23 : tensor<1x8x?x1xi1, #xtensor.dims<T>> -> tensor<1x8x?x64xi1, #xtensor.dims<T>>
  %25 = xtensor.constant dense<0.0> : tensor<1x8x1x64xbf16>
  %26 = xtensor.broadcast %25 : tensor<1x8x1x64xbf16> -> tensor<1x8x?x64xbf16, #xtensor.dims<T>>
  %27 = xtensor.select %24, %26, %19 : tensor<1x8x?x64xbf16, #xtensor.dims<T>>
  return %27 : tensor<1x8x?x64xbf16, #xtensor.dims<T>>
}

// A decode step of grouped-query attention (8 query heads over 2 K/V
// heads) over T keys: one program per K/V group, the keys split over ways
// (flash-decoding) in the buckets of T where the cost model calls for it.
func.func @decode_gqa(%q: tensor<1x8x1x64xbf16>, %k: tensor<1x2x?x64xbf16, #T>, %v: tensor<1x2x?x64xbf16, #T>) -> tensor<1x8x1x64xbf16>
    attributes {xtensor.symbols = {T = array<i64: 1, 4096>}} {
  %1 = xtensor.reshape %k : tensor<1x2x?x64xbf16, #T> -> tensor<1x2x1x?x64xbf16, #T>
  %2 = xtensor.broadcast %1 : tensor<1x2x1x?x64xbf16, #T> -> tensor<1x2x4x?x64xbf16, #T>
  %3 = xtensor.reshape %2 : tensor<1x2x4x?x64xbf16, #T> -> tensor<1x8x?x64xbf16, #T>
  %4 = xtensor.reshape %v : tensor<1x2x?x64xbf16, #T> -> tensor<1x2x1x?x64xbf16, #T>
  %5 = xtensor.broadcast %4 : tensor<1x2x1x?x64xbf16, #T> -> tensor<1x2x4x?x64xbf16, #T>
  %6 = xtensor.reshape %5 : tensor<1x2x4x?x64xbf16, #T> -> tensor<1x8x?x64xbf16, #T>
  %7 = xtensor.transpose %3 perm [0, 1, 3, 2] : tensor<1x8x?x64xbf16, #T> -> tensor<1x8x64x?xbf16, #T>
  %8 = xtensor.matmul %q, %7 : tensor<1x8x1x64xbf16>, tensor<1x8x64x?xbf16, #T> -> tensor<1x8x1x?xbf16, #T>
  %9 = xtensor.constant dense<0.125> : tensor<1x8x1x1xbf16>
  %10 = xtensor.broadcast %9 : tensor<1x8x1x1xbf16> -> tensor<1x8x1x?xbf16, #T>
  %11 = xtensor.mul %8, %10 : tensor<1x8x1x?xbf16, #T>
  %12 = xtensor.softmax %11 dim 3 : tensor<1x8x1x?xbf16, #T>
  %13 = xtensor.matmul %12, %6 : tensor<1x8x1x?xbf16, #T>, tensor<1x8x?x64xbf16, #T> -> tensor<1x8x1x64xbf16>
  return %13 : tensor<1x8x1x64xbf16>
}
