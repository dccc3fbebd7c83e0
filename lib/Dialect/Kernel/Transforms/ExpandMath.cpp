//===- ExpandMath.cpp - math functions on the special-function units ------===//
//
// Each function is built from `xkernel.approx` instructions (one MUFU
// operation each on the GPU) and FMA arithmetic: a range reduction that
// brings the argument to where the instruction, or a short polynomial, is
// accurate, and a correction that brings the result to CUDA's default
// error bound (docs/Math.md lists the bound measured for each). The CUDA C
// and PTX emitters both print what this pass leaves, so both compute the
// same values.
//
// A kernel whose every output is f16 or bf16 rounds each result once,
// where it stores it, to 8 or 11 significant bits: there `exp`, `tanh`,
// `erf` and division take cheaper forms whose f32 error (at most 2^-17
// relative) stays far below that rounding's half ulp, and 1 + erf(y) is
// erfc(-y), relative to the value where the sum cancels (docs/Math.md,
// "16-bit outputs").
//
//===----------------------------------------------------------------------===//

#include "xtile/Dialect/Kernel/IR/KernelOps.h"
#include "xtile/Dialect/Kernel/Transforms/Passes.h"
#include "xtile/Support/ErfComplement.h"
#include "xtile/Support/Storage.h"

#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"
#include "llvm/ADT/bit.h"

#include <cmath>
#include <limits>

namespace xtile::kernel {
#define GEN_PASS_DEF_XKERNELEXPANDMATH
#include "xtile/Dialect/Kernel/Transforms/Passes.h.inc"
} // namespace xtile::kernel

using namespace mlir;
using namespace xtile::kernel;

