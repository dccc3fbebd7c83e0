// RUN: xtile-opt %s --xtensor-specialize-dims="sizes=T=7" | FileCheck %s
// RUN: xtile-opt %s --xtensor-specialize-dims="sizes=T=1,S=4096" | FileCheck %s --check-prefix=BOTH
// RUN: not xtile-opt %s --xtensor-specialize-dims="sizes=T=5000" 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not xtile-opt %s --xtensor-specialize-dims="sizes=U=3" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not xtile-opt %s --xtensor-specialize-dims="sizes=T" 2>&1 | FileCheck %s --check-prefix=SYNTAX

// Binding dynamic sizes: every type of the function takes the size, slices
// that keep the dimension whole get it as their limit, and the binding
// leaves the declaration. Symbols not bound stay dynamic.

#T = #xtensor.dims<T>
#TS = #xtensor.dims<T, S>

// CHECK-LABEL: func.func @norm(%{{.*}}: tensor<7x64xf32>, %{{.*}}: tensor<64xf32>) -> (tensor<7x64xf32>, tensor<7x32xf32>) {
// CHECK: xtensor.rms_norm %{{.*}} weight %{{.*}} eps {{.*}} : (tensor<7x64xf32>, tensor<64xf32>) -> tensor<7x64xf32>
// CHECK: xtensor.slice %{{.*}} starts [0, 32] limits [7, 64] strides [1, 1] : tensor<7x64xf32> -> tensor<7x32xf32>
// BOTH-LABEL: func.func @norm(%{{.*}}: tensor<1x64xf32>
func.func @norm(%x: tensor<?x64xf32, #T>, %w: tensor<64xf32>)
    -> (tensor<?x64xf32, #T>, tensor<?x32xf32, #T>)
    attributes {xtensor.symbols = {T = array<i64: 1, 4096>}} {
  %y = xtensor.rms_norm %x weight %w eps 1.0e-6
      : (tensor<?x64xf32, #T>, tensor<64xf32>) -> tensor<?x64xf32, #T>
  %h = xtensor.slice %y starts [0, 32] limits [-1, 64] strides [1, 1]
      : tensor<?x64xf32, #T> -> tensor<?x32xf32, #T>
  return %y, %h : tensor<?x64xf32, #T>, tensor<?x32xf32, #T>
}

// CHECK-LABEL: func.func @scores(%{{.*}}: tensor<7x16xf32>, %{{.*}}: tensor<16x?xf32, #xtensor.dims<S>>) -> tensor<7x?xf32, #xtensor.dims<S>>
// CHECK-SAME: attributes {xtensor.symbols = {S = array<i64: 1, 8192>}}
// CHECK: xtensor.matmul %{{.*}}, %{{.*}} : tensor<7x16xf32>, tensor<16x?xf32, #xtensor.dims<S>> -> tensor<7x?xf32, #xtensor.dims<S>>
// CHECK: xtensor.softmax %{{.*}} dim 1 : tensor<7x?xf32, #xtensor.dims<S>>
// BOTH-LABEL: func.func @scores(%{{.*}}: tensor<1x16xf32>, %{{.*}}: tensor<16x4096xf32>) -> tensor<1x4096xf32> {
// BOTH: xtensor.softmax %{{.*}} dim 1 : tensor<1x4096xf32>
func.func @scores(%q: tensor<?x16xf32, #T>, %k: tensor<16x?xf32, #xtensor.dims<S>>)
    -> tensor<?x?xf32, #TS>
    attributes {xtensor.symbols = {T = array<i64: 1, 4096>, S = array<i64: 1, 8192>}} {
  %s = xtensor.matmul %q, %k : tensor<?x16xf32, #T>, tensor<16x?xf32, #xtensor.dims<S>> -> tensor<?x?xf32, #TS>
  %p = xtensor.softmax %s dim 1 : tensor<?x?xf32, #TS>
  return %p : tensor<?x?xf32, #TS>
}

// RANGE: error: size 5000 of 'T' is outside its declared range [1, 4096]
// UNKNOWN: error: --xtensor-specialize-dims: no function declares the symbol 'U'
// SYNTAX: error: --xtensor-specialize-dims: binding 'T' must be SYMBOL=SIZE

// Size expressions take the values of the symbols bound: a number once
// every symbol is bound, else an expression of those left. A slice's limit
// counted from the end of a dynamic size becomes a number with it.
// CHECK-LABEL: func.func @expressions(%{{.*}}: tensor<7x8xf32>, %{{.*}}: tensor<?x8xf32, #xtensor.dims<S>>) -> (tensor<13x8xf32>, tensor<?x8xf32, #xtensor.dims<"S + 7">>)
// CHECK: xtensor.concat %{{.*}}, %{{.*}} dim 0 : tensor<7x8xf32>, tensor<7x8xf32> -> tensor<14x8xf32>
// CHECK: xtensor.slice %{{.*}} starts [1, 0] limits [14, 8] strides [1, 1] : tensor<14x8xf32> -> tensor<13x8xf32>
// CHECK: xtensor.concat %{{.*}}, %{{.*}} dim 0 : tensor<?x8xf32, #xtensor.dims<S>>, tensor<7x8xf32> -> tensor<?x8xf32, #xtensor.dims<"S + 7">>
// BOTH-LABEL: func.func @expressions(%{{.*}}: tensor<1x8xf32>, %{{.*}}: tensor<4096x8xf32>) -> (tensor<1x8xf32>, tensor<4097x8xf32>) {
func.func @expressions(%x: tensor<?x8xf32, #T>, %y: tensor<?x8xf32, #xtensor.dims<S>>)
    -> (tensor<?x8xf32, #xtensor.dims<"2*T - 1">>, tensor<?x8xf32, #xtensor.dims<"S + T">>)
    attributes {xtensor.symbols = {T = array<i64: 1, 4096>, S = array<i64: 1, 8192>}} {
  %c = xtensor.concat %x, %x dim 0
      : tensor<?x8xf32, #T>, tensor<?x8xf32, #T> -> tensor<?x8xf32, #xtensor.dims<"2*T">>
  %a = xtensor.slice %c starts [1, 0] limits [-1, 8] strides [1, 1]
      : tensor<?x8xf32, #xtensor.dims<"2*T">> -> tensor<?x8xf32, #xtensor.dims<"2*T - 1">>
  %b = xtensor.concat %y, %x dim 0
      : tensor<?x8xf32, #xtensor.dims<S>>, tensor<?x8xf32, #T> -> tensor<?x8xf32, #xtensor.dims<"S + T">>
  return %a, %b : tensor<?x8xf32, #xtensor.dims<"2*T - 1">>, tensor<?x8xf32, #xtensor.dims<"S + T">>
}
