// xtile-run's options: outputs written as .npy and read back as inputs,
// the reference alone, --entry, and its errors.
// RUN: rm -rf %t && mkdir -p %t
// RUN: xtile-run --backend=ref --entry=softmax --seed=3 --outputs %t/y.npy %s | FileCheck %s --check-prefix=REF
// RUN: xtile-run --backend=emu --entry=softmax --seed=3 %s | FileCheck %s --check-prefix=EMU
// RUN: xtile-run --backend=emu --entry=double --inputs %t/y.npy --outputs %t/z.npy %s | FileCheck %s --check-prefix=INPUTS
// RUN: not xtile-run --backend=tpu %s 2>&1 | FileCheck %s --check-prefix=BACKEND
// RUN: not xtile-run --backend=emu --entry=small --inputs %t/y.npy %s 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not xtile-run --backend=emu --inputs %t/y.npy %s 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: not xtile-run --backend=emu --entry=missing %s 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not xtile-run --sanitize --backend=ref %s 2>&1 | FileCheck %s --check-prefix=SANITIZE-BACKEND
// RUN: env CXX=no-such-compiler not xtile-run --sanitize %s 2>&1 | FileCheck %s --check-prefix=SANITIZE-CXX

// REF: @softmax output #0 tensor<16x100xf32>
// REF-NOT: error
// EMU: @softmax output #0 tensor<16x100xf32>: normwise relative error {{.*}}: ok
// INPUTS: @double output #0 tensor<16x100xf32>: normwise relative error {{.*}}: ok
// BACKEND: xtile-run: unknown backend 'tpu' (emu, emu-ptx, cuda or ref)
// SHAPE: y.npy: shape does not match the argument tensor<4xf32>
// ONE: xtile-run: --inputs needs one function (--entry)
// MISSING: xtile-run: no function named 'missing' to run
// SANITIZE-BACKEND: xtile-run: --sanitize needs --backend=emu
// SANITIZE-CXX: xtile-run: no host C++ compiler 'no-such-compiler' for the emulation backend (set CXX)

func.func @softmax(%x: tensor<16x100xf32>) -> tensor<16x100xf32> {
  %y = xtensor.softmax %x dim 1 : tensor<16x100xf32>
  return %y : tensor<16x100xf32>
}
func.func @double(%x: tensor<16x100xf32>) -> tensor<16x100xf32> {
  %y = xtensor.add %x, %x : tensor<16x100xf32>
  return %y : tensor<16x100xf32>
}
func.func @small(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = xtensor.neg %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
