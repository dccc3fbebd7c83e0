"""The walk over an exported graph: its inputs become the function's
arguments (or constants), each ATen call is bound to its schema and
handed to the lowering registered for it, and what comes back is checked
against the shape and dtype PyTorch computed."""
import os

import torch

from .complex import Complex, is_complex
from .errors import DynamicSizeError, UnsupportedError, why_unsupported
from .ir import NARROW, IRBuilder, Value
from .registry import COMPLEX_LOWERINGS, LOWERINGS
from .sizes import DynamicSizes, Expr, Shape, SymbolicExpression

_TORCH_DIR = os.path.dirname(torch.__file__)


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
    filled in: lowerings see one form whatever the caller wrote
    (positional, keyword or left out). `self` is passed as `input`."""
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


def _flatten(x):
    if isinstance(x, (list, tuple)):
        return [y for v in x for y in _flatten(v)]
    if isinstance(x, dict):
        return [y for v in x.values() for y in _flatten(v)]
    return [x]


class Importer(IRBuilder):
    """One torch.export ExportedProgram as the Tensor IR function `name`."""

    def __init__(self, exported, name="forward", params_as_constants=False):
        super().__init__()
        self.ep = exported
        self.name = name
        self.params_as_constants = params_as_constants
        self.values = {}
        self.node = None       # the node being imported
        self.args = []         # (name, type) of the function's arguments
        self.arg_sources = []  # what feeds each argument at run time
        self.arg_keys = []     # its input's name, or its buffer's target
        self.arg_shapes = []   # each argument's shape (ints and Sym)
        self.sizes = DynamicSizes(exported)
        self.symbols = self.sizes.symbols  # dynamic size name -> (min, max)

    def arg(self, node):
        if isinstance(node, torch.fx.Node):
            return self.values[node]
        if isinstance(node, (list, tuple)):
            return type(node)(self.arg(n) for n in node)
        return node

    def read_narrowed(self):
        """Whether the graph reads the current node's result only through
        conversions to a 16-bit float (a gradient computed in f32 and
        returned in bf16, say)."""
        def narrows(user):
            name = getattr(user.target, "__name__", "").split(".")[0]
            return name == "_to_copy" and user.kwargs.get("dtype") in (torch.float16,
                                                                       torch.bfloat16)
        users = list(self.node.users) if self.node is not None else []
        return bool(users) and all(narrows(u) for u in users)

    def outputs_used(self):
        """The positions of the current node's results that the graph reads."""
        return {u.args[1] for u in self.node.users
                if getattr(u.target, "__name__", "") == "getitem"}

    def run(self):
        sig = self.ep.graph_signature
        kinds = {spec.arg.name: spec for spec in sig.input_specs}
        state = self.ep.state_dict
        constants = getattr(self.ep, "constants", {})
        for node in self.ep.graph.nodes:
            if node.op == "placeholder":
                self._placeholder(node, kinds.get(node.name), state, constants)
            elif node.op == "call_function":
                self._call_function(node)
            elif node.op == "output":
                outs = node.args[0]
                self.outputs = [self.values[o] for o in outs]
                complex_out = [o for o, v in zip(outs, self.outputs)
                               if isinstance(v, Complex)]
                if complex_out:
                    error = UnsupportedError("a complex result of the graph is not "
                                           "supported by xtile (complex tensors are "
                                           "supported inside it: return "
                                           "torch.view_as_real of it)")
                    error.node = complex_out[0].name
                    raise error
                # Narrow integer results leave in their storage types.
                self.outputs = [self.to_storage(v) if isinstance(v, Value) and v.dtype in NARROW
                                else v for v in self.outputs]
                # A size (a part of a partitioned graph that a later part
                # reads a size from): programs return tensors.
                sizes = [o for o, v in zip(outs, self.outputs) if not isinstance(v, Value)]
                if sizes:
                    error = UnsupportedError(f"a size ({sizes[0].name}) as a result of the "
                                             "graph is not supported by xtile (its programs "
                                             "return tensors)")
                    error.node = sizes[0].name
                    raise error
        # What each result is: the module's own, or the new value of an
        # input or buffer it assigns in place (functionalized), which the
        # caller writes back.
        self.output_roles = [(spec.kind.name, spec.target) for spec in sig.output_specs]
        # A new value of an argument is returned in the argument's buffer
        # (xtensor.in_place) where its type is the argument's.
        self.in_place = [None] * len(self.outputs)
        for r, ((kind, target), out) in enumerate(zip(self.output_roles, self.outputs)):
            if kind.endswith("_MUTATION") and target in self.arg_keys:
                a = self.arg_keys.index(target)
                if self.args[a][1] == out.type:
                    self.in_place[r] = a
        self.buffers = {spec.target: state.get(spec.target, constants.get(spec.target))
                        for spec in sig.input_specs
                        if spec.kind.name in ("BUFFER", "PARAMETER")}
        return self.module(self.name, self.args, self.outputs, self.symbols,
                           self.in_place)

    def _placeholder(self, node, spec, state, constants):
        """An input of the program: a function argument, or a parameter or
        buffer folded in as a constant."""
        val = node.meta["val"]
        if isinstance(val, (int, torch.SymInt)):
            # A size handed to a part of a partitioned graph (see
            # xtile.partition): the size it is, bound through the tensors.
            self.values[node] = self.sizes.size(val)
            return
        is_user = spec is None or spec.kind.name == "USER_INPUT"
        tensor = None
        if not is_user:
            tensor = state.get(spec.target, constants.get(spec.target))
        complex_dtype = val.dtype if val.dtype.is_complex else None
        if complex_dtype is not None:
            # A complex parameter or buffer (a rotary table) is carried as
            # its pairs of reals; a complex user input is not.
            if is_user or tensor is None:
                error = UnsupportedError(
                    f"input {node.name} is a {val.dtype} tensor: a complex input of "
                    "the graph is not supported by xtile (complex tensors are "
                    "supported inside it: pass torch.view_as_real of it)")
                if node.users:   # the op that reads it
                    error.node = next(iter(node.users)).name
                raise error
            tensor = torch.view_as_real(tensor.detach())
            val = tensor
        if not is_user and self.params_as_constants and tensor is not None:
            v = self.constant_tensor(tensor.detach())
            self.values[node] = Complex(v, complex_dtype) if complex_dtype else v
            return
        name = f"%arg{len(self.args)}"
        shape = [self.sizes.size(d) for d in val.shape]
        for i, d in enumerate(shape):
            if isinstance(d, Expr):
                error = DynamicSizeError(
                    f"input {node.name} has the size {d} (dimension {i}), an "
                    "expression of dynamic sizes: xtile supports a dynamic "
                    "size only where it is exactly one symbol (a "
                    "torch.export Dim)")
                if node.users:   # the op that reads it
                    error.node = next(iter(node.users)).name
                raise error
        # A narrow integer input arrives in its storage type (i8, i16).
        v = Value(name, shape, val.dtype, stored=val.dtype in NARROW)
        self.args.append((name, v.type))
        if v.stored:
            v = self.from_storage(v)
        self.values[node] = Complex(v, complex_dtype) if complex_dtype else v
        self.arg_shapes.append(v.shape)
        self.arg_sources.append(("input", node.name) if is_user else ("param", tensor))
        self.arg_keys.append(node.name if is_user else spec.target)

    def _call_function(self, node):
        """A call, its errors located at the model's line."""
        src = _source(node)
        self.loc = (f'loc("{os.path.basename(src[0])}":{src[1]}:0)'
                    if src else "loc(unknown)")
        try:
            self.values[node] = self.call(node)
        except UnsupportedError as e:
            where = f" at {src[0]}:{src[1]}: {src[2]}" if src else ""
            kind = (DynamicSizeError if isinstance(e, DynamicSizeError)
                    else UnsupportedError)
            error = kind(f"{e}{where}")
            error.node = node.name   # the op xtile could not import
            raise error from None

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
                return self.sizes.size(val)
            raise UnsupportedError(f"call of {name} is not supported by xtile")
        name = schema.name.split("::")[-1]
        overload = getattr(target, "_overloadname", "") or "default"
        what = f"aten.{name}.{overload}"
        if name in ("sym_size", "sym_numel", "sym_stride", "sym_storage_offset"):
            # A size of a tensor: a number, a dynamic size (T) or an
            # expression of them (sym_numel's T*64), reported where it is
            # taken.
            return self.sizes.size(val)
        exprs = [a for a in _flatten((args, kwargs)) if isinstance(a, Expr)]
        if exprs:
            raise DynamicSizeError(
                f"operator {what} takes {exprs[0]}, an expression of dynamic "
                "sizes: xtile supports a dynamic size only where it is exactly one "
                "symbol (a torch.export Dim) or a number")
        val = self.sizes.shaped(what, val)
        if any(is_complex(a) for a in _flatten((args, kwargs, val))):
            # On complex tensors (pairs of reals, complex.py).
            lower = COMPLEX_LOWERINGS.get(name)
            if lower is None:
                raise UnsupportedError(f"operator {what} on complex tensors is not "
                                       "supported by xtile")
        else:
            lower = LOWERINGS.get(name)
        if lower is None:
            why = why_unsupported(name)
            raise UnsupportedError(f"operator {what} is not supported by xtile"
                                   + (f": {why}" if why else ""))
        bound = bind(schema, args, kwargs)
        self.node, self.what = node, what
        result = self._lower(lower, what, val, bound)
        self.check(what, result, val)
        return result

    def _lower(self, lower, what, val, bound):
        """lower(self, val, **bound), its failures as UnsupportedErrors."""
        try:
            return lower(self, val, **bound)
        except SymbolicExpression as e:
            raise DynamicSizeError(
                f"operator {what} needs {e.expr}, an expression of dynamic sizes: "
                "xtile supports a dynamic size only where it is exactly one symbol "
                "(a torch.export Dim) or a number") from None
        except UnsupportedError:
            raise
        except TypeError as e:
            # A lowering that does not take an argument of this overload.
            raise UnsupportedError(
                f"operator {what} with arguments ({', '.join(bound)}) is not "
                f"supported by xtile ({e})") from None
        except Exception as e:  # noqa: BLE001 - an importer bug, reported as such
            raise UnsupportedError(
                f"operator {what} could not be imported ({type(e).__name__}: "
                f"{e})") from e

    def check(self, what, result, val):
        """Every lowering's value has PyTorch's shape and dtype: a mismatch
        is an importer bug that would otherwise be a wrong result."""
        if isinstance(val, (list, tuple)):
            if not isinstance(result, (list, tuple)) or len(result) != len(val):
                raise UnsupportedError(f"{what}: the importer returned {result!r} "
                                       f"where PyTorch returns {len(val)} values")
            for r, v in zip(result, val):
                self.check(what, r, v)
            return
        if not isinstance(val, (torch.Tensor, Shape)):
            return
        kind = Complex if val.dtype.is_complex else Value
        if (not isinstance(result, kind) or result.shape != tuple(val.shape)
                or result.dtype != val.dtype):
            got = (f"{list(result.shape)} {result.dtype}"
                   if isinstance(result, (Value, Complex)) else repr(result))
            raise UnsupportedError(
                f"{what}: the importer built {got} where PyTorch computes "
                f"{list(val.shape)} {val.dtype} (an importer bug)")


def import_exported(exported, name="forward", params_as_constants=False):
    """(Tensor IR text, the importer) of a torch.export ExportedProgram."""
    imp = Importer(exported, name, params_as_constants)
    return imp.run(), imp
