# PyTorch's own op samples (OpInfo, torch.testing._internal) through
# xtile.compile under the CPU emulation, against eager and a float64
# reference.
#
#   opinfo.py [--ops NAME,NAME,...] [--dtypes float32,bfloat16]
#             [--max-samples N] [--verbose] [--grad]
#
# An op NAME selects every variant of that OpInfo; NAME.VARIANT one.
# --max-samples N runs N of each op's samples, spread evenly over its list
# (the first and the last included), for the fast test tier.
#
# Each sample (input, args, kwargs) becomes a module whose tensor arguments
# are its inputs. A result passes when every element is within
#   2 * max(|eager - ref|, ulp(ref)) + 8 * eps(f32) * max|ref|
# of the float64 reference `ref` (the op on the samples upcast to f64):
# xtile may be no less accurate than eager on the same inputs, elementwise,
# give or take one rounding of the result's type. Prints one line per op
# and dtype ("<op> <dtype>: N passed, N failed") with the failures, and a
# closing total; exits non-zero when a sample fails.
#
# --grad checks gradients instead: each sample's floating-point inputs
# require grad, the module goes through torch.compile(backend="xtile")
# (AOTAutograd's forward and backward graphs, both compiled by xtile), and
# the gradients of sum(result * cotangent) for a random cotangent are held
# to the same bound against eager's and the float64 reference's, the last
# term taken at the largest gradient or cotangent (what cancels in a
# gradient is as large as they are).
import argparse
import copy
import sys
import warnings

import torch
from torch.testing._internal.common_methods_invocations import op_db

import xtile

warnings.filterwarnings("ignore")

# The ops of issue 20's run, by OpInfo name (every variant of each).
ELEMENTWISE_OPS = ["abs", "neg", "exp", "exp2", "log", "log2", "sqrt", "rsqrt",
                   "reciprocal", "sin", "cos", "tanh", "erf", "sigmoid",
                   "floor", "ceil", "add", "sub", "rsub", "mul",
                   "div.no_rounding_mode", "pow", "maximum", "minimum",
                   "where", "eq", "lt", "ge", "clone", "nn.functional.relu",
                   "nn.functional.silu"]
DEFAULT_OPS = ["addmm", "var", "std", "nn.functional.gelu", "softmax",
               "log_softmax", "nn.functional.softmin", "sum", "mean", "amax", "amin",
               "prod", "nn.functional.layer_norm", "nn.functional.rms_norm",
               "split_with_sizes", "index_select", "nn.functional.linear",
               "addmv", "addbmm", "matmul", "topk", "kthvalue", "sort", "median",
               "nanmedian", "fmax", "fmin", "copysign", "erfc", "erfinv", "eye", "mode",
               "nn.functional.bilinear", "nn.functional.embedding"]


