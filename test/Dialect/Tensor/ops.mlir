// RUN: xtile-opt %s | FileCheck %s
// RUN: xtile-opt %s | xtile-opt | FileCheck %s
// RUN: xtile-opt %s --mlir-print-op-generic | xtile-opt | FileCheck %s

// Round trip of every xtensor op through the custom form, the custom form
// printed and parsed again, and the generic form parsed back. Each CHECK pins
// the exact custom form the printer produces.

//===----------------------------------------------------------------------===//
// Elementwise unary ops
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @unary_numeric(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xf32>, %[[I:.*]]: tensor<4xi32>, %[[L:.*]]: tensor<2xi64>, %[[H:.*]]: tensor<4xf16>)
// CHECK-NEXT:    %[[R0:.*]] = xtensor.neg %[[X]] : tensor<2x3xf32>
// CHECK-NEXT:    %[[R1:.*]] = xtensor.neg %[[I]] : tensor<4xi32>
// CHECK-NEXT:    %[[R2:.*]] = xtensor.abs %[[L]] : tensor<2xi64>
// CHECK-NEXT:    %[[R3:.*]] = xtensor.abs %[[H]] : tensor<4xf16>
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]], %[[R3]] : tensor<2x3xf32>, tensor<4xi32>, tensor<2xi64>, tensor<4xf16>
func.func @unary_numeric(%x: tensor<2x3xf32>, %i: tensor<4xi32>, %l: tensor<2xi64>, %h: tensor<4xf16>)
    -> (tensor<2x3xf32>, tensor<4xi32>, tensor<2xi64>, tensor<4xf16>) {
  %0 = xtensor.neg %x : tensor<2x3xf32>
  %1 = xtensor.neg %i : tensor<4xi32>
  %2 = xtensor.abs %l : tensor<2xi64>
  %3 = xtensor.abs %h : tensor<4xf16>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<4xi32>, tensor<2xi64>, tensor<4xf16>
}

// CHECK-LABEL: func.func @unary_float(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xf32>, %[[H:.*]]: tensor<4xf16>, %[[B:.*]]: tensor<4xbf16>, %[[D:.*]]: tensor<2xf64>)
// CHECK-NEXT:    %[[R0:.*]] = xtensor.exp %[[X]] : tensor<2x3xf32>
// CHECK-NEXT:    %[[R1:.*]] = xtensor.exp2 %[[H]] : tensor<4xf16>
// CHECK-NEXT:    %[[R2:.*]] = xtensor.log %[[B]] : tensor<4xbf16>
// CHECK-NEXT:    %[[R3:.*]] = xtensor.log2 %[[D]] : tensor<2xf64>
// CHECK-NEXT:    %[[R4:.*]] = xtensor.sqrt %[[X]] : tensor<2x3xf32>
// CHECK-NEXT:    %[[R5:.*]] = xtensor.rsqrt %[[H]] : tensor<4xf16>
// CHECK-NEXT:    %[[R6:.*]] = xtensor.reciprocal %[[B]] : tensor<4xbf16>
// CHECK-NEXT:    %[[R7:.*]] = xtensor.sin %[[D]] : tensor<2xf64>
// CHECK-NEXT:    %[[R8:.*]] = xtensor.cos %[[X]] : tensor<2x3xf32>
// CHECK-NEXT:    %[[R9:.*]] = xtensor.tanh %[[H]] : tensor<4xf16>
// CHECK-NEXT:    %[[R10:.*]] = xtensor.erf %[[B]] : tensor<4xbf16>
// CHECK-NEXT:    %[[R11:.*]] = xtensor.sigmoid %[[D]] : tensor<2xf64>
// CHECK-NEXT:    %[[R12:.*]] = xtensor.floor %[[X]] : tensor<2x3xf32>
// CHECK-NEXT:    %[[R13:.*]] = xtensor.ceil %[[H]] : tensor<4xf16>
// CHECK-NEXT:    %[[R14:.*]] = xtensor.erfc %[[X]] : tensor<2x3xf32>
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]], %[[R3]], %[[R4]], %[[R5]], %[[R6]], %[[R7]], %[[R8]], %[[R9]], %[[R10]], %[[R11]], %[[R12]], %[[R13]], %[[R14]] :
func.func @unary_float(%x: tensor<2x3xf32>, %h: tensor<4xf16>, %b: tensor<4xbf16>, %d: tensor<2xf64>)
    -> (tensor<2x3xf32>, tensor<4xf16>, tensor<4xbf16>, tensor<2xf64>,
        tensor<2x3xf32>, tensor<4xf16>, tensor<4xbf16>, tensor<2xf64>,
        tensor<2x3xf32>, tensor<4xf16>, tensor<4xbf16>, tensor<2xf64>,
        tensor<2x3xf32>, tensor<4xf16>, tensor<2x3xf32>) {
  %0 = xtensor.exp %x : tensor<2x3xf32>
  %1 = xtensor.exp2 %h : tensor<4xf16>
  %2 = xtensor.log %b : tensor<4xbf16>
  %3 = xtensor.log2 %d : tensor<2xf64>
  %4 = xtensor.sqrt %x : tensor<2x3xf32>
  %5 = xtensor.rsqrt %h : tensor<4xf16>
  %6 = xtensor.reciprocal %b : tensor<4xbf16>
  %7 = xtensor.sin %d : tensor<2xf64>
  %8 = xtensor.cos %x : tensor<2x3xf32>
  %9 = xtensor.tanh %h : tensor<4xf16>
  %10 = xtensor.erf %b : tensor<4xbf16>
  %11 = xtensor.sigmoid %d : tensor<2xf64>
  %12 = xtensor.floor %x : tensor<2x3xf32>
  %13 = xtensor.ceil %h : tensor<4xf16>
  %14 = xtensor.erfc %x : tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14
      : tensor<2x3xf32>, tensor<4xf16>, tensor<4xbf16>, tensor<2xf64>,
        tensor<2x3xf32>, tensor<4xf16>, tensor<4xbf16>, tensor<2xf64>,
        tensor<2x3xf32>, tensor<4xf16>, tensor<4xbf16>, tensor<2xf64>,
        tensor<2x3xf32>, tensor<4xf16>, tensor<2x3xf32>
}

// `not` is logical on i1 and bitwise on integers.
// CHECK-LABEL: func.func @unary_logical(
// CHECK-SAME:    %[[B:.*]]: tensor<2x2xi1>, %[[I:.*]]: tensor<4xi32>, %[[L:.*]]: tensor<3xi64>)
// CHECK-NEXT:    %[[R0:.*]] = xtensor.not %[[B]] : tensor<2x2xi1>
// CHECK-NEXT:    %[[R1:.*]] = xtensor.not %[[I]] : tensor<4xi32>
// CHECK-NEXT:    %[[R2:.*]] = xtensor.not %[[L]] : tensor<3xi64>
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]] : tensor<2x2xi1>, tensor<4xi32>, tensor<3xi64>
func.func @unary_logical(%b: tensor<2x2xi1>, %i: tensor<4xi32>, %l: tensor<3xi64>)
    -> (tensor<2x2xi1>, tensor<4xi32>, tensor<3xi64>) {
  %0 = xtensor.not %b : tensor<2x2xi1>
  %1 = xtensor.not %i : tensor<4xi32>
  %2 = xtensor.not %l : tensor<3xi64>
  return %0, %1, %2 : tensor<2x2xi1>, tensor<4xi32>, tensor<3xi64>
}

