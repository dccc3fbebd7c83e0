// RUN: xtile-opt %s --convert-tosa-to-xtensor --split-input-file -verify-diagnostics

func.func @shift(%x: tensor<4xi32>) -> tensor<4xi32> {
  %s = "tosa.const"() <{values = dense<2> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{has a non-zero shift, which --convert-tosa-to-xtensor does not support}}
  %y = tosa.mul %x, %x, %s : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
  return %y : tensor<4xi32>
}

// -----

func.func @table(%x: tensor<4xi8>, %t: tensor<256xi8>) -> tensor<4xi8> {
  // expected-error @+1 {{'tosa.table' op is not supported by --convert-tosa-to-xtensor}}
  %y = tosa.table %x, %t : (tensor<4xi8>, tensor<256xi8>) -> tensor<4xi8>
  return %y : tensor<4xi8>
}
