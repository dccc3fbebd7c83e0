// Found by xtile-fuzz (seed 9571, reduced): attention whose output is
// sliced and padded crashed under emulation. The cause was not the slice:
// the attention's output tile (1 x 256) has fewer groups of four than the
// block has threads, and the FMA dot made the idle threads read their
// operand rows past the end of the staged tiles: a shared-memory read out
// of bounds (on a GPU, an illegal address or garbage that was discarded).
// The plain attention below has the same dot. Idle threads now read the
// last row and column. --sanitize makes every such read fail the test,
// not only those that happen to leave the allocation.
// REQUIRES: emulation-sanitizers
// RUN: xtile-run --sanitize --seed=9571 %s | FileCheck %s
// CHECK: @g output #0 tensor<8x256xf32>: {{.*}}: ok
// CHECK: @plain output #0 tensor<8x256xf32>: {{.*}}: ok
func.func @g(%a0: tensor<8x256xf32>, %a1: tensor<130x256xf32>, %a2: tensor<130x256xf32>) -> tensor<8x256xf32> {
  %v1 = xtensor.transpose %a1 perm [1, 0] : tensor<130x256xf32> -> tensor<256x130xf32>
  %v2 = xtensor.matmul %a0, %v1 : tensor<8x256xf32>, tensor<256x130xf32> -> tensor<8x130xf32>
  %v10 = xtensor.softmax %v2 dim 1 : tensor<8x130xf32>
  %v11 = xtensor.matmul %v10, %a2 : tensor<8x130xf32>, tensor<130x256xf32> -> tensor<8x256xf32>
  %v18 = xtensor.slice %v11 starts [0, 66] limits [8, 256] strides [1, 1] : tensor<8x256xf32> -> tensor<8x190xf32>
  %v19 = xtensor.pad %v18 low [0, 0] high [0, 66] value 0.5 : f32 : tensor<8x190xf32> -> tensor<8x256xf32>
  return %v19 : tensor<8x256xf32>
}
func.func @plain(%a0: tensor<8x256xf32>, %a1: tensor<130x256xf32>, %a2: tensor<130x256xf32>) -> tensor<8x256xf32> {
  %v1 = xtensor.transpose %a1 perm [1, 0] : tensor<130x256xf32> -> tensor<256x130xf32>
  %v2 = xtensor.matmul %a0, %v1 : tensor<8x256xf32>, tensor<256x130xf32> -> tensor<8x130xf32>
  %v10 = xtensor.softmax %v2 dim 1 : tensor<8x130xf32>
  %v11 = xtensor.matmul %v10, %a2 : tensor<8x130xf32>, tensor<130x256xf32> -> tensor<8x256xf32>
  return %v11 : tensor<8x256xf32>
}
