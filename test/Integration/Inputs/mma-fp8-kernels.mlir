// One warp computes D = A B (A 16x32, B 32x8 given as the weight W [8][32])
// with xkernel.ldmatrix and xkernel.mma on fp8 operands (m16n8k32, e4m3 and
// e5m2); test/Integration/tensor-cores.test runs them (run-mma.cpp, K = 32).
xkernel.func @mma_e4m3(%a: !xkernel.ptr<f32, global> {xkernel.readonly},
                   %bg: !xkernel.ptr<f32, global> {xkernel.readonly},
                   %d: !xkernel.ptr<f32, global>)
    attributes {max_threads = 32 : i64, arch = "sm_90"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %l = xkernel.thread_id x
  %sa = xkernel.shared 512 : !xkernel.ptr<f8E4M3FN, shared>
  %sb = xkernel.shared 256 : !xkernel.ptr<f8E4M3FN, shared>
  // Stage A [16][32] (16 elements per lane) and W [8][32] (8) as e4m3.
  %a0 = arith.muli %l, %c16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %o = arith.addi %a0, %i : index
    %v = xkernel.load %a[%o] : !xkernel.ptr<f32, global> -> f32
    %h = arith.truncf %v : f32 to f8E4M3FN
    xkernel.store %h, %sa[%o] : f8E4M3FN, !xkernel.ptr<f8E4M3FN, shared>
  }
  %b0 = arith.muli %l, %c8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %o = arith.addi %b0, %i : index
    %v = xkernel.load %bg[%o] : !xkernel.ptr<f32, global> -> f32
    %h = arith.truncf %v : f32 to f8E4M3FN
    xkernel.store %h, %sb[%o] : f8E4M3FN, !xkernel.ptr<f8E4M3FN, shared>
  }
  xkernel.barrier
  // A [m][k]: lane l gives row (l % 8) + 8 ((l / 8) % 2), byte column
  // 16 (l / 16): 16 fp8 per 16-byte ldmatrix row.
  %ar = arith.remui %l, %c8 : index
  %aq0 = arith.divui %l, %c8 : index
  %aq = arith.remui %aq0, %c2 : index
  %aq8 = arith.muli %aq, %c8 : index
  %arow = arith.addi %ar, %aq8 : index
  %ac0 = arith.divui %l, %c16 : index
  %acol = arith.muli %ac0, %c16 : index
  %arow32 = arith.muli %arow, %c32 : index
  %aoff = arith.addi %arow32, %acol : index
  %afrag = xkernel.ldmatrix %sa[%aoff] : !xkernel.ptr<f8E4M3FN, shared> -> vector<16xf8E4M3FN>
  // W [n][k]: row n = l % 8 of matrix q = (l / 8) % 2 (k in [16q, 16q+16)).
  %bn = arith.remui %l, %c8 : index
  %bq0 = arith.divui %l, %c8 : index
  %bq = arith.remui %bq0, %c2 : index
  %bn32 = arith.muli %bn, %c32 : index
  %bq16 = arith.muli %bq, %c16 : index
  %boff = arith.addi %bn32, %bq16 : index
  %b = xkernel.ldmatrix %sb[%boff] : !xkernel.ptr<f8E4M3FN, shared> -> vector<8xf8E4M3FN>
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %acc = xkernel.mma %afrag, %b, %zero : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf32>
  // D: c[i] is row g + 8 (i / 2), column 2 t + i % 2.
  %g = arith.divui %l, %c4 : index
  %tt = arith.remui %l, %c4 : index
  %col = arith.muli %tt, %c2 : index
  %g8 = arith.muli %g, %c8 : index
  %top = arith.addi %g8, %col : index
  %bottom = arith.addi %top, %c64 : index
  %d0 = vector.extract %acc[0] : f32 from vector<4xf32>
  %d1 = vector.extract %acc[1] : f32 from vector<4xf32>
  %d2 = vector.extract %acc[2] : f32 from vector<4xf32>
  %d3 = vector.extract %acc[3] : f32 from vector<4xf32>
  %top1 = arith.addi %top, %c1 : index
  %bottom1 = arith.addi %bottom, %c1 : index
  xkernel.store %d0, %d[%top] : f32, !xkernel.ptr<f32, global>
  xkernel.store %d1, %d[%top1] : f32, !xkernel.ptr<f32, global>
  xkernel.store %d2, %d[%bottom] : f32, !xkernel.ptr<f32, global>
  xkernel.store %d3, %d[%bottom1] : f32, !xkernel.ptr<f32, global>
  xkernel.return
}

xkernel.program @mma_e4m3_program(%a: memref<512xf32>, %b: memref<256xf32>) -> (%d: memref<128xf32>) {
  xkernel.launch @mma_e4m3(%a, %b, %d) grid [1, 1, 1] block [32, 1, 1] shared 0 : memref<512xf32>, memref<256xf32>, memref<128xf32>
}

