"""The builder through which the importer writes Tensor IR: one method an
`xtensor` op, each appending one line of text and returning the new
Value (its SSA name, shape and dtype). Only this module spells the ops'
syntax."""
import math
import re

import torch

from .errors import DynamicSizeError, UnsupportedError
from .sizes import Sym, add_size, dim, element_count, limits

_DTYPES = {
    torch.float32: "f32", torch.float16: "f16", torch.bfloat16: "bf16",
    torch.float64: "f64", torch.int64: "i64", torch.int32: "i32",
    torch.bool: "i1",
    # Narrow integers (NARROW) are computed in i32, each value the one of
    # its type: what can leave the type's range wraps back into it.
    torch.uint8: "i32", torch.int8: "i32", torch.int16: "i32",
    # fp8: storage types (cast, moved, selected; widened to compute).
    torch.float8_e4m3fn: "f8E4M3FN", torch.float8_e5m2: "f8E5M2",
}


# Each narrow integer type's smallest value and its number of values.
NARROW = {torch.uint8: (0, 1 << 8), torch.int8: (-(1 << 7), 1 << 8),
          torch.int16: (-(1 << 15), 1 << 16)}


# How a narrow integer tensor crosses the graph's edge: Tensor IR's
# storage types (cast to and from i32, never computed in).
_STORAGE = {torch.uint8: "i8", torch.int8: "i8", torch.int16: "i16"}


def element_type(dtype):
    if dtype not in _DTYPES:
        raise UnsupportedError(f"dtype {dtype} is not supported by xtile")
    return _DTYPES[dtype]


def tensor_type(shape, dtype, stored=False):
    """The Tensor IR type of `shape` (static sizes and Sym) and `dtype`: a
    dynamic size is `?`, named by its symbol in `#xtensor.dims<...>`.
    `stored`: a narrow integer's storage type (i8, i16), as the graph's
    inputs and results hold it, instead of the i32 it is computed in."""
    dims = "x".join("?" if isinstance(d, Sym) else str(int(d)) for d in shape)
    symbols = [d.name for d in shape if isinstance(d, Sym)]
    # A size expression's name (T + 1) is written as a string.
    symbols = [n if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", n) else f'"{n}"'
               for n in symbols]
    encoding = f", #xtensor.dims<{', '.join(symbols)}>" if symbols else ""
    element = _STORAGE[dtype] if stored and dtype in _STORAGE else element_type(dtype)
    return f"tensor<{dims + 'x' if dims else ''}{element}{encoding}>"


# +inf, -inf and NaN of each float type, as MLIR's hexadecimal literals.
_SPECIAL = {torch.float32: ("0x7F800000", "0xFF800000", "0x7FC00000"),
            torch.float16: ("0x7C00", "0xFC00", "0x7E00"),
            torch.bfloat16: ("0x7F80", "0xFF80", "0x7FC0"),
            torch.float64: ("0x7FF0000000000000", "0xFFF0000000000000",
                            "0x7FF8000000000000"),
            # e4m3fn has no infinity (its casts saturate to +-448).
            torch.float8_e4m3fn: ("448.0", "-448.0", "0x7F"),
            torch.float8_e5m2: ("0x7C", "0xFC", "0x7F")}


def float_literal(v, dtype=torch.float32):
    if math.isnan(v):
        return _SPECIAL[dtype][2]
    if math.isinf(v):
        return _SPECIAL[dtype][1 if v < 0 else 0]
    s = repr(float(v))
    if "e" in s and "." not in s.split("e")[0]:
        s = s.replace("e", ".0e")
    return s


def _literal(value, dtype):
    """`value` as an element literal of `dtype`."""
    if dtype.is_floating_point:
        return float_literal(value, dtype)
    if dtype == torch.bool:
        return "true" if value else "false"
    if dtype in NARROW:
        lo, count = NARROW[dtype]
        return str((int(value) - lo) % count + lo)
    return str(int(value))


