// Reductions down the columns of row-major buffers take column schedules:
// a block of adjacent outputs per program (its rows tile walks the
// buffers' last dimension), each fold a loop over [chunk, block] tiles
// combined elementwise, then one fold over the steps.
//
// RUN: xtile-opt %s --lower-to-tile | FileCheck %s
// RUN: xtile-opt %s --lower-to-tile="force-schedule='#xtile.column_schedule<warps = 4, vector = 2, block = 64, chunk = 16>'" | FileCheck %s --check-prefix=FORCED
// RUN: xtile-opt %s --lower-to-tile="schedule-report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT

// A sum over 8192 tokens of 4096 features (a bias gradient): 128
// programs of 32 features, 16-byte accesses down 128 tokens a step.
// CHECK-LABEL: xtile.kernel @bias_grad_
// CHECK-SAME:    grid = array<i64: 128>, num_warps = 8 : i64, schedule = #xtile.column_schedule<warps = 8, vector = 4, block = 32, chunk = 128>
// CHECK:         %[[PID:.*]] = xtile.program_id 0
// CHECK:         %[[BLOCK:.*]] = arith.remui %[[PID]], %c128
// CHECK:         %[[FIRST:.*]] = arith.muli %[[BLOCK]], %c32
// CHECK:         %[[ROWS:.*]] = arith.addi %{{.*}}, %{{.*}} : tensor<32xindex>
// CHECK:         %[[ACC:.*]] = scf.for %[[T:.*]] = %c0 to %c8192 step %c128 iter_args(%[[CARRY:.*]] = %cst) -> (tensor<128x32xf32>)
// CHECK:           %[[DOWN:.*]] = xtile.broadcast %{{.*}} : tensor<128x1xindex> -> tensor<128x32xindex>
// CHECK:           %[[ACROSS:.*]] = xtile.broadcast %{{.*}} : tensor<1x32xindex> -> tensor<128x32xindex>
// CHECK:           %[[X:.*]] = xtile.load %{{.*}}[%[[DOWN]], %[[ACROSS]]] : memref<8192x4096xf32>[tensor<128x32xindex>, tensor<128x32xindex>] -> tensor<128x32xf32>
// CHECK:           %[[SUM:.*]] = arith.addf %[[CARRY]], %[[X]] : tensor<128x32xf32>
// CHECK:           scf.yield %[[SUM]]
// CHECK:         } {xtile.num_stages = 2 : i64}
// CHECK:         %[[R:.*]] = xtile.fold add %[[ACC]] dims [0] identity 0.000000e+00 : f32 strategy block {associative, commutative} : tensor<128x32xf32> -> tensor<32xf32>
// CHECK:         xtile.store %[[R]], %{{.*}}[%[[ROWS]]] : memref<4096xf32>[tensor<32xindex>], tensor<32xf32>
//
// FORCED-LABEL: xtile.kernel @bias_grad_
// FORCED-SAME:    grid = array<i64: 64>
// FORCED:         scf.for {{.*}} -> (tensor<16x64xf32>)
func.func @bias_grad(%dy: tensor<8192x4096xf32>) -> tensor<4096xf32> {
  %0 = xtensor.reduce sum %dy dims [0] : tensor<8192x4096xf32> -> tensor<4096xf32>
  return %0 : tensor<4096xf32>
}

// Ragged both ways, under the forced schedule: the features past 100 and
// the tokens past 1000 are masked, the masked lanes holding the maximum's
// identity before they are combined; the per-token scale is loaded down
// the steps (the same address across a step's row).
// FORCED-LABEL: xtile.kernel @scaled_max_
// FORCED-SAME:    grid = array<i64: 2>
// FORCED:         %[[ROWS:.*]] = arith.addi %{{.*}}, %{{.*}} : tensor<64xindex>
// FORCED:         %[[INSIDE:.*]] = arith.cmpi slt, %[[ROWS]], %{{.*}} : tensor<64xindex>
// FORCED:         scf.for %[[T:.*]] = %c0 to %c1000 step %c16 iter_args(%[[CARRY:.*]] = %{{.*}}) -> (tensor<16x64xf32>)
// FORCED:           %[[DOWN:.*]] = xtile.broadcast %{{.*}} : tensor<16x1xindex> -> tensor<16x64xindex>
// FORCED:           %[[ROWMASK:.*]] = xtile.broadcast %{{.*}} : tensor<1x64xi1> -> tensor<16x64xi1>
// FORCED:           %[[STEPS:.*]] = arith.cmpi slt, %[[DOWN]], %{{.*}} : tensor<16x64xindex>
// FORCED:           %[[MASK:.*]] = arith.andi %[[ROWMASK]], %[[STEPS]] : tensor<16x64xi1>
// FORCED:           xtile.load %{{.*}}[%[[DOWN]], %c0] mask %[[MASK]] : tensor<16x64xi1> other %{{.*}} : f32 : memref<1000x1xf32>
// FORCED:           %[[ACROSS:.*]] = xtile.broadcast %{{.*}} : tensor<1x64xindex> -> tensor<16x64xindex>
// FORCED:           xtile.load %{{.*}}[%[[DOWN]], %[[ACROSS]]] mask %[[MASK]] : tensor<16x64xi1> other %{{.*}} : f32 : memref<1000x100xf32>
// FORCED:           %[[SEL:.*]] = arith.select %[[MASK]], %{{.*}}, %{{.*}} : tensor<16x64xi1>, tensor<16x64xf32>
// FORCED:           arith.maximumf %[[CARRY]], %[[SEL]] : tensor<16x64xf32>
// FORCED:         xtile.fold max %{{.*}} dims [0] identity 0xFF800000
// FORCED:         xtile.store %{{.*}} mask %[[INSIDE]]
func.func @scaled_max(%x: tensor<1000x100xf32>, %s: tensor<1000x1xf32>) -> tensor<100xf32> {
  %sb = xtensor.broadcast %s : tensor<1000x1xf32> -> tensor<1000x100xf32>
  %y = xtensor.mul %x, %sb : tensor<1000x100xf32>
  %0 = xtensor.reduce max %y dims [0] : tensor<1000x100xf32> -> tensor<100xf32>
  return %0 : tensor<100xf32>
}

