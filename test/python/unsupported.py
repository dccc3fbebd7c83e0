# An op xtile does not support is an error naming the op and the line of
# the model it comes from (with torch.compile too, unless XTILE_FALLBACK=1
# asks to run that graph eagerly).
import os
import warnings

import torch
import torch.nn as nn

import xtile


class Cumulative(nn.Module):
    def forward(self, x):
        y = x * 2
        return torch.cumsum(y, dim=-1)  # not supported by xtile


model, x = Cumulative(), torch.randn(4, 8)
try:
    xtile.import_module(model, (x,))
except xtile.UnsupportedError as e:
    print("import_module:", e)
try:
    torch.compile(model, backend="xtile")(x)
except Exception as e:
    line = next(l for l in str(e).splitlines() if "not supported" in l)
    print("torch.compile:", line.strip())
os.environ["XTILE_FALLBACK"] = "1"
torch._dynamo.reset()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    y = torch.compile(model, backend="xtile")(x)
torch.testing.assert_close(y, model(x))
print("fallback:", [str(w.message)[:60] for w in caught if "xtile" in str(w.message)])
