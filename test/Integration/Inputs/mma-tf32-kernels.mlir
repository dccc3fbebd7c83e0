// One warp computes D = A B (A 16x16, B 16x8, f32) with two tf32
// xkernel.mma (m16n8k8, K = 0-7 and 8-15): A read by ldmatrix (four 8 x 4
// f32 matrices), B as PyTorch's weight [n][k] by ldmatrix (two), or stored
// [k][n] element by element (ldmatrix cannot transpose 32-bit elements).
// The operands go through xkernel.round_tf32 (the values are small integers,
// exact in tf32). test/Integration/tensor-cores.test runs them.
xkernel.func @mma_tf32_nk(%a: !xkernel.ptr<f32, global> {xkernel.readonly},
                   %bg: !xkernel.ptr<f32, global> {xkernel.readonly},
                   %d: !xkernel.ptr<f32, global>)
    attributes {max_threads = 32 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %l = xkernel.thread_id x
  %sa = xkernel.shared 256 : !xkernel.ptr<f32, shared>
  %sb = xkernel.shared 128 : !xkernel.ptr<f32, shared>
  %a0 = arith.muli %l, %c8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %o = arith.addi %a0, %i : index
    %v = xkernel.load %a[%o] : !xkernel.ptr<f32, global> -> f32
    xkernel.store %v, %sa[%o] : f32, !xkernel.ptr<f32, shared>
  }
  %b0 = arith.muli %l, %c4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %o = arith.addi %b0, %i : index
    %v = xkernel.load %bg[%o] : !xkernel.ptr<f32, global> -> f32
    xkernel.store %v, %sb[%o] : f32, !xkernel.ptr<f32, shared>
  }
  xkernel.barrier
  // A [m][k]: lane l gives row (l % 8) + 8 ((l / 8) % 2), column 4 (l / 16)
  // (+ 8 for the second K step).
  %ar = arith.remui %l, %c8 : index
  %aq0 = arith.divui %l, %c8 : index
  %aq = arith.remui %aq0, %c2 : index
  %aq8 = arith.muli %aq, %c8 : index
  %arow = arith.addi %ar, %aq8 : index
  %ac0 = arith.divui %l, %c16 : index
  %acol = arith.muli %ac0, %c4 : index
  %arow16 = arith.muli %arow, %c16 : index
  %aoff = arith.addi %arow16, %acol : index
  // W [n][k]: lane l gives row n = l % 8, column 4 ((l / 8) % 2).
  %bq4 = arith.muli %aq, %c4 : index
  %bn16 = arith.muli %ar, %c16 : index
  %boff = arith.addi %bn16, %bq4 : index
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %acc = scf.for %s = %c0 to %c2 step %c1 iter_args(%c = %zero) -> (vector<4xf32>) {
    %k0 = arith.muli %s, %c8 : index
    %ao = arith.addi %aoff, %k0 : index
    %bo = arith.addi %boff, %k0 : index
    %araw = xkernel.ldmatrix %sa[%ao] : !xkernel.ptr<f32, shared> -> vector<4xf32>
    %braw = xkernel.ldmatrix %sb[%bo] : !xkernel.ptr<f32, shared> -> vector<2xf32>
    %x0 = vector.extract %araw[0] : f32 from vector<4xf32>
    %x1 = vector.extract %araw[1] : f32 from vector<4xf32>
    %x2 = vector.extract %araw[2] : f32 from vector<4xf32>
    %x3 = vector.extract %araw[3] : f32 from vector<4xf32>
    %y0 = vector.extract %braw[0] : f32 from vector<2xf32>
    %y1 = vector.extract %braw[1] : f32 from vector<2xf32>
    %r0 = xkernel.round_tf32 %x0
    %r1 = xkernel.round_tf32 %x1
    %r2 = xkernel.round_tf32 %x2
    %r3 = xkernel.round_tf32 %x3
    %q0 = xkernel.round_tf32 %y0
    %q1 = xkernel.round_tf32 %y1
    %af = vector.from_elements %r0, %r1, %r2, %r3 : vector<4xf32>
    %bf = vector.from_elements %q0, %q1 : vector<2xf32>
    %n = xkernel.mma %af, %bf, %c : vector<4xf32>, vector<2xf32> -> vector<4xf32>
    scf.yield %n : vector<4xf32>
  }
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
xkernel.program @mma_tf32_nk_program(%a: memref<256xf32>, %b: memref<128xf32>) -> (%d: memref<128xf32>) {
  xkernel.launch @mma_tf32_nk(%a, %b, %d) grid [1, 1, 1] block [32, 1, 1] shared 0 : memref<256xf32>, memref<128xf32>, memref<128xf32>
}

