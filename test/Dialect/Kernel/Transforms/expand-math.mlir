// RUN: xtile-opt %s --xkernel-expand-math | FileCheck %s
// RUN: xtile-opt %s --xkernel-expand-math=fast-math=true | FileCheck %s --check-prefix=FAST
// RUN: xtile-opt %s --xkernel-expand-math --cse | FileCheck %s --check-prefix=CSE

// exp: t = x log2(e) rounded, ex2 of it (with denormal results), and the
// rest of the product, r = x - t ln 2, applied as 2^t (1 + r); x clamped
// (NaN kept), an overflowing 2^t returned as it is.
// CHECK-LABEL: xkernel.func @exp(
// CHECK-NOT:     math.exp
// CHECK:         arith.maximumf
// CHECK:         %[[XC:.*]] = arith.minimumf
// CHECK:         %[[T:.*]] = arith.mulf %[[XC]], %{{.*}} : f32
// CHECK:         %[[P:.*]] = xkernel.approx ex2 %[[T]] : f32
// CHECK:         %[[R0:.*]] = math.fma %[[T]], %{{.*}}, %[[XC]] : f32
// CHECK:         %[[R:.*]] = math.fma %[[T]], %{{.*}}, %[[R0]] : f32
// CHECK:         %[[Y:.*]] = math.fma %[[P]], %[[R]], %[[P]] : f32
// CHECK:         %[[INF:.*]] = arith.cmpf oeq, %[[P]]
// CHECK:         arith.select %[[INF]], %[[P]], %[[Y]]
// FAST-LABEL:  xkernel.func @exp(
// FAST:          %[[T:.*]] = arith.mulf
// FAST-NEXT:     xkernel.approx ex2 %[[T]] ftz : f32
// FAST-NOT:      math.fma
xkernel.func @exp(%x: f32, %out: !xkernel.ptr<f32, global>) attributes {max_threads = 32 : i64} {
  %c0 = arith.constant 0 : index
  %y = math.exp %x : f32
  xkernel.store %y, %out[%c0] : f32, !xkernel.ptr<f32, global>
  xkernel.return
}

// bf16 goes through f32.
// CHECK-LABEL: xkernel.func @tanh_bf16(
// FAST-LABEL:  xkernel.func @tanh_bf16(
// CHECK:         arith.extf %{{.*}} : bf16 to f32
// CHECK:         xkernel.approx rcp
// CHECK:         arith.truncf %{{.*}} : f32 to bf16
// CHECK-NOT:     math.tanh
xkernel.func @tanh_bf16(%x: bf16, %out: !xkernel.ptr<bf16, global>) attributes {max_threads = 32 : i64} {
  %c0 = arith.constant 0 : index
  %y = math.tanh %x : bf16
  xkernel.store %y, %out[%c0] : bf16, !xkernel.ptr<bf16, global>
  xkernel.return
}

// log, log2, erf, rsqrt are built too; sqrt and division stay IEEE unless
// fast-math.
// CHECK-LABEL: xkernel.func @others(
// CHECK-NOT:     math.log
// CHECK-NOT:     math.erf
// CHECK:         xkernel.approx rsqrt
// CHECK:         math.sqrt
// CHECK:         arith.divf
// FAST-LABEL:  xkernel.func @others(
// FAST:          xkernel.approx lg2 %{{.*}} ftz
// FAST:          xkernel.approx lg2 %{{.*}} ftz
// FAST:          xkernel.approx rsqrt %{{.*}} ftz
// FAST:          xkernel.approx sqrt %{{.*}} ftz
// FAST:          xkernel.approx rcp %{{.*}} ftz
// FAST-NOT:      arith.divf
xkernel.func @others(%x: f32, %d: f32, %out: !xkernel.ptr<f32, global>) attributes {max_threads = 32 : i64} {
  %c0 = arith.constant 0 : index
  %a = math.log %x : f32
  %b = math.log2 %a : f32
  %c = math.erf %b : f32
  %e = math.rsqrt %c : f32
  %f = math.sqrt %e : f32
  %g = arith.divf %f, %d : f32
  xkernel.store %g, %out[%c0] : f32, !xkernel.ptr<f32, global>
  xkernel.return
}

