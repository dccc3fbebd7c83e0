// Programs named as C library functions: `step` (POSIX regexp, exported by
// glibc) would be called in place of the program if the packed entry point
// called it through the global symbol; `exp`, `sinf` and `free` collide
// with declarations of <math.h> and <stdlib.h>; `double` is a keyword.
func.func @step(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = xtensor.exp %x : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
func.func @exp(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = xtensor.exp %x : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
func.func @sinf(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = xtensor.sin %x : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
func.func @free(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %y = xtensor.reduce sum %x dims [1] : tensor<4x8xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @double(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = xtensor.add %x, %x : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