// Unary ops on a rank-0 tensor.
// CHECK-LABEL: func.func @unary_scalar(
// CHECK-SAME:    %[[X:.*]]: tensor<f32>)
// CHECK-NEXT:    %[[R:.*]] = xtensor.exp %[[X]] : tensor<f32>
// CHECK-NEXT:    return %[[R]] : tensor<f32>
func.func @unary_scalar(%x: tensor<f32>) -> tensor<f32> {
  %0 = xtensor.exp %x : tensor<f32>
  return %0 : tensor<f32>
}

//===----------------------------------------------------------------------===//
// Cast
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @cast(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<4xi1>, %[[I:.*]]: tensor<4xi64>)
// CHECK-NEXT:    %[[R0:.*]] = xtensor.cast %[[X]] : tensor<2x3xf32> -> tensor<2x3xbf16>
// CHECK-NEXT:    %[[R1:.*]] = xtensor.cast %[[X]] : tensor<2x3xf32> -> tensor<2x3xf64>
// CHECK-NEXT:    %[[R2:.*]] = xtensor.cast %[[X]] : tensor<2x3xf32> -> tensor<2x3xi32>
// CHECK-NEXT:    %[[R3:.*]] = xtensor.cast %[[B]] : tensor<4xi1> -> tensor<4xf16>
// CHECK-NEXT:    %[[R4:.*]] = xtensor.cast %[[I]] : tensor<4xi64> -> tensor<4xi1>
// CHECK-NEXT:    %[[R5:.*]] = xtensor.cast %[[X]] : tensor<2x3xf32> -> tensor<2x3xf32>
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]], %[[R3]], %[[R4]], %[[R5]] :
func.func @cast(%x: tensor<2x3xf32>, %b: tensor<4xi1>, %i: tensor<4xi64>)
    -> (tensor<2x3xbf16>, tensor<2x3xf64>, tensor<2x3xi32>, tensor<4xf16>,
        tensor<4xi1>, tensor<2x3xf32>) {
  %0 = xtensor.cast %x : tensor<2x3xf32> -> tensor<2x3xbf16>
  %1 = xtensor.cast %x : tensor<2x3xf32> -> tensor<2x3xf64>
  %2 = xtensor.cast %x : tensor<2x3xf32> -> tensor<2x3xi32>
  %3 = xtensor.cast %b : tensor<4xi1> -> tensor<4xf16>
  %4 = xtensor.cast %i : tensor<4xi64> -> tensor<4xi1>
  %5 = xtensor.cast %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %5
      : tensor<2x3xbf16>, tensor<2x3xf64>, tensor<2x3xi32>, tensor<4xf16>,
        tensor<4xi1>, tensor<2x3xf32>
}

// 8- and 16-bit integers: storage types, cast to and from i32.
// CHECK-LABEL: func.func @cast_narrow_integers(
// CHECK-SAME:    %[[B:.*]]: tensor<4xi8>, %[[S:.*]]: tensor<4xi16>)
// CHECK-NEXT:    %[[W:.*]] = xtensor.cast %[[B]] : tensor<4xi8> -> tensor<4xi32>
// CHECK-NEXT:    %[[V:.*]] = xtensor.cast %[[S]] : tensor<4xi16> -> tensor<4xi32>
// CHECK-NEXT:    %[[N:.*]] = xtensor.cast %[[W]] : tensor<4xi32> -> tensor<4xi16>
// CHECK:         %[[T:.*]] = xtensor.transpose %{{.*}} perm [1, 0] : tensor<2x2xi8> -> tensor<2x2xi8>
func.func @cast_narrow_integers(%b: tensor<4xi8>, %s: tensor<4xi16>)
    -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi16>, tensor<2x2xi8>) {
  %0 = xtensor.cast %b : tensor<4xi8> -> tensor<4xi32>
  %1 = xtensor.cast %s : tensor<4xi16> -> tensor<4xi32>
  %2 = xtensor.cast %0 : tensor<4xi32> -> tensor<4xi16>
  %r = xtensor.reshape %b : tensor<4xi8> -> tensor<2x2xi8>
  %3 = xtensor.transpose %r perm [1, 0] : tensor<2x2xi8> -> tensor<2x2xi8>
  return %0, %1, %2, %3 : tensor<4xi32>, tensor<4xi32>, tensor<4xi16>, tensor<2x2xi8>
}

//===----------------------------------------------------------------------===//
// Elementwise binary ops
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @binary_numeric(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<2x3xf32>, %[[I:.*]]: tensor<4xi32>, %[[J:.*]]: tensor<4xi32>, %[[H:.*]]: tensor<4xf16>, %[[L:.*]]: tensor<2xi64>)
// CHECK-NEXT:    %[[R0:.*]] = xtensor.add %[[X]], %[[Y]] : tensor<2x3xf32>
// CHECK-NEXT:    %[[R1:.*]] = xtensor.sub %[[I]], %[[J]] : tensor<4xi32>
// CHECK-NEXT:    %[[R2:.*]] = xtensor.mul %[[H]], %[[H]] : tensor<4xf16>
// CHECK-NEXT:    %[[R3:.*]] = xtensor.div %[[L]], %[[L]] : tensor<2xi64>
// CHECK-NEXT:    %[[R4:.*]] = xtensor.div %[[X]], %[[Y]] : tensor<2x3xf32>
// CHECK-NEXT:    %[[R5:.*]] = xtensor.rem %[[I]], %[[J]] : tensor<4xi32>
// CHECK-NEXT:    %[[R6:.*]] = xtensor.rem %[[Y]], %[[X]] : tensor<2x3xf32>
// CHECK-NEXT:    %[[R7:.*]] = xtensor.max %[[X]], %[[Y]] : tensor<2x3xf32>
// CHECK-NEXT:    %[[R8:.*]] = xtensor.min %[[L]], %[[L]] : tensor<2xi64>
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]], %[[R3]], %[[R4]], %[[R5]], %[[R6]], %[[R7]], %[[R8]] :
func.func @binary_numeric(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>, %i: tensor<4xi32>, %j: tensor<4xi32>,
                          %h: tensor<4xf16>, %l: tensor<2xi64>)
    -> (tensor<2x3xf32>, tensor<4xi32>, tensor<4xf16>, tensor<2xi64>, tensor<2x3xf32>,
        tensor<4xi32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2xi64>) {
  %0 = xtensor.add %x, %y : tensor<2x3xf32>
  %1 = xtensor.sub %i, %j : tensor<4xi32>
  %2 = xtensor.mul %h, %h : tensor<4xf16>
  %3 = xtensor.div %l, %l : tensor<2xi64>
  %4 = xtensor.div %x, %y : tensor<2x3xf32>
  %5 = xtensor.rem %i, %j : tensor<4xi32>
  %6 = xtensor.rem %y, %x : tensor<2x3xf32>
  %7 = xtensor.max %x, %y : tensor<2x3xf32>
  %8 = xtensor.min %l, %l : tensor<2xi64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8
      : tensor<2x3xf32>, tensor<4xi32>, tensor<4xf16>, tensor<2xi64>, tensor<2x3xf32>,
        tensor<4xi32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2xi64>
}

