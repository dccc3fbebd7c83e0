# Selection, sorting and counting (topk, kthvalue, sort, argsort, msort,
# quantile, median, nanmedian, histc) through xtile.compile under the CPU emulation,
# compared with eager PyTorch: the same values bit for bit (NaN where eager
# has NaN), at indices that hold them (eager's own where the row has no
# ties). Covers ties (ranked by ascending index), NaN and infinities,
# largest=False and descending, every dimension, integer and bool rows,
# bf16, k = 1 to the whole row in rounds and by ranks, and an MoE router
# (softmax, topk, renormalization). Prints one line per case with its
# kernel count, the errors for what is not supported, and a closing count.
import sys

import torch

import xtile
from opinfo import Fn, print_rejections


def same(got, want):
    if isinstance(want, (tuple, list)):
        return all(same(g, w) for g, w in zip(got, want))
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if want.is_floating_point():
        return torch.equal(torch.isnan(got), torch.isnan(want)) and torch.equal(
            torch.nan_to_num(got, nan=0.0), torch.nan_to_num(want, nan=0.0))
    return torch.equal(got, want)


def selected(x, dim, got, want, keepdim=True):
    """got selects what eager selects: the same values, and indices that
    hold them, each once. PyTorch leaves the order of tied elements open
    (eager's CPU and CUDA kernels differ; xtile ranks them by ascending
    index), so indices are compared with eager's only where the values
    have no ties."""
    (gv, gi), (wv, wi) = got, want
    if not same(gv, wv) or gi.dtype != wi.dtype or gi.shape != wi.shape:
        return False
    d = dim % x.dim()
    if not keepdim:
        gi = gi.unsqueeze(d)
        gv = gv.unsqueeze(d)
    if not same(x.gather(d, gi), gv):
        return False
    order = gi.sort(dim=d).values
    distinct = (order.narrow(d, 1, order.shape[d] - 1) !=
                order.narrow(d, 0, order.shape[d] - 1)).all()
    untied = x.unique().numel() == x.numel()
    return bool(distinct) and (not untied or torch.equal(got[1], want[1]))


def last_held(x, dim, got, want, keepdim=False):
    """mode: the most frequent value of each row, the smallest of those
    equally frequent, NaNs counting as one value above every number (where
    the row has none, eager's value), at the last position holding it
    (eager's index is wherever its unstable sort ends the value's run)."""
    gv, gi = got
    d = dim % x.dim()
    rows = x.movedim(d, -1).reshape(-1, x.shape[d])
    values, indices = [], []
    for row in rows.tolist():
        keys = ["nan" if v != v else v for v in row]
        counts = {k: keys.count(k) for k in keys}
        top = max(counts.values())
        best = min((k for k in counts if counts[k] == top),
                   key=lambda k: (k == "nan", 0 if k == "nan" else k))
        values.append(float("nan") if best == "nan" else best)
        indices.append(max(i for i, k in enumerate(keys) if k == best))
    shape = list(want[0].shape)
    ev = torch.tensor(values, dtype=x.dtype).reshape(shape)
    ei = torch.tensor(indices).reshape(shape)
    no_nan = ~torch.isnan(x).any()
    return same(gv, ev) and torch.equal(gi, ei) and (not no_nan or same(gv, want[0]))


def tied(n, m, dtype=torch.float32):
    """Rows of few distinct values, so most values are tied."""
    torch.manual_seed(n * m)
    return torch.randint(-2, 3, (n, m)).to(dtype)


def special(n, m):
    """Rows with NaN, +-inf and ties among them."""
    torch.manual_seed(7)
    x = torch.randint(-3, 4, (n, m)).float()
    x[0, 1] = x[0, 5] = float("nan")
    x[1, :] = float("nan")
    x[2, 2] = float("inf")
    x[2, 6] = float("-inf")
    x[3, 0] = x[3, 3] = float("inf")
    x[4, ::2] = float("nan")
    return x


