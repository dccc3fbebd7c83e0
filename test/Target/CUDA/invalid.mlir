// RUN: xtile-translate --mlir-to-cuda %s -split-input-file -verify-diagnostics

// expected-error @+1 {{cannot emit 'func.func' as CUDA C: expected Kernel IR (xkernel.func, xkernel.program); run --lower-to-kernel first}}
func.func @f() {
  return
}

// -----

xkernel.func @k(%x: !xkernel.ptr<f32, global>) attributes {max_threads = 32 : i64} {
  // expected-error @+1 {{cannot emit type 'i7' as CUDA C}}
  %v = arith.constant 3 : i7
  %w = arith.addi %v, %v : i7
  xkernel.return
}

// -----

xkernel.func @k(%x: !xkernel.ptr<f32, global>, %v: f32) attributes {max_threads = 32 : i64} {
  %i = arith.constant 0 : index
  // expected-error @+1 {{cannot emit an atomic max on 'f32' as CUDA C}}
  %o = xkernel.atomic max %v, %x[%i] : f32, !xkernel.ptr<f32, global>
  xkernel.return
}

// -----

xkernel.func @k(%f: f32, %i: index) attributes {max_threads = 32 : i64} {
  %v = vector.broadcast %f : f32 to vector<4xf32>
  // expected-error @+1 {{cannot emit a vector.extract other than of one static lane as CUDA C}}
  %e = vector.extract %v[%i] : f32 from vector<4xf32>
  xkernel.return
}

// -----

// expected-error @+1 {{cannot emit 'k.1' as a CUDA C name: not an identifier}}
xkernel.func @"k.1"(%x: !xkernel.ptr<f32, global>) attributes {max_threads = 32 : i64} {
  xkernel.return
}
