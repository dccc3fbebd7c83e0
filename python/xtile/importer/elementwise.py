"""Elementwise lowerings: arithmetic, comparisons, logic, selection,
clamps, activations, conversions, and the creation of constant and iota
tensors."""
import math

import torch

from .errors import UnsupportedError
from .ir import Value
from .registry import lowering, register_each
from .sizes import Shape


@lowering("add")
def add(imp, val, input, other, alpha=1):
    if val.dtype == torch.bool:  # and their sum their or
        return imp.binary("or", input, other, val.shape, val.dtype)
    if alpha != 1:
        other = imp.binary("mul", other, alpha, val.shape, val.dtype)
    return imp.binary("add", input, other, val.shape, val.dtype)


@lowering("sub")
def sub(imp, val, input, other, alpha=1):
    if alpha != 1:
        other = imp.binary("mul", other, alpha, val.shape, val.dtype)
    return imp.binary("sub", input, other, val.shape, val.dtype)


@lowering("rsub")
def rsub(imp, val, input, other, alpha=1):
    return sub(imp, val, other, input, alpha)


@lowering("mul")
def mul(imp, val, input, other):
    if val.dtype == torch.bool:  # PyTorch's product of bools is their and
        return imp.binary("and", input, other, val.shape, val.dtype)
    return imp.binary("mul", input, other, val.shape, val.dtype)


@lowering("div")
def div(imp, val, input, other, rounding_mode=None):
    if rounding_mode not in (None, "trunc", "floor"):
        raise UnsupportedError(f"div with rounding_mode={rounding_mode!r} is not supported")
    if rounding_mode is None:
        if not val.dtype.is_floating_point:
            raise UnsupportedError(f"div with a {val.dtype} result is not supported")
        return imp.binary("div", input, other, val.shape, val.dtype)
    if val.dtype in (torch.float16, torch.bfloat16):
        # The quotient in f32 (PyTorch's), rounded after the floor or
        # truncation: a 16-bit quotient can round across an integer.
        wide = div(imp, Shape(val.shape, torch.float32),
                   imp.operand(input, val.shape, torch.float32),
                   imp.operand(other, val.shape, torch.float32), rounding_mode)
        return imp.cast(wide, val.dtype)
    shape, dtype = val.shape, val.dtype
    a = imp.operand(input, shape, dtype)
    b = imp.operand(other, shape, dtype)
    q = imp.binary("div", a, b, shape, dtype)  # integers: truncated
    zero = imp.const(0, shape, dtype)
    if dtype.is_floating_point:
        if rounding_mode == "floor":
            return imp.unary("floor", q, shape, dtype)
        neg = imp.compare("lt", val.shape, q, zero)
        up, down = imp.unary("ceil", q, shape, dtype), imp.unary("floor", q, shape, dtype)
        return imp.where(neg, up, down, val.shape, val.dtype)
    if rounding_mode == "trunc":
        return q
    # Integer floor division: one less than the truncated quotient when
    # the division is inexact and the signs differ.
    r = imp.binary("rem", a, b, shape, dtype)
    inexact = imp.compare("ne", val.shape, r, zero)
    signs = imp.binary("xor", imp.compare("lt", val.shape, r, zero),
                       imp.compare("lt", val.shape, b, zero), shape, torch.bool)
    fix = imp.binary("and", inexact, signs, shape, torch.bool)
    return imp.where(fix, imp.binary("sub", q, 1, shape, dtype), q, val.shape, val.dtype)


@lowering("maximum")
def maximum(imp, val, input, other):
    return imp.binary("max", input, other, val.shape, val.dtype)


@lowering("minimum")
def minimum(imp, val, input, other):
    return imp.binary("min", input, other, val.shape, val.dtype)


def _ignoring_nan(kind):
    """fmax / fmin: the maximum (minimum) of two elements, or the one that
    is not NaN where the other is (NaN where both are)."""
    def lower(imp, val, input, other):
        shape, dtype = val.shape, val.dtype
        a = imp.operand(input, shape, dtype)
        b = imp.operand(other, shape, dtype)
        m = imp.binary(kind, a, b, shape, dtype)
        if not dtype.is_floating_point:
            return m
        return imp.where(imp.compare("ne", shape, a, a), b, imp.where(
            imp.compare("ne", shape, b, b), a, m, shape, dtype), shape, dtype)
    return lower


register_each(_ignoring_nan, {"fmax": "max", "fmin": "min"})


@lowering("relu")
def relu(imp, val, input):
    return imp.binary("max", input, 0, val.shape, val.dtype)


