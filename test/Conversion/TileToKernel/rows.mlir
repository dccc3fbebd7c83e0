// RUN: xtile-opt %s --convert-xtile-to-xkernel --canonicalize --cse | FileCheck %s --enable-var-scope

// canonicalize and cse only tidy the conversion's output (it materializes
// a constant per use) so that constants can be matched by their values.
// Row kernels with the schedules the cost model gives them on sm_90 (which
// schedule it chooses is test/Conversion/LoopToTile/config_rows.mlir's).
// Math functions stay math ops here; --xkernel-expand-math builds them on
// the special-function units (test/Dialect/Kernel/Transforms).

#sm90 = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>
#sm80 = #xtile.target<arch = "sm_80", sms = 108, max_threads = 1024, shared_memory = 166912, registers = 65536, bandwidth = 2039, l2 = 41943040, fp32_gflops = 19500, l2_bandwidth = 6117, clock_mhz = 1410, mma_sync_gflops = 312000>

// RMSNorm, schedule block:8:4: 256 threads, each holding 4 groups of 4
// adjacent columns of the row; 16-byte loads and stores; the sum of squares
// folded in registers, across the warp with shuffles, then across the 8
// warps through shared memory; every thread gets the result.
// CHECK-LABEL: xkernel.func @rmsnorm_mul(
// CHECK-SAME:    %[[X:[^:]*]]: !xkernel.ptr<f32, global> {xkernel.readonly}, %[[W:[^:]*]]: !xkernel.ptr<f32, global> {xkernel.readonly}, %[[Y:[^:]*]]: !xkernel.ptr<f32, global>)
// CHECK-SAME:    attributes {arch = "sm_90", dynamic_shared = 0 : i64, max_threads = 256 : i64}
// CHECK-DAG:     %[[I1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[I2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[I4:.*]] = arith.constant 4 : i32
// CHECK-DAG:     %[[I8:.*]] = arith.constant 8 : i32
// CHECK-DAG:     %[[I16:.*]] = arith.constant 16 : i32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK:         %[[TID:.*]] = xkernel.thread_id x
// CHECK:         %[[LANE:.*]] = arith.remui %[[TID]], %[[C32]]
// CHECK:         %[[WARP:.*]] = arith.divui %[[TID]], %[[C32]]
// CHECK:         %[[COL:.*]] = arith.muli %[[TID]], %[[C4]]
// CHECK:         %[[PARTIALS:.*]] = xkernel.shared 8 : <f32, shared>
// CHECK:         %[[ROW:.*]] = xkernel.block_id x
// CHECK-COUNT-4: xkernel.load %[[X]][%{{.*}}] : <f32, global> -> vector<4xf32>
// CHECK-NOT:     xkernel.load %[[X]]
// CHECK:         xkernel.shuffle xor %{{.*}}, %[[I16]] width 32 : f32
// CHECK:         xkernel.shuffle xor %{{.*}}, %[[I8]] width 32 : f32
// CHECK:         xkernel.shuffle xor %{{.*}}, %[[I4]] width 32 : f32
// CHECK:         xkernel.shuffle xor %{{.*}}, %[[I2]] width 32 : f32
// CHECK:         xkernel.shuffle xor %{{.*}}, %[[I1]] width 32 : f32
// CHECK:         %[[WSUM:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK:         %[[FIRST:.*]] = arith.cmpi eq, %[[LANE]], %[[C0]]
// CHECK:         scf.if %[[FIRST]] {
// CHECK-NEXT:      xkernel.store %[[WSUM]], %[[PARTIALS]][%[[WARP]]] : f32, <f32, shared>
// CHECK:         xkernel.barrier
// CHECK-COUNT-8: xkernel.load %[[PARTIALS]][%{{.*}}] : <f32, shared> -> f32
// CHECK:         math.rsqrt
// CHECK-COUNT-4: xkernel.load %[[W]][%{{.*}}] : <f32, global> -> vector<4xf32>
// CHECK-COUNT-4: xkernel.store %{{.*}}, %[[Y]][%{{.*}}] : vector<4xf32>, <f32, global>
// CHECK:         xkernel.return
xtile.kernel @rmsnorm_mul(%x: memref<4096x4096xf32>, %w: memref<4096xf32>) -> (%y: memref<4096x4096xf32>)
    attributes {grid = array<i64: 4096>, num_warps = 8 : i64, schedule = #xtile.row_schedule<block, warps = 8, vector = 4>, target = #sm90} {
  %cst = arith.constant 4.096000e+03 : f32
  %cst_0 = arith.constant 9.99999997E-7 : f32
  %c4096 = arith.constant 4096 : index
  %0 = xtile.range 0 to 4096 : tensor<4096xindex>
  %1 = xtile.program_id 0
  %2 = arith.remui %1, %c4096 : index
  %3 = xtile.load %x[%2, %0] : memref<4096x4096xf32>[index, tensor<4096xindex>] -> tensor<4096xf32>
  %4 = arith.mulf %3, %3 : tensor<4096xf32>
  %5 = xtile.fold add %4 dims [0] identity 0.000000e+00 : f32 strategy block {associative, commutative} : tensor<4096xf32> -> f32
  %6 = arith.divf %5, %cst : f32
  %7 = arith.addf %6, %cst_0 : f32
  %8 = math.rsqrt %7 : f32
  %9 = xtile.splat %8 : f32 -> tensor<4096xf32>
  %10 = arith.mulf %9, %3 : tensor<4096xf32>
  %11 = xtile.load %w[%0] : memref<4096xf32>[tensor<4096xindex>] -> tensor<4096xf32>
  %12 = arith.mulf %10, %11 : tensor<4096xf32>
  xtile.store %12, %y[%2, %0] : memref<4096x4096xf32>[index, tensor<4096xindex>], tensor<4096xf32>
}