namespace {

/// How accurately a function is built: to CUDA's default error bound, for
/// a result that is rounded to 16 bits (f32 error at most 2^-17 relative),
/// or as the bare instruction (fast-math).
enum class Precision { exact, half, fast };

/// f32 and i32 arithmetic at one place.
class MathBuilder {
public:
  MathBuilder(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  Value f(double v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(float(v)));
  }
  Value fbits(uint32_t bits) { return f(llvm::bit_cast<float>(bits)); }
  Value i(int32_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value fma(Value x, Value y, Value z) {
    return math::FmaOp::create(b, loc, x, y, z);
  }
  Value neg(Value x) { return arith::NegFOp::create(b, loc, x); }
  Value abs(Value x) { return math::AbsFOp::create(b, loc, x); }
  Value copysign(Value x, Value sign) {
    return math::CopySignOp::create(b, loc, x, sign);
  }
  /// The smaller of x and a number, which a NaN x gives too.
  Value atMost(Value x, double hi) {
    return arith::MinNumFOp::create(b, loc, x, f(hi));
  }
  /// The larger (smaller) of x and a number, NaN for a NaN x.
  Value maximum(Value x, double lo) {
    return arith::MaximumFOp::create(b, loc, x, f(lo));
  }
  Value minimum(Value x, double hi) {
    return arith::MinimumFOp::create(b, loc, x, f(hi));
  }
  Value cmp(arith::CmpFPredicate p, Value x, Value y) {
    return arith::CmpFOp::create(b, loc, p, x, y);
  }
  Value isNaN(Value x) { return cmp(arith::CmpFPredicate::UNO, x, x); }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  Value bitsOf(Value x) {
    return arith::BitcastOp::create(b, loc, b.getI32Type(), x);
  }
  Value fromBits(Value x) {
    return arith::BitcastOp::create(b, loc, b.getF32Type(), x);
  }
  Value addi(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value subi(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value andi(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value shrsi(Value x, Value y) { return arith::ShRSIOp::create(b, loc, x, y); }
  Value toFloat(Value x) {
    return arith::SIToFPOp::create(b, loc, b.getF32Type(), x);
  }
  Value roundEven(Value x) { return math::RoundEvenOp::create(b, loc, x); }
  Value floor(Value x) { return math::FloorOp::create(b, loc, x); }
  Value approx(ApproxKind kind, Value x, bool ftz) {
    return ApproxOp::create(b, loc, kind, x, ftz);
  }
  /// c[0] + z * (c[1] + z * (...)), by FMAs.
  Value poly(Value z, ArrayRef<double> c) {
    Value acc = f(c.back());
    for (double coefficient : llvm::reverse(c.drop_back()))
      acc = fma(acc, z, f(coefficient));
    return acc;
  }

private:
  OpBuilder &b;
  Location loc;
};

constexpr double kLog2E = 1.4426950408889634;
constexpr double kLn2 = 0.6931471805599453;
constexpr double kInf = std::numeric_limits<double>::infinity();

/// The f32 nearest `v`, and the f32 nearest what is left.
std::pair<double, double> split(double v) {
  float hi = float(v);
  return {hi, float(v - double(hi))};
}

/// ln 2 = kLn2Hi + kLn2Lo, the first with 15 significant bits so that
/// k ln2_hi is exact.
constexpr uint32_t kLn2Hi = 0x3f317200, kLn2Lo = 0x35bfbe8e;

/// e^x. t = x log2(e) rounded; 2^t from `ex2`; the rest of the product,
/// r = x - t ln 2 (in two FMAs with ln 2 in two parts), as e^r ~ 1 + r:
/// e^x = 2^t (1 + r). x is clamped (NaN kept) where e^x is 0 or
/// overflows, so that r stays finite; where 2^t overflows the result is
/// 2^t itself (1 + r would make infinity times a negative r NaN).
///
/// `bounded`: x is known to be NaN or in [-87, 88] (tanh and erf use e^x
/// there), so that neither the clamp nor the overflow select is needed.
/// For a 16-bit result, the bare `ex2` of x log2(e), subnormal results
/// kept: the product's rounding gives a relative error of at most
/// |x| 2^-24, 2^-17.5 at |x| = 88.
Value expandExp(MathBuilder &m, Value x, Precision precision, bool bounded) {
  if (precision != Precision::exact)
    return m.approx(ApproxKind::ex2, m.mul(x, m.f(kLog2E)),
                    /*ftz=*/precision == Precision::fast);
  Value xc = bounded ? x : m.minimum(m.maximum(x, -105.0), 89.0);
  Value t = m.mul(xc, m.f(kLog2E));
  Value p = m.approx(ApproxKind::ex2, t, /*ftz=*/false);
  Value r = m.fma(t, m.fbits(kLn2Hi ^ 0x80000000u), xc);
  r = m.fma(t, m.fbits(kLn2Lo ^ 0x80000000u), r);
  Value y = m.fma(p, r, p);
  if (bounded)
    return y;
  Value overflow = m.cmp(arith::CmpFPredicate::OEQ, p, m.f(kInf));
  return m.select(overflow, p, y);
}

Value expandExp(MathBuilder &m, Value x, Precision p) {
  return expandExp(m, x, p, /*bounded=*/false);
}

Value expandExp2(MathBuilder &m, Value x, Precision p) {
  return m.approx(ApproxKind::ex2, x, /*ftz=*/p == Precision::fast);
}

/// x = 2^k (1 + f) with 1 + f in [sqrt(1/2), sqrt(2)), and the parts of
/// log(1 + f) = 2 atanh(s), s = f / (2 + f), written as
/// f - hfsq + s (hfsq + R(s^2)) so that the approximate reciprocal and the
/// polynomial only touch the small correction term s (hfsq + R).
struct LogParts {
  Value k, f, hfsq, s, hfsqPlusR;
};

LogParts reduceLog(MathBuilder &m, Value x) {
  Value subnormal = m.cmp(arith::CmpFPredicate::OLT, x, m.f(0x1p-126));
  Value xs = m.select(subnormal, m.mul(x, m.f(0x1p23)), x);
  Value bias = m.select(subnormal, m.f(23.0), m.f(0.0));
  const int32_t sqrtHalf = 0x3f3504f3;
  Value t = m.subi(m.bitsOf(xs), m.i(sqrtHalf));
  Value k = m.sub(m.toFloat(m.shrsi(t, m.i(23))), bias);
  Value mantissa =
      m.fromBits(m.addi(m.andi(t, m.i(0x7fffff)), m.i(sqrtHalf)));
  Value f = m.sub(mantissa, m.f(1.0));
  Value s = m.mul(f, m.approx(ApproxKind::rcp, m.add(m.f(2.0), f), true));
  Value z = m.mul(s, s);
  // 2 atanh(s) / s - 2 = 2/3 z + 2/5 z^2 + ... for |s| < 0.172, fitted in
  // three terms.
  Value r = m.mul(z, m.poly(z, {0.666667759, 0.399775803, 0.298709303}));
  Value hfsq = m.mul(m.mul(m.f(0.5), f), f);
  return {k, f, hfsq, s, m.add(hfsq, r)};
}

/// The value of log or log2 at x <= 0, x = +inf and NaN, else `y`.
Value finishLog(MathBuilder &m, Value x, Value y) {
  Value positive = m.cmp(arith::CmpFPredicate::OGT, x, m.f(0.0));
  Value finite = m.cmp(arith::CmpFPredicate::OLT, x, m.f(kInf));
  Value zero = m.cmp(arith::CmpFPredicate::OEQ, x, m.f(0.0));
  Value infinite = m.cmp(arith::CmpFPredicate::OEQ, x, m.f(kInf));
  Value special =
      m.select(zero, m.f(-kInf),
               m.select(infinite, m.f(kInf),
                        m.fbits(0x7fffffffu)));
  Value normal = m.select(positive, y, special);
  return m.select(finite, normal, special);
}

Value expandLog(MathBuilder &m, Value x, Precision p) {
  if (p == Precision::fast)
    return m.mul(m.approx(ApproxKind::lg2, x, /*ftz=*/true), m.f(kLn2));
  LogParts l = reduceLog(m, x);
  // k ln2_hi + (f - (hfsq - (s (hfsq + R) + k ln2_lo)))
  Value b = m.fma(l.s, l.hfsqPlusR, m.mul(l.k, m.fbits(kLn2Lo)));
  Value y = m.fma(l.k, m.fbits(kLn2Hi), m.sub(l.f, m.sub(l.hfsq, b)));
  return finishLog(m, x, y);
}

Value expandLog2(MathBuilder &m, Value x, Precision precision) {
  if (precision == Precision::fast)
    return m.approx(ApproxKind::lg2, x, /*ftz=*/true);
  LogParts p = reduceLog(m, x);
  auto [l2e, l2eLo] = split(kLog2E);
  // log(1 + f) = hi + lo, with the rounding error of f * f in lo.
  Value hi = m.sub(p.f, p.hfsq);
  Value squareError = m.fma(p.f, p.f, m.neg(m.mul(p.f, p.f)));
  Value lo0 = m.sub(m.sub(m.sub(p.f, hi), p.hfsq),
                    m.mul(m.f(0.5), squareError));
  Value lo = m.fma(p.s, p.hfsqPlusR, lo0);
  // (hi + lo) log2(e) = prod + tail, then k + prod by Fast2Sum.
  Value prod = m.mul(hi, m.f(l2e));
  Value tail = m.fma(lo, m.f(l2e),
                     m.fma(hi, m.f(l2eLo), m.fma(hi, m.f(l2e), m.neg(prod))));
  Value sum = m.add(p.k, prod);
  Value err = m.add(m.sub(p.k, sum), prod);
  return finishLog(m, x, m.add(sum, m.add(err, tail)));
}

/// tanh: x + x^3 P(x^2) below 1.0625 (a fit to tanh), else
/// 1 - 2 / (e^{2|x|} + 1) with a Newton-corrected reciprocal; the
/// cancellation in the second form is what keeps the polynomial up to 1.06.
constexpr double kTanhSmall = 1.0625;
constexpr double kTanhPoly[] = {-0.333333254,   0.133330896,  -0.0539429523,
                                0.0217415635,   -0.00849811733, 0.00295982789,
                                -0.000766234414, 0.000102426777};

/// For a 16-bit result the second form takes the bare exponential and
/// reciprocal (no Newton step).
Value expandTanh(MathBuilder &m, Value x, Precision p) {
  bool fast = p == Precision::fast;
  Value a = m.abs(x);
  // tanh is 1 in f32 from 9.1 on; the clamp keeps e^{2|x|} finite (and
  // NaN a NaN).
  Value ac = m.minimum(a, 9.1);
  Value e = expandExp(m, m.add(ac, ac), p, /*bounded=*/true);
  Value d = m.add(e, m.f(1.0));
  Value q = m.approx(ApproxKind::rcp, d, /*ftz=*/true);
  if (p == Precision::exact)
    q = m.fma(q, m.fma(m.neg(d), q, m.f(1.0)), q);
  Value large = m.copysign(m.fma(m.f(-2.0), q, m.f(1.0)), x);
  // Fast: the second form everywhere (absolute error about 2^-23 near 0).
  if (fast)
    return large;
  Value z = m.mul(x, x);
  Value small = m.fma(m.mul(x, z), m.poly(z, kTanhPoly), x);
  return m.select(m.cmp(arith::CmpFPredicate::OLT, a, m.f(kTanhSmall)), small,
                  large);
}

/// erf: x + x Q(x^2) below 1 (a fit to erf(x)/x - 1), else
/// 1 - e^{P(|x| - 1)} with P fitted to log erfc, which is 1 in f32 from
/// 3.92 on.
constexpr double kErfSmall = 1.0;
constexpr double kErfPoly[] = {0.128379166,   -0.37612626,    0.112835787,
                               -0.0268533472, 0.0051871622,   -0.00079978531,
                               7.80690389e-05};
constexpr double kErfcLogPoly[] = {-1.84960556,   -2.63896275, -0.843172371,
                                   -0.0412622094, 0.00945263822,
                                   -0.00148094015, 9.0026253e-05};

Value expandErf(MathBuilder &m, Value x, Precision p) {
  Value a = m.abs(x);
  Value z = m.mul(x, x);
  Value small = m.fma(x, m.poly(z, kErfPoly), x);
  Value t = m.sub(m.atMost(a, 3.92), m.f(1.0));
  Value large = m.copysign(
      m.sub(m.f(1.0),
            expandExp(m, m.poly(t, kErfcLogPoly), p, /*bounded=*/true)),
      x);
  Value y = m.select(m.cmp(arith::CmpFPredicate::OLT, a, m.f(kErfSmall)),
                     small, large);
  return m.select(m.isNaN(x), x, y);
}

/// 1 + erf(y) and 1 - erf(y) for a 16-bit result: erfc(-y) and erfc(y),
/// relative to the value, where 1 + erf(y) in f32 keeps only an absolute
/// 2^-25 (GELU's x (1 + erf(x / sqrt 2)) / 2 at x < -4). For a = |u|,
/// erfc(a) = e^{-a^2} g(a), g(a) = P(t) with t = 1 / (1 + p a) and P of
/// degree 6 fitted by weighted least squares to the relative error on
/// a in [0, 10] (2^-19 there; e^{-a^2} adds the rounding of a^2 log2(e),
/// up to 2^-16.7 relative where erfc(a) < 2^-96); erfc(-a) = 2 - erfc(a).
constexpr double kErfcT = 0.42;
constexpr double kErfcPoly[] = {-0.000224247851, 0.24119015,  0.204240754,
                                0.350062191,     -0.136965722, 0.515640974,
                                -0.173942998};

/// erfc(y), or erfc(-y) when `negated`.
Value expandErfc(MathBuilder &m, Value y, bool negated) {
  Value a = m.abs(y);
  Value t = m.approx(ApproxKind::rcp, m.fma(a, m.f(kErfcT), m.f(1.0)),
                     /*ftz=*/true);
  // e^{-a^2} 2^8 by the flushing `ex2` (normal down to erfc(a) = 2^-134,
  // below the smallest bf16), and g 2^-8 (exactly) multiplied in without
  // flushing, so that subnormal results are kept.
  SmallVector<double> scaled;
  for (double c : kErfcPoly)
    scaled.push_back(std::ldexp(c, -8));
  Value g = m.poly(t, scaled);
  Value e = m.approx(ApproxKind::ex2,
                     m.fma(m.mul(a, a), m.f(-kLog2E), m.f(8.0)),
                     /*ftz=*/true);
  Value r = m.mul(e, g);
  // erfc(u) at u < 0 is 2 - erfc(|u|); NaN stays NaN (r is NaN).
  Value below = m.cmp(negated ? arith::CmpFPredicate::OGT
                              : arith::CmpFPredicate::OLT,
                      y, m.f(0.0));
  return m.select(below, m.sub(m.f(2.0), r), r);
}

/// erfc to f32's accuracy. Below |x| = 0.5, 1 - x - x Q(x^2) with erf's
/// polynomial Q, in one FMA after 1 - x. Above, for a = |x| (clamped to
/// 10.5, where the result is 0), erfc(a) = e^{-a^2} h(t) / (1 + 2a),
/// t = (a - 2) / (a + 2), h of degree 10 fitted to erfc(a) e^{a^2} (1 + 2a)
/// on [0, 10.1], which lies in [1, 1.13] (2^-26.7 relative; a polynomial
/// for erfc(a) e^{a^2} alone, which falls to 0.056, loses bits to
/// cancellation among its terms in f32). e^{-a^2} is e^{-s} (1 - d) with
/// s = a^2 rounded and d = fma(a, a, -s) its error, multiplied in last so
/// that a subnormal result is rounded once; erfc(-a) = 2 - erfc(a).
/// Fast-math takes the cheaper construction above.
constexpr double kErfcSmall = 0.5;
constexpr double kErfcShift = 2.0;
constexpr double kErfcScaledPoly[] = {
    1.27697839,     -0.0927638964,   -0.166031363,   0.164053159,
    -0.0542051345,  -0.00804459285,  0.00863842359,  0.00127335169,
    -0.0012533867,  -0.000364588233, 2.65100918e-05};

Value expandErfcOp(MathBuilder &m, Value x, Precision p) {
  if (p == Precision::fast)
    return expandErfc(m, x, /*negated=*/false);
  Value q2 = m.poly(m.mul(x, x), kErfPoly);
  Value oneMinusX = m.sub(m.f(1.0), x);
  Value small = m.fma(m.neg(x), q2, oneMinusX);
  Value a = m.minimum(m.abs(x), 10.5);
  Value shifted = m.sub(a, m.f(kErfcShift));
  Value t = m.mul(shifted, m.approx(ApproxKind::rcp,
                                    m.add(a, m.f(kErfcShift)), /*ftz=*/true));
  Value h = m.poly(t, kErfcScaledPoly);
  // h / (1 + 2a) with a Newton-corrected reciprocal.
  Value den = m.fma(a, m.f(2.0), m.f(1.0));
  Value q = m.approx(ApproxKind::rcp, den, /*ftz=*/true);
  q = m.fma(q, m.fma(m.neg(den), q, m.f(1.0)), q);
  Value g = m.mul(h, q);
  Value s = m.mul(a, a);
  Value d = m.fma(a, a, m.neg(s));
  Value e = expandExp(m, m.neg(s), Precision::exact);
  Value r = m.mul(e, m.fma(m.neg(g), d, g));
  Value below = m.cmp(arith::CmpFPredicate::OLT, x, m.f(0.0));
  Value large = m.select(below, m.sub(m.f(2.0), r), r);
  // NaN: the large form (NaN throughout).
  return m.select(m.cmp(arith::CmpFPredicate::OLT, m.abs(x), m.f(kErfcSmall)),
                  small, large);
}

/// rsqrt: `rsqrt` and one Newton step, y += y/2 (1 - x y^2); 0, infinity,
/// negative numbers and NaN keep the instruction's result.
Value expandRsqrt(MathBuilder &m, Value x, Precision p) {
  bool fast = p == Precision::fast;
  Value y = m.approx(ApproxKind::rsqrt, x, /*ftz=*/fast);
  if (fast)
    return y;
  Value t = m.mul(x, y);
  Value e = m.fma(m.neg(t), y, m.f(1.0));
  Value refined = m.fma(m.mul(y, m.f(0.5)), e, y);
  return m.select(m.isNaN(e), y, refined);
}

/// Only under fast-math (sqrt is IEEE otherwise).
Value expandFastSqrt(MathBuilder &m, Value x, Precision) {
  return m.approx(ApproxKind::sqrt, x, /*ftz=*/true);
}

/// sin and cos: x = j pi/2 + r with j = rint(x 2/pi) and r in [-pi/4,
/// pi/4] by three FMAs with pi/2 in three parts (Cody and Waite), then the
/// polynomial of sin or cos at r that the quadrant j mod 4 asks for: within
/// 1.4 ulp for |x| < 105615 (measured, including the arguments nearest to
/// multiples of pi/2), past which the reduction's error grows with |x|.
/// Infinities give NaN (r is inf - inf), NaN stays NaN.
struct SinCosParts {
  Value r, s, quadrant;
};

SinCosParts reduceSinCos(MathBuilder &m, Value x) {
  Value j = m.roundEven(m.mul(x, m.f(0.636619772367581343)));
  // -pi/2 = -(1.5707964 - 4.371139e-8 - 1.7151245e-15), each part the f32
  // nearest to what is left.
  Value r = m.fma(j, m.fbits(0xbfc90fdbu), x);
  r = m.fma(j, m.fbits(0x333bbd2eu), r);
  r = m.fma(j, m.fbits(0x26f72cedu), r);
  // Past 2^24 or so, r is no longer small: bounded, the polynomials stay
  // finite (NaN, from an infinite x, stays NaN).
  r = m.minimum(m.maximum(r, -1.0), 1.0);
  // j mod 4 in [0, 4), exact in f32 for every j.
  Value q = m.sub(j, m.mul(m.f(4.0), m.floor(m.mul(j, m.f(0.25)))));
  return {r, m.mul(r, r), q};
}

/// sin(r) = r + r^3 P(r^2) and cos(r) = 1 - r^2/2 + r^4 Q(r^2) on [-pi/4,
/// pi/4]: P and Q of degree 3 fitted by least squares (relative error) on
/// Chebyshev nodes; within 0.65 and 0.86 ulp in f32 arithmetic with FMA.
Value sinKernel(MathBuilder &m, Value r, Value s) {
  Value p = m.poly(s, {-0.16666667163372040, 0.0083333291113376617,
                       -0.00019839298329316080, 2.7180080968537368e-06});
  return m.fma(p, m.mul(s, r), r);
}
Value cosKernel(MathBuilder &m, Value s) {
  Value q = m.poly(s, {0.041666667908430099, -0.0013888882612809539,
                       2.4799432050297037e-05, -2.7203720035322476e-07});
  return m.fma(m.fma(q, s, m.f(-0.5)), s, m.f(1.0));
}

/// The value of quadrant q (0 to 3) among a, b, -a, -b.
Value byQuadrant(MathBuilder &m, Value q, Value a, Value b) {
  Value odd = m.cmp(arith::CmpFPredicate::OEQ,
                    m.sub(q, m.mul(m.f(2.0), m.floor(m.mul(q, m.f(0.5))))),
                    m.f(1.0));
  Value v = m.select(odd, b, a);
  Value negate = m.cmp(arith::CmpFPredicate::OGE, q, m.f(2.0));
  return m.select(negate, m.neg(v), v);
}

Value expandSin(MathBuilder &m, Value x, Precision) {
  SinCosParts p = reduceSinCos(m, x);
  return byQuadrant(m, p.quadrant, sinKernel(m, p.r, p.s), cosKernel(m, p.s));
}

Value expandCos(MathBuilder &m, Value x, Precision) {
  SinCosParts p = reduceSinCos(m, x);
  return byQuadrant(m, p.quadrant, cosKernel(m, p.s),
                    m.neg(sinKernel(m, p.r, p.s)));
}

using Expansion = Value (*)(MathBuilder &, Value, Precision);

/// Whether `op` is discontinuous in a float operand: a bound of error in
/// that operand bounds nothing in its result (floor(a / b) is off by one
/// where a / b is an integer and the quotient one ulp low).
bool isDiscontinuous(Operation *op) {
  return isa<math::FloorOp, math::CeilOp, math::RoundOp, math::RoundEvenOp,
             math::TruncOp, arith::FPToSIOp, arith::FPToUIOp, arith::CmpFOp,
             arith::RemFOp, arith::BitcastOp>(op);
}

/// The kernels whose every output is f16 or bf16 (each writable global
/// pointer among their arguments points to a 16-bit float), and the ops
/// of theirs whose results reach a discontinuous op (isDiscontinuous):
/// the error budget is spent at the rounding only where the path to it
/// is continuous, so those keep CUDA's precision.
struct HalfKernels {
  llvm::SmallPtrSet<Operation *, 8> funcs;
  DenseSet<Operation *> feedDiscontinuity;
};

HalfKernels findHalfKernels(Operation *root) {
  HalfKernels kernels;
  root->walk([&](FuncOp func) {
    bool outputs = false, half = true;
    for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
      auto ptr = dyn_cast<PtrType>(type);
      if (!ptr || ptr.getMemorySpace() != MemorySpace::global ||
          func.getArgAttr(i, FuncOp::getReadonlyAttrName()))
        continue;
      outputs = true;
      half &= ptr.getElementType().isF16() || ptr.getElementType().isBF16();
    }
    // A rounding to fp8 inside (a quantization) turns a 16-bit error of
    // its operand into a wrong fp8 value wherever the operand sits on a
    // rounding tie, which quantized values often do (x / (amax / 448)).
    if (!outputs || !half || xtile::roundsToFp8(func))
      return;
    kernels.funcs.insert(func);
    SmallVector<Operation *> work;
    func.walk([&](Operation *op) {
      if (isDiscontinuous(op))
        work.push_back(op);
    });
    while (!work.empty()) {
      Operation *op = work.pop_back_val();
      for (Value v : op->getOperands())
        if (Operation *def = v.getDefiningOp();
            def && kernels.feedDiscontinuity.insert(def).second)
          work.push_back(def);
    }
  });
  return kernels;
}

/// The precision `op`'s result needs: fast-math's, a 16-bit one where the
/// op's own type is 16-bit or its kernel's outputs all are (and the result
/// reaches no discontinuous op), else CUDA's.
Precision precisionOf(Operation *op, bool fast, const HalfKernels &half) {
  if (fast)
    return Precision::fast;
  Type type = op->getResult(0).getType();
  if (type.isF16() || type.isBF16())
    return Precision::half;
  if (half.funcs.contains(op->getParentOfType<FuncOp>()) &&
      !half.feedDiscontinuity.contains(op))
    return Precision::half;
  return Precision::exact;
}

/// Rewrites one unary math op on an f32, f16 or bf16 scalar with
/// `expansion` (in f32).
template <typename OpTy>
struct ExpandUnary : OpRewritePattern<OpTy> {
  ExpandUnary(MLIRContext *ctx, Expansion expansion, bool fast,
              const HalfKernels &half)
      : OpRewritePattern<OpTy>(ctx), expansion(expansion), fast(fast),
        half(half) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!(type.isF32() || type.isF16() || type.isBF16()))
      return rewriter.notifyMatchFailure(op, "not a scalar f32, f16 or bf16");
    MathBuilder m(rewriter, op.getLoc());
    Value x = op.getOperand();
    if (!type.isF32())
      x = arith::ExtFOp::create(rewriter, op.getLoc(), rewriter.getF32Type(),
                                x);
    Value y = expansion(m, x, precisionOf(op, fast, half));
    if (!type.isF32())
      y = arith::TruncFOp::create(rewriter, op.getLoc(), type, y);
    rewriter.replaceOp(op, y);
    return success();
  }

  Expansion expansion;
  bool fast;
  const HalfKernels &half;
};

/// Under fast-math, a / b = a * rcp(b) on f32. In a kernel of 16-bit
/// outputs, `div.full.f32` (2 ulp over the whole range, subnormals kept);
/// where several divisions share the divisor (a row's sum), a * (1 / b)
/// with that reciprocal, which CSE shares: within 3 ulp. A quotient that
/// is added or subtracted keeps IEEE division outside fast-math: the sum
/// can cancel to where the quotient's 2 ulp are all of it (x - sum / n, a
/// variance's deviation, is 0 where x is the mean).
struct ApproximateDivision : OpRewritePattern<arith::DivFOp> {
  ApproximateDivision(MLIRContext *ctx, bool fast, const HalfKernels &half)
      : OpRewritePattern(ctx), fast(fast), half(half) {}

