// Shapes at the edges of what the kernels handle, for the emitters' tests:
// every function lowers through --lower-to-kernel, and the CUDA C and PTX of
// each compile.

// A ragged row: 1000 columns in a tile of 1024.
func.func @ragged_softmax(%x: tensor<300x1000xf32>) -> tensor<300x1000xf32> {
  %y = xtensor.softmax %x dim 1 : tensor<300x1000xf32>
  return %y : tensor<300x1000xf32>
}

// Odd sizes everywhere: 37 rows of 77 (no vector accesses).
func.func @odd_layernorm(%x: tensor<37x77xf32>, %w: tensor<77xf32>, %b: tensor<77xf32>) -> tensor<37x77xf32> {
  %y = xtensor.layer_norm %x weight %w bias %b eps 1.0e-5 : (tensor<37x77xf32>, tensor<77xf32>, tensor<77xf32>) -> tensor<37x77xf32>
  return %y : tensor<37x77xf32>
}

// Size-1 dimensions.
func.func @unit_dims(%x: tensor<1x1xf32>, %y: tensor<5x1xf32>) -> (tensor<1x1xf32>, tensor<5x1xf32>) {
  %a = xtensor.softmax %x dim 1 : tensor<1x1xf32>
  %b = xtensor.softmax %y dim 1 : tensor<5x1xf32>
  return %a, %b : tensor<1x1xf32>, tensor<5x1xf32>
}

// A transposed operand and a broadcast one.
func.func @transposed_add(%x: tensor<96x64xf32>, %b: tensor<96xf32>) -> tensor<64x96xf32> {
  %t = xtensor.transpose %x perm [1, 0] : tensor<96x64xf32> -> tensor<64x96xf32>
  %bb = xtensor.broadcast %b : tensor<96xf32> -> tensor<64x96xf32>
  %y = xtensor.add %t, %bb : tensor<64x96xf32>
  return %y : tensor<64x96xf32>
}

// A long row, in chunks.
func.func @long_rows(%x: tensor<16x65536xf32>) -> tensor<16x65536xf32> {
  %y = xtensor.softmax %x dim 1 : tensor<16x65536xf32>
  return %y : tensor<16x65536xf32>
}

// Few long rows: a split reduction (two kernels).
func.func @few_rows(%x: tensor<8x65536xf32>, %w: tensor<65536xf32>) -> tensor<8x65536xf32> {
  %y = xtensor.rms_norm %x weight %w eps 1.0e-6 : (tensor<8x65536xf32>, tensor<65536xf32>) -> tensor<8x65536xf32>
  return %y : tensor<8x65536xf32>
}

// 16-bit floats: 8 x bf16 = 16-byte accesses, f16 math through f32.
func.func @bf16_rmsnorm(%x: tensor<256x4096xbf16>, %w: tensor<4096xbf16>) -> tensor<256x4096xbf16> {
  %y = xtensor.rms_norm %x weight %w eps 1.0e-6 : (tensor<256x4096xbf16>, tensor<4096xbf16>) -> tensor<256x4096xbf16>
  return %y : tensor<256x4096xbf16>
}
func.func @f16_softmax(%x: tensor<128x500xf16>) -> tensor<128x500xf16> {
  %y = xtensor.softmax %x dim 1 : tensor<128x500xf16>
  return %y : tensor<128x500xf16>
}

// A ragged matmul with a bias: masks on every edge of every tile.
func.func @ragged_linear(%x: tensor<100x96xf32>, %w: tensor<200x96xf32>, %b: tensor<200xf32>) -> tensor<100x200xf32> {
  %y = xtensor.linear %x, %w, %b : (tensor<100x96xf32>, tensor<200x96xf32>, tensor<200xf32>) -> tensor<100x200xf32>
  return %y : tensor<100x200xf32>
}

// Integers: a sum of i32 and a max of i64 over rows.
func.func @integer_rows(%x: tensor<64x300xi32>, %y: tensor<64x300xi64>) -> (tensor<64xi32>, tensor<64xi64>) {
  %s = xtensor.reduce sum %x dims [1] : tensor<64x300xi32> -> tensor<64xi32>
  %m = xtensor.reduce max %y dims [1] : tensor<64x300xi64> -> tensor<64xi64>
  return %s, %m : tensor<64xi32>, tensor<64xi64>
}
