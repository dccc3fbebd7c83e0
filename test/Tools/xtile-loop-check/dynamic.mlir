// Loop IR over dynamic sizes computes what the module specialized to each
// size computes: the dynamic module is lowered once one op per kernel and
// once fused (sizes as kernel arguments), and at each binding both are
// compared with each other and with the specialized module, fused. Fusion
// prices a dynamic size at its hint, so at T = 1 it fuses what the
// specialization at 1 leaves split (the norms' one-row rows).
//
// RUN: xtile-loop-check %s --dims T=1 --dims T=7 --dims T=130 | FileCheck %s
// RUN: xtile-loop-check %S/../../Integration/Inputs/dynamic-rows.mlir --dims T=1 --dims T=7 --dims T=129 | FileCheck %s --check-prefix=ROWS
// RUN: not xtile-loop-check %s 2>&1 | FileCheck %s --check-prefix=UNBOUND
// Sizes that are expressions (T + 1, T - 1, S + 2*T + 3, S*T): the interpreter
// binds them from the symbols, and fusion over them makes as few kernels as
// it does with every size specialized.
// RUN: xtile-loop-check %S/../../Integration/Inputs/size-expressions.mlir --dims T=2,S=1 --dims T=130,S=100 | FileCheck %s --check-prefix=EXPR
//
// CHECK-NOT: MISMATCH
// CHECK: func @ops at T=1: {{[0-9]+}} unfused launches, {{[0-9]+}} fused ({{[0-9]+}} when specialized), {{.*}} (same)
// CHECK: func @attention at T=1: 13 unfused launches, 2 fused (1 when specialized), {{.*}} (same)
// CHECK: func @ops at T=7: {{.*}} (same)
// CHECK: func @attention at T=7: {{.*}} (same)
// CHECK: func @ops at T=130: {{.*}} (same)
// CHECK: func @attention at T=130: {{.*}} (same)
// CHECK-NOT: MISMATCH
// EXPR-NOT: MISMATCH
// EXPR: func @append_attend at T=2,S=1: 16 unfused launches, 2 fused (2 when specialized), {{.*}} (same)
// EXPR: func @row_differences at T=2,S=1: 5 unfused launches, 2 fused (2 when specialized), {{.*}} (same)
// EXPR: func @pad_and_join at T=2,S=1: 9 unfused launches, 1 fused (1 when specialized), {{.*}} (same)
// EXPR: func @merge_rows at T=2,S=1: 10 unfused launches, 2 fused (2 when specialized), {{.*}} (same)
// EXPR: func @pad_and_join at T=130,S=100: 9 unfused launches, 1 fused (1 when specialized), {{.*}} (same)
// EXPR-NOT: MISMATCH
// ROWS-NOT: MISMATCH
// ROWS-COUNT-12: func @{{.*}} at T={{[0-9]+}}: {{[0-9]+}} unfused launches, 1 fused ({{[0-9]+}} when specialized), {{.*}} (same)
// ROWS-NOT: MISMATCH
// UNBOUND: xtile-loop-check: the module has dynamic sizes: give bindings to check it at (--dims T=7)

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

// Softmax attention over T keys: scores, a softmax along T, the weighted
// sum over T (a fold to T), reshapes across the heads.
func.func @attention(%q: tensor<2x4x16xf32>, %k: tensor<2x?x16xf32, #T>, %v: tensor<1x2x?x16xf32, #T>) -> tensor<4x32xf32>
    attributes {xtensor.symbols = {T = array<i64: 1, 4096>}} {
  %kt = xtensor.transpose %k perm [0, 2, 1] : tensor<2x?x16xf32, #T> -> tensor<2x16x?xf32, #T>
  %s = xtensor.matmul %q, %kt : tensor<2x4x16xf32>, tensor<2x16x?xf32, #T> -> tensor<2x4x?xf32, #T>
  %p = xtensor.softmax %s dim 2 : tensor<2x4x?xf32, #T>
  %vv = xtensor.reshape %v : tensor<1x2x?x16xf32, #T> -> tensor<2x?x16xf32, #T>
  %o = xtensor.matmul %p, %vv : tensor<2x4x?xf32, #T>, tensor<2x?x16xf32, #T> -> tensor<2x4x16xf32>
  %t = xtensor.transpose %o perm [1, 0, 2] : tensor<2x4x16xf32> -> tensor<4x2x16xf32>
  %r = xtensor.reshape %t : tensor<4x2x16xf32> -> tensor<4x32xf32>
  return %r : tensor<4x32xf32>
}
