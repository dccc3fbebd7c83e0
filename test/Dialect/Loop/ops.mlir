// RUN: xtile-opt %s | FileCheck %s
// RUN: xtile-opt %s | xtile-opt | FileCheck %s
// RUN: xtile-opt %s --mlir-print-op-generic | xtile-opt | FileCheck %s

// Round trip of every xloop op and form through the custom form, the custom
// form printed and parsed again, and the generic form parsed back. Each CHECK
// pins the exact custom form the printer produces.

// CHECK-DAG: #[[SHIFT:[a-zA-Z0-9_]+]] = affine_map<(d0) -> (d0 + 1)>
// CHECK-DAG: #[[FLAT:[a-zA-Z0-9_]+]] = affine_map<(d0, d1) -> (d0 * 8 + d1)>
// CHECK-DAG: #[[MOD:[a-zA-Z0-9_]+]] = affine_map<(d0) -> (d0 mod 4)>

//===----------------------------------------------------------------------===//
// Kernels: signatures
//===----------------------------------------------------------------------===//

// One input, one output, nested parallel loops.
// CHECK-LABEL: xloop.kernel @one_in_one_out(
// CHECK-SAME:      %[[X:[a-zA-Z0-9_]+]]: memref<4x8xf32>) -> (%[[Y:[a-zA-Z0-9_]+]]: memref<4x8xf32>) {
// CHECK-NEXT:    xloop.parallel %[[I:[a-zA-Z0-9_]+]] = 0 to 4 {
// CHECK-NEXT:      xloop.parallel %[[J:[a-zA-Z0-9_]+]] = 0 to 8 {
// CHECK-NEXT:        %[[V:[a-zA-Z0-9_]+]] = xloop.load %[[X]][%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK-NEXT:        %[[TWO:[a-zA-Z0-9_]+]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:        %[[R:[a-zA-Z0-9_]+]] = arith.mulf %[[V]], %[[TWO]] : f32
// CHECK-NEXT:        xloop.store %[[R]], %[[Y]][%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:  }
xloop.kernel @one_in_one_out(%x: memref<4x8xf32>) -> (%y: memref<4x8xf32>) {
  xloop.parallel %i = 0 to 4 {
    xloop.parallel %j = 0 to 8 {
      %v = xloop.load %x[%i, %j] : memref<4x8xf32>
      %two = arith.constant 2.0 : f32
      %r = arith.mulf %v, %two : f32
      xloop.store %r, %y[%i, %j] : memref<4x8xf32>
    }
  }
}

// Two inputs, one output; the parallel terminator written out is elided.
// CHECK-LABEL: xloop.kernel @two_in(
// CHECK-SAME:      %[[A:[a-zA-Z0-9_]+]]: memref<8xf32>, %[[B:[a-zA-Z0-9_]+]]: memref<8xf32>) -> (%[[C:[a-zA-Z0-9_]+]]: memref<8xf32>) {
// CHECK-NEXT:    xloop.parallel %[[I:[a-zA-Z0-9_]+]] = 0 to 8 {
// CHECK-NEXT:      %[[VA:[a-zA-Z0-9_]+]] = xloop.load %[[A]][%[[I]]] : memref<8xf32>
// CHECK-NEXT:      %[[VB:[a-zA-Z0-9_]+]] = xloop.load %[[B]][%[[I]]] : memref<8xf32>
// CHECK-NEXT:      %[[S:[a-zA-Z0-9_]+]] = arith.addf %[[VA]], %[[VB]] : f32
// CHECK-NEXT:      xloop.store %[[S]], %[[C]][%[[I]]] : memref<8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:  }
xloop.kernel @two_in(%a: memref<8xf32>, %b: memref<8xf32>) -> (%c: memref<8xf32>) {
  xloop.parallel %i = 0 to 8 {
    %va = xloop.load %a[%i] : memref<8xf32>
    %vb = xloop.load %b[%i] : memref<8xf32>
    %s = arith.addf %va, %vb : f32
    xloop.store %s, %c[%i] : memref<8xf32>
    xloop.yield
  }
}

// Three inputs of different ranks and element types, two outputs.
// CHECK-LABEL: xloop.kernel @three_in_two_out(
// CHECK-SAME:      %[[P:[a-zA-Z0-9_]+]]: memref<2x3xf16>, %[[Q:[a-zA-Z0-9_]+]]: memref<3xf16>, %[[N:[a-zA-Z0-9_]+]]: memref<2x3xi32>) -> (%[[O1:[a-zA-Z0-9_]+]]: memref<2x3xf16>, %[[O2:[a-zA-Z0-9_]+]]: memref<2x3xi32>) {
// CHECK-NEXT:    xloop.parallel %[[I:[a-zA-Z0-9_]+]] = 0 to 2 {
// CHECK-NEXT:      xloop.parallel %[[J:[a-zA-Z0-9_]+]] = 0 to 3 {
// CHECK-NEXT:        %[[VP:[a-zA-Z0-9_]+]] = xloop.load %[[P]][%[[I]], %[[J]]] : memref<2x3xf16>
// CHECK-NEXT:        %[[VQ:[a-zA-Z0-9_]+]] = xloop.load %[[Q]][%[[J]]] : memref<3xf16>
// CHECK-NEXT:        %[[M:[a-zA-Z0-9_]+]] = arith.mulf %[[VP]], %[[VQ]] : f16
// CHECK-NEXT:        xloop.store %[[M]], %[[O1]][%[[I]], %[[J]]] : memref<2x3xf16>
// CHECK-NEXT:        %[[VN:[a-zA-Z0-9_]+]] = xloop.load %[[N]][%[[I]], %[[J]]] : memref<2x3xi32>
// CHECK-NEXT:        %[[NN:[a-zA-Z0-9_]+]] = arith.addi %[[VN]], %[[VN]] : i32
// CHECK-NEXT:        xloop.store %[[NN]], %[[O2]][%[[I]], %[[J]]] : memref<2x3xi32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:  }
xloop.kernel @three_in_two_out(%p: memref<2x3xf16>, %q: memref<3xf16>, %n: memref<2x3xi32>)
    -> (%o1: memref<2x3xf16>, %o2: memref<2x3xi32>) {
  xloop.parallel %i = 0 to 2 {
    xloop.parallel %j = 0 to 3 {
      %vp = xloop.load %p[%i, %j] : memref<2x3xf16>
      %vq = xloop.load %q[%j] : memref<3xf16>
      %m = arith.mulf %vp, %vq : f16
      xloop.store %m, %o1[%i, %j] : memref<2x3xf16>
      %vn = xloop.load %n[%i, %j] : memref<2x3xi32>
      %nn = arith.addi %vn, %vn : i32
      xloop.store %nn, %o2[%i, %j] : memref<2x3xi32>
    }
  }
}