  LogicalResult matchAndRewrite(arith::DivFOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return rewriter.notifyMatchFailure(op, "not a scalar f32");
    Precision p = precisionOf(op, fast, half);
    if (p == Precision::exact)
      return rewriter.notifyMatchFailure(op, "IEEE division");
    if (p == Precision::half &&
        llvm::any_of(op->getUsers(), llvm::IsaPred<arith::AddFOp, arith::SubFOp>))
      return rewriter.notifyMatchFailure(op, "a quotient that a sum may cancel");
    MathBuilder m(rewriter, op.getLoc());
    Value b = op.getRhs();
    // A divisor of one division: div.full itself.
    auto divisions = llvm::count_if(b.getUsers(), [&](Operation *user) {
      auto div = dyn_cast<arith::DivFOp>(user);
      return div && div.getRhs() == b;
    });
    if (p == Precision::half && divisions == 1) {
      rewriter.replaceOpWithNewOp<DivFullOp>(op, op.getLhs(), b);
      return success();
    }
    if (p == Precision::fast) {
      rewriter.replaceOp(op, m.mul(op.getLhs(), m.approx(ApproxKind::rcp, b,
                                                         /*ftz=*/true)));
      return success();
    }
    // 1/b overflows below 2^-128 where a/b may not: such a divisor is
    // scaled by 2^64 first and the product by 2^64 after.
    Value tiny = m.cmp(arith::CmpFPredicate::OLT, m.abs(b), m.f(0x1p-64));
    Value scale = m.select(tiny, m.f(0x1p64), m.f(1.0));
    Value r = m.approx(ApproxKind::rcp, m.mul(b, scale), /*ftz=*/false);
    rewriter.replaceOp(op, m.mul(m.mul(op.getLhs(), r), scale));
    return success();
  }

