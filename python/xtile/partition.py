"""Graphs with ops xtile cannot compile: partitioned, not refused.

An exported program whose import fails on an op is split into maximal
parts that xtile compiles, with the ops it cannot compile (and the views
between them) run through PyTorch in between, in the graph's order:

- Which ops fall back: those without a lowering, found before anything
  is imported, then each op whose lowering refuses its arguments (a sort
  of more than 8,192 elements), found by importing the parts: a part that
  fails on an op loses that op, and the graph is split again.
- How the graph is cut: torch.fx's CapabilityBasedPartitioner, which
  merges the supported ops into the largest parts that do not make a
  cycle through a fallback; each part becomes one Tensor IR function,
  fused as the whole graph would be. A part without compute (views only)
  runs through PyTorch, where views are free.
- Values crossing a cut are PyTorch tensors: a part's results are the
  tensors its program writes, a fallback's are what PyTorch returns.
- Collectives (torch.distributed's functional collectives, which xtile
  does not compile) run through PyTorch on the graph's process group, and
  each `wait_tensor` is moved to just before the first op that reads its
  result, so the parts that do not depend on the communication run while
  it is in flight (docs/Distributed.md).

Every fallback is reported once per graph (a warning where an op is
unsupported, and `report()`, which lists the collectives too), naming the
op, its line in the model and why; strict mode (strict=True, or
XTILE_STRICT=1) raises the first UnsupportedError instead (a graph whose
only fallbacks are collectives is partitioned in strict mode too)."""
import os
import types
import warnings

import torch
from torch.fx.experimental.symbolic_shapes import free_unbacked_symbols
from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
from torch.fx.passes.operator_support import OperatorSupportBase
from torch.fx.passes.utils.fuser_utils import fuse_as_graphmodule, fuse_by_partitions

from .importer import LOWERINGS, UnsupportedError, import_exported
from .importer.errors import DynamicSizeError, why_unsupported
from .importer.registry import COMPLEX_LOWERINGS
from .importer.graph import _source

# Ops that move no data in PyTorch: a part made only of them is not
# worth a kernel.
_VIEWS = {"view", "_unsafe_view", "reshape", "permute", "expand", "slice", "select",
          "unsqueeze", "squeeze", "t", "transpose", "alias", "as_strided",
          "detach", "unfold", "split", "split_with_sizes", "unbind", "chunk",
          "sym_size", "sym_numel", "sym_stride", "sym_storage_offset", "getitem"}
# The functional collectives (torch.distributed._functional_collectives
# and their ATen forms), and the wait that ends each.
_COLLECTIVES = {"all_reduce", "all_reduce_", "all_gather_into_tensor",
                "reduce_scatter_tensor", "all_to_all_single", "broadcast",
                "all_reduce_coalesced", "all_gather_into_tensor_coalesced",
                "reduce_scatter_tensor_coalesced", "wait_tensor"}


# What a program's results are: its own, or the new value of an input, a
# buffer or a parameter it assigns in place (functionalized: written back
# by results_of).
RESULT_KINDS = ("USER_OUTPUT", "USER_INPUT_MUTATION", "BUFFER_MUTATION",
                "PARAMETER_MUTATION")


def results_of(roles, outs, inputs, input_names, state):
    """The user's results among a program's `outs`, after writing the new
    values of the inputs (by name in input_names) and of the buffers and
    parameters (state(target)) it assigns into them, as eager does."""
    results = []

    def assign(into, out):
        # (A result the program wrote in place, into the caller's own
        # tensor, is already there.)
        if into.data_ptr() != out.data_ptr() or into.shape != out.shape:
            into.copy_(out)

    with torch.no_grad():
        for (kind, target), out in zip(roles, outs):
            if kind == "USER_INPUT_MUTATION":
                assign(inputs[input_names.index(target)], out)
            elif kind in ("BUFFER_MUTATION", "PARAMETER_MUTATION"):
                assign(state(target), out)
            else:
                results.append(out)
    return results[0] if len(results) == 1 else tuple(results)


def strict_default():
    return os.environ.get("XTILE_STRICT") == "1"


def _op_name(node):
    schema = getattr(node.target, "_schema", None)
    if schema is None:
        return getattr(node.target, "__name__", str(node.target))
    return schema.name.split("::")[-1]


