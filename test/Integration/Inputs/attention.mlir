// Attention graphs that become one kernel (an online fold over the keys),
// at ragged sizes: keys not a multiple of the key block, head dimensions
// that are not powers of two, causal and padding masks, grouped-query
// attention (ratios 1, 4 and 8), 16-bit inputs (bf16, f16), a sliding
// window, decode steps against up to 32768 keys; and log-softmax rows and a
// cross-entropy as the second user of the online fold. 16-bit graphs run
// both dots on tensor cores (mma.sync).
// test/Integration/attention.test runs them under emulation.

// Keys (100) past one block and ragged; head dimension 80 of a 128 tile.
func.func @ragged(%q: tensor<3x37x80xf32>, %k: tensor<3x100x80xf32>,
                  %v: tensor<3x100x80xf32>) -> tensor<3x37x80xf32> {
  %kt = xtensor.transpose %k perm [0, 2, 1] : tensor<3x100x80xf32> -> tensor<3x80x100xf32>
  %s = xtensor.matmul %q, %kt : tensor<3x37x80xf32>, tensor<3x80x100xf32> -> tensor<3x37x100xf32>
  %c = xtensor.constant dense<0.1118034> : tensor<3x37x100xf32>
  %ss = xtensor.mul %s, %c : tensor<3x37x100xf32>
  %p = xtensor.softmax %ss dim 2 : tensor<3x37x100xf32>
  %o = xtensor.matmul %p, %v : tensor<3x37x100xf32>, tensor<3x100x80xf32> -> tensor<3x37x80xf32>
  return %o : tensor<3x37x80xf32>
}

// Causal: key j is seen by query i when j <= i (an iota comparison).
func.func @causal(%q: tensor<2x70x64xf32>, %k: tensor<2x70x64xf32>,
                  %v: tensor<2x70x64xf32>) -> tensor<2x70x64xf32> {
  %kt = xtensor.transpose %k perm [0, 2, 1] : tensor<2x70x64xf32> -> tensor<2x64x70xf32>
  %s = xtensor.matmul %q, %kt : tensor<2x70x64xf32>, tensor<2x64x70xf32> -> tensor<2x70x70xf32>
  %c = xtensor.constant dense<0.125> : tensor<2x70x70xf32>
  %ss = xtensor.mul %s, %c : tensor<2x70x70xf32>
  %i = xtensor.iota dim 1 : tensor<2x70x70xi32>
  %j = xtensor.iota dim 2 : tensor<2x70x70xi32>
  %seen = xtensor.cmp le, %j, %i : tensor<2x70x70xi32>
  %ninf = xtensor.constant dense<0xFF800000> : tensor<2x70x70xf32>
  %masked = xtensor.select %seen, %ss, %ninf : tensor<2x70x70xf32>
  %p = xtensor.softmax %masked dim 2 : tensor<2x70x70xf32>
  %o = xtensor.matmul %p, %v : tensor<2x70x70xf32>, tensor<2x70x64xf32> -> tensor<2x70x64xf32>
  return %o : tensor<2x70x64xf32>
}

// An additive padding mask per sequence, broadcast over the queries.
func.func @padding(%q: tensor<2x33x96xf32>, %k: tensor<2x65x96xf32>,
                   %v: tensor<2x65x96xf32>, %mask: tensor<2x1x65xf32>) -> tensor<2x33x96xf32> {
  %kt = xtensor.transpose %k perm [0, 2, 1] : tensor<2x65x96xf32> -> tensor<2x96x65xf32>
  %s = xtensor.matmul %q, %kt : tensor<2x33x96xf32>, tensor<2x96x65xf32> -> tensor<2x33x65xf32>
  %mb = xtensor.broadcast %mask : tensor<2x1x65xf32> -> tensor<2x33x65xf32>
  %sm = xtensor.add %s, %mb : tensor<2x33x65xf32>
  %p = xtensor.softmax %sm dim 2 : tensor<2x33x65xf32>
  %o = xtensor.matmul %p, %v : tensor<2x33x65xf32>, tensor<2x65x96xf32> -> tensor<2x33x96xf32>
  return %o : tensor<2x33x96xf32>
}

