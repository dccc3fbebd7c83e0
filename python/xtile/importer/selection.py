"""Selection: topk and kthvalue with small k, as k rounds of a masked
arg-extreme (docs/Frontend.md, "Selection").

Round r picks the best element of the row that comes after round r-1's in
the order PyTorch ranks by: the larger value first (topk's default; the
smaller with largest=False, and for kthvalue), NaN above every number,
equal values by ascending index. Each round is two row reductions (the
best value among the elements left, then the first index holding it) over
elements that stay in registers, so the k rounds fuse into one row kernel
that reads the row once: O(k n) work, as the routing kernels of MoE layers
do it (k = 1 to 8 of 8 to 256 experts). Larger k needs a sorting kernel,
which xtile does not have: an UnsupportedError says so. sort, argsort and
msort are not lowered here (errors.py)."""
import math

import torch

from .errors import UnsupportedError
from .indexing import take
from .registry import lowering

# The most rounds a selection is written as: beyond it, k rounds of n
# elements cost more than a sort would.
MAX_ROUNDS = 16


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
        broadcast along d: worse, or equal and at a larger index."""
        imp, x, shape = self.imp, self.x, self.shape
        v = imp.broadcast(value, shape)
        i = imp.broadcast(index, shape)
        worse = imp.compare("lt" if self.largest else "gt", shape, x, v)
        same = imp.compare("eq", shape, x, v)
        if self.float:
            # NaN ranks above every number (as PyTorch sorts), so it comes
            # first when the largest go first and last otherwise; NaNs are
            # equal to each other.
            b = torch.bool
            vnan = self._nan(v)
            if self.largest:
                worse = imp.binary("and", imp.unary("not", self.nan, shape, b),
                                   imp.binary("or", vnan, worse, shape, b), shape, b)
            else:
                worse = imp.binary("or", worse,
                                   imp.binary("and", self.nan,
                                              imp.unary("not", vnan, shape, b), shape, b),
                                   shape, b)
            same = imp.binary("or", same, imp.binary("and", vnan, self.nan, shape, b),
                              shape, b)
        later = imp.compare("gt", shape, self.pos, i)
        return imp.binary("or", worse, imp.binary("and", same, later, shape, torch.bool),
                          shape, torch.bool)

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
    """The first `rounds` elements of x along d in the order, as lists of
    keepdim values and int64 indices."""
    if rounds > MAX_ROUNDS:
        raise UnsupportedError(
            f"operator {imp.what} selects {rounds} elements of each row; xtile "
            f"writes selection as up to {MAX_ROUNDS} rounds of a masked arg-max, "
            "and has no sorting kernel for more")
    order = _Order(imp, x, d, largest)
    values, indices = [], []
    left = imp.const(True, x.shape, torch.bool)
    for r in range(rounds):
        if r:
            left = order.after(values[-1], indices[-1])
        v, i = order.best(left)
        values.append(v)
        indices.append(i)
    return values, indices


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
    d = len(x.shape) - 1
    _, indices = _select(imp, x, d, k, largest)
    i = indices[0] if k == 1 else imp.concat(indices, d, x.shape[:d] + (k,), torch.int64)
    return [imp.reshape(imp.transpose(_take(imp, x, d, i), back), val[0].shape),
            imp.reshape(imp.transpose(i, back), val[1].shape)]


def _take(imp, x, d, index):
    """x at `index` along d (take_along_dim). The values are read back
    from the row rather than carried out of each round: the rounds' values
    and indices would be two chains over the same intermediate masks, each
    of which fusion would then keep in memory for the other."""
    coords = [index if m == d else imp.iota(index.shape, m) for m in range(len(x.shape))]
    return take(imp, x, coords, index.shape)


@lowering("kthvalue")
def kthvalue(imp, val, input, k, dim=-1, keepdim=False):
    # The k-th smallest: k rounds of the smallest first.
    x, back = _row(imp, input, dim)
    d = len(x.shape) - 1
    _, indices = _select(imp, x, d, k, largest=False)
    i = indices[-1]
    return [imp.reshape(imp.transpose(_take(imp, x, d, i), back), val[0].shape),
            imp.reshape(imp.transpose(i, back), val[1].shape)]