// CHECK-LABEL: func.func @binary_float(
// CHECK-SAME:    %[[B:.*]]: tensor<2x2xbf16>, %[[C:.*]]: tensor<2x2xbf16>, %[[D:.*]]: tensor<3xf64>)
// CHECK-NEXT:    %[[R0:.*]] = xtensor.pow %[[B]], %[[C]] : tensor<2x2xbf16>
// CHECK-NEXT:    %[[R1:.*]] = xtensor.pow %[[D]], %[[D]] : tensor<3xf64>
// CHECK-NEXT:    %[[R2:.*]] = xtensor.sub %[[D]], %[[D]] : tensor<3xf64>
// CHECK-NEXT:    %[[R3:.*]] = xtensor.min %[[C]], %[[B]] : tensor<2x2xbf16>
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]], %[[R3]] : tensor<2x2xbf16>, tensor<3xf64>, tensor<3xf64>, tensor<2x2xbf16>
func.func @binary_float(%b: tensor<2x2xbf16>, %c: tensor<2x2xbf16>, %d: tensor<3xf64>)
    -> (tensor<2x2xbf16>, tensor<3xf64>, tensor<3xf64>, tensor<2x2xbf16>) {
  %0 = xtensor.pow %b, %c : tensor<2x2xbf16>
  %1 = xtensor.pow %d, %d : tensor<3xf64>
  %2 = xtensor.sub %d, %d : tensor<3xf64>
  %3 = xtensor.min %c, %b : tensor<2x2xbf16>
  return %0, %1, %2, %3 : tensor<2x2xbf16>, tensor<3xf64>, tensor<3xf64>, tensor<2x2xbf16>
}

// CHECK-LABEL: func.func @binary_logical(
// CHECK-SAME:    %[[P:.*]]: tensor<2x2xi1>, %[[Q:.*]]: tensor<2x2xi1>, %[[I:.*]]: tensor<4xi32>, %[[L:.*]]: tensor<3xi64>)
// CHECK-NEXT:    %[[R0:.*]] = xtensor.and %[[P]], %[[Q]] : tensor<2x2xi1>
// CHECK-NEXT:    %[[R1:.*]] = xtensor.or %[[P]], %[[Q]] : tensor<2x2xi1>
// CHECK-NEXT:    %[[R2:.*]] = xtensor.xor %[[P]], %[[Q]] : tensor<2x2xi1>
// CHECK-NEXT:    %[[R3:.*]] = xtensor.and %[[I]], %[[I]] : tensor<4xi32>
// CHECK-NEXT:    %[[R4:.*]] = xtensor.or %[[L]], %[[L]] : tensor<3xi64>
// CHECK-NEXT:    %[[R5:.*]] = xtensor.xor %[[I]], %[[I]] : tensor<4xi32>
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]], %[[R3]], %[[R4]], %[[R5]] :
func.func @binary_logical(%p: tensor<2x2xi1>, %q: tensor<2x2xi1>, %i: tensor<4xi32>, %l: tensor<3xi64>)
    -> (tensor<2x2xi1>, tensor<2x2xi1>, tensor<2x2xi1>, tensor<4xi32>, tensor<3xi64>, tensor<4xi32>) {
  %0 = xtensor.and %p, %q : tensor<2x2xi1>
  %1 = xtensor.or %p, %q : tensor<2x2xi1>
  %2 = xtensor.xor %p, %q : tensor<2x2xi1>
  %3 = xtensor.and %i, %i : tensor<4xi32>
  %4 = xtensor.or %l, %l : tensor<3xi64>
  %5 = xtensor.xor %i, %i : tensor<4xi32>
  return %0, %1, %2, %3, %4, %5
      : tensor<2x2xi1>, tensor<2x2xi1>, tensor<2x2xi1>, tensor<4xi32>, tensor<3xi64>, tensor<4xi32>
}

//===----------------------------------------------------------------------===//
// Comparison and select
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @cmp(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<2x3xf32>, %[[I:.*]]: tensor<4xi32>, %[[J:.*]]: tensor<4xi32>, %[[H:.*]]: tensor<4xf16>, %[[L:.*]]: tensor<2xi64>)
// CHECK-NEXT:    %[[R0:.*]] = xtensor.cmp eq, %[[X]], %[[Y]] : tensor<2x3xf32>
// CHECK-NEXT:    %[[R1:.*]] = xtensor.cmp ne, %[[X]], %[[Y]] : tensor<2x3xf32>
// CHECK-NEXT:    %[[R2:.*]] = xtensor.cmp lt, %[[I]], %[[J]] : tensor<4xi32>
// CHECK-NEXT:    %[[R3:.*]] = xtensor.cmp le, %[[I]], %[[J]] : tensor<4xi32>
// CHECK-NEXT:    %[[R4:.*]] = xtensor.cmp gt, %[[H]], %[[H]] : tensor<4xf16>
// CHECK-NEXT:    %[[R5:.*]] = xtensor.cmp ge, %[[L]], %[[L]] : tensor<2xi64>
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]], %[[R3]], %[[R4]], %[[R5]] : tensor<2x3xi1>, tensor<2x3xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<2xi1>
func.func @cmp(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>, %i: tensor<4xi32>, %j: tensor<4xi32>,
               %h: tensor<4xf16>, %l: tensor<2xi64>)
    -> (tensor<2x3xi1>, tensor<2x3xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<2xi1>) {
  %0 = xtensor.cmp eq, %x, %y : tensor<2x3xf32>
  %1 = xtensor.cmp ne, %x, %y : tensor<2x3xf32>
  %2 = xtensor.cmp lt, %i, %j : tensor<4xi32>
  %3 = xtensor.cmp le, %i, %j : tensor<4xi32>
  %4 = xtensor.cmp gt, %h, %h : tensor<4xf16>
  %5 = xtensor.cmp ge, %l, %l : tensor<2xi64>
  return %0, %1, %2, %3, %4, %5
      : tensor<2x3xi1>, tensor<2x3xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<2xi1>
}

// CHECK-LABEL: func.func @select(
// CHECK-SAME:    %[[M:.*]]: tensor<2x3xi1>, %[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<2x3xf32>, %[[I:.*]]: tensor<2x3xi64>, %[[B:.*]]: tensor<2x3xi1>)
// CHECK-NEXT:    %[[R0:.*]] = xtensor.select %[[M]], %[[X]], %[[Y]] : tensor<2x3xf32>
// CHECK-NEXT:    %[[R1:.*]] = xtensor.select %[[M]], %[[I]], %[[I]] : tensor<2x3xi64>
// CHECK-NEXT:    %[[R2:.*]] = xtensor.select %[[M]], %[[B]], %[[M]] : tensor<2x3xi1>
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]] : tensor<2x3xf32>, tensor<2x3xi64>, tensor<2x3xi1>
func.func @select(%m: tensor<2x3xi1>, %x: tensor<2x3xf32>, %y: tensor<2x3xf32>, %i: tensor<2x3xi64>,
                  %b: tensor<2x3xi1>) -> (tensor<2x3xf32>, tensor<2x3xi64>, tensor<2x3xi1>) {
  %0 = xtensor.select %m, %x, %y : tensor<2x3xf32>
  %1 = xtensor.select %m, %i, %i : tensor<2x3xi64>
  %2 = xtensor.select %m, %b, %m : tensor<2x3xi1>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<2x3xi64>, tensor<2x3xi1>
}

