// RUN: xtile-opt %s --lower-to-tile | FileCheck %s
// RUN: xtile-opt %s --lower-to-tile="force-schedule='#xtile.row_schedule<warp, warps = 1, vector = 1>'" | FileCheck %s --check-prefix=FORCED
// RUN: xtile-opt %s --lower-to-tile="target=sm_80" | FileCheck %s --check-prefix=SM80

// RMSNorm over 4096 columns: one program per row, the row a 4096-element
// tile read once with 16-byte accesses (4 x f32), the sum of squares a
// block reduction across the program's warps.
// CHECK-LABEL: xtile.kernel @rmsnorm_
// CHECK-SAME:    grid = array<i64: 1024>, num_warps = {{[0-9]+}} : i64, schedule = #xtile.row_schedule<block, warps = {{[0-9]+}}, vector = 4>
// CHECK-SAME:    target = #xtile.target<arch = "sm_90"
// CHECK:         %[[COLS:.*]] = xtile.range 0 to 4096 : tensor<4096xindex>
// CHECK:         %[[ROW:.*]] = arith.remui
// CHECK:         %[[X:.*]] = xtile.load %{{.*}}[%[[ROW]], %[[COLS]]] : memref<1024x4096xf32>[index, tensor<4096xindex>] -> tensor<4096xf32>
// CHECK:         %[[SQ:.*]] = arith.mulf %[[X]], %[[X]] : tensor<4096xf32>
// CHECK:         xtile.fold add %[[SQ]] dims [0] identity 0.000000e+00 : f32 strategy block {associative, commutative} : tensor<4096xf32> -> f32
// CHECK:         math.rsqrt %{{.*}} : f32
// CHECK:         xtile.store %{{.*}}, %{{.*}}[%[[ROW]], %[[COLS]]] : memref<1024x4096xf32>[index, tensor<4096xindex>], tensor<4096xf32>
// CHECK-NOT:     mask

func.func @rmsnorm(%x: tensor<1024x4096xf32>, %w: tensor<4096xf32>) -> tensor<1024x4096xf32> {
  %y = xtensor.rms_norm %x weight %w eps 1.0e-6 : (tensor<1024x4096xf32>, tensor<4096xf32>) -> tensor<1024x4096xf32>
  return %y : tensor<1024x4096xf32>
}

// 32 columns: one warp, one element per lane, shuffles.
// CHECK-LABEL: xtile.kernel @narrow_
// CHECK-SAME:    num_warps = 1 : i64, schedule = #xtile.row_schedule<warp, warps = 1, vector = 1>
// CHECK:         xtile.fold add %{{.*}} strategy warp
func.func @narrow(%x: tensor<8192x32xf32>, %w: tensor<32xf32>) -> tensor<8192x32xf32> {
  %y = xtensor.rms_norm %x weight %w eps 1.0e-6 : (tensor<8192x32xf32>, tensor<32xf32>) -> tensor<8192x32xf32>
  return %y : tensor<8192x32xf32>
}

// Softmax over a ragged 1000-column row: a 1024 tile with a mask, both folds
// (max, then sum) in the same program; masked lanes hold each fold's
// identity and are never stored.
// CHECK-LABEL: xtile.kernel @softmax_
// CHECK-DAG:     %[[N:.*]] = arith.constant dense<1000> : tensor<1024xindex>
// CHECK-DAG:     %[[COLS:.*]] = xtile.range 0 to 1024 : tensor<1024xindex>
// CHECK:         %[[IN:.*]] = arith.cmpi slt, %[[COLS]], %[[N]] : tensor<1024xindex>
// CHECK:         %[[X:.*]] = xtile.load %{{.*}} mask %[[IN]] : tensor<1024xi1> other %{{.*}} : f32
// CHECK:         %[[NEGINF:.*]] = xtile.splat %{{.*}} : f32 -> tensor<1024xf32>
// CHECK:         %[[XM:.*]] = arith.select %[[IN]], %[[X]], %[[NEGINF]] : tensor<1024xi1>, tensor<1024xf32>
// CHECK:         %[[MAX:.*]] = xtile.fold max %[[XM]] dims [0] identity 0xFF800000 : f32
// CHECK:         math.exp %{{.*}} : tensor<1024xf32>
// CHECK:         %[[SUM:.*]] = xtile.fold add %{{.*}} dims [0] identity 0.000000e+00 : f32
// CHECK:         xtile.store %{{.*}} mask %[[IN]] : tensor<1024xi1>
// CHECK-NOT:     xtile.kernel
// CHECK-LABEL:   func.func @softmax(
func.func @softmax(%x: tensor<4096x1000xf32>) -> tensor<4096x1000xf32> {
  %y = xtensor.softmax %x dim 1 : tensor<4096x1000xf32>
  return %y : tensor<4096x1000xf32>
}

// FORCED-COUNT-6: schedule = #xtile.row_schedule<warp, warps = 1, vector = 1>
// SM80: target = #xtile.target<arch = "sm_80", sms = 108, max_threads = 1024, shared_memory = 166912, registers = 65536, bandwidth = 2039, l2 = 41943040, fp32_gflops = 19500, l2_bandwidth = 6117, clock_mhz = 1410, mma_sync_gflops = 312000>

