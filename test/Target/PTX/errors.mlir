// RUN: not xtile-translate --mlir-to-ptx --ptx-chip=sm_75 %S/Inputs/kernel-ops.mlir 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: xtile-translate --mlir-to-ptx --split-input-file -verify-diagnostics %s

// CHIP: error: no PTX for chip 'sm_75': expected sm_80, sm_86, sm_89, sm_90 or sm_90a

// The chip defaults to the one the kernels were scheduled for; another one
// is an error.
// RUN: xtile-opt --lower-to-kernel=target=sm_80 %xtile_src_root/examples/rmsnorm.mlir -o %t.sm80.mlir
// RUN: xtile-translate --mlir-to-ptx %t.sm80.mlir | FileCheck %s --check-prefix=ARCH
// RUN: not xtile-translate --mlir-to-ptx --ptx-chip=sm_90 %t.sm80.mlir 2>&1 | FileCheck %s --check-prefix=MISMATCH
// ARCH: .target sm_80
// MISMATCH: error: the kernels were scheduled for sm_80 (their Tile IR target), not --ptx-chip=sm_90: lower them with target=sm_90

// expected-error @below {{no kernels to translate to PTX: the module has no xkernel.func and no gpu.module}}
module {
}

// -----

xkernel.func @wide(%x: !xkernel.ptr<f64, global>) attributes {max_threads = 32 : i64} {
  %i = xkernel.thread_id x
  %v = xkernel.load %x[%i] : !xkernel.ptr<f64, global> -> f64
  // expected-error @below {{'math.log' op on 'f64' needs libdevice}}
  %e = math.log %v : f64
  xkernel.store %e, %x[%i] : f64, !xkernel.ptr<f64, global>
  xkernel.return
}

// -----

// The GPU the kernels were scheduled for is where their PTX goes.
xkernel.func @a(%x: !xkernel.ptr<f32, global>) attributes {max_threads = 32 : i64, arch = "sm_80"} {
  xkernel.return
}
// expected-error @below {{kernels scheduled for different GPUs (sm_80 and sm_90) in one module}}
xkernel.func @b(%x: !xkernel.ptr<f32, global>) attributes {max_threads = 32 : i64, arch = "sm_90"} {
  xkernel.return
}
