// The program of seed365-f16-overflow.mlir with its norm as the rms_norm
// composite: a composite on f16 computes in f32 and rounds once at its
// result, as PyTorch's kernels do, so the sum of squares that overflows
// f16 is an f32 value here and the program matches the float64 reference
// within f16's tolerance.
// RUN: xtile-run --backend=emu --seed=365 %s | FileCheck %s
// CHECK: @composite output #0 tensor<4x1024xf16>: normwise relative error {{[0-9.e-]+}} (tolerance 0.01): ok
func.func @composite(%x: tensor<4x1024xf16>, %w: tensor<1024xf16>) -> tensor<4x1024xf16> {
  %s = xtensor.reduce sum %x dims [1] keepdim : tensor<4x1024xf16> -> tensor<4x1xf16>
  %b = xtensor.broadcast %s : tensor<4x1xf16> -> tensor<4x1024xf16>
  %h = xtensor.add %x, %b : tensor<4x1024xf16>
  %y = xtensor.rms_norm %h weight %w eps 1.0e-5 : (tensor<4x1024xf16>, tensor<1024xf16>) -> tensor<4x1024xf16>
  return %y : tensor<4x1024xf16>
}
