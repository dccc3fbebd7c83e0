"""Elementwise functions composed of Tensor IR's ops, as a libm computes
them: rounding, sign, log1p and expm1 without cancellation, the inverse
trigonometric and hyperbolic functions with their range reductions, the
inverse error function."""
import math

import torch

from .errors import UnsupportedError
from .registry import lowering, register_each
from .sizes import Shape


@lowering("trunc")
def trunc(imp, val, input):
    shape, dtype = val.shape, val.dtype
    x = imp.operand(input, shape, dtype)
    neg = imp.compare("lt", shape, x, 0)
    return imp.where(neg, imp.unary("ceil", x, shape, dtype),
                     imp.unary("floor", x, shape, dtype), shape, dtype)


@lowering("round")
def round_(imp, val, input, decimals=0):
    # Half to even, exactly: x - floor(x) is exact below 2^mantissa,
    # and every float from there on is an integer already.
    if decimals and val.dtype.is_floating_point:
        # PyTorch's: round(x * 10^d) / 10^d, or round(x / 10^-d) * 10^-d.
        def scaled(imp, v, x):
            s, c = v.shape, v.dtype
            ten = float(10 ** abs(decimals))
            up, down = ("mul", "div") if decimals > 0 else ("div", "mul")
            return imp.binary(down, round_(imp, v, imp.binary(up, x, ten, s, c)), ten, s, c)
        return widened(imp, val, scaled, input)
    shape, dtype = val.shape, val.dtype
    x = imp.operand(input, shape, dtype)
    if not dtype.is_floating_point:
        return x
    f = imp.unary("floor", x, shape, dtype)
    d = imp.binary("sub", x, f, shape, dtype)
    up = imp.binary("add", f, 1, shape, dtype)
    even = imp.compare("eq", shape, imp.binary("rem", f, 2, shape, dtype), 0)
    tie = imp.where(even, f, up, shape, dtype)
    r = imp.where(imp.compare("gt", shape, d, 0.5), up,
                  imp.where(imp.compare("lt", shape, d, 0.5), f, tie, shape, dtype), shape, dtype)
    big = imp.compare("ge", shape, imp.unary("abs", x, shape, dtype),
                      1 / torch.finfo(dtype).eps)
    return imp.where(big, x, r, shape, dtype)


@lowering("sign")
def sign(imp, val, input):
    shape, dtype = val.shape, val.dtype
    x = imp.operand(input, shape, dtype)
    s = imp.where(imp.compare("gt", shape, x, 0), 1,
                  imp.where(imp.compare("lt", shape, x, 0), -1, 0, shape, dtype), shape, dtype)
    if not dtype.is_floating_point:
        return s
    return imp.where(imp.compare("ne", shape, x, x), x, s, shape, dtype)  # NaN stays


@lowering("signbit")
def signbit(imp, val, input):
    # x < 0, and -0.0 by the sign of 1/x (NaN's sign bit is not
    # observable without a bit cast: false).
    x = input
    if not x.dtype.is_floating_point:
        return imp.compare("lt", val.shape, x, 0)
    neg = imp.compare("lt", val.shape, x, 0)
    zero = imp.compare("eq", val.shape, x, 0)
    inv = imp.unary("reciprocal", x, x.shape, x.dtype)
    return imp.binary("or", neg, imp.binary("and", zero, imp.compare(
        "lt", val.shape, inv, 0), val.shape, torch.bool), val.shape, torch.bool)


@lowering("copysign")
def copysign(imp, val, input, other):
    # |input| with other's sign, -0.0's included (signbit; a NaN's sign
    # bit is not observable without a bit cast: positive).
    shape, dtype = val.shape, val.dtype
    mag = imp.unary("abs", imp.operand(input, shape, dtype), shape, dtype)
    sign = signbit(imp, val, imp.operand(other, shape, dtype))
    return imp.where(sign, imp.unary("neg", mag, shape, dtype), mag, shape, dtype)


@lowering("log10")
def log10(imp, val, input):
    return imp.binary("mul", imp.unary("log", input, val.shape, val.dtype),
                      1 / math.log(10), val.shape, val.dtype)


