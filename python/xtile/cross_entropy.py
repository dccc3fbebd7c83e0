"""Cross-entropy in one pass for training: the loss and the gradient of
the logits computed together by the forward, as Liger's kernel does.

AOTAutograd's graphs of `F.cross_entropy` hold the log-probabilities for
the backward ([tokens, vocab], in the compute type), which the backward
reads to form the gradient: the logits are read, the log-probabilities
written, read again and the gradient written. The forward already has
everything the gradient needs but the loss's own gradient, a scalar (or
one per row with reduction="none"), so `xtile::fused_cross_entropy`
writes the gradient of the rows' losses with respect to the logits
(softmax - one_hot), in the logits' type, and the backward only scales
it by the incoming gradient (over the rows counted, for a mean). The
forward reads the logits once and writes the gradient; the backward
reads it and writes the logits' gradient, an elementwise scaling that
can fuse into the kernels that consume it.

`one_pass_cross_entropy(gm)` rewrites the `F.cross_entropy` calls of a
training graph to it where it applies: class-index targets, no class
weights, no label smoothing, [N, C] logits of f32/f64, or of f16/bf16
upcast by `.float()` just before (Hugging Face's loss): then the op reads
the 16-bit logits, computes in f32 as eager does on the upcast copy, and
keeps the gradient in 16 bits (half the bytes eager saves). Other calls
are left as they are."""
import torch

_SIXTEEN = (torch.float16, torch.bfloat16)


def _compute_type(dtype):
    return torch.float32 if dtype in _SIXTEEN else dtype


@torch.library.custom_op("xtile::fused_cross_entropy", mutates_args=())
def fused_cross_entropy(input: torch.Tensor, target: torch.Tensor, ignore_index: int,
                        reduction: str) -> tuple[torch.Tensor, torch.Tensor]:
    """(cross_entropy(input upcast, target, ignore_index=, reduction=), the
    gradient of the sum of its rows' losses with respect to input, in
    input's type: softmax - one_hot, zero on ignored rows; the backward
    scales it by the incoming gradient, over the rows counted where
    reduction is "mean")."""
    x = input.to(_compute_type(input.dtype))
    valid = target != ignore_index
    t = torch.where(valid, target, 0)
    lse = torch.logsumexp(x, 1, keepdim=True)
    losses = torch.where(valid, (lse - x.gather(1, t[:, None]))[:, 0], 0.0)
    grad = torch.exp(x - lse) - torch.nn.functional.one_hot(t, x.shape[1]).to(x.dtype)
    if reduction == "mean":
        loss = losses.sum() / valid.sum().to(x.dtype)
    else:
        loss = losses.sum() if reduction == "sum" else losses
    return loss, torch.where(valid[:, None], grad, 0.0).to(input.dtype)


@fused_cross_entropy.register_fake
def _(input, target, ignore_index, reduction):
    shape = (input.shape[0],) if reduction == "none" else ()
    return input.new_empty(shape, dtype=_compute_type(input.dtype)), torch.empty_like(input)


def _setup(ctx, inputs, output):
    ctx.ignore_index, ctx.reduction = inputs[2], inputs[3]
    ctx.save_for_backward(output[1], inputs[1])


def _backward(ctx, grad_loss, _grad_of_gradient):
    grad, target = ctx.saved_tensors
    scale = grad_loss[:, None] if ctx.reduction == "none" else grad_loss
    if ctx.reduction == "mean":
        scale = scale / (target != ctx.ignore_index).sum().to(scale.dtype)
    return (grad * scale).to(grad.dtype), None, None, None


fused_cross_entropy.register_autograd(_backward, setup_context=_setup)


def _one_pass(input, target, weight=None, size_average=None, ignore_index=-100,
              reduce=None, reduction="mean", label_smoothing=0.0, upcast=False):
    """F.cross_entropy (of input.float() where upcast) through
    fused_cross_entropy where it applies."""
    applies = (weight is None and size_average is None and reduce is None
               and label_smoothing == 0.0 and reduction in ("mean", "sum", "none")
               and input.dim() == 2 and target.dim() == 1 and target.dtype == torch.int64
               and (input.dtype in _SIXTEEN if upcast
                    else input.dtype in (torch.float32, torch.float64)))
    if not applies:
        return torch.nn.functional.cross_entropy(
            input.float() if upcast else input, target, weight, size_average, ignore_index,
            reduce, reduction, label_smoothing)
    return torch.ops.xtile.fused_cross_entropy(input, target, ignore_index, reduction)[0]


def _upcast_source(node):
    """The 16-bit tensor whose `.float()` (or `.to(torch.float32)`) node is,
    else None."""
    if node.op != "call_method" or not node.args:
        return None
    upcast = (node.target == "float" and len(node.args) == 1 and not node.kwargs
              or node.target == "to" and (node.args[1:] == (torch.float32,) and not node.kwargs
                                          or len(node.args) == 1
                                          and node.kwargs == {"dtype": torch.float32}))
    if not upcast:
        return None
    source = node.args[0]
    meta = getattr(source, "meta", {}).get("example_value")
    return source if isinstance(meta, torch.Tensor) and meta.dtype in _SIXTEEN else None


def one_pass_cross_entropy(gm):
    """Dynamo's graph `gm` with its F.cross_entropy calls through _one_pass
    (which keeps the others as they were)."""
    changed = False
    for node in gm.graph.nodes:
        if node.op == "call_function" and node.target is torch.nn.functional.cross_entropy:
            node.target = _one_pass
            upcast = node.args[0] if node.args else None
            source = _upcast_source(upcast) if upcast is not None else None
            if source is not None:
                node.args = (source,) + tuple(node.args[1:])
                node.kwargs = dict(node.kwargs, upcast=True)
                if not upcast.users:
                    gm.graph.erase_node(upcast)
            changed = True
    if changed:
        gm.recompile()
