// RUN: xtile-opt %s --convert-xkernel-to-nvvm | FileCheck %s

// Casts to fp8: cvt.rn.satfinite.{e4m3,e5m2}x2.f32 on (0, x), x's byte the
// lower one, then PyTorch's cast: e5m2 is infinity from 61440 on (the
// instruction saturates), NaN keeps its sign (the instruction gives 0x7f).
// CHECK-LABEL: llvm.func @to_fp8
// CHECK:       %[[Z:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
// CHECK:       %[[P:.*]] = nvvm.convert.f32x2.to.f8x2 %[[Z]], %[[X:.*]] {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : i16(f8E4M3FN)
// CHECK:       %[[B:.*]] = llvm.trunc %[[P]] : i16 to i8
// CHECK:       llvm.bitcast %[[X]] : f32 to i32
// CHECK:       llvm.lshr
// CHECK:       llvm.and
// CHECK:       %[[S:.*]] = llvm.trunc %{{.*}} : i32 to i8
// CHECK:       llvm.or %[[B]], %[[S]] : i8
// CHECK:       nvvm.convert.f32x2.to.f8x2 {{.*}} : i16(f8E5M2)
// CHECK:       %[[A:.*]] = llvm.intr.fabs
// CHECK:       %[[L:.*]] = llvm.mlir.constant(6.144000e+04 : f32) : f32
// CHECK:       %[[O:.*]] = llvm.fcmp "oge" %[[A]], %[[L]] : f32
// CHECK:       llvm.select %[[O]]
xkernel.func @to_fp8(%x: f32, %p: !xkernel.ptr<f8E4M3FN, global>,
                     %q: !xkernel.ptr<f8E5M2, global>)
    attributes {max_threads = 32 : i64, arch = "sm_90"} {
  %c0 = arith.constant 0 : index
  %a = arith.truncf %x : f32 to f8E4M3FN
  xkernel.store %a, %p[%c0] : f8E4M3FN, <f8E4M3FN, global>
  %b = arith.truncf %x : f32 to f8E5M2
  xkernel.store %b, %q[%c0] : f8E5M2, <f8E5M2, global>
  xkernel.return
}

// From fp8: cvt.rn.f16x2.{e4m3,e5m2}x2 on (x, 0), the lower half x's value
// (exact), then widened (exact).
// CHECK-LABEL: llvm.func @from_fp8
// CHECK:       %[[V:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> i8
// CHECK:       %[[PAIR:.*]] = llvm.insertelement %[[V]], %{{.*}}[%{{.*}} : i32] : vector<2xi8>
// CHECK:       %[[H:.*]] = nvvm.convert.f8x2.to.f16x2 %[[PAIR]] : vector<2xi8>(f8E4M3FN) -> vector<2xf16>
// CHECK:       %[[E:.*]] = llvm.extractelement %[[H]]
// CHECK:       llvm.fpext %[[E]] : f16 to f32
// CHECK:       nvvm.convert.f8x2.to.f16x2 %{{.*}} : vector<2xi8>(f8E5M2) -> vector<2xf16>
// CHECK:       llvm.fpext %{{.*}} : f16 to f32
// CHECK:       llvm.fptrunc %{{.*}} : f32 to bf16
xkernel.func @from_fp8(%p: !xkernel.ptr<f8E4M3FN, global>,
                       %q: !xkernel.ptr<f8E5M2, global>,
                       %o: !xkernel.ptr<f32, global>,
                       %r: !xkernel.ptr<bf16, global>)
    attributes {max_threads = 32 : i64, arch = "sm_90"} {
  %c0 = arith.constant 0 : index
  %a = xkernel.load %p[%c0] : <f8E4M3FN, global> -> f8E4M3FN
  %x = arith.extf %a : f8E4M3FN to f32
  xkernel.store %x, %o[%c0] : f32, <f32, global>
  %b = xkernel.load %q[%c0] : <f8E5M2, global> -> f8E5M2
  %y = arith.extf %b : f8E5M2 to bf16
  xkernel.store %y, %r[%c0] : bf16, <bf16, global>
  xkernel.return
}
