// A LLaMA-style decoder layer on 512 tokens, width 1024, 16 heads of 64,
// SwiGLU MLP of width 2816, weights in PyTorch's nn.Linear layout [out, in]:
//   h = x + o_proj(attention(rms_norm(x)))
//   y = h + down(silu(gate(rms_norm(h))) * up(rms_norm(h)))
func.func @decoder_layer(
    %x: tensor<512x1024xf32>, %norm1: tensor<1024xf32>,
    %wq: tensor<1024x1024xf32>, %wk: tensor<1024x1024xf32>,
    %wv: tensor<1024x1024xf32>, %wo: tensor<1024x1024xf32>,
    %norm2: tensor<1024xf32>, %wg: tensor<2816x1024xf32>,
    %wu: tensor<2816x1024xf32>, %wd: tensor<1024x2816xf32>)
    -> tensor<512x1024xf32> {
  %n = xtensor.rms_norm %x weight %norm1 eps 1.0e-6
      : (tensor<512x1024xf32>, tensor<1024xf32>) -> tensor<512x1024xf32>
  %q = xtensor.linear %n, %wq : (tensor<512x1024xf32>, tensor<1024x1024xf32>) -> tensor<512x1024xf32>
  %k = xtensor.linear %n, %wk : (tensor<512x1024xf32>, tensor<1024x1024xf32>) -> tensor<512x1024xf32>
  %v = xtensor.linear %n, %wv : (tensor<512x1024xf32>, tensor<1024x1024xf32>) -> tensor<512x1024xf32>
  // [tokens, heads, head_dim] -> [heads, tokens, head_dim]
  %q3 = xtensor.reshape %q : tensor<512x1024xf32> -> tensor<512x16x64xf32>
  %qh = xtensor.transpose %q3 perm [1, 0, 2] : tensor<512x16x64xf32> -> tensor<16x512x64xf32>
  %k3 = xtensor.reshape %k : tensor<512x1024xf32> -> tensor<512x16x64xf32>
  %kt = xtensor.transpose %k3 perm [1, 2, 0] : tensor<512x16x64xf32> -> tensor<16x64x512xf32>
  %v3 = xtensor.reshape %v : tensor<512x1024xf32> -> tensor<512x16x64xf32>
  %vh = xtensor.transpose %v3 perm [1, 0, 2] : tensor<512x16x64xf32> -> tensor<16x512x64xf32>
  %s = xtensor.matmul %qh, %kt : tensor<16x512x64xf32>, tensor<16x64x512xf32> -> tensor<16x512x512xf32>
  %scale = xtensor.constant dense<0.125> : tensor<16x512x512xf32>
  %ss = xtensor.mul %s, %scale : tensor<16x512x512xf32>
  %p = xtensor.softmax %ss dim 2 : tensor<16x512x512xf32>
  %o = xtensor.matmul %p, %vh : tensor<16x512x512xf32>, tensor<16x512x64xf32> -> tensor<16x512x64xf32>
  %ot = xtensor.transpose %o perm [1, 0, 2] : tensor<16x512x64xf32> -> tensor<512x16x64xf32>
  %o2 = xtensor.reshape %ot : tensor<512x16x64xf32> -> tensor<512x1024xf32>
  %attn = xtensor.linear %o2, %wo : (tensor<512x1024xf32>, tensor<1024x1024xf32>) -> tensor<512x1024xf32>
  %h = xtensor.add %x, %attn : tensor<512x1024xf32>
  %n2 = xtensor.rms_norm %h weight %norm2 eps 1.0e-6
      : (tensor<512x1024xf32>, tensor<1024xf32>) -> tensor<512x1024xf32>
  %g = xtensor.linear %n2, %wg : (tensor<512x1024xf32>, tensor<2816x1024xf32>) -> tensor<512x2816xf32>
  %u = xtensor.linear %n2, %wu : (tensor<512x1024xf32>, tensor<2816x1024xf32>) -> tensor<512x2816xf32>
  %sg = xtensor.silu %g : tensor<512x2816xf32>
  %gu = xtensor.mul %sg, %u : tensor<512x2816xf32>
  %d = xtensor.linear %gu, %wd : (tensor<512x2816xf32>, tensor<1024x2816xf32>) -> tensor<512x1024xf32>
  %y = xtensor.add %h, %d : tensor<512x1024xf32>
  return %y : tensor<512x1024xf32>
}
