"""The lowerings, registered per ATen operator, and what reaches them.

A lowering is a function `(imp, val, **arguments)`: `imp` the Importer
(the IR builder, plus the node being imported), `val` the node's example
value (its shape and dtype are the result's), the other parameters the
operator's arguments by their schema names (`self` as `input`). It takes
every overload of its operator (bound by the overload's schema) and
returns a Value, or a list of them, of exactly `val`'s shapes and dtypes.
"""
import textwrap

import torch

# Composites xtile keeps whole rather than let PyTorch decompose them: each
# is one xtensor composite whose decomposition (in f32 for 16-bit types)
# fuses into one kernel, and a softmax or a norm written out in Core ATen
# would have to be recognized again to be scheduled as one. diff is kept
# so that along a dynamic size it is not the concatenation Core ATen makes
# of it (a size T + 1; scans.py).
KEPT = ["linear.default", "layer_norm.default", "rms_norm.default",
        "softmax.int", "log_softmax.int", "gelu.default", "silu.default",
        "scaled_dot_product_attention.default", "addmm.default", "diff.default"]


def decomposition_table():
    """PyTorch's decompositions to Core ATen, less those of KEPT."""
    table = torch.export.default_decompositions()
    for name in KEPT:
        packet, overload = name.split(".")
        op = getattr(getattr(torch.ops.aten, packet), overload)
        if op in table:
            table.pop(op)
    return table


# ATen operator name (the packet's, as in its schema: "add", "_to_copy")
# -> its lowering.
LOWERINGS = {}


# ATen operator name -> its lowering for calls that take or give a complex
# tensor (complex.py): the same signature, complex tensors as
# complex.Complex.
COMPLEX_LOWERINGS = {}


def lowering(*names, table=LOWERINGS):
    """Registers the decorated function as the lowering of the ATen
    operators `names` (in `table`: COMPLEX_LOWERINGS for complex
    tensors)."""
    def register(fn):
        for name in names:
            if name in table:
                raise ValueError(f"aten.{name} has two lowerings: "
                                 f"{table[name].__qualname__} and {fn.__qualname__}")
            table[name] = fn
        return fn
    return register


def complex_lowering(*names):
    """lowering(*names) on complex tensors."""
    return lowering(*names, table=COMPLEX_LOWERINGS)


def register_each(factory, names):
    """Registers factory(arg) as the lowering of each ATen operator of
    `names`, a family whose members differ only by what they pass on:
    `names` maps each operator's name to the factory's argument (a tuple:
    its arguments), or lists names that are the argument themselves."""
    items = names.items() if isinstance(names, dict) else ((n, n) for n in names)
    for name, arg in items:
        lowering(name)(factory(*arg) if isinstance(arg, tuple) else factory(arg))


def supported_ops():
    """The ATen operators (packet names) the importer has a lowering for."""
    return sorted(set(LOWERINGS) | set(COMPLEX_LOWERINGS))


def supported_ops_markdown():
    """The supported-op list of docs/Frontend.md, generated from the
    registry (scripts/update-docs.sh writes it there)."""
    ops = supported_ops()
    kept = sorted({k.split(".")[0] for k in KEPT})
    paragraphs = [f"{len(ops)} ATen operators, every overload of each (bound "
                  "by its schema); kept whole rather than decomposed: "
                  + ", ".join(f"`{k}`" for k in kept) + ".",
                  ", ".join(f"`{op}`" for op in ops) + ".",
                  "On complex64 and complex128 tensors (as pairs of reals): "
                  + ", ".join(f"`{op}`" for op in sorted(COMPLEX_LOWERINGS)) + "."]
    return "\n\n".join(textwrap.fill(p, 79, break_long_words=False)
                       for p in paragraphs) + "\n"
