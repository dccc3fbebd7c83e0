// Sizes that are expressions of dynamic sizes (test/Integration/size-expressions.test).

// A decode step's attention over a KV cache that grows by concatenation:
// the cache's T keys and values and the new token's make T + 1, and the
// query attends over all of them.
func.func @append_attend(%q: tensor<8x1x64xbf16>,
                         %k: tensor<8x?x64xbf16, #xtensor.dims<T>>,
                         %v: tensor<8x?x64xbf16, #xtensor.dims<T>>,
                         %kn: tensor<8x1x64xbf16>, %vn: tensor<8x1x64xbf16>)
    -> (tensor<8x1x64xbf16>, tensor<8x?x64xbf16, #xtensor.dims<"T + 1">>)
    attributes {xtensor.symbols = {T = array<i64: 1, 4096>}} {
  %k1 = xtensor.concat %k, %kn dim 1
      : tensor<8x?x64xbf16, #xtensor.dims<T>>, tensor<8x1x64xbf16> -> tensor<8x?x64xbf16, #xtensor.dims<"T + 1">>
  %v1 = xtensor.concat %v, %vn dim 1
      : tensor<8x?x64xbf16, #xtensor.dims<T>>, tensor<8x1x64xbf16> -> tensor<8x?x64xbf16, #xtensor.dims<"T + 1">>
  %kt = xtensor.transpose %k1 perm [0, 2, 1]
      : tensor<8x?x64xbf16, #xtensor.dims<"T + 1">> -> tensor<8x64x?xbf16, #xtensor.dims<"T + 1">>
  %s = xtensor.matmul %q, %kt
      : tensor<8x1x64xbf16>, tensor<8x64x?xbf16, #xtensor.dims<"T + 1">> -> tensor<8x1x?xbf16, #xtensor.dims<"T + 1">>
  %c = xtensor.constant dense<0.125> : tensor<bf16>
  %cs = xtensor.broadcast %c : tensor<bf16> -> tensor<8x1x?xbf16, #xtensor.dims<"T + 1">>
  %ss = xtensor.mul %s, %cs : tensor<8x1x?xbf16, #xtensor.dims<"T + 1">>
  %p = xtensor.softmax %ss dim 2 : tensor<8x1x?xbf16, #xtensor.dims<"T + 1">>
  %o = xtensor.matmul %p, %v1
      : tensor<8x1x?xbf16, #xtensor.dims<"T + 1">>, tensor<8x?x64xbf16, #xtensor.dims<"T + 1">> -> tensor<8x1x64xbf16>
  return %o, %k1 : tensor<8x1x64xbf16>, tensor<8x?x64xbf16, #xtensor.dims<"T + 1">>
}

// Differences of neighbouring rows, x[1:] - x[:-1] over T - 1 rows, and
// their sum of squares per column.
func.func @row_differences(%x: tensor<?x96xf32, #xtensor.dims<T>>)
    -> (tensor<?x96xf32, #xtensor.dims<"T - 1">>, tensor<96xf32>)
    attributes {xtensor.symbols = {T = array<i64: 2, 4096>}} {
  %a = xtensor.slice %x starts [1, 0] limits [-1, 96] strides [1, 1]
      : tensor<?x96xf32, #xtensor.dims<T>> -> tensor<?x96xf32, #xtensor.dims<"T - 1">>
  %b = xtensor.slice %x starts [0, 0] limits [-2, 96] strides [1, 1]
      : tensor<?x96xf32, #xtensor.dims<T>> -> tensor<?x96xf32, #xtensor.dims<"T - 1">>
  %d = xtensor.sub %a, %b : tensor<?x96xf32, #xtensor.dims<"T - 1">>
  %d2 = xtensor.mul %d, %d : tensor<?x96xf32, #xtensor.dims<"T - 1">>
  %s = xtensor.reduce sum %d2 dims [0] : tensor<?x96xf32, #xtensor.dims<"T - 1">> -> tensor<96xf32>
  return %d, %s : tensor<?x96xf32, #xtensor.dims<"T - 1">>, tensor<96xf32>
}

// Two symbols: T padded by 1 before and 2 after, then S rows and T rows
// again, S + 2*T + 3 rows in all, each a softmax.
func.func @pad_and_join(%x: tensor<?x80xf32, #xtensor.dims<T>>,
                        %y: tensor<?x80xf32, #xtensor.dims<S>>)
    -> tensor<?x80xf32, #xtensor.dims<"S + 2*T + 3">>
    attributes {xtensor.symbols = {S = array<i64: 1, 100>, T = array<i64: 1, 4096>}} {
  %p = xtensor.pad %x low [1, 0] high [2, 0] value -1.0 : f32
      : tensor<?x80xf32, #xtensor.dims<T>> -> tensor<?x80xf32, #xtensor.dims<"T + 3">>
  %j = xtensor.concat %p, %y, %x dim 0
      : tensor<?x80xf32, #xtensor.dims<"T + 3">>, tensor<?x80xf32, #xtensor.dims<S>>, tensor<?x80xf32, #xtensor.dims<T>> -> tensor<?x80xf32, #xtensor.dims<"S + 2*T + 3">>
  %s = xtensor.softmax %j dim 1 : tensor<?x80xf32, #xtensor.dims<"S + 2*T + 3">>
  return %s : tensor<?x80xf32, #xtensor.dims<"S + 2*T + 3">>
}

// Reshapes that merge or split a dynamic size: S sequences of T tokens as
// S*T rows of a linear layer (the matmul reads the [S, T, 64] input where
// it lies), and [T, 6] read as [6, T] (a row-major reshape, not a
// transpose), each row's softmax.
func.func @merge_rows(%x: tensor<?x?x64xf32, #xtensor.dims<S, T>>, %w: tensor<64x48xf32>,
                      %y: tensor<?x6xf32, #xtensor.dims<T>>)
    -> (tensor<?x48xf32, #xtensor.dims<"S*T">>, tensor<6x?xf32, #xtensor.dims<T>>)
    attributes {xtensor.symbols = {S = array<i64: 1, 100>, T = array<i64: 1, 4096>}} {
  %r = xtensor.reshape %x : tensor<?x?x64xf32, #xtensor.dims<S, T>> -> tensor<?x64xf32, #xtensor.dims<"S*T">>
  %m = xtensor.matmul %r, %w
      : tensor<?x64xf32, #xtensor.dims<"S*T">>, tensor<64x48xf32> -> tensor<?x48xf32, #xtensor.dims<"S*T">>
  %z = xtensor.reshape %y : tensor<?x6xf32, #xtensor.dims<T>> -> tensor<6x?xf32, #xtensor.dims<T>>
  %s = xtensor.softmax %z dim 1 : tensor<6x?xf32, #xtensor.dims<T>>
  return %m, %s : tensor<?x48xf32, #xtensor.dims<"S*T">>, tensor<6x?xf32, #xtensor.dims<T>>
}
