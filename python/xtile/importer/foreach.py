"""The foreach operators (`_foreach_add`, `_foreach_lerp`, ...: what
torch.optim's foreach implementations call) as their per-tensor ops, one
per tensor of the list: each becomes its own elementwise chain in Tensor
IR, and the optimizer step's updates fuse per parameter.

A foreach call's arguments are lists of the per-tensor arguments (Tensor[]
and Scalar[] entries taken at each position) or one value for every
tensor (a Scalar, or a Tensor such as `_foreach_mul.Tensor`'s). The
per-tensor op is the registered lowering of the same name where there is
one; addcmul, addcdiv and lerp, which Core ATen decomposes, are written
here as PyTorch computes them. Scalars given as a tensor
(`_foreach_addcdiv.Tensor`, capturable optimizers) are not supported."""
from .errors import UnsupportedError
from .ir import Value
from .registry import LOWERINGS, lowering

# The per-tensor argument each foreach argument is, where the names differ.
_RENAMED = {"scalar": "other", "scalars": "other"}
_RENAMED_BY_OP = {
    "clamp_min": {"scalar": "min", "scalars": "min", "other": "min"},
    "clamp_max": {"scalar": "max", "scalars": "max", "other": "max"},
}
# Foreach operators whose per-tensor op has a lowering of that name.
_DIRECT = ["add", "sub", "mul", "div", "maximum", "minimum", "pow", "clamp_min",
           "clamp_max", "neg", "abs", "exp", "log", "sqrt", "rsqrt", "reciprocal",
           "sigmoid", "tanh", "sign", "copy"]


def _each(imp, val, bound, renamed=None):
    """The per-tensor arguments for each position of the lists (`input`,
    or another argument where `input` is a scalar: _foreach_pow's
    ScalarAndTensor)."""
    n = next(len(v) for v in bound.values() if isinstance(v, (list, tuple)))
    names = dict(_RENAMED, **(renamed or {}))
    for i in range(n):
        each = {}
        for name, value in bound.items():
            if isinstance(value, (list, tuple)):
                if len(value) != n:
                    raise UnsupportedError(f"{imp.what}: argument {name!r} has {len(value)} "
                                           f"entries for {n} tensors")
                value = value[i]
            each[names.get(name, name)] = value
        yield val[i], each


def _direct(name):
    def lower(imp, val, **bound):
        per_tensor = LOWERINGS[name]
        return [per_tensor(imp, v, **each)
                for v, each in _each(imp, val, bound, _RENAMED_BY_OP.get(name))]
    return lower


for _name in _DIRECT:
    lowering(f"_foreach_{_name}")(_direct(_name))


def _scalar_value(imp, value):
    if isinstance(value, Value):
        raise UnsupportedError(f"{imp.what} with its scalars in a tensor (a capturable "
                               "optimizer's) is not supported by xtile")
    return value


@lowering("_foreach_addcmul", "_foreach_addcdiv")
def addc(imp, val, input, tensor1, tensor2, value=1, scalars=None):
    """self + value * tensor1 * tensor2 (addcmul), self + value * (tensor1
    / tensor2) (addcdiv), in PyTorch's order of operations."""
    divide = "addcdiv" in imp.what
    out = []
    for v, each in _each(imp, val, dict(input=input, tensor1=tensor1, tensor2=tensor2,
                                        value=value if scalars is None else scalars)):
        s, shape, dtype = _scalar_value(imp, each["value"]), v.shape, v.dtype
        if divide:
            term = imp.binary("mul", imp.binary("div", each["tensor1"], each["tensor2"],
                                                shape, dtype), s, shape, dtype)
        else:
            term = imp.binary("mul", imp.binary("mul", each["tensor1"], s, shape, dtype),
                              each["tensor2"], shape, dtype)
        out.append(imp.binary("add", each["input"], term, shape, dtype))
    return out


@lowering("_foreach_lerp")
def lerp(imp, val, input, tensors1, weight=None, weights=None):
    """self + weight * (end - self) for weights below one half, else
    end - (end - self) * (1 - weight): PyTorch's lerp, exact at both ends."""
    out = []
    for v, each in _each(imp, val, dict(input=input, end=tensors1,
                                        weight=weight if weights is None else weights)):
        shape, dtype, w = v.shape, v.dtype, each["weight"]
        diff = imp.binary("sub", each["end"], each["input"], shape, dtype)
        if isinstance(w, Value):
            raise UnsupportedError(f"{imp.what} with tensor weights is not supported by "
                                   "xtile")
        if abs(w) < 0.5:
            out.append(imp.binary("add", each["input"], imp.binary("mul", diff, w, shape,
                                                                   dtype), shape, dtype))
        else:
            out.append(imp.binary("sub", each["end"], imp.binary("mul", diff, 1 - w, shape,
                                                                 dtype), shape, dtype))
    return out
