// RUN: xtile-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{pointer element type must be an integer or a float, got 'index'}}
xkernel.func @f(%x: !xkernel.ptr<index, global>) attributes {max_threads = 32 : i64} {
  xkernel.return
}

// -----

// expected-error @+1 {{max_threads must be in [1, 1024], got 2048}}
xkernel.func @f() attributes {max_threads = 2048 : i64} {
  xkernel.return
}

// -----

// expected-error @+1 {{argument #0 must point into global memory, got '!xkernel.ptr<f32, shared>'}}
xkernel.func @f(%x: !xkernel.ptr<f32, shared>) attributes {max_threads = 32 : i64} {
  xkernel.return
}

// -----

// expected-error @+1 {{argument #0 must be a pointer or a scalar, got 'memref<4xf32>'}}
xkernel.func @f(%x: memref<4xf32>) attributes {max_threads = 32 : i64} {
  xkernel.return
}

// -----

xkernel.func @f() attributes {max_threads = 32 : i64} {
  // expected-error @+1 {{result must point into shared memory, got '!xkernel.ptr<f32, global>'}}
  %s = xkernel.shared 4 : !xkernel.ptr<f32, global>
  xkernel.return
}

// -----

xkernel.func @f(%c: i1) attributes {max_threads = 32 : i64} {
  scf.if %c {
    // expected-error @+1 {{must be in the entry block of an xkernel.func}}
    %s = xkernel.shared 4 : !xkernel.ptr<f32, shared>
  }
  xkernel.return
}

// -----

xkernel.func @f() attributes {max_threads = 32 : i64, dynamic_shared = 64 : i64} {
  // expected-error @+1 {{offset must be a non-negative multiple of 16 bytes, got 8}}
  %s = xkernel.dynamic_shared 8 : !xkernel.ptr<f32, shared>
  xkernel.return
}

// -----

xkernel.func @f() attributes {max_threads = 32 : i64, dynamic_shared = 64 : i64} {
  // expected-error @+1 {{offset 64 is past the kernel's dynamic_shared (64 bytes)}}
  %s = xkernel.dynamic_shared 64 : !xkernel.ptr<f32, shared>
  xkernel.return
}

// -----

xkernel.func @f(%x: !xkernel.ptr<f32, global>) attributes {max_threads = 32 : i64} {
  %i = arith.constant 0 : index
  // expected-error @+1 {{a vector access is a power of two lanes of at most 16 bytes, got 'vector<8xf32>'}}
  %v = xkernel.load %x[%i] : !xkernel.ptr<f32, global> -> vector<8xf32>
  xkernel.return
}

// -----

xkernel.func @f(%x: !xkernel.ptr<f32, global>) attributes {max_threads = 32 : i64} {
  %i = arith.constant 0 : index
  // expected-error @+1 {{accesses 'f16' through a pointer to 'f32'}}
  %v = xkernel.load %x[%i] : !xkernel.ptr<f32, global> -> f16
  xkernel.return
}

// -----

xkernel.func @f(%x: !xkernel.ptr<f32, global>, %v: i32) attributes {max_threads = 32 : i64} {
  %i = arith.constant 0 : index
  // expected-error @+1 {{combines 'i32' into a pointer to 'f32'}}
  %o = xkernel.atomic add %v, %x[%i] : i32, !xkernel.ptr<f32, global>
  xkernel.return
}

// -----

xkernel.func @f(%x: !xkernel.ptr<f32, global>) attributes {max_threads = 32 : i64} {
  %i = arith.constant 0 : index
  %s = xkernel.shared 4 : !xkernel.ptr<f32, shared>
  // expected-error @+1 {{copies 4, 8 or 16 bytes, got 32}}
  xkernel.async_copy %x[%i] to %s[%i], 32 : !xkernel.ptr<f32, global> to !xkernel.ptr<f32, shared>
  xkernel.return
}

// -----

xkernel.func @f(%x: !xkernel.ptr<f32, global>) attributes {max_threads = 32 : i64} {
  %i = arith.constant 0 : index
  // expected-error @+1 {{copies from global to shared memory, got '!xkernel.ptr<f32, global>' to '!xkernel.ptr<f32, global>'}}
  xkernel.async_copy %x[%i] to %x[%i], 16 : !xkernel.ptr<f32, global> to !xkernel.ptr<f32, global>
  xkernel.return
}

