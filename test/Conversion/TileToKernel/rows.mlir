// RUN: xtile-opt %s --lower-to-kernel | FileCheck %s
// RUN: xtile-opt %s --lower-to-kernel="target=sm_80" | FileCheck %s --check-prefix=SM80

// RMSNorm, schedule block:8:4: 256 threads, each holding 4 groups of 4
// adjacent columns of the row; 16-byte loads and stores; the sum of squares
// folded in registers, across the warp with shuffles, then across the 8
// warps through shared memory; every thread gets the result.
// CHECK-LABEL: xkernel.func @rmsnorm_mul_2(
// CHECK-SAME:    %[[X:.*]]: !xkernel.ptr<f32, global> {xkernel.readonly}, %[[W:.*]]: !xkernel.ptr<f32, global> {xkernel.readonly}, %[[Y:.*]]: !xkernel.ptr<f32, global>)
// CHECK-SAME:    attributes {arch = "sm_90", dynamic_shared = 0 : i64, max_threads = 256 : i64}
// CHECK:         %[[TID:.*]] = xkernel.thread_id x
// CHECK:         %[[LANE:.*]] = arith.remui %[[TID]], %c32
// CHECK:         %[[WARP:.*]] = arith.divui %[[TID]], %c32
// CHECK:         %[[COL:.*]] = arith.muli %[[TID]], %c4
// CHECK:         %[[PARTIALS:.*]] = xkernel.shared 8 : <f32, shared>
// CHECK:         %[[ROW:.*]] = xkernel.block_id x
// CHECK-COUNT-4: xkernel.load %[[X]][%{{.*}}] : <f32, global> -> vector<4xf32>
// CHECK-NOT:     xkernel.load %[[X]]
// CHECK:         xkernel.shuffle xor %{{.*}}, %c16_i32 width 32 : f32
// CHECK:         xkernel.shuffle xor %{{.*}}, %c8_i32 width 32 : f32
// CHECK:         xkernel.shuffle xor %{{.*}}, %c4_i32 width 32 : f32
// CHECK:         xkernel.shuffle xor %{{.*}}, %c2_i32 width 32 : f32
// CHECK:         xkernel.shuffle xor %{{.*}}, %c1_i32 width 32 : f32
// CHECK:         %[[WSUM:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK:         %[[FIRST:.*]] = arith.cmpi eq, %[[LANE]], %c0
// CHECK:         scf.if %[[FIRST]] {
// CHECK-NEXT:      xkernel.store %[[WSUM]], %[[PARTIALS]][%[[WARP]]] : f32, <f32, shared>
// CHECK:         xkernel.barrier
// CHECK-COUNT-8: xkernel.load %[[PARTIALS]][%{{.*}}] : <f32, shared> -> f32
// CHECK:         xkernel.approx rsqrt
// CHECK-COUNT-4: xkernel.load %[[W]][%{{.*}}] : <f32, global> -> vector<4xf32>
// CHECK-COUNT-4: xkernel.store %{{.*}}, %[[Y]][%{{.*}}] : vector<4xf32>, <f32, global>
// CHECK:         xkernel.return
// CHECK-LABEL: xkernel.program @rmsnorm(%{{.*}}: memref<4096x4096xf32>, %{{.*}}: memref<4096xf32>) -> (%{{.*}}: memref<4096x4096xf32>)
// CHECK-NEXT:    xkernel.launch @rmsnorm_mul_2(%arg0, %arg1, %arg2) grid [4096, 1, 1] block [256, 1, 1] shared 0
func.func @rmsnorm(%x: tensor<4096x4096xf32>, %w: tensor<4096xf32>) -> tensor<4096x4096xf32> {
  %y = xtensor.rms_norm %x weight %w eps 1.0e-6 : (tensor<4096x4096xf32>, tensor<4096xf32>) -> tensor<4096x4096xf32>
  return %y : tensor<4096x4096xf32>
}

// A ragged row of 1000 in a tile of 1024: the mask (column < 1000) is the
// same for the 4 columns of a group, so accesses stay 16 bytes wide and are
// skipped as a whole past the end; masked-off lanes read the identity.
// CHECK-LABEL: xkernel.func @softmax_div(
// CHECK:         %[[IN:.*]] = arith.cmpi slt, %{{.*}}, %c1000 : index
// CHECK:         scf.if %[[IN]] -> (vector<4xf32>) {
// CHECK-NEXT:      xkernel.load %{{.*}}[%{{.*}}] : <f32, global> -> vector<4xf32>
// CHECK:         } else {
// CHECK-NEXT:      scf.yield %{{.*}} : vector<4xf32>
// CHECK:         arith.select %[[IN]], %{{.*}}, %{{.*}} : f32
// CHECK:         arith.maximumf
// CHECK:         xkernel.shuffle xor
// CHECK:         xkernel.approx ex2
// CHECK:         scf.if %[[IN]] {
// CHECK-NEXT:      xkernel.store %{{.*}} : vector<4xf32>, <f32, global>
func.func @softmax(%x: tensor<512x1000xf32>) -> tensor<512x1000xf32> {
  %y = xtensor.softmax %x dim 1 : tensor<512x1000xf32>
  return %y : tensor<512x1000xf32>
}

