// RUN: xtile-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// #xtile.target
//===----------------------------------------------------------------------===//

xtile.kernel @target_not_nvidia(%a: memref<4xf32>) -> (%b: memref<4xf32>)
    // expected-error @+1 {{arch must name an NVIDIA architecture (sm_XY), got 'gfx90a'}}
    attributes {grid = array<i64: 1>, num_warps = 4 : i64, target = #xtile.target<arch = "gfx90a", sms = 104, max_threads = 1024, shared_memory = 65536, registers = 65536, bandwidth = 1600, l2 = 8388608>} {
}

// -----

xtile.kernel @target_empty_arch(%a: memref<4xf32>) -> (%b: memref<4xf32>)
    // expected-error @+1 {{arch must name an NVIDIA architecture (sm_XY), got ''}}
    attributes {grid = array<i64: 1>, num_warps = 4 : i64, target = #xtile.target<arch = "", sms = 108, max_threads = 1024, shared_memory = 166912, registers = 65536, bandwidth = 2039, l2 = 41943040>} {
}

// -----

xtile.kernel @target_zero_sms(%a: memref<4xf32>) -> (%b: memref<4xf32>)
    // expected-error @+1 {{sms must be positive, got 0}}
    attributes {grid = array<i64: 1>, num_warps = 4 : i64, target = #xtile.target<arch = "sm_80", sms = 0, max_threads = 1024, shared_memory = 166912, registers = 65536, bandwidth = 2039, l2 = 41943040>} {
}

// -----

xtile.kernel @target_negative_max_threads(%a: memref<4xf32>) -> (%b: memref<4xf32>)
    // expected-error @+1 {{max_threads must be positive, got -1024}}
    attributes {grid = array<i64: 1>, num_warps = 4 : i64, target = #xtile.target<arch = "sm_80", sms = 108, max_threads = -1024, shared_memory = 166912, registers = 65536, bandwidth = 2039, l2 = 41943040>} {
}

// -----

xtile.kernel @target_zero_shared_memory(%a: memref<4xf32>) -> (%b: memref<4xf32>)
    // expected-error @+1 {{shared_memory must be positive, got 0}}
    attributes {grid = array<i64: 1>, num_warps = 4 : i64, target = #xtile.target<arch = "sm_80", sms = 108, max_threads = 1024, shared_memory = 0, registers = 65536, bandwidth = 2039, l2 = 41943040>} {
}

// -----

xtile.kernel @target_zero_registers(%a: memref<4xf32>) -> (%b: memref<4xf32>)
    // expected-error @+1 {{registers must be positive, got 0}}
    attributes {grid = array<i64: 1>, num_warps = 4 : i64, target = #xtile.target<arch = "sm_80", sms = 108, max_threads = 1024, shared_memory = 166912, registers = 0, bandwidth = 2039, l2 = 41943040>} {
}

// -----

xtile.kernel @target_negative_bandwidth(%a: memref<4xf32>) -> (%b: memref<4xf32>)
    // expected-error @+1 {{bandwidth must be positive, got -1}}
    attributes {grid = array<i64: 1>, num_warps = 4 : i64, target = #xtile.target<arch = "sm_80", sms = 108, max_threads = 1024, shared_memory = 166912, registers = 65536, bandwidth = -1, l2 = 41943040>} {
}

// -----

xtile.kernel @target_zero_l2(%a: memref<4xf32>) -> (%b: memref<4xf32>)
    // expected-error @+1 {{l2 must be positive, got 0}}
    attributes {grid = array<i64: 1>, num_warps = 4 : i64, target = #xtile.target<arch = "sm_80", sms = 108, max_threads = 1024, shared_memory = 166912, registers = 65536, bandwidth = 2039, l2 = 0>} {
}

// -----

xtile.kernel @target_missing_field(%a: memref<4xf32>) -> (%b: memref<4xf32>)
    // expected-error @+1 {{struct is missing required parameter: l2}}
    attributes {grid = array<i64: 1>, num_warps = 4 : i64, target = #xtile.target<arch = "sm_80", sms = 108, max_threads = 1024, shared_memory = 166912, registers = 65536, bandwidth = 2039>} {
}

// -----

// expected-error @+1 {{invalid properties {grid = array<i64: 1>, num_inputs = 1 : i64, num_warps = 4 : i64, sym_name = "target_not_an_attr", target = "sm_90"} for op xtile.kernel: Invalid attribute `target` in property conversion: "sm_90"}}
"xtile.kernel"() <{sym_name = "target_not_an_attr", num_inputs = 1 : i64, grid = array<i64: 1>, num_warps = 4 : i64, target = "sm_90"}> ({
^bb0(%a: memref<4xf32>, %b: memref<4xf32>):
}) : () -> ()

// -----

//===----------------------------------------------------------------------===//
// xtile.kernel: buffers
//===----------------------------------------------------------------------===//

// expected-error @+1 {{'xtile.kernel' op num_inputs must be non-negative, got -1}}
"xtile.kernel"() <{sym_name = "negative_inputs", num_inputs = -1 : i64, grid = array<i64: 1>, num_warps = 4 : i64}> ({
^bb0(%a: memref<4xf32>, %b: memref<4xf32>):
}) : () -> ()

// -----

// expected-error @+1 {{'xtile.kernel' op num_inputs 3 exceeds its 2 buffers}}
"xtile.kernel"() <{sym_name = "too_many_inputs", num_inputs = 3 : i64, grid = array<i64: 1>, num_warps = 4 : i64}> ({
^bb0(%a: memref<4xf32>, %b: memref<4xf32>):
}) : () -> ()

// -----

// expected-error @+1 {{'xtile.kernel' op needs at least one output buffer}}
xtile.kernel @no_output(%a: memref<4xf32>) -> () attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
}

// -----

// expected-error @+1 {{'xtile.kernel' op needs at least one output buffer}}
xtile.kernel @no_buffers() -> () attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
}

// -----

// expected-error @+1 {{'xtile.kernel' op buffer #0 must be a statically shaped memref, got 'f32'}}
xtile.kernel @scalar_input(%a: f32) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
}

// -----

// expected-error @+1 {{'xtile.kernel' op buffer #1 must be a statically shaped memref, got 'tensor<4xf32>'}}
xtile.kernel @tensor_output(%a: memref<4xf32>) -> (%b: tensor<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
}

// -----

// expected-error @+1 {{'xtile.kernel' op buffer #2 must be a statically shaped memref, got 'memref<?xf32>'}}
xtile.kernel @dynamic_output(%a: memref<4xf32>) -> (%b: memref<4xf32>, %c: memref<?xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
}

// -----

// expected-error @+1 {{'xtile.kernel' op buffer #0 must be a statically shaped memref, got 'memref<*xf32>'}}
xtile.kernel @unranked_input(%a: memref<*xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
}

// -----

// expected-error @+1 {{custom op 'xtile.kernel' attribute 'num_inputs' occurs more than once in the attribute list}}
xtile.kernel @num_inputs_written(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_inputs = 1 : i64, num_warps = 4 : i64} {
}

// -----

// expected-error @+1 {{'xtile.kernel' op requires attribute 'num_inputs'}}
"xtile.kernel"() <{sym_name = "no_num_inputs", grid = array<i64: 1>, num_warps = 4 : i64}> ({
^bb0(%a: memref<4xf32>, %b: memref<4xf32>):
}) : () -> ()

// -----

// expected-error @+1 {{'xtile.kernel' op requires attribute 'sym_name'}}
"xtile.kernel"() <{num_inputs = 1 : i64, grid = array<i64: 1>, num_warps = 4 : i64}> ({
^bb0(%a: memref<4xf32>, %b: memref<4xf32>):
}) : () -> ()

// -----

// expected-error @+1 {{'xtile.kernel' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
"xtile.kernel"() <{sym_name = "no_body", num_inputs = 0 : i64, grid = array<i64: 1>, num_warps = 4 : i64}> ({
}) : () -> ()

// -----

//===----------------------------------------------------------------------===//
// xtile.kernel: grid and warps
//===----------------------------------------------------------------------===//

// expected-error @+1 {{'xtile.kernel' op grid must have 1 to 3 positive dimensions, got []}}
xtile.kernel @empty_grid(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64>, num_warps = 4 : i64} {
}