def _qualified(node):
    schema = getattr(node.target, "_schema", None)
    if schema is None:
        return getattr(node.target, "__name__", str(node.target))
    overload = getattr(node.target, "_overloadname", "") or "default"
    return f"{schema.name.replace('::', '.')}.{overload}"


def _is_collective(node):
    schema = getattr(node.target, "_schema", None)
    return schema is not None and (schema.name.split("::")[0] == "_c10d_functional"
                                   or _op_name(node) in _COLLECTIVES)


def _no_lowering(node):
    """Why this ATen call has no lowering at all, or None where it has one
    (which may still refuse the call's arguments when imported)."""
    schema = getattr(node.target, "_schema", None)
    if schema is None:
        return None   # getitem and arithmetic on sizes
    name = _op_name(node)
    if name.startswith("sym_") and name in _VIEWS:
        return None
    if name in LOWERINGS or name in COMPLEX_LOWERINGS:
        return None
    if _is_collective(node):
        return ("a collective, which runs through torch.distributed on the graph's "
                "process group")
    why = why_unsupported(name)
    return f"operator {_qualified(node)} is not supported by xtile" + (
        f": {why}" if why else "")


def _on_tensors(node):
    """Whether an op computes tensors (not sizes, nor checks on them)."""
    val = node.meta.get("val")
    vals = val if isinstance(val, (tuple, list)) else [val]
    return any(isinstance(v, torch.Tensor) for v in vals)


def _data_dependent(node):
    """Why an op that makes or reads a tensor whose shape depends on the
    data (nonzero's, a boolean mask's) cannot be compiled, else None."""
    values = [node.meta.get("val")] + [a.meta.get("val") for a in node.all_input_nodes]
    for v in torch.utils._pytree.tree_leaves(values):
        if isinstance(v, (torch.Tensor, torch.SymInt)) and free_unbacked_symbols(v):
            return ("it makes or reads a tensor whose shape depends on the data, "
                    "which xtile does not support")
    return None


class _Supported(OperatorSupportBase):
    def __init__(self, fallbacks):
        self.fallbacks = fallbacks

    def is_node_supported(self, submodules, node):
        if node.op != "call_function" or node.name in self.fallbacks:
            return False
        if _op_name(node) == "getitem":
            # Follows the op whose result it takes apart.
            producer = node.args[0]
            return (isinstance(producer, torch.fx.Node) and producer.op == "call_function"
                    and producer.name not in self.fallbacks)
        return True


def _computes(nodes):
    return any(_op_name(n) not in _VIEWS for n in nodes)


class _Part:
    """A part of a partitioned program as the importer reads a program:
    its graph, and the exported program's signature, state and size
    ranges for its inputs (a parameter stays a parameter; what another
    part or a fallback computes is an input)."""

    def __init__(self, gm, parent):
        self.graph_module, self.graph = gm, gm.graph
        self.state_dict = parent.state_dict
        self.constants = getattr(parent, "constants", {})
        self.range_constraints = parent.range_constraints
        kinds = {s.arg.name: s for s in parent.graph_signature.input_specs}
        user = types.SimpleNamespace(name="USER_INPUT")
        specs, self.inputs = [], []
        for i, node in enumerate(n for n in gm.graph.nodes if n.op == "placeholder"):
            spec = kinds.get(node.name)
            if spec is None or spec.kind.name == "USER_INPUT":
                spec = types.SimpleNamespace(arg=types.SimpleNamespace(name=node.name),
                                             kind=user, target=None)
                if isinstance(node.meta.get("val"), torch.Tensor):
                    self.inputs.append(i)
            specs.append(spec)
        outputs = gm.graph.output_node().args[0]
        self.graph_signature = types.SimpleNamespace(
            input_specs=specs,
            output_specs=[types.SimpleNamespace(kind=types.SimpleNamespace(name="USER_OUTPUT"),
                                                target=None) for _ in outputs])


_NOTHING = types.SimpleNamespace(state_dict={}, constants={}, range_constraints={},
                                 graph_signature=types.SimpleNamespace(input_specs=[]))


def aten_program(gm):
    """An ATen graph that did not come from torch.export (AOTAutograd's),
    as the importer reads a program: every placeholder an input, every
    result the graph's own."""
    return _Part(gm, _NOTHING)


class _Run(torch.nn.Module):
    """A compiled part, called as the fused submodule it replaces: with
    all of the part's inputs (the compiled program takes its tensors that
    are not parameters), returning the tuple of its results."""

    def __init__(self, compiled, inputs):
        super().__init__()
        self.compiled, self.inputs = compiled, inputs

    def forward(self, *args):
        out = self.compiled(*(args[i] for i in self.inputs))
        return out if isinstance(out, tuple) else (out,)