@lowering("log1p")
def log1p(imp, val, input):
    # log(1 + x) * x / ((1 + x) - 1): the rounding of 1 + x cancels
    # (Goldberg), so tiny x keep their digits; x itself when 1 + x == 1.
    shape, dtype = val.shape, val.dtype
    x = imp.operand(input, shape, dtype)
    u = imp.binary("add", x, 1, shape, dtype)
    du = imp.binary("sub", u, 1, shape, dtype)
    ratio = imp.binary("div", imp.binary("mul", imp.unary("log", u, shape, dtype), x,
                                         shape, dtype), du, shape, dtype)
    inf = imp.compare("eq", val.shape, u, math.inf)
    ratio = imp.where(inf, u, ratio, shape, dtype)
    return imp.where(imp.compare("eq", val.shape, du, 0), x, ratio, shape, dtype)


@lowering("expm1")
def expm1(imp, val, input):
    # (e^x - 1) * x / log(e^x), the same cancellation (Kahan).
    shape, dtype = val.shape, val.dtype
    x = imp.operand(input, shape, dtype)
    u = imp.unary("exp", x, shape, dtype)
    um = imp.binary("sub", u, 1, shape, dtype)
    ratio = imp.binary("div", imp.binary("mul", um, x, shape, dtype),
                       imp.unary("log", u, shape, dtype), shape, dtype)
    ratio = imp.where(imp.compare("eq", val.shape, u, math.inf), u, ratio, shape, dtype)
    ratio = imp.where(imp.compare("eq", val.shape, um, -1), um, ratio, shape, dtype)
    return imp.where(imp.compare("eq", val.shape, u, 1), x, ratio, shape, dtype)


@lowering("elu")
def elu(imp, val, input, alpha=1, scale=1, input_scale=1):
    shape, dtype = val.shape, val.dtype
    x = imp.operand(input, shape, dtype)
    neg = expm1(imp, val, imp.binary("mul", x, input_scale, shape, dtype))
    neg = imp.binary("mul", neg, alpha * scale, shape, dtype)
    pos = imp.binary("mul", x, scale, shape, dtype) if scale != 1 else x
    return imp.where(imp.compare("gt", val.shape, x, 0), pos, neg, shape, dtype)


# -- inverse trigonometric and hyperbolic functions --------------------
# Composed of Tensor IR's exp, log, sqrt and division, with the range
# reductions and cancellation-free forms of a libm. Computed in f32 for
# 16-bit types (constants included) and rounded once, in f64 for f64.
def widened(imp, val, fn, *inputs):
    """fn(imp, result shape and compute type, *inputs in it), rounded once
    to val's type."""
    c = torch.float32 if val.dtype in (torch.float16, torch.bfloat16) else val.dtype
    wide = Shape(val.shape, c)
    return imp.cast(fn(imp, wide, *[imp.operand(x, val.shape, c) for x in inputs]),
                    val.dtype)


def _poly(imp, v, z, coefficients):
    """Horner's rule: coefficients from the highest degree."""
    acc = imp.const(coefficients[0], v.shape, v.dtype)
    for c in coefficients[1:]:
        acc = imp.binary("add", imp.binary("mul", acc, z, v.shape, v.dtype), c,
                         v.shape, v.dtype)
    return acc


def _odd(imp, v, x, r):
    """r (computed from |x|) with x's sign; zeros (of either sign) and
    NaN pass through as x."""
    s, c = v.shape, v.dtype
    r = imp.where(imp.compare("lt", s, x, 0), imp.unary("neg", r, s, c), r, s, c)
    return imp.where(imp.compare("eq", s, x, 0), x, r, s, c)


def _atan(imp, v, x):
    # |x| reduced to |t| <= tan(pi/8) by atan(a) = pi/2 + atan(-1/a)
    # above tan(3pi/8) and pi/4 + atan((a-1)/(a+1)) above tan(pi/8).
    s, c = v.shape, v.dtype
    a = imp.unary("abs", x, s, c)
    big = imp.compare("gt", s, a, 2.414213562373095)
    mid = imp.compare("gt", s, a, 0.41421356237309503)
    t = imp.where(big, imp.binary("div", -1.0, a, s, c),
                  imp.where(mid, imp.binary("div", imp.binary("sub", a, 1, s, c),
                                            imp.binary("add", a, 1, s, c), s, c), a, s, c), s, c)
    y0 = imp.where(big, math.pi / 2, imp.where(mid, math.pi / 4, 0, s, c), s, c)
    if c == torch.float64:
        # Halved once more, h = t / (1 + sqrt(1 + t^2)) <= tan(pi/16),
        # then the series to h^25 (the next term is below 2^-60 of h).
        h = imp.binary("div", t, imp.binary("add", imp.unary(
            "sqrt", imp.binary("add", imp.binary("mul", t, t, s, c), 1, s, c), s, c),
            1, s, c), s, c)
        z = imp.binary("mul", h, h, s, c)
        series = _poly(imp, v, z, [(-1) ** k / (2 * k + 1) for k in range(12, -1, -1)])
        p = imp.binary("mul", imp.binary("mul", series, h, s, c), 2, s, c)
    else:
        # Cephes' atanf polynomial (relative error 1.9e-7 on the range).
        z = imp.binary("mul", t, t, s, c)
        q = _poly(imp, v, z, [8.05374449538e-2, -1.38776856032e-1,
                              1.99777106478e-1, -3.33329491539e-1])
        p = imp.binary("add", imp.binary("mul", imp.binary("mul", q, z, s, c), t, s, c),
                       t, s, c)
    return _odd(imp, v, x, imp.binary("add", y0, p, s, c))