xkernel.func @mma_e5m2(%a: !xkernel.ptr<f32, global> {xkernel.readonly},
                   %bg: !xkernel.ptr<f32, global> {xkernel.readonly},
                   %d: !xkernel.ptr<f32, global>)
    attributes {max_threads = 32 : i64, arch = "sm_90"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %l = xkernel.thread_id x
  %sa = xkernel.shared 512 : !xkernel.ptr<f8E5M2, shared>
  %sb = xkernel.shared 256 : !xkernel.ptr<f8E5M2, shared>
  // Stage A [16][32] (16 elements per lane) and W [8][32] (8) as e5m2.
  %a0 = arith.muli %l, %c16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %o = arith.addi %a0, %i : index
    %v = xkernel.load %a[%o] : !xkernel.ptr<f32, global> -> f32
    %h = arith.truncf %v : f32 to f8E5M2
    xkernel.store %h, %sa[%o] : f8E5M2, !xkernel.ptr<f8E5M2, shared>
  }
  %b0 = arith.muli %l, %c8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %o = arith.addi %b0, %i : index
    %v = xkernel.load %bg[%o] : !xkernel.ptr<f32, global> -> f32
    %h = arith.truncf %v : f32 to f8E5M2
    xkernel.store %h, %sb[%o] : f8E5M2, !xkernel.ptr<f8E5M2, shared>
  }
  xkernel.barrier
  // A [m][k]: lane l gives row (l % 8) + 8 ((l / 8) % 2), byte column
  // 16 (l / 16): 16 fp8 per 16-byte ldmatrix row.
  %ar = arith.remui %l, %c8 : index
  %aq0 = arith.divui %l, %c8 : index
  %aq = arith.remui %aq0, %c2 : index
  %aq8 = arith.muli %aq, %c8 : index
  %arow = arith.addi %ar, %aq8 : index
  %ac0 = arith.divui %l, %c16 : index
  %acol = arith.muli %ac0, %c16 : index
  %arow32 = arith.muli %arow, %c32 : index
  %aoff = arith.addi %arow32, %acol : index
  %afrag = xkernel.ldmatrix %sa[%aoff] : !xkernel.ptr<f8E5M2, shared> -> vector<16xf8E5M2>
  // W [n][k]: row n = l % 8 of matrix q = (l / 8) % 2 (k in [16q, 16q+16)).
  %bn = arith.remui %l, %c8 : index
  %bq0 = arith.divui %l, %c8 : index
  %bq = arith.remui %bq0, %c2 : index
  %bn32 = arith.muli %bn, %c32 : index
  %bq16 = arith.muli %bq, %c16 : index
  %boff = arith.addi %bn32, %bq16 : index
  %b = xkernel.ldmatrix %sb[%boff] : !xkernel.ptr<f8E5M2, shared> -> vector<8xf8E5M2>
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %acc = xkernel.mma %afrag, %b, %zero : vector<16xf8E5M2>, vector<8xf8E5M2> -> vector<4xf32>
  // D: c[i] is row g + 8 (i / 2), column 2 t + i % 2.
  %g = arith.divui %l, %c4 : index
  %tt = arith.remui %l, %c4 : index
  %col = arith.muli %tt, %c2 : index
  %g8 = arith.muli %g, %c8 : index
  %top = arith.addi %g8, %col : index
  %bottom = arith.addi %top, %c64 : index
  %d0 = vector.extract %acc[0] : f32 from vector<4xf32>
  %d1 = vector.extract %acc[1] : f32 from vector<4xf32>
  %d2 = vector.extract %acc[2] : f32 from vector<4xf32>
  %d3 = vector.extract %acc[3] : f32 from vector<4xf32>
  %top1 = arith.addi %top, %c1 : index
  %bottom1 = arith.addi %bottom, %c1 : index
  xkernel.store %d0, %d[%top] : f32, !xkernel.ptr<f32, global>
  xkernel.store %d1, %d[%top1] : f32, !xkernel.ptr<f32, global>
  xkernel.store %d2, %d[%bottom] : f32, !xkernel.ptr<f32, global>
  xkernel.store %d3, %d[%bottom1] : f32, !xkernel.ptr<f32, global>
  xkernel.return
}

xkernel.program @mma_e5m2_program(%a: memref<512xf32>, %b: memref<256xf32>) -> (%d: memref<128xf32>) {
  xkernel.launch @mma_e5m2(%a, %b, %d) grid [1, 1, 1] block [32, 1, 1] shared 0 : memref<512xf32>, memref<256xf32>, memref<128xf32>
}
