"""Complex tensors inside a graph (docs/Frontend.md, "Complex tensors"):
rotary embeddings written with complex multiplication (Llama 4's
`torch.polar`, `view_as_complex`, `view_as_real`).

Tensor IR has no complex type. A complex tensor of shape S is carried as
the real tensor of shape S + [2] that `view_as_real` gives (real part at
0, imaginary part at 1), so `view_as_complex` and `view_as_real` are free
and a rotation is four products and two sums that fuse into the kernel
reading the pairs. The graph walk hands every call that takes or gives a
complex tensor to COMPLEX_LOWERINGS; an operator without one there is an
UnsupportedError naming it. A complex input or result of the whole graph
is not supported."""
import torch

from .errors import UnsupportedError
from .registry import LOWERINGS, complex_lowering

# complex dtype -> the dtype of its parts
PART = {torch.complex64: torch.float32, torch.complex128: torch.float64}


class Complex:
    """A complex tensor of `shape` and `dtype`, as the real tensor `pair`
    of shape + [2]."""

    def __init__(self, pair, dtype):
        self.pair, self.dtype = pair, dtype
        self.shape = pair.shape[:-1]


def is_complex(x):
    """Whether x is a complex tensor: a Complex, or an example value (a
    tensor or a Shape) of a complex dtype."""
    dtype = getattr(x, "dtype", None)
    return isinstance(x, Complex) or (isinstance(dtype, torch.dtype) and dtype.is_complex)


def _part_dtype(dtype, what):
    if dtype not in PART:
        raise UnsupportedError(f"operator {what} on {dtype} tensors is not supported "
                               "(complex64 and complex128 are)")
    return PART[dtype]


class _PairShape:
    """The example value of a complex call's pair: shape + [2]."""

    def __init__(self, val, what):
        self.shape = tuple(val.shape) + (2,)
        self.dtype = _part_dtype(val.dtype, what)


def parts(imp, c):
    """(real, imaginary) of a Complex, each of its shape."""
    n = len(c.shape)
    out = []
    for i in (0, 1):
        starts = [0] * n + [i]
        ends = list(c.shape) + [i + 1]
        s = imp.slice(c.pair, starts, ends, tuple(c.shape) + (1,), [1] * (n + 1))
        out.append(imp.reshape(s, c.shape))
    return out


def make(imp, re, im, shape, dtype):
    """The Complex (re, im), both of `shape` and the part dtype of `dtype`."""
    col = tuple(shape) + (1,)
    pair = imp.concat([imp.reshape(re, col), imp.reshape(im, col)], len(shape),
                      tuple(shape) + (2,), PART[dtype])
    return Complex(pair, dtype)


# -- conversions -----------------------------------------------------------
@complex_lowering("view_as_complex")
def view_as_complex(imp, val, input):
    return Complex(input, val.dtype)


@complex_lowering("view_as_real")
def view_as_real(imp, val, input):
    return input.pair


@complex_lowering("real", "imag")
def real_imag(imp, val, input):
    return parts(imp, input)[0 if imp.what.startswith("aten.real") else 1]


@complex_lowering("polar")
def polar(imp, val, abs, angle):
    dt, shape = PART[val.dtype], val.shape
    re = imp.binary("mul", abs, imp.unary("cos", angle, shape, dt), shape, dt)
    im = imp.binary("mul", abs, imp.unary("sin", angle, shape, dt), shape, dt)
    return make(imp, re, im, shape, val.dtype)


@complex_lowering("complex")
def complex_(imp, val, real, imag):
    return make(imp, real, imag, val.shape, val.dtype)


# -- arithmetic ------------------------------------------------------------
def _split(imp, x, dtype):
    """(re, im) of an operand: a Complex's parts, a real tensor or number
    with no imaginary part (None)."""
    if isinstance(x, Complex):
        return parts(imp, x)
    if isinstance(x, complex):
        return x.real, x.imag
    return x, None