// Rank-0 buffers: loads and stores without indices, no loop at all.
// CHECK-LABEL: xloop.kernel @rank0(
// CHECK-SAME:      %[[S:[a-zA-Z0-9_]+]]: memref<f32>) -> (%[[T:[a-zA-Z0-9_]+]]: memref<f32>) {
// CHECK-NEXT:    %[[V:[a-zA-Z0-9_]+]] = xloop.load %[[S]][] : memref<f32>
// CHECK-NEXT:    %[[E:[a-zA-Z0-9_]+]] = math.exp %[[V]] : f32
// CHECK-NEXT:    xloop.store %[[E]], %[[T]][] : memref<f32>
// CHECK-NEXT:  }
xloop.kernel @rank0(%s: memref<f32>) -> (%t: memref<f32>) {
  %v = xloop.load %s[] : memref<f32>
  %e = math.exp %v : f32
  xloop.store %e, %t[] : memref<f32>
}

// An accumulating store at a computed index (a scatter-add's kernel).
// CHECK-LABEL: xloop.kernel @scatter_add(
// CHECK:           %[[AT:[a-zA-Z0-9_]+]] = arith.index_cast
// CHECK-NEXT:      xloop.store %{{.*}}, %{{.*}}[%[[AT]], %{{.*}}] accumulate : memref<10x8xf32>
xloop.kernel @scatter_add(%d: memref<10x8xf32>, %ids: memref<4xi64>, %g: memref<4x8xf32>)
    -> (%out: memref<10x8xf32>) {
  xloop.parallel %i = 0 to 4 {
    xloop.parallel %j = 0 to 8 {
      %id = xloop.load %ids[%i] : memref<4xi64>
      %v = xloop.load %g[%i, %j] : memref<4x8xf32>
      %at = arith.index_cast %id : i64 to index
      xloop.store %v, %out[%at, %j] accumulate : memref<10x8xf32>
    }
  }
}

// No input at all, two outputs, one of rank 0; a loop with a nonzero lower
// bound and an empty loop.
// CHECK-LABEL: xloop.kernel @no_inputs() -> (
// CHECK-SAME:      %[[F:[a-zA-Z0-9_]+]]: memref<6xi32>, %[[G:[a-zA-Z0-9_]+]]: memref<i1>) {
// CHECK-NEXT:    %[[ZERO:[a-zA-Z0-9_]+]] = arith.constant 0 : i32
// CHECK-NEXT:    xloop.parallel %[[I:[a-zA-Z0-9_]+]] = 2 to 6 {
// CHECK-NEXT:      xloop.store %[[ZERO]], %[[F]][%[[I]]] : memref<6xi32>
// CHECK-NEXT:    }
// CHECK-NEXT:    xloop.parallel %[[K:[a-zA-Z0-9_]+]] = 0 to 0 {
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[TRUE:[a-zA-Z0-9_]+]] = arith.constant true
// CHECK-NEXT:    xloop.store %[[TRUE]], %[[G]][] : memref<i1>
// CHECK-NEXT:  }
xloop.kernel @no_inputs() -> (%f: memref<6xi32>, %g: memref<i1>) {
  %zero = arith.constant 0 : i32
  xloop.parallel %i = 2 to 6 {
    xloop.store %zero, %f[%i] : memref<6xi32>
  }
  xloop.parallel %k = 0 to 0 {
  }
  %true = arith.constant true
  xloop.store %true, %g[] : memref<i1>
}

// Discardable attributes on kernels, parallel loops and folds.
// CHECK-LABEL: xloop.kernel @with_attributes(
// CHECK-SAME:      %[[X:[a-zA-Z0-9_]+]]: memref<4xf32>) -> (%[[Y:[a-zA-Z0-9_]+]]: memref<f32>) attributes {xloop.identity = "0x1234"} {
// CHECK-NEXT:    %[[Z:[a-zA-Z0-9_]+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[R:[a-zA-Z0-9_]+]] = xloop.fold %[[J:[a-zA-Z0-9_]+]] = 0 to 4 combine add init(%[[Z]]) : f32 attributes {tag = 1 : i64} {
// CHECK-NEXT:      %[[V:[a-zA-Z0-9_]+]] = xloop.load %[[X]][%[[J]]] : memref<4xf32>
// CHECK-NEXT:      xloop.yield %[[V]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    xloop.parallel %[[I:[a-zA-Z0-9_]+]] = 0 to 1 attributes {unroll} {
// CHECK-NEXT:      xloop.store %[[R]], %[[Y]][] : memref<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:  }
xloop.kernel @with_attributes(%x: memref<4xf32>) -> (%y: memref<f32>) attributes {xloop.identity = "0x1234"} {
  %z = arith.constant 0.0 : f32
  %r = xloop.fold %j = 0 to 4 combine add init(%z) : f32 attributes {tag = 1} {
    %v = xloop.load %x[%j] : memref<4xf32>
    xloop.yield %v : f32
  }
  xloop.parallel %i = 0 to 1 attributes {unroll} {
    xloop.store %r, %y[] : memref<f32>
  }
}

