// RUN: xtile-opt %s --split-input-file --convert-xtensor-to-xloop --xloop-fuse | FileCheck %s
// RUN: xtile-opt %s --split-input-file --convert-xtensor-to-xloop --xloop-fuse=horizontal=false | FileCheck %s --check-prefix=OFF

// Horizontal fusion: elementwise launches over the same iteration space
// that share no input (an optimizer step's per-parameter updates) become
// one kernel with all their outputs: one launch, the same traffic. A
// launch over another shape keeps its own kernel. (Here each parameter
// has a learning rate of its own: a shared constant would make them
// siblings.)
// CHECK-LABEL: xloop.kernel @sgd_
// CHECK-SAME:    -> (%{{.*}}: memref<64x32xf32>, %{{.*}}: memref<64x32xf32>)
// CHECK:         xloop.parallel
// CHECK-NEXT:      xloop.parallel
// CHECK-COUNT-2:     xloop.store
// CHECK-NOT:     xloop.store
// CHECK-LABEL: xloop.kernel @sgd_
// CHECK-SAME:    -> (%{{.*}}: memref<32xf32>)
// CHECK-NOT:   xloop.kernel
// CHECK-LABEL: func.func @sgd(
// CHECK:         %[[A:.*]]:2 = xloop.launch @sgd_{{[a-z0-9_]+}}(%arg0, %arg1, %{{.*}}, %arg2, %arg3, %{{.*}})
// CHECK-NEXT:    %[[B:.*]] = xloop.launch @sgd_{{[a-z0-9_]+}}(%arg4, %arg5, %{{.*}})
// CHECK-NEXT:    return %[[A]]#0, %[[A]]#1, %[[B]]
// Without horizontal fusion, one launch per parameter.
// OFF-LABEL: func.func @sgd(
// OFF-COUNT-3:   xloop.launch
// OFF-NOT:       xloop.launch
// OFF:           return
func.func @sgd(%p1: tensor<64x32xf32>, %g1: tensor<64x32xf32>, %p2: tensor<64x32xf32>, %g2: tensor<64x32xf32>,
               %p3: tensor<32xf32>, %g3: tensor<32xf32>) -> (tensor<64x32xf32>, tensor<64x32xf32>, tensor<32xf32>) {
  %lr = xtensor.constant dense<0.1> : tensor<1x1xf32>
  %lr2 = xtensor.broadcast %lr : tensor<1x1xf32> -> tensor<64x32xf32>
  %s1 = xtensor.mul %g1, %lr2 : tensor<64x32xf32>
  %n1 = xtensor.sub %p1, %s1 : tensor<64x32xf32>
  %m = xtensor.constant dense<0.2> : tensor<1x1xf32>
  %m2 = xtensor.broadcast %m : tensor<1x1xf32> -> tensor<64x32xf32>
  %s2 = xtensor.mul %g2, %m2 : tensor<64x32xf32>
  %n2 = xtensor.sub %p2, %s2 : tensor<64x32xf32>
  %lr1 = xtensor.constant dense<0.1> : tensor<1xf32>
  %lr3 = xtensor.broadcast %lr1 : tensor<1xf32> -> tensor<32xf32>
  %s3 = xtensor.mul %g3, %lr3 : tensor<32xf32>
  %n3 = xtensor.sub %p3, %s3 : tensor<32xf32>
  return %n1, %n2, %n3 : tensor<64x32xf32>, tensor<64x32xf32>, tensor<32xf32>
}

// -----

// Each parameter's step count (a 0-d tensor) incremented: one kernel.
// CHECK-LABEL: xloop.kernel @steps_
// CHECK-COUNT-3: xloop.store
// CHECK-NOT:   xloop.kernel
// CHECK-LABEL: func.func @steps(
// CHECK-NEXT:    xloop.launch
// CHECK-NEXT:    return
func.func @steps(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>) {
  %one = xtensor.constant dense<1.0> : tensor<f32>
  %x = xtensor.add %a, %one : tensor<f32>
  %y = xtensor.add %b, %one : tensor<f32>
  %z = xtensor.add %c, %one : tensor<f32>
  return %x, %y, %z : tensor<f32>, tensor<f32>, tensor<f32>
}

