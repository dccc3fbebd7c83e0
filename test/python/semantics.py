# Results that must match PyTorch's semantics, each once silently wrong or
# rejected: arguments given positionally, by keyword or left to their
# defaults (every handler binds to the op's schema), addmm's alpha and beta,
# 16-bit composites computed in f32, reductions over several dimensions,
# empty tensors, 0-dim inputs, a 1-D linear weight. Each case runs through
# xtile.compile under the CPU emulation and is checked against a float64
# reference within eager's own error (opinfo.compare). Prints one line per
# case and a closing count.
import sys

import torch
import torch.nn.functional as F

from opinfo import Fn, compare, run

torch.manual_seed(0)


def randn(*shape, dtype=torch.float32):
    return torch.randn(shape).to(dtype)


f32, bf16, f16 = torch.float32, torch.bfloat16, torch.float16
x3 = randn(4, 6, 8)
CASES = [
    # addmm: beta * input + alpha * (mat1 @ mat2), in every form.
    ("addmm alpha beta keyword", lambda b, x, y: torch.addmm(b, x, y, beta=0.2, alpha=0.6),
     (randn(5, 7), randn(5, 3), randn(3, 7))),
    ("addmm defaults", lambda b, x, y: torch.addmm(b, x, y), (randn(7), randn(5, 3), randn(3, 7))),
    ("addmm beta 0 ignores NaN input", lambda b, x, y: torch.addmm(b, x, y, beta=0),
     (torch.full((5, 7), float("nan")), randn(5, 3), randn(3, 7))),
    ("Tensor.addmm method", lambda b, x, y: b.addmm(x, y, alpha=2), (randn(5, 7), randn(5, 3), randn(3, 7))),
    # var / std: unbiased, dims, correction, positional and keyword.
    ("var(x, False) positional unbiased", lambda x: torch.var(x, False), (randn(5, 6),)),
    ("var(x) default", lambda x: torch.var(x), (randn(5, 6),)),
    ("var(x, 1, False) dim then unbiased", lambda x: torch.var(x, 1, False), (randn(5, 6),)),
    ("var(x, dim=1, unbiased=False, keepdim=True)",
     lambda x: torch.var(x, dim=1, unbiased=False, keepdim=True), (randn(5, 6),)),
    ("var(x, (0, 2), correction=0)", lambda x: torch.var(x, (0, 2), correction=0), (x3,)),
    ("var fractional correction", lambda x: torch.var(x, 1, correction=0.5), (randn(5, 6),)),
    ("std(x, False) positional unbiased", lambda x: torch.std(x, False), (randn(5, 6),)),
    ("std(x, -1, keepdim=True)", lambda x: torch.std(x, -1, keepdim=True), (randn(5, 6),)),
    ("var of a 0-dim tensor (nan)", lambda x: torch.var(x), (randn(),)),
    # Conversions: positional and keyword dtypes.
    ("x.to(torch.float32) positional", lambda x: x.to(torch.float32) * 2, (randn(4, 4, dtype=bf16),)),
    ("x.to(dtype=torch.bfloat16)", lambda x: x.to(dtype=torch.bfloat16) + 1, (randn(4, 4),)),
    ("x.float() / x.half()", lambda x: x.float() + x.half().float(), (randn(4, 4, dtype=bf16),)),
    # Comparisons in the promoted type: an int tensor against 0.5 compares
    # as float (it once compared against int 0).
    ("int tensor < 0.5", lambda x: (x < 0.5).to(torch.float32) + (x == 2.5).to(torch.float32),
     (torch.tensor([[0, 1, 2], [-1, 3, 0]]),)),
    ("int32 sum is int64", lambda x: x.sum(-1) * 3, (torch.full((2, 5), 2**30, dtype=torch.int32),)),
    # 16-bit composites compute in f32 and round once.
    ("gelu erf bf16 (x = -3.375)", lambda x: F.gelu(x),
     (torch.tensor([-3.375, -2.5, -1.0, 0.0, 0.75, 3.0, -4.0, -5.5], dtype=bf16),)),
    ("gelu erf bf16", lambda x: F.gelu(x), (randn(10, 10, dtype=bf16) * 3,)),
    ("gelu tanh bf16", lambda x: F.gelu(x, approximate="tanh"), (randn(10, 10, dtype=bf16) * 3,)),
    ("gelu erf f16", lambda x: F.gelu(x), (randn(10, 10, dtype=f16) * 3,)),
    ("softmax bf16 last of three dims", lambda x: torch.softmax(x, -1), (randn(3, 5, 17, dtype=bf16) * 4,)),
    ("log_softmax bf16 last of three dims", lambda x: F.log_softmax(x, -1), (randn(3, 5, 17, dtype=bf16) * 4,)),
    ("softmin bf16 last of three dims", lambda x: F.softmin(x, -1), (randn(3, 5, 17, dtype=bf16) * 4,)),
    ("softmax bf16 middle dim", lambda x: torch.softmax(x, 1), (randn(3, 5, 17, dtype=bf16) * 4,)),
    ("silu f16", lambda x: F.silu(x), (randn(10, 10, dtype=f16) * 4,)),
    ("layer_norm bf16", lambda x: F.layer_norm(x, (32,)), (randn(6, 32, dtype=bf16) * 3 + 1,)),
    ("rms_norm f16", lambda x: F.rms_norm(x, (32,)), (randn(6, 32, dtype=f16) * 3,)),
    ("mean bf16", lambda x: x.mean(-1), (randn(6, 32, dtype=bf16) * 3 + 1,)),
    ("sum(dtype=float32) of bf16", lambda x: x.sum(-1, dtype=torch.float32), (randn(6, 32, dtype=bf16),)),
    # Reductions over several dimensions, adjacent or not.
    ("sum dim=(0, -1)", lambda x: x.sum(dim=(0, -1)), (x3,)),
    ("mean dim=(1, 3)", lambda x: x.mean(dim=(1, 3)), (randn(2, 3, 4, 5),)),
    ("amax dim=(0, 2) keepdim", lambda x: x.amax(dim=(0, 2), keepdim=True), (x3,)),
    ("amin dim=(1, 2) keepdim", lambda x: x.amin((1, 2), True), (x3,)),
    ("prod over all dims", lambda x: x.prod(), (randn(3, 4) * 0.5 + 1,)),
    ("sum of a 0-dim tensor", lambda x: x.sum(0), (randn(),)),
    ("layer_norm over two dims", lambda x, w, b: F.layer_norm(x, (6, 8), w, b),
     (x3, randn(6, 8), randn(6, 8))),
    ("rms_norm over two dims", lambda x, w: F.rms_norm(x, (6, 8), w, eps=1e-6), (x3, randn(6, 8))),
    # Empty tensors, 0-dim inputs, 1-D weights.
    ("split_with_sizes with a zero piece",
     lambda x: tuple(p * 2 for p in torch.split_with_sizes(x, [2, 0, 4], dim=1)), (randn(5, 6),)),
    ("sum over an empty dim", lambda x: x[:, 3:3].sum(1), (randn(5, 6),)),
    ("index_select on a 0-dim input", lambda x, i: torch.index_select(x, 0, i),
     (randn(), torch.tensor([0]))),
    ("index_select with a 0-dim index", lambda x, i: torch.index_select(x, 1, i),
     (randn(3, 4), torch.tensor(2))),
    ("linear with a 1-D weight", lambda x, w: F.linear(x, w), (randn(5, 7), randn(7))),
    ("linear with a 1-D weight and 0-dim bias", lambda x, w, b: F.linear(x, w, b),
     (randn(2, 5, 7), randn(7), randn())),
    # fmax / fmin take the element that is not NaN; copysign takes -0.0's
    # sign, and makes integers float.
    ("fmax and fmin ignore NaN", lambda a, b: (torch.fmax(a, b), torch.fmin(a, b)),
     (torch.tensor([float("nan"), 1.0, float("nan"), -2.0, 3.0]),
      torch.tensor([2.0, float("nan"), float("nan"), 4.0, -1.0]))),
    ("fmax of integers", lambda a, b: torch.fmax(a, b),
     (torch.tensor([1, -5, 7]), torch.tensor([3, -6, 7]))),
    ("copysign by -0.0", lambda a, b: torch.copysign(a, b),
     (torch.tensor([1.0, -2.0, 3.0, 0.0, 5.0]), torch.tensor([-0.0, 0.0, -1.0, -2.0, 7.0]))),
    ("copysign of integers is float", lambda a, b: torch.copysign(a, b) * 0.5,
     (torch.tensor([1, -2, 3]), torch.tensor([-4, 5, 0]))),
    ("copysign by a number", lambda a: torch.copysign(a, -1.0), (randn(4, 3),)),
]