//===----------------------------------------------------------------------===//
// Folds: every combine kind
//===----------------------------------------------------------------------===//

// CHECK-LABEL: xloop.kernel @fold_f32(
// CHECK-SAME:      %[[X:[a-zA-Z0-9_]+]]: memref<16xf32>) -> (%[[Y:[a-zA-Z0-9_]+]]: memref<4xf32>) {
// CHECK-NEXT:    %[[INIT:[a-zA-Z0-9_]+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[ADD:[a-zA-Z0-9_]+]] = xloop.fold %[[I0:[a-zA-Z0-9_]+]] = 0 to 16 combine add init(%[[INIT]]) : f32 {
// CHECK-NEXT:      %[[V0:[a-zA-Z0-9_]+]] = xloop.load %[[X]][%[[I0]]] : memref<16xf32>
// CHECK-NEXT:      xloop.yield %[[V0]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[MUL:[a-zA-Z0-9_]+]] = xloop.fold %[[I1:[a-zA-Z0-9_]+]] = 0 to 16 combine mul init(%[[INIT]]) : f32 {
// CHECK-NEXT:      %[[V1:[a-zA-Z0-9_]+]] = xloop.load %[[X]][%[[I1]]] : memref<16xf32>
// CHECK-NEXT:      xloop.yield %[[V1]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[MAX:[a-zA-Z0-9_]+]] = xloop.fold %[[I2:[a-zA-Z0-9_]+]] = 0 to 16 combine max init(%[[INIT]]) : f32 {
// CHECK-NEXT:      %[[V2:[a-zA-Z0-9_]+]] = xloop.load %[[X]][%[[I2]]] : memref<16xf32>
// CHECK-NEXT:      xloop.yield %[[V2]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[MIN:[a-zA-Z0-9_]+]] = xloop.fold %[[I3:[a-zA-Z0-9_]+]] = 0 to 16 combine min init(%[[INIT]]) : f32 {
// CHECK-NEXT:      %[[V3:[a-zA-Z0-9_]+]] = xloop.load %[[X]][%[[I3]]] : memref<16xf32>
// CHECK-NEXT:      xloop.yield %[[V3]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[C0:[a-zA-Z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:[a-zA-Z0-9_]+]] = arith.constant 1 : index
// CHECK-NEXT:    %[[C2:[a-zA-Z0-9_]+]] = arith.constant 2 : index
// CHECK-NEXT:    %[[C3:[a-zA-Z0-9_]+]] = arith.constant 3 : index
// CHECK-NEXT:    xloop.store %[[ADD]], %[[Y]][%[[C0]]] : memref<4xf32>
// CHECK-NEXT:    xloop.store %[[MUL]], %[[Y]][%[[C1]]] : memref<4xf32>
// CHECK-NEXT:    xloop.store %[[MAX]], %[[Y]][%[[C2]]] : memref<4xf32>
// CHECK-NEXT:    xloop.store %[[MIN]], %[[Y]][%[[C3]]] : memref<4xf32>
// CHECK-NEXT:  }
xloop.kernel @fold_f32(%x: memref<16xf32>) -> (%y: memref<4xf32>) {
  %init = arith.constant 1.0 : f32
  %add = xloop.fold %i = 0 to 16 combine add init(%init) : f32 {
    %v = xloop.load %x[%i] : memref<16xf32>
    xloop.yield %v : f32
  }
  %mul = xloop.fold %i = 0 to 16 combine mul init(%init) : f32 {
    %v = xloop.load %x[%i] : memref<16xf32>
    xloop.yield %v : f32
  }
  %max = xloop.fold %i = 0 to 16 combine max init(%init) : f32 {
    %v = xloop.load %x[%i] : memref<16xf32>
    xloop.yield %v : f32
  }
  %min = xloop.fold %i = 0 to 16 combine min init(%init) : f32 {
    %v = xloop.load %x[%i] : memref<16xf32>
    xloop.yield %v : f32
  }
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  xloop.store %add, %y[%c0] : memref<4xf32>
  xloop.store %mul, %y[%c1] : memref<4xf32>
  xloop.store %max, %y[%c2] : memref<4xf32>
  xloop.store %min, %y[%c3] : memref<4xf32>
}

