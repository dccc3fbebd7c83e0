// RUN: xtile-opt %s | FileCheck %s
// RUN: xtile-opt %s | xtile-opt | FileCheck %s
// RUN: xtile-opt %s --mlir-print-op-generic | xtile-opt | FileCheck %s

// The grid map of @rows, printed as an alias at the top.
// CHECK: #[[GRID:.*]] = affine_map<()[s0] -> (s0 ceildiv 128)>

// CHECK-LABEL: xkernel.func @every_op(
// CHECK-SAME:    %{{.*}}: !xkernel.ptr<f32, global> {xkernel.readonly}, %{{.*}}: !xkernel.ptr<f32, global>, %{{.*}}: !xkernel.ptr<i32, global>, %{{.*}}: f32)
// CHECK-SAME:    attributes {dynamic_shared = 32 : i64, max_threads = 128 : i64}
xkernel.func @every_op(%x: !xkernel.ptr<f32, global> {xkernel.readonly},
                       %y: !xkernel.ptr<f32, global>,
                       %n: !xkernel.ptr<i32, global>, %scale: f32)
    attributes {max_threads = 128 : i64, dynamic_shared = 32 : i64} {
  // CHECK: xkernel.thread_id x
  // CHECK: xkernel.block_id y
  // CHECK: xkernel.block_dim z
  // CHECK: xkernel.grid_dim x
  %t = xkernel.thread_id x
  %b = xkernel.block_id y
  %bd = xkernel.block_dim z
  %gd = xkernel.grid_dim x
  // CHECK: xkernel.shared 32 : <f32, shared>
  %s = xkernel.shared 32 : !xkernel.ptr<f32, shared>
  // CHECK: xkernel.dynamic_shared 16 : <f32, shared>
  %d = xkernel.dynamic_shared 16 : !xkernel.ptr<f32, shared>
  // CHECK: xkernel.load %{{.*}}[%{{.*}}] : <f32, global> -> vector<4xf32>
  %v = xkernel.load %x[%t] : !xkernel.ptr<f32, global> -> vector<4xf32>
  // CHECK: xkernel.load %{{.*}}[%{{.*}}] : <f32, global> -> f32
  %e = xkernel.load %x[%b] : !xkernel.ptr<f32, global> -> f32
  %c16 = arith.constant 16 : i32
  // CHECK: xkernel.shuffle xor %{{.*}}, %{{.*}} width 32 : f32
  // CHECK: xkernel.shuffle down %{{.*}}, %{{.*}} width 16 : f32
  // CHECK: xkernel.shuffle idx %{{.*}}, %{{.*}} width 32 : f32
  %x1 = xkernel.shuffle xor %e, %c16 width 32 : f32
  %x2 = xkernel.shuffle down %x1, %c16 width 16 : f32
  %x3 = xkernel.shuffle idx %x2, %c16 width 32 : f32
  // CHECK: xkernel.approx ex2 %{{.*}} : f32
  // CHECK: xkernel.approx lg2 %{{.*}} ftz : f32
  // CHECK: xkernel.approx rcp %{{.*}} ftz : f32
  // CHECK: xkernel.approx rsqrt %{{.*}} : f32
  // CHECK: xkernel.approx sqrt %{{.*}} ftz : f32
  // CHECK: xkernel.approx rcp %{{.*}} : f32
  // CHECK: xkernel.div_full %{{.*}}, %{{.*}} : f32
  %a1 = xkernel.approx ex2 %x3 : f32
  %a2 = xkernel.approx lg2 %a1 ftz : f32
  %a3 = xkernel.approx rcp %a2 ftz : f32
  %a4 = xkernel.approx rsqrt %a3 : f32
  %a5 = xkernel.approx sqrt %a4 ftz : f32
  %a6 = xkernel.approx rcp %a5 : f32
  %a7 = xkernel.div_full %a6, %a5 : f32
  // CHECK: xkernel.barrier
  xkernel.barrier
  // CHECK: xkernel.atomic add %{{.*}}, %{{.*}}[%{{.*}}] : f32, <f32, global>
  // CHECK: xkernel.atomic max %{{.*}}, %{{.*}}[%{{.*}}] : i32, <i32, global>
  %old = xkernel.atomic add %x3, %y[%t] : f32, !xkernel.ptr<f32, global>
  %one = arith.constant 1 : i32
  %oldn = xkernel.atomic max %one, %n[%t] : i32, !xkernel.ptr<i32, global>
  // CHECK: xkernel.async_copy %{{.*}}[%{{.*}}] to %{{.*}}[%{{.*}}], 16 : <f32, global> to <f32, shared>
  // CHECK: xkernel.async_copy %{{.*}}[%{{.*}}] to %{{.*}}[%{{.*}}], 4 valid %{{.*}} : <f32, global> to <f32, shared>
  // CHECK: xkernel.async_commit
  // CHECK: xkernel.async_wait 1
  xkernel.async_copy %x[%t] to %d[%t], 16 : !xkernel.ptr<f32, global> to !xkernel.ptr<f32, shared>
  %zero = arith.constant 0 : i32
  xkernel.async_copy %x[%t] to %s[%t], 4 valid %zero : !xkernel.ptr<f32, global> to !xkernel.ptr<f32, shared>
  xkernel.async_commit
  xkernel.async_wait 1
  // CHECK: xkernel.store %{{.*}}, %{{.*}}[%{{.*}}] : vector<4xf32>, <f32, global>
  xkernel.store %v, %y[%t] : vector<4xf32>, !xkernel.ptr<f32, global>
  %w = arith.mulf %old, %scale : f32
  xkernel.store %w, %s[%t] : f32, !xkernel.ptr<f32, shared>
  // CHECK: xkernel.return
  xkernel.return
}