// -----

// Reductions that share nothing keep their kernels (each its own schedule).
// CHECK-LABEL: xloop.kernel @sums_
// CHECK-LABEL: xloop.kernel @sums_
// CHECK-LABEL: func.func @sums(
// CHECK-NEXT:    xloop.launch
// CHECK-NEXT:    xloop.launch
// CHECK-NEXT:    return
func.func @sums(%a: tensor<256x128xf32>, %b: tensor<256x128xf32>) -> (tensor<256xf32>, tensor<256xf32>) {
  %x = xtensor.reduce sum %a dims [1] : tensor<256x128xf32> -> tensor<256xf32>
  %y = xtensor.reduce sum %b dims [1] : tensor<256x128xf32> -> tensor<256xf32>
  return %x, %y : tensor<256xf32>, tensor<256xf32>
}

// -----

// Unless both are tiny (static sizes, at most 16384 operations, no
// contraction): a launch is all such a kernel costs (an MoE layer's
// routing over a few experts), so they merge whatever their folds.
// CHECK-LABEL: xloop.kernel @tiny_
// CHECK:         xloop.fold
// CHECK:         xloop.fold
// CHECK-NOT:   xloop.kernel
// CHECK-LABEL: func.func @tiny(
// CHECK-NEXT:    %[[L:.*]]:2 = xloop.launch
// CHECK-NEXT:    return %[[L]]#0, %[[L]]#1
func.func @tiny(%a: tensor<8x8xf32>, %b: tensor<8x8xi64>) -> (tensor<8xf32>, tensor<8xi64>) {
  %x = xtensor.reduce sum %a dims [1] : tensor<8x8xf32> -> tensor<8xf32>
  %y = xtensor.reduce max %b dims [1] : tensor<8x8xi64> -> tensor<8xi64>
  return %x, %y : tensor<8xf32>, tensor<8xi64>
}

// -----

// Where the second's inputs are computed after the first, the merged
// launch takes the second's place: nothing reads the first's result
// before it.
// CHECK-LABEL: func.func @late(
// CHECK-NEXT:    %[[M:.*]] = xloop.launch @late_matmul
// CHECK-NEXT:    %[[L:.*]]:2 = xloop.launch @late_reduce({{.*}}, %[[M]])
// CHECK-NEXT:    return %[[L]]#0, %[[L]]#1
func.func @late(%a: tensor<8x8xf32>, %p: tensor<8x4xf32>, %q: tensor<4x8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %x = xtensor.reduce sum %a dims [1] : tensor<8x8xf32> -> tensor<8xf32>
  %m = xtensor.matmul %p, %q : tensor<8x4xf32>, tensor<4x8xf32> -> tensor<8x8xf32>
  %e = xtensor.exp %m : tensor<8x8xf32>
  %y = xtensor.reduce max %e dims [1] : tensor<8x8xf32> -> tensor<8xf32>
  return %x, %y : tensor<8xf32>, tensor<8xf32>
}

// -----

// A tiny kernel read before the other is launched keeps its place.
// CHECK-LABEL: func.func @read_between(
// CHECK-COUNT-3: xloop.launch
// CHECK-NEXT:    return
func.func @read_between(%a: tensor<8x8xf32>, %p: tensor<8x4xf32>, %q: tensor<4x8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %x = xtensor.reduce sum %a dims [1] : tensor<8x8xf32> -> tensor<8xf32>
  %xb = xtensor.broadcast %x : tensor<8xf32> -> tensor<4x8xf32>
  %q2 = xtensor.mul %q, %xb : tensor<4x8xf32>
  %m = xtensor.matmul %p, %q2 : tensor<8x4xf32>, tensor<4x8xf32> -> tensor<8x8xf32>
  %e = xtensor.exp %m : tensor<8x8xf32>
  %y = xtensor.reduce max %e dims [1] : tensor<8x8xf32> -> tensor<8xf32>
  return %x, %y : tensor<8xf32>, tensor<8xf32>
}

// -----