// CHECK-LABEL: xkernel.program @rmsnorm(
// CHECK-SAME:    %[[X:[^:]*]]: memref<4096x4096xf32>, %[[W:[^:]*]]: memref<4096xf32>) -> (%[[Y:[^:]*]]: memref<4096x4096xf32>)
// CHECK-NEXT:    xkernel.launch @rmsnorm_mul(%[[X]], %[[W]], %[[Y]]) grid [4096, 1, 1] block [256, 1, 1] shared 0
func.func @rmsnorm(%x: tensor<4096x4096xf32>, %w: tensor<4096xf32>) -> tensor<4096x4096xf32> {
  %0 = xtile.launch @rmsnorm_mul(%x, %w) : (tensor<4096x4096xf32>, tensor<4096xf32>) -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}

// The same kernel for the A100 (its target, the same schedule): 16-byte
// loads as on sm_90.
// CHECK-LABEL: xkernel.func @rmsnorm_mul_sm80(
// CHECK-SAME:    arch = "sm_80"
// CHECK:         xkernel.load %{{.*}} : <f32, global> -> vector<4xf32>
xtile.kernel @rmsnorm_mul_sm80(%x: memref<4096x4096xf32>, %w: memref<4096xf32>) -> (%y: memref<4096x4096xf32>)
    attributes {grid = array<i64: 4096>, num_warps = 8 : i64, schedule = #xtile.row_schedule<block, warps = 8, vector = 4>, target = #sm80} {
  %cst = arith.constant 4.096000e+03 : f32
  %cst_0 = arith.constant 9.99999997E-7 : f32
  %c4096 = arith.constant 4096 : index
  %0 = xtile.range 0 to 4096 : tensor<4096xindex>
  %1 = xtile.program_id 0
  %2 = arith.remui %1, %c4096 : index
  %3 = xtile.load %x[%2, %0] : memref<4096x4096xf32>[index, tensor<4096xindex>] -> tensor<4096xf32>
  %4 = arith.mulf %3, %3 : tensor<4096xf32>
  %5 = xtile.fold add %4 dims [0] identity 0.000000e+00 : f32 strategy block {associative, commutative} : tensor<4096xf32> -> f32
  %6 = arith.divf %5, %cst : f32
  %7 = arith.addf %6, %cst_0 : f32
  %8 = math.rsqrt %7 : f32
  %9 = xtile.splat %8 : f32 -> tensor<4096xf32>
  %10 = arith.mulf %9, %3 : tensor<4096xf32>
  %11 = xtile.load %w[%0] : memref<4096xf32>[tensor<4096xindex>] -> tensor<4096xf32>
  %12 = arith.mulf %10, %11 : tensor<4096xf32>
  xtile.store %12, %y[%2, %0] : memref<4096x4096xf32>[index, tensor<4096xindex>], tensor<4096xf32>
}

