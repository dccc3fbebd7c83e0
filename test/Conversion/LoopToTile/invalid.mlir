// RUN: xtile-opt %s --split-input-file --lower-to-loop --convert-xloop-to-xtile -verify-diagnostics
// RUN: not xtile-opt %s --split-input-file --lower-to-loop --convert-xloop-to-xtile="target=sm_75" 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not xtile-opt %s --split-input-file --lower-to-loop --convert-xloop-to-xtile="force-schedule=fast" 2>&1 | FileCheck %s --check-prefix=FORCE

// TARGET: error: unknown target 'sm_75' (expected sm_90 or sm_80)
// FORCE: error: force-schedule 'fast' is not <serial|warp|block|split>:<warps>:<vector>

// Matmul schedules (BM/BN/BK tiles, pipelining) are not lowered yet: the
// error names the kernel's origin.
func.func @matmul(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>) -> tensor<64x16xf32> {
  // expected-error @+1 {{is a contraction (a fold over loads that leave out a row dimension); matmul schedules are not lowered to Tile IR yet}}
  %c = xtensor.matmul %a, %b : tensor<64x32xf32>, tensor<32x16xf32> -> tensor<64x16xf32>
  return %c : tensor<64x16xf32>
}
