// Kernel IR that uses every device op, for the PTX tests.
xkernel.func @stage(%x: !xkernel.ptr<f32, global> {xkernel.readonly},
                    %y: !xkernel.ptr<f32, global>,
                    %n: !xkernel.ptr<i32, global>,
                    %h: !xkernel.ptr<f16, global>, %valid: i32)
    attributes {max_threads = 128 : i64, dynamic_shared = 4096 : i64} {
  %t = xkernel.thread_id x
  %b = xkernel.block_id x
  %nt = xkernel.block_dim x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %base = arith.muli %b, %nt : index
  %g = arith.addi %base, %t : index
  %i = arith.muli %g, %c4 : index
  %j = arith.muli %t, %c4 : index
  %s = xkernel.dynamic_shared 0 : !xkernel.ptr<f32, shared>
  %s2 = xkernel.dynamic_shared 2048 : !xkernel.ptr<f32, shared>
  xkernel.async_copy %x[%i] to %s[%j], 16 : !xkernel.ptr<f32, global> to !xkernel.ptr<f32, shared>
  xkernel.async_copy %x[%i] to %s2[%j], 8 valid %valid : !xkernel.ptr<f32, global> to !xkernel.ptr<f32, shared>
  xkernel.async_commit
  xkernel.async_wait 0
  xkernel.barrier
  %v = xkernel.load %s[%j] : !xkernel.ptr<f32, shared> -> vector<4xf32>
  %e0 = vector.extract %v[0] : f32 from vector<4xf32>
  %e1 = vector.extract %v[3] : f32 from vector<4xf32>
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
    %kk = arith.addi %j, %k : index
    %w = xkernel.load %s2[%kk] : !xkernel.ptr<f32, shared> -> f32
    %a = math.fma %w, %e0, %acc : f32
    scf.yield %a : f32
  } {xkernel.unroll}
  %o16 = arith.constant 16 : i32
  %o1 = arith.constant 1 : i32
  %x1 = xkernel.shuffle xor %sum, %o16 width 32 : f32
  %x2 = xkernel.shuffle down %x1, %o1 width 16 : f32
  %lane = xkernel.load %n[%g] : !xkernel.ptr<i32, global> -> i32
  %x3 = xkernel.shuffle idx %lane, %o1 width 8 : i32
  %r = arith.addf %x2, %e1 : f32
  %ex = math.exp %r : f32
  %th = math.tanh %ex : f32
  %old = xkernel.atomic add %th, %y[%c0] : f32, !xkernel.ptr<f32, global>
  %mx = xkernel.atomic max %x3, %n[%c0] : i32, !xkernel.ptr<i32, global>
  %hv = xkernel.load %h[%g] : !xkernel.ptr<f16, global> -> f16
  %he = math.exp %hv : f16
  xkernel.store %he, %h[%g] : f16, !xkernel.ptr<f16, global>
  %out = vector.from_elements %old, %th, %ex, %r : vector<4xf32>
  xkernel.store %out, %y[%i] : vector<4xf32>, !xkernel.ptr<f32, global>
  xkernel.return
}
