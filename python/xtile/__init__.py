"""xtile's PyTorch frontend.

    import xtile
    text = xtile.import_module(model, (x,))          # Tensor IR
    fast = xtile.compile(model, (x,))                # a callable
    y = fast(x)
    print(xtile.explain(model, (x,)))                # what runs where
    opt = torch.compile(model, backend="xtile")      # the torch.compile backend
"""
import re
import subprocess

import torch
from torch.fx.experimental.symbolic_shapes import GuardOnDataDependentSymNode

from .importer import (DynamicSizeError, UnsupportedError, decomposition_table,
                       import_exported)
from .importer.sizes import evaluate_size
from .partition import RESULT_KINDS, Partitioned, results_of, strict_default
from . import runtime
from .runtime import Program, _tool, default_backend

__all__ = ["Graphed", "import_module", "compile", "explain", "UnsupportedError",
           "DynamicSizeError", "Compiled", "Partitioned"]


# transformers' implementations of mixture-of-experts layers
# (config._experts_implementation) that xtile does not compile, and why
# (grouped_mm, the default, and batched_mm compile).
_EXPERTS = {
    "eager": "it loops over the experts with token counts that depend on the "
             "routing (torch.where), which torch.export cannot trace",
}


def _check_experts(module):
    """An UnsupportedError naming a transformers experts implementation
    that xtile does not compile, before torch.export fails on its ops."""
    if not isinstance(module, torch.nn.Module):
        return
    for sub in module.modules():
        # Only models with experts layers can choose an implementation;
        # dense models carry the default ('eager') in their config too.
        can_set = getattr(sub, "_can_set_experts_implementation", None)
        if not callable(can_set) or not can_set():
            continue
        config = getattr(sub, "config", None)
        impl = getattr(config, "_experts_implementation", None)
        if impl in _EXPERTS:
            raise UnsupportedError(
                f"{type(sub).__name__} uses transformers' '{impl}' experts "
                f"implementation: {_EXPERTS[impl]}; "
                "model.set_experts_implementation('grouped_mm') (or "
                "'batched_mm') selects one xtile compiles")


def _distinct(example_inputs):
    """`example_inputs` with a tensor that appears again replaced by a
    copy: torch.export traces one tensor passed as two arguments as one
    input, read for both, and the compiled function would read one
    argument where it is given two different tensors."""
    leaves, spec = torch.utils._pytree.tree_flatten(tuple(example_inputs))
    seen = set()
    for i, leaf in enumerate(leaves):
        if isinstance(leaf, torch.Tensor):
            if id(leaf) in seen:
                leaves[i] = leaf.clone()
            seen.add(id(leaf))
    return torch.utils._pytree.tree_unflatten(leaves, spec)


def _export(module, example_inputs, dynamic_shapes=None):
    """torch.export (with torch.export's `dynamic_shapes`), then PyTorch's
    decompositions to the Core ATen opset except for the composites xtile
    keeps whole (see importer.KEPT)."""
    if not isinstance(example_inputs, (tuple, list)):
        example_inputs = (example_inputs,)
    example_inputs = _distinct(example_inputs)
    _check_experts(module)
    was_training = getattr(module, "training", False)
    if isinstance(module, torch.nn.Module):
        module.eval()
    try:
        exported = torch.export.export(module, tuple(example_inputs), strict=False,
                                       dynamic_shapes=dynamic_shapes)
        # The program's input guards are for running it as a module; xtile
        # checks sizes itself (Compiled._bind). Those of a graph from
        # TorchDynamo name Dynamo's frame (L['x']), and would fail when
        # run_decompositions runs the module.
        if hasattr(exported, "_guards_code"):
            exported._guards_code = []
        return exported.run_decompositions(decomposition_table())
    except GuardOnDataDependentSymNode as e:
        raise _data_dependent(e) from None
    finally:
        if was_training:
            module.train()


