// Found by xtile-fuzz (seed 365), reduced by hand: in f16, the row sum of
// squares of x + rowsum(x) overflows to Inf, so the program's own types
// cannot compute what the float64 reference does. xtile-run used to call
// that a mismatch; the kernels match the op-by-op f16 evaluation (up to f16
// rounding: they compute in f32 and round at the stores and at the sums'
// own f16 results), and xtile-run now says the program is ill-conditioned
// in f16 and checks against that evaluation. (The sum of squares is written out in atomic
// f16 ops: the rms_norm composite computes its statistics in f32 and does
// not overflow, see seed365-f16-composite.mlir.)
// RUN: xtile-run --backend=emu --seed=365 %s | FileCheck %s
// CHECK: @overflow output #0 tensor<4x1024xf16>: normwise relative error {{.*}}; ill-conditioned in f16 (op-by-op evaluation in f16 is off by {{.*}}): against that evaluation {{.*}}: ok
func.func @overflow(%x: tensor<4x1024xf16>, %w: tensor<1024xf16>) -> tensor<4x1024xf16> {
  %s = xtensor.reduce sum %x dims [1] keepdim : tensor<4x1024xf16> -> tensor<4x1xf16>
  %b = xtensor.broadcast %s : tensor<4x1xf16> -> tensor<4x1024xf16>
  %h = xtensor.add %x, %b : tensor<4x1024xf16>
  %sq = xtensor.mul %h, %h : tensor<4x1024xf16>
  %ss = xtensor.reduce sum %sq dims [1] keepdim : tensor<4x1024xf16> -> tensor<4x1xf16>
  %n = xtensor.constant dense<1024.0> : tensor<4x1xf16>
  %m = xtensor.div %ss, %n : tensor<4x1xf16>
  %eps = xtensor.constant dense<1.0e-5> : tensor<4x1xf16>
  %me = xtensor.add %m, %eps : tensor<4x1xf16>
  %r = xtensor.rsqrt %me : tensor<4x1xf16>
  %rb = xtensor.broadcast %r : tensor<4x1xf16> -> tensor<4x1024xf16>
  %hr = xtensor.mul %h, %rb : tensor<4x1024xf16>
  %wb = xtensor.broadcast %w : tensor<1024xf16> -> tensor<4x1024xf16>
  %y = xtensor.mul %hr, %wb : tensor<4x1024xf16>
  return %y : tensor<4x1024xf16>
}