class Fn(torch.nn.Module):
    """A module whose forward is `fn`."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *xs):
        return self.fn(*xs)


def print_rejections(cases):
    """For each (name, function, inputs): "<name>: " and the first line of
    the UnsupportedError that importing the function raises, or a FAILED
    line when it imports. Returns the number of FAILED lines."""
    failed = 0
    for name, fn, args in cases:
        try:
            xtile.import_module(Fn(fn), args)
            print(f"{name}: FAILED (no error)")
            failed += 1
        except xtile.UnsupportedError as e:
            print(f"{name}: {str(e).splitlines()[0]}")
    return failed


class Sample(torch.nn.Module):
    """op(input, *args, **kwargs) with every tensor as a module input."""

    def __init__(self, op, sample):
        super().__init__()
        self.op = op
        self.tensors = []
        self.structure = tuple(self._strip(x) for x in
                               ((sample.input,) + tuple(sample.args)))
        self.kwargs = {k: self._strip(v) for k, v in sample.kwargs.items()}

    def _strip(self, x):
        if isinstance(x, torch.Tensor):
            self.tensors.append(x)
            return ("tensor", len(self.tensors) - 1)
        if isinstance(x, (list, tuple)):
            return type(x)(self._strip(v) for v in x)
        return x

    @staticmethod
    def _fill(x, tensors):
        if isinstance(x, tuple) and len(x) == 2 and x[0] == "tensor":
            return tensors[x[1]]
        if isinstance(x, (list, tuple)):
            return type(x)(Sample._fill(v, tensors) for v in x)
        return x

    def forward(self, *tensors):
        args = [self._fill(a, tensors) for a in self.structure]
        kwargs = {k: self._fill(v, tensors) for k, v in self.kwargs.items()}
        out = self.op(*args, **kwargs)
        return tuple(out) if isinstance(out, (list, tuple)) else out


def ulp(x, dtype):
    """The spacing of `dtype` at |x| (x in float64)."""
    finfo = torch.finfo(dtype)
    mag = x.abs().clamp(min=finfo.tiny)
    return torch.pow(2.0, torch.floor(torch.log2(mag))) * finfo.eps


def as_list(out):
    return list(out) if isinstance(out, (list, tuple)) else [out]


def compare(got, eager, ref, scale=0.0):
    """None when every output of `got` is within the bound of the header
    against `ref`, else why not. Integer outputs must equal eager's.
    `scale`, where larger than max|ref|, stands for it in the bound's last
    term (a gradient's: the magnitude of what cancels in it)."""
    eps32 = torch.finfo(torch.float32).eps
    for g, e, r in zip(as_list(got), as_list(eager), as_list(ref)):
        if g.shape != e.shape or g.dtype != e.dtype:
            return f"result {list(g.shape)} {g.dtype}, eager {list(e.shape)} {e.dtype}"
        if not e.is_floating_point():
            if not torch.equal(g, e):
                return "integer results differ from eager"
            continue
        if e.numel() == 0:
            continue
        g64, e64, r64 = g.to(torch.float64), e.to(torch.float64), r.to(torch.float64)
        same_special = torch.equal(torch.isnan(g64), torch.isnan(e64)) and \
            torch.equal(g64[torch.isinf(e64)], e64[torch.isinf(e64)])
        if not same_special:
            return "NaN/inf pattern differs from eager"
        ok = torch.isfinite(e64) & torch.isfinite(r64)
        if not ok.any():
            continue
        bound = 2 * torch.maximum((e64 - r64).abs(), ulp(r64, e.dtype)) + \
            8 * eps32 * max(r64[ok].abs().max().item(), scale)
        err = (g64 - r64).abs()
        bad = ok & ~(err <= bound)
        if bad.any():
            i = tuple(bad.nonzero()[0].tolist())
            return (f"{int(bad.sum())} of {e.numel()} elements off, e.g. at {list(i)}: "
                    f"xtile {g64[i].item():.6g}, eager {e64[i].item():.6g}, "
                    f"float64 {r64[i].item():.6g}")
    return None


class NoReference(Exception):
    """The sample has no float64 reference: PyTorch rejects it on a
    float64 copy of its inputs (an as_strided view reaching past its
    tensor into the storage of the tensor it was sliced from, which a copy
    does not have and a compiled graph does not see)."""


def run(module, inputs):
    """(xtile's, eager's, float64 reference) outputs of `module`."""
    eager = module(*inputs)
    wide = tuple(t.to(torch.float64) if t.is_floating_point() else t for t in inputs)
    try:
        ref = copy.deepcopy(module).to(torch.float64)(*wide)
    except RuntimeError as e:
        raise NoReference(str(e).splitlines()[0][:160]) from None
    got = xtile.compile(module, inputs, backend="emu")(*inputs)
    return got, eager, ref


def check(op, sample, dtype):
    module = Sample(op.op, sample)
    got, eager, ref = run(module, tuple(module.tensors))
    if "empty" in op.name:
        # Uninitialized memory: only the shapes and dtypes are the op's.
        return compare(got, got, got) if all(
            g.shape == e.shape and g.dtype == e.dtype
            for g, e in zip(as_list(got), as_list(eager))) else "shape or dtype differs"
    if op.name in ("topk", "kthvalue", "sort", "median", "nanmedian", "mode") and \
            isinstance(eager, tuple):
        return compare_selection(op.name, sample, got, eager, ref)
    if op.name == "argsort" and not torch.equal(got, eager):
        # The sorted values at both orders, as sort's results.
        x = sample.input
        d = (sample.args[0] if sample.args else sample.kwargs.get("dim", -1)) % max(x.dim(), 1)
        if x.dim() == 0:
            return "integer results differ from eager"
        pair = [(x.gather(d, i), i) for i in (got, eager)]
        return compare_selection("sort", sample, pair[0], pair[1], pair[1])
    return compare(got, eager, ref)


class NoGradient(Exception):
    """The sample has nothing to differentiate: no floating-point input, or
    no floating-point result that depends on one."""


def gradients(fn, inputs, cotangents):
    """The gradients of sum(result * cotangent) over the floating-point
    results of fn(*inputs) with respect to its floating-point inputs (zeros
    where a result does not depend on one)."""
    wrt = [x for x in inputs if x.requires_grad]
    outs = [o for o in as_list(fn(*inputs)) if o.is_floating_point() and o.requires_grad]
    if not wrt or not outs:
        raise NoGradient()
    grads = torch.autograd.grad(outs, wrt, [c.to(o.dtype) for c, o in zip(cotangents, outs)],
                                allow_unused=True)
    return [torch.zeros_like(x) if g is None else g for g, x in zip(grads, wrt)]


def check_grad(op, sample, dtype):
    """The gradients through torch.compile(backend="xtile") (AOTAutograd's
    forward and backward graphs, compiled by xtile) against eager's and a
    float64 reference's, as check() compares results."""
    module = Sample(op.op, sample)

    def leaves(dtype=None):
        return tuple(t.detach().to(dtype or t.dtype).requires_grad_(t.is_floating_point())
                     if t.is_floating_point() else t for t in module.tensors)
    inputs = leaves()
    with torch.no_grad():
        outs = [o for o in as_list(module(*inputs)) if o.is_floating_point()]
    torch.manual_seed(1)
    cotangents = [torch.randn(o.shape, dtype=o.dtype) for o in outs]
    try:
        eager = gradients(module, inputs, cotangents)
    except RuntimeError as e:   # PyTorch has no derivative for this sample
        raise NoGradient(str(e).splitlines()[0][:160]) from None
    try:
        ref = gradients(copy.deepcopy(module).to(torch.float64), leaves(torch.float64),
                        cotangents)
    except RuntimeError as e:
        raise NoReference(str(e).splitlines()[0][:160]) from None
    torch._dynamo.reset()
    got = gradients(torch.compile(module, backend="xtile"), leaves(), cotangents)
    # A gradient sums products of the cotangent with the op's derivatives:
    # what cancels in it is as large as the largest of them, which the
    # bound's last term takes (the gradients' and the cotangents' largest).
    scale = max([g.abs().max().item() for g in ref if g.numel()] +
                [c.abs().max().item() for c in cotangents if c.numel()] + [0.0])
    return compare(got, eager, ref, scale)


def compare_selection(name, sample, got, eager, ref):
    """topk, kthvalue, sort, the medians and mode along a dimension: the values as
    any result, and indices that hold them, each once. PyTorch leaves the
    order of tied elements open (its CPU and CUDA kernels differ), so the
    indices need not be eager's."""
    why = compare(got[0], eager[0], ref[0])
    if why or torch.equal(got[1], eager[1]):
        return why
    x = sample.input
    at = 1 if name in ("topk", "kthvalue") else 0  # after k
    dim = sample.args[at] if len(sample.args) > at else sample.kwargs.get("dim", -1)
    if x.dim() == 0:
        return "integer results differ from eager"
    d = dim % x.dim()
    values, index = eager[0], got[1]
    if index.dim() < x.dim():  # kthvalue without keepdim
        values, index = values.unsqueeze(d), index.unsqueeze(d)
    held = x.gather(d, index)
    if not (torch.equal(held, values) or torch.equal(held.isnan(), values.isnan()) and
            torch.equal(held.nan_to_num(), values.nan_to_num())):
        return "indices differ from eager and do not hold the selected values"
    order = index.sort(dim=d).values
    if (order.narrow(d, 1, order.shape[d] - 1) ==
            order.narrow(d, 0, order.shape[d] - 1)).any():
        return "an index is selected twice"
    return None


def describe(sample):
    def d(x):
        if isinstance(x, torch.Tensor):
            return f"T{list(x.shape)}"
        if isinstance(x, (list, tuple)):
            return type(x)(d(v) for v in x)
        return x
    parts = [str(d(sample.input))] + [str(d(a)) for a in sample.args] + \
        [f"{k}={d(v)}" for k, v in sample.kwargs.items()]
    return "(" + ", ".join(parts) + ")"


def spread(samples, limit):
    """At most `limit` of `samples` (all when 0), evenly spaced, the first
    and the last included."""
    if limit <= 0 or len(samples) <= limit:
        return samples
    if limit == 1:
        return samples[:1]
    picks = sorted({round(i * (len(samples) - 1) / (limit - 1)) for i in range(limit)})
    return [samples[i] for i in picks]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ops", default=",".join(DEFAULT_OPS),
                        help="comma-separated OpInfo names, 'elementwise', or "
                             "'supported' (every OpInfo of an operator the "
                             "importer handles; with other names, those too)")
    parser.add_argument("--dtypes", default="float32,bfloat16")
    parser.add_argument("--max-samples", type=int, default=0,
                        help="at most this many samples per op and dtype, "
                             "spread evenly over its samples (0: all)")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--allow-unsupported", action="store_true",
                        help="count samples that raise UnsupportedError (under "
                             "XTILE_STRICT=1: an op xtile has no kernel for) apart "
                             "from the failures")
    parser.add_argument("--grad", action="store_true",
                        help="check the gradients through torch.compile instead "
                             "(the ops OpInfo marks differentiable)")
    opts = parser.parse_args()
    names = ELEMENTWISE_OPS if opts.ops == "elementwise" else opts.ops.split(",")
    if "supported" in names:
        # Every OpInfo whose ATen operator the importer has a lowering for
        # (with the other names given).
        from xtile.importer import supported_ops
        handled = set(supported_ops())
        names = sorted(set(names) - {"supported"} | {
            op.name for op in op_db
            if (getattr(op, "aten_name", None) or op.name) in handled})
    dtypes = [getattr(torch, d) for d in opts.dtypes.split(",")]
    total_pass = total_fail = total_unsupported = 0
    for op in op_db:
        label = op.name + (f".{op.variant_test_name}" if op.variant_test_name else "")
        if op.name not in names and label not in names:
            continue
        if opts.grad and not op.supports_autograd:
            continue
        for dtype in dtypes:
            if dtype not in op.supported_dtypes("cpu"):
                # PyTorch itself has no kernel for it (bitwise ops on floats).
                print(f"{label} {str(dtype).split('.')[-1]}: skipped, not a dtype "
                      "of this op in PyTorch")
                continue
            passed, failures, skipped, unsupported = 0, [], [], []
            torch.manual_seed(0)
            for sample in spread(list(op.sample_inputs("cpu", dtype, requires_grad=False)),
                                 opts.max_samples):
                try:
                    why = (check_grad if opts.grad else check)(op, sample, dtype)
                except NoReference as e:
                    skipped.append(f"  {describe(sample)}: skipped, no float64 reference ({e})")
                    continue
                except NoGradient as e:
                    skipped.append(f"  {describe(sample)}: skipped, nothing to differentiate"
                                   + (f" ({e})" if str(e) else ""))
                    continue
                except Exception as e:  # noqa: BLE001 - reported per sample
                    lines = str(e).strip().splitlines() or [""]
                    # torch.compile wraps xtile's error (BackendCompilerFailed):
                    # the line that names it.
                    first = next((l for l in lines if "error:" in l or "Error:" in l),
                                 lines[-1])
                    why = f"{type(e).__name__}: {first.strip()[:240]}"
                    if opts.allow_unsupported and "UnsupportedError" in why:
                        unsupported.append(f"  {describe(sample)}: {why}")
                        continue
                if why:
                    failures.append(f"  {describe(sample)}: {why}")
                else:
                    passed += 1
            print(f"{label} {str(dtype).split('.')[-1]}{' grad' if opts.grad else ''}: "
                  f"{passed} passed, "
                  f"{len(failures)} failed" + (f", {len(skipped)} skipped" if skipped else "")
                  + (f", {len(unsupported)} unsupported" if unsupported else ""))
            for f in skipped + unsupported + (
                    failures if opts.verbose or len(failures) < 20 else failures[:20]):
                print(f)
            sys.stdout.flush()
            total_pass += passed
            total_fail += len(failures)
            total_unsupported += len(unsupported)
    print(f"opinfo: {total_pass} passed, {total_fail} failed"
          + (f", {total_unsupported} unsupported" if opts.allow_unsupported else ""))
    return 1 if total_fail else 0


if __name__ == "__main__":
    sys.exit(main())
