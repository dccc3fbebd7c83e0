// RUN: xtile-opt %s --lower-to-kernel="force-schedule='#xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 3, warps = 4, instruction = mma_sync, warps_m = 2>'" | FileCheck %s
// RUN: xtile-opt %s --lower-to-kernel="force-schedule='#xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 1, warps = 4, instruction = mma_sync, warps_m = 2>'" | FileCheck %s --check-prefix=STAGED

// A ragged bf16 linear layer (100x96 @ (200x96)^T + bias) on tensor cores:
// 4 warps in a 2 x 2 grid, each owning a 32 x 32 sub-tile of the 64 x 64
// output tile (2 x 4 blocks of 16 x 8). The operand tiles come in by 16-byte
// cp.async into shared memory swizzled in 16-byte chunks (the XORs), x row
// by row and the weight ([out, in]: contiguous along K) column by column;
// per step of 16 along K each warp loads 2 fragments of A and 2 pairs of B
// fragments with ldmatrix (no .trans for either: both are staged K-major)
// and issues 2 x 4 mma. The accumulator is the mma's C fragments: the
// epilogue (bias, rounding to bf16) runs on 2 adjacent elements at a time,
// written so into shared memory (rows padded by 16 bytes, the operand
// tiles' space reused), and read back and stored 16 bytes at a time.
// CHECK-LABEL: xkernel.func @linear_cast_0(
// CHECK-SAME:    dynamic_shared = 24576 : i64, max_threads = 128 : i64
// CHECK-DAG:     %[[A:.*]] = xkernel.dynamic_shared 0 : <bf16, shared>
// CHECK-DAG:     %[[B:.*]] = xkernel.dynamic_shared 12288 : <bf16, shared>
// CHECK:         arith.xori
// CHECK:         xkernel.async_copy %arg0[%{{.*}}] to %[[A]][%{{.*}}], 16 valid
// CHECK:         xkernel.async_copy %arg2[%{{.*}}] to %[[B]][%{{.*}}], 16 valid
// CHECK:         xkernel.async_commit
// CHECK:         scf.for %{{.*}} = %c0 to %c96 step %c32 iter_args(
// CHECK:           xkernel.async_wait 2
// CHECK-NEXT:      xkernel.barrier
// CHECK-NOT:       xkernel.load %arg
// CHECK-COUNT-2:   xkernel.ldmatrix %[[A]][%{{.*}}] : <bf16, shared> -> vector<8xbf16>
// CHECK-COUNT-2:   xkernel.ldmatrix %[[B]][%{{.*}}] : <bf16, shared> -> vector<8xbf16>
// CHECK-COUNT-8:   xkernel.mma %{{.*}} : vector<8xbf16>, vector<4xbf16> -> vector<4xf32>
// CHECK-COUNT-2:   xkernel.ldmatrix %[[A]]
// CHECK-COUNT-2:   xkernel.ldmatrix %[[B]]
// CHECK-COUNT-8:   xkernel.mma
// CHECK-NOT:       xkernel.ldmatrix
// CHECK:           xkernel.barrier
// CHECK-NOT:       xkernel.
// CHECK:           scf.yield {{.*}} : {{.*}}, i32, i32
// CHECK:         xkernel.async_wait 0
// CHECK:         xkernel.load %arg1[%{{.*}}] : <f32, global> -> vector<2xf32>
// CHECK:         xkernel.barrier
// CHECK-COUNT-16: xkernel.store %{{.*}}, %[[A]][%{{.*}}] : vector<2xbf16>, <bf16, shared>
// CHECK-NEXT:    xkernel.barrier
// CHECK-COUNT-4: xkernel.store %{{.*}}, %arg3[%{{.*}}] : vector<8xbf16>, <bf16, global>
// CHECK-NOT:     xkernel.store
// CHECK:         xkernel.return
// Without pipelining, the tiles are staged from registers: 16-byte loads
// of x's rows, single elements of the weight's columns, stored swizzled.
// STAGED-LABEL: xkernel.func @linear_cast_0(
// STAGED:         scf.for
// STAGED:           xkernel.load %arg0[%{{.*}}] : <bf16, global> -> vector<8xbf16>
// STAGED:           xkernel.store %{{.*}} : vector<8xbf16>, <bf16, shared>
// STAGED:           xkernel.barrier
// STAGED:           xkernel.ldmatrix
// STAGED:           xkernel.mma
func.func @linear(%x: tensor<100x96xbf16>, %w: tensor<200x96xbf16>, %b: tensor<200xbf16>) -> tensor<100x200xbf16> {
  %y = xtensor.linear %x, %w, %b : (tensor<100x96xbf16>, tensor<200x96xbf16>, tensor<200xbf16>) -> tensor<100x200xbf16>
  return %y : tensor<100x200xbf16>
}

// x @ W with W [K, N] row-major: B is staged [k][n] and read transposed
// (ldmatrix .trans), A as before; f16 works alike.
// CHECK-LABEL: xkernel.func @matmul_matmul(
// CHECK:         scf.for
// CHECK-COUNT-2:   xkernel.ldmatrix %{{.*}} : <f16, shared> -> vector<8xf16>
// CHECK-COUNT-2:   xkernel.ldmatrix %{{.*}} trans : <f16, shared> -> vector<8xf16>
// CHECK-COUNT-8:   xkernel.mma %{{.*}} : vector<8xf16>, vector<4xf16> -> vector<4xf32>
func.func @matmul(%x: tensor<128x64xf16>, %w: tensor<64x128xf16>) -> tensor<128x128xf16> {
  %y = xtensor.matmul %x, %w : tensor<128x64xf16>, tensor<64x128xf16> -> tensor<128x128xf16>
  return %y : tensor<128x128xf16>
}
