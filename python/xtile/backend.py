"""torch.compile(model, backend="xtile"): each graph TorchDynamo captures
is exported, imported into Tensor IR and compiled by xtile. An op xtile
does not support raises UnsupportedError naming it and its line; with
XTILE_FALLBACK=1 that graph runs eagerly instead, with a warning."""
import os
import warnings

import torch

from . import importer


def xtile_backend(gm, example_inputs, **kwargs):
    from . import Compiled
    try:
        compiled = Compiled(gm, tuple(example_inputs))
    except importer.UnsupportedError as e:
        if os.environ.get("XTILE_FALLBACK") == "1":
            warnings.warn(f"xtile: running this graph eagerly: {e}")
            return gm.forward
        raise

    def run(*args):
        out = compiled(*args)
        return out if isinstance(out, tuple) else (out,)
    return run


try:
    from torch._dynamo import register_backend
    register_backend(name="xtile")(xtile_backend)
except Exception:  # already registered (entry point) or an older torch
    pass