// -----

xkernel.func @f(%v: f32) attributes {max_threads = 32 : i64} {
  %c = arith.constant 1 : i32
  // expected-error @+1 {{width must be a power of two up to 32, got 48}}
  %s = xkernel.shuffle xor %v, %c width 48 : f32
  xkernel.return
}

// -----

xkernel.func @f(%v: f64) attributes {max_threads = 32 : i64} {
  %c = arith.constant 1 : i32
  // expected-error @+1 {{shuffles 32-bit values, got 'f64'}}
  %s = xkernel.shuffle xor %v, %c width 32 : f64
  xkernel.return
}

// -----

xkernel.func @k(%x: !xkernel.ptr<f32, global>) attributes {max_threads = 64 : i64} {
  xkernel.return
}
xkernel.program @p(%x: memref<4xf32>) -> (%y: memref<4xf32>) {
  // expected-error @+1 {{launches 128 threads per block, more than 'k' allows (max_threads = 64)}}
  xkernel.launch @k(%x) grid [1, 1, 1] block [128, 1, 1] shared 0 : memref<4xf32>
}

// -----

xkernel.func @k(%x: !xkernel.ptr<f32, global>) attributes {max_threads = 64 : i64} {
  xkernel.return
}
xkernel.program @p(%x: memref<4xi32>) -> (%y: memref<4xf32>) {
  // expected-error @+1 {{buffer #0 of type 'memref<4xi32>' does not match argument type '!xkernel.ptr<f32, global>' of 'k'}}
  xkernel.launch @k(%x) grid [1, 1, 1] block [64, 1, 1] shared 0 : memref<4xi32>
}

// -----

xkernel.program @p(%x: memref<4xf32>) -> (%y: memref<4xf32>) {
  // expected-error @+1 {{'missing' is not an xkernel.func}}
  xkernel.launch @missing(%x) grid [1, 1, 1] block [64, 1, 1] shared 0 : memref<4xf32>
}

// -----

xkernel.func @k(%x: !xkernel.ptr<f32, global>) attributes {max_threads = 64 : i64, dynamic_shared = 1024 : i64} {
  xkernel.return
}
xkernel.program @p(%x: memref<4xf32>) -> (%y: memref<4xf32>) {
  // expected-error @+1 {{gives 0 bytes of dynamic shared memory, 'k' needs 1024}}
  xkernel.launch @k(%x) grid [1, 1, 1] block [64, 1, 1] shared 0 : memref<4xf32>
}

// -----

xkernel.func @k(%x: !xkernel.ptr<f32, global>) attributes {max_threads = 64 : i64} {
  xkernel.return
}
xkernel.program @p(%x: memref<4xf32>) -> (%y: memref<4xf32>) {
  // expected-error @+1 {{grid y and z are at most 65535, got 70000 and 1}}
  xkernel.launch @k(%x) grid [1, 70000, 1] block [64, 1, 1] shared 0 : memref<4xf32>
}

// -----

// expected-error @+1 {{buffer #0 must be a statically shaped memref, got 'memref<?xf32>'}}
xkernel.program @p(%x: memref<?xf32>) -> (%y: memref<4xf32>) {
}

// -----

xkernel.program @p(%x: memref<4xf32>) -> (%y: memref<8xf32>) {
  // expected-error @+1 {{failed to verify that all of {source, target} have same type}}
  "xkernel.copy"(%x, %y) : (memref<4xf32>, memref<8xf32>) -> ()
}

// -----

xkernel.func @k(%v: f16) attributes {max_threads = 32 : i64} {
  // expected-error @+1 {{operand #0 must be 32-bit float}}
  %r = xkernel.approx ex2 %v : f16
  xkernel.return
}

// -----

// A type where the bytes of dynamic shared memory belong (found by mutation
// fuzzing: the verifier used to crash on it).
// expected-error @+1 {{'xkernel.func' op attribute 'dynamic_shared' failed to satisfy constraint: 64-bit signless integer attribute}}
xkernel.func @k(%x: !xkernel.ptr<f32, global>) attributes {max_threads = 32 : i64, dynamic_shared = f32} {
  xkernel.return
}

