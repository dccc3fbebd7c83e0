"""Selection and sorting: topk, kthvalue, sort (argsort, msort), median
and nanmedian (docs/Frontend.md, "Selection and sorting").

Tensor IR has no sort. Two forms, both in the order PyTorch ranks by: the
larger value first (topk's default; the smaller with largest=False, for
kthvalue and ascending sorts), NaN above every number, equal values by
ascending index.

- Rounds (topk and kthvalue with k <= MAX_ROUNDS): round r picks the best
  element of the row that comes after round r-1's, by two row reductions
  (the best value left, then the first index holding it) over elements
  that stay in registers, so the k rounds fuse into one row kernel that
  reads the row once: O(k n) work, as MoE routers take 1 to 8 of 8 to 256
  experts.
- Ranks (sort, medians, larger k): each element's rank is the number of
  elements that precede it (a reduction over pairs), and the element of
  rank r is found by a second one: O(n^2) work in two row kernels, for
  rows up to MAX_SORT elements. A longer row needs a sorting network or a
  radix sort, which xtile does not have: an UnsupportedError says so.
- Counting, for a sort of one row of integers known to lie in [0, R)
  with R <= MAX_COUNTING_RANGE (topk's indices: an MoE layer sorting its
  (token, expert) pairs by expert): the running count of each value (a
  scan of the row's one-hot [n, R]), each value's first position (the
  counts' running sum), and for each position the element that goes
  there, found by a binary search of its value's running count: O(n R +
  n log n) work, any n. The sort's indices carry their inverse (each
  element's position), so scattering by them (`inv[perm] = arange(n)`)
  is a gather.

The values are then read back at the selected indices (a gather that
fuses with their consumer). mode has no lowering."""
import math

import torch

from .errors import UnsupportedError
from .indexing import take
from .registry import lowering

# The most rounds a selection is written as; beyond it, ranks.
MAX_ROUNDS = 16
# The longest row ranked (n^2 comparisons per row).
MAX_SORT = 8192
# The widest range of integers sorted by counting (an [n, R] running count).
MAX_COUNTING_RANGE = 1024


def _precedes(imp, a, ia, b, ib, shape, largest):
    """Whether element (a, ia) comes before (b, ib) in PyTorch's order
    (all four broadcast to `shape`): the better value first (the larger
    when `largest`), NaN above every number and NaNs equal to each other,
    equal values by ascending index."""
    bool_ = torch.bool
    a, b = imp.broadcast(a, shape), imp.broadcast(b, shape)
    better = imp.compare("gt" if largest else "lt", shape, a, b)
    same = imp.compare("eq", shape, a, b)
    if a.dtype.is_floating_point:
        anan = imp.compare("ne", shape, a, a)
        bnan = imp.compare("ne", shape, b, b)
        # NaN ranks above every number: first when the largest go first.
        hi, lo = (anan, bnan) if largest else (bnan, anan)
        better = imp.binary("or", better, imp.binary(
            "and", hi, imp.unary("not", lo, shape, bool_), shape, bool_), shape, bool_)
        same = imp.binary("or", same, imp.binary("and", anan, bnan, shape, bool_),
                          shape, bool_)
    earlier = imp.compare("lt", shape, imp.broadcast(ia, shape), imp.broadcast(ib, shape))
    return imp.binary("or", better, imp.binary("and", same, earlier, shape, bool_),
                      shape, bool_)


