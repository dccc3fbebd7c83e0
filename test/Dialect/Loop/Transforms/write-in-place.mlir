// RUN: xtile-opt %s --split-input-file --xloop-write-in-place | FileCheck %s

// A KV cache's append: the cache row %pos takes the new row, the others
// keep theirs, through a round trip to f32. Returned in place of the
// cache, the launch updates the cache's buffer and stores only the new
// row; the old rows are not read.

// CHECK-LABEL: xloop.kernel @append(
// CHECK:         %[[W:.*]] = arith.cmpi eq
// CHECK-NOT:     xloop.load %arg0
// CHECK:         %[[N:.*]] = xloop.load %arg1
// CHECK-NEXT:    %[[E:.*]] = arith.extf %[[N]] : bf16 to f32
// CHECK-NEXT:    %[[R:.*]] = arith.truncf %[[E]] : f32 to bf16
// CHECK-NEXT:    xloop.store %[[R]], %arg3[%{{.*}}, %{{.*}}, %{{.*}}] if %[[W]] : memref<2x48x16xbf16>
// CHECK-LABEL: func.func @step(
// CHECK:         xloop.launch @append(%arg0, %arg1, %arg2) {updates = array<i64: 0>}
xloop.kernel @append(%cache: memref<2x48x16xbf16>, %new: memref<2x1x16xbf16>, %pos: memref<1xi64>) -> (%out: memref<2x48x16xbf16>) {
  %c0 = arith.constant 0 : index
  %p = xloop.load %pos[%c0] : memref<1xi64>
  xloop.parallel %h = 0 to 2 {
    xloop.parallel %l = 0 to 48 {
      %li = arith.index_cast %l : index to i64
      %written = arith.cmpi eq, %li, %p : i64
      xloop.parallel %d = 0 to 16 {
        %old = xloop.load %cache[%h, %l, %d] : memref<2x48x16xbf16>
        %o = arith.extf %old : bf16 to f32
        %n = xloop.load %new[%h, %c0, %d] : memref<2x1x16xbf16>
        %e = arith.extf %n : bf16 to f32
        %v = arith.select %written, %e, %o : f32
        %r = arith.truncf %v : f32 to bf16
        xloop.store %r, %out[%h, %l, %d] : memref<2x48x16xbf16>
      }
    }
  }
}
func.func @step(%cache: tensor<2x48x16xbf16> {xtensor.in_place = 0 : i64}, %new: tensor<2x1x16xbf16>, %pos: tensor<1xi64>) -> tensor<2x48x16xbf16> {
  %0 = xloop.launch @append(%cache, %new, %pos) : (tensor<2x48x16xbf16>, tensor<2x1x16xbf16>, tensor<1xi64>) -> tensor<2x48x16xbf16>
  return %0 : tensor<2x48x16xbf16>
}

// -----

// The old element where the condition holds (masked_fill's form): stored
// where it does not.

