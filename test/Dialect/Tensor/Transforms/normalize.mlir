// RUN: xtile-opt %s --xtensor-normalize | FileCheck %s --check-prefixes=CHECK,EXACT
// RUN: xtile-opt %s --xtensor-normalize=fast-math=true | FileCheck %s --check-prefixes=CHECK,FAST

// Constant folding of correctly rounded float ops, done in the element type.
// (1 + 3) * 1 = 4, (2 + 3) * 2 = 10; / 4 -> 1, 2.5; floor -> 1, 2;
// max with [2.5, -4] -> 2.5, 2; - (-1, -2) -> 3.5, 4.
// CHECK-LABEL: func.func @fold_float(
// CHECK-NEXT:    %[[C:.*]] = xtensor.constant dense<[3.500000e+00, 4.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    return %[[C]]
func.func @fold_float() -> tensor<2xf32> {
  %a = xtensor.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = xtensor.constant dense<3.0> : tensor<2xf32>
  %four = xtensor.constant dense<4.0> : tensor<2xf32>
  %s = xtensor.add %a, %b : tensor<2xf32>
  %m = xtensor.mul %s, %a : tensor<2xf32>
  %d = xtensor.div %m, %four : tensor<2xf32>
  %f = xtensor.floor %d : tensor<2xf32>
  %h = xtensor.constant dense<[2.5, -4.0]> : tensor<2xf32>
  %mx = xtensor.max %f, %h : tensor<2xf32>
  %n = xtensor.neg %a : tensor<2xf32>
  %r = xtensor.sub %mx, %n : tensor<2xf32>
  return %r : tensor<2xf32>
}

// Rounding happens in the element type: 1/3 in bf16, then cast to f32.
// CHECK-LABEL: func.func @fold_bf16_cast(
// CHECK-NEXT:    %[[C:.*]] = xtensor.constant dense<0.333984375> : tensor<4xf32>
// CHECK-NEXT:    return %[[C]]
func.func @fold_bf16_cast() -> tensor<4xf32> {
  %one = xtensor.constant dense<1.0> : tensor<4xbf16>
  %three = xtensor.constant dense<3.0> : tensor<4xbf16>
  %d = xtensor.div %one, %three : tensor<4xbf16>
  %c = xtensor.cast %d : tensor<4xbf16> -> tensor<4xf32>
  return %c : tensor<4xf32>
}

// Casts to fp8 fold as PyTorch casts: e4m3 saturates to +-448 (infinities
// too), e5m2 overflows to infinity from 61440 on; NaN stays NaN. Integers
// saturate as floats do.
// CHECK-LABEL: func.func @fold_fp8_cast(
// CHECK-DAG:     xtensor.constant dense<[4.480000e+02, -4.480000e+02, 4.480000e+02, 2.560000e+02, 0x7F]> : tensor<5xf8E4M3FN>
// CHECK-DAG:     xtensor.constant dense<[5.734400e+04, 0x7C, 0xFC, 2.560000e+02, 0x7F]> : tensor<5xf8E5M2>
// CHECK-DAG:     xtensor.constant dense<[4.480000e+02, -4.480000e+02]> : tensor<2xf8E4M3FN>
func.func @fold_fp8_cast() -> (tensor<5xf8E4M3FN>, tensor<5xf8E5M2>, tensor<2xf8E4M3FN>) {
  %x = xtensor.constant dense<[470.0, 0xFF800000, 1.0e6, 250.0, 0x7FC00000]> : tensor<5xf32>
  %y = xtensor.constant dense<[61439.0, 61440.0, -1.0e6, 250.0, 0x7FC00000]> : tensor<5xf32>
  %i = xtensor.constant dense<[100000, -500]> : tensor<2xi32>
  %a = xtensor.cast %x : tensor<5xf32> -> tensor<5xf8E4M3FN>
  %b = xtensor.cast %y : tensor<5xf32> -> tensor<5xf8E5M2>
  %c = xtensor.cast %i : tensor<2xi32> -> tensor<2xf8E4M3FN>
  return %a, %b, %c : tensor<5xf8E4M3FN>, tensor<5xf8E5M2>, tensor<2xf8E4M3FN>
}

