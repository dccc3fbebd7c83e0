// RUN: xtile-opt %s --convert-xtensor-to-xloop -split-input-file -verify-diagnostics

// Composites must be decomposed first.
func.func @composite(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'xtensor.softmax' op is a composite op: run --xtensor-decompose before --convert-xtensor-to-xloop}}
  %y = xtensor.softmax %x dim 1 : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// Loop IR has static sizes: dynamic ones are bound first.
// expected-error @+1 {{dynamic size 'T' of 'tensor<?x8xf32, #xtensor.dims<T>>': Loop IR needs static sizes; bind it first with --xtensor-specialize-dims="sizes=T=N"}}
func.func @dynamic(%x: tensor<?x8xf32, #xtensor.dims<T>>) -> tensor<?x8xf32, #xtensor.dims<T>>
    attributes {xtensor.symbols = {T = array<i64: 1, 64>}} {
  %0 = xtensor.exp %x : tensor<?x8xf32, #xtensor.dims<T>>
  return %0 : tensor<?x8xf32, #xtensor.dims<T>>
}
