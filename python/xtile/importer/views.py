"""Views and movement: aliases and reshapes, expand, permute and
transpose, slice and select (along dynamic dimensions too), split, cat,
repeat, flip, diagonal, as_strided, padding."""
import math

import torch

from .errors import DynamicSizeError, UnsupportedError
from .indexing import take
from .registry import lowering
from .sizes import Sym, offset, size_range


@lowering("clone", "contiguous", "alias", "detach", "lift_fresh_copy")
def unchanged(imp, val, input, **unused):
    return input


@lowering("dropout")
def dropout(imp, val, input, p, train):
    if train and p > 0:
        raise UnsupportedError("dropout in training mode is not supported (export the model "
                               "in eval mode)")
    return input


@lowering("_assert_tensor_metadata")
def assert_tensor_metadata(imp, val, **unused):
    return None


@lowering("_assert_async")
def assert_async(imp, val, **unused):
    # A runtime check of data (one_hot's range check): xtile's kernels
    # do not raise; the check is dropped.
    return None


@lowering("view", "reshape", "_unsafe_view", "flatten", "unsqueeze", "squeeze")
def view(imp, val, input, **unused):
    return imp.reshape(input, val.shape)


@lowering("expand")
def expand(imp, val, input, size, implicit=False):
    return imp.broadcast(input, val.shape)


@lowering("permute")
def permute(imp, val, input, dims):
    if not input.shape:
        return input
    return imp.transpose(input, [d % len(input.shape) for d in dims])


@lowering("transpose")
def transpose(imp, val, input, dim0, dim1):
    perm = list(range(len(input.shape)))
    if not perm:
        return input
    d0, d1 = dim0 % len(perm), dim1 % len(perm)
    perm[d0], perm[d1] = perm[d1], perm[d0]
    return imp.transpose(input, perm)


@lowering("t")
def t(imp, val, input):
    return imp.transpose(input, [1, 0]) if len(input.shape) == 2 else input


@lowering("slice")
def slice_(imp, val, input, dim=0, start=None, end=None, step=1):
    x = input
    dim %= len(x.shape)
    size = x.shape[dim]
    if isinstance(size, Sym):
        return _slice_dynamic(imp, val, x, dim, start, end, step)
    start = 0 if start is None else (start + size if start < 0 else start)
    end = size if end is None else (end + size if end < 0 else end)
    start, end = min(max(start, 0), size), min(max(end, 0), size)
    end = max(start, end)
    starts = [0] * len(x.shape)
    ends = list(x.shape)
    strides = [1] * len(x.shape)
    starts[dim], ends[dim], strides[dim] = start, end, step
    return imp.slice(x, starts, ends, val.shape, strides)


def from_end(imp, size, offset, at):
    """The positions size + offset + at (`at` an int64 vector) along a
    dynamic size (Importer.size_value)."""
    n = at.shape[0]
    first = imp.binary("add", imp.broadcast(imp.reshape(imp.size_value(size), (1,)), (n,)),
                       offset, (n,), torch.int64)
    return imp.binary("add", at, first, (n,), torch.int64)


def _slice_dynamic(imp, val, x, dim, start, end, step):
    """A slice along a dynamic dimension: whole (the input), or a
    window of a static length (PyTorch's size is a number: it lies
    within the smallest size), gathered at start + step * i, or at
    size + start + step * i for a start counted from the end. Anything
    else needs a size that is an expression of the dynamic one."""
    size = x.shape[dim]
    start = 0 if start is None else start
    whole = (start == 0 and step == 1 and
             (end is None or end == size or
              (isinstance(end, int) and end >= size_range(size.name, imp.symbols)[1])))
    if whole:
        return x
    n = val.shape[dim]
    if isinstance(n, Sym) and isinstance(start, int) and start >= 0 and step == 1:
        # From a start to an end counted from the size's end: a size
        # expression (x[1:] and x[:-1] of T rows are T - 1).
        back = (0 if end is None or (isinstance(end, int)
                                     and end >= size_range(size.name, imp.symbols)[1])
                else end if isinstance(end, int) and end < 0
                else offset(end, size) if isinstance(end, Sym) else None)
        if back is not None and back <= 0:
            ends = list(x.shape)
            ends[dim] = back - 1
            starts = [0] * len(x.shape)
            starts[dim] = start
            return imp.slice(x, starts, ends, val.shape)
    if isinstance(n, int) and isinstance(start, int) and start >= 0:
        at = imp.iota((n,), 0)
        if step != 1:
            at = imp.binary("mul", at, step, (n,), torch.int64)
        if start:
            at = imp.binary("add", at, start, (n,), torch.int64)
        return imp.gather(x, at, dim)
    if isinstance(n, int) and isinstance(start, int) and start < 0:
        # A window of static length from the end (x[:, -1:]).
        at = imp.iota((n,), 0)
        if step != 1:
            at = imp.binary("mul", at, step, (n,), torch.int64)
        return imp.gather(x, from_end(imp, size, start, at), dim)
    raise DynamicSizeError(
        f"operator {imp.what} slices the dynamic dimension {dim} ({size}) from "
        f"{start} to {end} with step {step}: its result's size ({n}) would be an "
        "expression of the dynamic size (a slice keeps a dynamic dimension "
        "whole, or takes a window of static length from a static start or one "
        "counted from the end)")


