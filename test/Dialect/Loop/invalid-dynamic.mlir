// RUN: xtile-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'xloop.kernel' op names 0 sizes for the 1 dynamic sizes of its buffers}}
"xloop.kernel"() <{sym_name = "unnamed", num_inputs = 1 : i64, num_sizes = 1 : i64, size_ranges = array<i64: 1, 8>}> ({
^bb0(%x: memref<?xf32>, %y: memref<4xf32>, %t: index):
}) : () -> ()

// -----

// expected-error @+1 {{'xloop.kernel' op buffer dim refers to size #3 of 1}}
"xloop.kernel"() <{sym_name = "out_of_range", num_inputs = 1 : i64, num_sizes = 1 : i64, size_ranges = array<i64: 1, 8>, buffer_dims = array<i64: 3>}> ({
^bb0(%x: memref<?xf32>, %y: memref<4xf32>, %t: index):
}) : () -> ()

// -----

// expected-error @+1 {{'xloop.kernel' op size #0 has the range [0, 8]; it needs 1 <= min <= max}}
xloop.kernel @empty_range[%T = 0 to 8](%x: memref<?xf32> [%T]) -> (%y: memref<?xf32> [%T]) {
}

// -----

// expected-error @+1 {{'xloop.kernel' op size hint 100 of size #0 is outside its range [1, 8]}}
xloop.kernel @hint[%T = 1 to 8](%x: memref<?xf32> [%T]) -> (%y: memref<?xf32> [%T]) attributes {size_hints = array<i64: 100>} {
}

// -----

// expected-error @+1 {{'xloop.kernel' op size #0 must be an index}}
"xloop.kernel"() <{sym_name = "not_index", num_inputs = 1 : i64, num_sizes = 1 : i64, size_ranges = array<i64: 1, 8>, buffer_dims = array<i64: 0>}> ({
^bb0(%x: memref<?xf32>, %y: memref<4xf32>, %t: i64):
}) : () -> ()

// -----

// expected-error @+1 {{'%S' is not a size of the kernel}}
xloop.kernel @unknown[%T = 1 to 8](%x: memref<?xf32> [%S]) -> (%y: memref<?xf32> [%T]) {
}

// -----

xloop.kernel @bound_not_size[%T = 1 to 8](%x: memref<?xf32> [%T]) -> (%y: memref<?xf32> [%T]) {
  xloop.parallel %i = 0 to %T {
    // expected-error @+1 {{'xloop.parallel' op upper bound must be a constant or a size of the enclosing kernel}}
    xloop.parallel %j = 0 to %i {
    }
  }
}

// -----

xloop.kernel @row[%T = 1 to 8](%x: memref<?xf32> [%T]) -> (%y: memref<?xf32> [%T]) {
}