// -----

// expected-error @+1 {{'xtile.kernel' op grid must have 1 to 3 positive dimensions, got [2, 2, 2, 2]}}
xtile.kernel @grid_4d(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 2, 2, 2, 2>, num_warps = 4 : i64} {
}

// -----

// expected-error @+1 {{'xtile.kernel' op grid must have 1 to 3 positive dimensions, got [4, 0]}}
xtile.kernel @grid_zero(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 4, 0>, num_warps = 4 : i64} {
}

// -----

// expected-error @+1 {{'xtile.kernel' op grid must have 1 to 3 positive dimensions, got [-1]}}
xtile.kernel @grid_negative(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: -1>, num_warps = 4 : i64} {
}

// -----

// expected-error @+1 {{'xtile.kernel' op requires attribute 'grid'}}
xtile.kernel @no_grid(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {num_warps = 4 : i64} {
}

// -----

// expected-error @+1 {{'xtile.kernel' op requires attribute 'num_warps'}}
xtile.kernel @no_num_warps(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>} {
}

// -----

// expected-error @+1 {{'xtile.kernel' op num_warps must be a power of two in [1, 32], got 3}}
xtile.kernel @warps_not_power_of_two(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 3 : i64} {
}

// -----

// expected-error @+1 {{'xtile.kernel' op num_warps must be a power of two in [1, 32], got 0}}
xtile.kernel @zero_warps(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 0 : i64} {
}

// -----

// expected-error @+1 {{'xtile.kernel' op num_warps must be a power of two in [1, 32], got -4}}
xtile.kernel @negative_warps(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = -4 : i64} {
}

// -----

// expected-error @+1 {{'xtile.kernel' op num_warps must be a power of two in [1, 32], got 64}}
xtile.kernel @too_many_warps(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 64 : i64} {
}

// -----

// expected-error @+1 {{'xtile.kernel' op 32 warps exceed the 512 threads per block of sm_75}}
xtile.kernel @warps_exceed_target(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 32 : i64, target = #xtile.target<arch = "sm_75", sms = 40, max_threads = 512, shared_memory = 65536, registers = 65536, bandwidth = 320, l2 = 4194304>} {
}

// -----

// expected-error @+1 {{attribute 'num_warps' failed to satisfy constraint: 64-bit signless integer attribute}}
xtile.kernel @warps_i32(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i32} {
}

// -----

// expected-error @+1 {{Invalid attribute `schedule` in property conversion: 3 : i64}}
"xtile.kernel"() <{sym_name = "schedule_not_string", num_inputs = 1 : i64, grid = array<i64: 1>, num_warps = 4 : i64, schedule = 3 : i64}> ({
^bb0(%a: memref<4xf32>, %b: memref<4xf32>):
}) : () -> ()

// -----

// expected-error @+1 {{Invalid attribute `grid` in property conversion: [1]}}
"xtile.kernel"() <{sym_name = "grid_not_an_array", num_inputs = 1 : i64, grid = [1], num_warps = 4 : i64}> ({
^bb0(%a: memref<4xf32>, %b: memref<4xf32>):
}) : () -> ()

// -----

//===----------------------------------------------------------------------===//
// xtile.program_id
//===----------------------------------------------------------------------===//

func.func @program_id_outside_kernel() -> index {
  // expected-error @+1 {{'xtile.program_id' op must be inside an xtile.kernel}}
  %p = xtile.program_id 0
  return %p : index
}

// -----

xtile.kernel @program_id_past_grid(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 4, 4>, num_warps = 4 : i64} {
  // expected-error @+1 {{'xtile.program_id' op dim 2 is out of range for a grid of 2 dimension(s)}}
  %p = xtile.program_id 2
}

// -----

xtile.kernel @program_id_negative(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 4>, num_warps = 4 : i64} {
  // expected-error @+1 {{'xtile.program_id' op dim -1 is out of range for a grid of 1 dimension(s)}}
  %p = xtile.program_id -1
}

// -----

xtile.kernel @program_id_i32(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 4>, num_warps = 4 : i64} {
  // expected-error @+1 {{'xtile.program_id' op result #0 must be index, but got 'i32'}}
  %p = "xtile.program_id"() <{dim = 0 : i64}> : () -> i32
}

// -----

xtile.kernel @program_id_no_dim(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 4>, num_warps = 4 : i64} {
  // expected-error @+1 {{'xtile.program_id' op requires attribute 'dim'}}
  %p = "xtile.program_id"() : () -> index
}

// -----

//===----------------------------------------------------------------------===//
// xtile.range
//===----------------------------------------------------------------------===//

xtile.kernel @range_size_mismatch(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  // expected-error @+1 {{'xtile.range' op result 'tensor<32xindex>' must be a 1-D tile of upper - lower = 64 elements}}
  %r = xtile.range 0 to 64 : tensor<32xindex>
}

// -----

xtile.kernel @range_2d(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  // expected-error @+1 {{'xtile.range' op result 'tensor<4x4xi32>' must be a 1-D tile of upper - lower = 16 elements}}
  %r = xtile.range 0 to 16 : tensor<4x4xi32>
}

// -----

xtile.kernel @range_empty(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  // expected-error @+1 {{'xtile.range' op upper 4 must exceed lower 4}}
  %r = xtile.range 4 to 4 : tensor<0xindex>
}

// -----

xtile.kernel @range_reversed(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  // expected-error @+1 {{'xtile.range' op upper 4 must exceed lower 8}}
  %r = xtile.range 8 to 4 : tensor<4xindex>
}

// -----

xtile.kernel @range_float(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  // expected-error @+1 {{'xtile.range' op result #0 must be statically shaped tensor of index or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xf32>'}}
  %r = xtile.range 0 to 4 : tensor<4xf32>
}

// -----

xtile.kernel @range_dynamic(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  // expected-error @+1 {{'xtile.range' op result #0 must be statically shaped tensor of index or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<?xindex>'}}
  %r = xtile.range 0 to 4 : tensor<?xindex>
}

// -----

//===----------------------------------------------------------------------===//
// xtile.splat, xtile.broadcast, xtile.reshape
//===----------------------------------------------------------------------===//

xtile.kernel @splat_type_mismatch(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %c = arith.constant 1.0 : f32
  // expected-error @+1 {{'xtile.splat' op operand 'f32' must be the element type of 'tensor<4xf16>'}}
  %s = xtile.splat %c : f32 -> tensor<4xf16>
}

// -----

xtile.kernel @splat_of_tile(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %c = arith.constant dense<1.0> : tensor<4xf32>
  // expected-error @+1 {{'xtile.splat' op operand 'tensor<4xf32>' must be the element type of 'tensor<4x4xf32>'}}
  %s = xtile.splat %c : tensor<4xf32> -> tensor<4x4xf32>
}

// -----

xtile.kernel @splat_dynamic(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %c = arith.constant 1.0 : f32
  // expected-error @+1 {{'xtile.splat' op result #0 must be statically shaped tensor of any type values, but got 'tensor<?xf32>'}}
  %s = xtile.splat %c : f32 -> tensor<?xf32>
}

// -----

xtile.kernel @broadcast_rank(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %c = arith.constant dense<1.0> : tensor<4xf32>
  // expected-error @+1 {{'xtile.broadcast' op cannot broadcast 'tensor<4xf32>' to 'tensor<4x4xf32>' (same rank and element type; each dimension 1 or equal)}}
  %s = xtile.broadcast %c : tensor<4xf32> -> tensor<4x4xf32>
}

// -----

xtile.kernel @broadcast_element_type(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %c = arith.constant dense<1.0> : tensor<4x1xf32>
  // expected-error @+1 {{'xtile.broadcast' op cannot broadcast 'tensor<4x1xf32>' to 'tensor<4x8xf16>' (same rank and element type; each dimension 1 or equal)}}
  %s = xtile.broadcast %c : tensor<4x1xf32> -> tensor<4x8xf16>
}

// -----

xtile.kernel @broadcast_dim(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %c = arith.constant dense<1.0> : tensor<4x2xf32>
  // expected-error @+1 {{'xtile.broadcast' op cannot broadcast 'tensor<4x2xf32>' to 'tensor<4x8xf32>' (same rank and element type; each dimension 1 or equal)}}
  %s = xtile.broadcast %c : tensor<4x2xf32> -> tensor<4x8xf32>
}

// -----

xtile.kernel @broadcast_of_scalar(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %c = arith.constant 1.0 : f32
  // expected-error @+1 {{'xtile.broadcast' op operand #0 must be statically shaped tensor of any type values, but got 'f32'}}
  %s = "xtile.broadcast"(%c) : (f32) -> tensor<4xf32>
}

// -----

xtile.kernel @reshape_count(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %c = arith.constant dense<1.0> : tensor<4x4xf32>
  // expected-error @+1 {{'xtile.reshape' op cannot reshape 'tensor<4x4xf32>' to 'tensor<8xf32>'}}
  %s = xtile.reshape %c : tensor<4x4xf32> -> tensor<8xf32>
}

// -----

xtile.kernel @reshape_element_type(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %c = arith.constant dense<1.0> : tensor<4x4xf32>
  // expected-error @+1 {{'xtile.reshape' op cannot reshape 'tensor<4x4xf32>' to 'tensor<16xi32>'}}
  %s = xtile.reshape %c : tensor<4x4xf32> -> tensor<16xi32>
}

// -----

//===----------------------------------------------------------------------===//
// xtile.load
//===----------------------------------------------------------------------===//

xtile.kernel @load_index_count(%a: memref<4x8xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %i = xtile.range 0 to 8 : tensor<8xindex>
  // expected-error @+1 {{'xtile.load' op has 1 indices for 'memref<4x8xf32>' of rank 2}}
  %v = xtile.load %a[%i] : memref<4x8xf32>[tensor<8xindex>] -> tensor<8xf32>
}

// -----

xtile.kernel @load_scalar_as_tile(%a: memref<4x8xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'xtile.load' op with scalar indices accesses one 'f32', not 'tensor<1xf32>'}}
  %v = xtile.load %a[%c0, %c0] : memref<4x8xf32>[index, index] -> tensor<1xf32>
}