// The folds of f16 rows run inside the row loop.
// CHECK-LABEL: xloop.kernel @fold_f16(
// CHECK-SAME:      %[[X:[a-zA-Z0-9_]+]]: memref<2x8xf16>) -> (%[[Y:[a-zA-Z0-9_]+]]: memref<2x4xf16>) {
// CHECK-NEXT:    %[[INIT:[a-zA-Z0-9_]+]] = arith.constant 0.000000e+00 : f16
// CHECK-NEXT:    xloop.parallel %[[I:[a-zA-Z0-9_]+]] = 0 to 2 {
// CHECK-NEXT:      %[[ADD:[a-zA-Z0-9_]+]] = xloop.fold %[[J0:[a-zA-Z0-9_]+]] = 0 to 8 combine add init(%[[INIT]]) : f16 {
// CHECK-NEXT:        %[[V0:[a-zA-Z0-9_]+]] = xloop.load %[[X]][%[[I]], %[[J0]]] : memref<2x8xf16>
// CHECK-NEXT:        xloop.yield %[[V0]] : f16
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[MUL:[a-zA-Z0-9_]+]] = xloop.fold %[[J1:[a-zA-Z0-9_]+]] = 0 to 8 combine mul init(%[[INIT]]) : f16 {
// CHECK-NEXT:        %[[V1:[a-zA-Z0-9_]+]] = xloop.load %[[X]][%[[I]], %[[J1]]] : memref<2x8xf16>
// CHECK-NEXT:        xloop.yield %[[V1]] : f16
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[MAX:[a-zA-Z0-9_]+]] = xloop.fold %[[J2:[a-zA-Z0-9_]+]] = 0 to 8 combine max init(%[[INIT]]) : f16 {
// CHECK-NEXT:        %[[V2:[a-zA-Z0-9_]+]] = xloop.load %[[X]][%[[I]], %[[J2]]] : memref<2x8xf16>
// CHECK-NEXT:        xloop.yield %[[V2]] : f16
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[MIN:[a-zA-Z0-9_]+]] = xloop.fold %[[J3:[a-zA-Z0-9_]+]] = 0 to 8 combine min init(%[[INIT]]) : f16 {
// CHECK-NEXT:        %[[V3:[a-zA-Z0-9_]+]] = xloop.load %[[X]][%[[I]], %[[J3]]] : memref<2x8xf16>
// CHECK-NEXT:        xloop.yield %[[V3]] : f16
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[C0:[a-zA-Z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:      xloop.store %[[ADD]], %[[Y]][%[[I]], %[[C0]]] : memref<2x4xf16>
// CHECK-NEXT:      %[[C1:[a-zA-Z0-9_]+]] = arith.constant 1 : index
// CHECK-NEXT:      xloop.store %[[MUL]], %[[Y]][%[[I]], %[[C1]]] : memref<2x4xf16>
// CHECK-NEXT:      %[[C2:[a-zA-Z0-9_]+]] = arith.constant 2 : index
// CHECK-NEXT:      xloop.store %[[MAX]], %[[Y]][%[[I]], %[[C2]]] : memref<2x4xf16>
// CHECK-NEXT:      %[[C3:[a-zA-Z0-9_]+]] = arith.constant 3 : index
// CHECK-NEXT:      xloop.store %[[MIN]], %[[Y]][%[[I]], %[[C3]]] : memref<2x4xf16>
// CHECK-NEXT:    }
// CHECK-NEXT:  }
xloop.kernel @fold_f16(%x: memref<2x8xf16>) -> (%y: memref<2x4xf16>) {
  %init = arith.constant 0.0 : f16
  xloop.parallel %i = 0 to 2 {
    %add = xloop.fold %j = 0 to 8 combine add init(%init) : f16 {
      %v = xloop.load %x[%i, %j] : memref<2x8xf16>
      xloop.yield %v : f16
    }
    %mul = xloop.fold %j = 0 to 8 combine mul init(%init) : f16 {
      %v = xloop.load %x[%i, %j] : memref<2x8xf16>
      xloop.yield %v : f16
    }
    %max = xloop.fold %j = 0 to 8 combine max init(%init) : f16 {
      %v = xloop.load %x[%i, %j] : memref<2x8xf16>
      xloop.yield %v : f16
    }
    %min = xloop.fold %j = 0 to 8 combine min init(%init) : f16 {
      %v = xloop.load %x[%i, %j] : memref<2x8xf16>
      xloop.yield %v : f16
    }
    %c0 = arith.constant 0 : index
    xloop.store %add, %y[%i, %c0] : memref<2x4xf16>
    %c1 = arith.constant 1 : index
    xloop.store %mul, %y[%i, %c1] : memref<2x4xf16>
    %c2 = arith.constant 2 : index
    xloop.store %max, %y[%i, %c2] : memref<2x4xf16>
    %c3 = arith.constant 3 : index
    xloop.store %min, %y[%i, %c3] : memref<2x4xf16>
  }
}

// Every combine kind on i32, including the bitwise ones.
// CHECK-LABEL: xloop.kernel @fold_i32(
// CHECK-SAME:      %[[X:[a-zA-Z0-9_]+]]: memref<8xi32>) -> (%[[Y:[a-zA-Z0-9_]+]]: memref<6xi32>) {
// CHECK-NEXT:    %[[INIT:[a-zA-Z0-9_]+]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[ADD:[a-zA-Z0-9_]+]] = xloop.fold %[[I0:[a-zA-Z0-9_]+]] = 0 to 8 combine add init(%[[INIT]]) : i32 {
// CHECK-NEXT:      %[[V0:[a-zA-Z0-9_]+]] = xloop.load %[[X]][%[[I0]]] : memref<8xi32>
// CHECK-NEXT:      xloop.yield %[[V0]] : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[MUL:[a-zA-Z0-9_]+]] = xloop.fold %[[I1:[a-zA-Z0-9_]+]] = 0 to 8 combine mul init(%[[INIT]]) : i32 {
// CHECK-NEXT:      %[[V1:[a-zA-Z0-9_]+]] = xloop.load %[[X]][%[[I1]]] : memref<8xi32>
// CHECK-NEXT:      xloop.yield %[[V1]] : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[MAX:[a-zA-Z0-9_]+]] = xloop.fold %[[I2:[a-zA-Z0-9_]+]] = 0 to 8 combine max init(%[[INIT]]) : i32 {
// CHECK-NEXT:      %[[V2:[a-zA-Z0-9_]+]] = xloop.load %[[X]][%[[I2]]] : memref<8xi32>
// CHECK-NEXT:      xloop.yield %[[V2]] : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[MIN:[a-zA-Z0-9_]+]] = xloop.fold %[[I3:[a-zA-Z0-9_]+]] = 0 to 8 combine min init(%[[INIT]]) : i32 {
// CHECK-NEXT:      %[[V3:[a-zA-Z0-9_]+]] = xloop.load %[[X]][%[[I3]]] : memref<8xi32>
// CHECK-NEXT:      xloop.yield %[[V3]] : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[AND:[a-zA-Z0-9_]+]] = xloop.fold %[[I4:[a-zA-Z0-9_]+]] = 0 to 8 combine and init(%[[INIT]]) : i32 {
// CHECK-NEXT:      %[[V4:[a-zA-Z0-9_]+]] = xloop.load %[[X]][%[[I4]]] : memref<8xi32>
// CHECK-NEXT:      xloop.yield %[[V4]] : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[OR:[a-zA-Z0-9_]+]] = xloop.fold %[[I5:[a-zA-Z0-9_]+]] = 0 to 8 combine or init(%[[INIT]]) : i32 {
// CHECK-NEXT:      %[[V5:[a-zA-Z0-9_]+]] = xloop.load %[[X]][%[[I5]]] : memref<8xi32>
// CHECK-NEXT:      xloop.yield %[[V5]] : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[C0:[a-zA-Z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:[a-zA-Z0-9_]+]] = arith.constant 1 : index
// CHECK-NEXT:    %[[C2:[a-zA-Z0-9_]+]] = arith.constant 2 : index
// CHECK-NEXT:    %[[C3:[a-zA-Z0-9_]+]] = arith.constant 3 : index
// CHECK-NEXT:    %[[C4:[a-zA-Z0-9_]+]] = arith.constant 4 : index
// CHECK-NEXT:    %[[C5:[a-zA-Z0-9_]+]] = arith.constant 5 : index
// CHECK-NEXT:    xloop.store %[[ADD]], %[[Y]][%[[C0]]] : memref<6xi32>
// CHECK-NEXT:    xloop.store %[[MUL]], %[[Y]][%[[C1]]] : memref<6xi32>
// CHECK-NEXT:    xloop.store %[[MAX]], %[[Y]][%[[C2]]] : memref<6xi32>
// CHECK-NEXT:    xloop.store %[[MIN]], %[[Y]][%[[C3]]] : memref<6xi32>
// CHECK-NEXT:    xloop.store %[[AND]], %[[Y]][%[[C4]]] : memref<6xi32>
// CHECK-NEXT:    xloop.store %[[OR]], %[[Y]][%[[C5]]] : memref<6xi32>
// CHECK-NEXT:  }
xloop.kernel @fold_i32(%x: memref<8xi32>) -> (%y: memref<6xi32>) {
  %init = arith.constant 0 : i32
  %add = xloop.fold %i = 0 to 8 combine add init(%init) : i32 {
    %v = xloop.load %x[%i] : memref<8xi32>
    xloop.yield %v : i32
  }
  %mul = xloop.fold %i = 0 to 8 combine mul init(%init) : i32 {
    %v = xloop.load %x[%i] : memref<8xi32>
    xloop.yield %v : i32
  }
  %max = xloop.fold %i = 0 to 8 combine max init(%init) : i32 {
    %v = xloop.load %x[%i] : memref<8xi32>
    xloop.yield %v : i32
  }
  %min = xloop.fold %i = 0 to 8 combine min init(%init) : i32 {
    %v = xloop.load %x[%i] : memref<8xi32>
    xloop.yield %v : i32
  }
  %and = xloop.fold %i = 0 to 8 combine and init(%init) : i32 {
    %v = xloop.load %x[%i] : memref<8xi32>
    xloop.yield %v : i32
  }
  %or = xloop.fold %i = 0 to 8 combine or init(%init) : i32 {
    %v = xloop.load %x[%i] : memref<8xi32>
    xloop.yield %v : i32
  }
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  xloop.store %add, %y[%c0] : memref<6xi32>
  xloop.store %mul, %y[%c1] : memref<6xi32>
  xloop.store %max, %y[%c2] : memref<6xi32>
  xloop.store %min, %y[%c3] : memref<6xi32>
  xloop.store %and, %y[%c4] : memref<6xi32>
  xloop.store %or, %y[%c5] : memref<6xi32>
}

// "all" and "any" of an i1 row: and/or on i1, the bodies computing their
// element with arith.
// CHECK-LABEL: xloop.kernel @fold_i1(
// CHECK-SAME:      %[[X:[a-zA-Z0-9_]+]]: memref<4x8xi32>) -> (%[[ALLP:[a-zA-Z0-9_]+]]: memref<4xi1>, %[[ANYZ:[a-zA-Z0-9_]+]]: memref<4xi1>) {
// CHECK-NEXT:    %[[TRUE:[a-zA-Z0-9_]+]] = arith.constant true
// CHECK-NEXT:    %[[FALSE:[a-zA-Z0-9_]+]] = arith.constant false
// CHECK-NEXT:    %[[Z:[a-zA-Z0-9_]+]] = arith.constant 0 : i32
// CHECK-NEXT:    xloop.parallel %[[I:[a-zA-Z0-9_]+]] = 0 to 4 {
// CHECK-NEXT:      %[[ALL:[a-zA-Z0-9_]+]] = xloop.fold %[[J0:[a-zA-Z0-9_]+]] = 0 to 8 combine and init(%[[TRUE]]) : i1 {
// CHECK-NEXT:        %[[V0:[a-zA-Z0-9_]+]] = xloop.load %[[X]][%[[I]], %[[J0]]] : memref<4x8xi32>
// CHECK-NEXT:        %[[P:[a-zA-Z0-9_]+]] = arith.cmpi sgt, %[[V0]], %[[Z]] : i32
// CHECK-NEXT:        xloop.yield %[[P]] : i1
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[ANY:[a-zA-Z0-9_]+]] = xloop.fold %[[J1:[a-zA-Z0-9_]+]] = 0 to 8 combine or init(%[[FALSE]]) : i1 {
// CHECK-NEXT:        %[[V1:[a-zA-Z0-9_]+]] = xloop.load %[[X]][%[[I]], %[[J1]]] : memref<4x8xi32>
// CHECK-NEXT:        %[[E:[a-zA-Z0-9_]+]] = arith.cmpi eq, %[[V1]], %[[Z]] : i32
// CHECK-NEXT:        xloop.yield %[[E]] : i1
// CHECK-NEXT:      }
// CHECK-NEXT:      xloop.store %[[ALL]], %[[ALLP]][%[[I]]] : memref<4xi1>
// CHECK-NEXT:      xloop.store %[[ANY]], %[[ANYZ]][%[[I]]] : memref<4xi1>
// CHECK-NEXT:    }
// CHECK-NEXT:  }
xloop.kernel @fold_i1(%x: memref<4x8xi32>) -> (%allp: memref<4xi1>, %anyz: memref<4xi1>) {
  %true = arith.constant true
  %false = arith.constant false
  %z = arith.constant 0 : i32
  xloop.parallel %i = 0 to 4 {
    %all = xloop.fold %j = 0 to 8 combine and init(%true) : i1 {
      %v = xloop.load %x[%i, %j] : memref<4x8xi32>
      %p = arith.cmpi sgt, %v, %z : i32
      xloop.yield %p : i1
    }
    %any = xloop.fold %j = 0 to 8 combine or init(%false) : i1 {
      %v = xloop.load %x[%i, %j] : memref<4x8xi32>
      %e = arith.cmpi eq, %v, %z : i32
      xloop.yield %e : i1
    }
    xloop.store %all, %allp[%i] : memref<4xi1>
    xloop.store %any, %anyz[%i] : memref<4xi1>
  }
}

//===----------------------------------------------------------------------===//
// Folds nested in folds, fold results used after the loop
//===----------------------------------------------------------------------===//

// The maximum over rows of the row sums; the result is scaled after the fold.
// CHECK-LABEL: xloop.kernel @nested_folds(
// CHECK-SAME:      %[[X:[a-zA-Z0-9_]+]]: memref<4x8xf32>) -> (%[[Y:[a-zA-Z0-9_]+]]: memref<f32>) {
// CHECK-NEXT:    %[[NINF:[a-zA-Z0-9_]+]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT:    %[[ZERO:[a-zA-Z0-9_]+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[OUTER:[a-zA-Z0-9_]+]] = xloop.fold %[[I:[a-zA-Z0-9_]+]] = 0 to 4 combine max init(%[[NINF]]) : f32 {
// CHECK-NEXT:      %[[INNER:[a-zA-Z0-9_]+]] = xloop.fold %[[J:[a-zA-Z0-9_]+]] = 0 to 8 combine add init(%[[ZERO]]) : f32 {
// CHECK-NEXT:        %[[V:[a-zA-Z0-9_]+]] = xloop.load %[[X]][%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK-NEXT:        %[[SQ:[a-zA-Z0-9_]+]] = arith.mulf %[[V]], %[[V]] : f32
// CHECK-NEXT:        xloop.yield %[[SQ]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      xloop.yield %[[INNER]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[ROOT:[a-zA-Z0-9_]+]] = math.sqrt %[[OUTER]] : f32
// CHECK-NEXT:    xloop.store %[[ROOT]], %[[Y]][] : memref<f32>
// CHECK-NEXT:  }
xloop.kernel @nested_folds(%x: memref<4x8xf32>) -> (%y: memref<f32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %outer = xloop.fold %i = 0 to 4 combine max init(%ninf) : f32 {
    %inner = xloop.fold %j = 0 to 8 combine add init(%zero) : f32 {
      %v = xloop.load %x[%i, %j] : memref<4x8xf32>
      %sq = arith.mulf %v, %v : f32
      xloop.yield %sq : f32
    }
    xloop.yield %inner : f32
  }
  %root = math.sqrt %outer : f32
  xloop.store %root, %y[] : memref<f32>
}

// Three-deep nest: a fold of a product of an inner fold, inside a parallel
// loop; the row's fold result is used by the row's elementwise loop.
// CHECK-LABEL: xloop.kernel @fold_then_parallel(
// CHECK-SAME:      %[[X:[a-zA-Z0-9_]+]]: memref<2x4x8xi32>) -> (%[[Y:[a-zA-Z0-9_]+]]: memref<2x4xi32>) {
// CHECK-NEXT:    %[[ONE:[a-zA-Z0-9_]+]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[ZERO:[a-zA-Z0-9_]+]] = arith.constant 0 : i32
// CHECK-NEXT:    xloop.parallel %[[B:[a-zA-Z0-9_]+]] = 0 to 2 {
// CHECK-NEXT:      %[[PROD:[a-zA-Z0-9_]+]] = xloop.fold %[[I:[a-zA-Z0-9_]+]] = 0 to 4 combine mul init(%[[ONE]]) : i32 {
// CHECK-NEXT:        %[[SUM:[a-zA-Z0-9_]+]] = xloop.fold %[[J:[a-zA-Z0-9_]+]] = 0 to 8 combine add init(%[[ZERO]]) : i32 {
// CHECK-NEXT:          %[[V:[a-zA-Z0-9_]+]] = xloop.load %[[X]][%[[B]], %[[I]], %[[J]]] : memref<2x4x8xi32>
// CHECK-NEXT:          xloop.yield %[[V]] : i32
// CHECK-NEXT:        }
// CHECK-NEXT:        xloop.yield %[[SUM]] : i32
// CHECK-NEXT:      }
// CHECK-NEXT:      xloop.parallel %[[K:[a-zA-Z0-9_]+]] = 0 to 4 {
// CHECK-NEXT:        %[[W:[a-zA-Z0-9_]+]] = xloop.load %[[X]][%[[B]], %[[K]], %[[K]]] : memref<2x4x8xi32>
// CHECK-NEXT:        %[[D:[a-zA-Z0-9_]+]] = arith.divsi %[[W]], %[[PROD]] : i32
// CHECK-NEXT:        xloop.store %[[D]], %[[Y]][%[[B]], %[[K]]] : memref<2x4xi32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:  }
xloop.kernel @fold_then_parallel(%x: memref<2x4x8xi32>) -> (%y: memref<2x4xi32>) {
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  xloop.parallel %b = 0 to 2 {
    %prod = xloop.fold %i = 0 to 4 combine mul init(%one) : i32 {
      %sum = xloop.fold %j = 0 to 8 combine add init(%zero) : i32 {
        %v = xloop.load %x[%b, %i, %j] : memref<2x4x8xi32>
        xloop.yield %v : i32
      }
      xloop.yield %sum : i32
    }
    xloop.parallel %k = 0 to 4 {
      %w = xloop.load %x[%b, %k, %k] : memref<2x4x8xi32>
      %d = arith.divsi %w, %prod : i32
      xloop.store %d, %y[%b, %k] : memref<2x4xi32>
    }
  }
}

//===----------------------------------------------------------------------===//
// Index expressions
//===----------------------------------------------------------------------===//

// A shift, a flattening reshape, a modulo broadcast and a constant index.
// CHECK-LABEL: xloop.kernel @index_expressions(
// CHECK-SAME:      %[[X:[a-zA-Z0-9_]+]]: memref<33xf32>, %[[F:[a-zA-Z0-9_]+]]: memref<32xf32>, %[[B:[a-zA-Z0-9_]+]]: memref<4xf32>) -> (%[[Y:[a-zA-Z0-9_]+]]: memref<4x8xf32>) {
// CHECK-NEXT:    %[[C5:[a-zA-Z0-9_]+]] = arith.constant 5 : index
// CHECK-NEXT:    %[[FIFTH:[a-zA-Z0-9_]+]] = xloop.load %[[X]][%[[C5]]] : memref<33xf32>
// CHECK-NEXT:    xloop.parallel %[[I:[a-zA-Z0-9_]+]] = 0 to 4 {
// CHECK-NEXT:      xloop.parallel %[[J:[a-zA-Z0-9_]+]] = 0 to 8 {
// CHECK-NEXT:        %[[FL:[a-zA-Z0-9_]+]] = affine.apply #[[FLAT]](%[[I]], %[[J]])
// CHECK-NEXT:        %[[SH:[a-zA-Z0-9_]+]] = affine.apply #[[SHIFT]](%[[FL]])
// CHECK-NEXT:        %[[VX:[a-zA-Z0-9_]+]] = xloop.load %[[X]][%[[SH]]] : memref<33xf32>
// CHECK-NEXT:        %[[VF:[a-zA-Z0-9_]+]] = xloop.load %[[F]][%[[FL]]] : memref<32xf32>
// CHECK-NEXT:        %[[M:[a-zA-Z0-9_]+]] = affine.apply #[[MOD]](%[[J]])
// CHECK-NEXT:        %[[VB:[a-zA-Z0-9_]+]] = xloop.load %[[B]][%[[M]]] : memref<4xf32>
// CHECK-NEXT:        %[[S0:[a-zA-Z0-9_]+]] = arith.addf %[[VX]], %[[VF]] : f32
// CHECK-NEXT:        %[[S1:[a-zA-Z0-9_]+]] = arith.addf %[[S0]], %[[VB]] : f32
// CHECK-NEXT:        %[[S2:[a-zA-Z0-9_]+]] = arith.addf %[[S1]], %[[FIFTH]] : f32
// CHECK-NEXT:        xloop.store %[[S2]], %[[Y]][%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[C3:[a-zA-Z0-9_]+]] = arith.constant 3 : index
// CHECK-NEXT:    %[[C7:[a-zA-Z0-9_]+]] = arith.constant 7 : index
// CHECK-NEXT:    xloop.store %[[FIFTH]], %[[Y]][%[[C3]], %[[C7]]] : memref<4x8xf32>
// CHECK-NEXT:  }
xloop.kernel @index_expressions(%x: memref<33xf32>, %f: memref<32xf32>, %b: memref<4xf32>)
    -> (%y: memref<4x8xf32>) {
  %c5 = arith.constant 5 : index
  %fifth = xloop.load %x[%c5] : memref<33xf32>
  xloop.parallel %i = 0 to 4 {
    xloop.parallel %j = 0 to 8 {
      %fl = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1)>(%i, %j)
      %sh = affine.apply affine_map<(d0) -> (d0 + 1)>(%fl)
      %vx = xloop.load %x[%sh] : memref<33xf32>
      %vf = xloop.load %f[%fl] : memref<32xf32>
      %m = affine.apply affine_map<(d0) -> (d0 mod 4)>(%j)
      %vb = xloop.load %b[%m] : memref<4xf32>
      %s0 = arith.addf %vx, %vf : f32
      %s1 = arith.addf %s0, %vb : f32
      %s2 = arith.addf %s1, %fifth : f32
      xloop.store %s2, %y[%i, %j] : memref<4x8xf32>
    }
  }
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  xloop.store %fifth, %y[%c3, %c7] : memref<4x8xf32>
}

//===----------------------------------------------------------------------===//
// Launches
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @launch_one_result(
// CHECK-SAME:      %[[A:[a-zA-Z0-9_]+]]: tensor<8xf32>, %[[B:[a-zA-Z0-9_]+]]: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT:    %[[C:[a-zA-Z0-9_]+]] = xloop.launch @two_in(%[[A]], %[[B]]) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:    return %[[C]] : tensor<8xf32>
// CHECK-NEXT:  }
func.func @launch_one_result(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %c = xloop.launch @two_in(%a, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %c : tensor<8xf32>
}

// CHECK-LABEL: func.func @launch_two_results(
// CHECK-SAME:      %[[P:[a-zA-Z0-9_]+]]: tensor<2x3xf16>, %[[Q:[a-zA-Z0-9_]+]]: tensor<3xf16>, %[[N:[a-zA-Z0-9_]+]]: tensor<2x3xi32>) -> (tensor<2x3xf16>, tensor<2x3xi32>) {
// CHECK-NEXT:    %[[R:[a-zA-Z0-9_]+]]:2 = xloop.launch @three_in_two_out(%[[P]], %[[Q]], %[[N]]) : (tensor<2x3xf16>, tensor<3xf16>, tensor<2x3xi32>) -> (tensor<2x3xf16>, tensor<2x3xi32>)
// CHECK-NEXT:    return %[[R]]#0, %[[R]]#1 : tensor<2x3xf16>, tensor<2x3xi32>
// CHECK-NEXT:  }
func.func @launch_two_results(%p: tensor<2x3xf16>, %q: tensor<3xf16>, %n: tensor<2x3xi32>)
    -> (tensor<2x3xf16>, tensor<2x3xi32>) {
  %r:2 = xloop.launch @three_in_two_out(%p, %q, %n)
      : (tensor<2x3xf16>, tensor<3xf16>, tensor<2x3xi32>) -> (tensor<2x3xf16>, tensor<2x3xi32>)
  return %r#0, %r#1 : tensor<2x3xf16>, tensor<2x3xi32>
}

// The same kernel launched twice, the second launch on the first's result;
// a kernel without inputs; rank-0 tensors.
// CHECK-LABEL: func.func @launch_twice(
// CHECK-SAME:      %[[X:[a-zA-Z0-9_]+]]: tensor<4x8xf32>, %[[S:[a-zA-Z0-9_]+]]: tensor<f32>) -> (tensor<4x8xf32>, tensor<f32>, tensor<6xi32>, tensor<i1>) {
// CHECK-NEXT:    %[[Y0:[a-zA-Z0-9_]+]] = xloop.launch @one_in_one_out(%[[X]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %[[Y1:[a-zA-Z0-9_]+]] = xloop.launch @one_in_one_out(%[[Y0]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %[[T:[a-zA-Z0-9_]+]] = xloop.launch @rank0(%[[S]]) : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %[[Z:[a-zA-Z0-9_]+]]:2 = xloop.launch @no_inputs() : () -> (tensor<6xi32>, tensor<i1>)
// CHECK-NEXT:    return %[[Y1]], %[[T]], %[[Z]]#0, %[[Z]]#1 : tensor<4x8xf32>, tensor<f32>, tensor<6xi32>, tensor<i1>
// CHECK-NEXT:  }
func.func @launch_twice(%x: tensor<4x8xf32>, %s: tensor<f32>)
    -> (tensor<4x8xf32>, tensor<f32>, tensor<6xi32>, tensor<i1>) {
  %y0 = xloop.launch @one_in_one_out(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %y1 = xloop.launch @one_in_one_out(%y0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = xloop.launch @rank0(%s) : (tensor<f32>) -> tensor<f32>
  %z:2 = xloop.launch @no_inputs() : () -> (tensor<6xi32>, tensor<i1>)
  return %y1, %t, %z#0, %z#1 : tensor<4x8xf32>, tensor<f32>, tensor<6xi32>, tensor<i1>
}

// An online fold: with weights, and without.
// CHECK-LABEL: xloop.kernel @online
// CHECK:         %{{.*}}, %{{.*}}, %{{.*}} = xloop.online_fold %{{.*}} = 0 to 7 : f32 weights 1 {
// CHECK:           xloop.yield %{{.*}}, %{{.*}} : f32, f32
// CHECK:         %{{.*}}, %{{.*}} = xloop.online_fold %{{.*}} = 0 to 7 : f32 {
// CHECK:           xloop.yield %{{.*}} : f32
xloop.kernel @online(%s: memref<5x7xf32>, %v: memref<7x8xf32>) -> (%o: memref<5x8xf32>, %l: memref<5xf32>) {
  xloop.parallel %i = 0 to 5 {
    xloop.parallel %d = 0 to 8 {
      %m, %sum, %acc = xloop.online_fold %j = 0 to 7 : f32 weights 1 {
        %x = xloop.load %s[%i, %j] : memref<5x7xf32>
        %w = xloop.load %v[%j, %d] : memref<7x8xf32>
        xloop.yield %x, %w : f32, f32
      }
      %r = arith.divf %acc, %sum : f32
      xloop.store %r, %o[%i, %d] : memref<5x8xf32>
    }
    %m2, %sum2 = xloop.online_fold %j = 0 to 7 : f32 {
      %x = xloop.load %s[%i, %j] : memref<5x7xf32>
      xloop.yield %x : f32
    }
    %lse = math.log %sum2 : f32
    %r2 = arith.addf %m2, %lse : f32
    xloop.store %r2, %l[%i] : memref<5xf32>
  }
}