// -----

// expected-error @+1 {{'xkernel.func' op attribute 'max_threads' failed to satisfy constraint: 64-bit signless integer attribute}}
xkernel.func @k(%x: !xkernel.ptr<f32, global>) attributes {max_threads = "32"} {
  xkernel.return
}

// -----

xkernel.func @f(%x: !xkernel.ptr<bf16, global>) attributes {max_threads = 32 : i64} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{loads from shared memory, got '!xkernel.ptr<bf16, global>'}}
  %a = xkernel.ldmatrix %x[%c0] : !xkernel.ptr<bf16, global> -> vector<8xbf16>
  xkernel.return
}

// -----

xkernel.func @f() attributes {max_threads = 32 : i64} {
  %c0 = arith.constant 0 : index
  %s = xkernel.shared 64 : !xkernel.ptr<bf16, shared>
  // expected-error @+1 {{loads 1, 2 or 4 matrices: a result of 1, 2 or 4 32-bit registers, got 'vector<6xbf16>'}}
  %a = xkernel.ldmatrix %s[%c0] : !xkernel.ptr<bf16, shared> -> vector<6xbf16>
  xkernel.return
}

// -----

xkernel.func @f() attributes {max_threads = 32 : i64} {
  %c0 = arith.constant 0 : index
  %s = xkernel.shared 64 : !xkernel.ptr<bf16, shared>
  // expected-error @+1 {{loads 'f16' through a pointer to 'bf16'}}
  %a = xkernel.ldmatrix %s[%c0] : !xkernel.ptr<bf16, shared> -> vector<8xf16>
  xkernel.return
}

// -----

xkernel.func @f() attributes {max_threads = 32 : i64} {
  %c0 = arith.constant 0 : index
  %s = xkernel.shared 64 : !xkernel.ptr<f32, shared>
  // expected-error @+1 {{transposes 16-bit elements only, got 'f32'}}
  %a = xkernel.ldmatrix %s[%c0] trans : !xkernel.ptr<f32, shared> -> vector<4xf32>
  xkernel.return
}

// -----

func.func @f(%a: vector<8xf32>, %b: vector<4xf32>, %c: vector<4xf32>) {
  // expected-error @+1 {{takes fragments of 4 registers of A and 2 of B (4 and 2 lanes of 'f32'), got 'vector<8xf32>' and 'vector<4xf32>'}}
  %d = xkernel.mma %a, %b, %c : vector<8xf32>, vector<4xf32> -> vector<4xf32>
  return
}

// -----

func.func @f(%a: vector<8xbf16>, %b: vector<4xf16>, %c: vector<4xf32>) {
  // expected-error @+1 {{multiplies 'bf16' by 'f16': both operands have one type}}
  %d = xkernel.mma %a, %b, %c : vector<8xbf16>, vector<4xf16> -> vector<4xf32>
  return
}

// -----

func.func @f(%a: vector<8xbf16>, %b: vector<4xbf16>, %c: vector<4xf16>) {
  // expected-error @+1 {{operand #2 must be vector of 32-bit float values of length 4}}
  %d = xkernel.mma %a, %b, %c : vector<8xbf16>, vector<4xbf16> -> vector<4xf16>
  return
}

// -----

// expected-error @below {{arch must name an NVIDIA GPU (sm_80, sm_90, ...), got 'gfx90a'}}
xkernel.func @f() attributes {max_threads = 32 : i64, arch = "gfx90a"} {
  xkernel.return
}

// -----

xkernel.func @f(%x: !xkernel.ptr<bf16, global>) attributes {max_threads = 128 : i64} {
  %c0 = arith.constant 0 : index
  %s = xkernel.shared 64 : !xkernel.ptr<bf16, shared>
  %z = arith.constant dense<0.0> : vector<32xf32>
  // expected-error @+1 {{reads its operands from shared memory, got '!xkernel.ptr<bf16, global>' and '!xkernel.ptr<bf16, shared>'}}
  %d = xkernel.wgmma %x[%c0], %s[%c0], %z : !xkernel.ptr<bf16, global>, !xkernel.ptr<bf16, shared>, vector<32xf32>
  xkernel.return
}

// -----

