// The Loop IR passes after --convert-xtensor-to-xloop take static kernels
// only, for now: a kernel over dynamic sizes is an error that names the
// pass and says how to bind the sizes, never a wrong kernel.
// RUN: not xtile-opt %s --xloop-fuse 2>&1 | FileCheck %s --check-prefix=FUSE
// RUN: not xtile-opt %s --xloop-compute-f32 2>&1 | FileCheck %s --check-prefix=F32
// RUN: not xtile-opt %s --convert-xloop-to-xtile 2>&1 | FileCheck %s --check-prefix=TILE
// RUN: not xtile-opt %S/../../../Integration/Inputs/dynamic-rows.mlir --lower-to-kernel 2>&1 | FileCheck %s --check-prefix=PIPELINE

// FUSE: dynamic-unsupported.mlir:[[@LINE+4]]:1: error: kernel @row takes dynamic sizes, which --xloop-fuse does not take yet: bind them first (--xtensor-specialize-dims="sizes=T=N", xtile-run --dims T=N)
// F32: error: kernel @row takes dynamic sizes, which --xloop-compute-f32 does not take yet
// TILE: error: kernel @row takes dynamic sizes, which --convert-xloop-to-xtile does not take yet
// PIPELINE: dynamic-rows.mlir:{{[0-9]+}}:{{[0-9]+}}: error: kernel @rms_norm_{{.*}} takes dynamic sizes, which --xloop-fuse does not take yet
xloop.kernel @row[%T = 1 to 8](%x: memref<?xf32> [%T]) -> (%y: memref<?xf32> [%T]) {
  xloop.parallel %i = 0 to %T {
    %v = xloop.load %x[%i] : memref<?xf32>
    xloop.store %v, %y[%i] : memref<?xf32>
  }
}
