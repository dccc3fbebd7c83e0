// RUN: xtile-opt %s --lower-to-kernel="force-schedule='#xtile.row_schedule<serial, warps = 1, vector = 1>'" -split-input-file -verify-diagnostics | FileCheck %s

// Forced serial: thread 0 holds every element and folds them in order; the
// other threads hold the identity.
// CHECK-LABEL: xkernel.func @narrow_mul_{{[0-9]+}}(
// CHECK:         %[[TID:.*]] = xkernel.thread_id x
// CHECK:         %[[OWN:.*]] = arith.cmpi ult, %[[TID]], %c1 : index
// CHECK:         scf.if %[[OWN]] -> (f32
// CHECK:         arith.select %[[OWN]]
func.func @narrow(%x: tensor<8192x32xf32>, %w: tensor<32xf32>) -> tensor<8192x32xf32> {
  %y = xtensor.rms_norm %x weight %w eps 1.0e-6 : (tensor<8192x32xf32>, tensor<32xf32>) -> tensor<8192x32xf32>
  return %y : tensor<8192x32xf32>
}

// -----

// One thread cannot hold a row of 4096.
func.func @wide(%x: tensor<64x4096xf32>, %w: tensor<4096xf32>) -> tensor<64x4096xf32> {
  // expected-error @+1 {{makes a tile of 4096 elements, 4096 per thread with schedule #xtile.row_schedule<serial, warps = 1, vector = 1> (1 thread(s)); at most 256 are supported: choose a schedule with more threads}}
  %y = xtensor.rms_norm %x weight %w eps 1.0e-6 : (tensor<64x4096xf32>, tensor<4096xf32>) -> tensor<64x4096xf32>
  return %y : tensor<64x4096xf32>
}
