// RUN: xtile-opt %s --xloop-dedupe | FileCheck %s

// Dynamic sizes are kernel arguments: a layer over T and the same layer
// over S (with its own range) are one kernel, launched [T] and [S], whose
// range covers both. The same body with its `?` bound to another size is
// another kernel.
// CHECK:      xloop.kernel @exp_t
// CHECK-SAME:   [%{{.*}} = 1 to 4096]
// CHECK-SAME:   xloop.identity = "[[ID:0x[0-9a-f]+]]"
// CHECK-NOT:  xloop.kernel @exp_s
// CHECK:      xloop.kernel @pair_a
// CHECK-NOT:  xloop.identity = "[[ID]]"
// CHECK:      xloop.kernel @pair_b
// CHECK-LABEL: func.func @layers(
// CHECK:        %[[Y:.*]] = xloop.launch @exp_t[T](%arg0)
// CHECK:        %[[Z:.*]] = xloop.launch @exp_t[S](%arg1)
// CHECK:        xloop.launch @pair_a[T, S](%[[Y]], %[[Z]])
// CHECK:        xloop.launch @pair_b[T, S](%[[Y]], %[[Y]])
xloop.kernel @exp_t[%T = 1 to 1024](%x: memref<?x8xf32> [%T]) -> (%y: memref<?x8xf32> [%T]) {
  xloop.parallel %i = 0 to %T {
    xloop.parallel %j = 0 to 8 {
      %v = xloop.load %x[%i, %j] : memref<?x8xf32>
      %e = math.exp %v : f32
      xloop.store %e, %y[%i, %j] : memref<?x8xf32>
    }
  }
}
xloop.kernel @exp_s[%S = 2 to 4096](%x: memref<?x8xf32> [%S]) -> (%y: memref<?x8xf32> [%S]) {
  xloop.parallel %i = 0 to %S {
    xloop.parallel %j = 0 to 8 {
      %v = xloop.load %x[%i, %j] : memref<?x8xf32>
      %e = math.exp %v : f32
      xloop.store %e, %y[%i, %j] : memref<?x8xf32>
    }
  }
}
// Row i of a (over the first size) plus row 0 of b: b's `?` is the second
// size in one kernel and the first in the other.
xloop.kernel @pair_a[%A = 1 to 4096, %B = 1 to 4096](%a: memref<?x8xf32> [%A], %b: memref<?x8xf32> [%B]) -> (%y: memref<?x8xf32> [%A]) {
  xloop.parallel %i = 0 to %A {
    xloop.parallel %j = 0 to 8 {
      %c0 = arith.constant 0 : index
      %u = xloop.load %a[%i, %j] : memref<?x8xf32>
      %v = xloop.load %b[%c0, %j] : memref<?x8xf32>
      %s = arith.addf %u, %v : f32
      xloop.store %s, %y[%i, %j] : memref<?x8xf32>
    }
  }
}
xloop.kernel @pair_b[%A = 1 to 4096, %B = 1 to 4096](%a: memref<?x8xf32> [%A], %b: memref<?x8xf32> [%A]) -> (%y: memref<?x8xf32> [%A]) {
  xloop.parallel %i = 0 to %A {
    xloop.parallel %j = 0 to 8 {
      %c0 = arith.constant 0 : index
      %u = xloop.load %a[%i, %j] : memref<?x8xf32>
      %v = xloop.load %b[%c0, %j] : memref<?x8xf32>
      %s = arith.addf %u, %v : f32
      xloop.store %s, %y[%i, %j] : memref<?x8xf32>
    }
  }
}
func.func @layers(%x: tensor<?x8xf32, #xtensor.dims<T>>, %w: tensor<?x8xf32, #xtensor.dims<S>>)
    -> (tensor<?x8xf32, #xtensor.dims<T>>, tensor<?x8xf32, #xtensor.dims<T>>)
    attributes {xtensor.symbols = {S = array<i64: 2, 4096>, T = array<i64: 1, 1024>}} {
  %y = xloop.launch @exp_t[T](%x) : (tensor<?x8xf32, #xtensor.dims<T>>) -> tensor<?x8xf32, #xtensor.dims<T>>
  %z = xloop.launch @exp_s[S](%w) : (tensor<?x8xf32, #xtensor.dims<S>>) -> tensor<?x8xf32, #xtensor.dims<S>>
  %p = xloop.launch @pair_a[T, S](%y, %z) : (tensor<?x8xf32, #xtensor.dims<T>>, tensor<?x8xf32, #xtensor.dims<S>>) -> tensor<?x8xf32, #xtensor.dims<T>>
  %q = xloop.launch @pair_b[T, S](%y, %y) : (tensor<?x8xf32, #xtensor.dims<T>>, tensor<?x8xf32, #xtensor.dims<T>>) -> tensor<?x8xf32, #xtensor.dims<T>>
  return %p, %q : tensor<?x8xf32, #xtensor.dims<T>>, tensor<?x8xf32, #xtensor.dims<T>>
}
