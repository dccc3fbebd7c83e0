// RUN: not xtile-translate --mlir-to-ptx --ptx-chip=sm_75 %S/Inputs/kernel-ops.mlir 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: xtile-translate --mlir-to-ptx --split-input-file -verify-diagnostics %s

// CHIP: error: no PTX for chip 'sm_75': expected sm_80, sm_86, sm_89, sm_90 or sm_90a

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