def _data_dependent(error):
    """The UnsupportedError for a model that torch.export (or a Core ATen
    decomposition) could only trace by reading a tensor's value as a size
    (tensor_split at a tensor of indices): the model's line where
    PyTorch's message names it."""
    text = str(error)
    where = re.search(r'The following call raised this error:\s*File "([^"]+)", line (\d+)'
                      r'[^\n]*\n\s*(.+)', text)
    at = f" at {where.group(1)}:{where.group(2)}: {where.group(3).strip()}" if where else ""
    return UnsupportedError(
        "the model takes a size from a tensor's values (PyTorch: "
        f"{text.strip().splitlines()[0]}), which xtile does not support: its sizes "
        f"are fixed, or dynamic through torch.export's dynamic_shapes{at}")


def _name(module):
    base = type(module).__name__ if isinstance(module, torch.nn.Module) else "forward"
    return re.sub(r"[^A-Za-z0-9_]", "_", base).lower() or "forward"


def import_module(module, example_inputs, params_as_constants=False,
                  dynamic_shapes=None):
    """Tensor IR text of `module` called on `example_inputs`, through
    torch.export. Parameters and buffers become function arguments (before
    the inputs), or constants with params_as_constants=True.

    dynamic_shapes: torch.export's, e.g. {"x": {0: torch.export.Dim("T",
    min=1, max=4096)}}: those sizes are dynamic in the Tensor IR (`?`,
    named by the Dim's name in `#xtensor.dims<T>`, its range declared in
    the function's `xtensor.symbols`).

    Raises UnsupportedError naming an op xtile cannot import and the line
    of the model it comes from."""
    text, _ = import_exported(_export(module, example_inputs, dynamic_shapes),
                              _name(module), params_as_constants)
    return text


