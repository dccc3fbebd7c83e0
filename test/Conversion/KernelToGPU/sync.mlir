// RUN: xtile-opt %s --convert-xkernel-to-nvvm | FileCheck %s

// Shuffles involve the whole warp (mask -1); CUDA's encoding of the
// segment width: ((32 - width) << 8) | 31.
// CHECK-LABEL: llvm.func @shuffles
// CHECK-DAG: %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[V:.*]] = llvm.load {{.*}} -> f32
// CHECK: %[[K:.*]] = llvm.load {{.*}} -> i32
// CHECK: %[[M0:.*]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK: %[[W32:.*]] = llvm.mlir.constant(31 : i32) : i32
// CHECK: %[[A:.*]] = nvvm.shfl.sync bfly %[[M0]], %[[V]], %[[C16]], %[[W32]] : f32 -> f32
// CHECK: %[[W16:.*]] = llvm.mlir.constant(4127 : i32) : i32
// CHECK: %[[B:.*]] = nvvm.shfl.sync down %{{.*}}, %[[A]], %[[C1]], %[[W16]] : f32 -> f32
// CHECK: %[[W8:.*]] = llvm.mlir.constant(6175 : i32) : i32
// CHECK: nvvm.shfl.sync idx %{{.*}}, %[[K]], %[[C1]], %[[W8]] : i32 -> i32
xkernel.func @shuffles(%x: !xkernel.ptr<f32, global>, %n: !xkernel.ptr<i32, global>)
    attributes {max_threads = 64 : i64} {
  %i = xkernel.thread_id x
  %v = xkernel.load %x[%i] : !xkernel.ptr<f32, global> -> f32
  %k = xkernel.load %n[%i] : !xkernel.ptr<i32, global> -> i32
  %o16 = arith.constant 16 : i32
  %o1 = arith.constant 1 : i32
  %a = xkernel.shuffle xor %v, %o16 width 32 : f32
  %b = xkernel.shuffle down %a, %o1 width 16 : f32
  %c = xkernel.shuffle idx %k, %o1 width 8 : i32
  %s = arith.addf %a, %b : f32
  xkernel.store %s, %x[%i] : f32, !xkernel.ptr<f32, global>
  xkernel.store %c, %n[%i] : i32, !xkernel.ptr<i32, global>
  xkernel.return
}

// Atomics are relaxed read-modify-writes; floats use the float operations.
// CHECK-LABEL: llvm.func @atomics
// CHECK: %[[P0:.*]] = llvm.getelementptr inbounds %{{.*}}[%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK: %[[S:.*]] = llvm.atomicrmw fadd %[[P0]], %{{.*}} monotonic : !llvm.ptr<1>, f32
// CHECK: %[[T:.*]] = llvm.atomicrmw max %{{.*}}, %{{.*}} monotonic : !llvm.ptr<1>, i32
// CHECK: llvm.atomicrmw fmin %{{.*}}, %[[S]] monotonic : !llvm.ptr<1>, f32
// CHECK: llvm.atomicrmw add %{{.*}}, %[[T]] monotonic : !llvm.ptr<1>, i32
// CHECK: llvm.atomicrmw fmax %{{.*}}, %{{.*}} monotonic : !llvm.ptr<3>, f32
// CHECK: llvm.atomicrmw min %{{.*}}, %{{.*}} monotonic : !llvm.ptr<1>, i32
xkernel.func @atomics(%x: !xkernel.ptr<f32, global>, %n: !xkernel.ptr<i32, global>)
    attributes {max_threads = 64 : i64} {
  %i = xkernel.thread_id x
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %k = arith.constant 3 : i32
  %sh = xkernel.shared 1 : !xkernel.ptr<f32, shared>
  %s = xkernel.atomic add %one, %x[%c0] : f32, !xkernel.ptr<f32, global>
  %t = xkernel.atomic max %k, %n[%c0] : i32, !xkernel.ptr<i32, global>
  %u = xkernel.atomic min %s, %x[%i] : f32, !xkernel.ptr<f32, global>
  %w = xkernel.atomic add %t, %n[%i] : i32, !xkernel.ptr<i32, global>
  %m = xkernel.atomic max %u, %sh[%c0] : f32, !xkernel.ptr<f32, shared>
  %l = xkernel.atomic min %w, %n[%c0] : i32, !xkernel.ptr<i32, global>
  xkernel.return
}

// cp.async: 16-byte copies bypass L1, `valid` becomes the source size (the
// rest of the destination is zero-filled); then commit, wait, barrier.
// CHECK-LABEL: llvm.func @copies
// CHECK-SAME: (%[[X:.*]]: !llvm.ptr<1>, %[[VALID:.*]]: i32)
// CHECK: %[[SMEM:.*]] = llvm.mlir.addressof @xtile_dynamic_shared : !llvm.ptr<3>
// CHECK: %[[SRC:.*]] = llvm.getelementptr inbounds %[[X]][%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK: %[[DST:.*]] = llvm.getelementptr inbounds %[[SMEM]][%{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
// CHECK: nvvm.cp.async.shared.global %[[DST]], %[[SRC]], 16, cache = cg : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 8, cache = ca, %[[VALID]] : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache = ca : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.wait.group 1
// CHECK: nvvm.barrier
// CHECK: llvm.return
xkernel.func @copies(%x: !xkernel.ptr<f32, global>, %valid: i32)
    attributes {max_threads = 128 : i64, dynamic_shared = 8192 : i64} {
  %i = xkernel.thread_id x
  %s = xkernel.dynamic_shared 0 : !xkernel.ptr<f32, shared>
  xkernel.async_copy %x[%i] to %s[%i], 16 : !xkernel.ptr<f32, global> to !xkernel.ptr<f32, shared>
  xkernel.async_copy %x[%i] to %s[%i], 8 valid %valid : !xkernel.ptr<f32, global> to !xkernel.ptr<f32, shared>
  xkernel.async_copy %x[%i] to %s[%i], 4 : !xkernel.ptr<f32, global> to !xkernel.ptr<f32, shared>
  xkernel.async_commit
  xkernel.async_wait 1
  xkernel.barrier
  xkernel.return
}
