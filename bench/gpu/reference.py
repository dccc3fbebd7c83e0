"""Eager PyTorch as the reference of a Tensor IR function: the function, as
`xtile-opt --mlir-print-op-generic` prints it (so that no MLIR is needed
where it runs), is evaluated op by op with torch's own operators,
composites included (F.rms_norm, F.layer_norm, torch.softmax, F.gelu,
F.silu, F.linear, torch.var...), on any device.

Floats are evaluated in float64 without rounding between ops; a `cast` to a
narrower float rounds to it, as the program asks (the semantics of the
float64 reference interpreter, docs/Running.md). Integers are int64,
booleans bool.

    module = reference.parse(text)
    outputs = module.run("rmsnorm", [x, w], sizes={"T": 7})
"""
import re
import struct

try:    # parsing needs no torch (prepare.py checks the ops where xtile is built)
    import torch
    import torch.nn.functional as F
except ImportError:
    torch = F = None

FLOATS = ("f16", "bf16", "f32", "f64")


def storage_dtype(element):
    """The torch type of a Tensor IR element type: what the kernels take."""
    return {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32,
            "f64": torch.float64, "i1": torch.bool, "i32": torch.int32,
            "i64": torch.int64}[element]


def compute_dtype(element):
    """What the reference computes in: float64, int64 or bool."""
    if element in FLOATS:
        return torch.float64
    return torch.bool if element == "i1" else torch.int64


# The xtensor enums, by their values (include/xtile/Dialect/Tensor/IR/
# TensorAttributes.td).
REDUCE_KINDS = ["sum", "prod", "max", "min", "any", "all"]
PREDICATES = ["eq", "ne", "lt", "le", "gt", "ge"]
GELU = ["none", "tanh"]   # erf, tanh: F.gelu's `approximate`


class TensorType:
    """`tensor<4x?x8xf32, #xtensor.dims<T>>`: its sizes (None where dynamic),
    element type and the names of its dynamic sizes, in order."""

    def __init__(self, text):
        m = re.fullmatch(r"tensor<(.*)>", text.strip())
        if not m:
            raise ValueError(f"reference: not a tensor type: {text}")
        body = m.group(1)
        symbols = []
        enc = re.search(r",\s*#xtensor\.dims<([^>]*)>", body)
        if enc:
            symbols = [s.strip() for s in enc.group(1).split(",") if s.strip()]
            body = body[:enc.start()]
        parts = body.strip().split("x")
        self.element = parts[-1]
        self.dims = [None if p == "?" else int(p) for p in parts[:-1]]
        self.symbols = symbols

    def shape(self, sizes):
        dynamic = iter(self.symbols)
        out = []
        for d in self.dims:
            if d is None:
                name = next(dynamic)
                if name not in sizes:
                    raise ValueError(f"reference: no value for the dynamic size {name}")
                out.append(int(sizes[name]))
            else:
                out.append(d)
        return out


def _split_top(text, sep=","):
    """Splits at `sep` outside brackets and quotes."""
    out, depth, cur, quote = [], 0, [], False
    for ch in text:
        if ch == '"':
            quote = not quote
        if not quote:
            if ch in "([{<":
                depth += 1
            elif ch in ")]}>":
                depth -= 1
            elif ch == sep and depth == 0:
                out.append("".join(cur))
                cur = []
                continue
        cur.append(ch)
    if "".join(cur).strip():
        out.append("".join(cur))
    return [s.strip() for s in out]


def _closing(text, start):
    """Index of the bracket closing the one at text[start]."""
    pairs = {"(": ")", "[": "]", "{": "}", "<": ">"}
    stack, quote = [], False
    for i in range(start, len(text)):
        ch = text[i]
        if ch == '"':
            quote = not quote
        if quote:
            continue
        if ch in pairs:
            stack.append(pairs[ch])
        elif stack and ch == stack[-1]:
            stack.pop()
            if not stack:
                return i
    raise ValueError(f"reference: unbalanced: {text[start:start + 80]}")


def _attr(value):
    """An attribute's value: int, float, bool, list of ints (array<...>),
    or the raw text (dense<...> : type, nested dictionaries)."""
    v = value.strip()
    m = re.fullmatch(r"array<i\d+(?::\s*(.*))?>", v)
    if m:
        return [int(x) for x in m.group(1).split(",")] if m.group(1) else []
    if v in ("true", "false"):
        return v == "true"
    m = re.fullmatch(r"(\S+)\s*:\s*(i\d+|f\d+|bf16|index)", v)
    if m and not v.startswith("dense"):
        num, ty = m.groups()
        if ty.startswith("i") or ty == "index":
            return int(num)
        return _float(num, ty)
    return v