func.func @wrong_name(%x: tensor<?xf32, #xtensor.dims<S>>, %z: tensor<?xf32, #xtensor.dims<T>>) -> tensor<?xf32, #xtensor.dims<S>>
    attributes {xtensor.symbols = {S = array<i64: 1, 8>, T = array<i64: 1, 8>}} {
  // expected-error @+1 {{'xloop.launch' op input #0 'tensor<?xf32, #xtensor.dims<S>>' does not match kernel buffer 'memref<?xf32>'}}
  %y = xloop.launch @row[T](%x) : (tensor<?xf32, #xtensor.dims<S>>) -> tensor<?xf32, #xtensor.dims<S>>
  return %y : tensor<?xf32, #xtensor.dims<S>>
}

// -----

xloop.kernel @row[%T = 1 to 8](%x: memref<?xf32> [%T]) -> (%y: memref<?xf32> [%T]) {
}

func.func @undeclared(%x: tensor<?xf32, #xtensor.dims<T>>) -> tensor<?xf32, #xtensor.dims<T>>
    attributes {xtensor.symbols = {T = array<i64: 1, 8>}} {
  // expected-error @+1 {{'xloop.launch' op passes the size 'U', which the enclosing function does not declare in 'xtensor.symbols'}}
  %y = xloop.launch @row[U](%x) : (tensor<?xf32, #xtensor.dims<T>>) -> tensor<?xf32, #xtensor.dims<T>>
  return %y : tensor<?xf32, #xtensor.dims<T>>
}

// -----

xloop.kernel @row[%T = 1 to 8](%x: memref<?xf32> [%T]) -> (%y: memref<?xf32> [%T]) {
}

func.func @no_sizes(%x: tensor<?xf32, #xtensor.dims<T>>) -> tensor<?xf32, #xtensor.dims<T>>
    attributes {xtensor.symbols = {T = array<i64: 1, 8>}} {
  // expected-error @+1 {{'xloop.launch' op passes 0 size(s) but kernel @row takes 1}}
  %y = xloop.launch @row(%x) : (tensor<?xf32, #xtensor.dims<T>>) -> tensor<?xf32, #xtensor.dims<T>>
  return %y : tensor<?xf32, #xtensor.dims<T>>
}

// -----

xloop.kernel @row[%T = 1 to 8](%x: memref<?xf32> [%T]) -> (%y: memref<?xf32> [%T]) {
}

func.func @static_tensor(%x: tensor<4xf32>, %z: tensor<?xf32, #xtensor.dims<T>>) -> tensor<4xf32>
    attributes {xtensor.symbols = {T = array<i64: 1, 8>}} {
  // expected-error @+1 {{'xloop.launch' op input #0 'tensor<4xf32>' does not match kernel buffer 'memref<?xf32>'}}
  %y = xloop.launch @row[T](%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// xloop.launch buckets

xloop.kernel @row[%T = 1 to 8](%x: memref<?xf32> [%T]) -> (%y: memref<?xf32> [%T]) {
}
xloop.kernel @row_b1[%T = 10 to 16](%x: memref<?xf32> [%T]) -> (%y: memref<?xf32> [%T]) {
}

func.func @gap(%x: tensor<?xf32, #xtensor.dims<T>>) -> tensor<?xf32, #xtensor.dims<T>>
    attributes {xtensor.symbols = {T = array<i64: 1, 16>}} {
  // expected-error @+1 {{'xloop.launch' op has buckets whose ranges of size #0 do not follow each other: [1, 8] then [10, 16]}}
  %y = xloop.launch @row[T](%x) buckets [@row_b1] : (tensor<?xf32, #xtensor.dims<T>>) -> tensor<?xf32, #xtensor.dims<T>>
  return %y : tensor<?xf32, #xtensor.dims<T>>
}

// -----

xloop.kernel @row[%T = 1 to 8](%x: memref<?xf32> [%T]) -> (%y: memref<?xf32> [%T]) {
}
xloop.kernel @row_b1[%T = 5 to 16](%x: memref<?xf32> [%T]) -> (%y: memref<?xf32> [%T]) {
}

func.func @overlap(%x: tensor<?xf32, #xtensor.dims<T>>) -> tensor<?xf32, #xtensor.dims<T>>
    attributes {xtensor.symbols = {T = array<i64: 1, 16>}} {
  // expected-error @+1 {{'xloop.launch' op has buckets whose ranges of size #0 do not follow each other: [1, 8] then [5, 16]}}
  %y = xloop.launch @row[T](%x) buckets [@row_b1] : (tensor<?xf32, #xtensor.dims<T>>) -> tensor<?xf32, #xtensor.dims<T>>
  return %y : tensor<?xf32, #xtensor.dims<T>>
}

// -----

xloop.kernel @row[%T = 1 to 8](%x: memref<?xf32> [%T]) -> (%y: memref<?xf32> [%T]) {
}
xloop.kernel @row_b1[%T = 1 to 8](%x: memref<?xf32> [%T]) -> (%y: memref<?xf32> [%T]) {
}

func.func @same_ranges(%x: tensor<?xf32, #xtensor.dims<T>>) -> tensor<?xf32, #xtensor.dims<T>>
    attributes {xtensor.symbols = {T = array<i64: 1, 8>}} {
  // expected-error @+1 {{'xloop.launch' op has buckets whose kernels declare the same size ranges}}
  %y = xloop.launch @row[T](%x) buckets [@row_b1] : (tensor<?xf32, #xtensor.dims<T>>) -> tensor<?xf32, #xtensor.dims<T>>
  return %y : tensor<?xf32, #xtensor.dims<T>>
}

// -----

xloop.kernel @row[%T = 1 to 8](%x: memref<?xf32> [%T]) -> (%y: memref<?xf32> [%T]) {
}
xloop.kernel @row_b1[%T = 9 to 16](%x: memref<?xf32> [%T]) -> (%y: memref<?xf32> [%T]) {
}

func.func @twice(%x: tensor<?xf32, #xtensor.dims<T>>) -> tensor<?xf32, #xtensor.dims<T>>
    attributes {xtensor.symbols = {T = array<i64: 1, 16>}} {
  // expected-error @+1 {{'xloop.launch' op names @row_b1 twice among its kernels}}
  %y = xloop.launch @row[T](%x) buckets [@row_b1, @row_b1] : (tensor<?xf32, #xtensor.dims<T>>) -> tensor<?xf32, #xtensor.dims<T>>
  return %y : tensor<?xf32, #xtensor.dims<T>>
}

// -----

xloop.kernel @row[%T = 1 to 8](%x: memref<?xf32> [%T]) -> (%y: memref<?xf32> [%T]) {
}
xloop.kernel @other[%T = 9 to 16](%x: memref<?xf32> [%T]) -> (%y: memref<?xf32> [%T]) {
}

func.func @empty(%x: tensor<?xf32, #xtensor.dims<T>>) -> tensor<?xf32, #xtensor.dims<T>>
    attributes {xtensor.symbols = {T = array<i64: 1, 16>}} {
  // expected-error @+1 {{'xloop.launch' op has an empty list of buckets}}
  %y = xloop.launch @row[T](%x) {buckets = []} : (tensor<?xf32, #xtensor.dims<T>>) -> tensor<?xf32, #xtensor.dims<T>>
  return %y : tensor<?xf32, #xtensor.dims<T>>
}

// -----

xloop.kernel @row[%T = 1 to 8](%x: memref<?xf32> [%T]) -> (%y: memref<?xf32> [%T]) {
}
xloop.kernel @wide[%T = 9 to 16](%x: memref<?xf32> [%T]) -> (%y: memref<?xf32> [%T]) {
}
xloop.kernel @narrow[%T = 9 to 16](%x: memref<?xf16> [%T]) -> (%y: memref<?xf32> [%T]) {
}

func.func @other_buffers(%x: tensor<?xf32, #xtensor.dims<T>>) -> tensor<?xf32, #xtensor.dims<T>>
    attributes {xtensor.symbols = {T = array<i64: 1, 16>}} {
  // expected-error @+1 {{'xloop.launch' op input #0 'tensor<?xf32, #xtensor.dims<T>>' does not match kernel buffer 'memref<?xf16>'}}
  %y = xloop.launch @row[T](%x) buckets [@narrow] : (tensor<?xf32, #xtensor.dims<T>>) -> tensor<?xf32, #xtensor.dims<T>>
  return %y : tensor<?xf32, #xtensor.dims<T>>
}

// -----

xloop.kernel @two[%T = 1 to 8, %S = 1 to 8](%x: memref<?x?xf32> [%T, %S]) -> (%y: memref<?x?xf32> [%T, %S]) {
}
xloop.kernel @two_b1[%T = 9 to 16, %S = 9 to 16](%x: memref<?x?xf32> [%T, %S]) -> (%y: memref<?x?xf32> [%T, %S]) {
}

func.func @two_sizes(%x: tensor<?x?xf32, #xtensor.dims<T, S>>) -> tensor<?x?xf32, #xtensor.dims<T, S>>
    attributes {xtensor.symbols = {S = array<i64: 1, 16>, T = array<i64: 1, 16>}} {
  // expected-error @+1 {{'xloop.launch' op has buckets whose kernels differ in the ranges of sizes #0 and #1 (at most one size is split)}}
  %y = xloop.launch @two[T, S](%x) buckets [@two_b1] : (tensor<?x?xf32, #xtensor.dims<T, S>>) -> tensor<?x?xf32, #xtensor.dims<T, S>>
  return %y : tensor<?x?xf32, #xtensor.dims<T, S>>
}
