// RUN: xtile-opt %s --convert-linalg-to-xtensor --split-input-file | FileCheck %s

// A matmul into a zero fill is one xtensor.matmul (the zero init is not
// added); the bias generic broadcasts the bias over the rows.
// CHECK-LABEL: func.func @linear(
// CHECK-NOT:     linalg.
// CHECK:         %[[M:.*]] = xtensor.matmul %arg0, %arg1 : tensor<16x64xf32>, tensor<64x32xf32> -> tensor<16x32xf32>
// CHECK:         %[[B:.*]] = xtensor.reshape %arg2 : tensor<32xf32> -> tensor<1x32xf32>
// CHECK:         %[[BB:.*]] = xtensor.broadcast %[[B]] : tensor<1x32xf32> -> tensor<16x32xf32>
// CHECK:         %[[S:.*]] = xtensor.add %[[M]], %[[BB]] : tensor<16x32xf32>
// CHECK:         %[[T:.*]] = xtensor.tanh %[[S]] : tensor<16x32xf32>
// CHECK:         %[[C:.*]] = xtensor.erfc %[[T]] : tensor<16x32xf32>
// CHECK:         return %[[C]]
func.func @linear(%x: tensor<16x64xf32>, %w: tensor<64x32xf32>, %b: tensor<32xf32>) -> tensor<16x32xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %m = linalg.matmul ins(%x, %w : tensor<16x64xf32>, tensor<64x32xf32>) outs(%z : tensor<16x32xf32>) -> tensor<16x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m, %b : tensor<16x32xf32>, tensor<32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    %t = math.tanh %s : f32
    %u = math.erfc %t : f32
    linalg.yield %u : f32
  } -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}

// -----

// A contraction written as a generic (x W^T: W [n, k]): W is transposed
// into [k, n]; an init that is not zero is added.
// CHECK-LABEL: func.func @xwt(
// CHECK:         %[[T:.*]] = xtensor.transpose %arg1 perm [1, 0] : tensor<32x64xbf16> -> tensor<64x32xbf16>
// CHECK:         %[[M:.*]] = xtensor.matmul %arg0, %[[T]] : tensor<16x64xbf16>, tensor<64x32xbf16> -> tensor<16x32xf32>
// CHECK:         xtensor.add %arg2, %[[M]] : tensor<16x32xf32>
func.func @xwt(%x: tensor<16x64xbf16>, %w: tensor<32x64xbf16>, %acc: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<16x64xbf16>, tensor<32x64xbf16>) outs(%acc : tensor<16x32xf32>) {
  ^bb0(%a: bf16, %b: bf16, %o: f32):
    %ae = arith.extf %a : bf16 to f32
    %be = arith.extf %b : bf16 to f32
    %p = arith.mulf %ae, %be : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}

// -----

// Batched: one batched matmul.
// CHECK-LABEL: func.func @bmm(
// CHECK:         xtensor.matmul %arg0, %arg1 : tensor<4x8x16xf32>, tensor<4x16x8xf32> -> tensor<4x8x8xf32>
func.func @bmm(%a: tensor<4x8x16xf32>, %b: tensor<4x16x8xf32>) -> tensor<4x8x8xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8x8xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %m = linalg.batch_matmul ins(%a, %b : tensor<4x8x16xf32>, tensor<4x16x8xf32>) outs(%z : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  return %m : tensor<4x8x8xf32>
}

// -----

