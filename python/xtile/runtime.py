"""Builds Tensor IR with xtile's tools and runs it on torch tensors: on the
GPU (the CUDA C built with nvcc) when there is one, else on the CPU through
CUDA emulation (the same CUDA C built with the host compiler and
runtime/xtile_emulation.h)."""
import ctypes
import hashlib
import os
import pathlib
import shutil
import subprocess
import tempfile

import torch

_REPO = pathlib.Path(__file__).resolve().parent.parent.parent


def _tool_dirs():
    """Where xtile's tools are looked for, in order: $XTILE_BUILD_DIR/bin (a
    build tree), the checkout's build/bin when this package is the
    checkout's, $XTILE_PREFIX/bin (an install tree, `cmake --install`), and
    the directories of PATH."""
    dirs = []
    env = os.environ.get("XTILE_BUILD_DIR")
    if env:
        dirs.append(pathlib.Path(env) / "bin")
    dirs.append(_REPO / "build" / "bin")
    prefix = os.environ.get("XTILE_PREFIX")
    if prefix:
        dirs.append(pathlib.Path(prefix) / "bin")
    return dirs


def _tool(name):
    for d in _tool_dirs():
        if (d / name).exists():
            return str(d / name)
    found = shutil.which(name)
    if not found:
        tried = ", ".join(str(d) for d in _tool_dirs())
        raise RuntimeError(f"xtile: cannot find {name} (looked in {tried} and "
                           "PATH): build xtile (scripts/setup.sh), or set "
                           "XTILE_BUILD_DIR to a build tree or XTILE_PREFIX "
                           "to an install tree")
    return found


def _runtime_dir():
    """The directory of xtile_emulation.h: $XTILE_RUNTIME_DIR, else where an
    install tree keeps it (<prefix>/share/xtile/runtime, beside the tools'
    bin), else the source tree of the build tree the tools come from (its
    CMakeCache.txt names it), else this checkout's runtime/."""
    env = os.environ.get("XTILE_RUNTIME_DIR")
    if env:
        return pathlib.Path(env)
    root = pathlib.Path(_tool("xtile-opt")).resolve().parent.parent
    installed = root / "share" / "xtile" / "runtime"
    if (installed / "xtile_emulation.h").exists():
        return installed
    cache = root / "CMakeCache.txt"
    if cache.exists():
        for line in cache.read_text(errors="replace").splitlines():
            if line.startswith("xtile_SOURCE_DIR:"):
                source = pathlib.Path(line.split("=", 1)[1]) / "runtime"
                if (source / "xtile_emulation.h").exists():
                    return source
    if (_REPO / "runtime" / "xtile_emulation.h").exists():
        return _REPO / "runtime"
    raise RuntimeError("xtile: cannot find xtile_emulation.h: set "
                       "XTILE_RUNTIME_DIR, or install xtile (cmake --install)")


_KEYS = {}


def _digest(path):
    """sha256 of a file, remembered per path, size and modification time."""
    st = path.stat()
    key = (str(path), st.st_size, st.st_mtime_ns)
    if key not in _KEYS:
        _KEYS[key] = hashlib.sha256(path.read_bytes()).hexdigest()
    return _KEYS[key]


def _compiler_key(backend):
    """Identifies the compiler: its version (`xtile-opt --version`) and the
    contents of the tools and, for the emulation, of xtile_emulation.h. A
    rebuilt or reinstalled xtile never reuses another's kernels."""
    opt = pathlib.Path(_tool("xtile-opt"))
    parts = [_digest(opt), _digest(pathlib.Path(_tool("xtile-translate")))]
    if ("version", str(opt)) not in _KEYS:
        out = subprocess.run([str(opt), "--version"], capture_output=True,
                             text=True).stdout
        _KEYS[("version", str(opt))] = next(
            (line.strip() for line in out.splitlines()
             if line.strip().startswith("xtile ")), "xtile ?")
    parts.insert(0, _KEYS[("version", str(opt))])
    if backend == "emu":
        parts.append(_digest(_runtime_dir() / "xtile_emulation.h"))
    return ":".join(parts)


