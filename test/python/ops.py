# The ATen ops real models use (masks, position ids, indexing, patch
# embeddings, grouped-query attention), each through xtile.compile under
# the CPU emulation against a float64 reference within eager's error
# (opinfo.compare). Prints one line per case and a closing count.
import sys

import torch
import torch.nn.functional as F

from semantics import Fn, randn, run_cases

torch.manual_seed(0)


def assign_slice(x):
    y = torch.zeros_like(x)
    y[:, 2:5] = x[:, :3] * 2
    y[1] = 1.0
    return y


def put_pairs(x):
    x = x.clone()
    x[torch.tensor([0, 3]), torch.tensor([4, 1])] = -1.0
    return x


def assign_strided(x, y):
    x = x.clone()
    x[:, 1::3] = y
    return x


def set_columns(x, m):
    x = x.clone()
    x[:, m] = torch.arange(15.0, dtype=x.dtype).reshape(5, 3)
    return x


def cache_update(cache, k, pos):
    """A static KV cache's update as HF's StaticLayer makes it: slices
    along the sequence dimension at positions from a tensor (a negative
    one, a middle one, the last), then an assignment of one slice."""
    cache = cache.clone()
    cache.index_copy_(2, torch.tensor([-1, 0]) + pos, k[:, :, :2])
    cache[:, :, (pos + 3).reshape(1)] = k[:, :, 2:]
    return cache


bf16 = torch.bfloat16
EDGES = torch.tensor([-float("inf"), -1e30, -100.0, -89.0, -20.0, -3.0, -2.5, -1.0, -0.4, -1e-8, -0.0, 0.0,
                      1e-8, 0.3, 0.41, 0.42, 0.5, 1.0, 2.4, 2.5, 7.0, 88.5, 89.0, 1e5, 1e30, float("inf"),
                      float("nan")])
