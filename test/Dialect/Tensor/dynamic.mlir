// RUN: xtile-opt %s | FileCheck %s
// RUN: xtile-opt %s | xtile-opt | FileCheck %s
// RUN: xtile-opt %s --mlir-print-op-generic | xtile-opt | FileCheck %s

// Dynamic sizes: each `?` is named by a symbol of the type's #xtensor.dims
// encoding, bound by an argument and declared with its range in the
// function's xtensor.symbols. Result types are inferred with the symbols
// carried through.

#T = #xtensor.dims<T>
#TS = #xtensor.dims<T, S>
#BT = #xtensor.dims<B, T>

// CHECK-LABEL: func.func @elementwise
// CHECK-SAME: (%[[X:.*]]: tensor<?x64xf32, #xtensor.dims<T>>, %[[M:.*]]: tensor<?x64xi1, #xtensor.dims<T>>)
// CHECK-SAME: attributes {xtensor.symbols = {T = array<i64: 1, 4096>}}
// CHECK-NEXT: %[[A:.*]] = xtensor.add %[[X]], %[[X]] : tensor<?x64xf32, #xtensor.dims<T>>
// CHECK-NEXT: %[[E:.*]] = xtensor.exp %[[A]] : tensor<?x64xf32, #xtensor.dims<T>>
// CHECK-NEXT: %[[C:.*]] = xtensor.cmp lt, %[[E]], %[[X]] : tensor<?x64xf32, #xtensor.dims<T>>
// CHECK-NEXT: %[[S:.*]] = xtensor.select %[[M]], %[[E]], %[[X]] : tensor<?x64xf32, #xtensor.dims<T>>
// CHECK-NEXT: %[[H:.*]] = xtensor.cast %[[S]] : tensor<?x64xf32, #xtensor.dims<T>> -> tensor<?x64xbf16, #xtensor.dims<T>>
func.func @elementwise(%x: tensor<?x64xf32, #T>, %m: tensor<?x64xi1, #T>)
    -> (tensor<?x64xbf16, #T>, tensor<?x64xi1, #T>)
    attributes {xtensor.symbols = {T = array<i64: 1, 4096>}} {
  %0 = xtensor.add %x, %x : tensor<?x64xf32, #T>
  %1 = xtensor.exp %0 : tensor<?x64xf32, #T>
  %2 = xtensor.cmp lt, %1, %x : tensor<?x64xf32, #T>
  %3 = xtensor.select %m, %1, %x : tensor<?x64xf32, #T>
  %4 = xtensor.cast %3 : tensor<?x64xf32, #T> -> tensor<?x64xbf16, #T>
  return %4, %2 : tensor<?x64xbf16, #T>, tensor<?x64xi1, #T>
}

// CHECK-LABEL: func.func @movement
// CHECK: xtensor.reduce max %{{.*}} dims [1] keepdim : tensor<?x64xf32, #xtensor.dims<T>> -> tensor<?x1xf32, #xtensor.dims<T>>
// CHECK: xtensor.reduce sum %{{.*}} dims [0] : tensor<?x64xf32, #xtensor.dims<T>> -> tensor<64xf32>
// CHECK: xtensor.broadcast %{{.*}} : tensor<64xf32> -> tensor<?x64xf32, #xtensor.dims<T>>
// CHECK: xtensor.broadcast %{{.*}} : tensor<1x1xf32> -> tensor<?x1xf32, #xtensor.dims<T>>
// CHECK: xtensor.transpose %{{.*}} perm [1, 0] : tensor<?x64xf32, #xtensor.dims<T>> -> tensor<64x?xf32, #xtensor.dims<T>>
// CHECK: xtensor.reshape %{{.*}} : tensor<?x64xf32, #xtensor.dims<T>> -> tensor<?x4x16xf32, #xtensor.dims<T>>
// CHECK: xtensor.reshape %{{.*}} : tensor<?x64xf32, #xtensor.dims<T>> -> tensor<1x?x2x32xf32, #xtensor.dims<T>>
// CHECK: xtensor.slice %{{.*}} starts [0, 32] limits [-1, 64] strides [1, 1] : tensor<?x64xf32, #xtensor.dims<T>> -> tensor<?x32xf32, #xtensor.dims<T>>
// CHECK: xtensor.pad %{{.*}} low [0, 1] high [0, 2] value 0.000000e+00 : f32 : tensor<?x64xf32, #xtensor.dims<T>> -> tensor<?x67xf32, #xtensor.dims<T>>
// CHECK: xtensor.concat %{{.*}}, %{{.*}} dim 1 : tensor<?x64xf32, #xtensor.dims<T>>, tensor<?x64xf32, #xtensor.dims<T>> -> tensor<?x128xf32, #xtensor.dims<T>>
// CHECK: xtensor.iota dim 0 : tensor<?x64xi32, #xtensor.dims<T>>
func.func @movement(%x: tensor<?x64xf32, #T>)
    -> (tensor<?x1xf32, #T>, tensor<64xf32>, tensor<?x64xf32, #T>,
        tensor<?x1xf32, #T>, tensor<64x?xf32, #T>, tensor<?x4x16xf32, #T>,
        tensor<1x?x2x32xf32, #T>, tensor<?x32xf32, #T>, tensor<?x67xf32, #T>,
        tensor<?x128xf32, #T>, tensor<?x64xi32, #T>)
    attributes {xtensor.symbols = {T = array<i64: 1, 4096>}} {
  %0 = xtensor.reduce max %x dims [1] keepdim : tensor<?x64xf32, #T> -> tensor<?x1xf32, #T>
  %1 = xtensor.reduce sum %x dims [0] : tensor<?x64xf32, #T> -> tensor<64xf32>
  %2 = xtensor.broadcast %1 : tensor<64xf32> -> tensor<?x64xf32, #T>
  %c = xtensor.constant dense<1.0> : tensor<1x1xf32>
  %3 = xtensor.broadcast %c : tensor<1x1xf32> -> tensor<?x1xf32, #T>
  %4 = xtensor.transpose %x perm [1, 0] : tensor<?x64xf32, #T> -> tensor<64x?xf32, #T>
  %5 = xtensor.reshape %x : tensor<?x64xf32, #T> -> tensor<?x4x16xf32, #T>
  %6 = xtensor.reshape %x : tensor<?x64xf32, #T> -> tensor<1x?x2x32xf32, #T>
  %7 = xtensor.slice %x starts [0, 32] limits [-1, 64] strides [1, 1]
      : tensor<?x64xf32, #T> -> tensor<?x32xf32, #T>
  %8 = xtensor.pad %x low [0, 1] high [0, 2] value 0.0 : f32
      : tensor<?x64xf32, #T> -> tensor<?x67xf32, #T>
  %9 = xtensor.concat %x, %2 dim 1
      : tensor<?x64xf32, #T>, tensor<?x64xf32, #T> -> tensor<?x128xf32, #T>
  %10 = xtensor.iota dim 0 : tensor<?x64xi32, #T>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10
      : tensor<?x1xf32, #T>, tensor<64xf32>, tensor<?x64xf32, #T>,
        tensor<?x1xf32, #T>, tensor<64x?xf32, #T>, tensor<?x4x16xf32, #T>,
        tensor<1x?x2x32xf32, #T>, tensor<?x32xf32, #T>, tensor<?x67xf32, #T>,
        tensor<?x128xf32, #T>, tensor<?x64xi32, #T>
}

// Two symbols: the scores of a batch of queries (T) against keys (S); a
// gather with dynamic ids.
// CHECK-LABEL: func.func @two_symbols
// CHECK-SAME: attributes {xtensor.symbols = {S = array<i64: 1, 8192>, T = array<i64: 1, 512>}}
// CHECK: xtensor.matmul %{{.*}}, %{{.*}} : tensor<?x64xf16, #xtensor.dims<T>>, tensor<64x?xf16, #xtensor.dims<S>> -> tensor<?x?xf32, #xtensor.dims<T, S>>
// CHECK: xtensor.softmax %{{.*}} dim 1 : tensor<?x?xf32, #xtensor.dims<T, S>>
// CHECK: xtensor.matmul %{{.*}}, %{{.*}} : tensor<?x?xf32, #xtensor.dims<T, S>>, tensor<?x64xf32, #xtensor.dims<S>> -> tensor<?x64xf32, #xtensor.dims<T>>
// CHECK: xtensor.gather %{{.*}}[%{{.*}}] axis 0 : tensor<1000x64xf32>, tensor<?xi64, #xtensor.dims<T>> -> tensor<?x64xf32, #xtensor.dims<T>>
func.func @two_symbols(%q: tensor<?x64xf16, #T>, %kt: tensor<64x?xf16, #xtensor.dims<S>>,
                       %v: tensor<?x64xf32, #xtensor.dims<S>>,
                       %table: tensor<1000x64xf32>, %ids: tensor<?xi64, #T>)
    -> (tensor<?x64xf32, #T>, tensor<?x64xf32, #T>)
    attributes {xtensor.symbols = {T = array<i64: 1, 512>, S = array<i64: 1, 8192>}} {
  %s = xtensor.matmul %q, %kt : tensor<?x64xf16, #T>, tensor<64x?xf16, #xtensor.dims<S>> -> tensor<?x?xf32, #TS>
  %p = xtensor.softmax %s dim 1 : tensor<?x?xf32, #TS>
  %o = xtensor.matmul %p, %v : tensor<?x?xf32, #TS>, tensor<?x64xf32, #xtensor.dims<S>> -> tensor<?x64xf32, #T>
  %e = xtensor.gather %table[%ids] axis 0 : tensor<1000x64xf32>, tensor<?xi64, #T> -> tensor<?x64xf32, #T>
  return %o, %e : tensor<?x64xf32, #T>, tensor<?x64xf32, #T>
}

// Composites over static trailing dimensions of dynamic tensors.
// CHECK-LABEL: func.func @composites
// CHECK: xtensor.rms_norm %{{.*}} weight %{{.*}} eps {{.*}} : (tensor<?x?x64xf32, #xtensor.dims<B, T>>, tensor<64xf32>) -> tensor<?x?x64xf32, #xtensor.dims<B, T>>
// CHECK: xtensor.layer_norm %{{.*}} weight %{{.*}} bias %{{.*}} eps {{.*}} : (tensor<?x?x64xf32, #xtensor.dims<B, T>>, tensor<64xf32>, tensor<64xf32>) -> tensor<?x?x64xf32, #xtensor.dims<B, T>>
// CHECK: xtensor.gelu tanh %{{.*}} : tensor<?x?x64xf32, #xtensor.dims<B, T>>
// CHECK: xtensor.mean %{{.*}} dims [2] keepdim : tensor<?x?x64xf32, #xtensor.dims<B, T>> -> tensor<?x?x1xf32, #xtensor.dims<B, T>>
// CHECK: xtensor.linear %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x?x64xf32, #xtensor.dims<T>>, tensor<32x64xf32>, tensor<32xf32>) -> tensor<1x?x32xf32, #xtensor.dims<T>>
func.func @composites(%x: tensor<?x?x64xf32, #BT>, %w: tensor<64xf32>,
                      %b: tensor<64xf32>, %y: tensor<1x?x64xf32, #T>,
                      %lw: tensor<32x64xf32>, %lb: tensor<32xf32>)
    -> (tensor<?x?x64xf32, #BT>, tensor<?x?x64xf32, #BT>, tensor<?x?x64xf32, #BT>,
        tensor<?x?x1xf32, #BT>, tensor<1x?x32xf32, #T>)
    attributes {xtensor.symbols = {B = array<i64: 1, 64>, T = array<i64: 1, 2048>}} {
  %0 = xtensor.rms_norm %x weight %w eps 1.0e-6
      : (tensor<?x?x64xf32, #BT>, tensor<64xf32>) -> tensor<?x?x64xf32, #BT>
  %1 = xtensor.layer_norm %x weight %w bias %b eps 1.0e-5
      : (tensor<?x?x64xf32, #BT>, tensor<64xf32>, tensor<64xf32>) -> tensor<?x?x64xf32, #BT>
  %2 = xtensor.gelu tanh %x : tensor<?x?x64xf32, #BT>
  %3 = xtensor.mean %x dims [2] keepdim : tensor<?x?x64xf32, #BT> -> tensor<?x?x1xf32, #BT>
  %4 = xtensor.linear %y, %lw, %lb
      : (tensor<1x?x64xf32, #T>, tensor<32x64xf32>, tensor<32xf32>) -> tensor<1x?x32xf32, #T>
  return %0, %1, %2, %3, %4
      : tensor<?x?x64xf32, #BT>, tensor<?x?x64xf32, #BT>, tensor<?x?x64xf32, #BT>,
        tensor<?x?x1xf32, #BT>, tensor<1x?x32xf32, #T>
}

// Size expressions: a concatenation, a slice or a padding along a dynamic
// size makes a size that is an expression of symbols, named by its
// canonical text (terms in the order of their symbols, the number last).
// A slice's limit along a dynamic size is counted from its end (-1 is the
// end, -2 one before it). Equal expressions are equal sizes: x[1:] - x[:-1]
// is an elementwise op over T - 1.
// CHECK-LABEL: func.func @size_expressions
// CHECK: xtensor.concat %{{.*}}, %{{.*}} dim 0 : tensor<?x64xf32, #xtensor.dims<T>>, tensor<1x64xf32> -> tensor<?x64xf32, #xtensor.dims<"T + 1">>
// CHECK: xtensor.slice %{{.*}} starts [1, 0] limits [-1, 64] strides [1, 1] : tensor<?x64xf32, #xtensor.dims<T>> -> tensor<?x64xf32, #xtensor.dims<"T - 1">>
// CHECK: xtensor.slice %{{.*}} starts [0, 0] limits [-2, 64] strides [1, 1] : tensor<?x64xf32, #xtensor.dims<T>> -> tensor<?x64xf32, #xtensor.dims<"T - 1">>
// CHECK: xtensor.sub %{{.*}}, %{{.*}} : tensor<?x64xf32, #xtensor.dims<"T - 1">>
// CHECK: xtensor.pad %{{.*}} low [1, 0] high [2, 0] value {{.*}} : tensor<?x64xf32, #xtensor.dims<T>> -> tensor<?x64xf32, #xtensor.dims<"T + 3">>
// CHECK: xtensor.concat %{{.*}}, %{{.*}}, %{{.*}} dim 0 : tensor<?x64xf32, #xtensor.dims<"T + 3">>, tensor<?x64xf32, #xtensor.dims<S>>, tensor<?x64xf32, #xtensor.dims<T>> -> tensor<?x64xf32, #xtensor.dims<"S + 2*T + 3">>
func.func @size_expressions(%x: tensor<?x64xf32, #T>, %new: tensor<1x64xf32>,
                            %y: tensor<?x64xf32, #xtensor.dims<S>>)
    -> (tensor<?x64xf32, #xtensor.dims<"T + 1">>, tensor<?x64xf32, #xtensor.dims<"T - 1">>,
        tensor<?x64xf32, #xtensor.dims<"S + 2*T + 3">>)
    attributes {xtensor.symbols = {S = array<i64: 1, 100>, T = array<i64: 2, 4096>}} {
  %0 = xtensor.concat %x, %new dim 0 : tensor<?x64xf32, #T>, tensor<1x64xf32> -> tensor<?x64xf32, #xtensor.dims<"T + 1">>
  %a = xtensor.slice %x starts [1, 0] limits [-1, 64] strides [1, 1] : tensor<?x64xf32, #T> -> tensor<?x64xf32, #xtensor.dims<"T - 1">>
  %b = xtensor.slice %x starts [0, 0] limits [-2, 64] strides [1, 1] : tensor<?x64xf32, #T> -> tensor<?x64xf32, #xtensor.dims<"T - 1">>
  %1 = xtensor.sub %a, %b : tensor<?x64xf32, #xtensor.dims<"T - 1">>
  %p = xtensor.pad %x low [1, 0] high [2, 0] value 0.0 : f32 : tensor<?x64xf32, #T> -> tensor<?x64xf32, #xtensor.dims<"T + 3">>
  %2 = xtensor.concat %p, %y, %x dim 0 : tensor<?x64xf32, #xtensor.dims<"T + 3">>, tensor<?x64xf32, #xtensor.dims<S>>, tensor<?x64xf32, #T> -> tensor<?x64xf32, #xtensor.dims<"S + 2*T + 3">>
  return %0, %1, %2 : tensor<?x64xf32, #xtensor.dims<"T + 1">>, tensor<?x64xf32, #xtensor.dims<"T - 1">>, tensor<?x64xf32, #xtensor.dims<"S + 2*T + 3">>
}

// A reshape that merges or splits a dynamic size keeps the element count,
// a product of sizes: [B, T, 64] is [B*T, 64] rows, [T, 8] is [8*T], and
// [T, 4] can be read as [4, T] (row-major, not a transpose).
// CHECK-LABEL: func.func @reshape_expressions
// CHECK: xtensor.reshape %{{.*}} : tensor<?x?x64xf32, #xtensor.dims<B, T>> -> tensor<?x64xf32, #xtensor.dims<"B*T">>
// CHECK: xtensor.reshape %{{.*}} : tensor<?x8xf32, #xtensor.dims<T>> -> tensor<?xf32, #xtensor.dims<"8*T">>
// CHECK: xtensor.reshape %{{.*}} : tensor<?x4xf32, #xtensor.dims<T>> -> tensor<4x?xf32, #xtensor.dims<T>>
func.func @reshape_expressions(%x: tensor<?x?x64xf32, #BT>, %y: tensor<?x8xf32, #T>,
                               %z: tensor<?x4xf32, #T>)
    -> (tensor<?x64xf32, #xtensor.dims<"B*T">>, tensor<?xf32, #xtensor.dims<"8*T">>,
        tensor<4x?xf32, #T>)
    attributes {xtensor.symbols = {B = array<i64: 1, 64>, T = array<i64: 1, 2048>}} {
  %0 = xtensor.reshape %x : tensor<?x?x64xf32, #BT> -> tensor<?x64xf32, #xtensor.dims<"B*T">>
  %1 = xtensor.reshape %y : tensor<?x8xf32, #T> -> tensor<?xf32, #xtensor.dims<"8*T">>
  %2 = xtensor.reshape %z : tensor<?x4xf32, #T> -> tensor<4x?xf32, #T>
  return %0, %1, %2 : tensor<?x64xf32, #xtensor.dims<"B*T">>, tensor<?xf32, #xtensor.dims<"8*T">>, tensor<4x?xf32, #T>
}
