"""torch.export programs to Tensor IR text.

The exported graph keeps PyTorch's composite ATen ops (layer_norm, linear,
softmax, gelu, scaled_dot_product_attention, ...); each maps to the
matching xtensor composite where there is one, else to atomic xtensor ops.
Implicit broadcasting and type promotion become explicit
`xtensor.broadcast` and `xtensor.cast`. Every op carries the location of
the Python line that produced it (the innermost frame outside PyTorch), so
a kernel can be traced back to the model's source.
"""
import math
import os
import re
import textwrap

import torch

_DTYPES = {
    torch.float32: "f32", torch.float16: "f16", torch.bfloat16: "bf16",
    torch.float64: "f64", torch.int64: "i64", torch.int32: "i32",
    torch.bool: "i1", torch.int8: "i8", torch.int16: "i16",
}
_TORCH_DIR = os.path.dirname(torch.__file__)


class UnsupportedError(RuntimeError):
    """An op of the program that xtile cannot import."""


class DynamicSizeError(UnsupportedError):
    """An op that xtile cannot import with the dynamic sizes asked for (a
    size that would be an expression of them, T * 2 or T - 1; a slice
    inside one; a mean over one; a size used as a value), though it could
    with static sizes: callers that can fall back to them catch this."""


# Composites xtile keeps whole rather than let PyTorch decompose them: each
# is one xtensor composite whose decomposition (in f32 for 16-bit types)
# fuses into one kernel, and a softmax or a norm written out in Core ATen
# would have to be recognized again to be scheduled as one.
KEPT = ["linear.default", "layer_norm.default", "rms_norm.default",
        "softmax.int", "log_softmax.int", "gelu.default", "silu.default",
        "scaled_dot_product_attention.default", "addmm.default"]


def decomposition_table():
    """PyTorch's decompositions to Core ATen, less those of KEPT."""
    table = torch.export.default_decompositions()
    for name in KEPT:
        packet, overload = name.split(".")
        op = getattr(getattr(torch.ops.aten, packet), overload)
        if op in table:
            table.pop(op)
    return table


# Why the Core ATen operators without a handler have none.
_RANDOM = {"rand", "randn", "randint", "randperm", "rand_like", "randn_like",
           "randint_like", "native_dropout", "bernoulli", "normal", "uniform",
           "multinomial", "exponential", "poisson"}
_SORTING = {"sort", "topk", "argsort", "kthvalue", "median", "mode", "msort"}


def _why_unsupported(name):
    if name in _RANDOM:
        return ("it draws random numbers, which xtile's kernels do not (export the "
                "model in eval mode, or pass the random tensor as an input)")
    if name in _SORTING:
        return "it sorts, and xtile has no sorting kernel"
    if name.startswith("_fft"):
        return "FFTs (complex tensors) are not supported"
    if name == "_local_scalar_dense":
        return ("it reads a tensor's value into Python (.item()), which makes the "
                "graph depend on the data")
    if name.endswith("_backward"):
        return "it is a backward operator, and xtile compiles inference graphs"
    if name.startswith("sym_"):
        return ("it constrains a size that depends on the data, which xtile does "
                "not support")
    return None


def element_type(dtype):
    if dtype not in _DTYPES:
        raise UnsupportedError(f"dtype {dtype} is not supported by xtile")
    return _DTYPES[dtype]


def tensor_type(shape, dtype):
    """The Tensor IR type of `shape` (static sizes and _Sym) and `dtype`: a
    dynamic size is `?`, named by its symbol in `#xtensor.dims<...>`."""
    dims = "x".join("?" if isinstance(d, _Sym) else str(int(d)) for d in shape)
    symbols = [d.name for d in shape if isinstance(d, _Sym)]
    encoding = f", #xtensor.dims<{', '.join(symbols)}>" if symbols else ""
    return f"tensor<{dims + 'x' if dims else ''}{element_type(dtype)}{encoding}>"


class _SymbolicExpression(DynamicSizeError):
    """A size that would be an expression of dynamic sizes (T * 2, T - 1):
    Tensor IR names each dynamic size by one symbol. The importer reports
    it with the operator that needs it."""

    def __init__(self, expr):
        super().__init__(expr)
        self.expr = expr


def _broadcast_shapes(*shapes):
    """PyTorch's broadcast of shapes whose sizes are ints or _Syms: sizes
    aligned from the right, a 1 (or a missing size) taking the other."""
    rank = max((len(s) for s in shapes), default=0)
    out = []
    for k in range(rank):
        sizes = {s[len(s) - rank + k] for s in shapes if len(s) - rank + k >= 0}
        sizes.discard(1)
        if len(sizes) > 1:
            raise UnsupportedError(f"shapes {[list(s) for s in shapes]} do not broadcast")
        out.append(sizes.pop() if sizes else 1)
    return tuple(out)


class _Sym:
    """A dynamic size, named by its symbol (torch.export's Dim name, T).
    Equal symbols are equal sizes. Arithmetic that would need an
    expression of symbols (T * 2, T - 1, T + S, a comparison with a number)
    raises _SymbolicExpression; the identities T * 1, T + 0, T - 0 and
    T // 1 are T, and T - T is 0."""
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __eq__(self, other):
        return isinstance(other, _Sym) and other.name == self.name

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(("_Sym", self.name))

    def __repr__(self):
        return self.name

    def __bool__(self):  # a size of at least 1
        return True

    def _expr(self, op, other, reflected=False):
        text = f"{other} {op} {self}" if reflected else f"{self} {op} {other}"
        raise _SymbolicExpression(text)

    def __mul__(self, other):
        return self if _is_int(other, 1) else self._expr("*", other)

    def __rmul__(self, other):
        return self if _is_int(other, 1) else self._expr("*", other, True)

    def __add__(self, other):
        return self if _is_int(other, 0) else self._expr("+", other)

    def __radd__(self, other):
        return self if _is_int(other, 0) else self._expr("+", other, True)

    def __sub__(self, other):
        if _is_int(other, 0):
            return self
        return 0 if other == self else self._expr("-", other)

    def __rsub__(self, other):
        return self._expr("-", other, True)

    def __floordiv__(self, other):
        return self if _is_int(other, 1) else self._expr("//", other)

    def __rfloordiv__(self, other):
        return self._expr("//", other, True)

    def __truediv__(self, other):
        return self._expr("/", other)

    def __rtruediv__(self, other):
        return self._expr("/", other, True)

    def __mod__(self, other):
        return self._expr("%", other)

    def __rmod__(self, other):
        return self._expr("%", other, True)

    def __neg__(self):
        raise _SymbolicExpression(f"-{self}")

    def __lt__(self, other):
        return self._expr("<", other)

    def __le__(self, other):
        return self._expr("<=", other)

    def __gt__(self, other):
        return self._expr(">", other)

    def __ge__(self, other):
        return self._expr(">=", other)

    def __index__(self):
        raise _SymbolicExpression(f"the static value of {self}")

    __int__ = __float__ = __index__


def _is_int(x, value):
    return isinstance(x, int) and not isinstance(x, bool) and x == value


def _dim(d):
    """A size as the importer keeps it: an int, or a _Sym."""
    return d if isinstance(d, _Sym) else int(d)


def _limits(limits):
    """Slice limits in Tensor IR's form: a dynamic dimension (kept whole)
    is -1."""
    return [-1 if isinstance(n, _Sym) else n for n in limits]


# +inf, -inf and NaN of each float type, as MLIR's hexadecimal literals.
_SPECIAL = {torch.float32: ("0x7F800000", "0xFF800000", "0x7FC00000"),
            torch.float16: ("0x7C00", "0xFC00", "0x7E00"),
            torch.bfloat16: ("0x7F80", "0xFF80", "0x7FC0"),
            torch.float64: ("0x7FF0000000000000", "0xFFF0000000000000",
                            "0x7FF8000000000000")}


def _float_literal(v, dtype=torch.float32):
    if math.isnan(v):
        return _SPECIAL[dtype][2]
    if math.isinf(v):
        return _SPECIAL[dtype][1 if v < 0 else 0]
    s = repr(float(v))
    if "e" in s and "." not in s.split("e")[0]:
        s = s.replace("e", ".0e")
    return s


def _source(node):
    """(file, line, code) of the innermost frame of the model's own code."""
    trace = node.meta.get("stack_trace") or ""
    frames = []
    lines = trace.splitlines()
    for i, line in enumerate(lines):
        line = line.strip()
        if line.startswith('File "'):
            try:
                path = line.split('"')[1]
                number = int(line.split("line ")[1].split(",")[0])
            except (IndexError, ValueError):
                continue
            code = lines[i + 1].strip() if i + 1 < len(lines) else ""
            frames.append((path, number, code))
    if not frames:
        return None
    own = [f for f in frames if not f[0].startswith(_TORCH_DIR)]
    return (own or frames)[-1]


def bind(schema, args, kwargs):
    """The arguments of an ATen call by the names of its schema, defaults
    filled in: handlers see one form whatever the caller wrote (positional,
    keyword or left out). `self` is passed as `input`."""
    bound = {}
    positional = [a for a in schema.arguments if not a.kwarg_only]
    if len(args) > len(positional):
        raise UnsupportedError(f"{schema.name} takes {len(positional)} positional "
                               f"arguments, got {len(args)}")
    known = {a.name for a in schema.arguments}
    for k in kwargs:
        if k not in known:
            raise UnsupportedError(f"{schema.name} has no argument {k!r}")
    for i, a in enumerate(schema.arguments):
        if not a.kwarg_only and i < len(args):
            value = args[i]
        elif a.name in kwargs:
            value = kwargs[a.name]
        elif a.has_default_value():
            value = a.default_value
        else:
            raise UnsupportedError(f"{schema.name}: argument {a.name!r} is missing")
        bound["input" if a.name == "self" else a.name] = value
    return bound


# The declared maximum of a dynamic size that torch.export leaves
# unbounded (a Dim without max=): the int32 range.
UNBOUNDED_MAX = 2**31 - 1


class _Expr:
    """A size the graph computes that is not exactly one dynamic size or a
    number: an expression of them (T*2, T - 1) or a condition (T >= 2).
    The importer carries it to the operator that takes it, which reports
    it (Tensor IR names each dynamic size by one symbol)."""

    def __init__(self, text, expr=None):
        self.text, self.expr = text, expr

    def __repr__(self):
        return self.text


def _unbacked(expr):
    """Whether `expr` has a data-dependent size symbol (nonzero's u0)."""
    try:
        from torch.fx.experimental.symbolic_shapes import free_unbacked_symbols
        return bool(free_unbacked_symbols(expr))
    except ImportError:
        return any(str(s).startswith("u") for s in expr.free_symbols)


def _flatten(x):
    if isinstance(x, (list, tuple)):
        return [y for v in x for y in _flatten(v)]
    if isinstance(x, dict):
        return [y for v in x.values() for y in _flatten(v)]
    return [x]


class _Value:
    def __init__(self, name, shape, dtype):
        self.name, self.shape, self.dtype = name, tuple(_dim(d) for d in shape), dtype

    @property
    def type(self):
        return tensor_type(self.shape, self.dtype)


