# The PyTorch frontend on the models a user hands us: each is exported,
# imported into Tensor IR, compiled through the whole pipeline and run on
# the best backend (here the CPU emulation), then compared with eager
# PyTorch within per-dtype tolerances. Prints one line per model.
import math
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

import xtile

torch.manual_seed(0)
TOL = {torch.float32: dict(rtol=1.3e-6, atol=1e-5),
       torch.float16: dict(rtol=1e-3, atol=2e-3),
       torch.bfloat16: dict(rtol=1.6e-2, atol=1.6e-2)}


class RMSNorm(nn.Module):
    """As in LLaMA's code."""

    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.randn(dim) * 0.1 + 1)

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class Softmax(nn.Module):
    def forward(self, x):
        return torch.softmax(x, dim=-1)


class GeluMLP(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(d, h), nn.Linear(h, d)

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x)))


class SwiGLU(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.gate = nn.Linear(d, h, bias=False)
        self.up = nn.Linear(d, h, bias=False)
        self.down = nn.Linear(h, d, bias=False)

    def forward(self, x):
        return self.down(F.silu(self.gate(x)) * self.up(x))


class Attention(nn.Module):
    def __init__(self, d, heads, causal=False):
        super().__init__()
        self.heads, self.causal = heads, causal
        self.q = nn.Linear(d, d, bias=False)
        self.k = nn.Linear(d, d, bias=False)
        self.v = nn.Linear(d, d, bias=False)
        self.o = nn.Linear(d, d, bias=False)

    def forward(self, x):
        b, t, d = x.shape
        h = self.heads

        def split(y):
            return y.view(b, t, h, d // h).transpose(1, 2)
        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=self.causal)
        return self.o(y.transpose(1, 2).reshape(b, t, d))


class DecoderLayer(nn.Module):
    def __init__(self, d, heads, hidden):
        super().__init__()
        self.norm1, self.norm2 = RMSNorm(d), RMSNorm(d)
        self.attn = Attention(d, heads, causal=True)
        self.mlp = SwiGLU(d, hidden)

    def forward(self, x):
        h = x + self.attn(self.norm1(x))
        return h + self.mlp(self.norm2(h))


def check(name, model, x, dtype=torch.float32):
    model = model.to(dtype).eval()
    x = x.to(dtype)
    with torch.no_grad():
        expected = model(x)
        got = xtile.compile(model, (x,))(x)
    err = ((got.float() - expected.float()).norm() / expected.float().norm()).item()
    torch.testing.assert_close(got, expected, **TOL[dtype])
    print(f"{name} {str(dtype).split('.')[-1]}: ok (normwise error {err:.1e})")




# An embedding lookup (gather) with a linear layer and log_softmax, and
# concatenation, split, where, slicing and relu.
class Embedding(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb, self.out = nn.Embedding(100, 32), nn.Linear(32, 16)

    def forward(self, ids):
        return F.log_softmax(self.out(self.emb(ids)), dim=-1)


class Movement(nn.Module):
    def forward(self, x, y):
        z = torch.cat([x, y], dim=-1)
        a, b = z.split(8, dim=-1)
        return torch.where(a > 0, a, b * 0.5) + z[:, 1:9].relu()


def main():
    check("layernorm", nn.LayerNorm(384), torch.randn(32, 384))
    check("layernorm", nn.LayerNorm(384), torch.randn(32, 384), torch.bfloat16)
    check("rmsnorm", RMSNorm(512), torch.randn(4, 16, 512))
    check("rmsnorm", RMSNorm(512), torch.randn(4, 16, 512), torch.float16)
    check("rmsnorm", RMSNorm(512), torch.randn(4, 16, 512), torch.bfloat16)
    check("softmax", Softmax(), torch.randn(8, 16, 100))
    check("softmax", Softmax(), torch.randn(8, 16, 100), torch.float16)
    check("gelu_mlp", GeluMLP(64, 256), torch.randn(2, 24, 64))
    check("gelu_mlp", GeluMLP(64, 256), torch.randn(2, 24, 64), torch.bfloat16)
    check("swiglu_mlp", SwiGLU(64, 176), torch.randn(2, 24, 64))
    check("attention", Attention(64, 4), torch.randn(2, 16, 64))
    check("decoder_layer", DecoderLayer(64, 4, 176), torch.randn(2, 16, 64))
    check("decoder_layer", DecoderLayer(64, 4, 176), torch.randn(2, 16, 64), torch.bfloat16)
    with torch.no_grad():
        m, ids = Embedding().eval(), torch.randint(0, 100, (4, 8))
        torch.testing.assert_close(xtile.compile(m, (ids,))(ids), m(ids))
        print("embedding int64: ok")
        m, x, y = Movement(), torch.randn(5, 8), torch.randn(5, 8)
        torch.testing.assert_close(xtile.compile(m, (x, y))(x, y), m(x, y))
        print("movement float32: ok")


# The model classes are shared with bench/model_compile_latency.py.
if __name__ == "__main__":
    main()
