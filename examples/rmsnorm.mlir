// RMSNorm as written in LLM code (LLaMA's RMSNorm), 4096 rows of 4096.
//   y = x * rsqrt(mean(x * x, dim=-1, keepdim=True) + eps) * w
// The composite op; `xtile-opt --xtensor-decompose --xtensor-normalize`
// shows the atomic ops it stands for.
func.func @rmsnorm(%x: tensor<4096x4096xf32>, %w: tensor<4096xf32>)
    -> tensor<4096x4096xf32> {
  %y = xtensor.rms_norm %x weight %w eps 1.0e-6
      : (tensor<4096x4096xf32>, tensor<4096xf32>) -> tensor<4096x4096xf32>
  return %y : tensor<4096x4096xf32>
}