class Compiled:
    """`module` compiled by xtile: call it like the module.

    With dynamic sizes (dynamic_shapes), the module is exported, imported
    and compiled once: its kernels take the sizes as arguments, and each
    call binds them to its inputs' sizes (checked against their ranges).
    A module that xtile cannot compile over dynamic sizes (more programs
    than a grid holds at an unbounded size's maximum, a loop over a size
    nested in a reduction: docs/DynamicShapes.md) is
    instead compiled once per distinct binding (its specialization, `xtile-
    opt --xtensor-specialize-dims`), and `dynamic_error` says why; with
    `specialize=True` it always is. Only those limits, whose errors carry
    the note runtime.DYNAMIC_SIZE_LIMIT, fall back: any other compile
    error is raised. `num_compiles` counts the compiles."""

    def __init__(self, module, example_inputs, backend=None, target="sm_90",
                 params_as_constants=False, allow_tf32=None, dynamic_shapes=None,
                 specialize=False):
        exported = _export(module, example_inputs, dynamic_shapes)
        self._compile(import_exported(exported, _name(module), params_as_constants),
                      backend, target, allow_tf32, specialize)

    @classmethod
    def of_import(cls, imported, backend=None, target="sm_90", allow_tf32=None,
                  specialize=False):
        """The program import_exported gave as (text, importer), compiled."""
        self = cls.__new__(cls)
        self._compile(imported, backend, target, allow_tf32, specialize)
        return self

    def _compile(self, imported, backend, target, allow_tf32, specialize):
        self.mlir, imp = imported
        self.name = imp.name
        self.backend = backend or default_backend()
        self.target = target
        self.device = torch.device("cuda" if self.backend == "cuda" else "cpu")
        self.sources = imp.arg_sources
        self.arg_shapes = imp.arg_shapes
        self.symbols = dict(imp.symbols)   # dynamic size -> (min, max)
        self.outputs = [(o.shape, o.dtype) for o in imp.outputs]
        self.roles = imp.output_roles
        self.in_place = getattr(imp, "in_place", [None] * len(self.outputs))
        self.buffers = imp.buffers
        for kind, what in self.roles:
            if kind not in RESULT_KINDS:
                raise UnsupportedError(f"a graph result of kind {kind} ({what}) is "
                                       "not supported by xtile")
        if allow_tf32 is None:
            allow_tf32 = torch.backends.cuda.matmul.allow_tf32
        self.allow_tf32 = allow_tf32
        self.programs = {}     # the dynamic sizes' values -> its Program
        self.num_compiles = 0
        self.dynamic = None    # the Program over the dynamic sizes
        self.dynamic_error = None
        if not self.symbols:
            self.program = self._program({})
        elif not specialize:
            try:
                self.dynamic = Program(self.mlir, self.name, self.backend,
                                       self.target, allow_tf32=self.allow_tf32)
                self.num_compiles += 1
            except RuntimeError as e:
                # Only a limit of dynamic sizes falls back to per-size
                # compiles; any other error is raised.
                if not runtime.is_dynamic_size_limit(str(e)):
                    raise
                self.dynamic_error = str(e)

    def _compiled_program(self):
        """The program over the dynamic sizes, the static one, or the first
        specialization compiled."""
        program = (self.dynamic or getattr(self, "program", None)
                   or next(iter(self.programs.values()), None))
        if program is None:
            raise ValueError(f"xtile: {self.name} is compiled per size, and no "
                             "size has been run yet")
        return program

    def launches(self, sizes=None):
        """Kernel launches in one call (Program.launches): all the
        program's, or those that run at `sizes` ({symbol: value})."""
        return self._compiled_program().launches(sizes)

    def traffic(self):
        """(bytes moved, ideal bytes) of one call (Program.traffic)."""
        return self._compiled_program().traffic()

    def _program(self, sizes):
        """The Program for these values of the dynamic sizes: the one
        compiled over them, or the module specialized to them (compiled on
        first use), then xtile's pipeline."""
        if self.dynamic is not None:
            return self.dynamic
        key = tuple(sizes[n] for n in sorted(self.symbols))
        if key not in self.programs:
            mlir = self.mlir
            if sizes:
                binding = ",".join(f"{n}={sizes[n]}" for n in sorted(sizes))
                done = subprocess.run(
                    [_tool("xtile-opt"), f"--xtensor-specialize-dims=sizes={binding}",
                     "--mlir-print-debuginfo"],
                    input=mlir, capture_output=True, text=True)
                if done.returncode:
                    raise RuntimeError("xtile: specializing the dynamic sizes "
                                       f"({binding}) failed:\n" + done.stderr)
                mlir = done.stdout
            self.programs[key] = Program(mlir, self.name, self.backend, self.target,
                                         allow_tf32=self.allow_tf32)
            self.num_compiles += 1
        return self.programs[key]

    def _bind(self, inputs):
        """The values of the dynamic sizes in these inputs, each checked
        against its range and against the other dimensions of its symbol;
        every static size checked too."""
        user = [(name, shape) for (kind, name), shape in zip(self.sources, self.arg_shapes)
                if kind == "input"]
        if len(inputs) != len(user):
            raise TypeError(f"xtile: {self.name} takes {len(user)} inputs, got "
                            f"{len(inputs)}")
        sizes, where, derived = {}, {}, []
        for (name, shape), t in zip(user, inputs):
            expected = "[" + ", ".join(str(d) for d in shape) + "]"
            if not isinstance(t, torch.Tensor) or t.dim() != len(shape):
                got = list(t.shape) if isinstance(t, torch.Tensor) else type(t).__name__
                raise ValueError(f"xtile: input {name!r} is {got}, where {self.name} "
                                 f"takes a tensor of shape {expected}")
            for d, (n, actual) in enumerate(zip(shape, t.shape)):
                if isinstance(n, int):
                    if actual != n:
                        raise ValueError(
                            f"xtile: dimension {d} of input {name!r} has size {actual}, "
                            f"where {self.name} takes {expected} (a static size: "
                            "make it dynamic with dynamic_shapes)")
                    continue
                if n.name not in self.symbols:
                    # A size expression of symbols (T + 1): checked once
                    # they are bound.
                    derived.append((name, d, n.name, actual))
                    continue
                lo, hi = self.symbols[n.name]
                if not lo <= actual <= hi:
                    raise ValueError(
                        f"xtile: dimension {d} of input {name!r} has size {actual}, "
                        f"outside the range [{lo}, {hi}] of its dynamic size {n.name}")
                if n.name in sizes and sizes[n.name] != actual:
                    raise ValueError(
                        f"xtile: dimension {d} of input {name!r} has size {actual}, but "
                        f"the dynamic size {n.name} is {sizes[n.name]} (dimension "
                        f"{where[n.name][1]} of input {where[n.name][0]!r}): the "
                        "dimensions of one dynamic size must agree")
                sizes[n.name], where[n.name] = actual, (name, d)
        for name, d, expression, actual in derived:
            if evaluate_size(expression, sizes) != actual:
                raise ValueError(
                    f"xtile: dimension {d} of input {name!r} has size {actual}, "
                    f"where its size {expression} is "
                    f"{evaluate_size(expression, sizes)}")
        return sizes

    def graphed(self, *inputs, static=()):
        """A Graphed: this module's launches for inputs of these shapes
        captured once in a CUDA graph (Program.capture), replayed by each
        call. Needs the cuda backend (a GPU, or the CUDA driver
        XTILE_LIBCUDA names). `static`: positions of inputs captured in
        place (a KV cache the caller passes back each call), not copied."""
        return Graphed(self, inputs, static)

    def _buffers(self, inputs, sizes):
        """The program's buffers for these inputs: its arguments on the
        device, then new outputs."""
        buffers, user = [], iter(inputs)
        for kind, value in self.sources:
            t = next(user) if kind == "input" else value
            buffers.append(t.detach().to(self.device).contiguous())
        outs = [torch.empty([d if isinstance(d, int) else evaluate_size(d.name, sizes)
                             for d in shape],
                            dtype=dtype, device=self.device)
                if self.in_place[r] is None else None
                for r, (shape, dtype) in enumerate(self.outputs)]
        return buffers, self._tie(buffers, outs)

    def _tie(self, buffers, outs):
        """`outs` with each result returned in place of an argument
        (xtensor.in_place) being that argument's buffer: the program
        updates it, and results_of finds the new value already there when
        the buffer is the caller's own tensor."""
        return [buffers[a] if a is not None else o for a, o in zip(self.in_place, outs)]

    def _size_values(self, program, sizes):
        """The values of the program's sizes, in its order: the symbols,
        then the size expressions of them it takes (T + 1)."""
        if program is not self.dynamic:
            return ()
        names = getattr(program, "size_names", None) or sorted(self.symbols)
        return [evaluate_size(n, sizes) for n in names]

    def __call__(self, *inputs):
        sizes = self._bind(inputs)
        program = self._program(sizes)
        buffers, outs = self._buffers(inputs, sizes)
        program(buffers + outs, self._size_values(program, sizes))
        # In-place assignments to inputs, buffers and parameters, as eager
        # makes them.
        names = [name for kind, name in self.sources if kind == "input"]
        return results_of(self.roles, outs, inputs, names, self.buffers.__getitem__)