@lowering("pow")
def pow_(imp, val, input, exponent):
    if isinstance(exponent, (int, float)) and isinstance(input, Value):
        if exponent == 2:
            return imp.binary("mul", input, input, val.shape, val.dtype)
        if exponent == 1:
            return imp.operand(input, val.shape, val.dtype)
        if val.dtype.is_floating_point:
            if exponent == 0.5:
                return imp.unary("sqrt", input, val.shape, val.dtype)
            if exponent == -0.5:
                return imp.unary("rsqrt", input, val.shape, val.dtype)
            if exponent == -1:
                return imp.unary("reciprocal", input, val.shape, val.dtype)
    return imp.binary("pow", input, exponent, val.shape, val.dtype)


@lowering("fmod")
def fmod(imp, val, input, other):
    return imp.binary("rem", input, other, val.shape, val.dtype)


@lowering("remainder")
def remainder(imp, val, input, other):
    # Python's modulo: the sign of the divisor.
    shape, dtype = val.shape, val.dtype
    b = imp.operand(other, shape, dtype)
    r = imp.binary("rem", input, b, shape, dtype)
    fix = imp.binary("and", imp.compare("ne", val.shape, r, 0),
                     imp.binary("xor", imp.compare("lt", val.shape, r, 0),
                                imp.compare("lt", val.shape, b, 0), shape, torch.bool),
                     shape, torch.bool)
    return imp.where(fix, imp.binary("add", r, b, shape, dtype), r, val.shape, val.dtype)


def _shift(imp, val, input, other, left):
    if isinstance(other, Value) or not isinstance(other, int):
        raise UnsupportedError("bit shifts by a tensor of amounts are not supported "
                               "(only by a constant)")
    if val.dtype.is_floating_point or val.dtype == torch.bool:
        raise UnsupportedError(f"bit shifts of {val.dtype} are not supported")
    bits = torch.iinfo(val.dtype).bits
    if not 0 <= other < bits:
        raise UnsupportedError(f"a bit shift by {other} of {val.dtype} is not supported")
    if left:  # a product by 2^other (in two's complement) wraps as the shift
        factor = (1 << other) - (1 << bits if other == bits - 1 else 0)
        return imp.binary("mul", input, factor, val.shape, val.dtype)
    if other == bits - 1 and val.dtype.is_signed:  # the sign
        return imp.where(imp.compare("lt", val.shape, input, 0), -1, 0, val.shape, val.dtype)
    # Arithmetic right shift: division rounded down.
    return div(imp, val, input, 1 << other, rounding_mode="floor")


@lowering("__lshift__", "bitwise_left_shift")
def lshift(imp, val, input, other):
    return _shift(imp, val, input, other, True)


@lowering("__rshift__", "bitwise_right_shift")
def rshift(imp, val, input, other):
    return _shift(imp, val, input, other, False)


def unary(op):
    """The lowering of an ATen operator that is Tensor IR's `op`."""
    def lower(imp, val, input):
        return imp.unary(op, input, val.shape, val.dtype)
    return lower


def comparison(pred):
    """The lowering of the ATen comparison `pred` (eq, lt, ...)."""
    def lower(imp, val, input, other):
        return imp.compare(pred, val.shape, input, other)
    return lower


# The ATen operators of one name with Tensor IR, and the comparisons.
register_each(unary, ["neg", "abs", "exp", "exp2", "log", "log2", "sqrt", "rsqrt",
                      "reciprocal", "sin", "cos", "tanh", "erf", "erfc", "sigmoid",
                      "floor", "ceil"])
register_each(comparison, ["eq", "ne", "lt", "le", "gt", "ge"])


@lowering("where")
def where(imp, val, condition, input, other):
    return imp.where(condition, input, other, val.shape, val.dtype)


@lowering("masked_fill")
def masked_fill(imp, val, input, mask, value):
    return imp.where(mask, value, input, val.shape, val.dtype)


@lowering("isnan")
def isnan(imp, val, input):
    return imp.compare("ne", val.shape, input, input)


@lowering("isinf")
def isinf(imp, val, input):
    if not input.dtype.is_floating_point:
        return imp.fill(val, False)
    return imp.compare("eq", val.shape, imp.unary("abs", input, input.shape, input.dtype),
                       math.inf)


def bitwise(op):
    """The lowering of bitwise_`op` (and, or, xor, not) of integers and
    bools."""
    def lower(imp, val, input, other=None):
        if val.dtype.is_floating_point:
            raise UnsupportedError(f"bitwise {op} on {val.dtype}")
        if other is None:
            return imp.unary(op, input, val.shape, val.dtype)
        return imp.binary(op, input, other, val.shape, val.dtype)
    return lower


def _as_bool(imp, x, shape):
    return imp.broadcast(imp.cast(x, torch.bool) if isinstance(x, Value)
                         else imp.const(bool(x), shape, torch.bool), shape)