def run_cases(cases, label):
    """Runs (name, fn, inputs) cases through xtile against eager and
    float64; prints a line per case and `<label>: N passed, N failed`."""
    passed = failed = 0
    for name, fn, inputs in cases:
        try:
            why = compare(*run(Fn(fn), inputs))
        except Exception as e:  # noqa: BLE001 - reported per case
            lines = str(e).strip().splitlines() or [""]
            why = f"{type(e).__name__}: " + next((l for l in lines if "error:" in l), lines[-1])
        print(f"{name}: {'ok' if why is None else 'FAILED: ' + why}")
        passed += why is None
        failed += why is not None
    print(f"{label}: {passed} passed, {failed} failed")
    return 1 if failed else 0


class Counter(torch.nn.Module):
    """Assigns to an input and to a buffer in place."""

    def __init__(self):
        super().__init__()
        self.register_buffer("calls", torch.zeros(3))

    def forward(self, x, stats):
        self.calls.add_(1)
        stats.mul_(0.5)
        return x * 2 + self.calls


def in_place_cases():
    """In-place assignments to inputs and buffers reach them, as in eager;
    the results are the module's own (instance norm with running
    statistics returns the normalized input, not the statistics)."""
    failed = 0
    eager, ours = Counter(), Counter()
    x, s1, s2 = randn(3), randn(3), None
    s2 = s1.clone()
    want = eager(x, s1)
    import xtile
    got = xtile.compile(ours, (x, s2), backend="emu")(x, s2)
    ok = torch.equal(got, want) and torch.equal(s1, s2) and torch.equal(ours.calls, eager.calls)
    print(f"in-place input and buffer assignments: {'ok' if ok else 'FAILED'}")
    failed += not ok
    x = randn(2, 3, 5)
    m1, v1 = randn(3), torch.rand(3) + 0.5
    m2, v2 = m1.clone(), v1.clone()
    norm = Fn(lambda x, m, v: F.instance_norm(x, m, v, use_input_stats=True, momentum=0.3))
    want = norm(x, m1, v1)
    got = xtile.compile(norm, (x, m2.clone(), v2.clone()), backend="emu")(x, m2, v2)
    ok = got.shape == want.shape and torch.allclose(got, want, atol=1e-5) and \
        torch.allclose(m1, m2, atol=1e-6) and torch.allclose(v1, v2, atol=1e-6)
    print(f"instance_norm with running statistics: {'ok' if ok else 'FAILED'}")
    failed += not ok
    failed += kv_append_in_place()
    return failed


