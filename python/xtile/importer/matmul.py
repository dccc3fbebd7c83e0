"""Matrix products and attention: linear, matmul/mm/bmm, the addmm
family, scaled_dot_product_attention (grouped-query, causal, masked)."""
import math

import torch

from .errors import UnsupportedError
from .ir import Blocked
from .registry import lowering
from .sizes import broadcast_shapes, is_int


@lowering("linear")
def linear(imp, val, input, weight, bias=None):
    x = input
    if len(weight.shape) == 1:  # [in]: one output feature, no out dim
        weight = imp.reshape(weight, (1, weight.shape[0]))
        if bias is not None:
            bias = imp.reshape(bias, (1,))
    k = x.shape[-1]
    n = weight.shape[0]
    lead = [d for d in x.shape[:-1] if not is_int(d, 1)]
    if len(lead) > 1 and not all(isinstance(d, int) for d in lead):
        # Rows of a dynamic size among other sizes ([B, T, in]): their
        # product is no one size, so the layer takes them as they are
        # (Tensor IR batches the product over all but the last).
        return imp.linear(x, weight, bias, tuple(val.shape))
    rows = math.prod(x.shape[:-1])
    x2 = imp.reshape(x, (rows, k))
    return imp.reshape(imp.linear(x2, weight, bias, (rows, n)), val.shape)


def matmul(imp, a, b, shape, dtype):
    """a @ b as torch.matmul computes it, of `shape`, in `dtype`."""
    # A vector operand is a matrix of one row (a) or one column (b),
    # whose unit dimension the result then drops (torch.matmul).
    shape = tuple(shape)
    full = shape
    if len(b.shape) == 1:
        b = imp.reshape(b, (b.shape[0], 1))
        full = full + (1,)
    if len(a.shape) == 1:
        a = imp.reshape(a, (1, a.shape[0]))
        full = full[:-1] + (1,) + full[-1:]
    batch = full[:-2]
    a = imp.broadcast(a, batch + a.shape[-2:])
    b = imp.broadcast(b, batch + b.shape[-2:])
    m = imp.matmul(a, b, full, dtype)
    return m if full == shape else imp.reshape(m, shape)


@lowering("matmul")
def matmul_(imp, val, input, other):
    return matmul(imp, input, other, val.shape, val.dtype)


@lowering("mm", "bmm")
def mm(imp, val, input, mat2):
    return matmul(imp, input, mat2, val.shape, val.dtype)


_FP8 = (torch.float8_e4m3fn, torch.float8_e5m2)


