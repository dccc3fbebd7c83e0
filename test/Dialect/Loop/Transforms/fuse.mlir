// RUN: xtile-opt %s --split-input-file --convert-xtensor-to-xloop --xloop-fuse | FileCheck %s
// RUN: xtile-opt %s --split-input-file --convert-xtensor-to-xloop --xloop-fuse=flops-per-byte=1000000 | FileCheck %s --check-prefix=GREEDY

// An elementwise chain of any length is one kernel.
// CHECK-LABEL: xloop.kernel @chain_
// CHECK-COUNT-6: {{arith|math}}.
// CHECK-NOT:     xloop.kernel
// CHECK-LABEL: func.func @chain(
// CHECK-NEXT:    xloop.launch
// CHECK-NEXT:    return
func.func @chain(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %a = xtensor.exp %x : tensor<8x16xf32>
  %b = xtensor.mul %a, %y : tensor<8x16xf32>
  %c = xtensor.tanh %b : tensor<8x16xf32>
  %d = xtensor.sub %c, %x : tensor<8x16xf32>
  %e = xtensor.abs %d : tensor<8x16xf32>
  %f = xtensor.max %e, %y : tensor<8x16xf32>
  return %f : tensor<8x16xf32>
}

// -----

// A reduction over the columns feeds a row-major consumer: fusing would
// recompute each column's fold once per row, so it is materialized.
// CHECK-LABEL: xloop.kernel @column_reduce(
// CHECK:         xloop.fold
// CHECK-LABEL: xloop.kernel @column_sub(
// CHECK-NOT:     xloop.fold
// CHECK-LABEL: func.func @column(
// CHECK:         %[[M:.*]] = xloop.launch @column_reduce(%arg0)
// CHECK-NEXT:    xloop.launch @column_sub(%arg0, %[[M]])
func.func @column(%x: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %m = xtensor.reduce max %x dims [0] keepdim : tensor<64x32xf32> -> tensor<1x32xf32>
  %b = xtensor.broadcast %m : tensor<1x32xf32> -> tensor<64x32xf32>
  %d = xtensor.sub %x, %b : tensor<64x32xf32>
  return %d : tensor<64x32xf32>
}

// -----

// A matmul with two consumers is computed once; its consumers, which read
// the same product over the same space, become one kernel with two
// outputs (sibling fusion).
// CHECK-LABEL: xloop.kernel @shared_matmul(
// CHECK:         xloop.fold
// CHECK-LABEL: xloop.kernel @shared_exp(
// CHECK-SAME:    -> (%[[O1:.*]]: memref<64x32xf32>, %[[O2:.*]]: memref<64x32xf32>)
// CHECK:         xloop.parallel
// CHECK-NEXT:      xloop.parallel
// CHECK-NEXT:        %[[V:.*]] = xloop.load
// CHECK-NEXT:        %[[E:.*]] = math.exp %[[V]]
// CHECK-NEXT:        xloop.store %[[E]], %[[O1]]
// CHECK-NEXT:        %[[N:.*]] = arith.negf %[[V]]
// CHECK-NEXT:        xloop.store %[[N]], %[[O2]]
// CHECK-LABEL: func.func @shared(
// CHECK:         %[[P:.*]] = xloop.launch @shared_matmul(%arg0, %arg1)
// CHECK-NEXT:    %[[R:.*]]:2 = xloop.launch @shared_exp(%[[P]])
// CHECK-NEXT:    return %[[R]]#0, %[[R]]#1
func.func @shared(%x: tensor<64x128xf32>, %w: tensor<128x32xf32>) -> (tensor<64x32xf32>, tensor<64x32xf32>) {
  %m = xtensor.matmul %x, %w : tensor<64x128xf32>, tensor<128x32xf32> -> tensor<64x32xf32>
  %a = xtensor.exp %m : tensor<64x32xf32>
  %b = xtensor.neg %m : tensor<64x32xf32>
  return %a, %b : tensor<64x32xf32>, tensor<64x32xf32>
}

// -----

// A transpose on a matmul operand is index arithmetic in the matmul's
// loads; the bias and activation are its epilogue: one kernel.
// CHECK-LABEL: xloop.kernel @linear_
// CHECK-SAME:    (%[[X:.*]]: memref<64x128xf32>, %[[B:.*]]: memref<32xf32>, %[[W:.*]]: memref<32x128xf32>)
// CHECK:         xloop.parallel %[[I:.*]] = 0 to 64 {
// CHECK-NEXT:      xloop.parallel %[[J:.*]] = 0 to 32 {
// CHECK-NEXT:        %[[ACC:.*]] = xloop.fold %[[K:.*]] = 0 to 128
// CHECK-NEXT:          xloop.load %[[X]][%[[I]], %[[K]]]
// CHECK-NEXT:          xloop.load %[[W]][%[[J]], %[[K]]]
// CHECK:             xloop.load %[[B]][%[[J]]]
// CHECK:             math.tanh
// CHECK-NOT:     xloop.kernel
func.func @linear(%x: tensor<64x128xf32>, %w: tensor<32x128xf32>, %b: tensor<32xf32>) -> tensor<64x32xf32> {
  %wt = xtensor.transpose %w perm [1, 0] : tensor<32x128xf32> -> tensor<128x32xf32>
  %m = xtensor.matmul %x, %wt : tensor<64x128xf32>, tensor<128x32xf32> -> tensor<64x32xf32>
  %bb = xtensor.broadcast %b : tensor<32xf32> -> tensor<64x32xf32>
  %s = xtensor.add %m, %bb : tensor<64x32xf32>
  %y = xtensor.tanh %s : tensor<64x32xf32>
  return %y : tensor<64x32xf32>
}