class Fallback:
    """An op run through PyTorch: its name, where the model makes it, and why."""

    def __init__(self, node, why):
        self.op = _qualified(node)
        self.collective = _is_collective(node)
        self.source = _source(node)
        self.why = why

    def message(self):
        """Why, where: as the importer's UnsupportedError says it."""
        if " at /" in self.why or not self.source:
            return self.why
        return f"{self.why} at {self.source[0]}:{self.source[1]}: {self.source[2]}"

    def __str__(self):
        where = (f"{os.path.basename(self.source[0])}:{self.source[1]}: {self.source[2]}"
                 if self.source else "(no source line)")
        return f"{self.op} at {where} -- {self.why.split(' at /')[0]}"


class Partitioned:
    """An exported program split into parts xtile compiles and ops run
    through PyTorch (see the module's docstring); call it like the module.

    parts: the Compiled programs, in the graph's order; fallbacks: the ops
    run through PyTorch (Fallback); compiled_ops, eager_ops: how many ops
    of the graph each side runs."""

    def __init__(self, exported, name, first_error, compile_part,
                 params_as_constants=False, strict=False, dynamic_fallback=False):
        self.name = name
        self.exported = exported
        gm = exported.graph_module
        # Checks of a tensor's dtype and device, which torch.export made
        # when tracing, and results nobody reads would otherwise be carried
        # across the cuts (the importer drops them too).
        for node in list(gm.graph.nodes):
            if node.op == "call_function" and _op_name(node) == "_assert_tensor_metadata":
                gm.graph.erase_node(node)
        gm.graph.eliminate_dead_code()
        calls = [n for n in gm.graph.nodes if n.op == "call_function"]
        why = {}
        for node in calls:
            reason = _data_dependent(node) or _no_lowering(node)
            if reason is not None:
                why[node.name] = reason
        failed = getattr(first_error, "node", None)
        by_name = {n.name: n for n in calls}
        if strict and first_error is not None and (
                failed not in by_name or not _is_collective(by_name[failed])):
            raise first_error   # the first op that is no collective: as it was
        if failed is not None:
            why.setdefault(failed, str(first_error))
        # Import the parts; an op one of them cannot import falls back and
        # the graph is split again.
        while True:
            parts = self._propose(gm, why)
            retry = False
            for i, nodes in enumerate(parts):
                sub, _, _ = fuse_as_graphmodule(gm, nodes, f"part{i}",
                                                always_return_tuple=True)
                try:
                    import_exported(_Part(sub, exported), f"{name}_part{i}",
                                    params_as_constants)
                except UnsupportedError as e:
                    # A size that is an expression of dynamic sizes
                    # (DynamicSizeError): the caller compiles per size
                    # instead, where it can (a graph from torch.export); an
                    # ATen graph from AOTAutograd runs that op through
                    # PyTorch, as any other op the parts cannot import.
                    node = getattr(e, "node", None)
                    if (isinstance(e, DynamicSizeError) and not dynamic_fallback
                            or node is None or node in why):
                        raise
                    why[node] = str(e)
                    retry = True
                    break
            if not retry:
                break
        # The report counts and names the ops on tensors; arithmetic on
        # sizes and their checks (a data-dependent size's) are left out.
        ops = [n for n in calls if _on_tensors(n)]
        self.fallbacks = [Fallback(n, why[n.name]) for n in ops if n.name in why]
        if strict:
            # Collectives run through PyTorch by design; anything else is
            # the error strict mode asks for, at the first such op.
            unsupported = [f for f in self.fallbacks if not f.collective]
            if unsupported:
                raise UnsupportedError(unsupported[0].message())
        in_parts = {n for nodes in parts for n in nodes}
        self.compiled_ops = sum(n in in_parts for n in ops)
        self.eager_ops = len(ops) - self.compiled_ops
        fuse_by_partitions(gm, [dict.fromkeys(nodes) for nodes in parts],
                           prefix="xtile_part", always_return_tuple=True)
        self.parts = []
        for node in list(gm.graph.nodes):
            if node.op == "call_module":
                sub = getattr(gm, node.target)
                part = _Part(sub, exported)
                compiled = compile_part(import_exported(part, f"{name}_{node.target}",
                                                        params_as_constants))
                setattr(gm, node.target, _Run(compiled, part.inputs))
                self.parts.append(compiled)
        _wait_at_first_use(gm)
        gm.recompile()
        self.gm = gm
        sig = exported.graph_signature
        self.roles = [(s.kind.name, s.target) for s in sig.output_specs]
        for kind, what in self.roles:
            if kind not in RESULT_KINDS:
                raise UnsupportedError(f"a graph result of kind {kind} ({what}) is "
                                       "not supported by xtile")
        self.input_names = [s.arg.name for s in sig.input_specs
                            if s.kind.name == "USER_INPUT"]
        # Collectives run through PyTorch by design: a warning only where an
        # op does because xtile cannot compile it.
        if any(not f.collective for f in self.fallbacks):
            warnings.warn(self.report(), stacklevel=3)

    @staticmethod
    def _propose(gm, why):
        """The parts as lists of nodes in the graph's order: maximal, free
        of cycles through fallbacks, each doing some compute."""
        partitioner = CapabilityBasedPartitioner(gm, _Supported(why),
                                                 allows_single_node_partition=True)
        order = {n: i for i, n in enumerate(gm.graph.nodes)}
        parts = [sorted(p.nodes, key=order.__getitem__)
                 for p in partitioner.propose_partitions()]
        parts = [p for p in parts if _computes(p)]
        return sorted(parts, key=lambda p: order[p[0]])

    def launches(self):
        """Kernel launches of the compiled parts in one call."""
        return sum(p.launches() for p in self.parts)

    def traffic(self):
        """(bytes moved, ideal bytes) of the compiled parts in one call."""
        moved = [p.traffic() for p in self.parts]
        return sum(m for m, _ in moved), sum(i for _, i in moved)

    def report(self):
        collectives = sum(f.collective for f in self.fallbacks)
        unsupported = len(self.fallbacks) - collectives
        views = self.eager_ops - len(self.fallbacks)
        what = [f"{unsupported} unsupported"] if unsupported else []
        if collectives:
            what.append(f"{collectives} collective{'s' if collectives > 1 else ''}")
        if views:
            what.append(f"{views} view{'s' if views > 1 else ''} around them")
        if not self.eager_ops:
            lines = [f"xtile: {self.name}: every op compiled ({self.compiled_ops} in "
                     f"{len(self.parts)} part(s))"]
        else:
            lines = [f"xtile: {self.name}: {self.eager_ops} of "
                     f"{self.eager_ops + self.compiled_ops} ops run through PyTorch "
                     f"({', '.join(what)}), {self.compiled_ops} compiled in "
                     f"{len(self.parts)} part(s)"]
        lines += [f"  {f}" for f in self.fallbacks]
        return "\n".join(lines)

    def _flat(self, inputs):
        """The exported graph's arguments: parameters, buffers and constants
        in its signature's order, with the user's inputs in theirs."""
        ep = self.exported
        user, flat = iter(inputs), []
        if len(inputs) != len(self.input_names):
            raise TypeError(f"xtile: {self.name} takes {len(self.input_names)} inputs, "
                            f"got {len(inputs)}")
        for spec in ep.graph_signature.input_specs:
            kind = spec.kind.name
            if kind == "USER_INPUT":
                flat.append(next(user))
            elif kind in ("PARAMETER", "BUFFER", "CONSTANT_TENSOR"):
                flat.append(self._state(spec.target))
            else:
                raise UnsupportedError(f"a graph input of kind {kind} ({spec.target}) "
                                       "is not supported by xtile")
        return flat

    def __call__(self, *inputs):
        with torch.no_grad():
            outs = self.gm(*self._flat(inputs))
        return results_of(self.roles, outs, inputs, self.input_names, self._state)

    def _state(self, target):
        """The parameter, buffer or constant tensor `target` of the program."""
        ep = self.exported
        return ep.state_dict.get(target, getattr(ep, "constants", {}).get(target))


def _wait_at_first_use(gm):
    """Each collective's wait moved to just before the first op reading
    its result, so that what does not depend on it runs first."""
    for node in list(gm.graph.nodes):
        if node.op == "call_function" and _op_name(node) == "wait_tensor" and node.users:
            order = {n: i for i, n in enumerate(gm.graph.nodes)}
            first = min(node.users, key=order.__getitem__)
            if first is not node.next:
                first.prepend(node)
