"""Convolution (im2col and a batched matmul; transposed convolution as
the convolution of a dilated input) and pooling (max and average
windows, adaptive pooling)."""
import math

import torch

from .errors import UnsupportedError
from .indexing import take
from .matmul import matmul
from .reductions import arg_extreme, identity
from .registry import lowering, register_each
from .sizes import Shape
from .views import flip, pad_or_crop


@lowering("convolution")
def convolution(imp, val, input, weight, bias, stride, padding, dilation,
                transposed, output_padding, groups):
    """A convolution as a contraction: the input's patches gathered
    into rows (im2col, one gather from the padded input), multiplied by
    the weight flattened to [out, in/groups * kernel] (a batched matmul
    over the groups), plus the bias."""
    if transposed:
        return _transposed_convolution(imp, val, input, weight, bias, stride, padding,
                                       dilation, output_padding, groups)
    spatial = len(input.shape) - 2
    if spatial < 1:
        raise UnsupportedError("convolution needs a batch and a channel dimension")
    x = input
    if x.dtype != val.dtype:
        x = imp.cast(x, val.dtype)
    n = x.shape[0]
    o = weight.shape[0]
    out = tuple(val.shape[2:])
    sp = len(out)
    x = imp.pad(x, [0, 0] + list(padding), [0, 0] + list(padding))
    g = groups
    cols = _im2col(imp, x, g, weight.shape[2:], out, stride, dilation)
    rows, k = cols.shape[1:]
    w = imp.reshape(imp.cast(weight, val.dtype), (g, o // g, k))
    w = imp.transpose(w, [0, 2, 1])
    # 16-bit: the f32 accumulator, the bias added to it, one rounding
    # (as PyTorch's convolutions).
    acc = torch.float32 if val.dtype in (torch.float16, torch.bfloat16) else val.dtype
    y = matmul(imp, cols, w, (g, rows, o // g), acc)
    # [g, rows, o/g] -> [n, *out, o] -> [n, o, *out]
    y = imp.reshape(imp.transpose(y, [1, 0, 2]), (n,) + out + (o,))
    if bias is not None:
        y = imp.binary("add", y, bias, y.shape, acc)
    y = imp.transpose(y, [0, sp + 1] + list(range(1, sp + 1)))
    return imp.cast(y, val.dtype)


def _im2col(imp, x, g, kernel, out, stride, dilation):
    """[g, n * prod(out), c/g * prod(kernel)]: the patches of x, a row
    per output position, for each of the g groups of its c channels."""
    n, c = x.shape[:2]
    cg = c // g
    # Patch coordinates over [n, *out, g, cg, *kernel].
    pshape = (n,) + out + (g, cg) + tuple(kernel)
    sp = len(out)
    coords = [imp.iota(pshape, 0)]
    group = imp.iota(pshape, 1 + sp)
    chan = imp.iota(pshape, 2 + sp)
    coords.append(imp.binary("add", imp.binary("mul", group, cg, pshape, torch.int64),
                             chan, pshape, torch.int64))
    for d in range(sp):
        at = imp.binary("mul", imp.iota(pshape, 1 + d), stride[d], pshape, torch.int64)
        off = imp.binary("mul", imp.iota(pshape, 3 + sp + d), dilation[d],
                         pshape, torch.int64)
        coords.append(imp.binary("add", at, off, pshape, torch.int64))
    patches = take(imp, x, coords, pshape)
    rows, k = n * math.prod(out), cg * math.prod(kernel)
    # [n, *out, g, k] -> [g, rows, k]
    return imp.transpose(imp.reshape(patches, (rows, g, k)), [1, 0, 2])


def _transposed_convolution(imp, val, input, weight, bias, stride, padding, dilation,
                            output_padding, groups):
    """The convolution whose gradient a convolution is: the input with
    stride - 1 zeros between its elements, padded by dilation * (k - 1)
    - padding (output_padding more at the end; negative amounts crop),
    convolved at stride 1 with the kernel flipped and its in/out
    channels swapped within each group."""
    x, w = input, weight
    sp = len(x.shape) - 2
    n, c = x.shape[:2]
    kernel = w.shape[2:]
    g = groups
    # Zeros between the elements: [.., i, 1, ..] padded to [.., i, s, ..].
    inter, spread = [n, c], [n, c]
    for i, st in zip(x.shape[2:], stride):
        inter += [i, 1]
        spread += [i, st]
    z = imp.pad(imp.reshape(x, inter), [0] * len(inter),
                [0, 0] + [v for st in stride for v in (0, st - 1)])
    z = imp.reshape(z, [n, c] + [i * st for i, st in zip(x.shape[2:], stride)])
    edge = [dl * (k - 1) - p for k, dl, p in zip(kernel, dilation, padding)]
    last = [(i - 1) * st + 1 - i * st for i, st in zip(x.shape[2:], stride)]
    z = pad_or_crop(imp, z, [0, 0] + edge,
                    [0, 0] + [e + l + op for e, l, op in zip(edge, last, output_padding)])
    # [c, o/g, *k] -> [o, c/g, *k], flipped.
    o = w.shape[1] * g
    w = imp.reshape(w, (g, c // g, o // g) + tuple(kernel))
    w = imp.transpose(w, [0, 2, 1] + list(range(3, 3 + sp)))
    w = imp.reshape(w, (o, c // g) + tuple(kernel))
    w = flip(imp, Shape(w.shape, w.dtype), w, list(range(2, 2 + sp)))
    return convolution(imp, val, z, w, bias, [1] * sp, [0] * sp, dilation, False,
                       [0] * sp, groups)


def _patches(imp, x, kernel, stride, padding, dilation, out, fill):
    """[n, c, *out, *kernel]: the windows of x (padded with `fill`)."""
    sp = len(kernel)
    x = imp.pad(x, [0, 0] + list(padding), [0, 0] + list(padding), fill)
    n, c = x.shape[:2]
    shape = (n, c) + tuple(out) + tuple(kernel)
    coords = [imp.iota(shape, 0), imp.iota(shape, 1)]
    for d in range(sp):
        at = imp.binary("mul", imp.iota(shape, 2 + d), stride[d], shape, torch.int64)
        off = imp.binary("mul", imp.iota(shape, 2 + sp + d), dilation[d], shape,
                         torch.int64)
        coords.append(imp.binary("add", at, off, shape, torch.int64))
    return take(imp, x, coords, shape), shape


def _pool_geometry(val, input, kernel_size, stride, padding, dilation=1):
    sp = len(input.shape) - 2
    as_list = lambda v, default: (list(v) * sp if len(v) == 1 else list(v)) \
        if isinstance(v, (list, tuple)) and v else [v if isinstance(v, int) else default] * sp
    kernel = as_list(kernel_size, 1)
    stride = as_list(stride, None) if stride else kernel
    padding = as_list(padding, 0)
    dilation = as_list(dilation, 1)
    out = tuple(val.shape[2:]) if not isinstance(val, (list, tuple)) else tuple(val[0].shape[2:])
    for d in range(sp):
        # A window that starts in the right padding (ceil_mode) would
        # read past it: not supported.
        if (out[d] - 1) * stride[d] >= input.shape[2 + d] + padding[d]:
            raise UnsupportedError("pooling with ceil_mode windows that start "
                                   "past the input is not supported")
    return kernel, stride, padding, dilation, out


def _batched(imp, spatial, fn, val, input, *args, **kwargs):
    """fn of a batched input ([N, C, *spatial]); an unbatched one
    ([C, *spatial]) is a batch of one."""
    if len(input.shape) == spatial + 2:
        return fn(imp, val, input, *args, **kwargs)
    one = lambda v: Shape((1,) + tuple(v.shape), v.dtype)
    x = imp.reshape(input, (1,) + input.shape)
    if isinstance(val, (list, tuple)):
        outs = fn(imp, [one(v) for v in val], x, *args, **kwargs)
        return [imp.reshape(o, v.shape) for o, v in zip(outs, val)]
    return imp.reshape(fn(imp, one(val), x, *args, **kwargs), val.shape)


def pooling(spatial, pool):
    """The lowering of a pooling op over `spatial` dimensions that
    pool(imp, val, input, ...) computes on a batched input."""
    def lower(imp, val, input, *args, **kwargs):
        return _batched(imp, spatial, pool, val, input, *args, **kwargs)
    return lower


def _max_pool(imp, val, input, kernel_size, stride=(), padding=0, dilation=1,
              ceil_mode=False):
    x = input
    kernel, stride, padding, dilation, out = _pool_geometry(
        val, x, kernel_size, stride, padding, dilation)
    lowest = identity("max", x.dtype)
    # Windows that run past the bottom/right edge (ceil_mode) read the
    # padding too: pad enough on the high side.
    high = _ceil_padding(x, kernel, stride, padding, dilation, out)
    xp = imp.pad(x, [0, 0] + [0] * len(kernel), [0, 0] + high, lowest)
    win, wshape = _patches(imp, xp, kernel, stride, padding, dilation, out, lowest)
    n, c = x.shape[:2]
    flat = tuple(wshape[:2 + len(out)]) + (math.prod(kernel),)
    win = imp.reshape(win, flat)
    values, k = arg_extreme(imp, "max", win, len(flat) - 1, False)
    # The flat input index of each window's first maximum.
    index = None
    kk = k
    for d in reversed(range(len(kernel))):
        kd = imp.binary("rem", kk, kernel[d], kk.shape, torch.int64)
        kk = imp.binary("div", kk, kernel[d], kk.shape, torch.int64)
        pos = imp.binary("add", imp.binary("mul", imp.iota(kk.shape, 2 + d), stride[d],
                                           kk.shape, torch.int64),
                         imp.binary("mul", kd, dilation[d], kk.shape, torch.int64),
                         kk.shape, torch.int64)
        pos = imp.binary("sub", pos, padding[d], kk.shape, torch.int64)
        scale = math.prod(x.shape[3 + d:])
        term = imp.binary("mul", pos, scale, kk.shape, torch.int64) if scale != 1 else pos
        index = term if index is None else imp.binary("add", index, term, kk.shape, torch.int64)
    values = imp.reshape(values, val[0].shape)
    return [values, imp.reshape(index, val[1].shape)]


def _ceil_padding(x, kernel, stride, padding, dilation, out):
    """How far ceil_mode's last windows run past the padded input, per
    spatial dimension."""
    return [max(0, (o - 1) * s + (k - 1) * dl + 1 - (n + 2 * p))
            for o, s, k, dl, n, p in zip(out, stride, kernel, dilation,
                                         x.shape[2:], padding)]


def _avg_pool(imp, val, input, kernel_size, stride=(), padding=0, ceil_mode=False,
              count_include_pad=True, divisor_override=None):
    x = input
    kernel, stride, padding, dilation, out = _pool_geometry(
        val, x, kernel_size, stride, padding)
    sp = len(kernel)
    extra = _ceil_padding(x, kernel, stride, padding, dilation, out)
    xp = imp.pad(x, [0] * (2 + sp), [0, 0] + extra)
    win, wshape = _patches(imp, xp, kernel, stride, padding, dilation, out, 0)
    dims = list(range(2 + sp, 2 + 2 * sp))
    acc = torch.float32 if val.dtype in (torch.float16, torch.bfloat16) else val.dtype
    win = imp.cast(win, acc)
    total = imp.reduce("sum", win, dims)
    count = divisor_override or _window_counts(imp, wshape, x.shape[2:], stride, padding,
                                               count_include_pad, acc)
    return imp.cast(imp.binary("div", total, count, val.shape, acc), val.dtype)


def _window_counts(imp, wshape, spatial, stride, padding, count_include_pad, acc):
    """Each average-pooling window's divisor, over wshape ([n, c, *out,
    *kernel]) reduced over the kernel: its positions inside the padded
    input (count_include_pad) or the input itself; ceil_mode's last
    windows are clipped either way."""
    sp = len(spatial)
    inside = None
    for d in range(sp):
        lo, hi = ((0, spatial[d] + 2 * padding[d]) if count_include_pad
                  else (padding[d], padding[d] + spatial[d]))
        p = imp.binary("add", imp.binary("mul", imp.iota(wshape, 2 + d), stride[d],
                                         wshape, torch.int64),
                       imp.iota(wshape, 2 + sp + d), wshape, torch.int64)
        ok = imp.binary("and", imp.compare("ge", wshape, p, lo),
                        imp.compare("lt", wshape, p, hi), wshape, torch.bool)
        inside = ok if inside is None else imp.binary("and", inside, ok, wshape, torch.bool)
    return imp.reduce("sum", imp.cast(inside, acc), list(range(2 + sp, 2 + 2 * sp)))


def _avg_pool_backward(imp, val, grad_output, input, kernel_size, stride, padding,
                       ceil_mode, count_include_pad, divisor_override=None, *, spatial):
    """The gradient of an average pooling: each input position gathers
    grad_output / divisor from the windows that cover it. Along a
    dimension those are the ceil(kernel / stride) windows ending at
    floor((i + padding) / stride), the ones in range that reach i."""
    if len(input.shape) == spatial + 1:
        one = Shape((1,) + tuple(val.shape), val.dtype)
        g = imp.reshape(grad_output, (1,) + grad_output.shape)
        x = imp.reshape(input, (1,) + input.shape)
        return imp.reshape(_avg_pool_backward(imp, one, g, x, kernel_size, stride, padding,
                                              ceil_mode, count_include_pad, divisor_override,
                                              spatial=spatial), val.shape)
    x = input
    kernel, stride, padding, _, out = _pool_geometry(grad_output, x, kernel_size, stride,
                                                     padding)
    sp = len(kernel)
    if math.prod(val.shape) == 0:
        return imp.fill(val, 0)
    acc = torch.float32 if val.dtype in (torch.float16, torch.bfloat16) else val.dtype
    g = imp.cast(grad_output, acc)
    count = divisor_override or _window_counts(
        imp, (1, 1) + tuple(out) + tuple(kernel), x.shape[2:], stride, padding,
        count_include_pad, acc)
    g = imp.binary("div", g, count, grad_output.shape, acc)
    reach = [-(-k // s) for k, s in zip(kernel, stride)]
    shape = tuple(x.shape) + tuple(reach)
    coords = [imp.iota(shape, 0), imp.iota(shape, 1)]
    covered = None
    for d in range(sp):
        p = imp.binary("add", imp.iota(shape, 2 + d), padding[d], shape, torch.int64)
        o = imp.binary("sub", imp.binary("div", p, stride[d], shape, torch.int64),
                       imp.iota(shape, 2 + sp + d), shape, torch.int64)
        start = imp.binary("mul", o, stride[d], shape, torch.int64)
        ok = imp.binary("and", imp.compare("ge", shape, o, 0),
                        imp.compare("lt", shape, imp.binary("sub", p, start, shape,
                                                            torch.int64), kernel[d]),
                        shape, torch.bool)
        ok = imp.binary("and", ok, imp.compare("lt", shape, o, out[d]), shape, torch.bool)
        covered = ok if covered is None else imp.binary("and", covered, ok, shape, torch.bool)
        coords.append(imp.binary("min", imp.binary("max", o, 0, shape, torch.int64),
                                 out[d] - 1, shape, torch.int64))
    picked = imp.where(covered, take(imp, g, coords, shape), 0, shape, acc)
    total = imp.reduce("sum", picked, list(range(2 + sp, 2 + 2 * sp)))
    return imp.cast(total, val.dtype)


@lowering("avg_pool2d_backward")
def avg_pool2d_backward(imp, val, *args, **kwargs):
    return _avg_pool_backward(imp, val, *args, **kwargs, spatial=2)


@lowering("avg_pool3d_backward")
def avg_pool3d_backward(imp, val, *args, **kwargs):
    return _avg_pool_backward(imp, val, *args, **kwargs, spatial=3)


register_each(pooling, {"max_pool2d_with_indices": (2, _max_pool),
                        "max_pool3d_with_indices": (3, _max_pool),
                        "avg_pool1d": (1, _avg_pool), "avg_pool2d": (2, _avg_pool),
                        "avg_pool3d": (3, _avg_pool)})


def _adaptive_window(imp, wide, d, n_in, n_out):
    """Over `wide` (a dimension d of n_out outputs before one of n_in
    inputs): whether input i is in output o's window [floor(o*in/out),
    ceil((o+1)*in/out))."""
    o, i = imp.iota(wide, d), imp.iota(wide, d + 1)

    def bound(extra):
        t = imp.binary("add", imp.binary("mul", o, n_in, wide, torch.int64), extra,
                       wide, torch.int64)
        return imp.binary("div", t, n_out, wide, torch.int64)
    return imp.binary("and", imp.compare("ge", wide, i, bound(0)),
                      imp.compare("lt", wide, i, bound(n_in + n_out - 1)), wide, torch.bool)


def _spread(imp, y, d, n_out):
    """(y with a dimension of n_out inserted before d, broadcast; that
    shape)."""
    wide = y.shape[:d] + (n_out,) + y.shape[d:]
    return imp.broadcast(imp.reshape(y, y.shape[:d] + (1,) + y.shape[d:]), wide), wide


@lowering("_adaptive_avg_pool2d", "_adaptive_avg_pool3d", "adaptive_avg_pool1d")
def adaptive_avg_pool(imp, val, input, output_size):
    # One masked sum per spatial dimension (the average over a window
    # rectangle is the average of averages).
    acc = torch.float32 if val.dtype in (torch.float16, torch.bfloat16) else val.dtype
    y = imp.cast(input, acc)
    rank = len(y.shape)
    for d in range(rank - len(output_size), rank):
        n_in, n_out = y.shape[d], val.shape[d]
        if n_in == n_out:
            continue
        yb, wide = _spread(imp, y, d, n_out)
        inside = _adaptive_window(imp, wide, d, n_in, n_out)
        picked = imp.where(inside, yb, 0, wide, acc)
        ones = imp.cast(inside, acc)
        out = y.shape[:d] + (n_out,) + y.shape[d + 1:]
        total, count = (imp.reduce("sum", t, [d + 1]) for t in (picked, ones))
        y = imp.binary("div", total, count, out, acc)
    return imp.cast(y, val.dtype)


@lowering("adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_max_pool3d")
def adaptive_max_pool(imp, val, input, output_size):
    # Separable, from the last dimension back: the maximum of each
    # window and the first position holding it, whose flat index
    # within the trailing dimensions already pooled is carried along
    # (the row-major first maximum, as PyTorch's scan finds it).
    y, flat = input, None
    rank = len(y.shape)
    lowest = identity("max", y.dtype)
    inner = 1
    for d in reversed(range(rank - len(output_size), rank)):
        n_in, n_out = y.shape[d], val[0].shape[d]
        yb, wide = _spread(imp, y, d, n_out)
        inside = _adaptive_window(imp, wide, d, n_in, n_out)
        masked = imp.where(inside, yb, lowest, wide, y.dtype)
        top, k = arg_extreme(imp, "max", masked, d + 1, False)
        if flat is None:
            flat = k
        else:
            # The index carried from the row picked, plus its offset.
            coords = [imp.iota(k.shape, m) for m in range(len(k.shape))]
            coords[d] = k
            picked = take(imp, flat, coords, k.shape)
            flat = imp.binary("add", imp.binary("mul", k, inner, k.shape, torch.int64),
                              picked, k.shape, torch.int64)
        inner *= n_in
        y = top if top.shape == k.shape else imp.reshape(top, k.shape)
    return [y, flat]
