# torch.compile(model, backend="xtile") on a small transformer block: the
# graph TorchDynamo captures is compiled by xtile and matches eager.
import torch
import torch.nn as nn
import torch.nn.functional as F

import xtile  # noqa: F401  (registers the backend)

torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self, d=64, h=176):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.up = nn.Linear(d, h)
        self.down = nn.Linear(h, d)

    def forward(self, x):
        return x + self.down(F.silu(self.up(self.norm(x))))


model = Block().eval()
x = torch.randn(4, 32, 64)
with torch.no_grad():
    expected = model(x)
    compiled = torch.compile(model, backend="xtile")
    got = compiled(x)
torch.testing.assert_close(got, expected, rtol=1.3e-6, atol=1e-5)
print("torch.compile backend=xtile: ok")
