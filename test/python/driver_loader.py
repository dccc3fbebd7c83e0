# The GPU path without nvcc (python/xtile/runtime.py, the "driver" loader):
# a program's PTX is loaded through the CUDA driver API with ctypes and its
# kernels launched from its launch plan (xtile-translate
# --mlir-to-launch-plan). There is no GPU here, so the CUDA driver is the
# emulation's (python/xtile/emulated_driver.py), which XTILE_LIBCUDA names:
# with --ptx-path its "GPU" runs the PTX path's own code (the LLVM IR that
# NVPTX compiled into the loaded PTX, run on the CPU), and takes only that
# PTX; without, the same module's CUDA C built with -DXTILE_EMULATION_DRIVER
# runs the kernels that the loaded PTX names. Memory is host memory, so the
# loader's
# own work (kernel lookup, temporaries, grids, parameter arrays, copies)
# is checked against eager PyTorch and against the emulation's own host
# code. Prints one line per check.
import os
import pathlib
import subprocess
import sys
import tempfile

import torch
import torch.nn as nn

import xtile
from xtile import emulated_driver as emulated_driver_lib
from xtile import runtime
from models import DecoderLayer, SwiGLU, TOL

torch.manual_seed(0)
work = pathlib.Path(tempfile.mkdtemp(prefix="xtile-driver-"))
os.environ["XTILE_CACHE_DIR"] = str(work / "cache")


# The emulated GPU runs the PTX path's own code (`--ptx-path`: the LLVM IR
# NVPTX compiled into the loaded PTX, run on the CPU), or the module's CUDA C.
KIND = "ptx" if "--ptx-path" in sys.argv else "cuda"


def emulated_driver(compiled, path):
    """A CUDA driver library whose GPU runs `compiled`'s kernels."""
    kernel_ir = emulated_driver_lib.lower(compiled.mlir, compiled.target,
                                          compiled.allow_tf32)
    return emulated_driver_lib.build(kernel_ir, path, kind=KIND)


def use_driver(path):
    os.environ["XTILE_LIBCUDA"] = str(path)
    os.environ["XTILE_CUDA_LOADER"] = "driver"
    runtime._Driver._instance = None   # open this library


def graph_check(name, compiled, x, *more):
    """The module's launches captured once in a CUDA graph (the emulated
    driver's stream capture, instantiate and launch), replayed on new
    inputs: bit for bit the plain launches' results."""
    graphed = compiled.graphed(x, *more)
    results = []
    for scale in (0.5, -2.0):
        y = (x.float() * scale).to(x.dtype)
        plain = compiled(y, *more)
        replayed = graphed(y, *more)
        plain = plain if isinstance(plain, tuple) else (plain,)
        replayed = replayed if isinstance(replayed, tuple) else (replayed,)
        results.append(all(torch.equal(a, b) for a, b in zip(plain, replayed)))
    print(f"graph {name}: {graphed.launches} launches captured in "
          f"{graphed.graph.nodes} nodes; replays "
          f"{'equal the plain launches' if all(results) else 'DIFFER'}")


class Twice(nn.Module):
    """Returns its input as is (a copy step) beside a kernel's result."""
    def forward(self, x):
        return x * 2.0, x


cases = [
    ("swiglu", SwiGLU(64, 96), torch.randn(5, 64), torch.float32),
    ("decoder_layer", DecoderLayer(64, 4, 128), torch.randn(2, 9, 64), torch.bfloat16),
    ("copies", Twice(), torch.randn(3, 7), torch.float32),
]
for name, model, x, dtype in cases:
    model = model.to(dtype).eval()
    x = x.to(dtype)
    with torch.no_grad():
        expected = model(x)
        compiled = xtile.compile(model, (x,), backend="emu")
        emulated = compiled(x)
        use_driver(emulated_driver(compiled, work / f"libcuda-{name}.so"))
        # The same Compiled, its program now the driver loader's.
        program = runtime.Program(compiled.mlir, compiled.name, backend="cuda",
                                  target=compiled.target,
                                  allow_tf32=compiled.allow_tf32)
        assert isinstance(program.fn, runtime._DriverProgram), program.fn
        compiled.programs[()] = compiled.program = program
        got = compiled(x)
        graph_check(name, compiled, x)
    if not isinstance(got, tuple):
        got, expected, emulated = (got,), (expected,), (emulated,)
    for g, e, m in zip(got, expected, emulated):
        torch.testing.assert_close(g, e, **TOL[dtype])
        torch.testing.assert_close(g, m, **TOL[dtype])
    plan = program.fn.plan
    launches = sum("launch" in s for s in plan["steps"])
    copies = sum("copy" in s for s in plan["steps"])
    temporaries = len(program.fn.temporaries)
    print(f"{name} {str(dtype).split('.')[-1]}: ok ({launches} launches, {copies} copies, "
          f"{temporaries} temporaries)")

