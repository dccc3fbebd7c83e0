// RUN: xtile-opt --lower-to-kernel %xtile_src_root/examples/layernorm.mlir | xtile-translate --mlir-to-ptx | FileCheck %s

// LayerNorm in one kernel: two block-wide folds (mean, then variance), each
// through shuffles and its own shared array, then the normalized row.

// CHECK-NOT: .extern .func
// CHECK: .visible .entry [[K:layernorm_[a-z0-9_]+]](
// CHECK: .maxntid 256, 1, 1
// CHECK-COUNT-4: ld.global.nc.v4.{{b|f}}32
// CHECK: shfl.sync.bfly.b32
// CHECK: bar.sync 0;
// CHECK: ld.shared.v4.{{b|f}}32 {{.*}}, [[[K]]_shared_0];
// CHECK: shfl.sync.bfly.b32
// CHECK: bar.sync 0;
// CHECK: ld.shared.v4.{{b|f}}32 {{.*}}, [[[K]]_shared_1];
// CHECK: rsqrt.approx.f32
// CHECK-COUNT-4: st.global.v4.{{b|f}}32
// CHECK-NOT: call
// CHECK: ret;