class _Order:
    """The order of a row's elements for one selection, in Tensor IR."""

    def __init__(self, imp, x, d, largest):
        self.imp, self.x, self.d, self.largest = imp, x, d, largest
        shape, self.shape = x.shape, x.shape
        self.float = x.dtype.is_floating_point
        self.pos = imp.iota(shape, d)
        self.nan = (imp.compare("ne", shape, x, x) if self.float else None)

    def _nan(self, v):
        return self.imp.compare("ne", self.shape, v, v)

    def after(self, value, index):
        """Whether each element comes after (value, index), both
        broadcast along d."""
        return _precedes(self.imp, value, index, self.x, self.pos, self.shape,
                         self.largest)

    def best(self, left):
        """The best element among those `left` (a mask along d), and the
        first index holding it, both keepdim."""
        imp, x, d, shape = self.imp, self.x, self.d, self.shape
        kind = "max" if self.largest else "min"
        if self.float:
            fill = -math.inf if self.largest else math.inf
        elif x.dtype == torch.bool:
            fill = not self.largest
        else:
            info = torch.iinfo(x.dtype)
            fill = info.min if self.largest else info.max
        if self.float:
            numbers = imp.binary("and", left, imp.unary("not", self.nan, shape, torch.bool),
                                 shape, torch.bool)
            top = imp.reduce(kind, imp.where(numbers, x, fill, shape, x.dtype), [d],
                             keepdim=True)
            nans = imp.reduce("any", imp.binary("and", left, self.nan, shape, torch.bool),
                              [d], keepdim=True)
            # NaN is the best of a row that has one left; the worst
            # otherwise (smallest first), taken only when no number is left.
            if self.largest:
                top = imp.where(nans, math.nan, top, top.shape, x.dtype)
            else:
                any_number = imp.reduce("any", numbers, [d], keepdim=True)
                top = imp.where(any_number, top, math.nan, top.shape, x.dtype)
            tb = imp.broadcast(top, shape)
            hit = imp.binary("or", imp.compare("eq", shape, x, tb),
                             imp.binary("and", self.nan, self._nan(tb), shape, torch.bool),
                             shape, torch.bool)
        else:
            top = imp.reduce(kind, imp.where(left, x, fill, shape, x.dtype), [d],
                             keepdim=True)
            hit = imp.compare("eq", shape, x, imp.broadcast(top, shape))
        hit = imp.binary("and", hit, left, shape, torch.bool)
        far = imp.const(shape[d], shape, torch.int64)
        first = imp.reduce("min", imp.where(hit, self.pos, far, shape, torch.int64), [d],
                           keepdim=True)
        return top, first


def _select(imp, x, d, rounds, largest):
    """The indices of the first `rounds` elements of x along d (the last)
    in the order, as int64 of x's shape with d of size `rounds`."""
    if rounds > MAX_ROUNDS:
        return _at_ranks(imp, _ranks(imp, x, largest),
                         imp.iota(x.shape[:d] + (rounds,), d))
    order = _Order(imp, x, d, largest)
    values, indices = [], []
    left = imp.const(True, x.shape, torch.bool)
    for r in range(rounds):
        if r:
            left = order.after(values[-1], indices[-1])
        v, i = order.best(left)
        values.append(v)
        indices.append(i)
    if rounds == 1:
        return indices[0]
    return imp.concat(indices, d, x.shape[:d] + (rounds,), torch.int64)


def _ranks(imp, x, largest):
    """Each element's rank in its row (the last dimension): the number of
    elements that precede it, int64."""
    *lead, n = x.shape
    if n > MAX_SORT:
        raise UnsupportedError(
            f"operator {imp.what} sorts rows of {n} elements; xtile sorts by "
            f"ranking (n^2 comparisons) rows of up to {MAX_SORT}, and has no "
            "sorting network for longer ones")
    if x.dtype == torch.bool:
        x = imp.cast(x, torch.int32)
    lead = tuple(lead)
    pairs = lead + (n, n)  # [..., i, j]
    i = imp.iota(pairs, len(lead))
    j = imp.iota(pairs, len(lead) + 1)
    xi = imp.reshape(x, lead + (n, 1))
    xj = imp.reshape(x, lead + (1, n))
    before = _precedes(imp, xj, j, xi, i, pairs, largest)
    ones = imp.where(before, 1, 0, pairs, torch.int64)
    return imp.reduce("sum", ones, [len(pairs) - 1])


def _at_ranks(imp, rank, r=None, hit=None):
    """The index of the element of rank r (int64 of shape lead + (m,))
    in each row of `rank`, or of the element for which hit(ranks, shape)
    holds (one per row)."""
    *lead, n = rank.shape
    lead = tuple(lead)
    m = r.shape[-1] if r is not None else 1
    pairs = lead + (m, n)
    ranks = imp.broadcast(imp.reshape(rank, lead + (1, n)), pairs)
    if r is not None:
        mask = imp.compare("eq", pairs, ranks, imp.broadcast(imp.reshape(r, lead + (m, 1)),
                                                             pairs))
    else:
        mask = hit(ranks, pairs)
    pos = imp.iota(pairs, len(pairs) - 1)
    return imp.reduce("sum", imp.where(mask, pos, 0, pairs, torch.int64),
                      [len(pairs) - 1])