// A kernel whose every output is 16-bit rounds each result once, to 8 or
// 11 bits: exp is the bare ex2 of x log2(e) (subnormal results kept), and
// a division by one value is a product with one full-range reciprocal
// (div.full of 1 by b; a divisor below 2^-64 scaled by 2^64), shared by
// every division by it.
// CHECK-LABEL: xkernel.func @softmax_tail_bf16(
// CHECK-NOT:     math.fma
// CHECK:         %[[T:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:    %[[E:.*]] = xkernel.approx ex2 %[[T]] : f32
// CHECK:         %[[TINY:.*]] = arith.cmpf olt
// CHECK:         %[[S:.*]] = arith.select %[[TINY]]
// CHECK:         %[[BS:.*]] = arith.mulf %{{.*}}, %[[S]] : f32
// CHECK:         %[[R:.*]] = xkernel.approx rcp %[[BS]] : f32
// CHECK:         %[[Q:.*]] = arith.mulf %[[E]], %[[R]] : f32
// CHECK:         arith.mulf %[[Q]], %[[S]] : f32
// CHECK-NOT:     arith.divf
// CHECK:         xkernel.return
// CSE-LABEL:   xkernel.func @softmax_tail_bf16(
// CSE-COUNT-1:   xkernel.approx rcp
// CSE-NOT:       xkernel.approx rcp
// CSE:           xkernel.return
xkernel.func @softmax_tail_bf16(%x: f32, %y: f32, %sum: f32, %in: !xkernel.ptr<bf16, global> {xkernel.readonly}, %out: !xkernel.ptr<bf16, global>) attributes {max_threads = 32 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = math.exp %x : f32
  %f = math.exp %y : f32
  %a = arith.divf %e, %sum : f32
  %b = arith.divf %f, %sum : f32
  %ta = arith.truncf %a : f32 to bf16
  %tb = arith.truncf %b : f32 to bf16
  xkernel.store %ta, %out[%c0] : bf16, !xkernel.ptr<bf16, global>
  xkernel.store %tb, %out[%c1] : bf16, !xkernel.ptr<bf16, global>
  xkernel.return
}

// One f32 output among 16-bit ones: everything to f32's accuracy.
// CHECK-LABEL: xkernel.func @mixed_outputs(
// CHECK:         math.fma
// CHECK:         arith.divf
// CHECK-NOT:     xkernel.approx rcp
// CHECK:         xkernel.return
xkernel.func @mixed_outputs(%x: f32, %sum: f32, %out: !xkernel.ptr<bf16, global>, %stats: !xkernel.ptr<f32, global>) attributes {max_threads = 32 : i64} {
  %c0 = arith.constant 0 : index
  %e = math.exp %x : f32
  %a = arith.divf %e, %sum : f32
  %ta = arith.truncf %a : f32 to bf16
  xkernel.store %ta, %out[%c0] : bf16, !xkernel.ptr<bf16, global>
  xkernel.store %e, %stats[%c0] : f32, !xkernel.ptr<f32, global>
  xkernel.return
}

