"""torch.export programs to Tensor IR text.

The exported graph keeps PyTorch's composite ATen ops (layer_norm, linear,
softmax, gelu, scaled_dot_product_attention, ...); each maps to the
matching xtensor composite where there is one, else to atomic xtensor ops.
Implicit broadcasting and type promotion become explicit
`xtensor.broadcast` and `xtensor.cast`. Every op carries the location of
the Python line that produced it (the innermost frame outside PyTorch), so
a kernel can be traced back to the model's source.

The modules (docs/Frontend.md, "Importer layout"):
  graph          the walk over the graph, binding and dispatch (Importer)
  registry       the lowerings by ATen operator (@lowering), KEPT
  ir             the builder through which Tensor IR text is written
  sizes          dynamic sizes (torch.export Dims) and their ranges
  errors         UnsupportedError, DynamicSizeError, why an op has no lowering
  elementwise, libm, reductions, normalization, matmul, scans, selection,
  indexing, views, convolution: the lowerings, by family
  complex        complex tensors inside a graph, as pairs of reals
  foreach        the foreach operators (optimizers) as their per-tensor ops
"""
# Each family module registers its lowerings when imported.
from . import (complex, convolution, elementwise, indexing, libm,  # noqa: F401
               matmul, normalization, reductions, scans, selection, views)
from . import foreach  # noqa: F401,E402  (after the lowerings it maps onto)
from .errors import DynamicSizeError, UnsupportedError
from .graph import Importer, bind, import_exported
from .ir import element_type, tensor_type
from .registry import (KEPT, LOWERINGS, decomposition_table, lowering, supported_ops,
                       supported_ops_markdown)
from .sizes import UNBOUNDED_MAX

__all__ = ["DynamicSizeError", "UnsupportedError", "Importer", "bind", "import_exported",
           "element_type", "tensor_type", "KEPT", "LOWERINGS", "decomposition_table",
           "lowering", "supported_ops", "supported_ops_markdown", "UNBOUNDED_MAX"]
