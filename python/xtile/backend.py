"""torch.compile(model, backend="xtile"): each graph TorchDynamo captures
is exported, imported into Tensor IR and compiled by xtile. A graph with
ops xtile does not support is partitioned (xtile.partition): those ops
run through PyTorch between the compiled parts, reported in a warning
naming each op and its line; with XTILE_STRICT=1 the first one raises
UnsupportedError instead.

With symbolic sizes (torch.compile(dynamic=True), or Dynamo's automatic
dynamic shapes after a recompile) the graph's size arguments are read
from its tensors' sizes, and each size that is one symbol becomes a
torch.export Dim: the graph is imported once with dynamic sizes (see
xtile.compile's dynamic_shapes), and Dynamo does not recompile for a new
size. Sizes that are polynomials of the symbols (tokens + 1, batch *
tokens) are size expressions in Tensor IR. Where the graph cannot be
imported with dynamic sizes (a size divided, tokens // 2), the graph is
exported and compiled once per distinct set of input shapes instead,
still without recompiling in Dynamo."""
import torch

from . import importer


class _Scalar(float):
    """A float Dynamo passes as a 0-d f64 tensor read by `.item()` (a
    module's eps): compiled as a constant, checked at every call."""

    def item(self):
        return float(self)


class _Graph(torch.nn.Module):
    """Dynamo's graph as a function of its tensor arguments only: each
    size argument is read from the size of a tensor argument, and each
    scalar argument is the constant it was compiled for."""

    def __init__(self, gm, plan, scalars):
        super().__init__()
        self.gm, self.plan, self.scalars = gm, plan, scalars

    def forward(self, *tensors):
        args = []
        for kind, i, d in self.plan:
            if kind == "tensor":
                args.append(tensors[i])
            elif kind == "size":
                args.append(tensors[i].shape[d])
            else:
                args.append(self.scalars[i])
        return self.gm(*args)


def _symbol(size):
    """The sympy symbol of a size that is exactly one symbol, else None."""
    expr = getattr(getattr(size, "node", None), "expr", None)
    return expr if expr is not None and expr.is_Symbol else None


def _plan(gm, example_inputs):
    """How to call gm from its tensors (see _Graph), which arguments are
    the tensors and the scalars, and torch.export's dynamic_shapes for the
    tensors; None where gm takes a size that no tensor dimension gives."""
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    plan, tensors, scalars, dims, where = [], [], [], [], {}
    for node, value in zip(placeholders, example_inputs):
        meta = node.meta.get("example_value", value)
        if isinstance(meta, torch.SymInt) or isinstance(value, (int, torch.SymInt)):
            plan.append(("size", _symbol(meta), None))
        elif (isinstance(value, torch.Tensor) and value.dim() == 0
              and value.dtype == torch.float64 and isinstance(meta, torch.Tensor)
              and any(u.target == "item" for u in node.users)):
            plan.append(("scalar", len(scalars), None))
            scalars.append(len(plan) - 1)
        else:
            spec = {}
            for d, size in enumerate(getattr(meta, "shape", ())):
                sym = _symbol(size)
                if sym is not None:
                    where.setdefault(sym, (len(tensors), d))
                    spec[d] = torch.export.Dim(str(sym))
            plan.append(("tensor", len(tensors), None))
            tensors.append(len(plan) - 1)
            dims.append(spec or None)
    for k, (kind, sym, _) in enumerate(plan):
        if kind == "size":
            if sym not in where:
                return None
            plan[k] = ("size",) + where[sym]
    return plan, tensors, scalars, dims


def _dynamic(example_inputs):
    return any(isinstance(x, torch.SymInt) for x in example_inputs)


def xtile_backend(gm, example_inputs, **kwargs):
    from . import compile
    training = _needs_grad(example_inputs)
    if training or any(isinstance(x, torch.Tensor)
                       and type(x) not in (torch.Tensor, torch.nn.Parameter)
                       for x in example_inputs):
        return _through_aot(gm, example_inputs, training)
    compiled = None
    if _dynamic(example_inputs):
        run = _symbolic(gm, example_inputs)
    else:
        compiled = compile(gm, tuple(example_inputs))
        run = compiled.__call__

    def call(*args):
        out = run(*args)
        return out if isinstance(out, tuple) else (out,)
    # What was built, for inspection: the Compiled or Partitioned of a
    # static graph, None for one with sizes (see run.variants).
    call.compiled = compiled
    return call


def _needs_grad(example_inputs):
    return torch.is_grad_enabled() and any(
        isinstance(x, torch.Tensor) and x.requires_grad for x in example_inputs)


def _attention_math(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False,
                    scale=None, enable_gqa=False):
    return torch.ops.aten._scaled_dot_product_attention_math.default(
        query, key, value, attn_mask, dropout_p, is_causal, scale=scale,
        enable_gqa=enable_gqa)[0]


def _attention_as_math(gm):
    """Attention in a training graph as its math (scores, softmax, the
    weighted sum), whose gradients AOTAutograd derives op by op. On the CPU,
    attention is otherwise traced to _scaled_dot_product_flash_attention_
    for_cpu, whose Core ATen decomposition gives the attention weights
    where its backward expects the log-sum-exp: wrong gradients."""
    changed = False
    for node in gm.graph.nodes:
        if node.op == "call_function" and node.target in (
                torch.nn.functional.scaled_dot_product_attention,
                torch._C._nn.scaled_dot_product_attention):
            node.target = _attention_math
            changed = True
    if changed:
        gm.recompile()


