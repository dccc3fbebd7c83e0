// Hand-written Loop IR, its schedules given: what Tensor IR never produces
// is either lowered faithfully or rejected with an error, and so is a
// schedule that does not suit its kernel.
//
// RUN: xtile-opt %s --split-input-file --convert-xloop-to-xtile -verify-diagnostics | FileCheck %s

// A contraction's initial value starts every sum.
// CHECK-LABEL: xtile.kernel @init(
// CHECK:         %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:         %[[ACC:.*]] = xtile.splat %[[ONE]] : f32 -> tensor<{{[0-9]+}}x{{[0-9]+}}xf32>
// CHECK:         scf.for {{.*}} iter_args(%{{.*}} = %[[ACC]])
xloop.kernel @init(%a: memref<64x32xf32>, %b: memref<32x64xf32>) -> (%c: memref<64x64xf32>)
    attributes {xtile.schedule = #xtile.dot_schedule<block_m = 32, block_n = 32, block_k = 32, stages = 1, warps = 4>} {
  %one = arith.constant 1.0 : f32
  xloop.parallel %i = 0 to 64 {
    xloop.parallel %j = 0 to 64 {
      %s = xloop.fold %k = 0 to 32 combine add init(%one) : f32 {
        %x = xloop.load %a[%i, %k] : memref<64x32xf32>
        %y = xloop.load %b[%k, %j] : memref<32x64xf32>
        %p = arith.mulf %x, %y : f32
        xloop.yield %p : f32
      }
      xloop.store %s, %c[%i, %j] : memref<64x64xf32>
    }
  }
}

// -----

// Affine maps with symbols.
// CHECK-LABEL: xtile.kernel @symbols(
// CHECK:         arith.addi %{{.*}}, %{{.*}} : tensor<16xindex>
xloop.kernel @symbols(%x: memref<8x32xf32>) -> (%y: memref<8x16xf32>)
    attributes {xtile.schedule = #xtile.row_schedule<warp, warps = 1, vector = 1>} {
  xloop.parallel %i = 0 to 8 {
    xloop.parallel %j = 0 to 16 {
      %c = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%j)[%i]
      %v = xloop.load %x[%i, %c] : memref<8x32xf32>
      xloop.store %v, %y[%i, %j] : memref<8x16xf32>
    }
  }
}

// -----

xloop.kernel @lower_bound(%x: memref<8x16xf32>) -> (%y: memref<8x16xf32>) {
  xloop.parallel %i = 0 to 8 {
    // expected-error @+1 {{with a non-zero lower bound or no iterations is not lowered to Tile IR}}
    xloop.parallel %j = 4 to 16 {
      %v = xloop.load %x[%i, %j] : memref<8x16xf32>
      xloop.store %v, %y[%i, %j] : memref<8x16xf32>
    }
  }
}

// -----

xloop.kernel @outer_store(%a: memref<64x32xf32>, %b: memref<32x64xf32>) -> (%c: memref<64x64xf32>, %d: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  xloop.parallel %i = 0 to 64 {
    %v = xloop.load %a[%i, %i] : memref<64x32xf32>
    // expected-error @+1 {{outside the innermost row body is not lowered to Tile IR}}
    xloop.store %v, %d[%i] : memref<64xf32>
    xloop.parallel %j = 0 to 64 {
      %s = xloop.fold %k = 0 to 32 combine add init(%zero) : f32 {
        %x = xloop.load %a[%i, %k] : memref<64x32xf32>
        %y = xloop.load %b[%k, %j] : memref<32x64xf32>
        %p = arith.mulf %x, %y : f32
        xloop.yield %p : f32
      }
      xloop.store %s, %c[%i, %j] : memref<64x64xf32>
    }
  }
}

// -----

// expected-error @+1 {{'xloop.kernel' op has no schedule (xtile.schedule): run --xtile-select-schedule or --xtile-apply-schedule-spec first}}
xloop.kernel @unscheduled(%x: memref<8x16xf32>) -> (%y: memref<8x16xf32>) {
  xloop.parallel %i = 0 to 8 {
    xloop.parallel %j = 0 to 16 {
      %v = xloop.load %x[%i, %j] : memref<8x16xf32>
      xloop.store %v, %y[%i, %j] : memref<8x16xf32>
    }
  }
}

// -----

// A column schedule needs a column reduction: a row reduction (its fold
// walks the last dimension, the row another) cannot take it.
// expected-error @+1 {{'xloop.kernel' op cannot use the schedule #xtile.column_schedule<warps = 1, vector = 1, block = 32, chunk = 1>: a column schedule needs a kernel of folds only whose innermost row (of a static length) is the last index of every access that depends on it, and no other index}}
xloop.kernel @column_on_rows(%x: memref<4x8xf32>) -> (%y: memref<4xf32>)
    attributes {xtile.schedule = #xtile.column_schedule<warps = 1, vector = 1, block = 32, chunk = 1>} {
  %zero = arith.constant 0.0 : f32
  xloop.parallel %i = 0 to 4 {
    %s = xloop.fold %j = 0 to 8 combine add init(%zero) : f32 {
      %v = xloop.load %x[%i, %j] : memref<4x8xf32>
      xloop.yield %v : f32
    }
    xloop.store %s, %y[%i] : memref<4xf32>
  }
}

