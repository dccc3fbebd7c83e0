# The Python package installed outside the checkout (pip, into a directory
# of its own) with xtile installed by `cmake --install` into a prefix:
# run from an unrelated directory, it finds the tools ($XTILE_PREFIX/bin)
# and xtile_emulation.h (<prefix>/share/xtile/runtime), compiles a model and
# matches eager. Its build cache key changes with the emulation header and
# names the compiler's version.
import os
import pathlib
import shutil
import sys
import tempfile

import torch

site = pathlib.Path(sys.argv[1]).resolve()
prefix = pathlib.Path(os.environ["XTILE_PREFIX"]).resolve()

import xtile  # noqa: E402
from xtile import runtime  # noqa: E402

print("package from the install:",
      pathlib.Path(xtile.__file__).resolve().is_relative_to(site))
print("tools from the prefix:",
      pathlib.Path(runtime._tool("xtile-opt")).resolve().is_relative_to(prefix))
print("emulation header from the prefix:",
      runtime._runtime_dir().resolve() == prefix / "share" / "xtile" / "runtime")

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(32, 16), torch.nn.GELU())
x = torch.randn(8, 32)
with torch.no_grad():
    got = xtile.compile(model, (x,), backend="emu")(x)
    print("matches eager:", torch.allclose(got, model(x), atol=1e-5, rtol=1e-5))

key = runtime._compiler_key("emu")
print("key names the version:", key.split(":")[0])
with tempfile.TemporaryDirectory() as d:
    shutil.copy(runtime._runtime_dir() / "xtile_emulation.h", d)
    with open(pathlib.Path(d, "xtile_emulation.h"), "a") as f:
        f.write("// changed\n")
    os.environ["XTILE_RUNTIME_DIR"] = d
    print("key follows the emulation header:", runtime._compiler_key("emu") != key)
