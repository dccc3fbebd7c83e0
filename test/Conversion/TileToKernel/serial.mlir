// RUN: xtile-opt %s -split-input-file --convert-xtile-to-xkernel --canonicalize --cse -verify-diagnostics | FileCheck %s --enable-var-scope

// canonicalize and cse only tidy the conversion's output (it materializes
// a constant per use) so that constants can be matched by their values.

#sm90 = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>
#serial = #xtile.row_schedule<serial, warps = 1, vector = 1>

// RMSNorm of rows of 32 on the serial schedule: thread 0 holds every
// element and folds them in order; the other threads hold the identity.
// CHECK-LABEL: xkernel.func @narrow_mul(
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[TID:.*]] = xkernel.thread_id x
// CHECK:         %[[OWN:.*]] = arith.cmpi ult, %[[TID]], %[[C1]] : index
// CHECK:         scf.if %[[OWN]] -> (f32
// CHECK:         arith.select %[[OWN]]
xtile.kernel @narrow_mul(%x: memref<8192x32xf32>, %w: memref<32xf32>) -> (%y: memref<8192x32xf32>)
    attributes {grid = array<i64: 8192>, num_warps = 1 : i64, schedule = #serial, target = #sm90} {
  %cst = arith.constant 3.200000e+01 : f32
  %cst_0 = arith.constant 9.99999997E-7 : f32
  %c8192 = arith.constant 8192 : index
  %0 = xtile.range 0 to 32 : tensor<32xindex>
  %1 = xtile.program_id 0
  %2 = arith.remui %1, %c8192 : index
  %3 = xtile.load %x[%2, %0] : memref<8192x32xf32>[index, tensor<32xindex>] -> tensor<32xf32>
  %4 = arith.mulf %3, %3 : tensor<32xf32>
  %5 = xtile.fold add %4 dims [0] identity 0.000000e+00 : f32 strategy serial {associative, commutative} : tensor<32xf32> -> f32
  %6 = arith.divf %5, %cst : f32
  %7 = arith.addf %6, %cst_0 : f32
  %8 = math.rsqrt %7 : f32
  %9 = xtile.splat %8 : f32 -> tensor<32xf32>
  %10 = arith.mulf %9, %3 : tensor<32xf32>
  %11 = xtile.load %w[%0] : memref<32xf32>[tensor<32xindex>] -> tensor<32xf32>
  %12 = arith.mulf %10, %11 : tensor<32xf32>
  xtile.store %12, %y[%2, %0] : memref<8192x32xf32>[index, tensor<32xindex>], tensor<32xf32>
}

// -----

#sm90 = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>
#serial = #xtile.row_schedule<serial, warps = 1, vector = 1>

// One thread cannot hold a row of 4096.
xtile.kernel @wide_mul(%x: memref<64x4096xf32>, %w: memref<4096xf32>) -> (%y: memref<64x4096xf32>)
    attributes {grid = array<i64: 64>, num_warps = 1 : i64, schedule = #serial, target = #sm90} {
  %cst = arith.constant 4.096000e+03 : f32
  %cst_0 = arith.constant 9.99999997E-7 : f32
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{makes a tile of 4096 elements, 4096 per thread with schedule #xtile.row_schedule<serial, warps = 1, vector = 1> (1 thread(s)); at most 256 are supported: choose a schedule with more threads}}
  %0 = xtile.range 0 to 4096 : tensor<4096xindex>
  %1 = xtile.program_id 0
  %2 = arith.remui %1, %c64 : index
  %3 = xtile.load %x[%2, %0] : memref<64x4096xf32>[index, tensor<4096xindex>] -> tensor<4096xf32>
  %4 = arith.mulf %3, %3 : tensor<4096xf32>
  %5 = xtile.fold add %4 dims [0] identity 0.000000e+00 : f32 strategy serial {associative, commutative} : tensor<4096xf32> -> f32
  %6 = arith.divf %5, %cst : f32
  %7 = arith.addf %6, %cst_0 : f32
  %8 = math.rsqrt %7 : f32
  %9 = xtile.splat %8 : f32 -> tensor<4096xf32>
  %10 = arith.mulf %9, %3 : tensor<4096xf32>
  %11 = xtile.load %w[%0] : memref<4096xf32>[tensor<4096xindex>] -> tensor<4096xf32>
  %12 = arith.mulf %10, %11 : tensor<4096xf32>
  xtile.store %12, %y[%2, %0] : memref<64x4096xf32>[index, tensor<4096xindex>], tensor<4096xf32>
}
