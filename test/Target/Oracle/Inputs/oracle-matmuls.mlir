// Matmuls for test/Target/Oracle/cute-oracle.test: one of each operand
// arrangement the wgmma schedules stage (A K-major; B K-major as PyTorch's
// x W^T, or N-major as x W), in bf16, f16 and f32 (tf32), large enough for
// every block size of the schedule space (256 x 256) and with rows that
// TMA can copy (16-byte aligned), so that each tile comes in by TMA.
func.func @linear_bf16(%x: tensor<256x192xbf16>, %w: tensor<256x192xbf16>) -> tensor<256x256xbf16> {
  %y = xtensor.linear %x, %w : (tensor<256x192xbf16>, tensor<256x192xbf16>) -> tensor<256x256xbf16>
  return %y : tensor<256x256xbf16>
}
func.func @matmul_bf16(%x: tensor<256x192xbf16>, %w: tensor<192x256xbf16>) -> tensor<256x256xbf16> {
  %y = xtensor.matmul %x, %w : tensor<256x192xbf16>, tensor<192x256xbf16> -> tensor<256x256xbf16>
  return %y : tensor<256x256xbf16>
}
func.func @linear_f16(%x: tensor<256x192xf16>, %w: tensor<256x192xf16>) -> tensor<256x256xf16> {
  %y = xtensor.linear %x, %w : (tensor<256x192xf16>, tensor<256x192xf16>) -> tensor<256x256xf16>
  return %y : tensor<256x256xf16>
}
func.func @matmul_f16(%x: tensor<256x192xf16>, %w: tensor<192x256xf16>) -> tensor<256x256xf16> {
  %y = xtensor.matmul %x, %w : tensor<256x192xf16>, tensor<192x256xf16> -> tensor<256x256xf16>
  return %y : tensor<256x256xf16>
}
