// RUN: xtile-opt %s --convert-xkernel-to-nvvm | FileCheck %s

// Math functions become arithmetic around the special-function
// instructions (--xkernel-expand-math: exp, tanh, erf, rsqrt, exp2; the
// NVVM intrinsics of ex2, rcp, rsqrt), upstream's polynomial approximations
// (log10 through log) or intrinsics NVPTX selects itself, never libdevice
// calls. f16 computes in f32.

// CHECK-NOT: __nv_
// CHECK-LABEL: llvm.func @functions
// CHECK-NOT: llvm.call @
// CHECK-NOT: llvm.intr.exp(
// CHECK-NOT: llvm.intr.log
// CHECK-NOT: llvm.intr.tanh
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
// CHECK: llvm.call_intrinsic "llvm.nvvm.rcp.approx.ftz.f"
// CHECK: llvm.intr.fma
// CHECK: llvm.call_intrinsic "llvm.nvvm.rsqrt.approx.f"
// CHECK: llvm.intr.fma(%{{.*}}, %{{.*}}, %{{.*}}) : (f32, f32, f32) -> f32
// CHECK: llvm.intr.sqrt(%{{.*}}) : (f32) -> f32
// CHECK-NEXT: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
// CHECK-NEXT: llvm.intr.fabs(%{{.*}}) : (f32) -> f32
// CHECK-NEXT: llvm.intr.maxnum(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK-NEXT: llvm.frem %{{.*}}, %{{.*}} : f32
// CHECK: llvm.load %{{.*}} : !llvm.ptr<1> -> f16
// CHECK-NEXT: llvm.fpext %{{.*}} : f16 to f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
// CHECK: llvm.fptrunc %{{.*}} : f32 to f16
// CHECK-NOT: llvm.call @
// CHECK: llvm.return
xkernel.func @functions(%x: !xkernel.ptr<f32, global>, %h: !xkernel.ptr<f16, global>)
    attributes {max_threads = 32 : i64} {
  %i = xkernel.thread_id x
  %v = xkernel.load %x[%i] : !xkernel.ptr<f32, global> -> f32
  %a = math.exp %v : f32
  %b = math.tanh %a : f32
  %c = math.erf %b : f32
  %d = math.log10 %c : f32
  %e = math.rsqrt %d : f32
  %f = math.fma %e, %v, %a : f32
  %g = math.sqrt %f : f32
  %j = math.exp2 %g : f32
  %k = math.absf %j : f32
  %l = arith.maxnumf %k, %v : f32
  %m = arith.remf %l, %v : f32
  xkernel.store %m, %x[%i] : f32, !xkernel.ptr<f32, global>
  %hv = xkernel.load %h[%i] : !xkernel.ptr<f16, global> -> f16
  %he = math.exp %hv : f16
  xkernel.store %he, %h[%i] : f16, !xkernel.ptr<f16, global>
  xkernel.return
}

// Signed floor division (index arithmetic of Tile IR) is expanded first.
// CHECK-LABEL: llvm.func @divisions
// CHECK: llvm.sdiv
// CHECK-NOT: floordivsi
xkernel.func @divisions(%x: !xkernel.ptr<f32, global>) attributes {max_threads = 32 : i64} {
  %i = xkernel.thread_id x
  %c3 = arith.constant 3 : index
  %j = arith.floordivsi %i, %c3 : index
  %v = xkernel.load %x[%j] : !xkernel.ptr<f32, global> -> f32
  xkernel.store %v, %x[%i] : f32, !xkernel.ptr<f32, global>
  xkernel.return
}

// rcp without ftz (the reciprocal of a kernel of 16-bit outputs) is
// div.full.f32 of 1 by x: NVVM has no rcp.approx.f32 intrinsic.
// CHECK-LABEL: llvm.func @reciprocal
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.div.full"(%[[ONE]], %{{.*}}) : (f32, f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.rcp.approx.ftz.f"
// CHECK: llvm.call_intrinsic "llvm.nvvm.div.full"(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
xkernel.func @reciprocal(%x: !xkernel.ptr<f32, global>) attributes {max_threads = 32 : i64} {
  %i = xkernel.thread_id x
  %v = xkernel.load %x[%i] : !xkernel.ptr<f32, global> -> f32
  %r = xkernel.approx rcp %v : f32
  %s = xkernel.approx rcp %r ftz : f32
  %q = xkernel.div_full %s, %v : f32
  xkernel.store %q, %x[%i] : f32, !xkernel.ptr<f32, global>
  xkernel.return
}