def reduced_shape(x, dims, keepdim):
    """The shape of a reduction of x over `dims`."""
    return tuple(1 if i in dims else n for i, n in enumerate(x.shape)
                 if keepdim or i not in dims)


class Value:
    """An SSA value of the function being built. What the importer knows
    of an integer value's elements, carried through reshapes, broadcasts,
    transposes and widening casts: `bound`, every element is in [0,
    bound) (topk's indices); `inverse`, for a permutation of [0, n) (a
    sort's indices), the Value of its inverse; `blocked`, a Blocked form
    of its rows."""

    def __init__(self, name, shape, dtype, stored=False):
        self.name, self.shape, self.dtype = name, tuple(dim(d) for d in shape), dtype
        self.stored = stored   # a narrow integer in its storage type
        self.bound = None
        self.inverse = None
        self.blocked = None

    @property
    def type(self):
        return tensor_type(self.shape, self.dtype, self.stored)


class Blocked:
    """A [rows, n] value also held in the block layout of a grouped GEMM
    (docs/Frontend.md, "Mixture-of-experts models"): `blocks`, [blocks, B,
    n], holds each row at its group's slot, and slots without a row hold
    values nothing reads. `key` names the grouping (its offsets and
    sizes): a grouped GEMM over the same grouping takes `blocks` as its
    left operand where it would gather the rows into them. Elementwise
    ops of blocked values (and Python numbers) are blocked too, so an
    activation between two grouped GEMMs (SwiGLU) runs in the block
    layout, and each block layout that nothing reads is dead code.
    `columns(start, end)`, where set, makes the blocks of the columns
    [start, end) as a grouped GEMM over its matrices' columns: the gate
    and up halves of a concatenated projection become two contractions
    that share their left operand, fused with the gate's epilogue as a
    dense MLP's are."""

    def __init__(self, key, blocks, columns=None):
        self.key, self.blocks, self.columns = key, blocks, columns


