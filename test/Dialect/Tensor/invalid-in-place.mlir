// RUN: xtile-opt %s -split-input-file -verify-diagnostics

// `xtensor.in_place` names a result of the argument's type, once.

// expected-error @+1 {{'xtensor.in_place' of argument #0 must be the index of a result (0 to 0)}}
func.func @no_such_result(%x: tensor<4xf32> {xtensor.in_place = 1 : i64}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{argument #0 ('tensor<4xf32>') cannot hold result #0 ('tensor<4xbf16>') in place: the types differ}}
func.func @other_type(%x: tensor<4xf32> {xtensor.in_place = 0 : i64}) -> tensor<4xbf16> {
  %y = xtensor.cast %x : tensor<4xf32> -> tensor<4xbf16>
  return %y : tensor<4xbf16>
}

// -----

// expected-error @+1 {{result #0 is returned in place of both argument #0 and argument #1}}
func.func @twice(%x: tensor<4xf32> {xtensor.in_place = 0 : i64},
                 %y: tensor<4xf32> {xtensor.in_place = 0 : i64}) -> tensor<4xf32> {
  %z = xtensor.add %x, %y : tensor<4xf32>
  return %z : tensor<4xf32>
}

// -----

// expected-error @+1 {{'xtensor.in_place' of argument #0 must be the index of a result (0 to 0)}}
func.func @not_an_index(%x: tensor<4xf32> {xtensor.in_place = "first"}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{unknown xtensor argument attribute 'xtensor.inplace'}}
func.func @misspelled(%x: tensor<4xf32> {xtensor.inplace = 0 : i64}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
