"""Scans: cumsum, cumprod, cummax, cummin, logcumsumexp, as blocked
masked reductions (docs/Frontend.md says why), and diff, their inverse.
Sorting and selection are in selection.py."""
import math

import torch

from .libm import widened
from .reductions import COMBINE, identity
from .registry import lowering
from .sizes import Sym


# Elements per block of a blocked scan.
SCAN_BLOCK = 32


def _masked_scan(imp, kind, x, d):
    """The inclusive scan of x along d as a masked reduction, out[i] =
    reduce of x[j] for j <= i: O(n^2) work over the n elements of d,
    one fused kernel."""
    n = x.shape[d]
    wide = x.shape[:d] + (n, n) + x.shape[d + 1:]
    xb = imp.broadcast(imp.reshape(x, x.shape[:d] + (1, n) + x.shape[d + 1:]), wide)
    keep = imp.compare("le", wide, imp.iota(wide, d + 1), imp.iota(wide, d))
    none = imp.const(identity(kind, x.dtype), wide, x.dtype)
    return imp.reduce(kind, imp.where(keep, xb, none, wide, x.dtype), [d + 1])


def scan(imp, kind, x, d):
    """The inclusive scan (kind "sum", "prod", "max", "min") of x along d, blocked:
    masked scans within blocks of 32, the scan of the blocks' totals
    (recursively), combined. About 33 n work for n elements instead of
    n^2, in one kernel per level. Along a dynamic size, whose blocks would
    be a size of their own (T / 32), the masked scan: one kernel, n^2 / 2
    work over n elements read once."""
    n, b = x.shape[d], SCAN_BLOCK
    if isinstance(n, Sym) or n <= 2 * b:
        return _masked_scan(imp, kind, x, d)
    blocks = -(-n // b)
    low, high = [0] * len(x.shape), [0] * len(x.shape)
    high[d] = blocks * b - n
    xp = imp.pad(x, low, high, identity(kind, x.dtype))
    split = x.shape[:d] + (blocks, b) + x.shape[d + 1:]
    xs = imp.reshape(xp, split)
    local = _masked_scan(imp, kind, xs, d + 1)
    tshape = x.shape[:d] + (blocks,) + x.shape[d + 1:]
    totals = imp.reduce(kind, xs, [d + 1])
    inclusive = scan(imp, kind, totals, d)
    # The exclusive scan of the totals: shifted by one block.
    ends = list(tshape)
    ends[d] = blocks - 1
    before = imp.slice(inclusive, [0] * len(tshape), ends, tuple(ends))
    low[d], high[d] = 1, 0
    before = imp.pad(before, low, [0] * len(tshape), identity(kind, x.dtype))
    carry = imp.broadcast(imp.reshape(before, x.shape[:d] + (blocks, 1) + x.shape[d + 1:]),
                          split)
    out = imp.binary(COMBINE[kind], local, carry, split, x.dtype)
    out = imp.reshape(out, xp.shape)
    if blocks * b == n:
        return out
    return imp.slice(out, [0] * len(x.shape), list(x.shape), x.shape)


def _cumulative(imp, kind, val, input, dim):
    x = imp.cast(input, val.dtype)
    if not x.shape or math.prod(x.shape) == 0:
        return x
    return scan(imp, kind, x, dim % len(x.shape))


@lowering("cumsum")
def cumsum(imp, val, input, dim, dtype=None):
    # docs/Frontend.md says why a scan is imported this way.
    return _cumulative(imp, "sum", val, input, dim)


@lowering("cumprod")
def cumprod(imp, val, input, dim, dtype=None):
    return _cumulative(imp, "prod", val, input, dim)


def _cumulative_extreme(imp, kind, val, input, dim):
    # The running extreme, and the last position where it was reached
    # (PyTorch's >= / <=): the running maximum of the positions whose
    # element equals the running extreme there.
    x = input if input.shape else imp.reshape(input, (1,))
    if math.prod(x.shape) == 0:
        return [input, imp.fill(val[1], 0)]
    d = dim % len(x.shape)
    values = scan(imp, kind, x, d)
    at = imp.where(imp.compare("eq", x.shape, x, values),
                   imp.iota(x.shape, d), -1, x.shape, torch.int64)
    index = scan(imp, "max", at, d)
    return [imp.reshape(values, val[0].shape), imp.reshape(index, val[1].shape)]


@lowering("cummax")
def cummax(imp, val, input, dim):
    return _cumulative_extreme(imp, "max", val, input, dim)


@lowering("cummin")
def cummin(imp, val, input, dim):
    return _cumulative_extreme(imp, "min", val, input, dim)


@lowering("logcumsumexp")
def logcumsumexp(imp, val, input, dim):
    # m_i + log(sum_{j <= i} e^(x_j - m_i)) with m_i the running
    # maximum, as masked reductions (O(n^2) over the scanned dimension).
    def lcse(imp, v, x):
        s, c = v.shape, v.dtype
        if not s or math.prod(s) == 0:
            return x
        d = dim % len(s)
        n = s[d]
        m = scan(imp, "max", x, d)
        wide = s[:d] + (n, n) + s[d + 1:]
        xb = imp.broadcast(imp.reshape(x, s[:d] + (1, n) + s[d + 1:]), wide)
        mb = imp.broadcast(imp.reshape(m, s[:d] + (n, 1) + s[d + 1:]), wide)
        keep = imp.compare("le", wide, imp.iota(wide, d + 1), imp.iota(wide, d))
        finite = imp.compare("ne", wide, imp.unary("abs", mb, wide, c), math.inf)
        e = imp.unary("exp", imp.binary("sub", xb, mb, wide, c), wide, c)
        e = imp.where(imp.binary("and", keep, finite, wide, torch.bool), e, 0, wide, c)
        total = imp.reduce("sum", e, [d + 1])
        r = imp.binary("add", m, imp.unary("log", total, s, c), s, c)
        # An infinite running maximum is the result (-inf: nothing yet).
        return imp.where(imp.compare("eq", s, imp.unary("abs", m, s, c), math.inf), m, r, s, c)
    return widened(imp, val, lcse, input)


@lowering("diff")
def diff(imp, val, input, n=1, dim=-1, prepend=None, append=None):
    """out[i] = x[i + 1] - x[i] along dim, n times, over prepend, input
    and append concatenated (logical xor for bool). Along a dynamic size,
    where the concatenation would be a size of its own (T + 1), the
    first-order difference with one element prepended (Hugging Face's
    packed-sequence positions) is x[i] - x[i - 1], x[-1] the prepended
    element: a gather of the input shifted by one, no concatenation."""
    d = dim % len(input.shape)
    sub = "xor" if val.dtype == torch.bool else "sub"
    if (isinstance(input.shape[d], Sym) and n == 1 and append is None
            and prepend is not None and prepend.shape[d] == 1):
        shape = input.shape
        before = imp.binary("sub", imp.iota((shape[d],), 0), 1, (shape[d],), torch.int64)
        before = imp.binary("max", before, 0, before.shape, torch.int64)
        shifted = imp.gather(input, before, d)
        first = imp.compare("eq", shape, imp.iota(shape, d), 0)
        previous = imp.where(first, imp.broadcast(prepend, shape), shifted, shape,
                             input.dtype)
        return imp.binary(sub, input, previous, shape, val.dtype)
    if (isinstance(input.shape[d], Sym) and n == 1 and prepend is None
            and append is None):
        # x[1:] - x[:-1] over a size expression (T - 1): slices to limits
        # counted from the end.
        shape = tuple(val.shape)
        starts = [0] * len(shape)
        ends = list(input.shape)
        ends[d] = -1
        later = imp.slice(input, starts[:d] + [1] + starts[d + 1:], ends, shape)
        ends[d] = -2
        earlier = imp.slice(input, starts, ends, shape)
        return imp.binary(sub, later, earlier, shape, val.dtype)
    parts = [t for t in (prepend, input, append) if t is not None]
    x = input
    if len(parts) > 1:
        size = sum(t.shape[d] for t in parts)
        x = imp.concat(parts, d, input.shape[:d] + (size,) + input.shape[d + 1:],
                       input.dtype)
    for _ in range(n):
        m = x.shape[d] - 1
        if m <= 0:
            break
        shape = x.shape[:d] + (m,) + x.shape[d + 1:]
        starts = [0] * len(shape)
        later = imp.slice(x, starts[:d] + [1] + starts[d + 1:],
                          list(x.shape), shape)
        earlier = imp.slice(x, starts, list(shape), shape)
        x = imp.binary(sub, later, earlier, shape, val.dtype)
    if x.shape != tuple(val.shape):  # n at least the length: empty
        return imp.const(0, val.shape, val.dtype)
    return x