@complex_lowering("mul")
def mul(imp, val, input, other):
    dt, shape = _part_dtype(val.dtype, imp.what), val.shape
    (ar, ai), (br, bi) = _split(imp, input, dt), _split(imp, other, dt)

    def times(a, b):
        return imp.binary("mul", a, b, shape, dt)

    def plus(op, a, b):
        return imp.binary(op, a, b, shape, dt)

    if ai is None and bi is None:
        raise UnsupportedError(f"operator {imp.what} of two real operands with a "
                               "complex result is not supported")
    if ai is None:
        return make(imp, times(ar, br), times(ar, bi), shape, val.dtype)
    if bi is None:
        return make(imp, times(ar, br), times(ai, br), shape, val.dtype)
    re = plus("sub", times(ar, br), times(ai, bi))
    im = plus("add", times(ar, bi), times(ai, br))
    return make(imp, re, im, shape, val.dtype)


@complex_lowering("add", "sub")
def add_sub(imp, val, input, other, alpha=1):
    dt, shape = _part_dtype(val.dtype, imp.what), val.shape
    op = "sub" if imp.what.startswith("aten.sub") else "add"
    (ar, ai), (br, bi) = _split(imp, input, dt), _split(imp, other, dt)
    if alpha != 1:
        br = imp.binary("mul", br, alpha, shape, dt)
        bi = None if bi is None else imp.binary("mul", bi, alpha, shape, dt)
    re = imp.binary(op, ar, br, shape, dt)
    if ai is None and bi is None:
        im = imp.const(0.0, shape, dt)
    elif bi is None:
        im = imp.broadcast(ai, shape)
    elif ai is None:
        im = bi if op == "add" else imp.unary("neg", bi, shape, dt)
        im = imp.broadcast(im, shape)
    else:
        im = imp.binary(op, ai, bi, shape, dt)
    return make(imp, re, im, shape, val.dtype)


@complex_lowering("_to_copy")
def to_copy(imp, val, input, **unused):
    """A copy to the same complex dtype, or a real tensor made complex
    (no imaginary part)."""
    if isinstance(input, Complex) and val.dtype == input.dtype:
        return input
    if not isinstance(input, Complex) and val.dtype in PART:
        dt = PART[val.dtype]
        return make(imp, imp.cast(input, dt), imp.const(0.0, input.shape, dt),
                    input.shape, val.dtype)
    raise UnsupportedError(f"operator {imp.what} converting {input.dtype} to "
                           f"{val.dtype} is not supported by xtile")


# -- views and movement: the real lowering on the pair, with the dimension
# arguments counted in the complex tensor's rank (the pair's last
# dimension is the parts') -------------------------------------------------
_VIEWS = {
    # name: the arguments that are dimensions (an int or a list)
    "clone": (), "contiguous": (), "alias": (), "detach": (), "lift_fresh_copy": (),
    "view": (), "reshape": (), "_unsafe_view": (), "flatten": (), "unsqueeze": (),
    "squeeze": (), "expand": (), "permute": ("dims",), "transpose": ("dim0", "dim1"),
    "t": (), "slice": ("dim",), "select": ("dim",), "cat": ("dim",),
    "flip": ("dims",), "repeat": (),
}


def _view(name):
    dims = _VIEWS[name]

    def lower(imp, val, **args):
        real = LOWERINGS[name]
        first = args.get("input", (args.get("tensors") or [None])[0])
        rank = len(first.shape)
        for key in dims:
            d = args[key]
            args[key] = ([x % rank for x in d] if isinstance(d, (list, tuple))
                         else d % rank)
        if name == "permute":
            args["dims"] = list(args["dims"]) + [rank]
        if name == "repeat":
            args["repeats"] = list(args["repeats"]) + [1]
        if name == "t":
            return (Complex(imp.transpose(first.pair, [1, 0, 2]), first.dtype)
                    if rank == 2 else first)
        if "input" in args:
            args["input"] = args["input"].pair
        if "tensors" in args:
            args["tensors"] = [t.pair for t in args["tensors"]]
        if isinstance(val, (list, tuple)):
            raise UnsupportedError(f"operator {imp.what} on complex tensors is not "
                                   "supported")
        pair = real(imp, _PairShape(val, imp.what), **args)
        return Complex(pair, val.dtype)
    return lower


for _name in _VIEWS:
    complex_lowering(_name)(_view(_name))


@complex_lowering("_assert_tensor_metadata")
def assert_tensor_metadata(imp, val, **unused):
    return None