// -----

// An expensive prologue (exp on every element of the matmul's left
// operand) would be recomputed for each of the 256 output columns: it stays
// a kernel of its own. With work made nearly free (GREEDY), it is fused.
// CHECK-LABEL: xloop.kernel @prologue_exp(
// CHECK-LABEL: xloop.kernel @prologue_matmul(
// CHECK-NOT:     math.exp
// GREEDY-LABEL: xloop.kernel @prologue_matmul(
// GREEDY:         xloop.fold
// GREEDY:           math.exp
// GREEDY-NOT:   xloop.kernel
// GREEDY-LABEL: func.func @prologue(
func.func @prologue(%x: tensor<64x128xf32>, %w: tensor<128x256xf32>) -> tensor<64x256xf32> {
  %e = xtensor.exp %x : tensor<64x128xf32>
  %m = xtensor.matmul %e, %w : tensor<64x128xf32>, tensor<128x256xf32> -> tensor<64x256xf32>
  return %m : tensor<64x256xf32>
}

// -----

// A value that leaves the function is still written: its elementwise
// consumer computes it and writes it beside its own output (one kernel
// with two outputs that computes exp once), rather than reading it back.
// CHECK-LABEL: xloop.kernel @outputs_mul(
// CHECK-SAME:    %[[X:.*]]: memref<16xf32>) -> (%[[O1:.*]]: memref<16xf32>, %[[O2:.*]]: memref<16xf32>)
// CHECK-NEXT:    xloop.parallel %[[I:.*]] = 0 to 16 {
// CHECK-NEXT:      %[[V:.*]] = xloop.load %[[X]][%[[I]]]
// CHECK-NEXT:      %[[E:.*]] = math.exp %[[V]]
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %[[E]], %[[V]]
// CHECK-NEXT:      xloop.store %[[M]], %[[O1]][%[[I]]]
// CHECK-NEXT:      xloop.store %[[E]], %[[O2]][%[[I]]]
// CHECK-LABEL: func.func @outputs(
// CHECK-NEXT:    %[[R:.*]]:2 = xloop.launch @outputs_mul(%arg0)
// CHECK-NEXT:    return %[[R]]#1, %[[R]]#0
func.func @outputs(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %e = xtensor.exp %x : tensor<16xf32>
  %m = xtensor.mul %e, %x : tensor<16xf32>
  return %e, %m : tensor<16xf32>, tensor<16xf32>
}

// -----

// log_softmax and x - mean(x) over rows: each fuses into one kernel, folds
// in the row loop (log_softmax's maximum and sum of exponentials one online
// fold), and as both read x over the same rows they are one
// kernel with two outputs, one row loop and one column loop.
// CHECK-LABEL: xloop.kernel @rows_
// CHECK-SAME:    -> (%[[Y:.*]]: memref<32x100xf32>, %[[C:.*]]: memref<32x100xf32>)
// CHECK:         xloop.parallel %{{.*}} = 0 to 32 {
// CHECK-NEXT:      xloop.online_fold
// CHECK:           math.log
// CHECK:           xloop.fold {{.*}} combine add
// CHECK:           arith.divf
// CHECK-NEXT:      xloop.parallel %{{.*}} = 0 to 100 {
// CHECK:             xloop.store %{{.*}}, %[[Y]]
// CHECK:             xloop.store %{{.*}}, %[[C]]
// CHECK-NOT:     xloop.parallel
// CHECK-NOT:     xloop.kernel
// CHECK-LABEL: func.func @rows(
// CHECK-NEXT:    xloop.launch
// CHECK-NEXT:    return
func.func @rows(%x: tensor<32x100xf32>) -> (tensor<32x100xf32>, tensor<32x100xf32>) {
  %ls = xtensor.reduce max %x dims [1] keepdim : tensor<32x100xf32> -> tensor<32x1xf32>
  %lsb = xtensor.broadcast %ls : tensor<32x1xf32> -> tensor<32x100xf32>
  %sh = xtensor.sub %x, %lsb : tensor<32x100xf32>
  %e = xtensor.exp %sh : tensor<32x100xf32>
  %s = xtensor.reduce sum %e dims [1] keepdim : tensor<32x100xf32> -> tensor<32x1xf32>
  %l = xtensor.log %s : tensor<32x1xf32>
  %lb = xtensor.broadcast %l : tensor<32x1xf32> -> tensor<32x100xf32>
  %y = xtensor.sub %sh, %lb : tensor<32x100xf32>
  %sum = xtensor.reduce sum %x dims [1] keepdim : tensor<32x100xf32> -> tensor<32x1xf32>
  %n = xtensor.constant dense<100.0> : tensor<32x1xf32>
  %mean = xtensor.div %sum, %n : tensor<32x1xf32>
  %mb = xtensor.broadcast %mean : tensor<32x1xf32> -> tensor<32x100xf32>
  %c = xtensor.sub %x, %mb : tensor<32x100xf32>
  return %y, %c : tensor<32x100xf32>, tensor<32x100xf32>
}

// -----