// -----

xtile.kernel @load_scalar_element_type(%a: memref<4x8xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'xtile.load' op with scalar indices accesses one 'f32', not 'f16'}}
  %v = xtile.load %a[%c0, %c0] : memref<4x8xf32>[index, index] -> f16
}

// -----

xtile.kernel @load_tile_element_type(%a: memref<4x8xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %i = xtile.range 0 to 8 : tensor<8xindex>
  // expected-error @+1 {{'xtile.load' op accesses a tile of 'f32', not 'tensor<8xf16>'}}
  %v = xtile.load %a[%c0, %i] : memref<4x8xf32>[index, tensor<8xindex>] -> tensor<8xf16>
}

// -----

xtile.kernel @load_tile_as_scalar(%a: memref<4x8xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %i = xtile.range 0 to 8 : tensor<8xindex>
  // expected-error @+1 {{'xtile.load' op with tile indices accesses a tile of 'f32', not one 'f32'}}
  %v = xtile.load %a[%c0, %i] : memref<4x8xf32>[index, tensor<8xindex>] -> f32
}

// -----

xtile.kernel @load_index_shape(%a: memref<4x8xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %r = xtile.range 0 to 4 : tensor<4xindex>
  %c = xtile.range 0 to 8 : tensor<8xindex>
  // expected-error @+1 {{'xtile.load' op index tile 'tensor<4xindex>' must have the shape of 'tensor<8xf32>'}}
  %v = xtile.load %a[%r, %c] : memref<4x8xf32>[tensor<4xindex>, tensor<8xindex>] -> tensor<8xf32>
}

// -----

xtile.kernel @load_mask_shape(%a: memref<4x8xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %i = xtile.range 0 to 8 : tensor<8xindex>
  %m = arith.constant dense<true> : tensor<4xi1>
  // expected-error @+1 {{'xtile.load' op mask 'tensor<4xi1>' must have the shape of 'tensor<8xf32>'}}
  %v = xtile.load %a[%c0, %i] mask %m : tensor<4xi1> : memref<4x8xf32>[index, tensor<8xindex>] -> tensor<8xf32>
}

// -----

xtile.kernel @load_scalar_with_mask(%a: memref<4x8xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %m = arith.constant dense<true> : tensor<1xi1>
  // expected-error @+1 {{'xtile.load' op with scalar indices takes no mask}}
  %v = xtile.load %a[%c0, %c0] mask %m : tensor<1xi1> : memref<4x8xf32>[index, index] -> f32
}

// -----

xtile.kernel @load_other_without_mask(%a: memref<4x8xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %i = xtile.range 0 to 8 : tensor<8xindex>
  %z = arith.constant 0.0 : f32
  // expected-error @+1 {{'xtile.load' op takes 'other' only with a mask}}
  %v = xtile.load %a[%c0, %i] other %z : f32 : memref<4x8xf32>[index, tensor<8xindex>] -> tensor<8xf32>
}

// -----

xtile.kernel @load_other_type(%a: memref<4x8xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %i = xtile.range 0 to 8 : tensor<8xindex>
  %m = arith.constant dense<true> : tensor<8xi1>
  %z = arith.constant 0.0 : f16
  // expected-error @+1 {{'xtile.load' op other 'f16' must be the element type of 'tensor<8xf32>'}}
  %v = xtile.load %a[%c0, %i] mask %m : tensor<8xi1> other %z : f16 : memref<4x8xf32>[index, tensor<8xindex>] -> tensor<8xf32>
}

// -----

xtile.kernel @load_other_tile(%a: memref<4x8xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %i = xtile.range 0 to 8 : tensor<8xindex>
  %m = arith.constant dense<true> : tensor<8xi1>
  %z = arith.constant dense<0.0> : tensor<8xf32>
  // expected-error @+1 {{'xtile.load' op other 'tensor<8xf32>' must be the element type of 'tensor<8xf32>'}}
  %v = xtile.load %a[%c0, %i] mask %m : tensor<8xi1> other %z : tensor<8xf32> : memref<4x8xf32>[index, tensor<8xindex>] -> tensor<8xf32>
}

// -----

xtile.kernel @load_i32_index(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %i = xtile.range 0 to 4 : tensor<4xi32>
  // expected-error @+1 {{'xtile.load' op operand #1 must be variadic of index or tile of indices, but got 'tensor<4xi32>'}}
  %v = xtile.load %a[%i] : memref<4xf32>[tensor<4xi32>] -> tensor<4xf32>
}

// -----

xtile.kernel @load_mask_not_i1(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %i = xtile.range 0 to 4 : tensor<4xindex>
  %m = arith.constant dense<1> : tensor<4xi8>
  // expected-error @+1 {{'xtile.load' op operand #2 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<4xi8>'}}
  %v = xtile.load %a[%i] mask %m : tensor<4xi8> : memref<4xf32>[tensor<4xindex>] -> tensor<4xf32>
}

// -----