def _through_aot(gm, example_inputs, training):
    """A graph through AOTAutograd: for training (a graph whose inputs need
    gradients, with grad mode on) its forward and backward graphs, and for
    graphs over tensor subclasses (DTensor, from torch.distributed.tensor.
    parallel's plans) the ATen graph over plain tensors with functional
    collectives that it lowers them to. xtile compiles each graph as a
    partitioned program (xtile.partition): what it cannot compile, and the
    collectives, run through PyTorch between its parts.

    Training uses AOTAutograd's min-cut partitioner (what the forward saves
    for the backward: activations that are cheap to recompute are
    recomputed in the backward, as TorchInductor does)."""
    from functorch.compile import make_boxed_func, min_cut_rematerialization_partition
    from torch._functorch.aot_autograd import aot_module_simplified
    from . import Compiled
    from .partition import Partitioned, aten_program, strict_default
    built = []

    def compiler(kind):
        def compile_graph(fx, inputs):
            program = Partitioned(aten_program(fx), f"{kind}{len(built)}", None,
                                  Compiled.of_import, strict=strict_default(),
                                  dynamic_fallback=True)
            built.append(program)

            def run(*args):
                out = program(*args)
                return out if isinstance(out, tuple) else (out,)
            return make_boxed_func(run)
        return compile_graph

    table = dict(importer.decomposition_table())
    options = dict(fw_compiler=compiler("forward"), decompositions=table)
    if training:
        from .cross_entropy import one_pass_cross_entropy
        _attention_as_math(gm)
        one_pass_cross_entropy(gm)
        call = aot_module_simplified(gm, example_inputs, bw_compiler=compiler("backward"),
                                     partition_fn=min_cut_rematerialization_partition,
                                     **options)
        call.compiled, call.programs = built[0] if built else None, built
        return call
    # Attention is a CompositeImplicitAutograd op, which AOTAutograd would
    # otherwise decompose to its math before any table applies (the scores
    # in memory, five kernels where xtile's composite is one): preserved as
    # torch.export preserves it, in inference. DTensor has sharding rules
    # for it; the other composites xtile keeps (linear) it has none for,
    # and they are decomposed (linear to a matmul, the same kernels).
    # Where preserving fails, the graph is traced again without it.
    # (torch.export's own machinery, which another torch may not have:
    # then attention is decomposed.)
    import contextlib
    try:
        from torch._export.utils import _special_op_to_preserve_cia
        from torch.export.exported_program import _override_composite_implicit_decomp
        sdpa = torch.ops.aten.scaled_dot_product_attention.default
        attempts = [{sdpa: _special_op_to_preserve_cia}, {}]
    except ImportError:
        def _override_composite_implicit_decomp(_):
            return contextlib.nullcontext()
        attempts = [{}]
    for preserve in attempts:
        try:
            with _override_composite_implicit_decomp(preserve), torch.no_grad():
                call = aot_module_simplified(gm, example_inputs, **options)
            break
        except importer.UnsupportedError:
            raise
        except Exception:  # noqa: BLE001 - traced again without preserving
            if not preserve:
                raise
            built.clear()
    call.compiled, call.programs = built[0] if built else None, built
    return call


def _symbolic(gm, example_inputs):
    """The runner of a graph with size arguments: compiled with dynamic
    sizes once per value of its scalars, or per input shapes where the
    graph's sizes cannot all be dynamic in Tensor IR."""
    from . import compile
    planned = _plan(gm, example_inputs)
    if planned is None:
        raise importer.UnsupportedError(
            "a graph from torch.compile takes a size argument that is no tensor "
            "argument's dimension, which xtile does not support")
    plan, tensors, scalars, dims = planned
    variants, static = {}, []

    # Exporting at run time (a new scalar value, or shapes of the static
    # fallback) must not be traced by Dynamo, whose frame hook is active
    # around a compiled graph.
    @torch.compiler.disable
    def compiled(args):
        values = tuple(_Scalar(args[i].item()) for i in scalars)
        # detach(): new tensor objects without the dimensions Dynamo marked
        # dynamic on them, which torch.export would otherwise follow.
        example = tuple(args[i].detach() for i in tensors)
        key = values + (tuple(tuple(t.shape) for t in example) if static else ())
        if key not in variants:
            module = _Graph(gm, plan, values)
            if not static:
                try:
                    variants[key] = compile(module, example,
                                            dynamic_shapes=(tuple(dims),))
                    return variants[key], example
                except importer.DynamicSizeError as e:
                    static.append(str(e))
                    key += tuple(tuple(t.shape) for t in example)
                    # torch.export marked the dynamic dimensions on them.
                    example = tuple(args[i].detach() for i in tensors)
            variants[key] = compile(module, example)
        return variants[key], example

    # Compile now, so that errors surface at torch.compile, outside Dynamo's
    # tracing context: torch.export would otherwise add its own inputs'
    # guards to the ShapeEnv of the frame Dynamo is compiling.
    with torch._guards.tracing(None):
        compiled(example_inputs)

    def run(*args):
        fn, example = compiled(args)
        return fn(*example)
    run.variants = variants
    run.static = static
    return run


try:
    from torch._dynamo import register_backend
    register_backend(name="xtile")(xtile_backend)
except Exception:  # already registered (entry point) or an older torch
    pass