// A parallel residual block (GPT-NeoX, Falcon, Cohere: x + attn(ln(x)) +
// mlp(ln(x))) with its two projections over different K: fusion asks Tile
// IR's predicate, so one projection takes the sum in its epilogue and the
// other stays a kernel of its own, however cheap fusing would be.
// CHECK-LABEL: xloop.kernel @parallel_residual_matmul_0(
// CHECK-SAME:    memref<16x256xf32>
// CHECK:         xloop.fold %{{.*}} = 0 to 256
// CHECK-NOT:     xloop.fold
// CHECK-LABEL: xloop.kernel @parallel_residual_add_1(
// CHECK:         xloop.fold %{{.*}} = 0 to 128
// CHECK-NOT:     xloop.fold
// CHECK-LABEL: func.func @parallel_residual(
// CHECK-COUNT-2: xloop.launch
// CHECK-NOT:     xloop.launch
// GREEDY-LABEL: func.func @parallel_residual(
// GREEDY-COUNT-2: xloop.launch
// GREEDY-NOT:     xloop.launch
func.func @parallel_residual(%x: tensor<16x128xf32>, %y: tensor<16x256xf32>, %wa: tensor<128x128xf32>, %wb: tensor<256x128xf32>) -> tensor<16x128xf32> {
  %a = xtensor.matmul %x, %wa : tensor<16x128xf32>, tensor<128x128xf32> -> tensor<16x128xf32>
  %b = xtensor.matmul %y, %wb : tensor<16x256xf32>, tensor<256x128xf32> -> tensor<16x128xf32>
  %s = xtensor.add %a, %b : tensor<16x128xf32>
  %r = xtensor.add %s, %x : tensor<16x128xf32>
  return %r : tensor<16x128xf32>
}

// -----

// A gather index two layers share (an MoE layer's expert weights gathered
// by expert id: id * 64 + row * 8 + col). Its consumers are judged first,
// while it still reads its iotas, and reject it for those reads; once it
// has taken them in, they try it again and recompute it (a few integer ops
// per load) rather than read a stored int64 index per weight element.
// CHECK-NOT:     memref<6x8x8xi64>
// CHECK-LABEL: func.func @shared_index(
// CHECK-NEXT:    xloop.launch @shared_index_matmul(
// CHECK-NEXT:    xloop.launch @shared_index_reshape_{{[0-9]+}}(
// CHECK-NEXT:    return
// GREEDY-NOT:     memref<6x8x8xi64>
// GREEDY-LABEL: func.func @shared_index(
// GREEDY-COUNT-2: xloop.launch
// GREEDY-NOT:     xloop.launch
func.func @shared_index(%w0: tensor<4x8x8xf32>, %w1: tensor<4x8x8xf32>, %x: tensor<6x8xf32>, %ids: tensor<6xi64>) -> tensor<6x8xf32> {
  %rows = xtensor.iota dim 1 : tensor<6x8x8xi64>
  %cols = xtensor.iota dim 2 : tensor<6x8x8xi64>
  %c8 = xtensor.constant dense<8> : tensor<6x8x8xi64>
  %c64 = xtensor.constant dense<64> : tensor<6x8x8xi64>
  %r8 = xtensor.mul %rows, %c8 : tensor<6x8x8xi64>
  %within = xtensor.add %cols, %r8 : tensor<6x8x8xi64>
  %e = xtensor.reshape %ids : tensor<6xi64> -> tensor<6x1x1xi64>
  %eb = xtensor.broadcast %e : tensor<6x1x1xi64> -> tensor<6x8x8xi64>
  %base = xtensor.mul %eb, %c64 : tensor<6x8x8xi64>
  %at = xtensor.add %within, %base : tensor<6x8x8xi64>
  %f0 = xtensor.reshape %w0 : tensor<4x8x8xf32> -> tensor<256xf32>
  %g0 = xtensor.gather %f0[%at] axis 0 : tensor<256xf32>, tensor<6x8x8xi64> -> tensor<6x8x8xf32>
  %xr = xtensor.reshape %x : tensor<6x8xf32> -> tensor<6x8x1xf32>
  %m0 = xtensor.matmul %g0, %xr : tensor<6x8x8xf32>, tensor<6x8x1xf32> -> tensor<6x8x1xf32>
  %f1 = xtensor.reshape %w1 : tensor<4x8x8xf32> -> tensor<256xf32>
  %g1 = xtensor.gather %f1[%at] axis 0 : tensor<256xf32>, tensor<6x8x8xi64> -> tensor<6x8x8xf32>
  %m1 = xtensor.matmul %g1, %m0 : tensor<6x8x8xf32>, tensor<6x8x1xf32> -> tensor<6x8x1xf32>
  %y = xtensor.reshape %m1 : tensor<6x8x1xf32> -> tensor<6x8xf32>
  return %y : tensor<6x8xf32>
}

// -----

