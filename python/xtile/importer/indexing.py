"""Indexing: gathers at computed coordinates (index, gather,
index_select, embedding, embedding_bag), scatters (index_put, scatter,
masked_scatter, slice_scatter, select_scatter), and resampling
(upsample, grid_sample), which reads the input at computed positions."""
import functools
import itertools
import math

import torch

from .elementwise import div
from .errors import UnsupportedError
from .ir import Value
from .libm import round_
from .matmul import matmul
from .reductions import COMBINE, identity
from .registry import lowering
from .scans import scan
from .sizes import Shape, Sym, broadcast_shapes, is_int, size_product


def linear_index(imp, coords, sizes, shape):
    """The row-major linear index (int64, of `shape`) of coordinates
    `coords` into a tensor of `sizes` (a dimension of size 1 adds
    nothing; a dynamic size's stride is a value, Importer.size_value)."""
    shape = tuple(shape)
    flat, stride = None, 1
    for c, n in reversed(list(zip(coords, sizes))):
        if is_int(n, 1):
            continue
        term = c if is_int(stride, 1) else imp.binary("mul", c, stride, shape, torch.int64)
        flat = term if flat is None else imp.binary("add", flat, term, shape, torch.int64)
        if isinstance(n, Sym) or isinstance(stride, Value):
            size = imp.size_value(n) if isinstance(n, Sym) else n
            stride = imp.binary("mul", stride, size, (), torch.int64)
        else:
            stride *= n
    return flat if flat is not None else imp.const(0, shape, torch.int64)


def take(imp, x, coords, shape):
    """x at coordinates `coords` (one int64 tensor of `shape` per
    dimension of x): one gather from the flattened x."""
    flat = linear_index(imp, coords, x.shape, shape)
    return imp.gather(imp.reshape(x, (size_product(x.shape),)), flat, 0)


def wrapped(imp, index, size, shape):
    """An index tensor as int64 in `shape`, negative indices counted
    from the end as PyTorch does."""
    i = imp.cast(index, torch.int64)
    neg = imp.compare("lt", i.shape, i, 0)
    up = imp.binary("add", i, imp.size_value(size) if isinstance(size, Sym) else size,
                    i.shape, torch.int64)
    i = imp.where(neg, up, i, i.shape, torch.int64)
    return imp.broadcast(i, shape)


def _index_coords(imp, x, indices):
    """(coordinates into x, result shape) of x[indices] with PyTorch's
    advanced indexing: index tensors broadcast together, their shape in
    place of the indexed dimensions when those are adjacent, first
    otherwise."""
    rank = len(x.shape)
    idx = list(indices) + [None] * (rank - len(indices))
    dims = [m for m, t in enumerate(idx) if t is not None]
    if any(idx[m].dtype == torch.bool for m in dims):
        raise UnsupportedError("indexing with a boolean mask (its result's shape "
                               "depends on the data) is not supported")
    bshape = broadcast_shapes(*[idx[m].shape for m in dims])
    rest = [m for m in range(rank) if m not in dims]
    at = dims[0] if dims == list(range(dims[0], dims[-1] + 1)) else 0
    out = [x.shape[m] for m in rest]
    out[at:at] = list(bshape)
    out = tuple(out)
    coords = []
    for m in range(rank):
        if idx[m] is not None:
            i = wrapped(imp, idx[m], x.shape[m], bshape)
            i = imp.reshape(i, (1,) * at + bshape + (1,) * (len(out) - at - len(bshape)))
            coords.append(imp.broadcast(i, out))
        else:
            k = rest.index(m)
            coords.append(imp.iota(out, k if k < at else k + len(bshape)))
    return coords, out


@lowering("index")
def index(imp, val, input, indices):
    given = [(m, t) for m, t in enumerate(indices) if t is not None]
    if len(given) == 1 and given[0][1].dtype != torch.bool and given[0][1].shape:
        # One index tensor: a gather along its dimension (no flattening,
        # which a dynamic size would make an expression).
        m, t = given[0]
        return imp.gather(input, wrapped(imp, t, input.shape[m], t.shape), m)
    coords, out = _index_coords(imp, input, indices)
    return take(imp, input, coords, out)


@lowering("gather")
def gather(imp, val, input, dim, index, sparse_grad=False):
    x = input
    if not x.shape:
        x = imp.reshape(x, (1,))
    shape = index.shape
    d = dim % len(x.shape)
    coords = [imp.broadcast(imp.cast(index, torch.int64), shape) if m == d
              else imp.iota(shape, m) for m in range(len(x.shape))]
    return imp.reshape(take(imp, x, coords, shape), val.shape)


@lowering("index_select")
def index_select(imp, val, input, dim, index):
    x = input
    if not x.shape:  # a 0-dim input is indexed as a 1-element vector
        x = imp.reshape(x, (1,))
    if not index.shape:
        index = imp.reshape(index, (1,))
    return imp.reshape(imp.gather(x, index, dim % len(x.shape)),
                       val.shape)


@lowering("embedding")
def embedding(imp, val, weight, indices, padding_idx=-1,
              scale_grad_by_freq=False, sparse=False):
    return imp.gather(weight, indices, 0)


@lowering("repeat_interleave")
def repeat_interleave(imp, val, repeats, output_size=None):
    """aten.repeat_interleave.Tensor (what x.repeat_interleave(repeats,
    dim) gathers by): index i repeated repeats[i] times. Its length is
    the repeats' sum, known only with `output_size`; entry k is the
    number of running totals of the repeats at or below k."""
    if output_size is None:
        raise UnsupportedError(
            "operator aten.repeat_interleave.Tensor without output_size gives a tensor "
            "whose length is the sum of its repeats, which xtile does not support: its "
            "sizes are fixed (pass output_size)")
    if not repeats.shape:
        repeats = imp.reshape(repeats, (1,))
    n = repeats.shape[0]
    wide = (output_size, n)
    totals = imp.reshape(scan(imp, "sum", imp.cast(repeats, torch.int64), 0), (1, n))
    ahead = imp.compare("le", wide, imp.broadcast(totals, wide), imp.iota(wide, 0))
    return imp.reduce("sum", imp.cast(ahead, torch.int64), [1])


