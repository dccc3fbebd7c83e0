// RUN: xtile-opt %s --split-input-file --lower-to-loop --xtile-select-schedule --convert-xloop-to-xtile -verify-diagnostics
// RUN: not xtile-opt %s --split-input-file --lower-to-loop --convert-xloop-to-xtile="target=sm_75" 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not xtile-opt %s --split-input-file --lower-to-loop --xtile-select-schedule="target=sm_75" 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not xtile-opt %s --split-input-file --lower-to-loop --xtile-select-schedule="cost-model=oracle" 2>&1 | FileCheck %s --check-prefix=MODEL
// RUN: not xtile-opt %s --split-input-file --lower-to-loop --xtile-select-schedule="force=fast" 2>&1 | FileCheck %s --check-prefix=FORCE

// TARGET: error: unknown target 'sm_75' (expected sm_90, sm_90a or sm_80)
// MODEL: error: unknown cost model 'oracle' (expected analytic)
// FORCE: error: force 'fast' is not a schedule (#xtile.row_schedule<...>, #xtile.column_schedule<...> or #xtile.dot_schedule<...>)

// Tensor IR reduces over several dimensions with one fold over their
// product; a hand-written nest of folds is not lowered: the error names
// the kernel.
// expected-error @+1 {{has nested folds, which are not lowered to Tile IR yet}}
xloop.kernel @nested(%arg0: memref<4x8x8xf32>) -> (%arg1: memref<4xf32>) {
  %cst = arith.constant 0.0 : f32
  xloop.parallel %i = 0 to 4 {
    %0 = xloop.fold %j = 0 to 8 combine add init(%cst) : f32 {
      %1 = xloop.fold %k = 0 to 8 combine add init(%cst) : f32 {
        %2 = xloop.load %arg0[%i, %j, %k] : memref<4x8x8xf32>
        xloop.yield %2 : f32
      }
      xloop.yield %1 : f32
    }
    xloop.store %0, %arg1[%i] : memref<4xf32>
  }
}

// -----

// An accumulating store (a scatter-add's) beside a fold: Tile IR adds
// atomically in elementwise kernels only, and Tensor IR never builds this.
xloop.kernel @accumulate_fold(%arg0: memref<4x8xf32>, %ids: memref<4xi64>) -> (%arg1: memref<6xf32>) {
  %cst = arith.constant 0.0 : f32
  xloop.parallel %i = 0 to 4 {
    %0 = xloop.fold %j = 0 to 8 combine add init(%cst) : f32 {
      %1 = xloop.load %arg0[%i, %j] : memref<4x8xf32>
      xloop.yield %1 : f32
    }
    %id = xloop.load %ids[%i] : memref<4xi64>
    %at = arith.index_cast %id : i64 to index
    // expected-error @+1 {{accumulates in a kernel with a fold; not lowered to Tile IR yet}}
    xloop.store %0, %arg1[%at] accumulate : memref<6xf32>
  }
}

// -----

// Two contractions over different lengths in one row body (as fusion once
// built for a parallel residual block): Tile IR runs one K loop per output
// tile, and fusion never builds this kernel.
// expected-error @+1 {{has contractions over different lengths; not lowered to Tile IR yet}}
xloop.kernel @two_k(%a: memref<8x16xf32>, %b: memref<16x8xf32>, %c: memref<8x32xf32>, %d: memref<32x8xf32>) -> (%out: memref<8x8xf32>) {
  %cst = arith.constant 0.0 : f32
  xloop.parallel %i = 0 to 8 {
    xloop.parallel %j = 0 to 8 {
      %0 = xloop.fold %k = 0 to 16 combine add init(%cst) : f32 {
        %x = xloop.load %a[%i, %k] : memref<8x16xf32>
        %y = xloop.load %b[%k, %j] : memref<16x8xf32>
        %p = arith.mulf %x, %y : f32
        xloop.yield %p : f32
      }
      %1 = xloop.fold %k = 0 to 32 combine add init(%cst) : f32 {
        %x = xloop.load %c[%i, %k] : memref<8x32xf32>
        %y = xloop.load %d[%k, %j] : memref<32x8xf32>
        %p = arith.mulf %x, %y : f32
        xloop.yield %p : f32
      }
      %s = arith.addf %0, %1 : f32
      xloop.store %s, %out[%i, %j] : memref<8x8xf32>
    }
  }
}