// A row statistic that the function returns and a row consumer reads (a
// quantization's scale beside the quantized row): the consumer computes
// it once a row and writes it too; its own launch goes.
// CHECK-LABEL: xloop.kernel @row_stat_div(
// CHECK-SAME:    -> (%[[Y:.*]]: memref<8x16xf32>, %[[M:.*]]: memref<8x1xf32>)
// CHECK:         xloop.parallel %[[I:.*]] = 0 to 8 {
// CHECK-NEXT:      %[[F:.*]] = xloop.fold
// CHECK:           xloop.parallel
// CHECK:             arith.divf %{{.*}}, %[[F]]
// CHECK:             xloop.store %{{.*}}, %[[Y]]
// CHECK:           }
// CHECK-NEXT:      xloop.store %[[F]], %[[M]][%[[I]], %{{.*}}] : memref<8x1xf32>
// CHECK-NOT:     xloop.kernel
// CHECK-LABEL: func.func @row_stat(
// CHECK-NEXT:    %[[L:.*]]:2 = xloop.launch @row_stat_div(%arg0)
// CHECK-NEXT:    return %[[L]]#0, %[[L]]#1
// GREEDY-LABEL: func.func @row_stat(
// GREEDY-NEXT:    xloop.launch @row_stat_div(%arg0)
// GREEDY-NEXT:    return
func.func @row_stat(%x: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x1xf32>) {
  %a = xtensor.abs %x : tensor<8x16xf32>
  %m = xtensor.reduce max %a dims [1] keepdim : tensor<8x16xf32> -> tensor<8x1xf32>
  %mb = xtensor.broadcast %m : tensor<8x1xf32> -> tensor<8x16xf32>
  %y = xtensor.div %x, %mb : tensor<8x16xf32>
  return %y, %m : tensor<8x16xf32>, tensor<8x1xf32>
}

// -----

// The same over rows with dimensions of 1 (a decode step's new token, per
// head: [batch 1, heads 2, token 1, 16]), which the consumer reads at its
// row loops from 0 to 1: one kernel writes both, the statistic once.
// CHECK-LABEL: xloop.kernel @unit_rows_div(
// CHECK-SAME:    -> (%{{.*}}: memref<1x2x1x16xf32>, %[[M:.*]]: memref<1x2x1x1xf32>)
// CHECK:           xloop.fold
// CHECK-NOT:       xloop.fold
// CHECK:           xloop.store %{{.*}}, %[[M]]
// CHECK-LABEL: func.func @unit_rows(
// CHECK-NEXT:    %[[L:.*]]:2 = xloop.launch @unit_rows_div(%arg0)
// CHECK-NEXT:    return %[[L]]#0, %[[L]]#1
// GREEDY-LABEL: func.func @unit_rows(
// GREEDY-NEXT:    xloop.launch @unit_rows_div(%arg0)
// GREEDY-NEXT:    return
func.func @unit_rows(%x: tensor<1x2x1x16xf32>) -> (tensor<1x2x1x16xf32>, tensor<1x2x1x1xf32>) {
  %a = xtensor.abs %x : tensor<1x2x1x16xf32>
  %m = xtensor.reduce max %a dims [3] keepdim : tensor<1x2x1x16xf32> -> tensor<1x2x1x1xf32>
  %mb = xtensor.broadcast %m : tensor<1x2x1x1xf32> -> tensor<1x2x1x16xf32>
  %y = xtensor.div %x, %mb : tensor<1x2x1x16xf32>
  return %y, %m : tensor<1x2x1x16xf32>, tensor<1x2x1x1xf32>
}

// -----

// Not where the consumer's rows visit each statistic more than once (4
// times here): the statistic stays a kernel of its own.
// CHECK-LABEL: xloop.kernel @other_rows_reduce(
// CHECK-LABEL: xloop.kernel @other_rows_div(
// CHECK-LABEL: func.func @other_rows(
// CHECK:         %[[M:.*]] = xloop.launch @other_rows_reduce
// CHECK:         xloop.launch @other_rows_div(%arg1, %[[M]])
// GREEDY-LABEL: func.func @other_rows(
func.func @other_rows(%x: tensor<8x16xf32>, %z: tensor<4x8x16xf32>) -> (tensor<4x8x16xf32>, tensor<8x1xf32>) {
  %a = xtensor.abs %x : tensor<8x16xf32>
  %m = xtensor.reduce max %a dims [1] keepdim : tensor<8x16xf32> -> tensor<8x1xf32>
  %m3 = xtensor.reshape %m : tensor<8x1xf32> -> tensor<1x8x1xf32>
  %mb = xtensor.broadcast %m3 : tensor<1x8x1xf32> -> tensor<4x8x16xf32>
  %y = xtensor.div %z, %mb : tensor<4x8x16xf32>
  return %y, %m : tensor<4x8x16xf32>, tensor<8x1xf32>
}

// -----

// A statistic the consumer reads twice (two of its inputs) and the
// function returns: one kernel writes the rows and the statistic.
// CHECK-LABEL: func.func @stat_read_twice(
// CHECK-NEXT:    %[[L:.*]]:2 = xloop.launch
// CHECK-NEXT:    return %[[L]]#0, %[[L]]#1
// GREEDY-LABEL: func.func @stat_read_twice(
func.func @stat_read_twice(%x: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x1xf32>) {
  %m = xtensor.reduce sum %x dims [1] keepdim : tensor<8x16xf32> -> tensor<8x1xf32>
  %mb = xtensor.broadcast %m : tensor<8x1xf32> -> tensor<8x16xf32>
  %y = xtensor.sub %x, %mb : tensor<8x16xf32>
  %z = xtensor.mul %y, %mb : tensor<8x16xf32>
  return %z, %m : tensor<8x16xf32>, tensor<8x1xf32>
}

// -----

