"""Selection and sorting: topk, kthvalue, sort (argsort, msort), median
and nanmedian (docs/Frontend.md, "Selection and sorting").

Tensor IR has no sort. Four forms, both in the order PyTorch ranks by: the
larger value first (topk's default; the smaller with largest=False, for
kthvalue and ascending sorts), NaN above every number, equal values by
ascending index.

- Rounds (topk and kthvalue with k <= MAX_ROUNDS): round r picks the best
  element of the row that comes after round r-1's, by two row reductions
  (the best value left, then the first index holding it) over elements
  that stay in registers, so the k rounds fuse into one row kernel that
  reads the row once: O(k n) work, as MoE routers take 1 to 8 of 8 to 256
  experts.
- Ranks (sort, medians, larger k over rows of up to MAX_RANKED
  elements): each element's rank is the number of elements that precede
  it (a reduction over pairs), and the element of rank r is found by a
  second one: O(n^2) work in two row kernels.
- Merging (longer rows): the row padded to MERGE_BLOCK * 2^m elements
  with a value every element comes before, its blocks ranked, then m
  passes that each merge pairs of sorted runs, every output position
  finding how many of the first run's elements precede it by a binary
  search along both runs (the merge path): O(n log^2 n) work, one kernel
  per pass. The sort's indices along the last dimension carry their
  inverse (each element's place, by a binary search of the element in
  the sorted row), so a scatter by them is a gather.
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
fuses with their consumer). mode counts the runs of equal values along
the sorted row (a running maximum of each run's start)."""
import math

import torch

from .errors import UnsupportedError
from .indexing import take
from .registry import lowering

# The most rounds a selection is written as; beyond it, ranks.
MAX_ROUNDS = 16
# The longest row ranked whole (n^2 comparisons per row); longer rows are
# merged.
MAX_RANKED = 256
# Elements per run ranked before merging.
MERGE_BLOCK = 32
# The widest range of integers sorted by counting (an [n, R] running count).
MAX_COUNTING_RANGE = 1024


def _precedes(imp, a, ia, b, ib, shape, largest):
    """Whether element (a, ia) comes before (b, ib) in PyTorch's order
    (all four broadcast to `shape`): the better value first (the larger
    when `largest`), NaN above every number and NaNs equal to each other,
    equal values by ascending index."""
    bool_ = torch.bool
    a, b = imp.broadcast(a, shape), imp.broadcast(b, shape)
    better, same = _better(imp, a, b, shape, largest), _same(imp, a, b, shape)
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
        if x.shape[d] <= MAX_RANKED:
            return _at_ranks(imp, _ranks(imp, x, largest),
                             imp.iota(x.shape[:d] + (rounds,), d))
        order = _sorted(imp, x, largest)
        return imp.slice(order, [0] * (d + 1), list(x.shape[:d]) + [rounds],
                         x.shape[:d] + (rounds,))
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


def _worst(dtype, largest):
    """A value no element comes after when ties go to the earlier element:
    the padding of a row sorted by merging."""
    if dtype.is_floating_point:
        return -math.inf if largest else math.nan
    info = torch.iinfo(dtype)
    return info.min if largest else info.max


def _better(imp, a, b, shape, largest):
    """Whether value a comes strictly before value b (NaN above every
    number, NaNs equal)."""
    bool_ = torch.bool
    better = imp.compare("gt" if largest else "lt", shape, a, b)
    if a.dtype.is_floating_point:
        anan = imp.compare("ne", shape, a, a)
        bnan = imp.compare("ne", shape, b, b)
        # NaN ranks above every number: first when the largest go first.
        hi, lo = (anan, bnan) if largest else (bnan, anan)
        better = imp.binary("or", better, imp.binary(
            "and", hi, imp.unary("not", lo, shape, bool_), shape, bool_), shape, bool_)
    return better


def _sorted(imp, x, largest):
    """The indices of the stable sort of each row of x (the last
    dimension; static sizes), int64 of x's shape: ranks for rows of up to
    MAX_RANKED elements, merging for longer ones."""
    if x.shape[-1] <= MAX_RANKED:
        return _at_ranks(imp, _ranks(imp, x, largest), imp.iota(x.shape, len(x.shape) - 1))
    return _merge_sort(imp, x, largest)