@lowering("embedding_renorm")
def embedding_renorm(imp, val, input, indices, max_norm, norm_type):
    """The functional form of embedding_renorm_ (an embedding with
    max_norm): the weight with each row that `indices` name scaled by
    max_norm / (norm + 1e-7) where its `norm_type`-norm exceeds max_norm,
    as PyTorch does; the norms and scales in f32 for 16-bit weights. The
    rows are gathered, scaled and written back (a row named twice is
    written twice, the same value)."""
    weight = input
    n = size_product(indices.shape)
    dim = weight.shape[1]
    idx = imp.reshape(indices, (n,))
    acc = torch.float32 if weight.dtype in (torch.float16, torch.bfloat16) else weight.dtype
    rows = imp.cast(imp.gather(weight, idx, 0), acc)
    shape, col = (n, dim), (n, 1)
    p = float(norm_type)
    if p == 2:
        norm = imp.unary("sqrt", imp.reduce("sum", imp.binary("mul", rows, rows, shape, acc),
                                            [1], keepdim=True), col, acc)
    else:
        mag = imp.unary("abs", rows, shape, acc)
        if p == 1:
            norm = imp.reduce("sum", mag, [1], keepdim=True)
        elif math.isinf(p):
            norm = imp.reduce("max", mag, [1], keepdim=True)
        else:
            total = imp.reduce("sum", imp.binary("pow", mag, p, shape, acc), [1], keepdim=True)
            norm = imp.binary("pow", total, 1.0 / p, col, acc)
    scale = imp.where(imp.compare("gt", col, norm, float(max_norm)),
                      imp.binary("div", float(max_norm),
                                 imp.binary("add", norm, 1e-7, col, acc), col, acc),
                      1.0, col, acc)
    scaled = imp.cast(imp.binary("mul", rows, scale, shape, acc), weight.dtype)
    return _put_slices(imp, val, weight, 0, idx, scaled, shape)


def _bag_members(imp, offsets, indices, bags, include_last_offset, padding_idx):
    """(whether each position is in each bag, [bags, positions]; the
    indices as int64): bag b holds positions [offsets[b], offsets[b + 1])
    (the last to the end), less those of padding_idx."""
    length = indices.shape[0]
    i64 = torch.int64
    wide = (bags, length)
    offs = imp.cast(offsets, i64)
    lo = imp.broadcast(imp.reshape(imp.gather(offs, imp.iota((bags,), 0), 0), (bags, 1)), wide)
    if include_last_offset or bags < offsets.shape[0]:
        hi = imp.gather(offs, imp.binary("add", imp.iota((bags,), 0), 1,
                                         (bags,), i64), 0)
    else:
        # The last bag runs to the end.
        nxt = imp.binary("min", imp.binary("add", imp.iota((bags,), 0), 1, (bags,), i64),
                         bags - 1, (bags,), i64)
        hi = imp.where(imp.compare("eq", (bags,), imp.iota((bags,), 0), bags - 1),
                       length, imp.gather(offs, nxt, 0), (bags,), i64)
    hi = imp.broadcast(imp.reshape(hi, (bags, 1)), wide)
    j = imp.iota(wide, 1)
    member = imp.binary("and", imp.compare("ge", wide, j, lo), imp.compare("lt", wide, j, hi),
                        wide, torch.bool)
    idx = imp.cast(indices, i64)
    if padding_idx is not None and padding_idx >= 0:
        member = imp.binary("and", member, imp.broadcast(imp.reshape(
            imp.compare("ne", (length,), idx, padding_idx), (1, length)), wide), wide, torch.bool)
    return member, idx


@lowering("_embedding_bag", "_embedding_bag_forward_only")
def embedding_bag(imp, val, weight, indices, offsets, scale_grad_by_freq=False,
                  mode=0, sparse=False, per_sample_weights=None,
                  include_last_offset=False, padding_idx=-1):
    # A masked reduction of the gathered rows over the positions,
    # O(bags * positions * dim).
    if imp.outputs_used() - {0}:
        raise UnsupportedError("embedding_bag's offset2bag, bag_size and max_indices "
                               "results are not supported (only the bags)")
    out, dtype = tuple(val[0].shape), val[0].dtype
    bags, dim = out
    length = indices.shape[0]
    if bags == 0 or dim == 0 or length == 0:
        return [imp.fill(val[0], 0)] + [imp.fill(v, 0) for v in val[1:]]
    i64 = torch.int64
    wide = (bags, length)
    member, idx = _bag_members(imp, offsets, indices, bags, include_last_offset, padding_idx)
    ones = imp.cast(member, dtype)
    count = imp.reduce("sum", ones, [1])
    count = imp.broadcast(imp.reshape(count, (bags, 1)), out)
    if mode in (0, 1):
        # The sum over a bag is a product with the membership matrix
        # (times the per-sample weights): a matmul.
        share = ones
        if per_sample_weights is not None:
            share = imp.binary("mul", share, imp.broadcast(imp.reshape(
                imp.cast(per_sample_weights, dtype), (1, length)), wide), wide, dtype)
        rows = imp.cast(imp.gather(weight, idx, 0), dtype)  # [length, dim]
        y = matmul(imp, share, rows, out, dtype)
        if mode == 1:
            y = imp.binary("div", y, imp.binary("max", count, 1, out, dtype), out, dtype)
    else:
        # The maximum over each bag's rows, gathered per (bag and dim,
        # position): one row reduction; an empty bag is zeros.
        full = (bags * dim, length)
        r, pos = imp.iota(full, 0), imp.iota(full, 1)
        split = lambda op: imp.binary(op, r, dim, full, i64)
        rows = take(imp, weight, [take(imp, idx, [pos], full), split("rem")], full)
        mb = take(imp, member, [split("div"), pos], full)
        picked = imp.where(mb, rows, identity("max", dtype), full, dtype)
        y = imp.reshape(imp.reduce("max", picked, [1]), out)
        y = imp.where(imp.compare("gt", out, count, 0), y, 0, out, dtype)
    return [y] + [imp.fill(v, 0) for v in val[1:]]


_SCATTER_KINDS = {"sum": "sum", "add": "sum", "mean": "sum", "prod": "prod",
                  "multiply": "prod", "amax": "max", "amin": "min"}


def _scatter(imp, val, x, coords, shape, values, reduce=None, include_self=True):
    """x with the elements at `coords` (tensors of `shape`) replaced by
    `values` (broadcast to `shape`; the last of several writes to one
    element wins), or with `reduce` ("sum", "prod", "mean", "amax",
    "amin") combining the values written to each element, with x's own
    element when include_self. Each output element looks at every
    written position: O(numel(x) * numel(shape)) work, meant for masks,
    small updates and segment reductions over short index lists (the
    writes along one dimension take _scatter_along)."""
    n, m = math.prod(x.shape), math.prod(shape)
    dtype = val.dtype
    if reduce in ("sum", "add") and include_self:
        acc = _atomic_type(dtype, m)
        if acc is not None:
            return _scatter_sum(imp, val, x, linear_index(imp, coords, x.shape, shape),
                                values, shape, acc)
    target = imp.reshape(linear_index(imp, coords, x.shape, shape), (1, m))
    wide = (n, m)
    hit = imp.compare("eq", wide, imp.iota(wide, 0), imp.broadcast(target, wide))
    flat_x = imp.reshape(imp.cast(x, dtype), (n,))
    vals = imp.reshape(imp.operand(values, shape, dtype), (1, m))
    pick = lambda last: imp.gather(imp.reshape(vals, (m,)), last, 0)
    return imp.reshape(_combine_writes(imp, val, flat_x, hit, vals, 1, reduce, include_self,
                                       pick), val.shape)