def _larger(imp, v, a, b):
    """(|a|, |b|, whether |a| > |b|, the larger of them, the smaller)."""
    s, c = v.shape, v.dtype
    aa, ab = imp.unary("abs", a, s, c), imp.unary("abs", b, s, c)
    first = imp.compare("gt", s, aa, ab)
    return aa, ab, first, imp.where(first, aa, ab, s, c), imp.where(first, ab, aa, s, c)


def _atan2(imp, v, y, x):
    # atan of min/max in [0, 1], moved to its octant.
    s, c = v.shape, v.dtype
    ay, ax, steep, hi, lo = _larger(imp, v, y, x)
    q = imp.binary("div", lo, hi, s, c)
    q = imp.where(imp.compare("eq", s, hi, 0), 0, q, s, c)
    both_inf = imp.binary("and", imp.compare("eq", s, ay, math.inf),
                          imp.compare("eq", s, ax, math.inf), s, torch.bool)
    r = _atan(imp, v, imp.where(both_inf, 1, q, s, c))
    r = imp.where(steep, imp.binary("sub", math.pi / 2, r, s, c), r, s, c)
    r = imp.where(imp.compare("lt", s, x, 0), imp.binary("sub", math.pi, r, s, c), r, s, c)
    return imp.where(imp.compare("lt", s, y, 0), imp.unary("neg", r, s, c), r, s, c)


def _cathetus(imp, v, x):
    """sqrt(1 - x^2) as sqrt((1 - x)(1 + x)), exact near |x| = 1."""
    s, c = v.shape, v.dtype
    return imp.unary("sqrt", imp.binary("mul", imp.binary("sub", 1, x, s, c),
                                        imp.binary("add", x, 1, s, c), s, c), s, c)


def _asin(imp, v, x):
    return _atan2(imp, v, x, _cathetus(imp, v, x))


def _acos(imp, v, x):
    return _atan2(imp, v, _cathetus(imp, v, x), x)


def _tan(imp, v, x):
    return imp.binary("div", imp.unary("sin", x, v.shape, v.dtype),
                      imp.unary("cos", x, v.shape, v.dtype), v.shape, v.dtype)


def _exp_half_squared(imp, v, a):
    """e^a / 2 as (e^(a/2) / 2) e^(a/2): finite wherever the result
    is, where e^a itself overflows."""
    h = imp.unary("exp", imp.binary("mul", a, 0.5, v.shape, v.dtype), v.shape, v.dtype)
    return imp.binary("mul", imp.binary("mul", h, 0.5, v.shape, v.dtype), h,
                      v.shape, v.dtype)


def _ln_max(dtype):
    """Below this, e^x is finite in `dtype` (with margin)."""
    return 709.0 if dtype == torch.float64 else 88.0


def _sinh(imp, v, x):
    # (u + u / (u + 1)) / 2 with u = expm1(|x|) below 1 (no
    # cancellation), (e^a - e^-a) / 2 above, e^a / 2 where e^a overflows.
    s, c = v.shape, v.dtype
    a = imp.unary("abs", x, s, c)
    u = expm1(imp, v, a)
    small = imp.binary("mul", imp.binary("add", u, imp.binary(
        "div", u, imp.binary("add", u, 1, s, c), s, c), s, c), 0.5, s, c)
    e = imp.unary("exp", a, s, c)
    mid = imp.binary("sub", imp.binary("mul", e, 0.5, s, c),
                     imp.binary("div", 0.5, e, s, c), s, c)
    r = imp.where(imp.compare("lt", s, a, 1), small,
                  imp.where(imp.compare("lt", s, a, _ln_max(c)), mid,
                            _exp_half_squared(imp, v, a), s, c), s, c)
    return _odd(imp, v, x, r)