xtile.kernel @load_segment_sizes(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %i = xtile.range 0 to 4 : tensor<4xindex>
  // expected-error @+1 {{'xtile.load' op operand count (2) does not match with the total size (3) specified in attribute 'operandSegmentSizes'}}
  %v = "xtile.load"(%a, %i) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> : (memref<4xf32>, tensor<4xindex>) -> tensor<4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// xtile.store
//===----------------------------------------------------------------------===//

xtile.kernel @store_index_count(%a: memref<4xf32>) -> (%b: memref<4x8xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %v = arith.constant 1.0 : f32
  // expected-error @+1 {{'xtile.store' op has 3 indices for 'memref<4x8xf32>' of rank 2}}
  xtile.store %v, %b[%c0, %c0, %c0] : memref<4x8xf32>[index, index, index], f32
}

// -----

xtile.kernel @store_accumulate_f16(%a: memref<4xf32>) -> (%b: memref<8xf16>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %i = xtile.range 0 to 8 : tensor<8xindex>
  %v = arith.constant dense<1.0> : tensor<8xf16>
  // expected-error @+1 {{'xtile.store' op accumulates into 'f16'; only f32, f64, i32 and i64 are added atomically}}
  xtile.store %v, %b[%i] accumulate : memref<8xf16>[tensor<8xindex>], tensor<8xf16>
}

// -----

xtile.kernel @store_scalar_type(%a: memref<4xf32>) -> (%b: memref<4x8xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %v = arith.constant 1 : i32
  // expected-error @+1 {{'xtile.store' op with scalar indices accesses one 'f32', not 'i32'}}
  xtile.store %v, %b[%c0, %c0] : memref<4x8xf32>[index, index], i32
}

// -----

xtile.kernel @store_tile_element_type(%a: memref<4xf32>) -> (%b: memref<4x8xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %i = xtile.range 0 to 8 : tensor<8xindex>
  %v = arith.constant dense<1.0> : tensor<8xbf16>
  // expected-error @+1 {{'xtile.store' op accesses a tile of 'f32', not 'tensor<8xbf16>'}}
  xtile.store %v, %b[%c0, %i] : memref<4x8xf32>[index, tensor<8xindex>], tensor<8xbf16>
}

// -----

xtile.kernel @store_index_shape(%a: memref<4xf32>) -> (%b: memref<4x8xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %i = xtile.range 0 to 8 : tensor<8xindex>
  %v = arith.constant dense<1.0> : tensor<2x4xf32>
  // expected-error @+1 {{'xtile.store' op index tile 'tensor<8xindex>' must have the shape of 'tensor<2x4xf32>'}}
  xtile.store %v, %b[%c0, %i] : memref<4x8xf32>[index, tensor<8xindex>], tensor<2x4xf32>
}

// -----

xtile.kernel @store_mask_shape(%a: memref<4xf32>) -> (%b: memref<4x8xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %i = xtile.range 0 to 8 : tensor<8xindex>
  %v = arith.constant dense<1.0> : tensor<8xf32>
  %m = arith.constant dense<true> : tensor<8x1xi1>
  // expected-error @+1 {{'xtile.store' op mask 'tensor<8x1xi1>' must have the shape of 'tensor<8xf32>'}}
  xtile.store %v, %b[%c0, %i] mask %m : tensor<8x1xi1> : memref<4x8xf32>[index, tensor<8xindex>], tensor<8xf32>
}

// -----

xtile.kernel @store_scalar_with_mask(%a: memref<4xf32>) -> (%b: memref<4x8xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %c0 = arith.constant 0 : index
  %v = arith.constant 1.0 : f32
  %m = arith.constant dense<true> : tensor<1xi1>
  // expected-error @+1 {{'xtile.store' op with scalar indices takes no mask}}
  xtile.store %v, %b[%c0, %c0] mask %m : tensor<1xi1> : memref<4x8xf32>[index, index], f32
}

// -----

xtile.kernel @store_f32_index(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %i = arith.constant 0.0 : f32
  %v = arith.constant 1.0 : f32
  // expected-error @+1 {{'xtile.store' op operand #2 must be variadic of index or tile of indices, but got 'f32'}}
  xtile.store %v, %b[%i] : memref<4xf32>[f32], f32
}

// -----

//===----------------------------------------------------------------------===//
// xtile.fold
//===----------------------------------------------------------------------===//

xtile.kernel @fold_no_dims(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %v = arith.constant dense<1.0> : tensor<4xf32>
  // expected-error @+1 {{'xtile.fold' op must reduce at least one dimension}}
  %s = xtile.fold add %v dims [] identity 0.0 : f32 strategy serial : tensor<4xf32> -> tensor<4xf32>
}

// -----

xtile.kernel @fold_dim_out_of_range(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %v = arith.constant dense<1.0> : tensor<4x8xf32>
  // expected-error @+1 {{'xtile.fold' op dims [2] must be sorted, unique dimensions of 'tensor<4x8xf32>'}}
  %s = xtile.fold add %v dims [2] identity 0.0 : f32 strategy serial : tensor<4x8xf32> -> tensor<4x8xf32>
}

// -----

xtile.kernel @fold_dim_negative(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %v = arith.constant dense<1.0> : tensor<4x8xf32>
  // expected-error @+1 {{'xtile.fold' op dims [-1] must be sorted, unique dimensions of 'tensor<4x8xf32>'}}
  %s = xtile.fold add %v dims [-1] identity 0.0 : f32 strategy serial : tensor<4x8xf32> -> tensor<4xf32>
}

// -----

xtile.kernel @fold_dims_unsorted(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %v = arith.constant dense<1.0> : tensor<4x8xf32>
  // expected-error @+1 {{'xtile.fold' op dims [1, 0] must be sorted, unique dimensions of 'tensor<4x8xf32>'}}
  %s = xtile.fold add %v dims [1, 0] identity 0.0 : f32 strategy serial : tensor<4x8xf32> -> f32
}

// -----

xtile.kernel @fold_dims_repeated(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %v = arith.constant dense<1.0> : tensor<4x8xf32>
  // expected-error @+1 {{'xtile.fold' op dims [0, 0] must be sorted, unique dimensions of 'tensor<4x8xf32>'}}
  %s = xtile.fold add %v dims [0, 0] identity 0.0 : f32 strategy serial : tensor<4x8xf32> -> tensor<8xf32>
}

// -----

xtile.kernel @fold_result_shape(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %v = arith.constant dense<1.0> : tensor<4x8xf32>
  // expected-error @+1 {{'xtile.fold' op result 'tensor<8xf32>' must be 'tensor<4xf32>' ('tensor<4x8xf32>' without dims [1])}}
  %s = xtile.fold add %v dims [1] identity 0.0 : f32 strategy serial : tensor<4x8xf32> -> tensor<8xf32>
}

// -----

xtile.kernel @fold_keeps_unit_dim(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %v = arith.constant dense<1.0> : tensor<4x8xf32>
  // expected-error @+1 {{'xtile.fold' op result 'tensor<4x1xf32>' must be 'tensor<4xf32>' ('tensor<4x8xf32>' without dims [1])}}
  %s = xtile.fold add %v dims [1] identity 0.0 : f32 strategy serial : tensor<4x8xf32> -> tensor<4x1xf32>
}

// -----

xtile.kernel @fold_full_to_tile(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %v = arith.constant dense<1.0> : tensor<4xf32>
  // expected-error @+1 {{'xtile.fold' op result 'tensor<1xf32>' must be 'f32' ('tensor<4xf32>' without dims [0])}}
  %s = xtile.fold add %v dims [0] identity 0.0 : f32 strategy serial : tensor<4xf32> -> tensor<1xf32>
}

// -----

xtile.kernel @fold_result_element_type(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %v = arith.constant dense<1.0> : tensor<4xf32>
  // expected-error @+1 {{'xtile.fold' op result 'f64' must be 'f32' ('tensor<4xf32>' without dims [0])}}
  %s = xtile.fold add %v dims [0] identity 0.0 : f32 strategy serial : tensor<4xf32> -> f64
}

// -----

xtile.kernel @fold_identity_type(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %v = arith.constant dense<1.0> : tensor<4xf32>
  // expected-error @+1 {{'xtile.fold' op identity 0 : i32 must have the element type of 'tensor<4xf32>'}}
  %s = xtile.fold add %v dims [0] identity 0 : i32 strategy serial : tensor<4xf32> -> f32
}

// -----

xtile.kernel @fold_and_on_float(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %v = arith.constant dense<1.0> : tensor<4xf32>
  // expected-error @+1 {{'xtile.fold' op combine 'and' needs integers, got 'tensor<4xf32>'}}
  %s = xtile.fold and %v dims [0] identity 0.0 : f32 strategy serial : tensor<4xf32> -> f32
}

// -----

xtile.kernel @fold_or_on_half(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %v = arith.constant dense<1.0> : tensor<4x2xf16>
  // expected-error @+1 {{'xtile.fold' op combine 'or' needs integers, got 'tensor<4x2xf16>'}}
  %s = xtile.fold or %v dims [1] identity 0.0 : f16 strategy serial : tensor<4x2xf16> -> tensor<4xf16>
}

// -----

xtile.kernel @fold_warp_unordered(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %v = arith.constant dense<1.0> : tensor<4xf32>
  // expected-error @+1 {{'xtile.fold' op strategy 'warp' reorders the fold: it must be associative and commutative}}
  %s = xtile.fold add %v dims [0] identity 0.0 : f32 strategy warp : tensor<4xf32> -> f32
}

// -----

xtile.kernel @fold_block_only_associative(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %v = arith.constant dense<1.0> : tensor<4xf32>
  // expected-error @+1 {{'xtile.fold' op strategy 'block' reorders the fold: it must be associative and commutative}}
  %s = xtile.fold add %v dims [0] identity 0.0 : f32 strategy block {associative} : tensor<4xf32> -> f32
}

// -----

xtile.kernel @fold_split_only_commutative(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %v = arith.constant dense<1.0> : tensor<4xf32>
  // expected-error @+1 {{'xtile.fold' op strategy 'split' reorders the fold: it must be associative and commutative}}
  %s = xtile.fold add %v dims [0] identity 0.0 : f32 strategy split {commutative} : tensor<4xf32> -> f32
}

// -----

xtile.kernel @fold_unknown_combine(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %v = arith.constant dense<1> : tensor<4xi32>
  // expected-error @+1 {{custom op 'xtile.fold' expected string or keyword containing one of the following enum values for attribute 'combine' [add, mul, max, min, and, or]}}
  %s = xtile.fold xor %v dims [0] identity 0 : i32 strategy serial : tensor<4xi32> -> i32
}

// -----

xtile.kernel @fold_unknown_strategy(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %v = arith.constant dense<1> : tensor<4xi32>
  // expected-error @+1 {{custom op 'xtile.fold' expected string or keyword containing one of the following enum values for attribute 'strategy' [serial, warp, block, split]}}
  %s = xtile.fold add %v dims [0] identity 0 : i32 strategy cluster : tensor<4xi32> -> i32
}

// -----

xtile.kernel @fold_combine_out_of_range(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %v = arith.constant dense<1> : tensor<4xi32>
  // expected-error @+1 {{Invalid attribute `combine` in property conversion: 6 : i32}}
  %s = "xtile.fold"(%v) <{combine = 6 : i32, dims = array<i64: 0>, identity = 0 : i32}> : (tensor<4xi32>) -> i32
}

// -----

xtile.kernel @fold_strategy_out_of_range(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %v = arith.constant dense<1> : tensor<4xi32>
  // expected-error @+1 {{Invalid attribute `strategy` in property conversion: 4 : i32}}
  %s = "xtile.fold"(%v) <{combine = 0 : i32, dims = array<i64: 0>, identity = 0 : i32, strategy = 4 : i32}> : (tensor<4xi32>) -> i32
}

// -----

xtile.kernel @fold_identity_untyped(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %v = arith.constant dense<1> : tensor<4xi32>
  // expected-error @+1 {{Invalid attribute `identity` in property conversion: [0 : i32]}}
  %s = "xtile.fold"(%v) <{combine = 0 : i32, dims = array<i64: 0>, identity = [0 : i32]}> : (tensor<4xi32>) -> i32
}

// -----

xtile.kernel @fold_of_scalar(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %v = arith.constant 1.0 : f32
  // expected-error @+1 {{custom op 'xtile.fold' invalid kind of type specified: expected builtin.tensor, but found 'f32'}}
  %s = xtile.fold add %v dims [0] identity 0.0 : f32 strategy serial : f32 -> f32
}

// -----

xtile.kernel @fold_of_scalar_generic(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %v = arith.constant 1.0 : f32
  // expected-error @+1 {{'xtile.fold' op operand #0 must be statically shaped tensor of any type values, but got 'f32'}}
  %s = "xtile.fold"(%v) <{combine = 0 : i32, dims = array<i64: 0>, identity = 0.0 : f32}> : (f32) -> f32
}

// -----

//===----------------------------------------------------------------------===//
// xtile.dot
//===----------------------------------------------------------------------===//

xtile.kernel @dot_k_mismatch(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %x = arith.constant dense<1.0> : tensor<16x32xf32>
  %y = arith.constant dense<1.0> : tensor<16x16xf32>
  %c = arith.constant dense<0.0> : tensor<16x16xf32>
  // expected-error @+1 {{'xtile.dot' op needs [M, K] x [K, N] -> [M, N] tiles, got 'tensor<16x32xf32>' x 'tensor<16x16xf32>' -> 'tensor<16x16xf32>'}}
  %d = xtile.dot %x, %y, %c : tensor<16x32xf32>, tensor<16x16xf32>, tensor<16x16xf32>
}

// -----

xtile.kernel @dot_acc_shape(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %x = arith.constant dense<1.0> : tensor<16x32xf32>
  %y = arith.constant dense<1.0> : tensor<32x8xf32>
  %c = arith.constant dense<0.0> : tensor<16x16xf32>
  // expected-error @+1 {{'xtile.dot' op needs [M, K] x [K, N] -> [M, N] tiles, got 'tensor<16x32xf32>' x 'tensor<32x8xf32>' -> 'tensor<16x16xf32>'}}
  %d = xtile.dot %x, %y, %c : tensor<16x32xf32>, tensor<32x8xf32>, tensor<16x16xf32>
}

// -----

xtile.kernel @dot_rank(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %x = arith.constant dense<1.0> : tensor<32xf32>
  %y = arith.constant dense<1.0> : tensor<32x16xf32>
  %c = arith.constant dense<0.0> : tensor<16xf32>
  // expected-error @+1 {{'xtile.dot' op needs [M, K] x [K, N] -> [M, N] tiles, got 'tensor<32xf32>' x 'tensor<32x16xf32>' -> 'tensor<16xf32>'}}
  %d = xtile.dot %x, %y, %c : tensor<32xf32>, tensor<32x16xf32>, tensor<16xf32>
}

// -----

xtile.kernel @dot_element_types(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %x = arith.constant dense<1.0> : tensor<16x32xf16>
  %y = arith.constant dense<1.0> : tensor<32x16xbf16>
  %c = arith.constant dense<0.0> : tensor<16x16xf32>
  // expected-error @+1 {{'xtile.dot' op operands 'tensor<16x32xf16>' and 'tensor<32x16xbf16>' must have the same element type}}
  %d = xtile.dot %x, %y, %c : tensor<16x32xf16>, tensor<32x16xbf16>, tensor<16x16xf32>
}

// -----

xtile.kernel @dot_half_accumulator(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %x = arith.constant dense<1.0> : tensor<16x32xf16>
  %y = arith.constant dense<1.0> : tensor<32x16xf16>
  %c = arith.constant dense<0.0> : tensor<16x16xf16>
  // expected-error @+1 {{'xtile.dot' op accumulator 'tensor<16x16xf16>' must be at least f32 and as wide as 'f16'}}
  %d = xtile.dot %x, %y, %c : tensor<16x32xf16>, tensor<32x16xf16>, tensor<16x16xf16>
}

// -----

xtile.kernel @dot_narrow_accumulator(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %x = arith.constant dense<1.0> : tensor<16x32xf64>
  %y = arith.constant dense<1.0> : tensor<32x16xf64>
  %c = arith.constant dense<0.0> : tensor<16x16xf32>
  // expected-error @+1 {{'xtile.dot' op accumulator 'tensor<16x16xf32>' must be at least f32 and as wide as 'f64'}}
  %d = xtile.dot %x, %y, %c : tensor<16x32xf64>, tensor<32x16xf64>, tensor<16x16xf32>
}

// -----

xtile.kernel @dot_integer_accumulator(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %x = arith.constant dense<1.0> : tensor<16x32xf32>
  %y = arith.constant dense<1.0> : tensor<32x16xf32>
  %c = arith.constant dense<0> : tensor<16x16xi32>
  // expected-error @+1 {{'xtile.dot' op accumulator 'tensor<16x16xi32>' must be at least f32 and as wide as 'f32'}}
  %d = xtile.dot %x, %y, %c : tensor<16x32xf32>, tensor<32x16xf32>, tensor<16x16xi32>
}

// -----

xtile.kernel @dot_result_type(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %x = arith.constant dense<1.0> : tensor<16x32xf32>
  %y = arith.constant dense<1.0> : tensor<32x16xf32>
  %c = arith.constant dense<0.0> : tensor<16x16xf32>
  // expected-error @+1 {{'xtile.dot' op failed to verify that all of {acc, result} have same type}}
  %d = "xtile.dot"(%x, %y, %c) : (tensor<16x32xf32>, tensor<32x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf64>
}

// -----

xtile.kernel @dot_of_scalars(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64} {
  %x = arith.constant 1.0 : f32
  // expected-error @+1 {{'xtile.dot' op operand #0 must be statically shaped tensor of any type values, but got 'f32'}}
  %d = "xtile.dot"(%x, %x, %x) : (f32, f32, f32) -> f32
}

// -----

// The kernel's own attributes are checked for their kinds in custom form too.
// expected-error @+1 {{attribute 'target' failed to satisfy constraint}}
xtile.kernel @target_kind(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, target = "sm_90"} {
}

// -----

xtile.kernel @identity(%a: memref<8xf32>) -> (%b: memref<f32>) attributes {grid = array<i64: 1>, num_warps = 1 : i64} {
  %i = xtile.range 0 to 8 : tensor<8xindex>
  %v = xtile.load %a[%i] : memref<8xf32>[tensor<8xindex>] -> tensor<8xf32>
  // expected-error @+1 {{'xtile.fold' op identity 5.000000e+00 : f32 is not the neutral element of 'add'}}
  %s = xtile.fold add %v dims [0] identity 5.0 : f32 strategy serial : tensor<8xf32> -> f32
  xtile.store %s, %b[] : memref<f32>, f32
}

// -----

xtile.kernel @int_dot(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 1 : i64} {
  %x = arith.constant dense<1> : tensor<16x16xi8>
  %c = arith.constant dense<0> : tensor<16x16xi8>
  // expected-error @+1 {{'xtile.dot' op accumulator 'tensor<16x16xi8>' must be an integer of at least 32 bits and as wide as 'i8'}}
  %d = xtile.dot %x, %x, %c : tensor<16x16xi8>, tensor<16x16xi8>, tensor<16x16xi8>
}

// -----

// expected-error @+1 {{fp32_gflops must be positive, got 0}}
xtile.kernel @target_zero_flops(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, target = #xtile.target<arch = "sm_80", sms = 108, max_threads = 1024, shared_memory = 166912, registers = 65536, bandwidth = 2039, l2 = 41943040, fp32_gflops = 0>} {
}

// -----

// expected-error @+1 {{max_threads 1024 exceeds max_threads_per_sm 512}}
xtile.kernel @target_block_beyond_sm(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, target = #xtile.target<arch = "sm_80", sms = 108, max_threads = 1024, shared_memory = 166912, registers = 65536, bandwidth = 2039, l2 = 41943040, max_threads_per_sm = 512>} {
}

//===----------------------------------------------------------------------===//
// Schedules
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{warps must be a power of two in [1, 32], got 3}}
xtile.kernel @row_warps(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.row_schedule<block, warps = 3, vector = 4>} {
}

// -----

// expected-error @+1 {{vector must be a power of two in [1, 16], got 3}}
xtile.kernel @row_vector(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.row_schedule<block, warps = 4, vector = 3>} {
}

// -----

// expected-error @+1 {{chunk must be a power of two of at least warps x 32 x vector = 512, got 256}}
xtile.kernel @row_chunk(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.row_schedule<block, warps = 4, vector = 4, chunk = 256>} {
}

// -----

// expected-error @+1 {{ways is given with, and only with, the split strategy}}
xtile.kernel @split_without_ways(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.row_schedule<split, warps = 4, vector = 4>} {
}

// -----

// expected-error @+1 {{ways is given with, and only with, the split strategy}}
xtile.kernel @ways_without_split(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.row_schedule<block, warps = 4, vector = 4, ways = 8>} {
}

// -----

// expected-error @+1 {{split needs at least 2 ways, got 1 ways}}
xtile.kernel @one_way(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.row_schedule<split, warps = 4, vector = 4, ways = 1>} {
}

// -----

// expected-error @+1 {{a serial fold runs on one thread: warps = 1 and no chunk}}
xtile.kernel @serial_warps(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.row_schedule<serial, warps = 4, vector = 1>} {
}

// -----

// expected-error @+1 {{block must be a power of two in [vector = 4, 1024], got 2}}
xtile.kernel @column_block(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.column_schedule<warps = 4, vector = 4, block = 2, chunk = 8>} {
}

// -----

// expected-error @+1 {{chunk must be a power of two in [1, 1024], got 12}}
xtile.kernel @column_chunk(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.column_schedule<warps = 4, vector = 1, block = 32, chunk = 12>} {
}

// -----

// expected-error @+1 {{a [chunk, block] = [2, 32] tile must give each of the 128 threads 1 to 256 groups of vector = 4 elements}}
xtile.kernel @column_too_small(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.column_schedule<warps = 4, vector = 4, block = 32, chunk = 2>} {
}

// -----

// expected-error @+1 {{ways must be in [1, 1024], got 0}}
xtile.kernel @column_ways(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.column_schedule<warps = 4, vector = 1, block = 32, chunk = 8, ways = 0>} {
}

// -----

// expected-error @+1 {{warps must be a power of two in [1, 32], got 6}}
xtile.kernel @column_warps(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 6 : i64, schedule = #xtile.column_schedule<warps = 6, vector = 1, block = 32, chunk = 8>} {
}

// -----

// expected-error @+1 {{block_n must be a power of two in [1, 256], got 96}}
xtile.kernel @dot_block(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 96, block_k = 32, stages = 2, warps = 4>} {
}

// -----

// expected-error @+1 {{stages must be in [1, 8], got 0}}
xtile.kernel @dot_stages(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 0, warps = 4>} {
}

// -----

// expected-error @+1 {{'xtile.kernel' op num_warps 4 differs from the schedule's 8}}
xtile.kernel @warps_mismatch(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.row_schedule<block, warps = 8, vector = 4>} {
}

// -----

// expected-error @+1 {{'xtile.kernel' op schedule #xtile.dot_schedule<block_m = 128, block_n = 128, block_k = 64, stages = 4, warps = 8> does not fit the target: 262144 bytes of shared memory exceed the 166912 per block of sm_80}}
xtile.kernel @dot_shared_memory(%a: memref<128x64xf32>, %b: memref<64x128xf32>) -> (%c: memref<128x128xf32>) attributes {grid = array<i64: 1>, num_warps = 8 : i64, schedule = #xtile.dot_schedule<block_m = 128, block_n = 128, block_k = 64, stages = 4, warps = 8>, target = #xtile.target<arch = "sm_80", sms = 108, max_threads = 1024, shared_memory = 166912, registers = 65536, bandwidth = 2039, l2 = 41943040>} {
  %x = arith.constant dense<1.0> : tensor<128x64xf32>
  %y = arith.constant dense<1.0> : tensor<64x128xf32>
  %z = arith.constant dense<0.0> : tensor<128x128xf32>
  %d = xtile.dot %x, %y, %z : tensor<128x64xf32>, tensor<64x128xf32>, tensor<128x128xf32>
}

// -----

// expected-error @+1 {{warps_m must divide warps (4), got 3}}
xtile.kernel @mma_warps_m(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 2, warps = 4, instruction = mma_sync, warps_m = 3>} {
}

// -----

// expected-error @+1 {{warps_m applies to tensor-core instructions only}}
xtile.kernel @fma_warps_m(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 2, warps = 4, warps_m = 2>} {
}

// -----

// expected-error @+1 {{with instruction = mma_sync, block_m must be a multiple of 16 * warps_m and block_n of 16 * (warps / warps_m); got 64 x 32 over 1 x 4 warps}}
xtile.kernel @mma_warp_tile(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 32, block_k = 32, stages = 2, warps = 4, instruction = mma_sync>} {
}

// -----

// expected-error @+1 {{with instruction = mma_sync, block_k must be a multiple of 16, got 8}}
xtile.kernel @mma_block_k(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 8, stages = 2, warps = 4, instruction = mma_sync, warps_m = 2>} {
}

// -----

xtile.kernel @mma_f32(%a: memref<64x32xf32>, %b: memref<32x64xf32>) -> (%c: memref<64x64xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 2, warps = 4, instruction = mma_sync, warps_m = 2>} {
  %x = arith.constant dense<1.0> : tensor<64x32xf32>
  %y = arith.constant dense<1.0> : tensor<32x64xf32>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-error @+1 {{'xtile.dot' op runs on tensor cores (instruction = mma_sync), which take f16, bf16 or fp8 operands of one type and an f32 accumulator; got 'f32' x 'f32' -> 'f32' (f32 operands need tf32 = true)}}
  %d = xtile.dot %x, %y, %z : tensor<64x32xf32>, tensor<32x64xf32>, tensor<64x64xf32>
}

// -----

xtile.kernel @tf32_bf16(%a: memref<64x32xbf16>, %b: memref<32x64xbf16>) -> (%c: memref<64x64xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 2, warps = 4, instruction = mma_sync, warps_m = 2, tf32 = true>} {
  %x = arith.constant dense<1.0> : tensor<64x32xbf16>
  %y = arith.constant dense<1.0> : tensor<32x64xbf16>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-error @+1 {{'xtile.dot' op runs on tensor cores (instruction = mma_sync, tf32 = true), which take f32 operands of one type and an f32 accumulator; got 'bf16' x 'bf16' -> 'f32'}}
  %d = xtile.dot %x, %y, %z : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32>
}

// -----

// expected-error @+1 {{tf32 runs on instruction = mma_sync or wgmma, got fma}}
xtile.kernel @tf32_fma(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 2, warps = 4, tf32 = true>} {
}

// -----

// expected-error @+1 {{'xtile.kernel' op schedule #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 2, warps = 4, instruction = mma_sync, warps_m = 2> runs on mma.sync, which sm_75 does not have (sm_80 and later)}}
xtile.kernel @mma_sm75(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 2, warps = 4, instruction = mma_sync, warps_m = 2>, target = #xtile.target<arch = "sm_75", sms = 40, max_threads = 1024, shared_memory = 65536, registers = 65536, bandwidth = 448, l2 = 4194304>} {
}

// -----

// expected-error @+1 {{with instruction = wgmma, warps is a multiple of 4 (warpgroups of 64 or 128 rows), warps_m = warps and block_m = 16 * warps or 32 * warps; got block_m = 256, warps = 4, warps_m = 4}}
xtile.kernel @wgmma_rows(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 256, block_n = 64, block_k = 64, stages = 2, warps = 4, instruction = wgmma, warps_m = 4>} {
}

// -----

// expected-error @+1 {{with instruction = wgmma, block_k is 64 (128 on fp8, 32 with tf32) and block_n at least 8; got block_k = 32, block_n = 64}}
xtile.kernel @wgmma_k(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 2, warps = 4, instruction = wgmma, warps_m = 4>} {
}

// -----

// expected-error @+1 {{'xtile.kernel' op schedule #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 64, stages = 2, warps = 4, instruction = wgmma, warps_m = 4> runs on wgmma, which sm_90 does not have (sm_90a)}}
xtile.kernel @wgmma_sm90(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 64, stages = 2, warps = 4, instruction = wgmma, warps_m = 4>, target = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>} {
}

// -----

// expected-error @+1 {{wgmma_gflops is for sm_90a (wgmma), not sm_90}}
xtile.kernel @wgmma_gflops(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, target = #xtile.target<arch = "sm_90", sms = 1, max_threads = 32, shared_memory = 1, registers = 1, bandwidth = 1, l2 = 1, wgmma_gflops = 1>} {
}

// -----

// expected-error @+1 {{mma_sync_gflops must not be negative, got -1}}
xtile.kernel @negative_mma(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, target = #xtile.target<arch = "sm_80", sms = 1, max_threads = 32, shared_memory = 1, registers = 1, bandwidth = 1, l2 = 1, mma_sync_gflops = -1>} {
}

// -----

// expected-error @+1 {{'xtile.kernel' op 'xtile.schedule' must be a schedule (#xtile.row_schedule, #xtile.column_schedule or #xtile.dot_schedule), got "block:8:4"}}
xtile.kernel @schedule_string(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, xtile.schedule = "block:8:4"} {
}

// -----

func.func @num_stages_zero() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.for' op 'xtile.num_stages' must be a positive integer, got 0 : i64}}
  scf.for %i = %c0 to %c4 step %c1 {
  } {xtile.num_stages = 0 : i64}
  return
}