// A block-scaled product: a matmul batched over blocks of K, scaled per
// block, summed over the blocks, is one kernel, a fold over the blocks
// around each block's contraction, scaled.
// CHECK-LABEL: xloop.kernel @block_scaled_reduce(
// CHECK: xloop.fold %[[KB:.*]] = 0 to 2 combine add
// CHECK: %[[P:.*]] = xloop.fold %{{.*}} = 0 to 32 combine add
// CHECK: %[[S:.*]] = xloop.load %{{.*}}[%{{.*}}, %[[KB]]] : memref<8x2xf32>
// CHECK: arith.mulf %[[P]], %[[S]]
// CHECK-LABEL: func.func @block_scaled(
// CHECK-NEXT: xloop.launch @block_scaled_reduce
// CHECK-NEXT: return
func.func @block_scaled(%x: tensor<8x2x32xf32>, %w: tensor<2x32x6xf32>, %s: tensor<8x2xf32>) -> tensor<8x6xf32> {
  %xt = xtensor.transpose %x perm [1, 0, 2] : tensor<8x2x32xf32> -> tensor<2x8x32xf32>
  %p = xtensor.matmul %xt, %w : tensor<2x8x32xf32>, tensor<2x32x6xf32> -> tensor<2x8x6xf32>
  %st = xtensor.transpose %s perm [1, 0] : tensor<8x2xf32> -> tensor<2x8xf32>
  %s3 = xtensor.reshape %st : tensor<2x8xf32> -> tensor<2x8x1xf32>
  %sb = xtensor.broadcast %s3 : tensor<2x8x1xf32> -> tensor<2x8x6xf32>
  %m = xtensor.mul %p, %sb : tensor<2x8x6xf32>
  %r = xtensor.reduce sum %m dims [0] : tensor<2x8x6xf32> -> tensor<8x6xf32>
  return %r : tensor<8x6xf32>
}

// -----

// Blocks' sums combined otherwise than scaled (a sum of their squares)
// are not a block-scaled product: the matmul stays a kernel of its own.
// CHECK-LABEL: func.func @block_squares(
// CHECK-NEXT: xloop.launch @block_squares_matmul
// CHECK-NEXT: xloop.launch @block_squares_reduce
func.func @block_squares(%x: tensor<2x8x32xf32>, %w: tensor<2x32x6xf32>) -> tensor<8x6xf32> {
  %p = xtensor.matmul %x, %w : tensor<2x8x32xf32>, tensor<2x32x6xf32> -> tensor<2x8x6xf32>
  %m = xtensor.mul %p, %p : tensor<2x8x6xf32>
  %r = xtensor.reduce sum %m dims [0] : tensor<2x8x6xf32> -> tensor<8x6xf32>
  return %r : tensor<8x6xf32>
}

// -----

// A consumer that no longer reads a statistic it is passed (topk of one
// element): left alone, not a crash.
// CHECK-LABEL: func.func @stat_unread(
// CHECK:         return
// GREEDY-LABEL: func.func @stat_unread(
func.func @stat_unread(%arg0: tensor<f32>) -> (tensor<f32>, tensor<i64>) {
  %1 = xtensor.reshape %arg0 : tensor<f32> -> tensor<1xf32>
  %2 = xtensor.iota dim 0 : tensor<1xi64>
  %3 = xtensor.cmp ne, %1, %1 : tensor<1xf32>
  %4 = xtensor.constant dense<true> : tensor<1xi1>
  %5 = xtensor.not %3 : tensor<1xi1>
  %6 = xtensor.and %4, %5 : tensor<1xi1>
  %7 = xtensor.constant dense<0xFF800000> : tensor<1xf32>
  %8 = xtensor.select %6, %1, %7 : tensor<1xf32>
  %9 = xtensor.reduce max %8 dims [0] keepdim : tensor<1xf32> -> tensor<1xf32>
  %10 = xtensor.and %4, %3 : tensor<1xi1>
  %11 = xtensor.reduce any %10 dims [0] keepdim : tensor<1xi1> -> tensor<1xi1>
  %12 = xtensor.constant dense<0x7FC00000> : tensor<1xf32>
  %13 = xtensor.select %11, %12, %9 : tensor<1xf32>
  %14 = xtensor.cmp eq, %1, %13 : tensor<1xf32>
  %15 = xtensor.cmp ne, %13, %13 : tensor<1xf32>
  %16 = xtensor.and %3, %15 : tensor<1xi1>
  %17 = xtensor.or %14, %16 : tensor<1xi1>
  %18 = xtensor.and %17, %4 : tensor<1xi1>
  %19 = xtensor.constant dense<1> : tensor<1xi64>
  %20 = xtensor.select %18, %2, %19 : tensor<1xi64>
  %21 = xtensor.reduce min %20 dims [0] keepdim : tensor<1xi64> -> tensor<1xi64>
  %22 = xtensor.gather %1[%21] axis 0 : tensor<1xf32>, tensor<1xi64> -> tensor<1xf32>
  %23 = xtensor.reshape %22 : tensor<1xf32> -> tensor<f32>
  %24 = xtensor.reshape %21 : tensor<1xi64> -> tensor<i64>
  return %23, %24 : tensor<f32>, tensor<i64>
}

// -----

