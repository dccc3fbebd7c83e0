// RUN: xtile-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// xloop.kernel
//===----------------------------------------------------------------------===//

// expected-error @+1 {{'xloop.kernel' op num_inputs 3 exceeds its 2 buffers}}
"xloop.kernel"() <{sym_name = "too_many_inputs", num_inputs = 3 : i64}> ({
^bb0(%a: memref<4xf32>, %b: memref<4xf32>):
}) : () -> ()

// -----

// expected-error @+1 {{'xloop.kernel' op needs at least one output buffer}}
xloop.kernel @no_output(%a: memref<4xf32>) -> () {
}

// -----

// expected-error @+1 {{'xloop.kernel' op needs at least one output buffer}}
"xloop.kernel"() <{sym_name = "all_inputs", num_inputs = 2 : i64}> ({
^bb0(%a: memref<4xf32>, %b: memref<4xf32>):
}) : () -> ()

// -----

// expected-error @+1 {{'xloop.kernel' op buffer #0 must be a statically shaped memref, got 'f32'}}
xloop.kernel @scalar_input(%a: f32) -> (%b: memref<f32>) {
}

// -----

// expected-error @+1 {{'xloop.kernel' op buffer #1 must be a statically shaped memref, got 'tensor<4xf32>'}}
xloop.kernel @tensor_output(%a: memref<4xf32>) -> (%b: tensor<4xf32>) {
}

// -----

// expected-error @+1 {{'xloop.kernel' op buffer #2 must be a statically shaped memref, got 'memref<?xf32>'}}
xloop.kernel @dynamic_output(%a: memref<4xf32>) -> (%b: memref<4xf32>, %c: memref<?xf32>) {
}

// -----

// expected-error @+1 {{'xloop.kernel' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
"xloop.kernel"() <{sym_name = "no_body", num_inputs = 0 : i64}> ({
}) : () -> ()

// -----

xloop.kernel @store_to_input(%a: memref<4xf32>) -> (%b: memref<4xf32>) {
  xloop.parallel %i = 0 to 4 {
    %v = xloop.load %a[%i] : memref<4xf32>
    // expected-error @+1 {{'xloop.store' op must store to an output buffer of its kernel}}
    xloop.store %v, %a[%i] : memref<4xf32>
  }
}

// -----

xloop.kernel @store_to_cast(%a: memref<4xf32>) -> (%b: memref<4xf32>) {
  %c = arith.constant 0 : i32
  %m = builtin.unrealized_conversion_cast %c : i32 to memref<4xf32>
  %v = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'xloop.store' op must store to an output buffer of its kernel}}
  xloop.store %v, %m[%c0] : memref<4xf32>
}

// -----

xloop.kernel @accumulate_bf16(%a: memref<4xbf16>) -> (%b: memref<4xbf16>) {
  xloop.parallel %i = 0 to 4 {
    %v = xloop.load %a[%i] : memref<4xbf16>
    // expected-error @+1 {{'xloop.store' op accumulates 'bf16'; only f32, f64, i32 and i64 are added atomically}}
    xloop.store %v, %b[%i] accumulate : memref<4xbf16>
  }
}

// -----

//===----------------------------------------------------------------------===//
// xloop.launch
//===----------------------------------------------------------------------===//

