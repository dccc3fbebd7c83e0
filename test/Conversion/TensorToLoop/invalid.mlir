// RUN: xtile-opt %s --convert-xtensor-to-xloop -split-input-file -verify-diagnostics

// Composites must be decomposed first.
func.func @composite(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'xtensor.softmax' op is a composite op: run --xtensor-decompose before --convert-xtensor-to-xloop}}
  %y = xtensor.softmax %x dim 1 : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
