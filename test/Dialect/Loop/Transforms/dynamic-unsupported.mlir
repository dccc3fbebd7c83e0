// The passes that choose schedules and lower Loop IR to Tile IR take
// static kernels only, for now: a kernel over dynamic sizes is an error
// that names the pass and says how to bind the sizes, never a wrong kernel.
// RUN: not xtile-opt %s --xtile-select-schedule 2>&1 | FileCheck %s --check-prefix=SELECT
// RUN: not xtile-opt %s --convert-xloop-to-xtile 2>&1 | FileCheck %s --check-prefix=TILE
// RUN: not xtile-opt %S/../../../Integration/Inputs/dynamic-rows.mlir --lower-to-kernel 2>&1 | FileCheck %s --check-prefix=PIPELINE

// SELECT: dynamic-unsupported.mlir:[[@LINE+3]]:1: error: kernel @row takes dynamic sizes, which --xtile-select-schedule does not take yet: bind them first (--xtensor-specialize-dims="sizes=T=N", xtile-run --dims T=N)
// TILE: error: kernel @row takes dynamic sizes, which --convert-xloop-to-xtile does not take yet
// PIPELINE: dynamic-rows.mlir:{{[0-9]+}}:{{[0-9]+}}: error: kernel @rms_norm_{{.*}} takes dynamic sizes, which --xtile-select-schedule does not take yet
xloop.kernel @row[%T = 1 to 8](%x: memref<?xf32> [%T]) -> (%y: memref<?xf32> [%T]) {
  xloop.parallel %i = 0 to %T {
    %v = xloop.load %x[%i] : memref<?xf32>
    xloop.store %v, %y[%i] : memref<?xf32>
  }
}