def _cosh(imp, v, x):
    s, c = v.shape, v.dtype
    a = imp.unary("abs", x, s, c)
    e = imp.unary("exp", a, s, c)
    mid = imp.binary("add", imp.binary("mul", e, 0.5, s, c),
                     imp.binary("div", 0.5, e, s, c), s, c)
    return imp.where(imp.compare("lt", s, a, _ln_max(c)), mid,
                     _exp_half_squared(imp, v, a), s, c)


def _large(dtype):
    """Beyond this, sqrt(x^2 +- 1) == x in `dtype`."""
    return 1 / math.sqrt(torch.finfo(dtype).eps)


def _log_twice(imp, v, a):
    """log(2a) without overflowing 2a."""
    return imp.binary("add", imp.unary("log", a, v.shape, v.dtype), math.log(2),
                      v.shape, v.dtype)


def _asinh(imp, v, x):
    # log1p(a + a^2 / (1 + sqrt(1 + a^2))), log(2a) for large a.
    s, c = v.shape, v.dtype
    a = imp.unary("abs", x, s, c)
    a2 = imp.binary("mul", a, a, s, c)
    root = imp.unary("sqrt", imp.binary("add", a2, 1, s, c), s, c)
    r = log1p(imp, v, imp.binary("add", a, imp.binary(
        "div", a2, imp.binary("add", root, 1, s, c), s, c), s, c))
    r = imp.where(imp.compare("lt", s, a, _large(c)), r, _log_twice(imp, v, a), s, c)
    return _odd(imp, v, x, r)


def _acosh(imp, v, x):
    # log1p(t + sqrt(t (x + 1))) with t = x - 1 (exact), log(2x) for
    # large x; NaN below 1 (the square root's).
    s, c = v.shape, v.dtype
    t = imp.binary("sub", x, 1, s, c)
    root = imp.unary("sqrt", imp.binary("mul", t, imp.binary("add", x, 1, s, c), s, c),
                     s, c)
    r = log1p(imp, v, imp.binary("add", t, root, s, c))
    return imp.where(imp.compare("lt", s, x, _large(c)), r, _log_twice(imp, v, x), s, c)


def _atanh(imp, v, x):
    # log1p(2a / (1 - a)) / 2.
    s, c = v.shape, v.dtype
    a = imp.unary("abs", x, s, c)
    q = imp.binary("div", imp.binary("mul", a, 2, s, c),
                   imp.binary("sub", 1, a, s, c), s, c)
    return _odd(imp, v, x, imp.binary("mul", log1p(imp, v, q), 0.5, s, c))


def _hypot(imp, v, x, y):
    # max * sqrt(1 + (min/max)^2): no overflow or underflow of the
    # squares; inf wins over NaN (C's hypot).
    s, c = v.shape, v.dtype
    ax, ay, _, hi, lo = _larger(imp, v, x, y)
    q = imp.binary("div", lo, hi, s, c)
    r = imp.binary("mul", hi, imp.unary("sqrt", imp.binary(
        "add", imp.binary("mul", q, q, s, c), 1, s, c), s, c), s, c)
    r = imp.where(imp.compare("eq", s, hi, 0), 0, r, s, c)
    inf = imp.binary("or", imp.compare("eq", s, ax, math.inf),
                     imp.compare("eq", s, ay, math.inf), s, torch.bool)
    return imp.where(inf, math.inf, r, s, c)


# erfinv(y) = y p(w), w = -log((1 - y)(1 + y)): p of degree 9 in w - 2.5
# where w < 5 (|y| < 0.9966), and in sqrt(w) - 3 up to w = 16.2 (past
# the f32 value next to 1), each fitted by weighted least squares to
# erfinv(y) / y on Chebyshev nodes (2^-27 relative). Highest degree first.
_ERFINV_CENTRAL = [-8.79118325e-09, 2.32327106e-08, 4.66172414e-07, -3.46270557e-06,
                   -4.96335586e-06, 0.000218344443, -0.00125274187, -0.00417738678,
                   0.246640286, 1.50140936]
_ERFINV_TAIL = [0.000125169322, -0.000316562459, -7.08904417e-05, 0.00149340543,
                -0.00358997686, 0.00568399585, -0.0076388164, 0.00944560402,
                1.00167505, 2.8329768]