def _float(text, element):
    """A float literal of MLIR, decimal or hexadecimal bit pattern."""
    if text.lower().startswith("0x"):
        bits = int(text, 16)
        if element == "f32":
            return struct.unpack("<f", struct.pack("<I", bits))[0]
        if element == "f64":
            return struct.unpack("<d", struct.pack("<Q", bits))[0]
        if element == "f16":
            return struct.unpack("<e", struct.pack("<H", bits))[0]
        if element == "bf16":
            return struct.unpack("<f", struct.pack("<I", bits << 16))[0]
        raise ValueError(f"reference: hexadecimal {element} literal")
    return float(text)


def _attributes(text):
    out = {}
    for item in _split_top(text):
        if "=" in item:
            name, value = item.split("=", 1)
            out[name.strip()] = _attr(value)
        else:
            out[item.strip()] = True     # a unit attribute
    return out


class Op:
    def __init__(self, results, name, operands, attrs, operand_types, result_types):
        self.results, self.name, self.operands = results, name, operands
        self.attrs, self.operand_types = attrs, operand_types
        self.result_types = result_types


class Function:
    def __init__(self, name, args, arg_types, result_types, ops, returns):
        self.name, self.args, self.arg_types = name, args, arg_types
        self.result_types, self.ops, self.returns = result_types, ops, returns


_OP = re.compile(r'^\s*(?:(%[\w.$-]+(?:\s*,\s*%[\w.$-]+)*)\s*=\s*)?"([\w.]+)"\((.*?)\)')


def _types(text):
    """`(t1, t2)` or `t` -> [TensorType...]"""
    t = text.strip()
    if t.startswith("("):
        t = t[1:_closing(t, 0)]
    return [TensorType(x) for x in _split_top(t) if x]


def _signature(text):
    """`(inputs) -> outputs` of a generic op."""
    close = _closing(text, text.index("("))
    ins = _types(text[text.index("("):close + 1])
    outs = text[close + 1:].strip()
    assert outs.startswith("->"), text
    outs = outs[2:].strip()
    return ins, ([] if outs == "()" else _types(outs))


def parse(text):
    """The functions of a module in MLIR's generic form, by name."""
    functions = {}
    current = None
    for line in text.splitlines():
        s = line.strip()
        if s.startswith('"func.func"'):
            props = s[s.index("<{") + 1:_closing(s, s.index("<{") + 1) + 1]
            name = re.search(r'sym_name = "([^"]+)"', props).group(1)
            ftype = re.search(r"function_type = (.*), sym_name", props)
            ins, outs = _signature(ftype.group(1))
            current = Function(name, [], ins, outs, [], [])
            functions[name] = current
            continue
        if s.startswith("^bb0("):
            inner = s[s.index("(") + 1:_closing(s, s.index("("))]
            current.args = [a.split(":")[0].strip() for a in _split_top(inner)]
            continue
        m = _OP.match(s)
        if not m or current is None:
            continue
        results, name, operands = m.groups()
        rest = s[m.end():].strip()
        attrs = {}
        if rest.startswith("<{"):
            end = _closing(rest, 1)
            attrs.update(_attributes(rest[2:end]))
            rest = rest[end + 2:].strip()
        if rest.startswith("{"):
            end = _closing(rest, 0)
            attrs.update(_attributes(rest[1:end]))
            rest = rest[end + 1:].strip()
        assert rest.startswith(":"), s
        ins, outs = _signature(rest[1:].strip())
        operands = [o.strip() for o in operands.split(",") if o.strip()]
        if name == "func.return":
            current.returns = operands
            continue
        results = [r.strip() for r in results.split(",")] if results else []
        current.ops.append(Op(results, name, operands, attrs, ins, outs))
    return Module(functions)


def _dense(text, ttype, shape, device):
    """The value of `dense<...> : tensor<...>`."""
    m = re.match(r"dense<(.*)>\s*:\s*tensor<.*>$", text.strip(), re.S)
    if not m:
        raise NotImplementedError(f"reference: constant {text[:80]}")
    body = m.group(1).strip()
    element = ttype.element
    dtype = compute_dtype(element)

    def scalar(tok):
        tok = tok.strip()
        if tok in ("true", "false"):
            return tok == "true"
        if element in FLOATS:
            return _float(tok, element)
        return int(tok)
    if body.startswith('"0x') and len(shape):
        raise NotImplementedError("reference: hexadecimal dense blobs")
    if not body.startswith("["):
        return torch.full(shape, scalar(body), dtype=dtype, device=device)
    flat = [scalar(t) for t in re.split(r"[\[\],\s]+", body) if t]
    return torch.tensor(flat, dtype=dtype, device=device).reshape(shape)