  bool fast;
  const HalfKernels &half;
};

/// log10 has no polynomial approximation upstream; log(x) * log10(e) reuses
/// the construction of log.
struct Log10ToLog : OpRewritePattern<math::Log10Op> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::Log10Op op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF32())
      return rewriter.notifyMatchFailure(op, "only f32 has an approximation");
    Location loc = op.getLoc();
    Value log = math::LogOp::create(rewriter, loc, op.getOperand(),
                                    op.getFastmathAttr());
    TypedAttr scale =
        rewriter.getF32FloatAttr(static_cast<float>(1.0 / std::log(10.0)));
    if (auto vec = dyn_cast<VectorType>(type))
      scale = SplatElementsAttr::get(vec, scale);
    Value factor = arith::ConstantOp::create(rewriter, loc, type, scale);
    rewriter.replaceOpWithNewOp<arith::MulFOp>(op, log, factor,
                                               op.getFastmathAttr());
    return success();
  }
};

/// The functions built above; the others come from upstream's polynomial
/// approximations and expansions.
bool builtHere(StringRef name) {
  return llvm::is_contained(
      {math::ExpOp::getOperationName(), math::Exp2Op::getOperationName(),
       math::LogOp::getOperationName(), math::Log2Op::getOperationName(),
       math::TanhOp::getOperationName(), math::ErfOp::getOperationName(),
       math::ErfcOp::getOperationName(), math::SinOp::getOperationName(),
       math::CosOp::getOperationName(), math::RsqrtOp::getOperationName(),
       math::SqrtOp::getOperationName(), math::FmaOp::getOperationName(),
       math::AbsFOp::getOperationName(), math::CopySignOp::getOperationName()},
      name);
}

