// RUN: xtile-opt %s --convert-xtensor-to-xloop | FileCheck %s
// RUN: xtile-opt %s --convert-xtensor-to-xloop | xtile-opt | FileCheck %s

// Every op becomes one kernel in pointwise form: a parallel loop per result
// dimension and one store of the element. Movement ops are index
// arithmetic on the loads.

// CHECK-DAG: #[[MOD8:.*]] = affine_map<(d0) -> (d0 mod 8)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0) -> ((d0 floordiv 8) mod 4)>
// CHECK-DAG: #[[STRIDED:.*]] = affine_map<(d0) -> (d0 * 2 + 1)>
// CHECK-DAG: #[[SHIFT1:.*]] = affine_map<(d0) -> (d0 - 1)>
// CHECK-DAG: #[[SHIFT8:.*]] = affine_map<(d0) -> (d0 - 8)>

// CHECK-LABEL: xloop.kernel @ops_add(
// CHECK-SAME:    %[[A:.*]]: memref<4x8xf32>, %[[B:.*]]: memref<4x8xf32>) -> (%[[C:.*]]: memref<4x8xf32>)
// CHECK-NEXT:    xloop.parallel %[[I:.*]] = 0 to 4 {
// CHECK-NEXT:      xloop.parallel %[[J:.*]] = 0 to 8 {
// CHECK-NEXT:        %[[X:.*]] = xloop.load %[[A]][%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK-NEXT:        %[[Y:.*]] = xloop.load %[[B]][%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT:        xloop.store %[[S]], %[[C]][%[[I]], %[[J]]] : memref<4x8xf32>

// CHECK-LABEL: xloop.kernel @ops_transpose(
// CHECK:         xloop.parallel %[[I:.*]] = 0 to 8 {
// CHECK-NEXT:      xloop.parallel %[[J:.*]] = 0 to 4 {
// CHECK-NEXT:        xloop.load %{{.*}}[%[[J]], %[[I]]] : memref<4x8xf32>

// A keepdim reduction: the kept dimension is a loop of one iteration, the
// reduced one a fold with the combine op and its identity.
// CHECK-LABEL: xloop.kernel @ops_reduce(
// CHECK:         xloop.parallel %[[I:.*]] = 0 to 4 {
// CHECK-NEXT:      xloop.parallel %{{.*}} = 0 to 1 {
// CHECK-NEXT:        %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT:        xloop.fold %[[K:.*]] = 0 to 8 combine max init(%[[NEGINF]]) : f32 {
// CHECK-NEXT:          %[[V:.*]] = xloop.load %{{.*}}[%[[I]], %[[K]]]
// CHECK-NEXT:          xloop.yield %[[V]] : f32

// CHECK-LABEL: xloop.kernel @ops_reshape(
// CHECK:         xloop.parallel %[[L:.*]] = 0 to 32 {
// CHECK-NEXT:      %[[COL:.*]] = affine.apply #[[MOD8]](%[[L]])
// CHECK-NEXT:      %[[R:.*]] = affine.apply #[[ROW]](%[[L]])
// CHECK-NEXT:      xloop.load %{{.*}}[%[[R]], %[[COL]]] : memref<4x8xf32>

// CHECK-LABEL: xloop.kernel @ops_slice(
// CHECK:         affine.apply #[[STRIDED]]

// Padding reads a clamped index and selects the padding value outside.
// CHECK-LABEL: xloop.kernel @ops_pad(
// CHECK:         %[[SH:.*]] = affine.apply #[[SHIFT1]]
// CHECK:         %[[IN:.*]] = arith.andi
// CHECK:         %[[LO:.*]] = arith.maxsi %[[SH]]
// CHECK:         %[[HI:.*]] = arith.minsi %[[LO]]
// CHECK:         %[[V:.*]] = xloop.load %{{.*}}[%{{.*}}, %[[HI]]]
// CHECK:         %[[PAD:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         arith.select %[[IN]], %[[V]], %[[PAD]] : f32

// CHECK-LABEL: xloop.kernel @ops_concat(
// CHECK:         %[[V0:.*]] = xloop.load %arg0
// CHECK:         affine.apply #[[SHIFT8]]
// CHECK:         %[[V1:.*]] = xloop.load %arg1
// CHECK:         %[[FIRST:.*]] = arith.cmpi slt, %{{.*}}, %c8 : index
// CHECK:         arith.select %[[FIRST]], %[[V0]], %[[V1]] : f32

// CHECK-LABEL: xloop.kernel @ops_gather(
// CHECK-SAME:    %[[T:.*]]: memref<10x8xf16>, %[[IDX:.*]]: memref<3xi64>)
// CHECK:         %[[N:.*]] = xloop.load %[[IDX]][%[[I:.*]]] : memref<3xi64>
// CHECK-NEXT:    %[[ROWI:.*]] = arith.index_cast %[[N]] : i64 to index
// CHECK-NEXT:    xloop.load %[[T]][%[[ROWI]], %{{.*}}] : memref<10x8xf16>