// A ragged row of 1000 in a tile of 1024: the mask (column < 1000) is the
// same for the 4 columns of a group, so accesses stay 16 bytes wide and are
// skipped as a whole past the end; masked-off lanes read the identity.
// CHECK-LABEL: xkernel.func @softmax_div(
// CHECK-DAG:     %[[C1000:.*]] = arith.constant 1000 : index
// CHECK:         %[[IN:.*]] = arith.cmpi slt, %{{.*}}, %[[C1000]] : index
// CHECK:         scf.if %[[IN]] -> (vector<4xf32>) {
// CHECK-NEXT:      xkernel.load %{{.*}}[%{{.*}}] : <f32, global> -> vector<4xf32>
// CHECK:         } else {
// CHECK-NEXT:      scf.yield %{{.*}} : vector<4xf32>
// CHECK:         arith.select %[[IN]], %{{.*}}, %{{.*}} : f32
// CHECK:         arith.maximumf
// CHECK:         xkernel.shuffle xor
// CHECK:         math.exp
// CHECK:         scf.if %[[IN]] {
// CHECK-NEXT:      xkernel.store %{{.*}} : vector<4xf32>, <f32, global>
xtile.kernel @softmax_div(%x: memref<512x1000xf32>) -> (%y: memref<512x1000xf32>)
    attributes {grid = array<i64: 512>, num_warps = 8 : i64, schedule = #xtile.row_schedule<block, warps = 8, vector = 4>, target = #sm90} {
  %cst = arith.constant 0xFF800000 : f32
  %cst_0 = arith.constant 0.000000e+00 : f32
  %c512 = arith.constant 512 : index
  %cst_1 = arith.constant dense<1000> : tensor<1024xindex>
  %0 = xtile.range 0 to 1024 : tensor<1024xindex>
  %1 = arith.cmpi slt, %0, %cst_1 : tensor<1024xindex>
  %2 = xtile.program_id 0
  %3 = arith.remui %2, %c512 : index
  %4 = xtile.load %x[%3, %0] mask %1 : tensor<1024xi1> other %cst_0 : f32 : memref<512x1000xf32>[index, tensor<1024xindex>] -> tensor<1024xf32>
  %5 = xtile.splat %cst : f32 -> tensor<1024xf32>
  %6 = arith.select %1, %4, %5 : tensor<1024xi1>, tensor<1024xf32>
  %7 = xtile.fold max %6 dims [0] identity 0xFF800000 : f32 strategy block {associative, commutative} : tensor<1024xf32> -> f32
  %8 = arith.cmpf oeq, %7, %cst : f32
  %9 = arith.select %8, %cst_0, %7 : f32
  %10 = xtile.splat %9 : f32 -> tensor<1024xf32>
  %11 = arith.subf %6, %10 : tensor<1024xf32>
  %12 = math.exp %11 : tensor<1024xf32>
  %13 = xtile.fold add %12 dims [0] identity 0.000000e+00 : f32 strategy block {associative, commutative} : tensor<1024xf32> -> f32
  %14 = xtile.splat %7 : f32 -> tensor<1024xf32>
  %15 = arith.subf %4, %14 : tensor<1024xf32>
  %16 = math.exp %15 : tensor<1024xf32>
  %17 = xtile.splat %13 : f32 -> tensor<1024xf32>
  %18 = arith.divf %16, %17 : tensor<1024xf32>
  xtile.store %18, %y[%3, %0] mask %1 : tensor<1024xi1> : memref<512x1000xf32>[index, tensor<1024xindex>], tensor<1024xf32>
}

