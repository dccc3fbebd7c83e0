// RUN: xtile-opt %s --convert-xtile-to-xkernel -split-input-file -verify-diagnostics

// expected-error @+1 {{has no target: run --convert-xloop-to-xtile, which chooses one}}
xtile.kernel @no_target(%x: memref<4xf32>) -> (%y: memref<4xf32>)
    attributes {grid = array<i64: 1>, num_warps = 1 : i64} {
  %i = xtile.range 0 to 4 : tensor<4xindex>
  %v = xtile.load %x[%i] : memref<4xf32>[tensor<4xindex>] -> tensor<4xf32>
  xtile.store %v, %y[%i] : memref<4xf32>[tensor<4xindex>], tensor<4xf32>
}

// -----

xtile.kernel @partial_fold(%x: memref<4x8xf32>) -> (%y: memref<4xf32>)
    attributes {grid = array<i64: 1>, num_warps = 1 : i64, target = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>} {
  %r = xtile.range 0 to 4 : tensor<4xindex>
  %c = xtile.range 0 to 8 : tensor<8xindex>
  %r2 = xtile.reshape %r : tensor<4xindex> -> tensor<4x1xindex>
  %rb = xtile.broadcast %r2 : tensor<4x1xindex> -> tensor<4x8xindex>
  %c2 = xtile.reshape %c : tensor<8xindex> -> tensor<1x8xindex>
  %cb = xtile.broadcast %c2 : tensor<1x8xindex> -> tensor<4x8xindex>
  %v = xtile.load %x[%rb, %cb] : memref<4x8xf32>[tensor<4x8xindex>, tensor<4x8xindex>] -> tensor<4x8xf32>
  // expected-error @+1 {{folds only some dimensions of its tile; the Kernel IR lowering supports folds to one element}}
  %s = xtile.fold add %v dims [1] identity 0.0 : f32 strategy block {associative, commutative} : tensor<4x8xf32> -> tensor<4xf32>
  xtile.store %s, %y[%r] : memref<4xf32>[tensor<4xindex>], tensor<4xf32>
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

xtile.kernel @reshaped_dot(%a: memref<16x16xf32>) -> (%y: memref<256xf32>)
    attributes {grid = array<i64: 1>, num_warps = 4 : i64, target = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>} {
  %r = xtile.range 0 to 16 : tensor<16xindex>
  %r2 = xtile.reshape %r : tensor<16xindex> -> tensor<16x1xindex>
  %rb = xtile.broadcast %r2 : tensor<16x1xindex> -> tensor<16x16xindex>
  %c2 = xtile.reshape %r : tensor<16xindex> -> tensor<1x16xindex>
  %cb = xtile.broadcast %c2 : tensor<1x16xindex> -> tensor<16x16xindex>
  %v = xtile.load %a[%rb, %cb] : memref<16x16xf32>[tensor<16x16xindex>, tensor<16x16xindex>] -> tensor<16x16xf32>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  // expected-error @+1 {{result is used at other coordinates (through a broadcast or reshape), which needs data from other threads: not supported}}
  %d = xtile.dot %v, %v, %z : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>
  %flat = xtile.reshape %d : tensor<16x16xf32> -> tensor<256xf32>
  %i = xtile.range 0 to 256 : tensor<256xindex>
  xtile.store %flat, %y[%i] : memref<256xf32>[tensor<256xindex>], tensor<256xf32>
}