@lowering("_scaled_mm")
def scaled_mm(imp, val, input, mat2, scale_a, scale_b, bias=None,
              scale_result=None, out_dtype=None, use_fast_accum=False):
    """torch._scaled_mm: (a @ b) * scale_a * scale_b (+ bias) for fp8 a
    [m, k] and b [k, n], with per-tensor scales (scalars) or row-wise ones
    (scale_a [m, 1], scale_b [1, n]); products accumulate in f32 and the
    result rounds once to out_dtype (fp8 by default: a saturating cast).
    The product is a Tensor IR matmul of the fp8 operands (f32 result),
    on fp8 tensor cores where the cost model picks them; operands of two
    different fp8 types are widened to bf16 (exact) first.

    Block scales: scale_a [m, KB] for 1 x 128 blocks of a (KB = ceil(k /
    128)) or [ceil(m / 128), KB] for 128 x 128 ones, scale_b [KB, n] or
    [KB, ceil(n / 128)] likewise (DeepSeek-V3: 1 x 128 activations, 128 x
    128 weights); each block of 128 k sums in f32, then is scaled into
    the total (see block_scaled_matmul)."""
    if input.dtype not in _FP8 or mat2.dtype not in _FP8:
        raise UnsupportedError(f"operator {imp.what} on {input.dtype} x {mat2.dtype} "
                               "operands (fp8 operands only)")
    if scale_result is not None:
        raise UnsupportedError(f"operator {imp.what} with scale_result is not supported")
    (m, k), (_, n) = input.shape, mat2.shape
    shape = (m, n)
    a, b = input, mat2
    if a.dtype != b.dtype:
        a, b = imp.cast(a, torch.bfloat16), imp.cast(b, torch.bfloat16)
    kb, mb, nb = (-(-d // _BLOCK) for d in (k, m, n))
    if (scale_a.dtype == scale_b.dtype == torch.float32 and kb > 1 and
            tuple(scale_a.shape) in ((m, kb), (mb, kb)) and
            tuple(scale_b.shape) in ((kb, n), (kb, nb))):
        acc = block_scaled_matmul(imp, a, b, scale_a, scale_b)
    else:
        for scale, rows in ((scale_a, (m, 1)), (scale_b, (1, n))):
            if scale.dtype != torch.float32 or tuple(scale.shape) not in ((), (1,), (1, 1),
                                                                         rows):
                raise UnsupportedError(
                    f"operator {imp.what} with a scale of shape {tuple(scale.shape)} and "
                    f"{scale.dtype} (f32 scales: per-tensor, row-wise {rows}, or "
                    "blocks of 1 x 128 or 128 x 128)")
        # use_fast_accum=False (PyTorch's default) asks for partial sums
        # promoted to f32 on Hopper: the product as a sum of its 128-k
        # blocks, each summed from 0 (see block_scaled_matmul); where k is
        # whole blocks (a ragged k would be padded by kernels of its own).
        if not use_fast_accum and kb > 1 and k % _BLOCK == 0:
            acc = block_scaled_matmul(imp, a, b)
        else:
            acc = matmul(imp, a, b, shape, torch.float32)
        for scale in (scale_a, scale_b):
            acc = imp.binary("mul", acc, imp.operand(scale, shape, torch.float32),
                             shape, torch.float32)
    if bias is not None:
        acc = imp.binary("add", acc, imp.operand(bias, shape, torch.float32),
                         shape, torch.float32)
    return imp.cast(acc, val.dtype)


_BLOCK = 128


def block_scaled_matmul(imp, a, b, scale_a=None, scale_b=None):
    """sum over blocks kb of 128 k: (a[:, kb] @ b[kb, :]) * scale_a[:, kb] *
    scale_b[kb, :], for a [m, k], b [k, n], scale_a [m or ceil(m / 128),
    KB] and scale_b [KB, n or ceil(n / 128)] (a scale of 128 rows or
    columns repeated over them): a matmul batched over the blocks (a
    ragged last block padded with zeros), scaled, and summed over the
    blocks. Loop IR fuses the three into one fold over blocks around the
    block's contraction, which Tile IR lowers to one K loop scaling each
    step's sum (docs/TileIR.md, "Block-scaled contractions"). Without
    scales, the blocks' sums are summed unscaled: an fp8 product whose
    partial sums are promoted to f32 every 128 k."""
    (m, k), (_, n) = a.shape, b.shape
    kb = -(-k // _BLOCK)
    f32 = torch.float32
    # (b padded along k as [n, k]: a weight read K-major stays K-major.)
    a = imp.pad(a, [0, 0], [0, kb * _BLOCK - k])
    b = imp.transpose(imp.pad(imp.transpose(b, (1, 0)), [0, 0], [0, kb * _BLOCK - k]),
                      (1, 0))
    a = imp.transpose(imp.reshape(a, (m, kb, _BLOCK)), (1, 0, 2))
    parts = imp.matmul(a, imp.reshape(b, (kb, _BLOCK, n)), (kb, m, n), f32)
    cube = (kb, m, n)
    if scale_a is None:
        return imp.reduce("sum", parts, [0])

    def per_block(scale, size):  # [KB, size or ceil(size / 128)] -> [KB, size]
        blocks = scale.shape[1]
        if blocks == size:
            return scale
        scale = imp.broadcast(imp.reshape(scale, (kb, blocks, 1)), (kb, blocks, _BLOCK))
        return imp.slice(imp.reshape(scale, (kb, blocks * _BLOCK)), [0, 0], [kb, size],
                         (kb, size))
    sa = per_block(imp.transpose(scale_a, (1, 0)), m)
    sa = imp.broadcast(imp.reshape(sa, (kb, m, 1)), cube)
    sb = imp.broadcast(imp.reshape(per_block(scale_b, n), (kb, 1, n)), cube)
    # The block's scale first, then the block's sum times it (as DeepGEMM
    # rounds: one product per row and column, one per element).
    scale = imp.binary("mul", sa, sb, cube, f32)
    return imp.reduce("sum", imp.binary("mul", parts, scale, cube, f32), [0])


def _group_block_rows(rows, groups):
    """The rows of a grouped GEMM's blocks: a power of two from 16 to 64
    near the mean group size, so that padding each group to whole blocks
    adds few rows (256 experts of 16 tokens each take blocks of 16; 8
    experts of 1024, blocks of 64)."""
    mean = max(1, rows // groups)
    return min(64, max(16, 1 << (mean - 1).bit_length()))


@lowering("_grouped_mm", "grouped_mm_fallback")
def grouped_mm(imp, val, input, mat2=None, offs=None, bias=None, out_dtype=None,
               weight=None):
    """Rows grouped by expert (an MoE layer's pairs sorted by expert id),
    each times its group's matrix: aten._grouped_mm's 2-D x 3-D form and
    transformers' grouped_mm_fallback. Group e holds rows [offs[e-1],
    offs[e]); rows past the last offset are zeros.

    As the fused MoE kernels of serving systems run it: each group's rows
    are padded to whole blocks of B rows, every block holds one group's
    rows, and the blocks are one batched matmul, [blocks, B, k] x
    [blocks, k, n], whose left operand gathers the block's rows and whose
    right one is the block's group's matrix (both gathers fuse into the
    product's loads: tensor cores, each group's matrix read once per block
    of its rows). The number of blocks is bounded statically (rows / B
    plus one partial block per group that has rows); blocks past the last
    group's are zeros, which lets the product skip their K loop (Tile IR:
    a loop whose sums only a uniform select reads runs where it picks
    them). Each row then takes its row of the blocks' result."""
    w = weight if weight is not None else mat2
    if offs is None or len(input.shape) != 2 or len(w.shape) != 3 or bias is not None:
        raise UnsupportedError(f"operator {imp.what} is supported for 2-D inputs, 3-D "
                               "weights and offsets, without bias")
    if any(not isinstance(n, int) for n in input.shape + w.shape):
        raise UnsupportedError(f"operator {imp.what} over dynamic sizes is not supported")
    (rows, k), (groups, _, n) = input.shape, w.shape
    i64 = torch.int64
    B = _group_block_rows(rows, groups)
    # The groups' ends, starts and sizes (empty where offsets decrease).
    ends = imp.binary("min", imp.cast(offs, i64), rows, (groups,), i64)
    square = (groups, groups)
    before = imp.compare("lt", square, imp.iota(square, 1), imp.iota(square, 0))
    starts = imp.reduce("max", imp.where(before, imp.broadcast(
        imp.reshape(ends, (1, groups)), square), 0, square, i64), [1])
    sizes = imp.binary("max", imp.binary("sub", ends, starts, (groups,), i64), 0,
                       (groups,), i64)
    # Blocks per group, and where each group's blocks end (an inclusive
    # running sum over the groups).
    nblocks = imp.binary("div", imp.binary("add", sizes, B - 1, (groups,), i64), B,
                         (groups,), i64)
    upto = imp.compare("le", square, imp.iota(square, 1), imp.iota(square, 0))
    bends = imp.reduce("sum", imp.where(upto, imp.broadcast(
        imp.reshape(nblocks, (1, groups)), square), 0, square, i64), [1])
    bstarts = imp.binary("sub", bends, nblocks, (groups,), i64)
    total = (rows + min(groups, rows) * (B - 1)) // B

    def at_or_before(ends_, count):
        """For each of `count` positions, how many of the groups' `ends_`
        are at or before it: the group it falls in."""
        per = (count, groups)
        return imp.reduce("sum", imp.where(
            imp.compare("le", per, imp.broadcast(imp.reshape(ends_, (1, groups)), per),
                        imp.iota(per, 0)), 1, 0, per, i64), [1])
    # Each block's group; past the last group's blocks, the block holds no
    # rows.
    gblock = at_or_before(bends, total)
    used = imp.compare("lt", (total,), gblock, groups)
    gblock = imp.binary("min", gblock, groups - 1, (total,), i64)
    # A block's rows: its group's rows from (block - first block) * B on;
    # the padding past the group's size reads row 0 (its products are
    # never read).
    grid = (total, B)
    at = lambda v: imp.broadcast(imp.reshape(imp.gather(v, gblock, 0), (total, 1)), grid)
    within = imp.binary("add", imp.binary("mul", imp.binary(
        "sub", imp.iota(grid, 0), at(bstarts), grid, i64), B, grid, i64),
        imp.iota(grid, 1), grid, i64)
    src = imp.where(imp.compare("lt", grid, within, at(sizes)),
                    imp.binary("add", at(starts), within, grid, i64), 0, grid, i64)
    # The left operand: the rows gathered into the blocks, or, where the
    # rows are already held in the blocks of this grouping (the previous
    # grouped GEMM's result, through elementwise ops), those blocks.
    key = ("grouped_mm", offs.name, rows, groups)
    rows_in = imp.cast(input, w.dtype)
    held = rows_in.blocked
    if held is not None and held.key == key:
        lhs = held.blocks                                         # [blocks, B, k]
    else:
        lhs = imp.gather(rows_in, src, 0)

    def product(start, end):
        """The blocks' products with their group's matrix's columns
        [start, end); blocks without rows are zeros."""
        mat = w if (start, end) == (0, n) else imp.slice(
            w, [0, 0, start], [groups, k, end], (groups, k, end - start))
        out = (total, B, end - start)
        prod = imp.matmul(lhs, imp.gather(mat, gblock, 0), out, val.dtype)
        return imp.where(imp.broadcast(imp.reshape(used, (total, 1, 1)), out), prod, 0.0,
                         out, val.dtype)
    prod = product(0, n)
    # Row r of group g is row (r - start) of the group's blocks.
    group = at_or_before(ends, rows)
    inside = imp.compare("lt", (rows,), group, groups)
    group = imp.binary("min", group, groups - 1, (rows,), i64)
    r = imp.iota((rows,), 0)
    pos = imp.binary("add", imp.binary("mul", imp.gather(bstarts, group, 0), B, (rows,), i64),
                     imp.binary("sub", r, imp.gather(starts, group, 0), (rows,), i64),
                     (rows,), i64)
    pos = imp.where(inside, pos, 0, (rows,), i64)
    rows_out = imp.gather(imp.reshape(prod, (total * B, n)), pos, 0)
    keep = imp.broadcast(imp.reshape(inside, (rows, 1)), (rows, n))
    result = imp.where(keep, rows_out, 0.0, (rows, n), val.dtype)
    # Held in the blocks too, for an activation and a grouped GEMM after
    # it (Blocked), where the rows fill a block at least: below that (a
    # decoding step's few pairs) the products of the rows alone are a
    # matrix-vector product per row, and the blocks' padding would be
    # computed as rows.
    if rows >= B:
        result.blocked = Blocked(key, prod, product)
    return result


@lowering("addmm")
def addmm(imp, val, input, mat1, mat2, beta=1, alpha=1):
    # beta * input + alpha * (mat1 @ mat2); with beta = 0 the input is
    # not read (its NaNs do not propagate), as in PyTorch.
    # 16-bit: on the f32 accumulator, rounded once (as PyTorch).
    acc = torch.float32 if val.dtype in (torch.float16, torch.bfloat16) else val.dtype
    m = matmul(imp, mat1, mat2, val.shape, acc)
    if alpha != 1:
        m = imp.binary("mul", m, alpha, val.shape, acc)
    if beta != 0:
        bias = imp.operand(input, val.shape, acc)
        if beta != 1:
            bias = imp.binary("mul", bias, beta, val.shape, acc)
        m = imp.binary("add", m, bias, val.shape, acc)
    return imp.cast(m, val.dtype)


@lowering("addmv")
def addmv(imp, val, input, mat, vec, beta=1, alpha=1):
    # beta * input + alpha * (mat @ vec).
    return addmm(imp, val, input, mat, vec, beta, alpha)


@lowering("addbmm")
def addbmm(imp, val, input, batch1, batch2, beta=1, alpha=1):
    # beta * input + alpha * sum over b of batch1[b] @ batch2[b]: one
    # matmul over K = batches x k, [n, b k] @ [b k, p].
    nb, n, k = batch1.shape
    p = batch2.shape[-1]
    a = imp.reshape(imp.transpose(batch1, [1, 0, 2]), (n, nb * k))
    b = imp.reshape(batch2, (nb * k, p))
    return addmm(imp, val, input, a, b, beta, alpha)


def _repeat_heads(imp, t, heads):
    kv = t.shape[-3]
    if heads % kv:
        raise UnsupportedError(f"grouped-query attention with {heads} query heads "
                               f"and {kv} key/value heads (not a multiple)")
    group = heads // kv
    lead, rows = t.shape[:-3], t.shape[-2:]
    t = imp.reshape(t, lead + (kv, 1) + rows)
    t = imp.broadcast(t, lead + (kv, group) + rows)
    return imp.reshape(t, lead + (heads,) + rows)


@lowering("scaled_dot_product_attention")
def scaled_dot_product_attention(imp, val, query, key, value, attn_mask=None,
                                 dropout_p=0.0, is_causal=False,
                                 scale=None, enable_gqa=False):
    q, k, v = query, key, value
    if dropout_p:
        raise UnsupportedError("scaled_dot_product_attention with dropout is not supported")
    if enable_gqa and len(q.shape) >= 3 and k.shape[-3] != q.shape[-3]:
        # Grouped-query attention: each key/value head serves
        # q_heads / kv_heads query heads (head h uses kv head
        # h // group), as PyTorch's repeat_interleave of k and v.
        k, v = (_repeat_heads(imp, t, q.shape[-3]) for t in (k, v))
    batch = tuple(broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2]))
    q = imp.broadcast(q, batch + q.shape[-2:])
    k = imp.broadcast(k, batch + k.shape[-2:])
    v = imp.broadcast(v, batch + v.shape[-2:])
    L, S, E = q.shape[-2], k.shape[-2], q.shape[-1]
    scale = 1.0 / math.sqrt(E) if scale is None else scale
    rank = len(k.shape)
    perm = list(range(rank - 2)) + [rank - 1, rank - 2]
    kt = imp.transpose(k, perm)
    scores_shape = batch + (L, S)
    s = matmul(imp, q, kt, scores_shape, q.dtype)
    s = imp.binary("mul", s, scale, scores_shape, q.dtype)
    if is_causal:
        rows = imp.iota(scores_shape, len(scores_shape) - 2)
        cols = imp.iota(scores_shape, len(scores_shape) - 1)
        keep = imp.compare("le", scores_shape, cols, rows)
        s = imp.where(keep, s, -math.inf, scores_shape, q.dtype)
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            s = imp.where(attn_mask, s, -math.inf, scores_shape, q.dtype)
        else:
            s = imp.binary("add", s, attn_mask, scores_shape, q.dtype)
    p = imp.softmax("softmax", s, len(scores_shape) - 1)
    out = matmul(imp, p, v, val.shape, val.dtype)
    if is_causal or attn_mask is not None:
        # A query whose keys are all masked attends to nothing: zeros,
        # as PyTorch's SDPA (its math backend's safe softmax), not the
        # NaN of softmax over -inf. Applied to the output (the same
        # rows), so that softmax and p @ v stay one online fold.
        top = imp.reduce("max", s, [len(scores_shape) - 1], keepdim=True)
        none = imp.compare("eq", top.shape, top, -math.inf)
        out = imp.where(none, 0, out, val.shape, val.dtype)
    return out


@lowering("_trilinear")
def trilinear(imp, val, i1, i2, i3, expand1, expand2, expand3, sumdim, unroll_dim=1):
    """aten._trilinear (torch.nn.functional.bilinear's): each operand with
    unit dimensions inserted at its `expand` positions, the three
    multiplied and summed over `sumdim`; in f32 for 16-bit operands,
    rounded once. (`unroll_dim` only chooses how PyTorch loops.)"""
    acc = torch.float32 if val.dtype in (torch.float16, torch.bfloat16) else val.dtype
    rank = len(i1.shape) + len(expand1)

    def expanded(x, dims):
        shape = list(x.shape)
        for d in sorted(dims):
            shape.insert(d, 1)
        if len(shape) != rank:
            raise UnsupportedError(f"_trilinear operands of ranks {len(i1.shape)}, "
                                   f"{len(i2.shape)} and {len(i3.shape)} do not expand "
                                   f"to one rank")
        return imp.reshape(imp.cast(x, acc), shape)
    a, b, c = expanded(i1, expand1), expanded(i2, expand2), expanded(i3, expand3)
    shape = broadcast_shapes(broadcast_shapes(a.shape, b.shape), c.shape)
    product = imp.binary("mul", imp.binary("mul", a, b, shape, acc), c, shape, acc)
    total = imp.reduce("sum", product, sorted(sumdim)) if sumdim else product
    return imp.cast(total, val.dtype)