// 32 columns: one warp, one element per lane: shuffles only, no shared
// memory and no barrier.
// CHECK-LABEL: xkernel.func @narrow_mul(
// CHECK-SAME:    max_threads = 32 : i64
// CHECK-NOT:     xkernel.shared
// CHECK-NOT:     xkernel.barrier
// CHECK:         xkernel.load %{{.*}} : <f32, global> -> f32
// CHECK-COUNT-5: xkernel.shuffle xor
// CHECK-NOT:     xkernel.barrier
// CHECK:         xkernel.return
xtile.kernel @narrow_mul(%x: memref<8192x32xf32>, %w: memref<32xf32>) -> (%y: memref<8192x32xf32>)
    attributes {grid = array<i64: 8192>, num_warps = 1 : i64, schedule = #xtile.row_schedule<warp, warps = 1, vector = 1>, target = #sm90} {
  %cst = arith.constant 3.200000e+01 : f32
  %cst_0 = arith.constant 9.99999997E-7 : f32
  %c8192 = arith.constant 8192 : index
  %0 = xtile.range 0 to 32 : tensor<32xindex>
  %1 = xtile.program_id 0
  %2 = arith.remui %1, %c8192 : index
  %3 = xtile.load %x[%2, %0] : memref<8192x32xf32>[index, tensor<32xindex>] -> tensor<32xf32>
  %4 = arith.mulf %3, %3 : tensor<32xf32>
  %5 = xtile.fold add %4 dims [0] identity 0.000000e+00 : f32 strategy warp {associative, commutative} : tensor<32xf32> -> f32
  %6 = arith.divf %5, %cst : f32
  %7 = arith.addf %6, %cst_0 : f32
  %8 = math.rsqrt %7 : f32
  %9 = xtile.splat %8 : f32 -> tensor<32xf32>
  %10 = arith.mulf %9, %3 : tensor<32xf32>
  %11 = xtile.load %w[%0] : memref<32xf32>[tensor<32xindex>] -> tensor<32xf32>
  %12 = arith.mulf %10, %11 : tensor<32xf32>
  xtile.store %12, %y[%2, %0] : memref<8192x32xf32>[index, tensor<32xindex>], tensor<32xf32>
}

// Rows of a transposed input are read with a stride: one element per access.
// CHECK-LABEL: xkernel.func @strided_div(
// CHECK-NOT:     vector<
// CHECK:         xkernel.return
xtile.kernel @strided_div(%x: memref<64x48xf32>) -> (%y: memref<48x64xf32>)
    attributes {grid = array<i64: 48>, num_warps = 2 : i64, schedule = #xtile.row_schedule<block, warps = 2, vector = 1>, target = #sm90} {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 0xFF800000 : f32
  %c48 = arith.constant 48 : index
  %0 = xtile.range 0 to 64 : tensor<64xindex>
  %1 = xtile.program_id 0
  %2 = arith.remui %1, %c48 : index
  %3 = xtile.load %x[%0, %2] : memref<64x48xf32>[tensor<64xindex>, index] -> tensor<64xf32>
  %4 = xtile.fold max %3 dims [0] identity 0xFF800000 : f32 strategy block {associative, commutative} : tensor<64xf32> -> f32
  %5 = arith.cmpf oeq, %4, %cst_0 : f32
  %6 = arith.select %5, %cst, %4 : f32
  %7 = xtile.splat %6 : f32 -> tensor<64xf32>
  %8 = arith.subf %3, %7 : tensor<64xf32>
  %9 = math.exp %8 : tensor<64xf32>
  %10 = xtile.fold add %9 dims [0] identity 0.000000e+00 : f32 strategy block {associative, commutative} : tensor<64xf32> -> f32
  %11 = xtile.splat %4 : f32 -> tensor<64xf32>
  %12 = arith.subf %3, %11 : tensor<64xf32>
  %13 = math.exp %12 : tensor<64xf32>
  %14 = xtile.splat %10 : f32 -> tensor<64xf32>
  %15 = arith.divf %13, %14 : tensor<64xf32>
  xtile.store %15, %y[%2, %0] : memref<48x64xf32>[index, tensor<64xindex>], tensor<64xf32>
}

