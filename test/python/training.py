# Training through torch.compile(backend="xtile"): the backend joins
# autograd through AOTAutograd, and xtile compiles the forward and the
# backward graphs (each a partitioned program: what xtile cannot compile
# runs through PyTorch between the compiled parts, reported once). Each
# model takes 3 optimizer steps (SGD with momentum) compiled and eagerly
# from the same weights:
# the losses, the gradients and the parameters must agree in f32.
#
#   training.py [models...]
import copy
import sys
import time
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

import xtile  # noqa: F401  (registers backend="xtile")
from xtile.backend import xtile_backend

torch.manual_seed(0)


class MLP(nn.Module):
    """Linear, GELU, LayerNorm, Linear and the cross-entropy loss."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.LayerNorm(64),
                                 nn.Linear(64, 10))

    def forward(self, x, target):
        return F.cross_entropy(self.net(x), target)


class SwiGLU(nn.Module):
    """RMSNorm and a SwiGLU MLP with a residual, and a mean-square loss."""

    def __init__(self, d=64, hidden=128):
        super().__init__()
        self.norm = nn.RMSNorm(d, eps=1e-6)
        self.gate, self.up = nn.Linear(d, hidden, bias=False), nn.Linear(d, hidden, bias=False)
        self.down = nn.Linear(hidden, d, bias=False)

    def forward(self, x, target):
        h = self.norm(x)
        y = x + self.down(F.silu(self.gate(h)) * self.up(h))
        return F.mse_loss(y, target)


class Attention(nn.Module):
    """Causal multi-head attention through SDPA, and a mean-square loss."""

    def __init__(self, d=64, heads=4):
        super().__init__()
        self.heads = heads
        self.qkv, self.out = nn.Linear(d, 3 * d), nn.Linear(d, d)

    def forward(self, x, target):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, d // self.heads).unbind(2)
        o = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2),
                                           v.transpose(1, 2), is_causal=True)
        return F.mse_loss(self.out(o.transpose(1, 2).reshape(b, t, d)), target)


class HF(nn.Module):
    """A Hugging Face model's language-modelling loss (labels = inputs)."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, ids, labels):
        return self.model(input_ids=ids, labels=labels).loss


def hf(family):
    import transformers as T
    small = dict(vocab_size=96)
    if family == "gpt2":
        model = T.GPT2LMHeadModel(T.GPT2Config(n_embd=64, n_layer=2, n_head=4, n_positions=32,
                                               resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0,
                                               **small))
    elif family == "llama":
        model = T.LlamaForCausalLM(T.LlamaConfig(hidden_size=64, intermediate_size=128,
                                                 num_hidden_layers=2, num_attention_heads=4,
                                                 num_key_value_heads=2,
                                                 max_position_embeddings=32, **small))
    else:
        model = T.BertForMaskedLM(T.BertConfig(hidden_size=64, num_hidden_layers=2,
                                               num_attention_heads=4, intermediate_size=128,
                                               max_position_embeddings=32,
                                               hidden_dropout_prob=0.0,
                                               attention_probs_dropout_prob=0.0, **small))
    model.config._attn_implementation = "sdpa"
    ids = torch.randint(0, 96, (2, 12))
    return HF(model), (ids, ids.clone())


def cases():
    return {
        "mlp": lambda: (MLP(), (torch.randn(16, 32), torch.randint(0, 10, (16,)))),
        "swiglu": lambda: (SwiGLU(), (torch.randn(2, 8, 64), torch.randn(2, 8, 64))),
        "attention": lambda: (Attention(), (torch.randn(2, 12, 64), torch.randn(2, 12, 64))),
        "gpt2": lambda: hf("gpt2"),
        "llama": lambda: hf("llama"),
        "bert": lambda: hf("bert"),
    }