// 32 columns: one warp, one element per lane: shuffles only, no shared
// memory and no barrier.
// CHECK-LABEL: xkernel.func @narrow_mul_{{[0-9]+}}(
// CHECK-SAME:    max_threads = 32 : i64
// CHECK-NOT:     xkernel.shared
// CHECK-NOT:     xkernel.barrier
// CHECK:         xkernel.load %{{.*}} : <f32, global> -> f32
// CHECK-COUNT-5: xkernel.shuffle xor
// CHECK-NOT:     xkernel.barrier
// CHECK:         xkernel.return
func.func @narrow(%x: tensor<8192x32xf32>, %w: tensor<32xf32>) -> tensor<8192x32xf32> {
  %y = xtensor.rms_norm %x weight %w eps 1.0e-6 : (tensor<8192x32xf32>, tensor<32xf32>) -> tensor<8192x32xf32>
  return %y : tensor<8192x32xf32>
}

// Rows of a transposed input are read with a stride: one element per access.
// CHECK-LABEL: xkernel.func @strided_div(
// CHECK-NOT:     vector<
// CHECK:         xkernel.return
func.func @strided(%x: tensor<64x48xf32>) -> tensor<48x64xf32> {
  %t = xtensor.transpose %x perm [1, 0] : tensor<64x48xf32> -> tensor<48x64xf32>
  %y = xtensor.softmax %t dim 1 : tensor<48x64xf32>
  return %y : tensor<48x64xf32>
}

// A row of 65536 in chunks: each fold is a loop over chunks; the shared
// memory of a fold in a loop is guarded by a barrier on both sides.
// CHECK-LABEL: xkernel.func @long_div(
// CHECK:         scf.for %{{.*}} = %c0 to %c65536 step %c{{[0-9]+}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (f32, f32) {
// CHECK:           xkernel.load {{.*}} -> vector<4xf32>
// CHECK:           xkernel.barrier
// CHECK:           scf.if
// CHECK:           xkernel.barrier
// CHECK:           scf.yield
// CHECK:         } {xkernel.num_stages = 2 : i64}
func.func @long(%x: tensor<16x65536xf32>) -> tensor<16x65536xf32> {
  %y = xtensor.softmax %x dim 1 : tensor<16x65536xf32>
  return %y : tensor<16x65536xf32>
}

// A split row: the partial sums go to a temporary of the program, written
// by thread 0 of each block; the second kernel reads them back.
// CHECK-LABEL: xkernel.func @few_rows_mul_{{[0-9]+}}_partial(
// CHECK:         %[[TID:.*]] = xkernel.thread_id x
// CHECK:         xkernel.barrier
// CHECK:         %[[T0:.*]] = arith.cmpi eq, %[[TID]], %c0 : index
// CHECK:         scf.if %[[T0]] {
// CHECK-NEXT:      xkernel.store %{{.*}} : f32, <f32, global>
// CHECK-LABEL: xkernel.program @few_rows(
// CHECK:         %[[P:.*]] = xkernel.alloc : memref<8x64xf32>
// CHECK:         xkernel.launch @few_rows_mul_{{[0-9]+}}_partial(%arg0, %arg1, %[[P]]) grid [512, 1, 1]
// CHECK:         xkernel.launch @few_rows_mul_{{[0-9]+}}(%arg0, %arg1, %[[P]], %arg2) grid [512, 1, 1]
func.func @few_rows(%x: tensor<8x65536xf32>, %w: tensor<65536xf32>) -> tensor<8x65536xf32> {
  %y = xtensor.rms_norm %x weight %w eps 1.0e-6 : (tensor<8x65536xf32>, tensor<65536xf32>) -> tensor<8x65536xf32>
  return %y : tensor<8x65536xf32>
}

// For the A100 the same kernels are scheduled for its SMs and bandwidth.
// SM80-LABEL: xkernel.func @rmsnorm_mul_2(
// SM80:         xkernel.load %{{.*}} : <f32, global> -> vector<4xf32>
// SM80-LABEL: xkernel.program @rmsnorm(
