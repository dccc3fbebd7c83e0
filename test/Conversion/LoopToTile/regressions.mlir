// Cases that once produced wrong Tile IR or crashed; each now lowers
// correctly or is an error naming what is not supported.
//
// RUN: xtile-opt %s --split-input-file --lower-to-tile -verify-diagnostics | FileCheck %s

// A fused elementwise operand of a matmul (a / d) is zeroed past the ragged
// K edge before the dot: the loads' padding would otherwise give 0 / 0.
// CHECK-LABEL: xtile.kernel @ragged_operand_
// CHECK:         %[[Q:.*]] = arith.divf %{{.*}}, %{{.*}} : tensor<{{[0-9]+}}x{{[0-9]+}}xf32>
// CHECK:         %[[QZ:.*]] = arith.select %{{.*}}, %[[Q]], %{{.*}} : tensor<{{[0-9]+}}x{{[0-9]+}}xi1>, tensor<{{[0-9]+}}x{{[0-9]+}}xf32>
// CHECK:         xtile.dot %[[QZ]]
func.func @ragged_operand(%a: tensor<64x40xf32>, %d: tensor<64x40xf32>, %b: tensor<40x4xf32>) -> tensor<64x4xf32> {
  %q = xtensor.div %a, %d : tensor<64x40xf32>
  %c = xtensor.matmul %q, %b : tensor<64x40xf32>, tensor<40x4xf32> -> tensor<64x4xf32>
  return %c : tensor<64x4xf32>
}

// -----

// A scale loaded once per kernel (hoisted above the rows) is a scalar Tile
// IR load.
// CHECK-LABEL: xtile.kernel @hoisted_
// CHECK:         xtile.load %{{.*}}[%{{.*}}] : memref<1xf32>[index] -> f32
func.func @hoisted(%x: tensor<8x16xf32>, %s: tensor<1xf32>) -> tensor<8x16xf32> {
  %sb = xtensor.broadcast %s : tensor<1xf32> -> tensor<8x16xf32>
  %y = xtensor.mul %x, %sb : tensor<8x16xf32>
  %z = xtensor.softmax %y dim 1 : tensor<8x16xf32>
  return %z : tensor<8x16xf32>
}

// -----