# A module over a dynamic token count T, compiled once: the loader passes
# T to the kernels after their buffers, sizes the temporaries and computes
# the grids from it (the launch plan's sizes and grid maps).
T = torch.export.Dim("T", min=1, max=256)
model = SwiGLU(64, 96).eval()
with torch.no_grad():
    dyn = xtile.compile(model, (torch.randn(5, 64),), backend="emu",
                        dynamic_shapes={"x": {0: T}})
    use_driver(emulated_driver(dyn, work / "libcuda-dynamic.so"))
    dprogram = runtime.Program(dyn.mlir, dyn.name, backend="cuda",
                               target=dyn.target)
    dyn.dynamic = dprogram
    for t in (1, 5, 33):
        x = torch.randn(t, 64)
        torch.testing.assert_close(dyn(x), model(x), **TOL[torch.float32])
    graph_check("dynamic swiglu at T = 33", dyn, x)
    dyn_graph = dyn.graphed(x)
sizes = dprogram.fn.plan["sizes"]
grids = sum("grid_map" in s for s in dprogram.fn.plan["steps"])
print(f"dynamic swiglu: ok at T = 1, 5, 33 ({dyn.num_compiles} compile, sizes "
      f"{[s['name'] for s in sizes]}, {grids} grid maps)")
try:
    dprogram([torch.empty(1)] * 5, [300])
except ValueError as e:
    print("size out of range:", e)

# A size that is an expression of another (a cache of T rows and one new
# row, T + 1): the program takes it after T, and the loader checks it
# against T (the plan's "of").
APPEND = """
func.func @append(%c: tensor<?x64xf32, #xtensor.dims<T>>, %n: tensor<1x64xf32>)
    -> tensor<?x64xf32, #xtensor.dims<"T + 1">>
    attributes {xtensor.symbols = {T = array<i64: 1, 256>}} {
  %y = xtensor.concat %c, %n dim 0 : tensor<?x64xf32, #xtensor.dims<T>>, tensor<1x64xf32>
      -> tensor<?x64xf32, #xtensor.dims<"T + 1">>
  return %y : tensor<?x64xf32, #xtensor.dims<"T + 1">>
}
"""


class _Append:
    mlir, target, allow_tf32 = APPEND, "sm_90", False


use_driver(emulated_driver(_Append, work / "libcuda-append.so"))
aprogram = runtime.Program(APPEND, "append", backend="cuda", target="sm_90",
                           cache=work / "cache")
c, n = torch.randn(5, 64), torch.randn(1, 64)
out = torch.empty(6, 64)
aprogram([c, n, out], [5, 6])
print("append:", "ok" if torch.equal(out, torch.cat([c, n])) else "WRONG",
      "sizes", [(s["name"], s.get("of")) for s in aprogram.fn.plan["sizes"]])
try:
    aprogram([c, n, out], [5, 7])
except ValueError as e:
    print("size expression wrong:", e)

cache = sorted(p.suffix for p in (work / "cache").iterdir())
print("cached for the driver:", cache.count(".ptx"), "ptx,", cache.count(".json"),
      "plans")

