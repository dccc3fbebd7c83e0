# import_module: composites map to xtensor composites, parameters become
# arguments (or constants), and every op carries the model's line, which
# errors further down the pipeline point at.
import subprocess
import sys
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F

import xtile


class LayerNormMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(64)
        self.fc = nn.Linear(64, 128)

    def forward(self, x):
        return F.gelu(self.fc(self.norm(x)), approximate="tanh")


model, x = LayerNormMLP().eval(), torch.randn(8, 64)
text = xtile.import_module(model, (x,))
print(text)
print("CONSTANTS:", "\nCONSTANTS: ".join(
    l.strip()[:60] for l in xtile.import_module(model, (x,), params_as_constants=True).splitlines()
    if "func.func" in l or "xtensor.constant" in l))


# The same tensor given as two example inputs: the function reads each of
# its arguments (torch.export alone would trace one input read for both).
class Sub(nn.Module):
    def forward(self, a, b):
        return a - b


t = torch.randn(4)
print("ALIASED:", next(l.strip() for l in xtile.import_module(Sub(), (t, t)).splitlines()
                       if "xtensor.sub" in l).split(" loc(")[0])


# The locations survive the pipeline: each kernel points at its line.
with tempfile.NamedTemporaryFile("w", suffix=".mlir") as f:
    f.write(text)
    f.flush()
    opt = sys.argv[1] if len(sys.argv) > 1 else "xtile-opt"
    kernel = subprocess.run([opt, "--lower-to-kernel", "--mlir-print-debuginfo",
                             f.name], capture_output=True, text=True, check=True)
import re
for line in kernel.stdout.splitlines():
    if line.lstrip().startswith("xkernel.func"):
        where = re.findall(r'loc\("([^"]+)":(\d+):\d+\)', line)
        print("KERNEL:", line.split("(")[0].strip(), "at", ":".join(where[-1]))
