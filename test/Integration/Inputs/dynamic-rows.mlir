// Row kernels over a dynamic token count T: one module for every T in
// [1, 4096]. test/Integration/dynamic-rows.test runs it at several sizes.
#T = #xtensor.dims<T>

func.func @rms_norm(%x: tensor<?x512xf32, #T>, %w: tensor<512xf32>) -> tensor<?x512xf32, #T>
    attributes {xtensor.symbols = {T = array<i64: 1, 4096>}} {
  %y = xtensor.rms_norm %x weight %w eps 1.0e-6
      : (tensor<?x512xf32, #T>, tensor<512xf32>) -> tensor<?x512xf32, #T>
  return %y : tensor<?x512xf32, #T>
}

func.func @softmax(%x: tensor<?x1000xbf16, #T>) -> tensor<?x1000xbf16, #T>
    attributes {xtensor.symbols = {T = array<i64: 1, 4096>}} {
  %y = xtensor.softmax %x dim 1 : tensor<?x1000xbf16, #T>
  return %y : tensor<?x1000xbf16, #T>
}

func.func @layer_norm(%x: tensor<1x?x768xf32, #T>, %w: tensor<768xf32>, %b: tensor<768xf32>)
    -> tensor<1x?x768xf32, #T>
    attributes {xtensor.symbols = {T = array<i64: 1, 4096>}} {
  %y = xtensor.layer_norm %x weight %w bias %b eps 1.0e-5
      : (tensor<1x?x768xf32, #T>, tensor<768xf32>, tensor<768xf32>) -> tensor<1x?x768xf32, #T>
  return %y : tensor<1x?x768xf32, #T>
}

func.func @gelu_mlp(%x: tensor<?x256xf32, #T>, %w: tensor<128x256xf32>, %b: tensor<128xf32>)
    -> tensor<?x128xf32, #T>
    attributes {xtensor.symbols = {T = array<i64: 1, 4096>}} {
  %h = xtensor.linear %x, %w, %b
      : (tensor<?x256xf32, #T>, tensor<128x256xf32>, tensor<128xf32>) -> tensor<?x128xf32, #T>
  %y = xtensor.gelu tanh %h : tensor<?x128xf32, #T>
  return %y : tensor<?x128xf32, #T>
}
