// RUN: xtile-opt %s --lower-to-tile="target=sm_90" | FileCheck %s

// A grouped GEMM as the importer writes aten._grouped_mm (docs/Frontend.md,
// "Mixture-of-experts models"): 12 blocks of 64 rows, each block's rows
// gathered from x and multiplied by its group's matrix (gathered by the
// block's group), blocks that hold no rows zero. One kernel on tensor
// cores: both gathers are the operands' loads; the zero of an unused
// block is the epilogue's choice on a condition the whole tile shares,
// so the K loop runs only where the block is used (its bound is 256 or
// 0); and the programs run in groups of blocks, the block fastest, which
// share their matrices' column panels through L2.
// CHECK-LABEL: xtile.kernel @grouped_select(
// CHECK-SAME:    schedule = #xtile.dot_schedule<{{.*}}instruction = mma_sync
// CHECK-SAME:    xtile.batch_group = 12 : i64
// CHECK:         %[[PID:.*]] = xtile.program_id 0
// CHECK:         %[[GROUP:.*]] = arith.divui %[[PID]], %{{.*}} : index
// CHECK:         %[[USED:.*]] = arith.cmpi
// CHECK:         %[[END:.*]] = arith.select %[[USED]], %c256, %c0 : index
// CHECK:         scf.for %{{.*}} = %c0 to %[[END]] step
// CHECK:           xtile.load %{{.*}} : memref<300x256xbf16>[tensor<{{[0-9]+}}x{{[0-9]+}}xindex>, tensor<
// CHECK:           xtile.load %{{.*}} : memref<8x256x512xbf16>[index, tensor<
// CHECK:           xtile.dot
// CHECK:         arith.select
// CHECK:         xtile.store
// CHECK-NOT:   xtile.kernel
// CHECK-LABEL: func.func @grouped(
func.func @grouped(%x: tensor<300x256xbf16>, %w: tensor<8x256x512xbf16>,
                   %rows: tensor<12x64xi64>, %group: tensor<12xi64>)
    -> tensor<12x64x512xbf16> {
  %a = xtensor.gather %x[%rows] axis 0 : tensor<300x256xbf16>, tensor<12x64xi64> -> tensor<12x64x256xbf16>
  %b = xtensor.gather %w[%group] axis 0 : tensor<8x256x512xbf16>, tensor<12xi64> -> tensor<12x256x512xbf16>
  %p = xtensor.matmul %a, %b : tensor<12x64x256xbf16>, tensor<12x256x512xbf16> -> tensor<12x64x512xbf16>
  %eight = xtensor.constant dense<8> : tensor<12xi64>
  %used = xtensor.cmp lt, %group, %eight : tensor<12xi64>
  %u3 = xtensor.reshape %used : tensor<12xi1> -> tensor<12x1x1xi1>
  %u = xtensor.broadcast %u3 : tensor<12x1x1xi1> -> tensor<12x64x512xi1>
  %zero = xtensor.constant dense<0.0> : tensor<12x64x512xbf16>
  %r = xtensor.select %u, %p, %zero : tensor<12x64x512xbf16>
  return %r : tensor<12x64x512xbf16>
}

// A batched matmul whose matrices are its own (one per batch, read at the
// batch index): the plain program order, tile column fastest, and a K loop
// over the whole of K. Its rows gathered by a consumer (a matmul's rows at
// computed positions) stay a contraction: the gather reads them, rather
// than taking in the product as one dot per output element.
// CHECK-LABEL: xtile.kernel @batched_matmul(
// CHECK-SAME:    instruction = mma_sync
// CHECK-NOT:     batch_group
// CHECK:         scf.for %{{.*}} = %c0 to %c256 step
// CHECK-LABEL: xtile.kernel @batched_gather(
// CHECK-SAME:    schedule = #xtile.row_schedule
// CHECK-LABEL: func.func @batched(
// CHECK:         xtile.launch @batched_matmul
// CHECK:         xtile.launch @batched_gather
func.func @batched(%a: tensor<12x64x256xbf16>, %b: tensor<12x256x512xbf16>,
                   %pos: tensor<300xi64>) -> tensor<300x512xbf16> {
  %p = xtensor.matmul %a, %b : tensor<12x64x256xbf16>, tensor<12x256x512xbf16> -> tensor<12x64x512xbf16>
  %flat = xtensor.reshape %p : tensor<12x64x512xbf16> -> tensor<768x512xbf16>
  %r = xtensor.gather %flat[%pos] axis 0 : tensor<768x512xbf16>, tensor<300xi64> -> tensor<300x512xbf16>
  return %r : tensor<300x512xbf16>
}
