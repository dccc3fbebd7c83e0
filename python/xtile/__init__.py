"""xtile's PyTorch frontend.

    import xtile
    text = xtile.import_module(model, (x,))          # Tensor IR
    fast = xtile.compile(model, (x,))                # a callable
    y = fast(x)
    opt = torch.compile(model, backend="xtile")      # the torch.compile backend
"""
import re

import torch

from .importer import UnsupportedError, decomposition_table, import_exported
from .runtime import Program, default_backend

__all__ = ["import_module", "compile", "UnsupportedError", "Compiled"]


def _export(module, example_inputs):
    """torch.export, then PyTorch's decompositions to the Core ATen opset
    except for the composites xtile keeps whole (see importer.KEPT)."""
    if not isinstance(example_inputs, (tuple, list)):
        example_inputs = (example_inputs,)
    was_training = getattr(module, "training", False)
    if isinstance(module, torch.nn.Module):
        module.eval()
    try:
        exported = torch.export.export(module, tuple(example_inputs), strict=False)
        return exported.run_decompositions(decomposition_table())
    finally:
        if was_training:
            module.train()


def _name(module):
    base = type(module).__name__ if isinstance(module, torch.nn.Module) else "forward"
    return re.sub(r"[^A-Za-z0-9_]", "_", base).lower() or "forward"


def import_module(module, example_inputs, params_as_constants=False):
    """Tensor IR text of `module` called on `example_inputs`, through
    torch.export. Parameters and buffers become function arguments (before
    the inputs), or constants with params_as_constants=True. Raises
    UnsupportedError naming an op xtile cannot import and the line of the
    model it comes from."""
    text, _ = import_exported(_export(module, example_inputs), _name(module),
                              params_as_constants)
    return text


class Compiled:
    """`module` compiled by xtile: call it like the module."""

    def __init__(self, module, example_inputs, backend=None, target="sm_90",
                 params_as_constants=False, allow_tf32=None):
        exported = _export(module, example_inputs)
        self.mlir, imp = import_exported(exported, _name(module),
                                         params_as_constants)
        self.backend = backend or default_backend()
        self.device = torch.device("cuda" if self.backend == "cuda" else "cpu")
        self.sources = imp.arg_sources
        self.outputs = [(o.shape, o.dtype) for o in imp.outputs]
        self.roles = imp.output_roles
        self.buffers = imp.buffers
        for kind, what in self.roles:
            if kind not in ("USER_OUTPUT", "USER_INPUT_MUTATION", "BUFFER_MUTATION"):
                raise UnsupportedError(f"a graph result of kind {kind} ({what}) is "
                                       "not supported by xtile")
        if allow_tf32 is None:
            allow_tf32 = torch.backends.cuda.matmul.allow_tf32
        self.program = Program(self.mlir, imp.name, self.backend, target,
                               allow_tf32=allow_tf32)

    def __call__(self, *inputs):
        buffers, user = [], iter(inputs)
        for kind, value in self.sources:
            t = next(user) if kind == "input" else value
            buffers.append(t.detach().to(self.device).contiguous())
        outs = [torch.empty(shape, dtype=dtype, device=self.device)
                for shape, dtype in self.outputs]
        self.program(buffers + outs)
        # In-place assignments to inputs and buffers, as eager makes them.
        names = [name for kind, name in self.sources if kind == "input"]
        results = []
        with torch.no_grad():
            for (kind, target), out in zip(self.roles, outs):
                if kind == "USER_INPUT_MUTATION":
                    inputs[names.index(target)].copy_(out)
                elif kind == "BUFFER_MUTATION":
                    self.buffers[target].copy_(out)
                else:
                    results.append(out)
        return results[0] if len(results) == 1 else tuple(results)


def compile(module, example_inputs, backend=None, target="sm_90",
            params_as_constants=False, allow_tf32=None):
    """`module` compiled through xtile's pipeline for `example_inputs`'
    shapes and types; runs on the GPU when there is one (backend="cuda"),
    else on the CPU through CUDA emulation (backend="emu").

    allow_tf32: let f32 matmuls run on tensor cores with TensorFloat-32
    operands (sm_80 and later; about f16's precision on the operands, f32
    accumulation). None follows torch.backends.cuda.matmul.allow_tf32
    (torch.set_float32_matmul_precision("high") sets it), as PyTorch's own
    matmuls do; f32 matmuls are exact (FMA) otherwise."""
    return Compiled(module, example_inputs, backend, target, params_as_constants,
                    allow_tf32)


from .backend import xtile_backend  # noqa: E402,F401  (registers "xtile")
