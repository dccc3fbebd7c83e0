// f32 matmuls for test/Integration/tf32-matmuls.test (mma-matmuls.mlir's
// cases in f32): ragged M, N and K, x W^T (PyTorch weights) and A B, K not
// a multiple of 4 (narrower copies), batched, decode shapes (M = 1, a row
// kernel; M = 8 and 32), a transposed A, and SwiGLU (two dots in one
// kernel).
func.func @ragged_linear(%x: tensor<100x96xf32>, %w: tensor<200x96xf32>, %b: tensor<200xf32>) -> tensor<100x200xf32> {
  %y = xtensor.linear %x, %w, %b : (tensor<100x96xf32>, tensor<200x96xf32>, tensor<200xf32>) -> tensor<100x200xf32>
  return %y : tensor<100x200xf32>
}
func.func @matmul_f32(%x: tensor<130x80xf32>, %w: tensor<80x72xf32>) -> tensor<130x72xf32> {
  %y = xtensor.matmul %x, %w : tensor<130x80xf32>, tensor<80x72xf32> -> tensor<130x72xf32>
  return %y : tensor<130x72xf32>
}
func.func @k100(%x: tensor<64x100xf32>, %w: tensor<100x64xf32>) -> tensor<64x64xf32> {
  %y = xtensor.matmul %x, %w : tensor<64x100xf32>, tensor<100x64xf32> -> tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}
func.func @k97(%x: tensor<33x97xf32>, %w: tensor<97x47xf32>) -> tensor<33x47xf32> {
  %y = xtensor.matmul %x, %w : tensor<33x97xf32>, tensor<97x47xf32> -> tensor<33x47xf32>
  return %y : tensor<33x47xf32>
}
func.func @decode(%x: tensor<1x256xf32>, %w: tensor<96x256xf32>) -> tensor<1x96xf32> {
  %y = xtensor.linear %x, %w : (tensor<1x256xf32>, tensor<96x256xf32>) -> tensor<1x96xf32>
  return %y : tensor<1x96xf32>
}
func.func @batched(%x: tensor<3x65x33xf32>, %w: tensor<3x33x47xf32>) -> tensor<3x65x47xf32> {
  %y = xtensor.matmul %x, %w : tensor<3x65x33xf32>, tensor<3x33x47xf32> -> tensor<3x65x47xf32>
  return %y : tensor<3x65x47xf32>
}
func.func @at_b(%x: tensor<96x130xf32>, %w: tensor<96x72xf32>) -> tensor<130x72xf32> {
  %xt = xtensor.transpose %x perm [1, 0] : tensor<96x130xf32> -> tensor<130x96xf32>
  %y = xtensor.matmul %xt, %w : tensor<130x96xf32>, tensor<96x72xf32> -> tensor<130x72xf32>
  return %y : tensor<130x72xf32>
}
func.func @swiglu(%x: tensor<70x64xf32>, %wg: tensor<96x64xf32>, %wu: tensor<96x64xf32>) -> tensor<70x96xf32> {
  %g = xtensor.linear %x, %wg : (tensor<70x64xf32>, tensor<96x64xf32>) -> tensor<70x96xf32>
  %u = xtensor.linear %x, %wu : (tensor<70x64xf32>, tensor<96x64xf32>) -> tensor<70x96xf32>
  %s = xtensor.silu %g : tensor<70x96xf32>
  %y = xtensor.mul %s, %u : tensor<70x96xf32>
  return %y : tensor<70x96xf32>
}
func.func @decode8(%x: tensor<8x256xf32>, %w: tensor<96x256xf32>) -> tensor<8x96xf32> {
  %y = xtensor.linear %x, %w : (tensor<8x256xf32>, tensor<96x256xf32>) -> tensor<8x96xf32>
  return %y : tensor<8x96xf32>
}
func.func @decode32(%x: tensor<32x256xf32>, %w: tensor<96x256xf32>) -> tensor<32x96xf32> {
  %y = xtensor.linear %x, %w : (tensor<32x256xf32>, tensor<96x256xf32>) -> tensor<32x96xf32>
  return %y : tensor<32x96xf32>
}