# Writes per destination above which a summing scatter adds each write
# atomically (xtensor.scatter_add: O(writes) work, one kernel for the
# writes after one for the destination) rather than having each element
# compare itself with the writes that may reach it (O(numel * writes),
# elementwise, fusing with its neighbours).
ATOMIC_WRITES = 32

# Element types added atomically, and those added in a wider type and
# rounded (or wrapped) back once.
_ATOMIC = {torch.float32: torch.float32, torch.float64: torch.float64,
           torch.int32: torch.int32, torch.int64: torch.int64,
           torch.float16: torch.float32, torch.bfloat16: torch.float32,
           torch.int8: torch.int32, torch.uint8: torch.int32, torch.int16: torch.int32}


def _atomic_type(dtype, writes):
    """The type a summing scatter of `writes` writes per destination adds
    in atomically, or None where comparing is the better (or only) way:
    few writes, a type no atomic covers, or deterministic algorithms
    requested (atomic float sums vary in rounding from run to run)."""
    if isinstance(writes, int) and writes <= ATOMIC_WRITES:
        return None
    if dtype.is_floating_point and torch.are_deterministic_algorithms_enabled():
        return None
    return _ATOMIC.get(dtype)


# Up to this many writes, a summing put of slices into a 16-bit
# destination of at least twice as many slices adds into a compact buffer
# of one slot per write (_sum_into_slots) rather than into an f32 copy of
# the destination.
SLOT_WRITES = 8192


def _sum_into_slots(imp, val, x, p, ids, values, shape, acc):
    """x with the slices of `values` (of `shape`: x's, with the writes'
    index shape at p) added at the T int64 positions `ids` (of shape [T],
    wrapped) along p, in `acc` (f32 for 16-bit floats, rounded once, as
    eager's CUDA kernel does), touching only the written slices: each
    write finds the first write to its slice (a [T, T] comparison), the
    writes add into that first one's slot of a [.., T, ..] buffer (a
    scatter-add), each slice finds the slot that holds its sum (a
    scatter-add of the first writes' positions), and every element of the
    result is x's, or x's plus its slot's sum: one elementwise kernel
    over the destination, which fuses with what reads it. An embedding's
    gradient (a zero table) is thus written once, in its consumer's type,
    rather than filled, added into and read back."""
    L, T = x.shape[p], ids.shape[0]
    wide = (T, T)
    same = imp.compare("eq", wide, imp.broadcast(imp.reshape(ids, (T, 1)), wide),
                       imp.broadcast(imp.reshape(ids, (1, T)), wide))
    slot = imp.reduce("min", imp.where(same, imp.iota(wide, 1), T, wide, torch.int64), [1])
    rows = tuple(x.shape[:p]) + (T,) + tuple(x.shape[p + 1:])
    src = imp.reshape(imp.cast(imp.operand(values, shape, val.dtype), acc), rows)
    sums = imp.scatter_add(src, imp.const(0, rows, acc), slot, p)
    position = imp.iota((T,), 0)
    first = imp.where(imp.compare("eq", (T,), slot, position),
                      imp.binary("add", position, 1, (T,), torch.int64), 0, (T,), torch.int64)
    holder = imp.binary("sub", imp.scatter_add(first, imp.const(0, (L,), torch.int64), ids, 0),
                        1, (L,), torch.int64)
    out = tuple(val.shape)
    along = (1,) * p + (L,) + (1,) * (len(out) - p - 1)
    written = imp.broadcast(imp.reshape(imp.compare("ge", (L,), holder, 0), along), out)
    picked = imp.gather(sums, imp.binary("max", holder, 0, (L,), torch.int64), p)
    xs = imp.cast(imp.operand(x, out, val.dtype), acc)
    added = imp.cast(imp.binary("add", xs, picked, out, acc), val.dtype)
    return imp.where(written, added, imp.operand(x, out, val.dtype), out, val.dtype)


def _scatter_sum(imp, val, x, flat_index, values, shape, acc):
    """x plus the elements of `values` (of `shape`) at the row-major
    linear positions `flat_index` (int64, of `shape`), added atomically
    in `acc` (xtensor.scatter_add over the flattened x)."""
    n, m = size_product(x.shape), size_product(shape)
    dest = imp.reshape(imp.cast(x, acc), (n,))
    src = imp.reshape(imp.cast(imp.operand(values, shape, val.dtype), acc), (m,))
    total = imp.scatter_add(src, dest, imp.reshape(flat_index, (m,)), 0)
    return imp.cast(imp.reshape(total, val.shape), val.dtype)


def _scatter_along(imp, val, x, d, index, values, reduce=None, include_self=True):
    """_scatter of writes along dimension d only: `index` (int64, of
    x's shape but for k along d) names, for each of its elements, the
    position along d that the element of `values` (of index's shape, or
    a number) at the same place writes. Each output element looks at
    the k writes of its own line: O(numel(x) * k) work (a one-hot
    scatter, cross-entropy's gradient, is elementwise)."""
    dtype = val.dtype
    shape, k = tuple(x.shape), index.shape[d]
    if reduce in ("sum", "add") and include_self:
        acc = _atomic_type(dtype, k)
        if acc is not None:
            coords = [index if m == d else imp.iota(index.shape, m)
                      for m in range(len(shape))]
            return _scatter_sum(imp, val, x, linear_index(imp, coords, shape, index.shape),
                                values, index.shape, acc)
    wide = shape[:d + 1] + (k,) + shape[d + 1:]
    lined = index.shape[:d] + (1, k) + index.shape[d + 1:]
    hit = imp.compare("eq", wide, imp.iota(wide, d),
                      imp.broadcast(imp.reshape(index, lined), wide))
    vals = imp.operand(values, index.shape, dtype)

    def pick(last):
        return take(imp, vals, [last if m == d else imp.iota(shape, m)
                                for m in range(len(shape))], shape)
    return _combine_writes(imp, val, imp.cast(x, dtype), hit, imp.reshape(vals, lined),
                           d + 1, reduce, include_self, pick)


