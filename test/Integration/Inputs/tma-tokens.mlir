// Matmuls over a dynamic token count T for test/Integration/tensor-core-matmuls.test:
// x W^T and x W with x [T, 128], whose tensor maps are made at each T
// (rows past T read as zeros).
#T = #xtensor.dims<T>

func.func @tokens_linear(%x: tensor<?x128xbf16, #T>, %w: tensor<192x128xbf16>) -> tensor<?x192xbf16, #T>
    attributes {xtensor.symbols = {T = array<i64: 1, 4096>}} {
  %y = xtensor.linear %x, %w : (tensor<?x128xbf16, #T>, tensor<192x128xbf16>) -> tensor<?x192xbf16, #T>
  return %y : tensor<?x192xbf16, #T>
}

func.func @tokens_matmul(%x: tensor<?x128xbf16, #T>, %w: tensor<128x128xbf16>) -> tensor<?x128xbf16, #T>
    attributes {xtensor.symbols = {T = array<i64: 1, 4096>}} {
  %y = xtensor.matmul %x, %w : tensor<?x128xbf16, #T>, tensor<128x128xbf16> -> tensor<?x128xbf16, #T>
  return %y : tensor<?x128xbf16, #T>
}