// A row reduction (contiguous along its fold) is no column kernel: no
// column candidates, and the forced column schedule leaves it to the row
// schedules.
// FORCED-LABEL: xtile.kernel @row_sums_
// FORCED-SAME:    schedule = #xtile.row_schedule
func.func @row_sums(%x: tensor<64x4096xf32>) -> tensor<64xf32> {
  %0 = xtensor.reduce sum %x dims [1] : tensor<64x4096xf32> -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

// 768 features over 16384 tokens: 24 blocks of 32 would leave most SMs
// idle, so the tokens split over 32 ways: a first kernel folds each way's
// 512 tokens into [1, 32, 768] partials, a second folds them down the ways.
// CHECK-LABEL: xtile.kernel @bias768_reduce_partial(
// CHECK-SAME:    -> (%[[P:.*]]: memref<1x32x768xf32>)
// CHECK-SAME:    grid = array<i64: 768>
// CHECK-SAME:    schedule = #xtile.column_schedule<warps = 8, vector = 4, block = 32, chunk = {{[0-9]+}}, ways = 32>
// CHECK:         %[[WAY:.*]] = arith.remui %{{.*}}, %c32
// CHECK:         %[[START:.*]] = arith.minui
// CHECK:         %[[END:.*]] = arith.minui
// CHECK:         scf.for %{{.*}} = %[[START]] to %[[END]] step
// CHECK:         %[[PART:.*]] = xtile.fold add
// CHECK:         %[[W:.*]] = xtile.splat %[[WAY]] : index -> tensor<32xindex>
// CHECK:         xtile.store %[[PART]], %[[P]][%{{.*}}, %[[W]], %{{.*}}] : memref<1x32x768xf32>
// CHECK-LABEL: xtile.kernel @bias768_reduce(
// CHECK-SAME:    %{{.*}}: memref<16384x768xf32>, %[[Q:.*]]: memref<1x32x768xf32>) -> (%{{.*}}: memref<768xf32>)
// CHECK-SAME:    grid = array<i64: 24>
// CHECK:         %[[WAYS:.*]] = xtile.load %[[Q]][{{.*}}] : memref<1x32x768xf32>[tensor<32x32xindex>, tensor<32x32xindex>, tensor<32x32xindex>] -> tensor<32x32xf32>
// CHECK:         xtile.fold add %[[WAYS]] dims [0]
// CHECK-LABEL: func.func @bias768(
// CHECK:         %[[PS:.*]] = xtile.launch @bias768_reduce_partial(%{{.*}}) : (tensor<16384x768xf32>) -> tensor<1x32x768xf32>
// CHECK:         xtile.launch @bias768_reduce(%{{.*}}, %[[PS]])
func.func @bias768(%dy: tensor<16384x768xf32>) -> tensor<768xf32> {
  %0 = xtensor.reduce sum %dy dims [0] : tensor<16384x768xf32> -> tensor<768xf32>
  return %0 : tensor<768xf32>
}

// The report (its first kernel, @bias_grad's): the facts say which
// kernels are column kernels and what they read down their columns; the
// one-row-per-program schedules pay for the sectors of those strided reads.
// REPORT:      "column_kernel": true
// REPORT:      "contiguous": false
// REPORT:      "strided_bytes": 134217728
// REPORT:      "name": "column:8:4:32x128"
// REPORT:      "reason": "lowest estimated time"
