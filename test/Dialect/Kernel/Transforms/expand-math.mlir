// RUN: xtile-opt %s --xkernel-expand-math | FileCheck %s
// RUN: xtile-opt %s --xkernel-expand-math=fast-math=true | FileCheck %s --check-prefix=FAST

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