xkernel.func @f() attributes {max_threads = 128 : i64} {
  %c0 = arith.constant 0 : index
  %s = xkernel.shared 64 : !xkernel.ptr<bf16, shared>
  %h = xkernel.shared 64 : !xkernel.ptr<f16, shared>
  %z = arith.constant dense<0.0> : vector<32xf32>
  // expected-error @+1 {{multiplies f16, bf16, f32 (tf32) or fp8 operands of one type, got 'bf16' and 'f16'}}
  %d = xkernel.wgmma %s[%c0], %h[%c0], %z : !xkernel.ptr<bf16, shared>, !xkernel.ptr<f16, shared>, vector<32xf32>
  xkernel.return
}

// -----

xkernel.func @f() attributes {max_threads = 128 : i64} {
  %c0 = arith.constant 0 : index
  %s = xkernel.shared 64 : !xkernel.ptr<bf16, shared>
  %z = arith.constant dense<0.0> : vector<6xf32>
  // expected-error @+1 {{computes 64 x N with N a multiple of 8 up to 256 (an accumulator of N / 2 lanes), got 'vector<6xf32>'}}
  %d = xkernel.wgmma %s[%c0], %s[%c0], %z : !xkernel.ptr<bf16, shared>, !xkernel.ptr<bf16, shared>, vector<6xf32>
  xkernel.return
}

// -----

xkernel.func @f() attributes {max_threads = 128 : i64} {
  %c0 = arith.constant 0 : index
  %s = xkernel.shared 64 : !xkernel.ptr<bf16, shared>
  %z = arith.constant dense<0.0> : vector<16xf32>
  // expected-error @+1 {{reads an N-major B in panels of 64 columns: N must be a multiple of 64, got 32}}
  %d = xkernel.wgmma %s[%c0], %s[%c0] n_major(8192), %z : !xkernel.ptr<bf16, shared>, !xkernel.ptr<bf16, shared>, vector<16xf32>
  xkernel.return
}

// -----

xkernel.func @f() attributes {max_threads = 128 : i64} {
  %c0 = arith.constant 0 : index
  %s = xkernel.shared 64 : !xkernel.ptr<bf16, shared>
  %z = arith.constant dense<0.0> : vector<32xf32>
  // expected-error @+1 {{n_major takes the bytes between B's panels, a positive multiple of 1024 below 2^18, got 8000}}
  %d = xkernel.wgmma %s[%c0], %s[%c0] n_major(8000), %z : !xkernel.ptr<bf16, shared>, !xkernel.ptr<bf16, shared>, vector<32xf32>
  xkernel.return
}

// -----

xkernel.func @f() attributes {max_threads = 128 : i64} {
  %c0 = arith.constant 0 : index
  %s = xkernel.shared 64 : !xkernel.ptr<f32, shared>
  %z = arith.constant dense<0.0> : vector<32xf32>
  // expected-error @+1 {{reads tf32 operands K-major only: n_major takes 16-bit operands}}
  %d = xkernel.wgmma %s[%c0], %s[%c0] n_major(8192), %z : !xkernel.ptr<f32, shared>, !xkernel.ptr<f32, shared>, vector<32xf32>
  xkernel.return
}

// -----

xkernel.func @f() attributes {max_threads = 128 : i64} {
  %c0 = arith.constant 0 : index
  %s = xkernel.shared 64 : !xkernel.ptr<f8E4M3FN, shared>
  %z = arith.constant dense<0.0> : vector<32xf32>
  // expected-error @+1 {{reads fp8 operands K-major only: n_major takes 16-bit operands}}
  %d = xkernel.wgmma %s[%c0], %s[%c0] n_major(8192), %z : !xkernel.ptr<f8E4M3FN, shared>, !xkernel.ptr<f8E4M3FN, shared>, vector<32xf32>
  xkernel.return
}

// -----

xkernel.func @f() attributes {max_threads = 128 : i64} {
  %c0 = arith.constant 0 : index
  %a = xkernel.shared 64 : !xkernel.ptr<f8E4M3FN, shared>
  %b = xkernel.shared 64 : !xkernel.ptr<f8E5M2, shared>
  %z = arith.constant dense<0.0> : vector<32xf32>
  // expected-error @+1 {{multiplies f16, bf16, f32 (tf32) or fp8 operands of one type, got 'f8E4M3FN' and 'f8E5M2'}}
  %d = xkernel.wgmma %a[%c0], %b[%c0], %z : !xkernel.ptr<f8E4M3FN, shared>, !xkernel.ptr<f8E5M2, shared>, vector<32xf32>
  xkernel.return
}