// A rounding to fp8 inside a kernel of 16-bit outputs (a quantization,
// then dequantized): f32's accuracy, so that x / scale on a rounding tie of
// the fp8 grid (336 = 10.5 x 32 from 0.75 / (1 / 448)) is exactly the tie.
// CHECK-LABEL: xkernel.func @quantize_dequantize(
// CHECK:         arith.divf
// CHECK-NOT:     xkernel.approx rcp
// CHECK-NOT:     xkernel.div_full
// CHECK:         xkernel.return
xkernel.func @quantize_dequantize(%x: f32, %y: f32, %scale: f32, %out: !xkernel.ptr<bf16, global>) attributes {max_threads = 32 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = arith.divf %x, %scale : f32
  %b = arith.divf %y, %scale : f32
  %qa = arith.truncf %a : f32 to f8E4M3FN
  %qb = arith.truncf %b : f32 to f8E4M3FN
  %da = arith.extf %qa : f8E4M3FN to bf16
  %db = arith.extf %qb : f8E4M3FN to bf16
  xkernel.store %da, %out[%c0] : bf16, !xkernel.ptr<bf16, global>
  xkernel.store %db, %out[%c1] : bf16, !xkernel.ptr<bf16, global>
  xkernel.return
}

// A quotient that is subtracted (a variance's deviation x - sum / n) keeps
// IEEE division in a kernel of 16-bit outputs: with n = 1 the difference is
// exactly 0, where div.full's 2 ulp would be all of it. The same division
// stored as it is (the mean) is div.full.
// CHECK-LABEL: xkernel.func @deviation_bf16(
// CHECK:         %[[M:.*]] = arith.divf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:    arith.subf %{{.*}}, %[[M]] : f32
// CHECK:         xkernel.div_full
// CHECK:         xkernel.return
xkernel.func @deviation_bf16(%x: f32, %sum: f32, %n: f32, %m: f32, %out: !xkernel.ptr<bf16, global>) attributes {max_threads = 32 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %mean = arith.divf %sum, %n : f32
  %d = arith.subf %x, %mean : f32
  %td = arith.truncf %d : f32 to bf16
  xkernel.store %td, %out[%c0] : bf16, !xkernel.ptr<bf16, global>
  %q = arith.divf %sum, %m : f32
  %tq = arith.truncf %q : f32 to bf16
  xkernel.store %tq, %out[%c1] : bf16, !xkernel.ptr<bf16, global>
  xkernel.return
}

// A quotient or an exponential that reaches a discontinuous op (floor,
// a comparison, a conversion to an integer), through other ops or
// directly, keeps CUDA's precision in a kernel of 16-bit outputs:
// floor(4 / 4) is 0 where the quotient is an ulp low (grid_sample's
// reflection counts its flips so). The exponential stored as it is
// takes the 16-bit form (ex2.approx).
// CHECK-LABEL: xkernel.func @discontinuous_bf16(
// CHECK:         %[[Q:.*]] = arith.divf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:    math.floor %[[Q]] : f32
// CHECK-NOT:     xkernel.div_full
// CHECK:         arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK:         %[[P:.*]] = xkernel.approx ex2
// CHECK:         math.fma %[[P]], %{{.*}}, %[[P]] : f32
// CHECK:         arith.cmpf ogt
// CHECK-NEXT:    %[[R:.*]] = arith.divf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:    arith.fptosi %[[R]] : f32 to i32
// CHECK:         %[[T:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:    %[[E:.*]] = xkernel.approx ex2 %[[T]] : f32
// CHECK-NEXT:    arith.truncf %[[E]] : f32 to bf16
// CHECK:         xkernel.return
xkernel.func @discontinuous_bf16(%a: f32, %b: f32, %x: f32, %y: f32, %out: !xkernel.ptr<bf16, global>, %ids: !xkernel.ptr<bf16, global>) attributes {max_threads = 32 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %half = arith.constant 0.5 : f32
  %q = arith.divf %a, %b : f32
  %f = math.floor %q : f32
  %tf = arith.truncf %f : f32 to bf16
  xkernel.store %tf, %out[%c0] : bf16, !xkernel.ptr<bf16, global>
  %e = math.exp %x : f32
  %s = arith.mulf %e, %half : f32
  %big = arith.cmpf ogt, %s, %half : f32
  %r = arith.divf %y, %b : f32
  %i = arith.fptosi %r : f32 to i32
  %ri = arith.sitofp %i : i32 to f32
  %sel = arith.select %big, %ri, %half : f32
  %ts = arith.truncf %sel : f32 to bf16
  xkernel.store %ts, %ids[%c1] : bf16, !xkernel.ptr<bf16, global>
  %e2 = math.exp %y : f32
  %te = arith.truncf %e2 : f32 to bf16
  xkernel.store %te, %out[%c2] : bf16, !xkernel.ptr<bf16, global>
  xkernel.return
}