def router(x, w):
    """A mixture-of-experts router as Mixtral's: softmax over the experts'
    logits, the top 2, renormalized."""
    probs = torch.softmax(x @ w, dim=-1, dtype=torch.float32)
    weights, experts = torch.topk(probs, 2, dim=-1)
    return weights / weights.sum(-1, keepdim=True), experts


def routed(got, want):
    """A router's experts exactly (the inputs have no ties), its weights
    within f32 rounding (the softmax is computed differently)."""
    return torch.equal(got[1], want[1]) and torch.allclose(got[0], want[0], rtol=1e-5,
                                                           atol=1e-6)


def sort_experts(scores, k, descending=False):
    """An MoE layer's pairs sorted by expert (transformers' grouped_mm
    experts): topk's indices flattened, sorted (stable), and the inverse
    permutation scattered, `inv[perm] = arange(n)`."""
    experts = torch.topk(scores, k, dim=-1).indices.reshape(-1)
    order, perm = torch.sort(experts, descending=descending, stable=True)
    inv = torch.empty_like(perm)
    inv[perm] = torch.arange(perm.numel())
    return order, perm, inv


def top_p(scores):
    """transformers' top-p (nucleus) filter, as generate() samples with:
    an ascending sort of the vocabulary, the softmax's running sum, and
    the removal mask scattered back by the sort's indices."""
    from transformers.generation.logits_process import TopPLogitsWarper
    return TopPLogitsWarper(top_p=0.8)(None, scores)


def top_k(scores):
    """transformers' top-k filter: everything below the 50th largest."""
    from transformers.generation.logits_process import TopKLogitsWarper
    return TopKLogitsWarper(top_k=50)(None, scores)