# wgmma on sm_90a with its operand tiles brought in by TMA: the loader
# makes the launch plan's tensor maps with the driver's
# cuTensorMapEncodeTiled and copies them to the device before the launch.
model = nn.Linear(512, 1024, bias=False).to(torch.bfloat16).eval()
x = torch.randn(512, 512).to(torch.bfloat16)
with torch.no_grad():
    expected = model(x)
    tma = xtile.compile(model, (x,), backend="emu", target="sm_90a")
    use_driver(emulated_driver(tma, work / "libcuda-tma.so"))
    tprogram = runtime.Program(tma.mlir, tma.name, backend="cuda", target="sm_90a")
    tma.programs[()] = tma.program = tprogram
    got = tma(x)
    graph_check("tma linear", tma, x)
torch.testing.assert_close(got, expected, **TOL[torch.bfloat16])
maps = [s["tensor_map"] for s in tprogram.fn.plan["steps"] if "tensor_map" in s]
boxes = ", ".join("x".join(map(str, m["box"])) for m in maps)
print(f"tma linear bfloat16: ok ({len(maps)} tensor maps, boxes {boxes}, swizzle "
      f"{' '.join(str(m['swizzle']) for m in maps)})")

# Generation with the decode step replayed from a CUDA graph, captured on
# its first step with the KV cache in place (Generator's default on GPUs):
# the decode program runs through the driver loader on the emulated
# driver, the prefill under the emulation; the tokens are generate()'s.
import transformers as hf
from xtile.generation import Generator
llama = hf.LlamaForCausalLM(hf.LlamaConfig(
    vocab_size=128, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
    num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64)).eval()
llama.generation_config.eos_token_id = None
llama.generation_config.pad_token_id = 0
prompt = torch.randint(0, 128, (1, 8))
with torch.no_grad():
    expected = llama.generate(prompt, max_new_tokens=6, do_sample=False,
                              attention_mask=torch.ones_like(prompt))
gen = Generator(llama, max_cache_len=24, backend="emu")
first = gen.generate(prompt, max_new_tokens=2)   # compiles the decode step
decode = gen.decodes[1]
use_driver(emulated_driver(decode, work / "libcuda-decode.so"))
# The decode step is compiled once over the span of the cache it attends
# to (a dynamic size): its program, on the driver.
assert decode.dynamic is not None, decode.dynamic_error
decode.dynamic = runtime.Program(decode.mlir, decode.name, backend="cuda",
                                 target=decode.target)
gen.cuda_graphs = True
got = gen.generate(prompt, max_new_tokens=6)
again = gen.generate(prompt, max_new_tokens=6)   # the same graph and cache
print(f"generation with a decode graph: {'equal to' if torch.equal(got, expected) and torch.equal(again, expected) else 'DIFFERENT FROM'} "
      f"generate(); {len(gen.graphs)} graph of {gen.graphs[1, 24].graph.nodes} nodes for "
      f"{gen.decode_launches()} launches per decode step")

# Errors name what is wrong.
def error(fn):
    try:
        fn()
    except (RuntimeError, ValueError) as e:
        return str(e).splitlines()[0]
    return "no error"


mlir = compiled.mlir
use_driver(work / "libcuda-swiglu.so")   # has none of Twice's kernels
print("kernel missing:", error(lambda: runtime.Program(mlir, "twice", backend="cuda",
                                                       cache=work / "other")))
use_driver(work / "none.so")
print("no driver:", error(lambda: runtime.Program(mlir, "twice", backend="cuda",
                                                  cache=work / "other2")))
os.environ["XTILE_CUDA_LOADER"] = "ptx"
print("unknown loader:", error(runtime.cuda_loader))
del os.environ["XTILE_CUDA_LOADER"]
os.environ["CUDA_HOME"] = str(work / "no-cuda")
os.environ["PATH"] = os.pathsep.join(
    d for d in os.environ["PATH"].split(os.pathsep)
    if not (pathlib.Path(d) / "nvcc").exists())
print("without nvcc:", runtime.cuda_loader())
os.environ["XTILE_CUDA_LOADER"] = "nvcc"
print("nvcc asked for:", error(runtime.cuda_loader))
# The emulation backend (kernels called on the CPU) has no CUDA graphs;
# a graph replays only the sizes it captured.
emu = xtile.compile(Twice(), (torch.randn(3, 7),), backend="emu")
print("graph on emu:", error(lambda: emu.graphed(torch.randn(3, 7))))
print("graph, other sizes:", error(lambda: dyn_graph(torch.randn(9, 64))))