// An optimizer step: the moments are returned and read by the parameter's
// update; the update computes each and writes it beside the parameter,
// one kernel reading p, g, m and v once and writing each result once.
// CHECK-LABEL: xloop.kernel @adam_sub(
// CHECK-SAME:    -> (%{{.*}}: memref<64xf32>, %{{.*}}: memref<64xf32>, %{{.*}}: memref<64xf32>)
// CHECK-COUNT-3: xloop.store
// CHECK-NOT:   xloop.kernel
// CHECK-LABEL: func.func @adam(
// CHECK-NEXT:    %[[R:.*]]:3 = xloop.launch @adam_sub(
// CHECK-NEXT:    return %[[R]]#0, %[[R]]#{{[12]}}, %[[R]]#{{[12]}}
func.func @adam(%p: tensor<64xf32>, %g: tensor<64xf32>, %m: tensor<64xf32>, %v: tensor<64xf32>)
    -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %b1 = arith.constant dense<0.9> : tensor<64xf32>
  %b2 = arith.constant dense<0.999> : tensor<64xf32>
  %eps = arith.constant dense<1.0e-8> : tensor<64xf32>
  %m0 = xtensor.mul %m, %b1 : tensor<64xf32>
  %mn = xtensor.add %m0, %g : tensor<64xf32>
  %v0 = xtensor.mul %v, %b2 : tensor<64xf32>
  %gg = xtensor.mul %g, %g : tensor<64xf32>
  %vn = xtensor.add %v0, %gg : tensor<64xf32>
  %s = xtensor.sqrt %vn : tensor<64xf32>
  %d = xtensor.add %s, %eps : tensor<64xf32>
  %q = xtensor.div %mn, %d : tensor<64xf32>
  %pn = xtensor.sub %p, %q : tensor<64xf32>
  return %pn, %mn, %vn : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}

// -----

// An index PyTorch counts from the end when negative (i < 0 ? i + n : i),
// taken from an iota: a loop index is never negative, so the kernel reads
// x at the index itself.
// CHECK-LABEL: xloop.kernel @wrapped_
// CHECK:         xloop.parallel %[[I:.*]] = 0 to 8 {
// CHECK-NOT:       arith.cmpi
// CHECK-NOT:       arith.select
// CHECK:           xloop.load %{{.*}}[%[[I]]] : memref<8xf32>
// CHECK:           math.exp
func.func @wrapped(%x: tensor<8xf32>) -> tensor<8xf32> {
  %i = xtensor.iota dim 0 : tensor<8xi64>
  %zero = xtensor.constant dense<0> : tensor<8xi64>
  %n = xtensor.constant dense<8> : tensor<8xi64>
  %negative = xtensor.cmp lt, %i, %zero : tensor<8xi64>
  %up = xtensor.add %i, %n : tensor<8xi64>
  %j = xtensor.select %negative, %up, %i : tensor<8xi64>
  %g = xtensor.gather %x[%j] axis 0 : tensor<8xf32>, tensor<8xi64> -> tensor<8xf32>
  %e = xtensor.exp %g : tensor<8xf32>
  return %e : tensor<8xf32>
}

// -----

// A mask computed from two vectors (same sequence, key at or before the
// query), read by two consumers over 8 and 4 heads: each recomputes it
// from the vectors rather than read 256 x 256 bytes (whatever it repeats
// it over), and no mask kernel is left.
// CHECK-LABEL: xloop.kernel @shared_mask_reduce(
// CHECK-SAME:    %{{.*}}: memref<256xi64>, %{{.*}}: memref<256xi64>
// CHECK:         arith.cmpi eq
// CHECK:         arith.cmpi sle
// CHECK-LABEL: xloop.kernel @shared_mask_reduce_6(
// CHECK-SAME:    %{{.*}}: memref<256xi64>, %{{.*}}: memref<256xi64>
// CHECK-NOT:   xloop.kernel
// CHECK-LABEL: func.func @shared_mask(
// CHECK-COUNT-2: xloop.launch
// CHECK-NOT:     xloop.launch
func.func @shared_mask(%p: tensor<256xi64>, %q: tensor<256xi64>, %a: tensor<8x256x256xf32>, %b: tensor<4x256x256xf32>) -> (tensor<8x256xf32>, tensor<4x256xf32>) {
  %pr = xtensor.reshape %p : tensor<256xi64> -> tensor<256x1xi64>
  %pb = xtensor.broadcast %pr : tensor<256x1xi64> -> tensor<256x256xi64>
  %qr = xtensor.reshape %q : tensor<256xi64> -> tensor<1x256xi64>
  %qb = xtensor.broadcast %qr : tensor<1x256xi64> -> tensor<256x256xi64>
  %same = xtensor.cmp eq, %pb, %qb : tensor<256x256xi64>
  %before = xtensor.cmp le, %qb, %pb : tensor<256x256xi64>
  %m = xtensor.and %same, %before : tensor<256x256xi1>
  %m8 = xtensor.broadcast %m : tensor<256x256xi1> -> tensor<8x256x256xi1>
  %z8 = xtensor.constant dense<0.0> : tensor<8x256x256xf32>
  %s8 = xtensor.select %m8, %a, %z8 : tensor<8x256x256xf32>
  %r8 = xtensor.reduce sum %s8 dims [2] : tensor<8x256x256xf32> -> tensor<8x256xf32>
  %m4 = xtensor.broadcast %m : tensor<256x256xi1> -> tensor<4x256x256xi1>
  %z4 = xtensor.constant dense<0.0> : tensor<4x256x256xf32>
  %s4 = xtensor.select %m4, %b, %z4 : tensor<4x256x256xf32>
  %r4 = xtensor.reduce max %s4 dims [2] : tensor<4x256x256xf32> -> tensor<4x256xf32>
  return %r8, %r4 : tensor<8x256xf32>, tensor<4x256xf32>
}