def train(name, steps=3):
    """3 optimizer steps compiled and eagerly: the largest differences."""
    torch.manual_seed(0)
    model, inputs = cases()[name]()
    model.train()
    ref = copy.deepcopy(model)
    programs = []

    def recording(gm, example_inputs):
        call = xtile_backend(gm, example_inputs)
        programs.append(call)
        return call
    compiled = torch.compile(model, backend=recording)
    # SGD with momentum: AdamW divides each gradient by its own magnitude,
    # which turns rounding noise on a gradient that is zero in exact
    # arithmetic (attention's key bias) into a step of the learning rate.
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    ref_opt = torch.optim.SGD(ref.parameters(), lr=0.1, momentum=0.9)
    start = time.time()
    loss_error = grad_error = 0.0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(steps):
            loss, want = compiled(*inputs), ref(*inputs)
            loss.backward()
            want.backward()
            loss_error = max(loss_error, abs(loss.item() - want.item()))
            grad_error = max(grad_error, max(
                (p.grad - q.grad).abs().max().item()
                for p, q in zip(model.parameters(), ref.parameters()) if q.grad is not None))
            opt.step()
            ref_opt.step()
            opt.zero_grad()
            ref_opt.zero_grad()
    took = time.time() - start
    param_error = max((p - q).abs().max().item()
                      for p, q in zip(model.parameters(), ref.parameters()))
    built = [p for call in programs for p in getattr(call, "programs", [])]
    forward = [p for p in built if p.name.startswith("forward")]
    backward = [p for p in built if p.name.startswith("backward")]
    fallbacks = sorted({f.op for p in built for f in p.fallbacks})
    ok = loss_error <= 1e-5 and grad_error <= 1e-4 and param_error <= 1e-5 and backward
    return (f"{name}: {'ok' if ok else 'FAILED'} (loss {loss_error:.1e}, grads {grad_error:.1e}, "
            f"parameters {param_error:.1e} from eager after {steps} SGD steps); "
            f"{len(forward)} forward and {len(backward)} backward graph(s), "
            f"{sum(p.launches() for p in forward)} + {sum(p.launches() for p in backward)} "
            f"launches; through PyTorch: {', '.join(fallbacks) or 'nothing'}; "
            f"{sum('run through PyTorch' in str(w.message) for w in caught)} warning(s); "
            f"{took:.1f} s")


def input_gradient():
    """The gradient with respect to an input, and no_grad's forward-only path."""
    torch.manual_seed(0)
    model = SwiGLU()
    x = torch.randn(2, 8, 64, requires_grad=True)
    target = torch.randn(2, 8, 64)
    compiled = torch.compile(model, backend="xtile")
    compiled(x, target).backward()
    got = x.grad.clone()
    x.grad = None
    model(x, target).backward()
    error = (got - x.grad).abs().max().item()
    calls = []

    def recording(gm, example_inputs):
        call = xtile_backend(gm, example_inputs)
        calls.append(hasattr(call, "programs"))
        return call
    torch._dynamo.reset()
    with torch.no_grad():
        torch.compile(model, backend=recording)(x, target)
    return (f"input gradient: {'ok' if error <= 1e-6 else 'FAILED'} ({error:.1e}); "
            f"under no_grad: {'AOTAutograd' if any(calls) else 'the forward-only path'}")


def optimizer(kind, steps=3):
    """torch.compile(optimizer.step) for SGD with momentum and AdamW
    (foreach): the per-parameter updates compiled (the foreach operators as
    per-tensor elementwise chains), the state written back in place."""
    torch.manual_seed(0)
    model, inputs = cases()["mlp"]()
    ref = copy.deepcopy(model)
    model(*inputs).backward()
    ref(*inputs).backward()
    make = ((lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9, foreach=True))
            if kind == "sgd" else (lambda ps: torch.optim.AdamW(ps, lr=1e-2, foreach=True)))
    opt, ref_opt = make(model.parameters()), make(ref.parameters())
    calls = []

    def recording(gm, example_inputs):
        call = xtile_backend(gm, example_inputs)
        calls.append(call.compiled)
        return call
    step = torch.compile(opt.step, backend=recording)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(steps):
            step()
            ref_opt.step()
    error = max((p - q).abs().max().item() for p, q in zip(model.parameters(), ref.parameters()))
    state = max((a - b).abs().max().item()
                for p, q in zip(model.parameters(), ref.parameters())
                for a, b in zip(opt.state[p].values(), ref_opt.state[q].values())
                if isinstance(a, torch.Tensor) and a.is_floating_point())
    built = [c for c in calls if c is not None]
    warned = sum("run through PyTorch" in str(w.message) for w in caught)
    return (f"{kind} step: {'ok' if error <= 2e-6 and state <= 2e-6 else 'FAILED'} "
            f"(parameters {error:.1e}, state {state:.1e} from eager after {steps} steps); "
            f"{len(built)} graph(s), {sum(c.launches() for c in built)} launches; "
            f"{warned} warning(s)")


