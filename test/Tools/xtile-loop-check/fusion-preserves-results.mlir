// Fusion changes how a program is computed, never what: every function
// below, lowered one op per kernel and through --lower-to-loop, gives the
// same outputs under the Loop IR interpreter on the same random inputs
// (several seeds; also with fusion allowed 16x the default recomputation).
//
// RUN: xtile-loop-check %s --seed 1 | FileCheck %s
// RUN: xtile-loop-check %s --seed 7 | FileCheck %s
// RUN: xtile-loop-check %s --seed 3 --flops-per-byte 64 | FileCheck %s
//
// CHECK-NOT: MISMATCH
// CHECK: func @norms: {{[0-9]+}} unfused launches, {{[0-9]+}} fused, {{.*}} (same)
// CHECK: func @softmaxes: {{.*}} (same)
// CHECK: func @mlp: {{.*}} (same)
// CHECK: func @decoder: {{.*}} (same)
// CHECK: func @movement: {{.*}} (same)
// CHECK: func @columns: {{.*}} (same)
// CHECK: func @integers: {{.*}} (same)
// CHECK: func @attention: {{[0-9]+}} unfused launches, 1 fused, {{.*}} (same)
// CHECK: func @log_sum_exp: {{.*}} (same)
// CHECK-NOT: MISMATCH

func.func @norms(%x: tensor<6x33xf32>, %w: tensor<33xf32>, %b: tensor<33xf32>) -> (tensor<6x33xf32>, tensor<6x33xf32>) {
  %r = xtensor.rms_norm %x weight %w eps 1.0e-6 : (tensor<6x33xf32>, tensor<33xf32>) -> tensor<6x33xf32>
  %l = xtensor.layer_norm %r weight %w bias %b eps 1.0e-5 : (tensor<6x33xf32>, tensor<33xf32>, tensor<33xf32>) -> tensor<6x33xf32>
  return %r, %l : tensor<6x33xf32>, tensor<6x33xf32>
}

func.func @softmaxes(%x: tensor<5x17xf32>) -> (tensor<5x17xf32>, tensor<5x17xf32>, tensor<5x17xf32>) {
  %a = xtensor.softmax %x dim 1 : tensor<5x17xf32>
  %b = xtensor.log_softmax %x dim 1 : tensor<5x17xf32>
  %c = xtensor.softmax %x dim 0 : tensor<5x17xf32>
  return %a, %b, %c : tensor<5x17xf32>, tensor<5x17xf32>, tensor<5x17xf32>
}

func.func @mlp(%x: tensor<7x12xf32>, %w1: tensor<20x12xf32>, %b1: tensor<20xf32>,
               %w2: tensor<12x20xf32>, %b2: tensor<12xf32>) -> tensor<7x12xf32> {
  %h = xtensor.linear %x, %w1, %b1 : (tensor<7x12xf32>, tensor<20x12xf32>, tensor<20xf32>) -> tensor<7x20xf32>
  %g = xtensor.gelu tanh %h : tensor<7x20xf32>
  %e = xtensor.exp %g : tensor<7x20xf32>
  %y = xtensor.linear %e, %w2, %b2 : (tensor<7x20xf32>, tensor<12x20xf32>, tensor<12xf32>) -> tensor<7x12xf32>
  %r = xtensor.add %x, %y : tensor<7x12xf32>
  return %r : tensor<7x12xf32>
}

