"""The frontend compiles with the schedules xtile-tune wrote in
$XTILE_TUNE_DIR/<target>.json: a spec entry for the kernel's identity is
used (a schedule of the wrong kind is then an error naming it), results
still match eager, and changing the spec changes the cache key."""
import json
import os
import pathlib
import subprocess
import sys
import tempfile

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "python"))
import xtile  # noqa: E402
from xtile import runtime  # noqa: E402


class Norm(torch.nn.Module):
    def forward(self, x):
        return torch.softmax(x * 2.0, dim=-1)


def identity_of(mlir):
    """The identity of the module's only kernel, as xtile-opt lists it."""
    with tempfile.TemporaryDirectory() as tmp:
        src = pathlib.Path(tmp, "m.mlir")
        src.write_text(mlir)
        loop = subprocess.run([runtime._tool("xtile-opt"), "--lower-to-loop", str(src)],
                              check=True, capture_output=True, text=True).stdout
        listed = subprocess.run(
            [runtime._tool("xtile-opt"), "--xtile-list-schedules", "-o", "/dev/null"],
            input=loop, check=True, capture_output=True, text=True).stdout
    report = json.loads(listed)
    return report["compiler"], report["kernels"][0]


def main():
    torch.manual_seed(0)
    x = torch.randn(8, 100)
    mlir = xtile.import_module(Norm(), (x,))
    compiler, kernel = identity_of(mlir)
    with tempfile.TemporaryDirectory() as tune, tempfile.TemporaryDirectory() as cache:
        os.environ["XTILE_TUNE_DIR"] = tune
        os.environ["XTILE_CACHE_DIR"] = cache
        spec = pathlib.Path(tune, "sm_90.json")

        def write(schedule):
            spec.write_text(json.dumps({
                "format": "xtile-schedule-spec", "compiler": compiler,
                "schedules": [{"kernel": kernel["identity"], "target": "sm_90",
                               "schedule": schedule}]}))

        # The last candidate (the model's worst): still correct.
        write(kernel["candidates"][-1]["schedule"])
        y = xtile.compile(Norm(), (x,), backend="emu")(x)
        err = (y - Norm()(x)).abs().max().item()
        print(f"tuned {kernel['candidates'][-1]['name']}: "
              f"{'ok' if err < 1e-5 else f'WRONG (max error {err})'}")
        # A contraction's schedule on a row kernel: the spec was read.
        write("#xtile.dot_schedule<block_m = 32, block_n = 32, block_k = 32, "
              "stages = 1, warps = 4>")
        try:
            xtile.compile(Norm(), (x,), backend="emu")
            print("wrong-kind spec: NOT REJECTED")
        except RuntimeError as e:
            line = next(l for l in str(e).splitlines() if "error:" in l)
            print("wrong-kind spec:", line[line.index("error:"):])
        print("cache entries:", len(list(pathlib.Path(cache).glob("*.so"))))


main()