def _row(imp, input, dim):
    """The input with the selected dimension last (where the rounds' row
    reductions fuse into one kernel; along another dimension each round
    would be a kernel of its own), and the permutation that puts a result
    back."""
    x = input if input.shape else imp.reshape(input, (1,))
    if any(not isinstance(n, int) for n in x.shape):
        raise UnsupportedError(f"operator {imp.what} over dynamic sizes is not supported")
    n, d = len(x.shape), dim % len(x.shape)
    perm = [m for m in range(n) if m != d] + [d]
    back = [perm.index(m) for m in range(n)]
    return imp.transpose(x, perm), back


@lowering("topk")
def topk(imp, val, input, k, dim=-1, largest=True, sorted=True):
    if k == 0:
        raise UnsupportedError(f"operator {imp.what} with k = 0 (an empty result) "
                               "is not supported")
    x, back = _row(imp, input, dim)
    return _result(imp, val, x, _select(imp, x, len(x.shape) - 1, k, largest), back)


def _result(imp, val, x, index, back):
    """(values, indices) of x at `index` along the last dimension, put
    back in the input's order of dimensions. The indices lie in [0, n)."""
    d = len(x.shape) - 1
    index.bound = x.shape[d]
    return [imp.reshape(imp.transpose(_take(imp, x, d, index), back), val[0].shape),
            imp.reshape(imp.transpose(index, back), val[1].shape)]


def _counting_sort(imp, x, descending):
    """(order, position) of the 1-d integer x whose elements lie in [0,
    x.bound): the stable sort's indices and each element's place in it,
    by counting (module docstring)."""
    n, r = x.shape[0], x.bound
    i32 = torch.int32
    key = imp.cast(x, torch.int64)
    if descending:
        # Larger values first: sort r - 1 - x ascending (ties keep their
        # order either way).
        key = imp.binary("sub", r - 1, key, (n,), torch.int64)
    pairs = (n, r)
    onehot = imp.where(imp.compare("eq", pairs, imp.broadcast(imp.reshape(key, (n, 1)), pairs),
                                   imp.iota(pairs, 1)), 1, 0, pairs, i32)
    from .scans import scan  # scans imports the indexing module
    running = scan(imp, "sum", onehot, 0)                # [n, r] counts up to i
    counts = imp.reshape(imp.slice(running, [n - 1, 0], [n, r], (1, r)), (r,))
    square = (r, r)
    below = imp.compare("lt", square, imp.iota(square, 1), imp.iota(square, 0))
    starts = imp.reduce("sum", imp.where(below, imp.broadcast(
        imp.reshape(counts, (1, r)), square), 0, square, i32), [1])   # [r]
    ends = imp.binary("add", starts, counts, (r,), i32)
    # Each element's place: its value's start plus the equal values before it.
    flat = imp.reshape(running, (n * r,))
    at = imp.binary("add", imp.binary("mul", imp.iota((n,), 0), r, (n,), torch.int64),
                    key, (n,), torch.int64)
    position = imp.binary("add", imp.cast(imp.gather(starts, key, 0), torch.int64),
                          imp.binary("sub", imp.cast(imp.gather(flat, at, 0), torch.int64), 1,
                                     (n,), torch.int64), (n,), torch.int64)
    # Each place's value (the values whose group ends at or before it) and
    # its rank among that value's elements.
    places = (n, r)
    value = imp.reduce("sum", imp.where(imp.compare(
        "le", places, imp.broadcast(imp.reshape(ends, (1, r)), places), imp.iota(places, 0)),
        1, 0, places, torch.int64), [1])
    value = imp.binary("min", value, r - 1, (n,), torch.int64)
    want = imp.binary("add", imp.binary("sub", imp.iota((n,), 0),
                                        imp.cast(imp.gather(starts, value, 0), torch.int64),
                                        (n,), torch.int64), 1, (n,), torch.int64)
    # The first element whose running count of that value reaches the
    # rank: a binary search over [0, n).
    lo, hi = imp.const(0, (n,), torch.int64), imp.const(n - 1, (n,), torch.int64)
    for _ in range(max(1, (n - 1).bit_length())):
        mid = imp.binary("div", imp.binary("add", lo, hi, (n,), torch.int64), 2, (n,),
                         torch.int64)
        seen = imp.cast(imp.gather(flat, imp.binary("add", imp.binary(
            "mul", mid, r, (n,), torch.int64), value, (n,), torch.int64), 0), torch.int64)
        enough = imp.compare("ge", (n,), seen, want)
        hi = imp.where(enough, mid, hi, (n,), torch.int64)
        lo = imp.where(enough, lo, imp.binary("add", mid, 1, (n,), torch.int64), (n,),
                       torch.int64)
    return lo, position