/// Functions without a construction of their own (atan, atan2, asin, acos,
/// cbrt, expm1, log1p, sinh, cosh, tan, the inverse
/// hyperbolic ones, pow, log10) as arithmetic and the functions built here:
/// upstream's polynomial approximations (f16 and bf16 through f32) and
/// expansions. Here, rather than in one translator, so that the CUDA C and
/// the PTX paths compute them with the same operations in the same order.
void approximateOthers(Operation *root) {
  MLIRContext *ctx = root->getContext();
  RewritePatternSet patterns(ctx);
  auto others = [](StringRef name) { return !builtHere(name); };
  populateMathF32ExpansionPatterns(patterns, others);
  populateMathPolynomialApproximationPatterns(patterns, others);
  // An explicit list: the default also expands fma and ceil, which lower
  // natively and more precisely.
  math::populateExpansionPatterns(patterns,
                                  {"sinh", "cosh", "tan", "asinh", "acosh",
                                   "atanh", "powf", "fpowi"});
  patterns.add<Log10ToLog>(ctx);
  // Only these functions and what they become are rewritten, without
  // folding: anything else that a translator cannot emit is reported where
  // it was written.
  SmallVector<Operation *> functions;
  root->walk([&](Operation *op) {
    if (isa<math::MathDialect>(op->getDialect()) &&
        !builtHere(op->getName().getStringRef()))
      functions.push_back(op);
  });
  if (functions.empty())
    return;
  GreedyRewriteConfig config;
  config.enableFolding(false)
      .enableConstantCSE(false)
      .setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
  // Not converging is harmless: whatever is left is reported by the
  // translators.
  (void)applyOpPatternsGreedily(functions, std::move(patterns), config);
}

