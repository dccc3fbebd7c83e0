xkernel.func @math(%x: !xkernel.ptr<f32, global>) attributes {max_threads = 32 : i64} {
  %i = xkernel.thread_id x
  %v = xkernel.load %x[%i] : !xkernel.ptr<f32, global> -> f32
  %a = math.exp %v : f32
  %b = math.log %a : f32
  %c = math.tanh %b : f32
  %d = math.erf %c : f32
  %e = math.rsqrt %d : f32
  xkernel.store %e, %x[%i] : f32, !xkernel.ptr<f32, global>
  xkernel.return
}
