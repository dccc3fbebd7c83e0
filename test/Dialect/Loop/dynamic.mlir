// RUN: xtile-opt %s | FileCheck %s
// RUN: xtile-opt %s | xtile-opt | FileCheck %s
// RUN: xtile-opt %s --mlir-print-op-generic | xtile-opt | FileCheck %s

// Kernels over dynamic sizes: `index` arguments after the buffers, declared
// in brackets with their ranges; each buffer names the sizes of its `?`
// dimensions in order; loops run to a size.
// CHECK-LABEL: xloop.kernel @row_sum
// CHECK-SAME:    [%[[T:[a-z0-9_]+]] = 1 to 4096](%{{.*}}: memref<?x512xf32> [%[[T]]]) -> (%{{.*}}: memref<?xf32> [%[[T]]])
// CHECK-SAME:    attributes {size_hints = array<i64: 1024>}
// CHECK:         xloop.parallel %{{.*}} = 0 to %[[T]] {
// CHECK:           xloop.fold %{{.*}} = 0 to 512 combine add
xloop.kernel @row_sum[%T = 1 to 4096](%x: memref<?x512xf32> [%T]) -> (%y: memref<?xf32> [%T])
    attributes {size_hints = array<i64: 1024>} {
  xloop.parallel %i = 0 to %T {
    %zero = arith.constant 0.0 : f32
    %s = xloop.fold %j = 0 to 512 combine add init(%zero) : f32 {
      %v = xloop.load %x[%i, %j] : memref<?x512xf32>
      xloop.yield %v : f32
    }
    xloop.store %s, %y[%i] : memref<?xf32>
  }
}

// Two sizes; a buffer with two dynamic dimensions; folds and online folds
// to a size.
// CHECK-LABEL: xloop.kernel @scores
// CHECK-SAME:    [%[[S:[a-z0-9_]+]] = 1 to 64, %[[U:[a-z0-9_]+]] = 2 to 8](%{{.*}}: memref<?x?xf32> [%[[S]], %[[U]]], %{{.*}}: memref<?x4xf32> [%[[U]]]) -> (%{{.*}}: memref<?x4xf32> [%[[S]]])
// CHECK:         xloop.fold %{{.*}} = 0 to %[[U]] combine add
// CHECK:         xloop.online_fold %{{.*}} = 0 to %[[U]] : f32 weights 1
xloop.kernel @scores[%S = 1 to 64, %U = 2 to 8](%p: memref<?x?xf32> [%S, %U], %v: memref<?x4xf32> [%U]) -> (%o: memref<?x4xf32> [%S]) {
  xloop.parallel %i = 0 to %S {
    xloop.parallel %d = 0 to 4 {
      %zero = arith.constant 0.0 : f32
      %s = xloop.fold %k = 0 to %U combine add init(%zero) : f32 {
        %a = xloop.load %p[%i, %k] : memref<?x?xf32>
        %b = xloop.load %v[%k, %d] : memref<?x4xf32>
        %m = arith.mulf %a, %b : f32
        xloop.yield %m : f32
      }
      %mx, %l, %acc = xloop.online_fold %k = 0 to %U : f32 weights 1 {
        %a = xloop.load %p[%i, %k] : memref<?x?xf32>
        %b = xloop.load %v[%k, %d] : memref<?x4xf32>
        xloop.yield %a, %b : f32, f32
      }
      %r = arith.addf %s, %acc : f32
      xloop.store %r, %o[%i, %d] : memref<?x4xf32>
    }
  }
}

// Launches name the function's sizes the kernel's take.
// CHECK-LABEL: func.func @launches(
// CHECK:         xloop.launch @row_sum[T](%{{.*}}) : (tensor<?x512xf32, #xtensor.dims<T>>) -> tensor<?xf32, #xtensor.dims<T>>
// CHECK:         xloop.launch @scores[T, "S 2"](%{{.*}}, %{{.*}}) : (tensor<?x?xf32, #xtensor.dims<T, "S 2">>, tensor<?x4xf32, #xtensor.dims<"S 2">>) -> tensor<?x4xf32, #xtensor.dims<T>>
func.func @launches(%x: tensor<?x512xf32, #xtensor.dims<T>>, %p: tensor<?x?xf32, #xtensor.dims<T, "S 2">>, %v: tensor<?x4xf32, #xtensor.dims<"S 2">>)
    -> (tensor<?xf32, #xtensor.dims<T>>, tensor<?x4xf32, #xtensor.dims<T>>)
    attributes {xtensor.symbols = {T = array<i64: 1, 64>, "S 2" = array<i64: 2, 8>}} {
  %y = xloop.launch @row_sum[T](%x) : (tensor<?x512xf32, #xtensor.dims<T>>) -> tensor<?xf32, #xtensor.dims<T>>
  %o = xloop.launch @scores[T, "S 2"](%p, %v) : (tensor<?x?xf32, #xtensor.dims<T, "S 2">>, tensor<?x4xf32, #xtensor.dims<"S 2">>) -> tensor<?x4xf32, #xtensor.dims<T>>
  return %y, %o : tensor<?xf32, #xtensor.dims<T>>, tensor<?x4xf32, #xtensor.dims<T>>
}
