// RUN: xtile-opt %s --convert-xkernel-to-nvvm | FileCheck %s

// Global pointers are address space 1, shared ones address space 3;
// offsets are i64 element indices; every access is aligned to its size.

// The external dynamic shared array comes first, every kernel's static
// shared arrays right before the kernel.
// CHECK: gpu.module @xtile_kernels
// CHECK-NEXT: llvm.mlir.global external @xtile_dynamic_shared() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-NEXT: llvm.mlir.global internal @memory_shared_0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<32 x f32>
// CHECK-NEXT: llvm.mlir.global internal @memory_shared_1() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<8 x f16>
// CHECK-NEXT: llvm.func @memory(%[[X:.*]]: !llvm.ptr<1> {llvm.noalias, llvm.readonly}, %[[H:.*]]: !llvm.ptr<1>, %[[Y:.*]]: !llvm.ptr<1>)
// CHECK: %[[I:.*]] = llvm.zext
// CHECK-DAG: %[[S:.*]] = llvm.mlir.addressof @memory_shared_0 : !llvm.ptr<3>
// CHECK-DAG: %[[T:.*]] = llvm.mlir.addressof @memory_shared_1 : !llvm.ptr<3>
// CHECK-DAG: %[[D0:.*]] = llvm.mlir.addressof @xtile_dynamic_shared : !llvm.ptr<3>
// CHECK-DAG: %[[DYN:.*]] = llvm.mlir.addressof @xtile_dynamic_shared : !llvm.ptr<3>
// CHECK-DAG: %[[C2048:.*]] = llvm.mlir.constant(2048 : i64) : i64
// CHECK: %[[D1:.*]] = llvm.getelementptr inbounds %[[DYN]][%[[C2048]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8

// 16-byte vector accesses:
// CHECK: %[[PX:.*]] = llvm.getelementptr inbounds %[[X]][%[[I]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK: %[[V:.*]] = llvm.load %[[PX]] {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK: %[[PD1:.*]] = llvm.getelementptr inbounds %[[D1]][%[[I]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
// CHECK: llvm.store %[[V]], %[[PD1]] {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK: llvm.getelementptr inbounds %[[H]][%[[I]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xbf16>
// CHECK: llvm.store %{{.*}} {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<1>

// Scalars and narrower vectors:
// CHECK: llvm.getelementptr inbounds %[[T]][%[[I]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f16
// CHECK: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<3> -> f16
// CHECK: llvm.store %{{.*}} {alignment = 2 : i64} : f16, !llvm.ptr<3>
// CHECK: llvm.getelementptr inbounds %[[S]][%[[I]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK: llvm.getelementptr inbounds %[[D0]][%[[I]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
// CHECK: llvm.store %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<3> -> vector<2xf32>
// CHECK: llvm.getelementptr inbounds %[[Y]][%[[I]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK: llvm.store %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<1>
xkernel.func @memory(%x: !xkernel.ptr<f32, global> {xkernel.readonly},
                     %h: !xkernel.ptr<bf16, global>,
                     %y: !xkernel.ptr<f32, global>)
    attributes {max_threads = 256 : i64, dynamic_shared = 4096 : i64} {
  %i = xkernel.thread_id x
  %s = xkernel.shared 32 : !xkernel.ptr<f32, shared>
  %t = xkernel.shared 8 : !xkernel.ptr<f16, shared>
  %d0 = xkernel.dynamic_shared 0 : !xkernel.ptr<f32, shared>
  %d1 = xkernel.dynamic_shared 2048 : !xkernel.ptr<f32, shared>
  %v = xkernel.load %x[%i] : !xkernel.ptr<f32, global> -> vector<4xf32>
  xkernel.store %v, %d1[%i] : vector<4xf32>, !xkernel.ptr<f32, shared>
  %w = xkernel.load %h[%i] : !xkernel.ptr<bf16, global> -> vector<8xbf16>
  xkernel.store %w, %h[%i] : vector<8xbf16>, !xkernel.ptr<bf16, global>
  %e = xkernel.load %t[%i] : !xkernel.ptr<f16, shared> -> f16
  xkernel.store %e, %t[%i] : f16, !xkernel.ptr<f16, shared>
  %f = xkernel.load %s[%i] : !xkernel.ptr<f32, shared> -> f32
  xkernel.store %f, %d0[%i] : f32, !xkernel.ptr<f32, shared>
  %g = xkernel.load %d0[%i] : !xkernel.ptr<f32, shared> -> vector<2xf32>
  xkernel.store %g, %y[%i] : vector<2xf32>, !xkernel.ptr<f32, global>
  xkernel.return
}

// A second kernel gets arrays of its own and shares the dynamic one.
// CHECK: llvm.mlir.global internal @other_shared_0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<4 x i32>
// CHECK-NEXT: llvm.func @other
// CHECK: llvm.mlir.addressof @other_shared_0 : !llvm.ptr<3>
// CHECK: llvm.mlir.addressof @xtile_dynamic_shared : !llvm.ptr<3>
// CHECK-NOT: llvm.mlir.global
xkernel.func @other(%y: !xkernel.ptr<i32, global>)
    attributes {max_threads = 32 : i64, dynamic_shared = 64 : i64} {
  %i = xkernel.thread_id x
  %s = xkernel.shared 4 : !xkernel.ptr<i32, shared>
  %d = xkernel.dynamic_shared 0 : !xkernel.ptr<i32, shared>
  %v = xkernel.load %s[%i] : !xkernel.ptr<i32, shared> -> i32
  xkernel.store %v, %d[%i] : i32, !xkernel.ptr<i32, shared>
  xkernel.store %v, %y[%i] : i32, !xkernel.ptr<i32, global>
  xkernel.return
}