class IRBuilder:
    """The body of one function, a line an op, each at the location
    `loc`. Python numbers and bools among an elementwise op's operands
    become splat constants; `what` names the operator being imported in
    errors."""

    def __init__(self):
        self.lines = []
        self.count = 0
        self.loc = "loc(unknown)"
        self.what = None    # the operator being imported, for errors

    def fresh(self):
        self.count += 1
        return f"%{self.count}"

    def emit(self, text, shape, dtype):
        v = Value(self.fresh(), shape, dtype)
        self.lines.append(f"    {v.name} = {text} {self.loc}")
        return v

    # -- constants ------------------------------------------------------
    def const(self, value, shape, dtype):
        if any(isinstance(d, Sym) for d in shape):
            # Constants are static: 1 in the dynamic sizes, broadcast.
            ones = tuple(1 if isinstance(d, Sym) else d for d in shape)
            return self.broadcast(self.const(value, ones, dtype), shape)
        t = tensor_type(shape, dtype)
        return self.emit(f"xtensor.constant dense<{_literal(value, dtype)}> : {t}",
                         shape, dtype)

    def fill(self, like, value):
        """A splat of `value` in the shape and dtype of `like`."""
        return self.const(value, like.shape, like.dtype)

    def constant_tensor(self, t):
        if t.dtype in NARROW:   # computed in i32 (the value is kept)
            return self.cast(self.constant_tensor(t.to(torch.int32)), t.dtype)
        t = t.contiguous()
        data = t.view(torch.uint8) if t.dtype != torch.bool else t.to(torch.uint8)
        hexdata = bytes(data.cpu().numpy().tobytes()).hex().upper()
        return self.emit(f'xtensor.constant dense<"0x{hexdata}"> : '
                         f"{tensor_type(t.shape, t.dtype)}", t.shape, t.dtype)

    def iota(self, shape, dim, dtype=torch.int64):
        return self._wrap(self.emit(f"xtensor.iota dim {dim} : {tensor_type(shape, dtype)}",
                                    tuple(shape), dtype))

    def _wrap(self, v):
        """A value of a narrow integer type (NARROW), computed in i32 where
        it may have left the type's range, brought back into it modulo
        the number of its values."""
        if v.dtype not in NARROW:
            return v
        lo, count = NARROW[v.dtype]
        i32 = torch.int32
        shifted = self.binary("sub", self._retype(v, i32), lo, v.shape, i32) if lo else \
            self._retype(v, i32)
        kept = self.binary("and", shifted, count - 1, v.shape, i32)
        if lo:
            kept = self.binary("add", kept, lo, v.shape, i32)
        return self._retype(kept, v.dtype)

    def from_storage(self, v):
        """A graph input of a narrow integer type, held in its storage
        type (v.stored), as the i32 it is computed in: sign-extended, and
        for uint8 the low byte kept."""
        shape, i32 = v.shape, torch.int32
        wide = self.emit(f"xtensor.cast {v.name} : {v.type} -> {tensor_type(shape, i32)}",
                         shape, i32)
        if v.dtype == torch.uint8:
            wide = self.binary("and", wide, 255, shape, i32)
        return self._retype(wide, v.dtype)

    def to_storage(self, v):
        """A narrow integer result (computed in i32, its values already
        in its type's range) in its storage type: the low bits."""
        out = self.emit(f"xtensor.cast {v.name} : {v.type} -> "
                        f"{tensor_type(v.shape, v.dtype, stored=True)}", v.shape, v.dtype)
        out.stored = True
        return out

    @staticmethod
    def _retype(v, dtype):
        """v's i32 elements as `dtype` (both computed in i32)."""
        return Value(v.name, v.shape, dtype)

    def size_value(self, size):
        """A size as a 0-d int64 tensor: a dynamic one is the largest of
        its indices plus one (a reduction of an iota), as Tensor IR has no
        size as a value."""
        if not isinstance(size, Sym):
            return self.const(size, (), torch.int64)
        last = self.reduce("max", self.iota((size,), 0), [0])
        return self.binary("add", last, 1, (), torch.int64)

    # -- types and shapes -------------------------------------------------
    def cast(self, v, dtype):
        if v.dtype == dtype:
            return v
        if dtype in NARROW:
            (lo, count), src = NARROW[dtype], NARROW.get(v.dtype)
            if v.dtype == torch.bool or (
                    src is not None and src[0] >= lo and src[0] + src[1] <= lo + count):
                # Every value fits (a bool, a uint8 into int16, ...).
                return self._retype(self.cast(v, torch.int32), dtype)
            # Floats truncated toward zero, then wrapped (not saturated).
            return self._wrap(self._retype(self.cast(v, torch.int32), dtype))
        if v.dtype in NARROW:
            v = self._retype(v, torch.int32)
            if v.dtype == dtype:
                return v
        out = self.emit(f"xtensor.cast {v.name} : {v.type} -> "
                        f"{tensor_type(v.shape, dtype)}", v.shape, dtype)
        if (v.bound is not None and not dtype.is_floating_point and dtype != torch.bool
                and v.bound <= torch.iinfo(dtype).max + 1):
            out.bound = v.bound
        out.blocked = self._blocked(v.shape, [v], lambda x, shape: self.cast(x, dtype))
        return out

    def broadcast(self, v, shape):
        shape = tuple(shape)
        if v.shape == shape:
            return v
        if len(v.shape) > len(shape):
            raise UnsupportedError(f"cannot broadcast {v.shape} to {shape}")
        return self._bounded(v, self.emit(f"xtensor.broadcast {v.name} : {v.type} -> "
                                          f"{tensor_type(shape, v.dtype)}", shape, v.dtype))

    @staticmethod
    def _bounded(source, out):
        """`out`, holding `source`'s elements, with its bound."""
        out.bound = source.bound
        return out

    def reshape(self, v, shape):
        shape = tuple(dim(d) for d in shape)
        if v.shape == shape:
            return v
        if element_count(v.shape) != element_count(shape):
            raise DynamicSizeError(
                f"operator {self.what} reshapes {list(v.shape)} to {list(shape)}, "
                "whose element counts differ")
        out = self._bounded(v, self.emit(f"xtensor.reshape {v.name} : {v.type} -> "
                                         f"{tensor_type(shape, v.dtype)}", shape, v.dtype))
        # A permutation reshaped to one dimension is the same permutation.
        if v.inverse is not None and len(shape) == 1:
            out.inverse = v.inverse
        return out

    def transpose(self, v, perm):
        perm = list(perm)
        if perm == list(range(len(perm))):
            return v
        shape = [v.shape[p] for p in perm]
        return self._bounded(v, self.emit(f"xtensor.transpose {v.name} perm {perm} : "
                                          f"{v.type} -> {tensor_type(shape, v.dtype)}",
                                          shape, v.dtype))

    # -- elementwise ------------------------------------------------------
    def operand(self, x, shape, dtype):
        """An argument of an elementwise op: broadcast and cast to the
        result's shape and type (Python numbers become constants)."""
        if isinstance(x, Value):
            return self.broadcast(self.cast(x, dtype), shape)
        if isinstance(x, (bool, int, float)):
            return self.const(x, shape, dtype)
        if isinstance(x, Sym):
            raise DynamicSizeError(
                f"operator {self.what} takes the dynamic size {x} as a value, which "
                "xtile does not support (only as a size)")
        raise UnsupportedError(f"operand {x!r} is not supported")

    def _blocked(self, shape, operands, make):
        """The Blocked form of an elementwise result of `shape` whose
        operands (Values and Python numbers) are `operands`: `make(blocked
        operands, blocked shape)`, where every Value among them has one
        at that shape, of one grouping; else None."""
        values = [x for x in operands if isinstance(x, Value)]
        if not values or any(x.blocked is None or x.shape != tuple(shape) for x in values):
            return None
        key = values[0].blocked.key
        if any(x.blocked.key != key for x in values):
            return None
        shape = values[0].blocked.blocks.shape[:2] + tuple(shape[1:])
        return Blocked(key, make(*[x.blocked.blocks if isinstance(x, Value) else x
                                   for x in operands], shape))

    def unary(self, op, x, shape, dtype):
        if dtype in NARROW:
            return self._wrap(self._retype(self.unary(op, self._retype(
                self.operand(x, shape, dtype), torch.int32), shape, torch.int32), dtype))
        out = self.emit(f"xtensor.{op} {self.operand(x, shape, dtype).name} : "
                        f"{tensor_type(shape, dtype)}", shape, dtype)
        out.blocked = self._blocked(shape, [x], lambda y, s: self.unary(op, y, s, dtype))
        return out

    def binary(self, op, a, b, shape, dtype):
        if dtype in NARROW:
            x, y = (self._retype(self.operand(v, shape, dtype), torch.int32) for v in (a, b))
            out = self._retype(self.binary(op, x, y, shape, torch.int32), dtype)
            return out if op in ("and", "or", "xor", "max", "min", "rem") else self._wrap(out)
        x = self.operand(a, shape, dtype)
        y = self.operand(b, shape, dtype)
        out = self.emit(f"xtensor.{op} {x.name}, {y.name} : {x.type}", shape, dtype)
        out.blocked = self._blocked(shape, [a, b],
                                    lambda p, q, s: self.binary(op, p, q, s, dtype))
        return out

    def compare(self, pred, shape, input, other):
        # Compared in PyTorch's promoted type (an int tensor against 0.5
        # compares as float).
        # (Only the rank matters to the promotion: a 0-dim tensor is a
        # lower category.)
        meta = [torch.empty((1,) * len(x.shape), dtype=x.dtype, device="meta")
                if isinstance(x, Value) else x for x in (input, other)]
        dtype = torch.result_type(*meta)
        a = self.operand(input, shape, dtype)
        b = self.operand(other, shape, dtype)
        return self.emit(f"xtensor.cmp {pred}, {a.name}, {b.name} : {a.type}",
                         tuple(shape), torch.bool)

    def where(self, condition, a, b, shape, dtype):
        """`a` where `condition`, else `b` (each broadcast, the operands
        cast to `dtype`)."""
        c = self.broadcast(self.cast(condition, torch.bool), shape)
        a = self.operand(a, shape, dtype)
        b = self.operand(b, shape, dtype)
        return self.emit(f"xtensor.select {c.name}, {a.name}, {b.name} : "
                         f"{a.type}", shape, dtype)

    # -- slices, gathers, padding -----------------------------------------
    def slice(self, x, starts, ends, shape, strides=None):
        """x[starts:ends:strides], of `shape`; a dynamic end keeps its
        dimension whole."""
        strides = [1] * len(x.shape) if strides is None else strides
        out = self.emit(f"xtensor.slice {x.name} starts {starts} limits {limits(ends)} "
                        f"strides {strides} : {x.type} -> "
                        f"{tensor_type(shape, x.dtype)}", shape, x.dtype)
        b = x.blocked
        if b is not None and len(x.shape) == 2 and tuple(shape)[0] == x.shape[0]:
            # Columns of a blocked value: the same columns of its blocks,
            # a grouped GEMM of its matrices' columns where it is one.
            start, n, step = starts[1], shape[1], strides[1]
            if step == 1 and b.columns is not None:
                blocks = b.columns(start, start + n)
            else:
                t, rows = b.blocks.shape[:2]
                blocks = self.slice(b.blocks, [0, 0, start], [t, rows, start + (n - 1) * step + 1],
                                    (t, rows, n), [1, 1, step])
            out.blocked = Blocked(b.key, blocks)
        return out

    def gather(self, x, index, axis):
        """x's slices along `axis` at each element of `index`."""
        shape = x.shape[:axis] + index.shape + x.shape[axis + 1:]
        return self.emit(f"xtensor.gather {x.name}[{index.name}] axis {axis} : "
                         f"{x.type}, {index.type} -> "
                         f"{tensor_type(shape, x.dtype)}", shape, x.dtype)

    def scatter_add(self, source, dest, index, axis):
        """dest with source's slices added at each element of `index`
        along `axis` (source has the shape gather(dest, index, axis)
        gives); f32, f64, i32 or i64."""
        return self.emit(f"xtensor.scatter_add {source.name} into {dest.name}[{index.name}] "
                         f"axis {axis} : {source.type}, {index.type} -> {dest.type}",
                         dest.shape, dest.dtype)

    def pad(self, x, low, high, value=0):
        if not any(low) and not any(high):
            return x
        shape = tuple(add_size(n, a + b) for n, a, b in zip(x.shape, low, high))
        # (An i1 attribute is written without its type: `true`, `false`.)
        fill = _literal(value, x.dtype)
        if x.dtype != torch.bool:
            fill += f" : {element_type(x.dtype)}"
        return self.emit(f"xtensor.pad {x.name} low {list(low)} high {list(high)} "
                         f"value {fill} : {x.type} -> {tensor_type(shape, x.dtype)}",
                         shape, x.dtype)

    def concat(self, xs, dim, shape, dtype):
        names = ", ".join(x.name for x in xs)
        types = ", ".join(x.type for x in xs)
        return self.emit(f"xtensor.concat {names} dim {dim} : {types} -> "
                         f"{tensor_type(shape, dtype)}", shape, dtype)

    # -- reductions -------------------------------------------------------
    def _reduction(self, op, x, dims, keepdim, attrs=""):
        shape = reduced_shape(x, dims, keepdim)
        kd = " keepdim" if keepdim else ""
        return self.emit(f"xtensor.{op} {x.name} dims {list(dims)}{kd}{attrs} : "
                         f"{x.type} -> {tensor_type(shape, x.dtype)}", shape, x.dtype)

    def reduce(self, kind, x, dims, keepdim=False):
        """The reduction `kind` (sum, prod, max, min, any, all) of x over
        `dims`."""
        out = self._reduction(f"reduce {kind}", x, dims, keepdim)
        return self._wrap(out) if kind in ("sum", "prod") else out

    def mean(self, x, dims, keepdim=False):
        return self._reduction("mean", x, dims, keepdim)

    def var(self, x, dims, correction, keepdim=False):
        return self._reduction("var", x, dims, keepdim, f" correction {correction}")

    # -- composites -------------------------------------------------------
    def softmax(self, op, x, dim):
        """softmax or log_softmax (`op`) of x along `dim`."""
        return self.emit(f"xtensor.{op} {x.name} dim {dim} : {x.type}", x.shape, x.dtype)

    def activation(self, op, x, shape, dtype):
        """gelu (`op` "gelu erf" or "gelu tanh") or silu of x."""
        out = self.emit(f"xtensor.{op} {x.name} : {x.type}", shape, dtype)
        out.blocked = self._blocked(shape, [x], lambda y, s: self.activation(op, y, s, dtype))
        return out

    def norm(self, op, x, operands, eps, shape, dtype, rank=1):
        """xtensor.layer_norm / rms_norm (`op`) of x over its `rank`
        trailing dimensions; `operands` are (keyword, Value or None)."""
        text = f"xtensor.{op} {x.name}"
        types = [x.type]
        for keyword, v in operands:
            if v is not None:
                text += f" {keyword} {v.name}"
                types.append(v.type)
        attrs = f" {{norm_rank = {rank} : i64}}" if rank != 1 else ""
        text += f" eps {float_literal(eps)}{attrs} : ({', '.join(types)}) -> {x.type}"
        return self.emit(text, shape, dtype)

    def linear(self, x, weight, bias, shape):
        """x @ weight^T (+ bias) of a 2-D x."""
        ops = f"{x.name}, {weight.name}" + (f", {bias.name}" if bias is not None else "")
        types = f"{x.type}, {weight.type}" + (f", {bias.type}" if bias is not None else "")
        return self.emit(f"xtensor.linear {ops} : ({types}) -> "
                         f"{tensor_type(shape, x.dtype)}", shape, x.dtype)

    def matmul(self, a, b, shape, dtype):
        """a @ b with equal batch dimensions, the result in `dtype`."""
        return self.emit(f"xtensor.matmul {a.name}, {b.name} : {a.type}, {b.type} -> "
                         f"{tensor_type(shape, dtype)}", shape, dtype)

    # -- the module -------------------------------------------------------
    def module(self, name, args, outputs, symbols, in_place=()):
        """The module of one function `name` whose body is the lines built:
        `args` are (name, type), `outputs` the Values returned, `symbols`
        each dynamic size's (min, max), `in_place` for each output the
        argument it is returned in place of (or None)."""
        res = ", ".join(o.type for o in outputs)
        tied = {a: r for r, a in enumerate(in_place) if a is not None}
        params = ", ".join(
            f"{n}: {t}" + (f" {{xtensor.in_place = {tied[i]} : i64}}" if i in tied else "")
            for i, (n, t) in enumerate(args))
        body = "\n".join(self.lines)
        rets = ", ".join(o.name for o in outputs)
        attrs = ""
        if symbols:
            # Each dynamic size's range, as xtile-opt checks a binding.
            ranges = ", ".join(f"{n} = array<i64: {lo}, {hi}>"
                               for n, (lo, hi) in sorted(symbols.items()))
            attrs = f" attributes {{xtensor.symbols = {{{ranges}}}}}"
        return (f"module {{\n  func.func @{name}({params}) -> ({res}){attrs} {{\n"
                f"{body}\n    return {rets} : {res}\n  }}\n}}\n")