// Grouped-query attention: 8 query heads share 2 key/value heads (HF's
// repeat_kv: broadcast, then reshape).
func.func @gqa(%q: tensor<8x21x64xf32>, %k: tensor<2x90x64xf32>,
               %v: tensor<2x90x64xf32>) -> tensor<8x21x64xf32> {
  %k4 = xtensor.reshape %k : tensor<2x90x64xf32> -> tensor<2x1x90x64xf32>
  %kb = xtensor.broadcast %k4 : tensor<2x1x90x64xf32> -> tensor<2x4x90x64xf32>
  %kr = xtensor.reshape %kb : tensor<2x4x90x64xf32> -> tensor<8x90x64xf32>
  %v4 = xtensor.reshape %v : tensor<2x90x64xf32> -> tensor<2x1x90x64xf32>
  %vb = xtensor.broadcast %v4 : tensor<2x1x90x64xf32> -> tensor<2x4x90x64xf32>
  %vr = xtensor.reshape %vb : tensor<2x4x90x64xf32> -> tensor<8x90x64xf32>
  %kt = xtensor.transpose %kr perm [0, 2, 1] : tensor<8x90x64xf32> -> tensor<8x64x90xf32>
  %s = xtensor.matmul %q, %kt : tensor<8x21x64xf32>, tensor<8x64x90xf32> -> tensor<8x21x90xf32>
  %c = xtensor.constant dense<0.125> : tensor<8x21x90xf32>
  %ss = xtensor.mul %s, %c : tensor<8x21x90xf32>
  %p = xtensor.softmax %ss dim 2 : tensor<8x21x90xf32>
  %o = xtensor.matmul %p, %vr : tensor<8x21x90xf32>, tensor<8x90x64xf32> -> tensor<8x21x64xf32>
  return %o : tensor<8x21x64xf32>
}

// Head dimension 256, one query against 300 keys (decode).
func.func @decode(%q: tensor<4x1x256xf32>, %k: tensor<4x300x256xf32>,
                  %v: tensor<4x300x256xf32>) -> tensor<4x1x256xf32> {
  %kt = xtensor.transpose %k perm [0, 2, 1] : tensor<4x300x256xf32> -> tensor<4x256x300xf32>
  %s = xtensor.matmul %q, %kt : tensor<4x1x256xf32>, tensor<4x256x300xf32> -> tensor<4x1x300xf32>
  %c = xtensor.constant dense<0.0625> : tensor<4x1x300xf32>
  %ss = xtensor.mul %s, %c : tensor<4x1x300xf32>
  %p = xtensor.softmax %ss dim 2 : tensor<4x1x300xf32>
  %o = xtensor.matmul %p, %v : tensor<4x1x300xf32>, tensor<4x300x256xf32> -> tensor<4x1x256xf32>
  return %o : tensor<4x1x256xf32>
}

