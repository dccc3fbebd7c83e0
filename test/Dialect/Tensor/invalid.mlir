// RUN: xtile-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of the xtensor dialect: the verifiers and type
// inference of lib/Dialect/Tensor/IR/TensorOps.cpp, and the ODS operand and
// result constraints. Operands the custom syntax cannot spell (two operand
// types of a binary op, for instance) are written in generic form.
//
// A failed type inference is reported twice: by the op's own message, then
// by the verifier of InferTypeOpInterface ("failed to infer returned
// types"). Ops whose custom form infers the result while parsing (elementwise
// ops, softmax, ...) fail at the parse and report only the first.

//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

func.func @add_shape_mismatch(%a: tensor<4xf32>, %b: tensor<5xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xtensor.add' op operand 'rhs' ('tensor<5xf32>') and operand 'lhs' ('tensor<4xf32>') must have the same shape; broadcasting is explicit (xtensor.broadcast)}}
  %0 = "xtensor.add"(%a, %b) : (tensor<4xf32>, tensor<5xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @sub_element_type_mismatch(%a: tensor<4xf32>, %b: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error @+1 {{'xtensor.sub' op operand 'rhs' ('tensor<4xf16>') and operand 'lhs' ('tensor<4xf32>') must have the same element type; convert with xtensor.cast}}
  %0 = "xtensor.sub"(%a, %b) : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @cmp_shape_mismatch(%a: tensor<2x3xi32>, %b: tensor<3x2xi32>) -> tensor<2x3xi1> {
  // expected-error @+1 {{'xtensor.cmp' op operand 'rhs' ('tensor<3x2xi32>') and operand 'lhs' ('tensor<2x3xi32>') must have the same shape}}
  %0 = "xtensor.cmp"(%a, %b) <{predicate = 2 : i32}> : (tensor<2x3xi32>, tensor<3x2xi32>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// -----

func.func @cmp_element_type_mismatch(%a: tensor<4xi32>, %b: tensor<4xi64>) -> tensor<4xi1> {
  // expected-error @+1 {{'xtensor.cmp' op operand 'rhs' ('tensor<4xi64>') and operand 'lhs' ('tensor<4xi32>') must have the same element type}}
  %0 = "xtensor.cmp"(%a, %b) <{predicate = 0 : i32}> : (tensor<4xi32>, tensor<4xi64>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @select_cond_shape(%c: tensor<3xi1>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xtensor.select' op operand 'cond' ('tensor<3xi1>') and operand 'true_value' ('tensor<4xf32>') must have the same shape; broadcasting is explicit (xtensor.broadcast)}}
  %0 = "xtensor.select"(%c, %a, %a) : (tensor<3xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @select_false_value_shape(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<2x2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xtensor.select' op operand 'false_value' ('tensor<2x2xf32>') and operand 'true_value' ('tensor<4xf32>') must have the same shape}}
  %0 = "xtensor.select"(%c, %a, %b) : (tensor<4xi1>, tensor<4xf32>, tensor<2x2xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @select_element_type_mismatch(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xi32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xtensor.select' op operand 'false_value' ('tensor<4xi32>') and operand 'true_value' ('tensor<4xf32>') must have the same element type; convert with xtensor.cast}}
  %0 = "xtensor.select"(%c, %a, %b) : (tensor<4xi1>, tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @select_cond_not_i1(%c: tensor<4xf32>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xtensor.select' op operand #0 must be ranked tensor of 1-bit signless integer values whose dynamic sizes are named (#xtensor.dims), but got 'tensor<4xf32>'}}
  %0 = "xtensor.select"(%c, %a, %a) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The custom form of select writes the value type only, which must be a
// ranked tensor.
func.func @select_unranked_type(%c: tensor<4xi1>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{custom op 'xtensor.select' expected a ranked tensor type, got 'f32'}}
  %0 = xtensor.select %c, %a, %a : f32
  return %0 : tensor<4xf32>
}

// -----

func.func @cmp_result_not_i1(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xtensor.cmp' op result #0 must be ranked tensor of 1-bit signless integer values whose dynamic sizes are named (#xtensor.dims), but got 'tensor<4xf32>'}}
  %0 = "xtensor.cmp"(%a, %a) <{predicate = 0 : i32}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @cmp_bad_predicate(%a: tensor<4xf32>) -> tensor<4xi1> {
  // expected-error @+1 {{custom op 'xtensor.cmp' expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, lt, le, gt, ge]}}
  %0 = xtensor.cmp ult, %a, %a : tensor<4xf32>
  return %0 : tensor<4xi1>
}

// -----

func.func @add_result_mismatch(%a: tensor<4xf32>) -> tensor<5xf32> {
  // expected-error @+2 {{'xtensor.add' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<5xf32>'}}
  // expected-error @+1 {{'xtensor.add' op failed to infer returned types}}
  %0 = "xtensor.add"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

//===----------------------------------------------------------------------===//
// ODS operand type constraints
//===----------------------------------------------------------------------===//

func.func @exp_on_integer(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'xtensor.exp' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values whose dynamic sizes are named (#xtensor.dims), but got 'tensor<4xi32>'}}
  %0 = xtensor.exp %a : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @exp_dynamic_shape(%a: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'xtensor.exp' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values whose dynamic sizes are named (#xtensor.dims), but got 'tensor<?xf32>'}}
  %0 = xtensor.exp %a : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @neg_on_i1(%a: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'xtensor.neg' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer values whose dynamic sizes are named (#xtensor.dims), but got 'tensor<4xi1>'}}
  %0 = xtensor.neg %a : tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @add_on_i8(%a: tensor<4xi8>) -> tensor<4xi8> {
  // expected-error @+1 {{'xtensor.add' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer values whose dynamic sizes are named (#xtensor.dims), but got 'tensor<4xi8>'}}
  %0 = xtensor.add %a, %a : tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

func.func @pow_on_integer(%a: tensor<4xi64>) -> tensor<4xi64> {
  // expected-error @+1 {{'xtensor.pow' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values whose dynamic sizes are named (#xtensor.dims), but got 'tensor<4xi64>'}}
  %0 = xtensor.pow %a, %a : tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

func.func @not_on_float(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xtensor.not' op operand #0 must be ranked tensor of 1-bit signless integer or 32-bit signless integer or 64-bit signless integer values whose dynamic sizes are named (#xtensor.dims), but got 'tensor<4xf32>'}}
  %0 = xtensor.not %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @xor_on_float(%a: tensor<4xbf16>) -> tensor<4xbf16> {
  // expected-error @+1 {{'xtensor.xor' op operand #0 must be ranked tensor of 1-bit signless integer or 32-bit signless integer or 64-bit signless integer values whose dynamic sizes are named (#xtensor.dims), but got 'tensor<4xbf16>'}}
  %0 = xtensor.xor %a, %a : tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

func.func @cast_from_i4(%a: tensor<4xi4>) -> tensor<4xf32> {
  // expected-error @+1 {{'xtensor.cast' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 1-bit signless integer or 32-bit signless integer or 64-bit signless integer or f8E4M3FN type or f8E5M2 type or 8-bit signless integer or 16-bit signless integer values whose dynamic sizes are named (#xtensor.dims), but got 'tensor<4xi4>'}}
  %0 = xtensor.cast %a : tensor<4xi4> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @cast_to_dynamic(%a: tensor<4xf32>) -> tensor<?xf16> {
  // expected-error @+1 {{'xtensor.cast' op result #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 1-bit signless integer or 32-bit signless integer or 64-bit signless integer or f8E4M3FN type or f8E5M2 type or 8-bit signless integer or 16-bit signless integer values whose dynamic sizes are named (#xtensor.dims), but got 'tensor<?xf16>'}}
  %0 = xtensor.cast %a : tensor<4xf32> -> tensor<?xf16>
  return %0 : tensor<?xf16>
}

// -----

func.func @reduce_unranked(%a: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'xtensor.reduce' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 1-bit signless integer or 32-bit signless integer or 64-bit signless integer or f8E4M3FN type or f8E5M2 type or 8-bit signless integer or 16-bit signless integer values whose dynamic sizes are named (#xtensor.dims), but got 'tensor<*xf32>'}}
  %0 = "xtensor.reduce"(%a) <{kind = 0 : i32, dims = array<i64: 0>}> : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @matmul_on_i1(%a: tensor<2x2xi1>) -> tensor<2x2xi1> {
  // expected-error @+1 {{'xtensor.matmul' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer or f8E4M3FN type or f8E5M2 type values whose dynamic sizes are named (#xtensor.dims), but got 'tensor<2x2xi1>'}}
  %0 = xtensor.matmul %a, %a : tensor<2x2xi1>, tensor<2x2xi1> -> tensor<2x2xi1>
  return %0 : tensor<2x2xi1>
}

// -----

func.func @rms_norm_on_integer(%a: tensor<2x4xi32>) -> tensor<2x4xi32> {
  // expected-error @+1 {{'xtensor.rms_norm' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values whose dynamic sizes are named (#xtensor.dims), but got 'tensor<2x4xi32>'}}
  %0 = xtensor.rms_norm %a eps 1.0e-6 : (tensor<2x4xi32>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

// -----

func.func @softmax_unranked(%a: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{custom op 'xtensor.softmax' invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'}}
  %0 = xtensor.softmax %a dim 0 : tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Cast, constant, iota
//===----------------------------------------------------------------------===//

func.func @cast_shape(%a: tensor<4xf32>) -> tensor<2x2xf16> {
  // expected-error @+1 {{'xtensor.cast' op result 'tensor<2x2xf16>' must have the shape of operand 'input' 'tensor<4xf32>'}}
  %0 = xtensor.cast %a : tensor<4xf32> -> tensor<2x2xf16>
  return %0 : tensor<2x2xf16>
}

// -----

func.func @constant_i4() -> tensor<4xi4> {
  // expected-error @+1 {{'xtensor.constant' op result #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 1-bit signless integer or 32-bit signless integer or 64-bit signless integer or f8E4M3FN type or f8E5M2 type or 8-bit signless integer or 16-bit signless integer values whose dynamic sizes are named (#xtensor.dims), but got 'tensor<4xi4>'}}
  %0 = xtensor.constant dense<1> : tensor<4xi4>
  return %0 : tensor<4xi4>
}

// -----

func.func @constant_vector() -> vector<4xf32> {
  // expected-error @+1 {{'xtensor.constant' op result #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 1-bit signless integer or 32-bit signless integer or 64-bit signless integer or f8E4M3FN type or f8E5M2 type or 8-bit signless integer or 16-bit signless integer values whose dynamic sizes are named (#xtensor.dims), but got 'vector<4xf32>'}}
  %0 = xtensor.constant dense<1.0> : vector<4xf32>
  return %0 : vector<4xf32>
}

// -----

func.func @constant_result_mismatch() -> tensor<4xf32> {
  // expected-error @+2 {{'xtensor.constant' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  // expected-error @+1 {{'xtensor.constant' op failed to infer returned types}}
  %0 = "xtensor.constant"() <{value = dense<1.0> : tensor<2xf32>}> : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @iota_dim_out_of_range() -> tensor<2x3xi32> {
  // expected-error @+1 {{'xtensor.iota' op dim 2 is out of range for 'tensor<2x3xi32>'}}
  %0 = xtensor.iota dim 2 : tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

func.func @iota_negative_dim() -> tensor<4xi64> {
  // expected-error @+1 {{'xtensor.iota' op dim -1 is out of range for 'tensor<4xi64>'}}
  %0 = xtensor.iota dim -1 : tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

func.func @iota_on_i1() -> tensor<4xi1> {
  // expected-error @+1 {{'xtensor.iota' op result #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer values whose dynamic sizes are named (#xtensor.dims), but got 'tensor<4xi1>'}}
  %0 = xtensor.iota dim 0 : tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

func.func @reduce_dim_out_of_range(%a: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{'xtensor.reduce' op dimension 2 is out of range for tensor<2x3xf32>}}
  // expected-error @+1 {{'xtensor.reduce' op failed to infer returned types}}
  %0 = xtensor.reduce sum %a dims [2] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @reduce_negative_dim(%a: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{'xtensor.reduce' op dimension -1 is out of range for tensor<2x3xf32>}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.reduce sum %a dims [-1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @reduce_dims_unsorted(%a: tensor<2x3x4xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{'xtensor.reduce' op dims [2, 0] must be sorted and free of duplicates}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.reduce max %a dims [2, 0] : tensor<2x3x4xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @reduce_dims_duplicate(%a: tensor<2x3xi32>) -> tensor<2xi32> {
  // expected-error @+2 {{'xtensor.reduce' op dims [1, 1] must be sorted and free of duplicates}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.reduce prod %a dims [1, 1] : tensor<2x3xi32> -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @reduce_sum_on_i1(%a: tensor<2x3xi1>) -> tensor<2xi1> {
  // expected-error @+1 {{'xtensor.reduce' op reduction 'sum' is not defined on operand 'input' of type 'tensor<2x3xi1>' (use any/all for i1)}}
  %0 = xtensor.reduce sum %a dims [1] : tensor<2x3xi1> -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @reduce_any_on_float(%a: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'xtensor.reduce' op reduction 'any' is not defined on operand 'input' of type 'tensor<2x3xf32>' (any/all take i1)}}
  %0 = xtensor.reduce any %a dims [1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @reduce_result_mismatch(%a: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{'xtensor.reduce' op inferred type(s) 'tensor<2x1xf32>' are incompatible with return type(s) of operation 'tensor<2xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.reduce min %a dims [1] keepdim : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @reduce_bad_kind(%a: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{custom op 'xtensor.reduce' expected string or keyword containing one of the following enum values for attribute 'kind' [sum, prod, max, min, any, all]}}
  %0 = xtensor.reduce mean %a dims [1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

func.func @reshape_element_count(%a: tensor<2x3xf32>) -> tensor<5xf32> {
  // expected-error @+1 {{'xtensor.reshape' op cannot reshape 'tensor<2x3xf32>' (6 elements) to 'tensor<5xf32>' (5 elements)}}
  %0 = xtensor.reshape %a : tensor<2x3xf32> -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @reshape_element_type(%a: tensor<2x2xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'xtensor.reshape' op result 'tensor<4xf16>' must have the element type of operand 'input' 'tensor<2x2xf32>'}}
  %0 = xtensor.reshape %a : tensor<2x2xf32> -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

func.func @transpose_perm_length(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'xtensor.transpose' op perm [0] has 1 entries but operand 'input' tensor<2x3xf32> has rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.transpose %a perm [0] : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @transpose_perm_duplicate(%a: tensor<2x3xf32>) -> tensor<2x2xf32> {
  // expected-error @+2 {{'xtensor.transpose' op perm [0, 0] is not a permutation of [0, 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.transpose %a perm [0, 0] : tensor<2x3xf32> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @transpose_perm_out_of_range(%a: tensor<2x3xi64>) -> tensor<3x2xi64> {
  // expected-error @+2 {{'xtensor.transpose' op perm [2, 0] is not a permutation of [0, 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.transpose %a perm [2, 0] : tensor<2x3xi64> -> tensor<3x2xi64>
  return %0 : tensor<3x2xi64>
}

// -----

func.func @transpose_result_mismatch(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'xtensor.transpose' op inferred type(s) 'tensor<3x2xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.transpose %a perm [1, 0] : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @broadcast_lower_rank(%a: tensor<2x3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'xtensor.broadcast' op cannot broadcast 'tensor<2x3xf32>' to 'tensor<3xf32>' of lower rank}}
  %0 = xtensor.broadcast %a : tensor<2x3xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Dimensions align with the trailing result dimensions (not the leading).
func.func @broadcast_incompatible_dim(%a: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'xtensor.broadcast' op cannot broadcast 'tensor<2xf32>' to 'tensor<2x3xf32>': operand dimension 0 (size 2) must be 1 or 3}}
  %0 = xtensor.broadcast %a : tensor<2xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @broadcast_element_type(%a: tensor<3xf32>) -> tensor<2x3xf64> {
  // expected-error @+1 {{'xtensor.broadcast' op result 'tensor<2x3xf64>' must have the element type of operand 'input' 'tensor<3xf32>'}}
  %0 = xtensor.broadcast %a : tensor<3xf32> -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

func.func @slice_arity(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+2 {{'xtensor.slice' op starts, limits and strides need one entry per dimension of tensor<4x8xf32>}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.slice %a starts [0, 0] limits [4, 8] strides [1] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @slice_zero_stride(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+2 {{'xtensor.slice' op stride 0 of dimension 1 must be positive}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.slice %a starts [0, 0] limits [4, 8] strides [1, 0] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @slice_negative_stride(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+2 {{'xtensor.slice' op stride -1 of dimension 0 must be positive}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.slice %a starts [3] limits [0] strides [-1] : tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @slice_limit_out_of_bounds(%a: tensor<4x8xf32>) -> tensor<4x9xf32> {
  // expected-error @+2 {{'xtensor.slice' op slice [0, 9) of dimension 1 is out of bounds for tensor<4x8xf32>}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.slice %a starts [0, 0] limits [4, 9] strides [1, 1] : tensor<4x8xf32> -> tensor<4x9xf32>
  return %0 : tensor<4x9xf32>
}

// -----

func.func @slice_start_after_limit(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+2 {{'xtensor.slice' op slice [3, 2) of dimension 0 is out of bounds for tensor<4x8xf32>}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.slice %a starts [3, 0] limits [2, 8] strides [1, 1] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @slice_negative_start(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'xtensor.slice' op slice [-1, 3) of dimension 0 is out of bounds for tensor<4xf32>}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.slice %a starts [-1] limits [3] strides [1] : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @slice_result_mismatch(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+2 {{'xtensor.slice' op inferred type(s) 'tensor<4x4xf32>' are incompatible with return type(s) of operation 'tensor<4x8xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.slice %a starts [0, 0] limits [4, 8] strides [1, 2] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @pad_arity(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'xtensor.pad' op low and high need one entry per dimension of tensor<2x3xf32>}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.pad %a low [0, 0] high [0] value 0.0 : f32 : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @pad_negative(%a: tensor<2x3xf32>) -> tensor<2x2xf32> {
  // expected-error @+2 {{'xtensor.pad' op padding of dimension 1 must be non-negative}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.pad %a low [0, -1] high [0, 0] value 0.0 : f32 : tensor<2x3xf32> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @pad_value_type(%a: tensor<4xi32>) -> tensor<5xi32> {
  // expected-error @+2 {{'xtensor.pad' op padding value f32 must have the element type of tensor<4xi32>}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.pad %a low [1] high [0] value 0.0 : f32 : tensor<4xi32> -> tensor<5xi32>
  return %0 : tensor<5xi32>
}

// -----

func.func @pad_value_untyped(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{invalid properties {high = array<i64: 0>, low = array<i64: 0>, value = [1]} for op xtensor.pad: Invalid attribute `value` in property conversion: [1]}}
  %0 = "xtensor.pad"(%a) <{low = array<i64: 0>, high = array<i64: 0>, value = [1]}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @concat_size_mismatch(%a: tensor<2x3xf32>, %b: tensor<3x3xf32>) -> tensor<2x6xf32> {
  // expected-error @+2 {{'xtensor.concat' op operand tensor<3x3xf32> cannot be concatenated with tensor<2x3xf32> along dimension 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.concat %a, %b dim 1 : tensor<2x3xf32>, tensor<3x3xf32> -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @concat_element_type_mismatch(%a: tensor<2xf32>, %b: tensor<2xf32>, %c: tensor<2xf16>) -> tensor<6xf32> {
  // expected-error @+2 {{'xtensor.concat' op operand tensor<2xf16> cannot be concatenated with tensor<2xf32> along dimension 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.concat %a, %b, %c dim 0 : tensor<2xf32>, tensor<2xf32>, tensor<2xf16> -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

func.func @concat_rank_mismatch(%a: tensor<2x3xi32>, %b: tensor<3xi32>) -> tensor<2x6xi32> {
  // expected-error @+2 {{'xtensor.concat' op operand tensor<3xi32> cannot be concatenated with tensor<2x3xi32> along dimension 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.concat %a, %b dim 1 : tensor<2x3xi32>, tensor<3xi32> -> tensor<2x6xi32>
  return %0 : tensor<2x6xi32>
}

// -----

func.func @concat_dim_out_of_range(%a: tensor<2x3xf32>) -> tensor<2x6xf32> {
  // expected-error @+2 {{'xtensor.concat' op dim 2 is out of range for tensor<2x3xf32>}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.concat %a, %a dim 2 : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @concat_no_operands() -> tensor<4xf32> {
  // expected-error @+2 {{'xtensor.concat' op needs at least one operand}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = "xtensor.concat"() <{dim = 0 : i64}> : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @concat_result_mismatch(%a: tensor<2x3xf32>) -> tensor<4x6xf32> {
  // expected-error @+2 {{'xtensor.concat' op inferred type(s) 'tensor<2x6xf32>' are incompatible with return type(s) of operation 'tensor<4x6xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.concat %a, %a dim 1 : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

func.func @gather_axis_out_of_range(%t: tensor<10x4xf32>, %i: tensor<3xi64>) -> tensor<10x3xf32> {
  // expected-error @+2 {{'xtensor.gather' op axis 2 is out of range for tensor<10x4xf32>}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.gather %t[%i] axis 2 : tensor<10x4xf32>, tensor<3xi64> -> tensor<10x3xf32>
  return %0 : tensor<10x3xf32>
}

// -----

func.func @gather_float_indices(%t: tensor<10x4xf32>, %i: tensor<3xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'xtensor.gather' op operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values whose dynamic sizes are named (#xtensor.dims), but got 'tensor<3xf32>'}}
  %0 = xtensor.gather %t[%i] axis 0 : tensor<10x4xf32>, tensor<3xf32> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gather_result_mismatch(%t: tensor<10x4xf32>, %i: tensor<2x3xi32>) -> tensor<6x4xf32> {
  // expected-error @+2 {{'xtensor.gather' op inferred type(s) 'tensor<2x3x4xf32>' are incompatible with return type(s) of operation 'tensor<6x4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.gather %t[%i] axis 0 : tensor<10x4xf32>, tensor<2x3xi32> -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// -----

func.func @scatter_add_bf16(%t: tensor<10x4xbf16>, %i: tensor<3xi64>, %g: tensor<3x4xbf16>) -> tensor<10x4xbf16> {
  // expected-error @+1 {{'xtensor.scatter_add' op adds 'bf16' elements; only f32, f64, i32 and i64 are added atomically (add 16-bit values into f32 and round after)}}
  %0 = xtensor.scatter_add %g into %t[%i] axis 0 : tensor<3x4xbf16>, tensor<3xi64> -> tensor<10x4xbf16>
  return %0 : tensor<10x4xbf16>
}

// -----

func.func @scatter_add_source_type(%t: tensor<10x4xf32>, %i: tensor<3xi64>, %g: tensor<3x4xf64>) -> tensor<10x4xf32> {
  // expected-error @+1 {{'xtensor.scatter_add' op adds 'f64' into 'f32'}}
  %0 = xtensor.scatter_add %g into %t[%i] axis 0 : tensor<3x4xf64>, tensor<3xi64> -> tensor<10x4xf32>
  return %0 : tensor<10x4xf32>
}

// -----

func.func @scatter_add_axis(%t: tensor<10x4xf32>, %i: tensor<3xi64>, %g: tensor<3x4xf32>) -> tensor<10x4xf32> {
  // expected-error @+1 {{'xtensor.scatter_add' op axis 2 is out of range for 'tensor<10x4xf32>'}}
  %0 = xtensor.scatter_add %g into %t[%i] axis 2 : tensor<3x4xf32>, tensor<3xi64> -> tensor<10x4xf32>
  return %0 : tensor<10x4xf32>
}

// -----

func.func @scatter_add_source_shape(%t: tensor<10x4xf32>, %i: tensor<3xi64>, %g: tensor<3x5xf32>) -> tensor<10x4xf32> {
  // expected-error @+1 {{'xtensor.scatter_add' op source 'tensor<3x5xf32>' is not the shape of the slices of 'tensor<10x4xf32>' at indices 'tensor<3xi64>' along axis 0 ('tensor<3x4xf32>')}}
  %0 = xtensor.scatter_add %g into %t[%i] axis 0 : tensor<3x5xf32>, tensor<3xi64> -> tensor<10x4xf32>
  return %0 : tensor<10x4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Matmul
//===----------------------------------------------------------------------===//

func.func @matmul_rank_one(%a: tensor<4xf32>) -> tensor<f32> {
  // expected-error @+2 {{'xtensor.matmul' op operands must have the same rank, at least 2 (lhs tensor<4xf32>, rhs tensor<4xf32>)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.matmul %a, %a : tensor<4xf32>, tensor<4xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @matmul_rank_mismatch(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>) -> tensor<2x3x5xf32> {
  // expected-error @+2 {{'xtensor.matmul' op operands must have the same rank, at least 2 (lhs tensor<2x3x4xf32>, rhs tensor<4x5xf32>)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.matmul %a, %b : tensor<2x3x4xf32>, tensor<4x5xf32> -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

func.func @matmul_batch_mismatch(%a: tensor<2x3x4xf32>, %b: tensor<3x4x5xf32>) -> tensor<2x3x5xf32> {
  // expected-error @+2 {{'xtensor.matmul' op batch dimensions must be equal (broadcast explicitly) (lhs tensor<2x3x4xf32>, rhs tensor<3x4x5xf32>)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.matmul %a, %b : tensor<2x3x4xf32>, tensor<3x4x5xf32> -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

func.func @matmul_contraction_mismatch(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+2 {{'xtensor.matmul' op contracted dimensions differ: 3 vs 4 (lhs tensor<2x3xf32>, rhs tensor<4x5xf32>)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.matmul %a, %b : tensor<2x3xf32>, tensor<4x5xf32> -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @matmul_element_type_mismatch(%a: tensor<2x3xf32>, %b: tensor<3x4xbf16>) -> tensor<2x4xf32> {
  // expected-error @+2 {{'xtensor.matmul' op operands must have the same element type (lhs tensor<2x3xf32>, rhs tensor<3x4xbf16>)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.matmul %a, %b : tensor<2x3xf32>, tensor<3x4xbf16> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @matmul_result_mismatch(%a: tensor<2x3xi32>, %b: tensor<3x4xi32>) -> tensor<2x4xf32> {
  // expected-error @+2 {{'xtensor.matmul' op inferred type(s) 'tensor<2x4xi32>' are incompatible with return type(s) of operation 'tensor<2x4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.matmul %a, %b : tensor<2x3xi32>, tensor<3x4xi32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Composite ops
//===----------------------------------------------------------------------===//

func.func @rms_norm_rank_zero(%a: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+2 {{'xtensor.rms_norm' op norm_rank 0 must be in [1, 2] for tensor<2x8xf32>}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.rms_norm %a eps 1.0e-6 {norm_rank = 0 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @rms_norm_rank_too_large(%a: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+2 {{'xtensor.rms_norm' op norm_rank 3 must be in [1, 2] for tensor<2x8xf32>}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.rms_norm %a eps 1.0e-6 {norm_rank = 3 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @rms_norm_weight_shape(%a: tensor<2x8xf32>, %w: tensor<2xf32>) -> tensor<2x8xf32> {
  // expected-error @+2 {{'xtensor.rms_norm' op operand 'weight' tensor<2xf32> must be tensor<8xf32>: the normalized trailing dimensions of tensor<2x8xf32>}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.rms_norm %a weight %w eps 1.0e-6 : (tensor<2x8xf32>, tensor<2xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @rms_norm_weight_rank(%a: tensor<2x3x4xbf16>, %w: tensor<4xbf16>) -> tensor<2x3x4xbf16> {
  // expected-error @+2 {{'xtensor.rms_norm' op operand 'weight' tensor<4xbf16> must be tensor<3x4xbf16>: the normalized trailing dimensions of tensor<2x3x4xbf16>}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.rms_norm %a weight %w eps 1.0e-6 {norm_rank = 2 : i64} : (tensor<2x3x4xbf16>, tensor<4xbf16>) -> tensor<2x3x4xbf16>
  return %0 : tensor<2x3x4xbf16>
}

// -----

func.func @rms_norm_weight_element_type(%a: tensor<2x8xf32>, %w: tensor<8xf16>) -> tensor<2x8xf32> {
  // expected-error @+2 {{'xtensor.rms_norm' op operand 'weight' tensor<8xf16> must be tensor<8xf32>: the normalized trailing dimensions of tensor<2x8xf32>}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.rms_norm %a weight %w eps 1.0e-6 : (tensor<2x8xf32>, tensor<8xf16>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @rms_norm_result_mismatch(%a: tensor<2x8xf32>) -> tensor<2x8xf16> {
  // expected-error @+2 {{'xtensor.rms_norm' op inferred type(s) 'tensor<2x8xf32>' are incompatible with return type(s) of operation 'tensor<2x8xf16>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.rms_norm %a eps 1.0e-6 : (tensor<2x8xf32>) -> tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}

// -----

func.func @layer_norm_bias_shape(%a: tensor<2x8xf32>, %w: tensor<8xf32>, %b: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+2 {{'xtensor.layer_norm' op operand 'bias' tensor<2x8xf32> must be tensor<8xf32>: the normalized trailing dimensions of tensor<2x8xf32>}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.layer_norm %a weight %w bias %b eps 1.0e-5 : (tensor<2x8xf32>, tensor<8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @layer_norm_bias_only(%a: tensor<2x3x4xf16>, %b: tensor<4xf16>) -> tensor<2x3x4xf16> {
  // expected-error @+2 {{'xtensor.layer_norm' op operand 'bias' tensor<4xf16> must be tensor<3x4xf16>: the normalized trailing dimensions of tensor<2x3x4xf16>}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.layer_norm %a bias %b eps 1.0e-5 {norm_rank = 2 : i64} : (tensor<2x3x4xf16>, tensor<4xf16>) -> tensor<2x3x4xf16>
  return %0 : tensor<2x3x4xf16>
}

// -----

func.func @layer_norm_weight_shape(%a: tensor<2x8xf32>, %w: tensor<4xf32>) -> tensor<2x8xf32> {
  // expected-error @+2 {{'xtensor.layer_norm' op operand 'weight' tensor<4xf32> must be tensor<8xf32>: the normalized trailing dimensions of tensor<2x8xf32>}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.layer_norm %a weight %w eps 1.0e-5 : (tensor<2x8xf32>, tensor<4xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @layer_norm_rank_out_of_range(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+2 {{'xtensor.layer_norm' op norm_rank 2 must be in [1, 1] for tensor<8xf32>}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.layer_norm %a eps 1.0e-5 {norm_rank = 2 : i64} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @layer_norm_segment_sizes(%a: tensor<2x4xf32>, %w: tensor<4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'xtensor.layer_norm' op operand count (2) does not match with the total size (3) specified in attribute 'operandSegmentSizes'}}
  %0 = "xtensor.layer_norm"(%a, %w) <{eps = 1.0 : f64, norm_rank = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @softmax_dim_out_of_range(%a: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'xtensor.softmax' op dim 2 is out of range for tensor<2x8xf32>}}
  %0 = xtensor.softmax %a dim 2 : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @log_softmax_negative_dim(%a: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'xtensor.log_softmax' op dim -1 is out of range for tensor<2x8xf32>}}
  %0 = xtensor.log_softmax %a dim -1 : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// In generic form the result type is written, so inference runs in the
// verifier and reports twice.
func.func @softmax_generic_dim(%a: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+2 {{'xtensor.softmax' op dim 5 is out of range for tensor<2x8xf32>}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = "xtensor.softmax"(%a) <{dim = 5 : i64}> : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @softmax_missing_dim(%a: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'xtensor.softmax' op requires attribute 'dim'}}
  %0 = "xtensor.softmax"(%a) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @gelu_bad_approximation(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{custom op 'xtensor.gelu' expected string or keyword containing one of the following enum values for attribute 'approximation' [erf, tanh]}}
  %0 = xtensor.gelu sigmoid %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @silu_result_mismatch(%a: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+2 {{'xtensor.silu' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4xf16>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = "xtensor.silu"(%a) : (tensor<4xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

func.func @mean_dim_out_of_range(%a: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{'xtensor.mean' op dimension 3 is out of range for tensor<2x3xf32>}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.mean %a dims [3] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @mean_dims_duplicate(%a: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{'xtensor.mean' op dims [1, 1] must be sorted and free of duplicates}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.mean %a dims [1, 1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @mean_result_mismatch(%a: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{'xtensor.mean' op inferred type(s) 'tensor<2x1xf32>' are incompatible with return type(s) of operation 'tensor<2xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.mean %a dims [1] keepdim : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @var_correction_too_large(%a: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{'xtensor.var' op correction 3 leaves no degrees of freedom over 3 elements}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.var %a dims [1] correction 3 : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @var_correction_negative(%a: tensor<4xf32>) -> tensor<f32> {
  // expected-error @+2 {{'xtensor.var' op correction must be non-negative}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.var %a dims [0] correction -1 : tensor<4xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @var_dims_unsorted(%a: tensor<2x3xf32>) -> tensor<f32> {
  // expected-error @+2 {{'xtensor.var' op dims [1, 0] must be sorted and free of duplicates}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.var %a dims [1, 0] correction 1 : tensor<2x3xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @linear_weight_in_dim(%x: tensor<2x8xf32>, %w: tensor<4x7xf32>) -> tensor<2x4xf32> {
  // expected-error @+2 {{'xtensor.linear' op operand 'weight' tensor<4x7xf32> must be [out, in] with in = the last dimension of operand 'input' tensor<2x8xf32> and the same element type}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.linear %x, %w : (tensor<2x8xf32>, tensor<4x7xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @linear_weight_rank(%x: tensor<2x8xf32>, %w: tensor<8xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{'xtensor.linear' op operand 'weight' tensor<8xf32> must be [out, in] with in = the last dimension of operand 'input' tensor<2x8xf32> and the same element type}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.linear %x, %w : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @linear_weight_element_type(%x: tensor<2x8xf32>, %w: tensor<4x8xbf16>) -> tensor<2x4xf32> {
  // expected-error @+2 {{'xtensor.linear' op operand 'weight' tensor<4x8xbf16> must be [out, in] with in = the last dimension of operand 'input' tensor<2x8xf32> and the same element type}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.linear %x, %w : (tensor<2x8xf32>, tensor<4x8xbf16>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @linear_bias_shape(%x: tensor<2x8xf32>, %w: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<2x4xf32> {
  // expected-error @+2 {{'xtensor.linear' op operand 'bias' tensor<8xf32> must be tensor<4xf32>}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.linear %x, %w, %b : (tensor<2x8xf32>, tensor<4x8xf32>, tensor<8xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @linear_bias_element_type(%x: tensor<2x8xf16>, %w: tensor<4x8xf16>, %b: tensor<4xf32>) -> tensor<2x4xf16> {
  // expected-error @+2 {{'xtensor.linear' op operand 'bias' tensor<4xf32> must be tensor<4xf16>}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.linear %x, %w, %b : (tensor<2x8xf16>, tensor<4x8xf16>, tensor<4xf32>) -> tensor<2x4xf16>
  return %0 : tensor<2x4xf16>
}

// -----

func.func @linear_result_mismatch(%x: tensor<3x2x8xf32>, %w: tensor<4x8xf32>) -> tensor<6x4xf32> {
  // expected-error @+2 {{'xtensor.linear' op inferred type(s) 'tensor<3x2x4xf32>' are incompatible with return type(s) of operation 'tensor<6x4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = xtensor.linear %x, %w : (tensor<3x2x8xf32>, tensor<4x8xf32>) -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// -----

// Sizes are checked for 64-bit overflow rather than wrapping.
func.func @reshape_overflow(%x: tensor<4611686018427387904x4xf32>) -> tensor<0xf32> {
  // expected-error @+1 {{'xtensor.reshape' op element count of 'tensor<4611686018427387904x4xf32>' does not fit in 64 bits}}
  %y = xtensor.reshape %x : tensor<4611686018427387904x4xf32> -> tensor<0xf32>
  return %y : tensor<0xf32>
}

// -----

func.func @pad_overflow(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{padded size of dimension 0 does not fit in 64 bits}}
  // expected-error @+1 {{failed to infer returned types}}
  %y = xtensor.pad %x low [9223372036854775807] high [0] value 0.0 : f32 : tensor<2xf32> -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// -----

func.func @concat_overflow(%x: tensor<9223372036854775807xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{concatenated size of dimension 0 does not fit in 64 bits}}
  // expected-error @+1 {{failed to infer returned types}}
  %y = xtensor.concat %x, %x dim 0 : tensor<9223372036854775807xf32>, tensor<9223372036854775807xf32> -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// -----

func.func @mean_empty(%x: tensor<0x3xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{reduces over an empty dimension of tensor<0x3xf32>}}
  // expected-error @+1 {{failed to infer returned types}}
  %y = xtensor.mean %x dims [0] : tensor<0x3xf32> -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// -----

func.func @rms_norm_rank0(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+2 {{operand 'input' tensor<f32> must have at least one dimension to normalize}}
  // expected-error @+1 {{failed to infer returned types}}
  %y = xtensor.rms_norm %x eps 1.0 : (tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}

// -----

func.func @linear_rank0(%x: tensor<f32>, %w: tensor<4x1xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{operand 'input' tensor<f32> must have at least one dimension (the features)}}
  // expected-error @+1 {{failed to infer returned types}}
  %y = xtensor.linear %x, %w : (tensor<f32>, tensor<4x1xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// fp8 is a storage type: cast it to a wider type to compute.
func.func @reduce_fp8(%x: tensor<4x8xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  // expected-error @+1 {{'xtensor.reduce' op reduction over 'f8E4M3FN' elements is unsupported: fp8 is a storage type (cast to f32 first)}}
  %0 = xtensor.reduce max %x dims [1] : tensor<4x8xf8E4M3FN> -> tensor<4xf8E4M3FN>
  return %0 : tensor<4xf8E4M3FN>
}

// -----

func.func @add_fp8(%x: tensor<4xf8E5M2>) -> tensor<4xf8E5M2> {
  // expected-error @+1 {{'xtensor.add' op operand #0 must be ranked tensor of}}
  %0 = "xtensor.add"(%x, %x) : (tensor<4xf8E5M2>, tensor<4xf8E5M2>) -> tensor<4xf8E5M2>
  return %0 : tensor<4xf8E5M2>
}

// -----

// 8- and 16-bit integers are storage types too: cast to i32 to compute.
func.func @reduce_i8(%x: tensor<4x8xi8>) -> tensor<4xi8> {
  // expected-error @+1 {{'xtensor.reduce' op reduction over 'i8' elements is unsupported: 8- and 16-bit integers are storage types (cast to i32 first)}}
  %0 = xtensor.reduce sum %x dims [1] : tensor<4x8xi8> -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

func.func @add_i16(%x: tensor<4xi16>) -> tensor<4xi16> {
  // expected-error @+1 {{'xtensor.add' op operand #0 must be ranked tensor of}}
  %0 = "xtensor.add"(%x, %x) : (tensor<4xi16>, tensor<4xi16>) -> tensor<4xi16>
  return %0 : tensor<4xi16>
}