// A row of 65536 in chunks: each fold is a loop over chunks; the shared
// memory of a fold in a loop is guarded by a barrier on both sides.
// CHECK-LABEL: xkernel.func @long_div(
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C65536:.*]] = arith.constant 65536 : index
// CHECK:         scf.for %{{.*}} = %[[C0]] to %[[C65536]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (f32, f32) {
// CHECK:           xkernel.load {{.*}} -> vector<4xf32>
// CHECK:           xkernel.barrier
// CHECK:           scf.if
// CHECK:           xkernel.barrier
// CHECK:           scf.yield
// CHECK:         } {xkernel.num_stages = 2 : i64}
xtile.kernel @long_div(%x: memref<16x65536xf32>) -> (%y: memref<16x65536xf32>)
    attributes {grid = array<i64: 16>, num_warps = 16 : i64, schedule = #xtile.row_schedule<block, warps = 16, vector = 4, chunk = 2048>, target = #sm90} {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 0xFF800000 : f32
  %c2048 = arith.constant 2048 : index
  %c65536 = arith.constant 65536 : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %0 = xtile.program_id 0
  %1 = arith.remui %0, %c16 : index
  %2:2 = scf.for %arg2 = %c0 to %c65536 step %c2048 iter_args(%arg3 = %cst_0, %arg4 = %cst) -> (f32, f32) {
    %3 = xtile.splat %arg2 : index -> tensor<2048xindex>
    %4 = xtile.range 0 to 2048 : tensor<2048xindex>
    %5 = arith.addi %4, %3 : tensor<2048xindex>
    %6 = xtile.load %x[%1, %5] : memref<16x65536xf32>[index, tensor<2048xindex>] -> tensor<2048xf32>
    %7 = xtile.fold max %6 dims [0] identity 0xFF800000 : f32 strategy block {associative, commutative} : tensor<2048xf32> -> f32
    %8 = arith.maximumf %arg3, %7 : f32
    %9 = arith.cmpf oeq, %8, %cst_0 : f32
    %10 = arith.select %9, %cst, %8 : f32
    %11 = xtile.splat %10 : f32 -> tensor<2048xf32>
    %12 = arith.subf %6, %11 : tensor<2048xf32>
    %13 = math.exp %12 : tensor<2048xf32>
    %14 = xtile.fold add %13 dims [0] identity 0.000000e+00 : f32 strategy block {associative, commutative} : tensor<2048xf32> -> f32
    %15 = arith.subf %arg3, %10 : f32
    %16 = math.exp %15 : f32
    %17 = arith.mulf %arg4, %16 : f32
    %18 = arith.addf %17, %14 : f32
    scf.yield %8, %18 : f32, f32
  } {xtile.num_stages = 2 : i64}
  scf.for %arg2 = %c0 to %c65536 step %c2048 {
    %3 = xtile.splat %arg2 : index -> tensor<2048xindex>
    %4 = xtile.range 0 to 2048 : tensor<2048xindex>
    %5 = arith.addi %4, %3 : tensor<2048xindex>
    %6 = xtile.load %x[%1, %5] : memref<16x65536xf32>[index, tensor<2048xindex>] -> tensor<2048xf32>
    %7 = xtile.splat %2#0 : f32 -> tensor<2048xf32>
    %8 = arith.subf %6, %7 : tensor<2048xf32>
    %9 = math.exp %8 : tensor<2048xf32>
    %10 = xtile.splat %2#1 : f32 -> tensor<2048xf32>
    %11 = arith.divf %9, %10 : tensor<2048xf32>
    xtile.store %11, %y[%1, %5] : memref<16x65536xf32>[index, tensor<2048xindex>], tensor<2048xf32>
  } {xtile.num_stages = 2 : i64}
}