// -----

// expected-error @+1 {{'xkernel.func' op min_blocks must be positive, got 0}}
xkernel.func @f() attributes {max_threads = 32 : i64, min_blocks = 0 : i64} {
  xkernel.return
}

// -----

// The dialect's discardable attributes are typed: a wrong kind or a wrong
// place is a located error.
xkernel.func @unroll_kind() attributes {max_threads = 32 : i64} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'xkernel.unroll' must be a unit attribute, got 4 : i64}}
  scf.for %i = %c0 to %c4 step %c1 {
  } {xkernel.unroll = 4 : i64}
  xkernel.return
}

// -----

xkernel.func @stages_kind() attributes {max_threads = 32 : i64} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'xkernel.num_stages' must be a positive integer, got "two"}}
  scf.for %i = %c0 to %c4 step %c1 {
  } {xkernel.num_stages = "two"}
  xkernel.return
}

// -----

// expected-error @+1 {{'xkernel.unroll' belongs on an 'scf.for'}}
xkernel.func @unroll_place() attributes {max_threads = 32 : i64, xkernel.unroll} {
  xkernel.return
}

// -----

// expected-error @+1 {{unknown xkernel attribute 'xkernel.unrol'}}
xkernel.func @unknown() attributes {max_threads = 32 : i64, xkernel.unrol} {
  xkernel.return
}

// -----

// expected-error @+1 {{'xkernel.readonly' on argument #0 must be a unit attribute, got 1 : i64}}
xkernel.func @readonly_kind(%x: !xkernel.ptr<f32, global> {xkernel.readonly = 1 : i64}) attributes {max_threads = 32 : i64} {
  xkernel.return
}

// -----

// expected-error @+1 {{'xkernel.readonly' on argument #0 needs a pointer, got 'index'}}
xkernel.func @readonly_type(%x: index {xkernel.readonly}) attributes {max_threads = 32 : i64} {
  xkernel.return
}

// -----

// expected-error @+1 {{'xkernel.readonly' belongs on an argument of an 'xkernel.func'}}
func.func @readonly_place(%x: f32 {xkernel.readonly}) {
  return
}

// -----

// expected-error @+1 {{unknown xkernel argument attribute 'xkernel.read_only'}}
xkernel.func @readonly_name(%x: !xkernel.ptr<f32, global> {xkernel.read_only}) attributes {max_threads = 32 : i64} {
  xkernel.return
}

// -----

xkernel.func @stages_wide() attributes {max_threads = 32 : i64} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'xkernel.num_stages' must be a positive integer, got -100000000000000000000000 : i128}}
  scf.for %i = %c0 to %c4 step %c1 {
  } {xkernel.num_stages = -100000000000000000000000 : i128}
  xkernel.return
}

// -----

xkernel.program @p[%T = 1 to 8](%x: memref<?xf32> [%T]) -> (%y: memref<?xf32> [%T]) attributes {size_names = ["T"]} {
  // expected-error @+1 {{'xkernel.alloc' op has 0 dynamic size(s) for 'memref<?x4xf32>', which has 1}}
  %t = xkernel.alloc : memref<?x4xf32>
}

// -----

// expected-error @+1 {{'xkernel.program' op needs one name per size (size_names) for its 1 size(s)}}
xkernel.program @p[%T = 1 to 8](%x: memref<?xf32> [%T]) -> (%y: memref<?xf32> [%T]) {
}

// -----

xkernel.func @k(%x: !xkernel.ptr<f32, global>, %n: index) attributes {max_threads = 64 : i64} {
  xkernel.return
}
xkernel.program @p[%T = 1 to 8](%x: memref<?xf32> [%T]) -> (%y: memref<?xf32> [%T]) attributes {size_names = ["T"]} {
  // expected-error @+1 {{grid map affine_map<()[s0, s1] -> (s0)> must have no dimensions, one symbol per size (1) and 1 to 3 results}}
  xkernel.launch @k(%x) sizes(%T) grid [8, 1, 1] map affine_map<()[s0, s1] -> (s0)> block [64, 1, 1] shared 0 : memref<?xf32>
}

