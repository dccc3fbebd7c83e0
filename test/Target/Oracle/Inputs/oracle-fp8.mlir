// The fp8 matmuls of test/Target/Oracle/cute-oracle.test: x W^T with both
// operands K-major (as fp8 tensor cores read them), e4m3 and e5m2, large
// enough for every block size of the schedule space (256 x 256, 4 stages
// of 128 along K) and with rows that TMA can copy (16-byte aligned).
func.func @linear_e4m3(%x: tensor<256x512xf8E4M3FN>, %w: tensor<256x512xf8E4M3FN>) -> tensor<256x256xf32> {
  %wt = xtensor.transpose %w perm [1, 0] : tensor<256x512xf8E4M3FN> -> tensor<512x256xf8E4M3FN>
  %y = xtensor.matmul %x, %wt : tensor<256x512xf8E4M3FN>, tensor<512x256xf8E4M3FN> -> tensor<256x256xf32>
  return %y : tensor<256x256xf32>
}
func.func @linear_e5m2(%x: tensor<256x512xf8E5M2>, %w: tensor<256x512xf8E5M2>) -> tensor<256x256xf32> {
  %wt = xtensor.transpose %w perm [1, 0] : tensor<256x512xf8E5M2> -> tensor<512x256xf8E5M2>
  %y = xtensor.matmul %x, %wt : tensor<256x512xf8E5M2>, tensor<512x256xf8E5M2> -> tensor<256x256xf32>
  return %y : tensor<256x256xf32>
}