def autocast():
    """bf16 autocast training: the gradients, in f32 as eager keeps them,
    against eager's under the same autocast."""
    torch.manual_seed(0)
    model, inputs = cases()["swiglu"]()
    ref = copy.deepcopy(model)
    compiled = torch.compile(model, backend="xtile")
    with torch.autocast("cpu", dtype=torch.bfloat16):
        loss, want = compiled(*inputs), ref(*inputs)
    loss.backward()
    want.backward()
    dtypes = sorted({str(p.grad.dtype) for p in model.parameters()})
    scale = max(q.grad.abs().max().item() for q in ref.parameters())
    error = max((p.grad - q.grad).abs().max().item()
                for p, q in zip(model.parameters(), ref.parameters()))
    ok = error <= 2 ** -7 * scale and abs(loss.item() - want.item()) <= 1e-2
    return (f"bf16 autocast: {'ok' if ok else 'FAILED'} (gradients {error:.1e} of "
            f"{scale:.1e} from eager's, in {', '.join(dtypes)})")


def cross_entropy(dtype):
    """Cross-entropy through xtile's one-pass op (xtile/cross_entropy.py):
    the loss and gradient against eager's, with targets ignored
    (ignore_index) among them; bf16 logits upcast by .float() first, as
    Hugging Face's loss does. Its kernels: the backward one elementwise
    pass over the gradient the forward saved, in the logits' type (bytes
    per logit: 2 x the type's size)."""
    torch.manual_seed(0)
    tokens, vocab = 64, 1000
    logits = torch.randn(tokens, vocab, dtype=dtype, requires_grad=True)
    target = torch.randint(0, vocab, (tokens,))
    target[::7] = -100

    def loss_of(x):
        return torch.nn.functional.cross_entropy(x.float(), target) * 1.5
    calls = []

    def recording(gm, example_inputs):
        call = xtile_backend(gm, example_inputs)
        calls.append(call)
        return call
    torch._dynamo.reset()
    loss = torch.compile(loss_of, backend=recording)(logits)
    loss.backward()
    got = logits.grad.float()
    logits.grad = None
    want = loss_of(logits)
    want.backward()
    error = (got - logits.grad.float()).abs().max().item()
    scale = logits.grad.float().abs().max().item()
    # f32: as eager's to f32 rounding; bf16: one rounding of the saved
    # gradient and one of the scaled result (eager rounds once).
    bound = 1e-7 if dtype == torch.float32 else 2 ** -7 * scale
    loss_error = abs(loss.item() - want.item())
    backward = [p for call in calls for p in getattr(call, "programs", [])
                if p.name.startswith("backward")]
    moved, ideal = (sum(p.traffic()[i] for p in backward) for i in (0, 1))
    ok = error <= bound and loss_error <= 1e-5 and backward
    return (f"cross-entropy {str(dtype).split('.')[-1]}: {'ok' if ok else 'FAILED'} "
            f"(loss {loss_error:.1e}, gradient {error:.1e}); backward "
            f"{sum(p.launches() for p in backward)} launch(es), {moved / ideal:.2f}x its "
            f"ideal bytes, {moved // (tokens * vocab)} B per logit")


def main():
    names = sys.argv[1:] or list(cases())
    for name in names:
        torch._dynamo.reset()
        try:
            print(train(name))
        except Exception as e:  # noqa: BLE001 - reported
            print(f"{name}: FAILED {type(e).__name__}: {str(e)[:400]}")
        sys.stdout.flush()
    print(input_gradient())
    for dtype in (torch.float32, torch.bfloat16):
        print(cross_entropy(dtype))
    print(autocast())
    for kind in ("sgd", "adamw"):
        torch._dynamo.reset()
        print(optimizer(kind))


if __name__ == "__main__":
    main()
