"""Emulated CUDA drivers: a shared library that is a CUDA driver
(libcuda.so.1) whose one GPU runs a module's kernels on the CPU, for hosts
that load PTX through the driver API (xtile's "driver" loader, xtile-run
--backend=cuda) on a machine without a GPU; XTILE_LIBCUDA names it.

Two kinds, by what the emulated GPU executes:

- "ptx": the PTX path's own code. The LLVM IR that LLVM's NVPTX backend
  compiles into the module's PTX, retargeted to the host
  (`xtile-translate --mlir-to-host-ptx --host-ptx-object`) and linked with
  runtime/xtile_ptx_host.cpp. cuModuleLoadData takes only the PTX it was
  built from.
- "cuda": the module's CUDA C (`xtile-translate --mlir-to-cuda`) built with
  -DXTILE_EMULATION_DRIVER. cuModuleLoadData takes any PTX that names the
  kernels.

    from xtile import emulated_driver
    emulated_driver.build(kernel_ir, "libcuda-k.so", kind="ptx")
"""
import os
import pathlib
import subprocess

from . import runtime

KINDS = ("ptx", "cuda")


def _run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, **kw)
    if r.returncode != 0:
        err = r.stderr.decode() if isinstance(r.stderr, bytes) else r.stderr
        raise RuntimeError(f"xtile: {os.path.basename(cmd[0])} failed building an "
                           f"emulated CUDA driver:\n{err}")
    return r


def build(kernel_ir, path, kind="ptx"):
    """Builds at `path` the emulated driver of `kernel_ir` (Kernel IR text,
    what `xtile-opt --lower-to-kernel` prints). Returns the path."""
    if kind not in KINDS:
        raise ValueError(f"xtile: emulated driver kind {kind!r}: expected one of "
                         f"{', '.join(KINDS)}")
    path = pathlib.Path(path)
    rt = runtime._runtime_dir()
    if kind == "ptx":
        obj = path.with_suffix(".o")
        _run([runtime._tool("xtile-translate"), "--mlir-to-host-ptx",
              "--host-ptx-object", "-o", str(obj)], input=kernel_ir.encode())
        _run(runtime.emulation_command(
            [rt / "xtile_ptx_host.cpp", obj], path,
            defines=("XTILE_EMULATION_DRIVER", "XTILE_EMULATION_PTX"), language=None))
    else:
        src = path.with_suffix(".cu")
        cuda = _run([runtime._tool("xtile-translate"), "--mlir-to-cuda"],
                    input=kernel_ir, text=True)
        src.write_text(cuda.stdout)
        _run(runtime.emulation_command(src, path, defines=("XTILE_EMULATION_DRIVER",)))
    return path


def lower(mlir, target, allow_tf32=False):
    """Kernel IR of a Tensor IR module, lowered with the options the runtime
    lowers it with (the tuned schedules included), so that the emulated
    driver's code is that of the PTX the runtime loads."""
    options = f"target={target}"
    if allow_tf32:
        options += " allow-tf32=true"
    spec = runtime._tuned_spec(target)
    if spec:
        options += f" schedule-spec={spec}"
    return runtime.Program._lower(mlir, options)