// A split row: the partial sums go to a temporary of the program, written
// by thread 0 of each block; the second kernel reads them back.
// CHECK-LABEL: xkernel.func @few_rows_partial(
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[TID:.*]] = xkernel.thread_id x
// CHECK:         xkernel.barrier
// CHECK:         %[[T0:.*]] = arith.cmpi eq, %[[TID]], %[[C0]] : index
// CHECK:         scf.if %[[T0]] {
// CHECK-NEXT:      xkernel.store %{{.*}} : f32, <f32, global>
xtile.kernel @few_rows_partial(%x: memref<8x65536xf32>, %w: memref<65536xf32>) -> (%partials: memref<8x64xf32>)
    attributes {grid = array<i64: 512>, num_warps = 8 : i64, schedule = #xtile.row_schedule<split, warps = 8, vector = 4, ways = 64>, target = #sm90} {
  %c65536 = arith.constant 65536 : index
  %c1024 = arith.constant 1024 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = xtile.program_id 0
  %1 = arith.remui %0, %c64 : index
  %2 = arith.divui %0, %c64 : index
  %3 = arith.remui %2, %c8 : index
  %4 = arith.muli %1, %c1024 : index
  %5 = xtile.splat %4 : index -> tensor<1024xindex>
  %6 = xtile.range 0 to 1024 : tensor<1024xindex>
  %7 = arith.addi %6, %5 : tensor<1024xindex>
  %8 = arith.addi %4, %c1024 : index
  %9 = arith.minui %8, %c65536 : index
  %10 = xtile.splat %9 : index -> tensor<1024xindex>
  %11 = arith.cmpi slt, %7, %10 : tensor<1024xindex>
  %12 = xtile.load %x[%3, %7] mask %11 : tensor<1024xi1> other %cst : f32 : memref<8x65536xf32>[index, tensor<1024xindex>] -> tensor<1024xf32>
  %13 = arith.mulf %12, %12 : tensor<1024xf32>
  %14 = xtile.splat %cst : f32 -> tensor<1024xf32>
  %15 = arith.select %11, %13, %14 : tensor<1024xi1>, tensor<1024xf32>
  %16 = xtile.fold add %15 dims [0] identity 0.000000e+00 : f32 strategy block {associative, commutative} : tensor<1024xf32> -> f32
  xtile.store %16, %partials[%2, %1] : memref<8x64xf32>[index, index], f32
}

xtile.kernel @few_rows_mul(%x: memref<8x65536xf32>, %w: memref<65536xf32>, %partials: memref<8x64xf32>) -> (%y: memref<8x65536xf32>)
    attributes {grid = array<i64: 512>, num_warps = 8 : i64, schedule = #xtile.row_schedule<split, warps = 8, vector = 4, ways = 64>, target = #sm90} {
  %c65536 = arith.constant 65536 : index
  %c1024 = arith.constant 1024 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %cst = arith.constant 9.99999997E-7 : f32
  %cst_0 = arith.constant 6.553600e+04 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %0 = xtile.program_id 0
  %1 = arith.remui %0, %c64 : index
  %2 = arith.divui %0, %c64 : index
  %3 = arith.remui %2, %c8 : index
  %4 = arith.muli %1, %c1024 : index
  %5 = xtile.splat %4 : index -> tensor<1024xindex>
  %6 = xtile.range 0 to 1024 : tensor<1024xindex>
  %7 = arith.addi %6, %5 : tensor<1024xindex>
  %8 = arith.addi %4, %c1024 : index
  %9 = arith.minui %8, %c65536 : index
  %10 = xtile.splat %9 : index -> tensor<1024xindex>
  %11 = arith.cmpi slt, %7, %10 : tensor<1024xindex>
  %12 = xtile.range 0 to 64 : tensor<64xindex>
  %13 = xtile.splat %2 : index -> tensor<64xindex>
  %14 = xtile.load %partials[%13, %12] : memref<8x64xf32>[tensor<64xindex>, tensor<64xindex>] -> tensor<64xf32>
  %15 = xtile.fold add %14 dims [0] identity 0.000000e+00 : f32 strategy warp {associative, commutative} : tensor<64xf32> -> f32
  %16 = arith.divf %15, %cst_0 : f32
  %17 = arith.addf %16, %cst : f32
  %18 = math.rsqrt %17 : f32
  %19 = xtile.load %x[%3, %7] mask %11 : tensor<1024xi1> other %cst_1 : f32 : memref<8x65536xf32>[index, tensor<1024xindex>] -> tensor<1024xf32>
  %20 = xtile.splat %18 : f32 -> tensor<1024xf32>
  %21 = arith.mulf %20, %19 : tensor<1024xf32>
  %22 = xtile.load %w[%7] mask %11 : tensor<1024xi1> other %cst_1 : f32 : memref<65536xf32>[tensor<1024xindex>] -> tensor<1024xf32>
  %23 = arith.mulf %21, %22 : tensor<1024xf32>
  xtile.store %23, %y[%3, %7] mask %11 : tensor<1024xi1> : memref<8x65536xf32>[index, tensor<1024xindex>], tensor<1024xf32>
}

