// RUN: xtile-opt --xloop-online-fold %s | FileCheck %s
// RUN: xtile-opt --xloop-online-fold --xloop-fuse %s | FileCheck %s --check-prefix=CLEAN

// Softmax's row: the sum of exponentials shifted by the maximum becomes an
// online fold, and the elementwise loop uses its max.
// CHECK-LABEL: xloop.kernel @softmax_row
// CHECK: %[[M:.*]], %[[L:.*]] = xloop.online_fold %{{.*}} = 0 to 17 : f32 {
// CHECK: xloop.parallel
// CHECK: arith.subf %{{.*}}, %[[M]]
// CHECK: arith.divf %{{.*}}, %[[L]]
// CLEAN-LABEL: xloop.kernel @softmax_row
// CLEAN-NOT: combine max
// CLEAN: xloop.online_fold
xloop.kernel @softmax_row(%x: memref<5x17xf32>) -> (%y: memref<5x17xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  xloop.parallel %i = 0 to 5 {
    %m = xloop.fold %j = 0 to 17 combine max init(%ninf) : f32 {
      %v = xloop.load %x[%i, %j] : memref<5x17xf32>
      xloop.yield %v : f32
    }
    %l = xloop.fold %j = 0 to 17 combine add init(%zero) : f32 {
      %v = xloop.load %x[%i, %j] : memref<5x17xf32>
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      xloop.yield %e : f32
    }
    xloop.parallel %j = 0 to 17 {
      %v = xloop.load %x[%i, %j] : memref<5x17xf32>
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      %p = arith.divf %e, %l : f32
      xloop.store %p, %y[%i, %j] : memref<5x17xf32>
    }
  }
}

// Attention's weighted sum: the factor 1/L leaves the sum, the weight is v,
// and the division uses the online fold's own sum.
// CHECK-LABEL: xloop.kernel @weighted
// CHECK: xloop.parallel %[[D:.*]] = 0 to 8 {
// CHECK: %{{.*}}, %[[S:.*]], %[[A:.*]] = xloop.online_fold %[[J:.*]] = 0 to 7 : f32 weights 1 {
// CHECK: %[[W:.*]] = xloop.load %{{.*}}[%{{.*}}, %[[J]], %[[D]]]
// CHECK: xloop.yield %{{.*}}, %[[W]] : f32, f32
// CHECK: arith.divf %[[A]], %[[S]] : f32
// CLEAN-LABEL: xloop.kernel @weighted
// CLEAN-NOT: combine
// CLEAN: xloop.online_fold %{{.*}} = 0 to 7 : f32 weights 1
// CLEAN-NOT: combine
// CLEAN-LABEL: xloop.kernel @other_scores
xloop.kernel @weighted(%s: memref<2x5x7xf32>, %v: memref<2x7x8xf32>) -> (%o: memref<2x5x8xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.35 : f32
  xloop.parallel %b = 0 to 2 {
    xloop.parallel %i = 0 to 5 {
      %m = xloop.fold %j = 0 to 7 combine max init(%ninf) : f32 {
        %x = xloop.load %s[%b, %i, %j] : memref<2x5x7xf32>
        %xs = arith.mulf %x, %c : f32
        xloop.yield %xs : f32
      }
      %l = xloop.fold %j = 0 to 7 combine add init(%zero) : f32 {
        %x = xloop.load %s[%b, %i, %j] : memref<2x5x7xf32>
        %xs = arith.mulf %x, %c : f32
        %d = arith.subf %xs, %m : f32
        %e = math.exp %d : f32
        xloop.yield %e : f32
      }
      xloop.parallel %d = 0 to 8 {
        %r = xloop.fold %j = 0 to 7 combine add init(%zero) : f32 {
          %x = xloop.load %s[%b, %i, %j] : memref<2x5x7xf32>
          %xs = arith.mulf %x, %c : f32
          %dd = arith.subf %xs, %m : f32
          %e = math.exp %dd : f32
          %p = arith.divf %e, %l : f32
          %w = xloop.load %v[%b, %j, %d] : memref<2x7x8xf32>
          %t = arith.mulf %p, %w : f32
          xloop.yield %t : f32
        }
        xloop.store %r, %o[%b, %i, %d] : memref<2x5x8xf32>
      }
    }
  }
}