class Graphed:
    """A Compiled's launches for one binding of its inputs' shapes,
    captured once in a CUDA graph and replayed by each call (as
    torch.compile's "reduce-overhead" mode does): each call copies its
    inputs into the captured buffers (an input that is the captured tensor
    itself, such as a static KV cache passed back each step, is not
    copied), replays every launch at once, and returns the captured
    outputs, which the next call overwrites. Inputs are captured as copies
    of the first call's, except those at the positions `static` names,
    which are captured in place: the caller passes the same tensors each
    call. `launches` is the number of kernel launches the graph holds
    (counted in the program's Kernel IR when first asked: capturing does
    not lower the program again)."""

    def __init__(self, compiled, inputs, static=()):
        self.compiled = compiled
        self.sizes = compiled._bind(inputs)
        program = compiled._program(self.sizes)
        buffers, self.outs = compiled._buffers(inputs, self.sizes)
        self.inputs, position = [], 0
        for i, (kind, _) in enumerate(compiled.sources):
            if kind != "input":
                continue
            if position not in static:
                buffers[i] = buffers[i].clone()
            elif buffers[i].data_ptr() != inputs[position].data_ptr():
                raise ValueError(f"xtile: input {position} of {compiled.name} is "
                                 "static but not contiguous on the device: it "
                                 "cannot be captured in place")
            self.inputs.append(buffers[i])
            position += 1
        self.outs = compiled._tie(buffers, self.outs)
        self.graph = program.capture(buffers + self.outs,
                                     compiled._size_values(program, self.sizes))
        self.program = program

    @property
    def launches(self):
        return self.program.launches()

    def __call__(self, *inputs):
        c = self.compiled
        if c._bind(inputs) != self.sizes:
            raise ValueError(f"xtile: {c.name} was captured for sizes {self.sizes}, "
                             f"called with {c._bind(inputs)}: capture those too")
        for static, t in zip(self.inputs, inputs):
            if static.data_ptr() != t.data_ptr() or static.shape != t.shape:
                static.copy_(t.detach())
        self.graph.replay()
        names = [name for kind, name in c.sources if kind == "input"]
        return results_of(c.roles, self.outs, inputs, names, c.buffers.__getitem__)


