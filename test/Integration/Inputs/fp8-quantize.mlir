// Dynamic fp8 quantization: each kernel takes its rows' amax, writes the
// scale (amax / 448) and the rows cast to e4m3, in one pass over its
// input, fused with the producer of the rows. Ragged sizes (rows and
// columns not multiples of a block).

// RMSNorm, then per-token quantization (the activation of an fp8 linear).
func.func @rmsnorm_quant(%x: tensor<77x300xbf16>, %g: tensor<300xbf16>) -> (tensor<77x300xf8E4M3FN>, tensor<77x1xf32>) {
  %xf = xtensor.cast %x : tensor<77x300xbf16> -> tensor<77x300xf32>
  %sq = xtensor.mul %xf, %xf : tensor<77x300xf32>
  %ms = xtensor.reduce sum %sq dims [1] keepdim : tensor<77x300xf32> -> tensor<77x1xf32>
  %n = xtensor.constant dense<3.33333338e-03> : tensor<77x1xf32>
  %mean = xtensor.mul %ms, %n : tensor<77x1xf32>
  %eps = xtensor.constant dense<1.0e-6> : tensor<77x1xf32>
  %me = xtensor.add %mean, %eps : tensor<77x1xf32>
  %r = xtensor.rsqrt %me : tensor<77x1xf32>
  %rb = xtensor.broadcast %r : tensor<77x1xf32> -> tensor<77x300xf32>
  %y = xtensor.mul %xf, %rb : tensor<77x300xf32>
  %gf = xtensor.cast %g : tensor<300xbf16> -> tensor<300xf32>
  %gb = xtensor.broadcast %gf : tensor<300xf32> -> tensor<77x300xf32>
  %yg = xtensor.mul %y, %gb : tensor<77x300xf32>
  %a = xtensor.abs %yg : tensor<77x300xf32>
  %amax = xtensor.reduce max %a dims [1] keepdim : tensor<77x300xf32> -> tensor<77x1xf32>
  %c448 = xtensor.constant dense<448.0> : tensor<77x1xf32>
  %s = xtensor.div %amax, %c448 : tensor<77x1xf32>
  %sb = xtensor.broadcast %s : tensor<77x1xf32> -> tensor<77x300xf32>
  %q = xtensor.div %yg, %sb : tensor<77x300xf32>
  %q8 = xtensor.cast %q : tensor<77x300xf32> -> tensor<77x300xf8E4M3FN>
  return %q8, %s : tensor<77x300xf8E4M3FN>, tensor<77x1xf32>
}

// Per-block quantization of activations in blocks of 1 x 128
// (DeepSeek-V3's): a scale per row and block of 128 columns.
func.func @block_quant(%x: tensor<50x512xbf16>) -> (tensor<50x4x128xf8E4M3FN>, tensor<50x4x1xf32>) {
  %xf = xtensor.cast %x : tensor<50x512xbf16> -> tensor<50x512xf32>
  %xb = xtensor.reshape %xf : tensor<50x512xf32> -> tensor<50x4x128xf32>
  %a = xtensor.abs %xb : tensor<50x4x128xf32>
  %amax = xtensor.reduce max %a dims [2] keepdim : tensor<50x4x128xf32> -> tensor<50x4x1xf32>
  %tiny = xtensor.constant dense<1.0e-12> : tensor<50x4x1xf32>
  %am = xtensor.max %amax, %tiny : tensor<50x4x1xf32>
  %c448 = xtensor.constant dense<448.0> : tensor<50x4x1xf32>
  %s = xtensor.div %am, %c448 : tensor<50x4x1xf32>
  %sb = xtensor.broadcast %s : tensor<50x4x1xf32> -> tensor<50x4x128xf32>
  %q = xtensor.div %xb, %sb : tensor<50x4x128xf32>
  %q8 = xtensor.cast %q : tensor<50x4x128xf32> -> tensor<50x4x128xf8E4M3FN>
  return %q8, %s : tensor<50x4x128xf8E4M3FN>, tensor<50x4x1xf32>
}