// A small LLaMA-style layer: 8 tokens, width 32, 4 heads of 8, SwiGLU of 48.
func.func @decoder(%x: tensor<8x32xf32>, %n1: tensor<32xf32>, %wq: tensor<32x32xf32>,
                   %wk: tensor<32x32xf32>, %wv: tensor<32x32xf32>, %wo: tensor<32x32xf32>,
                   %n2: tensor<32xf32>, %wg: tensor<48x32xf32>, %wu: tensor<48x32xf32>,
                   %wd: tensor<32x48xf32>) -> tensor<8x32xf32> {
  %n = xtensor.rms_norm %x weight %n1 eps 1.0e-6 : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  %q = xtensor.linear %n, %wq : (tensor<8x32xf32>, tensor<32x32xf32>) -> tensor<8x32xf32>
  %k = xtensor.linear %n, %wk : (tensor<8x32xf32>, tensor<32x32xf32>) -> tensor<8x32xf32>
  %v = xtensor.linear %n, %wv : (tensor<8x32xf32>, tensor<32x32xf32>) -> tensor<8x32xf32>
  %q3 = xtensor.reshape %q : tensor<8x32xf32> -> tensor<8x4x8xf32>
  %qh = xtensor.transpose %q3 perm [1, 0, 2] : tensor<8x4x8xf32> -> tensor<4x8x8xf32>
  %k3 = xtensor.reshape %k : tensor<8x32xf32> -> tensor<8x4x8xf32>
  %kt = xtensor.transpose %k3 perm [1, 2, 0] : tensor<8x4x8xf32> -> tensor<4x8x8xf32>
  %v3 = xtensor.reshape %v : tensor<8x32xf32> -> tensor<8x4x8xf32>
  %vh = xtensor.transpose %v3 perm [1, 0, 2] : tensor<8x4x8xf32> -> tensor<4x8x8xf32>
  %s = xtensor.matmul %qh, %kt : tensor<4x8x8xf32>, tensor<4x8x8xf32> -> tensor<4x8x8xf32>
  %scale = xtensor.constant dense<0.35355339> : tensor<4x8x8xf32>
  %ss = xtensor.mul %s, %scale : tensor<4x8x8xf32>
  %p = xtensor.softmax %ss dim 2 : tensor<4x8x8xf32>
  %o = xtensor.matmul %p, %vh : tensor<4x8x8xf32>, tensor<4x8x8xf32> -> tensor<4x8x8xf32>
  %ot = xtensor.transpose %o perm [1, 0, 2] : tensor<4x8x8xf32> -> tensor<8x4x8xf32>
  %o2 = xtensor.reshape %ot : tensor<8x4x8xf32> -> tensor<8x32xf32>
  %a = xtensor.linear %o2, %wo : (tensor<8x32xf32>, tensor<32x32xf32>) -> tensor<8x32xf32>
  %h = xtensor.add %x, %a : tensor<8x32xf32>
  %m = xtensor.rms_norm %h weight %n2 eps 1.0e-6 : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  %g = xtensor.linear %m, %wg : (tensor<8x32xf32>, tensor<48x32xf32>) -> tensor<8x48xf32>
  %u = xtensor.linear %m, %wu : (tensor<8x32xf32>, tensor<48x32xf32>) -> tensor<8x48xf32>
  %sg = xtensor.silu %g : tensor<8x48xf32>
  %gu = xtensor.mul %sg, %u : tensor<8x48xf32>
  %d = xtensor.linear %gu, %wd : (tensor<8x48xf32>, tensor<32x48xf32>) -> tensor<8x32xf32>
  %y = xtensor.add %h, %d : tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}

func.func @movement(%x: tensor<4x6xf32>, %y: tensor<4x3xf32>, %t: tensor<5x6xf32>, %i: tensor<3xi64>)
    -> (tensor<6x7xf32>, tensor<2x3xf32>, tensor<3x6xf32>, tensor<24xf32>) {
  %c = xtensor.concat %x, %y dim 1 : tensor<4x6xf32>, tensor<4x3xf32> -> tensor<4x9xf32>
  %p = xtensor.pad %c low [1, 0] high [1, 0] value 0.5 : f32 : tensor<4x9xf32> -> tensor<6x9xf32>
  %s = xtensor.slice %p starts [0, 1] limits [6, 8] strides [1, 1] : tensor<6x9xf32> -> tensor<6x7xf32>
  %e = xtensor.exp %s : tensor<6x7xf32>
  %sl = xtensor.slice %x starts [1, 0] limits [4, 6] strides [2, 2] : tensor<4x6xf32> -> tensor<2x3xf32>
  %g = xtensor.gather %t[%i] axis 0 : tensor<5x6xf32>, tensor<3xi64> -> tensor<3x6xf32>
  %gt = xtensor.tanh %g : tensor<3x6xf32>
  %r = xtensor.reshape %x : tensor<4x6xf32> -> tensor<24xf32>
  %rn = xtensor.neg %r : tensor<24xf32>
  return %e, %sl, %gt, %rn : tensor<6x7xf32>, tensor<2x3xf32>, tensor<3x6xf32>, tensor<24xf32>
}

