func.func @programs(%x: tensor<3x5x7xf32>, %n: tensor<6x8x16xf32>, %w: tensor<8x16xf32>, %b: tensor<8x16xf32>, %h: tensor<4x100xbf16>, %c: tensor<256xbf16>, %e: tensor<4x6xf32>, %k: tensor<12x0xf32>, %kw: tensor<5x0xf32>)
    -> (tensor<5xf32>, tensor<3x1x1xf32>, tensor<f32>, tensor<6x8x16xf32>, tensor<4x100xbf16>, tensor<4x100xbf16>, tensor<256xf32>, tensor<4xf32>, tensor<4x0xf32>, tensor<3xf32>, tensor<2x2xi64>, tensor<12x5xf32>) {
  %r0 = xtensor.reduce sum %x dims [0, 2] : tensor<3x5x7xf32> -> tensor<5xf32>
  %r1 = xtensor.reduce max %x dims [1, 2] keepdim : tensor<3x5x7xf32> -> tensor<3x1x1xf32>
  %r2 = xtensor.var %x dims [0, 1, 2] correction 1 : tensor<3x5x7xf32> -> tensor<f32>
  %ln = xtensor.layer_norm %n weight %w bias %b eps 1.0e-05 {norm_rank = 2 : i64} : (tensor<6x8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<6x8x16xf32>
  %g = xtensor.gelu erf %h : tensor<4x100xbf16>
  %s = xtensor.softmax %h dim 1 : tensor<4x100xbf16>
  %wide = xtensor.cast %c : tensor<256xbf16> -> tensor<256xf32>
  %empty = xtensor.slice %e starts [0, 2] limits [4, 2] strides [1, 1] : tensor<4x6xf32> -> tensor<4x0xf32>
  %zero = xtensor.reduce sum %empty dims [1] : tensor<4x0xf32> -> tensor<4xf32>
  %ex = xtensor.exp %empty : tensor<4x0xf32>
  %nan = xtensor.constant dense<0x7FC00000> : tensor<3xf32>
  %seven = xtensor.constant dense<7> : tensor<2x2xi64>
  %lin = xtensor.linear %k, %kw : (tensor<12x0xf32>, tensor<5x0xf32>) -> tensor<12x5xf32>
  return %r0, %r1, %r2, %ln, %g, %s, %wide, %zero, %ex, %nan, %seven, %lin : tensor<5xf32>, tensor<3x1x1xf32>, tensor<f32>, tensor<6x8x16xf32>, tensor<4x100xbf16>, tensor<4x100xbf16>, tensor<256xf32>, tensor<4xf32>, tensor<4x0xf32>, tensor<3xf32>, tensor<2x2xi64>, tensor<12x5xf32>
}