// Reductions: a max over the last dim into a -inf fill is a bare reduce;
// a sum into another tensor adds it.
// CHECK-LABEL: func.func @reductions(
// CHECK:         %[[MAX:.*]] = xtensor.reduce max %arg0 dims [1] : tensor<8x32xf32> -> tensor<8xf32>
// CHECK:         %[[SUM:.*]] = xtensor.reduce sum %arg0 dims [0] : tensor<8x32xf32> -> tensor<32xf32>
// CHECK:         %[[ACC:.*]] = xtensor.add %arg1, %[[SUM]] : tensor<32xf32>
// CHECK:         return %[[MAX]], %[[ACC]]
func.func @reductions(%x: tensor<8x32xf32>, %acc: tensor<32xf32>) -> (tensor<8xf32>, tensor<32xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.reduce ins(%x : tensor<8x32xf32>) outs(%f : tensor<8xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %r = arith.maximumf %in, %init : f32
      linalg.yield %r : f32
    }
  %s = linalg.reduce ins(%x : tensor<8x32xf32>) outs(%acc : tensor<32xf32>) dimensions = [0]
    (%in: f32, %init: f32) {
      %r = arith.addf %in, %init : f32
      linalg.yield %r : f32
    }
  return %m, %s : tensor<8xf32>, tensor<32xf32>
}

// -----

// Named elementwise ops, transpose, broadcast, and a generic whose output
// is transposed.
// CHECK-LABEL: func.func @movement(
// CHECK:         %[[A:.*]] = xtensor.add %arg0, %arg0 : tensor<4x8xf32>
// CHECK:         %[[E:.*]] = xtensor.exp %[[A]] : tensor<4x8xf32>
// CHECK:         %[[T:.*]] = xtensor.transpose %[[E]] perm [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
// CHECK:         %[[R:.*]] = xtensor.reshape %arg1 : tensor<8xf32> -> tensor<1x8xf32>
// CHECK:         %[[B:.*]] = xtensor.broadcast %[[R]] : tensor<1x8xf32> -> tensor<4x8xf32>
// CHECK:         %[[N:.*]] = xtensor.neg %[[B]] : tensor<4x8xf32>
// CHECK:         %[[NT:.*]] = xtensor.transpose %[[N]] perm [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
// CHECK:         return %[[T]], %[[NT]]
func.func @movement(%x: tensor<4x8xf32>, %v: tensor<8xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %a = linalg.add ins(%x, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %x2 = linalg.exp ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %et = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%x2 : tensor<4x8xf32>) outs(%et : tensor<8x4xf32>) permutation = [1, 0]
  %b = linalg.broadcast ins(%v : tensor<8xf32>) outs(%e : tensor<4x8xf32>) dimensions = [0]
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<4x8xf32>) outs(%et : tensor<8x4xf32>) {
  ^bb0(%i: f32, %o: f32):
    %r = arith.negf %i : f32
    linalg.yield %r : f32
  } -> tensor<8x4xf32>
  return %t, %n : tensor<8x4xf32>, tensor<8x4xf32>
}

// -----

// The tensor ops around linalg.
// CHECK-LABEL: func.func @tensor_ops(
// CHECK:         %[[R:.*]] = xtensor.reshape %arg0 : tensor<4x8xf32> -> tensor<2x2x8xf32>
// CHECK:         %[[C:.*]] = xtensor.reshape %[[R]] : tensor<2x2x8xf32> -> tensor<32xf32>
// CHECK:         %[[S:.*]] = xtensor.slice %arg0 starts [1, 2] limits [3, 7] strides [1, 2] : tensor<4x8xf32> -> tensor<2x3xf32>
// CHECK:         %[[P:.*]] = xtensor.pad %arg0 low [0, 1] high [2, 0] value 0.000000e+00 : f32 : tensor<4x8xf32> -> tensor<6x9xf32>
// CHECK:         %[[K:.*]] = xtensor.concat %arg0, %arg0 dim 0 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<8x8xf32>
func.func @tensor_ops(%x: tensor<4x8xf32>) -> (tensor<32xf32>, tensor<2x3xf32>, tensor<6x9xf32>, tensor<8x8xf32>) {
  %r = tensor.expand_shape %x [[0, 1], [2]] output_shape [2, 2, 8] : tensor<4x8xf32> into tensor<2x2x8xf32>
  %c = tensor.collapse_shape %r [[0, 1, 2]] : tensor<2x2x8xf32> into tensor<32xf32>
  %s = tensor.extract_slice %x[1, 2] [2, 3] [1, 2] : tensor<4x8xf32> to tensor<2x3xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1] high[2, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<4x8xf32> to tensor<6x9xf32>
  %k = tensor.concat dim(0) %x, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  return %c, %s, %p, %k : tensor<32xf32>, tensor<2x3xf32>, tensor<6x9xf32>, tensor<8x8xf32>
}