func.func @columns(%x: tensor<9x5xf32>) -> (tensor<9x5xf32>, tensor<5xf32>) {
  %m = xtensor.mean %x dims [0] keepdim : tensor<9x5xf32> -> tensor<1x5xf32>
  %mb = xtensor.broadcast %m : tensor<1x5xf32> -> tensor<9x5xf32>
  %c = xtensor.sub %x, %mb : tensor<9x5xf32>
  %v = xtensor.var %x dims [0] correction 1 : tensor<9x5xf32> -> tensor<5xf32>
  return %c, %v : tensor<9x5xf32>, tensor<5xf32>
}

func.func @integers(%a: tensor<6x4xi32>, %b: tensor<6x4xi32>, %f: tensor<6x4xf32>)
    -> (tensor<6xi1>, tensor<6x4xf32>, tensor<6x4xi32>) {
  %lt = xtensor.cmp lt, %a, %b : tensor<6x4xi32>
  %any = xtensor.reduce any %lt dims [1] : tensor<6x4xi1> -> tensor<6xi1>
  %z = xtensor.constant dense<0.0> : tensor<6x4xf32>
  %sel = xtensor.select %lt, %f, %z : tensor<6x4xf32>
  %io = xtensor.iota dim 1 : tensor<6x4xi32>
  %s = xtensor.add %a, %io : tensor<6x4xi32>
  %m = xtensor.max %s, %b : tensor<6x4xi32>
  return %any, %sel, %m : tensor<6xi1>, tensor<6x4xf32>, tensor<6x4xi32>
}

// Causal grouped-query attention (4 query heads over 2 key/value heads):
// one kernel, an online fold over the keys.
func.func @attention(%q: tensor<4x6x8xf32>, %k: tensor<2x9x8xf32>, %v: tensor<2x9x8xf32>) -> tensor<4x6x8xf32> {
  %k4 = xtensor.reshape %k : tensor<2x9x8xf32> -> tensor<2x1x9x8xf32>
  %kb = xtensor.broadcast %k4 : tensor<2x1x9x8xf32> -> tensor<2x2x9x8xf32>
  %kr = xtensor.reshape %kb : tensor<2x2x9x8xf32> -> tensor<4x9x8xf32>
  %v4 = xtensor.reshape %v : tensor<2x9x8xf32> -> tensor<2x1x9x8xf32>
  %vb = xtensor.broadcast %v4 : tensor<2x1x9x8xf32> -> tensor<2x2x9x8xf32>
  %vr = xtensor.reshape %vb : tensor<2x2x9x8xf32> -> tensor<4x9x8xf32>
  %kt = xtensor.transpose %kr perm [0, 2, 1] : tensor<4x9x8xf32> -> tensor<4x8x9xf32>
  %s = xtensor.matmul %q, %kt : tensor<4x6x8xf32>, tensor<4x8x9xf32> -> tensor<4x6x9xf32>
  %c = xtensor.constant dense<0.35> : tensor<4x6x9xf32>
  %ss = xtensor.mul %s, %c : tensor<4x6x9xf32>
  %i = xtensor.iota dim 1 : tensor<4x6x9xi32>
  %j = xtensor.iota dim 2 : tensor<4x6x9xi32>
  %seen = xtensor.cmp le, %j, %i : tensor<4x6x9xi32>
  %ninf = xtensor.constant dense<0xFF800000> : tensor<4x6x9xf32>
  %masked = xtensor.select %seen, %ss, %ninf : tensor<4x6x9xf32>
  %p = xtensor.softmax %masked dim 2 : tensor<4x6x9xf32>
  %o = xtensor.matmul %p, %vr : tensor<4x6x9xf32>, tensor<4x9x8xf32> -> tensor<4x6x8xf32>
  return %o : tensor<4x6x8xf32>
}

// log(sum(exp(x))) over rows: the max-shifted sum as an online fold.
func.func @log_sum_exp(%x: tensor<5x40xf32>) -> tensor<5x40xf32> {
  %y = xtensor.log_softmax %x dim 1 : tensor<5x40xf32>
  return %y : tensor<5x40xf32>
}
