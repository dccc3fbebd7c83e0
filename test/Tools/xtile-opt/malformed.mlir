// Malformed input is a located error and exit code 1 (`not` fails on a
// crash, so these also prove that nothing aborts).
//
// RUN: not xtile-opt %S/Inputs/bad-syntax.mlir 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not xtile-opt %S/Inputs/unknown-op.mlir 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not xtile-opt %S/Inputs/bad-shapes.mlir 2>&1 | FileCheck %s --check-prefix=SHAPES
// RUN: not xtile-opt %S/Inputs/bad-shapes.mlir --xtensor-decompose --xtensor-normalize 2>&1 | FileCheck %s --check-prefix=SHAPES
// RUN: not xtile-opt %S/Inputs/does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// Exactly 1, as documented.
// RUN: xtile-opt %S/Inputs/unknown-op.mlir > /dev/null 2>&1 || test $? -eq 1

// SYNTAX: bad-syntax.mlir:4:22: error: expected ':'
// UNKNOWN: unknown-op.mlir:3:8: error: custom op 'xtensor.frobnicate' is unknown
// SHAPES: bad-shapes.mlir:4:8: error: 'xtensor.add' op operand 'rhs' ('tensor<4x4xf32>') and operand 'lhs' ('tensor<4x8xf32>') must have the same shape
// MISSING: cannot open input file '{{.*}}does-not-exist.mlir': No such file or directory