// A division whose divisor divides nothing else is div.full itself.
// CHECK-LABEL: xkernel.func @sigmoid_f16(
// CHECK:         %[[D:.*]] = arith.addf
// CHECK-NEXT:    xkernel.div_full %{{.*}}, %[[D]] : f32
// CHECK-NOT:     arith.divf
xkernel.func @sigmoid_f16(%x: f32, %out: !xkernel.ptr<f16, global>) attributes {max_threads = 32 : i64} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %e = math.exp %x : f32
  %d = arith.addf %one, %e : f32
  %s = arith.divf %one, %d : f32
  %t = arith.truncf %s : f32 to f16
  xkernel.store %t, %out[%c0] : f16, !xkernel.ptr<f16, global>
  xkernel.return
}

// In a kernel of 16-bit outputs, 1 + erf(y) (GELU's) is erfc(-y) and
// 1 - erf(y) is erfc(y): e^{-a^2} from the flushing ex2 (scaled by 2^8)
// times a polynomial in t = 1 / (1 + 0.42 a), no erf polynomial and no
// cancelling sum; erfc at a negative argument is 2 - erfc(|u|).
// CHECK-LABEL: xkernel.func @gelu_erf_bf16(
// CHECK-SAME:    %[[X:[^:]*]]: f32
// CHECK:         %[[Y:.*]] = arith.mulf %[[X]], %{{.*}} : f32
// CHECK:         %[[A:.*]] = math.absf %[[Y]] : f32
// CHECK:         %[[T:.*]] = xkernel.approx rcp %{{.*}} ftz : f32
// CHECK:         %[[A2:.*]] = arith.mulf %[[A]], %[[A]] : f32
// CHECK:         %[[EA:.*]] = math.fma %[[A2]], %{{.*}}, %{{.*}} : f32
// CHECK:         %[[E:.*]] = xkernel.approx ex2 %[[EA]] ftz : f32
// CHECK:         %[[R:.*]] = arith.mulf %[[E]], %{{.*}} : f32
// CHECK:         %[[POS:.*]] = arith.cmpf ogt, %[[Y]], %{{.*}} : f32
// CHECK:         %[[TWO:.*]] = arith.subf %{{.*}}, %[[R]] : f32
// CHECK:         %[[P:.*]] = arith.select %[[POS]], %[[TWO]], %[[R]] : f32
// CHECK:         arith.mulf %{{.*}}, %[[P]] : f32
// CHECK-NOT:     math.erf
// CHECK:         %[[Z:.*]] = math.absf %{{.*}} : f32
// CHECK:         arith.cmpf olt, %{{.*}}, %{{.*}} : f32
// A sum an erf shares with another use, and an f32 kernel's, keep the
// erf's polynomials and the sum.
// CHECK-LABEL: xkernel.func @erf_kept(
// CHECK:         math.fma
// CHECK:         arith.addf
// CHECK:         arith.addf
// CHECK-LABEL: xkernel.func @gelu_erf_f32(
// CHECK-NOT:     xkernel.approx rcp
// CHECK:         arith.addf
xkernel.func @gelu_erf_bf16(%x: f32, %out: !xkernel.ptr<bf16, global>) attributes {max_threads = 32 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %k = arith.constant 0.707106769 : f32
  %y = arith.mulf %x, %k : f32
  %e = math.erf %y : f32
  %s = arith.addf %e, %one : f32
  %hx = arith.mulf %x, %half : f32
  %g = arith.mulf %hx, %s : f32
  %tg = arith.truncf %g : f32 to bf16
  xkernel.store %tg, %out[%c0] : bf16, !xkernel.ptr<bf16, global>
  %e2 = math.erf %x : f32
  %c = arith.subf %one, %e2 : f32
  %tc = arith.truncf %c : f32 to bf16
  xkernel.store %tc, %out[%c1] : bf16, !xkernel.ptr<bf16, global>
  xkernel.return
}
xkernel.func @erf_kept(%x: f32, %out: !xkernel.ptr<bf16, global>) attributes {max_threads = 32 : i64} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %e = math.erf %x : f32
  %s = arith.addf %one, %e : f32
  %d = arith.addf %s, %e : f32
  %t = arith.truncf %d : f32 to bf16
  xkernel.store %t, %out[%c0] : bf16, !xkernel.ptr<bf16, global>
  xkernel.return
}
xkernel.func @gelu_erf_f32(%x: f32, %out: !xkernel.ptr<f32, global>) attributes {max_threads = 32 : i64} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %e = math.erf %x : f32
  %s = arith.addf %one, %e : f32
  xkernel.store %s, %out[%c0] : f32, !xkernel.ptr<f32, global>
  xkernel.return
}

