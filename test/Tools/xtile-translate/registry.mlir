// xtile-translate lists its translations, asks for one when none is given
// (an error, not a crash), and runs upstream's LLVM IR export that the PTX
// path builds on.
// RUN: xtile-translate --help | FileCheck %s --check-prefix=HELP
// RUN: not xtile-translate %s 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: xtile-translate --mlir-to-llvmir %s | FileCheck %s --check-prefix=LLVM

// HELP: xtile translation driver
// HELP: --mlir-to-cuda
// HELP: --mlir-to-launch-plan
// HELP: --mlir-to-llvmir
// HELP: --mlir-to-ptx
// NONE: must be specified
// LLVM: define i32 @answer()
// LLVM-NEXT: ret i32 42
llvm.func @answer() -> i32 {
  %c = llvm.mlir.constant(42 : i32) : i32
  llvm.return %c : i32
}
