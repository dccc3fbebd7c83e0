// RUN: xtile-opt %s --lower-to-kernel | FileCheck %s
// RUN: xtile-opt %s --lower-to-kernel="target=sm_80" | FileCheck %s
// RUN: xtile-opt %s --lower-to-kernel="target=sm_80 allow-tf32=true" | FileCheck %s --check-prefix=TF32
// RUN: xtile-opt %s --lower-to-kernel="target=sm_90a" | FileCheck %s --check-prefix=WGMMA
// RUN: not xtile-opt %s --lower-to-kernel="force-schedule='#xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 3, warps = 4, instruction = mma_sync, warps_m = 2>'" 2>&1 | FileCheck %s --check-prefix=FORCED

// The cost model puts f16 and bf16 matmuls on tensor cores on sm_80 and
// sm_90 (4096^3: 128 x 128 tiles, 4 warps of 64 x 64).
// CHECK-LABEL: xkernel.func @bf16_matmul(
// CHECK:         scf.for
// CHECK:           xkernel.ldmatrix
// CHECK:           xkernel.mma
// On sm_90a it runs on wgmma, its B ([K, N], contiguous along N) brought
// in by TMA as four boxes of 64 x 64, N-major 64-column panels of 64 x 128
// bytes, which the descriptor steps through (n_major(8192)); A (one
// 128 x 64 box) stays K-major. The cost model makes it warp-specialized:
// 384 threads, the last warpgroup a producer. Thread 0 initializes a
// "full" mbarrier per stage (one arrival: the producer's, with the
// stage's 48 KiB) and an "empty" one (the 256 consumer threads' arrivals)
// before the block meets. The producer gives up registers and one of its
// threads loops over the K steps: it waits until the consumers released
// the stage, expects its bytes and starts its five boxes. The consumers
// take 168 registers (128 accumulators and 40), wait for each stage's copies, leave each K step's
// group in flight (wgmma_wait 1) and release the stage the group before
// read; no barrier of the whole block is left in the loop, and the
// epilogue's barriers are the consumers' (named barrier 1 of 256 threads).
// WGMMA-LABEL: xkernel.func @bf16_matmul(
// WGMMA-SAME:    %arg3: !xkernel.ptr<i8, global> {xkernel.readonly, xkernel.tensor_map = {box = array<i64: 128, 64>, of = 0 : i64, swizzle = 128 : i64}}
// WGMMA-SAME:    %arg4: !xkernel.ptr<i8, global> {xkernel.readonly, xkernel.tensor_map = {box = array<i64: 64, 64>, of = 1 : i64, swizzle = 128 : i64}}
// WGMMA-SAME:    max_threads = 384
// WGMMA-COUNT-3: xkernel.mbarrier_init %{{.*}}[%{{.*}}], 1 : <i64, shared>
// WGMMA-COUNT-3: xkernel.mbarrier_init %{{.*}}[%{{.*}}], 256 : <i64, shared>
// WGMMA:         xkernel.barrier
// WGMMA-NEXT:    %[[PRODUCER:.*]] = arith.cmpi uge, %{{.*}}, %c256 : index
// WGMMA-NEXT:    scf.if %[[PRODUCER]] {
// WGMMA-NEXT:      xkernel.set_max_registers decrease 40
// WGMMA:           scf.for
// WGMMA:             xkernel.mbarrier_wait
// WGMMA:             xkernel.mbarrier_arrive_expect_tx %{{.*}}[%{{.*}}], 49152
// WGMMA:             xkernel.tma_load %arg3
// WGMMA-COUNT-4:     xkernel.tma_load %arg4
// WGMMA-NOT:     xkernel.async_copy
// WGMMA:         %[[CONSUMER:.*]] = arith.cmpi ult, %{{.*}}, %c256 : index
// WGMMA-NEXT:    scf.if %[[CONSUMER]] {
// WGMMA-NEXT:      xkernel.set_max_registers increase 168
// WGMMA-NEXT:      scf.for
// WGMMA:             xkernel.mbarrier_wait
// WGMMA:             xkernel.wgmma_fence
// WGMMA-COUNT-4:     xkernel.wgmma %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}] n_major(8192), %{{.*}} : <bf16, shared>, <bf16, shared>, vector<128xf32>
// WGMMA:             xkernel.wgmma_commit
// WGMMA-NEXT:        xkernel.wgmma_wait 1
// WGMMA-NOT:         xkernel.barrier
// WGMMA:             xkernel.mbarrier_arrive
// WGMMA-NOT:         xkernel.barrier
// WGMMA:             scf.yield
// WGMMA-NOT:       xkernel.async_wait
// WGMMA:           vector.from_elements
// WGMMA-NEXT:      xkernel.wgmma_wait 0, %{{.*}} : vector<128xf32>
// WGMMA:           xkernel.barrier 1, 256
// WGMMA:         xkernel.return
func.func @bf16(%x: tensor<4096x4096xbf16>, %w: tensor<4096x4096xbf16>) -> tensor<4096x4096xbf16> {
  %y = xtensor.matmul %x, %w : tensor<4096x4096xbf16>, tensor<4096x4096xbf16> -> tensor<4096x4096xbf16>
  return %y : tensor<4096x4096xbf16>
}

// f32 matmuls stay on the FMA pipes (exact); tensor cores for them are an
// error naming what they take. With allow-tf32 they go to tensor cores on
// tf32 (mma.sync m16n8k8, operands rounded first).
// TF32-LABEL: xkernel.func @f32_matmul(
// TF32:         xkernel.ldmatrix {{.*}} -> vector<4xf32>
// TF32:         xkernel.round_tf32
// TF32:         xkernel.mma {{.*}} : vector<4xf32>, vector<2xf32> -> vector<4xf32>
// CHECK-LABEL: xkernel.func @f32_matmul(
// CHECK-NOT:     xkernel.mma
// CHECK:         math.fma
// CHECK:         xkernel.return
// FORCED: mma-choice.mlir:[[@LINE+2]]:8: error: 'xtile.dot' op runs on tensor cores (instruction = mma_sync), which take f16 or bf16 operands of one type and an f32 accumulator; got 'f32' x 'f32' -> 'f32' (f32 operands need tf32 = true)
func.func @f32(%x: tensor<128x64xf32>, %w: tensor<64x128xf32>) -> tensor<128x128xf32> {
  %y = xtensor.matmul %x, %w : tensor<128x64xf32>, tensor<64x128xf32> -> tensor<128x128xf32>
  return %y : tensor<128x128xf32>
}