// erfc to f32's accuracy: below |x| = 0.5, (1 - x) - x Q(x^2) by one FMA;
// above, e^{-a^2} h(t) / (1 + 2a) with t = (a - 2) / (a + 2): e^{-s} of
// s = a^2 rounded (the exact exponential, ex2 without flushing) times
// g (1 - d), d = fma(a, a, -s) the rounding error of s, and 2 - that for
// x < 0. Fast-math takes the cheaper erfc of 16-bit GELU (flushing ex2).
// CHECK-LABEL: xkernel.func @erfc_f32(
// CHECK-SAME:    %[[X:[^:]*]]: f32
// CHECK:         %[[X2:.*]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK:         %[[ONEMX:.*]] = arith.subf %{{.*}}, %[[X]] : f32
// CHECK:         %[[SMALL:.*]] = math.fma %{{.*}}, %{{.*}}, %[[ONEMX]] : f32
// CHECK:         %[[A:.*]] = arith.minimumf %{{.*}}, %{{.*}} : f32
// CHECK:         xkernel.approx rcp %{{.*}} ftz : f32
// CHECK:         %[[S:.*]] = arith.mulf %[[A]], %[[A]] : f32
// CHECK:         %[[NS:.*]] = arith.negf %[[S]] : f32
// CHECK:         %[[D:.*]] = math.fma %[[A]], %[[A]], %[[NS]] : f32
// CHECK:         xkernel.approx ex2 %{{.*}} : f32
// CHECK:         %[[R:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK:         %[[NEG:.*]] = arith.cmpf olt, %[[X]], %{{.*}} : f32
// CHECK:         %[[TWO:.*]] = arith.subf %{{.*}}, %[[R]] : f32
// CHECK:         %[[LARGE:.*]] = arith.select %[[NEG]], %[[TWO]], %[[R]] : f32
// CHECK:         %[[IN:.*]] = arith.cmpf olt, %{{.*}}, %{{.*}} : f32
// CHECK:         arith.select %[[IN]], %[[SMALL]], %[[LARGE]] : f32
// CHECK-NOT:     math.erfc
// FAST-LABEL:  xkernel.func @erfc_f32(
// FAST:          xkernel.approx rcp %{{.*}} ftz : f32
// FAST:          xkernel.approx ex2 %{{.*}} ftz : f32
// FAST-NOT:      math.erfc
xkernel.func @erfc_f32(%x: f32, %out: !xkernel.ptr<f32, global>) attributes {max_threads = 32 : i64} {
  %c0 = arith.constant 0 : index
  %e = math.erfc %x : f32
  xkernel.store %e, %out[%c0] : f32, !xkernel.ptr<f32, global>
  xkernel.return
}
