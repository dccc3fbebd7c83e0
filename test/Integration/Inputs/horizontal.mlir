// Horizontal fusion at its buffer cap: 50 per-parameter updates of one
// shape (p - 0.1 * g, each with its own parameter and gradient) are two
// kernels of 42 and 8 updates. test/Integration/horizontal.test runs them.
func.func @updates(%p0: tensor<1000xf32>, %g0: tensor<1000xf32>, %p1: tensor<1000xf32>, %g1: tensor<1000xf32>, %p2: tensor<1000xf32>, %g2: tensor<1000xf32>, %p3: tensor<1000xf32>, %g3: tensor<1000xf32>, %p4: tensor<1000xf32>, %g4: tensor<1000xf32>, %p5: tensor<1000xf32>, %g5: tensor<1000xf32>, %p6: tensor<1000xf32>, %g6: tensor<1000xf32>, %p7: tensor<1000xf32>, %g7: tensor<1000xf32>, %p8: tensor<1000xf32>, %g8: tensor<1000xf32>, %p9: tensor<1000xf32>, %g9: tensor<1000xf32>, %p10: tensor<1000xf32>, %g10: tensor<1000xf32>, %p11: tensor<1000xf32>, %g11: tensor<1000xf32>, %p12: tensor<1000xf32>, %g12: tensor<1000xf32>, %p13: tensor<1000xf32>, %g13: tensor<1000xf32>, %p14: tensor<1000xf32>, %g14: tensor<1000xf32>, %p15: tensor<1000xf32>, %g15: tensor<1000xf32>, %p16: tensor<1000xf32>, %g16: tensor<1000xf32>, %p17: tensor<1000xf32>, %g17: tensor<1000xf32>, %p18: tensor<1000xf32>, %g18: tensor<1000xf32>, %p19: tensor<1000xf32>, %g19: tensor<1000xf32>, %p20: tensor<1000xf32>, %g20: tensor<1000xf32>, %p21: tensor<1000xf32>, %g21: tensor<1000xf32>, %p22: tensor<1000xf32>, %g22: tensor<1000xf32>, %p23: tensor<1000xf32>, %g23: tensor<1000xf32>, %p24: tensor<1000xf32>, %g24: tensor<1000xf32>, %p25: tensor<1000xf32>, %g25: tensor<1000xf32>, %p26: tensor<1000xf32>, %g26: tensor<1000xf32>, %p27: tensor<1000xf32>, %g27: tensor<1000xf32>, %p28: tensor<1000xf32>, %g28: tensor<1000xf32>, %p29: tensor<1000xf32>, %g29: tensor<1000xf32>, %p30: tensor<1000xf32>, %g30: tensor<1000xf32>, %p31: tensor<1000xf32>, %g31: tensor<1000xf32>, %p32: tensor<1000xf32>, %g32: tensor<1000xf32>, %p33: tensor<1000xf32>, %g33: tensor<1000xf32>, %p34: tensor<1000xf32>, %g34: tensor<1000xf32>, %p35: tensor<1000xf32>, %g35: tensor<1000xf32>, %p36: tensor<1000xf32>, %g36: tensor<1000xf32>, %p37: tensor<1000xf32>, %g37: tensor<1000xf32>, %p38: tensor<1000xf32>, %g38: tensor<1000xf32>, %p39: tensor<1000xf32>, %g39: tensor<1000xf32>, %p40: tensor<1000xf32>, %g40: tensor<1000xf32>, %p41: tensor<1000xf32>, %g41: tensor<1000xf32>, %p42: tensor<1000xf32>, %g42: tensor<1000xf32>, %p43: tensor<1000xf32>, %g43: tensor<1000xf32>, %p44: tensor<1000xf32>, %g44: tensor<1000xf32>, %p45: tensor<1000xf32>, %g45: tensor<1000xf32>, %p46: tensor<1000xf32>, %g46: tensor<1000xf32>, %p47: tensor<1000xf32>, %g47: tensor<1000xf32>, %p48: tensor<1000xf32>, %g48: tensor<1000xf32>, %p49: tensor<1000xf32>, %g49: tensor<1000xf32>) -> (tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>) {
  %c = xtensor.constant dense<0.1> : tensor<1xf32>
  %lr = xtensor.broadcast %c : tensor<1xf32> -> tensor<1000xf32>
  %s0 = xtensor.mul %g0, %lr : tensor<1000xf32>
  %n0 = xtensor.sub %p0, %s0 : tensor<1000xf32>
  %s1 = xtensor.mul %g1, %lr : tensor<1000xf32>
  %n1 = xtensor.sub %p1, %s1 : tensor<1000xf32>
  %s2 = xtensor.mul %g2, %lr : tensor<1000xf32>
  %n2 = xtensor.sub %p2, %s2 : tensor<1000xf32>
  %s3 = xtensor.mul %g3, %lr : tensor<1000xf32>
  %n3 = xtensor.sub %p3, %s3 : tensor<1000xf32>
  %s4 = xtensor.mul %g4, %lr : tensor<1000xf32>
  %n4 = xtensor.sub %p4, %s4 : tensor<1000xf32>
  %s5 = xtensor.mul %g5, %lr : tensor<1000xf32>
  %n5 = xtensor.sub %p5, %s5 : tensor<1000xf32>
  %s6 = xtensor.mul %g6, %lr : tensor<1000xf32>
  %n6 = xtensor.sub %p6, %s6 : tensor<1000xf32>
  %s7 = xtensor.mul %g7, %lr : tensor<1000xf32>
  %n7 = xtensor.sub %p7, %s7 : tensor<1000xf32>
  %s8 = xtensor.mul %g8, %lr : tensor<1000xf32>
  %n8 = xtensor.sub %p8, %s8 : tensor<1000xf32>
  %s9 = xtensor.mul %g9, %lr : tensor<1000xf32>
  %n9 = xtensor.sub %p9, %s9 : tensor<1000xf32>
  %s10 = xtensor.mul %g10, %lr : tensor<1000xf32>
  %n10 = xtensor.sub %p10, %s10 : tensor<1000xf32>
  %s11 = xtensor.mul %g11, %lr : tensor<1000xf32>
  %n11 = xtensor.sub %p11, %s11 : tensor<1000xf32>
  %s12 = xtensor.mul %g12, %lr : tensor<1000xf32>
  %n12 = xtensor.sub %p12, %s12 : tensor<1000xf32>
  %s13 = xtensor.mul %g13, %lr : tensor<1000xf32>
  %n13 = xtensor.sub %p13, %s13 : tensor<1000xf32>
  %s14 = xtensor.mul %g14, %lr : tensor<1000xf32>
  %n14 = xtensor.sub %p14, %s14 : tensor<1000xf32>
  %s15 = xtensor.mul %g15, %lr : tensor<1000xf32>
  %n15 = xtensor.sub %p15, %s15 : tensor<1000xf32>
  %s16 = xtensor.mul %g16, %lr : tensor<1000xf32>
  %n16 = xtensor.sub %p16, %s16 : tensor<1000xf32>
  %s17 = xtensor.mul %g17, %lr : tensor<1000xf32>
  %n17 = xtensor.sub %p17, %s17 : tensor<1000xf32>
  %s18 = xtensor.mul %g18, %lr : tensor<1000xf32>
  %n18 = xtensor.sub %p18, %s18 : tensor<1000xf32>
  %s19 = xtensor.mul %g19, %lr : tensor<1000xf32>
  %n19 = xtensor.sub %p19, %s19 : tensor<1000xf32>
  %s20 = xtensor.mul %g20, %lr : tensor<1000xf32>
  %n20 = xtensor.sub %p20, %s20 : tensor<1000xf32>
  %s21 = xtensor.mul %g21, %lr : tensor<1000xf32>
  %n21 = xtensor.sub %p21, %s21 : tensor<1000xf32>
  %s22 = xtensor.mul %g22, %lr : tensor<1000xf32>
  %n22 = xtensor.sub %p22, %s22 : tensor<1000xf32>
  %s23 = xtensor.mul %g23, %lr : tensor<1000xf32>
  %n23 = xtensor.sub %p23, %s23 : tensor<1000xf32>
  %s24 = xtensor.mul %g24, %lr : tensor<1000xf32>
  %n24 = xtensor.sub %p24, %s24 : tensor<1000xf32>
  %s25 = xtensor.mul %g25, %lr : tensor<1000xf32>
  %n25 = xtensor.sub %p25, %s25 : tensor<1000xf32>
  %s26 = xtensor.mul %g26, %lr : tensor<1000xf32>
  %n26 = xtensor.sub %p26, %s26 : tensor<1000xf32>
  %s27 = xtensor.mul %g27, %lr : tensor<1000xf32>
  %n27 = xtensor.sub %p27, %s27 : tensor<1000xf32>
  %s28 = xtensor.mul %g28, %lr : tensor<1000xf32>
  %n28 = xtensor.sub %p28, %s28 : tensor<1000xf32>
  %s29 = xtensor.mul %g29, %lr : tensor<1000xf32>
  %n29 = xtensor.sub %p29, %s29 : tensor<1000xf32>
  %s30 = xtensor.mul %g30, %lr : tensor<1000xf32>
  %n30 = xtensor.sub %p30, %s30 : tensor<1000xf32>
  %s31 = xtensor.mul %g31, %lr : tensor<1000xf32>
  %n31 = xtensor.sub %p31, %s31 : tensor<1000xf32>
  %s32 = xtensor.mul %g32, %lr : tensor<1000xf32>
  %n32 = xtensor.sub %p32, %s32 : tensor<1000xf32>
  %s33 = xtensor.mul %g33, %lr : tensor<1000xf32>
  %n33 = xtensor.sub %p33, %s33 : tensor<1000xf32>
  %s34 = xtensor.mul %g34, %lr : tensor<1000xf32>
  %n34 = xtensor.sub %p34, %s34 : tensor<1000xf32>
  %s35 = xtensor.mul %g35, %lr : tensor<1000xf32>
  %n35 = xtensor.sub %p35, %s35 : tensor<1000xf32>
  %s36 = xtensor.mul %g36, %lr : tensor<1000xf32>
  %n36 = xtensor.sub %p36, %s36 : tensor<1000xf32>
  %s37 = xtensor.mul %g37, %lr : tensor<1000xf32>
  %n37 = xtensor.sub %p37, %s37 : tensor<1000xf32>
  %s38 = xtensor.mul %g38, %lr : tensor<1000xf32>
  %n38 = xtensor.sub %p38, %s38 : tensor<1000xf32>
  %s39 = xtensor.mul %g39, %lr : tensor<1000xf32>
  %n39 = xtensor.sub %p39, %s39 : tensor<1000xf32>
  %s40 = xtensor.mul %g40, %lr : tensor<1000xf32>
  %n40 = xtensor.sub %p40, %s40 : tensor<1000xf32>
  %s41 = xtensor.mul %g41, %lr : tensor<1000xf32>
  %n41 = xtensor.sub %p41, %s41 : tensor<1000xf32>
  %s42 = xtensor.mul %g42, %lr : tensor<1000xf32>
  %n42 = xtensor.sub %p42, %s42 : tensor<1000xf32>
  %s43 = xtensor.mul %g43, %lr : tensor<1000xf32>
  %n43 = xtensor.sub %p43, %s43 : tensor<1000xf32>
  %s44 = xtensor.mul %g44, %lr : tensor<1000xf32>
  %n44 = xtensor.sub %p44, %s44 : tensor<1000xf32>
  %s45 = xtensor.mul %g45, %lr : tensor<1000xf32>
  %n45 = xtensor.sub %p45, %s45 : tensor<1000xf32>
  %s46 = xtensor.mul %g46, %lr : tensor<1000xf32>
  %n46 = xtensor.sub %p46, %s46 : tensor<1000xf32>
  %s47 = xtensor.mul %g47, %lr : tensor<1000xf32>
  %n47 = xtensor.sub %p47, %s47 : tensor<1000xf32>
  %s48 = xtensor.mul %g48, %lr : tensor<1000xf32>
  %n48 = xtensor.sub %p48, %s48 : tensor<1000xf32>
  %s49 = xtensor.mul %g49, %lr : tensor<1000xf32>
  %n49 = xtensor.sub %p49, %s49 : tensor<1000xf32>
  return %n0, %n1, %n2, %n3, %n4, %n5, %n6, %n7, %n8, %n9, %n10, %n11, %n12, %n13, %n14, %n15, %n16, %n17, %n18, %n19, %n20, %n21, %n22, %n23, %n24, %n25, %n26, %n27, %n28, %n29, %n30, %n31, %n32, %n33, %n34, %n35, %n36, %n37, %n38, %n39, %n40, %n41, %n42, %n43, %n44, %n45, %n46, %n47, %n48, %n49 : tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>, tensor<1000xf32>
}