UNIT = torch.cat([torch.linspace(-1, 1, 41), torch.tensor([-1.5, 1.5, 0.9999, -0.9999, 1e-7, -0.0])])
ids = torch.tensor([[3, 0, 5, 1], [2, 2, 7, 4]])
CASES = [
    # Creation.
    ("arange + full + ones + zeros_like",
     lambda x: x + torch.arange(8) + torch.full((8,), 0.5) + torch.ones(4, 8) + torch.zeros_like(x),
     (randn(4, 8),)),
    ("arange(start, end, step) float", lambda x: x * torch.arange(1.0, 3.0, 0.25), (randn(8),)),
    ("new_ones / full_like / scalar", lambda x: x.new_ones(4, 8) * 3 + torch.full_like(x, 2.0) - 1.5,
     (randn(4, 8),)),
    ("tril / triu mask", lambda x: x.tril() + 2 * x.triu(1) + torch.ones(6, 6).tril(-1) * x,
     (randn(6, 6),)),
    # Scans, differences, logic.
    ("cumsum f32 last dim", lambda x: torch.cumsum(x, -1), (randn(3, 17),)),
    ("cumsum int64 position ids", lambda m: (torch.cumsum(m, 1) - 1).clamp(min=0) * m,
     (torch.tensor([[0, 0, 1, 1, 1], [1, 1, 1, 1, 1]]),)),
    ("cumsum bf16 dim 0", lambda x: torch.cumsum(x, 0), (randn(9, 4, dtype=bf16),)),
    ("diff", lambda x: torch.diff(x, dim=-1), (randn(3, 7),)),
    ("div rounding modes, float", lambda a, b: torch.div(a, b, rounding_mode="floor")
     + torch.div(a, b, rounding_mode="trunc"), (randn(5, 6) * 5, randn(6))),
    ("div rounding modes, int (// too)", lambda a, b: a // b * 100 + torch.div(a, b, rounding_mode="trunc"),
     (torch.tensor([7, -7, 7, -7, 6, -6]), torch.tensor([2, 2, -2, -2, 3, 3]))),
    ("bitwise and/or/xor/not on bool", lambda a, b: ((a & b) | (~a ^ b)).to(torch.float32),
     (torch.rand(4, 5) > 0.5, torch.rand(4, 5) > 0.5)),
    ("logical ops", lambda x: torch.logical_and(x > 0, torch.logical_not(x > 1)).to(torch.float32),
     (randn(4, 5),)),
    ("masked_fill", lambda x, m: x.masked_fill(m, float("-inf")).softmax(-1),
     (randn(4, 6), torch.tensor([[False] * 5 + [True]] * 4))),
    ("where with scalars", lambda x: torch.where(x > 0, x, 0.1 * x), (randn(4, 6),)),
    ("clamp / clamp_min / clamp_max", lambda x: x.clamp(-0.5, 0.5) + x.clamp(min=0) + x.clamp(max=0.2),
     (randn(4, 6),)),
    ("clamp with tensor bounds", lambda x, lo: torch.clamp(x, min=lo), (randn(4, 6), randn(6))),
    ("min/max: elementwise and whole", lambda x, y: torch.max(x, y) - torch.min(x, y) + x.max() - y.min(),
     (randn(4, 6), randn(4, 6))),
    ("in-place ops", lambda x: x.clone().mul_(2).add_(1).clamp_(max=1.5), (randn(4, 6),)),
    ("assignment into a slice (slice_scatter)", lambda x: assign_slice(x), (randn(4, 8),)),
    ("assignment with a step", lambda x, y: assign_strided(x, y), (randn(4, 9), randn(4, 3))),
    # Elementwise ops composed of Tensor IR's.
    ("trunc, round (half to even), sign", lambda x: torch.trunc(x) + 10 * torch.round(x) + 100 * torch.sign(x),
     (torch.tensor([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.0, -0.0, 3.7, -3.7, 1e8, float("nan")]),)),
    ("isnan / isinf / isfinite", lambda x: torch.isnan(x).float() + 2 * torch.isinf(x).float() + 4 * torch.isfinite(x).float(),
     (torch.tensor([1.0, float("nan"), float("inf"), -float("inf"), 0.0]),)),
    ("log10, log1p, expm1 (tiny and large)", lambda x: torch.stack([torch.log10(x.abs() + 1), torch.log1p(x), torch.expm1(x)]),
     (torch.tensor([1e-10, -1e-7, 3e-4, 0.5, -0.5, 2.0, 30.0, 0.0]),)),
    ("activations: hardtanh, relu6, leaky_relu, elu, softplus, mish, hardswish",
     lambda x: torch.stack([F.hardtanh(x), F.relu6(x * 3), F.leaky_relu(x), F.elu(x), F.softplus(x), F.mish(x),
                            F.hardswish(x), F.hardsigmoid(x)]), (randn(5, 7) * 3,)),
    ("fmod, remainder", lambda x, y: torch.fmod(x, 1.5) + 10 * torch.remainder(x, y), (randn(4, 6) * 5, randn(6))),
    ("batch_norm (inference)", lambda x, m, v, w, b: F.batch_norm(x, m, v, w, b, training=False),
     (randn(2, 3, 4, 5), randn(3), torch.rand(3) + 0.5, randn(3), randn(3))),
    ("instance_norm, batch_norm in training mode (statistics, running updates)",
     lambda x, w, b, m, v: torch.cat([F.instance_norm(x).flatten(), F.instance_norm(x, weight=w, bias=b).flatten(),
                                      F.batch_norm(x, None, None, w, b, training=True).flatten()]
                                     + list(torch.ops.aten._native_batch_norm_legit_functional(
                                         x, w, b, m, v, True, 0.1, 1e-5))[1:]),
     (randn(2, 3, 4, 5), randn(3), randn(3), randn(3), torch.rand(3) + 0.5)),
    ("instance_norm bf16", lambda x, w: F.instance_norm(x, weight=w), (randn(2, 3, 16, dtype=bf16) * 4 + 1, randn(3, dtype=bf16))),
    ("adaptive_avg_pool2d", lambda x: F.adaptive_avg_pool2d(x, 3) + F.adaptive_avg_pool2d(x, 1), (randn(2, 3, 6, 6),)),
    ("repeat, flip, roll", lambda x: torch.cat([x.repeat(2, 1, 1), x.flip(-1, 0), x.roll(2, -1)]), (randn(2, 3, 5),)),
    ("upsample nearest", lambda x: F.interpolate(x, scale_factor=2), (randn(1, 2, 3, 4),)),
    ("nearest with a fractional scale factor",
     lambda x: F.interpolate(x, scale_factor=1.7, recompute_scale_factor=False), (randn(1, 2, 4, 4),)),
    ("adaptive_avg_pool2d, not a multiple (area)", lambda x: F.adaptive_avg_pool2d(x, (5, 7))
     + F.interpolate(x, size=(5, 7), mode="area"), (randn(1, 2, 8, 8),)),
    ("avg_pool2d ceil_mode, divisor", lambda x: F.avg_pool2d(x, 4, (2, 3), 1, True, False, 2)
     + F.avg_pool2d(x, 4, (2, 3), 1, True, True), (randn(1, 3, 9, 9),)),
    ("conv2d bf16 with a bias (one rounding)", lambda x, w, b: F.conv2d(x, w, b, padding=1),
     (randn(2, 4, 6, 6, dtype=bf16), randn(8, 4, 3, 3, dtype=bf16), randn(8, dtype=bf16))),
    ("addmm bf16 (one rounding)", lambda b, x, y: torch.addmm(b, x, y, beta=0.5),
     (randn(6, 8, dtype=bf16), randn(6, 16, dtype=bf16), randn(16, 8, dtype=bf16))),
    ("logsumexp, vector norm", lambda x: torch.logsumexp(x, -1) + torch.linalg.vector_norm(x, dim=-1), (randn(4, 9),)),
    # Indexing.
    ("index with one tensor", lambda x: x[ids], (randn(8, 5),)),
    ("index with negative indices", lambda x: x[torch.tensor([-1, 0, -3])], (randn(8, 5),)),
    ("index on a middle dim", lambda x: x[:, torch.tensor([2, 0, 2])], (randn(3, 4, 5),)),
    ("index with two adjacent tensors", lambda x: x[:, torch.tensor([0, 2]), torch.tensor([1, 3])],
     (randn(3, 4, 5),)),
    ("index with two apart tensors", lambda x: x[torch.tensor([0, 2]), :, torch.tensor([1, 3])],
     (randn(3, 4, 5),)),
    ("index with broadcast tensors", lambda x: x[torch.arange(3)[:, None], torch.tensor([[0, 4]])],
     (randn(3, 5),)),
    ("index_put (x[i] = v)", lambda x, v: x.index_put((torch.tensor([0, 2]),), v), (randn(5, 3), randn(3))),
    ("index_put accumulate", lambda x, v: x.index_put((torch.tensor([4, 1, 4]),), v, accumulate=True),
     (randn(5, 3), randn(3, 3))),
    ("KV cache update (index_copy_, slice assignment at a position tensor)",
     cache_update, (randn(2, 3, 9, 4), randn(2, 3, 3, 4), torch.tensor(2))),
    ("assignment through two index tensors", lambda x: put_pairs(x), (randn(4, 5),)),
    ("boolean-mask assignment: broadcast value, one row per true, accumulate",
     lambda x, m, v: torch.cat([x.index_put((m,), x.new_full((), 2.5)), x.index_put((m,), v[:3]),
                                x.index_put((m,), v[0], accumulate=True),
                                set_columns(x, m[:4])]),
     (randn(5, 4), torch.tensor([True, False, True, True, False]), randn(4, 4))),
    ("round with decimals", lambda x: torch.round(x, decimals=2) + torch.round(x * 100, decimals=-1),
     (randn(6, 7) * 3,)),
    ("scatter src / value", lambda x, i, v: x.scatter(1, i, v) + x.scatter(0, i[:1], 2.5),
     (randn(3, 5), torch.tensor([[0, 1], [2, 3], [4, 0]]), randn(3, 4))),
    ("gather (token types)", lambda x, i: torch.gather(x, 1, i), (randn(3, 6), torch.tensor([[0, 5], [2, 2], [1, 0]]))),
    ("gather dim 0 bf16", lambda x, i: x.gather(0, i), (randn(4, 3, dtype=bf16), torch.tensor([[3, 0, 1]]))),
    ("embedding with padding_idx", lambda w, i: F.embedding(i, w, padding_idx=0), (randn(8, 4), ids)),
    # Patch embeddings and padding.
    ("conv2d stride = kernel (ViT patches)", lambda x, w, b: F.conv2d(x, w, b, stride=4),
     (randn(2, 3, 8, 8), randn(6, 3, 4, 4), randn(6))),
    ("conv2d padding, dilation", lambda x, w: F.conv2d(x, w, padding=2, dilation=2),
     (randn(1, 2, 7, 6), randn(3, 2, 3, 3))),
    ("conv2d depthwise (groups)", lambda x, w: F.conv2d(x, w, padding=1, groups=4),
     (randn(2, 4, 5, 5), randn(4, 1, 3, 3))),
    ("conv1d causal (padding, groups 2)", lambda x, w, b: F.conv1d(x, w, b, padding=2, groups=2),
     (randn(2, 4, 9), randn(6, 2, 3), randn(6))),
    ("conv2d bf16", lambda x, w: F.conv2d(x, w, stride=2), (randn(1, 3, 8, 8, dtype=bf16), randn(4, 3, 2, 2, dtype=bf16))),
    ("pad constant, negative crop", lambda x: F.pad(x, (1, 2, -1, 0), value=0.5), (randn(3, 4, 5),)),
    # Norms, losses, reductions with indices, pooling.
    ("group_norm", lambda x, w, b: F.group_norm(x, 2, w, b), (randn(2, 4, 3, 5), randn(4), randn(4))),
    ("group_norm bf16", lambda x: F.group_norm(x, 4), (randn(2, 8, 6, dtype=bf16) * 3 + 1,)),
    ("cross_entropy", lambda x, t: F.cross_entropy(x, t), (randn(6, 10), torch.tensor([1, 0, 9, 3, 3, 7]))),
    ("cross_entropy ignore_index, smoothing",
     lambda x, t: F.cross_entropy(x, t, ignore_index=3, label_smoothing=0.1),
     (randn(6, 10), torch.tensor([1, 0, 9, 3, 3, 7]))),
    ("one_hot", lambda i: F.one_hot(i, 6).to(torch.float32) * 2, (torch.tensor([[0, 5], [3, 3]]),)),
    ("max/min over a dim with indices",
     lambda x: torch.cat([x.max(1).values, x.max(1).indices.float(), x.min(0, keepdim=True)[1].float().flatten()]),
     (torch.tensor([[1.0, 3.0, 3.0], [2.0, -1.0, 2.0]]),)),
    ("argmax / argmin", lambda x: (x.argmax(-1) * 10 + x.argmin()).float(), (randn(4, 7),)),
    ("max_pool2d", lambda x: F.max_pool2d(x, 2), (randn(2, 3, 6, 6),)),
    ("max_pool2d stride, padding, indices",
     lambda x: torch.cat([t.float().flatten() for t in F.max_pool2d(x, 3, 2, 1, return_indices=True)]),
     (randn(1, 2, 7, 5),)),
    ("max_pool2d ceil_mode", lambda x: F.max_pool2d(x, 2, ceil_mode=True), (randn(1, 2, 5, 5),)),
    ("avg_pool2d", lambda x: F.avg_pool2d(x, 2), (randn(2, 3, 6, 6),)),
    ("avg_pool2d padding, count_include_pad=False",
     lambda x: F.avg_pool2d(x, 3, 2, 1, count_include_pad=False), (randn(1, 2, 7, 5),)),
    # Inverse trigonometric and hyperbolic functions, at their edges.
    ("atan, atan2 (every octant, zeros, infinities)",
     lambda x, y: torch.stack([torch.atan(x), torch.atan2(x, y), torch.atan2(y, x)]),
     (EDGES, EDGES.flip(0))),
    ("asin, acos, atanh on [-1, 1] and beyond",
     lambda x: torch.stack([torch.asin(x), torch.acos(x), torch.atanh(x)]), (UNIT,)),
    ("sinh, cosh, asinh, acosh, tan",
     lambda x: torch.stack([torch.sinh(x), torch.cosh(x), torch.asinh(x), torch.acosh(x.abs() + 1),
                            torch.tan(x)]), (EDGES,)),
    ("inverse and hyperbolic functions bf16",
     lambda x: torch.atan(x) + torch.asinh(x) + torch.sinh(x) + torch.acos(x.clamp(-1, 1)),
     (randn(64, dtype=bf16) * 3,)),
    ("atan, atan2, asinh f64", lambda x, y: torch.stack([torch.atan(x), torch.atan2(x, y), torch.asinh(x)]),
     (randn(257, dtype=torch.float64) * 4, randn(257, dtype=torch.float64))),
    # The error function's complement and inverse, at their edges.
    ("erfc (both tails, zeros, infinities, NaN), erfinv on [-1, 1] and beyond",
     lambda x, y: torch.cat([torch.special.erfc(x * 3), torch.special.erfinv(y)]),
     (EDGES, torch.cat([UNIT, torch.tensor([1 - 2.0**-24, -(1 - 2.0**-24), 0.99663, float("nan")])]))),
    ("erfinv f64 (tails to 1 - 2^-53, subnormals, +-1, beyond, NaN)",
     lambda x: torch.special.erfinv(x),
     (torch.cat([torch.linspace(-1, 1, 201, dtype=torch.float64),
                 1 - torch.logspace(-16, -1, 64, dtype=torch.float64),
                 torch.tensor([1 - 2.0**-53, -(1 - 2.0**-53), 2.0**-1074, 1e-300, -0.0, 0.5,
                               0.49999999999, 1.5, float("nan")], dtype=torch.float64)]),)),
    ("erfc, erfinv bf16 and f16",
     lambda x, h: torch.cat([torch.special.erfc(x).float(), torch.special.erfinv(h.clamp(-1, 1)).float()]),
     (randn(64, dtype=bf16) * 3, randn(64, dtype=torch.float16))),
    ("hypot, signbit", lambda x, y: torch.hypot(x, y) + torch.signbit(x).float(),
     (torch.tensor([3.0, -0.0, 0.0, 1e30, -1e-30, float("inf"), float("nan")]),
      torch.tensor([4.0, 0.0, -2.0, 1e30, 1e-30, float("nan"), 1.0]))),
    # 8- and 16-bit integers as the graph's inputs and results (an image's
    # bytes, quantized values): held in their storage types at the edge.
    ("uint8, int8, int16 inputs and results",
     lambda p, q, h: ((p + q) * 3, p.float() / 255, -q, (h * 7) >> 2, p.to(torch.int8),
                      q.to(torch.uint8), p),
     (torch.randint(0, 256, (4, 33), dtype=torch.uint8),
      torch.randint(-128, 128, (4, 33), dtype=torch.int8),
      torch.randint(-32768, 32768, (4, 33), dtype=torch.int16))),
    # 8- and 16-bit integers inside the graph (computed in 32 bits, each
    # value wrapped back into its type where it can leave it).
    ("uint8, int8, int16: wrapping, comparisons, division, shifts, casts",
     lambda x, f: torch.stack([
         ((x.to(torch.uint8) * 3 + 7) // 5).int(), (x.to(torch.uint8) > 200).int(),
         (x.to(torch.uint8) >> 7).int(), (x.to(torch.uint8) << 3).int(),
         (~x.to(torch.uint8)).int(), torch.maximum(x.to(torch.uint8), x.flip(0).to(torch.uint8)).int(),
         (x.to(torch.int8) * 5).int(), (-x.to(torch.int8)).int(), (x.to(torch.int8) >> 7).int(),
         (x.to(torch.int8) // 3).int(), f.to(torch.uint8).int(), (x.to(torch.int16) * 1000).int(),
         x.to(torch.uint8).to(torch.int8).int(), x.to(torch.int8).to(torch.uint8).float().int()]),
     (torch.randint(-300, 300, (64,), dtype=torch.int32), torch.rand(64) * 255.9)),
    ("uint8 and int8 reductions, eye", lambda x: torch.cat([
        x.to(torch.uint8).sum(1), x.to(torch.uint8).amax(1).long(), x.to(torch.int8).amin(1).long(),
        x.to(torch.int8).sum(1), torch.eye(4, 50, dtype=torch.long).sum(1) + x.to(torch.uint8).argmax(1)]),
     (torch.randint(-300, 300, (4, 50), dtype=torch.int32),)),
    ("bit shifts", lambda x: torch.stack([x << 3, x >> 2, x >> 63, torch.bitwise_left_shift(x, 63)]),
     (torch.tensor([5, -5, -1, 0, 1 << 40, -(1 << 40), 7]),)),
    # Scans: blocked (two and three levels), products.
    ("cumsum over 1000 (two levels)", lambda x: torch.cumsum(x, 0), (randn(1000, 3),)),
    ("cumsum over 5000 int64 (three levels)", lambda m: torch.cumsum(m, -1),
     (torch.randint(0, 3, (2, 5000)),)),
    ("cumprod", lambda x: torch.cumprod(x, 1), (1 + randn(3, 100) * 0.05,)),
    # Reductions and norms with statistics.
    ("var_mean, std_mean", lambda x: torch.cat([torch.stack(torch.var_mean(x, -1)).flatten(),
                                                torch.stack(torch.std_mean(x, 0, correction=0)).flatten()]),
     (randn(5, 5),)),
    ("native_layer_norm statistics",
     lambda x, w: torch.cat([t.flatten() for t in torch.native_layer_norm(x, [6, 4], w, None, 1e-5)]),
     (randn(3, 6, 4), randn(6, 4))),
    # Movement.
    ("diagonal, fill, as_strided",
     lambda x: torch.cat([torch.diagonal(x, 1).flatten(), torch.diagonal(x, -2, 0, 2).flatten(),
                          x.clone().fill_(2.5).flatten(), x.as_strided((3, 4), (5, 2), 1).flatten()]),
     (randn(4, 5, 6),)),
    ("reflection, replication padding 1d/2d/3d",
     lambda x: torch.cat([F.pad(x, (2, 1), mode="reflect").flatten(), F.pad(x, (3, 0, 1, 2), mode="reflect").flatten(),
                          F.pad(x, (2, 1), mode="replicate").flatten(),
                          F.pad(x[None], (1, 2, 2, 1, 1, 1), mode="replicate").flatten(),
                          F.pad(x[None], (1, 1, 2, 0, 1, 1), mode="reflect").flatten()]),
     (randn(2, 3, 5),)),
    # Pooling and resampling in every rank.
    ("avg_pool1d, avg_pool3d, max_pool3d with indices",
     lambda x: torch.cat([F.avg_pool1d(x.flatten(2), 3, 2, 1).flatten(), F.avg_pool3d(x, 2).flatten(),
                          *[t.float().flatten() for t in F.max_pool3d(x, 3, 2, 1, return_indices=True)]]),
     (randn(2, 3, 4, 5, 6),)),
    ("unbatched max_pool2d, avg_pool2d", lambda x: torch.cat([F.max_pool2d(x, 2).flatten(),
                                                              F.avg_pool2d(x, 3, 2, 1).flatten()]),
     (randn(3, 7, 6),)),
    ("adaptive max pool with indices, adaptive avg 1d/3d",
     lambda x: torch.cat([*[t.float().flatten() for t in F.adaptive_max_pool2d(x, (3, 4), return_indices=True)],
                          F.adaptive_avg_pool1d(x.flatten(2), 5).flatten(),
                          F.adaptive_avg_pool3d(x[None], (2, 3, 2)).flatten()]),
     (randn(2, 3, 7, 9),)),
    ("bilinear: align_corners, fractional scale, downsampling",
     lambda x: torch.cat([F.interpolate(x, scale_factor=2, mode="bilinear").flatten(),
                          F.interpolate(x, size=(7, 3), mode="bilinear", align_corners=True).flatten(),
                          F.interpolate(x, scale_factor=1.7, mode="bilinear").flatten(),
                          F.interpolate(x, size=(2, 3), mode="bilinear").flatten()]),
     (randn(2, 3, 5, 6),)),
    ("bilinear bf16", lambda x: F.interpolate(x, scale_factor=2, mode="bilinear"), (randn(1, 2, 4, 5, dtype=bf16),)),
    # Transposed convolutions (decoders, upsampling).
    ("conv_transpose2d stride, padding, output_padding",
     lambda x, w, b: F.conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1),
     (randn(2, 4, 5, 6), randn(4, 3, 3, 3), randn(3))),
    ("conv_transpose1d groups, dilation", lambda x, w: F.conv_transpose1d(x, w, stride=3, dilation=2, groups=2),
     (randn(2, 4, 7), randn(4, 3, 3))),
    ("conv_transpose2d bf16, padding beyond the kernel (crops)",
     lambda x, w: F.conv_transpose2d(x, w, stride=2, padding=2),
     (randn(1, 2, 4, 4, dtype=bf16), randn(2, 2, 2, 2, dtype=bf16))),
    # Accumulating scatters.
    ("scatter_add, scatter_reduce (all kinds, with and without self)",
     lambda x, i, s: torch.cat([x.scatter_add(1, i, s)] + [x.scatter_reduce(1, i, s, r, include_self=inc)
                                                       for r in ("sum", "prod", "mean", "amax", "amin")
                                                       for inc in (True, False)]),
     (randn(3, 6), torch.tensor([[0, 1, 1, 5], [2, 2, 2, 2], [4, 0, 3, 0]]), randn(3, 4))),
    ("scatter_reduce mean int64 (floor)", lambda x, i, s: x.scatter_reduce(0, i, s, "mean"),
     (torch.tensor([5, -5, 0, 9]), torch.tensor([0, 1, 1, 3, 3]), torch.tensor([-2, 3, -7, 1, 1]))),
    ("masked_scatter", lambda x, m, s: x.masked_scatter(m, s),
     (randn(4, 5), torch.tensor([True, False, True, True, False]), randn(30))),
    ("cummax, cummin (last position of ties), logcumsumexp",
     lambda x: torch.cat([torch.cummax(x, 1).values, torch.cummax(x, 1).indices.float(),
                          torch.cummin(x, 0).values, torch.cummin(x, 0).indices.float(),
                          torch.logcumsumexp(x, 1)]),
     (torch.tensor([[1.0, 3.0, 3.0, -1.0, 5.0, 5.0] * 12, [-200.0, 0.0, 0.0, 2.0, -1.0, 2.0] * 12]),)),
    ("logcumsumexp with -inf, bf16", lambda x: torch.logcumsumexp(x, -1),
     (torch.tensor([-float("inf"), -float("inf"), -3.0, 100.0, 0.5], dtype=bf16),)),
    ("diff: prepend and append, twice, along dim 0; of int64 positions with a "
     "prepended element; of bools (xor)",
     lambda x, p, m: torch.cat([
         torch.diff(x, n=2, dim=0, prepend=x[:1] * 3, append=x[-2:]),
         torch.diff(x, dim=1).repeat(1, 2)[:, :8],
         torch.diff(p, prepend=p[:, :1] - 1).float()[:, :8].repeat(3, 1)[:5],
         torch.diff(m, dim=-1, append=m[:, :1]).float()[:, :8].repeat(3, 1)[:5]]),
     (randn(4, 8), torch.tensor([[0, 1, 2, 0, 1, 5, 6, 7, 0]]),
      torch.tensor([[True, False, False, True, True, False, True, True]]))),
    ("embedding_bag sum/mean/max, per-sample weights, padding_idx",
     lambda w, i, o, p: torch.cat([F.embedding_bag(i, w, o, mode=m) for m in ("sum", "mean", "max")]
                                  + [F.embedding_bag(i, w, o, per_sample_weights=p, mode="sum"),
                                     F.embedding_bag(i, w, o, padding_idx=4),
                                     F.embedding_bag(i, w, torch.cat([o, torch.tensor([9])]), include_last_offset=True)]),
     (randn(10, 3), torch.tensor([1, 2, 4, 5, 4, 3, 2, 9, 0]), torch.tensor([0, 3, 3, 7]), randn(9))),
    ("grid_sample bilinear/nearest, zeros/border/reflection, align_corners",
     lambda x, g: torch.cat([F.grid_sample(x, g, mode=m, padding_mode=p, align_corners=a).flatten()
                             for m in ("bilinear", "nearest") for p in ("zeros", "border", "reflection")
                             for a in (False, True)]),
     (randn(2, 3, 5, 6), torch.rand(2, 4, 7, 2) * 3 - 1.5)),
    ("grid_sample of a volume trilinear/nearest/tricubic, zeros/border/reflection, align_corners",
     lambda x, g: torch.cat([F.grid_sample(x, g, mode=m, padding_mode=p, align_corners=a).flatten()
                             for m in ("bilinear", "nearest", "bicubic")
                             for p in ("zeros", "border", "reflection") for a in (False, True)]),
     (randn(2, 3, 4, 5, 6), torch.rand(2, 3, 2, 4, 3) * 3 - 1.5)),
    # Reflection counts its flips with floor(|x| / span): a 16-bit kernel
    # divides exactly there (a quotient an ulp low read mirrored pixels).
    ("grid_sample bf16 bicubic reflection align_corners",
     lambda x, g: F.grid_sample(x, g, mode="bicubic", padding_mode="reflection", align_corners=True),
     (randn(2, 3, 5, 5, dtype=bf16), (torch.rand(2, 5, 5, 2) * 2.6 - 1.3).to(bf16))),
    # Distances.
    ("cdist p = 2, 1, inf, 0, 3; pdist",
     lambda a, b: torch.cat([torch.cdist(a, b, p).flatten() for p in (2.0, 1.0, float("inf"), 0.0, 3.0)]
                            + [F.pdist(a[0])]),
     (randn(2, 5, 4), randn(2, 6, 4))),
    # Attention.
    ("sdpa grouped-query (enable_gqa)",
     lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True),
     (randn(2, 4, 6, 8), randn(2, 2, 6, 8), randn(2, 2, 6, 8))),
    ("sdpa fully masked rows are zeros",
     lambda q, k, v, m: F.scaled_dot_product_attention(q, k, v, attn_mask=m),
     (randn(1, 2, 4, 8), randn(1, 2, 4, 8), randn(1, 2, 4, 8),
      torch.tensor([[False] * 4, [True, False, True, False], [True] * 4, [False, False, False, True]]))),
]


def main():
    return run_cases(CASES, "ops")


if __name__ == "__main__":
    sys.exit(main())
