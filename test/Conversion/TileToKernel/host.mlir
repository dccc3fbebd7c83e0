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

// -----

// Results returned in place of an argument (xtensor.in_place): the
// program's `in_place` says which input buffer each is (the caller passes
// one buffer for both). A launch that updates the argument writes into
// its buffer; a result computed elsewhere is copied there after the last
// launch; an updated argument that is not returned in place is copied
// first, so the caller's input keeps its value.
xtile.kernel @u(%x: memref<4xf32>) -> (%y: memref<4xf32>)
    attributes {grid = array<i64: 1>, num_warps = 1 : i64, target = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>} {
  %i = xtile.range 0 to 4 : tensor<4xindex>
  %v = xtile.load %x[%i] : memref<4xf32>[tensor<4xindex>] -> tensor<4xf32>
  xtile.store %v, %y[%i] : memref<4xf32>[tensor<4xindex>], tensor<4xf32>
}

// CHECK-LABEL: xkernel.program @updates(%arg0: memref<4xf32>, %arg1: memref<4xf32>, %arg2: memref<4xf32>) -> (%arg3: memref<4xf32>, %arg4: memref<4xf32>, %arg5: memref<4xf32>) attributes {in_place = array<i64: 0, 1, -1>} {
// CHECK-NEXT:    xkernel.launch @u(%arg0, %arg0) grid
// CHECK-NEXT:    %[[T:.*]] = xkernel.alloc : memref<4xf32>
// CHECK-NEXT:    xkernel.launch @u(%arg0, %[[T]]) grid
// CHECK-NEXT:    %[[C:.*]] = xkernel.alloc : memref<4xf32>
// CHECK-NEXT:    xkernel.copy %arg2 to %[[C]] : memref<4xf32>
// CHECK-NEXT:    xkernel.launch @u(%arg2, %[[C]]) grid
// CHECK-NEXT:    xkernel.copy %[[T]] to %arg4 : memref<4xf32>
// CHECK-NEXT:    xkernel.copy %[[C]] to %arg5 : memref<4xf32>
// CHECK-NEXT:  }
func.func @updates(%a: tensor<4xf32> {xtensor.in_place = 0 : i64},
                   %b: tensor<4xf32> {xtensor.in_place = 1 : i64},
                   %c: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = xtile.launch @u(%a) {updates = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = xtile.launch @u(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = xtile.launch @u(%c) {updates = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
