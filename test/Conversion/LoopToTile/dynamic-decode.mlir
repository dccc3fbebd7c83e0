// A decode step of grouped-query attention over a dynamic number of keys
// T (the KV cache's length): the heads of a K/V group share one program
// (K and V read once per group), and where the cost model finds too few
// programs to fill the device, the keys are split over ways
// (flash-decoding), as many as the bucket of T calls for. A split bucket
// is two kernels: its partials' kernel (`partials_from`) and the combine,
// both launched where T is in the bucket's range.
// RUN: xtile-opt %s --lower-to-tile=target=sm_90 | FileCheck %s
// RUN: xtile-opt %s --lower-to-kernel=target=sm_90 | FileCheck %s --check-prefix=KERNEL

// CHECK:       xtile.kernel @[[K:decode_gqa_[a-z0-9_]+]][%{{.*}} = 1 to [[#END0:]]]
// CHECK-SAME:      grid = array<i64: 2>
// CHECK-NOT:       partials_from
// CHECK-SAME:      instruction = mma_sync
// CHECK-NOT:       ways
// CHECK:       xtile.kernel @[[K]]_b[[#P:]]_partial[%{{.*}} = [[#START:]] to [[#END:]]](
// CHECK-SAME:      -> (%{{.*}}: memref<[[ROWS:[0-9]+]]x[[WAYS:[0-9]+]]xf32>, %{{.*}}: memref<[[ROWS]]x[[WAYS]]xf32>, %{{.*}}: memref<[[ROWS]]x[[WAYS]]x64xf32>)
// CHECK-SAME:      ways = [[WAYS]]
// CHECK:       xtile.kernel @[[K]]_b[[#P]][%{{.*}} = [[#START]] to [[#END]]](
// CHECK-SAME:      memref<[[ROWS]]x[[WAYS]]x64xf32>) -> (%{{.*}}: memref<1x8x1x64xbf16>)
// CHECK-SAME:      grid = array<i64: 2>
// CHECK-SAME:      partials_from = @[[K]]_b[[#P]]_partial
// CHECK-LABEL: func.func @decode_gqa
// CHECK:         xtile.launch @[[K]][T](%{{.*}}) buckets [@[[K]]_b1, {{.*}}@[[K]]_b[[#P]]{{[],]}}

// The program allocates each split bucket's partials, and launches its two
// kernels, in order, where T is in its range.
// KERNEL-LABEL: xkernel.program @decode_gqa
// KERNEL:         %[[M:.*]] = xkernel.alloc : memref<{{[0-9]+}}x{{[0-9]+}}xf32>
// KERNEL-NEXT:    %[[L:.*]] = xkernel.alloc : memref<{{[0-9]+}}x{{[0-9]+}}xf32>
// KERNEL-NEXT:    %[[ACC:.*]] = xkernel.alloc : memref<{{[0-9]+}}x{{[0-9]+}}x64xf32>
// KERNEL:         xkernel.launch @[[K:decode_gqa_[a-z0-9_]+]](%{{.*}}) sizes(%[[T:.*]]) when [1, [[#END0:]]]
// KERNEL:         xkernel.launch @[[K]]_b[[#P:]]_partial(%{{.*}}, %[[M]], %[[L]], %[[ACC]]) sizes(%[[T]]) when [[[#START:]], [[#END:]]]
// KERNEL-NEXT:    xkernel.launch @[[K]]_b[[#P]](%{{.*}}, %[[M]], %[[L]], %[[ACC]], %{{.*}}) sizes(%[[T]]) when [[[#START]], [[#END]]]
#T = #xtensor.dims<T>
func.func @decode_gqa(%q: tensor<1x8x1x64xbf16>, %k: tensor<1x2x?x64xbf16, #T>, %v: tensor<1x2x?x64xbf16, #T>) -> tensor<1x8x1x64xbf16>
    attributes {xtensor.symbols = {T = array<i64: 1, 4096>}} {
  %1 = xtensor.reshape %k : tensor<1x2x?x64xbf16, #T> -> tensor<1x2x1x?x64xbf16, #T>
  %2 = xtensor.broadcast %1 : tensor<1x2x1x?x64xbf16, #T> -> tensor<1x2x4x?x64xbf16, #T>
  %3 = xtensor.reshape %2 : tensor<1x2x4x?x64xbf16, #T> -> tensor<1x8x?x64xbf16, #T>
  %4 = xtensor.reshape %v : tensor<1x2x?x64xbf16, #T> -> tensor<1x2x1x?x64xbf16, #T>
  %5 = xtensor.broadcast %4 : tensor<1x2x1x?x64xbf16, #T> -> tensor<1x2x4x?x64xbf16, #T>
  %6 = xtensor.reshape %5 : tensor<1x2x4x?x64xbf16, #T> -> tensor<1x8x?x64xbf16, #T>
  %7 = xtensor.transpose %3 perm [0, 1, 3, 2] : tensor<1x8x?x64xbf16, #T> -> tensor<1x8x64x?xbf16, #T>
  %8 = xtensor.matmul %q, %7 : tensor<1x8x1x64xbf16>, tensor<1x8x64x?xbf16, #T> -> tensor<1x8x1x?xbf16, #T>
  %9 = xtensor.constant dense<0.125> : tensor<1x8x1x1xbf16>
  %10 = xtensor.broadcast %9 : tensor<1x8x1x1xbf16> -> tensor<1x8x1x?xbf16, #T>
  %11 = xtensor.mul %8, %10 : tensor<1x8x1x?xbf16, #T>
  %12 = xtensor.softmax %11 dim 3 : tensor<1x8x1x?xbf16, #T>
  %13 = xtensor.matmul %12, %6 : tensor<1x8x1x?xbf16, #T>, tensor<1x8x?x64xbf16, #T> -> tensor<1x8x1x64xbf16>
  return %13 : tensor<1x8x1x64xbf16>
}