// -----

// As torch-mlir writes them: unit dims as 0 in the indexing maps, the max
// of a softmax next to its (unused) argmax, x^3 as math.fpowi (by
// squaring), and weights as dense_resource constants.
// CHECK-LABEL: func.func @torch_mlir_style(
// CHECK:         %[[W:.*]] = xtensor.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00]> : tensor<8xf32>
// CHECK:         %[[MAX:.*]] = xtensor.reduce max %arg0 dims [1] : tensor<4x8xf32> -> tensor<4xf32>
// CHECK:         %[[M1:.*]] = xtensor.reshape %[[MAX]] : tensor<4xf32> -> tensor<4x1xf32>
// CHECK:         %[[R:.*]] = xtensor.reshape %[[M1]] : tensor<4x1xf32> -> tensor<4xf32>
// CHECK:         %[[R2:.*]] = xtensor.reshape %[[R]] : tensor<4xf32> -> tensor<4x1xf32>
// CHECK:         %[[B:.*]] = xtensor.broadcast %[[R2]] : tensor<4x1xf32> -> tensor<4x8xf32>
// CHECK:         %[[D:.*]] = xtensor.sub %arg0, %[[B]] : tensor<4x8xf32>
// CHECK:         %[[SQ:.*]] = xtensor.mul %[[D]], %[[D]] : tensor<4x8xf32>
// CHECK:         %[[CUBE:.*]] = xtensor.mul %[[D]], %[[SQ]] : tensor<4x8xf32>
// CHECK-NOT:     xtensor.iota
// CHECK:         return
func.func @torch_mlir_style(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %c3 = arith.constant 3 : i64
  %w = arith.constant dense_resource<weights> : tensor<8xf32>
  %ei = tensor.empty() : tensor<4xi64>
  %fi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<4xi64>) -> tensor<4xi64>
  %ef = tensor.empty() : tensor<4xf32>
  %ff = linalg.fill ins(%ninf : f32) outs(%ef : tensor<4xf32>) -> tensor<4xf32>
  %m:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%ff, %fi : tensor<4xf32>, tensor<4xi64>) {
  ^bb0(%in: f32, %out: f32, %idx: i64):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i64
    %mx = arith.maximumf %in, %out : f32
    %gt = arith.cmpf ogt, %in, %out : f32
    %sel = arith.select %gt, %ii, %idx : i64
    linalg.yield %mx, %sel : f32, i64
  } -> (tensor<4xf32>, tensor<4xi64>)
  %m1 = tensor.expand_shape %m#0 [[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %m1, %w : tensor<4x8xf32>, tensor<4x1xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %p = math.fpowi %d, %c3 : f32, i64
    %s = arith.addf %p, %c : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F0000004000004040000080400000A0400000C0400000E04000000041"
    }
  }
#-}

// -----