// -----

xkernel.func @k(%x: !xkernel.ptr<f32, global>, %n: index) attributes {max_threads = 64 : i64} {
  xkernel.return
}
xkernel.program @p[%T = 1 to 8](%x: memref<?xf32> [%T]) -> (%y: memref<?xf32> [%T]) attributes {size_names = ["T"]} {
  // expected-error @+1 {{'k' takes 2 argument(s), launched with 1 buffer(s) and 0 size(s)}}
  xkernel.launch @k(%x) grid [8, 1, 1] block [64, 1, 1] shared 0 : memref<?xf32>
}

// -----

xkernel.func @k(%x: !xkernel.ptr<f32, global>, %n: !xkernel.ptr<f32, global>) attributes {max_threads = 64 : i64} {
  xkernel.return
}
xkernel.program @p[%T = 1 to 8](%x: memref<?xf32> [%T]) -> (%y: memref<?xf32> [%T]) attributes {size_names = ["T"]} {
  // expected-error @+1 {{size #0 is passed to argument type '!xkernel.ptr<f32, global>' of 'k', which is not an index}}
  xkernel.launch @k(%x) sizes(%T) grid [8, 1, 1] block [64, 1, 1] shared 0 : memref<?xf32>
}

// -----

xkernel.func @f() attributes {max_threads = 128 : i64} {
  %c0 = arith.constant 0 : index
  %s = xkernel.shared 4 : !xkernel.ptr<i32, shared>
  // expected-error @+1 {{takes an mbarrier as a pointer to i64 in shared memory, got '!xkernel.ptr<i32, shared>'}}
  xkernel.mbarrier_init %s[%c0], 1 : !xkernel.ptr<i32, shared>
  xkernel.return
}

// -----

xkernel.func @f() attributes {max_threads = 128 : i64} {
  %c0 = arith.constant 0 : index
  %s = xkernel.shared 4 : !xkernel.ptr<i64, shared>
  // expected-error @+1 {{expects 1 to 2^20 - 1 bytes, got 1048576}}
  xkernel.mbarrier_arrive_expect_tx %s[%c0], 1048576 : !xkernel.ptr<i64, shared>
  xkernel.return
}

// -----

xkernel.func @f(%m: !xkernel.ptr<i8, global>, %s: !xkernel.ptr<bf16, global>) attributes {max_threads = 128 : i64} {
  %c0 = arith.constant 0 : index
  %c0_i32 = arith.constant 0 : i32
  %bar = xkernel.shared 1 : !xkernel.ptr<i64, shared>
  // expected-error @+1 {{copies into shared memory, got '!xkernel.ptr<bf16, global>'}}
  xkernel.tma_load %m[%c0_i32] to %s[%c0] barrier %bar[%c0] : !xkernel.ptr<i8, global>, !xkernel.ptr<bf16, global>, !xkernel.ptr<i64, shared>
  xkernel.return
}

// -----

// expected-error @below {{'xkernel.tensor_map' on argument #1 must be {of = <an earlier argument>, box = array<i64: ...>, swizzle = <bytes>}, got {box = array<i64: 64>, of = 3 : i64, swizzle = 0 : i64}}}
xkernel.func @f(%x: !xkernel.ptr<bf16, global>, %m: !xkernel.ptr<i8, global> {xkernel.tensor_map = {of = 3 : i64, box = array<i64: 64>, swizzle = 0 : i64}}) attributes {max_threads = 128 : i64} {
  xkernel.return
}

// -----

xkernel.program @p(%x: memref<100x96xbf16>) -> (%y: memref<100x96xbf16>) {
  // expected-error @+1 {{needs a box whose innermost size is a multiple of 16 bytes and, swizzled, at most the swizzle's bytes; got 256 bytes with swizzle 128}}
  %m = xkernel.tensor_map %x box [64, 128] swizzle 128 : memref<100x96xbf16> -> memref<128xi8>
}

// -----

