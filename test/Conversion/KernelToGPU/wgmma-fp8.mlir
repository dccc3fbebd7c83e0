// RUN: xtile-opt %s --convert-xkernel-to-nvvm="chip=sm_90a features=+ptx84" | FileCheck %s

// fp8 wgmma (m64nNk32, e4m3 and e5m2): both operands K-major through
// descriptors whose offsets count bytes (an fp8 element is one: 1024
// elements are 64 units of 16 bytes), and, unlike 16-bit operands, no
// transpose immediates after the scales.
// CHECK-LABEL: llvm.func @wgmma_fp8
// CHECK:       %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK:       llvm.mul %{{.*}}, %[[ONE]] : i64
// CHECK:       llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, $66, 0;\0Awgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3 {$0, {{.*}}, $31}, $64, $65, p, $67,  $68;\0A}\0A", "{{.*}},l,l,n,n,n"
// CHECK:       wgmma.mma_async.sync.aligned.m64n128k32.f32.e5m2.e5m2 {$0, {{.*}}, $63}, $128, $129, p, $131,  $132;
xkernel.func @wgmma_fp8(%o: !xkernel.ptr<f32, global>) attributes {arch = "sm_90a", max_threads = 128 : i64, dynamic_shared = 40960 : i64} {
  %c0 = arith.constant 0 : index
  %c1024 = arith.constant 1024 : index
  %sa = xkernel.dynamic_shared 0 : !xkernel.ptr<f8E4M3FN, shared>
  %sb = xkernel.dynamic_shared 8192 : !xkernel.ptr<f8E4M3FN, shared>
  %z = arith.constant dense<0.0> : vector<32xf32>
  xkernel.wgmma_fence
  %d = xkernel.wgmma %sa[%c0], %sb[%c1024], %z : !xkernel.ptr<f8E4M3FN, shared>, !xkernel.ptr<f8E4M3FN, shared>, vector<32xf32>
  xkernel.wgmma_commit
  %r = xkernel.wgmma_wait 0, %d : vector<32xf32>
  %se = xkernel.dynamic_shared 16384 : !xkernel.ptr<f8E5M2, shared>
  %y = arith.constant dense<0.0> : vector<64xf32>
  %e = xkernel.wgmma %se[%c0], %se[%c0], %y : !xkernel.ptr<f8E5M2, shared>, !xkernel.ptr<f8E5M2, shared>, vector<64xf32>
  xkernel.wgmma_commit
  %f = xkernel.wgmma_wait 0, %e : vector<64xf32>
  %x = vector.extract %f[0] : f32 from vector<64xf32>
  %w = vector.extract %r[0] : f32 from vector<32xf32>
  %s = arith.addf %x, %w : f32
  xkernel.store %s, %o[%c0] : f32, !xkernel.ptr<f32, global>
  xkernel.return
}
