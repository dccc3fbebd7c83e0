// RUN: xtile-translate --mlir-to-ptx %S/Inputs/kernel-ops.mlir | FileCheck %s
// RUN: xtile-translate --mlir-to-ptx --ptx-chip=sm_80 %S/Inputs/kernel-ops.mlir | FileCheck %s --check-prefix=SM80
// A module already lowered by --convert-xkernel-to-nvvm translates the same.
// RUN: xtile-opt --convert-xkernel-to-nvvm %S/Inputs/kernel-ops.mlir | xtile-opt | xtile-translate --mlir-to-ptx | FileCheck %s

// The Kernel IR device ops as PTX instructions.

// CHECK: .extern .shared .align 16 .b8 xtile_dynamic_shared[];
// CHECK: .visible .entry stage(
// CHECK: .maxntid 128, 1, 1
// CHECK-DAG: mov.u32 {{.*}}, %tid.x;
// CHECK-DAG: mov.u32 {{.*}}, %ctaid.x;
// CHECK-DAG: mov.u32 {{.*}}, %ntid.x;
// cp.async: the 16-byte copy bypasses L1; the 8-byte one reads `valid`
// bytes and zero-fills the rest.
// CHECK: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16;
// CHECK: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 8, %r{{[0-9]+}};
// CHECK: cp.async.commit_group;
// CHECK: cp.async.wait_group 0;
// CHECK: bar.sync 0;
// CHECK: ld.shared.v4.{{b|f}}32
// The loop marked xkernel.unroll is unrolled: eight fmas, no back edge.
// CHECK-COUNT-8: fma.rn.f32
// CHECK-NOT: bra
// CHECK: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// CHECK: shfl.sync.down.b32 {{.*}}, 1, 4127, -1;
// CHECK: shfl.sync.idx.b32 {{.*}}, 1, 6175, -1;
// CHECK: atom.global.add.f32
// CHECK: atom.global.max.s32
// f16 exp computes in f32.
// CHECK: cvt.f32.f16
// CHECK: cvt.rn.f16.f32
// CHECK: st.global.b16
// CHECK: st.global.v4.{{b|f}}32
// CHECK-NOT: call
// CHECK: ret;

// SM80: .version 7.0
// SM80: .target sm_80
// SM80: cp.async.cg.shared.global
