// The 4096^3 bf16 matmul and Llama-3-8B's projections (x W^T, PyTorch
// weights [out, in]) at M = 128: QKV, O, gate+up, down.
func.func @mm(%x: tensor<4096x4096xbf16>, %w: tensor<4096x4096xbf16>) -> tensor<4096x4096xbf16> {
  %y = xtensor.matmul %x, %w : tensor<4096x4096xbf16>, tensor<4096x4096xbf16> -> tensor<4096x4096xbf16>
  return %y : tensor<4096x4096xbf16>
}
func.func @qkv(%x: tensor<128x4096xbf16>, %w: tensor<6144x4096xbf16>) -> tensor<128x6144xbf16> {
  %y = xtensor.linear %x, %w : (tensor<128x4096xbf16>, tensor<6144x4096xbf16>) -> tensor<128x6144xbf16>
  return %y : tensor<128x6144xbf16>
}
func.func @o(%x: tensor<128x4096xbf16>, %w: tensor<4096x4096xbf16>) -> tensor<128x4096xbf16> {
  %y = xtensor.linear %x, %w : (tensor<128x4096xbf16>, tensor<4096x4096xbf16>) -> tensor<128x4096xbf16>
  return %y : tensor<128x4096xbf16>
}
func.func @gate_up(%x: tensor<128x4096xbf16>, %w: tensor<28672x4096xbf16>) -> tensor<128x28672xbf16> {
  %y = xtensor.linear %x, %w : (tensor<128x4096xbf16>, tensor<28672x4096xbf16>) -> tensor<128x28672xbf16>
  return %y : tensor<128x28672xbf16>
}
func.func @down(%x: tensor<128x14336xbf16>, %w: tensor<4096x14336xbf16>) -> tensor<128x4096xbf16> {
  %y = xtensor.linear %x, %w : (tensor<128x14336xbf16>, tensor<4096x14336xbf16>) -> tensor<128x4096xbf16>
  return %y : tensor<128x4096xbf16>
}