class Importer:
    def __init__(self, exported, name="forward", params_as_constants=False):
        self.ep = exported
        self.name = name
        self.params_as_constants = params_as_constants
        self.lines = []
        self.values = {}
        self.count = 0
        self.loc = "loc(unknown)"
        self.what = None    # the operator being imported, for errors
        self.args = []      # (name, type) of the function's arguments
        self.arg_sources = []  # what feeds each argument at run time
        self.arg_shapes = []   # each argument's shape (ints and _Sym)
        self.symbols = {}      # dynamic size name -> (min, max), declared
        self._names = {}       # torch's size symbol (s27) -> its name

    # -- dynamic sizes --------------------------------------------------
    def _symbol_name(self, sym, shape_env):
        """The name of torch's size symbol `sym`: the name of the
        torch.export Dim it stands for, where torch keeps it (the shape
        environment names the input size it came from), else the
        symbol's own (s27)."""
        names = getattr(shape_env, "source_name_to_debug_name", None) or {}
        for source in (getattr(shape_env, "var_to_sources", None) or {}).get(sym, []):
            try:
                key = source.name() if callable(source.name) else source.name
            except Exception:  # noqa: BLE001 - torch's internals; fall back
                continue
            name = names.get(key)
            if (isinstance(name, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name)
                    and name not in self.symbols):
                return name
        return str(sym)

    def _range(self, sym):
        """[min, max] of a size symbol, from the program's range
        constraints: min at least 1, max UNBOUNDED_MAX where unbounded."""
        r = self.ep.range_constraints.get(sym)
        lo = r.lower if r is not None else 1
        hi = r.upper if r is not None else None
        lo = max(1, int(lo)) if getattr(lo, "is_Integer", isinstance(lo, int)) else 1
        hi = (int(hi) if getattr(hi, "is_Integer", isinstance(hi, int)) and hi is not None
              else UNBOUNDED_MAX)
        return lo, max(lo, hi)

    def size(self, d):
        """A size of the graph (an int, or a torch SymInt/SymBool) as the
        importer keeps it: an int, a _Sym where it is exactly one dynamic
        size, else an _Expr."""
        if isinstance(d, (bool, int)):
            return d
        node = getattr(d, "node", None)
        expr = getattr(node, "expr", None)
        if expr is None:
            return _Expr(str(d))
        if isinstance(d, torch.SymInt) and expr.is_Integer:
            return int(expr)
        if isinstance(d, torch.SymInt) and expr.is_Symbol and not _unbacked(expr):
            if expr not in self._names:
                name = self._symbol_name(expr, getattr(node, "shape_env", None))
                self._names[expr] = name
                self.symbols[name] = self._range(expr)
            return _Sym(self._names[expr])
        import sympy
        readable = expr.xreplace({s: sympy.Symbol(self._names[s])
                                  for s in expr.free_symbols if s in self._names})
        return _Expr(str(readable), expr)

    def _shaped(self, what, val):
        """A node's value with dynamic sizes as _Sym (a _Shape), or as it
        is where its sizes are static. A size that is an expression of
        dynamic sizes cannot be represented: an UnsupportedError."""
        if isinstance(val, (list, tuple)):
            return type(val)(self._shaped(what, v) for v in val)
        if not isinstance(val, torch.Tensor) or all(isinstance(d, int) for d in val.shape):
            return val
        shape = [self.size(d) for d in val.shape]
        bad = [d for d in shape if isinstance(d, _Expr)]
        if any(d.expr is None or _unbacked(d.expr) for d in bad):
            raise UnsupportedError(
                f"operator {what} gives a tensor whose shape depends on "
                f"the data ({list(val.shape)}), which xtile does not support")
        if bad:
            raise DynamicSizeError(
                f"operator {what} gives a tensor of shape {shape}, whose size "
                f"{bad[0]} is an expression of dynamic sizes: xtile supports a "
                "dynamic size only where it is exactly one symbol (a "
                "torch.export Dim)")
        return _Shape(shape, val.dtype)

    # -- emission -------------------------------------------------------
    def fresh(self):
        self.count += 1
        return f"%{self.count}"

    def emit(self, text, shape, dtype):
        v = _Value(self.fresh(), shape, dtype)
        self.lines.append(f"    {v.name} = {text} {self.loc}")
        return v

    def const(self, value, shape, dtype):
        if any(isinstance(d, _Sym) for d in shape):
            # Constants are static: 1 in the dynamic sizes, broadcast.
            ones = tuple(1 if isinstance(d, _Sym) else d for d in shape)
            return self.broadcast(self.const(value, ones, dtype), shape)
        t = tensor_type(shape, dtype)
        if dtype.is_floating_point:
            lit = _float_literal(value, dtype)
        elif dtype == torch.bool:
            lit = "true" if value else "false"
        else:
            lit = str(int(value))
        return self.emit(f"xtensor.constant dense<{lit}> : {t}", shape, dtype)

    def cast(self, v, dtype):
        if v.dtype == dtype:
            return v
        return self.emit(f"xtensor.cast {v.name} : {v.type} -> "
                         f"{tensor_type(v.shape, dtype)}", v.shape, dtype)

    def broadcast(self, v, shape):
        shape = tuple(shape)
        if v.shape == shape:
            return v
        if len(v.shape) > len(shape):
            raise UnsupportedError(f"cannot broadcast {v.shape} to {shape}")
        return self.emit(f"xtensor.broadcast {v.name} : {v.type} -> "
                         f"{tensor_type(shape, v.dtype)}", shape, v.dtype)

    def reshape(self, v, shape):
        shape = tuple(_dim(d) for d in shape)
        if v.shape == shape:
            return v
        return self.emit(f"xtensor.reshape {v.name} : {v.type} -> "
                         f"{tensor_type(shape, v.dtype)}", shape, v.dtype)

    def transpose(self, v, perm):
        perm = list(perm)
        if perm == list(range(len(perm))):
            return v
        shape = [v.shape[p] for p in perm]
        return self.emit(f"xtensor.transpose {v.name} perm {perm} : {v.type} -> "
                         f"{tensor_type(shape, v.dtype)}", shape, v.dtype)

    def operand(self, x, shape, dtype):
        """An argument of an elementwise op: broadcast and cast to the
        result's shape and type (Python numbers become constants)."""
        if isinstance(x, _Value):
            return self.broadcast(self.cast(x, dtype), shape)
        if isinstance(x, (bool, int, float)):
            return self.const(x, shape, dtype)
        if isinstance(x, _Sym):
            raise DynamicSizeError(
                f"operator {self.what} takes the dynamic size {x} as a value, which "
                "xtile does not support (only as a size)")
        raise UnsupportedError(f"operand {x!r} is not supported")

    def unary(self, op, x, shape, dtype):
        x = self.operand(x, shape, dtype)
        return self.emit(f"xtensor.{op} {x.name} : {x.type}", shape, dtype)

    def binary(self, op, a, b, shape, dtype):
        a = self.operand(a, shape, dtype)
        b = self.operand(b, shape, dtype)
        return self.emit(f"xtensor.{op} {a.name}, {b.name} : {a.type}", shape, dtype)

    # -- the graph ------------------------------------------------------
    def arg(self, node):
        if isinstance(node, torch.fx.Node):
            return self.values[node]
        if isinstance(node, (list, tuple)):
            return type(node)(self.arg(n) for n in node)
        return node

    def run(self):
        sig = self.ep.graph_signature
        kinds = {spec.arg.name: spec for spec in sig.input_specs}
        state = self.ep.state_dict
        constants = getattr(self.ep, "constants", {})
        for node in self.ep.graph.nodes:
            if node.op == "placeholder":
                val = node.meta["val"]
                spec = kinds.get(node.name)
                is_user = spec is None or spec.kind.name == "USER_INPUT"
                tensor = None
                if not is_user:
                    tensor = state.get(spec.target, constants.get(spec.target))
                if not is_user and self.params_as_constants and tensor is not None:
                    self.values[node] = self.constant_tensor(tensor.detach())
                    continue
                name = f"%arg{len(self.args)}"
                shape = [self.size(d) for d in val.shape]
                for i, d in enumerate(shape):
                    if isinstance(d, _Expr):
                        raise DynamicSizeError(
                            f"input {node.name} has the size {d} (dimension {i}), an "
                            "expression of dynamic sizes: xtile supports a dynamic "
                            "size only where it is exactly one symbol (a "
                            "torch.export Dim)")
                v = _Value(name, shape, val.dtype)
                self.values[node] = v
                self.args.append((name, v.type))
                self.arg_shapes.append(v.shape)
                self.arg_sources.append(("input", node.name) if is_user
                                        else ("param", tensor))
            elif node.op == "call_function":
                src = _source(node)
                self.loc = (f'loc("{os.path.basename(src[0])}":{src[1]}:0)'
                            if src else "loc(unknown)")
                try:
                    self.values[node] = self.call(node)
                except UnsupportedError as e:
                    where = f" at {src[0]}:{src[1]}: {src[2]}" if src else ""
                    kind = (DynamicSizeError if isinstance(e, DynamicSizeError)
                            else UnsupportedError)
                    raise kind(f"{e}{where}") from None
            elif node.op == "output":
                outs = node.args[0]
                self.outputs = [self.values[o] for o in outs]
        # What each result is: the module's own, or the new value of an
        # input or buffer it assigns in place (functionalized), which the
        # caller writes back.
        self.output_roles = [(spec.kind.name, spec.target) for spec in sig.output_specs]
        self.buffers = {spec.target: state.get(spec.target, constants.get(spec.target))
                        for spec in sig.input_specs if spec.kind.name == "BUFFER"}
        res = ", ".join(o.type for o in self.outputs)
        args = ", ".join(f"{n}: {t}" for n, t in self.args)
        body = "\n".join(self.lines)
        rets = ", ".join(o.name for o in self.outputs)
        attrs = ""
        if self.symbols:
            # Each dynamic size's range, as xtile-opt checks a binding.
            ranges = ", ".join(f"{n} = array<i64: {lo}, {hi}>"
                               for n, (lo, hi) in sorted(self.symbols.items()))
            attrs = f" attributes {{xtensor.symbols = {{{ranges}}}}}"
        return (f"module {{\n  func.func @{self.name}({args}) -> ({res}){attrs} {{\n"
                f"{body}\n    return {rets} : {res}\n  }}\n}}\n")

    def constant_tensor(self, t):
        t = t.contiguous()
        data = t.view(torch.uint8) if t.dtype != torch.bool else t.to(torch.uint8)
        hexdata = bytes(data.cpu().numpy().tobytes()).hex().upper()
        return self.emit(f'xtensor.constant dense<"0x{hexdata}"> : '
                         f"{tensor_type(t.shape, t.dtype)}", t.shape, t.dtype)

    def call(self, node):
        target = node.target
        schema = getattr(target, "_schema", None)
        val = node.meta.get("val")
        args = [self.arg(a) for a in node.args]
        kwargs = {k: self.arg(v) for k, v in node.kwargs.items()}
        sizes = (torch.SymInt, torch.SymBool, torch.SymFloat)
        if schema is None:
            name = getattr(target, "__name__", str(target))
            if name == "getitem":
                return args[0][args[1]]
            if isinstance(val, sizes + (int,)):
                # Arithmetic on sizes (operator.mul of a sym_size): the
                # size PyTorch computed, reported where it is taken.
                return self.size(val)
            raise UnsupportedError(f"call of {name} is not supported by xtile")
        name = schema.name.split("::")[-1]
        overload = getattr(target, "_overloadname", "") or "default"
        what = f"aten.{name}.{overload}"
        if name in ("sym_size", "sym_numel", "sym_stride", "sym_storage_offset"):
            # A size of a tensor: a number, a dynamic size (T) or an
            # expression of them (sym_numel's T*64), reported where it is
            # taken.
            return self.size(val)
        exprs = [a for a in _flatten((args, kwargs)) if isinstance(a, _Expr)]
        if exprs:
            raise DynamicSizeError(
                f"operator {what} takes {exprs[0]}, an expression of dynamic "
                "sizes: xtile supports a dynamic size only where it is exactly one "
                "symbol (a torch.export Dim) or a number")
        val = self._shaped(what, val)
        handler = getattr(self, "op_" + name, None)
        if handler is None:
            why = _why_unsupported(name)
            raise UnsupportedError(f"operator {what} is not supported by xtile"
                                   + (f": {why}" if why else ""))
        bound = bind(schema, args, kwargs)
        self.node, self.what = node, what
        try:
            result = handler(val, **bound)
        except _SymbolicExpression as e:
            raise DynamicSizeError(
                f"operator {what} needs {e.expr}, an expression of dynamic sizes: "
                "xtile supports a dynamic size only where it is exactly one symbol "
                "(a torch.export Dim) or a number") from None
        except UnsupportedError:
            raise
        except TypeError as e:
            # A handler that does not take an argument of this overload.
            raise UnsupportedError(
                f"operator {what} with arguments ({', '.join(bound)}) is not "
                f"supported by xtile ({e})") from None
        except Exception as e:  # noqa: BLE001 - an importer bug, reported as such
            raise UnsupportedError(
                f"operator {what} could not be imported ({type(e).__name__}: "
                f"{e})") from e
        self.check(what, result, val)
        return result

    def check(self, what, result, val):
        """Every handler's value has PyTorch's shape and dtype: a mismatch
        is an importer bug that would otherwise be a wrong result."""
        if isinstance(val, (list, tuple)):
            if not isinstance(result, (list, tuple)) or len(result) != len(val):
                raise UnsupportedError(f"{what}: the importer returned {result!r} "
                                       f"where PyTorch returns {len(val)} values")
            for r, v in zip(result, val):
                self.check(what, r, v)
            return
        if not isinstance(val, (torch.Tensor, _Shape)):
            return
        if (not isinstance(result, _Value) or result.shape != tuple(val.shape)
                or result.dtype != val.dtype):
            got = (f"{list(result.shape)} {result.dtype}"
                   if isinstance(result, _Value) else repr(result))
            raise UnsupportedError(
                f"{what}: the importer built {got} where PyTorch computes "
                f"{list(val.shape)} {val.dtype} (an importer bug)")

    # -- elementwise ---------------------------------------------------
    # Handlers take the arguments by their schema names (see bind()).
    def op_add(self, val, input, other, alpha=1):
        if val.dtype == torch.bool:  # and their sum their or
            return self.binary("or", input, other, val.shape, val.dtype)
        if alpha != 1:
            other = self.binary("mul", other, alpha, val.shape, val.dtype)
        return self.binary("add", input, other, val.shape, val.dtype)

    def op_sub(self, val, input, other, alpha=1):
        if alpha != 1:
            other = self.binary("mul", other, alpha, val.shape, val.dtype)
        return self.binary("sub", input, other, val.shape, val.dtype)

    def op_rsub(self, val, input, other, alpha=1):
        return self.op_sub(val, other, input, alpha)

    def op_mul(self, val, input, other):
        if val.dtype == torch.bool:  # PyTorch's product of bools is their and
            return self.binary("and", input, other, val.shape, val.dtype)
        return self.binary("mul", input, other, val.shape, val.dtype)

    def op_div(self, val, input, other, rounding_mode=None):
        if rounding_mode not in (None, "trunc", "floor"):
            raise UnsupportedError(f"div with rounding_mode={rounding_mode!r} is not supported")
        if rounding_mode is None:
            if not val.dtype.is_floating_point:
                raise UnsupportedError(f"div with a {val.dtype} result is not supported")
            return self.binary("div", input, other, val.shape, val.dtype)
        if val.dtype in (torch.float16, torch.bfloat16):
            # The quotient in f32 (PyTorch's), rounded after the floor or
            # truncation: a 16-bit quotient can round across an integer.
            wide = self.op_div(_Shape(val.shape, torch.float32),
                               self.operand(input, val.shape, torch.float32),
                               self.operand(other, val.shape, torch.float32), rounding_mode)
            return self.cast(wide, val.dtype)
        shape, dtype = val.shape, val.dtype
        a = self.operand(input, shape, dtype)
        b = self.operand(other, shape, dtype)
        q = self.binary("div", a, b, shape, dtype)  # integers: truncated
        zero = self.const(0, shape, dtype)
        if dtype.is_floating_point:
            if rounding_mode == "floor":
                return self.unary("floor", q, shape, dtype)
            neg = self._cmp("lt", val.shape, q, zero)
            up, down = self.unary("ceil", q, shape, dtype), self.unary("floor", q, shape, dtype)
            return self.op_where(val, neg, up, down)
        if rounding_mode == "trunc":
            return q
        # Integer floor division: one less than the truncated quotient when
        # the division is inexact and the signs differ.
        r = self.binary("rem", a, b, shape, dtype)
        inexact = self._cmp("ne", val.shape, r, zero)
        signs = self.binary("xor", self._cmp("lt", val.shape, r, zero), self._cmp("lt", val.shape, b, zero),
                            shape, torch.bool)
        fix = self.binary("and", inexact, signs, shape, torch.bool)
        return self.op_where(val, fix, self.binary("sub", q, 1, shape, dtype), q)

    def op_maximum(self, val, input, other):
        return self.binary("max", input, other, val.shape, val.dtype)

    def op_minimum(self, val, input, other):
        return self.binary("min", input, other, val.shape, val.dtype)

    def op_relu(self, val, input):
        return self.binary("max", input, 0, val.shape, val.dtype)

    def op_pow(self, val, input, exponent):
        if isinstance(exponent, (int, float)) and isinstance(input, _Value):
            if exponent == 2:
                return self.binary("mul", input, input, val.shape, val.dtype)
            if exponent == 1:
                return self.operand(input, val.shape, val.dtype)
            if val.dtype.is_floating_point:
                if exponent == 0.5:
                    return self.unary("sqrt", input, val.shape, val.dtype)
                if exponent == -0.5:
                    return self.unary("rsqrt", input, val.shape, val.dtype)
                if exponent == -1:
                    return self.unary("reciprocal", input, val.shape, val.dtype)
        return self.binary("pow", input, exponent, val.shape, val.dtype)

    def op_where(self, val, condition, input, other):
        c = self.broadcast(self.cast(condition, torch.bool), val.shape)
        a = self.operand(input, val.shape, val.dtype)
        b = self.operand(other, val.shape, val.dtype)
        return self.emit(f"xtensor.select {c.name}, {a.name}, {b.name} : "
                         f"{a.type}", val.shape, val.dtype)

    def _cmp(self, pred, shape, input, other):
        # Compared in PyTorch's promoted type (an int tensor against 0.5
        # compares as float).
        # (Only the rank matters to the promotion: a 0-dim tensor is a
        # lower category.)
        meta = [torch.empty((1,) * len(x.shape), dtype=x.dtype, device="meta")
                if isinstance(x, _Value) else x for x in (input, other)]
        dtype = torch.result_type(*meta)
        a = self.operand(input, shape, dtype)
        b = self.operand(other, shape, dtype)
        return self.emit(f"xtensor.cmp {pred}, {a.name}, {b.name} : {a.type}",
                         tuple(shape), torch.bool)

    def _convert(self, val, input, **unused):
        return self.cast(input, val.dtype)

    # _to_copy(self, *, dtype, ...), to.dtype(self, dtype, ...),
    # to.dtype_layout(self, *, dtype, ...), to.other(self, other, ...):
    # the result's dtype is the node's.
    op__to_copy = op_to = op_type_as = _convert

    def op__assert_tensor_metadata(self, val, **unused):
        return None

    # -- identity and movement -----------------------------------------
    def _identity(self, val, input, **unused):
        return input

    op_clone = op_contiguous = op_alias = op_detach = op_lift_fresh_copy = _identity

    def op_dropout(self, val, input, p, train):
        if train and p > 0:
            raise UnsupportedError("dropout in training mode is not supported (export the model in eval mode)")
        return input

    def _reshape_to_val(self, val, input, **unused):
        return self.reshape(input, val.shape)

    op_view = op_reshape = op__unsafe_view = op_flatten = op_unsqueeze = \
        op_squeeze = _reshape_to_val

    def op_expand(self, val, input, size, implicit=False):
        return self.broadcast(input, val.shape)

    def op_permute(self, val, input, dims):
        if not input.shape:
            return input
        return self.transpose(input, [d % len(input.shape) for d in dims])

    def op_transpose(self, val, input, dim0, dim1):
        perm = list(range(len(input.shape)))
        if not perm:
            return input
        d0, d1 = dim0 % len(perm), dim1 % len(perm)
        perm[d0], perm[d1] = perm[d1], perm[d0]
        return self.transpose(input, perm)

    def op_t(self, val, input):
        return self.transpose(input, [1, 0]) if len(input.shape) == 2 else input

    def op_slice(self, val, input, dim=0, start=None, end=None, step=1):
        x = input
        dim %= len(x.shape)
        size = x.shape[dim]
        if isinstance(size, _Sym):
            return self._slice_dynamic(val, x, dim, start, end, step)
        start = 0 if start is None else (start + size if start < 0 else start)
        end = size if end is None else (end + size if end < 0 else end)
        start, end = min(max(start, 0), size), min(max(end, 0), size)
        end = max(start, end)
        starts = [0] * len(x.shape)
        limits = list(x.shape)
        strides = [1] * len(x.shape)
        starts[dim], limits[dim], strides[dim] = start, end, step
        return self.emit(f"xtensor.slice {x.name} starts {starts} limits {_limits(limits)} "
                         f"strides {strides} : {x.type} -> "
                         f"{tensor_type(val.shape, x.dtype)}", val.shape, x.dtype)

    def _from_end(self, size, offset, at):
        """The positions size + offset + at (`at` an int64 vector) along a
        dynamic size: the size is the largest of its indices plus one (a
        reduction of an iota), as Tensor IR has no size as a value."""
        iota = self._iota((size,), 0)
        last = self.emit(f"xtensor.reduce max {iota.name} dims [0] : {iota.type} -> "
                         f"{tensor_type((), torch.int64)}", (), torch.int64)
        n = at.shape[0]
        first = self.binary("add", self.broadcast(self.reshape(last, (1,)), (n,)),
                            offset + 1, (n,), torch.int64)
        return self.binary("add", at, first, (n,), torch.int64)

    def _slice_dynamic(self, val, x, dim, start, end, step):
        """A slice along a dynamic dimension: whole (the input), or a
        window of a static length (PyTorch's size is a number: it lies
        within the smallest size), gathered at start + step * i, or at
        size + start + step * i for a start counted from the end. Anything
        else needs a size that is an expression of the dynamic one."""
        size = x.shape[dim]
        start = 0 if start is None else start
        whole = (start == 0 and step == 1 and
                 (end is None or end == size or
                  (isinstance(end, int) and end >= self.symbols[size.name][1])))
        if whole:
            return x
        n = val.shape[dim]
        if isinstance(n, int) and isinstance(start, int) and start >= 0:
            at = self._iota((n,), 0)
            if step != 1:
                at = self.binary("mul", at, step, (n,), torch.int64)
            if start:
                at = self.binary("add", at, start, (n,), torch.int64)
            return self._gather(val, x, at, dim)
        if isinstance(n, int) and isinstance(start, int) and start < 0:
            # A window of static length from the end (x[:, -1:]).
            at = self._iota((n,), 0)
            if step != 1:
                at = self.binary("mul", at, step, (n,), torch.int64)
            return self._gather(val, x, self._from_end(size, start, at), dim)
        raise DynamicSizeError(
            f"operator {self.what} slices the dynamic dimension {dim} ({size}) from "
            f"{start} to {end} with step {step}: its result's size ({n}) would be an "
            "expression of the dynamic size (a slice keeps a dynamic dimension "
            "whole, or takes a window of static length from a static start or one "
            "counted from the end)")

    def op_select(self, val, input, dim, index):
        x = input
        dim %= len(x.shape)
        if isinstance(x.shape[dim], _Sym):
            # Index i of a dynamic dimension: a gather, at i or, counted
            # from the end (-1), at size + i.
            at = self.const(max(index, 0), (1,), torch.int64)
            if index < 0:
                at = self._from_end(x.shape[dim], index, self.const(0, (1,), torch.int64))
            return self.reshape(self._gather(None, x, at, dim), val.shape)
        index %= x.shape[dim]
        shape = list(x.shape)
        shape[dim] = 1
        starts = [0] * len(x.shape)
        starts[dim] = index
        limits = list(x.shape)
        limits[dim] = index + 1
        s = self.emit(f"xtensor.slice {x.name} starts {starts} limits {_limits(limits)} "
                      f"strides {[1] * len(shape)} : {x.type} -> "
                      f"{tensor_type(shape, x.dtype)}", shape, x.dtype)
        return self.reshape(s, val.shape)

    def op_split(self, val, input, split_size, dim=0):
        dim %= len(input.shape)
        sizes = [v.shape[dim] for v in val]
        return self.op_split_with_sizes(val, input, sizes, dim)

    def op_split_with_sizes(self, val, input, split_sizes, dim=0):
        out, start = [], 0
        dim %= len(input.shape)
        for v, s in zip(val, split_sizes):
            out.append(self.op_slice(v, input, dim, start, start + s))
            start += s
        return out

    def op_cat(self, val, tensors, dim=0):
        xs = [self.cast(x, val.dtype) for x in tensors
              if not (len(x.shape) == 1 and x.shape[0] == 0)]
        dim %= len(val.shape)
        xs = [x for x in xs if x.shape[dim] != 0]
        if not xs:
            return self.const(0, val.shape, val.dtype)
        if len(xs) == 1:
            return xs[0]
        names = ", ".join(x.name for x in xs)
        types = ", ".join(x.type for x in xs)
        return self.emit(f"xtensor.concat {names} dim {dim} : {types} -> "
                         f"{tensor_type(val.shape, val.dtype)}", val.shape, val.dtype)

    def _gather(self, val, x, index, axis):
        shape = x.shape[:axis] + index.shape + x.shape[axis + 1:]
        return self.emit(f"xtensor.gather {x.name}[{index.name}] axis {axis} : "
                         f"{x.type}, {index.type} -> "
                         f"{tensor_type(shape, x.dtype)}", shape, x.dtype)

    def _outputs_used(self):
        """The positions of the current node's results that the graph reads."""
        return {u.args[1] for u in self.node.users
                if getattr(u.target, "__name__", "") == "getitem"}

    def op__embedding_bag(self, val, weight, indices, offsets, scale_grad_by_freq=False,
                          mode=0, sparse=False, per_sample_weights=None,
                          include_last_offset=False, padding_idx=-1):
        # Bag b holds positions [offsets[b], offsets[b + 1]) (the last to
        # the end): a masked reduction of the gathered rows over the
        # positions, O(bags * positions * dim).
        if self._outputs_used() - {0}:
            raise UnsupportedError("embedding_bag's offset2bag, bag_size and max_indices "
                                   "results are not supported (only the bags)")
        out, dtype = tuple(val[0].shape), val[0].dtype
        bags, dim = out
        length = indices.shape[0]
        if bags == 0 or dim == 0:
            return [self._fill(val[0], 0)] + [self._fill(v, 0) for v in val[1:]]
        i64 = torch.int64
        if length == 0:
            return [self._fill(val[0], 0)] + [self._fill(v, 0) for v in val[1:]]
        wide = (bags, length)
        offs = self.cast(offsets, i64)
        lo = self.broadcast(self.reshape(self._gather(
            None, offs, self._iota((bags,), 0), 0), (bags, 1)), wide)
        if include_last_offset or bags < offsets.shape[0]:
            hi = self._gather(None, offs, self.binary("add", self._iota((bags,), 0), 1,
                                                      (bags,), i64), 0)
        else:
            # The last bag runs to the end.
            nxt = self.binary("min", self.binary("add", self._iota((bags,), 0), 1, (bags,), i64),
                              bags - 1, (bags,), i64)
            hi = self.op_where(_Shape((bags,), i64), self._cmp("eq", (bags,), self._iota((bags,), 0),
                                                               bags - 1),
                               length, self._gather(None, offs, nxt, 0))
        hi = self.broadcast(self.reshape(hi, (bags, 1)), wide)
        j = self._iota(wide, 1)
        member = self.binary("and", self._cmp("ge", wide, j, lo), self._cmp("lt", wide, j, hi),
                             wide, torch.bool)
        idx = self.cast(indices, i64)
        if padding_idx is not None and padding_idx >= 0:
            member = self.binary("and", member, self.broadcast(self.reshape(
                self._cmp("ne", (length,), idx, padding_idx), (1, length)), wide), wide, torch.bool)
        ones = self.cast(member, dtype)
        count = self.emit(f"xtensor.reduce sum {ones.name} dims [1] : {ones.type} -> "
                          f"{tensor_type((bags,), dtype)}", (bags,), dtype)
        count = self.broadcast(self.reshape(count, (bags, 1)), out)
        if mode in (0, 1):
            # The sum over a bag is a product with the membership matrix
            # (times the per-sample weights): a matmul.
            share = ones
            if per_sample_weights is not None:
                share = self.binary("mul", share, self.broadcast(self.reshape(
                    self.cast(per_sample_weights, dtype), (1, length)), wide), wide, dtype)
            rows = self.cast(self._gather(None, weight, idx, 0), dtype)  # [length, dim]
            y = self._matmul(share, rows, out, dtype)
            if mode == 1:
                y = self.binary("div", y, self.binary("max", count, 1, out, dtype), out, dtype)
        else:
            # The maximum over each bag's rows, gathered per (bag and dim,
            # position): one row reduction; an empty bag is zeros.
            full = (bags * dim, length)
            r, pos = self._iota(full, 0), self._iota(full, 1)
            split = lambda op: self.emit(f"xtensor.{op} {r.name}, {self.const(dim, full, i64).name}"
                                         f" : {r.type}", full, i64)
            rows = self._take(weight, [self._take(idx, [pos], full), split("rem")], full)
            mb = self._take(member, [split("div"), pos], full)
            picked = self.op_where(_Shape(full, dtype), mb, rows, self._identity("max", dtype))
            y = self.emit(f"xtensor.reduce max {picked.name} dims [1] : {picked.type} -> "
                          f"{tensor_type((bags * dim,), dtype)}", (bags * dim,), dtype)
            y = self.reshape(y, out)
            y = self.op_where(_Shape(out, dtype), self._cmp("gt", out, count, 0), y, 0)
        return [y] + [self._fill(v, 0) for v in val[1:]]

    op__embedding_bag_forward_only = op__embedding_bag

    def op_embedding(self, val, weight, indices, padding_idx=-1,
                     scale_grad_by_freq=False, sparse=False):
        return self._gather(val, weight, indices, 0)

    def op_index_select(self, val, input, dim, index):
        x = input
        if not x.shape:  # a 0-dim input is indexed as a 1-element vector
            x = self.reshape(x, (1,))
        if not index.shape:
            index = self.reshape(index, (1,))
        return self.reshape(self._gather(val, x, index, dim % len(x.shape)),
                            val.shape)

    # -- reductions ----------------------------------------------------
    def _reduction(self, x, dim):
        """(x, dims) of a reduction over `dim` (None or [] is every
        dimension); a 0-dim input reduces as a 1-element vector."""
        if not x.shape:
            x = self.reshape(x, (1,))
        if dim is None or dim == []:
            return x, list(range(len(x.shape)))
        if isinstance(dim, int):
            dim = [dim]
        return x, sorted({d % len(x.shape) for d in dim})

    def _reduced_shape(self, x, dims, keepdim):
        return tuple(1 if i in dims else n for i, n in enumerate(x.shape)
                     if keepdim or i not in dims)

    def _reduce_op(self, op, val, input, dim, keepdim):
        # sum and prod of integers and bools are int64 in PyTorch; dtype=
        # asks for another accumulation type: the result's type is the one
        # reduced in.
        x, dims = self._reduction(self.cast(input, val.dtype), dim)
        shape = self._reduced_shape(x, dims, keepdim)
        kd = " keepdim" if keepdim else ""
        y = self.emit(f"xtensor.{op} {x.name} dims {dims}{kd} : "
                      f"{x.type} -> {tensor_type(shape, x.dtype)}", shape, x.dtype)
        return self.reshape(y, val.shape)

    def _static_count(self, what, x, dims):
        """The element count of a mean or variance must be static."""
        dynamic = [x.shape[d] for d in dims if isinstance(x.shape[d], _Sym)]
        if dynamic:
            raise DynamicSizeError(
                f"operator {self.what}: {what} over the dynamic dimension {dynamic[0]} "
                "is not supported (its element count would not be a constant)")

    def op_mean(self, val, input, dim=None, keepdim=False, dtype=None):
        x, dims = self._reduction(input, dim)
        self._static_count("a mean", x, dims)
        if math.prod(x.shape[d] for d in dims) == 0:  # PyTorch: 0 / 0
            return self.const(math.nan, val.shape, val.dtype)
        return self._reduce_op("mean", val, input, dim, keepdim)

    def _reduce(self, kind, val, input, dim=None, keepdim=False, dtype=None):
        return self._reduce_op(f"reduce {kind}", val, input, dim, keepdim)

    def op_var(self, val, input, dim=None, unbiased=True, keepdim=False,
               correction=None):
        x, dims = self._reduction(input, dim)
        self._static_count("a variance", x, dims)
        shape = self._reduced_shape(x, dims, keepdim)
        if correction is None:
            correction = 1 if unbiased else 0
        kd = " keepdim" if keepdim else ""
        n = math.prod(x.shape[d] for d in dims)
        if n == 0:  # PyTorch: 0 / 0 over no elements
            return self.const(math.nan, val.shape, val.dtype)
        whole = float(correction).is_integer() and 0 <= correction < n
        v = self.emit(f"xtensor.var {x.name} dims {dims}{kd} correction "
                      f"{int(correction) if whole else 0} : {x.type} -> "
                      f"{tensor_type(shape, x.dtype)}", shape, x.dtype)
        if not whole:
            # A fractional or negative correction, or one that leaves no
            # degrees of freedom (PyTorch's inf or nan): the biased
            # variance times n / (n - c).
            scale = n / (n - correction) if n != correction else math.inf
            v = self.binary("mul", v, scale, shape, x.dtype)
        return self.reshape(v, val.shape)

    def op_std(self, val, input, dim=None, unbiased=True, keepdim=False,
               correction=None):
        v = self.op_var(val, input, dim, unbiased, keepdim, correction)
        return self.unary("sqrt", v, val.shape, val.dtype)

    def op_var_mean(self, val, input, dim=None, unbiased=True, keepdim=False,
                    correction=None):
        return [self.op_var(val[0], input, dim, unbiased, keepdim, correction),
                self.op_mean(val[1], input, dim, keepdim)]

    # -- composites ----------------------------------------------------
    def _softmax(self, op, val, input, dim):
        x = self.cast(input, val.dtype)
        if not x.shape:
            x = self.reshape(x, (1,))
        y = self.emit(f"xtensor.{op} {x.name} dim {dim % len(x.shape)} : {x.type}",
                      x.shape, x.dtype)
        return self.reshape(y, val.shape)

    def op_softmax(self, val, input, dim, dtype=None, half_to_float=False):
        return self._softmax("softmax", val, input, dim)

    def op_log_softmax(self, val, input, dim, dtype=None, half_to_float=False):
        return self._softmax("log_softmax", val, input, dim)

    op__softmax = op_softmax
    op__log_softmax = op_log_softmax

    def op_gelu(self, val, input, approximate="none"):
        if approximate not in ("none", "tanh"):
            raise UnsupportedError(f"gelu with approximate={approximate!r} is not supported")
        kind = "tanh" if approximate == "tanh" else "erf"
        return self.emit(f"xtensor.gelu {kind} {input.name} : {input.type}",
                         val.shape, val.dtype)

    def op_silu(self, val, input):
        return self.emit(f"xtensor.silu {input.name} : {input.type}", val.shape, val.dtype)

    def _norm(self, op, val, x, normalized_shape, eps, operands):
        """xtensor.layer_norm / rms_norm over the trailing dimensions."""
        text = f"xtensor.{op} {x.name}"
        types = [x.type]
        for keyword, v in operands:
            if v is not None:
                text += f" {keyword} {v.name}"
                types.append(v.type)
        rank = len(normalized_shape)
        attrs = f" {{norm_rank = {rank} : i64}}" if rank != 1 else ""
        text += f" eps {_float_literal(eps)}{attrs} : ({', '.join(types)}) -> {x.type}"
        return self.emit(text, val.shape, val.dtype)

    def op_layer_norm(self, val, input, normalized_shape, weight=None, bias=None,
                      eps=1e-5, cudnn_enable=True):
        return self._norm("layer_norm", val, input, normalized_shape, eps,
                          [("weight", weight), ("bias", bias)])

    def op_rms_norm(self, val, input, normalized_shape, weight=None, eps=None):
        if eps is None:
            eps = torch.finfo(input.dtype).eps
        return self._norm("rms_norm", val, input, normalized_shape, eps,
                          [("weight", weight)])

    def _norm_stats(self, rows, eps, dtype):
        """(mean, 1/sqrt(var + eps)) of each row of the 2-D `rows`, in f32
        (the statistics PyTorch's native norms return), cast to dtype."""
        shape = rows.shape[:1]
        xs = self.cast(rows, torch.float32)
        mean = self.emit(f"xtensor.mean {xs.name} dims [1] : {xs.type} -> "
                         f"{tensor_type(shape, torch.float32)}", shape, torch.float32)
        var = self.emit(f"xtensor.var {xs.name} dims [1] correction 0 : {xs.type} -> "
                        f"{tensor_type(shape, torch.float32)}", shape, torch.float32)
        rstd = self.unary("rsqrt", self.binary("add", var, eps, shape, torch.float32),
                          shape, torch.float32)
        return self.cast(mean, dtype), self.cast(rstd, dtype)

    def op_native_layer_norm(self, val, input, normalized_shape, weight=None, bias=None,
                             eps=1e-5):
        y = self.op_layer_norm(val[0], input, normalized_shape, weight, bias, eps)
        inner = math.prod(normalized_shape)
        rows = self.reshape(input, (math.prod(input.shape) // max(inner, 1), inner))
        mean, rstd = self._norm_stats(rows, eps, val[1].dtype)
        return [y, self.reshape(mean, val[1].shape), self.reshape(rstd, val[2].shape)]

    def op_linear(self, val, input, weight, bias=None):
        x = input
        if len(weight.shape) == 1:  # [in]: one output feature, no out dim
            weight = self.reshape(weight, (1, weight.shape[0]))
            if bias is not None:
                bias = self.reshape(bias, (1,))
        k = x.shape[-1]
        rows = math.prod(x.shape[:-1])
        x2 = self.reshape(x, (rows, k))
        n = weight.shape[0]
        ops = f"{x2.name}, {weight.name}" + (f", {bias.name}" if bias is not None else "")
        types = f"{x2.type}, {weight.type}" + (f", {bias.type}" if bias is not None else "")
        y = self.emit(f"xtensor.linear {ops} : ({types}) -> "
                      f"{tensor_type((rows, n), x.dtype)}", (rows, n), x.dtype)
        return self.reshape(y, val.shape)

    def _matmul(self, a, b, shape, dtype):
        # A vector operand is a matrix of one row (a) or one column (b),
        # whose unit dimension the result then drops (torch.matmul).
        shape = tuple(shape)
        full = shape
        if len(b.shape) == 1:
            b = self.reshape(b, (b.shape[0], 1))
            full = full + (1,)
        if len(a.shape) == 1:
            a = self.reshape(a, (1, a.shape[0]))
            full = full[:-1] + (1,) + full[-1:]
        batch = full[:-2]
        a = self.broadcast(a, batch + a.shape[-2:])
        b = self.broadcast(b, batch + b.shape[-2:])
        m = self.emit(f"xtensor.matmul {a.name}, {b.name} : {a.type}, {b.type} -> "
                      f"{tensor_type(full, dtype)}", full, dtype)
        return m if full == shape else self.reshape(m, shape)

    def op_matmul(self, val, input, other):
        return self._matmul(input, other, val.shape, val.dtype)

    def op_mm(self, val, input, mat2):
        return self._matmul(input, mat2, val.shape, val.dtype)

    op_bmm = op_mm

    def op_addmm(self, val, input, mat1, mat2, beta=1, alpha=1):
        # beta * input + alpha * (mat1 @ mat2); with beta = 0 the input is
        # not read (its NaNs do not propagate), as in PyTorch.
        # 16-bit: on the f32 accumulator, rounded once (as PyTorch).
        acc = torch.float32 if val.dtype in (torch.float16, torch.bfloat16) else val.dtype
        m = self._matmul(mat1, mat2, val.shape, acc)
        if alpha != 1:
            m = self.binary("mul", m, alpha, val.shape, acc)
        if beta != 0:
            bias = self.operand(input, val.shape, acc)
            if beta != 1:
                bias = self.binary("mul", bias, beta, val.shape, acc)
            m = self.binary("add", m, bias, val.shape, acc)
        return self.cast(m, val.dtype)

    def op_addmv(self, val, input, mat, vec, beta=1, alpha=1):
        # beta * input + alpha * (mat @ vec).
        return self.op_addmm(val, input, mat, vec, beta, alpha)

    def op_addbmm(self, val, input, batch1, batch2, beta=1, alpha=1):
        # beta * input + alpha * sum over b of batch1[b] @ batch2[b]: one
        # matmul over K = batches x k, [n, b k] @ [b k, p].
        nb, n, k = batch1.shape
        p = batch2.shape[-1]
        a = self.reshape(self.transpose(batch1, [1, 0, 2]), (n, nb * k))
        b = self.reshape(batch2, (nb * k, p))
        return self.op_addmm(val, input, a, b, beta, alpha)

    def _repeat_heads(self, t, heads):
        kv = t.shape[-3]
        if heads % kv:
            raise UnsupportedError(f"grouped-query attention with {heads} query heads "
                                   f"and {kv} key/value heads (not a multiple)")
        group = heads // kv
        lead, rows = t.shape[:-3], t.shape[-2:]
        t = self.reshape(t, lead + (kv, 1) + rows)
        t = self.broadcast(t, lead + (kv, group) + rows)
        return self.reshape(t, lead + (heads,) + rows)

    def op_scaled_dot_product_attention(self, val, query, key, value, attn_mask=None,
                                        dropout_p=0.0, is_causal=False,
                                        scale=None, enable_gqa=False):
        q, k, v = query, key, value
        if dropout_p:
            raise UnsupportedError("scaled_dot_product_attention with dropout is not supported")
        if enable_gqa and len(q.shape) >= 3 and k.shape[-3] != q.shape[-3]:
            # Grouped-query attention: each key/value head serves
            # q_heads / kv_heads query heads (head h uses kv head
            # h // group), as PyTorch's repeat_interleave of k and v.
            k, v = (self._repeat_heads(t, q.shape[-3]) for t in (k, v))
        batch = tuple(torch.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2]))
        q = self.broadcast(q, batch + q.shape[-2:])
        k = self.broadcast(k, batch + k.shape[-2:])
        v = self.broadcast(v, batch + v.shape[-2:])
        L, S, E = q.shape[-2], k.shape[-2], q.shape[-1]
        scale = 1.0 / math.sqrt(E) if scale is None else scale
        rank = len(k.shape)
        perm = list(range(rank - 2)) + [rank - 1, rank - 2]
        kt = self.transpose(k, perm)
        scores_shape = batch + (L, S)
        s = self._matmul(q, kt, scores_shape, q.dtype)
        s = self.binary("mul", s, scale, scores_shape, q.dtype)
        if is_causal:
            rows = self.emit(f"xtensor.iota dim {len(scores_shape) - 2} : "
                             f"{tensor_type(scores_shape, torch.int64)}",
                             scores_shape, torch.int64)
            cols = self.emit(f"xtensor.iota dim {len(scores_shape) - 1} : "
                             f"{tensor_type(scores_shape, torch.int64)}",
                             scores_shape, torch.int64)
            keep = self.emit(f"xtensor.cmp le, {cols.name}, {rows.name} : {cols.type}",
                             scores_shape, torch.bool)
            ninf = self.const(-math.inf, scores_shape, q.dtype)
            s = self.emit(f"xtensor.select {keep.name}, {s.name}, {ninf.name} : "
                          f"{s.type}", scores_shape, q.dtype)
        if attn_mask is not None:
            if attn_mask.dtype == torch.bool:
                m = self.broadcast(attn_mask, scores_shape)
                ninf = self.const(-math.inf, scores_shape, q.dtype)
                s = self.emit(f"xtensor.select {m.name}, {s.name}, {ninf.name} : "
                              f"{s.type}", scores_shape, q.dtype)
            else:
                s = self.binary("add", s, attn_mask, scores_shape, q.dtype)
        p = self.emit(f"xtensor.softmax {s.name} dim {len(scores_shape) - 1} : {s.type}",
                      scores_shape, q.dtype)
        out = self._matmul(p, v, val.shape, val.dtype)
        if is_causal or attn_mask is not None:
            # A query whose keys are all masked attends to nothing: zeros,
            # as PyTorch's SDPA (its math backend's safe softmax), not the
            # NaN of softmax over -inf. Applied to the output (the same
            # rows), so that softmax and p @ v stay one online fold.
            rank = len(scores_shape)
            top = self.emit(f"xtensor.reduce max {s.name} dims [{rank - 1}] keepdim : "
                            f"{s.type} -> {tensor_type(scores_shape[:-1] + (1,), q.dtype)}",
                            scores_shape[:-1] + (1,), q.dtype)
            none = self._cmp("eq", top.shape, top, -math.inf)
            out = self.op_where(_Shape(val.shape, val.dtype), none, 0, out)
        return out


    # -- creation --------------------------------------------------------
    def _fill(self, val, value):
        return self.const(value, val.shape, val.dtype)

    def op_full(self, val, size, fill_value, **unused):
        return self._fill(val, fill_value)

    def op_full_like(self, val, input, fill_value, **unused):
        return self._fill(val, fill_value)

    def op_new_full(self, val, input, size, fill_value, **unused):
        return self._fill(val, fill_value)

    def op_scalar_tensor(self, val, s, **unused):
        return self._fill(val, s)

    # empty*: any contents will do; zeros are deterministic.
    op_zeros = op_empty = op_new_zeros = op_new_empty = op_zeros_like = \
        op_empty_like = op_empty_permuted = op_empty_strided = \
        lambda self, val, *a, **k: self._fill(val, 0)
    op_ones = op_new_ones = op_ones_like = \
        lambda self, val, *a, **k: self._fill(val, 1)

    def _iota(self, shape, dim, dtype=torch.int64):
        return self.emit(f"xtensor.iota dim {dim} : {tensor_type(shape, dtype)}",
                         tuple(shape), dtype)

    def op_arange(self, val, end, start=0, step=1, **unused):
        # start + step * i: in int64, or for floats in f64 (as PyTorch
        # computes it), rounded once to the result's type.
        i = self._iota(val.shape, 0, torch.float64 if val.dtype.is_floating_point
                       else torch.int64)
        if step != 1:
            i = self.binary("mul", i, step, val.shape, i.dtype)
        if start != 0:
            i = self.binary("add", i, start, val.shape, i.dtype)
        return self.cast(i, val.dtype)

    def _triangle(self, val, input, diagonal, keep):
        """tril/triu: the elements with col - row `keep`s diagonal."""
        x = input
        rank = len(x.shape)
        rows = self._iota(x.shape, rank - 2)
        cols = self._iota(x.shape, rank - 1)
        offset = self.binary("sub", cols, rows, x.shape, torch.int64)
        mask = self._cmp(keep, val.shape, offset, diagonal)
        return self.op_where(val, mask, x, 0)

    def op_tril(self, val, input, diagonal=0):
        return self._triangle(val, input, diagonal, "le")

    def op_triu(self, val, input, diagonal=0):
        return self._triangle(val, input, diagonal, "ge")

    # -- selection and logic --------------------------------------------
    def op_masked_fill(self, val, input, mask, value):
        return self.op_where(val, mask, value, input)

    def _logic(self, op, val, input, other=None):
        if val.dtype.is_floating_point:
            raise UnsupportedError(f"bitwise {op} on {val.dtype}")
        if other is None:
            return self.unary(op, input, val.shape, val.dtype)
        return self.binary(op, input, other, val.shape, val.dtype)

    def op_bitwise_and(self, val, input, other):
        return self._logic("and", val, input, other)

    def op_bitwise_or(self, val, input, other):
        return self._logic("or", val, input, other)

    def op_bitwise_xor(self, val, input, other):
        return self._logic("xor", val, input, other)

    def op_bitwise_not(self, val, input):
        return self._logic("not", val, input)

    def _as_bool(self, x, shape):
        return self.broadcast(self.cast(x, torch.bool) if isinstance(x, _Value)
                              else self.const(bool(x), shape, torch.bool), shape)

    def op_logical_and(self, val, input, other):
        return self.binary("and", self._as_bool(input, val.shape),
                           self._as_bool(other, val.shape), val.shape, torch.bool)

    def op_logical_or(self, val, input, other):
        return self.binary("or", self._as_bool(input, val.shape),
                           self._as_bool(other, val.shape), val.shape, torch.bool)

    def op_logical_xor(self, val, input, other):
        return self.binary("xor", self._as_bool(input, val.shape),
                           self._as_bool(other, val.shape), val.shape, torch.bool)

    def op_logical_not(self, val, input):
        return self.unary("not", self._as_bool(input, val.shape), val.shape, torch.bool)

    def op_clamp(self, val, input, min=None, max=None):
        y = self.operand(input, val.shape, val.dtype)
        if min is not None:
            y = self.binary("max", y, min, val.shape, val.dtype)
        if max is not None:
            y = self.binary("min", y, max, val.shape, val.dtype)
        return y

    def op_clamp_min(self, val, input, min):
        return self.op_clamp(val, input, min=min)

    def op_clamp_max(self, val, input, max):
        return self.op_clamp(val, input, max=max)

    def _min_max(self, kind, val, input, other=None, dim=None, keepdim=False):
        """min/max in every form: elementwise with `other`, over `dim`
        with indices, or over everything."""
        if other is not None:
            return self.binary(kind, input, other, val.shape, val.dtype)
        if dim is not None:
            return self._extreme_dim(kind, val, input, dim, keepdim)
        return self._reduce(kind, val, input)

    def op_min(self, val, input, other=None, dim=None, keepdim=False):
        return self._min_max("min", val, input, other, dim, keepdim)

    def op_max(self, val, input, other=None, dim=None, keepdim=False):
        return self._min_max("max", val, input, other, dim, keepdim)

    def op_copy(self, val, input, src, non_blocking=False):
        # The functional form of `input.copy_(src)`: src in input's shape
        # and type.
        return self.operand(src, val.shape, val.dtype)

    # -- scans and indexing ---------------------------------------------
    def _masked_scan(self, kind, x, d):
        """The inclusive scan of x along d as a masked reduction, out[i] =
        reduce of x[j] for j <= i: O(n^2) work over the n elements of d,
        one fused kernel."""
        n = x.shape[d]
        wide = x.shape[:d] + (n, n) + x.shape[d + 1:]
        xb = self.broadcast(self.reshape(x, x.shape[:d] + (1, n) + x.shape[d + 1:]), wide)
        keep = self.emit(f"xtensor.cmp le, {self._iota(wide, d + 1).name}, "
                         f"{self._iota(wide, d).name} : {tensor_type(wide, torch.int64)}",
                         wide, torch.bool)
        none = self.const(self._identity(kind, x.dtype), wide, x.dtype)
        masked = self.emit(f"xtensor.select {keep.name}, {xb.name}, {none.name} : "
                           f"{xb.type}", wide, x.dtype)
        return self.emit(f"xtensor.reduce {kind} {masked.name} dims [{d + 1}] : "
                         f"{masked.type} -> {tensor_type(x.shape, x.dtype)}",
                         x.shape, x.dtype)

    _SCAN_BLOCK = 32
    _COMBINE = {"sum": "add", "prod": "mul", "max": "max", "min": "min"}

    @staticmethod
    def _identity(kind, dtype):
        """The identity of reduction `kind` in `dtype`."""
        if kind in ("sum", "prod"):
            return 0 if kind == "sum" else 1
        if dtype.is_floating_point:
            return -math.inf if kind == "max" else math.inf
        if dtype == torch.bool:
            return kind == "min"
        info = torch.iinfo(dtype)
        return info.min if kind == "max" else info.max

    def _scan(self, kind, x, d):
        """The inclusive scan (kind "sum", "prod", "max", "min") of x along d, blocked:
        masked scans within blocks of 32, the scan of the blocks' totals
        (recursively), combined. About 33 n work for n elements instead of
        n^2, in one kernel per level."""
        n, b = x.shape[d], self._SCAN_BLOCK
        if n <= 2 * b:
            return self._masked_scan(kind, x, d)
        blocks = -(-n // b)
        low, high = [0] * len(x.shape), [0] * len(x.shape)
        high[d] = blocks * b - n
        xp = self._pad(x, low, high, self._identity(kind, x.dtype))
        split = x.shape[:d] + (blocks, b) + x.shape[d + 1:]
        xs = self.reshape(xp, split)
        local = self._masked_scan(kind, xs, d + 1)
        tshape = x.shape[:d] + (blocks,) + x.shape[d + 1:]
        totals = self.emit(f"xtensor.reduce {kind} {xs.name} dims [{d + 1}] : {xs.type} -> "
                           f"{tensor_type(tshape, x.dtype)}", tshape, x.dtype)
        inclusive = self._scan(kind, totals, d)
        # The exclusive scan of the totals: shifted by one block.
        starts, limits = [0] * len(tshape), list(tshape)
        limits[d] = blocks - 1
        cut = tuple(limits)
        before = self.emit(f"xtensor.slice {inclusive.name} starts {starts} limits {_limits(limits)} "
                           f"strides {[1] * len(tshape)} : {inclusive.type} -> "
                           f"{tensor_type(cut, x.dtype)}", cut, x.dtype)
        low[d], high[d] = 1, 0
        before = self._pad(before, low, [0] * len(tshape), self._identity(kind, x.dtype))
        carry = self.broadcast(self.reshape(before, x.shape[:d] + (blocks, 1) + x.shape[d + 1:]),
                               split)
        out = self.binary(self._COMBINE[kind], local, carry, split, x.dtype)
        out = self.reshape(out, xp.shape)
        if blocks * b == n:
            return out
        starts, limits = [0] * len(x.shape), list(x.shape)
        return self.emit(f"xtensor.slice {out.name} starts {starts} limits {_limits(limits)} "
                         f"strides {[1] * len(x.shape)} : {out.type} -> "
                         f"{tensor_type(x.shape, x.dtype)}", x.shape, x.dtype)

    def _cumulative(self, kind, val, input, dim):
        x = self.cast(input, val.dtype)
        if not x.shape or math.prod(x.shape) == 0:
            return x
        return self._scan(kind, x, dim % len(x.shape))

    def op_cumsum(self, val, input, dim, dtype=None):
        # docs/Frontend.md says why a scan is imported this way.
        return self._cumulative("sum", val, input, dim)

    def op_cumprod(self, val, input, dim, dtype=None):
        return self._cumulative("prod", val, input, dim)

    def _cumulative_extreme(self, kind, val, input, dim):
        # The running extreme, and the last position where it was reached
        # (PyTorch's >= / <=): the running maximum of the positions whose
        # element equals the running extreme there.
        x = input if input.shape else self.reshape(input, (1,))
        if math.prod(x.shape) == 0:
            return [input, self._fill(val[1], 0)]
        d = dim % len(x.shape)
        values = self._scan(kind, x, d)
        at = self.op_where(_Shape(x.shape, torch.int64), self._cmp("eq", x.shape, x, values),
                           self._iota(x.shape, d), -1)
        index = self._scan("max", at, d)
        return [self.reshape(values, val[0].shape), self.reshape(index, val[1].shape)]

    def op_cummax(self, val, input, dim):
        return self._cumulative_extreme("max", val, input, dim)

    def op_cummin(self, val, input, dim):
        return self._cumulative_extreme("min", val, input, dim)

    def op_logcumsumexp(self, val, input, dim):
        # m_i + log(sum_{j <= i} e^(x_j - m_i)) with m_i the running
        # maximum, as masked reductions (O(n^2) over the scanned dimension).
        def lcse(v, x):
            s, c = v.shape, v.dtype
            if not s or math.prod(s) == 0:
                return x
            d = dim % len(s)
            n = s[d]
            m = self._scan("max", x, d)
            wide = s[:d] + (n, n) + s[d + 1:]
            xb = self.broadcast(self.reshape(x, s[:d] + (1, n) + s[d + 1:]), wide)
            mb = self.broadcast(self.reshape(m, s[:d] + (n, 1) + s[d + 1:]), wide)
            keep = self._cmp("le", wide, self._iota(wide, d + 1), self._iota(wide, d))
            finite = self._cmp("ne", wide, self.unary("abs", mb, wide, c), math.inf)
            e = self.unary("exp", self.binary("sub", xb, mb, wide, c), wide, c)
            e = self.op_where(_Shape(wide, c), self.binary("and", keep, finite, wide, torch.bool), e, 0)
            total = self.emit(f"xtensor.reduce sum {e.name} dims [{d + 1}] : {e.type} -> "
                              f"{tensor_type(s, c)}", s, c)
            r = self.binary("add", m, self.unary("log", total, s, c), s, c)
            # An infinite running maximum is the result (-inf: nothing yet).
            return self.op_where(v, self._cmp("eq", s, self.unary("abs", m, s, c), math.inf), m, r)
        return self._widened(val, lcse, input)

    def _linear_index(self, coords, sizes, shape):
        """The row-major linear index (int64, of `shape`) of coordinates
        `coords` into a tensor of `sizes`."""
        shape = tuple(shape)
        flat, stride = None, 1
        for c, n in reversed(list(zip(coords, sizes))):
            term = c if stride == 1 else self.binary("mul", c, stride, shape, torch.int64)
            flat = term if flat is None else self.binary("add", flat, term, shape, torch.int64)
            stride *= n
        return flat if flat is not None else self.const(0, shape, torch.int64)

    def _take(self, x, coords, shape):
        """x at coordinates `coords` (one int64 tensor of `shape` per
        dimension of x): one gather from the flattened x."""
        flat = self._linear_index(coords, x.shape, shape)
        return self._gather(None, self.reshape(x, (math.prod(x.shape),)), flat, 0)

    def _wrapped(self, index, size, shape):
        """An index tensor as int64 in `shape`, negative indices counted
        from the end as PyTorch does."""
        i = self.cast(index, torch.int64)
        neg = self._cmp("lt", i.shape, i, 0)
        up = self.binary("add", i, size, i.shape, torch.int64)
        i = self.emit(f"xtensor.select {neg.name}, {up.name}, {i.name} : {i.type}",
                      i.shape, torch.int64)
        return self.broadcast(i, shape)

    def _index_coords(self, x, indices):
        """(coordinates into x, result shape) of x[indices] with PyTorch's
        advanced indexing: index tensors broadcast together, their shape in
        place of the indexed dimensions when those are adjacent, first
        otherwise."""
        rank = len(x.shape)
        idx = list(indices) + [None] * (rank - len(indices))
        dims = [m for m, t in enumerate(idx) if t is not None]
        if any(idx[m].dtype == torch.bool for m in dims):
            raise UnsupportedError("indexing with a boolean mask (its result's shape "
                                   "depends on the data) is not supported")
        bshape = _broadcast_shapes(*[idx[m].shape for m in dims])
        rest = [m for m in range(rank) if m not in dims]
        at = dims[0] if dims == list(range(dims[0], dims[-1] + 1)) else 0
        out = [x.shape[m] for m in rest]
        out[at:at] = list(bshape)
        out = tuple(out)
        coords = []
        for m in range(rank):
            if idx[m] is not None:
                i = self._wrapped(idx[m], x.shape[m], bshape)
                i = self.reshape(i, (1,) * at + bshape + (1,) * (len(out) - at - len(bshape)))
                coords.append(self.broadcast(i, out))
            else:
                k = rest.index(m)
                coords.append(self._iota(out, k if k < at else k + len(bshape)))
        return coords, out

    def op_index(self, val, input, indices):
        coords, out = self._index_coords(input, indices)
        return self._take(input, coords, out)

    _SCATTER_KINDS = {"sum": "sum", "add": "sum", "mean": "sum", "prod": "prod",
                      "multiply": "prod", "amax": "max", "amin": "min"}

    def _scatter(self, val, x, coords, shape, values, reduce=None, include_self=True):
        """x with the elements at `coords` (tensors of `shape`) replaced by
        `values` (broadcast to `shape`; the last of several writes to one
        element wins), or with `reduce` ("sum", "prod", "mean", "amax",
        "amin") combining the values written to each element, with x's own
        element when include_self. Each output element looks at every
        written position: O(numel(x) * numel(shape)) work, meant for masks,
        small updates and segment reductions over short index lists."""
        n, m = math.prod(x.shape), math.prod(shape)
        dtype = val.dtype
        target = self.reshape(self._linear_index(coords, x.shape, shape), (1, m))
        wide = (n, m)
        hit = self._cmp("eq", wide, self._iota(wide, 0), self.broadcast(target, wide))
        flat_x = self.reshape(self.cast(x, dtype), (n,))
        vals = self.reshape(self.operand(values, shape, dtype), (1, m))
        if reduce is not None:
            kind = self._SCATTER_KINDS.get(reduce)
            if kind is None:
                raise UnsupportedError(f"scatter with reduce={reduce!r} is not supported")
            none = self.const(self._identity(kind, dtype), wide, dtype)
            picked = self.emit(f"xtensor.select {hit.name}, {self.broadcast(vals, wide).name}, "
                               f"{none.name} : {tensor_type(wide, dtype)}", wide, dtype)
            total = self.emit(f"xtensor.reduce {kind} {picked.name} dims [1] : {picked.type} -> "
                              f"{tensor_type((n,), dtype)}", (n,), dtype)
            flat = _Shape((n,), dtype)
            ones = self.cast(hit, dtype)
            count = self.emit(f"xtensor.reduce sum {ones.name} dims [1] : {ones.type} -> "
                              f"{tensor_type((n,), dtype)}", (n,), dtype)
            written = self._cmp("gt", (n,), count, 0)
            if include_self:
                total = self.binary(self._COMBINE[kind], flat_x, total, (n,), dtype)
                count = self.binary("add", count, 1, (n,), dtype)
            if reduce == "mean":
                count = self.binary("max", count, 1, (n,), dtype)
                total = self.op_div(flat, total, count, None if dtype.is_floating_point
                                    else "floor")
            if not include_self:
                total = self.op_where(flat, written, total, flat_x)
            return self.reshape(total, val.shape)
        last = self._last_write(hit)
        written = self._cmp("ge", (n,), last, 0)
        picked = self._gather(None, self.reshape(vals, (m,)),
                              self.binary("max", last, 0, (n,), torch.int64), 0)
        out = self.emit(f"xtensor.select {written.name}, {picked.name}, {flat_x.name} : "
                        f"{tensor_type((n,), dtype)}", (n,), dtype)
        return self.reshape(out, val.shape)

    def _last_write(self, hit):
        """For each destination (row) of `hit`, a bool [n, m] of which of m
        writes target it, the last such write's position, or -1."""
        wide = hit.shape
        none = self.const(-1, wide, torch.int64)
        which = self.emit(f"xtensor.select {hit.name}, {self._iota(wide, 1).name}, "
                          f"{none.name} : {tensor_type(wide, torch.int64)}", wide, torch.int64)
        return self.emit(f"xtensor.reduce max {which.name} dims [1] : {which.type} -> "
                         f"{tensor_type(wide[:1], torch.int64)}", wide[:1], torch.int64)

    def _masked_put(self, val, x, indices, values, accumulate):
        """x[..., mask] = values (or +=) with one boolean index tensor: the
        k-th masked position (row-major over the mask's dimensions) takes
        the k-th of `values` along that axis, or its only one when it
        broadcasts. Where the mask is false, x stays."""
        p = next(m for m, t in enumerate(indices) if t is not None)
        mask = indices[p]
        m = len(mask.shape)
        rank = len(x.shape)
        pre, post = x.shape[:p], x.shape[p + m:]
        shape = tuple(val.shape)
        maskb = self.broadcast(self.reshape(self.cast(mask, torch.bool),
                                            (1,) * p + mask.shape + (1,) * len(post)), shape)
        v = values if isinstance(values, _Value) else None
        lead = len(pre) + 1 + len(post)
        if v is not None and len(v.shape) > lead:
            raise UnsupportedError("index_put values of more dimensions than the indexed "
                                   "result are not supported")
        vs = (1,) * (lead - len(v.shape)) + tuple(v.shape) if v is not None else (1,) * lead
        count = vs[len(pre)]
        target = pre + (count,) + post
        vb = self.broadcast(self.reshape(self.cast(v, val.dtype), vs), target) if v is not None \
            else self.const(values, target, val.dtype)
        if count == 1:
            k = self.const(0, shape, torch.int64)
        else:
            n = math.prod(mask.shape)
            flat = self.cast(self.reshape(self.cast(mask, torch.bool), (n,)), torch.int64)
            k = self.binary("sub", self._scan("sum", flat, 0), 1, (n,), torch.int64)
            k = self.binary("min", self.binary("max", k, 0, (n,), torch.int64), count - 1,
                            (n,), torch.int64)
            k = self.broadcast(self.reshape(k, (1,) * p + mask.shape + (1,) * len(post)), shape)
        coords = [self._iota(shape, d) for d in range(p)] + [k] + \
            [self._iota(shape, d) for d in range(p + m, rank)]
        picked = self._take(vb, coords, shape)
        if accumulate:
            return self.binary("add", x, self.op_where(val, maskb, picked, 0), shape, val.dtype)
        return self.op_where(val, maskb, picked, x)

    def op_index_put(self, val, input, indices, values, accumulate=False):
        given = [t for t in indices if t is not None]
        if len(given) == 1 and given[0].dtype == torch.bool:
            return self._masked_put(val, input, list(indices), values, accumulate)
        coords, shape = self._index_coords(input, indices)
        if all(isinstance(d, int) for d in shape) and math.prod(shape) == 0:
            return self.operand(input, val.shape, val.dtype)
        if not accumulate and len(given) == 1 and len(given[0].shape) == 1:
            p = next(m for m, t in enumerate(indices) if t is not None)
            return self._put_slices(val, input, p, given[0], values, shape)
        return self._scatter(val, input, coords, shape, values, "sum" if accumulate else None)

    def _put_slices(self, val, x, p, index, values, shape):
        """x with its slices along dimension p at the T positions of the
        1-D `index` replaced by the T slices of `values` (broadcast to
        `shape`, x's shape with T at p); the last write to a slice wins, as
        in _scatter. This is `index_copy_` and `x[:, :, pos] = v`, a KV
        cache's update: each of x's L slices finds the last position that
        writes it in an [L, T] comparison, and then takes one element, so
        the work is O(L * T + numel(x)) rather than _scatter's
        O(numel(x) * numel(shape))."""
        L, T = x.shape[p], index.shape[0]
        wide = (L, T)
        target = self.reshape(self._wrapped(index, L, (T,)), (1, T))
        last = self._last_write(
            self._cmp("eq", wide, self._iota(wide, 0), self.broadcast(target, wide)))
        along = (1,) * p + (L,) + (1,) * (len(x.shape) - p - 1)
        written = self.broadcast(self.reshape(self._cmp("ge", (L,), last, 0), along), val.shape)
        source = self.binary("max", last, 0, (L,), torch.int64)
        picked = self._gather(None, self.operand(values, shape, val.dtype), source, p)
        return self.op_where(val, written, picked, self.cast(x, val.dtype))

    def op_scatter(self, val, input, dim, index, src=None, value=None, reduce=None,
                   include_self=True):
        x = input if input.shape else self.reshape(input, (1,))
        shape = index.shape if index.shape else (1,)
        if math.prod(shape) == 0:
            return self.operand(input, val.shape, val.dtype)
        d = dim % len(x.shape)
        index = self.reshape(index, shape)
        coords = [self._wrapped(index, x.shape[m], shape) if m == d else self._iota(shape, m)
                  for m in range(len(x.shape))]
        if src is not None:
            src = src if src.shape else self.reshape(src, (1,))
            values = self._take(src, [self._iota(shape, m) for m in range(len(shape))], shape)
        else:
            values = value
        return self._scatter(val, x, coords, shape, values, reduce, include_self)

    def op_scatter_add(self, val, input, dim, index, src):
        return self.op_scatter(val, input, dim, index, src, reduce="sum")

    def op_scatter_reduce(self, val, input, dim, index, src, reduce, include_self=True):
        return self.op_scatter(val, input, dim, index, src, reduce=reduce,
                               include_self=include_self)

    def op_masked_scatter(self, val, input, mask, source):
        # The k-th masked position (in row-major order) takes source's k-th
        # element: k from a scan of the mask.
        n = math.prod(val.shape)
        if n == 0 or math.prod(source.shape) == 0:
            return self.operand(input, val.shape, val.dtype)
        m = self.reshape(self.broadcast(self.cast(mask, torch.bool), val.shape), (n,))
        k = self.binary("sub", self._scan("sum", self.cast(m, torch.int64), 0), 1,
                        (n,), torch.int64)
        k = self.binary("min", self.binary("max", k, 0, (n,), torch.int64),
                        math.prod(source.shape) - 1, (n,), torch.int64)
        src = self.reshape(self.cast(source, val.dtype), (math.prod(source.shape),))
        picked = self.reshape(self._gather(None, src, k, 0), val.shape)
        return self.op_where(val, self.reshape(m, val.shape), picked, input)

    def op_gather(self, val, input, dim, index, sparse_grad=False):
        x = input
        if not x.shape:
            x = self.reshape(x, (1,))
        shape = index.shape
        d = dim % len(x.shape)
        coords = [self.broadcast(self.cast(index, torch.int64), shape) if m == d
                  else self._iota(shape, m) for m in range(len(x.shape))]
        return self.reshape(self._take(x, coords, shape), val.shape)


    # -- elementwise ops composed of Tensor IR's ---------------------------
    def _float(self, val, x):
        return self.operand(x, val.shape, val.dtype)

    def op_trunc(self, val, input):
        x = self._float(val, input)
        neg = self._cmp("lt", val.shape, x, 0)
        return self.op_where(val, neg, self.unary("ceil", x, val.shape, val.dtype),
                             self.unary("floor", x, val.shape, val.dtype))

    def op_round(self, val, input, decimals=0):
        # Half to even, exactly: x - floor(x) is exact below 2^mantissa,
        # and every float from there on is an integer already.
        if decimals and val.dtype.is_floating_point:
            # PyTorch's: round(x * 10^d) / 10^d, or round(x / 10^-d) * 10^-d.
            def scaled(v, x):
                s, c = v.shape, v.dtype
                ten = float(10 ** abs(decimals))
                up, down = ("mul", "div") if decimals > 0 else ("div", "mul")
                return self.binary(down, self.op_round(v, self.binary(up, x, ten, s, c)), ten, s, c)
            return self._widened(val, scaled, input)
        x = self._float(val, input)
        if not val.dtype.is_floating_point:
            return x
        shape, dtype = val.shape, val.dtype
        f = self.unary("floor", x, shape, dtype)
        d = self.binary("sub", x, f, shape, dtype)
        up = self.binary("add", f, 1, shape, dtype)
        even = self._cmp("eq", val.shape, self.binary("rem", f, 2, shape, dtype), 0)
        tie = self.op_where(val, even, f, up)
        r = self.op_where(val, self._cmp("gt", val.shape, d, 0.5), up,
                          self.op_where(val, self._cmp("lt", val.shape, d, 0.5), f, tie))
        big = self._cmp("ge", val.shape, self.unary("abs", x, shape, dtype),
                        1 / torch.finfo(dtype).eps)
        return self.op_where(val, big, x, r)

    def op_sign(self, val, input):
        x = self._float(val, input)
        s = self.op_where(val, self._cmp("gt", val.shape, x, 0), 1,
                          self.op_where(val, self._cmp("lt", val.shape, x, 0), -1, 0))
        if not val.dtype.is_floating_point:
            return s
        return self.op_where(val, self._cmp("ne", val.shape, x, x), x, s)  # NaN stays

    def op_isnan(self, val, input):
        return self._cmp("ne", val.shape, input, input)

    def op_isinf(self, val, input):
        if not input.dtype.is_floating_point:
            return self._fill(val, False)
        return self._cmp("eq", val.shape, self.unary("abs", input, input.shape, input.dtype), math.inf)

    def op_log10(self, val, input):
        return self.binary("mul", self.unary("log", input, val.shape, val.dtype),
                           1 / math.log(10), val.shape, val.dtype)

    def op_log1p(self, val, input):
        # log(1 + x) * x / ((1 + x) - 1): the rounding of 1 + x cancels
        # (Goldberg), so tiny x keep their digits; x itself when 1 + x == 1.
        shape, dtype = val.shape, val.dtype
        x = self._float(val, input)
        u = self.binary("add", x, 1, shape, dtype)
        du = self.binary("sub", u, 1, shape, dtype)
        ratio = self.binary("div", self.binary("mul", self.unary("log", u, shape, dtype), x,
                                               shape, dtype), du, shape, dtype)
        inf = self._cmp("eq", val.shape, u, math.inf)
        ratio = self.op_where(val, inf, u, ratio)
        return self.op_where(val, self._cmp("eq", val.shape, du, 0), x, ratio)

    def op_expm1(self, val, input):
        # (e^x - 1) * x / log(e^x), the same cancellation (Kahan).
        shape, dtype = val.shape, val.dtype
        x = self._float(val, input)
        u = self.unary("exp", x, shape, dtype)
        um = self.binary("sub", u, 1, shape, dtype)
        ratio = self.binary("div", self.binary("mul", um, x, shape, dtype),
                            self.unary("log", u, shape, dtype), shape, dtype)
        ratio = self.op_where(val, self._cmp("eq", val.shape, u, math.inf), u, ratio)
        ratio = self.op_where(val, self._cmp("eq", val.shape, um, -1), um, ratio)
        return self.op_where(val, self._cmp("eq", val.shape, u, 1), x, ratio)

    def op_hardtanh(self, val, input, min_val=-1, max_val=1):
        return self.op_clamp(val, input, min_val, max_val)

    def op_leaky_relu(self, val, input, negative_slope=0.01):
        x = self._float(val, input)
        return self.op_where(val, self._cmp("gt", val.shape, x, 0), x,
                             self.binary("mul", x, negative_slope, val.shape, val.dtype))

    def op_elu(self, val, input, alpha=1, scale=1, input_scale=1):
        x = self._float(val, input)
        shape, dtype = val.shape, val.dtype
        neg = self.op_expm1(val, self.binary("mul", x, input_scale, shape, dtype))
        neg = self.binary("mul", neg, alpha * scale, shape, dtype)
        pos = self.binary("mul", x, scale, shape, dtype) if scale != 1 else x
        return self.op_where(val, self._cmp("gt", val.shape, x, 0), pos, neg)

    def op_fmod(self, val, input, other):
        return self.binary("rem", input, other, val.shape, val.dtype)

    def op_remainder(self, val, input, other):
        # Python's modulo: the sign of the divisor.
        shape, dtype = val.shape, val.dtype
        b = self.operand(other, shape, dtype)
        r = self.binary("rem", input, b, shape, dtype)
        fix = self.binary("and", self._cmp("ne", val.shape, r, 0),
                          self.binary("xor", self._cmp("lt", val.shape, r, 0),
                                      self._cmp("lt", val.shape, b, 0), shape, torch.bool),
                          shape, torch.bool)
        return self.op_where(val, fix, self.binary("add", r, b, shape, dtype), r)

    # -- inverse trigonometric and hyperbolic functions --------------------
    # Composed of Tensor IR's exp, log, sqrt and division, with the range
    # reductions and cancellation-free forms of a libm. Computed in f32 for
    # 16-bit types (constants included) and rounded once, in f64 for f64.
    def _widened(self, val, fn, *inputs):
        """fn(result shape and compute type, *inputs in it), rounded once
        to val's type."""
        c = torch.float32 if val.dtype in (torch.float16, torch.bfloat16) else val.dtype
        wide = _Shape(val.shape, c)
        return self.cast(fn(wide, *[self.operand(x, val.shape, c) for x in inputs]),
                         val.dtype)

    def _poly(self, v, z, coefficients):
        """Horner's rule: coefficients from the highest degree."""
        acc = self.const(coefficients[0], v.shape, v.dtype)
        for c in coefficients[1:]:
            acc = self.binary("add", self.binary("mul", acc, z, v.shape, v.dtype), c,
                              v.shape, v.dtype)
        return acc

    def _odd(self, v, x, r):
        """r (computed from |x|) with x's sign; zeros (of either sign) and
        NaN pass through as x."""
        s, c = v.shape, v.dtype
        r = self.op_where(v, self._cmp("lt", s, x, 0), self.unary("neg", r, s, c), r)
        return self.op_where(v, self._cmp("eq", s, x, 0), x, r)

    def _atan(self, v, x):
        # |x| reduced to |t| <= tan(pi/8) by atan(a) = pi/2 + atan(-1/a)
        # above tan(3pi/8) and pi/4 + atan((a-1)/(a+1)) above tan(pi/8).
        s, c = v.shape, v.dtype
        a = self.unary("abs", x, s, c)
        big = self._cmp("gt", s, a, 2.414213562373095)
        mid = self._cmp("gt", s, a, 0.41421356237309503)
        t = self.op_where(v, big, self.binary("div", -1.0, a, s, c),
                          self.op_where(v, mid, self.binary("div", self.binary("sub", a, 1, s, c),
                                                            self.binary("add", a, 1, s, c), s, c), a))
        y0 = self.op_where(v, big, math.pi / 2, self.op_where(v, mid, math.pi / 4, 0))
        if c == torch.float64:
            # Halved once more, h = t / (1 + sqrt(1 + t^2)) <= tan(pi/16),
            # then the series to h^25 (the next term is below 2^-60 of h).
            h = self.binary("div", t, self.binary("add", self.unary(
                "sqrt", self.binary("add", self.binary("mul", t, t, s, c), 1, s, c), s, c),
                1, s, c), s, c)
            z = self.binary("mul", h, h, s, c)
            series = self._poly(v, z, [(-1) ** k / (2 * k + 1) for k in range(12, -1, -1)])
            p = self.binary("mul", self.binary("mul", series, h, s, c), 2, s, c)
        else:
            # Cephes' atanf polynomial (relative error 1.9e-7 on the range).
            z = self.binary("mul", t, t, s, c)
            q = self._poly(v, z, [8.05374449538e-2, -1.38776856032e-1,
                                  1.99777106478e-1, -3.33329491539e-1])
            p = self.binary("add", self.binary("mul", self.binary("mul", q, z, s, c), t, s, c),
                            t, s, c)
        return self._odd(v, x, self.binary("add", y0, p, s, c))

    def _atan2(self, v, y, x):
        # atan of min/max in [0, 1], moved to its octant.
        s, c = v.shape, v.dtype
        ay, ax = self.unary("abs", y, s, c), self.unary("abs", x, s, c)
        steep = self._cmp("gt", s, ay, ax)
        hi, lo = self.op_where(v, steep, ay, ax), self.op_where(v, steep, ax, ay)
        q = self.binary("div", lo, hi, s, c)
        q = self.op_where(v, self._cmp("eq", s, hi, 0), 0, q)
        both_inf = self.binary("and", self._cmp("eq", s, ay, math.inf),
                               self._cmp("eq", s, ax, math.inf), s, torch.bool)
        r = self._atan(v, self.op_where(v, both_inf, 1, q))
        r = self.op_where(v, steep, self.binary("sub", math.pi / 2, r, s, c), r)
        r = self.op_where(v, self._cmp("lt", s, x, 0), self.binary("sub", math.pi, r, s, c), r)
        return self.op_where(v, self._cmp("lt", s, y, 0), self.unary("neg", r, s, c), r)

    def _cathetus(self, v, x):
        """sqrt(1 - x^2) as sqrt((1 - x)(1 + x)), exact near |x| = 1."""
        s, c = v.shape, v.dtype
        return self.unary("sqrt", self.binary("mul", self.binary("sub", 1, x, s, c),
                                              self.binary("add", x, 1, s, c), s, c), s, c)

    def op_atan(self, val, input):
        return self._widened(val, self._atan, input)

    def op_atan2(self, val, input, other):
        return self._widened(val, self._atan2, input, other)

    def op_asin(self, val, input):
        return self._widened(val, lambda v, x: self._atan2(v, x, self._cathetus(v, x)), input)

    def op_acos(self, val, input):
        return self._widened(val, lambda v, x: self._atan2(v, self._cathetus(v, x), x), input)

    def op_tan(self, val, input):
        return self._widened(val, lambda v, x: self.binary(
            "div", self.unary("sin", x, v.shape, v.dtype), self.unary("cos", x, v.shape, v.dtype),
            v.shape, v.dtype), input)

    def _exp_half_squared(self, v, a):
        """e^a / 2 as (e^(a/2) / 2) e^(a/2): finite wherever the result
        is, where e^a itself overflows."""
        h = self.unary("exp", self.binary("mul", a, 0.5, v.shape, v.dtype), v.shape, v.dtype)
        return self.binary("mul", self.binary("mul", h, 0.5, v.shape, v.dtype), h,
                           v.shape, v.dtype)

    def _ln_max(self, dtype):
        """Below this, e^x is finite in `dtype` (with margin)."""
        return 709.0 if dtype == torch.float64 else 88.0

    def _sinh(self, v, x):
        # (u + u / (u + 1)) / 2 with u = expm1(|x|) below 1 (no
        # cancellation), (e^a - e^-a) / 2 above, e^a / 2 where e^a overflows.
        s, c = v.shape, v.dtype
        a = self.unary("abs", x, s, c)
        u = self.op_expm1(v, a)
        small = self.binary("mul", self.binary("add", u, self.binary(
            "div", u, self.binary("add", u, 1, s, c), s, c), s, c), 0.5, s, c)
        e = self.unary("exp", a, s, c)
        mid = self.binary("sub", self.binary("mul", e, 0.5, s, c),
                          self.binary("div", 0.5, e, s, c), s, c)
        r = self.op_where(v, self._cmp("lt", s, a, 1), small,
                          self.op_where(v, self._cmp("lt", s, a, self._ln_max(c)), mid,
                                        self._exp_half_squared(v, a)))
        return self._odd(v, x, r)

    def _cosh(self, v, x):
        s, c = v.shape, v.dtype
        a = self.unary("abs", x, s, c)
        e = self.unary("exp", a, s, c)
        mid = self.binary("add", self.binary("mul", e, 0.5, s, c),
                          self.binary("div", 0.5, e, s, c), s, c)
        return self.op_where(v, self._cmp("lt", s, a, self._ln_max(c)), mid,
                             self._exp_half_squared(v, a))

    def op_sinh(self, val, input):
        return self._widened(val, self._sinh, input)

    def op_cosh(self, val, input):
        return self._widened(val, self._cosh, input)

    def _large(self, dtype):
        """Beyond this, sqrt(x^2 +- 1) == x in `dtype`."""
        return 1 / math.sqrt(torch.finfo(dtype).eps)

    def _log_twice(self, v, a):
        """log(2a) without overflowing 2a."""
        return self.binary("add", self.unary("log", a, v.shape, v.dtype), math.log(2),
                           v.shape, v.dtype)

    def _asinh(self, v, x):
        # log1p(a + a^2 / (1 + sqrt(1 + a^2))), log(2a) for large a.
        s, c = v.shape, v.dtype
        a = self.unary("abs", x, s, c)
        a2 = self.binary("mul", a, a, s, c)
        root = self.unary("sqrt", self.binary("add", a2, 1, s, c), s, c)
        r = self.op_log1p(v, self.binary("add", a, self.binary(
            "div", a2, self.binary("add", root, 1, s, c), s, c), s, c))
        r = self.op_where(v, self._cmp("lt", s, a, self._large(c)), r, self._log_twice(v, a))
        return self._odd(v, x, r)

    def _acosh(self, v, x):
        # log1p(t + sqrt(t (x + 1))) with t = x - 1 (exact), log(2x) for
        # large x; NaN below 1 (the square root's).
        s, c = v.shape, v.dtype
        t = self.binary("sub", x, 1, s, c)
        root = self.unary("sqrt", self.binary("mul", t, self.binary("add", x, 1, s, c), s, c),
                          s, c)
        r = self.op_log1p(v, self.binary("add", t, root, s, c))
        return self.op_where(v, self._cmp("lt", s, x, self._large(c)), r, self._log_twice(v, x))

    def _atanh(self, v, x):
        # log1p(2a / (1 - a)) / 2.
        s, c = v.shape, v.dtype
        a = self.unary("abs", x, s, c)
        q = self.binary("div", self.binary("mul", a, 2, s, c),
                        self.binary("sub", 1, a, s, c), s, c)
        return self._odd(v, x, self.binary("mul", self.op_log1p(v, q), 0.5, s, c))

    def op_asinh(self, val, input):
        return self._widened(val, self._asinh, input)

    def op_acosh(self, val, input):
        return self._widened(val, self._acosh, input)

    def op_atanh(self, val, input):
        return self._widened(val, self._atanh, input)

    def op_hypot(self, val, input, other):
        # max * sqrt(1 + (min/max)^2): no overflow or underflow of the
        # squares; inf wins over NaN (C's hypot).
        def hypot(v, x, y):
            s, c = v.shape, v.dtype
            ax, ay = self.unary("abs", x, s, c), self.unary("abs", y, s, c)
            bigger = self._cmp("gt", s, ax, ay)
            hi, lo = self.op_where(v, bigger, ax, ay), self.op_where(v, bigger, ay, ax)
            q = self.binary("div", lo, hi, s, c)
            r = self.binary("mul", hi, self.unary("sqrt", self.binary(
                "add", self.binary("mul", q, q, s, c), 1, s, c), s, c), s, c)
            r = self.op_where(v, self._cmp("eq", s, hi, 0), 0, r)
            inf = self.binary("or", self._cmp("eq", s, ax, math.inf),
                              self._cmp("eq", s, ay, math.inf), s, torch.bool)
            return self.op_where(v, inf, math.inf, r)
        return self._widened(val, hypot, input, other)

    def op_signbit(self, val, input):
        # x < 0, and -0.0 by the sign of 1/x (NaN's sign bit is not
        # observable without a bit cast: false).
        x = input
        if not x.dtype.is_floating_point:
            return self._cmp("lt", val.shape, x, 0)
        neg = self._cmp("lt", val.shape, x, 0)
        zero = self._cmp("eq", val.shape, x, 0)
        inv = self.unary("reciprocal", x, x.shape, x.dtype)
        return self.binary("or", neg, self.binary("and", zero, self._cmp(
            "lt", val.shape, inv, 0), val.shape, torch.bool), val.shape, torch.bool)

    def _shift(self, val, input, other, left):
        if isinstance(other, _Value) or not isinstance(other, int):
            raise UnsupportedError("bit shifts by a tensor of amounts are not supported "
                                   "(only by a constant)")
        if val.dtype.is_floating_point or val.dtype == torch.bool:
            raise UnsupportedError(f"bit shifts of {val.dtype} are not supported")
        bits = torch.iinfo(val.dtype).bits
        if not 0 <= other < bits:
            raise UnsupportedError(f"a bit shift by {other} of {val.dtype} is not supported")
        if left:  # a product by 2^other (in two's complement) wraps as the shift
            factor = (1 << other) - (1 << bits if other == bits - 1 else 0)
            return self.binary("mul", input, factor, val.shape, val.dtype)
        if other == bits - 1:  # the sign
            return self.op_where(val, self._cmp("lt", val.shape, input, 0), -1, 0)
        # Arithmetic right shift: division rounded down.
        return self.op_div(val, input, 1 << other, rounding_mode="floor")

    def op___lshift__(self, val, input, other):
        return self._shift(val, input, other, True)

    def op___rshift__(self, val, input, other):
        return self._shift(val, input, other, False)

    op_bitwise_left_shift = op___lshift__
    op_bitwise_right_shift = op___rshift__

    # -- batch norm (inference), resampling, movement ---------------------
    def op__native_batch_norm_legit_no_training(self, val, input, weight, bias,
                                                running_mean, running_var, momentum, eps):
        x = input
        shape, dtype = x.shape, val[0].dtype
        channel = (1, x.shape[1]) + (1,) * (len(shape) - 2)
        def per_channel(t):
            return self.broadcast(self.reshape(self.cast(t, dtype), channel), shape)
        y = self.binary("sub", x, per_channel(running_mean), shape, dtype)
        inv = self.unary("rsqrt", self.binary("add", per_channel(running_var), eps, shape, dtype),
                         shape, dtype)
        y = self.binary("mul", y, inv, shape, dtype)
        if weight is not None:
            y = self.binary("mul", y, per_channel(weight), shape, dtype)
        if bias is not None:
            y = self.binary("add", y, per_channel(bias), shape, dtype)
        return [y] + [self.const(0, v.shape, v.dtype) for v in val[1:]]

    def op__native_batch_norm_legit(self, val, input, weight, bias, running_mean=None,
                                    running_var=None, training=True, momentum=0.1,
                                    eps=1e-5):
        # Training mode (and instance norm, which is batch norm over a
        # [1, N*C, ...] view): each channel normalized by the statistics of
        # its own elements, a layer norm over the rows of [C, N*rest].
        if not training:
            return self.op__native_batch_norm_legit_no_training(
                val, input, weight, bias, running_mean, running_var, momentum, eps)
        if input.dtype in (torch.float16, torch.bfloat16):
            # Normalized and scaled in f32, rounded once (as PyTorch).
            f32 = lambda t: None if t is None else self.cast(t, torch.float32)
            outs = self.op__native_batch_norm_legit(
                [_Shape(val[0].shape, torch.float32)] + list(val[1:]), f32(input),
                f32(weight), f32(bias), None, None, True, momentum, eps)
            return [self.cast(outs[0], val[0].dtype)] + outs[1:]
        x = input
        n, ch = x.shape[:2]
        rest = math.prod(x.shape[2:])
        dtype = val[0].dtype
        rows = self.reshape(self.transpose(self.reshape(x, (n, ch, rest)), [1, 0, 2]),
                            (ch, n * rest))
        y = self.emit(f"xtensor.layer_norm {rows.name} eps {_float_literal(eps)} : "
                      f"({rows.type}) -> {rows.type}", rows.shape, x.dtype)
        y = self.reshape(self.transpose(self.reshape(y, (ch, n, rest)), [1, 0, 2]), x.shape)
        channel = (1, ch) + (1,) * (len(x.shape) - 2)
        if weight is not None:
            y = self.binary("mul", y, self.reshape(weight, channel), x.shape, dtype)
        if bias is not None:
            y = self.binary("add", y, self.reshape(bias, channel), x.shape, dtype)
        mean, rstd = self._norm_stats(rows, eps, val[1].dtype)
        return [y, mean, rstd]

    def op__native_batch_norm_legit_functional(self, val, input, weight, bias, running_mean,
                                               running_var, training, momentum, eps):
        # The training form with the running statistics' updates as
        # results: (1 - momentum) * running + momentum * batch (the
        # variance unbiased).
        y, mean, rstd = self.op__native_batch_norm_legit(
            val[:3], input, weight, bias, running_mean, running_var, training, momentum, eps)
        if not training:
            return [y, mean, rstd, running_mean, running_var]
        count = math.prod(input.shape) // input.shape[1]
        f32 = torch.float32
        shape = mean.shape
        var = self.binary("sub", self.unary("reciprocal", self.binary(
            "mul", self.cast(rstd, f32), self.cast(rstd, f32), shape, f32), shape, f32),
            eps, shape, f32)
        var = self.binary("mul", var, count / max(count - 1, 1), shape, f32)
        def update(running, batch, v):
            return self.binary("add", self.binary("mul", running, 1 - momentum, v.shape, v.dtype),
                               self.binary("mul", batch, momentum, v.shape, v.dtype),
                               v.shape, v.dtype)
        return [y, mean, rstd, update(running_mean, mean, val[3]), update(running_var, var, val[4])]

    def _adaptive_window(self, wide, d, n_in, n_out):
        """Over `wide` (a dimension d of n_out outputs before one of n_in
        inputs): whether input i is in output o's window [floor(o*in/out),
        ceil((o+1)*in/out))."""
        o, i = self._iota(wide, d), self._iota(wide, d + 1)

        def bound(extra):
            t = self.binary("add", self.binary("mul", o, n_in, wide, torch.int64), extra,
                            wide, torch.int64)
            return self.emit(f"xtensor.div {t.name}, "
                             f"{self.const(n_out, wide, torch.int64).name} : {t.type}",
                             wide, torch.int64)
        return self.binary("and", self._cmp("ge", wide, i, bound(0)),
                           self._cmp("lt", wide, i, bound(n_in + n_out - 1)), wide, torch.bool)

    def _spread(self, y, d, n_out):
        """(y with a dimension of n_out inserted before d, broadcast; that
        shape)."""
        wide = y.shape[:d] + (n_out,) + y.shape[d:]
        return self.broadcast(self.reshape(y, y.shape[:d] + (1,) + y.shape[d:]), wide), wide

    def op__adaptive_avg_pool2d(self, val, input, output_size):
        # One masked sum per spatial dimension (the average over a window
        # rectangle is the average of averages).
        acc = torch.float32 if val.dtype in (torch.float16, torch.bfloat16) else val.dtype
        y = self.cast(input, acc)
        rank = len(y.shape)
        for d in range(rank - len(output_size), rank):
            n_in, n_out = y.shape[d], val.shape[d]
            if n_in == n_out:
                continue
            yb, wide = self._spread(y, d, n_out)
            inside = self._adaptive_window(wide, d, n_in, n_out)
            picked = self.op_where(_Shape(wide, acc), inside, yb, 0)
            ones = self.cast(inside, acc)
            out = y.shape[:d] + (n_out,) + y.shape[d + 1:]
            total, count = (self.emit(f"xtensor.reduce sum {t.name} dims [{d + 1}] : {t.type} -> "
                                      f"{tensor_type(out, acc)}", out, acc)
                            for t in (picked, ones))
            y = self.binary("div", total, count, out, acc)
        return self.cast(y, val.dtype)

    op_adaptive_avg_pool1d = op__adaptive_avg_pool3d = op__adaptive_avg_pool2d

    def op_adaptive_max_pool2d(self, val, input, output_size):
        # Separable, from the last dimension back: the maximum of each
        # window and the first position holding it, whose flat index
        # within the trailing dimensions already pooled is carried along
        # (the row-major first maximum, as PyTorch's scan finds it).
        y, flat = input, None
        rank = len(y.shape)
        lowest = self._identity("max", y.dtype)
        inner = 1
        for d in reversed(range(rank - len(output_size), rank)):
            n_in, n_out = y.shape[d], val[0].shape[d]
            yb, wide = self._spread(y, d, n_out)
            inside = self._adaptive_window(wide, d, n_in, n_out)
            masked = self.op_where(_Shape(wide, y.dtype), inside, yb, lowest)
            top, k = self._arg_extreme("max", masked, d + 1, False)
            if flat is None:
                flat = k
            else:
                # The index carried from the row picked, plus its offset.
                coords = [self._iota(k.shape, m) for m in range(len(k.shape))]
                coords[d] = k
                picked = self._take(flat, coords, k.shape)
                flat = self.binary("add", self.binary("mul", k, inner, k.shape, torch.int64),
                                   picked, k.shape, torch.int64)
            inner *= n_in
            y = top if top.shape == k.shape else self.reshape(top, k.shape)
        return [y, flat]

    op_adaptive_max_pool1d = op_adaptive_max_pool3d = op_adaptive_max_pool2d

    def op_repeat(self, val, input, repeats):
        x = input
        lead = len(repeats) - len(x.shape)
        shape = (1,) * lead + x.shape
        inter, wide = [], []
        for r, n in zip(repeats, shape):
            inter += [1, n]
            wide += [r, n]
        x = self.broadcast(self.reshape(x, tuple(inter)), tuple(wide))
        return self.reshape(x, val.shape)

    def op_flip(self, val, input, dims):
        x = input
        rank = len(x.shape)
        flipped = {d % rank for d in dims}
        coords = []
        for m in range(rank):
            i = self._iota(x.shape, m)
            if m in flipped:
                i = self.binary("sub", self.const(x.shape[m] - 1, x.shape, torch.int64), i,
                                x.shape, torch.int64)
            coords.append(i)
        return self._take(x, coords, x.shape)

    def op_diagonal(self, val, input, offset=0, dim1=0, dim2=1):
        x = input
        rank = len(x.shape)
        d1, d2 = dim1 % rank, dim2 % rank
        shape = tuple(val.shape)
        if math.prod(shape) == 0:
            return self._fill(val, 0)
        k = self._iota(shape, len(shape) - 1)
        coords = [None] * rank
        for pos, m in enumerate(m for m in range(rank) if m not in (d1, d2)):
            coords[m] = self._iota(shape, pos)
        coords[d1] = self.binary("add", k, max(-offset, 0), shape, torch.int64)
        coords[d2] = self.binary("add", k, max(offset, 0), shape, torch.int64)
        return self._take(x, coords, shape)

    def op_fill(self, val, input, value):
        return self.operand(value, val.shape, val.dtype)

    def op_as_strided(self, val, input, size, stride, storage_offset=None):
        # Element offset + sum(i_k * stride_k) of the input's row-major
        # elements (a graph value is its own contiguous storage).
        x, shape = input, tuple(val.shape)
        n = math.prod(x.shape)
        if math.prod(shape) == 0:
            return self._fill(val, 0)
        offset = storage_offset or 0
        last = offset + sum((s - 1) * st for s, st in zip(shape, stride))
        if offset < 0 or any(st < 0 for st in stride) or last >= n:
            raise UnsupportedError(f"as_strided reading outside its input's {n} elements "
                                   f"(size {list(size)}, stride {list(stride)}, offset "
                                   f"{offset}) is not supported")
        index = self.const(offset, shape, torch.int64)
        for m, st in enumerate(stride):
            if st and shape[m] > 1:
                index = self.binary("add", index, self.binary(
                    "mul", self._iota(shape, m), st, shape, torch.int64), shape, torch.int64)
        return self._gather(None, self.reshape(x, (n,)), index, 0)

    def op_upsample_nearest2d(self, val, input, output_size=None, scale_factors=None):
        # PyTorch's "nearest": source index min(floor(i * scale), in - 1)
        # with scale = 1 / scale_factor when one is given, else in / out,
        # both as f32 (its arithmetic, so the same elements are picked).
        x = input
        shape = tuple(val.shape)
        coords = [self._iota(shape, 0), self._iota(shape, 1)]
        for k, d in enumerate(range(2, len(shape))):
            scale = (1.0 / scale_factors[k] if scale_factors else x.shape[d] / shape[d])
            scale = float(torch.tensor(scale, dtype=torch.float32))
            i = self.binary("mul", self._iota(shape, d, torch.float32), scale, shape, torch.float32)
            i = self.cast(self.unary("floor", i, shape, torch.float32), torch.int64)
            coords.append(self.binary("min", i, x.shape[d] - 1, shape, torch.int64))
        return self._take(x, coords, shape)

    def op_upsample_bilinear2d(self, val, input, output_size=None, align_corners=False,
                               scale_factors=None, scales_h=None, scales_w=None):
        # PyTorch's source position per output index, in its arithmetic
        # (f32, f64 for f64): o * (in - 1) / (out - 1) with align_corners,
        # else max((o + 0.5) * scale - 0.5, 0) with scale = 1 / factor when
        # one is given, else in / out; then the two neighbours weighted.
        x, shape = input, tuple(val.shape)
        c = torch.float64 if val.dtype == torch.float64 else torch.float32
        given = list(scale_factors) if scale_factors else [scales_h, scales_w]
        spatial = len(shape) - 2
        taps = []  # per spatial dimension: (low index, high index, high weight)
        for k, d in enumerate(range(2, len(shape))):
            n_in, n_out = x.shape[d], shape[d]
            o = self._iota(shape, d, c)
            if align_corners:
                scale = (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
            else:
                f = given[k] if k < len(given) else None
                scale = 1.0 / f if f else n_in / n_out
            scale = float(torch.tensor(scale, dtype=c))
            if align_corners:
                src = self.binary("mul", o, scale, shape, c)
            else:
                src = self.binary("sub", self.binary("mul", self.binary("add", o, 0.5, shape, c),
                                                     scale, shape, c), 0.5, shape, c)
                src = self.binary("max", src, 0, shape, c)
            lo_f = self.unary("floor", src, shape, c)
            lo = self.binary("min", self.cast(lo_f, torch.int64), n_in - 1, shape, torch.int64)
            hi = self.binary("min", self.binary("add", lo, 1, shape, torch.int64), n_in - 1,
                             shape, torch.int64)
            taps.append((lo, hi, self.binary("sub", src, lo_f, shape, c)))
        base = [self._iota(shape, 0), self._iota(shape, 1)]
        xc = self.cast(x, c)

        def blend(k, coords):
            """The interpolation over spatial dimensions k.. at fixed
            coordinates before them."""
            if k == spatial:
                return self._take(xc, coords, shape)
            lo, hi, w1 = taps[k]
            w0 = self.binary("sub", 1, w1, shape, c)
            a, b = blend(k + 1, coords + [lo]), blend(k + 1, coords + [hi])
            return self.binary("add", self.binary("mul", w0, a, shape, c),
                               self.binary("mul", w1, b, shape, c), shape, c)
        return self.cast(blend(0, base), val.dtype)

    def op_grid_sampler_2d(self, val, input, grid, interpolation_mode, padding_mode,
                           align_corners):
        # PyTorch's grid_sample: each output point reads the input at the
        # grid's (x, y) in [-1, 1], unnormalized to pixels, with padding by
        # zeros (0), the border (1) or reflection (2), and bilinear (0) or
        # nearest (1) interpolation; out-of-range taps read zero.
        if interpolation_mode not in (0, 1):
            raise UnsupportedError("grid_sample with mode='bicubic' is not supported")
        x, shape = input, tuple(val.shape)
        n, ch, h, w = x.shape
        c = torch.float64 if val.dtype == torch.float64 else torch.float32
        gshape = tuple(grid.shape[:3])
        g = self.cast(grid, c)
        v = _Shape(gshape, c)

        def coordinate(k, size):
            t = self.reshape(self._take(g, [self._iota(gshape, 0), self._iota(gshape, 1),
                                            self._iota(gshape, 2), self.const(k, gshape, torch.int64)],
                                        gshape), gshape)
            if align_corners:
                t = self.binary("mul", self.binary("mul", self.binary("add", t, 1, gshape, c), 0.5,
                                                   gshape, c), size - 1, gshape, c)
            else:
                t = self.binary("mul", self.binary("sub", self.binary(
                    "mul", self.binary("add", t, 1, gshape, c), size, gshape, c), 1, gshape, c),
                    0.5, gshape, c)
            if padding_mode == 2:
                low, high = (0, 2 * (size - 1)) if align_corners else (-1, 2 * size - 1)
                if low == high:
                    t = self.const(0, gshape, c)
                else:
                    lo, span = low / 2, (high - low) / 2
                    a = self.unary("abs", self.binary("sub", t, lo, gshape, c), gshape, c)
                    extra = self.binary("rem", a, span, gshape, c)
                    flips = self.unary("floor", self.binary("div", a, span, gshape, c), gshape, c)
                    even = self._cmp("eq", gshape, self.binary("rem", flips, 2, gshape, c), 0)
                    t = self.op_where(v, even, self.binary("add", extra, lo, gshape, c),
                                      self.binary("sub", span + lo, extra, gshape, c))
            if padding_mode in (1, 2):
                t = self.binary("min", self.binary("max", t, 0, gshape, c), size - 1, gshape, c)
            return t
        ix, iy = coordinate(0, w), coordinate(1, h)
        xc = self.cast(x, c)

        def tap(px, py, weight):
            """weight * input[n, :, py, px] over the output, zero outside."""
            inside = self.binary("and", self.binary(
                "and", self._cmp("ge", gshape, px, 0), self._cmp("lt", gshape, px, w), gshape,
                torch.bool), self.binary("and", self._cmp("ge", gshape, py, 0),
                                         self._cmp("lt", gshape, py, h), gshape, torch.bool),
                gshape, torch.bool)
            weight = self.op_where(v, inside, weight, 0)
            clamp = lambda t, size: self.binary("min", self.binary("max", t, 0, gshape, torch.int64),
                                                size - 1, gshape, torch.int64)
            spread = lambda t: self.broadcast(self.reshape(t, (n, 1) + gshape[1:]), shape)
            read = self._take(xc, [self._iota(shape, 0), self._iota(shape, 1),
                                   spread(clamp(py, h)), spread(clamp(px, w))], shape)
            return self.binary("mul", read, spread(weight), shape, c)
        i64 = lambda t: self.cast(t, torch.int64)
        if interpolation_mode == 1:
            rx, ry = self.op_round(v, ix), self.op_round(v, iy)
            return self.cast(tap(i64(rx), i64(ry), self.const(1, gshape, c)), val.dtype)
        x0, y0 = self.unary("floor", ix, gshape, c), self.unary("floor", iy, gshape, c)
        x1, y1 = self.binary("add", x0, 1, gshape, c), self.binary("add", y0, 1, gshape, c)
        sub = lambda a, b: self.binary("sub", a, b, gshape, c)
        mul = lambda a, b: self.binary("mul", a, b, gshape, c)
        out = None
        for px, py, wt in ((x0, y0, mul(sub(x1, ix), sub(y1, iy))),
                           (x1, y0, mul(sub(ix, x0), sub(y1, iy))),
                           (x0, y1, mul(sub(x1, ix), sub(iy, y0))),
                           (x1, y1, mul(sub(ix, x0), sub(iy, y0)))):
            t = tap(i64(px), i64(py), wt)
            out = t if out is None else self.binary("add", out, t, shape, c)
        return self.cast(out, val.dtype)

    # -- reductions with indices ------------------------------------------
    def _arg_extreme(self, kind, x, d, keepdim, dtype=torch.int64):
        """The index of the first maximum (kind "max") or minimum along d:
        the smallest position whose element equals the reduced value."""
        kept = x.shape[:d] + (1,) + x.shape[d + 1:]
        top = self.emit(f"xtensor.reduce {kind} {x.name} dims [{d}] keepdim : {x.type} -> "
                        f"{tensor_type(kept, x.dtype)}", kept, x.dtype)
        hit = self._cmp("eq", x.shape, x, self.broadcast(top, x.shape))
        pos = self._iota(x.shape, d)
        far = self.const(x.shape[d], x.shape, torch.int64)
        cand = self.emit(f"xtensor.select {hit.name}, {pos.name}, {far.name} : {pos.type}",
                         x.shape, torch.int64)
        shape = kept if keepdim else x.shape[:d] + x.shape[d + 1:]
        kd = " keepdim" if keepdim else ""
        first = self.emit(f"xtensor.reduce min {cand.name} dims [{d}]{kd} : {cand.type} -> "
                          f"{tensor_type(shape, torch.int64)}", shape, torch.int64)
        return top, self.cast(first, dtype)

    def _extreme_dim(self, kind, val, input, dim, keepdim):
        x = input if input.shape else self.reshape(input, (1,))
        d = dim % len(x.shape)
        values = self._reduce(kind, val[0], x, [d], keepdim)
        _, indices = self._arg_extreme(kind, x, d, keepdim)
        return [values, self.reshape(indices, val[1].shape)]

    def _arg(self, kind, val, input, dim=None, keepdim=False):
        x = input
        if dim is None:
            x, d = self.reshape(x, (max(1, math.prod(x.shape)),)), 0
        else:
            x = x if x.shape else self.reshape(x, (1,))
            d = dim % len(x.shape)
        _, indices = self._arg_extreme(kind, x, d, keepdim)
        return self.reshape(indices, val.shape)

    def op_argmax(self, val, input, dim=None, keepdim=False):
        return self._arg("max", val, input, dim, keepdim)

    def op_argmin(self, val, input, dim=None, keepdim=False):
        return self._arg("min", val, input, dim, keepdim)

    def op_any(self, val, input, dim=None, keepdim=False):
        return self._reduce("any", val, self.cast(input, torch.bool), dim, keepdim)

    def op_all(self, val, input, dim=None, keepdim=False):
        return self._reduce("all", val, self.cast(input, torch.bool), dim, keepdim)

    def op__assert_async(self, val, **unused):
        # A runtime check of data (one_hot's range check): xtile's kernels
        # do not raise; the check is dropped.
        return None

    # -- group norm and pooling ------------------------------------------
    def op_native_group_norm(self, val, input, weight, bias, N, C, HxW, group, eps):
        if input.dtype in (torch.float16, torch.bfloat16):
            # Normalized and scaled in f32, rounded once (as PyTorch).
            wide = [_Shape(v.shape, torch.float32) for v in val]
            f32 = lambda t: None if t is None else self.cast(t, torch.float32)
            outs = self.op_native_group_norm(wide, f32(input), f32(weight), f32(bias),
                                             N, C, HxW, group, eps)
            return [self.cast(o, v.dtype) for o, v in zip(outs, val)]
        x = input
        per = (C // group) * HxW
        grouped = self.reshape(x, (N, group, per))
        y = self.emit(f"xtensor.layer_norm {grouped.name} eps {_float_literal(eps)} : "
                      f"({grouped.type}) -> {grouped.type}", grouped.shape, x.dtype)
        y = self.reshape(y, x.shape)
        channel = (1, C) + (1,) * (len(x.shape) - 2)
        if weight is not None:
            y = self.binary("mul", y, self.reshape(weight, channel), x.shape, x.dtype)
        if bias is not None:
            y = self.binary("add", y, self.reshape(bias, channel), x.shape, x.dtype)
        # The statistics (rarely used: dead code unless returned).
        mean, rstd = self._norm_stats(self.reshape(grouped, (N * group, per)), eps,
                                      val[1].dtype)
        return [y, self.reshape(mean, (N, group)), self.reshape(rstd, (N, group))]

    def _patches(self, x, kernel, stride, padding, dilation, out, fill):
        """[n, c, *out, *kernel]: the windows of x (padded with `fill`)."""
        sp = len(kernel)
        x = self._pad(x, [0, 0] + list(padding), [0, 0] + list(padding), fill)
        n, c = x.shape[:2]
        shape = (n, c) + tuple(out) + tuple(kernel)
        coords = [self._iota(shape, 0), self._iota(shape, 1)]
        for d in range(sp):
            at = self.binary("mul", self._iota(shape, 2 + d), stride[d], shape, torch.int64)
            off = self.binary("mul", self._iota(shape, 2 + sp + d), dilation[d], shape,
                              torch.int64)
            coords.append(self.binary("add", at, off, shape, torch.int64))
        return self._take(x, coords, shape), shape

    def _pool_geometry(self, val, input, kernel_size, stride, padding, dilation=1):
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

    def _batched(self, spatial, fn, val, input, *args, **kwargs):
        """fn of a batched input ([N, C, *spatial]); an unbatched one
        ([C, *spatial]) is a batch of one."""
        if len(input.shape) == spatial + 2:
            return fn(val, input, *args, **kwargs)
        one = lambda v: _Shape((1,) + tuple(v.shape), v.dtype)
        x = self.reshape(input, (1,) + input.shape)
        if isinstance(val, (list, tuple)):
            outs = fn([one(v) for v in val], x, *args, **kwargs)
            return [self.reshape(o, v.shape) for o, v in zip(outs, val)]
        return self.reshape(fn(one(val), x, *args, **kwargs), val.shape)

    def op_max_pool2d_with_indices(self, val, input, *args, **kwargs):
        return self._batched(2, self._max_pool, val, input, *args, **kwargs)

    def op_max_pool3d_with_indices(self, val, input, *args, **kwargs):
        return self._batched(3, self._max_pool, val, input, *args, **kwargs)

    def op_avg_pool1d(self, val, input, *args, **kwargs):
        return self._batched(1, self._avg_pool, val, input, *args, **kwargs)

    def op_avg_pool2d(self, val, input, *args, **kwargs):
        return self._batched(2, self._avg_pool, val, input, *args, **kwargs)

    def op_avg_pool3d(self, val, input, *args, **kwargs):
        return self._batched(3, self._avg_pool, val, input, *args, **kwargs)

    def _max_pool(self, val, input, kernel_size, stride=(), padding=0, dilation=1,
                  ceil_mode=False):
        x = input
        kernel, stride, padding, dilation, out = self._pool_geometry(
            val, x, kernel_size, stride, padding, dilation)
        lowest = self._identity("max", x.dtype)
        # Windows that run past the bottom/right edge (ceil_mode) read the
        # padding too: pad enough on the high side.
        high = self._ceil_padding(x, kernel, stride, padding, dilation, out)
        xp = self._pad(x, [0, 0] + [0] * len(kernel), [0, 0] + high, lowest)
        win, wshape = self._patches(xp, kernel, stride, padding, dilation, out, lowest)
        n, c = x.shape[:2]
        flat = tuple(wshape[:2 + len(out)]) + (math.prod(kernel),)
        win = self.reshape(win, flat)
        values, k = self._arg_extreme("max", win, len(flat) - 1, False)
        # The flat input index of each window's first maximum.
        index = None
        kk = k
        for d in reversed(range(len(kernel))):
            kd = self.emit(f"xtensor.rem {kk.name}, {self.const(kernel[d], kk.shape, torch.int64).name}"
                           f" : {kk.type}", kk.shape, torch.int64)
            kk = self.emit(f"xtensor.div {kk.name}, {self.const(kernel[d], kk.shape, torch.int64).name}"
                           f" : {kk.type}", kk.shape, torch.int64)
            pos = self.binary("add", self.binary("mul", self._iota(kk.shape, 2 + d), stride[d],
                                                 kk.shape, torch.int64),
                              self.binary("mul", kd, dilation[d], kk.shape, torch.int64),
                              kk.shape, torch.int64)
            pos = self.binary("sub", pos, padding[d], kk.shape, torch.int64)
            scale = math.prod(x.shape[3 + d:])
            term = self.binary("mul", pos, scale, kk.shape, torch.int64) if scale != 1 else pos
            index = term if index is None else self.binary("add", index, term, kk.shape, torch.int64)
        values = self.reshape(values, val[0].shape)
        return [values, self.reshape(index, val[1].shape)]

    def _ceil_padding(self, x, kernel, stride, padding, dilation, out):
        """How far ceil_mode's last windows run past the padded input, per
        spatial dimension."""
        return [max(0, (o - 1) * s + (k - 1) * dl + 1 - (n + 2 * p))
                for o, s, k, dl, n, p in zip(out, stride, kernel, dilation,
                                             x.shape[2:], padding)]

    def _avg_pool(self, val, input, kernel_size, stride=(), padding=0, ceil_mode=False,
                  count_include_pad=True, divisor_override=None):
        x = input
        kernel, stride, padding, dilation, out = self._pool_geometry(
            val, x, kernel_size, stride, padding)
        sp = len(kernel)
        extra = self._ceil_padding(x, kernel, stride, padding, dilation, out)
        xp = self._pad(x, [0] * (2 + sp), [0, 0] + extra)
        win, wshape = self._patches(xp, kernel, stride, padding, dilation, out, 0)
        dims = list(range(2 + sp, 2 + 2 * sp))
        acc = torch.float32 if val.dtype in (torch.float16, torch.bfloat16) else val.dtype
        win = self.cast(win, acc)
        total = self.emit(f"xtensor.reduce sum {win.name} dims {dims} : {win.type} -> "
                          f"{tensor_type(val.shape, acc)}", tuple(val.shape), acc)
        if divisor_override:
            count = divisor_override
        else:
            # The positions of each window inside the padded input
            # (count_include_pad) or the input itself; ceil_mode's last
            # windows are clipped either way.
            inside = None
            for d in range(sp):
                lo, hi = ((0, x.shape[2 + d] + 2 * padding[d]) if count_include_pad
                          else (padding[d], padding[d] + x.shape[2 + d]))
                p = self.binary("add", self.binary("mul", self._iota(wshape, 2 + d), stride[d],
                                                   wshape, torch.int64),
                                self._iota(wshape, 2 + sp + d), wshape, torch.int64)
                ok = self.binary("and", self._cmp("ge", wshape, p, lo),
                                 self._cmp("lt", wshape, p, hi), wshape, torch.bool)
                inside = ok if inside is None else self.binary("and", inside, ok, wshape, torch.bool)
            ones = self.cast(inside, acc)
            count = self.emit(f"xtensor.reduce sum {ones.name} dims {dims} : {ones.type} -> "
                              f"{tensor_type(val.shape, acc)}", tuple(val.shape), acc)
        return self.cast(self.binary("div", total, count, val.shape, acc), val.dtype)

    # -- scatters (the functional forms of assignments) -----------------
    def op_slice_scatter(self, val, input, src, dim=0, start=None, end=None, step=1):
        x = input
        rank = len(x.shape)
        d = dim % rank
        n = x.shape[d]
        start = 0 if start is None else (start + n if start < 0 else start)
        start = min(max(start, 0), n)
        count = src.shape[d]
        if count == 0:
            return self.operand(x, val.shape, val.dtype)
        src = self.cast(src, val.dtype)
        if step == 1:
            low, high = [0] * rank, [0] * rank
            low[d], high[d] = start, n - start - count
            placed = self._pad(src, low, high)
        else:
            # src's element for position i along d: (i - start) / step.
            coords = [self._iota(x.shape, m) for m in range(rank)]
            at = self.binary("sub", coords[d], start, x.shape, torch.int64)
            at = self.binary("max", at, 0, x.shape, torch.int64)
            at = self.emit(f"xtensor.div {at.name}, {self.const(step, x.shape, torch.int64).name}"
                           f" : {at.type}", x.shape, torch.int64)
            coords[d] = self.binary("min", at, count - 1, x.shape, torch.int64)
            placed = self._take(src, coords, x.shape)
        i = self._iota(x.shape, d)
        off = self.binary("sub", i, start, x.shape, torch.int64)
        inside = self.binary("and", self._cmp("ge", x.shape, off, 0),
                             self._cmp("lt", x.shape, off, count * step),
                             x.shape, torch.bool)
        if step != 1:
            rem = self.emit(f"xtensor.rem {off.name}, {self.const(step, x.shape, torch.int64).name}"
                            f" : {off.type}", x.shape, torch.int64)
            inside = self.binary("and", inside, self._cmp("eq", x.shape, rem, 0),
                                 x.shape, torch.bool)
        return self.op_where(val, inside, placed, x)

    def op_select_scatter(self, val, input, src, dim, index):
        d = dim % len(input.shape)
        index %= input.shape[d]
        shape = list(input.shape)
        shape[d] = 1
        return self.op_slice_scatter(val, input, self.reshape(src, shape), d,
                                     index, index + 1)

    # -- padding and convolution ----------------------------------------
    def _pad(self, x, low, high, value=0):
        if not any(low) and not any(high):
            return x
        shape = tuple(n + a + b for n, a, b in zip(x.shape, low, high))
        lit = (_float_literal(value, x.dtype) if x.dtype.is_floating_point
               else ("true" if value else "false") if x.dtype == torch.bool
               else str(int(value)))
        return self.emit(f"xtensor.pad {x.name} low {list(low)} high {list(high)} "
                         f"value {lit} : {element_type(x.dtype)} : {x.type} -> "
                         f"{tensor_type(shape, x.dtype)}", shape, x.dtype)

    def op_constant_pad_nd(self, val, input, pad, value=0):
        # pad lists (low, high) pairs from the last dimension backwards;
        # negative amounts crop.
        rank = len(input.shape)
        low, high = [0] * rank, [0] * rank
        for k in range(len(pad) // 2):
            low[rank - 1 - k], high[rank - 1 - k] = pad[2 * k], pad[2 * k + 1]
        return self._pad_or_crop(input, low, high, value)

    def _pad_or_crop(self, x, low, high, value=0):
        """x padded by `low`/`high` per dimension; negative amounts crop."""
        if any(v < 0 for v in low + high):
            starts = [max(-v, 0) for v in low]
            limits = [n - max(-v, 0) for n, v in zip(x.shape, high)]
            shape = tuple(b - a for a, b in zip(starts, limits))
            x = self.emit(f"xtensor.slice {x.name} starts {starts} limits {_limits(limits)} "
                          f"strides {[1] * len(x.shape)} : {x.type} -> "
                          f"{tensor_type(shape, x.dtype)}", shape, x.dtype)
        return self._pad(x, [max(v, 0) for v in low], [max(v, 0) for v in high], value)

    def _edge_pad(self, val, input, padding, reflect):
        """Reflection (the edge not repeated) or replication padding of the
        trailing dimensions: a gather at mirrored or clamped coordinates.
        `padding` lists (low, high) pairs from the last dimension back."""
        x, shape = input, tuple(val.shape)
        rank = len(x.shape)
        if math.prod(shape) == 0:
            return self._fill(val, 0)
        coords = []
        for m in range(rank):
            i = self._iota(shape, m)
            k = rank - 1 - m
            if 2 * k < len(padding):
                n = x.shape[m]
                i = self.binary("sub", i, padding[2 * k], shape, torch.int64)
                if reflect:  # -i below 0, 2(n-1) - i above n-1
                    i = self.unary("abs", i, shape, torch.int64)
                    i = self.binary("sub", n - 1, self.unary(
                        "abs", self.binary("sub", n - 1, i, shape, torch.int64),
                        shape, torch.int64), shape, torch.int64)
                else:
                    i = self.binary("min", self.binary("max", i, 0, shape, torch.int64),
                                    n - 1, shape, torch.int64)
            coords.append(i)
        return self._take(x, coords, shape)

    def op_reflection_pad1d(self, val, input, padding):
        return self._edge_pad(val, input, padding, True)

    def op_replication_pad1d(self, val, input, padding):
        return self._edge_pad(val, input, padding, False)

    op_reflection_pad2d = op_reflection_pad3d = op_reflection_pad1d
    op_replication_pad2d = op_replication_pad3d = op_replication_pad1d

    def op_convolution(self, val, input, weight, bias, stride, padding, dilation,
                       transposed, output_padding, groups):
        """A convolution as a contraction: the input's patches gathered
        into rows (im2col, one gather from the padded input), multiplied by
        the weight flattened to [out, in/groups * kernel] (a batched matmul
        over the groups), plus the bias."""
        if transposed:
            return self._transposed_convolution(val, input, weight, bias, stride, padding,
                                                dilation, output_padding, groups)
        spatial = len(input.shape) - 2
        if spatial < 1:
            raise UnsupportedError("convolution needs a batch and a channel dimension")
        x = input
        if x.dtype != val.dtype:
            x = self.cast(x, val.dtype)
        n, c = x.shape[:2]
        o = weight.shape[0]
        kernel = weight.shape[2:]
        out = tuple(val.shape[2:])
        x = self._pad(x, [0, 0] + list(padding), [0, 0] + list(padding))
        g = groups
        cg = c // g
        # Patch coordinates over [n, *out, g, cg, *kernel].
        pshape = (n,) + out + (g, cg) + tuple(kernel)
        sp = len(out)
        coords = [self._iota(pshape, 0)]
        group = self._iota(pshape, 1 + sp)
        chan = self._iota(pshape, 2 + sp)
        coords.append(self.binary("add", self.binary("mul", group, cg, pshape, torch.int64),
                                  chan, pshape, torch.int64))
        for d in range(sp):
            at = self.binary("mul", self._iota(pshape, 1 + d), stride[d], pshape, torch.int64)
            off = self.binary("mul", self._iota(pshape, 3 + sp + d), dilation[d],
                              pshape, torch.int64)
            coords.append(self.binary("add", at, off, pshape, torch.int64))
        patches = self._take(x, coords, pshape)
        rows, k = n * math.prod(out), cg * math.prod(kernel)
        # [n, *out, g, k] -> [g, rows, k]
        cols = self.reshape(patches, (rows, g, k))
        cols = self.transpose(cols, [1, 0, 2])
        w = self.reshape(self.cast(weight, val.dtype), (g, o // g, k))
        w = self.transpose(w, [0, 2, 1])
        # 16-bit: the f32 accumulator, the bias added to it, one rounding
        # (as PyTorch's convolutions).
        acc = torch.float32 if val.dtype in (torch.float16, torch.bfloat16) else val.dtype
        y = self._matmul(cols, w, (g, rows, o // g), acc)
        # [g, rows, o/g] -> [n, *out, o] -> [n, o, *out]
        y = self.reshape(self.transpose(y, [1, 0, 2]), (n,) + out + (o,))
        if bias is not None:
            y = self.binary("add", y, bias, y.shape, acc)
        y = self.transpose(y, [0, sp + 1] + list(range(1, sp + 1)))
        return self.cast(y, val.dtype)

    def _transposed_convolution(self, val, input, weight, bias, stride, padding, dilation,
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
        z = self._pad(self.reshape(x, inter), [0] * len(inter),
                      [0, 0] + [v for st in stride for v in (0, st - 1)])
        z = self.reshape(z, [n, c] + [i * st for i, st in zip(x.shape[2:], stride)])
        edge = [dl * (k - 1) - p for k, dl, p in zip(kernel, dilation, padding)]
        last = [(i - 1) * st + 1 - i * st for i, st in zip(x.shape[2:], stride)]
        z = self._pad_or_crop(z, [0, 0] + edge,
                              [0, 0] + [e + l + op for e, l, op in zip(edge, last, output_padding)])
        # [c, o/g, *k] -> [o, c/g, *k], flipped.
        o = w.shape[1] * g
        w = self.reshape(w, (g, c // g, o // g) + tuple(kernel))
        w = self.transpose(w, [0, 2, 1] + list(range(3, 3 + sp)))
        w = self.reshape(w, (o, c // g) + tuple(kernel))
        w = self.op_flip(_Shape(w.shape, w.dtype), w, list(range(2, 2 + sp)))
        return self.op_convolution(val, z, w, bias, [1] * sp, [0] * sp, dilation, False,
                                   [0] * sp, groups)

    def op__cdist_forward(self, val, x1, x2, p, compute_mode=None):
        # Every difference, reduced: exact where PyTorch's matrix-product
        # form for p = 2 cancels.
        shape, dtype = tuple(val.shape), val.dtype
        batch = shape[:-2]
        m = x1.shape[-1]
        wide = shape + (m,)
        a = self.broadcast(self.reshape(x1, x1.shape[:-1] + (1, m)), wide)
        b = self.broadcast(self.reshape(x2, x2.shape[:-2] + (1,) + x2.shape[-2:]), wide)
        return self._p_norm(self.binary("sub", a, b, wide, dtype), p, val)

    def op__pdist_forward(self, val, input, p=2):
        # The distances of the rows i < j, pair t in row-major order of
        # (i, j): row i's pairs start at s(i) = i (2n - i - 1) / 2, so i is
        # the number of rows r >= 1 with s(r) <= t, and j = t - s(i) + i + 1.
        n, m = input.shape
        pairs = n * (n - 1) // 2
        if not pairs:
            return self._fill(val, 0)
        i64 = torch.int64

        def start(r, shape):
            return self.emit(f"xtensor.div {self.binary('mul', r, self.binary('sub', 2 * n - 1, r, shape, i64), shape, i64).name}, "
                             f"{self.const(2, shape, i64).name} : {tensor_type(shape, i64)}",
                             shape, i64)
        wide = (pairs, n - 1)
        r = self.binary("add", self._iota(wide, 1), 1, wide, i64)
        t = self._iota(wide, 0)
        below = self.cast(self._cmp("le", wide, start(r, wide), t), i64)
        i = self.emit(f"xtensor.reduce sum {below.name} dims [1] : {below.type} -> "
                      f"{tensor_type((pairs,), i64)}", (pairs,), i64)
        j = self.binary("add", self.binary("sub", self._iota((pairs,), 0), start(i, (pairs,)),
                                           (pairs,), i64), self.binary("add", i, 1, (pairs,), i64),
                        (pairs,), i64)
        d = self.binary("sub", self._gather(None, input, i, 0), self._gather(None, input, j, 0),
                        (pairs, m), val.dtype)
        return self._p_norm(d, p, val)

    def _p_norm(self, d, p, val):
        """The p-norm of d over its last dimension, of val's shape."""
        shape, dtype = tuple(val.shape), val.dtype
        last = len(d.shape) - 1

        def reduce(kind, t):
            return self.emit(f"xtensor.reduce {kind} {t.name} dims [{last}] : {t.type} -> "
                             f"{tensor_type(shape, dtype)}", shape, dtype)
        a = self.unary("abs", d, d.shape, dtype)
        if p == 0:
            return reduce("sum", self.cast(self._cmp("ne", d.shape, d, 0), dtype))
        if p == 1:
            return reduce("sum", a)
        if math.isinf(p):
            return reduce("max", a)
        if p == 2:
            return self.unary("sqrt", reduce("sum", self.binary("mul", d, d, d.shape, dtype)),
                              shape, dtype)
        return self.binary("pow", reduce("sum", self.binary("pow", a, p, d.shape, dtype)),
                           1 / p, shape, dtype)


class _Shape:
    """A stand-in for a node's value where only the shape matters."""

    def __init__(self, shape, dtype=torch.bool):
        self.shape, self.dtype = tuple(shape), dtype


# Elementwise ops with one name on both sides, and comparisons.
for _name in ["neg", "abs", "exp", "exp2", "log", "log2", "sqrt", "rsqrt",
              "reciprocal", "sin", "cos", "tanh", "erf", "sigmoid", "floor",
              "ceil"]:
    setattr(Importer, "op_" + _name,
            lambda self, val, input, _n=_name: self.unary(_n, input, val.shape, val.dtype))
for _name in ["eq", "ne", "lt", "le", "gt", "ge"]:
    setattr(Importer, "op_" + _name,
            lambda self, val, input, other, _p=_name: self._cmp(_p, val.shape, input, other))
for _name, _kind in [("sum", "sum"), ("amax", "max"), ("amin", "min"),
                     ("prod", "prod")]:
    setattr(Importer, "op_" + _name,
            lambda self, val, input, dim=None, keepdim=False, dtype=None, _k=_kind:
            self._reduce(_k, val, input, dim, keepdim, dtype))


def import_exported(exported, name="forward", params_as_constants=False):
    """(Tensor IR text, the importer) of a torch.export ExportedProgram."""
    imp = Importer(exported, name, params_as_constants)
    return imp.run(), imp


def supported_ops():
    """The ATen operators (packet names) the importer has a handler for."""
    return sorted(name[3:] for name in dir(Importer) if name.startswith("op_"))


def supported_ops_markdown():
    """The supported-op list of docs/Frontend.md, generated from the
    handlers (scripts/update-docs.sh writes it there)."""
    ops = supported_ops()
    kept = sorted({k.split(".")[0] for k in KEPT})
    paragraphs = [f"{len(ops)} ATen operators, every overload of each (bound "
                  "by its schema); kept whole rather than decomposed: "
                  + ", ".join(f"`{k}`" for k in kept) + ".",
                  ", ".join(f"`{op}`" for op in ops) + "."]
    return "\n\n".join(textwrap.fill(p, 79, break_long_words=False)
                       for p in paragraphs) + "\n"
