// Batches of a dynamic number of sequences: attention over B sequences of
// S queries and keys (a prefill), a decode step over B sequences of T
// cached keys, and a linear layer on [B, S, d] each lower to the kernel a
// static batch gets, their programs counted from both sizes.
// RUN: xtile-opt %s -split-input-file --lower-to-tile=target=sm_90 -verify-diagnostics | FileCheck %s

// One flash-attention kernel: B x 4 heads x ceil(S / block_m) programs.
// CHECK: #[[PREFILL:map[0-9]*]] = affine_map<()[s0, s1] -> ((s0 * (s1 ceildiv 64)) * 4)>
// CHECK-LABEL: xtile.kernel @prefill_batch_{{[a-z0-9_]+}}[%{{.*}} = 1 to 64, %{{.*}} = 1 to 4096]
// CHECK-SAME:      grid_map = #[[PREFILL]]
// CHECK-SAME:      instruction = mma_sync
// CHECK-NOT:       ways
// CHECK:         scf.for
// CHECK:           xtile.dot
// CHECK-NOT:   xtile.kernel
// CHECK-LABEL: func.func @prefill_batch
// CHECK:         xtile.launch @prefill_batch_{{[a-z0-9_]+}}[B, S]
// CHECK-NOT:     xtile.launch
#BS = #xtensor.dims<B, S>
#BSS = #xtensor.dims<B, S, S>
func.func @prefill_batch(%q: tensor<?x4x?x64xbf16, #BS>, %k: tensor<?x4x?x64xbf16, #BS>, %v: tensor<?x4x?x64xbf16, #BS>) -> tensor<?x4x?x64xbf16, #BS>
    attributes {xtensor.symbols = {B = array<i64: 1, 64>, S = array<i64: 1, 4096>}} {
  %kt = xtensor.transpose %k perm [0, 1, 3, 2] : tensor<?x4x?x64xbf16, #BS> -> tensor<?x4x64x?xbf16, #BS>
  %s = xtensor.matmul %q, %kt : tensor<?x4x?x64xbf16, #BS>, tensor<?x4x64x?xbf16, #BS> -> tensor<?x4x?x?xbf16, #BSS>
  %c = xtensor.constant dense<0.125> : tensor<1x1x1x1xbf16>
  %cb = xtensor.broadcast %c : tensor<1x1x1x1xbf16> -> tensor<?x4x?x?xbf16, #BSS>
  %scaled = xtensor.mul %s, %cb : tensor<?x4x?x?xbf16, #BSS>
  %rows = xtensor.iota dim 2 : tensor<?x4x?x?xi64, #BSS>
  %cols = xtensor.iota dim 3 : tensor<?x4x?x?xi64, #BSS>
  %keep = xtensor.cmp le, %cols, %rows : tensor<?x4x?x?xi64, #BSS>
  %ninf = xtensor.constant dense<0xFF80> : tensor<1x1x1x1xbf16>
  %ninfb = xtensor.broadcast %ninf : tensor<1x1x1x1xbf16> -> tensor<?x4x?x?xbf16, #BSS>
  %masked = xtensor.select %keep, %scaled, %ninfb : tensor<?x4x?x?xbf16, #BSS>
  %p = xtensor.softmax %masked dim 3 : tensor<?x4x?x?xbf16, #BSS>
  %o = xtensor.matmul %p, %v : tensor<?x4x?x?xbf16, #BSS>, tensor<?x4x?x64xbf16, #BS> -> tensor<?x4x?x64xbf16, #BS>
  return %o : tensor<?x4x?x64xbf16, #BS>
}

// -----

// A decode step: the 4 query heads of each K/V head share a program, B x 2
// programs.
// CHECK: #[[DECODE:map[0-9]*]] = affine_map<()[s0, s1] -> (s0 * 2)>
// CHECK-LABEL: xtile.kernel @decode_batch_{{[a-z0-9_]+}}[%{{.*}} = 1 to 64, %{{.*}} = 1 to 4096]
// CHECK-SAME:      grid_map = #[[DECODE]]
// CHECK-NOT:       ways
// CHECK-NOT:   xtile.kernel
#BT = #xtensor.dims<B, T>
#B = #xtensor.dims<B>
func.func @decode_batch(%q: tensor<?x8x1x64xbf16, #B>, %k: tensor<?x2x?x64xbf16, #BT>, %v: tensor<?x2x?x64xbf16, #BT>) -> tensor<?x8x1x64xbf16, #B>
    attributes {xtensor.symbols = {B = array<i64: 1, 64>, T = array<i64: 1, 4096>}} {
  %1 = xtensor.reshape %k : tensor<?x2x?x64xbf16, #BT> -> tensor<?x2x1x?x64xbf16, #BT>
  %2 = xtensor.broadcast %1 : tensor<?x2x1x?x64xbf16, #BT> -> tensor<?x2x4x?x64xbf16, #BT>
  %3 = xtensor.reshape %2 : tensor<?x2x4x?x64xbf16, #BT> -> tensor<?x8x?x64xbf16, #BT>
  %4 = xtensor.reshape %v : tensor<?x2x?x64xbf16, #BT> -> tensor<?x2x1x?x64xbf16, #BT>
  %5 = xtensor.broadcast %4 : tensor<?x2x1x?x64xbf16, #BT> -> tensor<?x2x4x?x64xbf16, #BT>
  %6 = xtensor.reshape %5 : tensor<?x2x4x?x64xbf16, #BT> -> tensor<?x8x?x64xbf16, #BT>
  %7 = xtensor.transpose %3 perm [0, 1, 3, 2] : tensor<?x8x?x64xbf16, #BT> -> tensor<?x8x64x?xbf16, #BT>
  %8 = xtensor.matmul %q, %7 : tensor<?x8x1x64xbf16, #B>, tensor<?x8x64x?xbf16, #BT> -> tensor<?x8x1x?xbf16, #BT>
  %9 = xtensor.constant dense<0.125> : tensor<1x8x1x1xbf16>
  %10 = xtensor.broadcast %9 : tensor<1x8x1x1xbf16> -> tensor<?x8x1x?xbf16, #BT>
  %11 = xtensor.mul %8, %10 : tensor<?x8x1x?xbf16, #BT>
  %12 = xtensor.softmax %11 dim 3 : tensor<?x8x1x?xbf16, #BT>
  %13 = xtensor.matmul %12, %6 : tensor<?x8x1x?xbf16, #BT>, tensor<?x8x?x64xbf16, #BT> -> tensor<?x8x1x64xbf16, #B>
  return %13 : tensor<?x8x1x64xbf16, #B>
}

// -----

// A linear layer on [B, S, 64]: a matmul batched over B, the weight read
// where it lies (no broadcast copy), B x ceil(S / block_m) x ceil(96 /
// block_n) programs.
// CHECK-LABEL: xtile.kernel @linear_batch_{{[a-z0-9_]+}}[%{{.*}} = 1 to 16, %{{.*}} = 1 to 4096](%{{.*}}: memref<?x?x64xf32> [%{{.*}}, %{{.*}}], %{{.*}}: memref<96x64xf32>)
// CHECK-SAME:      grid_map = #{{map[0-9]*}}
// CHECK-NOT:   xtile.kernel
#BS = #xtensor.dims<B, S>
func.func @linear_batch(%x: tensor<?x?x64xf32, #BS>, %w: tensor<96x64xf32>) -> tensor<?x?x96xf32, #BS>
    attributes {xtensor.symbols = {B = array<i64: 1, 16>, S = array<i64: 1, 4096>}} {
  %y = xtensor.linear %x, %w : (tensor<?x?x64xf32, #BS>, tensor<96x64xf32>) -> tensor<?x?x96xf32, #BS>
  return %y : tensor<?x?x96xf32, #BS>
}

// -----

// Keys split over ways with a dynamic batch would need partials per
// sequence: a forced split is a limit of dynamic sizes.
#map = affine_map<(d0) -> (d0 floordiv 4)>
// expected-note @+2 {{a limit of compiling over dynamic sizes}}
// expected-error @+1 {{'xloop.kernel' op is attention over a dynamic number of batch rows; its keys are not split over ways (ways = 1), got #xtile.dot_schedule<block_m = 16, block_n = 64, block_k = 32, stages = 1, warps = 2, instruction = mma_sync, ways = 2>}}
xloop.kernel @decode_batch_split[%arg4 = 1 to 64, %arg5 = 1 to 4096](%arg0: memref<?x2x?x64xbf16> [%arg4, %arg5], %arg1: memref<?x8x1x64xbf16> [%arg4], %arg2: memref<?x2x?x64xbf16> [%arg4, %arg5]) -> (%arg3: memref<?x8x1x64xbf16> [%arg4]) attributes {size_hints = array<i64: 64, 1024>, xtile.schedule = #xtile.dot_schedule<block_m = 16, block_n = 64, block_k = 32, stages = 1, warps = 2, instruction = mma_sync, ways = 2>} {
  %cst = arith.constant 1.250000e-01 : bf16
  %0 = arith.extf %cst : bf16 to f32
  %cst_0 = arith.constant 0.000000e+00 : f32
  xloop.parallel %arg6 = 0 to %arg4 {
    xloop.parallel %arg7 = 0 to 8 {
      %1 = affine.apply #map(%arg7)
      xloop.parallel %arg8 = 0 to 1 {
        xloop.parallel %arg9 = 0 to 64 {
          %max, %sum, %accumulators = xloop.online_fold %arg10 = 0 to %arg5 : f32 weights 1 {
            %4 = xloop.fold %arg11 = 0 to 64 combine add init(%cst_0) : f32 {
              %10 = xloop.load %arg1[%arg6, %arg7, %arg8, %arg11] : memref<?x8x1x64xbf16>
              %11 = xloop.load %arg2[%arg6, %1, %arg10, %arg11] : memref<?x2x?x64xbf16>
              %12 = arith.extf %10 : bf16 to f32
              %13 = arith.extf %11 : bf16 to f32
              %14 = arith.mulf %13, %12 : f32
              xloop.yield %14 : f32
            }
            %5 = arith.truncf %4 : f32 to bf16
            %6 = arith.extf %5 : bf16 to f32
            %7 = arith.mulf %6, %0 : f32
            %8 = xloop.load %arg0[%arg6, %1, %arg10, %arg9] : memref<?x2x?x64xbf16>
            %9 = arith.extf %8 : bf16 to f32
            xloop.yield %7, %9 : f32, f32
          }
          %2 = arith.divf %accumulators, %sum : f32
          %3 = arith.truncf %2 : f32 to bf16
          xloop.store %3, %arg3[%arg6, %arg7, %arg8, %arg9] : memref<?x8x1x64xbf16>
        }
      }
    }
  }
}