// A decode step against a static KV cache of 4096 positions (GQA 8/2):
// query head h sees the first 613 h positions (none for head 0, every one
// for head 7), and SDPA's convention gives fully masked rows zeros. Eight
// programs cannot fill the device: the keys split over several programs
// and a second kernel combines their partials (flash-decoding).
func.func @decode_cache(%q: tensor<8x1x64xf32>, %k: tensor<2x4096x64xf32>,
                        %v: tensor<2x4096x64xf32>) -> tensor<8x1x64xf32> {
  %k4 = xtensor.reshape %k : tensor<2x4096x64xf32> -> tensor<2x1x4096x64xf32>
  %kb = xtensor.broadcast %k4 : tensor<2x1x4096x64xf32> -> tensor<2x4x4096x64xf32>
  %kr = xtensor.reshape %kb : tensor<2x4x4096x64xf32> -> tensor<8x4096x64xf32>
  %v4 = xtensor.reshape %v : tensor<2x4096x64xf32> -> tensor<2x1x4096x64xf32>
  %vb = xtensor.broadcast %v4 : tensor<2x1x4096x64xf32> -> tensor<2x4x4096x64xf32>
  %vr = xtensor.reshape %vb : tensor<2x4x4096x64xf32> -> tensor<8x4096x64xf32>
  %kt = xtensor.transpose %kr perm [0, 2, 1] : tensor<8x4096x64xf32> -> tensor<8x64x4096xf32>
  %s = xtensor.matmul %q, %kt : tensor<8x1x64xf32>, tensor<8x64x4096xf32> -> tensor<8x1x4096xf32>
  %c = xtensor.constant dense<0.125> : tensor<8x1x4096xf32>
  %ss = xtensor.mul %s, %c : tensor<8x1x4096xf32>
  %h = xtensor.iota dim 0 : tensor<8x1x4096xi32>
  %step = xtensor.constant dense<613> : tensor<8x1x4096xi32>
  %len = xtensor.mul %h, %step : tensor<8x1x4096xi32>
  %j = xtensor.iota dim 2 : tensor<8x1x4096xi32>
  %valid = xtensor.cmp lt, %j, %len : tensor<8x1x4096xi32>
  %ninf = xtensor.constant dense<0xFF800000> : tensor<8x1x4096xf32>
  %sm = xtensor.select %valid, %ss, %ninf : tensor<8x1x4096xf32>
  %p = xtensor.softmax %sm dim 2 : tensor<8x1x4096xf32>
  %o = xtensor.matmul %p, %vr : tensor<8x1x4096xf32>, tensor<8x4096x64xf32> -> tensor<8x1x64xf32>
  %mx = xtensor.reduce max %sm dims [2] keepdim : tensor<8x1x4096xf32> -> tensor<8x1x1xf32>
  %ninf1 = xtensor.constant dense<0xFF800000> : tensor<8x1x1xf32>
  %none = xtensor.cmp eq, %mx, %ninf1 : tensor<8x1x1xf32>
  %noneb = xtensor.broadcast %none : tensor<8x1x1xi1> -> tensor<8x1x64xi1>
  %zero = xtensor.constant dense<0.0> : tensor<8x1x64xf32>
  %out = xtensor.select %noneb, %zero, %o : tensor<8x1x64xf32>
  return %out : tensor<8x1x64xf32>
}

// Three query tokens (speculative decoding's verification step) at the end
// of 300 positions, causal, GQA 8/2: the four query heads of a group and
// their three tokens are the 12 rows of one program (K/V read once per
// group).
func.func @decode_gqa3(%q: tensor<8x3x64xf32>, %k: tensor<2x300x64xf32>,
                       %v: tensor<2x300x64xf32>) -> tensor<8x3x64xf32> {
  %k4 = xtensor.reshape %k : tensor<2x300x64xf32> -> tensor<2x1x300x64xf32>
  %kb = xtensor.broadcast %k4 : tensor<2x1x300x64xf32> -> tensor<2x4x300x64xf32>
  %kr = xtensor.reshape %kb : tensor<2x4x300x64xf32> -> tensor<8x300x64xf32>
  %v4 = xtensor.reshape %v : tensor<2x300x64xf32> -> tensor<2x1x300x64xf32>
  %vb = xtensor.broadcast %v4 : tensor<2x1x300x64xf32> -> tensor<2x4x300x64xf32>
  %vr = xtensor.reshape %vb : tensor<2x4x300x64xf32> -> tensor<8x300x64xf32>
  %kt = xtensor.transpose %kr perm [0, 2, 1] : tensor<8x300x64xf32> -> tensor<8x64x300xf32>
  %s = xtensor.matmul %q, %kt : tensor<8x3x64xf32>, tensor<8x64x300xf32> -> tensor<8x3x300xf32>
  %c = xtensor.constant dense<0.125> : tensor<8x3x300xf32>
  %ss = xtensor.mul %s, %c : tensor<8x3x300xf32>
  %i = xtensor.iota dim 1 : tensor<8x3x300xi32>
  %off = xtensor.constant dense<297> : tensor<8x3x300xi32>
  %pos = xtensor.add %i, %off : tensor<8x3x300xi32>
  %j = xtensor.iota dim 2 : tensor<8x3x300xi32>
  %seen = xtensor.cmp le, %j, %pos : tensor<8x3x300xi32>
  %ninf = xtensor.constant dense<0xFF800000> : tensor<8x3x300xf32>
  %m = xtensor.select %seen, %ss, %ninf : tensor<8x3x300xf32>
  %p = xtensor.softmax %m dim 2 : tensor<8x3x300xf32>
  %o = xtensor.matmul %p, %vr : tensor<8x3x300xf32>, tensor<8x300x64xf32> -> tensor<8x3x64xf32>
  return %o : tensor<8x3x64xf32>
}