class Append(torch.nn.Module):
    """A KV cache's append (index_copy_ at two positions), then a read of
    the new cache."""

    def forward(self, cache, pos, new):
        cache.index_copy_(1, pos, new)
        return (cache * 2).sum(1)


def kv_append_in_place():
    """The new cache is returned in place of the old one: the program
    writes the new rows into the caller's tensor (its Kernel IR program
    has the result in place of the input and copies nothing), and a cache
    that is not contiguous is passed as a copy whose new value is written
    back."""
    import xtile
    from xtile.runtime import Program
    pos, new = torch.tensor([3, 5]), randn(2, 2, 8)
    cache, want_cache = torch.zeros(2, 16, 8), torch.zeros(2, 16, 8)
    want = Append()(want_cache, pos, new)
    compiled = xtile.compile(Append(), (cache.clone(), pos, new), backend="emu")
    kernel_ir = Program._lower(compiled.mlir, "target=sm_90")
    written = "in_place = array<i64: 0, -1>" in kernel_ir and "xkernel.copy" not in kernel_ir
    ptr = cache.data_ptr()
    got = compiled(cache, pos, new)
    ok = written and cache.data_ptr() == ptr and torch.equal(cache, want_cache) and \
        torch.allclose(got, want, atol=1e-5)
    strided = torch.zeros(16, 2, 8).transpose(0, 1)
    compiled(strided, pos, new)
    ok_strided = not strided.is_contiguous() and torch.equal(strided, want_cache)
    print(f"KV cache append written in place: {'ok' if ok else 'FAILED'}")
    print(f"KV cache append into a strided cache: {'ok' if ok_strided else 'FAILED'}")
    return (not ok) + (not ok_strided)


def main():
    failed = in_place_cases()
    return run_cases(CASES, "semantics") or failed


if __name__ == "__main__":
    sys.exit(main())