def _round(x, element):
    """x (float64) rounded to a float element type, kept in float64."""
    if element in ("f16", "bf16", "f32"):
        return x.to(storage_dtype(element)).to(torch.float64)
    return x


class Module:
    def __init__(self, functions):
        self.functions = functions

    def run(self, name, inputs, sizes=None, device=None, round_ops=False):
        """Outputs of function `name` on `inputs` (torch tensors of any
        dtype), in the compute types (float64, int64, bool). round_ops:
        every float result rounded to its element type, as eager PyTorch
        computes in the program's own types: how much the program amplifies
        rounding (the tolerance allows for it, as xtile-run's does)."""
        fn = self.functions[name]
        sizes = dict(sizes or {})
        device = device or (inputs[0].device if inputs else "cpu")
        env = {}
        for arg, ty, x in zip(fn.args, fn.arg_types, inputs):
            env[arg] = x.to(device=device, dtype=compute_dtype(ty.element))
        for op in fn.ops:
            args = [env[o] for o in op.operands]
            out = _evaluate(op, args, sizes, device)
            if round_ops and out.dtype == torch.float64:
                out = _round(out, op.result_types[0].element)
            env[op.results[0]] = out
        return [env[r] for r in fn.returns]


# xtensor op -> torch function (torch.<name>; F.silu for silu).
_UNARY = {"neg": "neg", "abs": "abs", "exp": "exp", "exp2": "exp2", "log": "log",
          "log2": "log2", "sqrt": "sqrt", "rsqrt": "rsqrt", "reciprocal": "reciprocal",
          "sin": "sin", "cos": "cos", "tanh": "tanh", "erf": "erf",
          "sigmoid": "sigmoid", "floor": "floor", "ceil": "ceil", "silu": "silu"}
_BINARY = {"add": "add", "sub": "sub", "mul": "mul", "pow": "pow",
           "max": "maximum", "min": "minimum"}
_IDENTITY = {"sum": 0, "prod": 1, "max": float("-inf"), "min": float("inf"),
             "any": False, "all": True}


def _reduce(kind, x, dims, keepdim):
    if not dims:
        return x
    if any(x.shape[d] == 0 for d in dims):
        shape = [1 if d in dims else s for d, s in enumerate(x.shape)]
        if not keepdim:
            shape = [s for d, s in enumerate(shape) if d not in dims]
        value = _IDENTITY[kind]
        if x.dtype != torch.float64 and kind in ("max", "min"):
            value = torch.iinfo(x.dtype).min if kind == "max" else torch.iinfo(x.dtype).max
        return torch.full(shape, value, dtype=x.dtype, device=x.device)
    if kind == "sum":
        return torch.sum(x, dims, keepdim=keepdim)
    if kind == "prod":
        for d in sorted(dims, reverse=True):
            x = torch.prod(x, d, keepdim=True)
        return x if keepdim else x.squeeze(tuple(dims))
    if kind == "max":
        return torch.amax(x, dims, keepdim=keepdim)
    if kind == "min":
        return torch.amin(x, dims, keepdim=keepdim)
    if kind == "any":
        return _fold_bool(x, dims, keepdim, torch.any)
    if kind == "all":
        return _fold_bool(x, dims, keepdim, torch.all)
    raise NotImplementedError(f"reference: reduce {kind}")


def _fold_bool(x, dims, keepdim, fn):
    for d in sorted(dims, reverse=True):
        x = fn(x, dim=d, keepdim=True)
    return x if keepdim else x.squeeze(tuple(dims))