def _combine_writes(imp, val, dest, hit, vals, axis, reduce, include_self, pick):
    """dest (the destination's elements) with the writes that `hit`
    marks along `axis` (which of the values, `vals` broadcast to hit's
    shape, reach each element): combined by `reduce`, or the last
    write's value, `pick(its position along axis)`, elementwise."""
    dtype, wide, out = val.dtype, hit.shape, dest.shape
    if reduce is not None:
        kind = _SCATTER_KINDS.get(reduce)
        if kind is None:
            raise UnsupportedError(f"scatter with reduce={reduce!r} is not supported")
        none = imp.const(identity(kind, dtype), wide, dtype)
        picked = imp.where(hit, imp.broadcast(vals, wide), none, wide, dtype)
        total = _reduce_axis(imp, kind, picked, axis)
        count = _reduce_axis(imp, "sum", imp.cast(hit, dtype), axis)
        written = imp.compare("gt", out, count, 0)
        if include_self:
            total = imp.binary(COMBINE[kind], dest, total, out, dtype)
            count = imp.binary("add", count, 1, out, dtype)
        if reduce == "mean":
            count = imp.binary("max", count, 1, out, dtype)
            total = div(imp, Shape(out, dtype), total, count,
                        None if dtype.is_floating_point else "floor")
        if not include_self:
            total = imp.where(written, total, dest, out, dtype)
        return total
    last = _last_write(imp, hit, axis)
    written = imp.compare("ge", out, last, 0)
    picked = pick(imp.binary("max", last, 0, out, torch.int64))
    return imp.where(written, picked, dest, out, dtype)


def _last_write(imp, hit, axis=1):
    """For each destination of `hit`, a bool tensor of which of the
    writes along `axis` target it, the last such write's position, or
    -1."""
    wide = hit.shape
    none = imp.const(-1, wide, torch.int64)
    which = imp.where(hit, imp.iota(wide, axis), none, wide, torch.int64)
    return _reduce_axis(imp, "max", which, axis)


def _reduce_axis(imp, kind, x, axis):
    """The reduction `kind` of x over `axis`; over one write, x without
    that axis (elementwise: it fuses with what reads it)."""
    if is_int(x.shape[axis], 1):
        return imp.reshape(x, x.shape[:axis] + x.shape[axis + 1:])
    return imp.reduce(kind, x, [axis])


def _masked_put(imp, val, x, indices, values, accumulate):
    """x[..., mask] = values (or +=) with one boolean index tensor: the
    k-th masked position (row-major over the mask's dimensions) takes
    the k-th of `values` along that axis, or its only one when it
    broadcasts. Where the mask is false, x stays."""
    p = next(m for m, t in enumerate(indices) if t is not None)
    mask = indices[p]
    m = len(mask.shape)
    rank = len(x.shape)
    pre, post = x.shape[:p], x.shape[p + m:]
    shape = tuple(val.shape)
    maskb = imp.broadcast(imp.reshape(imp.cast(mask, torch.bool),
                                      (1,) * p + mask.shape + (1,) * len(post)), shape)
    v = values if isinstance(values, Value) else None
    lead = len(pre) + 1 + len(post)
    if v is not None and len(v.shape) > lead:
        raise UnsupportedError("index_put values of more dimensions than the indexed "
                               "result are not supported")
    vs = (1,) * (lead - len(v.shape)) + tuple(v.shape) if v is not None else (1,) * lead
    count = vs[len(pre)]
    target = pre + (count,) + post
    vb = imp.broadcast(imp.reshape(imp.cast(v, val.dtype), vs), target) if v is not None \
        else imp.const(values, target, val.dtype)
    if count == 1:
        k = imp.const(0, shape, torch.int64)
    else:
        n = math.prod(mask.shape)
        flat = imp.cast(imp.reshape(imp.cast(mask, torch.bool), (n,)), torch.int64)
        k = imp.binary("sub", scan(imp, "sum", flat, 0), 1, (n,), torch.int64)
        k = imp.binary("min", imp.binary("max", k, 0, (n,), torch.int64), count - 1,
                       (n,), torch.int64)
        k = imp.broadcast(imp.reshape(k, (1,) * p + mask.shape + (1,) * len(post)), shape)
    coords = [imp.iota(shape, d) for d in range(p)] + [k] + \
        [imp.iota(shape, d) for d in range(p + m, rank)]
    picked = take(imp, vb, coords, shape)
    if accumulate:
        return imp.binary("add", x, imp.where(maskb, picked, 0, val.shape, val.dtype),
                          shape, val.dtype)
    return imp.where(maskb, picked, x, val.shape, val.dtype)


@lowering("index_put")
def index_put(imp, val, input, indices, values, accumulate=False):
    given = [t for t in indices if t is not None]
    if len(given) == 1 and given[0].dtype == torch.bool:
        return _masked_put(imp, val, input, list(indices), values, accumulate)
    coords, shape = _index_coords(imp, input, indices)
    if all(isinstance(d, int) for d in shape) and math.prod(shape) == 0:
        return imp.operand(input, val.shape, val.dtype)
    if len(given) == 1 and accumulate:
        writes = size_product(given[0].shape)
        acc = _atomic_type(val.dtype, writes)
        if acc is not None:
            # Sums into slices (an embedding's gradient): each of the
            # indexed slices of values added into its slice of input.
            p = next(m for m, t in enumerate(indices) if t is not None)
            idx = wrapped(imp, given[0], input.shape[p], given[0].shape)
            # Into slots where the result is 16-bit, or read only in 16
            # bits (the f32 table's copy would be filled, added into and
            # read back by the rounding).
            narrow = val.dtype in (torch.float16, torch.bfloat16) or imp.read_narrowed()
            if narrow and isinstance(writes, int) and writes <= SLOT_WRITES and \
                    isinstance(input.shape[p], int) and input.shape[p] >= 2 * writes:
                return _sum_into_slots(imp, val, input, p, imp.reshape(idx, (writes,)),
                                       values, shape, acc)
            src = imp.cast(imp.operand(values, shape, val.dtype), acc)
            total = imp.scatter_add(src, imp.cast(imp.operand(input, val.shape, val.dtype), acc),
                                    idx, p)
            return imp.cast(total, val.dtype)
    if len(given) == 1 and len(given[0].shape) == 1:
        p = next(m for m, t in enumerate(indices) if t is not None)
        if not accumulate:
            return _put_slices(imp, val, input, p, given[0], values, shape)
        # Sums into slices (an embedding's gradient): along dimension p.
        return _scatter_along(imp, val, input, p, coords[p], imp.operand(values, shape, val.dtype),
                              "sum")
    return _scatter(imp, val, input, coords, shape, values, "sum" if accumulate else None)


