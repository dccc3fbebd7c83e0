// RUN: xtile-opt %s --split-input-file --convert-xtile-to-xkernel | FileCheck %s

// Launch results that are returned are written in place in the outputs;
// others are temporaries. An input returned as is, or a value returned
// twice, is copied into its output after the launches.
xtile.kernel @k(%x: memref<4xf32>) -> (%y: memref<4xf32>)
    attributes {grid = array<i64: 1>, num_warps = 1 : i64, target = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>} {
  %i = xtile.range 0 to 4 : tensor<4xindex>
  %v = xtile.load %x[%i] : memref<4xf32>[tensor<4xindex>] -> tensor<4xf32>
  xtile.store %v, %y[%i] : memref<4xf32>[tensor<4xindex>], tensor<4xf32>
}

// CHECK-LABEL: xkernel.program @host(%arg0: memref<4xf32>) -> (%arg1: memref<4xf32>, %arg2: memref<4xf32>, %arg3: memref<4xf32>)
// CHECK-NEXT:    %[[T:.*]] = xkernel.alloc : memref<4xf32>
// CHECK-NEXT:    xkernel.launch @k(%arg0, %[[T]]) grid [1, 1, 1] block [32, 1, 1] shared 0
// CHECK-NEXT:    xkernel.launch @k(%[[T]], %arg1) grid [1, 1, 1] block [32, 1, 1] shared 0
// CHECK-NEXT:    xkernel.copy %arg1 to %arg2 : memref<4xf32>
// CHECK-NEXT:    xkernel.copy %arg0 to %arg3 : memref<4xf32>
// CHECK-NEXT:  }
func.func @host(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %t = xtile.launch @k(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %y = xtile.launch @k(%t) : (tensor<4xf32>) -> tensor<4xf32>
  return %y, %y, %x : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// An empty tensor is a buffer of no bytes: a kernel may take it (a
// reduction over an empty dimension reads nothing), and an empty result
// needs no copy.
xtile.kernel @zeros(%x: memref<4x0xf32>) -> (%y: memref<4xf32>)
    attributes {grid = array<i64: 1>, num_warps = 1 : i64, target = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>} {
  %i = xtile.range 0 to 4 : tensor<4xindex>
  %z = arith.constant dense<0.0> : tensor<4xf32>
  xtile.store %z, %y[%i] : memref<4xf32>[tensor<4xindex>], tensor<4xf32>
}

// CHECK-LABEL: xkernel.program @empty(%arg0: memref<4x6xf32>) -> (%arg1: memref<4xf32>, %arg2: memref<4x0xf32>)
// CHECK-NEXT:    %[[E:.*]] = xkernel.alloc : memref<4x0xf32>
// CHECK-NEXT:    xkernel.launch @zeros(%[[E]], %arg1)
// CHECK-NEXT:  }
func.func @empty(%x: tensor<4x6xf32>) -> (tensor<4xf32>, tensor<4x0xf32>) {
  %e = arith.constant dense<> : tensor<4x0xf32>
  %s = xtile.launch @zeros(%e) : (tensor<4x0xf32>) -> tensor<4xf32>
  %e2 = arith.constant dense<> : tensor<4x0xf32>
  return %s, %e2 : tensor<4xf32>, tensor<4x0xf32>
}
