// Attention over an fp8 KV cache (the Generator's kv_cache_dtype=
// torch.float8_e4m3fn): e4m3 keys and values with an f32 scale per token
// and head, dequantized to the queries' bf16 (x.to(f32) * scale, rounded to
// bf16, as eager does) inside the attention kernel: one launch, the cache
// read once in its fp8 bytes. Grouped-query heads (8 query heads on 2 KV
// heads), ragged key counts, a causal prefill whose queries are the last
// of the cache's positions, and a decode step.
// test/Integration/fp8-kv-attention.test runs them under emulation.

// A prefill: 77 new queries at positions 23..99 of a 100-key cache.
func.func @prefill(%q: tensor<8x77x64xbf16>, %k8: tensor<2x100x64xf8E4M3FN>,
                   %ks: tensor<2x100x1xf32>, %v8: tensor<2x100x64xf8E4M3FN>,
                   %vs: tensor<2x100x1xf32>) -> tensor<8x77x64xbf16> {
  %kf = xtensor.cast %k8 : tensor<2x100x64xf8E4M3FN> -> tensor<2x100x64xf32>
  %ksb = xtensor.broadcast %ks : tensor<2x100x1xf32> -> tensor<2x100x64xf32>
  %kw = xtensor.mul %kf, %ksb : tensor<2x100x64xf32>
  %k = xtensor.cast %kw : tensor<2x100x64xf32> -> tensor<2x100x64xbf16>
  %vf = xtensor.cast %v8 : tensor<2x100x64xf8E4M3FN> -> tensor<2x100x64xf32>
  %vsb = xtensor.broadcast %vs : tensor<2x100x1xf32> -> tensor<2x100x64xf32>
  %vw = xtensor.mul %vf, %vsb : tensor<2x100x64xf32>
  %v = xtensor.cast %vw : tensor<2x100x64xf32> -> tensor<2x100x64xbf16>
  %k4 = xtensor.reshape %k : tensor<2x100x64xbf16> -> tensor<2x1x100x64xbf16>
  %kb = xtensor.broadcast %k4 : tensor<2x1x100x64xbf16> -> tensor<2x4x100x64xbf16>
  %kr = xtensor.reshape %kb : tensor<2x4x100x64xbf16> -> tensor<8x100x64xbf16>
  %v4 = xtensor.reshape %v : tensor<2x100x64xbf16> -> tensor<2x1x100x64xbf16>
  %vb = xtensor.broadcast %v4 : tensor<2x1x100x64xbf16> -> tensor<2x4x100x64xbf16>
  %vr = xtensor.reshape %vb : tensor<2x4x100x64xbf16> -> tensor<8x100x64xbf16>
  %kt = xtensor.transpose %kr perm [0, 2, 1] : tensor<8x100x64xbf16> -> tensor<8x64x100xbf16>
  %s = xtensor.matmul %q, %kt : tensor<8x77x64xbf16>, tensor<8x64x100xbf16> -> tensor<8x77x100xbf16>
  %c = xtensor.constant dense<0.125> : tensor<8x77x100xbf16>
  %ss = xtensor.mul %s, %c : tensor<8x77x100xbf16>
  %i = xtensor.iota dim 1 : tensor<8x77x100xi32>
  %j = xtensor.iota dim 2 : tensor<8x77x100xi32>
  %off = xtensor.constant dense<23> : tensor<8x77x100xi32>
  %pos = xtensor.add %i, %off : tensor<8x77x100xi32>
  %seen = xtensor.cmp le, %j, %pos : tensor<8x77x100xi32>
  %ninf = xtensor.constant dense<0xFF80> : tensor<8x77x100xbf16>
  %masked = xtensor.select %seen, %ss, %ninf : tensor<8x77x100xbf16>
  %p = xtensor.softmax %masked dim 2 : tensor<8x77x100xbf16>
  %o = xtensor.matmul %p, %vr : tensor<8x77x100xbf16>, tensor<8x100x64xbf16> -> tensor<8x77x64xbf16>
  return %o : tensor<8x77x64xbf16>
}

// A decode step: one query per head against 300 cached keys.
func.func @decode(%q: tensor<8x1x64xbf16>, %k8: tensor<2x300x64xf8E4M3FN>,
                  %ks: tensor<2x300x1xf32>, %v8: tensor<2x300x64xf8E4M3FN>,
                  %vs: tensor<2x300x1xf32>) -> tensor<8x1x64xbf16> {
  %kf = xtensor.cast %k8 : tensor<2x300x64xf8E4M3FN> -> tensor<2x300x64xf32>
  %ksb = xtensor.broadcast %ks : tensor<2x300x1xf32> -> tensor<2x300x64xf32>
  %kw = xtensor.mul %kf, %ksb : tensor<2x300x64xf32>
  %k = xtensor.cast %kw : tensor<2x300x64xf32> -> tensor<2x300x64xbf16>
  %vf = xtensor.cast %v8 : tensor<2x300x64xf8E4M3FN> -> tensor<2x300x64xf32>
  %vsb = xtensor.broadcast %vs : tensor<2x300x1xf32> -> tensor<2x300x64xf32>
  %vw = xtensor.mul %vf, %vsb : tensor<2x300x64xf32>
  %v = xtensor.cast %vw : tensor<2x300x64xf32> -> tensor<2x300x64xbf16>
  %k4 = xtensor.reshape %k : tensor<2x300x64xbf16> -> tensor<2x1x300x64xbf16>
  %kb = xtensor.broadcast %k4 : tensor<2x1x300x64xbf16> -> tensor<2x4x300x64xbf16>
  %kr = xtensor.reshape %kb : tensor<2x4x300x64xbf16> -> tensor<8x300x64xbf16>
  %v4 = xtensor.reshape %v : tensor<2x300x64xbf16> -> tensor<2x1x300x64xbf16>
  %vb = xtensor.broadcast %v4 : tensor<2x1x300x64xbf16> -> tensor<2x4x300x64xbf16>
  %vr = xtensor.reshape %vb : tensor<2x4x300x64xbf16> -> tensor<8x300x64xbf16>
  %kt = xtensor.transpose %kr perm [0, 2, 1] : tensor<8x300x64xbf16> -> tensor<8x64x300xbf16>
  %s = xtensor.matmul %q, %kt : tensor<8x1x64xbf16>, tensor<8x64x300xbf16> -> tensor<8x1x300xbf16>
  %c = xtensor.constant dense<0.125> : tensor<8x1x300xbf16>
  %ss = xtensor.mul %s, %c : tensor<8x1x300xbf16>
  %p = xtensor.softmax %ss dim 2 : tensor<8x1x300xbf16>
  %o = xtensor.matmul %p, %vr : tensor<8x1x300xbf16>, tensor<8x300x64xbf16> -> tensor<8x1x64xbf16>
  return %o : tensor<8x1x64xbf16>
}