def _put_slices(imp, val, x, p, index, values, shape):
    """x with its slices along dimension p at the T positions of the
    1-D `index` replaced by the T slices of `values` (broadcast to
    `shape`, x's shape with T at p); the last write to a slice wins, as
    in _scatter. This is `index_copy_` and `x[:, :, pos] = v`, a KV
    cache's update: each of x's L slices finds the last position that
    writes it in an [L, T] comparison, and then takes one element, so
    the work is O(L * T + numel(x)) rather than _scatter's
    O(numel(x) * numel(shape))."""
    L, T = x.shape[p], index.shape[0]
    if index.inverse is not None and L == T:
        # A permutation (a sort's indices): slice j takes the value whose
        # index is j, the one at the inverse's j.
        return imp.gather(imp.operand(values, shape, val.dtype), index.inverse, p)
    wide = (L, T)
    target = imp.reshape(wrapped(imp, index, L, (T,)), (1, T))
    last = _last_write(
        imp, imp.compare("eq", wide, imp.iota(wide, 0), imp.broadcast(target, wide)))
    along = (1,) * p + (L,) + (1,) * (len(x.shape) - p - 1)
    written = imp.broadcast(imp.reshape(imp.compare("ge", (L,), last, 0), along), val.shape)
    source = imp.binary("max", last, 0, (L,), torch.int64)
    picked = imp.gather(imp.operand(values, shape, val.dtype), source, p)
    return imp.where(written, picked, imp.cast(x, val.dtype), val.shape, val.dtype)


@lowering("scatter")
def scatter(imp, val, input, dim, index, src=None, value=None, reduce=None,
            include_self=True):
    x = input if input.shape else imp.reshape(input, (1,))
    shape = index.shape if index.shape else (1,)
    if math.prod(shape) == 0:
        return imp.operand(input, val.shape, val.dtype)
    d = dim % len(x.shape)
    index = imp.reshape(index, shape)
    if (src is not None and reduce is None and index.inverse is not None and
            tuple(shape) == tuple(x.shape) == tuple(index.inverse.shape) and
            d == len(shape) - 1):
        # Each row permuted (a sort's indices along the last dimension):
        # position j takes src's element at the inverse's j.
        src = imp.cast(src, val.dtype)
        return take(imp, src, [index.inverse if m == d else imp.iota(shape, m)
                               for m in range(len(shape))], shape)
    if src is not None:
        src = src if src.shape else imp.reshape(src, (1,))
        values = src if tuple(src.shape) == tuple(shape) else \
            take(imp, src, [imp.iota(shape, m) for m in range(len(shape))], shape)
    else:
        values = value
    if len(shape) == len(x.shape) and all(
            is_int(a, b) for m, (a, b) in enumerate(zip(shape, x.shape)) if m != d):
        return imp.reshape(_scatter_along(imp, val, x, d, wrapped(imp, index, x.shape[d], shape),
                                          values, reduce, include_self), val.shape)
    coords = [wrapped(imp, index, x.shape[m], shape) if m == d else imp.iota(shape, m)
              for m in range(len(x.shape))]
    return _scatter(imp, val, x, coords, shape, values, reduce, include_self)


@lowering("scatter_add")
def scatter_add(imp, val, input, dim, index, src):
    return scatter(imp, val, input, dim, index, src, reduce="sum")


@lowering("scatter_reduce")
def scatter_reduce(imp, val, input, dim, index, src, reduce, include_self=True):
    return scatter(imp, val, input, dim, index, src, reduce=reduce,
                   include_self=include_self)


@lowering("masked_scatter")
def masked_scatter(imp, val, input, mask, source):
    # The k-th masked position (in row-major order) takes source's k-th
    # element: k from a scan of the mask.
    n = math.prod(val.shape)
    if n == 0 or math.prod(source.shape) == 0:
        return imp.operand(input, val.shape, val.dtype)
    m = imp.reshape(imp.broadcast(imp.cast(mask, torch.bool), val.shape), (n,))
    k = imp.binary("sub", scan(imp, "sum", imp.cast(m, torch.int64), 0), 1,
                   (n,), torch.int64)
    k = imp.binary("min", imp.binary("max", k, 0, (n,), torch.int64),
                   math.prod(source.shape) - 1, (n,), torch.int64)
    src = imp.reshape(imp.cast(source, val.dtype), (math.prod(source.shape),))
    picked = imp.reshape(imp.gather(src, k, 0), val.shape)
    return imp.where(imp.reshape(m, val.shape), picked, input, val.shape, val.dtype)


@lowering("masked_scatter_backward")
def masked_scatter_backward(imp, val, grad_output, mask, sizes):
    """The gradient of masked_scatter's source: its k-th element is
    grad_output at the k-th masked position, found by a binary search
    of the mask's running count; zero past the last one."""
    n, m = math.prod(grad_output.shape), math.prod(val.shape)
    if n == 0 or m == 0:
        return imp.fill(val, 0)
    flat = imp.reshape(imp.broadcast(imp.cast(mask, torch.bool), grad_output.shape), (n,))
    count = scan(imp, "sum", imp.cast(flat, torch.int64), 0)
    k = imp.iota((m,), 0)
    at = lower_bound(imp, count, imp.binary("add", k, 1, (m,), torch.int64))
    g = imp.gather(imp.reshape(imp.cast(grad_output, val.dtype), (n,)), at, 0)
    total = imp.slice(count, [n - 1], [n], (1,))
    found = imp.compare("lt", (m,), k, total)
    return imp.reshape(imp.where(found, g, 0, (m,), val.dtype), val.shape)


def lower_bound(imp, ascending, targets):
    """For each of `targets`, the first position of the 1-D int64
    `ascending` whose value is at least it (its last position where
    none is): ceil(log2(n)) halvings, each a gather."""
    n = ascending.shape[0]
    shape = targets.shape
    lo = imp.const(0, shape, torch.int64)
    hi = imp.const(n - 1, shape, torch.int64)
    span = n
    while span > 1:
        mid = imp.binary("div", imp.binary("add", lo, hi, shape, torch.int64), 2, shape,
                         torch.int64)
        below = imp.compare("lt", shape, imp.gather(ascending, mid, 0), targets)
        lo = imp.where(below, imp.binary("add", mid, 1, shape, torch.int64), lo, shape,
                       torch.int64)
        hi = imp.where(below, hi, mid, shape, torch.int64)
        span = (span + 1) // 2
    # (A target past the last value can step lo one past hi.)
    return imp.binary("min", lo, n - 1, shape, torch.int64)


@lowering("slice_scatter")
def slice_scatter(imp, val, input, src, dim=0, start=None, end=None, step=1):
    x = input
    rank = len(x.shape)
    d = dim % rank
    n = x.shape[d]
    start = 0 if start is None else (start + n if start < 0 else start)
    start = min(max(start, 0), n)
    count = src.shape[d]
    if count == 0:
        return imp.operand(x, val.shape, val.dtype)
    src = imp.cast(src, val.dtype)
    if step == 1:
        low, high = [0] * rank, [0] * rank
        low[d], high[d] = start, n - start - count
        placed = imp.pad(src, low, high)
    else:
        # src's element for position i along d: (i - start) / step.
        coords = [imp.iota(x.shape, m) for m in range(rank)]
        at = imp.binary("sub", coords[d], start, x.shape, torch.int64)
        at = imp.binary("max", at, 0, x.shape, torch.int64)
        at = imp.binary("div", at, step, x.shape, torch.int64)
        coords[d] = imp.binary("min", at, count - 1, x.shape, torch.int64)
        placed = take(imp, src, coords, x.shape)
    i = imp.iota(x.shape, d)
    off = imp.binary("sub", i, start, x.shape, torch.int64)
    inside = imp.binary("and", imp.compare("ge", x.shape, off, 0),
                        imp.compare("lt", x.shape, off, count * step),
                        x.shape, torch.bool)
    if step != 1:
        rem = imp.binary("rem", off, step, x.shape, torch.int64)
        inside = imp.binary("and", inside, imp.compare("eq", x.shape, rem, 0),
                            x.shape, torch.bool)
    return imp.where(inside, placed, x, val.shape, val.dtype)