// CHECK-LABEL: xloop.kernel @ops_cmp(
// CHECK:         arith.cmpf olt
// CHECK-LABEL: xloop.kernel @ops_cast(
// CHECK:         arith.truncf %{{.*}} : f32 to bf16
// CHECK-LABEL: xloop.kernel @ops_iota() -> (
// CHECK:         arith.index_cast %{{.*}} : index to i32

// CHECK-LABEL: xloop.kernel @ops_matmul(
// CHECK-SAME:    %[[L:.*]]: memref<4x8xf32>, %[[R:.*]]: memref<8x4xf32>)
// CHECK:         xloop.parallel %[[I:.*]] = 0 to 4 {
// CHECK-NEXT:      xloop.parallel %[[J:.*]] = 0 to 4 {
// CHECK-NEXT:        %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:        %[[ACC:.*]] = xloop.fold %[[K:.*]] = 0 to 8 combine add init(%[[ZERO]]) : f32 {
// CHECK-NEXT:          %[[X:.*]] = xloop.load %[[L]][%[[I]], %[[K]]]
// CHECK-NEXT:          %[[Y:.*]] = xloop.load %[[R]][%[[K]], %[[J]]]
// CHECK-NEXT:          %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT:          xloop.yield %[[P]] : f32
// CHECK:           xloop.store %[[ACC]]

// A full reduction to a scalar: one fold over the 32 elements, its index
// delinearized into the two coordinates; a store with no indices.
// CHECK-LABEL: xloop.kernel @ops_reduce_1(
// CHECK-SAME:    -> (%[[OUT:.*]]: memref<f32>)
// CHECK:         %[[S:.*]] = xloop.fold %[[K:.*]] = 0 to 32 combine add
// CHECK-NEXT:      %[[R:.*]] = affine.apply #{{.*}}(%[[K]])
// CHECK-NEXT:      %[[C:.*]] = affine.apply #{{.*}}(%[[K]])
// CHECK-NEXT:      xloop.load %{{.*}}[%[[R]], %[[C]]] : memref<4x8xf32>
// CHECK-NOT:     xloop.fold
// CHECK:         xloop.store %[[S]], %[[OUT]][] : memref<f32>

