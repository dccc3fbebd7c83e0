// Batches of a dynamic number of sequences, compiled once for every B, S
// and T of their ranges: causal attention over B sequences of S tokens in
// bf16 (tensor cores), a decode step of grouped-query attention over B
// sequences of T cached keys, and a linear layer with its bias and GELU on
// [B, S, 64] (a matmul batched over the sequences).
// test/Integration/dynamic-batch.test runs them at several sizes.
#BS = #xtensor.dims<B, S>
#BSS = #xtensor.dims<B, S, S>
func.func @prefill_batch(%q: tensor<?x4x?x64xbf16, #BS>, %k: tensor<?x4x?x64xbf16, #BS>, %v: tensor<?x4x?x64xbf16, #BS>) -> tensor<?x4x?x64xbf16, #BS>
    attributes {xtensor.symbols = {B = array<i64: 1, 64>, S = array<i64: 1, 4096>}} {
  %kt = xtensor.transpose %k perm [0, 1, 3, 2] : tensor<?x4x?x64xbf16, #BS> -> tensor<?x4x64x?xbf16, #BS>
  %s = xtensor.matmul %q, %kt : tensor<?x4x?x64xbf16, #BS>, tensor<?x4x64x?xbf16, #BS> -> tensor<?x4x?x?xbf16, #BSS>
  %c = xtensor.constant dense<0.125> : tensor<1x1x1x1xbf16>
  %cb = xtensor.broadcast %c : tensor<1x1x1x1xbf16> -> tensor<?x4x?x?xbf16, #BSS>
  %scaled = xtensor.mul %s, %cb : tensor<?x4x?x?xbf16, #BSS>
  %rows = xtensor.iota dim 2 : tensor<?x4x?x?xi64, #BSS>
  %cols = xtensor.iota dim 3 : tensor<?x4x?x?xi64, #BSS>
  %keep = xtensor.cmp le, %cols, %rows : tensor<?x4x?x?xi64, #BSS>
  %ninf = xtensor.constant dense<0xFF80> : tensor<1x1x1x1xbf16>
  %ninfb = xtensor.broadcast %ninf : tensor<1x1x1x1xbf16> -> tensor<?x4x?x?xbf16, #BSS>
  %masked = xtensor.select %keep, %scaled, %ninfb : tensor<?x4x?x?xbf16, #BSS>
  %p = xtensor.softmax %masked dim 3 : tensor<?x4x?x?xbf16, #BSS>
  %o = xtensor.matmul %p, %v : tensor<?x4x?x?xbf16, #BSS>, tensor<?x4x?x64xbf16, #BS> -> tensor<?x4x?x64xbf16, #BS>
  return %o : tensor<?x4x?x64xbf16, #BS>
}

#BT = #xtensor.dims<B, T>
#B = #xtensor.dims<B>
func.func @decode_batch(%q: tensor<?x8x1x64xbf16, #B>, %k: tensor<?x2x?x64xbf16, #BT>, %v: tensor<?x2x?x64xbf16, #BT>) -> tensor<?x8x1x64xbf16, #B>
    attributes {xtensor.symbols = {B = array<i64: 1, 64>, T = array<i64: 1, 4096>}} {
  %1 = xtensor.reshape %k : tensor<?x2x?x64xbf16, #BT> -> tensor<?x2x1x?x64xbf16, #BT>
  %2 = xtensor.broadcast %1 : tensor<?x2x1x?x64xbf16, #BT> -> tensor<?x2x4x?x64xbf16, #BT>
  %3 = xtensor.reshape %2 : tensor<?x2x4x?x64xbf16, #BT> -> tensor<?x8x?x64xbf16, #BT>
  %4 = xtensor.reshape %v : tensor<?x2x?x64xbf16, #BT> -> tensor<?x2x1x?x64xbf16, #BT>
  %5 = xtensor.broadcast %4 : tensor<?x2x1x?x64xbf16, #BT> -> tensor<?x2x4x?x64xbf16, #BT>
  %6 = xtensor.reshape %5 : tensor<?x2x4x?x64xbf16, #BT> -> tensor<?x8x?x64xbf16, #BT>
  %7 = xtensor.transpose %3 perm [0, 1, 3, 2] : tensor<?x8x?x64xbf16, #BT> -> tensor<?x8x64x?xbf16, #BT>
  %8 = xtensor.matmul %q, %7 : tensor<?x8x1x64xbf16, #B>, tensor<?x8x64x?xbf16, #BT> -> tensor<?x8x1x?xbf16, #BT>
  %9 = xtensor.constant dense<0.125> : tensor<1x8x1x1xbf16>
  %10 = xtensor.broadcast %9 : tensor<1x8x1x1xbf16> -> tensor<?x8x1x?xbf16, #BT>
  %11 = xtensor.mul %8, %10 : tensor<?x8x1x?xbf16, #BT>
  %12 = xtensor.softmax %11 dim 3 : tensor<?x8x1x?xbf16, #BT>
  %13 = xtensor.matmul %12, %6 : tensor<?x8x1x?xbf16, #BT>, tensor<?x8x?x64xbf16, #BT> -> tensor<?x8x1x64xbf16, #B>
  return %13 : tensor<?x8x1x64xbf16, #B>
}

func.func @linear_batch(%x: tensor<?x?x64xf32, #BS>, %w: tensor<96x64xf32>, %b: tensor<96xf32>) -> tensor<?x?x96xf32, #BS>
    attributes {xtensor.symbols = {B = array<i64: 1, 64>, S = array<i64: 1, 4096>}} {
  %h = xtensor.linear %x, %w, %b : (tensor<?x?x64xf32, #BS>, tensor<96x64xf32>, tensor<96xf32>) -> tensor<?x?x96xf32, #BS>
  %y = xtensor.gelu tanh %h : tensor<?x?x96xf32, #BS>
  return %y : tensor<?x?x96xf32, #BS>
}
