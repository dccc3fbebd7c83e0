"""Reductions: sum, prod, amax, amin, any, all, mean, var and std; min and
max in every form, argmax and argmin; softmax; p-norm distances."""
import math

import torch

from .errors import UnsupportedError
from .registry import lowering, register_each
from .sizes import Sym


# The combining op of each reduction kind.
COMBINE = {"sum": "add", "prod": "mul", "max": "max", "min": "min"}


def identity(kind, dtype):
    """The identity of reduction `kind` in `dtype`."""
    if kind in ("sum", "prod"):
        return 0 if kind == "sum" else 1
    if dtype.is_floating_point:
        return -math.inf if kind == "max" else math.inf
    if dtype == torch.bool:
        return kind == "min"
    info = torch.iinfo(dtype)
    return info.min if kind == "max" else info.max


def reduced_dims(imp, x, dim):
    """(x, dims) of a reduction over `dim` (None or [] is every
    dimension); a 0-dim input reduces as a 1-element vector."""
    if not x.shape:
        x = imp.reshape(x, (1,))
    if dim is None or dim == []:
        return x, list(range(len(x.shape)))
    if isinstance(dim, int):
        dim = [dim]
    return x, sorted({d % len(x.shape) for d in dim})


def reduce_into(imp, kind, val, input, dim, keepdim):
    """The reduction `kind` ("mean", or one of xtensor.reduce: sum, prod,
    max, min, any, all) of input over `dim`, of val's shape and type."""
    # sum and prod of integers and bools are int64 in PyTorch; dtype=
    # asks for another accumulation type: the result's type is the one
    # reduced in.
    x, dims = reduced_dims(imp, imp.cast(input, val.dtype), dim)
    if val.dtype == torch.bool and kind in ("max", "min"):
        kind = "any" if kind == "max" else "all"   # bools' max and min
    y = imp.mean(x, dims, keepdim) if kind == "mean" else imp.reduce(kind, x, dims, keepdim)
    return imp.reshape(y, val.shape)


def reduction(kind):
    """The lowering of an ATen reduction that is xtensor.reduce `kind`."""
    def lower(imp, val, input, dim=None, keepdim=False, dtype=None):
        return reduce_into(imp, kind, val, input, dim, keepdim)
    return lower


register_each(reduction, {"sum": "sum", "prod": "prod", "amax": "max", "amin": "min",
                          "any": "any", "all": "all"})


def _wide(dtype):
    """The type PyTorch accumulates a mean or variance of `dtype` in."""
    return torch.float32 if dtype in (torch.float16, torch.bfloat16) else dtype


def _dynamic_sum_count(imp, x, dims):
    """For a mean or variance over dimensions with a dynamic size: x in
    its accumulation type, its sum over `dims`, kept, and the element
    count, the product of the sizes taken as values (Importer.size_value)
    in that type, of the sum's shape."""
    wide = _wide(x.dtype)
    xw = imp.cast(x, wide)
    # One dimension at a time (a reduction over several dimensions with a
    # dynamic one among them is not lowered to Loop IR).
    total = xw
    for d in sorted(dims, reverse=True):
        total = imp.reduce("sum", total, [d], True)
    count = None
    for d in dims:
        n = imp.size_value(x.shape[d])
        count = n if count is None else imp.binary("mul", count, n, (), torch.int64)
    count = imp.reshape(imp.cast(count, wide), (1,) * len(total.shape))
    return xw, total, count


def _dynamic_mean(imp, val, x, dims):
    """A mean over dimensions with a dynamic size: the sum (in f32 for
    16-bit inputs, as PyTorch accumulates) divided by the element count;
    val's shape and type."""
    _, total, count = _dynamic_sum_count(imp, x, dims)
    y = imp.binary("div", total, imp.broadcast(count, total.shape), total.shape, total.dtype)
    return imp.reshape(imp.cast(y, val.dtype), val.shape)


@lowering("mean")
def mean(imp, val, input, dim=None, keepdim=False, dtype=None):
    x, dims = reduced_dims(imp, input, dim)
    if any(isinstance(x.shape[d], Sym) for d in dims):
        return _dynamic_mean(imp, val, imp.cast(x, val.dtype), dims)
    if math.prod(x.shape[d] for d in dims) == 0:  # PyTorch: 0 / 0
        return imp.const(math.nan, val.shape, val.dtype)
    return reduce_into(imp, "mean", val, input, dim, keepdim)