// -----

// A split column schedule needs folds that do not use each other's
// results: the second sum here subtracts the first.
// expected-error @+1 {{'xloop.kernel' op cannot use the schedule #xtile.column_schedule<warps = 1, vector = 1, block = 32, chunk = 1, ways = 4>: ways > 1 needs folds that do not use each other's results, over rows of static lengths}}
xloop.kernel @dependent_split(%x: memref<77x3xf32>) -> (%y: memref<3xf32>)
    attributes {xtile.schedule = #xtile.column_schedule<warps = 1, vector = 1, block = 32, chunk = 1, ways = 4>} {
  %zero = arith.constant 0.0 : f32
  xloop.parallel %i = 0 to 3 {
    %s = xloop.fold %t = 0 to 77 combine add init(%zero) : f32 {
      %v = xloop.load %x[%t, %i] : memref<77x3xf32>
      xloop.yield %v : f32
    }
    %d = xloop.fold %t = 0 to 77 combine add init(%zero) : f32 {
      %v = xloop.load %x[%t, %i] : memref<77x3xf32>
      %c = arith.subf %v, %s : f32
      xloop.yield %c : f32
    }
    xloop.store %d, %y[%i] : memref<3xf32>
  }
}

// -----

// expected-error @+1 {{'xloop.kernel' op is a row kernel; it needs a #xtile.row_schedule or #xtile.column_schedule, got #xtile.dot_schedule<block_m = 32, block_n = 32, block_k = 32, stages = 1, warps = 4>}}
xloop.kernel @wrong_kind(%x: memref<8x16xf32>) -> (%y: memref<8x16xf32>)
    attributes {xtile.schedule = #xtile.dot_schedule<block_m = 32, block_n = 32, block_k = 32, stages = 1, warps = 4>} {
  xloop.parallel %i = 0 to 8 {
    xloop.parallel %j = 0 to 16 {
      %v = xloop.load %x[%i, %j] : memref<8x16xf32>
      xloop.store %v, %y[%i, %j] : memref<8x16xf32>
    }
  }
}

// -----

// The operand tiles of two dots over 4 stages: 4 x 2 x (128 x 64 + 64 x 128)
// x 4 bytes of shared memory, more than sm_90's 232448.
// expected-error @+1 {{'xloop.kernel' op schedule #xtile.dot_schedule<block_m = 128, block_n = 128, block_k = 64, stages = 4, warps = 8> does not fit the target: 524288 bytes of shared memory exceed the 232448 per block of sm_90}}
xloop.kernel @too_much_shared_memory(%a: memref<256x256xf32>, %b: memref<256x256xf32>, %w: memref<256x256xf32>) -> (%c: memref<256x256xf32>)
    attributes {xtile.schedule = #xtile.dot_schedule<block_m = 128, block_n = 128, block_k = 64, stages = 4, warps = 8>} {
  %zero = arith.constant 0.0 : f32
  xloop.parallel %i = 0 to 256 {
    xloop.parallel %j = 0 to 256 {
      %s = xloop.fold %k = 0 to 256 combine add init(%zero) : f32 {
        %x = xloop.load %a[%i, %k] : memref<256x256xf32>
        %y = xloop.load %b[%k, %j] : memref<256x256xf32>
        %p = arith.mulf %x, %y : f32
        xloop.yield %p : f32
      }
      %t = xloop.fold %k = 0 to 256 combine add init(%zero) : f32 {
        %x = xloop.load %a[%i, %k] : memref<256x256xf32>
        %y = xloop.load %w[%k, %j] : memref<256x256xf32>
        %p = arith.mulf %x, %y : f32
        xloop.yield %p : f32
      }
      %r = arith.addf %s, %t : f32
      xloop.store %r, %c[%i, %j] : memref<256x256xf32>
    }
  }
}

// -----

// A split needs folds that do not use each other's results.
// expected-error @+1 {{'xloop.kernel' op cannot use the schedule #xtile.row_schedule<split, warps = 8, vector = 1, ways = 4>: split needs folds that do not use each other's results and at most one elementwise loop}}
xloop.kernel @dependent_folds(%x: memref<2x8192xf32>) -> (%y: memref<2xf32>)
    attributes {xtile.schedule = #xtile.row_schedule<split, warps = 8, vector = 1, ways = 4>} {
  %zero = arith.constant 0.0 : f32
  xloop.parallel %i = 0 to 2 {
    %m = xloop.fold %k = 0 to 8192 combine add init(%zero) : f32 {
      %v = xloop.load %x[%i, %k] : memref<2x8192xf32>
      xloop.yield %v : f32
    }
    %s = xloop.fold %k = 0 to 8192 combine add init(%zero) : f32 {
      %v = xloop.load %x[%i, %k] : memref<2x8192xf32>
      %d = arith.subf %v, %m : f32
      xloop.yield %d : f32
    }
    xloop.store %s, %y[%i] : memref<2xf32>
  }
}