def compile(module, example_inputs, backend=None, target="sm_90",
            params_as_constants=False, allow_tf32=None, dynamic_shapes=None,
            specialize=False, strict=None):
    """`module` compiled through xtile's pipeline for `example_inputs`'
    shapes and types; runs on the GPU when there is one (backend="cuda"),
    else on the CPU through CUDA emulation (backend="emu").

    allow_tf32: let f32 matmuls run on tensor cores with TensorFloat-32
    operands (sm_80 and later; about f16's precision on the operands, f32
    accumulation). None follows torch.backends.cuda.matmul.allow_tf32
    (torch.set_float32_matmul_precision("high") sets it), as PyTorch's own
    matmuls do; f32 matmuls are exact (FMA) otherwise.

    dynamic_shapes: torch.export's (see import_module). The module is
    imported and compiled once, its kernels taking the dynamic sizes as
    arguments; a size outside its Dim's range is a ValueError. What xtile
    cannot compile over dynamic sizes yet is compiled per distinct value of
    the sizes instead, on the first call that has it (see Compiled);
    specialize=True asks for that.

    A module with ops xtile cannot compile is partitioned: the ops run
    through PyTorch between the parts xtile compiles, each fallback
    reported once in a warning (a Partitioned, see xtile.partition).
    strict=True (or XTILE_STRICT=1 in the environment) raises the first
    UnsupportedError instead (collectives still run through PyTorch:
    docs/Distributed.md)."""
    exported = _export(module, example_inputs, dynamic_shapes)
    name = _name(module)

    def build(imported):
        return Compiled.of_import(imported, backend, target, allow_tf32, specialize)
    try:
        imported = import_exported(exported, name, params_as_constants)
    except DynamicSizeError:
        raise
    except UnsupportedError as e:
        strict = strict if strict is not None else strict_default()
        return Partitioned(exported, name, e, build, params_as_constants, strict)
    return build(imported)


def explain(module, example_inputs, **options):
    """What xtile makes of `module`: the partition report (the ops run
    through PyTorch, with their lines and why; how many ops each side
    runs) and the kernel launches of one call, as text."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # the report is returned instead
        compiled = compile(module, example_inputs, strict=False, **options)
    if isinstance(compiled, Partitioned):
        text = compiled.report()
    else:
        text = f"xtile: {compiled.name}: every op compiled"
    return text + f"\n  {compiled.launches()} kernel launches per call"


from .backend import xtile_backend  # noqa: E402,F401  (registers "xtile")
from . import generation  # noqa: E402,F401  (xtile.generation.Generator)