@lowering("select")
def select(imp, val, input, dim, index):
    x = input
    dim %= len(x.shape)
    if isinstance(x.shape[dim], Sym):
        # Index i of a dynamic dimension: a gather, at i or, counted
        # from the end (-1), at size + i.
        at = imp.const(max(index, 0), (1,), torch.int64)
        if index < 0:
            at = from_end(imp, x.shape[dim], index, imp.const(0, (1,), torch.int64))
        return imp.reshape(imp.gather(x, at, dim), val.shape)
    index %= x.shape[dim]
    shape = list(x.shape)
    shape[dim] = 1
    starts = [0] * len(x.shape)
    starts[dim] = index
    ends = list(x.shape)
    ends[dim] = index + 1
    return imp.reshape(imp.slice(x, starts, ends, shape), val.shape)


@lowering("split")
def split(imp, val, input, split_size, dim=0):
    dim %= len(input.shape)
    sizes = [v.shape[dim] for v in val]
    return split_with_sizes(imp, val, input, sizes, dim)


@lowering("split_with_sizes")
def split_with_sizes(imp, val, input, split_sizes, dim=0):
    out, start = [], 0
    dim %= len(input.shape)
    for v, s in zip(val, split_sizes):
        out.append(slice_(imp, v, input, dim, start, start + s))
        start += s
    return out


@lowering("cat")
def cat(imp, val, tensors, dim=0):
    xs = [imp.cast(x, val.dtype) for x in tensors
          if not (len(x.shape) == 1 and x.shape[0] == 0)]
    dim %= len(val.shape)
    xs = [x for x in xs if x.shape[dim] != 0]
    if not xs:
        return imp.const(0, val.shape, val.dtype)
    if len(xs) == 1:
        return xs[0]
    return imp.concat(xs, dim, val.shape, val.dtype)


@lowering("repeat")
def repeat(imp, val, input, repeats):
    x = input
    lead = len(repeats) - len(x.shape)
    shape = (1,) * lead + x.shape
    inter, wide = [], []
    for r, n in zip(repeats, shape):
        inter += [1, n]
        wide += [r, n]
    x = imp.broadcast(imp.reshape(x, tuple(inter)), tuple(wide))
    return imp.reshape(x, val.shape)


@lowering("flip")
def flip(imp, val, input, dims):
    x = input
    rank = len(x.shape)
    flipped = {d % rank for d in dims}
    coords = []
    for m in range(rank):
        i = imp.iota(x.shape, m)
        if m in flipped:
            i = imp.binary("sub", imp.const(x.shape[m] - 1, x.shape, torch.int64), i,
                           x.shape, torch.int64)
        coords.append(i)
    return take(imp, x, coords, x.shape)


@lowering("diagonal")
def diagonal(imp, val, input, offset=0, dim1=0, dim2=1):
    x = input
    rank = len(x.shape)
    d1, d2 = dim1 % rank, dim2 % rank
    shape = tuple(val.shape)
    if math.prod(shape) == 0:
        return imp.fill(val, 0)
    k = imp.iota(shape, len(shape) - 1)
    coords = [None] * rank
    for pos, m in enumerate(m for m in range(rank) if m not in (d1, d2)):
        coords[m] = imp.iota(shape, pos)
    coords[d1] = imp.binary("add", k, max(-offset, 0), shape, torch.int64)
    coords[d2] = imp.binary("add", k, max(offset, 0), shape, torch.int64)
    return take(imp, x, coords, shape)


@lowering("as_strided")
def as_strided(imp, val, input, size, stride, storage_offset=None):
    # Element offset + sum(i_k * stride_k) of the input's row-major
    # elements (a graph value is its own contiguous storage).
    x, shape = input, tuple(val.shape)
    n = math.prod(x.shape)
    if math.prod(shape) == 0:
        return imp.fill(val, 0)
    offset = storage_offset or 0
    last = offset + sum((s - 1) * st for s, st in zip(shape, stride))
    if offset < 0 or any(st < 0 for st in stride) or last >= n:
        raise UnsupportedError(f"as_strided reading outside its input's {n} elements "
                               f"(size {list(size)}, stride {list(stride)}, offset "
                               f"{offset}) is not supported")
    index = imp.const(offset, shape, torch.int64)
    for m, st in enumerate(stride):
        if st and shape[m] > 1:
            index = imp.binary("add", index, imp.binary(
                "mul", imp.iota(shape, m), st, shape, torch.int64), shape, torch.int64)
    return imp.gather(imp.reshape(x, (n,)), index, 0)