func.func @unknown_kernel(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xloop.launch' op 'missing' does not reference a kernel}}
  %b = xloop.launch @missing(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}

// -----

func.func private @not_a_kernel(tensor<4xf32>) -> tensor<4xf32>

func.func @launch_of_function(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xloop.launch' op 'not_a_kernel' does not reference a kernel}}
  %b = xloop.launch @not_a_kernel(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}

// -----

xloop.kernel @add(%a: memref<4xf32>, %b: memref<4xf32>) -> (%c: memref<4xf32>) {
}

func.func @too_few_inputs(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xloop.launch' op passes 1 input(s) and expects 1 output(s) but kernel @add has 2 input(s) and 1 output(s)}}
  %c = xloop.launch @add(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

xloop.kernel @copy(%a: memref<4xf32>) -> (%c: memref<4xf32>) {
}

func.func @too_many_outputs(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xloop.launch' op passes 1 input(s) and expects 2 output(s) but kernel @copy has 1 input(s) and 1 output(s)}}
  %c:2 = xloop.launch @copy(%a) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %c#0 : tensor<4xf32>
}

// -----

xloop.kernel @add(%a: memref<4xf32>, %b: memref<4xf32>) -> (%c: memref<4xf32>) {
}

func.func @input_shape_mismatch(%a: tensor<4xf32>, %b: tensor<2x2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xloop.launch' op input #1 'tensor<2x2xf32>' does not match kernel buffer 'memref<4xf32>'}}
  %c = xloop.launch @add(%a, %b) : (tensor<4xf32>, tensor<2x2xf32>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

xloop.kernel @add(%a: memref<4xf32>, %b: memref<4xf32>) -> (%c: memref<4xf32>) {
}

func.func @input_element_type_mismatch(%a: tensor<4xf16>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xloop.launch' op input #0 'tensor<4xf16>' does not match kernel buffer 'memref<4xf32>'}}
  %c = xloop.launch @add(%a, %b) : (tensor<4xf16>, tensor<4xf32>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

xloop.kernel @split(%a: memref<4xf32>) -> (%b: memref<4xf32>, %c: memref<4xi32>) {
}

func.func @output_mismatch(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xloop.launch' op output #1 'tensor<4xf32>' does not match kernel buffer 'memref<4xi32>'}}
  %b:2 = xloop.launch @split(%a) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %b#0 : tensor<4xf32>
}

// -----

xloop.kernel @copy(%a: memref<4xf32>) -> (%c: memref<4xf32>) {
}

func.func @dynamic_tensor(%a: tensor<?xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xloop.launch' op input #0 'tensor<?xf32>' does not match kernel buffer 'memref<4xf32>'}}
  %c = xloop.launch @copy(%a) : (tensor<?xf32>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// xloop.parallel
//===----------------------------------------------------------------------===//

xloop.kernel @parallel_negative_lower(%a: memref<4xf32>) -> (%b: memref<4xf32>) {
  // expected-error @+1 {{'xloop.parallel' op bounds [-1, 4) must satisfy 0 <= lower <= upper}}
  xloop.parallel %i = -1 to 4 {
  }
}

// -----

xloop.kernel @parallel_upper_below_lower(%a: memref<4xf32>) -> (%b: memref<4xf32>) {
  // expected-error @+1 {{'xloop.parallel' op bounds [4, 2) must satisfy 0 <= lower <= upper}}
  xloop.parallel %i = 4 to 2 {
  }
}

// -----

xloop.kernel @parallel_no_index(%a: memref<4xf32>) -> (%b: memref<4xf32>) {
  // expected-error @+1 {{'xloop.parallel' op body must have one index argument}}
  "xloop.parallel"() <{lower = 0 : i64, static_upper = 4 : i64}> ({
    "xloop.yield"() : () -> ()
  }) : () -> ()
}

// -----

xloop.kernel @parallel_i64_argument(%a: memref<4xf32>) -> (%b: memref<4xf32>) {
  // expected-error @+1 {{'xloop.parallel' op body must have one index argument}}
  "xloop.parallel"() <{lower = 0 : i64, static_upper = 4 : i64}> ({
  ^bb0(%i: i64):
    "xloop.yield"() : () -> ()
  }) : () -> ()
}

// -----

xloop.kernel @parallel_two_arguments(%a: memref<4xf32>) -> (%b: memref<4xf32>) {
  // expected-error @+1 {{'xloop.parallel' op body must have one index argument}}
  "xloop.parallel"() <{lower = 0 : i64, static_upper = 4 : i64}> ({
  ^bb0(%i: index, %j: index):
    "xloop.yield"() : () -> ()
  }) : () -> ()
}

// -----

xloop.kernel @parallel_empty_block(%a: memref<4xf32>) -> (%b: memref<4xf32>) {
  // expected-error @+1 {{'xloop.parallel' op expects a non-empty block}}
  "xloop.parallel"() <{lower = 0 : i64, static_upper = 4 : i64}> ({
  ^bb0(%i: index):
  }) : () -> ()
}

// -----

xloop.kernel @parallel_no_region(%a: memref<4xf32>) -> (%b: memref<4xf32>) {
  // expected-error @+1 {{'xloop.parallel' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
  "xloop.parallel"() <{lower = 0 : i64, static_upper = 4 : i64}> ({
  }) : () -> ()
}

// -----

xloop.kernel @parallel_bad_terminator(%a: memref<4xf32>) -> (%b: memref<4xf32>) {
  "xloop.parallel"() <{lower = 0 : i64, static_upper = 4 : i64}> ({
  ^bb0(%i: index):
    // expected-error @+1 {{block with no terminator}}
    %c = arith.constant 0 : index
  }) : () -> ()
}

// -----

//===----------------------------------------------------------------------===//
// xloop.fold
//===----------------------------------------------------------------------===//

xloop.kernel @fold_negative_lower(%a: memref<4xf32>) -> (%b: memref<f32>) {
  %z = arith.constant 0.0 : f32
  // expected-error @+1 {{'xloop.fold' op bounds [-2, 4) must satisfy 0 <= lower <= upper}}
  %r = xloop.fold %i = -2 to 4 combine add init(%z) : f32 {
    xloop.yield %z : f32
  }
  xloop.store %r, %b[] : memref<f32>
}

// -----

xloop.kernel @fold_upper_below_lower(%a: memref<4xf32>) -> (%b: memref<f32>) {
  %z = arith.constant 0.0 : f32
  // expected-error @+1 {{'xloop.fold' op bounds [3, 1) must satisfy 0 <= lower <= upper}}
  %r = xloop.fold %i = 3 to 1 combine add init(%z) : f32 {
    xloop.yield %z : f32
  }
  xloop.store %r, %b[] : memref<f32>
}

// -----

xloop.kernel @fold_no_index(%a: memref<4xf32>) -> (%b: memref<f32>) {
  %z = arith.constant 0.0 : f32
  // expected-error @+1 {{'xloop.fold' op body must have one index argument}}
  %r = "xloop.fold"(%z) <{lower = 0 : i64, static_upper = 4 : i64, combine = 0 : i32}> ({
    "xloop.yield"(%z) : (f32) -> ()
  }) : (f32) -> f32
  xloop.store %r, %b[] : memref<f32>
}

// -----

xloop.kernel @fold_f32_argument(%a: memref<4xf32>) -> (%b: memref<f32>) {
  %z = arith.constant 0.0 : f32
  // expected-error @+1 {{'xloop.fold' op body must have one index argument}}
  %r = "xloop.fold"(%z) <{lower = 0 : i64, static_upper = 4 : i64, combine = 0 : i32}> ({
  ^bb0(%i: f32):
    "xloop.yield"(%i) : (f32) -> ()
  }) : (f32) -> f32
  xloop.store %r, %b[] : memref<f32>
}

// -----

xloop.kernel @fold_yields_wrong_type(%a: memref<4xi32>) -> (%b: memref<f32>) {
  %z = arith.constant 0.0 : f32
  // expected-error @+1 {{'xloop.fold' op body must yield one 'f32' per iteration}}
  %r = xloop.fold %i = 0 to 4 combine add init(%z) : f32 {
    %v = xloop.load %a[%i] : memref<4xi32>
    xloop.yield %v : i32
  }
  xloop.store %r, %b[] : memref<f32>
}

// -----

xloop.kernel @fold_yields_nothing(%a: memref<4xf32>) -> (%b: memref<f32>) {
  %z = arith.constant 0.0 : f32
  // expected-error @+1 {{'xloop.fold' op body must yield one 'f32' per iteration}}
  %r = xloop.fold %i = 0 to 4 combine add init(%z) : f32 {
    xloop.yield
  }
  xloop.store %r, %b[] : memref<f32>
}

// -----

xloop.kernel @fold_yields_two(%a: memref<4xf32>) -> (%b: memref<f32>) {
  %z = arith.constant 0.0 : f32
  // expected-error @+1 {{'xloop.fold' op body must yield one 'f32' per iteration}}
  %r = xloop.fold %i = 0 to 4 combine add init(%z) : f32 {
    %v = xloop.load %a[%i] : memref<4xf32>
    xloop.yield %v, %v : f32, f32
  }
  xloop.store %r, %b[] : memref<f32>
}

// -----

xloop.kernel @fold_without_terminator(%a: memref<4xf32>) -> (%b: memref<f32>) {
  %z = arith.constant 0.0 : f32
  // expected-error @+1 {{'xloop.fold' op body must yield one 'f32' per iteration}}
  %r = xloop.fold %i = 0 to 4 combine add init(%z) : f32 {
    %v = xloop.load %a[%i] : memref<4xf32>
  }
  xloop.store %r, %b[] : memref<f32>
}

// -----

xloop.kernel @fold_and_on_float(%a: memref<4xf32>) -> (%b: memref<f32>) {
  %z = arith.constant 0.0 : f32
  // expected-error @+1 {{'xloop.fold' op combine 'and' needs an integer type, got 'f32'}}
  %r = xloop.fold %i = 0 to 4 combine and init(%z) : f32 {
    %v = xloop.load %a[%i] : memref<4xf32>
    xloop.yield %v : f32
  }
  xloop.store %r, %b[] : memref<f32>
}

// -----

xloop.kernel @fold_or_on_half(%a: memref<4xf16>) -> (%b: memref<f16>) {
  %z = arith.constant 0.0 : f16
  // expected-error @+1 {{'xloop.fold' op combine 'or' needs an integer type, got 'f16'}}
  %r = xloop.fold %i = 0 to 4 combine or init(%z) : f16 {
    %v = xloop.load %a[%i] : memref<4xf16>
    xloop.yield %v : f16
  }
  xloop.store %r, %b[] : memref<f16>
}

// -----

xloop.kernel @fold_unknown_combine(%a: memref<4xf32>) -> (%b: memref<f32>) {
  %z = arith.constant 0.0 : f32
  // expected-error @+1 {{unknown combine operation 'xor' (expected add, mul, max, min, and or or)}}
  %r = xloop.fold %i = 0 to 4 combine xor init(%z) : f32 {
    %v = xloop.load %a[%i] : memref<4xf32>
    xloop.yield %v : f32
  }
  xloop.store %r, %b[] : memref<f32>
}

// -----

xloop.kernel @fold_combine_out_of_range(%a: memref<4xf32>) -> (%b: memref<f32>) {
  %z = arith.constant 0.0 : f32
  // expected-error @+1 {{invalid properties {combine = 6 : i32, lower = 0 : i64, upper = 4 : i64} for op xloop.fold: Invalid attribute `combine` in property conversion: 6 : i32}}
  %r = "xloop.fold"(%z) <{lower = 0 : i64, upper = 4 : i64, combine = 6 : i32}> ({
  ^bb0(%i: index):
    "xloop.yield"(%z) : (f32) -> ()
  }) : (f32) -> f32
  xloop.store %r, %b[] : memref<f32>
}

// -----

xloop.kernel @fold_of_index(%a: memref<4xf32>) -> (%b: memref<f32>) {
  %z = arith.constant 0 : index
  // expected-error @+1 {{'xloop.fold' op operand #0 must be integer or float scalar, but got 'index'}}
  %r = xloop.fold %i = 0 to 4 combine add init(%z) : index {
    xloop.yield %i : index
  }
}

// -----

xloop.kernel @fold_no_region(%a: memref<4xf32>) -> (%b: memref<f32>) {
  %z = arith.constant 0.0 : f32
  // expected-error @+1 {{'xloop.fold' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
  %r = "xloop.fold"(%z) <{lower = 0 : i64, static_upper = 4 : i64, combine = 0 : i32}> ({
  }) : (f32) -> f32
  xloop.store %r, %b[] : memref<f32>
}

// -----

//===----------------------------------------------------------------------===//
// xloop.yield
//===----------------------------------------------------------------------===//

func.func @yield_in_function() {
  // expected-error @+1 {{'xloop.yield' op expects parent op to be one of 'xloop.parallel, xloop.fold, xloop.online_fold'}}
  xloop.yield
}

// -----

xloop.kernel @yield_in_kernel(%a: memref<4xf32>) -> (%b: memref<4xf32>) {
  // expected-error @+1 {{'xloop.yield' op expects parent op to be one of 'xloop.parallel, xloop.fold, xloop.online_fold'}}
  xloop.yield
}

// -----

//===----------------------------------------------------------------------===//
// xloop.load and xloop.store
//===----------------------------------------------------------------------===//

xloop.kernel @load_too_few_indices(%a: memref<4x8xf32>) -> (%b: memref<4xf32>) {
  xloop.parallel %i = 0 to 4 {
    // expected-error @+1 {{'xloop.load' op has 1 indices for 'memref<4x8xf32>' of rank 2}}
    %v = xloop.load %a[%i] : memref<4x8xf32>
    xloop.store %v, %b[%i] : memref<4xf32>
  }
}

// -----

xloop.kernel @load_rank0_with_index(%a: memref<f32>) -> (%b: memref<4xf32>) {
  xloop.parallel %i = 0 to 4 {
    // expected-error @+1 {{'xloop.load' op has 1 indices for 'memref<f32>' of rank 0}}
    %v = xloop.load %a[%i] : memref<f32>
    xloop.store %v, %b[%i] : memref<4xf32>
  }
}

// -----

xloop.kernel @store_too_many_indices(%a: memref<4xf32>) -> (%b: memref<4xf32>) {
  xloop.parallel %i = 0 to 4 {
    %v = xloop.load %a[%i] : memref<4xf32>
    // expected-error @+1 {{'xloop.store' op has 2 indices for 'memref<4xf32>' of rank 1}}
    xloop.store %v, %b[%i, %i] : memref<4xf32>
  }
}

// -----

xloop.kernel @store_rank0_missing_index(%a: memref<f32>) -> (%b: memref<4xf32>) {
  %v = xloop.load %a[] : memref<f32>
  // expected-error @+1 {{'xloop.store' op has 0 indices for 'memref<4xf32>' of rank 1}}
  xloop.store %v, %b[] : memref<4xf32>
}

// -----

func.func @load_outside_kernel(%a: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'xloop.load' op must access a buffer of its enclosing kernel}}
  %v = xloop.load %a[%c0] : memref<4xf32>
  return %v : f32
}

// -----

xloop.kernel @load_of_cast(%a: memref<4xf32>) -> (%b: memref<4xf32>) {
  %c = arith.constant 0 : i32
  %m = builtin.unrealized_conversion_cast %c : i32 to memref<4xf32>
  xloop.parallel %i = 0 to 4 {
    // expected-error @+1 {{'xloop.load' op must access a buffer of its enclosing kernel}}
    %v = xloop.load %m[%i] : memref<4xf32>
    xloop.store %v, %b[%i] : memref<4xf32>
  }
}

// -----

func.func @store_outside_kernel(%a: memref<4xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'xloop.store' op must access a buffer of its enclosing kernel}}
  xloop.store %v, %a[%c0] : memref<4xf32>
  return
}

// -----

xloop.kernel @store_value_type_mismatch(%a: memref<4xi32>) -> (%b: memref<4xf32>) {
  xloop.parallel %i = 0 to 4 {
    %v = xloop.load %a[%i] : memref<4xi32>
    // expected-error @+1 {{'xloop.store' op failed to verify that value is the buffer's element type}}
    "xloop.store"(%v, %b, %i) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> : (i32, memref<4xf32>, index) -> ()
  }
}

// -----

xloop.kernel @store_value_type_mismatch_custom(%a: memref<4xi32>) -> (%b: memref<4xf32>) {
  xloop.parallel %i = 0 to 4 {
    // expected-note @+1 {{prior use here}}
    %v = xloop.load %a[%i] : memref<4xi32>
    // expected-error @+1 {{use of value '%v' expects different type than prior uses: 'f32' vs 'i32'}}
    xloop.store %v, %b[%i] : memref<4xf32>
  }
}

// -----

xloop.kernel @load_result_type_mismatch(%a: memref<4xf32>) -> (%b: memref<4xi32>) {
  xloop.parallel %i = 0 to 4 {
    // expected-error @+1 {{'xloop.load' op failed to verify that result is the buffer's element type}}
    %v = "xloop.load"(%a, %i) : (memref<4xf32>, index) -> i32
    xloop.store %v, %b[%i] : memref<4xi32>
  }
}

// -----

xloop.kernel @load_i32_index(%a: memref<4xf32>) -> (%b: memref<f32>) {
  %c = arith.constant 0 : i32
  // expected-error @+1 {{'xloop.load' op operand #1 must be variadic of index, but got 'i32'}}
  %v = "xloop.load"(%a, %c) : (memref<4xf32>, i32) -> f32
  xloop.store %v, %b[] : memref<f32>
}

// -----

// A dynamic size of a buffer is a size of the kernel.
// expected-error @+1 {{'xloop.kernel' op buffer #0 must be a statically shaped memref, got 'memref<?xf32>'}}
xloop.kernel @load_dynamic_buffer(%a: memref<?xf32>) -> (%b: memref<f32>) {
}

// -----

func.func @load_unranked_buffer(%a: memref<*xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'xloop.load' op operand #0 must be memref of any type values, but got 'memref<*xf32>'}}
  %v = "xloop.load"(%a, %c0) : (memref<*xf32>, index) -> f32
  return %v : f32
}

// -----

// A fold with an empty body.
xloop.kernel @empty_fold(%x: memref<4xf32>) -> (%y: memref<f32>) {
  %z = arith.constant 0.0 : f32
  // expected-error @+1 {{'xloop.fold' op body must yield one 'f32' per iteration}}
  %r = xloop.fold %i = 0 to 4 combine add init(%z) : f32 {
  }
  xloop.store %r, %y[] : memref<f32>
}

// -----

// expected-error @+1 {{'xloop.kernel' op num_inputs must be non-negative, got -1}}
"xloop.kernel"() <{sym_name = "k", num_inputs = -1 : i64}> ({
^bb0(%a: memref<f32>, %b: memref<f32>):
}) : () -> ()

// -----

xloop.kernel @init_type(%x: memref<4xi32>) -> (%y: memref<i32>) {
  %z = arith.constant 0.0 : f32
  // expected-error @+1 {{'xloop.fold' op init 'f32' must have the result type 'i32'}}
  %r = "xloop.fold"(%z) <{lower = 0 : i64, static_upper = 4 : i64, combine = 0 : i32}> ({
  ^bb0(%i: index):
    %v = xloop.load %x[%i] : memref<4xi32>
    xloop.yield %v : i32
  }) : (f32) -> i32
  xloop.store %r, %y[] : memref<i32>
}

// -----

xloop.kernel @parallel_yield(%x: memref<4xf32>) -> (%y: memref<4xf32>) {
  // expected-error @+1 {{'xloop.parallel' op body must end with an xloop.yield of no values}}
  xloop.parallel %i = 0 to 4 {
    %v = xloop.load %x[%i] : memref<4xf32>
    xloop.store %v, %y[%i] : memref<4xf32>
    xloop.yield %v : f32
  }
}

// -----

// Outputs are write-only: loads are pure only because inputs never change.
xloop.kernel @load_output(%x: memref<4xf32>) -> (%y: memref<4xf32>) {
  xloop.parallel %i = 0 to 4 {
    %v = xloop.load %x[%i] : memref<4xf32>
    xloop.store %v, %y[%i] : memref<4xf32>
    // expected-error @+1 {{'xloop.load' op must load from an input buffer of its kernel (outputs are write-only)}}
    %w = xloop.load %y[%i] : memref<4xf32>
  }
}

// -----

// An online fold yields a score and one value per weight.
xloop.kernel @online_yield(%x: memref<4xf32>) -> (%y: memref<f32>) {
  // expected-error @+1 {{'xloop.online_fold' op body must yield a score and 1 weights, all 'f32', per iteration}}
  %m, %l, %a = xloop.online_fold %j = 0 to 4 : f32 weights 1 {
    %v = xloop.load %x[%j] : memref<4xf32>
    xloop.yield %v : f32
  }
  xloop.store %a, %y[] : memref<f32>
}

// -----

xloop.kernel @online_weights(%x: memref<4xf32>) -> (%y: memref<f32>) {
  // expected-error @+1 {{expected 0 to 64 weights}}
  %m, %l = xloop.online_fold %j = 0 to 4 : f32 weights -1 {
    %v = xloop.load %x[%j] : memref<4xf32>
    xloop.yield %v : f32
  }
  xloop.store %l, %y[] : memref<f32>
}

// -----

// `xloop.identity` is a string on an xloop.kernel.
// expected-error @+1 {{'xloop.identity' must be a string, got 7 : i64}}
xloop.kernel @identity_kind(%x: memref<4xf32>) -> (%y: memref<4xf32>) attributes {xloop.identity = 7 : i64} {
  xloop.parallel %i = 0 to 4 {
    %v = xloop.load %x[%i] : memref<4xf32>
    xloop.store %v, %y[%i] : memref<4xf32>
  }
}

// -----

// expected-error @+1 {{'xloop.identity' belongs on an 'xloop.kernel'}}
func.func @identity_place() attributes {xloop.identity = "k"} {
  return
}

// -----

// expected-error @+1 {{unknown xloop attribute 'xloop.identty'}}
func.func @unknown_attribute() attributes {xloop.identty = "k"} {
  return
}

// -----

//===----------------------------------------------------------------------===//
// xloop.launch updates
//===----------------------------------------------------------------------===//

xloop.kernel @id(%a: memref<4xf32>) -> (%c: memref<4xf32>) {
}

func.func @updates_count(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xloop.launch' op has 2 'updates' entries for 1 output(s)}}
  %c = xloop.launch @id(%a) {updates = array<i64: 0, -1>} : (tensor<4xf32>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

xloop.kernel @id(%a: memref<4xf32>) -> (%c: memref<4xf32>) {
}

func.func @updates_missing_operand(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xloop.launch' op output #0 updates operand #1, which the launch does not have}}
  %c = xloop.launch @id(%a) {updates = array<i64: 1>} : (tensor<4xf32>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

xloop.kernel @widen(%a: memref<4xbf16>) -> (%c: memref<4xf32>) {
}

func.func @updates_other_type(%a: tensor<4xbf16>) -> tensor<4xf32> {
  // expected-error @+1 {{'xloop.launch' op output #0 'tensor<4xf32>' cannot update operand #0 'tensor<4xbf16>' in place}}
  %c = xloop.launch @widen(%a) {updates = array<i64: 0>} : (tensor<4xbf16>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

xloop.kernel @two(%a: memref<4xf32>) -> (%c: memref<4xf32>, %d: memref<4xf32>) {
}

func.func @updates_twice(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // expected-error @+1 {{'xloop.launch' op updates operand #0 twice}}
  %c:2 = xloop.launch @two(%a) {updates = array<i64: 0, 0>} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %c#0, %c#1 : tensor<4xf32>, tensor<4xf32>
}
