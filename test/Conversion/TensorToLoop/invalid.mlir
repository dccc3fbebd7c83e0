// RUN: xtile-opt %s --convert-xtensor-to-xloop -split-input-file -verify-diagnostics

// Composites must be decomposed first.
func.func @composite(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'xtensor.softmax' op is a composite op: run --xtensor-decompose before --convert-xtensor-to-xloop}}
  %y = xtensor.softmax %x dim 1 : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// A reduction over several dimensions of which one is dynamic would need
// its fold's iterations delinearized by the dynamic size.
func.func @dynamic_reduce(%x: tensor<?x8xf32, #xtensor.dims<T>>) -> tensor<f32>
    attributes {xtensor.symbols = {T = array<i64: 1, 64>}} {
  // expected-error @+1 {{'xtensor.reduce' op is a reduction over several dimensions that include a dynamic one, which is not lowered to Loop IR yet}}
  %0 = xtensor.reduce sum %x dims [0, 1] : tensor<?x8xf32, #xtensor.dims<T>> -> tensor<f32>
  return %0 : tensor<f32>
}