// A bf16 decode step (GQA 8/2, head dimension 128) at the end of 700
// positions: tensor cores, the group's 4 heads in a 16-row tile, its keys
// split over programs.
func.func @decode_bf16(%q: tensor<8x1x128xbf16>, %k: tensor<2x700x128xbf16>,
                       %v: tensor<2x700x128xbf16>) -> tensor<8x1x128xbf16> {
  %k4 = xtensor.reshape %k : tensor<2x700x128xbf16> -> tensor<2x1x700x128xbf16>
  %kb = xtensor.broadcast %k4 : tensor<2x1x700x128xbf16> -> tensor<2x4x700x128xbf16>
  %kr = xtensor.reshape %kb : tensor<2x4x700x128xbf16> -> tensor<8x700x128xbf16>
  %v4 = xtensor.reshape %v : tensor<2x700x128xbf16> -> tensor<2x1x700x128xbf16>
  %vb = xtensor.broadcast %v4 : tensor<2x1x700x128xbf16> -> tensor<2x4x700x128xbf16>
  %vr = xtensor.reshape %vb : tensor<2x4x700x128xbf16> -> tensor<8x700x128xbf16>
  %kt = xtensor.transpose %kr perm [0, 2, 1] : tensor<8x700x128xbf16> -> tensor<8x128x700xbf16>
  %s = xtensor.matmul %q, %kt : tensor<8x1x128xbf16>, tensor<8x128x700xbf16> -> tensor<8x1x700xbf16>
  %c = xtensor.constant dense<0.08838835> : tensor<8x1x700xbf16>
  %ss = xtensor.mul %s, %c : tensor<8x1x700xbf16>
  %p = xtensor.softmax %ss dim 2 : tensor<8x1x700xbf16>
  %o = xtensor.matmul %p, %vr : tensor<8x1x700xbf16>, tensor<8x700x128xbf16> -> tensor<8x1x128xbf16>
  return %o : tensor<8x1x128xbf16>
}

// Multi-query decode (GQA ratio 8: 8 query heads over one K/V head) against
// 32768 keys: the 8 heads are one program's rows, its keys split over
// programs.
func.func @mqa_32k(%q: tensor<8x1x64xf32>, %k: tensor<1x32768x64xf32>,
                   %v: tensor<1x32768x64xf32>) -> tensor<8x1x64xf32> {
  %k4 = xtensor.reshape %k : tensor<1x32768x64xf32> -> tensor<1x1x32768x64xf32>
  %kb = xtensor.broadcast %k4 : tensor<1x1x32768x64xf32> -> tensor<1x8x32768x64xf32>
  %kr = xtensor.reshape %kb : tensor<1x8x32768x64xf32> -> tensor<8x32768x64xf32>
  %v4 = xtensor.reshape %v : tensor<1x32768x64xf32> -> tensor<1x1x32768x64xf32>
  %vb = xtensor.broadcast %v4 : tensor<1x1x32768x64xf32> -> tensor<1x8x32768x64xf32>
  %vr = xtensor.reshape %vb : tensor<1x8x32768x64xf32> -> tensor<8x32768x64xf32>
  %kt = xtensor.transpose %kr perm [0, 2, 1] : tensor<8x32768x64xf32> -> tensor<8x64x32768xf32>
  %s = xtensor.matmul %q, %kt : tensor<8x1x64xf32>, tensor<8x64x32768xf32> -> tensor<8x1x32768xf32>
  %c = xtensor.constant dense<0.125> : tensor<8x1x32768xf32>
  %ss = xtensor.mul %s, %c : tensor<8x1x32768xf32>
  %p = xtensor.softmax %ss dim 2 : tensor<8x1x32768xf32>
  %o = xtensor.matmul %p, %vr : tensor<8x1x32768xf32>, tensor<8x32768x64xf32> -> tensor<8x1x64xf32>
  return %o : tensor<8x1x64xf32>
}