// -----

// expected-error @+1 {{'xtile.kernel' op 'xtile.batch_group' must be a positive integer, got 0 : i64}}
xtile.kernel @batch_group_zero(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, xtile.batch_group = 0 : i64} {
}

// -----

// expected-error @+1 {{unknown xtile attribute 'xtile.stages'}}
func.func @unknown_attribute() attributes {xtile.stages = 2 : i64} {
  return
}

// -----

// expected-error @+1 {{ways must be in [1, 1024], got 0}}
xtile.kernel @no_ways(%a: memref<4xf32>) -> (%b: memref<4xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 16, block_n = 64, block_k = 32, stages = 1, warps = 4, ways = 0>} {
}

// -----

// expected-error @+1 {{'xtile.kernel' op grid [64] is not its grid map at the sizes' maxima [4096]}}
xtile.kernel @grid_map_not_grid[%T = 1 to 4096](%a: memref<?xf32> [%T]) -> (%b: memref<?xf32> [%T])
    attributes {grid = array<i64: 64>, grid_map = affine_map<()[s0] -> (s0)>, num_warps = 4 : i64} {
}

// -----

// expected-error @+1 {{'xtile.kernel' op grid map affine_map<(d0) -> (d0)> must have no dimensions, one symbol per size (1) and one result per grid dimension (1)}}
xtile.kernel @grid_map_dims[%T = 1 to 4096](%a: memref<?xf32> [%T]) -> (%b: memref<?xf32> [%T])
    attributes {grid = array<i64: 4096>, grid_map = affine_map<(d0) -> (d0)>, num_warps = 4 : i64} {
}

