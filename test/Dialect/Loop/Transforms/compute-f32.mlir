// RUN: xtile-opt %s --xloop-compute-f32 | FileCheck %s

// A bf16 chain computes in f32 and rounds once, at the store; each load is
// extended once.
// CHECK-LABEL: xloop.kernel @chain(
// CHECK:         %[[A:.*]] = xloop.load %{{.*}} : memref<4x8xbf16>
// CHECK-NEXT:    %[[AW:.*]] = arith.extf %[[A]] : bf16 to f32
// CHECK:         %[[M:.*]] = arith.mulf %[[AW]], %[[AW]] : f32
// CHECK-NEXT:    %[[E:.*]] = math.exp %[[M]] : f32
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[E]], %[[AW]] : f32
// CHECK-NEXT:    %[[R:.*]] = arith.truncf %[[S]] : f32 to bf16
// CHECK-NEXT:    xloop.store %[[R]]
xloop.kernel @chain(%x: memref<4x8xbf16>) -> (%y: memref<4x8xbf16>) {
  xloop.parallel %i = 0 to 4 {
    xloop.parallel %j = 0 to 8 {
      %a = xloop.load %x[%i, %j] : memref<4x8xbf16>
      %m = arith.mulf %a, %a : bf16
      %e = math.exp %m : bf16
      %s = arith.addf %e, %a : bf16
      xloop.store %s, %y[%i, %j] : memref<4x8xbf16>
    }
  }
}

// A cast the program asks for (f32 to f16, then used) still rounds; what
// follows computes in f32 from the rounded value.
// CHECK-LABEL: xloop.kernel @program_cast(
// CHECK:         %[[T:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK:         %[[TW:.*]] = arith.extf %[[T]] : f16 to f32
// CHECK:         arith.mulf %[[TW]], %[[TW]] : f32
xloop.kernel @program_cast(%x: memref<4xf32>) -> (%y: memref<4xf16>) {
  xloop.parallel %i = 0 to 4 {
    %a = xloop.load %x[%i] : memref<4xf32>
    %t = arith.truncf %a : f32 to f16
    %m = arith.mulf %t, %t : f16
    xloop.store %m, %y[%i] : memref<4xf16>
  }
}

// A 16-bit fold of a value computed here folds the f32 values and rounds
// once after: the clone beside it (which fusion recomputes for the
// elementwise consumer) and the maximum then agree exactly, so `x - max(x)`
// is 0 where x is the maximum. The initial value stays a constant.
// CHECK-LABEL: xloop.kernel @fold_of_computed(
// CHECK-DAG:     %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK:         %[[MAX:.*]] = xloop.fold %{{.*}} = 0 to 8 combine max init(%[[NEGINF]]) : f32 {
// CHECK:           %[[S:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:      xloop.yield %[[S]] : f32
// CHECK:         xloop.parallel
// CHECK:           %[[S2:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:      %[[D:.*]] = arith.subf %[[S2]], %[[MAX]] : f32
// CHECK-NEXT:      %[[R:.*]] = arith.truncf %[[D]] : f32 to f16
// CHECK-NEXT:      xloop.store %[[R]]
xloop.kernel @fold_of_computed(%x: memref<4x8xf16>, %w: memref<4x8xf16>) -> (%y: memref<4x8xf16>) {
  %ninf = arith.constant 0xFC00 : f16
  xloop.parallel %i = 0 to 4 {
    %m = xloop.fold %j = 0 to 8 combine max init(%ninf) : f16 {
      %a = xloop.load %x[%i, %j] : memref<4x8xf16>
      %b = xloop.load %w[%i, %j] : memref<4x8xf16>
      %s = arith.addf %a, %b : f16
      xloop.yield %s : f16
    }
    xloop.parallel %j = 0 to 8 {
      %a = xloop.load %x[%i, %j] : memref<4x8xf16>
      %b = xloop.load %w[%i, %j] : memref<4x8xf16>
      %s = arith.addf %a, %b : f16
      %d = arith.subf %s, %m : f16
      xloop.store %d, %y[%i, %j] : memref<4x8xf16>
    }
  }
}

// A fold of loaded 16-bit values keeps its type: the extended load is
// exact, so nothing can disagree.
// CHECK-LABEL: xloop.kernel @fold_of_loads(
// CHECK:         xloop.fold %{{.*}} = 0 to 8 combine max init(%{{.*}}) : f16 {
xloop.kernel @fold_of_loads(%x: memref<4x8xf16>) -> (%y: memref<4xf16>) {
  %ninf = arith.constant 0xFC00 : f16
  xloop.parallel %i = 0 to 4 {
    %m = xloop.fold %j = 0 to 8 combine max init(%ninf) : f16 {
      %a = xloop.load %x[%i, %j] : memref<4x8xf16>
      xloop.yield %a : f16
    }
    xloop.store %m, %y[%i] : memref<4xf16>
  }
}

// A choice between loaded values and constants (a masked operand) is exact
// in 16 bits and stays there; the product that reads it widens it. A
// choice that reads a value computed here is made in f32.
// CHECK-LABEL: xloop.kernel @masked_operand(
// CHECK:         %[[A:.*]] = xloop.load %{{.*}} : memref<4x8xbf16>
// CHECK:         %[[M:.*]] = arith.select %{{.*}}, %[[A]], %{{.*}} : bf16
// CHECK:         %[[MW:.*]] = arith.extf %[[M]] : bf16 to f32
// CHECK:         arith.mulf %[[MW]], %{{.*}} : f32
// CHECK:         %[[S:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK:         arith.truncf %[[S]] : f32 to bf16
xloop.kernel @masked_operand(%x: memref<4x8xbf16>, %w: memref<4x8xbf16>, %c: memref<4xi1>) -> (%y: memref<4x8xbf16>) {
  %zero = arith.constant 0.0 : bf16
  xloop.parallel %i = 0 to 4 {
    %keep = xloop.load %c[%i] : memref<4xi1>
    xloop.parallel %j = 0 to 8 {
      %a = xloop.load %x[%i, %j] : memref<4x8xbf16>
      %m = arith.select %keep, %a, %zero : bf16
      %b = xloop.load %w[%i, %j] : memref<4x8xbf16>
      %p = arith.mulf %m, %b : bf16
      %s = arith.select %keep, %p, %b : bf16
      xloop.store %s, %y[%i, %j] : memref<4x8xbf16>
    }
  }
}
