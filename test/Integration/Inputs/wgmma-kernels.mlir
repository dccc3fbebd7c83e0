// One warpgroup computes D = A B (A 64x16, B 16x16 given as a [n][k]
// weight) with xkernel.wgmma, in bf16 and f16: the operand tiles are staged
// by hand in the 128-byte swizzle layout as the PTX ISA defines it (element
// (r, k) at byte (r / 8) 1024 + (r % 8) 128 + 16 ((k / 8) ^ (r % 8)) +
// 2 (k % 8)), and D is read back through wgmma's fragment layout (thread
// 4 g + t of warp w holds D[16 w + g + 8 h][8 i + 2 t + j] at 4 i + 2 h + j);
// test/Integration/tensor-cores.test runs them.
xkernel.func @wgmma_bf16(%a: !xkernel.ptr<f32, global> {xkernel.readonly},
                     %bg: !xkernel.ptr<f32, global> {xkernel.readonly},
                     %d: !xkernel.ptr<f32, global>)
    attributes {max_threads = 128 : i64, dynamic_shared = 10240 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c512 = arith.constant 512 : index
  %t = xkernel.thread_id x
  %sa = xkernel.dynamic_shared 0 : !xkernel.ptr<bf16, shared>
  %sb = xkernel.dynamic_shared 8192 : !xkernel.ptr<bf16, shared>
  // A: 8 elements per thread; B ([n][k], 16 x 16): 2.
  %ea = arith.muli %t, %c8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %e = arith.addi %ea, %i : index
    %v = xkernel.load %a[%e] : !xkernel.ptr<f32, global> -> f32
    %h = arith.truncf %v : f32 to bf16
    %ar = arith.divui %e, %c16 : index
    %ak = arith.remui %e, %c16 : index
    %ar8 = arith.divui %ar, %c8 : index
    %arm = arith.remui %ar, %c8 : index
    %ak8 = arith.divui %ak, %c8 : index
    %akm = arith.remui %ak, %c8 : index
    %ax = arith.xori %ak8, %arm : index
    %ao1 = arith.muli %ar8, %c512 : index
    %ao2 = arith.muli %arm, %c64 : index
    %ao3 = arith.muli %ax, %c8 : index
    %ao12 = arith.addi %ao1, %ao2 : index
    %ao123 = arith.addi %ao12, %ao3 : index
    %ao = arith.addi %ao123, %akm : index
    xkernel.store %h, %sa[%ao] : bf16, !xkernel.ptr<bf16, shared>
  }
  %eb = arith.muli %t, %c2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    %e = arith.addi %eb, %i : index
    %v = xkernel.load %bg[%e] : !xkernel.ptr<f32, global> -> f32
    %h = arith.truncf %v : f32 to bf16
    %br = arith.divui %e, %c16 : index
    %bk = arith.remui %e, %c16 : index
    %br8 = arith.divui %br, %c8 : index
    %brm = arith.remui %br, %c8 : index
    %bk8 = arith.divui %bk, %c8 : index
    %bkm = arith.remui %bk, %c8 : index
    %bx = arith.xori %bk8, %brm : index
    %bo1 = arith.muli %br8, %c512 : index
    %bo2 = arith.muli %brm, %c64 : index
    %bo3 = arith.muli %bx, %c8 : index
    %bo12 = arith.addi %bo1, %bo2 : index
    %bo123 = arith.addi %bo12, %bo3 : index
    %bo = arith.addi %bo123, %bkm : index
    xkernel.store %h, %sb[%bo] : bf16, !xkernel.ptr<bf16, shared>
  }
  xkernel.fence_proxy_async
  xkernel.barrier
  %zero = arith.constant dense<0.0> : vector<8xf32>
  xkernel.wgmma_fence
  %acc = xkernel.wgmma %sa[%c0], %sb[%c0], %zero : !xkernel.ptr<bf16, shared>, !xkernel.ptr<bf16, shared>, vector<8xf32>
  xkernel.wgmma_commit
  %r = xkernel.wgmma_wait 0, %acc : vector<8xf32>
  // r[4 i + 2 h + j] is D[16 w + g + 8 h][8 i + 2 t + j].
  %w = arith.divui %t, %c32 : index
  %lane = arith.remui %t, %c32 : index
  %g = arith.divui %lane, %c4 : index
  %tt = arith.remui %lane, %c4 : index
  %w16 = arith.muli %w, %c16 : index
  %row = arith.addi %w16, %g : index
  %rowoff = arith.muli %row, %c16 : index
  %col = arith.muli %tt, %c2 : index
  %base = arith.addi %rowoff, %col : index
  %cwgmma_bf16_0 = arith.constant 0 : index
  %o0 = arith.addi %base, %cwgmma_bf16_0 : index
  %d0 = vector.extract %r[0] : f32 from vector<8xf32>
  xkernel.store %d0, %d[%o0] : f32, !xkernel.ptr<f32, global>
  %cwgmma_bf16_1 = arith.constant 1 : index
  %o1 = arith.addi %base, %cwgmma_bf16_1 : index
  %d1 = vector.extract %r[1] : f32 from vector<8xf32>
  xkernel.store %d1, %d[%o1] : f32, !xkernel.ptr<f32, global>
  %cwgmma_bf16_2 = arith.constant 128 : index
  %o2 = arith.addi %base, %cwgmma_bf16_2 : index
  %d2 = vector.extract %r[2] : f32 from vector<8xf32>
  xkernel.store %d2, %d[%o2] : f32, !xkernel.ptr<f32, global>
  %cwgmma_bf16_3 = arith.constant 129 : index
  %o3 = arith.addi %base, %cwgmma_bf16_3 : index
  %d3 = vector.extract %r[3] : f32 from vector<8xf32>
  xkernel.store %d3, %d[%o3] : f32, !xkernel.ptr<f32, global>
  %cwgmma_bf16_4 = arith.constant 8 : index
  %o4 = arith.addi %base, %cwgmma_bf16_4 : index
  %d4 = vector.extract %r[4] : f32 from vector<8xf32>
  xkernel.store %d4, %d[%o4] : f32, !xkernel.ptr<f32, global>
  %cwgmma_bf16_5 = arith.constant 9 : index
  %o5 = arith.addi %base, %cwgmma_bf16_5 : index
  %d5 = vector.extract %r[5] : f32 from vector<8xf32>
  xkernel.store %d5, %d[%o5] : f32, !xkernel.ptr<f32, global>
  %cwgmma_bf16_6 = arith.constant 136 : index
  %o6 = arith.addi %base, %cwgmma_bf16_6 : index
  %d6 = vector.extract %r[6] : f32 from vector<8xf32>
  xkernel.store %d6, %d[%o6] : f32, !xkernel.ptr<f32, global>
  %cwgmma_bf16_7 = arith.constant 137 : index
  %o7 = arith.addi %base, %cwgmma_bf16_7 : index
  %d7 = vector.extract %r[7] : f32 from vector<8xf32>
  xkernel.store %d7, %d[%o7] : f32, !xkernel.ptr<f32, global>
  xkernel.return
}
xkernel.program @wgmma_bf16_program(%a: memref<1024xf32>, %b: memref<256xf32>) -> (%d: memref<1024xf32>) {
  xkernel.launch @wgmma_bf16(%a, %b, %d) grid [1, 1, 1] block [128, 1, 1] shared 10240 : memref<1024xf32>, memref<256xf32>, memref<1024xf32>
}

