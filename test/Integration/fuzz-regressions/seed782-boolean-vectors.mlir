// xtile-fuzz --both-paths seed 782, reduced: a mask of booleans computed by
// one kernel, read by the next as vectors of four. The PTX path loaded
// <4 x i1> from memory, which LLVM IR packs as bits, while the mask is a
// byte per boolean: its matmul read the wrong rows. Both paths now give
// the same bits.
// RUN: xtile-run --backend=emu-ptx --compare-with=emu --seed=782 %s | FileCheck %s
// RUN: xtile-run --backend=emu-ptx --compare-with=emu --seed=782 --target=sm_80 %s | FileCheck %s
// CHECK: @g782 output #0 emu-ptx against emu: bit-identical
// CHECK: @g782 output #0 tensor<8x7xf16>: {{.*}}: ok
func.func @g782(%arg0: tensor<8x32xf16>, %arg2: tensor<7x32xf16>) -> tensor<8x7xf16> {
  %0 = xtensor.iota dim 1 : tensor<8x32xi32>
  %1 = xtensor.constant dense<3> : tensor<8x32xi32>
  %2 = xtensor.rem %0, %1 : tensor<8x32xi32>
  %3 = xtensor.constant dense<0> : tensor<8x32xi32>
  %4 = xtensor.cmp eq, %2, %3 : tensor<8x32xi32>
  %5 = xtensor.cmp gt, %arg0, %arg0 : tensor<8x32xf16>
  %6 = xtensor.xor %4, %5 : tensor<8x32xi1>
  %7 = xtensor.constant dense<0.000000e+00> : tensor<8x32xf16>
  %8 = xtensor.select %6, %arg0, %7 : tensor<8x32xf16>
  %9 = xtensor.transpose %arg2 perm [1, 0] : tensor<7x32xf16> -> tensor<32x7xf16>
  %10 = xtensor.matmul %8, %9 : tensor<8x32xf16>, tensor<32x7xf16> -> tensor<8x7xf16>
  return %10 : tensor<8x7xf16>
}