// CHECK-LABEL: xkernel.program @graph(%{{.*}}: memref<4096xf32>) -> (%{{.*}}: memref<4096xf32>)
// CHECK:         %[[T:.*]] = xkernel.alloc : memref<4096xf32>
// CHECK:         xkernel.launch @copy(%{{.*}}, %[[T]]) grid [32, 1, 1] block [128, 1, 1] shared 0 : memref<4096xf32>, memref<4096xf32>
// CHECK:         xkernel.launch @copy(%[[T]], %{{.*}}) grid [32, 1, 1] block [128, 1, 1] shared 0
// CHECK:         xkernel.copy %[[T]] to %{{.*}} : memref<4096xf32>
xkernel.func @copy(%x: !xkernel.ptr<f32, global> {xkernel.readonly}, %y: !xkernel.ptr<f32, global>)
    attributes {max_threads = 128 : i64} {
  %t = xkernel.thread_id x
  %v = xkernel.load %x[%t] : !xkernel.ptr<f32, global> -> f32
  xkernel.store %v, %y[%t] : f32, !xkernel.ptr<f32, global>
  xkernel.return
}
xkernel.program @graph(%in: memref<4096xf32>) -> (%out: memref<4096xf32>) {
  %t = xkernel.alloc : memref<4096xf32>
  xkernel.launch @copy(%in, %t) grid [32, 1, 1] block [128, 1, 1] shared 0 : memref<4096xf32>, memref<4096xf32>
  xkernel.launch @copy(%t, %out) grid [32, 1, 1] block [128, 1, 1] shared 0 : memref<4096xf32>, memref<4096xf32>
  xkernel.copy %t to %out : memref<4096xf32>
}

// A program over a dynamic size: it comes after the buffers, a temporary
// is sized by it, and a launch passes it to the kernel and computes its
// grid from it.
// CHECK-LABEL: xkernel.program @rows
// CHECK-SAME:    [%[[T:.*]] = 1 to 8192](%[[IN:.*]]: memref<?xf32> [%[[T]]]) -> (%[[OUT:.*]]: memref<?xf32> [%[[T]]]) attributes {size_names = ["T"]} {
// CHECK-NEXT:    %[[TMP:.*]] = xkernel.alloc(%[[T]]) : memref<?xf32>
// CHECK-NEXT:    xkernel.launch @copy_rows(%[[IN]], %[[TMP]]) sizes(%[[T]]) grid [64, 1, 1] map #[[GRID]] block [128, 1, 1] shared 0 : memref<?xf32>, memref<?xf32>
// CHECK-NEXT:    xkernel.copy %[[TMP]] to %[[OUT]] : memref<?xf32>
xkernel.func @copy_rows(%x: !xkernel.ptr<f32, global> {xkernel.readonly}, %y: !xkernel.ptr<f32, global>, %n: index)
    attributes {max_threads = 128 : i64} {
  xkernel.return
}
xkernel.program @rows[%T = 1 to 8192](%in: memref<?xf32> [%T]) -> (%out: memref<?xf32> [%T]) attributes {size_names = ["T"]} {
  %t = xkernel.alloc(%T) : memref<?xf32>
  xkernel.launch @copy_rows(%in, %t) sizes(%T) grid [64, 1, 1] map affine_map<()[s0] -> (s0 ceildiv 128)> block [128, 1, 1] shared 0 : memref<?xf32>, memref<?xf32>
  xkernel.copy %t to %out : memref<?xf32>
}

