// RUN: xtile-opt %s --canonicalize --split-input-file | FileCheck %s

// Folds that are their initial value: no iterations, or a body yielding,
// from outside, the combine's identity (or, for an idempotent combine, the
// initial value). A graph reducing a constant (`x - x` summed over a
// dimension, from the differential fuzzer) left such a fold beside the
// kernel's loops, which Tile IR does not lower.

// CHECK-LABEL: xloop.kernel @identities(
// CHECK-DAG:     %[[I0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[I7:.*]] = arith.constant 7 : i32
// CHECK-DAG:     %[[F1:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:         %[[V:.*]] = xloop.load
// CHECK-NOT:     xloop.fold
// CHECK:         xloop.store %[[I0]], %{{.*}}[%c0]
// CHECK:         xloop.store %[[F1]], %{{.*}}[%c1]
// CHECK:         xloop.store %[[V]], %{{.*}}[%c2]
// CHECK:         xloop.store %[[V]], %{{.*}}[%c3]
// CHECK:         xloop.store %[[I7]], %{{.*}}[%c4]
xloop.kernel @identities(%x: memref<8xf32>) -> (%y: memref<5xi32>, %z: memref<5xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %i0 = arith.constant 0 : i32
  %i7 = arith.constant 7 : i32
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %fm0 = arith.constant -0.0 : f32
  %v = xloop.load %x[%c0] : memref<8xf32>
  // sum of 0s
  %a = xloop.fold %k = 0 to 8 combine add init(%i0) : i32 {
    xloop.yield %i0 : i32
  }
  // sum of +0.0s onto a constant other than -0.0
  %b = xloop.fold %k = 0 to 8 combine add init(%f1) : f32 {
    xloop.yield %f0 : f32
  }
  // product of 1.0s onto a loaded value
  %c = xloop.fold %k = 0 to 8 combine mul init(%v) : f32 {
    xloop.yield %f1 : f32
  }
  // sum of -0.0s onto a loaded value
  %d = xloop.fold %k = 0 to 8 combine add init(%v) : f32 {
    xloop.yield %fm0 : f32
  }
  // maximum of the initial value with itself
  %e = xloop.fold %k = 0 to 8 combine max init(%i7) : i32 {
    xloop.yield %i7 : i32
  }
  xloop.store %a, %y[%c0] : memref<5xi32>
  xloop.store %b, %z[%c1] : memref<5xf32>
  xloop.store %c, %z[%c2] : memref<5xf32>
  xloop.store %d, %z[%c3] : memref<5xf32>
  xloop.store %e, %y[%c4] : memref<5xi32>
}

// -----

// What must stay: a sum of +0.0s onto a value that may be -0.0, a sum of a
// non-zero constant, a maximum of another value, a body that computes.

// CHECK-LABEL: xloop.kernel @kept(
// CHECK-COUNT-4: xloop.fold
xloop.kernel @kept(%x: memref<8xf32>) -> (%z: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %f0 = arith.constant 0.0 : f32
  %f2 = arith.constant 2.0 : f32
  %v = xloop.load %x[%c0] : memref<8xf32>
  %a = xloop.fold %k = 0 to 8 combine add init(%v) : f32 {
    xloop.yield %f0 : f32
  }
  %b = xloop.fold %k = 0 to 8 combine add init(%f0) : f32 {
    xloop.yield %f2 : f32
  }
  %c = xloop.fold %k = 0 to 8 combine max init(%f0) : f32 {
    xloop.yield %v : f32
  }
  %d = xloop.fold %k = 0 to 8 combine add init(%f0) : f32 {
    %w = xloop.load %x[%k] : memref<8xf32>
    xloop.yield %w : f32
  }
  xloop.store %a, %z[%c0] : memref<4xf32>
  xloop.store %b, %z[%c1] : memref<4xf32>
  xloop.store %c, %z[%c2] : memref<4xf32>
  xloop.store %d, %z[%c3] : memref<4xf32>
}

// -----

// The maximum of a fold's own index is its last index, the minimum its
// first, each combined with the initial value: the size of a dynamic
// dimension as a value (the importer's largest index of an iota, plus
// one) is arithmetic on the size, not a loop over it.
// CHECK-LABEL: xloop.kernel @index_extremes
// CHECK-SAME:    [%[[T:.*]] = 1 to 64]
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : i32
// CHECK-DAG:     %[[C5:.*]] = arith.constant 5 : i64
// CHECK-NOT:     xloop.fold
// CHECK:         %[[LAST:.*]] = arith.subi %[[T]], %[[C1]] : index
// CHECK:         %[[CAST:.*]] = arith.index_cast %[[LAST]] : index to i64
// CHECK:         xloop.store %[[CAST]], %{{.*}}[] : memref<i64>
// CHECK:         xloop.store %[[C3]], %{{.*}}[] : memref<i32>
// CHECK:         %[[MAX:.*]] = arith.maxsi %{{.*}}, %[[C5]] : i64
// CHECK:         xloop.store %[[MAX]], %{{.*}}[] : memref<i64>
xloop.kernel @index_extremes[%t = 1 to 64](%x: memref<i64>) -> (%a: memref<i64>, %b: memref<i32>, %c: memref<i64>) {
  %min64 = arith.constant -9223372036854775808 : i64
  %max32 = arith.constant 2147483647 : i32
  %last = xloop.fold %i = 0 to %t combine max init(%min64) : i64 {
    %v = arith.index_cast %i : index to i64
    xloop.yield %v : i64
  }
  xloop.store %last, %a[] : memref<i64>
  %first = xloop.fold %i = 3 to 9 combine min init(%max32) : i32 {
    %v = arith.index_castui %i : index to i32
    xloop.yield %v : i32
  }
  xloop.store %first, %b[] : memref<i32>
  %init = xloop.load %x[] : memref<i64>
  %five = xloop.fold %i = 0 to 6 combine max init(%init) : i64 {
    %v = arith.index_cast %i : index to i64
    xloop.yield %v : i64
  }
  xloop.store %five, %c[] : memref<i64>
}
