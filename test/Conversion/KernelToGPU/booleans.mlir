// RUN: xtile-opt %s --convert-xkernel-to-nvvm | FileCheck %s

// Booleans are a byte each in memory, as CUDA C's bool: a scalar i1 is
// loaded and stored as LLVM's i1 (one byte), a vector of i1 as a vector of
// bytes, truncated after the load and zero-extended before the store (LLVM
// IR packs the bits of a <4 x i1> in memory, which would read four
// booleans from one byte). Found by the differential run of both paths
// (xtile-fuzz --both-paths, seed 782).

// CHECK-LABEL: llvm.func @booleans
// CHECK: %[[V:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> vector<4xi8>
// CHECK: %[[B:.*]] = llvm.trunc %[[V]] : vector<4xi8> to vector<4xi1>
// CHECK: %[[N:.*]] = llvm.xor %[[B]], %{{.*}} : vector<4xi1>
// CHECK: %[[W:.*]] = llvm.zext %[[N]] : vector<4xi1> to vector<4xi8>
// CHECK: llvm.store %[[W]], %{{.*}} {alignment = 4 : i64} : vector<4xi8>, !llvm.ptr<1>
// CHECK: %[[S:.*]] = llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr<1> -> i1
// CHECK: llvm.store %[[S]], %{{.*}} {alignment = 1 : i64} : i1, !llvm.ptr<1>
xkernel.func @booleans(%x: !xkernel.ptr<i1, global>, %y: !xkernel.ptr<i1, global>) attributes {max_threads = 32 : i64} {
  %i = xkernel.thread_id x
  %c4 = arith.constant 4 : index
  %o = arith.muli %i, %c4 : index
  %v = xkernel.load %x[%o] : !xkernel.ptr<i1, global> -> vector<4xi1>
  %t = arith.constant dense<true> : vector<4xi1>
  %n = arith.xori %v, %t : vector<4xi1>
  xkernel.store %n, %y[%o] : vector<4xi1>, !xkernel.ptr<i1, global>
  %s = xkernel.load %x[%i] : !xkernel.ptr<i1, global> -> i1
  xkernel.store %s, %y[%i] : i1, !xkernel.ptr<i1, global>
  xkernel.return
}