@lowering("constant_pad_nd")
def constant_pad_nd(imp, val, input, pad, value=0):
    # pad lists (low, high) pairs from the last dimension backwards;
    # negative amounts crop.
    rank = len(input.shape)
    low, high = [0] * rank, [0] * rank
    for k in range(len(pad) // 2):
        low[rank - 1 - k], high[rank - 1 - k] = pad[2 * k], pad[2 * k + 1]
    return pad_or_crop(imp, input, low, high, value)


def pad_or_crop(imp, x, low, high, value=0):
    """x padded by `low`/`high` per dimension; negative amounts crop."""
    if any(v < 0 for v in low + high):
        starts = [max(-v, 0) for v in low]
        ends = [n - max(-v, 0) for n, v in zip(x.shape, high)]
        x = imp.slice(x, starts, ends, tuple(b - a for a, b in zip(starts, ends)))
    return imp.pad(x, [max(v, 0) for v in low], [max(v, 0) for v in high], value)


def _edge_pad(imp, val, input, padding, reflect):
    """Reflection (the edge not repeated) or replication padding of the
    trailing dimensions: a gather at mirrored or clamped coordinates.
    `padding` lists (low, high) pairs from the last dimension back."""
    x, shape = input, tuple(val.shape)
    rank = len(x.shape)
    if math.prod(shape) == 0:
        return imp.fill(val, 0)
    coords = []
    for m in range(rank):
        i = imp.iota(shape, m)
        k = rank - 1 - m
        if 2 * k < len(padding):
            n = x.shape[m]
            i = imp.binary("sub", i, padding[2 * k], shape, torch.int64)
            if reflect:  # -i below 0, 2(n-1) - i above n-1
                i = imp.unary("abs", i, shape, torch.int64)
                i = imp.binary("sub", n - 1, imp.unary(
                    "abs", imp.binary("sub", n - 1, i, shape, torch.int64),
                    shape, torch.int64), shape, torch.int64)
            else:
                i = imp.binary("min", imp.binary("max", i, 0, shape, torch.int64),
                               n - 1, shape, torch.int64)
        coords.append(i)
    return take(imp, x, coords, shape)


@lowering("reflection_pad1d", "reflection_pad2d", "reflection_pad3d")
def reflection_pad(imp, val, input, padding):
    return _edge_pad(imp, val, input, padding, True)


@lowering("replication_pad1d", "replication_pad2d", "replication_pad3d")
def replication_pad(imp, val, input, padding):
    return _edge_pad(imp, val, input, padding, False)


@lowering("replication_pad1d_backward", "replication_pad2d_backward",
          "replication_pad3d_backward")
def replication_pad_backward(imp, val, grad_output, input, padding):
    """The gradient of a replication padding (negative amounts crop),
    one padded dimension at a time: grad_output shifted back by the low
    padding, with the sums over each side's padding and the edge it
    repeats at the first and last positions."""
    g = grad_output
    rank = len(g.shape)
    if math.prod(val.shape) == 0:
        return imp.fill(val, 0)
    acc = torch.float32 if val.dtype in (torch.float16, torch.bfloat16) else val.dtype
    g = imp.cast(g, acc)
    for k in range(len(padding) // 2):
        d = rank - 1 - k
        low, high = padding[2 * k], padding[2 * k + 1]
        n, total = input.shape[d], g.shape[d]
        if not low and not high:
            continue
        if n == 1 or total == 0:
            g = imp.reduce("sum", g, [d], keepdim=True) if total else \
                imp.const(0, g.shape[:d] + (1,) + g.shape[d + 1:], acc)
            continue
        shape = g.shape[:d] + (n,) + g.shape[d + 1:]
        amounts = lambda a: [a if m == d else 0 for m in range(rank)]
        middle = pad_or_crop(imp, g, amounts(-low), amounts(-high))

        def side(start, end):
            starts, ends = [0] * rank, list(g.shape)
            starts[d], ends[d] = start, end
            part = imp.slice(g, starts, ends, g.shape[:d] + (end - start,) + g.shape[d + 1:])
            return imp.reduce("sum", part, [d], keepdim=True)
        i = imp.iota(shape, d)
        if high > 0:
            g_last = side(max(n - 1 + low, 0), total)
            middle = imp.where(imp.compare("eq", shape, i, n - 1), g_last, middle, shape, acc)
        if low > 0:
            g_first = side(0, min(low + 1, total))
            middle = imp.where(imp.compare("eq", shape, i, 0), g_first, middle, shape, acc)
        g = middle
    return imp.cast(g, val.dtype)
