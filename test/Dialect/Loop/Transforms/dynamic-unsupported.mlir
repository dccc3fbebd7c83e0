// Kernel IR does not take dynamic sizes yet: a module over them is lowered
// to Tile IR, then stops with an error that names the pass and says how to
// bind the sizes, never a wrong kernel.
// RUN: not xtile-opt %S/../../../Integration/Inputs/dynamic-rows.mlir --lower-to-kernel 2>&1 | FileCheck %s

// CHECK: dynamic-rows.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'xtile.kernel' op takes dynamic sizes, which --convert-xtile-to-xkernel does not take yet: bind them first (--xtensor-specialize-dims="sizes=T=N", xtile-run --dims T=N)