// f16, head dimension 80 (a 128-column tile on tensor cores), causal.
func.func @f16_causal(%q: tensor<3x45x80xf16>, %k: tensor<3x45x80xf16>,
                      %v: tensor<3x45x80xf16>) -> tensor<3x45x80xf16> {
  %kt = xtensor.transpose %k perm [0, 2, 1] : tensor<3x45x80xf16> -> tensor<3x80x45xf16>
  %s = xtensor.matmul %q, %kt : tensor<3x45x80xf16>, tensor<3x80x45xf16> -> tensor<3x45x45xf16>
  %c = xtensor.constant dense<0.1118> : tensor<3x45x45xf16>
  %ss = xtensor.mul %s, %c : tensor<3x45x45xf16>
  %i = xtensor.iota dim 1 : tensor<3x45x45xi32>
  %j = xtensor.iota dim 2 : tensor<3x45x45xi32>
  %seen = xtensor.cmp le, %j, %i : tensor<3x45x45xi32>
  %ninf = xtensor.constant dense<0xFC00> : tensor<3x45x45xf16>
  %m = xtensor.select %seen, %ss, %ninf : tensor<3x45x45xf16>
  %p = xtensor.softmax %m dim 2 : tensor<3x45x45xf16>
  %o = xtensor.matmul %p, %v : tensor<3x45x45xf16>, tensor<3x45x80xf16> -> tensor<3x45x80xf16>
  return %o : tensor<3x45x80xf16>
}

// bf16 inputs: the softmax in f32, its probabilities rounded to bf16 for
// the second matmul, as the unfused graph does.
func.func @bf16(%q: tensor<2x40x64xbf16>, %k: tensor<2x77x64xbf16>,
                %v: tensor<2x77x64xbf16>) -> tensor<2x40x64xbf16> {
  %kt = xtensor.transpose %k perm [0, 2, 1] : tensor<2x77x64xbf16> -> tensor<2x64x77xbf16>
  %s = xtensor.matmul %q, %kt : tensor<2x40x64xbf16>, tensor<2x64x77xbf16> -> tensor<2x40x77xbf16>
  %c = xtensor.constant dense<0.125> : tensor<2x40x77xbf16>
  %ss = xtensor.mul %s, %c : tensor<2x40x77xbf16>
  %p = xtensor.softmax %ss dim 2 : tensor<2x40x77xbf16>
  %o = xtensor.matmul %p, %v : tensor<2x40x77xbf16>, tensor<2x77x64xbf16> -> tensor<2x40x64xbf16>
  return %o : tensor<2x40x64xbf16>
}

// Log-softmax over a vocabulary of 50000 (chunked rows): the maximum and
// the sum of exponentials in one pass.
func.func @log_softmax(%x: tensor<6x50000xf32>) -> tensor<6x50000xf32> {
  %y = xtensor.log_softmax %x dim 1 : tensor<6x50000xf32>
  return %y : tensor<6x50000xf32>
}

// Causal attention over a sliding window of 16 keys (Mistral's): key j is
// seen by query i when i - 16 < j <= i.
func.func @sliding(%q: tensor<2x70x64xf32>, %k: tensor<2x70x64xf32>,
                   %v: tensor<2x70x64xf32>) -> tensor<2x70x64xf32> {
  %kt = xtensor.transpose %k perm [0, 2, 1] : tensor<2x70x64xf32> -> tensor<2x64x70xf32>
  %s = xtensor.matmul %q, %kt : tensor<2x70x64xf32>, tensor<2x64x70xf32> -> tensor<2x70x70xf32>
  %c = xtensor.constant dense<0.125> : tensor<2x70x70xf32>
  %ss = xtensor.mul %s, %c : tensor<2x70x70xf32>
  %i = xtensor.iota dim 1 : tensor<2x70x70xi32>
  %j = xtensor.iota dim 2 : tensor<2x70x70xi32>
  %w = xtensor.constant dense<16> : tensor<2x70x70xi32>
  %lo = xtensor.sub %i, %w : tensor<2x70x70xi32>
  %seen = xtensor.cmp le, %j, %i : tensor<2x70x70xi32>
  %recent = xtensor.cmp gt, %j, %lo : tensor<2x70x70xi32>
  %ninf = xtensor.constant dense<0xFF800000> : tensor<2x70x70xf32>
  %m1 = xtensor.select %seen, %ss, %ninf : tensor<2x70x70xf32>
  %m2 = xtensor.select %recent, %m1, %ninf : tensor<2x70x70xf32>
  %p = xtensor.softmax %m2 dim 2 : tensor<2x70x70xf32>
  %o = xtensor.matmul %p, %v : tensor<2x70x70xf32>, tensor<2x70x64xf32> -> tensor<2x70x64xf32>
  return %o : tensor<2x70x64xf32>
}