def _dynamic_var(imp, x, dims, correction):
    """A variance over dimensions with a dynamic size, in x's accumulation
    type and with the reduced dimensions kept: in two passes as the
    float64 reference computes it, the sum of squared deviations from the
    mean divided by max(count - correction, 0) (PyTorch's divisor: a count
    at or below the correction gives inf, or nan where every element is
    equal)."""
    xw, total, count = _dynamic_sum_count(imp, x, dims)
    wide = total.dtype
    mean = imp.binary("div", total, imp.broadcast(count, total.shape), total.shape, wide)
    dev = imp.binary("sub", xw, imp.broadcast(mean, x.shape), x.shape, wide)
    sq = imp.binary("mul", dev, dev, x.shape, wide)
    for d in sorted(dims, reverse=True):
        sq = imp.reduce("sum", sq, [d], True)
    dof = imp.binary("max", imp.binary("sub", count, float(correction), count.shape, wide),
                     0.0, count.shape, wide)
    return imp.binary("div", sq, imp.broadcast(dof, sq.shape), sq.shape, wide)


def _variance(imp, val, input, dim, unbiased, keepdim, correction, root=False):
    """var (or std, its square root: `root`) in every form, computed in
    the accumulation type (f32 for 16-bit inputs, as PyTorch does) and
    rounded once to val's type."""
    x, dims = reduced_dims(imp, input, dim)
    if correction is None:
        correction = 1 if unbiased else 0
    wide = _wide(val.dtype)
    if any(isinstance(x.shape[d], Sym) for d in dims):
        v = _dynamic_var(imp, imp.cast(x, val.dtype), dims, correction)
    else:
        n = math.prod(x.shape[d] for d in dims)
        if n == 0:  # PyTorch: 0 / 0 over no elements
            return imp.const(math.nan, val.shape, val.dtype)
        xw = imp.cast(imp.cast(x, val.dtype), wide)
        whole = float(correction).is_integer() and 0 <= correction < n
        v = imp.var(xw, dims, int(correction) if whole else 0, keepdim)
        if not whole:
            # A fractional or negative correction, or one that leaves no
            # degrees of freedom (PyTorch's inf or nan): the biased
            # variance times n / (n - c).
            scale = n / (n - correction) if n != correction else math.inf
            v = imp.binary("mul", v, scale, v.shape, wide)
    if root:
        v = imp.unary("sqrt", v, v.shape, wide)
    return imp.reshape(imp.cast(v, val.dtype), val.shape)


@lowering("var")
def var(imp, val, input, dim=None, unbiased=True, keepdim=False,
        correction=None):
    return _variance(imp, val, input, dim, unbiased, keepdim, correction)


@lowering("std")
def std(imp, val, input, dim=None, unbiased=True, keepdim=False,
        correction=None):
    return _variance(imp, val, input, dim, unbiased, keepdim, correction, root=True)


@lowering("var_mean")
def var_mean(imp, val, input, dim=None, unbiased=True, keepdim=False,
             correction=None):
    return [var(imp, val[0], input, dim, unbiased, keepdim, correction),
            mean(imp, val[1], input, dim, keepdim)]


def _min_max(imp, kind, val, input, other=None, dim=None, keepdim=False):
    """min/max in every form: elementwise with `other`, over `dim`
    with indices, or over everything."""
    if other is not None:
        return imp.binary(kind, input, other, val.shape, val.dtype)
    if dim is not None:
        return _extreme_dim(imp, kind, val, input, dim, keepdim)
    return reduce_into(imp, kind, val, input, None, False)


@lowering("min")
def min_(imp, val, input, other=None, dim=None, keepdim=False):
    return _min_max(imp, "min", val, input, other, dim, keepdim)


@lowering("max")
def max_(imp, val, input, other=None, dim=None, keepdim=False):
    return _min_max(imp, "max", val, input, other, dim, keepdim)


def arg_extreme(imp, kind, x, d, keepdim, dtype=torch.int64):
    """The index of the first maximum (kind "max") or minimum along d:
    the smallest position whose element equals the reduced value."""
    if x.dtype == torch.bool:   # as 0 and 1 (xtensor compares no bools)
        top, first = arg_extreme(imp, kind, imp.cast(x, torch.int32), d, keepdim, dtype)
        return imp.cast(top, torch.bool), first
    top = imp.reduce(kind, x, [d], keepdim=True)
    hit = imp.compare("eq", x.shape, x, imp.broadcast(top, x.shape))
    pos = imp.iota(x.shape, d)
    far = imp.const(x.shape[d], x.shape, torch.int64)
    cand = imp.where(hit, pos, far, x.shape, torch.int64)
    first = imp.reduce("min", cand, [d], keepdim)
    return top, imp.cast(first, dtype)


