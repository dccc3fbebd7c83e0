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

import torch

_DTYPES = {
    torch.float32: "f32", torch.float16: "f16", torch.bfloat16: "bf16",
    torch.float64: "f64", torch.int64: "i64", torch.int32: "i32",
    torch.bool: "i1", torch.int8: "i8", torch.int16: "i16",
}
_TORCH_DIR = os.path.dirname(torch.__file__)


class UnsupportedError(RuntimeError):
    """An op of the program that xtile cannot import."""


def element_type(dtype):
    if dtype not in _DTYPES:
        raise UnsupportedError(f"dtype {dtype} is not supported by xtile")
    return _DTYPES[dtype]


def tensor_type(shape, dtype):
    dims = "x".join(str(int(d)) for d in shape)
    return f"tensor<{dims + 'x' if dims else ''}{element_type(dtype)}>"


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


class _Value:
    def __init__(self, name, shape, dtype):
        self.name, self.shape, self.dtype = name, tuple(int(d) for d in shape), dtype

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
        self.args = []      # (name, type) of the function's arguments
        self.arg_sources = []  # what feeds each argument at run time

    # -- emission -------------------------------------------------------
    def fresh(self):
        self.count += 1
        return f"%{self.count}"

    def emit(self, text, shape, dtype):
        v = _Value(self.fresh(), shape, dtype)
        self.lines.append(f"    {v.name} = {text} {self.loc}")
        return v

    def const(self, value, shape, dtype):
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
        shape = tuple(int(d) for d in shape)
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
                v = _Value(name, val.shape, val.dtype)
                self.values[node] = v
                self.args.append((name, v.type))
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
                    raise UnsupportedError(f"{e}{where}") from None
            elif node.op == "output":
                outs = node.args[0]
                self.outputs = [self.values[o] for o in outs]
        res = ", ".join(o.type for o in self.outputs)
        args = ", ".join(f"{n}: {t}" for n, t in self.args)
        body = "\n".join(self.lines)
        rets = ", ".join(o.name for o in self.outputs)
        return (f"module {{\n  func.func @{self.name}({args}) -> ({res}) {{\n"
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
        if schema is None:
            name = getattr(target, "__name__", str(target))
            if name == "getitem":
                return args[0][args[1]]
            raise UnsupportedError(f"call of {name} is not supported by xtile")
        name = schema.name.split("::")[-1]
        overload = getattr(target, "_overloadname", "") or "default"
        handler = getattr(self, "op_" + name, None)
        if handler is None:
            raise UnsupportedError(
                f"operator aten.{name}.{overload} is not supported by xtile")
        bound = bind(schema, args, kwargs)
        try:
            result = handler(val, **bound)
        except TypeError as e:
            # A handler that does not take an argument of this overload.
            raise UnsupportedError(
                f"operator aten.{name}.{overload} with arguments "
                f"({', '.join(bound)}) is not supported by xtile ({e})") from None
        self.check(f"aten.{name}.{overload}", result, val)
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
        if not isinstance(val, torch.Tensor):
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
        return self.binary("mul", input, other, val.shape, val.dtype)

    def op_div(self, val, input, other, rounding_mode=None):
        if rounding_mode is not None:
            raise UnsupportedError(f"div with rounding_mode={rounding_mode!r} is not supported")
        if not val.dtype.is_floating_point:
            raise UnsupportedError(f"div with a {val.dtype} result is not supported")
        return self.binary("div", input, other, val.shape, val.dtype)

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

    def _cmp(self, pred, val, input, other):
        # Compared in PyTorch's promoted type (an int tensor against 0.5
        # compares as float).
        meta = [torch.empty(x.shape, dtype=x.dtype, device="meta")
                if isinstance(x, _Value) else x for x in (input, other)]
        dtype = torch.result_type(*meta)
        a = self.operand(input, val.shape, dtype)
        b = self.operand(other, val.shape, dtype)
        return self.emit(f"xtensor.cmp {pred}, {a.name}, {b.name} : {a.type}",
                         val.shape, torch.bool)

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
        start = 0 if start is None else (start + size if start < 0 else start)
        end = size if end is None else (end + size if end < 0 else end)
        start, end = min(max(start, 0), size), min(max(end, 0), size)
        end = max(start, end)
        starts = [0] * len(x.shape)
        limits = list(x.shape)
        strides = [1] * len(x.shape)
        starts[dim], limits[dim], strides[dim] = start, end, step
        return self.emit(f"xtensor.slice {x.name} starts {starts} limits {limits} "
                         f"strides {strides} : {x.type} -> "
                         f"{tensor_type(val.shape, x.dtype)}", val.shape, x.dtype)

    def op_select(self, val, input, dim, index):
        x = input
        dim %= len(x.shape)
        index %= x.shape[dim]
        shape = list(x.shape)
        shape[dim] = 1
        starts = [0] * len(x.shape)
        starts[dim] = index
        limits = list(x.shape)
        limits[dim] = index + 1
        s = self.emit(f"xtensor.slice {x.name} starts {starts} limits {limits} "
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

    def op_mean(self, val, input, dim=None, keepdim=False, dtype=None):
        x, dims = self._reduction(self.cast(input, val.dtype), dim)
        shape = self._reduced_shape(x, dims, keepdim)
        kd = " keepdim" if keepdim else ""
        y = self.emit(f"xtensor.mean {x.name} dims {dims}{kd} : {x.type} -> "
                      f"{tensor_type(shape, x.dtype)}", shape, x.dtype)
        return self.reshape(y, val.shape)

    def _reduce(self, kind, val, input, dim=None, keepdim=False, dtype=None):
        # sum and prod of integers and bools are int64 in PyTorch; dtype=
        # asks for another accumulation type: the result's type is the one
        # reduced in.
        x, dims = self._reduction(self.cast(input, val.dtype), dim)
        shape = self._reduced_shape(x, dims, keepdim)
        kd = " keepdim" if keepdim else ""
        y = self.emit(f"xtensor.reduce {kind} {x.name} dims {dims}{kd} : "
                      f"{x.type} -> {tensor_type(shape, x.dtype)}", shape, x.dtype)
        return self.reshape(y, val.shape)

    def op_var(self, val, input, dim=None, unbiased=True, keepdim=False,
               correction=None):
        x, dims = self._reduction(input, dim)
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
        shape = tuple(shape)
        if len(a.shape) == 1 or len(b.shape) == 1:
            raise UnsupportedError("matmul with a vector operand is not supported")
        batch = shape[:-2]
        a = self.broadcast(a, batch + a.shape[-2:])
        b = self.broadcast(b, batch + b.shape[-2:])
        return self.emit(f"xtensor.matmul {a.name}, {b.name} : {a.type}, {b.type} -> "
                         f"{tensor_type(shape, dtype)}", shape, dtype)

    def op_matmul(self, val, input, other):
        return self._matmul(input, other, val.shape, val.dtype)

    def op_mm(self, val, input, mat2):
        return self._matmul(input, mat2, val.shape, val.dtype)

    op_bmm = op_mm

    def op_addmm(self, val, input, mat1, mat2, beta=1, alpha=1):
        # beta * input + alpha * (mat1 @ mat2); with beta = 0 the input is
        # not read (its NaNs do not propagate), as in PyTorch.
        m = self._matmul(mat1, mat2, val.shape, val.dtype)
        if alpha != 1:
            m = self.binary("mul", m, alpha, val.shape, val.dtype)
        if beta == 0:
            return m
        if beta != 1:
            input = self.binary("mul", self.operand(input, val.shape, val.dtype),
                                beta, val.shape, val.dtype)
        return self.binary("add", m, input, val.shape, val.dtype)

    def op_scaled_dot_product_attention(self, val, query, key, value, attn_mask=None,
                                        dropout_p=0.0, is_causal=False,
                                        scale=None, enable_gqa=False):
        q, k, v = query, key, value
        if dropout_p:
            raise UnsupportedError("scaled_dot_product_attention with dropout is not supported")
        if enable_gqa or q.shape[:-2] != k.shape[:-2]:
            raise UnsupportedError("grouped-query scaled_dot_product_attention is not supported")
        L, S, E = q.shape[-2], k.shape[-2], q.shape[-1]
        batch = q.shape[:-2]
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
        return self._matmul(p, v, val.shape, val.dtype)


# Elementwise ops with one name on both sides, and comparisons.
for _name in ["neg", "abs", "exp", "exp2", "log", "log2", "sqrt", "rsqrt",
              "reciprocal", "sin", "cos", "tanh", "erf", "sigmoid", "floor",
              "ceil"]:
    setattr(Importer, "op_" + _name,
            lambda self, val, input, _n=_name: self.unary(_n, input, val.shape, val.dtype))
for _name in ["eq", "ne", "lt", "le", "gt", "ge"]:
    setattr(Importer, "op_" + _name,
            lambda self, val, input, other, _p=_name: self._cmp(_p, val, input, other))
for _name, _kind in [("sum", "sum"), ("amax", "max"), ("amin", "min"),
                     ("prod", "prod")]:
    setattr(Importer, "op_" + _name,
            lambda self, val, input, dim=None, keepdim=False, dtype=None, _k=_kind:
            self._reduce(_k, val, input, dim, keepdim, dtype))


def import_exported(exported, name="forward", params_as_constants=False):
    """(Tensor IR text, the importer) of a torch.export ExportedProgram."""
    imp = Importer(exported, name, params_as_constants)
    return imp.run(), imp