xkernel.program @p(%x: memref<100x96xbf16>) -> (%y: memref<100x96xbf16>) {
  // expected-error @+1 {{needs a box of one size per dimension of a tensor of rank 1 to 5, got 1 for 'memref<100x96xbf16>'}}
  %m = xkernel.tensor_map %x box [64] swizzle 0 : memref<100x96xbf16> -> memref<128xi8>
}

// -----

xkernel.func @f() attributes {max_threads = 384 : i64} {
  // expected-error @+1 {{names barrier 1 to 15 (0 is the whole block's), got 0}}
  xkernel.barrier 0, 256
  xkernel.return
}

// -----

xkernel.func @f() attributes {max_threads = 384 : i64} {
  // expected-error @+1 {{counts threads in whole warps, got 48}}
  xkernel.barrier 1, 48
  xkernel.return
}

// -----

xkernel.func @f() attributes {max_threads = 256 : i64} {
  // expected-error @+1 {{waits for 384 threads, more than the kernel's 256}}
  xkernel.barrier 1, 384
  xkernel.return
}

// -----

xkernel.func @f() attributes {max_threads = 256 : i64} {
  // expected-error @+1 {{expects 24 to 256 registers in steps of 8, got 20}}
  xkernel.set_max_registers decrease 20
  xkernel.return
}

// -----

xkernel.func @f() attributes {max_threads = 128 : i64} {
  %c0 = arith.constant 0 : index
  %s = xkernel.shared 4 : !xkernel.ptr<i32, shared>
  // expected-error @+1 {{takes an mbarrier as a pointer to i64 in shared memory, got '!xkernel.ptr<i32, shared>'}}
  xkernel.mbarrier_arrive %s[%c0] : !xkernel.ptr<i32, shared>
  xkernel.return
}

// -----

// Conversions to and from fp8 are instructions of sm_89 and later.
xkernel.func @f(%x: f32) attributes {max_threads = 32 : i64, arch = "sm_80"} {
  // expected-error @+1 {{'arith.truncf' on fp8 values (cvt, mma) needs sm_89 or later; the kernel's arch is sm_80}}
  %0 = arith.truncf %x : f32 to f8E4M3FN
  xkernel.return
}

// -----

// expected-error @+1 {{'xkernel.program' op needs one 'in_place' entry per output (1), has 2}}
xkernel.program @p(%x: memref<4xf32>) -> (%y: memref<4xf32>) attributes {in_place = array<i64: 0, -1>} {
}

// -----

// expected-error @+1 {{'xkernel.program' op output #0 is in place of input #1, which it does not have}}
xkernel.program @p(%x: memref<4xf32>) -> (%y: memref<4xf32>) attributes {in_place = array<i64: 1>} {
}

// -----

// expected-error @+1 {{'xkernel.program' op output #0 'memref<4xf32>' cannot be in place of input #0 'memref<4xi32>'}}
xkernel.program @p(%x: memref<4xi32>) -> (%y: memref<4xf32>) attributes {in_place = array<i64: 0>} {
}

// -----

xkernel.func @k(%x: !xkernel.ptr<f32, global>, %n: index) attributes {max_threads = 64 : i64} {
  xkernel.return
}
xkernel.program @p[%T = 1 to 8](%x: memref<?xf32> [%T]) -> (%y: memref<?xf32> [%T]) attributes {size_names = ["T"]} {
  // expected-error @+1 {{when must give a minimum and a maximum for each of the 1 size(s), got 1 value(s)}}
  xkernel.launch @k(%x) sizes(%T) when [4] grid [8, 1, 1] map affine_map<()[s0] -> (s0)> block [64, 1, 1] shared 0 : memref<?xf32>
}

// -----

xkernel.func @k(%x: !xkernel.ptr<f32, global>, %n: index) attributes {max_threads = 64 : i64} {
  xkernel.return
}
xkernel.program @p[%T = 1 to 8](%x: memref<?xf32> [%T]) -> (%y: memref<?xf32> [%T]) attributes {size_names = ["T"]} {
  // expected-error @+1 {{when's range of size #0 must be 1 <= min <= max, got [5, 4]}}
  xkernel.launch @k(%x) sizes(%T) when [5, 4] grid [8, 1, 1] map affine_map<()[s0] -> (s0)> block [64, 1, 1] shared 0 : memref<?xf32>
}