def _extreme_dim(imp, kind, val, input, dim, keepdim):
    x = input if input.shape else imp.reshape(input, (1,))
    d = dim % len(x.shape)
    values = reduce_into(imp, kind, val[0], x, [d], keepdim)
    _, indices = arg_extreme(imp, kind, x, d, keepdim)
    return [values, imp.reshape(indices, val[1].shape)]


def _arg(imp, kind, val, input, dim=None, keepdim=False):
    x = input
    if dim is None:
        x, d = imp.reshape(x, (max(1, math.prod(x.shape)),)), 0
    else:
        x = x if x.shape else imp.reshape(x, (1,))
        d = dim % len(x.shape)
    _, indices = arg_extreme(imp, kind, x, d, keepdim)
    return imp.reshape(indices, val.shape)


@lowering("argmax")
def argmax(imp, val, input, dim=None, keepdim=False):
    return _arg(imp, "max", val, input, dim, keepdim)


@lowering("argmin")
def argmin(imp, val, input, dim=None, keepdim=False):
    return _arg(imp, "min", val, input, dim, keepdim)


def _softmax(imp, op, val, input, dim):
    x = imp.cast(input, val.dtype)
    if not x.shape:
        x = imp.reshape(x, (1,))
    return imp.reshape(imp.softmax(op, x, dim % len(x.shape)), val.shape)


@lowering("softmax", "_softmax")
def softmax(imp, val, input, dim, dtype=None, half_to_float=False):
    return _softmax(imp, "softmax", val, input, dim)


@lowering("log_softmax", "_log_softmax")
def log_softmax(imp, val, input, dim, dtype=None, half_to_float=False):
    return _softmax(imp, "log_softmax", val, input, dim)


@lowering("fused_cross_entropy")
def fused_cross_entropy(imp, val, input, target, ignore_index, reduction):
    """xtile::fused_cross_entropy (xtile/cross_entropy.py): the loss and
    the gradient of the rows' losses, softmax - one_hot, from one
    log-sum-exp per row."""
    from .indexing import take
    loss_type, grad_type = val[0].dtype, val[1].dtype
    n, c = input.shape
    shape, rows = (n, c), (n,)
    # The row statistics as [n] (not [n, 1]): the row kernel that writes
    # the gradient then writes the log-sum-exp beside it for the loss's
    # kernel (Loop IR's statistic written beside the row).
    spread = lambda v: imp.broadcast(imp.reshape(v, (n, 1)), shape)
    x = imp.cast(input, loss_type)
    high = imp.reduce("max", x, [1])
    shifted = imp.binary("sub", x, spread(high), shape, loss_type)
    total = imp.reduce("sum", imp.unary("exp", shifted, shape, loss_type), [1])
    lse = imp.binary("add", imp.unary("log", total, rows, loss_type), high, rows, loss_type)
    valid = imp.compare("ne", rows, target, ignore_index)
    t = imp.where(valid, target, 0, rows, torch.int64)
    picked = take(imp, x, [imp.iota(rows, 0), t], rows)  # x[i, t[i]]
    losses = imp.where(valid, imp.binary("sub", lse, picked, rows, loss_type), 0, rows,
                       loss_type)
    hot = imp.compare("eq", shape, imp.iota(shape, 1), spread(t))
    grad = imp.binary("sub", imp.unary("exp", imp.binary("sub", x, spread(lse),
                                                         shape, loss_type),
                                       shape, loss_type),
                      imp.cast(hot, loss_type), shape, loss_type)
    if reduction == "mean":
        count = imp.reduce("sum", imp.cast(valid, loss_type), [0])
        loss = imp.binary("div", imp.reduce("sum", losses, [0]), count, (), loss_type)
    else:
        loss = imp.reduce("sum", losses, [0]) if reduction == "sum" else losses
    grad = imp.where(spread(valid), grad, 0, shape, loss_type)
    return [loss, imp.cast(grad, grad_type)]