// A full reduction of a long vector: split across programs, partials
// combined by a second kernel.
// CHECK-LABEL: xtile.kernel @full_reduce_{{.*}}_partial(
// CHECK-LABEL: xtile.kernel @full_reduce_
// CHECK:         xtile.fold add
// CHECK:         xtile.store %{{.*}}, %{{.*}}[] : memref<f32>, f32
func.func @full_reduce(%x: tensor<1000000xf32>) -> tensor<f32> {
  %s = xtensor.reduce sum %x dims [0] : tensor<1000000xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// -----

// A row sum beside a copy of the row's first element (siblings): the split
// partial kernel writes only partials.
// CHECK-LABEL: xtile.kernel @sum_and_first_{{.*}}_partial(
// CHECK-SAME:    -> (%{{.*}}: memref<8x{{[0-9]+}}xf32>) attributes
// CHECK-NOT:     xtile.store %{{.*}} : memref<8xf32>
// CHECK-LABEL: xtile.kernel @sum_and_first_
// CHECK-LABEL: func.func @sum_and_first(
func.func @sum_and_first(%x: tensor<8x50000xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %s = xtensor.reduce sum %x dims [1] : tensor<8x50000xf32> -> tensor<8xf32>
  %c = xtensor.slice %x starts [0, 0] limits [8, 1] strides [1, 1] : tensor<8x50000xf32> -> tensor<8x1xf32>
  %r = xtensor.reshape %c : tensor<8x1xf32> -> tensor<8xf32>
  return %s, %r : tensor<8xf32>, tensor<8xf32>
}

// -----

// A row reduction broadcast over two dimensions would leave a loop inside
// the column loop (which once shared one index tile between the two
// loops): fusion keeps it a kernel of its own, and both lower.
// CHECK-LABEL: xtile.kernel @nested_columns_reduce(
// CHECK:         xtile.fold add
// CHECK-LABEL: xtile.kernel @nested_columns_mul{{.*}}(
// CHECK-NOT:     xtile.fold
// CHECK-LABEL: func.func @nested_columns(
// CHECK:         xtile.launch @nested_columns_reduce
// CHECK:         xtile.launch @nested_columns_mul
func.func @nested_columns(%x: tensor<4x8x8xf32>, %z: tensor<4x8xf32>) -> tensor<4x8x8xf32> {
  %s = xtensor.reduce sum %z dims [1] keepdim : tensor<4x8xf32> -> tensor<4x1xf32>
  %r = xtensor.reshape %s : tensor<4x1xf32> -> tensor<4x1x1xf32>
  %b = xtensor.broadcast %r : tensor<4x1x1xf32> -> tensor<4x8x8xf32>
  %y = xtensor.mul %x, %b : tensor<4x8x8xf32>
  return %y : tensor<4x8x8xf32>
}

// -----

// A row sum over 32 columns scaling a 16-column row: each column loop gets
// a tile of its own length.
// CHECK-LABEL: xtile.kernel @widths_
// CHECK:         %[[C32:.*]] = xtile.range 0 to 32 : tensor<32xindex>
// CHECK:         xtile.fold add %{{.*}} : tensor<32xf32> -> f32
// CHECK:         %[[C16:.*]] = xtile.range 0 to 16 : tensor<16xindex>
// CHECK:         xtile.store %{{.*}}, %{{.*}}[%{{.*}}, %[[C16]]] : memref<8x16xf32>
func.func @widths(%x: tensor<8x16xf32>, %z: tensor<8x32xf32>) -> tensor<8x16xf32> {
  %s = xtensor.reduce sum %z dims [1] keepdim : tensor<8x32xf32> -> tensor<8x1xf32>
  %b = xtensor.broadcast %s : tensor<8x1xf32> -> tensor<8x16xf32>
  %y = xtensor.mul %x, %b : tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// -----

// Sibling matmuls over different K: fusion asks Tile IR's predicate and
// keeps them in two kernels (once merged into one kernel, an error, not a K
// loop that stopped at the first one's length).
// CHECK-LABEL: xtile.kernel @two_k_add(
// CHECK-SAME:    memref<64x32xf32>, %{{.*}}: memref<32x64xf32>)
// CHECK:         xtile.dot %
// CHECK-NOT:     xtile.dot %
// CHECK-LABEL: xtile.kernel @two_k_add_1(
// CHECK-SAME:    memref<64x128xf32>, %{{.*}}: memref<128x64xf32>)
// CHECK:         xtile.dot %
// CHECK-NOT:     xtile.dot %
// CHECK-LABEL: func.func @two_k(
// CHECK:         xtile.launch @two_k_add(
// CHECK:         xtile.launch @two_k_add_1(
func.func @two_k(%x: tensor<64x64xf32>, %a: tensor<64x32xf32>, %b: tensor<32x64xf32>,
                 %c: tensor<64x128xf32>, %d: tensor<128x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %m1 = xtensor.matmul %a, %b : tensor<64x32xf32>, tensor<32x64xf32> -> tensor<64x64xf32>
  %h1 = xtensor.add %x, %m1 : tensor<64x64xf32>
  %m2 = xtensor.matmul %c, %d : tensor<64x128xf32>, tensor<128x64xf32> -> tensor<64x64xf32>
  %h2 = xtensor.add %x, %m2 : tensor<64x64xf32>
  return %h1, %h2 : tensor<64x64xf32>, tensor<64x64xf32>
}

// -----

// A widening cast: the vector width is bounded by the widest buffer (4 f32
// lanes in 16 bytes), not by the first one (8 bf16 lanes would make
// 32-byte f32 stores, which Kernel IR rejects).
// CHECK-LABEL: xtile.kernel @widen_
// CHECK-SAME:    schedule = #xtile.row_schedule<{{[a-z]+}}, warps = {{[0-9]+}}, vector = {{[124]}}>
func.func @widen(%x: tensor<256xbf16>) -> tensor<256xf32> {
  %y = xtensor.cast %x : tensor<256xbf16> -> tensor<256xf32>
  return %y : tensor<256xf32>
}

// -----

// Reductions over several dimensions, adjacent or not, are one fold over
// the product of their sizes: a row kernel Tile IR lowers.
// CHECK-LABEL: xtile.kernel @multi_dim_
// CHECK:         xtile.fold max
func.func @multi_dim(%x: tensor<3x5x7xf32>) -> tensor<5xf32> {
  %y = xtensor.reduce max %x dims [0, 2] : tensor<3x5x7xf32> -> tensor<5xf32>
  return %y : tensor<5xf32>
}

// -----

// A masked maximum of broadcast rows (embedding_bag's max mode) has the
// operand structure of a contraction, A[i, k] and B[j, k], but is not a sum
// of products: it is a row reduction per output element, not an error.
// CHECK-LABEL: xtile.kernel @broadcast_rows_max_
// CHECK-NOT:     xtile.dot %
// CHECK:         xtile.fold max
func.func @broadcast_rows_max(%m: tensor<4x1x9xi1>, %r: tensor<1x3x9xf32>) -> tensor<4x3xf32> {
  %mb = xtensor.broadcast %m : tensor<4x1x9xi1> -> tensor<4x3x9xi1>
  %rb = xtensor.broadcast %r : tensor<1x3x9xf32> -> tensor<4x3x9xf32>
  %c = xtensor.constant dense<0xFF800000> : tensor<4x3x9xf32>
  %s = xtensor.select %mb, %rb, %c : tensor<4x3x9xf32>
  %y = xtensor.reduce max %s dims [2] : tensor<4x3x9xf32> -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

// A sum of squared differences of broadcast rows (cdist): a sum of
// products whose factors each use both output indices is a row reduction
// too.
// CHECK-LABEL: xtile.kernel @squared_distances_
// CHECK-NOT:     xtile.dot %
// CHECK:         xtile.fold add
func.func @squared_distances(%a: tensor<5x1x4xf32>, %b: tensor<1x6x4xf32>) -> tensor<5x6xf32> {
  %ab = xtensor.broadcast %a : tensor<5x1x4xf32> -> tensor<5x6x4xf32>
  %bb = xtensor.broadcast %b : tensor<1x6x4xf32> -> tensor<5x6x4xf32>
  %d = xtensor.sub %ab, %bb : tensor<5x6x4xf32>
  %s = xtensor.mul %d, %d : tensor<5x6x4xf32>
  %y = xtensor.reduce sum %s dims [2] : tensor<5x6x4xf32> -> tensor<5x6xf32>
  return %y : tensor<5x6xf32>
}

// -----

// cdist's matrix-product form: a row reduction (|y_j|^2) reaches the
// matmul's B operand through a concat. Fusing it would put a reduction
// beside the contraction, which Tile IR cannot tile: it stays a kernel of
// its own, and the contraction lowers.
// CHECK-LABEL: xtile.kernel @euclid_reduce
// CHECK:         xtile.fold add
// CHECK-LABEL: xtile.kernel @euclid_sqrt
// CHECK:         xtile.dot %
func.func @euclid(%x: tensor<3x5xf32>, %y: tensor<3x5xf32>) -> tensor<3x3xf32> {
  %x2 = xtensor.mul %x, %x : tensor<3x5xf32>
  %xn = xtensor.reduce sum %x2 dims [1] keepdim : tensor<3x5xf32> -> tensor<3x1xf32>
  %y2 = xtensor.mul %y, %y : tensor<3x5xf32>
  %yn = xtensor.reduce sum %y2 dims [1] keepdim : tensor<3x5xf32> -> tensor<3x1xf32>
  %one = xtensor.constant dense<1.0> : tensor<3x1xf32>
  %m2 = xtensor.constant dense<-2.0> : tensor<3x5xf32>
  %xs = xtensor.mul %x, %m2 : tensor<3x5xf32>
  %a = xtensor.concat %xs, %xn, %one dim 1 : tensor<3x5xf32>, tensor<3x1xf32>, tensor<3x1xf32> -> tensor<3x7xf32>
  %b = xtensor.concat %y, %one, %yn dim 1 : tensor<3x5xf32>, tensor<3x1xf32>, tensor<3x1xf32> -> tensor<3x7xf32>
  %bt = xtensor.transpose %b perm [1, 0] : tensor<3x7xf32> -> tensor<7x3xf32>
  %d = xtensor.matmul %a, %bt : tensor<3x7xf32>, tensor<7x3xf32> -> tensor<3x3xf32>
  %z = xtensor.constant dense<0.0> : tensor<3x3xf32>
  %c = xtensor.max %d, %z : tensor<3x3xf32>
  %r = xtensor.sqrt %c : tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}