@lowering("select_scatter")
def select_scatter(imp, val, input, src, dim, index):
    d = dim % len(input.shape)
    index %= input.shape[d]
    shape = list(input.shape)
    shape[d] = 1
    return slice_scatter(imp, val, input, imp.reshape(src, shape), d,
                         index, index + 1)


@lowering("upsample_nearest2d")
def upsample_nearest2d(imp, val, input, output_size=None, scale_factors=None):
    # PyTorch's "nearest": source index min(floor(i * scale), in - 1)
    # with scale = 1 / scale_factor when one is given, else in / out,
    # both as f32 (its arithmetic, so the same elements are picked).
    x = input
    shape = tuple(val.shape)
    coords = [imp.iota(shape, 0), imp.iota(shape, 1)]
    for k, d in enumerate(range(2, len(shape))):
        scale = (1.0 / scale_factors[k] if scale_factors else x.shape[d] / shape[d])
        scale = float(torch.tensor(scale, dtype=torch.float32))
        i = imp.binary("mul", imp.iota(shape, d, torch.float32), scale, shape, torch.float32)
        i = imp.cast(imp.unary("floor", i, shape, torch.float32), torch.int64)
        coords.append(imp.binary("min", i, x.shape[d] - 1, shape, torch.int64))
    return take(imp, x, coords, shape)