// Integer folding, comparisons and select.
// CHECK-LABEL: func.func @fold_int(
// CHECK-NEXT:    %[[C:.*]] = xtensor.constant dense<[7, -2]> : tensor<2xi32>
// CHECK-NEXT:    return %[[C]]
func.func @fold_int() -> tensor<2xi32> {
  %a = xtensor.constant dense<[7, -7]> : tensor<2xi32>
  %b = xtensor.constant dense<[2, 3]> : tensor<2xi32>
  %q = xtensor.div %a, %b : tensor<2xi32>      // [3, -2] (truncating)
  %lt = xtensor.cmp lt, %q, %b : tensor<2xi32> // [false, true]
  %r = xtensor.select %lt, %q, %a : tensor<2xi32>
  return %r : tensor<2xi32>
}

// Integer division by zero is not folded.
// CHECK-LABEL: func.func @no_fold_div_by_zero(
// CHECK:         xtensor.div
func.func @no_fold_div_by_zero(%x: tensor<4xi32>) -> tensor<4xi32> {
  %a = xtensor.constant dense<5> : tensor<4xi32>
  %z = xtensor.constant dense<0> : tensor<4xi32>
  %d = xtensor.div %a, %z : tensor<4xi32>
  return %d : tensor<4xi32>
}

// Transcendentals depend on the math library: never folded.
// CHECK-LABEL: func.func @no_fold_exp(
// CHECK:         xtensor.exp
func.func @no_fold_exp() -> tensor<4xf32> {
  %a = xtensor.constant dense<1.0> : tensor<4xf32>
  %e = xtensor.exp %a : tensor<4xf32>
  return %e : tensor<4xf32>
}

// Exact identities.
// CHECK-LABEL: func.func @exact_identities(
// CHECK-SAME:    %[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT:    return %[[X]]
func.func @exact_identities(%x: tensor<4xf32>) -> tensor<4xf32> {
  %one = xtensor.constant dense<1.0> : tensor<4xf32>
  %negzero = xtensor.constant dense<-0.0> : tensor<4xf32>
  %zero = xtensor.constant dense<0.0> : tensor<4xf32>
  %a = xtensor.mul %one, %x : tensor<4xf32>
  %b = xtensor.add %a, %negzero : tensor<4xf32>
  %c = xtensor.div %b, %one : tensor<4xf32>
  %d = xtensor.sub %c, %zero : tensor<4xf32>
  %e = xtensor.neg %d : tensor<4xf32>
  %f = xtensor.neg %e : tensor<4xf32>
  %g = xtensor.max %f, %f : tensor<4xf32>
  %m = xtensor.cmp lt, %x, %x : tensor<4xf32>
  %h = xtensor.select %m, %g, %g : tensor<4xf32>
  %i = xtensor.cast %h : tensor<4xf32> -> tensor<4xf32>
  return %i : tensor<4xf32>
}

// Integer identities that hold for every input.
// CHECK-LABEL: func.func @int_identities(
// CHECK-NEXT:    %[[Z:.*]] = xtensor.constant dense<0> : tensor<4xi64>
// CHECK-NEXT:    return %[[Z]]
func.func @int_identities(%x: tensor<4xi64>) -> tensor<4xi64> {
  %d = xtensor.sub %x, %x : tensor<4xi64>
  return %d : tensor<4xi64>
}

// Value-changing rewrites only with fast-math.
// CHECK-LABEL: func.func @sub_self(
// EXACT:         xtensor.sub
// FAST-NEXT:     %[[Z:.*]] = xtensor.constant dense<0.000000e+00> : tensor<4xf32>
// FAST-NEXT:     return %[[Z]]
func.func @sub_self(%x: tensor<4xf32>) -> tensor<4xf32> {
  %d = xtensor.sub %x, %x : tensor<4xf32>
  return %d : tensor<4xf32>
}

// CHECK-LABEL: func.func @add_positive_zero(
// EXACT:         xtensor.add
// FAST-NEXT:     return %arg0
func.func @add_positive_zero(%x: tensor<4xf32>) -> tensor<4xf32> {
  %z = xtensor.constant dense<0.0> : tensor<4xf32>
  %d = xtensor.add %x, %z : tensor<4xf32>
  return %d : tensor<4xf32>
}

// CHECK-LABEL: func.func @mul_zero(
// EXACT:         xtensor.mul
// FAST-NEXT:     %[[Z:.*]] = xtensor.constant dense<0.000000e+00> : tensor<4xf32>
// FAST-NEXT:     return %[[Z]]
func.func @mul_zero(%x: tensor<4xf32>) -> tensor<4xf32> {
  %z = xtensor.constant dense<0.0> : tensor<4xf32>
  %d = xtensor.mul %z, %x : tensor<4xf32>
  return %d : tensor<4xf32>
}