// -----

// expected-error @+1 {{'xtile.kernel' op grid map affine_map<()[s0] -> (s0 floordiv 2)> has no programs at the sizes' minima}}
xtile.kernel @grid_map_empty[%T = 1 to 4096](%a: memref<?xf32> [%T]) -> (%b: memref<?xf32> [%T])
    attributes {grid = array<i64: 2048>, grid_map = affine_map<()[s0] -> (s0 floordiv 2)>, num_warps = 4 : i64} {
}

// -----

// expected-error @+1 {{'xtile.kernel' op has a grid map but no dynamic sizes}}
xtile.kernel @grid_map_static(%a: memref<4xf32>) -> (%b: memref<4xf32>)
    attributes {grid = array<i64: 1>, grid_map = affine_map<() -> (1)>, num_warps = 4 : i64} {
}

// -----

// expected-note @+2 {{a limit of compiling over dynamic sizes}}
// expected-error @+1 {{'xtile.kernel' op grid map affine_map<()[s0] -> (s0, s0 * 32)> gives [4096, 131072] programs at the sizes' maxima, past CUDA's grid limits}}
xtile.kernel @grid_map_limit[%T = 1 to 4096](%a: memref<?xf32> [%T]) -> (%b: memref<?xf32> [%T])
    attributes {grid = array<i64: 4096, 131072>, grid_map = affine_map<()[s0] -> (s0, s0 * 32)>, num_warps = 4 : i64} {
}

