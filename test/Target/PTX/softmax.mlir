// RUN: xtile-opt --lower-to-kernel %xtile_src_root/examples/softmax.mlir | xtile-translate --mlir-to-ptx | FileCheck %s

// Softmax, one block per row: the row max (NaN-propagating max) and the sum
// of exponentials, each folded through shuffles and shared memory; exp is
// computed inline on ex2.approx (docs/Math.md), not called.

// CHECK-NOT: .extern .func
// CHECK: .visible .entry [[K:softmax_[a-z0-9_]+]](
// CHECK: .maxntid 256, 1, 1
// CHECK-DAG: .shared .align 16 .b8 [[K]]_shared_0[32];
// CHECK-DAG: .shared .align 16 .b8 [[K]]_shared_1[32];
// CHECK-COUNT-4: ld.global.nc.v4.{{b|f}}32
// CHECK: max.NaN.f32
// CHECK: shfl.sync.bfly.b32
// CHECK: bar.sync 0;
// CHECK: ex2.approx.f32
// CHECK: fma.rn.f32
// CHECK: shfl.sync.bfly.b32
// CHECK: bar.sync 0;
// CHECK: div.rn.f32
// CHECK: st.global.v4.{{b|f}}32
// CHECK-NOT: call
// CHECK: ret;