def cases():
    """(name, function, inputs, check(args, got, want))."""
    torch.manual_seed(0)
    r = torch.randn

    def topk(k, dim=-1, largest=True):
        return (lambda x: torch.topk(x, k, dim=dim, largest=largest),
                lambda args, got, want: selected(args[0], dim, got, want))

    def kth(k, dim=-1, keepdim=False):
        return (lambda x: torch.kthvalue(x, k, dim=dim, keepdim=keepdim),
                lambda args, got, want: selected(args[0], dim, got, want, keepdim))

    def srt(dim=-1, descending=False):
        return (lambda x: torch.sort(x, dim=dim, descending=descending),
                lambda args, got, want: selected(args[0], dim, got, want))

    def med(dim, keepdim=False, name="median"):
        f = getattr(torch, name)
        return (lambda x: f(x, dim, keepdim=keepdim),
                lambda args, got, want: selected(args[0], dim, got, want, keepdim))

    def mod(dim=-1, keepdim=False):
        return (lambda x: torch.mode(x, dim, keepdim),
                lambda args, got, want: last_held(args[0], dim, got, want, keepdim))

    exact = lambda args, got, want: same(got, want)  # noqa: E731
    return [
        ("mode ties", *mod(), (tied(5, 9),)),
        ("mode nan inf", *mod(), (special(5, 8),)),
        ("mode dim 0 keepdim", *mod(0, True), (tied(7, 6),)),
        ("mode int64", *mod(), (tied(4, 40, torch.int64),)),
        ("mode bool", *mod(), (tied(3, 11) > 0,)),
        ("mode bf16 (merging)", *mod(), (tied(2, 600).bfloat16(),)),
        ("mode 1000 of 50 values (merging)", *mod(),
         (torch.randint(0, 50, (3, 1000)).float(),)),
        ("topk k=1", *topk(1), (r(6, 33),)),
        ("topk k=4 ties", *topk(4), (tied(5, 9),)),
        ("topk k=9 whole row", *topk(9), (tied(5, 9),)),
        ("topk smallest ties", *topk(3, largest=False), (tied(7, 8),)),
        ("topk nan inf", *topk(5), (special(5, 8),)),
        ("topk smallest nan inf", *topk(8, largest=False), (special(5, 8),)),
        ("topk dim 0", *topk(3, dim=0), (r(10, 7),)),
        ("topk dim 1 of 3", *topk(2, dim=1), (tied(4, 30).reshape(4, 6, 5),)),
        ("topk 1-d", *topk(3), (r(17),)),
        ("topk int64", *topk(3), (tied(6, 11, torch.int64),)),
        ("topk int32 smallest", *topk(2, largest=False), (tied(6, 11, torch.int32),)),
        ("topk bf16", *topk(4), (r(8, 64).bfloat16(),)),
        ("topk of 256, k=8", *topk(8), (r(3, 256),)),
        ("topk of 1000, k=16", *topk(16), (r(2, 1000),)),
        ("topk values of a product", lambda x: torch.topk(x * 2 + 1, 2).values, exact,
         (r(5, 12),)),
        ("topk k=40 of 100 (ranks)", *topk(40), (r(3, 100),)),
        ("topk k=20 smallest ties nan (ranks)", *topk(20, largest=False),
         (special(5, 8).repeat(1, 4),)),
        ("kthvalue k=1", *kth(1), (r(4, 9),)),
        ("kthvalue k=30 (ranks)", *kth(30, dim=0), (tied(50, 3),)),
        ("kthvalue k=3 ties", *kth(3), (tied(6, 7),)),
        ("kthvalue nan", *kth(7), (special(5, 8),)),
        ("kthvalue dim 0 keepdim", *kth(2, dim=0, keepdim=True), (r(5, 4),)),
        ("kthvalue int64", *kth(4), (tied(3, 10, torch.int64),)),
        ("sort", *srt(), (r(6, 33),)),
        ("sort descending ties", *srt(descending=True), (tied(5, 9),)),
        ("sort nan inf", *srt(), (special(5, 8),)),
        ("sort descending nan inf dim 0", *srt(0, True), (special(5, 8),)),
        ("sort int64", *srt(), (tied(4, 12, torch.int64),)),
        ("sort bool", *srt(), (tied(4, 12) > 0,)),
        ("sort bf16 1-d", *srt(), (r(50).bfloat16(),)),
        ("argsort stable", lambda x: torch.argsort(x, stable=True, descending=True),
         exact, (tied(3, 17),)),
        # Rows of more than 256 elements: blocks ranked, then merged.
        ("sort 300 (merging)", *srt(), (r(3, 300),)),
        ("sort descending ties 1000 (merging)", *srt(descending=True), (tied(2, 1000),)),
        ("sort nan inf (merging)", *srt(), (special(5, 8).repeat(1, 97)[:, :777],)),
        ("sort descending nan inf dim 0 (merging)", *srt(0, True),
         (special(5, 8).repeat(1, 97)[:, :777].t(),)),
        ("sort int64 (merging)", *srt(), (tied(3, 513, torch.int64),)),
        ("sort bool (merging)", *srt(), (tied(2, 600) > 0,)),
        ("sort bf16 1-d (merging)", *srt(), (r(2000).bfloat16(),)),
        ("sort f16 descending ties nan (merging)", *srt(descending=True),
         (torch.cat([tied(2, 700), special(5, 8)[:2]], 1).half(),)),
        ("argsort stable ties (merging)", lambda x: torch.argsort(x, stable=True), exact,
         (tied(2, 4096),)),
        ("sort 4 x 10000 (merging)", *srt(descending=True), (r(4, 10000),)),
        ("topk k=50 of 5000 (merging)", *topk(50), (r(3, 5000),)),
        ("kthvalue k=100 (merging)", *kth(100), (tied(3, 1000),)),
        ("median nan (merging)", *med(1), (special(5, 8).repeat(1, 126)[:, :1001],)),
        ("nanmedian (merging)", *med(1, name="nanmedian"), (special(5, 8).repeat(1, 88),)),
        ("quantile (merging)", lambda x: torch.quantile(x, 0.9, dim=1),
         lambda a, g, w: torch.allclose(g, w, rtol=1e-6, atol=1e-6), (r(4, 600),)),
        ("top-p filter (transformers)", top_p, exact, (r(2, 1000) * 3,)),
        ("top-k filter (transformers)", top_k, exact, (r(2, 1000),)),
        ("msort", lambda x: torch.msort(x), exact, (tied(9, 4),)),
        ("quantile", lambda x: torch.quantile(x, 0.3, dim=1),
         lambda a, g, w: torch.allclose(g, w, rtol=1e-6, atol=1e-6), (r(5, 21),)),
        ("median of all", lambda x: torch.median(x), exact, (r(7, 5),)),
        ("median of all with nan", lambda x: torch.median(x), exact, (special(5, 8),)),
        ("median dim", *med(1), (tied(6, 8),)),
        ("median dim 0 nan", *med(0), (special(5, 8).t(),)),
        ("median int64 keepdim", *med(1, True), (tied(3, 7, torch.int64),)),
        ("nanmedian dim", *med(1, name="nanmedian"), (special(5, 8),)),
        ("nanmedian of all", lambda x: torch.nanmedian(x), exact, (special(5, 8),)),
        ("histc of expert ids", lambda x: torch.histc(x, 8, 0, 7), exact,
         (torch.randint(0, 8, (48,)).float(),)),
        ("histc nan and outside", lambda x: torch.histc(x, 5, -1.0, 1.5), exact,
         (special(5, 8) / 2,)),
        ("histc f32", lambda x: torch.histc(x, 13, -1.5, 2.0), exact, (r(4, 250),)),
        ("router 8 experts", router, lambda a, g, w: routed(g, w), (r(13, 64), r(64, 8))),
        ("router 64 experts", router, lambda a, g, w: routed(g, w), (r(9, 32), r(32, 64))),
        # Sorted by counting (topk's indices lie in [0, experts)): any
        # number of pairs, the inverse scattered as a gather.
        ("sort expert ids 8 of 2", lambda x: sort_experts(x, 2), exact, (r(37, 8),)),
        ("sort expert ids 256 of 8", lambda x: sort_experts(x, 8), exact, (r(300, 256),)),
        ("sort expert ids descending", lambda x: sort_experts(x, 3, True), exact,
         (r(5, 16),)),
        ("sort expert ids 9000 pairs", lambda x: sort_experts(x, 2), exact, (r(4500, 8),)),
    ]


