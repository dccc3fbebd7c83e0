// RUN: xtile-opt %s --convert-xkernel-to-nvvm | FileCheck %s

// Structured control flow becomes branches; a loop marked xkernel.unroll
// carries LLVM's full-unroll metadata on its back edge, other loops none.

// CHECK: #[[UNROLL:.*]] = #llvm.loop_unroll<full = true>
// CHECK: #[[HINT:.*]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// CHECK-LABEL: llvm.func @flow
// CHECK: llvm.br ^[[HEAD:.*]](%{{.*}}, %{{.*}} : i64, f32)
// CHECK: ^[[HEAD]](%[[K:.*]]: i64, %[[ACC:.*]]: f32):
// CHECK: llvm.cond_br %{{.*}}, ^[[BODY:.*]], ^[[EXIT:bb[0-9]+]]
// CHECK: ^[[BODY]]:
// CHECK: llvm.load
// CHECK: llvm.br ^[[HEAD]](%{{.*}}, %{{.*}} : i64, f32) {loop_annotation = #[[HINT]]}
// CHECK: ^[[EXIT]]:
// CHECK: llvm.br ^[[HEAD2:.*]](%{{.*}} : i64)
// CHECK: ^[[HEAD2]](%{{.*}}: i64):
// CHECK: llvm.br ^[[HEAD2]](%{{.*}} : i64){{$}}
// The scf.if with a result joins in a block argument.
// CHECK: llvm.cond_br %{{.*}}, ^[[THEN:.*]], ^[[ELSE:bb[0-9]+]]
// CHECK: ^[[THEN]]:
// CHECK: llvm.br ^[[JOIN:bb[0-9]+]](%{{.*}} : f32)
// CHECK: ^[[ELSE]]:
// CHECK: llvm.br ^[[JOIN]](%[[ACC]] : f32)
// CHECK: ^[[JOIN]](%[[R:.*]]: f32):
// CHECK: llvm.store %[[R]]
xkernel.func @flow(%x: !xkernel.ptr<f32, global>) attributes {max_threads = 32 : i64} {
  %i = xkernel.thread_id x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
    %v = xkernel.load %x[%k] : !xkernel.ptr<f32, global> -> f32
    %a = arith.addf %acc, %v : f32
    scf.yield %a : f32
  } {xkernel.unroll}
  scf.for %k = %c0 to %c8 step %c1 {
    xkernel.store %sum, %x[%k] : f32, !xkernel.ptr<f32, global>
  }
  %first = arith.cmpi eq, %i, %c0 : index
  %r = scf.if %first -> (f32) {
    %d = arith.mulf %sum, %sum : f32
    scf.yield %d : f32
  } else {
    scf.yield %sum : f32
  }
  xkernel.store %r, %x[%i] : f32, !xkernel.ptr<f32, global>
  xkernel.return
}

// Lanes of vector accesses are extracted and assembled with LLVM's vector
// operations.
// CHECK-LABEL: llvm.func @lanes
// CHECK: %[[V:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK: llvm.extractelement %[[V]][%{{.*}} : i64] : vector<4xf32>
// CHECK: llvm.insertelement
// CHECK: llvm.shufflevector
// CHECK: llvm.store %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
xkernel.func @lanes(%x: !xkernel.ptr<f32, global>) attributes {max_threads = 32 : i64} {
  %i = xkernel.thread_id x
  %v = xkernel.load %x[%i] : !xkernel.ptr<f32, global> -> vector<4xf32>
  %a = vector.extract %v[1] : f32 from vector<4xf32>
  %b = vector.broadcast %a : f32 to vector<4xf32>
  %c = arith.addf %v, %b : vector<4xf32>
  %e = vector.extract %c[3] : f32 from vector<4xf32>
  %w = vector.from_elements %a, %e, %a, %e : vector<4xf32>
  %s = arith.mulf %w, %c : vector<4xf32>
  xkernel.store %s, %x[%i] : vector<4xf32>, !xkernel.ptr<f32, global>
  xkernel.return
}