//===----------------------------------------------------------------------===//
// Sources
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @constant(
// CHECK-NEXT:    %[[C0:.*]] = xtensor.constant dense<[1.000000e+00, 2.500000e+00]> : tensor<2xf32>
// CHECK-NEXT:    %[[C1:.*]] = xtensor.constant dense<2.000000e+00> : tensor<2x3xf32>
// CHECK-NEXT:    %[[C2:.*]] = xtensor.constant dense<1.500000e+00> : tensor<4xf16>
// CHECK-NEXT:    %[[C3:.*]] = xtensor.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xbf16>
// CHECK-NEXT:    %[[C4:.*]] = xtensor.constant dense<-2.500000e-01> : tensor<f64>
// CHECK-NEXT:    %[[C5:.*]] = xtensor.constant dense<[1, 2, 3]> : tensor<3xi32>
// CHECK-NEXT:    %[[C6:.*]] = xtensor.constant dense<7> : tensor<2x2xi64>
// CHECK-NEXT:    %[[C7:.*]] = xtensor.constant dense<[true, false]> : tensor<2xi1>
// CHECK-NEXT:    %[[C8:.*]] = xtensor.constant dense<true> : tensor<2x2xi1>
// CHECK-NEXT:    return %[[C0]], %[[C1]], %[[C2]], %[[C3]], %[[C4]], %[[C5]], %[[C6]], %[[C7]], %[[C8]] :
func.func @constant()
    -> (tensor<2xf32>, tensor<2x3xf32>, tensor<4xf16>, tensor<2x2xbf16>, tensor<f64>,
        tensor<3xi32>, tensor<2x2xi64>, tensor<2xi1>, tensor<2x2xi1>) {
  %0 = xtensor.constant dense<[1.0, 2.5]> : tensor<2xf32>
  %1 = xtensor.constant dense<2.0> : tensor<2x3xf32>
  %2 = xtensor.constant dense<1.5> : tensor<4xf16>
  %3 = xtensor.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xbf16>
  %4 = xtensor.constant dense<-0.25> : tensor<f64>
  %5 = xtensor.constant dense<[1, 2, 3]> : tensor<3xi32>
  %6 = xtensor.constant dense<7> : tensor<2x2xi64>
  %7 = xtensor.constant dense<[true, false]> : tensor<2xi1>
  %8 = xtensor.constant dense<true> : tensor<2x2xi1>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8
      : tensor<2xf32>, tensor<2x3xf32>, tensor<4xf16>, tensor<2x2xbf16>, tensor<f64>,
        tensor<3xi32>, tensor<2x2xi64>, tensor<2xi1>, tensor<2x2xi1>
}

// CHECK-LABEL: func.func @iota(
// CHECK-NEXT:    %[[R0:.*]] = xtensor.iota dim 0 : tensor<4xi32>
// CHECK-NEXT:    %[[R1:.*]] = xtensor.iota dim 1 : tensor<2x3xi64>
// CHECK-NEXT:    %[[R2:.*]] = xtensor.iota dim 0 : tensor<2x3xf32>
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]] : tensor<4xi32>, tensor<2x3xi64>, tensor<2x3xf32>
func.func @iota() -> (tensor<4xi32>, tensor<2x3xi64>, tensor<2x3xf32>) {
  %0 = xtensor.iota dim 0 : tensor<4xi32>
  %1 = xtensor.iota dim 1 : tensor<2x3xi64>
  %2 = xtensor.iota dim 0 : tensor<2x3xf32>
  return %0, %1, %2 : tensor<4xi32>, tensor<2x3xi64>, tensor<2x3xf32>
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reduce(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3x4xf32>, %[[I:.*]]: tensor<4x5xi32>, %[[B:.*]]: tensor<2x3xi1>, %[[H:.*]]: tensor<6xbf16>)
// CHECK-NEXT:    %[[R0:.*]] = xtensor.reduce sum %[[X]] dims [1] : tensor<2x3x4xf32> -> tensor<2x4xf32>
// CHECK-NEXT:    %[[R1:.*]] = xtensor.reduce sum %[[X]] dims [0, 2] keepdim : tensor<2x3x4xf32> -> tensor<1x3x1xf32>
// CHECK-NEXT:    %[[R2:.*]] = xtensor.reduce prod %[[I]] dims [1] keepdim : tensor<4x5xi32> -> tensor<4x1xi32>
// CHECK-NEXT:    %[[R3:.*]] = xtensor.reduce max %[[H]] dims [0] : tensor<6xbf16> -> tensor<bf16>
// CHECK-NEXT:    %[[R4:.*]] = xtensor.reduce min %[[I]] dims [0, 1] : tensor<4x5xi32> -> tensor<i32>
// CHECK-NEXT:    %[[R5:.*]] = xtensor.reduce any %[[B]] dims [1] : tensor<2x3xi1> -> tensor<2xi1>
// CHECK-NEXT:    %[[R6:.*]] = xtensor.reduce all %[[B]] dims [0] keepdim : tensor<2x3xi1> -> tensor<1x3xi1>
// CHECK-NEXT:    %[[R7:.*]] = xtensor.reduce sum %[[X]] dims [] : tensor<2x3x4xf32> -> tensor<2x3x4xf32>
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]], %[[R3]], %[[R4]], %[[R5]], %[[R6]], %[[R7]] :
func.func @reduce(%x: tensor<2x3x4xf32>, %i: tensor<4x5xi32>, %b: tensor<2x3xi1>, %h: tensor<6xbf16>)
    -> (tensor<2x4xf32>, tensor<1x3x1xf32>, tensor<4x1xi32>, tensor<bf16>, tensor<i32>,
        tensor<2xi1>, tensor<1x3xi1>, tensor<2x3x4xf32>) {
  %0 = xtensor.reduce sum %x dims [1] : tensor<2x3x4xf32> -> tensor<2x4xf32>
  %1 = xtensor.reduce sum %x dims [0, 2] keepdim : tensor<2x3x4xf32> -> tensor<1x3x1xf32>
  %2 = xtensor.reduce prod %i dims [1] keepdim : tensor<4x5xi32> -> tensor<4x1xi32>
  %3 = xtensor.reduce max %h dims [0] : tensor<6xbf16> -> tensor<bf16>
  %4 = xtensor.reduce min %i dims [0, 1] : tensor<4x5xi32> -> tensor<i32>
  %5 = xtensor.reduce any %b dims [1] : tensor<2x3xi1> -> tensor<2xi1>
  %6 = xtensor.reduce all %b dims [0] keepdim : tensor<2x3xi1> -> tensor<1x3xi1>
  %7 = xtensor.reduce sum %x dims [] : tensor<2x3x4xf32> -> tensor<2x3x4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7
      : tensor<2x4xf32>, tensor<1x3x1xf32>, tensor<4x1xi32>, tensor<bf16>, tensor<i32>,
        tensor<2xi1>, tensor<1x3xi1>, tensor<2x3x4xf32>
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reshape(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<4xi1>, %[[S:.*]]: tensor<f16>)
// CHECK-NEXT:    %[[R0:.*]] = xtensor.reshape %[[X]] : tensor<2x3xf32> -> tensor<6xf32>
// CHECK-NEXT:    %[[R1:.*]] = xtensor.reshape %[[X]] : tensor<2x3xf32> -> tensor<3x1x2xf32>
// CHECK-NEXT:    %[[R2:.*]] = xtensor.reshape %[[B]] : tensor<4xi1> -> tensor<2x2xi1>
// CHECK-NEXT:    %[[R3:.*]] = xtensor.reshape %[[S]] : tensor<f16> -> tensor<1x1xf16>
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]], %[[R3]] : tensor<6xf32>, tensor<3x1x2xf32>, tensor<2x2xi1>, tensor<1x1xf16>
func.func @reshape(%x: tensor<2x3xf32>, %b: tensor<4xi1>, %s: tensor<f16>)
    -> (tensor<6xf32>, tensor<3x1x2xf32>, tensor<2x2xi1>, tensor<1x1xf16>) {
  %0 = xtensor.reshape %x : tensor<2x3xf32> -> tensor<6xf32>
  %1 = xtensor.reshape %x : tensor<2x3xf32> -> tensor<3x1x2xf32>
  %2 = xtensor.reshape %b : tensor<4xi1> -> tensor<2x2xi1>
  %3 = xtensor.reshape %s : tensor<f16> -> tensor<1x1xf16>
  return %0, %1, %2, %3 : tensor<6xf32>, tensor<3x1x2xf32>, tensor<2x2xi1>, tensor<1x1xf16>
}