@lowering("upsample_bilinear2d")
def upsample_bilinear2d(imp, val, input, output_size=None, align_corners=False,
                        scale_factors=None, scales_h=None, scales_w=None):
    # PyTorch's source position per output index, in its arithmetic
    # (f32, f64 for f64): o * (in - 1) / (out - 1) with align_corners,
    # else max((o + 0.5) * scale - 0.5, 0) with scale = 1 / factor when
    # one is given, else in / out; then the two neighbours weighted.
    x, shape = input, tuple(val.shape)
    c = torch.float64 if val.dtype == torch.float64 else torch.float32
    given = list(scale_factors) if scale_factors else [scales_h, scales_w]
    spatial = len(shape) - 2
    taps = []  # per spatial dimension: (low index, high index, high weight)
    for k, d in enumerate(range(2, len(shape))):
        n_in, n_out = x.shape[d], shape[d]
        o = imp.iota(shape, d, c)
        if align_corners:
            scale = (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
        else:
            f = given[k] if k < len(given) else None
            scale = 1.0 / f if f else n_in / n_out
        scale = float(torch.tensor(scale, dtype=c))
        if align_corners:
            src = imp.binary("mul", o, scale, shape, c)
        else:
            src = imp.binary("sub", imp.binary("mul", imp.binary("add", o, 0.5, shape, c),
                                               scale, shape, c), 0.5, shape, c)
            src = imp.binary("max", src, 0, shape, c)
        lo_f = imp.unary("floor", src, shape, c)
        lo = imp.binary("min", imp.cast(lo_f, torch.int64), n_in - 1, shape, torch.int64)
        hi = imp.binary("min", imp.binary("add", lo, 1, shape, torch.int64), n_in - 1,
                        shape, torch.int64)
        taps.append((lo, hi, imp.binary("sub", src, lo_f, shape, c)))
    base = [imp.iota(shape, 0), imp.iota(shape, 1)]
    xc = imp.cast(x, c)

    def blend(k, coords):
        """The interpolation over spatial dimensions k.. at fixed
        coordinates before them."""
        if k == spatial:
            return take(imp, xc, coords, shape)
        lo, hi, w1 = taps[k]
        w0 = imp.binary("sub", 1, w1, shape, c)
        a, b = blend(k + 1, coords + [lo]), blend(k + 1, coords + [hi])
        return imp.binary("add", imp.binary("mul", w0, a, shape, c),
                          imp.binary("mul", w1, b, shape, c), shape, c)
    return imp.cast(blend(0, base), val.dtype)


def _grid_coordinate(imp, g, k, size, align_corners, padding_mode, grad=False):
    """Coordinate k (0: x, 1: y, 2: z) of the grid `g` ([n, *points, dims]
    in the compute type) as a position along an input dimension of
    `size`, with grid_sample's padding (1: the border, 2: reflection)
    applied; with `grad`, (the position, its derivative in the grid's
    coordinate)."""
    gshape, c = g.shape[:-1], g.dtype
    t = imp.reshape(take(imp, g, [imp.iota(gshape, d) for d in range(len(gshape))]
                         + [imp.const(k, gshape, torch.int64)], gshape), gshape)
    if align_corners:
        t = imp.binary("mul", imp.binary("mul", imp.binary("add", t, 1, gshape, c), 0.5,
                                         gshape, c), size - 1, gshape, c)
    else:
        t = imp.binary("mul", imp.binary("sub", imp.binary(
            "mul", imp.binary("add", t, 1, gshape, c), size, gshape, c), 1, gshape, c),
            0.5, gshape, c)
    t, d = _pad_coordinate(imp, t, size, align_corners, padding_mode, grad)
    if not grad:
        return t
    scale = (size - 1) / 2 if align_corners else size / 2
    return t, imp.binary("mul", d, scale, gshape, c)


def _pad_coordinate(imp, t, size, align_corners, padding_mode, grad=False):
    """(t, positions along a dimension of `size`, with grid_sample's
    padding applied: 1 clips to the border, 2 reflects about the edges
    and clips; with `grad`, its derivative in t as PyTorch's backward
    takes it: -1 where a reflection mirrors, 0 where clipping holds it at
    or beyond an edge; else None)."""
    gshape, c = t.shape, t.dtype
    d = imp.const(1, gshape, c) if grad else None
    if padding_mode == 2:
        low, high = (0, 2 * (size - 1)) if align_corners else (-1, 2 * size - 1)
        if low == high:
            zero = imp.const(0, gshape, c)
            return zero, (zero if grad else None)
        lo, span = low / 2, (high - low) / 2
        shifted = imp.binary("sub", t, lo, gshape, c)
        a = imp.unary("abs", shifted, gshape, c)
        extra = imp.binary("rem", a, span, gshape, c)
        flips = imp.unary("floor", imp.binary("div", a, span, gshape, c), gshape, c)
        even = imp.compare("eq", gshape, imp.binary("rem", flips, 2, gshape, c), 0)
        t = imp.where(even, imp.binary("add", extra, lo, gshape, c),
                      imp.binary("sub", span + lo, extra, gshape, c), gshape, c)
        if grad:
            # Mirrored below the low edge, and by each odd flip.
            below = imp.compare("lt", gshape, shifted, 0)
            d = imp.where(imp.binary("xor", below, even, gshape, torch.bool), 1, -1, gshape, c)
    if padding_mode in (1, 2):
        if grad:
            held = imp.binary("or", imp.compare("le", gshape, t, 0),
                              imp.compare("ge", gshape, t, size - 1), gshape, torch.bool)
            d = imp.where(held, 0, d, gshape, c)
        t = imp.binary("min", imp.binary("max", t, 0, gshape, c), size - 1, gshape, c)
    return t, d


def _tap_bounds(imp, ps, sizes):
    """(whether the int64 positions `ps` (x, y[, z]) are inside an image of
    `sizes` (its width, height[, depth]), each position clamped into it)."""
    gshape = ps[0].shape
    inside, clamped = None, []
    for t, size in zip(ps, sizes):
        within = imp.binary("and", imp.compare("ge", gshape, t, 0),
                            imp.compare("lt", gshape, t, size), gshape, torch.bool)
        inside = within if inside is None else imp.binary("and", inside, within, gshape,
                                                          torch.bool)
        clamped.append(imp.binary("min", imp.binary("max", t, 0, gshape, torch.int64),
                                  size - 1, gshape, torch.int64))
    return inside, clamped


def _spread(imp, t, shape):
    """A value over the grid's points ([n, *points]) broadcast over the
    channels of `shape` ([n, channels, *points])."""
    return imp.broadcast(imp.reshape(t, (shape[0], 1) + tuple(shape[2:])), shape)


def _image_index(imp, clamped, shape):
    """The coordinates [n, channel, (z,) y, x] of an input read at the
    clamped positions (x first) over `shape`."""
    return [imp.iota(shape, 0), imp.iota(shape, 1)] + \
        [_spread(imp, t, shape) for t in reversed(clamped)]


def _grid_tap(imp, xc, ps, weight, shape):
    """weight * xc[n, :, (z,) y, x] over the output `shape`, zero outside
    xc (ps: the int64 positions x, y[, z] over the grid)."""
    gshape, c = ps[0].shape, xc.dtype
    inside, clamped = _tap_bounds(imp, ps, xc.shape[:1:-1])
    weight = imp.where(inside, weight, 0, gshape, c)
    read = take(imp, xc, _image_index(imp, clamped, shape), shape)
    return imp.binary("mul", read, _spread(imp, weight, shape), shape, c)


def _cubic(imp, t, grad=False):
    """The 4 weights of a cubic convolution (A = -0.75, PyTorch's) of the
    taps at -1, 0, 1, 2 from floor(position), t its fraction; with
    `grad`, minus their derivatives in t, as PyTorch's backward takes
    them."""
    shape, c, A = t.shape, t.dtype, -0.75
    poly = lambda x, coeffs: _horner(imp, x, coeffs)
    one_minus = imp.binary("sub", 1, t, shape, c)
    if not grad:
        far = lambda x: poly(x, (A, -5 * A, 8 * A, -4 * A))        # 1 <= x < 2
        near = lambda x: poly(x, (A + 2, -(A + 3), 0, 1))          # x < 1
        return [far(imp.binary("add", t, 1, shape, c)), near(t), near(one_minus),
                far(imp.binary("add", one_minus, 1, shape, c))]
    x0 = imp.binary("sub", -1, t, shape, c)
    x1 = imp.unary("neg", t, shape, c)
    x3 = imp.binary("sub", 2, t, shape, c)
    return [poly(x0, (-3 * A, -10 * A, -8 * A)), poly(x1, (-3 * (A + 2), -2 * (A + 3), 0)),
            poly(one_minus, (3 * (A + 2), -2 * (A + 3), 0)), poly(x3, (3 * A, -10 * A, 8 * A))]


def _horner(imp, x, coeffs):
    """coeffs[0] * x^(n-1) + ... + coeffs[-1], by Horner's rule."""
    shape, c = x.shape, x.dtype
    acc = imp.const(coeffs[0], shape, c)
    for k in coeffs[1:]:
        acc = imp.binary("mul", acc, x, shape, c)
        if k:
            acc = imp.binary("add", acc, k, shape, c)
    return acc


def _product(imp, factors):
    """The elementwise product of `factors` (of one shape and type), in
    their order."""
    shape, c = factors[0].shape, factors[0].dtype
    return functools.reduce(lambda a, b: imp.binary("mul", a, b, shape, c), factors)


def _cubic_taps(imp, coords, sizes, align_corners, padding_mode, grad=False):
    """grid_sample's bicubic (tricubic over a volume) taps of positions
    `coords` (x, y[, z], unpadded), 4 per dimension, x fastest: ([x, y[,
    z]] int64, each padded on its own; the weight, the product of each
    dimension's cubic convolution weight, x first; and with `grad` its
    derivatives in each coordinate, else None)."""
    gshape, c = coords[0].shape, coords[0].dtype
    base = [imp.unary("floor", t, gshape, c) for t in coords]
    frac = [imp.binary("sub", t, b, gshape, c) for t, b in zip(coords, base)]
    weights = [_cubic(imp, t) for t in frac]
    slopes = [_cubic(imp, t, True) for t in frac] if grad else None
    at = [[imp.cast(_pad_coordinate(imp, imp.binary("add", b, k - 1, gshape, c), size,
                                    align_corners, padding_mode)[0], torch.int64)
           for k in range(4)] for b, size in zip(base, sizes)]
    taps = []
    for offsets in itertools.product(range(4), repeat=len(coords)):
        offsets = offsets[::-1]
        fs = [w[k] for w, k in zip(weights, offsets)]
        derivs = None
        if grad:
            # Minus each slope (the cubic's are negated) times the other
            # dimensions' weights.
            derivs = [imp.unary("neg", _product(imp, [slopes[d][k]] + fs[:d] + fs[d + 1:]),
                                gshape, c)
                      for d, k in enumerate(offsets)]
        taps.append(([p[k] for p, k in zip(at, offsets)], _product(imp, fs), derivs))
    return taps


def _linear_taps(imp, coords, grad=False):
    """The 2^N taps of N-linear interpolation at positions `coords` (x, y[,
    z]), x fastest as PyTorch sums them: ([x, y[, z]] int64, the weight (the
    product of each coordinate's distance to the tap's opposite corner, x
    first), and with `grad` its derivatives in each coordinate, else None)."""
    gshape, c = coords[0].shape, coords[0].dtype
    lo = [imp.unary("floor", t, gshape, c) for t in coords]
    hi = [imp.binary("add", t, 1, gshape, c) for t in lo]
    # The weight's factor along k for a tap at the low or high corner.
    factor = [(imp.binary("sub", h, t, gshape, c), imp.binary("sub", t, l, gshape, c))
              for t, l, h in zip(coords, lo, hi)]
    taps = []
    for bits in itertools.product((0, 1), repeat=len(coords)):
        bits = bits[::-1]
        ps = [imp.cast(h if b else l, torch.int64) for b, l, h in zip(bits, lo, hi)]
        fs = [f[b] for f, b in zip(factor, bits)]
        derivs = None
        if grad:
            derivs = []
            for k, b in enumerate(bits):
                rest = _product(imp, fs[:k] + fs[k + 1:])
                derivs.append(rest if b else imp.unary("neg", rest, gshape, c))
        taps.append((ps, _product(imp, fs), derivs))
    return taps


def _grid_positions(imp, g, sizes, align_corners, padding_mode, grad=False):
    """The grid's coordinates as positions along the input's dimensions of
    `sizes` (x first), padded; with `grad`, (positions, derivatives)."""
    got = [_grid_coordinate(imp, g, k, size, align_corners, padding_mode, grad)
           for k, size in enumerate(sizes)]
    return ([t for t, _ in got], [d for _, d in got]) if grad else got


@lowering("grid_sampler_2d", "grid_sampler_3d")
def grid_sampler(imp, val, input, grid, interpolation_mode, padding_mode, align_corners):
    # PyTorch's grid_sample: each output point reads the input at the
    # grid's (x, y[, z]) in [-1, 1], unnormalized to pixels, with padding
    # by zeros (0), the border (1) or reflection (2), and bilinear (0:
    # trilinear over a volume), nearest (1) or bicubic (2: tricubic over a
    # volume, 4 taps per dimension, each padded on its own) interpolation;
    # out-of-range taps read zero.
    shape = tuple(val.shape)
    sizes = tuple(input.shape[:1:-1])
    c = torch.float64 if val.dtype == torch.float64 else torch.float32
    g = imp.cast(grid, c)
    gshape = g.shape[:-1]
    xc = imp.cast(input, c)
    if interpolation_mode == 2:
        taps = _cubic_taps(imp, _grid_positions(imp, g, sizes, align_corners, 0), sizes,
                           align_corners, padding_mode)
    elif interpolation_mode == 1:
        v = Shape(gshape, c)
        taps = [([imp.cast(round_(imp, v, t), torch.int64) for t in
                  _grid_positions(imp, g, sizes, align_corners, padding_mode)],
                 imp.const(1, gshape, c), None)]
    else:
        taps = _linear_taps(imp, _grid_positions(imp, g, sizes, align_corners, padding_mode))
    out = None
    for ps, weight, _ in taps:
        t = _grid_tap(imp, xc, ps, weight, shape)
        out = t if out is None else imp.binary("add", out, t, shape, c)
    return imp.cast(out, val.dtype)


@lowering("grid_sampler_2d_backward", "grid_sampler_3d_backward")
def grid_sampler_backward(imp, val, grad_output, input, grid, interpolation_mode,
                          padding_mode, align_corners, output_mask):
    # The input's gradient: each output point's gradient added, with its
    # tap's weight, into the input positions it read (one scatter-add of
    # the taps); the grid's: the weights' derivatives in each coordinate
    # times the input values the taps read, summed over the channels,
    # times each coordinate's derivative (_grid_coordinate's, with grad).
    if torch.are_deterministic_algorithms_enabled():
        raise UnsupportedError("grid_sample's backward adds into the input's gradient "
                               "atomically, which deterministic algorithms exclude")
    n, ch = input.shape[:2]
    sizes = tuple(input.shape[:1:-1])
    c = torch.float64 if input.dtype == torch.float64 else torch.float32
    g = imp.cast(grid, c)
    gshape = tuple(g.shape[:-1])
    shape = (n, ch) + gshape[1:]
    # (Bicubic pads each tap, and its grid gradient does not see the
    # padding.)
    unpadded = 0 if interpolation_mode == 2 else padding_mode
    coords, dcoords = _grid_positions(imp, g, sizes, align_corners, unpadded, grad=True)
    go = imp.cast(grad_output, c)
    xc = imp.cast(input, c)
    if interpolation_mode == 1:
        v = Shape(gshape, c)
        taps = [([imp.cast(round_(imp, v, t), torch.int64) for t in coords],
                 imp.const(1, gshape, c), None)]
    elif interpolation_mode == 2:
        taps = _cubic_taps(imp, coords, sizes, align_corners, padding_mode, grad=True)
    else:
        taps = _linear_taps(imp, coords, grad=True)
    sources, targets = [], []
    grads = [None] * len(sizes)
    for ps, weight, derivs in taps:
        inside, clamped = _tap_bounds(imp, ps, sizes)
        index = _image_index(imp, clamped, shape)
        inside = _spread(imp, inside, shape)
        sources.append(imp.where(inside, imp.binary("mul", go, _spread(imp, weight, shape),
                                                    shape, c), 0, shape, c))
        targets.append(linear_index(imp, index, tuple(input.shape), shape))
        if derivs is None:
            continue
        # The input value the tap reads (zero outside), times the gradient,
        # summed over the channels.
        read = imp.where(inside, take(imp, xc, index, shape), 0, shape, c)
        s = imp.reduce("sum", imp.binary("mul", read, go, shape, c), [1])
        for k, d in enumerate(derivs):
            t = imp.binary("mul", s, d, gshape, c)
            grads[k] = t if grads[k] is None else imp.binary("add", grads[k], t, gshape, c)
    # One scatter-add per tap, each adding into the one before: each
    # takes in its tap's weight and position (a concatenation of the taps
    # would select among all of them at every element).
    m = math.prod(shape)
    acc = _ATOMIC[input.dtype]
    total = imp.const(0, (math.prod(input.shape),), acc)
    for source, target in zip(sources, targets):
        total = imp.scatter_add(imp.cast(imp.reshape(source, (m,)), acc), total,
                                imp.reshape(target, (m,)), 0)
    grad_input = imp.cast(imp.reshape(total, tuple(input.shape)), input.dtype)
    if grads[0] is None:
        grad_grid = imp.const(0, tuple(grid.shape), grid.dtype)
    else:
        parts = [imp.reshape(imp.binary("mul", t, d, gshape, c), gshape + (1,))
                 for t, d in zip(grads, dcoords)]
        grad_grid = imp.cast(imp.concat(parts, len(gshape), gshape + (len(parts),), c),
                             grid.dtype)
    return [grad_input, grad_grid]
