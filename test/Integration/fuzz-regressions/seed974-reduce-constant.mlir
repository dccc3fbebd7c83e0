// Found by xtile-fuzz (seed 974): `x - x` (0 for integers) summed over the
// rows left a fold of a constant, hoisted out of the kernel's loops, which
// the Tile IR lowering rejected ("a loop nested in its column loop"). A
// fold yielding its combine's identity is now its initial value.
// RUN: xtile-run --backend=emu --seed=974 %s | FileCheck %s
// CHECK: @g output #0 tensor<8x256xi32>: {{.*}}: ok
func.func @g(%a: tensor<8x256xi32>) -> tensor<8x256xi32> {
  %d = xtensor.sub %a, %a : tensor<8x256xi32>
  %s = xtensor.reduce sum %d dims [0] keepdim : tensor<8x256xi32> -> tensor<1x256xi32>
  %b = xtensor.broadcast %s : tensor<1x256xi32> -> tensor<8x256xi32>
  %m = xtensor.min %d, %b : tensor<8x256xi32>
  return %m : tensor<8x256xi32>
}
