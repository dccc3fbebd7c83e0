// A BERT/GPT-2 style MLP block on 512 tokens of width 1024:
//   y = fc2(gelu(fc1(x))), fc1: 1024 -> 4096, fc2: 4096 -> 1024,
// weights in PyTorch's nn.Linear layout [out, in].
func.func @gelu_mlp(%x: tensor<512x1024xf32>,
                    %w1: tensor<4096x1024xf32>, %b1: tensor<4096xf32>,
                    %w2: tensor<1024x4096xf32>, %b2: tensor<1024xf32>)
    -> tensor<512x1024xf32> {
  %h = xtensor.linear %x, %w1, %b1
      : (tensor<512x1024xf32>, tensor<4096x1024xf32>, tensor<4096xf32>)
      -> tensor<512x4096xf32>
  %a = xtensor.gelu erf %h : tensor<512x4096xf32>
  %y = xtensor.linear %a, %w2, %b2
      : (tensor<512x4096xf32>, tensor<1024x4096xf32>, tensor<1024xf32>)
      -> tensor<512x1024xf32>
  return %y : tensor<512x1024xf32>
}