/// `1 + erf(y)` and `1 - erf(y)` in a kernel of 16-bit outputs
/// (xtile::complementOfErf): erfc, which keeps its relative accuracy where
/// the sum cancels (the negative tail of GELU).
void complementErf(Operation *root, bool fast, const HalfKernels &half) {
  SmallVector<std::pair<math::ErfOp, xtile::ErfComplement>> sums;
  root->walk([&](math::ErfOp erf) {
    if (std::optional<xtile::ErfComplement> c = xtile::complementOfErf(erf))
      if (precisionOf(c->sum, fast, half) == Precision::half)
        sums.emplace_back(erf, *c);
  });
  for (auto [erf, c] : sums) {
    OpBuilder b(c.sum);
    MathBuilder m(b, c.sum->getLoc());
    c.sum->getResult(0).replaceAllUsesWith(
        expandErfc(m, erf.getOperand(), c.negated));
    c.sum->erase();
    erf->erase();
  }
}

struct XKernelExpandMathPass
    : xtile::kernel::impl::XKernelExpandMathBase<XKernelExpandMathPass> {
  using XKernelExpandMathBase::XKernelExpandMathBase;

  void runOnOperation() override { expandMath(getOperation(), fastMath); }
};

} // namespace

void xtile::kernel::expandMath(Operation *root, bool fastMath) {
  MLIRContext *ctx = root->getContext();
  approximateOthers(root);
  HalfKernels half = findHalfKernels(root);
  complementErf(root, fastMath, half);
  RewritePatternSet patterns(ctx);
  auto add = [&](auto tag, Expansion expansion) {
    patterns.add<ExpandUnary<decltype(tag)>>(ctx, expansion, fastMath, half);
  };
  add(math::ExpOp(), expandExp);
  add(math::Exp2Op(), expandExp2);
  add(math::LogOp(), expandLog);
  add(math::Log2Op(), expandLog2);
  add(math::TanhOp(), expandTanh);
  add(math::ErfOp(), expandErf);
  add(math::ErfcOp(), expandErfcOp);
  add(math::SinOp(), expandSin);
  add(math::CosOp(), expandCos);
  add(math::RsqrtOp(), expandRsqrt);
  if (fastMath)
    add(math::SqrtOp(), expandFastSqrt);
  patterns.add<ApproximateDivision>(ctx, fastMath, half);
  // One walk, no folding and no dead-code elimination: the translators run
  // this on what they are given and must report what they cannot emit
  // where it was written.
  walkAndApplyPatterns(root, std::move(patterns));
}
