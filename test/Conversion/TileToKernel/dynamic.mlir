// RUN: xtile-opt %s --convert-xtile-to-xkernel | FileCheck %s

// A Tile IR kernel over a dynamic size T: T becomes an index argument after
// the buffers' pointers; a buffer whose `?` precedes other dimensions has
// the stride T*8 of its outer dimension, computed once; the program takes
// T after its buffers, sizes its temporary by T and passes T to each
// launch with the kernel's grid map.
xtile.kernel @k[%T = 1 to 64](%x: memref<2x?x8xf32> [%T]) -> (%y: memref<2x?x8xf32> [%T])
    attributes {grid = array<i64: 128>, grid_map = affine_map<()[s0] -> (s0 * 2)>, num_warps = 1 : i64, schedule = #xtile.row_schedule<block, warps = 1, vector = 2>, target = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>} {
  %r = xtile.range 0 to 8 : tensor<8xindex>
  %pid = xtile.program_id 0
  %t = arith.remui %pid, %T : index
  %b = arith.divui %pid, %T : index
  %v = xtile.load %x[%b, %t, %r] : memref<2x?x8xf32>[index, index, tensor<8xindex>] -> tensor<8xf32>
  xtile.store %v, %y[%b, %t, %r] : memref<2x?x8xf32>[index, index, tensor<8xindex>], tensor<8xf32>
}

// CHECK: #[[MAP:.*]] = affine_map<()[s0] -> (s0 * 2)>
// CHECK-LABEL: xkernel.func @k(
// CHECK-SAME:      %{{.*}}: !xkernel.ptr<f32, global> {xkernel.readonly}, %{{.*}}: !xkernel.ptr<f32, global>, %[[T:.*]]: index)
// CHECK:         %[[STRIDE:.*]] = arith.muli %[[T]], %c8{{.*}} : index
// CHECK:         arith.muli %{{.*}}, %[[STRIDE]] : index
// CHECK:         xkernel.return

// CHECK-LABEL: xkernel.program @f
// CHECK-SAME:    [%[[S:.*]] = 1 to 64](%[[X:.*]]: memref<2x?x8xf32> [%[[S]]]) -> (%[[Y:.*]]: memref<2x?x8xf32> [%[[S]]]) attributes {size_names = ["T"]} {
// CHECK-NEXT:    %[[TMP:.*]] = xkernel.alloc(%[[S]]) : memref<2x?x8xf32>
// CHECK-NEXT:    xkernel.launch @k(%[[X]], %[[TMP]]) sizes(%[[S]]) grid [128, 1, 1] map #[[MAP]] block [32, 1, 1] shared 0
// CHECK-NEXT:    xkernel.launch @k(%[[TMP]], %[[Y]]) sizes(%[[S]]) grid [128, 1, 1] map #[[MAP]] block [32, 1, 1] shared 0
// CHECK-NEXT:  }
func.func @f(%x: tensor<2x?x8xf32, #xtensor.dims<T>>) -> tensor<2x?x8xf32, #xtensor.dims<T>>
    attributes {xtensor.symbols = {T = array<i64: 1, 64>}} {
  %t = xtile.launch @k[T](%x) : (tensor<2x?x8xf32, #xtensor.dims<T>>) -> tensor<2x?x8xf32, #xtensor.dims<T>>
  %y = xtile.launch @k[T](%t) : (tensor<2x?x8xf32, #xtensor.dims<T>>) -> tensor<2x?x8xf32, #xtensor.dims<T>>
  return %y : tensor<2x?x8xf32, #xtensor.dims<T>>
}

// A launch with buckets: one Kernel IR launch per kernel, each run only
// where T is within its kernel's range (`when`), with its own grid.
xtile.kernel @b[%T = 1 to 15](%x: memref<?x8xf32> [%T]) -> (%y: memref<?x8xf32> [%T])
    attributes {grid = array<i64: 15>, grid_map = affine_map<()[s0] -> (s0)>, num_warps = 1 : i64, schedule = #xtile.row_schedule<block, warps = 1, vector = 2>, target = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>} {
  %r = xtile.range 0 to 8 : tensor<8xindex>
  %pid = xtile.program_id 0
  %v = xtile.load %x[%pid, %r] : memref<?x8xf32>[index, tensor<8xindex>] -> tensor<8xf32>
  xtile.store %v, %y[%pid, %r] : memref<?x8xf32>[index, tensor<8xindex>], tensor<8xf32>
}
xtile.kernel @b_b1[%T = 16 to 64](%x: memref<?x8xf32> [%T]) -> (%y: memref<?x8xf32> [%T])
    attributes {grid = array<i64: 64>, grid_map = affine_map<()[s0] -> (s0)>, num_warps = 2 : i64, schedule = #xtile.row_schedule<block, warps = 2, vector = 2>, target = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>} {
  %r = xtile.range 0 to 8 : tensor<8xindex>
  %pid = xtile.program_id 0
  %v = xtile.load %x[%pid, %r] : memref<?x8xf32>[index, tensor<8xindex>] -> tensor<8xf32>
  xtile.store %v, %y[%pid, %r] : memref<?x8xf32>[index, tensor<8xindex>], tensor<8xf32>
}

// CHECK-LABEL: xkernel.program @buckets
// CHECK-NEXT:    xkernel.launch @b(%{{.*}}, %{{.*}}) sizes(%{{.*}}) when [1, 15] grid [15, 1, 1] map #{{.*}} block [32, 1, 1]
// CHECK-NEXT:    xkernel.launch @b_b1(%{{.*}}, %{{.*}}) sizes(%{{.*}}) when [16, 64] grid [64, 1, 1] map #{{.*}} block [64, 1, 1]
// CHECK-NEXT:  }
func.func @buckets(%x: tensor<?x8xf32, #xtensor.dims<T>>) -> tensor<?x8xf32, #xtensor.dims<T>>
    attributes {xtensor.symbols = {T = array<i64: 1, 64>}} {
  %y = xtile.launch @b[T](%x) buckets [@b_b1] : (tensor<?x8xf32, #xtensor.dims<T>>) -> tensor<?x8xf32, #xtensor.dims<T>>
  return %y : tensor<?x8xf32, #xtensor.dims<T>>
}