// -----

// The size of a dynamic dimension as a value (an iota's largest index plus
// one), read by two consumers: the fold of its own index is arithmetic on
// the size, and each consumer computes it; neither writes it beside its
// own output for the other (what is written beside is a fold's result or
// a returned value). Before, the first consumer also wrote it, the second
// read it back, and a kernel computed the maximum.
// CHECK-LABEL: xloop.kernel @size_twice_add_0
// CHECK-SAME:    [%[[T:[a-z0-9]+]] = 1 to 1024](%{{.*}}: memref<1x?xi64> [%[[T]]]) -> (%{{.*}}: memref<1x?xi64> [%[[T]]])
// CHECK:         %[[LAST:.*]] = arith.subi %[[T]], %{{.*}} : index
// CHECK:         arith.index_cast %[[LAST]] : index to i64
// CHECK-NOT:     xloop.fold
// CHECK-LABEL: func.func @size_twice(
// CHECK-NEXT:    xloop.launch @size_twice_add_0[T](%arg0) : (tensor<1x?xi64, #xtensor.dims<T>>) -> tensor<1x?xi64, #xtensor.dims<T>>
// CHECK-NEXT:    xloop.launch @size_twice_add_2[T](%arg1) : (tensor<1x1x?xi64, #xtensor.dims<T>>) -> tensor<1x1x?xi64, #xtensor.dims<T>>
// CHECK-NEXT:    return
#T = #xtensor.dims<T>
func.func @size_twice(%x: tensor<1x?xi64, #T>, %y: tensor<1x1x?xi64, #T>) -> (tensor<1x?xi64, #T>, tensor<1x1x?xi64, #T>)
    attributes {xtensor.symbols = {T = array<i64: 1, 1024>}} {
  %i = xtensor.iota dim 0 : tensor<?xi64, #T>
  %m = xtensor.reduce max %i dims [0] : tensor<?xi64, #T> -> tensor<i64>
  %one = xtensor.constant dense<1> : tensor<i64>
  %n = xtensor.add %m, %one : tensor<i64>
  %b2 = xtensor.broadcast %n : tensor<i64> -> tensor<1x?xi64, #T>
  %a = xtensor.add %x, %b2 : tensor<1x?xi64, #T>
  %b3 = xtensor.broadcast %n : tensor<i64> -> tensor<1x1x?xi64, #T>
  %c = xtensor.add %y, %b3 : tensor<1x1x?xi64, #T>
  return %a, %c : tensor<1x?xi64, #T>, tensor<1x1x?xi64, #T>
}

// -----

// A row statistic (a log-sum-exp, from the row's maximum and sum) read by
// a row consumer (cross-entropy's gradient) and by a reduction over the
// rows that comes before the consumer (the loss): the consumer takes in
// the folds and writes the statistic beside its rows, and the reduction
// moves after it to read it there. Before, the reduction's place kept
// the statistic a kernel of its own, and the rows were read twice.
// CHECK-LABEL: xloop.kernel @lse_rows_reduce_{{[0-9]+}}(
// CHECK-SAME:    %{{.*}}: memref<8xf32>) -> (%{{.*}}: memref<f32>)
// CHECK-LABEL: xloop.kernel @lse_rows_sub_{{[0-9]+}}(
// CHECK-SAME:    -> (%[[G:.*]]: memref<8x16xf32>, %[[L:.*]]: memref<8xf32>)
// CHECK:           %[[MAX:.*]], %[[SUM:.*]] = xloop.online_fold
// CHECK:           %[[LOG:.*]] = math.log %[[SUM]]
// CHECK:           %[[LSE:.*]] = arith.addf %[[LOG]], %[[MAX]]
// CHECK:             xloop.store %{{.*}}, %[[G]]
// CHECK:           xloop.store %[[LSE]], %[[L]]
// CHECK-LABEL: func.func @lse_rows(
// CHECK-NEXT:    %[[K:.*]]:2 = xloop.launch @lse_rows_sub_{{[0-9]+}}(%arg0, %arg1)
// CHECK-NEXT:    %[[R:.*]] = xloop.launch @lse_rows_reduce_{{[0-9]+}}(%[[K]]#1)
// CHECK-NEXT:    return %[[R]], %[[K]]#0
func.func @lse_rows(%x: tensor<8x16xf32>, %t: tensor<8xi64>) -> (tensor<f32>, tensor<8x16xf32>) {
  %mx = xtensor.reduce max %x dims [1] : tensor<8x16xf32> -> tensor<8xf32>
  %mx1 = xtensor.reshape %mx : tensor<8xf32> -> tensor<8x1xf32>
  %mb = xtensor.broadcast %mx1 : tensor<8x1xf32> -> tensor<8x16xf32>
  %s = xtensor.sub %x, %mb : tensor<8x16xf32>
  %e = xtensor.exp %s : tensor<8x16xf32>
  %sum = xtensor.reduce sum %e dims [1] : tensor<8x16xf32> -> tensor<8xf32>
  %l = xtensor.log %sum : tensor<8xf32>
  %lse = xtensor.add %l, %mx : tensor<8xf32>
  %r = xtensor.reduce sum %lse dims [0] : tensor<8xf32> -> tensor<f32>
  %lse1 = xtensor.reshape %lse : tensor<8xf32> -> tensor<8x1xf32>
  %lb = xtensor.broadcast %lse1 : tensor<8x1xf32> -> tensor<8x16xf32>
  %d = xtensor.sub %x, %lb : tensor<8x16xf32>
  %p = xtensor.exp %d : tensor<8x16xf32>
  %tb0 = xtensor.reshape %t : tensor<8xi64> -> tensor<8x1xi64>
  %tb = xtensor.broadcast %tb0 : tensor<8x1xi64> -> tensor<8x16xi64>
  %io = xtensor.iota dim 1 : tensor<8x16xi64>
  %hot = xtensor.cmp eq, %io, %tb : tensor<8x16xi64>
  %hf = xtensor.cast %hot : tensor<8x16xi1> -> tensor<8x16xf32>
  %g = xtensor.sub %p, %hf : tensor<8x16xf32>
  return %r, %g : tensor<f32>, tensor<8x16xf32>
}

// -----

// A scatter-add's adding kernel (accumulating stores that update the fill
// in place) takes the producers of its source and ids; the fill, the
// operand it updates, stays apart.
// CHECK-LABEL: xloop.kernel @scatter_scatter_add(
// CHECK-SAME:    memref<7x32xf32>, %{{.*}}: memref<{{64xi64|64x32xf32}}>, %{{.*}}: memref<{{64xi64|64x32xf32}}>)
// CHECK:         arith.addi
// CHECK:         arith.mulf
// CHECK:         xloop.store {{.*}} accumulate
// CHECK-LABEL: func.func @scatter(
// CHECK-NEXT:    %[[FILL:.*]] = xloop.launch @scatter_scatter_add_init()
// CHECK-NEXT:    xloop.launch @scatter_scatter_add(%[[FILL]], {{.*}}) {updates = array<i64: 0>}
// CHECK-NEXT:    return
func.func @scatter(%g: tensor<64x32xf32>, %ids: tensor<64xi64>) -> tensor<7x32xf32> {
  %two = xtensor.constant dense<2.0> : tensor<64x32xf32>
  %s = xtensor.mul %g, %two : tensor<64x32xf32>
  %one = xtensor.constant dense<1> : tensor<64xi64>
  %i = xtensor.add %ids, %one : tensor<64xi64>
  %z = xtensor.constant dense<0.0> : tensor<7x32xf32>
  %r = xtensor.scatter_add %s into %z[%i] axis 0
      : tensor<64x32xf32>, tensor<64xi64> -> tensor<7x32xf32>
  return %r : tensor<7x32xf32>
}

// -----

// A chain of scatter-adds into one buffer (each into the one before, which
// nothing else reads) is one adding kernel with all their accumulating
// stores, the source they share read once; a result that is also returned
// ends the chain.
// CHECK-LABEL: xloop.kernel @chain_scatter_add_{{[0-9]+}}(
// CHECK-SAME:    %{{.*}}: memref<7x32xf32>, %[[IDS:.*]]: memref<64xi64>, %[[G:.*]]: memref<64x32xf32>) -> (%[[OUT:.*]]: memref<7x32xf32>)
// CHECK:           %[[V:.*]] = xloop.load %[[G]]
// CHECK:           xloop.store %{{.*}}, %[[OUT]][{{.*}}] accumulate
// CHECK-NOT:       xloop.load %[[G]]
// CHECK:           xloop.store %{{.*}}, %[[OUT]][{{.*}}] accumulate
// CHECK-LABEL: func.func @chain(
// CHECK-NEXT:    %[[FILL:.*]] = xloop.launch @chain_scatter_add_init()
// CHECK-NEXT:    %[[A:.*]] = xloop.launch @chain_scatter_add_{{[0-9]+}}(%[[FILL]], %arg1, %arg0) {updates = array<i64: 0>}
// CHECK-NEXT:    %[[C:.*]] = xloop.launch @chain_scatter_add_init_{{[0-9]+}}(%[[A]])
// CHECK-NEXT:    %[[B:.*]] = xloop.launch @chain_scatter_add_{{[0-9]+}}(%[[C]], %arg1, %arg0) {updates = array<i64: 0>}
// CHECK-NEXT:    return %[[A]], %[[B]]
func.func @chain(%g: tensor<64x32xf32>, %ids: tensor<64xi64>) -> (tensor<7x32xf32>, tensor<7x32xf32>) {
  %z = xtensor.constant dense<0.0> : tensor<7x32xf32>
  %a = xtensor.scatter_add %g into %z[%ids] axis 0
      : tensor<64x32xf32>, tensor<64xi64> -> tensor<7x32xf32>
  %e = xtensor.exp %g : tensor<64x32xf32>
  %b = xtensor.scatter_add %e into %a[%ids] axis 0
      : tensor<64x32xf32>, tensor<64xi64> -> tensor<7x32xf32>
  %c = xtensor.scatter_add %g into %b[%ids] axis 0
      : tensor<64x32xf32>, tensor<64xi64> -> tensor<7x32xf32>
  %d = xtensor.scatter_add %g into %c[%ids] axis 0
      : tensor<64x32xf32>, tensor<64xi64> -> tensor<7x32xf32>
  return %b, %d : tensor<7x32xf32>, tensor<7x32xf32>
}
