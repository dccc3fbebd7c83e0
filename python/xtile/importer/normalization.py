"""Normalizations: layer_norm and rms_norm (kept whole, as xtensor
composites), native_layer_norm with its statistics, batch norm in
inference and training form, group norm."""
import math

import torch

from .registry import lowering
from .sizes import Shape


@lowering("layer_norm")
def layer_norm(imp, val, input, normalized_shape, weight=None, bias=None,
               eps=1e-5, cudnn_enable=True):
    return imp.norm("layer_norm", input, [("weight", weight), ("bias", bias)], eps,
                    val.shape, val.dtype, len(normalized_shape))


@lowering("rms_norm")
def rms_norm(imp, val, input, normalized_shape, weight=None, eps=None):
    if eps is None:
        eps = torch.finfo(input.dtype).eps
    return imp.norm("rms_norm", input, [("weight", weight)], eps, val.shape, val.dtype,
                    len(normalized_shape))


def _norm_stats(imp, rows, eps, dtype):
    """(mean, 1/sqrt(var + eps)) of each row of the 2-D `rows`, in f32
    (the statistics PyTorch's native norms return), cast to dtype."""
    shape = rows.shape[:1]
    xs = imp.cast(rows, torch.float32)
    mean = imp.mean(xs, [1])
    var = imp.var(xs, [1], 0)
    rstd = imp.unary("rsqrt", imp.binary("add", var, eps, shape, torch.float32),
                     shape, torch.float32)
    return imp.cast(mean, dtype), imp.cast(rstd, dtype)


@lowering("native_layer_norm")
def native_layer_norm(imp, val, input, normalized_shape, weight=None, bias=None,
                      eps=1e-5):
    y = layer_norm(imp, val[0], input, normalized_shape, weight, bias, eps)
    inner = math.prod(normalized_shape)
    rows = imp.reshape(input, (math.prod(input.shape) // max(inner, 1), inner))
    mean, rstd = _norm_stats(imp, rows, eps, val[1].dtype)
    return [y, imp.reshape(mean, val[1].shape), imp.reshape(rstd, val[2].shape)]


@lowering("_native_batch_norm_legit_no_training")
def batch_norm_no_training(imp, val, input, weight, bias,
                           running_mean, running_var, momentum, eps):
    x = input
    shape, dtype = x.shape, val[0].dtype
    channel = (1, x.shape[1]) + (1,) * (len(shape) - 2)
    def per_channel(t):
        return imp.broadcast(imp.reshape(imp.cast(t, dtype), channel), shape)
    y = imp.binary("sub", x, per_channel(running_mean), shape, dtype)
    inv = imp.unary("rsqrt", imp.binary("add", per_channel(running_var), eps, shape, dtype),
                    shape, dtype)
    y = imp.binary("mul", y, inv, shape, dtype)
    if weight is not None:
        y = imp.binary("mul", y, per_channel(weight), shape, dtype)
    if bias is not None:
        y = imp.binary("add", y, per_channel(bias), shape, dtype)
    return [y] + [imp.const(0, v.shape, v.dtype) for v in val[1:]]


@lowering("_native_batch_norm_legit")
def batch_norm(imp, val, input, weight, bias, running_mean=None,
               running_var=None, training=True, momentum=0.1,
               eps=1e-5):
    # Training mode (and instance norm, which is batch norm over a
    # [1, N*C, ...] view): each channel normalized by the statistics of
    # its own elements, a layer norm over the rows of [C, N*rest].
    if not training:
        return batch_norm_no_training(imp, val, input, weight, bias, running_mean, running_var,
                                      momentum, eps)
    if input.dtype in (torch.float16, torch.bfloat16):
        # Normalized and scaled in f32, rounded once (as PyTorch).
        f32 = lambda t: None if t is None else imp.cast(t, torch.float32)
        outs = batch_norm(imp, [Shape(val[0].shape, torch.float32)] + list(val[1:]),
                          f32(input), f32(weight), f32(bias), None, None, True, momentum, eps)
        return [imp.cast(outs[0], val[0].dtype)] + outs[1:]
    x = input
    n, ch = x.shape[:2]
    rest = math.prod(x.shape[2:])
    dtype = val[0].dtype
    rows = imp.reshape(imp.transpose(imp.reshape(x, (n, ch, rest)), [1, 0, 2]),
                       (ch, n * rest))
    y = imp.norm("layer_norm", rows, [], eps, rows.shape, x.dtype)
    y = imp.reshape(imp.transpose(imp.reshape(y, (ch, n, rest)), [1, 0, 2]), x.shape)
    channel = (1, ch) + (1,) * (len(x.shape) - 2)
    if weight is not None:
        y = imp.binary("mul", y, imp.reshape(weight, channel), x.shape, dtype)
    if bias is not None:
        y = imp.binary("add", y, imp.reshape(bias, channel), x.shape, dtype)
    mean, rstd = _norm_stats(imp, rows, eps, val[1].dtype)
    return [y, mean, rstd]


@lowering("_native_batch_norm_legit_functional")
def batch_norm_functional(imp, val, input, weight, bias, running_mean,
                          running_var, training, momentum, eps):
    # The training form with the running statistics' updates as
    # results: (1 - momentum) * running + momentum * batch (the
    # variance unbiased).
    y, mean, rstd = batch_norm(imp, val[:3], input, weight, bias, running_mean, running_var,
                               training, momentum, eps)
    if not training:
        return [y, mean, rstd, running_mean, running_var]
    count = math.prod(input.shape) // input.shape[1]
    f32 = torch.float32
    shape = mean.shape
    var = imp.binary("sub", imp.unary("reciprocal", imp.binary(
        "mul", imp.cast(rstd, f32), imp.cast(rstd, f32), shape, f32), shape, f32),
        eps, shape, f32)
    var = imp.binary("mul", var, count / max(count - 1, 1), shape, f32)
    def update(running, batch, v):
        return imp.binary("add", imp.binary("mul", running, 1 - momentum, v.shape, v.dtype),
                          imp.binary("mul", batch, momentum, v.shape, v.dtype),
                          v.shape, v.dtype)
    return [y, mean, rstd, update(running_mean, mean, val[3]), update(running_var, var, val[4])]


@lowering("native_group_norm")
def native_group_norm(imp, val, input, weight, bias, N, C, HxW, group, eps):
    if input.dtype in (torch.float16, torch.bfloat16):
        # Normalized and scaled in f32, rounded once (as PyTorch).
        wide = [Shape(v.shape, torch.float32) for v in val]
        f32 = lambda t: None if t is None else imp.cast(t, torch.float32)
        outs = native_group_norm(imp, wide, f32(input), f32(weight), f32(bias),
                                 N, C, HxW, group, eps)
        return [imp.cast(o, v.dtype) for o, v in zip(outs, val)]
    x = input
    per = (C // group) * HxW
    grouped = imp.reshape(x, (N, group, per))
    y = imp.norm("layer_norm", grouped, [], eps, grouped.shape, x.dtype)
    y = imp.reshape(y, x.shape)
    channel = (1, C) + (1,) * (len(x.shape) - 2)
    if weight is not None:
        y = imp.binary("mul", y, imp.reshape(weight, channel), x.shape, x.dtype)
    if bias is not None:
        y = imp.binary("add", y, imp.reshape(bias, channel), x.shape, x.dtype)
    # The statistics (rarely used: dead code unless returned).
    mean, rstd = _norm_stats(imp, imp.reshape(grouped, (N * group, per)), eps,
                             val[1].dtype)
    return [y, imp.reshape(mean, (N, group)), imp.reshape(rstd, (N, group))]
