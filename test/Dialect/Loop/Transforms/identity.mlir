// Normalization makes 2*x + y and y + 2*x (and the other commuted pairs of
// test/Dialect/Tensor/Transforms/Inputs) byte-identical Loop IR, kernel
// names and identity hashes included.
//
// RUN: xtile-opt %S/../../Tensor/Transforms/Inputs/commuted_a.mlir --lower-to-loop -o %t.a
// RUN: xtile-opt %S/../../Tensor/Transforms/Inputs/commuted_b.mlir --lower-to-loop -o %t.b
// RUN: xtile-opt %S/../../Tensor/Transforms/Inputs/commuted_c.mlir --lower-to-loop -o %t.c
// RUN: diff %t.a %t.b
// RUN: not diff %t.a %t.c > /dev/null
// RUN: FileCheck %s < %t.a

// CHECK:      xloop.kernel @axpy_add(%[[Y:[^:]*]]: memref<64x128xf32>, %[[X:[^:]*]]: memref<64x128xf32>)
// CHECK:        %[[XV:.*]] = xloop.load %[[X]]
// CHECK-NEXT:   %[[TX:.*]] = arith.mulf %[[XV]], %{{.*}} : f32
// CHECK-NEXT:   %[[YV:.*]] = xloop.load %[[Y]]
// CHECK-NEXT:   arith.addf %[[TX]], %[[YV]] : f32
// CHECK:      func.func @axpy(%[[A0:[^:]*]]: tensor<64x128xf32>, %[[A1:[^:]*]]: tensor<64x128xf32>)
// CHECK-NEXT:   xloop.launch @axpy_add(%[[A1]], %[[A0]])
