// RUN: xtile-opt %s --xloop-split-flat | FileCheck %s
// RUN: xtile-opt %s --xloop-split-flat=min-elements=1000000 | FileCheck %s --check-prefix=HIGH

// A kernel whose only loop is one parallel loop over many elements runs
// as rows of the largest divisor of its trip count in [256, 4096]: 40000
// in 10 rows of 4000, each access at r * 4000 + j.
// CHECK-LABEL: xloop.kernel @flat(
// CHECK:         %[[C:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:    xloop.parallel %[[R:.*]] = 0 to 10 {
// CHECK-NEXT:      xloop.parallel %[[J:.*]] = 0 to 4000 {
// CHECK-NEXT:        %[[I:.*]] = affine.apply #{{.*}}(%[[R]], %[[J]])
// CHECK-NEXT:        %[[X:.*]] = xloop.load %{{.*}}[%[[I]]] : memref<40000xf32>
// CHECK-NEXT:        %[[Y:.*]] = arith.mulf %[[X]], %[[C]] : f32
// CHECK-NEXT:        xloop.store %[[Y]], %{{.*}}[%[[I]]] : memref<40000xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// HIGH-LABEL:  xloop.kernel @flat(
// HIGH:          xloop.parallel %{{.*}} = 0 to 40000 {
xloop.kernel @flat(%x: memref<40000xf32>) -> (%y: memref<40000xf32>) {
  %c = arith.constant 2.0 : f32
  xloop.parallel %i = 0 to 40000 {
    %v = xloop.load %x[%i] : memref<40000xf32>
    %w = arith.mulf %v, %c : f32
    xloop.store %w, %y[%i] : memref<40000xf32>
  }
}

// A scatter-add's loop, its accumulating store at a computed index.
// CHECK-LABEL: xloop.kernel @adds(
// CHECK:         xloop.parallel %[[R:.*]] = 0 to 16 {
// CHECK-NEXT:      xloop.parallel %[[J:.*]] = 0 to 4096 {
// CHECK-NEXT:        %[[I:.*]] = affine.apply #{{.*}}(%[[R]], %[[J]])
// CHECK:             xloop.store %{{.*}}, %{{.*}}[%{{.*}}] accumulate : memref<64xf32>
xloop.kernel @adds(%ids: memref<65536xi64>, %g: memref<65536xf32>) -> (%out: memref<64xf32>) {
  xloop.parallel %i = 0 to 65536 {
    %id = xloop.load %ids[%i] : memref<65536xi64>
    %at = arith.index_cast %id : i64 to index
    %v = xloop.load %g[%i] : memref<65536xf32>
    xloop.store %v, %out[%at] accumulate : memref<64xf32>
  }
}

// A [1, N] tensor's loops (a batch of one): the inner loop is split
// under the outer one.
// CHECK-LABEL: xloop.kernel @batch_of_one(
// CHECK-NEXT:    xloop.parallel %[[B:.*]] = 0 to 1 {
// CHECK-NEXT:      xloop.parallel %[[R:.*]] = 0 to 8 {
// CHECK-NEXT:        xloop.parallel %[[J:.*]] = 0 to 4096 {
// CHECK-NEXT:          %[[I:.*]] = affine.apply #{{.*}}(%[[R]], %[[J]])
// CHECK-NEXT:          xloop.load %{{.*}}[%[[B]], %[[I]]] : memref<1x32768xf32>
xloop.kernel @batch_of_one(%x: memref<1x32768xf32>) -> (%y: memref<1x32768xf32>) {
  xloop.parallel %b = 0 to 1 {
    xloop.parallel %i = 0 to 32768 {
      %v = xloop.load %x[%b, %i] : memref<1x32768xf32>
      xloop.store %v, %y[%b, %i] : memref<1x32768xf32>
    }
  }
}

// Kept: fewer than min-elements iterations (16384 by default), a trip
// count with no divisor in [256, 4096] (20011 is prime), a loop with a
// loop inside (a row kernel), two loops, and a long loop with more than
// 128 iterations around it (already that many programs).
// CHECK-LABEL: xloop.kernel @small(
// CHECK-NEXT:    xloop.parallel %{{.*}} = 0 to 8192 {
// CHECK-LABEL: xloop.kernel @prime(
// CHECK-NEXT:    xloop.parallel %{{.*}} = 0 to 20011 {
// CHECK-LABEL: xloop.kernel @row(
// CHECK-NEXT:    %{{.*}} = arith.constant
// CHECK-NEXT:    xloop.parallel %{{.*}} = 0 to 32768 {
// CHECK-NEXT:      xloop.fold
// CHECK-LABEL: xloop.kernel @two_loops(
// CHECK-NEXT:    xloop.parallel %{{.*}} = 0 to 32768 {
// CHECK-NEXT:      xloop.load
// CHECK:         xloop.parallel %{{.*}} = 0 to 32768 {
// CHECK-LABEL: xloop.kernel @many_rows(
// CHECK-NEXT:    xloop.parallel %{{.*}} = 0 to 200 {
// CHECK-NEXT:      xloop.parallel %{{.*}} = 0 to 32768 {
// CHECK-NEXT:        xloop.load
xloop.kernel @small(%x: memref<8192xf32>) -> (%y: memref<8192xf32>) {
  xloop.parallel %i = 0 to 8192 {
    %v = xloop.load %x[%i] : memref<8192xf32>
    xloop.store %v, %y[%i] : memref<8192xf32>
  }
}
xloop.kernel @prime(%x: memref<20011xf32>) -> (%y: memref<20011xf32>) {
  xloop.parallel %i = 0 to 20011 {
    %v = xloop.load %x[%i] : memref<20011xf32>
    xloop.store %v, %y[%i] : memref<20011xf32>
  }
}
xloop.kernel @row(%x: memref<32768x4xf32>) -> (%y: memref<32768xf32>) {
  %zero = arith.constant 0.0 : f32
  xloop.parallel %i = 0 to 32768 {
    %s = xloop.fold %j = 0 to 4 combine add init(%zero) : f32 {
      %v = xloop.load %x[%i, %j] : memref<32768x4xf32>
      xloop.yield %v : f32
    }
    xloop.store %s, %y[%i] : memref<32768xf32>
  }
}
xloop.kernel @two_loops(%x: memref<32768xf32>) -> (%y: memref<32768xf32>, %z: memref<32768xf32>) {
  xloop.parallel %i = 0 to 32768 {
    %v = xloop.load %x[%i] : memref<32768xf32>
    xloop.store %v, %y[%i] : memref<32768xf32>
  }
  xloop.parallel %i = 0 to 32768 {
    %v = xloop.load %x[%i] : memref<32768xf32>
    xloop.store %v, %z[%i] : memref<32768xf32>
  }
}
xloop.kernel @many_rows(%x: memref<200x32768xf32>) -> (%y: memref<200x32768xf32>) {
  xloop.parallel %r = 0 to 200 {
    xloop.parallel %i = 0 to 32768 {
      %v = xloop.load %x[%r, %i] : memref<200x32768xf32>
      xloop.store %v, %y[%r, %i] : memref<200x32768xf32>
    }
  }
}
