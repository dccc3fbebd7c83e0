// Which schedule --xtile-select-schedule chooses for contractions, and
// that none it proposes exceeds the target (the fused gate and up
// projections of a SwiGLU MLP at Llama-3-8B widths in f32: their operand
// tiles, counted per dot, must fit in shared memory).
// RUN: xtile-opt %s --lower-to-loop -o %t.loop.mlir
// RUN: xtile-opt %t.loop.mlir --xtile-select-schedule | FileCheck %s
// RUN: xtile-opt %t.loop.mlir --xtile-list-schedules="check=1 output=%t.json" -o /dev/null
// RUN: xtile-opt %t.loop.mlir --xtile-list-schedules="target=sm_80 check=1 output=%t.json" -o /dev/null

// A large square matmul: the largest tiles.
// CHECK-LABEL: xloop.kernel @mm_
// CHECK-SAME:    xtile.schedule = #xtile.dot_schedule<block_m = 128, block_n = 128, block_k = {{[0-9]+}}, stages = {{[0-9]+}}, warps = {{[0-9]+}}>
func.func @mm(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %c = xtensor.matmul %a, %b : tensor<4096x4096xf32>, tensor<4096x4096xf32> -> tensor<4096x4096xf32>
  return %c : tensor<4096x4096xf32>
}

// CHECK-LABEL: xloop.kernel @swiglu_
// CHECK-SAME:    xtile.schedule = #xtile.dot_schedule<
func.func @swiglu(%x: tensor<512x4096xf32>, %wg: tensor<14336x4096xf32>, %wu: tensor<14336x4096xf32>) -> tensor<512x14336xf32> {
  %g = xtensor.linear %x, %wg : (tensor<512x4096xf32>, tensor<14336x4096xf32>) -> tensor<512x14336xf32>
  %u = xtensor.linear %x, %wu : (tensor<512x4096xf32>, tensor<14336x4096xf32>) -> tensor<512x14336xf32>
  %s = xtensor.silu %g : tensor<512x14336xf32>
  %y = xtensor.mul %s, %u : tensor<512x14336xf32>
  return %y : tensor<512x14336xf32>
}
