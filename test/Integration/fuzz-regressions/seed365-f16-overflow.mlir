// Found by xtile-fuzz (seed 365), reduced by hand: in f16, the row sum of
// squares of x + rowsum(x) overflows to Inf, so the program's own types
// cannot compute what the float64 reference does. xtile-run used to call
// that a mismatch; the kernels match the op-by-op f16 evaluation exactly,
// and xtile-run now says the program is ill-conditioned in f16 and checks
// against that evaluation.
// RUN: xtile-run --backend=emu --seed=365 %s | FileCheck %s
// CHECK: @overflow output #0 tensor<4x1024xf16>: normwise relative error {{.*}}; ill-conditioned in f16 (op-by-op evaluation in f16 is off by {{.*}}): against that evaluation 0: ok
func.func @overflow(%x: tensor<4x1024xf16>, %w: tensor<1024xf16>) -> tensor<4x1024xf16> {
  %s = xtensor.reduce sum %x dims [1] keepdim : tensor<4x1024xf16> -> tensor<4x1xf16>
  %b = xtensor.broadcast %s : tensor<4x1xf16> -> tensor<4x1024xf16>
  %h = xtensor.add %x, %b : tensor<4x1024xf16>
  %y = xtensor.rms_norm %h weight %w eps 1.0e-5 : (tensor<4x1024xf16>, tensor<1024xf16>) -> tensor<4x1024xf16>
  return %y : tensor<4x1024xf16>
}
