# An op xtile does not support is an error naming the op and the line of
# the model it comes from, where a graph cannot be partitioned (import_module)
# or strict mode asks for it (XTILE_STRICT=1); otherwise torch.compile runs
# the op through PyTorch and says so once (test/python/partition.py).
import os
import warnings

import torch
import torch.nn as nn

import xtile


class Gamma(nn.Module):
    def forward(self, x):
        y = x * 2
        return torch.lgamma(y)  # not supported by xtile


class NonZero(nn.Module):
    def forward(self, x):
        return torch.nonzero(x > 0)  # its shape depends on the data


class Masked(nn.Module):
    def forward(self, x):
        return x[x > 0] * 2  # boolean-mask indexing


class SplitAt(nn.Module):
    def forward(self, x, i):
        return torch.tensor_split(x, i)[0] * 2  # split where a tensor says


model, x = Gamma(), torch.randn(4, 8)
for data_dependent in (NonZero(), Masked()):
    try:
        xtile.import_module(data_dependent, (x,))
    except xtile.UnsupportedError as e:
        print(f"{type(data_dependent).__name__}:", str(e).splitlines()[0])
    except Exception as e:  # noqa: BLE001 - what this test must never see
        print(f"{type(data_dependent).__name__}: not an UnsupportedError:", type(e).__name__, e)
try:
    xtile.import_module(SplitAt(), (x, torch.tensor(2)))
except xtile.UnsupportedError as e:
    print("SplitAt:", str(e).splitlines()[0])
except Exception as e:  # noqa: BLE001 - what this test must never see
    print("SplitAt: not an UnsupportedError:", type(e).__name__, e)
try:
    xtile.import_module(model, (x,))
except xtile.UnsupportedError as e:
    print("import_module:", e)
os.environ["XTILE_STRICT"] = "1"
try:
    torch.compile(model, backend="xtile")(x)
except Exception as e:
    line = next(l for l in str(e).splitlines() if "not supported" in l)
    print("torch.compile:", line.strip())
del os.environ["XTILE_STRICT"]
torch._dynamo.reset()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    y = torch.compile(model, backend="xtile")(x)
torch.testing.assert_close(y, model(x))
print("partitioned:", [str(w.message).splitlines()[0] for w in caught
                       if "xtile" in str(w.message)])