// CHECK-LABEL: func.func @div_by_constant(
// EXACT:         %[[C:.*]] = xtensor.constant dense<3.000000e+00>
// EXACT-NEXT:    xtensor.div %arg0, %[[C]]
// FAST:          %[[C:.*]] = xtensor.constant dense<0.333333343>
// FAST-NEXT:     xtensor.mul %arg0, %[[C]]
func.func @div_by_constant(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = xtensor.constant dense<3.0> : tensor<4xf32>
  %d = xtensor.div %x, %c : tensor<4xf32>
  return %d : tensor<4xf32>
}

// CHECK-LABEL: func.func @reassociate(
// EXACT-COUNT-2: xtensor.add
// FAST:          %[[C:.*]] = xtensor.constant dense<5.000000e+00>
// FAST-NEXT:     %[[S:.*]] = xtensor.add %arg0, %[[C]]
// FAST-NEXT:     return %[[S]]
func.func @reassociate(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c2 = xtensor.constant dense<2.0> : tensor<4xf32>
  %c3 = xtensor.constant dense<3.0> : tensor<4xf32>
  %a = xtensor.add %c2, %x : tensor<4xf32>
  %b = xtensor.add %a, %c3 : tensor<4xf32>
  return %b : tensor<4xf32>
}

// Movement ops compose; a splat constant moves for free.
// CHECK-LABEL: func.func @compose_movement(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3x4xf32>, %[[V:.*]]: tensor<4xf32>)
// CHECK-DAG:     %[[T:.*]] = xtensor.transpose %[[X]] perm [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
// CHECK-DAG:     %[[R:.*]] = xtensor.reshape %[[X]] : tensor<2x3x4xf32> -> tensor<24xf32>
// CHECK-DAG:     %[[B:.*]] = xtensor.broadcast %[[V]] : tensor<4xf32> -> tensor<5x3x4xf32>
// CHECK-DAG:     %[[C:.*]] = xtensor.constant dense<1.500000e+00> : tensor<4x3xf32>
// CHECK:         return %[[X]], %[[T]], %[[R]], %[[B]], %[[C]]
func.func @compose_movement(%x: tensor<2x3x4xf32>, %v: tensor<4xf32>)
    -> (tensor<2x3x4xf32>, tensor<4x2x3xf32>, tensor<24xf32>, tensor<5x3x4xf32>, tensor<4x3xf32>) {
  // transpose back and forth is the identity.
  %t1 = xtensor.transpose %x perm [1, 2, 0] : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %t2 = xtensor.transpose %t1 perm [2, 0, 1] : tensor<3x4x2xf32> -> tensor<2x3x4xf32>
  // Two rotations compose into one.
  %t3 = xtensor.transpose %t1 perm [1, 2, 0] : tensor<3x4x2xf32> -> tensor<4x2x3xf32>
  %r1 = xtensor.reshape %x : tensor<2x3x4xf32> -> tensor<6x4xf32>
  %r2 = xtensor.reshape %r1 : tensor<6x4xf32> -> tensor<24xf32>
  %b1 = xtensor.broadcast %v : tensor<4xf32> -> tensor<1x3x4xf32>
  %b2 = xtensor.broadcast %b1 : tensor<1x3x4xf32> -> tensor<5x3x4xf32>
  %c = xtensor.constant dense<1.5> : tensor<3x4xf32>
  %ct = xtensor.transpose %c perm [1, 0] : tensor<3x4xf32> -> tensor<4x3xf32>
  return %t2, %t3, %r2, %b2, %ct
      : tensor<2x3x4xf32>, tensor<4x2x3xf32>, tensor<24xf32>, tensor<5x3x4xf32>, tensor<4x3xf32>
}

// CSE across commuted operands, dead code removal and the canonical op
// order (depth-first from the returned value).
// CHECK-LABEL: func.func @cse_and_order(
// CHECK-SAME:    %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[A:.*]] = xtensor.mul
// CHECK-NEXT:    %[[E:.*]] = xtensor.exp %[[A]]
// CHECK-NEXT:    %[[R:.*]] = xtensor.add %[[E]], %[[E]]
// CHECK-NEXT:    return %[[R]]
func.func @cse_and_order(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %a = xtensor.mul %x, %y : tensor<4xf32>
  %dead = xtensor.sin %x : tensor<4xf32>
  %b = xtensor.mul %y, %x : tensor<4xf32>
  %ea = xtensor.exp %a : tensor<4xf32>
  %eb = xtensor.exp %b : tensor<4xf32>
  %r = xtensor.add %ea, %eb : tensor<4xf32>
  return %r : tensor<4xf32>
}