def logical(op):
    """The lowering of logical_`op` (and, or, xor, not): of the operands
    as bools."""
    def lower(imp, val, input, other=None):
        a = _as_bool(imp, input, val.shape)
        if other is None:
            return imp.unary(op, a, val.shape, torch.bool)
        return imp.binary(op, a, _as_bool(imp, other, val.shape), val.shape, torch.bool)
    return lower


register_each(bitwise, {"bitwise_and": "and", "bitwise_or": "or", "bitwise_xor": "xor",
                        "bitwise_not": "not"})
register_each(logical, {"logical_and": "and", "logical_or": "or", "logical_xor": "xor",
                        "logical_not": "not"})


@lowering("clamp")
def clamp(imp, val, input, min=None, max=None):
    y = imp.operand(input, val.shape, val.dtype)
    if min is not None:
        y = imp.binary("max", y, min, val.shape, val.dtype)
    if max is not None:
        y = imp.binary("min", y, max, val.shape, val.dtype)
    return y


@lowering("clamp_min")
def clamp_min(imp, val, input, min):
    return clamp(imp, val, input, min=min)


@lowering("clamp_max")
def clamp_max(imp, val, input, max):
    return clamp(imp, val, input, max=max)


@lowering("hardtanh")
def hardtanh(imp, val, input, min_val=-1, max_val=1):
    return clamp(imp, val, input, min_val, max_val)


@lowering("leaky_relu")
def leaky_relu(imp, val, input, negative_slope=0.01):
    x = imp.operand(input, val.shape, val.dtype)
    return imp.where(imp.compare("gt", val.shape, x, 0), x,
                     imp.binary("mul", x, negative_slope, val.shape, val.dtype),
                     val.shape, val.dtype)


@lowering("gelu")
def gelu(imp, val, input, approximate="none"):
    if approximate not in ("none", "tanh"):
        raise UnsupportedError(f"gelu with approximate={approximate!r} is not supported")
    kind = "tanh" if approximate == "tanh" else "erf"
    return imp.activation(f"gelu {kind}", input, val.shape, val.dtype)


@lowering("silu")
def silu(imp, val, input):
    return imp.activation("silu", input, val.shape, val.dtype)


@lowering("_to_copy", "to", "type_as")
def convert(imp, val, input, **unused):
    return imp.cast(input, val.dtype)


@lowering("copy")
def copy(imp, val, input, src, non_blocking=False):
    # The functional form of `input.copy_(src)`: src in input's shape
    # and type.
    return imp.operand(src, val.shape, val.dtype)


@lowering("fill")
def fill(imp, val, input, value):
    return imp.operand(value, val.shape, val.dtype)


@lowering("full")
def full(imp, val, size, fill_value, **unused):
    return imp.fill(val, fill_value)


@lowering("full_like")
def full_like(imp, val, input, fill_value, **unused):
    return imp.fill(val, fill_value)


@lowering("new_full")
def new_full(imp, val, input, size, fill_value, **unused):
    return imp.fill(val, fill_value)


@lowering("scalar_tensor")
def scalar_tensor(imp, val, s, **unused):
    return imp.fill(val, s)


def splat(value):
    """The lowering of a creation op whose elements are all `value`."""
    def lower(imp, val, *args, **kwargs):
        return imp.fill(val, value)
    return lower


# empty*: any contents will do; zeros are deterministic.
lowering("zeros", "empty", "new_zeros", "new_empty", "zeros_like", "empty_like",
         "empty_permuted", "empty_strided", "new_empty_strided")(splat(0))
lowering("ones", "new_ones", "ones_like")(splat(1))


@lowering("arange")
def arange(imp, val, end, start=0, step=1, **unused):
    # start + step * i: in int64, or for floats in f64 (as PyTorch
    # computes it), rounded once to the result's type.
    i = imp.iota(val.shape, 0, torch.float64 if val.dtype.is_floating_point
                 else torch.int64)
    if step != 1:
        i = imp.binary("mul", i, step, val.shape, i.dtype)
    if start != 0:
        i = imp.binary("add", i, start, val.shape, i.dtype)
    return imp.cast(i, val.dtype)


def _triangle(imp, val, input, diagonal, keep):
    """tril/triu: the elements with col - row `keep`s diagonal."""
    x = input
    rank = len(x.shape)
    rows = imp.iota(x.shape, rank - 2)
    cols = imp.iota(x.shape, rank - 1)
    offset = imp.binary("sub", cols, rows, x.shape, torch.int64)
    mask = imp.compare(keep, val.shape, offset, diagonal)
    return imp.where(mask, x, 0, val.shape, val.dtype)


@lowering("tril")
def tril(imp, val, input, diagonal=0):
    return _triangle(imp, val, input, diagonal, "le")


@lowering("triu")
def triu(imp, val, input, diagonal=0):
    return _triangle(imp, val, input, diagonal, "ge")