// -----

//===----------------------------------------------------------------------===//
// Pipelining plans (#xtile.pipeline, #xtile.async_copy)
//===----------------------------------------------------------------------===//

// expected-error @+1 {{overlapping wgmma groups across iterations needs at least 3 stages, got 2}}
func.func private @overlap_two_stages() attributes {plan = #xtile.pipeline<stages = 2, overlap = true>}

// -----

// expected-error @+1 {{an asynchronous copy's group must be a power of two, got 3}}
func.func private @copy_group() attributes {plan = #xtile.async_copy<group = 3>}

// -----

// expected-error @+1 {{a swizzle is for TMA copies only (no tma_box)}}
func.func private @copy_swizzle() attributes {plan = #xtile.async_copy<group = 8, swizzle = 128>}

// -----

// expected-error @+1 {{'xtile.pipeline' must be a #xtile.pipeline on an scf.for}}
xtile.kernel @pipeline_on_kernel(%a: memref<4xf32>) -> (%b: memref<4xf32>)
    attributes {grid = array<i64: 1>, num_warps = 4 : i64, xtile.pipeline = #xtile.pipeline<stages = 3>} {
}

// -----

// fp8 products on mma.sync are sm_89's and later.
// expected-error @+1 {{'xtile.kernel' op schedule #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 2, warps = 4, instruction = mma_sync, warps_m = 2> multiplies fp8 on mma.sync, which sm_80 does not (sm_89 and later)}}
xtile.kernel @mma_fp8_sm80(%a: memref<64x32xf8E4M3FN>, %b: memref<32x64xf8E4M3FN>) -> (%c: memref<64x64xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 32, stages = 2, warps = 4, instruction = mma_sync, warps_m = 2>, target = #xtile.target<arch = "sm_80", sms = 108, max_threads = 1024, shared_memory = 166912, registers = 65536, bandwidth = 2039, l2 = 41943040, mma_sync_gflops = 312000>} {
  %x = arith.constant dense<1.0> : tensor<64x32xf8E4M3FN>
  %y = arith.constant dense<1.0> : tensor<32x64xf8E4M3FN>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = xtile.dot %x, %y, %z : tensor<64x32xf8E4M3FN>, tensor<32x64xf8E4M3FN>, tensor<64x64xf32>
}

// -----

// Tensor cores multiply fp8 operands of one format: e4m3 x e5m2 is not
// one of the kernels' products.
xtile.kernel @wgmma_fp8_mixed(%a: memref<64x128xf8E4M3FN>, %b: memref<128x64xf8E5M2>) -> (%c: memref<64x64xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 128, stages = 2, warps = 4, instruction = wgmma, warps_m = 4>} {
  %x = arith.constant dense<1.0> : tensor<64x128xf8E4M3FN>
  %y = arith.constant dense<1.0> : tensor<128x64xf8E5M2>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-error @+1 {{'xtile.dot' op runs on tensor cores (instruction = wgmma), which take f16, bf16 or fp8 operands of one type and an f32 accumulator; got 'f8E4M3FN' x 'f8E5M2' -> 'f32'}}
  %d = xtile.dot %x, %y, %z : tensor<64x128xf8E4M3FN>, tensor<128x64xf8E5M2>, tensor<64x64xf32>
}

// -----

// wgmma reads 128 bytes of K per row: 128 fp8 elements, not 64.
xtile.kernel @wgmma_fp8_block_k(%a: memref<64x64xf8E4M3FN>, %b: memref<64x64xf8E4M3FN>) -> (%c: memref<64x64xf32>) attributes {grid = array<i64: 1>, num_warps = 4 : i64, schedule = #xtile.dot_schedule<block_m = 64, block_n = 64, block_k = 64, stages = 2, warps = 4, instruction = wgmma, warps_m = 4>} {
  %x = arith.constant dense<1.0> : tensor<64x64xf8E4M3FN>
  %y = arith.constant dense<1.0> : tensor<64x64xf8E4M3FN>
  %z = arith.constant dense<0.0> : tensor<64x64xf32>
  // expected-error @+1 {{'xtile.dot' op runs on wgmma, which reads 128 bytes of K per operand row: block_k is 128 on 'f8E4M3FN' operands, got 64}}
  %d = xtile.dot %x, %y, %z : tensor<64x64xf8E4M3FN>, tensor<64x64xf8E4M3FN>, tensor<64x64xf32>
}

// -----

// xtile.may_alias marks a kernel (a symbol) whose buffers may alias.
func.func @may_alias_value() attributes {xtile.may_alias = 1 : i64} {
  return
}
// expected-error @-3 {{'func.func' op 'xtile.may_alias' must be a unit attribute on a kernel}}

// -----

func.func @may_alias_not_a_kernel() {
  // expected-error @+1 {{'arith.constant' op 'xtile.may_alias' must be a unit attribute on a kernel}}
  %c = arith.constant {xtile.may_alias} 0 : i32
  return
}

// -----

// xtile.launch buckets (the verifier xloop.launch shares)

xtile.kernel @k[%T = 1 to 8](%x: memref<?xf32> [%T]) -> (%y: memref<?xf32> [%T])
    attributes {grid = array<i64: 8>, grid_map = affine_map<()[s0] -> (s0)>, num_warps = 1 : i64, schedule = #xtile.row_schedule<serial, warps = 1, vector = 1>, target = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>} {
}
xtile.kernel @k_b1[%T = 10 to 16](%x: memref<?xf32> [%T]) -> (%y: memref<?xf32> [%T])
    attributes {grid = array<i64: 16>, grid_map = affine_map<()[s0] -> (s0)>, num_warps = 1 : i64, schedule = #xtile.row_schedule<serial, warps = 1, vector = 1>, target = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>} {
}
func.func @gap(%x: tensor<?xf32, #xtensor.dims<T>>) -> tensor<?xf32, #xtensor.dims<T>>
    attributes {xtensor.symbols = {T = array<i64: 1, 16>}} {
  // expected-error @+1 {{'xtile.launch' op has buckets whose ranges of size #0 do not follow each other: [1, 8] then [10, 16]}}
  %y = xtile.launch @k[T](%x) buckets [@k_b1] : (tensor<?xf32, #xtensor.dims<T>>) -> tensor<?xf32, #xtensor.dims<T>>
  return %y : tensor<?xf32, #xtensor.dims<T>>
}

// -----

// A bucket split over two kernels names the kernel of its partials.

xtile.kernel @k[%T = 1 to 8](%x: memref<?xf32> [%T]) -> (%y: memref<?xf32> [%T])
    attributes {grid = array<i64: 8>, grid_map = affine_map<()[s0] -> (s0)>, num_warps = 1 : i64, schedule = #xtile.row_schedule<serial, warps = 1, vector = 1>, target = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>} {
}
xtile.kernel @k_b1[%T = 9 to 16](%x: memref<?xf32> [%T], %p: memref<4xf32>) -> (%y: memref<?xf32> [%T])
    attributes {grid = array<i64: 16>, grid_map = affine_map<()[s0] -> (s0)>, num_warps = 1 : i64, partials_from = @missing, schedule = #xtile.row_schedule<serial, warps = 1, vector = 1>, target = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>} {
}
func.func @no_partials(%x: tensor<?xf32, #xtensor.dims<T>>) -> tensor<?xf32, #xtensor.dims<T>>
    attributes {xtensor.symbols = {T = array<i64: 1, 16>}} {
  // expected-error @+1 {{'xtile.launch' op launches @k_b1, whose partials come from 'missing', which is not a kernel}}
  %y = xtile.launch @k[T](%x) buckets [@k_b1] : (tensor<?xf32, #xtensor.dims<T>>) -> tensor<?xf32, #xtensor.dims<T>>
  return %y : tensor<?xf32, #xtensor.dims<T>>
}

// -----

// The kernel of the partials runs in its bucket's range.

xtile.kernel @k[%T = 1 to 8](%x: memref<?xf32> [%T]) -> (%y: memref<?xf32> [%T])
    attributes {grid = array<i64: 8>, grid_map = affine_map<()[s0] -> (s0)>, num_warps = 1 : i64, schedule = #xtile.row_schedule<serial, warps = 1, vector = 1>, target = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>} {
}
xtile.kernel @k_b1_partial[%T = 1 to 16](%x: memref<?xf32> [%T]) -> (%p: memref<4xf32>)
    attributes {grid = array<i64: 4>, num_warps = 1 : i64, schedule = #xtile.row_schedule<serial, warps = 1, vector = 1>, target = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>} {
}
xtile.kernel @k_b1[%T = 9 to 16](%x: memref<?xf32> [%T], %p: memref<4xf32>) -> (%y: memref<?xf32> [%T])
    attributes {grid = array<i64: 16>, grid_map = affine_map<()[s0] -> (s0)>, num_warps = 1 : i64, partials_from = @k_b1_partial, schedule = #xtile.row_schedule<serial, warps = 1, vector = 1>, target = #xtile.target<arch = "sm_90", sms = 132, max_threads = 1024, shared_memory = 232448, registers = 65536, bandwidth = 3350, l2 = 52428800>} {
}
func.func @partials_elsewhere(%x: tensor<?xf32, #xtensor.dims<T>>) -> tensor<?xf32, #xtensor.dims<T>>
    attributes {xtensor.symbols = {T = array<i64: 1, 16>}} {
  // expected-error @+1 {{'xtile.launch' op launches @k_b1 and its partials' kernel @k_b1_partial, which declare different size ranges}}
  %y = xtile.launch @k[T](%x) buckets [@k_b1] : (tensor<?xf32, #xtensor.dims<T>>) -> tensor<?xf32, #xtensor.dims<T>>
  return %y : tensor<?xf32, #xtensor.dims<T>>
}
