// RUN: xtile-opt %S/../../../Integration/Inputs/dynamic-rows.mlir --lower-to-loop | FileCheck %s
// RUN: xtile-opt %S/../../../Integration/Inputs/dynamic-rows.mlir --lower-to-loop --xloop-report=output=- -o /dev/null | FileCheck %s --check-prefix=REPORT

// Fusion over a dynamic token count T: each norm, the softmax and the MLP
// become one kernel with one size argument, as their static versions do
// from T = 128 (priced at T's hint, 1024). The report counts bytes as
// polynomials in T: every function moves its ideal traffic.
// CHECK-LABEL: xloop.kernel @rms_norm_
// CHECK-SAME:    [%[[T:[a-z0-9_]+]] = 1 to 4096](%{{.*}}: memref<?x512xf32> [%[[T]]], %{{.*}}: memref<512xf32>) -> (%{{.*}}: memref<?x512xf32> [%[[T]]])
// CHECK:         xloop.parallel %{{.*}} = 0 to %[[T]] {
// CHECK:           xloop.fold %{{.*}} = 0 to 512 combine add
// CHECK-LABEL: func.func @rms_norm(
// CHECK-COUNT-1: xloop.launch
// CHECK-NOT:     xloop.launch
// CHECK:         return
// CHECK-LABEL: xloop.kernel @softmax_
// CHECK-SAME:    [%[[T:[a-z0-9_]+]] = 1 to 4096]
// CHECK:         xloop.online_fold
// CHECK-LABEL: func.func @softmax(
// CHECK-COUNT-1: xloop.launch @softmax_{{[a-z0-9_]+}}[T]
// CHECK-NOT:     xloop.launch
// CHECK-LABEL: func.func @layer_norm(
// CHECK-COUNT-1: xloop.launch @layer_norm_{{[a-z0-9_]+}}[T]
// CHECK-NOT:     xloop.launch
// CHECK-LABEL: func.func @gelu_mlp(
// CHECK-COUNT-1: xloop.launch @gelu_mlp_{{[a-z0-9_]+}}[T]
// CHECK-NOT:     xloop.launch

// REPORT: kernel @rms_norm_{{.*}} reads 2048*T + 2048 B writes 2048*T B
// REPORT: kernel @softmax_{{.*}} reads 2000*T B writes 2000*T B
// REPORT: func @rms_norm: 1 launch, 4096*T + 2048 B moved, ideal 4096*T + 2048 B (1.00x at T=1024)
// REPORT: func @softmax: 1 launch, 4000*T B moved, ideal 4000*T B (1.00x at T=1024)
// REPORT: func @layer_norm: 1 launch, 6144*T + 6144 B moved, ideal 6144*T + 6144 B (1.00x at T=1024)
// REPORT: func @gelu_mlp: 1 launch, 1536*T + 131584 B moved, ideal 1536*T + 131584 B (1.00x at T=1024)
