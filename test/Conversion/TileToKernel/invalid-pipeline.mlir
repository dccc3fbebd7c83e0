// RUN: xtile-opt %s --split-input-file --verify-diagnostics --convert-xtile-to-xkernel --canonicalize --cse | FileCheck %s

// The Kernel IR lowering applies the pipelining plan that
// --xtile-plan-pipelines (or a hand) records in `xtile.pipeline` and
// `xtile.async_copy`, and refuses one the loop does not admit.

#sm90 = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>

// A plan chosen by hand (narrower copies than the planner's 16 bytes)
// is applied as it is: 8-byte copies of x, 16-byte copies of w.
// CHECK-LABEL: xkernel.func @linear(
// CHECK-SAME:    %[[X:[^:]*]]: !xkernel.ptr<bf16, global> {xkernel.readonly}, %[[W:[^:]*]]: !xkernel.ptr<bf16, global> {xkernel.readonly}
// CHECK-COUNT-4: xkernel.async_copy %[[X]][%{{.*}}] to %{{.*}}[%{{.*}}], 8 :
// CHECK-NOT:     xkernel.async_copy %[[X]]
// CHECK-COUNT-2: xkernel.async_copy %[[W]][%{{.*}}] to %{{.*}}[%{{.*}}], 16 :
// CHECK:         xkernel.async_commit
xtile.kernel @linear(%x: memref<64x96xbf16>, %w: memref<64x96xbf16>) -> (%y: memref<64x64xf32>)
    attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 3, warps = 4, instruction = mma_sync, warps_m = 2>, target = #sm90} {
  %c0 = arith.constant 0 : index
  %c96 = arith.constant 96 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %init = xtile.splat %zero : f32 -> tensor<64x64xf32>
  %r64 = xtile.range 0 to 64 : tensor<64xindex>
  %rows = xtile.reshape %r64 : tensor<64xindex> -> tensor<64x1xindex>
  %xrows = xtile.broadcast %rows : tensor<64x1xindex> -> tensor<64x32xindex>
  %cols = xtile.reshape %r64 : tensor<64xindex> -> tensor<1x64xindex>
  %wrows = xtile.broadcast %cols : tensor<1x64xindex> -> tensor<32x64xindex>
  %acc = scf.for %k = %c0 to %c96 step %c32 iter_args(%a = %init) -> (tensor<64x64xf32>) {
    %r32 = xtile.range 0 to 32 : tensor<32xindex>
    %ks = xtile.splat %k : index -> tensor<32xindex>
    %kk = arith.addi %r32, %ks : tensor<32xindex>
    %krow = xtile.reshape %kk : tensor<32xindex> -> tensor<1x32xindex>
    %xk = xtile.broadcast %krow : tensor<1x32xindex> -> tensor<64x32xindex>
    %kcol = xtile.reshape %kk : tensor<32xindex> -> tensor<32x1xindex>
    %wk = xtile.broadcast %kcol : tensor<32x1xindex> -> tensor<32x64xindex>
    %xt = xtile.load %x[%xrows, %xk] {xtile.async_copy = #xtile.async_copy<group = 4>} : memref<64x96xbf16>[tensor<64x32xindex>, tensor<64x32xindex>] -> tensor<64x32xbf16>
    %wt = xtile.load %w[%wrows, %wk] {xtile.async_copy = #xtile.async_copy<group = 8, transposed = true>} : memref<64x96xbf16>[tensor<32x64xindex>, tensor<32x64xindex>] -> tensor<32x64xbf16>
    %d = xtile.dot %xt, %wt, %a : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  } {xtile.num_stages = 3 : i64, xtile.pipeline = #xtile.pipeline<stages = 3>}
  %yr = xtile.broadcast %rows : tensor<64x1xindex> -> tensor<64x64xindex>
  %yc = xtile.broadcast %cols : tensor<1x64xindex> -> tensor<64x64xindex>
  xtile.store %acc, %y[%yr, %yc] : memref<64x64xf32>[tensor<64x64xindex>, tensor<64x64xindex>], tensor<64x64xf32>
}

// -----

#sm90 = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>

// 16 bf16 elements are 32 bytes: more than one cp.async moves.
xtile.kernel @linear(%x: memref<64x96xbf16>, %w: memref<64x96xbf16>) -> (%y: memref<64x64xf32>)
    attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 3, warps = 4, instruction = mma_sync, warps_m = 2>, target = #sm90} {
  %c0 = arith.constant 0 : index
  %c96 = arith.constant 96 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %init = xtile.splat %zero : f32 -> tensor<64x64xf32>
  %r64 = xtile.range 0 to 64 : tensor<64xindex>
  %rows = xtile.reshape %r64 : tensor<64xindex> -> tensor<64x1xindex>
  %xrows = xtile.broadcast %rows : tensor<64x1xindex> -> tensor<64x32xindex>
  %cols = xtile.reshape %r64 : tensor<64xindex> -> tensor<1x64xindex>
  %wrows = xtile.broadcast %cols : tensor<1x64xindex> -> tensor<32x64xindex>
  %acc = scf.for %k = %c0 to %c96 step %c32 iter_args(%a = %init) -> (tensor<64x64xf32>) {
    %r32 = xtile.range 0 to 32 : tensor<32xindex>
    %ks = xtile.splat %k : index -> tensor<32xindex>
    %kk = arith.addi %r32, %ks : tensor<32xindex>
    %krow = xtile.reshape %kk : tensor<32xindex> -> tensor<1x32xindex>
    %xk = xtile.broadcast %krow : tensor<1x32xindex> -> tensor<64x32xindex>
    %kcol = xtile.reshape %kk : tensor<32xindex> -> tensor<32x1xindex>
    %wk = xtile.broadcast %kcol : tensor<32x1xindex> -> tensor<32x64xindex>
    // expected-error @below {{cannot be copied into shared memory as #xtile.async_copy<group = 16> asks}}
    %xt = xtile.load %x[%xrows, %xk] {xtile.async_copy = #xtile.async_copy<group = 16>} : memref<64x96xbf16>[tensor<64x32xindex>, tensor<64x32xindex>] -> tensor<64x32xbf16>
    %wt = xtile.load %w[%wrows, %wk] : memref<64x96xbf16>[tensor<32x64xindex>, tensor<32x64xindex>] -> tensor<32x64xbf16>
    %d = xtile.dot %xt, %wt, %a : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  } {xtile.num_stages = 3 : i64, xtile.pipeline = #xtile.pipeline<stages = 3>}
  %yr = xtile.broadcast %rows : tensor<64x1xindex> -> tensor<64x64xindex>
  %yc = xtile.broadcast %cols : tensor<1x64xindex> -> tensor<64x64xindex>
  xtile.store %acc, %y[%yr, %yc] : memref<64x64xf32>[tensor<64x64xindex>, tensor<64x64xindex>], tensor<64x64xf32>
}

// -----

#sm90 = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>

// x is contiguous along its rows, not its columns.
xtile.kernel @linear(%x: memref<64x96xbf16>, %w: memref<64x96xbf16>) -> (%y: memref<64x64xf32>)
    attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 3, warps = 4, instruction = mma_sync, warps_m = 2>, target = #sm90} {
  %c0 = arith.constant 0 : index
  %c96 = arith.constant 96 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %init = xtile.splat %zero : f32 -> tensor<64x64xf32>
  %r64 = xtile.range 0 to 64 : tensor<64xindex>
  %rows = xtile.reshape %r64 : tensor<64xindex> -> tensor<64x1xindex>
  %xrows = xtile.broadcast %rows : tensor<64x1xindex> -> tensor<64x32xindex>
  %cols = xtile.reshape %r64 : tensor<64xindex> -> tensor<1x64xindex>
  %wrows = xtile.broadcast %cols : tensor<1x64xindex> -> tensor<32x64xindex>
  %acc = scf.for %k = %c0 to %c96 step %c32 iter_args(%a = %init) -> (tensor<64x64xf32>) {
    %r32 = xtile.range 0 to 32 : tensor<32xindex>
    %ks = xtile.splat %k : index -> tensor<32xindex>
    %kk = arith.addi %r32, %ks : tensor<32xindex>
    %krow = xtile.reshape %kk : tensor<32xindex> -> tensor<1x32xindex>
    %xk = xtile.broadcast %krow : tensor<1x32xindex> -> tensor<64x32xindex>
    %kcol = xtile.reshape %kk : tensor<32xindex> -> tensor<32x1xindex>
    %wk = xtile.broadcast %kcol : tensor<32x1xindex> -> tensor<32x64xindex>
    // expected-error @below {{cannot be copied into shared memory as #xtile.async_copy<group = 8, transposed = true> asks}}
    %xt = xtile.load %x[%xrows, %xk] {xtile.async_copy = #xtile.async_copy<group = 8, transposed = true>} : memref<64x96xbf16>[tensor<64x32xindex>, tensor<64x32xindex>] -> tensor<64x32xbf16>
    %wt = xtile.load %w[%wrows, %wk] : memref<64x96xbf16>[tensor<32x64xindex>, tensor<32x64xindex>] -> tensor<32x64xbf16>
    %d = xtile.dot %xt, %wt, %a : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  } {xtile.num_stages = 3 : i64, xtile.pipeline = #xtile.pipeline<stages = 3>}
  %yr = xtile.broadcast %rows : tensor<64x1xindex> -> tensor<64x64xindex>
  %yc = xtile.broadcast %cols : tensor<1x64xindex> -> tensor<64x64xindex>
  xtile.store %acc, %y[%yr, %yc] : memref<64x64xf32>[tensor<64x64xindex>, tensor<64x64xindex>], tensor<64x64xf32>
}

// -----

#sm90 = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>

// TMA copies are for wgmma kernels.
xtile.kernel @linear(%x: memref<64x96xbf16>, %w: memref<64x96xbf16>) -> (%y: memref<64x64xf32>)
    attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 3, warps = 4, instruction = mma_sync, warps_m = 2>, target = #sm90} {
  %c0 = arith.constant 0 : index
  %c96 = arith.constant 96 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %init = xtile.splat %zero : f32 -> tensor<64x64xf32>
  %r64 = xtile.range 0 to 64 : tensor<64xindex>
  %rows = xtile.reshape %r64 : tensor<64xindex> -> tensor<64x1xindex>
  %xrows = xtile.broadcast %rows : tensor<64x1xindex> -> tensor<64x32xindex>
  %cols = xtile.reshape %r64 : tensor<64xindex> -> tensor<1x64xindex>
  %wrows = xtile.broadcast %cols : tensor<1x64xindex> -> tensor<32x64xindex>
  %acc = scf.for %k = %c0 to %c96 step %c32 iter_args(%a = %init) -> (tensor<64x64xf32>) {
    %r32 = xtile.range 0 to 32 : tensor<32xindex>
    %ks = xtile.splat %k : index -> tensor<32xindex>
    %kk = arith.addi %r32, %ks : tensor<32xindex>
    %krow = xtile.reshape %kk : tensor<32xindex> -> tensor<1x32xindex>
    %xk = xtile.broadcast %krow : tensor<1x32xindex> -> tensor<64x32xindex>
    %kcol = xtile.reshape %kk : tensor<32xindex> -> tensor<32x1xindex>
    %wk = xtile.broadcast %kcol : tensor<32x1xindex> -> tensor<32x64xindex>
    // expected-error @below {{cannot be brought in by TMA as #xtile.async_copy<group = 8, tma_box = [64, 32], swizzle = 64> asks: TMA copies need wgmma}}
    %xt = xtile.load %x[%xrows, %xk] {xtile.async_copy = #xtile.async_copy<group = 8, tma_box = [64, 32], swizzle = 64>} : memref<64x96xbf16>[tensor<64x32xindex>, tensor<64x32xindex>] -> tensor<64x32xbf16>
    %wt = xtile.load %w[%wrows, %wk] : memref<64x96xbf16>[tensor<32x64xindex>, tensor<32x64xindex>] -> tensor<32x64xbf16>
    %d = xtile.dot %xt, %wt, %a : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  } {xtile.num_stages = 3 : i64, xtile.pipeline = #xtile.pipeline<stages = 3>}
  %yr = xtile.broadcast %rows : tensor<64x1xindex> -> tensor<64x64xindex>
  %yc = xtile.broadcast %cols : tensor<1x64xindex> -> tensor<64x64xindex>
  xtile.store %acc, %y[%yr, %yc] : memref<64x64xf32>[tensor<64x64xindex>, tensor<64x64xindex>], tensor<64x64xf32>
}

// -----

#sm90 = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>

// wgmma groups can stay in flight only on wgmma.
xtile.kernel @linear(%x: memref<64x96xbf16>, %w: memref<64x96xbf16>) -> (%y: memref<64x64xf32>)
    attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 3, warps = 4, instruction = mma_sync, warps_m = 2>, target = #sm90} {
  %c0 = arith.constant 0 : index
  %c96 = arith.constant 96 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %init = xtile.splat %zero : f32 -> tensor<64x64xf32>
  %r64 = xtile.range 0 to 64 : tensor<64xindex>
  %rows = xtile.reshape %r64 : tensor<64xindex> -> tensor<64x1xindex>
  %xrows = xtile.broadcast %rows : tensor<64x1xindex> -> tensor<64x32xindex>
  %cols = xtile.reshape %r64 : tensor<64xindex> -> tensor<1x64xindex>
  %wrows = xtile.broadcast %cols : tensor<1x64xindex> -> tensor<32x64xindex>
  // expected-error @below {{cannot leave wgmma groups in flight across iterations}}
  %acc = scf.for %k = %c0 to %c96 step %c32 iter_args(%a = %init) -> (tensor<64x64xf32>) {
    %r32 = xtile.range 0 to 32 : tensor<32xindex>
    %ks = xtile.splat %k : index -> tensor<32xindex>
    %kk = arith.addi %r32, %ks : tensor<32xindex>
    %krow = xtile.reshape %kk : tensor<32xindex> -> tensor<1x32xindex>
    %xk = xtile.broadcast %krow : tensor<1x32xindex> -> tensor<64x32xindex>
    %kcol = xtile.reshape %kk : tensor<32xindex> -> tensor<32x1xindex>
    %wk = xtile.broadcast %kcol : tensor<32x1xindex> -> tensor<32x64xindex>
    %xt = xtile.load %x[%xrows, %xk] {xtile.async_copy = #xtile.async_copy<group = 8>} : memref<64x96xbf16>[tensor<64x32xindex>, tensor<64x32xindex>] -> tensor<64x32xbf16>
    %wt = xtile.load %w[%wrows, %wk] {xtile.async_copy = #xtile.async_copy<group = 8, transposed = true>} : memref<64x96xbf16>[tensor<32x64xindex>, tensor<32x64xindex>] -> tensor<32x64xbf16>
    %d = xtile.dot %xt, %wt, %a : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  } {xtile.num_stages = 3 : i64, xtile.pipeline = #xtile.pipeline<stages = 3, overlap = true>}
  %yr = xtile.broadcast %rows : tensor<64x1xindex> -> tensor<64x64xindex>
  %yc = xtile.broadcast %cols : tensor<1x64xindex> -> tensor<64x64xindex>
  xtile.store %acc, %y[%yr, %yc] : memref<64x64xf32>[tensor<64x64xindex>, tensor<64x64xindex>], tensor<64x64xf32>
}

// -----

#sm90 = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>

// The schedule is not warp-specialized.
xtile.kernel @linear(%x: memref<64x96xbf16>, %w: memref<64x96xbf16>) -> (%y: memref<64x64xf32>)
    attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 3, warps = 4, instruction = mma_sync, warps_m = 2>, target = #sm90} {
  %c0 = arith.constant 0 : index
  %c96 = arith.constant 96 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %init = xtile.splat %zero : f32 -> tensor<64x64xf32>
  %r64 = xtile.range 0 to 64 : tensor<64xindex>
  %rows = xtile.reshape %r64 : tensor<64xindex> -> tensor<64x1xindex>
  %xrows = xtile.broadcast %rows : tensor<64x1xindex> -> tensor<64x32xindex>
  %cols = xtile.reshape %r64 : tensor<64xindex> -> tensor<1x64xindex>
  %wrows = xtile.broadcast %cols : tensor<1x64xindex> -> tensor<32x64xindex>
  // expected-error @below {{cannot be where the kernel splits into producer and consumer warpgroups}}
  %acc = scf.for %k = %c0 to %c96 step %c32 iter_args(%a = %init) -> (tensor<64x64xf32>) {
    %r32 = xtile.range 0 to 32 : tensor<32xindex>
    %ks = xtile.splat %k : index -> tensor<32xindex>
    %kk = arith.addi %r32, %ks : tensor<32xindex>
    %krow = xtile.reshape %kk : tensor<32xindex> -> tensor<1x32xindex>
    %xk = xtile.broadcast %krow : tensor<1x32xindex> -> tensor<64x32xindex>
    %kcol = xtile.reshape %kk : tensor<32xindex> -> tensor<32x1xindex>
    %wk = xtile.broadcast %kcol : tensor<32x1xindex> -> tensor<32x64xindex>
    %xt = xtile.load %x[%xrows, %xk] {xtile.async_copy = #xtile.async_copy<group = 8>} : memref<64x96xbf16>[tensor<64x32xindex>, tensor<64x32xindex>] -> tensor<64x32xbf16>
    %wt = xtile.load %w[%wrows, %wk] : memref<64x96xbf16>[tensor<32x64xindex>, tensor<32x64xindex>] -> tensor<32x64xbf16>
    %d = xtile.dot %xt, %wt, %a : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  } {xtile.num_stages = 3 : i64, xtile.pipeline = #xtile.pipeline<stages = 3, warp_specialized = true>}
  %yr = xtile.broadcast %rows : tensor<64x1xindex> -> tensor<64x64xindex>
  %yc = xtile.broadcast %cols : tensor<1x64xindex> -> tensor<64x64xindex>
  xtile.store %acc, %y[%yr, %yc] : memref<64x64xf32>[tensor<64x64xindex>, tensor<64x64xindex>], tensor<64x64xf32>
}

// -----

#sm90 = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>

// A copy needs its loop's plan.
xtile.kernel @linear(%x: memref<64x96xbf16>, %w: memref<64x96xbf16>) -> (%y: memref<64x64xf32>)
    attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 3, warps = 4, instruction = mma_sync, warps_m = 2>, target = #sm90} {
  %c0 = arith.constant 0 : index
  %c96 = arith.constant 96 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %init = xtile.splat %zero : f32 -> tensor<64x64xf32>
  %r64 = xtile.range 0 to 64 : tensor<64xindex>
  %rows = xtile.reshape %r64 : tensor<64xindex> -> tensor<64x1xindex>
  %xrows = xtile.broadcast %rows : tensor<64x1xindex> -> tensor<64x32xindex>
  %cols = xtile.reshape %r64 : tensor<64xindex> -> tensor<1x64xindex>
  %wrows = xtile.broadcast %cols : tensor<1x64xindex> -> tensor<32x64xindex>
  %acc = scf.for %k = %c0 to %c96 step %c32 iter_args(%a = %init) -> (tensor<64x64xf32>) {
    %r32 = xtile.range 0 to 32 : tensor<32xindex>
    %ks = xtile.splat %k : index -> tensor<32xindex>
    %kk = arith.addi %r32, %ks : tensor<32xindex>
    %krow = xtile.reshape %kk : tensor<32xindex> -> tensor<1x32xindex>
    %xk = xtile.broadcast %krow : tensor<1x32xindex> -> tensor<64x32xindex>
    %kcol = xtile.reshape %kk : tensor<32xindex> -> tensor<32x1xindex>
    %wk = xtile.broadcast %kcol : tensor<32x1xindex> -> tensor<32x64xindex>
    // expected-error @below {{is marked for an asynchronous copy outside a pipelined loop}}
    %xt = xtile.load %x[%xrows, %xk] {xtile.async_copy = #xtile.async_copy<group = 8>} : memref<64x96xbf16>[tensor<64x32xindex>, tensor<64x32xindex>] -> tensor<64x32xbf16>
    %wt = xtile.load %w[%wrows, %wk] : memref<64x96xbf16>[tensor<32x64xindex>, tensor<32x64xindex>] -> tensor<32x64xbf16>
    %d = xtile.dot %xt, %wt, %a : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  } {xtile.num_stages = 3 : i64}
  %yr = xtile.broadcast %rows : tensor<64x1xindex> -> tensor<64x64xindex>
  %yc = xtile.broadcast %cols : tensor<1x64xindex> -> tensor<64x64xindex>
  xtile.store %acc, %y[%yr, %yc] : memref<64x64xf32>[tensor<64x64xindex>, tensor<64x64xindex>], tensor<64x64xf32>
}
