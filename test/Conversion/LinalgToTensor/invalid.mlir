// RUN: xtile-opt %s --convert-linalg-to-xtensor --split-input-file -verify-diagnostics

func.func @dynamic(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  // expected-error @+1 {{'linalg.exp' op has a result of type 'tensor<?x8xf32>'; --convert-linalg-to-xtensor takes static tensors only}}
  %e = linalg.exp ins(%x : tensor<?x8xf32>) outs(%x : tensor<?x8xf32>) -> tensor<?x8xf32>
  return %e : tensor<?x8xf32>
}

// -----

func.func @maxnum(%x: tensor<8x32xf32>, %init: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{reduces output #0 with a payload that is not combine(f(inputs), out) for an add, mul, max or min}}
  %m = linalg.reduce ins(%x : tensor<8x32xf32>) outs(%init : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %r = arith.maxnumf %in, %acc : f32
      linalg.yield %r : f32
    }
  return %m : tensor<8xf32>
}

// -----

func.func @maxnum_elementwise(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  // expected-error @+1 {{'linalg.generic' op has 'arith.maxnumf' in its payload (Tensor IR's max and min propagate NaN), which --convert-linalg-to-xtensor does not support}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %y : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.maxnumf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

func.func @not_a_permutation(%x: tensor<16xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  // expected-error @+1 {{has indexing maps that are not projected permutations}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 * 2)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<16xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

func.func @insert(%x: tensor<2x2xf32>, %y: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'tensor.insert_slice' op is not a static unit-stride insertion; --convert-linalg-to-xtensor takes those only}}
  %r = tensor.insert_slice %x into %y[0, 0] [2, 2] [2, 1] : tensor<2x2xf32> into tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

func.func @fill_value(%v: f32) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  // expected-error @+1 {{takes the scalar operand #0 that is not a constant}}
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %f : tensor<4xf32>
}

// -----

func.func @conv_int(%x: tensor<1x2x4x4xi8>, %w: tensor<3x2x1x1xi8>, %init: tensor<1x3x4x4xi32>) -> tensor<1x3x4x4xi32> {
  // expected-error @+1 {{'linalg.conv_2d_nchw_fchw' op is an integer convolution; --convert-linalg-to-xtensor does not support it}}
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xi8>, tensor<3x2x1x1xi8>) outs(%init : tensor<1x3x4x4xi32>) -> tensor<1x3x4x4xi32>
  return %y : tensor<1x3x4x4xi32>
}

// -----

// Convolutions other than the two 2-D layouts are named.
func.func @conv_1d(%x: tensor<1x2x8xf32>, %w: tensor<3x2x3xf32>, %init: tensor<1x3x6xf32>) -> tensor<1x3x6xf32> {
  // expected-error @+1 {{'linalg.conv_1d_ncw_fcw' op has indexing maps that are not projected permutations}}
  %y = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%x, %w : tensor<1x2x8xf32>, tensor<3x2x3xf32>) outs(%init : tensor<1x3x6xf32>) -> tensor<1x3x6xf32>
  return %y : tensor<1x3x6xf32>
}
