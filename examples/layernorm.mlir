// nn.LayerNorm(4096) over 4096 rows: (x - mean) * rsqrt(var + eps) * w + b.
func.func @layernorm(%x: tensor<4096x4096xf32>, %w: tensor<4096xf32>,
                     %b: tensor<4096xf32>) -> tensor<4096x4096xf32> {
  %y = xtensor.layer_norm %x weight %w bias %b eps 1.0e-5
      : (tensor<4096x4096xf32>, tensor<4096xf32>, tensor<4096xf32>)
      -> tensor<4096x4096xf32>
  return %y : tensor<4096x4096xf32>
}