// Tensor cores: ldmatrix (with and without trans) and mma.
// CHECK-LABEL: xkernel.func @tensor_cores(
// CHECK: xkernel.ldmatrix %{{.*}}[%{{.*}}] : <bf16, shared> -> vector<8xbf16>
// CHECK: xkernel.ldmatrix %{{.*}}[%{{.*}}] trans : <bf16, shared> -> vector<4xbf16>
// CHECK: xkernel.mma %{{.*}}, %{{.*}}, %{{.*}} : vector<8xbf16>, vector<4xbf16> -> vector<4xf32>
xkernel.func @tensor_cores(%y: !xkernel.ptr<f32, global>) attributes {max_threads = 32 : i64} {
  %c0 = arith.constant 0 : index
  %s = xkernel.shared 256 : !xkernel.ptr<bf16, shared>
  %a = xkernel.ldmatrix %s[%c0] : !xkernel.ptr<bf16, shared> -> vector<8xbf16>
  %b = xkernel.ldmatrix %s[%c0] trans : !xkernel.ptr<bf16, shared> -> vector<4xbf16>
  %z = arith.constant dense<0.0> : vector<4xf32>
  %d = xkernel.mma %a, %b, %z : vector<8xbf16>, vector<4xbf16> -> vector<4xf32>
  xkernel.store %d, %y[%c0] : vector<4xf32>, !xkernel.ptr<f32, global>
  xkernel.return
}

// TF32: ldmatrix of f32 (one register per matrix), the rounding, and the
// m16n8k8 mma on 4 + 2 f32 lanes.
// CHECK-LABEL: xkernel.func @tf32(
// CHECK: xkernel.ldmatrix %{{.*}}[%{{.*}}] : <f32, shared> -> vector<4xf32>
// CHECK: xkernel.ldmatrix %{{.*}}[%{{.*}}] : <f32, shared> -> vector<2xf32>
// CHECK: xkernel.round_tf32 %{{.*}}
// CHECK: xkernel.mma %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>, vector<2xf32> -> vector<4xf32>
xkernel.func @tf32(%y: !xkernel.ptr<f32, global>) attributes {max_threads = 32 : i64} {
  %c0 = arith.constant 0 : index
  %s = xkernel.shared 256 : !xkernel.ptr<f32, shared>
  %a = xkernel.ldmatrix %s[%c0] : !xkernel.ptr<f32, shared> -> vector<4xf32>
  %b = xkernel.ldmatrix %s[%c0] : !xkernel.ptr<f32, shared> -> vector<2xf32>
  %e = vector.extract %a[0] : f32 from vector<4xf32>
  %r = xkernel.round_tf32 %e
  %ar = vector.insert %r, %a [0] : f32 into vector<4xf32>
  %z = arith.constant dense<0.0> : vector<4xf32>
  %d = xkernel.mma %ar, %b, %z : vector<4xf32>, vector<2xf32> -> vector<4xf32>
  xkernel.store %d, %y[%c0] : vector<4xf32>, !xkernel.ptr<f32, global>
  xkernel.return
}

// Bulk tensor copies: one thread initializes the stage's mbarrier, expects
// the box's bytes and starts the copy through a tensor map argument; every
// thread waits for the phase.
// CHECK-LABEL: xkernel.func @tma(
// CHECK-SAME: %{{.*}}: !xkernel.ptr<i8, global> {xkernel.readonly, xkernel.tensor_map = {box = array<i64: 64, 64>, of = 0 : i64, swizzle = 128 : i64}}
// CHECK: xkernel.mbarrier_init %[[B:.*]][%{{.*}}], 1 : <i64, shared>
// CHECK: xkernel.mbarrier_arrive_expect_tx %[[B]][%{{.*}}], 8192 : <i64, shared>
// CHECK: xkernel.tma_load %{{.*}}[%{{.*}}, %{{.*}}] to %{{.*}}[%{{.*}}] barrier %[[B]][%{{.*}}] : <i8, global>, <bf16, shared>, <i64, shared>
// CHECK: xkernel.mbarrier_wait %[[B]][%{{.*}}], %{{.*}} : <i64, shared>
xkernel.func @tma(%x: !xkernel.ptr<bf16, global> {xkernel.readonly}, %m: !xkernel.ptr<i8, global> {xkernel.readonly, xkernel.tensor_map = {of = 0 : i64, box = array<i64: 64, 64>, swizzle = 128 : i64}}) attributes {max_threads = 128 : i64, dynamic_shared = 9216 : i64} {
  %c0 = arith.constant 0 : index
  %c0_i32 = arith.constant 0 : i32
  %s = xkernel.dynamic_shared 0 : !xkernel.ptr<bf16, shared>
  %bar = xkernel.dynamic_shared 8192 : !xkernel.ptr<i64, shared>
  xkernel.mbarrier_init %bar[%c0], 1 : !xkernel.ptr<i64, shared>
  xkernel.barrier
  xkernel.mbarrier_arrive_expect_tx %bar[%c0], 8192 : !xkernel.ptr<i64, shared>
  xkernel.tma_load %m[%c0_i32, %c0_i32] to %s[%c0] barrier %bar[%c0] : !xkernel.ptr<i8, global>, !xkernel.ptr<bf16, shared>, !xkernel.ptr<i64, shared>
  xkernel.mbarrier_wait %bar[%c0], %c0 : !xkernel.ptr<i64, shared>
  xkernel.return
}