// CHECK-LABEL: func.func @transpose(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<2x3x4xi64>)
// CHECK-NEXT:    %[[R0:.*]] = xtensor.transpose %[[X]] perm [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
// CHECK-NEXT:    %[[R1:.*]] = xtensor.transpose %[[Y]] perm [2, 0, 1] : tensor<2x3x4xi64> -> tensor<4x2x3xi64>
// CHECK-NEXT:    %[[R2:.*]] = xtensor.transpose %[[X]] perm [0, 1] : tensor<2x3xf32> -> tensor<2x3xf32>
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]] : tensor<3x2xf32>, tensor<4x2x3xi64>, tensor<2x3xf32>
func.func @transpose(%x: tensor<2x3xf32>, %y: tensor<2x3x4xi64>)
    -> (tensor<3x2xf32>, tensor<4x2x3xi64>, tensor<2x3xf32>) {
  %0 = xtensor.transpose %x perm [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %1 = xtensor.transpose %y perm [2, 0, 1] : tensor<2x3x4xi64> -> tensor<4x2x3xi64>
  %2 = xtensor.transpose %x perm [0, 1] : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0, %1, %2 : tensor<3x2xf32>, tensor<4x2x3xi64>, tensor<2x3xf32>
}

// Trailing-aligned: new leading dimensions, size-1 dimensions expanded, or
// both at once.
// CHECK-LABEL: func.func @broadcast(
// CHECK-SAME:    %[[V:.*]]: tensor<3xf32>, %[[C:.*]]: tensor<2x1xf32>, %[[B:.*]]: tensor<1x3xi1>, %[[S:.*]]: tensor<i32>)
// CHECK-NEXT:    %[[R0:.*]] = xtensor.broadcast %[[V]] : tensor<3xf32> -> tensor<2x3xf32>
// CHECK-NEXT:    %[[R1:.*]] = xtensor.broadcast %[[C]] : tensor<2x1xf32> -> tensor<2x3xf32>
// CHECK-NEXT:    %[[R2:.*]] = xtensor.broadcast %[[B]] : tensor<1x3xi1> -> tensor<4x2x3xi1>
// CHECK-NEXT:    %[[R3:.*]] = xtensor.broadcast %[[S]] : tensor<i32> -> tensor<2x2xi32>
// CHECK-NEXT:    %[[R4:.*]] = xtensor.broadcast %[[C]] : tensor<2x1xf32> -> tensor<2x1xf32>
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]], %[[R3]], %[[R4]] : tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x2x3xi1>, tensor<2x2xi32>, tensor<2x1xf32>
func.func @broadcast(%v: tensor<3xf32>, %c: tensor<2x1xf32>, %b: tensor<1x3xi1>, %s: tensor<i32>)
    -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x2x3xi1>, tensor<2x2xi32>, tensor<2x1xf32>) {
  %0 = xtensor.broadcast %v : tensor<3xf32> -> tensor<2x3xf32>
  %1 = xtensor.broadcast %c : tensor<2x1xf32> -> tensor<2x3xf32>
  %2 = xtensor.broadcast %b : tensor<1x3xi1> -> tensor<4x2x3xi1>
  %3 = xtensor.broadcast %s : tensor<i32> -> tensor<2x2xi32>
  %4 = xtensor.broadcast %c : tensor<2x1xf32> -> tensor<2x1xf32>
  return %0, %1, %2, %3, %4
      : tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x2x3xi1>, tensor<2x2xi32>, tensor<2x1xf32>
}

// CHECK-LABEL: func.func @slice(
// CHECK-SAME:    %[[X:.*]]: tensor<4x8xf32>, %[[I:.*]]: tensor<5xi32>)
// CHECK-NEXT:    %[[R0:.*]] = xtensor.slice %[[X]] starts [0, 1] limits [4, 8] strides [1, 2] : tensor<4x8xf32> -> tensor<4x4xf32>
// CHECK-NEXT:    %[[R1:.*]] = xtensor.slice %[[I]] starts [1] limits [4] strides [1] : tensor<5xi32> -> tensor<3xi32>
// CHECK-NEXT:    %[[R2:.*]] = xtensor.slice %[[I]] starts [2] limits [2] strides [1] : tensor<5xi32> -> tensor<0xi32>
// CHECK-NEXT:    %[[R3:.*]] = xtensor.slice %[[X]] starts [1, 0] limits [4, 8] strides [2, 3] : tensor<4x8xf32> -> tensor<2x3xf32>
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]], %[[R3]] : tensor<4x4xf32>, tensor<3xi32>, tensor<0xi32>, tensor<2x3xf32>
func.func @slice(%x: tensor<4x8xf32>, %i: tensor<5xi32>)
    -> (tensor<4x4xf32>, tensor<3xi32>, tensor<0xi32>, tensor<2x3xf32>) {
  %0 = xtensor.slice %x starts [0, 1] limits [4, 8] strides [1, 2]
      : tensor<4x8xf32> -> tensor<4x4xf32>
  %1 = xtensor.slice %i starts [1] limits [4] strides [1] : tensor<5xi32> -> tensor<3xi32>
  %2 = xtensor.slice %i starts [2] limits [2] strides [1] : tensor<5xi32> -> tensor<0xi32>
  %3 = xtensor.slice %x starts [1, 0] limits [4, 8] strides [2, 3]
      : tensor<4x8xf32> -> tensor<2x3xf32>
  return %0, %1, %2, %3 : tensor<4x4xf32>, tensor<3xi32>, tensor<0xi32>, tensor<2x3xf32>
}

