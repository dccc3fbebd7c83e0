// Kernel identity starts here: programs that differ only in SSA names, op
// order, duplicated subexpressions and the order of commutative operands
// normalize to byte-identical text; a program that computes something
// else does not.
//
// RUN: xtile-opt %S/Inputs/commuted_a.mlir --xtensor-normalize -o %t.a
// RUN: xtile-opt %S/Inputs/commuted_b.mlir --xtensor-normalize -o %t.b
// RUN: xtile-opt %S/Inputs/commuted_c.mlir --xtensor-normalize -o %t.c
// RUN: diff %t.a %t.b
// RUN: not diff %t.a %t.c > /dev/null
// RUN: FileCheck %s < %t.a
// Locations do not enter either.
// RUN: xtile-opt %S/Inputs/commuted_b.mlir --mlir-print-debuginfo | xtile-opt --xtensor-normalize -o %t.b2
// RUN: diff %t.a %t.b2

// CHECK-LABEL: func.func @axpy(
// CHECK-SAME:    %[[X:.*]]: tensor<64x128xf32>, %[[Y:.*]]: tensor<64x128xf32>)
// CHECK-NEXT:    %[[C:.*]] = xtensor.constant dense<2.000000e+00>
// CHECK-NEXT:    %[[TX:.*]] = xtensor.mul %[[X]], %[[C]]
// CHECK-NEXT:    %[[R:.*]] = xtensor.add %[[TX]], %[[Y]]
// CHECK-NEXT:    return %[[R]]
// CHECK-LABEL: func.func @square_plus(
// CHECK-NEXT:    %[[SQ:.*]] = xtensor.mul %arg0, %arg0
// CHECK-NEXT:    %[[R:.*]] = xtensor.add %[[SQ]], %arg1
// CHECK-NEXT:    return %[[R]]
// The duplicate (1 + y) is gone and the dead product with it.
// CHECK-LABEL: func.func @nested(
// CHECK-COUNT-6: = xtensor.
// CHECK-NEXT:    return