// CHECK-LABEL: func.func @ops(
// CHECK:         xloop.launch @ops_add(%arg0, %arg1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK:         %[[YT:.*]] = xloop.launch @ops_transpose_0(%arg1)
// CHECK:         xloop.launch @ops_matmul(%arg0, %[[YT]])
// CHECK-NOT:     xtensor.
func.func @ops(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %i: tensor<3xi64>, %t: tensor<10x8xf16>) -> (tensor<4x8xf32>, tensor<8x4xf32>, tensor<4x1xf32>, tensor<32xf32>, tensor<2x8xf32>, tensor<4x11xf32>, tensor<4x16xf32>, tensor<3x8xf16>, tensor<4x8xi1>, tensor<4x8xbf16>, tensor<4x8xi32>, tensor<4x4xf32>, tensor<f32>) {
  %a = xtensor.add %x, %y : tensor<4x8xf32>
  %tr = xtensor.transpose %x perm [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  %r = xtensor.reduce max %x dims [1] keepdim : tensor<4x8xf32> -> tensor<4x1xf32>
  %rs = xtensor.reshape %x : tensor<4x8xf32> -> tensor<32xf32>
  %sl = xtensor.slice %x starts [1, 0] limits [4, 8] strides [2, 1] : tensor<4x8xf32> -> tensor<2x8xf32>
  %p = xtensor.pad %x low [0, 1] high [0, 2] value 0.0 : f32 : tensor<4x8xf32> -> tensor<4x11xf32>
  %c = xtensor.concat %x, %y dim 1 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x16xf32>
  %g = xtensor.gather %t[%i] axis 0 : tensor<10x8xf16>, tensor<3xi64> -> tensor<3x8xf16>
  %m = xtensor.cmp lt, %x, %y : tensor<4x8xf32>
  %cs = xtensor.cast %x : tensor<4x8xf32> -> tensor<4x8xbf16>
  %io = xtensor.iota dim 1 : tensor<4x8xi32>
  %yt = xtensor.transpose %y perm [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  %mm = xtensor.matmul %x, %yt : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  %s = xtensor.reduce sum %x dims [0, 1] : tensor<4x8xf32> -> tensor<f32>
  return %a, %tr, %r, %rs, %sl, %p, %c, %g, %m, %cs, %io, %mm, %s : tensor<4x8xf32>, tensor<8x4xf32>, tensor<4x1xf32>, tensor<32xf32>, tensor<2x8xf32>, tensor<4x11xf32>, tensor<4x16xf32>, tensor<3x8xf16>, tensor<4x8xi1>, tensor<4x8xbf16>, tensor<4x8xi32>, tensor<4x4xf32>, tensor<f32>
}

// A scatter-add is two kernels: a fill of the destination (its splat
// inlined as a scalar), and one over the source that adds each element at
// its index with an accumulating store, updating the fill's result in
// place.
// CHECK-LABEL: xloop.kernel @scatter_scatter_add_init() -> (
// CHECK-SAME:    %[[O:.*]]: memref<10x8xf32>)
// CHECK:         %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    xloop.store %[[Z]], %[[O]][%{{.*}}, %{{.*}}] : memref<10x8xf32>
// CHECK-LABEL: xloop.kernel @scatter_scatter_add(
// CHECK-SAME:    %{{.*}}: memref<10x8xf32>, %[[IDS:.*]]: memref<2x3xi64>, %[[G:.*]]: memref<2x3x8xf32>) -> (%[[OUT:.*]]: memref<10x8xf32>)
// CHECK:         xloop.parallel %[[I:.*]] = 0 to 2 {
// CHECK-NEXT:      xloop.parallel %[[J:.*]] = 0 to 3 {
// CHECK-NEXT:        xloop.parallel %[[K:.*]] = 0 to 8 {
// CHECK-NEXT:          %[[ID:.*]] = xloop.load %[[IDS]][%[[I]], %[[J]]] : memref<2x3xi64>
// CHECK-NEXT:          %[[AT:.*]] = arith.index_cast %[[ID]] : i64 to index
// CHECK-NEXT:          %[[V:.*]] = xloop.load %[[G]][%[[I]], %[[J]], %[[K]]] : memref<2x3x8xf32>
// CHECK-NEXT:          xloop.store %[[V]], %[[OUT]][%[[AT]], %[[K]]] accumulate : memref<10x8xf32>
// CHECK-LABEL: func.func @scatter(
// CHECK:         %[[F:.*]] = xloop.launch @scatter_scatter_add_init() : () -> tensor<10x8xf32>
// CHECK-NEXT:    %[[R:.*]] = xloop.launch @scatter_scatter_add(%[[F]], %arg0, %arg1) {updates = array<i64: 0>}
// CHECK-NEXT:    return %[[R]]
func.func @scatter(%ids: tensor<2x3xi64>, %g: tensor<2x3x8xf32>) -> tensor<10x8xf32> {
  %z = xtensor.constant dense<0.0> : tensor<10x8xf32>
  %r = xtensor.scatter_add %g into %z[%ids] axis 0 : tensor<2x3x8xf32>, tensor<2x3xi64> -> tensor<10x8xf32>
  return %r : tensor<10x8xf32>
}

// A scatter-add into another's result that nothing else reads adds into
// it where it is (no fill); one whose destination is also returned copies
// it first.
// CHECK-LABEL: func.func @scatter_chain(
// CHECK:         %[[F:.*]] = xloop.launch @scatter_chain_scatter_add_init() : () -> tensor<10x8xf32>
// CHECK-NEXT:    %[[A:.*]] = xloop.launch @scatter_chain_scatter_add(%[[F]], %arg0, %arg1) {updates = array<i64: 0>}
// CHECK-NEXT:    %[[B:.*]] = xloop.launch @scatter_chain_scatter_add_{{[0-9]+}}(%[[A]], %arg0, %arg1) {updates = array<i64: 0>}
// CHECK-NEXT:    %[[C:.*]] = xloop.launch @scatter_chain_scatter_add_init_{{[0-9]+}}(%[[B]])
// CHECK-NEXT:    %[[D:.*]] = xloop.launch @scatter_chain_scatter_add_{{[0-9]+}}(%[[C]], %arg0, %arg1) {updates = array<i64: 0>}
// CHECK-NEXT:    return %[[B]], %[[D]]
func.func @scatter_chain(%ids: tensor<2x3xi64>, %g: tensor<2x3x8xf32>) -> (tensor<10x8xf32>, tensor<10x8xf32>) {
  %z = xtensor.constant dense<0.0> : tensor<10x8xf32>
  %a = xtensor.scatter_add %g into %z[%ids] axis 0 : tensor<2x3x8xf32>, tensor<2x3xi64> -> tensor<10x8xf32>
  %b = xtensor.scatter_add %g into %a[%ids] axis 0 : tensor<2x3x8xf32>, tensor<2x3xi64> -> tensor<10x8xf32>
  %d = xtensor.scatter_add %g into %b[%ids] axis 0 : tensor<2x3x8xf32>, tensor<2x3xi64> -> tensor<10x8xf32>
  return %b, %d : tensor<10x8xf32>, tensor<10x8xf32>
}
