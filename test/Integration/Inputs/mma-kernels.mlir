// One warp computes D = A B (A 16x16, B 16x8) with xkernel.ldmatrix and
// xkernel.mma, in bf16 and f16, with B stored [k][n] (loaded transposed)
// or as PyTorch's weight [n][k]; test/Integration/tensor-cores.test runs them.
xkernel.func @mma_bf16_kn(%a: !xkernel.ptr<f32, global> {xkernel.readonly},
                   %bg: !xkernel.ptr<f32, global> {xkernel.readonly},
                   %d: !xkernel.ptr<f32, global>)
    attributes {max_threads = 32 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %l = xkernel.thread_id x
  %sa = xkernel.shared 256 : !xkernel.ptr<bf16, shared>
  %sb = xkernel.shared 128 : !xkernel.ptr<bf16, shared>
  // Stage A (8 elements per lane) and B (4) as bf16.
  %a0 = arith.muli %l, %c8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %o = arith.addi %a0, %i : index
    %v = xkernel.load %a[%o] : !xkernel.ptr<f32, global> -> f32
    %h = arith.truncf %v : f32 to bf16
    xkernel.store %h, %sa[%o] : bf16, !xkernel.ptr<bf16, shared>
  }
  %b0 = arith.muli %l, %c4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %o = arith.addi %b0, %i : index
    %v = xkernel.load %bg[%o] : !xkernel.ptr<f32, global> -> f32
    %h = arith.truncf %v : f32 to bf16
    xkernel.store %h, %sb[%o] : bf16, !xkernel.ptr<bf16, shared>
  }
  xkernel.barrier
  // A [m][k]: lane l gives row (l % 8) + 8 ((l / 8) % 2), column 8 (l / 16).
  %ar = arith.remui %l, %c8 : index
  %aq0 = arith.divui %l, %c8 : index
  %aq = arith.remui %aq0, %c2 : index
  %aq8 = arith.muli %aq, %c8 : index
  %arow = arith.addi %ar, %aq8 : index
  %ac0 = arith.divui %l, %c16 : index
  %acol = arith.muli %ac0, %c8 : index
  %arow16 = arith.muli %arow, %c16 : index
  %aoff = arith.addi %arow16, %acol : index
  %afrag = xkernel.ldmatrix %sa[%aoff] : !xkernel.ptr<bf16, shared> -> vector<8xbf16>
    // B [k][n]: row k = l % 16 (matrix k / 8), transposed on the way.
    %bk = arith.remui %l, %c16 : index
    %boff = arith.muli %bk, %c8 : index
    %b = xkernel.ldmatrix %sb[%boff] trans : !xkernel.ptr<bf16, shared> -> vector<4xbf16>
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %acc = xkernel.mma %afrag, %b, %zero : vector<8xbf16>, vector<4xbf16> -> vector<4xf32>
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
xkernel.program @mma_bf16_kn_program(%a: memref<256xf32>, %b: memref<128xf32>) -> (%d: memref<128xf32>) {
  xkernel.launch @mma_bf16_kn(%a, %b, %d) grid [1, 1, 1] block [32, 1, 1] shared 0 : memref<256xf32>, memref<128xf32>, memref<128xf32>
}

