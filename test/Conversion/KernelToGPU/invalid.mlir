// RUN: xtile-opt %s --split-input-file --convert-xkernel-to-nvvm -verify-diagnostics
// RUN: not xtile-opt %s --split-input-file --convert-xkernel-to-nvvm="chip=gfx90a" 2>&1 | FileCheck %s --check-prefix=CHIP

// CHIP: error: chip 'gfx90a' is not an NVIDIA GPU (sm_XX)

// Math functions are approximated in f32, f16 and bf16; in f64 they would
// need libdevice, which is never linked.
xkernel.func @wide(%x: !xkernel.ptr<f64, global>) attributes {max_threads = 32 : i64} {
  %i = xkernel.thread_id x
  %v = xkernel.load %x[%i] : !xkernel.ptr<f64, global> -> f64
  // expected-error @+1 {{'math.exp' op on 'f64' needs libdevice, which is not linked into the PTX: math functions are approximated for f32, f16 and bf16 only}}
  %e = math.exp %v : f64
  // expected-error @+1 {{'math.acosh' op on 'f64' needs libdevice}}
  %a = math.acosh %e : f64
  xkernel.store %a, %x[%i] : f64, !xkernel.ptr<f64, global>
  xkernel.return
}

// -----

// A function that only libdevice has in any type: its libdevice call is
// illegal, so it is an error at the op instead of an unresolved extern in
// the PTX.
xkernel.func @sincos(%x: !xkernel.ptr<f32, global>) attributes {max_threads = 32 : i64} {
  %i = xkernel.thread_id x
  %v = xkernel.load %x[%i] : !xkernel.ptr<f32, global> -> f32
  // expected-error @+1 {{failed to legalize operation 'math.sincos'}}
  %s, %c = math.sincos %v : f32
  xkernel.store %s, %x[%i] : f32, !xkernel.ptr<f32, global>
  xkernel.return
}

// -----

// Ops the conversion does not know are errors where they are.
xkernel.func @affine(%x: !xkernel.ptr<f32, global>) attributes {max_threads = 32 : i64} {
  %i = xkernel.thread_id x
  // expected-error @+1 {{failed to legalize operation 'affine.apply'}}
  %j = affine.apply affine_map<(d0) -> (d0 * 2)>(%i)
  %v = xkernel.load %x[%j] : !xkernel.ptr<f32, global> -> f32
  xkernel.store %v, %x[%i] : f32, !xkernel.ptr<f32, global>
  xkernel.return
}

// -----

// expected-error @+1 {{the kernels' gpu.module would be named 'xtile_kernels', which this symbol already is}}
func.func @xtile_kernels() {
  return
}
xkernel.func @k(%x: !xkernel.ptr<f32, global>) attributes {max_threads = 32 : i64} {
  xkernel.return
}