// -----

// A forced split must be legal: softmax's sum uses its max.
// RUN: not xtile-opt %s --split-input-file --lower-to-loop --xtile-select-schedule="force='#xtile.row_schedule<split, warps = 8, vector = 1, ways = 4>'" --convert-xloop-to-xtile 2>&1 | FileCheck %s --check-prefix=SPLIT
// SPLIT: error: 'xloop.kernel' op cannot use the schedule #xtile.row_schedule<split, warps = 8, vector = 1, ways = 4>: split needs folds that do not use each other's results and at most one elementwise loop
func.func @softmax(%x: tensor<4x8192xf32>) -> tensor<4x8192xf32> {
  %y = xtensor.softmax %x dim 1 : tensor<4x8192xf32>
  return %y : tensor<4x8192xf32>
}

// -----

// A split of the key axis (ways > 1) applies to attention only.
// RUN: not xtile-opt %s --split-input-file --lower-to-loop --xtile-select-schedule="force='#xtile.dot_schedule<block_m = 32, block_n = 32, block_k = 32, stages = 1, warps = 4, ways = 2>'" --convert-xloop-to-xtile 2>&1 | FileCheck %s --check-prefix=WAYS
// WAYS: error: 'xloop.kernel' op cannot use the schedule #xtile.dot_schedule<block_m = 32, block_n = 32, block_k = 32, stages = 1, warps = 4, ways = 2>: ways > 1 (a split of the key axis) applies to attention only
func.func @matmul(%a: tensor<64x48xf32>, %b: tensor<48x40xf32>) -> tensor<64x40xf32> {
  %c = xtensor.matmul %a, %b : tensor<64x48xf32>, tensor<48x40xf32> -> tensor<64x40xf32>
  return %c : tensor<64x40xf32>
}

// -----

// Contractions run as xtile.dot, accumulating in f32: an f64 or an integer
// matmul is a located error naming the type (the differential fuzzer's
// compile-only mode found both reaching the Kernel IR lowering).
func.func @matmul_f64(%a: tensor<8x16xf64>, %b: tensor<16x8xf64>) -> tensor<8x8xf64> {
  // expected-error @+1 {{'xloop.fold' op is a contraction accumulating in 'f64', which is not supported: matmuls and attention take f16, bf16 or f32 operands and accumulate in f32}}
  %0 = xtensor.matmul %a, %b : tensor<8x16xf64>, tensor<16x8xf64> -> tensor<8x8xf64>
  return %0 : tensor<8x8xf64>
}

// -----

func.func @matmul_i32(%a: tensor<8x16xi32>, %b: tensor<16x8xi32>) -> tensor<8x8xi32> {
  // expected-error @+1 {{is a contraction accumulating in 'i32', which is not supported}}
  %0 = xtensor.matmul %a, %b : tensor<8x16xi32>, tensor<16x8xi32> -> tensor<8x8xi32>
  return %0 : tensor<8x8xi32>
}

// -----

// Attention over f64 (an online fold with accumulators) is rejected too.
func.func @attention_f64(%q: tensor<4x8xf64>, %k: tensor<16x8xf64>, %v: tensor<16x8xf64>) -> tensor<4x8xf64> {
  %kt = xtensor.transpose %k perm [1, 0] : tensor<16x8xf64> -> tensor<8x16xf64>
  %s = xtensor.matmul %q, %kt : tensor<4x8xf64>, tensor<8x16xf64> -> tensor<4x16xf64>
  %p = xtensor.softmax %s dim 1 : tensor<4x16xf64>
  // expected-error @+1 {{'xloop.online_fold' op is a contraction accumulating in 'f64'}}
  %o = xtensor.matmul %p, %v : tensor<4x16xf64>, tensor<16x8xf64> -> tensor<4x8xf64>
  return %o : tensor<4x8xf64>
}