def _take(imp, x, d, index):
    """x at `index` along d (take_along_dim). The values are read back
    from the row rather than carried out of each round: the rounds' values
    and indices would be two chains over the same intermediate masks, each
    of which fusion would then keep in memory for the other."""
    coords = [index if m == d else imp.iota(index.shape, m) for m in range(len(x.shape))]
    return take(imp, x, coords, index.shape)


@lowering("kthvalue")
def kthvalue(imp, val, input, k, dim=-1, keepdim=False):
    x, back = _row(imp, input, dim)
    d = len(x.shape) - 1
    if k <= MAX_ROUNDS:
        # The k-th smallest: the last of k rounds of the smallest first.
        index = _select(imp, x, d, k, largest=False)
        index = imp.slice(index, [0] * d + [k - 1], list(index.shape[:d]) + [k],
                          index.shape[:d] + (1,), [1] * (d + 1))
    else:
        index = _at_ranks(imp, _ranks(imp, x, False),
                          imp.const(k - 1, x.shape[:d] + (1,), torch.int64))
    return _result(imp, val, x, index, back)


@lowering("sort")
def sort(imp, val, input, dim=-1, descending=False, stable=None):
    # Ties by ascending index: a stable sort, which is also what an
    # unstable one may give.
    if (len(input.shape) == 1 and input.bound is not None and
            input.bound <= MAX_COUNTING_RANGE and isinstance(input.shape[0], int)):
        order, position = _counting_sort(imp, input, descending)
        order.inverse = position
        return _result(imp, val, input, order, [0])
    x, back = _row(imp, input, dim)
    d = len(x.shape) - 1
    index = _at_ranks(imp, _ranks(imp, x, descending), imp.iota(x.shape, d))
    return _result(imp, val, x, index, back)


def _median(imp, val, input, dim, ignore_nan):
    """The lower median of each row (its element of rank (n - 1) // 2 in
    ascending order) and its index. With NaN: the row's first NaN
    (median), or the median of its numbers (nanmedian; NaN when it has
    none)."""
    x, back = _row(imp, input, dim)
    *lead, n = x.shape
    d = len(lead)
    key = tuple(lead) + (1,)
    numbers = imp.const(n, key, torch.int64)
    if x.dtype.is_floating_point:
        nan = imp.where(imp.compare("ne", x.shape, x, x), 1, 0, x.shape, torch.int64)
        numbers = imp.binary("sub", numbers, imp.reduce("sum", nan, [d], keepdim=True),
                             key, torch.int64)
    rank = _ranks(imp, x, False)

    def hit(ranks, pairs):
        # Ranks are distinct, so one element per row has twice its rank in
        # {numbers - 2, numbers - 1}: rank (numbers - 1) // 2 (the first
        # NaN, of rank `numbers`, for median when the row has one).
        twice = imp.binary("mul", ranks, 2, pairs, torch.int64)
        c = imp.broadcast(imp.reshape(numbers, key + (1,)), pairs)
        lower = imp.compare("eq", pairs, twice, imp.binary("sub", c, 2, pairs, torch.int64))
        upper = imp.compare("eq", pairs, twice, imp.binary("sub", c, 1, pairs, torch.int64))
        found = imp.binary("or", lower, upper, pairs, torch.bool)
        if ignore_nan or not x.dtype.is_floating_point:
            return found
        has_nan = imp.compare("lt", pairs, c, n)
        first_nan = imp.compare("eq", pairs, ranks, c)
        return imp.where(has_nan, first_nan, found, pairs, torch.bool)
    index = _at_ranks(imp, rank, hit=hit)
    return _result(imp, val, x, index, back)


@lowering("median", "nanmedian")
def median(imp, val, input, dim=None, keepdim=False):
    ignore_nan = imp.what.startswith("aten.nanmedian")
    if dim is None:
        # Of all elements: the value alone.
        flat = imp.reshape(input, (math.prod(input.shape),))
        return _median(imp, [val, val], flat, 0, ignore_nan)[0]
    return _median(imp, val, input, dim, ignore_nan)
