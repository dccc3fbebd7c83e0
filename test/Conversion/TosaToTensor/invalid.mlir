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

// -----

func.func @conv_zero_point(%x: tensor<1x4x4x2xi8>, %w: tensor<3x1x1x2xi8>, %b: tensor<3xi32>) -> tensor<1x4x4x3xi32> {
  %zp = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zero = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.conv2d' op has a non-zero zero point, which --convert-tosa-to-xtensor does not support}}
  %y = tosa.conv2d %x, %w, %b, %zp, %zero {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xi8>, tensor<3x1x1x2xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x3xi32>
  return %y : tensor<1x4x4x3xi32>
}

// -----

func.func @conv_int8(%x: tensor<1x4x4x2xi8>, %w: tensor<3x1x1x2xi8>, %b: tensor<3xi32>) -> tensor<1x4x4x3xi32> {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.conv2d' op is an integer (quantized) convolution, which --convert-tosa-to-xtensor does not support}}
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xi8>, tensor<3x1x1x2xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x3xi32>
  return %y : tensor<1x4x4x3xi32>
}
