// RUN: xtile-opt --lower-to-tile="target=sm_90" %s | FileCheck %s

// A Llama-3-8B decode step: one query per head against 32768 cached keys,
// 32 query heads over 8 K/V heads (repeat_kv: broadcast, reshape), causal,
// bf16. The four query heads of a group are the rows of one program (16
// rows on tensor cores, 12 of them masked), which reads its K/V head once;
// eight groups cannot fill 132 SMs, so each group's keys split 16 ways
// (flash-decoding) and a second kernel combines the partials.

// CHECK-LABEL: xtile.kernel @llama_decode_{{[a-z0-9_]*}}_partial(
// CHECK-SAME:    -> ({{.*}}: memref<128x16xf32>, {{.*}}: memref<128x16xf32>, {{.*}}: memref<128x16x128xf32>)
// CHECK-SAME:    grid = array<i64: 128>
// CHECK-SAME:    block_m = 16, block_n = 128, block_k = 32, stages = {{[12]}}, warps = {{[0-9]+}}, instruction = mma_sync{{.*}}, ways = 16
// The group's first head (program / 16 mod 8, times 4) and its K/V head.
// CHECK:         %[[PID:.*]] = xtile.program_id 0
// CHECK:         %[[ROWS:.*]] = arith.divui %[[PID]], %c16
// CHECK:         %[[GROUP:.*]] = arith.remui %[[ROWS]], %c8
// CHECK:         %[[HEAD0:.*]] = arith.muli %[[GROUP]], %c4
// Each row of the query tile is a head of the group (rows past 4 masked).
// CHECK:         xtile.load %{{.*}} mask %{{.*}} : memref<32x1x128xbf16>[tensor<16x128xindex>, index, tensor<16x128xindex>] -> tensor<16x128xbf16>
// CHECK:         scf.for
// K and V tiles, in bf16: one K/V head for the whole program.
// CHECK:           %[[KV:.*]] = affine.apply #{{.*}}()[%[[HEAD0]]]
// CHECK:           xtile.load %{{.*}}[%[[KV]], %{{.*}}, %{{.*}}] : memref<8x32768x128xbf16>[index, tensor<128x32xindex>, tensor<128x32xindex>] -> tensor<128x32xbf16>
// CHECK:           xtile.load %{{.*}}[%[[KV]], %{{.*}}, %{{.*}}] : memref<8x32768x128xbf16>[index, tensor<32x128xindex>, tensor<32x128xindex>] -> tensor<32x128xbf16>
// CHECK-LABEL: xtile.kernel @llama_decode_{{[a-z0-9_]*}}(
// CHECK-SAME:    grid = array<i64: 8>
// CHECK:         xtile.store %{{.*}} mask %{{.*}} : memref<32x1x128xbf16>[tensor<16x128xindex>, index, tensor<16x128xindex>], tensor<16x128xbf16>

func.func @llama_decode(%q: tensor<32x1x128xbf16>, %k: tensor<8x32768x128xbf16>, %v: tensor<8x32768x128xbf16>) -> tensor<32x1x128xbf16> {
  %k4 = xtensor.reshape %k : tensor<8x32768x128xbf16> -> tensor<8x1x32768x128xbf16>
  %kb = xtensor.broadcast %k4 : tensor<8x1x32768x128xbf16> -> tensor<8x4x32768x128xbf16>
  %kr = xtensor.reshape %kb : tensor<8x4x32768x128xbf16> -> tensor<32x32768x128xbf16>
  %v4 = xtensor.reshape %v : tensor<8x32768x128xbf16> -> tensor<8x1x32768x128xbf16>
  %vb = xtensor.broadcast %v4 : tensor<8x1x32768x128xbf16> -> tensor<8x4x32768x128xbf16>
  %vr = xtensor.reshape %vb : tensor<8x4x32768x128xbf16> -> tensor<32x32768x128xbf16>
  %kt = xtensor.transpose %kr perm [0, 2, 1] : tensor<32x32768x128xbf16> -> tensor<32x128x32768xbf16>
  %s = xtensor.matmul %q, %kt : tensor<32x1x128xbf16>, tensor<32x128x32768xbf16> -> tensor<32x1x32768xbf16>
  %c = xtensor.constant dense<0.08838835> : tensor<32x1x32768xbf16>
  %ss = xtensor.mul %s, %c : tensor<32x1x32768xbf16>
  %i = xtensor.iota dim 1 : tensor<32x1x32768xi32>
  %off = xtensor.constant dense<32767> : tensor<32x1x32768xi32>
  %pos = xtensor.add %i, %off : tensor<32x1x32768xi32>
  %j = xtensor.iota dim 2 : tensor<32x1x32768xi32>
  %seen = xtensor.cmp le, %j, %pos : tensor<32x1x32768xi32>
  %ninf = xtensor.constant dense<0xFF80> : tensor<32x1x32768xbf16>
  %masked = xtensor.select %seen, %ss, %ninf : tensor<32x1x32768xbf16>
  %p = xtensor.softmax %masked dim 2 : tensor<32x1x32768xbf16>
  %o = xtensor.matmul %p, %vr : tensor<32x1x32768xbf16>, tensor<32x32768x128xbf16> -> tensor<32x1x128xbf16>
  return %o : tensor<32x1x128xbf16>
}
