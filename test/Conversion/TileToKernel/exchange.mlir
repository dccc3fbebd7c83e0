// RUN: xtile-opt %s --convert-xtile-to-xkernel | FileCheck %s

// A fold of the last dimension of a 2-d tile: each thread's groups meet in
// a shared array at [row][group], a barrier, then each slot of the result
// combines its row's partials in order.
// CHECK-LABEL: xkernel.func @row_sums
// CHECK:         %[[P:.*]] = xkernel.shared 32 : <f32, shared>
// CHECK:         xkernel.store %{{.*}}, %[[P]][%{{.*}}]
// CHECK:         xkernel.barrier
// CHECK: xkernel.load %[[P]][%{{.*}}] : <f32, shared> -> f32
xtile.kernel @row_sums(%x: memref<4x8xf32>) -> (%y: memref<4xf32>)
    attributes {grid = array<i64: 1>, num_warps = 1 : i64, target = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>} {
  %r = xtile.range 0 to 4 : tensor<4xindex>
  %c = xtile.range 0 to 8 : tensor<8xindex>
  %r2 = xtile.reshape %r : tensor<4xindex> -> tensor<4x1xindex>
  %rb = xtile.broadcast %r2 : tensor<4x1xindex> -> tensor<4x8xindex>
  %c2 = xtile.reshape %c : tensor<8xindex> -> tensor<1x8xindex>
  %cb = xtile.broadcast %c2 : tensor<1x8xindex> -> tensor<4x8xindex>
  %v = xtile.load %x[%rb, %cb] : memref<4x8xf32>[tensor<4x8xindex>, tensor<4x8xindex>] -> tensor<4x8xf32>
  %s = xtile.fold add %v dims [1] identity 0.0 : f32 strategy block {associative, commutative} : tensor<4x8xf32> -> tensor<4xf32>
  xtile.store %s, %y[%r] : memref<4xf32>[tensor<4xindex>], tensor<4xf32>
}

// A dot's result seen through a reshape (other coordinates than the
// threads hold): written to a shared array in row-major order, a barrier,
// read back where the reshape's coordinates point.
// CHECK-LABEL: xkernel.func @reshaped_dot
// CHECK:         %[[X:.*]] = xkernel.shared 256 : <f32, shared>
// CHECK:         xkernel.store %{{.*}}, %[[X]][%{{.*}}]
// CHECK:         xkernel.barrier
// CHECK:         xkernel.load %[[X]][%{{.*}}] : <f32, shared> -> f32
xtile.kernel @reshaped_dot(%a: memref<16x16xf32>) -> (%y: memref<256xf32>)
    attributes {grid = array<i64: 1>, num_warps = 4 : i64, target = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>} {
  %r = xtile.range 0 to 16 : tensor<16xindex>
  %r2 = xtile.reshape %r : tensor<16xindex> -> tensor<16x1xindex>
  %rb = xtile.broadcast %r2 : tensor<16x1xindex> -> tensor<16x16xindex>
  %c2 = xtile.reshape %r : tensor<16xindex> -> tensor<1x16xindex>
  %cb = xtile.broadcast %c2 : tensor<1x16xindex> -> tensor<16x16xindex>
  %v = xtile.load %a[%rb, %cb] : memref<16x16xf32>[tensor<16x16xindex>, tensor<16x16xindex>] -> tensor<16x16xf32>
  %z = arith.constant dense<0.0> : tensor<16x16xf32>
  %d = xtile.dot %v, %v, %z : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>
  %flat = xtile.reshape %d : tensor<16x16xf32> -> tensor<256xf32>
  %i = xtile.range 0 to 256 : tensor<256xindex>
  xtile.store %flat, %y[%i] : memref<256xf32>[tensor<256xindex>], tensor<256xf32>
}
