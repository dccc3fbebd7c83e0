// RUN: xtile-opt %s --split-input-file --lower-to-loop --convert-xloop-to-xtile -verify-diagnostics
// RUN: not xtile-opt %s --split-input-file --lower-to-loop --convert-xloop-to-xtile="target=sm_75" 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not xtile-opt %s --split-input-file --lower-to-loop --convert-xloop-to-xtile="force-schedule=fast" 2>&1 | FileCheck %s --check-prefix=FORCE

// TARGET: error: unknown target 'sm_75' (expected sm_90 or sm_80)
// FORCE: error: force-schedule 'fast' is not <serial|warp|block|split>:<warps>:<vector> nor dot:<BM>x<BN>x<BK>:<stages>:<warps>

// Reductions over several dimensions at once (nested folds) are not
// lowered yet: the error names the kernel's origin.
func.func @nested(%x: tensor<4x8xf32>) -> tensor<f32> {
  // expected-error @+1 {{has nested folds, which are not lowered to Tile IR yet}}
  %s = xtensor.reduce sum %x dims [0, 1] : tensor<4x8xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// -----

// A forced split must be legal: softmax's sum uses its max.
// RUN: not xtile-opt %s --split-input-file --lower-to-loop --convert-xloop-to-xtile="force-schedule=split:8:1:x4" 2>&1 | FileCheck %s --check-prefix=SPLIT
// SPLIT: error: 'xloop.kernel' op cannot use the forced schedule split:8:1:x4: split needs folds that do not use each other's results and at most one elementwise loop
func.func @softmax(%x: tensor<4x8192xf32>) -> tensor<4x8192xf32> {
  %y = xtensor.softmax %x dim 1 : tensor<4x8192xf32>
  return %y : tensor<4x8192xf32>
}