def _merge_sort(imp, x, largest):
    """The stable sort's indices of each row of x (module docstring,
    "Merging"). The row is padded to MERGE_BLOCK * 2^m elements with the
    worst value (_worst), which the ties' rule keeps behind every element
    of the row: padding lies after the row, so it is always in the later
    of two runs merged."""
    *lead, n = x.shape
    lead = tuple(lead)
    if x.dtype == torch.bool:
        x = imp.cast(x, torch.int32)
    rows, b, i64 = math.prod(lead), MERGE_BLOCK, torch.int64
    blocks = 1 << (-(-n // b) - 1).bit_length()
    width = b * blocks
    v = imp.pad(imp.reshape(x, (rows, n)), [0, 0], [0, width - n], _worst(x.dtype, largest))
    # Runs of one block, ranked.
    cube = (rows, blocks, b)
    local = _at_ranks(imp, _ranks(imp, imp.reshape(v, cube), largest), imp.iota(cube, 2))
    idx = imp.reshape(imp.binary("add", local, imp.binary("mul", imp.iota(cube, 1), b, cube,
                                                             i64), cube, i64), (rows, width))
    flat = imp.reshape(v, (rows * width,))
    # Positions in a row are int32 between the passes (half the traffic).
    if width < 2 ** 31:
        idx = imp.cast(idx, torch.int32)
    run = b
    while run < width:
        idx = _merge(imp, flat, idx, run, largest)
        run *= 2
    idx = imp.cast(idx, i64)
    return imp.reshape(imp.slice(idx, [0, 0], [rows, n], (rows, n)), lead + (n,))


def _merge(imp, flat, idx, run, largest):
    """One merging pass over rows made of sorted runs of `run` elements
    (`idx`, [rows, width]: each run's elements' positions in their row of
    `flat`, the rows' values one after another): each pair of runs (A, B)
    merged, every output position finding how many of A's elements come
    before it by a binary search (the merge path), A's element first on
    ties. The values are read through the positions, so a pass is one
    kernel with one result."""
    rows, width = idx.shape
    shape, i64, bool_ = idx.shape, torch.int64, torch.bool
    pairs = (rows, width // (2 * run), 2 * run)
    p = imp.reshape(imp.iota(pairs, 2), shape)
    a0 = imp.reshape(imp.binary("add", imp.binary("mul", imp.iota(pairs, 0), width, pairs, i64),
                                imp.binary("mul", imp.iota(pairs, 1), 2 * run, pairs, i64),
                                pairs, i64), shape)
    b0 = imp.binary("add", a0, run, shape, i64)
    row = imp.binary("mul", imp.iota(shape, 0), width, shape, i64)
    flat_idx = imp.reshape(idx, (rows * width,))

    def add(a, c):
        return imp.binary("add", a, c, shape, i64)

    def clamp(a):
        return imp.binary("min", imp.binary("max", a, 0, shape, i64), run - 1, shape, i64)

    def both(a, c):
        return imp.binary("and", a, c, shape, bool_)

    def not_(a):
        return imp.unary("not", a, shape, bool_)

    def value(at):
        return imp.gather(flat, add(row, imp.cast(imp.gather(flat_idx, at, 0), i64)), 0)

    # i, the number of A's elements among the first p outputs, lies in
    # [max(0, p - run), min(p, run)]: the first i where A[i] does not come
    # before B[p - i - 1].
    def a_first(mid):
        a = value(add(a0, clamp(mid)))
        bv = value(add(b0, clamp(imp.binary("sub", add(p, -1), mid, shape, i64))))
        return not_(_better(imp, bv, a, shape, largest))

    lo = _bisect(imp, imp.binary("max", add(p, -run), 0, shape, i64),
                 imp.binary("min", p, run, shape, i64), run.bit_length(), a_first)
    j = imp.binary("sub", p, lo, shape, i64)
    at_a, at_b = add(a0, clamp(lo)), add(b0, clamp(j))
    take_a = both(imp.compare("lt", shape, lo, run), imp.binary(
        "or", imp.compare("ge", shape, j, run),
        not_(_better(imp, value(at_b), value(at_a), shape, largest)), shape, bool_))
    return imp.gather(flat_idx, imp.where(take_a, at_a, at_b, shape, i64), 0)


def _same(imp, a, b, shape):
    """Whether values a and b are equal in the order (NaNs equal)."""
    same = imp.compare("eq", shape, a, b)
    if a.dtype.is_floating_point:
        bool_ = torch.bool
        both = imp.binary("and", imp.compare("ne", shape, a, a), imp.compare("ne", shape, b, b),
                          shape, bool_)
        same = imp.binary("or", same, both, shape, bool_)
    return same


def _bisect(imp, lo, hi, steps, above):
    """A binary search per element over [lo, hi) (int64 tensors of one
    shape), `steps` halvings: lo moves past mid where above(mid) (the
    answer lies above mid), hi down to mid elsewhere; an empty range
    stays. Returns lo."""
    shape, i64, bool_ = lo.shape, torch.int64, torch.bool
    for _ in range(steps):
        active = imp.compare("lt", shape, lo, hi)
        mid = imp.binary("div", imp.binary("add", lo, hi, shape, i64), 2, shape, i64)
        up = imp.binary("and", active, above(mid), shape, bool_)
        down = imp.binary("and", active, imp.unary("not", up, shape, bool_), shape, bool_)
        lo = imp.where(up, imp.binary("add", mid, 1, shape, i64), lo, shape, i64)
        hi = imp.where(down, mid, hi, shape, i64)
    return lo


def _places(imp, x, order, largest):
    """Each element's place in the stable sort of its row (the last
    dimension of x) whose indices are `order`: the number of elements
    that precede it, by a binary search of (its value, its index) along
    the sorted row. One kernel of log2(n) + 1 steps per element."""
    *lead, n = x.shape
    if x.dtype == torch.bool:
        x = imp.cast(x, torch.int32)
    rows, i64, bool_ = math.prod(lead), torch.int64, torch.bool
    shape = (rows, n)
    flat = imp.reshape(x, (rows * n,))
    flat_order = imp.reshape(order, (rows * n,))
    row = imp.binary("mul", imp.iota(shape, 0), n, shape, i64)
    q, mine = imp.iota(shape, 1), imp.reshape(x, shape)
    def before(mid):
        at = imp.binary("add", row, imp.binary("min", mid, n - 1, shape, i64), shape, i64)
        j = imp.gather(flat_order, at, 0)
        v = imp.gather(flat, imp.binary("add", row, j, shape, i64), 0)
        return imp.binary("or", _better(imp, v, mine, shape, largest), imp.binary(
            "and", _same(imp, v, mine, shape), imp.compare("lt", shape, j, q), shape, bool_),
            shape, bool_)

    lo = _bisect(imp, imp.const(0, shape, i64), imp.const(n, shape, i64), n.bit_length(),
                 before)
    return imp.reshape(lo, x.shape)


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
    def short(mid):
        seen = imp.cast(imp.gather(flat, imp.binary("add", imp.binary(
            "mul", mid, r, (n,), torch.int64), value, (n,), torch.int64), 0), torch.int64)
        return imp.compare("lt", (n,), seen, want)

    lo = _bisect(imp, imp.const(0, (n,), torch.int64), imp.const(n - 1, (n,), torch.int64),
                 max(1, (n - 1).bit_length()), short)
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
    elif x.shape[d] <= MAX_RANKED:
        index = _at_ranks(imp, _ranks(imp, x, False),
                          imp.const(k - 1, x.shape[:d] + (1,), torch.int64))
    else:
        index = imp.slice(_sorted(imp, x, False), [0] * d + [k - 1],
                          list(x.shape[:d]) + [k], x.shape[:d] + (1,))
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
    order = _sorted(imp, x, descending)
    if back == list(range(len(back))):
        # Along the last dimension, the indices carry their inverse: a
        # scatter by them along the row is a gather (the top-p filter).
        # Dead code where nothing scatters.
        order.inverse = _places(imp, x, order, descending)
    return _result(imp, val, x, order, back)


@lowering("mode")
def mode(imp, val, input, dim=-1, keepdim=False):
    # The most frequent value of each row, the smallest of those equally
    # frequent; NaNs count as one value, above every number, as the sort
    # orders them (PyTorch's result on a row with NaN depends on where
    # its unstable sort, whose comparisons with NaN are all false, puts
    # them). Its index is the last position holding it, where PyTorch's
    # (the end of the value's run in its own sort) is left open by its
    # documentation.
    x, back = _row(imp, input, dim)
    *lead, n = x.shape
    d, i64, bool_ = len(lead), torch.int64, torch.bool
    shape = x.shape
    order = _sorted(imp, x, False)
    s = _take(imp, x, d, order)
    j = imp.iota(shape, d)
    starts = [0] * d + [1]

    def shifted(v, low, fill):
        """v moved one place along the row (toward higher positions when
        `low`), `fill` where it moved from outside."""
        if low:
            cut = imp.slice(v, [0] * (d + 1), list(lead) + [n - 1], tuple(lead) + (n - 1,))
            return imp.pad(cut, starts, [0] * (d + 1), fill)
        cut = imp.slice(v, starts, list(lead) + [n], tuple(lead) + (n - 1,))
        return imp.pad(cut, [0] * (d + 1), starts, fill)

    if s.dtype == torch.bool:   # compared as integers
        s = imp.cast(s, torch.int32)
    begins = imp.binary("or", imp.compare("eq", shape, j, 0), imp.unary(
        "not", _same(imp, s, shifted(s, True, 0), shape), shape, bool_), shape, bool_)
    ends = shifted(begins, False, True)
    from .scans import scan  # scans imports the indexing module
    start = scan(imp, "max", imp.where(begins, j, 0, shape, i64), d)
    count = imp.where(ends, imp.binary("add", imp.binary("sub", j, start, shape, i64), 1,
                                       shape, i64), 0, shape, i64)
    key = tuple(lead) + (1,)
    most = imp.broadcast(imp.reduce("max", count, [d], keepdim=True), shape)
    first = imp.reduce("min", imp.where(imp.compare("eq", shape, count, most), j, n, shape,
                                        i64), [d], keepdim=True)
    index = _take(imp, order, d, first)
    return _result(imp, val, x, imp.reshape(index, key), back)


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
    if n > MAX_RANKED:
        # The sorted row's element at (numbers - 1) // 2 (at `numbers`,
        # the first NaN, for median when the row has one).
        i64 = torch.int64
        pos = imp.binary("max", imp.binary("div", imp.binary("sub", numbers, 1, key, i64), 2,
                                           key, i64), 0, key, i64)
        if not ignore_nan and x.dtype.is_floating_point:
            pos = imp.where(imp.compare("lt", key, numbers, n), numbers, pos, key, i64)
        index = _take(imp, _sorted(imp, x, False), d, pos)
        return _result(imp, val, x, index, back)
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