// Each parameter's step count, a 0-d tensor, incremented: one kernel.
func.func @steps(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>) {
  %one = xtensor.constant dense<1.0> : tensor<f32>
  %x = xtensor.add %a, %one : tensor<f32>
  %y = xtensor.add %b, %one : tensor<f32>
  %z = xtensor.add %c, %one : tensor<f32>
  return %x, %y, %z : tensor<f32>, tensor<f32>, tensor<f32>
}

// Tiny kernels (a launch is all they cost): two row sums that share
// nothing, merged whatever their folds; a merged launch in the second's
// place (its input is a matmul after the first); column sums recomputed
// by their only consumer.
func.func @tiny(%a: tensor<8x8xf32>, %b: tensor<8x8xi64>) -> (tensor<8xf32>, tensor<8xi64>) {
  %x = xtensor.reduce sum %a dims [1] : tensor<8x8xf32> -> tensor<8xf32>
  %y = xtensor.reduce max %b dims [1] : tensor<8x8xi64> -> tensor<8xi64>
  return %x, %y : tensor<8xf32>, tensor<8xi64>
}

func.func @late(%a: tensor<8x8xf32>, %p: tensor<8x4xf32>, %q: tensor<4x8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %x = xtensor.reduce sum %a dims [1] : tensor<8x8xf32> -> tensor<8xf32>
  %m = xtensor.matmul %p, %q : tensor<8x4xf32>, tensor<4x8xf32> -> tensor<8x8xf32>
  %e = xtensor.exp %m : tensor<8x8xf32>
  %y = xtensor.reduce max %e dims [1] : tensor<8x8xf32> -> tensor<8xf32>
  return %x, %y : tensor<8xf32>, tensor<8xf32>
}

func.func @column_share(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s = xtensor.reduce sum %a dims [0] : tensor<8x8xf32> -> tensor<8xf32>
  %b = xtensor.broadcast %s : tensor<8xf32> -> tensor<8x8xf32>
  %d = xtensor.div %a, %b : tensor<8x8xf32>
  return %d : tensor<8x8xf32>
}