def _tuned_spec(target):
    """The schedule spec xtile-tune wrote for `target` in $XTILE_TUNE_DIR
    (`<target>.json`), or None. Its entries are keyed by kernel identity and
    target, and ignored by a compiler of another version."""
    root = os.environ.get("XTILE_TUNE_DIR")
    if not root:
        return None
    spec = pathlib.Path(root, f"{target}.json")
    return spec if spec.exists() else None


def default_backend():
    return "cuda" if torch.cuda.is_available() else "emu"


class Program:
    """A compiled Tensor IR function, callable on torch tensors."""

    def __init__(self, mlir, name, backend=None, target="sm_90", cache=None,
                 allow_tf32=False):
        self.name = name
        self.backend = backend or default_backend()
        if self.backend not in ("cuda", "emu"):
            raise ValueError(f"xtile: unknown backend {self.backend!r} (cuda or emu)")
        spec = _tuned_spec(target)
        options = f"target={target}"
        if allow_tf32:
            options += " allow-tf32=true"
        if spec:
            options += f" schedule-spec={spec}"
        # The key covers the compiler (its binary), its options and the
        # tuned schedules.
        key = hashlib.sha256("\0".join([
            mlir, self.backend, options, _compiler_key(self.backend),
            spec.read_text() if spec else ""]).encode()).hexdigest()[:16]
        cache = pathlib.Path(cache or os.environ.get("XTILE_CACHE_DIR") or
                             pathlib.Path(tempfile.gettempdir()) / "xtile-cache")
        cache.mkdir(parents=True, exist_ok=True)
        lib = cache / f"{name}-{key}.so"
        if not lib.exists():
            self._build(mlir, lib, options)
        self.lib = ctypes.CDLL(str(lib))
        self.fn = getattr(self.lib, f"{name}_packed")
        self.fn.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]
        self.fn.restype = ctypes.c_int

    def _build(self, mlir, lib, options):
        with tempfile.TemporaryDirectory() as tmp:
            src = pathlib.Path(tmp, "program.mlir")
            src.write_text(mlir)
            kernel = subprocess.run(
                [_tool("xtile-opt"), f"--lower-to-kernel={options}", str(src)],
                capture_output=True, text=True)
            if kernel.returncode:
                raise RuntimeError("xtile: lowering failed:\n" + kernel.stderr)
            cuda = subprocess.run([_tool("xtile-translate"), "--mlir-to-cuda"],
                                  input=kernel.stdout, capture_output=True, text=True)
            if cuda.returncode:
                raise RuntimeError("xtile: CUDA C emission failed:\n" + cuda.stderr)
            cu = pathlib.Path(tmp, "program.cu")
            cu.write_text(cuda.stdout)
            out = pathlib.Path(tmp, "program.so")
            if self.backend == "cuda":
                cmd = ["nvcc", "-O3", "-arch=native", "-shared", "-Xcompiler",
                       "-fPIC", "-o", str(out), str(cu)]
            else:
                cmd = [os.environ.get("CXX", "c++"), "-std=c++17", "-O1", "-fPIC",
                       "-shared", "-w", "-pthread", "-x", "c++", "-include",
                       str(_runtime_dir() / "xtile_emulation.h"), str(cu), "-o",
                       str(out)]
            built = subprocess.run(cmd, capture_output=True, text=True)
            if built.returncode:
                raise RuntimeError("xtile: building the kernels failed:\n" + built.stderr)
            shutil.move(str(out), str(lib))

    def __call__(self, buffers):
        """Runs on `buffers`: inputs then (preallocated) outputs."""
        ptrs = (ctypes.c_void_p * len(buffers))(*[b.data_ptr() for b in buffers])
        stream = (torch.cuda.current_stream().cuda_stream
                  if self.backend == "cuda" else None)
        rc = self.fn(ptrs, stream)
        if rc != 0:
            raise RuntimeError(f"xtile: {self.name} failed with CUDA error {rc}")