// A softmax over the columns of a transposed input reads each row with a
// stride: no vector accesses.
// CHECK-LABEL: xtile.kernel @strided_
// CHECK-SAME:    schedule = #xtile.row_schedule<{{[a-z]+}}, warps = {{[0-9]+}}, vector = 1>
// CHECK:         xtile.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<64x48xf32>[tensor<64xindex>, index] -> tensor<64xf32>
func.func @strided(%x: tensor<64x48xf32>) -> tensor<48x64xf32> {
  %t = xtensor.transpose %x perm [1, 0] : tensor<64x48xf32> -> tensor<48x64xf32>
  %y = xtensor.softmax %t dim 1 : tensor<48x64xf32>
  return %y : tensor<48x64xf32>
}

// A row too long to hold at once (65536 f32): the online fold (maximum and
// sum of exponentials) and the elementwise loop become loops over chunks
// of the row (the next chunk's loads pipelined, xtile.num_stages = 2); the
// fold carries (max, sum), rescaling the sum as the maximum grows: two
// passes over the row, not three.
// CHECK-LABEL: xtile.kernel @long_
// CHECK-SAME:    schedule = #xtile.row_schedule<block, warps = {{[0-9]+}}, vector = {{[0-9]+}}, chunk = [[CHUNK:[0-9]+]]>
// CHECK:         %[[R:.*]]:2 = scf.for %{{.*}} iter_args(%[[M:.*]] = %{{.*}}, %[[S:.*]] = %{{.*}}) -> (f32, f32) {
// CHECK:           xtile.load %{{.*}} -> tensor<[[CHUNK]]xf32>
// CHECK:           %[[PM:.*]] = xtile.fold max
// CHECK:           %[[NM:.*]] = arith.maximumf %[[M]], %[[PM]] : f32
// CHECK:           math.exp %{{.*}} : tensor<[[CHUNK]]xf32>
// CHECK:           %[[PS:.*]] = xtile.fold add
// CHECK:           %[[A:.*]] = math.exp %{{.*}} : f32
// CHECK:           arith.mulf %[[S]], %[[A]] : f32
// CHECK:           scf.yield %[[NM]], %{{.*}} : f32, f32
// CHECK:         } {xtile.num_stages = 2 : i64}
// CHECK:         scf.for
// CHECK:           xtile.splat %[[R]]#0
// CHECK:           xtile.store
func.func @long(%x: tensor<16x65536xf32>) -> tensor<16x65536xf32> {
  %y = xtensor.softmax %x dim 1 : tensor<16x65536xf32>
  return %y : tensor<16x65536xf32>
}

// Eight long rows cannot fill the GPU one program per row: the fold is
// split over several programs per row, each folding a slice into a partial
// result, and a second kernel combines a row's partials (a fold of its own)
// before scaling its slice. The launch becomes two launches.
// CHECK-LABEL: xtile.kernel @few_rows_{{.*}}_partial(
// CHECK-SAME:    -> (%[[P:.*]]: memref<8x[[WAYS:[0-9]+]]xf32>)
// CHECK-SAME:    schedule = #xtile.row_schedule<split, warps = {{[0-9]+}}, vector = {{[0-9]+}}, ways = [[WAYS]]>
// CHECK:         %[[S:.*]] = xtile.fold add %{{.*}} strategy block
// CHECK:         xtile.store %[[S]], %[[P]][%{{.*}}, %{{.*}}] : memref<8x[[WAYS]]xf32>[index, index], f32
// CHECK-LABEL: xtile.kernel @few_rows_
// CHECK-SAME:    %{{.*}}: memref<8x[[WAYS]]xf32>) -> (
// CHECK:         %[[PARTS:.*]] = xtile.load %{{.*}} : memref<8x[[WAYS]]xf32>[tensor<[[WAYS]]xindex>, tensor<[[WAYS]]xindex>] -> tensor<[[WAYS]]xf32>
// CHECK:         xtile.fold add %[[PARTS]] dims [0]
// CHECK:         math.rsqrt
// CHECK:         xtile.store
// CHECK-LABEL: func.func @few_rows(
// CHECK:         %[[PT:.*]] = xtile.launch @few_rows_{{.*}}_partial(%arg0, %arg1)
// CHECK-NEXT:    xtile.launch @few_rows_{{[a-z0-9_]*}}(%arg0, %arg1, %[[PT]])
func.func @few_rows(%x: tensor<8x65536xf32>, %w: tensor<65536xf32>) -> tensor<8x65536xf32> {
  %y = xtensor.rms_norm %x weight %w eps 1.0e-6 : (tensor<8x65536xf32>, tensor<65536xf32>) -> tensor<8x65536xf32>
  return %y : tensor<8x65536xf32>
}

// An elementwise op on a flat tensor: its loop is split into rows
// (xloop-split-flat), one program per row of 4096 at r * 4096 + j, with
// 16-byte accesses: the index is the column plus a term of the row.
// CHECK-LABEL: xtile.kernel @flat_add_
// CHECK-SAME:    grid = array<i64: 256>, num_warps = {{[0-9]+}} : i64, schedule = #xtile.row_schedule<block, warps = {{[0-9]+}}, vector = 4>
// CHECK:         %[[COLS:.*]] = xtile.range 0 to 4096 : tensor<4096xindex>
// CHECK:         %[[AT:.*]] = arith.addi %{{.*}}, %[[COLS]] : tensor<4096xindex>
// CHECK:         xtile.load %{{.*}}[%[[AT]]] : memref<1048576xf32>[tensor<4096xindex>] -> tensor<4096xf32>
func.func @flat_add(%a: tensor<1048576xf32>, %b: tensor<1048576xf32>) -> tensor<1048576xf32> {
  %c = xtensor.add %a, %b : tensor<1048576xf32>
  return %c : tensor<1048576xf32>
}
