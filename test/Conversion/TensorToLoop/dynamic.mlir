// RUN: xtile-opt %s --convert-xtensor-to-xloop --split-input-file | FileCheck %s

// Dynamic sizes stay dynamic in Loop IR: each kernel takes the sizes of
// its buffers as `index` arguments (their ranges from the function's
// xtensor.symbols; priced at 1024, within the range), loops run to them,
// and the launch names them. A reduction or a matmul over the dynamic
// dimension folds to its size; a reshape reads a dynamic dimension at its
// own iv (Tensor IR keeps it whole); a broadcast from 1 and an iota need
// the size only for their loops.
// CHECK-LABEL: xloop.kernel @ops_exp
// CHECK-SAME:    [%[[T:[a-z0-9_]+]] = 1 to 100000](%{{.*}}: memref<?x8xf32> [%[[T]]]) -> (%{{.*}}: memref<?x8xf32> [%[[T]]]) attributes {size_hints = array<i64: 1024>}
// CHECK-NEXT:    xloop.parallel %{{.*}} = 0 to %[[T]] {
// CHECK-NEXT:      xloop.parallel %{{.*}} = 0 to 8 {
// CHECK-LABEL: xloop.kernel @ops_reduce
// CHECK-SAME:    [%[[T:[a-z0-9_]+]] = 1 to 100000](%{{.*}}: memref<?x8xf32> [%[[T]]]) -> (%{{.*}}: memref<8xf32>)
// CHECK:         xloop.fold %{{.*}} = 0 to %[[T]] combine add
// CHECK-LABEL: xloop.kernel @ops_matmul
// CHECK-SAME:    [%[[T:[a-z0-9_]+]] = 1 to 100000](%{{.*}}: memref<?x8xf32> [%[[T]]], %{{.*}}: memref<8x16xf32>) -> (%{{.*}}: memref<?x16xf32> [%[[T]]])
// CHECK:         xloop.parallel %{{.*}} = 0 to %[[T]] {
// CHECK:           xloop.fold %{{.*}} = 0 to 8 combine add
// CHECK-LABEL: xloop.kernel @ops_matmul_0
// CHECK-SAME:    [%[[T:[a-z0-9_]+]] = 1 to 100000](%{{.*}}: memref<4x?xf32> [%[[T]]], %{{.*}}: memref<?x8xf32> [%[[T]]]) -> (%{{.*}}: memref<4x8xf32>)
// CHECK:         xloop.fold %{{.*}} = 0 to %[[T]] combine add
// CHECK-LABEL: xloop.kernel @ops_reshape
// CHECK-SAME:    [%[[T:[a-z0-9_]+]] = 1 to 100000](%[[R:[a-z0-9_]+]]: memref<1x?x2x4xf32> [%[[T]]])
// CHECK:         xloop.parallel %[[I:[a-z0-9_]+]] = 0 to %[[T]] {
// CHECK:           xloop.load %[[R]][%{{.*}}, %[[I]], %{{.*}}, %{{.*}}] : memref<1x?x2x4xf32>
// CHECK-LABEL: xloop.kernel @ops_broadcast
// CHECK-SAME:    [%[[T:[a-z0-9_]+]] = 1 to 100000](%{{.*}}: memref<1x8xf32>) -> (%{{.*}}: memref<?x8xf32> [%[[T]]])
// CHECK-LABEL: xloop.kernel @ops_iota
// CHECK-SAME:    [%[[T:[a-z0-9_]+]] = 1 to 100000]() -> (%{{.*}}: memref<?xi64> [%[[T]]])
// CHECK-LABEL: func.func @ops(
// CHECK:         xloop.launch @ops_exp[T](%arg0) : (tensor<?x8xf32, #xtensor.dims<T>>) -> tensor<?x8xf32, #xtensor.dims<T>>
// CHECK:         xloop.launch @ops_reduce[T](%arg0) : (tensor<?x8xf32, #xtensor.dims<T>>) -> tensor<8xf32>
// CHECK:         xloop.launch @ops_iota[T]() : () -> tensor<?xi64, #xtensor.dims<T>>
#T = #xtensor.dims<T>
func.func @ops(%x: tensor<?x8xf32, #T>, %k: tensor<4x?xf32, #T>, %v: tensor<?x8xf32, #T>, %w: tensor<8x16xf32>, %r: tensor<1x?x2x4xf32, #T>, %b: tensor<1x8xf32>)
    -> (tensor<?x8xf32, #T>, tensor<8xf32>, tensor<?x16xf32, #T>, tensor<4x8xf32>, tensor<?x8xf32, #T>, tensor<?x8xf32, #T>, tensor<?xi64, #T>)
    attributes {xtensor.symbols = {T = array<i64: 1, 100000>}} {
  %e = xtensor.exp %x : tensor<?x8xf32, #T>
  %s = xtensor.reduce sum %x dims [0] : tensor<?x8xf32, #T> -> tensor<8xf32>
  %m = xtensor.matmul %x, %w : tensor<?x8xf32, #T>, tensor<8x16xf32> -> tensor<?x16xf32, #T>
  %p = xtensor.matmul %k, %v : tensor<4x?xf32, #T>, tensor<?x8xf32, #T> -> tensor<4x8xf32>
  %f = xtensor.reshape %r : tensor<1x?x2x4xf32, #T> -> tensor<?x8xf32, #T>
  %c = xtensor.broadcast %b : tensor<1x8xf32> -> tensor<?x8xf32, #T>
  %i = xtensor.iota dim 0 : tensor<?xi64, #T>
  return %e, %s, %m, %p, %f, %c, %i : tensor<?x8xf32, #T>, tensor<8xf32>, tensor<?x16xf32, #T>, tensor<4x8xf32>, tensor<?x8xf32, #T>, tensor<?x8xf32, #T>, tensor<?xi64, #T>
}

// -----

// A size is priced at 1024 unless its range says otherwise.
// CHECK-LABEL: xloop.kernel @short_exp
// CHECK-SAME:    attributes {size_hints = array<i64: 16>}
func.func @short(%x: tensor<?xf32, #xtensor.dims<S>>) -> tensor<?xf32, #xtensor.dims<S>>
    attributes {xtensor.symbols = {S = array<i64: 2, 16>}} {
  %e = xtensor.exp %x : tensor<?xf32, #xtensor.dims<S>>
  return %e : tensor<?xf32, #xtensor.dims<S>>
}

// -----

// Sizes that are expressions (T + 1, T + 3) are kernel sizes like any
// other, with the range that follows from T's. A concatenation after a
// dynamic size selects by the size; a padding masks by it.
// CHECK-LABEL: xloop.kernel @grow_concat
// CHECK-SAME:    [%[[T:.*]] = 1 to 4096, %[[T1:.*]] = 2 to 4097](%[[A:.*]]: memref<?x8xf32> [%[[T]]], %[[B:.*]]: memref<1x8xf32>) -> (%{{.*}}: memref<?x8xf32> [%[[T1]]])
// CHECK:         xloop.parallel %[[I:.*]] = 0 to %[[T1]]
// CHECK:           %[[IN_A:.*]] = xloop.load %[[A]]
// CHECK:           %[[AT:.*]] = arith.subi %[[I]], %{{.*}} : index
// CHECK:           %[[IN_B:.*]] = xloop.load %[[B]]
// CHECK:           %[[BEFORE:.*]] = arith.cmpi slt, %[[I]], %{{.*}} : index
// CHECK:           arith.select %[[BEFORE]], %[[IN_A]], %[[IN_B]] : f32
// CHECK-LABEL: xloop.kernel @grow_pad
// CHECK-SAME:    [%[[T:.*]] = 1 to 4096, %{{.*}} = 4 to 4099]
// CHECK:           %[[SHIFTED:.*]] = affine.apply #{{.*}}(%{{.*}})
// CHECK:           arith.cmpi slt, %[[SHIFTED]], %[[T]] : index
// CHECK-LABEL: func.func @grow
// CHECK:         xloop.launch @grow_concat[T, "T + 1"]
// CHECK:         xloop.launch @grow_pad[T, "T + 3"]
#T = #xtensor.dims<T>
func.func @grow(%x: tensor<?x8xf32, #T>, %new: tensor<1x8xf32>)
    -> (tensor<?x8xf32, #xtensor.dims<"T + 1">>, tensor<?x8xf32, #xtensor.dims<"T + 3">>)
    attributes {xtensor.symbols = {T = array<i64: 1, 4096>}} {
  %c = xtensor.concat %x, %new dim 0
      : tensor<?x8xf32, #T>, tensor<1x8xf32> -> tensor<?x8xf32, #xtensor.dims<"T + 1">>
  %p = xtensor.pad %x low [1, 0] high [2, 0] value 0.0 : f32
      : tensor<?x8xf32, #T> -> tensor<?x8xf32, #xtensor.dims<"T + 3">>
  return %c, %p : tensor<?x8xf32, #xtensor.dims<"T + 1">>, tensor<?x8xf32, #xtensor.dims<"T + 3">>
}

// -----

// A reshape that merges a dynamic size ([S, T, 8] to [S*T, 8]): the
// result element's row-major linear index, with strides that are products
// of the sizes, divided back into the operand's coordinates.
// CHECK-LABEL: xloop.kernel @merge_reshape
// CHECK-SAME:    [%[[S:.*]] = 1 to 16, %[[T:.*]] = 1 to 4096, %[[ST:.*]] = 1 to 65536]
// CHECK:         xloop.parallel %[[I:.*]] = 0 to %[[ST]]
// CHECK:           xloop.parallel %[[J:.*]] = 0 to 8
// CHECK:             %[[ROW:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK:             %[[LIN:.*]] = arith.addi %[[J]], %[[ROW]] : index
// CHECK:             %[[K:.*]] = arith.remsi %[[LIN]], %{{.*}} : index
// CHECK:             %[[LIN1:.*]] = arith.divsi %[[LIN]], %{{.*}} : index
// CHECK:             %[[TI:.*]] = arith.remsi %[[LIN1]], %[[T]] : index
// CHECK:             %[[SI:.*]] = arith.divsi %[[LIN1]], %[[T]] : index
// CHECK:             xloop.load %{{.*}}[%[[SI]], %[[TI]], %[[K]]]
// CHECK-LABEL: func.func @merge
// CHECK:         xloop.launch @merge_reshape[S, T, "S*T"]
func.func @merge(%x: tensor<?x?x8xf32, #xtensor.dims<S, T>>) -> tensor<?x8xf32, #xtensor.dims<"S*T">>
    attributes {xtensor.symbols = {S = array<i64: 1, 16>, T = array<i64: 1, 4096>}} {
  %y = xtensor.reshape %x : tensor<?x?x8xf32, #xtensor.dims<S, T>> -> tensor<?x8xf32, #xtensor.dims<"S*T">>
  return %y : tensor<?x8xf32, #xtensor.dims<"S*T">>
}
