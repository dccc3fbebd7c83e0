// RUN: xtile-opt %s -split-input-file -verify-diagnostics

// Dynamic sizes that the type system rejects, each with a message naming
// the symbols involved.

#T = #xtensor.dims<T>
#S = #xtensor.dims<S>

// Different symbols are different sizes.
func.func @add_mismatched_symbols(%a: tensor<?x4xf32, #T>, %b: tensor<?x4xf32, #S>) -> tensor<?x4xf32, #T>
    attributes {xtensor.symbols = {T = array<i64: 1, 8>, S = array<i64: 1, 8>}} {
  // expected-error @+1 {{'xtensor.add' op operand 'rhs' ('tensor<?x4xf32, #xtensor.dims<S>>') and operand 'lhs' ('tensor<?x4xf32, #xtensor.dims<T>>') must have the same shape}}
  %0 = "xtensor.add"(%a, %b) : (tensor<?x4xf32, #T>, tensor<?x4xf32, #S>) -> tensor<?x4xf32, #T>
  return %0 : tensor<?x4xf32, #T>
}

// -----

#T = #xtensor.dims<T>
#S = #xtensor.dims<S>
func.func @matmul_contracts_different_symbols(%a: tensor<4x?xf32, #T>, %b: tensor<?x4xf32, #S>) -> tensor<4x4xf32>
    attributes {xtensor.symbols = {T = array<i64: 1, 8>, S = array<i64: 1, 8>}} {
  // expected-error @+2 {{'xtensor.matmul' op contracted dimensions differ: T vs S}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.matmul %a, %b : tensor<4x?xf32, #T>, tensor<?x4xf32, #S> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// A dynamic size needs a symbol.
func.func @unnamed(%a: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'xtensor.neg' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer values whose dynamic sizes are named (#xtensor.dims), but got 'tensor<?xf32>'}}
  %0 = xtensor.neg %a : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// One symbol per dynamic size.
func.func @too_few_symbols(%a: tensor<?x?xf32, #xtensor.dims<T>>) -> tensor<?x?xf32, #xtensor.dims<T>>
    attributes {xtensor.symbols = {T = array<i64: 1, 8>}} {
  // expected-error @+1 {{must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer values whose dynamic sizes are named (#xtensor.dims), but got 'tensor<?x?xf32, #xtensor.dims<T>>'}}
  %0 = xtensor.neg %a : tensor<?x?xf32, #xtensor.dims<T>>
  return %0 : tensor<?x?xf32, #xtensor.dims<T>>
}

// -----

func.func @static_with_symbols(%a: tensor<4xf32, #xtensor.dims<T>>) -> tensor<4xf32, #xtensor.dims<T>> {
  // expected-error @+1 {{but got 'tensor<4xf32, #xtensor.dims<T>>'}}
  %0 = xtensor.neg %a : tensor<4xf32, #xtensor.dims<T>>
  return %0 : tensor<4xf32, #xtensor.dims<T>>
}

// -----

// expected-error @+1 {{#xtensor.dims needs at least one symbol}}
func.func @no_symbols(%a: tensor<?xf32, #xtensor.dims<>>)

// -----

// Every symbol is declared with its range.
func.func @undeclared(%a: tensor<?xf32, #xtensor.dims<T>>) -> tensor<?xf32, #xtensor.dims<T>> {
  // expected-error @+1 {{'xtensor.neg' op dynamic size 'T' of 'tensor<?xf32, #xtensor.dims<T>>' is not declared in the enclosing function's 'xtensor.symbols' (with its range)}}
  %0 = xtensor.neg %a : tensor<?xf32, #xtensor.dims<T>>
  return %0 : tensor<?xf32, #xtensor.dims<T>>
}

// -----

// expected-error @+1 {{symbol 'S' is declared but no argument has a size named by it}}
func.func @unbound(%a: tensor<4xf32>) -> tensor<4xf32>
    attributes {xtensor.symbols = {S = array<i64: 1, 8>}} {
  return %a : tensor<4xf32>
}

// -----

// expected-error @+1 {{symbol 'T' needs a range array<i64: min, max> with 1 <= min <= max}}
func.func @empty_range(%a: tensor<?xf32, #xtensor.dims<T>>)
    attributes {xtensor.symbols = {T = array<i64: 9, 8>}} {
  return
}

// -----

// expected-error @+1 {{symbol 'T' needs a range array<i64: min, max> with 1 <= min <= max}}
func.func @range_not_a_pair(%a: tensor<?xf32, #xtensor.dims<T>>)
    attributes {xtensor.symbols = {T = 8 : i64}} {
  return
}

// -----

// expected-error @+1 {{'xtensor.symbols' must be a dictionary {SYMBOL = array<i64: min, max>}}}
func.func @symbols_not_a_dictionary(%a: tensor<?xf32, #xtensor.dims<T>>)
    attributes {xtensor.symbols = ["T"]} {
  return
}

// -----

// expected-error @+1 {{'xtensor.symbols' belongs on a func.func}}
module attributes {xtensor.symbols = {}} {
}

// -----

// expected-error @+1 {{unknown xtensor attribute 'xtensor.sizes'}}
func.func @unknown_attribute() attributes {xtensor.sizes = {}} {
  return
}

// -----

#T = #xtensor.dims<T>
#S = #xtensor.dims<S>
func.func @broadcast_to_another_symbol(%a: tensor<?x1xf32, #T>, %b: tensor<?xf32, #S>) -> tensor<?x4xf32, #S>
    attributes {xtensor.symbols = {T = array<i64: 1, 8>, S = array<i64: 1, 8>}} {
  // expected-error @+1 {{'xtensor.broadcast' op cannot broadcast 'tensor<?x1xf32, #xtensor.dims<T>>' to 'tensor<?x4xf32, #xtensor.dims<S>>': operand dimension 0 (size T) must be 1 or S}}
  %0 = xtensor.broadcast %a : tensor<?x1xf32, #T> -> tensor<?x4xf32, #S>
  return %0 : tensor<?x4xf32, #S>
}

// -----

// A reshape keeps the element count: [T, 4] to [4, S] does not.
#T = #xtensor.dims<T>
func.func @reshape_to_another_size(%a: tensor<?x4xf32, #T>, %b: tensor<?xf32, #xtensor.dims<S>>) -> tensor<4x?xf32, #xtensor.dims<S>>
    attributes {xtensor.symbols = {T = array<i64: 1, 8>, S = array<i64: 1, 8>}} {
  // expected-error @+1 {{'xtensor.reshape' op cannot reshape 'tensor<?x4xf32, #xtensor.dims<T>>' to 'tensor<4x?xf32, #xtensor.dims<S>>': the element counts 4*T and 4*S differ (a reshape that keeps each dynamic size whole regroups only the static sizes between them; one that merges or splits one keeps the count)}}
  %0 = xtensor.reshape %a : tensor<?x4xf32, #T> -> tensor<4x?xf32, #xtensor.dims<S>>
  return %0 : tensor<4x?xf32, #xtensor.dims<S>>
}

// -----

#T = #xtensor.dims<T>
func.func @reshape_merges_a_dynamic_size(%a: tensor<?x4xf32, #T>) -> tensor<?xf32, #T>
    attributes {xtensor.symbols = {T = array<i64: 1, 8>}} {
  // expected-error @+1 {{the element counts 4*T and T differ}}
  %0 = xtensor.reshape %a : tensor<?x4xf32, #T> -> tensor<?xf32, #T>
  return %0 : tensor<?xf32, #T>
}

// -----

#T = #xtensor.dims<T>
func.func @slice_of_a_dynamic_size(%a: tensor<?x4xf32, #T>) -> tensor<2x4xf32>
    attributes {xtensor.symbols = {T = array<i64: 1, 8>}} {
  // expected-error @+2 {{'xtensor.slice' op dimension 0 of tensor<?x4xf32, #xtensor.dims<T>> has the dynamic size T: a slice of it takes stride 1 from a start of 0 or more to a limit counted from its end (-1 is the end)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.slice %a starts [0, 0] limits [2, 4] strides [1, 1] : tensor<?x4xf32, #T> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

#T = #xtensor.dims<T>
func.func @strided_slice_of_a_dynamic_size(%a: tensor<?x4xf32, #T>) -> tensor<?x4xf32, #T>
    attributes {xtensor.symbols = {T = array<i64: 1, 8>}} {
  // expected-error @+2 {{a slice of it takes stride 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.slice %a starts [0, 0] limits [-1, 4] strides [2, 1] : tensor<?x4xf32, #T> -> tensor<?x4xf32, #T>
  return %0 : tensor<?x4xf32, #T>
}

// -----

// T - 1 is 0 where T is 1: a size expression is at least 1 over the ranges.
#T = #xtensor.dims<T>
func.func @slice_to_nothing(%a: tensor<?x4xf32, #T>) -> tensor<?x4xf32, #xtensor.dims<"T - 1">>
    attributes {xtensor.symbols = {T = array<i64: 1, 8>}} {
  // expected-error @+1 {{'xtensor.slice' op dynamic size 'T - 1' of 'tensor<?x4xf32, #xtensor.dims<"T - 1">>' is 0 at the least of its symbols' declared ranges; a size must be at least 1 (narrow the ranges)}}
  %0 = xtensor.slice %a starts [1, 0] limits [-1, 4] strides [1, 1] : tensor<?x4xf32, #T> -> tensor<?x4xf32, #xtensor.dims<"T - 1">>
  return %0 : tensor<?x4xf32, #xtensor.dims<"T - 1">>
}

// -----

// A size expression is written in canonical form, so that equal sizes have
// one name.
func.func @expression_not_canonical(%a: tensor<?x4xf32, #xtensor.dims<T>>, %b: tensor<?x4xf32, #xtensor.dims<"1 + T">>) -> tensor<?x4xf32, #xtensor.dims<"1 + T">>
    attributes {xtensor.symbols = {T = array<i64: 1, 8>}} {
  // expected-error @+1 {{'xtensor.exp' op dynamic size '1 + T' of 'tensor<?x4xf32, #xtensor.dims<"1 + T">>' is an expression not in canonical form: write it 'T + 1'}}
  %0 = xtensor.exp %b : tensor<?x4xf32, #xtensor.dims<"1 + T">>
  return %0 : tensor<?x4xf32, #xtensor.dims<"1 + T">>
}

// -----

func.func @expression_of_an_undeclared_symbol(%a: tensor<?x4xf32, #xtensor.dims<T>>, %b: tensor<?x4xf32, #xtensor.dims<"S + T">>) -> tensor<?x4xf32, #xtensor.dims<"S + T">>
    attributes {xtensor.symbols = {T = array<i64: 1, 8>}} {
  // expected-error @+1 {{'xtensor.exp' op dynamic size 'S + T' of 'tensor<?x4xf32, #xtensor.dims<"S + T">>' names 'S', which the enclosing function's 'xtensor.symbols' does not declare}}
  %0 = xtensor.exp %b : tensor<?x4xf32, #xtensor.dims<"S + T">>
  return %0 : tensor<?x4xf32, #xtensor.dims<"S + T">>
}

// -----

func.func @expression_overflows(%a: tensor<?x4xf32, #xtensor.dims<T>>, %b: tensor<?x4xf32, #xtensor.dims<"T*T*T">>) -> tensor<?x4xf32, #xtensor.dims<"T*T*T">>
    attributes {xtensor.symbols = {T = array<i64: 1, 4000000000>}} {
  // expected-error @+1 {{'xtensor.exp' op dynamic size 'T*T*T' of 'tensor<?x4xf32, #xtensor.dims<"T*T*T">>' does not fit in 64 bits over its symbols' declared ranges}}
  %0 = xtensor.exp %b : tensor<?x4xf32, #xtensor.dims<"T*T*T">>
  return %0 : tensor<?x4xf32, #xtensor.dims<"T*T*T">>
}

// -----

// A name that is not an expression of symbols (not an identifier) cannot be
// concatenated along: its sum has no name.
func.func @concat_along_a_size_named_otherwise(%a: tensor<?x4xf32, #xtensor.dims<"T?">>) -> tensor<?x4xf32, #xtensor.dims<"T?">>
    attributes {xtensor.symbols = {"T?" = array<i64: 1, 8>}} {
  // expected-error @+2 {{'xtensor.concat' op concatenation along dimension 0 of tensor<?x4xf32, #xtensor.dims<"T?">>, of dynamic size T?, which is not a size expression, is not supported}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.concat %a, %a dim 0 : tensor<?x4xf32, #xtensor.dims<"T?">>, tensor<?x4xf32, #xtensor.dims<"T?">> -> tensor<?x4xf32, #xtensor.dims<"T?">>
  return %0 : tensor<?x4xf32, #xtensor.dims<"T?">>
}

// -----

func.func @slice_along_a_size_named_otherwise(%a: tensor<?x4xf32, #xtensor.dims<"T?">>) -> tensor<?x4xf32, #xtensor.dims<"T?">>
    attributes {xtensor.symbols = {"T?" = array<i64: 2, 8>}} {
  // expected-error @+2 {{'xtensor.slice' op slice along dimension 0 of tensor<?x4xf32, #xtensor.dims<"T?">>, of dynamic size T?, which is not a size expression, is not supported}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.slice %a starts [1, 0] limits [-1, 4] strides [1, 1] : tensor<?x4xf32, #xtensor.dims<"T?">> -> tensor<?x4xf32, #xtensor.dims<"T?">>
  return %0 : tensor<?x4xf32, #xtensor.dims<"T?">>
}

// -----

#T = #xtensor.dims<T>
func.func @slice_that_overflows(%a: tensor<?x4xf32, #T>) -> tensor<?x4xf32, #T>
    attributes {xtensor.symbols = {T = array<i64: 1, 8>}} {
  // expected-error @+2 {{'xtensor.slice' op slice [9223372036854775807, T + 1 + (-9223372036854775808)) of dimension 0 of tensor<?x4xf32, #xtensor.dims<T>> overflows 64 bits}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.slice %a starts [9223372036854775807, 0] limits [-9223372036854775808, 4] strides [1, 1] : tensor<?x4xf32, #T> -> tensor<?x4xf32, #T>
  return %0 : tensor<?x4xf32, #T>
}

// -----

#T = #xtensor.dims<T>
func.func @mean_over_a_dynamic_size(%a: tensor<?x4xf32, #T>) -> tensor<4xf32>
    attributes {xtensor.symbols = {T = array<i64: 1, 8>}} {
  // expected-error @+2 {{'xtensor.mean' op a mean or variance over dimension 0 of tensor<?x4xf32, #xtensor.dims<T>>, of dynamic size T, is not supported (its element count is not a constant)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.mean %a dims [0] : tensor<?x4xf32, #T> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

#T = #xtensor.dims<T>
func.func @linear_with_dynamic_features(%a: tensor<2x?xf32, #T>, %w: tensor<3x4xf32>) -> tensor<2x3xf32>
    attributes {xtensor.symbols = {T = array<i64: 1, 8>}} {
  // expected-error @+2 {{'xtensor.linear' op operand 'input' tensor<2x?xf32, #xtensor.dims<T>> is not supported: the features (its last dimension) must be static}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.linear %a, %w : (tensor<2x?xf32, #T>, tensor<3x4xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

#T = #xtensor.dims<T>
func.func @norm_weight_of_another_size(%a: tensor<?x4xf32, #T>, %w: tensor<?xf32, #xtensor.dims<S>>) -> tensor<?x4xf32, #T>
    attributes {xtensor.symbols = {T = array<i64: 1, 8>, S = array<i64: 1, 8>}} {
  // expected-error @+2 {{'xtensor.rms_norm' op operand 'weight' tensor<?xf32, #xtensor.dims<S>> must be tensor<4xf32>: the normalized trailing dimensions of tensor<?x4xf32, #xtensor.dims<T>>}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.rms_norm %a weight %w eps 1.0e-6 : (tensor<?x4xf32, #T>, tensor<?xf32, #xtensor.dims<S>>) -> tensor<?x4xf32, #T>
  return %0 : tensor<?x4xf32, #T>
}