// Not the same scores: the maximum is of x, the exponentials of 2x. The
// sum stays a sum.
// CHECK-LABEL: xloop.kernel @other_scores
// CHECK-NOT: online_fold
// CHECK: combine max
// CHECK: combine add
xloop.kernel @other_scores(%x: memref<5x17xf32>) -> (%y: memref<5xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  xloop.parallel %i = 0 to 5 {
    %m = xloop.fold %j = 0 to 17 combine max init(%ninf) : f32 {
      %v = xloop.load %x[%i, %j] : memref<5x17xf32>
      xloop.yield %v : f32
    }
    %l = xloop.fold %j = 0 to 17 combine add init(%zero) : f32 {
      %v = xloop.load %x[%i, %j] : memref<5x17xf32>
      %v2 = arith.addf %v, %v : f32
      %d = arith.subf %v2, %m : f32
      %e = math.exp %d : f32
      xloop.yield %e : f32
    }
    xloop.store %l, %y[%i] : memref<5xf32>
  }
}

// A maximum over a different range is not the scores' maximum.
// CHECK-LABEL: xloop.kernel @other_range
// CHECK-NOT: online_fold
xloop.kernel @other_range(%x: memref<5x17xf32>) -> (%y: memref<5xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  xloop.parallel %i = 0 to 5 {
    %m = xloop.fold %j = 0 to 16 combine max init(%ninf) : f32 {
      %v = xloop.load %x[%i, %j] : memref<5x17xf32>
      xloop.yield %v : f32
    }
    %l = xloop.fold %j = 0 to 17 combine add init(%zero) : f32 {
      %v = xloop.load %x[%i, %j] : memref<5x17xf32>
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      xloop.yield %e : f32
    }
    xloop.store %l, %y[%i] : memref<5xf32>
  }
}

// bf16 probabilities times a weight dequantized from fp8 and rounded to bf16
// (an fp8 KV cache's V): the probabilities' round trip through bf16 is
// looked through (the online fold keeps them in f32), the weight's is not
// (its rounding is the value eager multiplies).
// CHECK-LABEL: xloop.kernel @rounded_weight
// CHECK: xloop.online_fold %[[J:.*]] = 0 to 7 : f32 weights 1 {
// CHECK: %[[V8:.*]] = xloop.load %{{.*}}[%{{.*}}, %[[J]], %{{.*}}] : memref<2x7x8xf8E4M3FN>
// CHECK: %[[VF:.*]] = arith.extf %[[V8]]
// CHECK: %[[VS:.*]] = arith.mulf %[[VF]], %{{.*}} : f32
// CHECK: %[[VR:.*]] = arith.truncf %[[VS]] : f32 to bf16
// CHECK: %[[W:.*]] = arith.extf %[[VR]] : bf16 to f32
// CHECK: xloop.yield %{{.*}}, %[[W]] : f32, f32
xloop.kernel @rounded_weight(%s: memref<2x5x7xf32>, %v: memref<2x7x8xf8E4M3FN>, %vscale: memref<2x7xf32>) -> (%o: memref<2x5x8xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  xloop.parallel %b = 0 to 2 {
    xloop.parallel %i = 0 to 5 {
      %m = xloop.fold %j = 0 to 7 combine max init(%ninf) : f32 {
        %x = xloop.load %s[%b, %i, %j] : memref<2x5x7xf32>
        xloop.yield %x : f32
      }
      %l = xloop.fold %j = 0 to 7 combine add init(%zero) : f32 {
        %x = xloop.load %s[%b, %i, %j] : memref<2x5x7xf32>
        %d = arith.subf %x, %m : f32
        %e = math.exp %d : f32
        xloop.yield %e : f32
      }
      xloop.parallel %d = 0 to 8 {
        %r = xloop.fold %j = 0 to 7 combine add init(%zero) : f32 {
          %x = xloop.load %s[%b, %i, %j] : memref<2x5x7xf32>
          %dd = arith.subf %x, %m : f32
          %e = math.exp %dd : f32
          %p = arith.divf %e, %l : f32
          %pr = arith.truncf %p : f32 to bf16
          %pw = arith.extf %pr : bf16 to f32
          %w8 = xloop.load %v[%b, %j, %d] : memref<2x7x8xf8E4M3FN>
          %wf = arith.extf %w8 : f8E4M3FN to f32
          %ws = xloop.load %vscale[%b, %j] : memref<2x7xf32>
          %wm = arith.mulf %wf, %ws : f32
          %wr = arith.truncf %wm : f32 to bf16
          %ww = arith.extf %wr : bf16 to f32
          %t = arith.mulf %pw, %ww : f32
          xloop.yield %t : f32
        }
        xloop.store %r, %o[%b, %i, %d] : memref<2x5x8xf32>
      }
    }
  }
}
