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


_INF = {torch.float32: ("0x7F800000", "0xFF800000"),
        torch.float16: ("0x7C00", "0xFC00"),
        torch.bfloat16: ("0x7F80", "0xFF80"),
        torch.float64: ("0x7FF0000000000000", "0xFFF0000000000000")}


def _float_literal(v, dtype=torch.float32):
    if math.isinf(v):
        return _INF[dtype][1 if v < 0 else 0]
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
        name = getattr(target, "_schema", None)
        name = name.name.split("::")[-1] if name else getattr(target, "__name__", str(target))
        overload = getattr(target, "_overloadname", "")
        val = node.meta.get("val")
        args = [self.arg(a) for a in node.args]
        kwargs = {k: self.arg(v) for k, v in node.kwargs.items()}
        if name == "getitem":
            return args[0][args[1]]
        handler = getattr(self, "op_" + name, None)
        if handler is None:
            raise UnsupportedError(
                f"operator aten.{name}.{overload or 'default'} is not supported by xtile")
        return handler(val, *args, **kwargs)

    # -- elementwise ---------------------------------------------------
    def _ew(self, op):
        def handler(val, *a, **k):
            if len(a) == 1:
                return self.unary(op, a[0], val.shape, val.dtype)
            return self.binary(op, a[0], a[1], val.shape, val.dtype)
        return handler

    def op_add(self, val, a, b, alpha=1):
        if alpha != 1:
            b = self.binary("mul", b, alpha, val.shape, val.dtype)
        return self.binary("add", a, b, val.shape, val.dtype)

    def op_sub(self, val, a, b, alpha=1):
        if alpha != 1:
            b = self.binary("mul", b, alpha, val.shape, val.dtype)
        return self.binary("sub", a, b, val.shape, val.dtype)

    def op_rsub(self, val, a, b, alpha=1):
        return self.op_sub(val, b, a, alpha)

    def op_mul(self, val, a, b):
        return self.binary("mul", a, b, val.shape, val.dtype)

    def op_div(self, val, a, b, rounding_mode=None):
        if rounding_mode is not None:
            raise UnsupportedError(f"div with rounding_mode={rounding_mode!r} is not supported")
        return self.binary("div", a, b, val.shape, val.dtype)

    def op_maximum(self, val, a, b):
        return self.binary("max", a, b, val.shape, val.dtype)

    def op_minimum(self, val, a, b):
        return self.binary("min", a, b, val.shape, val.dtype)

    def op_relu(self, val, x):
        return self.binary("max", x, 0.0, val.shape, val.dtype)

    def op_pow(self, val, x, e):
        if isinstance(e, (int, float)):
            if e == 2:
                return self.binary("mul", x, x, val.shape, val.dtype)
            if e == 1:
                return self.operand(x, val.shape, val.dtype)
            if e == 0.5:
                return self.unary("sqrt", x, val.shape, val.dtype)
            if e == -0.5:
                return self.unary("rsqrt", x, val.shape, val.dtype)
            if e == -1:
                return self.unary("reciprocal", x, val.shape, val.dtype)
        return self.binary("pow", x, e, val.shape, val.dtype)

    def op_where(self, val, c, a, b):
        c = self.broadcast(c, val.shape)
        a = self.operand(a, val.shape, val.dtype)
        b = self.operand(b, val.shape, val.dtype)
        return self.emit(f"xtensor.select {c.name}, {a.name}, {b.name} : "
                         f"{a.type}", val.shape, val.dtype)

    def _cmp(self, pred):
        def handler(val, a, b):
            dtype = a.dtype if isinstance(a, _Value) else b.dtype
            shape = val.shape
            a = self.operand(a, shape, dtype)
            b = self.operand(b, shape, dtype)
            return self.emit(f"xtensor.cmp {pred}, {a.name}, {b.name} : {a.type}",
                             shape, torch.bool)
        return handler

    def op__to_copy(self, val, x, **kw):
        return self.cast(x, val.dtype)

    op_to = op__to_copy

    def op_type_as(self, val, x, other):
        return self.cast(x, val.dtype)

    # -- identity and movement -----------------------------------------
    def _identity(self, val, x, *a, **k):
        return x

    op_clone = op_contiguous = op_alias = op_detach = op_lift_fresh_copy = _identity

    def op_dropout(self, val, x, p=0.5, train=False):
        if train and p > 0:
            raise UnsupportedError("dropout in training mode is not supported (export the model in eval mode)")
        return x

    def op_view(self, val, x, shape):
        return self.reshape(x, val.shape)

    op_reshape = op__unsafe_view = op_view

    def op_flatten(self, val, x, *a):
        return self.reshape(x, val.shape)

    def op_unsqueeze(self, val, x, dim):
        return self.reshape(x, val.shape)

    def op_squeeze(self, val, x, *a):
        return self.reshape(x, val.shape)

    def op_expand(self, val, x, shape, implicit=False):
        return self.broadcast(x, val.shape)

    def op_permute(self, val, x, dims):
        return self.transpose(x, [d % len(x.shape) for d in dims])

    def op_transpose(self, val, x, d0, d1):
        perm = list(range(len(x.shape)))
        d0, d1 = d0 % len(perm), d1 % len(perm)
        perm[d0], perm[d1] = perm[d1], perm[d0]
        return self.transpose(x, perm)

    def op_t(self, val, x):
        return self.transpose(x, [1, 0]) if len(x.shape) == 2 else x

    def op_slice(self, val, x, dim=0, start=None, end=None, step=1):
        dim %= len(x.shape)
        size = x.shape[dim]
        start = 0 if start is None else (start + size if start < 0 else start)
        end = size if end is None else (end + size if end < 0 else min(end, size))
        starts = [0] * len(x.shape)
        limits = list(x.shape)
        strides = [1] * len(x.shape)
        starts[dim], limits[dim], strides[dim] = start, end, step
        return self.emit(f"xtensor.slice {x.name} starts {starts} limits {limits} "
                         f"strides {strides} : {x.type} -> "
                         f"{tensor_type(val.shape, x.dtype)}", val.shape, x.dtype)

    def op_select(self, val, x, dim, index):
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

    def op_split(self, val, x, size, dim=0):
        dim %= len(x.shape)
        sizes = [size] * (x.shape[dim] // size)
        if x.shape[dim] % size:
            sizes.append(x.shape[dim] % size)
        return self.op_split_with_sizes(val, x, sizes, dim)

    def op_split_with_sizes(self, val, x, sizes, dim=0):
        out, start = [], 0
        dim %= len(x.shape)
        for v, s in zip(val, sizes):
            out.append(self.op_slice(v, x, dim, start, start + s))
            start += s
        return out

    def op_cat(self, val, xs, dim=0):
        xs = [self.cast(x, val.dtype) for x in xs if 0 not in x.shape]
        dim %= len(val.shape)
        names = ", ".join(x.name for x in xs)
        types = ", ".join(x.type for x in xs)
        return self.emit(f"xtensor.concat {names} dim {dim} : {types} -> "
                         f"{tensor_type(val.shape, val.dtype)}", val.shape, val.dtype)

    def op_embedding(self, val, weight, indices, *a):
        return self.emit(f"xtensor.gather {weight.name}[{indices.name}] axis 0 : "
                         f"{weight.type}, {indices.type} -> "
                         f"{tensor_type(val.shape, val.dtype)}", val.shape, val.dtype)

    def op_index_select(self, val, x, dim, index):
        return self.emit(f"xtensor.gather {x.name}[{index.name}] axis {dim % len(x.shape)} : "
                         f"{x.type}, {index.type} -> "
                         f"{tensor_type(val.shape, val.dtype)}", val.shape, val.dtype)

    # -- reductions ----------------------------------------------------
    def _dims(self, x, dims):
        if dims is None or dims == []:
            return list(range(len(x.shape)))
        if isinstance(dims, int):
            dims = [dims]
        return sorted(d % len(x.shape) for d in dims)

    def op_mean(self, val, x, dims=None, keepdim=False, dtype=None):
        dims = self._dims(x, dims)
        kd = " keepdim" if keepdim else ""
        return self.emit(f"xtensor.mean {x.name} dims {dims}{kd} : {x.type} -> "
                         f"{tensor_type(val.shape, x.dtype)}", val.shape, x.dtype)

    def _reduce(self, kind):
        def handler(val, x, dims=None, keepdim=False, dtype=None):
            dims = self._dims(x, dims)
            kd = " keepdim" if keepdim else ""
            return self.emit(f"xtensor.reduce {kind} {x.name} dims {dims}{kd} : "
                             f"{x.type} -> {tensor_type(val.shape, x.dtype)}",
                             val.shape, x.dtype)
        return handler

    def op_var(self, val, x, dims=None, unbiased=None, keepdim=False, correction=None):
        dims = self._dims(x, dims)
        corr = 1 if correction is None else int(correction)
        if unbiased is False:
            corr = 0
        kd = " keepdim" if keepdim else ""
        return self.emit(f"xtensor.var {x.name} dims {dims}{kd} correction {corr} : "
                         f"{x.type} -> {tensor_type(val.shape, x.dtype)}",
                         val.shape, x.dtype)

    # -- composites ----------------------------------------------------
    def op_softmax(self, val, x, dim, half_to_float=False, dtype=None):
        x = self.cast(x, val.dtype)
        return self.emit(f"xtensor.softmax {x.name} dim {dim % len(x.shape)} : {x.type}",
                         val.shape, val.dtype)

    op__softmax = op_softmax

    def op_log_softmax(self, val, x, dim, half_to_float=False, dtype=None):
        x = self.cast(x, val.dtype)
        return self.emit(f"xtensor.log_softmax {x.name} dim {dim % len(x.shape)} : {x.type}",
                         val.shape, val.dtype)

    op__log_softmax = op_log_softmax

    def op_gelu(self, val, x, approximate="none"):
        kind = "tanh" if approximate == "tanh" else "erf"
        return self.emit(f"xtensor.gelu {kind} {x.name} : {x.type}", val.shape, val.dtype)

    def op_silu(self, val, x):
        return self.emit(f"xtensor.silu {x.name} : {x.type}", val.shape, val.dtype)

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

    def op_layer_norm(self, val, x, normalized_shape, weight=None, bias=None,
                      eps=1e-5, cudnn_enable=True):
        return self._norm("layer_norm", val, x, normalized_shape, eps,
                          [("weight", weight), ("bias", bias)])

    def op_rms_norm(self, val, x, normalized_shape, weight=None, eps=None):
        if eps is None:
            eps = torch.finfo(x.dtype).eps
        return self._norm("rms_norm", val, x, normalized_shape, eps,
                          [("weight", weight)])

    def op_linear(self, val, x, weight, bias=None):
        k = x.shape[-1]
        rows = math.prod(x.shape[:-1])
        x2 = self.reshape(x, (rows, k))
        n = weight.shape[0]
        ops = f"{x2.name}, {weight.name}" + (f", {bias.name}" if bias is not None else "")
        types = f"{x2.type}, {weight.type}" + (f", {bias.type}" if bias is not None else "")
        y = self.emit(f"xtensor.linear {ops} : ({types}) -> "
                      f"{tensor_type((rows, n), x.dtype)}", (rows, n), x.dtype)
        return self.reshape(y, val.shape)

    def _matmul(self, a, b, val):
        shape = tuple(val.shape)
        if len(a.shape) == 1 or len(b.shape) == 1:
            raise UnsupportedError("matmul with a vector operand is not supported")
        batch = shape[:-2]
        a = self.broadcast(a, batch + a.shape[-2:])
        b = self.broadcast(b, batch + b.shape[-2:])
        return self.emit(f"xtensor.matmul {a.name}, {b.name} : {a.type}, {b.type} -> "
                         f"{tensor_type(shape, val.dtype)}", shape, val.dtype)

    def op_matmul(self, val, a, b):
        return self._matmul(a, b, val)

    op_mm = op_bmm = op_matmul

    def op_addmm(self, val, bias, a, b, beta=1, alpha=1):
        m = self._matmul(a, b, val)
        return self.binary("add", m, bias, val.shape, val.dtype)

    def op_scaled_dot_product_attention(self, val, q, k, v, attn_mask=None,
                                        dropout_p=0.0, is_causal=False,
                                        scale=None, enable_gqa=False):
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

        class V:
            shape, dtype = scores_shape, q.dtype
        s = self._matmul(q, kt, V)
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

        class O:
            shape, dtype = tuple(val.shape), val.dtype
        return self._matmul(p, v, O)


# Elementwise ops with one name on both sides, and comparisons.
for _name in ["neg", "abs", "exp", "exp2", "log", "log2", "sqrt", "rsqrt",
              "reciprocal", "sin", "cos", "tanh", "erf", "sigmoid", "floor",
              "ceil"]:
    setattr(Importer, "op_" + _name,
            lambda self, val, x, _n=_name: self.unary(_n, x, val.shape, val.dtype))
for _name, _pred in [("eq", "eq"), ("ne", "ne"), ("lt", "lt"), ("le", "le"),
                     ("gt", "gt"), ("ge", "ge")]:
    setattr(Importer, "op_" + _name,
            lambda self, val, a, b, _p=_pred: Importer._cmp(self, _p)(val, a, b))
for _name, _kind in [("sum", "sum"), ("amax", "max"), ("amin", "min"),
                     ("prod", "prod")]:
    setattr(Importer, "op_" + _name,
            lambda self, val, x, *a, _k=_kind, **k: Importer._reduce(self, _k)(val, x, *a, **k))


def import_exported(exported, name="forward", params_as_constants=False):
    """(Tensor IR text, the importer) of a torch.export ExportedProgram."""
    imp = Importer(exported, name, params_as_constants)
    return imp.run(), imp