// The padding value is a typed attribute of the element type.
// CHECK-LABEL: func.func @pad(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xf32>, %[[I:.*]]: tensor<4xi32>, %[[B:.*]]: tensor<2x2xi1>, %[[H:.*]]: tensor<2xbf16>)
// CHECK-NEXT:    %[[R0:.*]] = xtensor.pad %[[X]] low [0, 1] high [1, 0] value 0.000000e+00 : f32 : tensor<2x3xf32> -> tensor<3x4xf32>
// CHECK-NEXT:    %[[R1:.*]] = xtensor.pad %[[I]] low [1] high [2] value -1 : i32 : tensor<4xi32> -> tensor<7xi32>
// CHECK-NEXT:    %[[R2:.*]] = xtensor.pad %[[B]] low [1, 0] high [0, 0] value false : tensor<2x2xi1> -> tensor<3x2xi1>
// CHECK-NEXT:    %[[R3:.*]] = xtensor.pad %[[H]] low [0] high [0] value 1.500000e+00 : bf16 : tensor<2xbf16> -> tensor<2xbf16>
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]], %[[R3]] : tensor<3x4xf32>, tensor<7xi32>, tensor<3x2xi1>, tensor<2xbf16>
func.func @pad(%x: tensor<2x3xf32>, %i: tensor<4xi32>, %b: tensor<2x2xi1>, %h: tensor<2xbf16>)
    -> (tensor<3x4xf32>, tensor<7xi32>, tensor<3x2xi1>, tensor<2xbf16>) {
  %0 = xtensor.pad %x low [0, 1] high [1, 0] value 0.0 : f32
      : tensor<2x3xf32> -> tensor<3x4xf32>
  %1 = xtensor.pad %i low [1] high [2] value -1 : i32 : tensor<4xi32> -> tensor<7xi32>
  %2 = xtensor.pad %b low [1, 0] high [0, 0] value false : tensor<2x2xi1> -> tensor<3x2xi1>
  %3 = xtensor.pad %h low [0] high [0] value 1.5 : bf16 : tensor<2xbf16> -> tensor<2xbf16>
  return %0, %1, %2, %3 : tensor<3x4xf32>, tensor<7xi32>, tensor<3x2xi1>, tensor<2xbf16>
}

// CHECK-LABEL: func.func @concat(
// CHECK-SAME:    %[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<2x1xf32>, %[[C:.*]]: tensor<4xi64>, %[[D:.*]]: tensor<1xi64>)
// CHECK-NEXT:    %[[R0:.*]] = xtensor.concat %[[A]], %[[B]] dim 1 : tensor<2x3xf32>, tensor<2x1xf32> -> tensor<2x4xf32>
// CHECK-NEXT:    %[[R1:.*]] = xtensor.concat %[[C]], %[[D]], %[[C]] dim 0 : tensor<4xi64>, tensor<1xi64>, tensor<4xi64> -> tensor<9xi64>
// CHECK-NEXT:    %[[R2:.*]] = xtensor.concat %[[A]], %[[A]] dim 0 : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<4x3xf32>
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]] : tensor<2x4xf32>, tensor<9xi64>, tensor<4x3xf32>
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x1xf32>, %c: tensor<4xi64>, %d: tensor<1xi64>)
    -> (tensor<2x4xf32>, tensor<9xi64>, tensor<4x3xf32>) {
  %0 = xtensor.concat %a, %b dim 1 : tensor<2x3xf32>, tensor<2x1xf32> -> tensor<2x4xf32>
  %1 = xtensor.concat %c, %d, %c dim 0
      : tensor<4xi64>, tensor<1xi64>, tensor<4xi64> -> tensor<9xi64>
  %2 = xtensor.concat %a, %a dim 0 : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<4x3xf32>
  return %0, %1, %2 : tensor<2x4xf32>, tensor<9xi64>, tensor<4x3xf32>
}

// Result shape: input.shape[:axis] + indices.shape + input.shape[axis+1:].
// CHECK-LABEL: func.func @gather(
// CHECK-SAME:    %[[T:.*]]: tensor<10x4xf32>, %[[IDS:.*]]: tensor<2x3xi64>, %[[J:.*]]: tensor<2xi32>, %[[H:.*]]: tensor<3x5x2xf16>)
// CHECK-NEXT:    %[[R0:.*]] = xtensor.gather %[[T]][%[[IDS]]] axis 0 : tensor<10x4xf32>, tensor<2x3xi64> -> tensor<2x3x4xf32>
// CHECK-NEXT:    %[[R1:.*]] = xtensor.gather %[[T]][%[[J]]] axis 1 : tensor<10x4xf32>, tensor<2xi32> -> tensor<10x2xf32>
// CHECK-NEXT:    %[[R2:.*]] = xtensor.gather %[[H]][%[[IDS]]] axis 1 : tensor<3x5x2xf16>, tensor<2x3xi64> -> tensor<3x2x3x2xf16>
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]] : tensor<2x3x4xf32>, tensor<10x2xf32>, tensor<3x2x3x2xf16>
func.func @gather(%t: tensor<10x4xf32>, %ids: tensor<2x3xi64>, %j: tensor<2xi32>, %h: tensor<3x5x2xf16>)
    -> (tensor<2x3x4xf32>, tensor<10x2xf32>, tensor<3x2x3x2xf16>) {
  %0 = xtensor.gather %t[%ids] axis 0 : tensor<10x4xf32>, tensor<2x3xi64> -> tensor<2x3x4xf32>
  %1 = xtensor.gather %t[%j] axis 1 : tensor<10x4xf32>, tensor<2xi32> -> tensor<10x2xf32>
  %2 = xtensor.gather %h[%ids] axis 1
      : tensor<3x5x2xf16>, tensor<2x3xi64> -> tensor<3x2x3x2xf16>
  return %0, %1, %2 : tensor<2x3x4xf32>, tensor<10x2xf32>, tensor<3x2x3x2xf16>
}

// The adjoint of gather: the source has the shape gather would give.
// CHECK-LABEL: func.func @scatter_add(
// CHECK-SAME:    %[[T:.*]]: tensor<10x4xf32>, %[[IDS:.*]]: tensor<2x3xi64>, %[[G:.*]]: tensor<2x3x4xf32>, %[[C:.*]]: tensor<5x7xi32>, %[[J:.*]]: tensor<9xi32>, %[[S:.*]]: tensor<5x9xi32>)
// CHECK-NEXT:    %[[R0:.*]] = xtensor.scatter_add %[[G]] into %[[T]][%[[IDS]]] axis 0 : tensor<2x3x4xf32>, tensor<2x3xi64> -> tensor<10x4xf32>
// CHECK-NEXT:    %[[R1:.*]] = xtensor.scatter_add %[[S]] into %[[C]][%[[J]]] axis 1 : tensor<5x9xi32>, tensor<9xi32> -> tensor<5x7xi32>
// CHECK-NEXT:    return %[[R0]], %[[R1]]
func.func @scatter_add(%t: tensor<10x4xf32>, %ids: tensor<2x3xi64>, %g: tensor<2x3x4xf32>,
                       %c: tensor<5x7xi32>, %j: tensor<9xi32>, %s: tensor<5x9xi32>)
    -> (tensor<10x4xf32>, tensor<5x7xi32>) {
  %0 = xtensor.scatter_add %g into %t[%ids] axis 0
      : tensor<2x3x4xf32>, tensor<2x3xi64> -> tensor<10x4xf32>
  %1 = xtensor.scatter_add %s into %c[%j] axis 1 : tensor<5x9xi32>, tensor<9xi32> -> tensor<5x7xi32>
  return %0, %1 : tensor<10x4xf32>, tensor<5x7xi32>
}