// CHECK-LABEL: xkernel.program @few_rows(
// CHECK-SAME:    %[[X:[^:]*]]: memref<8x65536xf32>, %[[W:[^:]*]]: memref<65536xf32>) -> (%[[Y:[^:]*]]: memref<8x65536xf32>)
// CHECK:         %[[P:.*]] = xkernel.alloc : memref<8x64xf32>
// CHECK:         xkernel.launch @few_rows_partial(%[[X]], %[[W]], %[[P]]) grid [512, 1, 1]
// CHECK:         xkernel.launch @few_rows_mul(%[[X]], %[[W]], %[[P]], %[[Y]]) grid [512, 1, 1]
func.func @few_rows(%x: tensor<8x65536xf32>, %w: tensor<65536xf32>) -> tensor<8x65536xf32> {
  %0 = xtile.launch @few_rows_partial(%x, %w) : (tensor<8x65536xf32>, tensor<65536xf32>) -> tensor<8x64xf32>
  %1 = xtile.launch @few_rows_mul(%x, %w, %0) : (tensor<8x65536xf32>, tensor<65536xf32>, tensor<8x64xf32>) -> tensor<8x65536xf32>
  return %1 : tensor<8x65536xf32>
}

// A column fold (#xtile.column_schedule): an [8, 16] tile over one warp,
// 32 threads of one element: lane l holds column l mod 16 of rows
// l / 16, 2 + l / 16, ..., combined in registers; the two lanes of each
// column meet in shared memory ([2][16]), and each output column adds
// its two partials there.
// CHECK-LABEL: xkernel.func @column_fold(
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK:         %[[TID:.*]] = xkernel.thread_id x
// CHECK:         %[[COL:.*]] = arith.remui %[[TID]], %[[C16]]
// CHECK:         %[[ROW:.*]] = arith.divui %[[TID]], %[[C16]]
// CHECK:         %[[SH:.*]] = xkernel.shared 32 : <f32, shared>
// CHECK:         %[[AT:.*]] = arith.addi %{{.*}}, %[[COL]] : index
// CHECK:         %[[X0:.*]] = xkernel.load %{{.*}}[%[[AT]]] : <f32, global> -> f32
// CHECK-COUNT-3: xkernel.load %{{.*}} : <f32, global> -> f32
// CHECK:         arith.addf %[[X0]]
// CHECK-COUNT-2: arith.addf
// CHECK:         xkernel.store %{{.*}}, %[[SH]][%[[AT]]] : f32, <f32, shared>
// CHECK:         xkernel.barrier
// CHECK:         %[[P0:.*]] = xkernel.load %[[SH]][
// CHECK:         %[[P1:.*]] = xkernel.load %[[SH]][
// CHECK:         %[[SUM:.*]] = arith.addf %[[P0]], %[[P1]] : f32
// CHECK:         xkernel.store %[[SUM]]
xtile.kernel @column_fold(%x: memref<8x16xf32>) -> (%y: memref<16xf32>)
    attributes {grid = array<i64: 1>, num_warps = 1 : i64, schedule = #xtile.column_schedule<warps = 1, vector = 1, block = 16, chunk = 8>, target = #sm90} {
  %r = xtile.range 0 to 8 : tensor<8xindex>
  %c = xtile.range 0 to 16 : tensor<16xindex>
  %r2 = xtile.reshape %r : tensor<8xindex> -> tensor<8x1xindex>
  %rb = xtile.broadcast %r2 : tensor<8x1xindex> -> tensor<8x16xindex>
  %c2 = xtile.reshape %c : tensor<16xindex> -> tensor<1x16xindex>
  %cb = xtile.broadcast %c2 : tensor<1x16xindex> -> tensor<8x16xindex>
  %v = xtile.load %x[%rb, %cb] : memref<8x16xf32>[tensor<8x16xindex>, tensor<8x16xindex>] -> tensor<8x16xf32>
  %s = xtile.fold add %v dims [0] identity 0.0 : f32 strategy block {associative, commutative} : tensor<8x16xf32> -> tensor<16xf32>
  xtile.store %s, %y[%c] : memref<16xf32>[tensor<16xindex>], tensor<16xf32>
}
