// RUN: xtile-opt %s --convert-xtile-to-xkernel -split-input-file -verify-diagnostics

// expected-error @+1 {{has no target: run --convert-xloop-to-xtile, which chooses one}}
xtile.kernel @no_target(%x: memref<4xf32>) -> (%y: memref<4xf32>)
    attributes {grid = array<i64: 1>, num_warps = 1 : i64} {
  %i = xtile.range 0 to 4 : tensor<4xindex>
  %v = xtile.load %x[%i] : memref<4xf32>[tensor<4xindex>] -> tensor<4xf32>
  xtile.store %v, %y[%i] : memref<4xf32>[tensor<4xindex>], tensor<4xf32>
}

// -----

xtile.kernel @partial_fold(%x: memref<2x4x8xf32>) -> (%y: memref<2x8xf32>)
    attributes {grid = array<i64: 1>, num_warps = 1 : i64, target = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>} {
  %v = arith.constant dense<1.0> : tensor<2x4x8xf32>
  // expected-error @+1 {{folds only some dimensions of its tile; the Kernel IR lowering supports folds to one element and folds of either dimension of a 2-d tile}}
  %s = xtile.fold add %v dims [1] identity 0.0 : f32 strategy block {associative, commutative} : tensor<2x4x8xf32> -> tensor<2x8xf32>
  %r = xtile.range 0 to 8 : tensor<8xindex>
  %z = arith.constant 0 : index
  %s0 = arith.constant dense<0.0> : tensor<8xf32>
  xtile.store %s0, %y[%z, %r] : memref<2x8xf32>[index, tensor<8xindex>], tensor<8xf32>
}

// -----

xtile.kernel @table(%x: memref<4xf32>) -> (%y: memref<4xf32>)
    attributes {grid = array<i64: 1>, num_warps = 1 : i64, target = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>} {
  %i = xtile.range 0 to 4 : tensor<4xindex>
  // expected-error @+1 {{a constant tile that is not a splat is not supported by the Kernel IR lowering}}
  %t = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  xtile.store %t, %y[%i] : memref<4xf32>[tensor<4xindex>], tensor<4xf32>
}


// -----

// A scalar on the host side (a constant the canonicalizer hoisted out of a
// linalg body that was not converted, with no location of its own): the
// error names it where it is used.
func.func @hoisted(%x: tensor<4xf32>) -> tensor<1xf32> {
  %c = arith.constant 4.0 : f32 loc(unknown)
  // expected-error @+1 {{'arith.constant' op is not supported on the host side of Kernel IR (only kernel launches are)}}
  %t = tensor.from_elements %c : tensor<1xf32>
  return %t : tensor<1xf32>
}

// -----

// A fold over the rows of a tile whose columns (12) and the layout's 32
// threads do not divide each other.
xtile.kernel @ragged_column_fold(%x: memref<8x12xf32>) -> (%y: memref<12xf32>)
    attributes {grid = array<i64: 1>, num_warps = 1 : i64, target = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>} {
  %v = arith.constant dense<1.0> : tensor<8x12xf32>
  // expected-error @+1 {{folds the rows of a 'tensor<8x12xf32>' tile whose layout (32 threads x 1) does not tile its columns; the Kernel IR lowering needs one to divide the other}}
  %s = xtile.fold add %v dims [0] identity 0.0 : f32 strategy block {associative, commutative} : tensor<8x12xf32> -> tensor<12xf32>
  %r = xtile.range 0 to 12 : tensor<12xindex>
  xtile.store %s, %y[%r] : memref<12xf32>[tensor<12xindex>], tensor<12xf32>
}