//===----------------------------------------------------------------------===//
// Contraction
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @matmul(
// CHECK-SAME:    %[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<3x4xf32>, %[[C:.*]]: tensor<5x2x3xbf16>, %[[D:.*]]: tensor<5x3x4xbf16>, %[[I:.*]]: tensor<2x2xi32>)
// CHECK-NEXT:    %[[R0:.*]] = xtensor.matmul %[[A]], %[[B]] : tensor<2x3xf32>, tensor<3x4xf32> -> tensor<2x4xf32>
// CHECK-NEXT:    %[[R1:.*]] = xtensor.matmul %[[C]], %[[D]] : tensor<5x2x3xbf16>, tensor<5x3x4xbf16> -> tensor<5x2x4xbf16>
// CHECK-NEXT:    %[[R2:.*]] = xtensor.matmul %[[I]], %[[I]] : tensor<2x2xi32>, tensor<2x2xi32> -> tensor<2x2xi32>
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]] : tensor<2x4xf32>, tensor<5x2x4xbf16>, tensor<2x2xi32>
func.func @matmul(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<5x2x3xbf16>,
                  %d: tensor<5x3x4xbf16>, %i: tensor<2x2xi32>)
    -> (tensor<2x4xf32>, tensor<5x2x4xbf16>, tensor<2x2xi32>) {
  %0 = xtensor.matmul %a, %b : tensor<2x3xf32>, tensor<3x4xf32> -> tensor<2x4xf32>
  %1 = xtensor.matmul %c, %d : tensor<5x2x3xbf16>, tensor<5x3x4xbf16> -> tensor<5x2x4xbf16>
  %2 = xtensor.matmul %i, %i : tensor<2x2xi32>, tensor<2x2xi32> -> tensor<2x2xi32>
  return %0, %1, %2 : tensor<2x4xf32>, tensor<5x2x4xbf16>, tensor<2x2xi32>
}

//===----------------------------------------------------------------------===//
// Composite ops
//===----------------------------------------------------------------------===//

// `eps` is an f64 attribute printed at full precision; the default
// norm_rank = 1 is elided.
// CHECK-LABEL: func.func @rms_norm(
// CHECK-SAME:    %[[X:.*]]: tensor<2x8xf32>, %[[W:.*]]: tensor<8xf32>, %[[Y:.*]]: tensor<2x3x4xbf16>, %[[W2:.*]]: tensor<3x4xbf16>)
// CHECK-NEXT:    %[[R0:.*]] = xtensor.rms_norm %[[X]] weight %[[W]] eps 9.9999999999999995E-7 : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:    %[[R1:.*]] = xtensor.rms_norm %[[X]] eps 6.250000e-02 : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:    %[[R2:.*]] = xtensor.rms_norm %[[Y]] weight %[[W2]] eps 1.000000e-01 {norm_rank = 2 : i64} : (tensor<2x3x4xbf16>, tensor<3x4xbf16>) -> tensor<2x3x4xbf16>
// CHECK-NEXT:    %[[R3:.*]] = xtensor.rms_norm %[[Y]] eps 1.000000e-01 {norm_rank = 3 : i64} : (tensor<2x3x4xbf16>) -> tensor<2x3x4xbf16>
// CHECK-NEXT:    %[[R4:.*]] = xtensor.rms_norm %[[X]] eps 6.250000e-02 : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]], %[[R3]], %[[R4]] :
func.func @rms_norm(%x: tensor<2x8xf32>, %w: tensor<8xf32>, %y: tensor<2x3x4xbf16>, %w2: tensor<3x4xbf16>)
    -> (tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x3x4xbf16>, tensor<2x3x4xbf16>, tensor<2x8xf32>) {
  %0 = xtensor.rms_norm %x weight %w eps 1.0e-6
      : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %1 = xtensor.rms_norm %x eps 0.0625 : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %2 = xtensor.rms_norm %y weight %w2 eps 0.1 {norm_rank = 2 : i64}
      : (tensor<2x3x4xbf16>, tensor<3x4xbf16>) -> tensor<2x3x4xbf16>
  %3 = xtensor.rms_norm %y eps 0.1 {norm_rank = 3 : i64}
      : (tensor<2x3x4xbf16>) -> tensor<2x3x4xbf16>
  %4 = xtensor.rms_norm %x eps 0.0625 {norm_rank = 1 : i64}
      : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0, %1, %2, %3, %4
      : tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x3x4xbf16>, tensor<2x3x4xbf16>, tensor<2x8xf32>
}

// CHECK-LABEL: func.func @layer_norm(
// CHECK-SAME:    %[[X:.*]]: tensor<2x8xf32>, %[[W:.*]]: tensor<8xf32>, %[[B:.*]]: tensor<8xf32>, %[[Y:.*]]: tensor<2x3x4xf16>, %[[W2:.*]]: tensor<3x4xf16>, %[[B2:.*]]: tensor<3x4xf16>)
// CHECK-NEXT:    %[[R0:.*]] = xtensor.layer_norm %[[X]] weight %[[W]] bias %[[B]] eps 1.000000e-05 : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:    %[[R1:.*]] = xtensor.layer_norm %[[X]] weight %[[W]] eps 1.000000e-05 : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:    %[[R2:.*]] = xtensor.layer_norm %[[X]] bias %[[B]] eps 1.000000e-05 : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:    %[[R3:.*]] = xtensor.layer_norm %[[X]] eps 1.000000e-05 : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:    %[[R4:.*]] = xtensor.layer_norm %[[Y]] weight %[[W2]] bias %[[B2]] eps 5.000000e-01 {norm_rank = 2 : i64} : (tensor<2x3x4xf16>, tensor<3x4xf16>, tensor<3x4xf16>) -> tensor<2x3x4xf16>
// CHECK-NEXT:    %[[R5:.*]] = xtensor.layer_norm %[[Y]] bias %[[B2]] eps 5.000000e-01 {norm_rank = 2 : i64} : (tensor<2x3x4xf16>, tensor<3x4xf16>) -> tensor<2x3x4xf16>
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]], %[[R3]], %[[R4]], %[[R5]] :
func.func @layer_norm(%x: tensor<2x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>,
                      %y: tensor<2x3x4xf16>, %w2: tensor<3x4xf16>, %b2: tensor<3x4xf16>)
    -> (tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>,
        tensor<2x3x4xf16>, tensor<2x3x4xf16>) {
  %0 = xtensor.layer_norm %x weight %w bias %b eps 1.0e-5
      : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %1 = xtensor.layer_norm %x weight %w eps 1.0e-5
      : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %2 = xtensor.layer_norm %x bias %b eps 1.0e-5
      : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %3 = xtensor.layer_norm %x eps 1.0e-5 : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %4 = xtensor.layer_norm %y weight %w2 bias %b2 eps 0.5 {norm_rank = 2 : i64}
      : (tensor<2x3x4xf16>, tensor<3x4xf16>, tensor<3x4xf16>) -> tensor<2x3x4xf16>
  %5 = xtensor.layer_norm %y bias %b2 eps 0.5 {norm_rank = 2 : i64}
      : (tensor<2x3x4xf16>, tensor<3x4xf16>) -> tensor<2x3x4xf16>
  return %0, %1, %2, %3, %4, %5
      : tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>,
        tensor<2x3x4xf16>, tensor<2x3x4xf16>
}