// A merged kernel takes at most 128 buffers: 50 updates of 3 buffers each
// are two kernels (42 and 8 updates).
// CHECK-LABEL: xloop.kernel @many_
// CHECK-COUNT-42: xloop.store
// CHECK-NOT:     xloop.store
// CHECK-LABEL: xloop.kernel @many_
// CHECK-COUNT-8: xloop.store
// CHECK-NOT:   xloop.kernel

func.func @many(%p0: tensor<16xf32>, %g0: tensor<16xf32>, %p1: tensor<16xf32>, %g1: tensor<16xf32>, %p2: tensor<16xf32>, %g2: tensor<16xf32>, %p3: tensor<16xf32>, %g3: tensor<16xf32>, %p4: tensor<16xf32>, %g4: tensor<16xf32>, %p5: tensor<16xf32>, %g5: tensor<16xf32>, %p6: tensor<16xf32>, %g6: tensor<16xf32>, %p7: tensor<16xf32>, %g7: tensor<16xf32>, %p8: tensor<16xf32>, %g8: tensor<16xf32>, %p9: tensor<16xf32>, %g9: tensor<16xf32>, %p10: tensor<16xf32>, %g10: tensor<16xf32>, %p11: tensor<16xf32>, %g11: tensor<16xf32>, %p12: tensor<16xf32>, %g12: tensor<16xf32>, %p13: tensor<16xf32>, %g13: tensor<16xf32>, %p14: tensor<16xf32>, %g14: tensor<16xf32>, %p15: tensor<16xf32>, %g15: tensor<16xf32>, %p16: tensor<16xf32>, %g16: tensor<16xf32>, %p17: tensor<16xf32>, %g17: tensor<16xf32>, %p18: tensor<16xf32>, %g18: tensor<16xf32>, %p19: tensor<16xf32>, %g19: tensor<16xf32>, %p20: tensor<16xf32>, %g20: tensor<16xf32>, %p21: tensor<16xf32>, %g21: tensor<16xf32>, %p22: tensor<16xf32>, %g22: tensor<16xf32>, %p23: tensor<16xf32>, %g23: tensor<16xf32>, %p24: tensor<16xf32>, %g24: tensor<16xf32>, %p25: tensor<16xf32>, %g25: tensor<16xf32>, %p26: tensor<16xf32>, %g26: tensor<16xf32>, %p27: tensor<16xf32>, %g27: tensor<16xf32>, %p28: tensor<16xf32>, %g28: tensor<16xf32>, %p29: tensor<16xf32>, %g29: tensor<16xf32>, %p30: tensor<16xf32>, %g30: tensor<16xf32>, %p31: tensor<16xf32>, %g31: tensor<16xf32>, %p32: tensor<16xf32>, %g32: tensor<16xf32>, %p33: tensor<16xf32>, %g33: tensor<16xf32>, %p34: tensor<16xf32>, %g34: tensor<16xf32>, %p35: tensor<16xf32>, %g35: tensor<16xf32>, %p36: tensor<16xf32>, %g36: tensor<16xf32>, %p37: tensor<16xf32>, %g37: tensor<16xf32>, %p38: tensor<16xf32>, %g38: tensor<16xf32>, %p39: tensor<16xf32>, %g39: tensor<16xf32>, %p40: tensor<16xf32>, %g40: tensor<16xf32>, %p41: tensor<16xf32>, %g41: tensor<16xf32>, %p42: tensor<16xf32>, %g42: tensor<16xf32>, %p43: tensor<16xf32>, %g43: tensor<16xf32>, %p44: tensor<16xf32>, %g44: tensor<16xf32>, %p45: tensor<16xf32>, %g45: tensor<16xf32>, %p46: tensor<16xf32>, %g46: tensor<16xf32>, %p47: tensor<16xf32>, %g47: tensor<16xf32>, %p48: tensor<16xf32>, %g48: tensor<16xf32>, %p49: tensor<16xf32>, %g49: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) {
  %n0 = xtensor.sub %p0, %g0 : tensor<16xf32>
  %n1 = xtensor.sub %p1, %g1 : tensor<16xf32>
  %n2 = xtensor.sub %p2, %g2 : tensor<16xf32>
  %n3 = xtensor.sub %p3, %g3 : tensor<16xf32>
  %n4 = xtensor.sub %p4, %g4 : tensor<16xf32>
  %n5 = xtensor.sub %p5, %g5 : tensor<16xf32>
  %n6 = xtensor.sub %p6, %g6 : tensor<16xf32>
  %n7 = xtensor.sub %p7, %g7 : tensor<16xf32>
  %n8 = xtensor.sub %p8, %g8 : tensor<16xf32>
  %n9 = xtensor.sub %p9, %g9 : tensor<16xf32>
  %n10 = xtensor.sub %p10, %g10 : tensor<16xf32>
  %n11 = xtensor.sub %p11, %g11 : tensor<16xf32>
  %n12 = xtensor.sub %p12, %g12 : tensor<16xf32>
  %n13 = xtensor.sub %p13, %g13 : tensor<16xf32>
  %n14 = xtensor.sub %p14, %g14 : tensor<16xf32>
  %n15 = xtensor.sub %p15, %g15 : tensor<16xf32>
  %n16 = xtensor.sub %p16, %g16 : tensor<16xf32>
  %n17 = xtensor.sub %p17, %g17 : tensor<16xf32>
  %n18 = xtensor.sub %p18, %g18 : tensor<16xf32>
  %n19 = xtensor.sub %p19, %g19 : tensor<16xf32>
  %n20 = xtensor.sub %p20, %g20 : tensor<16xf32>
  %n21 = xtensor.sub %p21, %g21 : tensor<16xf32>
  %n22 = xtensor.sub %p22, %g22 : tensor<16xf32>
  %n23 = xtensor.sub %p23, %g23 : tensor<16xf32>
  %n24 = xtensor.sub %p24, %g24 : tensor<16xf32>
  %n25 = xtensor.sub %p25, %g25 : tensor<16xf32>
  %n26 = xtensor.sub %p26, %g26 : tensor<16xf32>
  %n27 = xtensor.sub %p27, %g27 : tensor<16xf32>
  %n28 = xtensor.sub %p28, %g28 : tensor<16xf32>
  %n29 = xtensor.sub %p29, %g29 : tensor<16xf32>
  %n30 = xtensor.sub %p30, %g30 : tensor<16xf32>
  %n31 = xtensor.sub %p31, %g31 : tensor<16xf32>
  %n32 = xtensor.sub %p32, %g32 : tensor<16xf32>
  %n33 = xtensor.sub %p33, %g33 : tensor<16xf32>
  %n34 = xtensor.sub %p34, %g34 : tensor<16xf32>
  %n35 = xtensor.sub %p35, %g35 : tensor<16xf32>
  %n36 = xtensor.sub %p36, %g36 : tensor<16xf32>
  %n37 = xtensor.sub %p37, %g37 : tensor<16xf32>
  %n38 = xtensor.sub %p38, %g38 : tensor<16xf32>
  %n39 = xtensor.sub %p39, %g39 : tensor<16xf32>
  %n40 = xtensor.sub %p40, %g40 : tensor<16xf32>
  %n41 = xtensor.sub %p41, %g41 : tensor<16xf32>
  %n42 = xtensor.sub %p42, %g42 : tensor<16xf32>
  %n43 = xtensor.sub %p43, %g43 : tensor<16xf32>
  %n44 = xtensor.sub %p44, %g44 : tensor<16xf32>
  %n45 = xtensor.sub %p45, %g45 : tensor<16xf32>
  %n46 = xtensor.sub %p46, %g46 : tensor<16xf32>
  %n47 = xtensor.sub %p47, %g47 : tensor<16xf32>
  %n48 = xtensor.sub %p48, %g48 : tensor<16xf32>
  %n49 = xtensor.sub %p49, %g49 : tensor<16xf32>
  return %n0, %n1, %n2, %n3, %n4, %n5, %n6, %n7, %n8, %n9, %n10, %n11, %n12, %n13, %n14, %n15, %n16, %n17, %n18, %n19, %n20, %n21, %n22, %n23, %n24, %n25, %n26, %n27, %n28, %n29, %n30, %n31, %n32, %n33, %n34, %n35, %n36, %n37, %n38, %n39, %n40, %n41, %n42, %n43, %n44, %n45, %n46, %n47, %n48, %n49 : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
}