xkernel.func @mma_bf16_nk(%a: !xkernel.ptr<f32, global> {xkernel.readonly},
                   %bg: !xkernel.ptr<f32, global> {xkernel.readonly},
                   %d: !xkernel.ptr<f32, global>)
    attributes {max_threads = 32 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %l = xkernel.thread_id x
  %sa = xkernel.shared 256 : !xkernel.ptr<bf16, shared>
  %sb = xkernel.shared 128 : !xkernel.ptr<bf16, shared>
  // Stage A (8 elements per lane) and B (4) as bf16.
  %a0 = arith.muli %l, %c8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %o = arith.addi %a0, %i : index
    %v = xkernel.load %a[%o] : !xkernel.ptr<f32, global> -> f32
    %h = arith.truncf %v : f32 to bf16
    xkernel.store %h, %sa[%o] : bf16, !xkernel.ptr<bf16, shared>
  }
  %b0 = arith.muli %l, %c4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %o = arith.addi %b0, %i : index
    %v = xkernel.load %bg[%o] : !xkernel.ptr<f32, global> -> f32
    %h = arith.truncf %v : f32 to bf16
    xkernel.store %h, %sb[%o] : bf16, !xkernel.ptr<bf16, shared>
  }
  xkernel.barrier
  // A [m][k]: lane l gives row (l % 8) + 8 ((l / 8) % 2), column 8 (l / 16).
  %ar = arith.remui %l, %c8 : index
  %aq0 = arith.divui %l, %c8 : index
  %aq = arith.remui %aq0, %c2 : index
  %aq8 = arith.muli %aq, %c8 : index
  %arow = arith.addi %ar, %aq8 : index
  %ac0 = arith.divui %l, %c16 : index
  %acol = arith.muli %ac0, %c8 : index
  %arow16 = arith.muli %arow, %c16 : index
  %aoff = arith.addi %arow16, %acol : index
  %afrag = xkernel.ldmatrix %sa[%aoff] : !xkernel.ptr<bf16, shared> -> vector<8xbf16>
    // W [n][k]: row n = l % 8 of matrix q = (l / 8) % 2 (k in [8q, 8q+8)).
    %bn = arith.remui %l, %c8 : index
    %bq0 = arith.divui %l, %c8 : index
    %bq = arith.remui %bq0, %c2 : index
    %bn16 = arith.muli %bn, %c16 : index
    %bq8 = arith.muli %bq, %c8 : index
    %boff = arith.addi %bn16, %bq8 : index
    %b = xkernel.ldmatrix %sb[%boff] : !xkernel.ptr<bf16, shared> -> vector<4xbf16>
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %acc = xkernel.mma %afrag, %b, %zero : vector<8xbf16>, vector<4xbf16> -> vector<4xf32>
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
xkernel.program @mma_bf16_nk_program(%a: memref<256xf32>, %b: memref<128xf32>) -> (%d: memref<128xf32>) {
  xkernel.launch @mma_bf16_nk(%a, %b, %d) grid [1, 1, 1] block [32, 1, 1] shared 0 : memref<256xf32>, memref<128xf32>, memref<128xf32>
}

xkernel.func @mma_f16_kn(%a: !xkernel.ptr<f32, global> {xkernel.readonly},
                   %bg: !xkernel.ptr<f32, global> {xkernel.readonly},
                   %d: !xkernel.ptr<f32, global>)
    attributes {max_threads = 32 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %l = xkernel.thread_id x
  %sa = xkernel.shared 256 : !xkernel.ptr<f16, shared>
  %sb = xkernel.shared 128 : !xkernel.ptr<f16, shared>
  // Stage A (8 elements per lane) and B (4) as f16.
  %a0 = arith.muli %l, %c8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %o = arith.addi %a0, %i : index
    %v = xkernel.load %a[%o] : !xkernel.ptr<f32, global> -> f32
    %h = arith.truncf %v : f32 to f16
    xkernel.store %h, %sa[%o] : f16, !xkernel.ptr<f16, shared>
  }
  %b0 = arith.muli %l, %c4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %o = arith.addi %b0, %i : index
    %v = xkernel.load %bg[%o] : !xkernel.ptr<f32, global> -> f32
    %h = arith.truncf %v : f32 to f16
    xkernel.store %h, %sb[%o] : f16, !xkernel.ptr<f16, shared>
  }
  xkernel.barrier
  // A [m][k]: lane l gives row (l % 8) + 8 ((l / 8) % 2), column 8 (l / 16).
  %ar = arith.remui %l, %c8 : index
  %aq0 = arith.divui %l, %c8 : index
  %aq = arith.remui %aq0, %c2 : index
  %aq8 = arith.muli %aq, %c8 : index
  %arow = arith.addi %ar, %aq8 : index
  %ac0 = arith.divui %l, %c16 : index
  %acol = arith.muli %ac0, %c8 : index
  %arow16 = arith.muli %arow, %c16 : index
  %aoff = arith.addi %arow16, %acol : index
  %afrag = xkernel.ldmatrix %sa[%aoff] : !xkernel.ptr<f16, shared> -> vector<8xf16>
    // B [k][n]: row k = l % 16 (matrix k / 8), transposed on the way.
    %bk = arith.remui %l, %c16 : index
    %boff = arith.muli %bk, %c8 : index
    %b = xkernel.ldmatrix %sb[%boff] trans : !xkernel.ptr<f16, shared> -> vector<4xf16>
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %acc = xkernel.mma %afrag, %b, %zero : vector<8xf16>, vector<4xf16> -> vector<4xf32>
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
xkernel.program @mma_f16_kn_program(%a: memref<256xf32>, %b: memref<128xf32>) -> (%d: memref<128xf32>) {
  xkernel.launch @mma_f16_kn(%a, %b, %d) grid [1, 1, 1] block [32, 1, 1] shared 0 : memref<256xf32>, memref<128xf32>, memref<128xf32>
}