xkernel.func @wgmma_f16(%a: !xkernel.ptr<f32, global> {xkernel.readonly},
                     %bg: !xkernel.ptr<f32, global> {xkernel.readonly},
                     %d: !xkernel.ptr<f32, global>)
    attributes {max_threads = 128 : i64, dynamic_shared = 10240 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c512 = arith.constant 512 : index
  %t = xkernel.thread_id x
  %sa = xkernel.dynamic_shared 0 : !xkernel.ptr<f16, shared>
  %sb = xkernel.dynamic_shared 8192 : !xkernel.ptr<f16, shared>
  // A: 8 elements per thread; B ([n][k], 16 x 16): 2.
  %ea = arith.muli %t, %c8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %e = arith.addi %ea, %i : index
    %v = xkernel.load %a[%e] : !xkernel.ptr<f32, global> -> f32
    %h = arith.truncf %v : f32 to f16
    %ar = arith.divui %e, %c16 : index
    %ak = arith.remui %e, %c16 : index
    %ar8 = arith.divui %ar, %c8 : index
    %arm = arith.remui %ar, %c8 : index
    %ak8 = arith.divui %ak, %c8 : index
    %akm = arith.remui %ak, %c8 : index
    %ax = arith.xori %ak8, %arm : index
    %ao1 = arith.muli %ar8, %c512 : index
    %ao2 = arith.muli %arm, %c64 : index
    %ao3 = arith.muli %ax, %c8 : index
    %ao12 = arith.addi %ao1, %ao2 : index
    %ao123 = arith.addi %ao12, %ao3 : index
    %ao = arith.addi %ao123, %akm : index
    xkernel.store %h, %sa[%ao] : f16, !xkernel.ptr<f16, shared>
  }
  %eb = arith.muli %t, %c2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    %e = arith.addi %eb, %i : index
    %v = xkernel.load %bg[%e] : !xkernel.ptr<f32, global> -> f32
    %h = arith.truncf %v : f32 to f16
    %br = arith.divui %e, %c16 : index
    %bk = arith.remui %e, %c16 : index
    %br8 = arith.divui %br, %c8 : index
    %brm = arith.remui %br, %c8 : index
    %bk8 = arith.divui %bk, %c8 : index
    %bkm = arith.remui %bk, %c8 : index
    %bx = arith.xori %bk8, %brm : index
    %bo1 = arith.muli %br8, %c512 : index
    %bo2 = arith.muli %brm, %c64 : index
    %bo3 = arith.muli %bx, %c8 : index
    %bo12 = arith.addi %bo1, %bo2 : index
    %bo123 = arith.addi %bo12, %bo3 : index
    %bo = arith.addi %bo123, %bkm : index
    xkernel.store %h, %sb[%bo] : f16, !xkernel.ptr<f16, shared>
  }
  xkernel.fence_proxy_async
  xkernel.barrier
  %zero = arith.constant dense<0.0> : vector<8xf32>
  xkernel.wgmma_fence
  %acc = xkernel.wgmma %sa[%c0], %sb[%c0], %zero : !xkernel.ptr<f16, shared>, !xkernel.ptr<f16, shared>, vector<8xf32>
  xkernel.wgmma_commit
  %r = xkernel.wgmma_wait 0, %acc : vector<8xf32>
  // r[4 i + 2 h + j] is D[16 w + g + 8 h][8 i + 2 t + j].
  %w = arith.divui %t, %c32 : index
  %lane = arith.remui %t, %c32 : index
  %g = arith.divui %lane, %c4 : index
  %tt = arith.remui %lane, %c4 : index
  %w16 = arith.muli %w, %c16 : index
  %row = arith.addi %w16, %g : index
  %rowoff = arith.muli %row, %c16 : index
  %col = arith.muli %tt, %c2 : index
  %base = arith.addi %rowoff, %col : index
  %cwgmma_f16_0 = arith.constant 0 : index
  %o0 = arith.addi %base, %cwgmma_f16_0 : index
  %d0 = vector.extract %r[0] : f32 from vector<8xf32>
  xkernel.store %d0, %d[%o0] : f32, !xkernel.ptr<f32, global>
  %cwgmma_f16_1 = arith.constant 1 : index
  %o1 = arith.addi %base, %cwgmma_f16_1 : index
  %d1 = vector.extract %r[1] : f32 from vector<8xf32>
  xkernel.store %d1, %d[%o1] : f32, !xkernel.ptr<f32, global>
  %cwgmma_f16_2 = arith.constant 128 : index
  %o2 = arith.addi %base, %cwgmma_f16_2 : index
  %d2 = vector.extract %r[2] : f32 from vector<8xf32>
  xkernel.store %d2, %d[%o2] : f32, !xkernel.ptr<f32, global>
  %cwgmma_f16_3 = arith.constant 129 : index
  %o3 = arith.addi %base, %cwgmma_f16_3 : index
  %d3 = vector.extract %r[3] : f32 from vector<8xf32>
  xkernel.store %d3, %d[%o3] : f32, !xkernel.ptr<f32, global>
  %cwgmma_f16_4 = arith.constant 8 : index
  %o4 = arith.addi %base, %cwgmma_f16_4 : index
  %d4 = vector.extract %r[4] : f32 from vector<8xf32>
  xkernel.store %d4, %d[%o4] : f32, !xkernel.ptr<f32, global>
  %cwgmma_f16_5 = arith.constant 9 : index
  %o5 = arith.addi %base, %cwgmma_f16_5 : index
  %d5 = vector.extract %r[5] : f32 from vector<8xf32>
  xkernel.store %d5, %d[%o5] : f32, !xkernel.ptr<f32, global>
  %cwgmma_f16_6 = arith.constant 136 : index
  %o6 = arith.addi %base, %cwgmma_f16_6 : index
  %d6 = vector.extract %r[6] : f32 from vector<8xf32>
  xkernel.store %d6, %d[%o6] : f32, !xkernel.ptr<f32, global>
  %cwgmma_f16_7 = arith.constant 137 : index
  %o7 = arith.addi %base, %cwgmma_f16_7 : index
  %d7 = vector.extract %r[7] : f32 from vector<8xf32>
  xkernel.store %d7, %d[%o7] : f32, !xkernel.ptr<f32, global>
  xkernel.return
}
xkernel.program @wgmma_f16_program(%a: memref<1024xf32>, %b: memref<256xf32>) -> (%d: memref<1024xf32>) {
  xkernel.launch @wgmma_f16(%a, %b, %d) grid [1, 1, 1] block [128, 1, 1] shared 10240 : memref<1024xf32>, memref<256xf32>, memref<1024xf32>
}
