// Hand-written Loop IR: what Tensor IR never produces is either lowered
// faithfully or rejected with an error.
//
// RUN: xtile-opt %s --split-input-file --convert-xloop-to-xtile -verify-diagnostics | FileCheck %s

// A contraction's initial value starts every sum.
// CHECK-LABEL: xtile.kernel @init(
// CHECK:         %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:         %[[ACC:.*]] = xtile.splat %[[ONE]] : f32 -> tensor<{{[0-9]+}}x{{[0-9]+}}xf32>
// CHECK:         scf.for {{.*}} iter_args(%{{.*}} = %[[ACC]])
xloop.kernel @init(%a: memref<64x32xf32>, %b: memref<32x64xf32>) -> (%c: memref<64x64xf32>) {
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
xloop.kernel @symbols(%x: memref<8x32xf32>) -> (%y: memref<8x16xf32>) {
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