@lowering("_cdist_forward")
def cdist(imp, val, x1, x2, p, compute_mode=None):
    # Every difference, reduced: exact where PyTorch's matrix-product
    # form for p = 2 cancels.
    shape, dtype = tuple(val.shape), val.dtype
    m = x1.shape[-1]
    wide = shape + (m,)
    a = imp.broadcast(imp.reshape(x1, x1.shape[:-1] + (1, m)), wide)
    b = imp.broadcast(imp.reshape(x2, x2.shape[:-2] + (1,) + x2.shape[-2:]), wide)
    return _p_norm(imp, imp.binary("sub", a, b, wide, dtype), p, val)


@lowering("_pdist_forward")
def pdist(imp, val, input, p=2):
    # The distances of the rows i < j, pair t in row-major order of
    # (i, j): row i's pairs start at s(i) = i (2n - i - 1) / 2, so i is
    # the number of rows r >= 1 with s(r) <= t, and j = t - s(i) + i + 1.
    n, m = input.shape
    pairs = n * (n - 1) // 2
    if not pairs:
        return imp.fill(val, 0)
    i64 = torch.int64

    def start(r, shape):
        twice = imp.binary("mul", r, imp.binary("sub", 2 * n - 1, r, shape, i64), shape, i64)
        return imp.binary("div", twice, 2, shape, i64)
    wide = (pairs, n - 1)
    r = imp.binary("add", imp.iota(wide, 1), 1, wide, i64)
    t = imp.iota(wide, 0)
    below = imp.cast(imp.compare("le", wide, start(r, wide), t), i64)
    i = imp.reduce("sum", below, [1])
    j = imp.binary("add", imp.binary("sub", imp.iota((pairs,), 0), start(i, (pairs,)),
                                     (pairs,), i64), imp.binary("add", i, 1, (pairs,), i64),
                   (pairs,), i64)
    d = imp.binary("sub", imp.gather(input, i, 0), imp.gather(input, j, 0),
                   (pairs, m), val.dtype)
    return _p_norm(imp, d, p, val)


def _p_norm(imp, d, p, val):
    """The p-norm of d over its last dimension, of val's shape."""
    shape, dtype = tuple(val.shape), val.dtype

    def reduce(kind, t):
        return imp.reduce(kind, t, [len(d.shape) - 1])
    a = imp.unary("abs", d, d.shape, dtype)
    if p == 0:
        return reduce("sum", imp.cast(imp.compare("ne", d.shape, d, 0), dtype))
    if p == 1:
        return reduce("sum", a)
    if math.isinf(p):
        return reduce("max", a)
    if p == 2:
        return imp.unary("sqrt", reduce("sum", imp.binary("mul", d, d, d.shape, dtype)),
                         shape, dtype)
    return imp.binary("pow", reduce("sum", imp.binary("pow", a, p, d.shape, dtype)),
                      1 / p, shape, dtype)


@lowering("histc")
def histc(imp, val, input, bins=100, min=0, max=0):
    """Counts per bin, as a masked count over (bin, element) pairs: O(bins
    n) work. An element's bin is PyTorch's, (x - min) * bins / (max - min)
    truncated, max in the last bin; elements outside [min, max] and NaN
    are not counted. (16-bit inputs are computed in f32 without rounding
    each step as PyTorch does: a value within an ulp of an edge may fall in
    the next bin.) A range taken from the data (min = max) is not
    supported."""
    if not min < max:
        raise UnsupportedError(f"operator {imp.what} with min >= max (a range taken "
                               "from the data) is not supported")
    n = math.prod(input.shape)
    x = imp.reshape(input, (n,))
    dt = x.dtype
    pos = x
    for op, by in (("sub", min), ("mul", bins), ("div", max - min)):
        pos = imp.binary(op, pos, by, (n,), dt)
    # Truncation is the floor for the elements counted (x >= min); an
    # integer input (expert ids, as transformers counts them on a GPU) is
    # divided in integers, truncated already.
    if dt.is_floating_point:
        pos = imp.unary("floor", pos, (n,), dt)
    pos = imp.binary("min", imp.cast(pos, torch.int64), bins - 1, (n,), torch.int64)
    counted = imp.binary("and", imp.compare("ge", (n,), x, min),
                         imp.compare("le", (n,), x, max), (n,), torch.bool)
    pairs = (bins, n)
    hit = imp.binary("and", imp.compare("eq", pairs, imp.iota(pairs, 0),
                                        imp.broadcast(imp.reshape(pos, (1, n)), pairs)),
                     imp.broadcast(imp.reshape(counted, (1, n)), pairs), pairs, torch.bool)
    return imp.reduce("sum", imp.where(hit, 1.0, 0.0, pairs, val.dtype), [1])