// The host side makes the tensor map and passes it after the buffers.
// CHECK-LABEL: xkernel.program @tma_program
// CHECK: %[[M:.*]] = xkernel.tensor_map %{{.*}} box [64, 64] swizzle 128 : memref<100x96xbf16> -> memref<128xi8>
// CHECK: xkernel.launch @tma(%{{.*}}, %[[M]])
xkernel.program @tma_program(%x: memref<100x96xbf16>) -> (%y: memref<100x96xbf16>) {
  %m = xkernel.tensor_map %x box [64, 64] swizzle 128 : memref<100x96xbf16> -> memref<128xi8>
  xkernel.copy %x to %y : memref<100x96xbf16>
  xkernel.launch @tma(%x, %m) grid [1, 1, 1] block [128, 1, 1] shared 9216 : memref<100x96xbf16>, memref<128xi8>
}

// Warpgroup tensor cores: wgmma on two shared tiles, its fences, commit and
// wait (which passes the accumulators through).
// CHECK-LABEL: xkernel.func @warpgroup(
// CHECK-SAME: min_blocks = 1 : i64
// CHECK: xkernel.fence_proxy_async
// CHECK: xkernel.wgmma_fence
// CHECK: %[[D:.*]] = xkernel.wgmma %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}], %{{.*}} : <bf16, shared>, <bf16, shared>, vector<32xf32>
// CHECK: %[[E:.*]] = xkernel.wgmma %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}] n_major(8192), %[[D]] : <bf16, shared>, <bf16, shared>, vector<32xf32>
// CHECK: xkernel.wgmma_commit
// CHECK: %{{.*}} = xkernel.wgmma_wait 0, %[[E]] : vector<32xf32>
// CHECK: xkernel.wgmma_wait 1
xkernel.func @warpgroup(%y: !xkernel.ptr<f32, global>) attributes {max_threads = 128 : i64, dynamic_shared = 16384 : i64, min_blocks = 1 : i64} {
  %c0 = arith.constant 0 : index
  %a = xkernel.dynamic_shared 0 : !xkernel.ptr<bf16, shared>
  %b = xkernel.dynamic_shared 8192 : !xkernel.ptr<bf16, shared>
  %z = arith.constant dense<0.0> : vector<32xf32>
  xkernel.fence_proxy_async
  xkernel.wgmma_fence
  %d = xkernel.wgmma %a[%c0], %b[%c0], %z : !xkernel.ptr<bf16, shared>, !xkernel.ptr<bf16, shared>, vector<32xf32>
  %e = xkernel.wgmma %a[%c0], %b[%c0] n_major(8192), %d : !xkernel.ptr<bf16, shared>, !xkernel.ptr<bf16, shared>, vector<32xf32>
  xkernel.wgmma_commit
  %r = xkernel.wgmma_wait 0, %e : vector<32xf32>
  xkernel.wgmma_wait 1
  %v = vector.extract %r[0] : f32 from vector<32xf32>
  xkernel.store %v, %y[%c0] : f32, !xkernel.ptr<f32, global>
  xkernel.return
}

// Warp specialization: a producer warpgroup gives up registers, a consumer
// arrives on a stage's empty mbarrier, and the consumers meet on named
// barrier 1 without the producer.
// CHECK-LABEL: xkernel.func @specialized(
// CHECK: xkernel.set_max_registers decrease 40
// CHECK: xkernel.set_max_registers increase 232
// CHECK: xkernel.mbarrier_arrive %{{.*}}[%{{.*}}] : <i64, shared>
// CHECK: xkernel.barrier 1, 256
// CHECK: xkernel.barrier{{$}}
xkernel.func @specialized() attributes {max_threads = 384 : i64, dynamic_shared = 8 : i64} {
  %c0 = arith.constant 0 : index
  %bar = xkernel.dynamic_shared 0 : !xkernel.ptr<i64, shared>
  xkernel.set_max_registers decrease 40
  xkernel.set_max_registers increase 232
  xkernel.mbarrier_arrive %bar[%c0] : !xkernel.ptr<i64, shared>
  xkernel.barrier 1, 256
  xkernel.barrier
  xkernel.return
}
