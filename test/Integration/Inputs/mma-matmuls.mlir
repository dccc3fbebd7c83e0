// Matmuls for test/Integration/tensor-core-matmuls.test: ragged M, N and K,
// f16 and bf16, x W^T (PyTorch weights) and A B, K not a multiple of 8
// (narrower copies) or of 2 (staged from registers), batched, decode shapes
// (M = 1, a row kernel; M = 8 and 32), a transposed A, and SwiGLU (two dots
// in one kernel).
func.func @ragged_linear(%x: tensor<100x96xbf16>, %w: tensor<200x96xbf16>, %b: tensor<200xbf16>) -> tensor<100x200xbf16> {
  %y = xtensor.linear %x, %w, %b : (tensor<100x96xbf16>, tensor<200x96xbf16>, tensor<200xbf16>) -> tensor<100x200xbf16>
  return %y : tensor<100x200xbf16>
}
func.func @matmul_f16(%x: tensor<130x80xf16>, %w: tensor<80x72xf16>) -> tensor<130x72xf16> {
  %y = xtensor.matmul %x, %w : tensor<130x80xf16>, tensor<80x72xf16> -> tensor<130x72xf16>
  return %y : tensor<130x72xf16>
}
func.func @k100(%x: tensor<64x100xbf16>, %w: tensor<100x64xbf16>) -> tensor<64x64xbf16> {
  %y = xtensor.matmul %x, %w : tensor<64x100xbf16>, tensor<100x64xbf16> -> tensor<64x64xbf16>
  return %y : tensor<64x64xbf16>
}
func.func @k97(%x: tensor<33x97xbf16>, %w: tensor<97x47xbf16>) -> tensor<33x47xbf16> {
  %y = xtensor.matmul %x, %w : tensor<33x97xbf16>, tensor<97x47xbf16> -> tensor<33x47xbf16>
  return %y : tensor<33x47xbf16>
}
func.func @decode(%x: tensor<1x256xbf16>, %w: tensor<96x256xbf16>) -> tensor<1x96xbf16> {
  %y = xtensor.linear %x, %w : (tensor<1x256xbf16>, tensor<96x256xbf16>) -> tensor<1x96xbf16>
  return %y : tensor<1x96xbf16>
}
func.func @batched(%x: tensor<3x65x33xbf16>, %w: tensor<3x33x47xbf16>) -> tensor<3x65x47xbf16> {
  %y = xtensor.matmul %x, %w : tensor<3x65x33xbf16>, tensor<3x33x47xbf16> -> tensor<3x65x47xbf16>
  return %y : tensor<3x65x47xbf16>
}
func.func @at_b(%x: tensor<96x130xbf16>, %w: tensor<96x72xbf16>) -> tensor<130x72xf32> {
  %xt = xtensor.transpose %x perm [1, 0] : tensor<96x130xbf16> -> tensor<130x96xbf16>
  %y = xtensor.matmul %xt, %w : tensor<130x96xbf16>, tensor<96x72xbf16> -> tensor<130x72xbf16>
  %z = xtensor.cast %y : tensor<130x72xbf16> -> tensor<130x72xf32>
  return %z : tensor<130x72xf32>
}
func.func @swiglu(%x: tensor<70x64xbf16>, %wg: tensor<96x64xbf16>, %wu: tensor<96x64xbf16>) -> tensor<70x96xbf16> {
  %g = xtensor.linear %x, %wg : (tensor<70x64xbf16>, tensor<96x64xbf16>) -> tensor<70x96xbf16>
  %u = xtensor.linear %x, %wu : (tensor<70x64xbf16>, tensor<96x64xbf16>) -> tensor<70x96xbf16>
  %s = xtensor.silu %g : tensor<70x96xbf16>
  %y = xtensor.mul %s, %u : tensor<70x96xbf16>
  return %y : tensor<70x96xbf16>
}
func.func @decode8(%x: tensor<8x256xbf16>, %w: tensor<96x256xbf16>) -> tensor<8x96xbf16> {
  %y = xtensor.linear %x, %w : (tensor<8x256xbf16>, tensor<96x256xbf16>) -> tensor<8x96xbf16>
  return %y : tensor<8x96xbf16>
}
func.func @decode32(%x: tensor<32x256xbf16>, %w: tensor<96x256xbf16>) -> tensor<32x96xbf16> {
  %y = xtensor.linear %x, %w : (tensor<32x256xbf16>, tensor<96x256xbf16>) -> tensor<32x96xbf16>
  return %y : tensor<32x96xbf16>
}
func.func @decode32_k260(%x: tensor<32x260xbf16>, %w: tensor<96x260xbf16>) -> tensor<32x96xbf16> {
  %y = xtensor.linear %x, %w : (tensor<32x260xbf16>, tensor<96x260xbf16>) -> tensor<32x96xbf16>
  return %y : tensor<32x96xbf16>
}