// Causal attention on bf16: the mask's -inf is a bf16 constant, widened.
func.func @causal_bf16(%q: tensor<2x50x64xbf16>, %k: tensor<2x50x64xbf16>,
                       %v: tensor<2x50x64xbf16>) -> tensor<2x50x64xbf16> {
  %kt = xtensor.transpose %k perm [0, 2, 1] : tensor<2x50x64xbf16> -> tensor<2x64x50xbf16>
  %s = xtensor.matmul %q, %kt : tensor<2x50x64xbf16>, tensor<2x64x50xbf16> -> tensor<2x50x50xbf16>
  %c = xtensor.constant dense<0.125> : tensor<2x50x50xbf16>
  %ss = xtensor.mul %s, %c : tensor<2x50x50xbf16>
  %i = xtensor.iota dim 1 : tensor<2x50x50xi32>
  %j = xtensor.iota dim 2 : tensor<2x50x50xi32>
  %seen = xtensor.cmp le, %j, %i : tensor<2x50x50xi32>
  %ninf = xtensor.constant dense<0xFF80> : tensor<2x50x50xbf16>
  %m = xtensor.select %seen, %ss, %ninf : tensor<2x50x50xbf16>
  %p = xtensor.softmax %m dim 2 : tensor<2x50x50xbf16>
  %o = xtensor.matmul %p, %v : tensor<2x50x50xbf16>, tensor<2x50x64xbf16> -> tensor<2x50x64xbf16>
  return %o : tensor<2x50x64xbf16>
}

// Cross-entropy over a vocabulary of 50000 without the softmax: the
// log-sum-exp of each row (its maximum and sum of exponentials, one online
// fold) minus the target's logit, picked by a one-hot sum.
func.func @cross_entropy(%x: tensor<6x50000xf32>, %t: tensor<6x1xi32>) -> tensor<6x1xf32> {
  %m = xtensor.reduce max %x dims [1] keepdim : tensor<6x50000xf32> -> tensor<6x1xf32>
  %mb = xtensor.broadcast %m : tensor<6x1xf32> -> tensor<6x50000xf32>
  %d = xtensor.sub %x, %mb : tensor<6x50000xf32>
  %e = xtensor.exp %d : tensor<6x50000xf32>
  %s = xtensor.reduce sum %e dims [1] keepdim : tensor<6x50000xf32> -> tensor<6x1xf32>
  %ls = xtensor.log %s : tensor<6x1xf32>
  %lse = xtensor.add %ls, %m : tensor<6x1xf32>
  %j = xtensor.iota dim 1 : tensor<6x50000xi32>
  %tb = xtensor.broadcast %t : tensor<6x1xi32> -> tensor<6x50000xi32>
  %hit = xtensor.cmp eq, %j, %tb : tensor<6x50000xi32>
  %z = xtensor.constant dense<0.0> : tensor<6x50000xf32>
  %xs = xtensor.select %hit, %x, %z : tensor<6x50000xf32>
  %picked = xtensor.reduce sum %xs dims [1] keepdim : tensor<6x50000xf32> -> tensor<6x1xf32>
  %loss = xtensor.sub %lse, %picked : tensor<6x1xf32>
  return %loss : tensor<6x1xf32>
}