// CHECK-LABEL: func.func @softmax(
// CHECK-SAME:    %[[X:.*]]: tensor<2x8xf32>, %[[H:.*]]: tensor<3x4xbf16>, %[[D:.*]]: tensor<5xf64>)
// CHECK-NEXT:    %[[R0:.*]] = xtensor.softmax %[[X]] dim 1 : tensor<2x8xf32>
// CHECK-NEXT:    %[[R1:.*]] = xtensor.softmax %[[H]] dim 0 : tensor<3x4xbf16>
// CHECK-NEXT:    %[[R2:.*]] = xtensor.log_softmax %[[X]] dim 1 : tensor<2x8xf32>
// CHECK-NEXT:    %[[R3:.*]] = xtensor.log_softmax %[[D]] dim 0 : tensor<5xf64>
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]], %[[R3]] : tensor<2x8xf32>, tensor<3x4xbf16>, tensor<2x8xf32>, tensor<5xf64>
func.func @softmax(%x: tensor<2x8xf32>, %h: tensor<3x4xbf16>, %d: tensor<5xf64>)
    -> (tensor<2x8xf32>, tensor<3x4xbf16>, tensor<2x8xf32>, tensor<5xf64>) {
  %0 = xtensor.softmax %x dim 1 : tensor<2x8xf32>
  %1 = xtensor.softmax %h dim 0 : tensor<3x4xbf16>
  %2 = xtensor.log_softmax %x dim 1 : tensor<2x8xf32>
  %3 = xtensor.log_softmax %d dim 0 : tensor<5xf64>
  return %0, %1, %2, %3 : tensor<2x8xf32>, tensor<3x4xbf16>, tensor<2x8xf32>, tensor<5xf64>
}

// CHECK-LABEL: func.func @activations(
// CHECK-SAME:    %[[X:.*]]: tensor<2x8xf32>, %[[H:.*]]: tensor<4xf16>, %[[B:.*]]: tensor<4xbf16>)
// CHECK-NEXT:    %[[R0:.*]] = xtensor.gelu erf %[[X]] : tensor<2x8xf32>
// CHECK-NEXT:    %[[R1:.*]] = xtensor.gelu tanh %[[H]] : tensor<4xf16>
// CHECK-NEXT:    %[[R2:.*]] = xtensor.silu %[[B]] : tensor<4xbf16>
// CHECK-NEXT:    %[[R3:.*]] = xtensor.silu %[[X]] : tensor<2x8xf32>
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]], %[[R3]] : tensor<2x8xf32>, tensor<4xf16>, tensor<4xbf16>, tensor<2x8xf32>
func.func @activations(%x: tensor<2x8xf32>, %h: tensor<4xf16>, %b: tensor<4xbf16>)
    -> (tensor<2x8xf32>, tensor<4xf16>, tensor<4xbf16>, tensor<2x8xf32>) {
  %0 = xtensor.gelu erf %x : tensor<2x8xf32>
  %1 = xtensor.gelu tanh %h : tensor<4xf16>
  %2 = xtensor.silu %b : tensor<4xbf16>
  %3 = xtensor.silu %x : tensor<2x8xf32>
  return %0, %1, %2, %3 : tensor<2x8xf32>, tensor<4xf16>, tensor<4xbf16>, tensor<2x8xf32>
}

// `correction` is always printed, also at its default 1.
// CHECK-LABEL: func.func @statistics(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3x4xf32>, %[[D:.*]]: tensor<6xf64>)
// CHECK-NEXT:    %[[R0:.*]] = xtensor.mean %[[X]] dims [1] keepdim : tensor<2x3x4xf32> -> tensor<2x1x4xf32>
// CHECK-NEXT:    %[[R1:.*]] = xtensor.mean %[[X]] dims [0, 2] : tensor<2x3x4xf32> -> tensor<3xf32>
// CHECK-NEXT:    %[[R2:.*]] = xtensor.var %[[X]] dims [2] correction 0 : tensor<2x3x4xf32> -> tensor<2x3xf32>
// CHECK-NEXT:    %[[R3:.*]] = xtensor.var %[[X]] dims [1, 2] keepdim correction 1 : tensor<2x3x4xf32> -> tensor<2x1x1xf32>
// CHECK-NEXT:    %[[R4:.*]] = xtensor.var %[[D]] dims [0] correction 5 : tensor<6xf64> -> tensor<f64>
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]], %[[R3]], %[[R4]] : tensor<2x1x4xf32>, tensor<3xf32>, tensor<2x3xf32>, tensor<2x1x1xf32>, tensor<f64>
func.func @statistics(%x: tensor<2x3x4xf32>, %d: tensor<6xf64>)
    -> (tensor<2x1x4xf32>, tensor<3xf32>, tensor<2x3xf32>, tensor<2x1x1xf32>, tensor<f64>) {
  %0 = xtensor.mean %x dims [1] keepdim : tensor<2x3x4xf32> -> tensor<2x1x4xf32>
  %1 = xtensor.mean %x dims [0, 2] : tensor<2x3x4xf32> -> tensor<3xf32>
  %2 = xtensor.var %x dims [2] correction 0 : tensor<2x3x4xf32> -> tensor<2x3xf32>
  %3 = xtensor.var %x dims [1, 2] keepdim correction 1 : tensor<2x3x4xf32> -> tensor<2x1x1xf32>
  %4 = xtensor.var %d dims [0] correction 5 : tensor<6xf64> -> tensor<f64>
  return %0, %1, %2, %3, %4
      : tensor<2x1x4xf32>, tensor<3xf32>, tensor<2x3xf32>, tensor<2x1x1xf32>, tensor<f64>
}

// CHECK-LABEL: func.func @linear(
// CHECK-SAME:    %[[X:.*]]: tensor<2x8xf32>, %[[W:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<3x2x8xbf16>, %[[W2:.*]]: tensor<5x8xbf16>)
// CHECK-NEXT:    %[[R0:.*]] = xtensor.linear %[[X]], %[[W]], %[[B]] : (tensor<2x8xf32>, tensor<4x8xf32>, tensor<4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %[[R1:.*]] = xtensor.linear %[[X]], %[[W]] : (tensor<2x8xf32>, tensor<4x8xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %[[R2:.*]] = xtensor.linear %[[Y]], %[[W2]] : (tensor<3x2x8xbf16>, tensor<5x8xbf16>) -> tensor<3x2x5xbf16>
// CHECK-NEXT:    return %[[R0]], %[[R1]], %[[R2]] : tensor<2x4xf32>, tensor<2x4xf32>, tensor<3x2x5xbf16>
func.func @linear(%x: tensor<2x8xf32>, %w: tensor<4x8xf32>, %b: tensor<4xf32>,
                  %y: tensor<3x2x8xbf16>, %w2: tensor<5x8xbf16>)
    -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<3x2x5xbf16>) {
  %0 = xtensor.linear %x, %w, %b
      : (tensor<2x8xf32>, tensor<4x8xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %1 = xtensor.linear %x, %w : (tensor<2x8xf32>, tensor<4x8xf32>) -> tensor<2x4xf32>
  %2 = xtensor.linear %y, %w2 : (tensor<3x2x8xbf16>, tensor<5x8xbf16>) -> tensor<3x2x5xbf16>
  return %0, %1, %2 : tensor<2x4xf32>, tensor<2x4xf32>, tensor<3x2x5xbf16>
}