xkernel.func @mma_tf32_kn(%a: !xkernel.ptr<f32, global> {xkernel.readonly},
                   %bg: !xkernel.ptr<f32, global> {xkernel.readonly},
                   %d: !xkernel.ptr<f32, global>)
    attributes {max_threads = 32 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %l = xkernel.thread_id x
  %sa = xkernel.shared 256 : !xkernel.ptr<f32, shared>
  %sb = xkernel.shared 128 : !xkernel.ptr<f32, shared>
  %a0 = arith.muli %l, %c8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %o = arith.addi %a0, %i : index
    %v = xkernel.load %a[%o] : !xkernel.ptr<f32, global> -> f32
    xkernel.store %v, %sa[%o] : f32, !xkernel.ptr<f32, shared>
  }
  %b0 = arith.muli %l, %c4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %o = arith.addi %b0, %i : index
    %v = xkernel.load %bg[%o] : !xkernel.ptr<f32, global> -> f32
    xkernel.store %v, %sb[%o] : f32, !xkernel.ptr<f32, shared>
  }
  xkernel.barrier
  %ar = arith.remui %l, %c8 : index
  %aq0 = arith.divui %l, %c8 : index
  %aq = arith.remui %aq0, %c2 : index
  %aq8 = arith.muli %aq, %c8 : index
  %arow = arith.addi %ar, %aq8 : index
  %ac0 = arith.divui %l, %c16 : index
  %acol = arith.muli %ac0, %c4 : index
  %arow16 = arith.muli %arow, %c16 : index
  %aoff = arith.addi %arow16, %acol : index
  // B [k][n]: b0 = B[t][g], b1 = B[t + 4][g] (+ 8 rows for the second step).
  %g = arith.divui %l, %c4 : index
  %tt = arith.remui %l, %c4 : index
  %t8 = arith.muli %tt, %c8 : index
  %boff0 = arith.addi %t8, %g : index
  %c32 = arith.constant 32 : index
  %boff1 = arith.addi %boff0, %c32 : index
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %acc = scf.for %s = %c0 to %c2 step %c1 iter_args(%c = %zero) -> (vector<4xf32>) {
    %k0 = arith.muli %s, %c8 : index
    %ao = arith.addi %aoff, %k0 : index
    %k64 = arith.muli %s, %c64 : index
    %bo0 = arith.addi %boff0, %k64 : index
    %bo1 = arith.addi %boff1, %k64 : index
    %araw = xkernel.ldmatrix %sa[%ao] : !xkernel.ptr<f32, shared> -> vector<4xf32>
    %y0 = xkernel.load %sb[%bo0] : !xkernel.ptr<f32, shared> -> f32
    %y1 = xkernel.load %sb[%bo1] : !xkernel.ptr<f32, shared> -> f32
    %x0 = vector.extract %araw[0] : f32 from vector<4xf32>
    %x1 = vector.extract %araw[1] : f32 from vector<4xf32>
    %x2 = vector.extract %araw[2] : f32 from vector<4xf32>
    %x3 = vector.extract %araw[3] : f32 from vector<4xf32>
    %r0 = xkernel.round_tf32 %x0
    %r1 = xkernel.round_tf32 %x1
    %r2 = xkernel.round_tf32 %x2
    %r3 = xkernel.round_tf32 %x3
    %q0 = xkernel.round_tf32 %y0
    %q1 = xkernel.round_tf32 %y1
    %af = vector.from_elements %r0, %r1, %r2, %r3 : vector<4xf32>
    %bf = vector.from_elements %q0, %q1 : vector<2xf32>
    %n = xkernel.mma %af, %bf, %c : vector<4xf32>, vector<2xf32> -> vector<4xf32>
    scf.yield %n : vector<4xf32>
  }
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
xkernel.program @mma_tf32_kn_program(%a: memref<256xf32>, %b: memref<128xf32>) -> (%d: memref<128xf32>) {
  xkernel.launch @mma_tf32_kn(%a, %b, %d) grid [1, 1, 1] block [32, 1, 1] shared 0 : memref<256xf32>, memref<128xf32>, memref<128xf32>
}