def kernels(module, args):
    text = xtile.import_module(module, args)
    import subprocess
    from xtile import runtime
    out = subprocess.run([runtime._tool("xtile-opt"), "--lower-to-kernel"], input=text,
                         capture_output=True, text=True, check=True).stdout
    return out.count("xkernel.func @")


def main():
    passed = failed = 0
    for name, f, check, args in cases():
        module = Fn(f).eval()
        with torch.no_grad():
            want = module(*args)
            try:
                got = xtile.compile(module, args, backend="emu")(*args)
                ok = check(args, got, want)
                line = f"{name}: {'ok' if ok else 'FAILED (differs from eager)'}"
                if not ok:
                    print(" got", got, "\n want", want)
                else:
                    line += f" ({kernels(module, args)} kernels)"
            except Exception as e:  # noqa: BLE001 - reported
                ok, line = False, f"{name}: FAILED {type(e).__name__}: {str(e)[:300]}"
        print(line)
        sys.stdout.flush()
        passed, failed = passed + ok, failed + (not ok)
    # An empty selection and a histogram's range from the data: errors
    # that say so.
    x = torch.randn(2, 32)
    failed += print_rejections([
        ("topk k=0", lambda x: torch.topk(x, 0), (x,)),
        ("histc over the data's range", lambda x: torch.histc(x, 4), (x,))])
    print(f"selection: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