def _evaluate(op, args, sizes, device):
    name = op.name.split(".", 1)[1]
    a = op.attrs
    rtype = op.result_types[0]
    shape = rtype.shape(sizes)
    element = rtype.element
    if name in _UNARY:
        return (F.silu if name == "silu" else getattr(torch, _UNARY[name]))(args[0])
    if name == "not":
        return torch.logical_not(args[0]) if args[0].dtype == torch.bool \
            else torch.bitwise_not(args[0])
    if name in _BINARY:
        return getattr(torch, _BINARY[name])(args[0], args[1])
    if name == "div":
        if args[0].dtype == torch.float64:
            return args[0] / args[1]
        return torch.div(args[0], args[1], rounding_mode="trunc")
    if name == "rem":
        return torch.fmod(args[0], args[1])
    if name in ("and", "or", "xor"):
        if args[0].dtype == torch.bool:
            return {"and": torch.logical_and, "or": torch.logical_or,
                    "xor": torch.logical_xor}[name](args[0], args[1])
        return {"and": torch.bitwise_and, "or": torch.bitwise_or,
                "xor": torch.bitwise_xor}[name](args[0], args[1])
    if name == "cmp":
        fn = {"eq": torch.eq, "ne": torch.ne, "lt": torch.lt, "le": torch.le,
              "gt": torch.gt, "ge": torch.ge}[PREDICATES[a["predicate"]]]
        return fn(args[0], args[1])
    if name == "select":
        return torch.where(args[0], args[1], args[2])
    if name == "cast":
        x = args[0]
        if element == "i1":
            return x != 0
        if element in FLOATS:
            return _round(x.to(torch.float64), element)
        if x.dtype == torch.float64:
            return torch.trunc(x).to(torch.int64)
        return x.to(torch.int64)
    if name == "constant":
        return _dense(a["value"], rtype, shape, device)
    if name == "iota":
        d = a["dim"]
        idx = torch.arange(shape[d], device=device, dtype=compute_dtype(element))
        view = [1] * len(shape)
        view[d] = shape[d]
        return idx.reshape(view).expand(shape).clone()
    if name == "reduce":
        return _reduce(REDUCE_KINDS[a["kind"]], args[0], list(a["dims"]),
                       bool(a.get("keepdim")))
    if name == "reshape":
        return args[0].reshape(shape)
    if name == "transpose":
        return args[0].permute(a["perm"]).contiguous()
    if name == "broadcast":
        x = args[0]
        x = x.reshape([1] * (len(shape) - x.dim()) + list(x.shape))
        return x.expand(shape).contiguous()
    if name == "slice":
        x = args[0]
        limits = [x.shape[d] if l < 0 else l for d, l in enumerate(a["limits"])]
        index = tuple(slice(s, l, st) for s, l, st in
                      zip(a["starts"], limits, a["strides"]))
        return x[index].contiguous()
    if name == "pad":
        x = args[0]
        value = a["value"]
        if isinstance(value, str):
            value = _attr(value)
        out = torch.full(shape, value, dtype=x.dtype, device=device)
        index = tuple(slice(lo, lo + s) for lo, s in zip(a["low"], x.shape))
        out[index] = x
        return out
    if name == "concat":
        return torch.cat(args, dim=a["dim"])
    if name == "gather":
        x, idx = args
        axis = a["axis"]
        picked = torch.index_select(x, axis, idx.reshape(-1).to(torch.int64))
        return picked.reshape(list(x.shape[:axis]) + list(idx.shape) +
                              list(x.shape[axis + 1:]))
    if name == "matmul":
        return torch.matmul(args[0], args[1])
    # Composites, through torch's own.
    if name == "rms_norm":
        r = a.get("norm_rank", 1)
        x = args[0]
        return F.rms_norm(x, tuple(x.shape[x.dim() - r:]),
                          args[1] if len(args) > 1 else None, a["eps"])
    if name == "layer_norm":
        r = a.get("norm_rank", 1)
        segments = a.get("operandSegmentSizes", [1] * len(args))
        it = iter(args)
        x = next(it)
        w = next(it) if segments[1] else None
        b = next(it) if len(segments) > 2 and segments[2] else None
        return F.layer_norm(x, tuple(x.shape[x.dim() - r:]), w, b, a["eps"])
    if name == "softmax":
        return torch.softmax(args[0], dim=a["dim"])
    if name == "log_softmax":
        return torch.log_softmax(args[0], dim=a["dim"])
    if name == "gelu":
        return F.gelu(args[0], approximate=GELU[a.get("approximation", 0)])
    if name == "mean":
        return torch.mean(args[0], dim=list(a["dims"]), keepdim=bool(a.get("keepdim")))
    if name == "var":
        return torch.var(args[0], dim=list(a["dims"]), correction=a.get("correction", 1),
                         keepdim=bool(a.get("keepdim")))
    if name == "linear":
        return F.linear(args[0], args[1], args[2] if len(args) > 2 else None)
    raise NotImplementedError(f"reference: no eager evaluation of {op.name}")


SUPPORTED = (set(_UNARY) | set(_BINARY) |
             {"not", "div", "rem", "and", "or", "xor", "cmp", "select", "cast",
              "constant", "iota", "reduce", "reshape", "transpose", "broadcast",
              "slice", "pad", "concat", "gather", "matmul", "rms_norm",
              "layer_norm", "softmax", "log_softmax", "gelu", "mean", "var",
              "linear"})


def unsupported(module):
    """The xtensor ops of `module` this evaluator does not know."""
    return sorted({op.name for fn in module.functions.values() for op in fn.ops
                   if op.name.split(".", 1)[1] not in SUPPORTED})