xkernel.func @mma_f16_nk(%a: !xkernel.ptr<f32, global> {xkernel.readonly},
                   %bg: !xkernel.ptr<f32, global> {xkernel.readonly},
                   %d: !xkernel.ptr<f32, global>)
    attributes {max_threads = 32 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %l = xkernel.thread_id x
  %sa = xkernel.shared 256 : !xkernel.ptr<f16, shared>
  %sb = xkernel.shared 128 : !xkernel.ptr<f16, shared>
  // Stage A (8 elements per lane) and B (4) as f16.
  %a0 = arith.muli %l, %c8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %o = arith.addi %a0, %i : index
    %v = xkernel.load %a[%o] : !xkernel.ptr<f32, global> -> f32
    %h = arith.truncf %v : f32 to f16
    xkernel.store %h, %sa[%o] : f16, !xkernel.ptr<f16, shared>
  }
  %b0 = arith.muli %l, %c4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %o = arith.addi %b0, %i : index
    %v = xkernel.load %bg[%o] : !xkernel.ptr<f32, global> -> f32
    %h = arith.truncf %v : f32 to f16
    xkernel.store %h, %sb[%o] : f16, !xkernel.ptr<f16, shared>
  }
  xkernel.barrier
  // A [m][k]: lane l gives row (l % 8) + 8 ((l / 8) % 2), column 8 (l / 16).
  %ar = arith.remui %l, %c8 : index
  %aq0 = arith.divui %l, %c8 : index
  %aq = arith.remui %aq0, %c2 : index
  %aq8 = arith.muli %aq, %c8 : index
  %arow = arith.addi %ar, %aq8 : index
  %ac0 = arith.divui %l, %c16 : index
  %acol = arith.muli %ac0, %c8 : index
  %arow16 = arith.muli %arow, %c16 : index
  %aoff = arith.addi %arow16, %acol : index
  %afrag = xkernel.ldmatrix %sa[%aoff] : !xkernel.ptr<f16, shared> -> vector<8xf16>
    // W [n][k]: row n = l % 8 of matrix q = (l / 8) % 2 (k in [8q, 8q+8)).
    %bn = arith.remui %l, %c8 : index
    %bq0 = arith.divui %l, %c8 : index
    %bq = arith.remui %bq0, %c2 : index
    %bn16 = arith.muli %bn, %c16 : index
    %bq8 = arith.muli %bq, %c8 : index
    %boff = arith.addi %bn16, %bq8 : index
    %b = xkernel.ldmatrix %sb[%boff] : !xkernel.ptr<f16, shared> -> vector<4xf16>
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %acc = xkernel.mma %afrag, %b, %zero : vector<8xf16>, vector<4xf16> -> vector<4xf32>
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
xkernel.program @mma_f16_nk_program(%a: memref<256xf32>, %b: memref<128xf32>) -> (%d: memref<128xf32>) {
  xkernel.launch @mma_f16_nk(%a, %b, %d) grid [1, 1, 1] block [32, 1, 1] shared 0 : memref<256xf32>, memref<128xf32>, memref<128xf32>
}
