// RUN: xtile-translate --mlir-to-launch-plan %s | FileCheck %s
// RUN: xtile-translate --mlir-to-cuda %s | FileCheck %s --check-prefix=CUDA

// A kernel compiled for two buckets of T: each launch lists the range of
// each of its sizes it runs at ("when"); the CUDA C program tests it.
xkernel.func @rows(%x: !xkernel.ptr<f32, global> {xkernel.readonly}, %y: !xkernel.ptr<f32, global>, %n: index) attributes {max_threads = 128 : i64} {
  xkernel.return
}
xkernel.func @rows_b1(%x: !xkernel.ptr<f32, global> {xkernel.readonly}, %y: !xkernel.ptr<f32, global>, %n: index) attributes {max_threads = 256 : i64} {
  xkernel.return
}
xkernel.program @bucketed[%T = 1 to 4096](%x: memref<?x8xf32> [%T]) -> (%y: memref<?x8xf32> [%T]) attributes {size_names = ["T"]} {
  xkernel.launch @rows(%x, %y) sizes(%T) when [1, 15] grid [15, 1, 1] map affine_map<()[s0] -> (s0)> block [128, 1, 1] shared 0 : memref<?x8xf32>, memref<?x8xf32>
  xkernel.launch @rows_b1(%x, %y) sizes(%T) when [16, 4096] grid [64, 1, 1] map affine_map<()[s0] -> (s0 ceildiv 64)> block [256, 1, 1] shared 0 : memref<?x8xf32>, memref<?x8xf32>
}

// CHECK:           "launch": "rows",
// CHECK-NEXT:      "shared": 0,
// CHECK-NEXT:      "sizes": [
// CHECK-NEXT:        0
// CHECK-NEXT:      ],
// CHECK-NEXT:      "when": [
// CHECK-NEXT:        [
// CHECK-NEXT:          1,
// CHECK-NEXT:          15
// CHECK-NEXT:        ]
// CHECK-NEXT:      ]
// CHECK:           "launch": "rows_b1",
// CHECK:           "when": [
// CHECK-NEXT:        [
// CHECK-NEXT:          16,
// CHECK-NEXT:          4096
// CHECK-NEXT:        ]
// CHECK-NEXT:      ]

// CUDA:      if (size_T >= 1 && size_T <= 15)
// CUDA-NEXT:   if ((err = xt_launch(rows, dim3((unsigned)size_T, 1, 1), dim3(128, 1, 1), 0, stream, in0, out0, (int64_t)size_T)) != cudaSuccess) break;
// CUDA-NEXT: if (size_T >= 16 && size_T <= 4096)
// CUDA-NEXT:   if ((err = xt_launch(rows_b1, dim3((unsigned)((size_T + 64LL - 1) / 64LL), 1, 1), dim3(256, 1, 1), 0, stream, in0, out0, (int64_t)size_T)) != cudaSuccess) break;
