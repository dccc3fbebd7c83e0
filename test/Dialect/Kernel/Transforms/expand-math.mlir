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
