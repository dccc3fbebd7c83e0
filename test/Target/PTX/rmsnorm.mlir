// RUN: xtile-opt --lower-to-kernel %xtile_src_root/examples/rmsnorm.mlir | xtile-translate --mlir-to-ptx | FileCheck %s
// RUN: xtile-opt --lower-to-kernel=target=sm_80 %xtile_src_root/examples/rmsnorm.mlir | xtile-translate --mlir-to-ptx | FileCheck %s --check-prefix=SM80

// RMSNorm, one block per row: 16-byte loads of the row (through the
// non-coherent cache, the row is read-only), the sum of squares folded with
// butterfly shuffles, then across warps through shared memory after a
// barrier, and 16-byte stores. No libdevice: rsqrt is sqrt and a
// reciprocal.

// CHECK: .version 8.0
// CHECK-NEXT: .target sm_90
// CHECK-NEXT: .address_size 64
// CHECK-NOT: .extern .func
// CHECK: .visible .entry [[K:rmsnorm_[a-z0-9_]+]](
// CHECK: .maxntid 256, 1, 1
// CHECK: .shared .align 16 .b8 [[K]]_shared_0[32];
// CHECK-COUNT-4: ld.global.nc.v4.{{b|f}}32
// CHECK: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// CHECK: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// CHECK: st.shared
// CHECK: bar.sync 0;
// CHECK: ld.shared.v4
// CHECK: rsqrt.approx.f32
// CHECK-COUNT-4: ld.global.nc.v4.{{b|f}}32
// CHECK-COUNT-4: st.global.v4.{{b|f}}32
// CHECK-NOT: call
// CHECK: ret;

// SM80: .version 7.0
// SM80-NEXT: .target sm_80
// SM80: .entry rmsnorm_
// SM80: ld.global.nc.v4
// SM80: bar.sync 0;