// CHECK-LABEL: xloop.kernel @fill(
// CHECK-DAG:     %[[TRUE:.*]] = arith.constant true
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.0
// CHECK:         %[[M:.*]] = xloop.load %arg1[%{{.*}}] : memref<64xi1>
// CHECK-NEXT:    %[[NOT:.*]] = arith.xori %[[M]], %[[TRUE]] : i1
// CHECK-NEXT:    xloop.store %[[ZERO]], %arg2[%{{.*}}] if %[[NOT]] : memref<64xf32>
// CHECK-LABEL: func.func @fill_step(
// CHECK:         xloop.launch @fill(%arg0, %arg1) {updates = array<i64: 0>}
xloop.kernel @fill(%x: memref<64xf32>, %keep: memref<64xi1>) -> (%y: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  xloop.parallel %i = 0 to 64 {
    %old = xloop.load %x[%i] : memref<64xf32>
    %k = xloop.load %keep[%i] : memref<64xi1>
    %v = arith.select %k, %old, %zero : f32
    xloop.store %v, %y[%i] : memref<64xf32>
  }
}
func.func @fill_step(%x: tensor<64xf32> {xtensor.in_place = 0 : i64}, %keep: tensor<64xi1>) -> tensor<64xf32> {
  %0 = xloop.launch @fill(%x, %keep) : (tensor<64xf32>, tensor<64xi1>) -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

// -----

// Not in place: a later launch reads the argument's old value.

// CHECK-LABEL: xloop.kernel @fill2(
// CHECK:         xloop.store %{{.*}}, %arg2[%{{.*}}] : memref<64xf32>
// CHECK-LABEL: func.func @read_after(
// CHECK:         xloop.launch @fill2(%arg0, %arg1) :
// CHECK:         xloop.launch @copy(%arg0) :
xloop.kernel @fill2(%x: memref<64xf32>, %keep: memref<64xi1>) -> (%y: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  xloop.parallel %i = 0 to 64 {
    %old = xloop.load %x[%i] : memref<64xf32>
    %k = xloop.load %keep[%i] : memref<64xi1>
    %v = arith.select %k, %old, %zero : f32
    xloop.store %v, %y[%i] : memref<64xf32>
  }
}
xloop.kernel @copy(%x: memref<64xf32>) -> (%y: memref<64xf32>) {
  xloop.parallel %i = 0 to 64 {
    %v = xloop.load %x[%i] : memref<64xf32>
    xloop.store %v, %y[%i] : memref<64xf32>
  }
}
func.func @read_after(%x: tensor<64xf32> {xtensor.in_place = 0 : i64}, %keep: tensor<64xi1>) -> (tensor<64xf32>, tensor<64xf32>) {
  %0 = xloop.launch @fill2(%x, %keep) : (tensor<64xf32>, tensor<64xi1>) -> tensor<64xf32>
  %1 = xloop.launch @copy(%x) : (tensor<64xf32>) -> tensor<64xf32>
  return %0, %1 : tensor<64xf32>, tensor<64xf32>
}

// -----

// Not in place: each element reads its neighbour, which another iteration
// may already have overwritten.

// CHECK-LABEL: xloop.kernel @shift(
// CHECK:         xloop.store %{{.*}}, %arg2[%{{.*}}] : memref<64xf32>
// CHECK-LABEL: func.func @shift_step(
// CHECK:         xloop.launch @shift(%arg0, %arg1) :
#next = affine_map<(d0) -> ((d0 + 1) mod 64)>
xloop.kernel @shift(%x: memref<64xf32>, %keep: memref<64xi1>) -> (%y: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  xloop.parallel %i = 0 to 64 {
    %j = affine.apply #next(%i)
    %old = xloop.load %x[%j] : memref<64xf32>
    %k = xloop.load %keep[%i] : memref<64xi1>
    %v = arith.select %k, %old, %zero : f32
    xloop.store %v, %y[%i] : memref<64xf32>
  }
}
func.func @shift_step(%x: tensor<64xf32> {xtensor.in_place = 0 : i64}, %keep: tensor<64xi1>) -> tensor<64xf32> {
  %0 = xloop.launch @shift(%x, %keep) : (tensor<64xf32>, tensor<64xi1>) -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

// -----

// The new value reads the old one (x[mask] += 1): in place as it is, an
// elementwise kernel reading each element into the value it stores there;
// its buffers may alias (xtile.may_alias: no restrict, no non-coherent
// loads below).

// CHECK-LABEL: xloop.kernel @add_masked(
// CHECK-SAME:    xtile.may_alias
// CHECK:         xloop.store %{{.*}}, %arg2[%{{.*}}] : memref<64xf32>
// CHECK-LABEL: func.func @add_step(
// CHECK:         xloop.launch @add_masked(%arg0, %arg1) {updates = array<i64: 0>} :
xloop.kernel @add_masked(%x: memref<64xf32>, %mask: memref<64xi1>) -> (%y: memref<64xf32>) {
  %one = arith.constant 1.0 : f32
  xloop.parallel %i = 0 to 64 {
    %old = xloop.load %x[%i] : memref<64xf32>
    %m = xloop.load %mask[%i] : memref<64xi1>
    %n = arith.addf %old, %one : f32
    %v = arith.select %m, %n, %old : f32
    xloop.store %v, %y[%i] : memref<64xf32>
  }
}
func.func @add_step(%x: tensor<64xf32> {xtensor.in_place = 0 : i64}, %mask: tensor<64xi1>) -> tensor<64xf32> {
  %0 = xloop.launch @add_masked(%x, %mask) : (tensor<64xf32>, tensor<64xi1>) -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

// -----

// Not in place: the result is not returned in the argument's place (no
// xtensor.in_place), so the caller's tensor keeps its value.

// CHECK-LABEL: func.func @functional(
// CHECK:         xloop.launch @fill3(%arg0, %arg1) :
xloop.kernel @fill3(%x: memref<64xf32>, %keep: memref<64xi1>) -> (%y: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  xloop.parallel %i = 0 to 64 {
    %old = xloop.load %x[%i] : memref<64xf32>
    %k = xloop.load %keep[%i] : memref<64xi1>
    %v = arith.select %k, %old, %zero : f32
    xloop.store %v, %y[%i] : memref<64xf32>
  }
}
func.func @functional(%x: tensor<64xf32>, %keep: tensor<64xi1>) -> tensor<64xf32> {
  %0 = xloop.launch @fill3(%x, %keep) : (tensor<64xf32>, tensor<64xi1>) -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

// -----

// Not in place: the old element feeds only the other output, so nothing
// orders its read before the tied output's store.

// CHECK-LABEL: xloop.kernel @crossed(
// CHECK-NOT:     xtile.may_alias
// CHECK-LABEL: func.func @crossed_step(
// CHECK:         xloop.launch @crossed(%arg0, %arg1) :
xloop.kernel @crossed(%x: memref<64xf32>, %g: memref<64xf32>) -> (%y: memref<64xf32>, %z: memref<64xf32>) {
  %two = arith.constant 2.0 : f32
  xloop.parallel %i = 0 to 64 {
    %old = xloop.load %x[%i] : memref<64xf32>
    %n = xloop.load %g[%i] : memref<64xf32>
    %w = arith.mulf %old, %two : f32
    xloop.store %n, %y[%i] : memref<64xf32>
    xloop.store %w, %z[%i] : memref<64xf32>
  }
}
func.func @crossed_step(%x: tensor<64xf32> {xtensor.in_place = 0 : i64}, %g: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %0:2 = xloop.launch @crossed(%x, %g) : (tensor<64xf32>, tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>)
  return %0#0, %0#1 : tensor<64xf32>, tensor<64xf32>
}

// -----

// Not in place: a fold reads the argument's whole row, elements that
// other iterations overwrite.

// CHECK-LABEL: xloop.kernel @center(
// CHECK-NOT:     xtile.may_alias
// CHECK-LABEL: func.func @center_step(
// CHECK:         xloop.launch @center(%arg0) :
xloop.kernel @center(%x: memref<4x64xf32>) -> (%y: memref<4x64xf32>) {
  %zero = arith.constant 0.0 : f32
  xloop.parallel %r = 0 to 4 {
    %s = xloop.fold %k = 0 to 64 combine add init(%zero) : f32 {
      %v = xloop.load %x[%r, %k] : memref<4x64xf32>
      xloop.yield %v : f32
    }
    xloop.parallel %c = 0 to 64 {
      %old = xloop.load %x[%r, %c] : memref<4x64xf32>
      %d = arith.subf %old, %s : f32
      xloop.store %d, %y[%r, %c] : memref<4x64xf32>
    }
  }
}
func.func @center_step(%x: tensor<4x64xf32> {xtensor.in_place = 0 : i64}) -> tensor<4x64xf32> {
  %0 = xloop.launch @center(%x) : (tensor<4x64xf32>) -> tensor<4x64xf32>
  return %0 : tensor<4x64xf32>
}

// -----

// An optimizer's step count, a scalar updated (step + 1) by the same
// kernel whose loop reads it for every element, is not in place: its
// store may come before another iteration's read. The parameter, read
// and written by each iteration, is.

// CHECK-LABEL: xloop.kernel @bias_corrected(
// CHECK-SAME:    xtile.may_alias
// CHECK-LABEL: func.func @count_step(
// CHECK:         xloop.launch @bias_corrected(%arg0, %arg1) {updates = array<i64: 0, -1>} :
xloop.kernel @bias_corrected(%p: memref<64xf32>, %step: memref<f32>) -> (%q: memref<64xf32>, %next: memref<f32>) {
  %one = arith.constant 1.0 : f32
  %s = xloop.load %step[] : memref<f32>
  %n = arith.addf %s, %one : f32
  xloop.store %n, %next[] : memref<f32>
  xloop.parallel %i = 0 to 64 {
    %t = xloop.load %step[] : memref<f32>
    %u = arith.addf %t, %one : f32
    %old = xloop.load %p[%i] : memref<64xf32>
    %v = arith.divf %old, %u : f32
    xloop.store %v, %q[%i] : memref<64xf32>
  }
}
func.func @count_step(%p: tensor<64xf32> {xtensor.in_place = 0 : i64}, %step: tensor<f32> {xtensor.in_place = 1 : i64}) -> (tensor<64xf32>, tensor<f32>) {
  %0:2 = xloop.launch @bias_corrected(%p, %step) : (tensor<64xf32>, tensor<f32>) -> (tensor<64xf32>, tensor<f32>)
  return %0#0, %0#1 : tensor<64xf32>, tensor<f32>
}

// -----

// Not in place: the same with the count read once, outside the loop:
// every program of the kernel runs what is outside the loops, so one
// program's store of the new count may come before another's read.

// CHECK-LABEL: func.func @hoisted_count(
// CHECK:         xloop.launch @hoisted(%arg0, %arg1) {updates = array<i64: 0, -1>} :
xloop.kernel @hoisted(%p: memref<64xf32>, %step: memref<f32>) -> (%q: memref<64xf32>, %next: memref<f32>) {
  %one = arith.constant 1.0 : f32
  %s = xloop.load %step[] : memref<f32>
  %n = arith.addf %s, %one : f32
  xloop.parallel %i = 0 to 64 {
    %old = xloop.load %p[%i] : memref<64xf32>
    %v = arith.divf %old, %n : f32
    xloop.store %v, %q[%i] : memref<64xf32>
  }
  xloop.store %n, %next[] : memref<f32>
}
func.func @hoisted_count(%p: tensor<64xf32> {xtensor.in_place = 0 : i64}, %step: tensor<f32> {xtensor.in_place = 1 : i64}) -> (tensor<64xf32>, tensor<f32>) {
  %0:2 = xloop.launch @hoisted(%p, %step) : (tensor<64xf32>, tensor<f32>) -> (tensor<64xf32>, tensor<f32>)
  return %0#0, %0#1 : tensor<64xf32>, tensor<f32>
}