def _erfinv_polynomial(imp, v, y):
    """(w, y p(w)): the polynomials above, to 2^-27 relative up to w = 16.2."""
    s, c = v.shape, v.dtype
    w = imp.unary("neg", imp.unary("log", imp.binary(
        "mul", imp.binary("sub", 1, y, s, c), imp.binary("add", y, 1, s, c), s, c),
        s, c), s, c)
    central = imp.compare("lt", s, w, 5.0)
    z = imp.where(central, imp.binary("sub", w, 2.5, s, c), imp.binary(
        "sub", imp.unary("sqrt", w, s, c), 3.0, s, c), s, c)
    p = None
    for a, b in zip(_ERFINV_CENTRAL, _ERFINV_TAIL):
        k = imp.where(central, a, b, s, c)
        p = k if p is None else imp.binary("add", imp.binary("mul", p, z, s, c), k, s, c)
    return w, imp.binary("mul", p, y, s, c)


def _erfinv(imp, v, y):
    # (1 - y)(1 + y) keeps 1 - y^2 to an ulp near |y| = 1 (1 - y is
    # exact there); near 0 its absolute error 2^-24 moves p by 2^-26.
    # One polynomial evaluated, its coefficients chosen per element.
    # |y| = 1 gives w = inf (the result y * inf), |y| > 1 and NaN a NaN.
    s, c = v.shape, v.dtype
    if c == torch.float64:
        return _erfinv64(imp, v, y)
    w, r = _erfinv_polynomial(imp, v, y)
    return imp.where(imp.compare("eq", s, w, math.inf),
                     imp.binary("mul", y, math.inf, s, c), r, s, c)


def _erfinv64(imp, v, y):
    # float64: a first guess to 2^-27 relative (the polynomials above,
    # fitted up to w = 16.2; past it, the asymptotic erfc(a) ~
    # e^{-a^2} / (a sqrt(pi)) (1 - 1 / (2a^2)) solved for a by two
    # fixed-point steps, to 4e-5), then three Newton steps on erf(a) = |y|
    # (on erfc(a) = 1 - |y| from |y| = 0.5, where 1 - |y| is exact and erf
    # would cancel), each squaring the error: within an ulp of PyTorch's.
    s, c = v.shape, v.dtype
    a = imp.unary("abs", y, s, c)
    w, guess = _erfinv_polynomial(imp, v, a)
    tail = imp.binary("sub", 1, a, s, c)        # exact from |y| = 0.5 on
    big = imp.unary("neg", imp.unary("log", tail, s, c), s, c)
    r = imp.unary("sqrt", big, s, c)
    for _ in range(2):
        r2 = imp.binary("mul", r, r, s, c)
        r = imp.unary("sqrt", imp.binary("add", imp.binary(
            "sub", big, imp.unary("log", imp.binary("mul", r, math.sqrt(math.pi), s, c), s, c),
            s, c), imp.unary("log", imp.binary("sub", 1, imp.binary("div", 0.5, r2, s, c),
                                               s, c), s, c), s, c), s, c)
    r = imp.where(imp.compare("lt", s, w, 16.0), guess, r, s, c)
    near = imp.compare("lt", s, a, 0.5)
    for _ in range(3):
        residual = imp.where(
            near, imp.binary("sub", imp.unary("erf", r, s, c), a, s, c),
            imp.binary("sub", tail, imp.unary("erfc", r, s, c), s, c), s, c)
        slope = imp.binary("mul", imp.unary("exp", imp.unary("neg", imp.binary(
            "mul", r, r, s, c), s, c), s, c), 2 / math.sqrt(math.pi), s, c)
        r = imp.binary("sub", r, imp.binary("div", residual, slope, s, c), s, c)
    r = imp.where(imp.compare("eq", s, a, 1), math.inf, r, s, c)
    return _odd(imp, v, y, r)


def composed(fn):
    """The lowering of an elementwise function fn(imp, v, *operands),
    computed wide (see widened)."""
    def lower(imp, val, input, other=None):
        return widened(imp, val, fn, *([input] if other is None else [input, other]))
    return lower


register_each(composed, {"atan": _atan, "atan2": _atan2, "asin": _asin, "acos": _acos,
                         "tan": _tan, "sinh": _sinh, "cosh": _cosh, "asinh": _asinh,
                         "acosh": _acosh, "atanh": _atanh, "hypot": _hypot,
                         "erfinv": _erfinv})