// An insertion: the source padded to the destination's shape, chosen
// where the iotas fall inside the slice.
// CHECK-LABEL: func.func @insert(
// CHECK:         %[[P:.*]] = xtensor.pad %arg0 low [1, 0] high [1, 2] value 0.000000e+00 : f32 : tensor<2x2xf32> -> tensor<4x4xf32>
// CHECK:         %[[I0:.*]] = xtensor.iota dim 0 : tensor<4x4xi64>
// CHECK:         %[[I1:.*]] = xtensor.iota dim 1 : tensor<4x4xi64>
// CHECK:         xtensor.and
// CHECK:         xtensor.select %{{.*}}, %[[P]], %arg1 : tensor<4x4xf32>
func.func @insert(%x: tensor<2x2xf32>, %y: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = tensor.insert_slice %x into %y[1, 0] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

// An embedding lookup as torch-mlir writes it: the payload reads the table
// at the ids (index_cast) and the column (linalg.index), with cf.assert
// bounds checks. It becomes a gather from the flattened table at
// id * 16 + column; the checks go.
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#out = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @embedding(
// CHECK-NOT:     cf.assert
// CHECK:         %[[IDS:.*]] = xtensor.reshape %arg0 : tensor<3x7xi64> -> tensor<3x7x1xi64>
// CHECK:         %[[IDB:.*]] = xtensor.broadcast %[[IDS]] : tensor<3x7x1xi64> -> tensor<3x7x16xi64>
// CHECK:         %[[COL:.*]] = xtensor.iota dim 2 : tensor<3x7x16xi64>
// CHECK:         %[[W:.*]] = xtensor.constant dense<16> : tensor<3x7x16xi64>
// CHECK:         %[[ROW:.*]] = xtensor.mul %[[IDB]], %[[W]] : tensor<3x7x16xi64>
// CHECK:         %[[OFF:.*]] = xtensor.add %[[COL]], %[[ROW]] : tensor<3x7x16xi64>
// CHECK:         %[[FLAT:.*]] = xtensor.reshape %arg1 : tensor<100x16xf32> -> tensor<1600xf32>
// CHECK:         %[[G:.*]] = xtensor.gather %[[FLAT]][%[[OFF]]] axis 0 : tensor<1600xf32>, tensor<3x7x16xi64> -> tensor<3x7x16xf32>
// CHECK:         return %[[G]]
func.func @embedding(%arg0: tensor<3x7xi64>, %arg1: tensor<100x16xf32>) -> tensor<3x7x16xf32> {
  %c100 = arith.constant 100 : index
  %c0_i64 = arith.constant 0 : i64
  %0 = tensor.empty() : tensor<3x7x16xf32>
  %1 = linalg.generic {indexing_maps = [#ids, #out], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%arg0 : tensor<3x7xi64>) outs(%0 : tensor<3x7x16xf32>) {
  ^bb0(%in: i64, %out: f32):
    %2 = arith.index_cast %in : i64 to index
    %3 = linalg.index 2 : index
    %4 = arith.cmpi slt, %2, %c100 : index
    cf.assert %4, "index must be smaller than dim size"
    %5 = arith.cmpi sge, %in, %c0_i64 : i64
    cf.assert %5, "index must be larger or equal to 0"
    %extracted = tensor.extract %arg1[%2, %3] : tensor<100x16xf32>
    linalg.yield %extracted : f32
  } -> tensor<3x7x16xf32>
  return %1 : tensor<3x7x16xf32>
}

// -----

// A rank-0 tensor read in a payload is broadcast over the iteration space;
// an index constant becomes an i64.
#id1 = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @scalar_read(
// CHECK:         %[[S:.*]] = xtensor.broadcast %arg1 : tensor<f32> -> tensor<8xf32>
// CHECK:         %[[I:.*]] = xtensor.iota dim 0 : tensor<8xi64>
// CHECK:         %[[C:.*]] = xtensor.constant dense<2> : tensor<8xi64>
// CHECK:         %[[P:.*]] = xtensor.add %[[I]], %[[C]] : tensor<8xi64>
// CHECK:         %[[F:.*]] = xtensor.cast %[[P]] : tensor<8xi64> -> tensor<8xf32>
// CHECK:         xtensor.mul %[[S]], %[[F]] : tensor<8xf32>
func.func @scalar_read(%arg0: tensor<8xf32>, %arg1: tensor<f32>) -> tensor<8xf32> {
  %c2 = arith.constant 2 : index
  %1 = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]}
      outs(%arg0 : tensor<8xf32>) {
  ^bb0(%out: f32):
    %s = tensor.extract %arg1[] : tensor<f32>
    %i = linalg.index 0 : index
    %j = arith.addi %i, %c2 : index
    %k = arith.index_cast %j : index to i64
    %f = arith.sitofp %k : i64 to f32
    %y = arith.mulf %s, %f : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

// linalg's convolutions (the input padded by the front end) are the
// contraction over the input's patches, in NHWC; an NCHW convolution is
// transposed in and out. The output tensor they accumulate into is added
// unless it is zero.
// CHECK-LABEL: func.func @conv_nchw(
// CHECK:         %[[X:.*]] = xtensor.transpose %arg0 perm [0, 2, 3, 1] : tensor<1x2x6x5xf32> -> tensor<1x6x5x2xf32>
// CHECK:         %[[W:.*]] = xtensor.transpose %arg1 perm [0, 2, 3, 1] : tensor<3x2x2x2xf32> -> tensor<3x2x2x2xf32>
// CHECK:         %[[ROWS:.*]] = xtensor.reshape %[[X]] : tensor<1x6x5x2xf32> -> tensor<30x2xf32>
// CHECK:         %[[G:.*]] = xtensor.gather %[[ROWS]][%{{.*}}] axis 0 : tensor<30x2xf32>, tensor<1x3x2x2x2xi64> -> tensor<1x3x2x2x2x2xf32>
// CHECK:         %[[MM:.*]] = xtensor.matmul %{{.*}}, %{{.*}} : tensor<6x8xf32>, tensor<8x3xf32> -> tensor<6x3xf32>
// CHECK:         %[[Y:.*]] = xtensor.reshape %[[MM]] : tensor<6x3xf32> -> tensor<1x3x2x3xf32>
// CHECK:         %[[YT:.*]] = xtensor.transpose %[[Y]] perm [0, 3, 1, 2] : tensor<1x3x2x3xf32> -> tensor<1x3x3x2xf32>
// CHECK:         %[[S:.*]] = xtensor.add %arg2, %[[YT]] : tensor<1x3x3x2xf32>
// CHECK:         return %[[S]]
func.func @conv_nchw(%x: tensor<1x2x6x5xf32>, %w: tensor<3x2x2x2xf32>, %init: tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32> {
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 2]> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x2x6x5xf32>, tensor<3x2x2x2xf32>) outs(%init : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  return %y : tensor<1x3x3x2xf32>
}

// -----

// CHECK-LABEL: func.func @conv_nhwc(
// CHECK:         %[[W:.*]] = xtensor.transpose %arg1 perm [3, 0, 1, 2] : tensor<3x3x4x5xbf16> -> tensor<5x3x3x4xbf16>
// CHECK:         xtensor.gather %{{.*}} axis 0 : tensor<32x4xbf16>, tensor<2x2x2x3x3xi64> -> tensor<2x2x2x3x3x4xbf16>
// CHECK:         %[[MM:.*]] = xtensor.matmul %{{.*}}, %{{.*}} : tensor<8x36xbf16>, tensor<36x5xbf16> -> tensor<8x5xf32>
// CHECK:         %[[Y:.*]] = xtensor.reshape %[[MM]] : tensor<8x5xf32> -> tensor<2x2x2x5xf32>
// CHECK-NOT:     xtensor.add
// CHECK:         return %[[Y]]
func.func @conv_nhwc(%x: tensor<2x4x4x4xbf16>, %w: tensor<3x3x4x5xbf16>) -> tensor<2x2x2x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2x2x5xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2x2x5xf32>) -> tensor<2x2x2x5xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<2x4x4x4xbf16>, tensor<3x3x4x5xbf16>) outs(%init : tensor<2x2x2x5xf32>) -> tensor<2x2x2x5xf32>
  return %y : tensor<2x2x2x5xf32>
}
