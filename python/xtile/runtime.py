"""Builds Tensor IR with xtile's tools and runs it on torch tensors: on the
GPU when there is one, else on the CPU through CUDA emulation (the emitted
CUDA C built with the host compiler and runtime/xtile_emulation.h).

On the GPU, programs are built one of two ways (the "loader"):
- nvcc: the emitted CUDA C, kernels and host code, built into a library;
- driver: the PTX of LLVM's NVPTX backend (xtile-translate --mlir-to-ptx),
  loaded through the CUDA driver API with ctypes and launched from the
  program's launch plan (--mlir-to-launch-plan). It needs no CUDA toolkit
  and no host compiler: only the driver that torch uses.
nvcc is used when it is found, else the driver; XTILE_CUDA_LOADER=nvcc or
=driver chooses."""
import ctypes
import hashlib
import json
import os
import pathlib
import re
import shutil
import subprocess
import tempfile
import threading

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


def _nvcc():
    """nvcc from PATH, else from $CUDA_HOME or /usr/local/cuda; None when
    there is none."""
    found = shutil.which("nvcc")
    if found:
        return found
    home = pathlib.Path(os.environ.get("CUDA_HOME", "/usr/local/cuda"))
    return str(home / "bin" / "nvcc") if (home / "bin" / "nvcc").exists() else None


def cuda_loader():
    """How programs are built for the GPU: "nvcc" or "driver" (the module
    docstring). $XTILE_CUDA_LOADER chooses; else nvcc when it is found."""
    chosen = os.environ.get("XTILE_CUDA_LOADER")
    if chosen:
        if chosen not in ("nvcc", "driver"):
            raise ValueError(f"xtile: XTILE_CUDA_LOADER={chosen!r}: expected nvcc or "
                             "driver")
        if chosen == "nvcc" and not _nvcc():
            raise RuntimeError("xtile: XTILE_CUDA_LOADER=nvcc but nvcc is not found "
                               "(PATH, $CUDA_HOME/bin, /usr/local/cuda/bin)")
        return chosen
    return "nvcc" if _nvcc() else "driver"


class _Driver:
    """The few CUDA driver entry points the driver loader calls, through
    ctypes: libcuda.so.1, or the library $XTILE_LIBCUDA names (the
    emulation can stand in for it: runtime/xtile_emulation.h)."""

    _instance = None

    @classmethod
    def get(cls):
        if cls._instance is None:
            cls._instance = cls()
        return cls._instance

    def __init__(self):
        path = os.environ.get("XTILE_LIBCUDA", "libcuda.so.1")
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            raise RuntimeError(f"xtile: cannot open the CUDA driver ({path}): {e}") from None
        p, u, i = ctypes.c_void_p, ctypes.c_uint, ctypes.c_int
        pp = ctypes.POINTER(ctypes.c_void_p)
        self.lib = lib
        for name, args in [
                ("cuInit", [u]), ("cuDeviceGet", [ctypes.POINTER(i), i]),
                ("cuCtxGetCurrent", [pp]), ("cuCtxSetCurrent", [p]),
                ("cuDevicePrimaryCtxRetain", [pp, i]),
                ("cuModuleLoadData", [pp, ctypes.c_char_p]),
                ("cuModuleGetFunction", [pp, p, ctypes.c_char_p]),
                ("cuFuncSetAttribute", [p, i, i]),
                ("cuLaunchKernel", [p, u, u, u, u, u, u, u, p, pp, pp]),
                ("cuMemcpyDtoDAsync_v2", [ctypes.c_uint64, ctypes.c_uint64,
                                          ctypes.c_size_t, p]),
                ("cuMemcpyHtoD_v2", [ctypes.c_uint64, p, ctypes.c_size_t]),
                ("cuGetErrorString", [i, ctypes.POINTER(ctypes.c_char_p)])]:
            fn = getattr(lib, name, None)
            if fn is None:
                raise RuntimeError(f"xtile: the CUDA driver ({path}) lacks {name}")
            fn.argtypes, fn.restype = args, ctypes.c_int
            setattr(self, name, fn)
        # Entry points only some programs need: None when the driver lacks
        # them (a program that needs one says so when loaded).
        u32, u64 = ctypes.c_uint32, ctypes.c_uint64
        for name, args in [
                # cuTensorMapEncodeTiled(map, data type, rank, address,
                # dims, strides, box, element strides, interleave, swizzle,
                # L2 promotion, out-of-bounds fill); the enums are ints.
                ("cuTensorMapEncodeTiled",
                 [p, i, u32, p, ctypes.POINTER(u64), ctypes.POINTER(u64),
                  ctypes.POINTER(u32), ctypes.POINTER(u32), i, i, i, i]),
                ("cuMemcpyHtoDAsync_v2", [u64, p, ctypes.c_size_t, p]),
                # CUDA graphs (Program.capture).
                ("cuStreamCreate", [pp, u]), ("cuStreamDestroy_v2", [p]),
                ("cuStreamBeginCapture_v2", [p, i]),
                ("cuStreamEndCapture", [p, pp]),
                ("cuGraphInstantiateWithFlags", [pp, p, ctypes.c_ulonglong]),
                ("cuGraphGetNodes", [p, pp, ctypes.POINTER(ctypes.c_size_t)]),
                ("cuGraphDestroy", [p]), ("cuGraphExecDestroy", [p]),
                ("cuGraphLaunch", [p, p])]:
            fn = getattr(lib, name, None)
            if fn is not None:
                fn.argtypes, fn.restype = args, ctypes.c_int
            setattr(self, name, fn)
        self.path = path
        self.check(self.cuInit(0), "initializing the CUDA driver")
        # The context torch uses (the device's primary context), current on
        # this thread.
        if torch.cuda.is_available():
            torch.cuda.init()
        ctx = ctypes.c_void_p()
        self.check(self.cuCtxGetCurrent(ctypes.byref(ctx)), "reading the context")
        if not ctx.value:
            device = ctypes.c_int()
            ordinal = torch.cuda.current_device() if torch.cuda.is_available() else 0
            self.check(self.cuDeviceGet(ctypes.byref(device), ordinal), "finding the GPU")
            self.check(self.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), device),
                       "retaining the GPU's context")
            self.check(self.cuCtxSetCurrent(ctx), "making the context current")

    def check(self, rc, what):
        if rc != 0:
            text = ctypes.c_char_p()
            self.cuGetErrorString(rc, ctypes.byref(text))
            reason = text.value.decode() if text.value else "unknown error"
            raise RuntimeError(f"xtile: CUDA driver: {what}: {reason} (error {rc})")


class _DriverProgram:
    """A program's PTX loaded through the CUDA driver, run from its launch
    plan: temporaries and TMA tensor maps are torch tensors on the buffers'
    device, kernels are launched and copies made on torch's current
    stream."""

    _MAX_DYNAMIC_SHARED = 8   # CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES

    def __init__(self, ptx, plan, name):
        self.driver = _Driver.get()
        programs = [p for p in plan["programs"] if p["name"] == name]
        if not programs:
            raise RuntimeError(f"xtile: the launch plan has no program {name!r}")
        self.plan = programs[0]
        self.name = name
        d = self.driver
        self.module = ctypes.c_void_p()
        d.check(d.cuModuleLoadData(ctypes.byref(self.module), ptx.encode() + b"\0"),
                "loading the PTX")
        self.functions = {}
        for step in self.plan["steps"]:
            kernel = step.get("launch")
            if kernel is None or kernel in self.functions:
                continue
            fn = ctypes.c_void_p()
            d.check(d.cuModuleGetFunction(ctypes.byref(fn), self.module, kernel.encode()),
                    f"finding kernel {kernel} in the PTX")
            if step["shared"] > 48 * 1024:
                d.check(d.cuFuncSetAttribute(fn, self._MAX_DYNAMIC_SHARED, step["shared"]),
                        f"raising {kernel}'s dynamic shared memory limit")
            self.functions[kernel] = fn
        # The buffers the program allocates (temporaries and tensor maps)
        # follow its arguments in the plan, in program order.
        self.temporaries = [b for b in self.plan["buffers"]
                            if b["role"] in ("temporary", "tensor_map")]
        self.sizes = self.plan.get("sizes", [])
        self.size_names = [s["name"] for s in self.sizes]
        if (any("tensor_map" in step for step in self.plan["steps"])
                and d.cuTensorMapEncodeTiled is None):
            raise RuntimeError(f"xtile: {name} makes TMA tensor maps, but the "
                               f"CUDA driver ({d.path}) lacks "
                               "cuTensorMapEncodeTiled (a CUDA 12 driver has it)")

    @staticmethod
    def _bytes(entry, sizes):
        """The bytes of a buffer or copy of the plan at these sizes."""
        n = entry["bytes"]
        for i in entry.get("sizes", []):
            n *= sizes[i]
        return n

    _SWIZZLE = {0: 0, 32: 1, 64: 2, 128: 3}   # bytes -> CUtensorMapSwizzle
    _L2_PROMOTION_128B = 2                   # CU_TENSOR_MAP_L2_PROMOTION_L2_128B
    _MAP_BYTES = 128                         # sizeof(CUtensorMap)

    @staticmethod
    def _shape(entry, sizes):
        """The shape of a buffer of the plan at these sizes: its -1s are
        the sizes `entry["sizes"]` names, in order."""
        dynamic = iter(entry.get("sizes", []))
        return [sizes[next(dynamic)] if d < 0 else d for d in entry["shape"]]

    @staticmethod
    def _tensor_map_args(shape, element_bytes, box):
        """cuTensorMapEncodeTiled's dimensions, strides and box for a
        row-major buffer of `shape` (outermost first) and a box (outermost
        first): all innermost first, the byte strides of dimensions 1 to
        rank-1."""
        dims = list(reversed(shape))
        strides, stride = [], element_bytes
        for d in dims[:-1]:
            stride *= d
            strides.append(stride)
        return dims, strides, list(reversed(box))

    def _encode_tensor_map(self, step, ptrs, sizes, stream):
        """Encodes the tensor map of a plan step into its buffer, on the
        stream of the launches that read it."""
        d = self.driver
        tmap = step["tensor_map"]
        source = self.plan["buffers"][tmap["of"]]
        users = sorted({s["launch"] for s in self.plan["steps"]
                        if "launch" in s and tmap["to"] in s["args"]})
        what = (f"{self.name}: the tensor map of buffer {tmap['of']}"
                + (f" (for {', '.join(users)})" if users else ""))
        shape = self._shape(source, sizes)
        if len(tmap["box"]) != len(shape) or tmap["swizzle"] not in self._SWIZZLE:
            raise RuntimeError(f"xtile: {what}: box {tmap['box']} and swizzle "
                               f"{tmap['swizzle']} do not fit a buffer of shape "
                               f"{shape}")
        dims, strides, box = self._tensor_map_args(shape, tmap["element_bytes"],
                                                   tmap["box"])
        rank = len(dims)
        u32, u64 = ctypes.c_uint32, ctypes.c_uint64
        # CUtensorMap is 64-byte aligned; ctypes promises less, so the map
        # is placed at the first aligned byte of a larger buffer.
        raw = (ctypes.c_ubyte * (self._MAP_BYTES + 63))()
        at = (ctypes.addressof(raw) + 63) & ~63
        d.check(d.cuTensorMapEncodeTiled(
            at, tmap["data_type"], rank, ptrs[tmap["of"]], (u64 * rank)(*dims),
            # At least one element: rank 1 has no strides.
            (u64 * max(rank - 1, 1))(*strides), (u32 * rank)(*box),
            (u32 * rank)(*([1] * rank)), 0, self._SWIZZLE[tmap["swizzle"]],
            self._L2_PROMOTION_128B, 0),
            f"{what}: encoding it (shape {shape}, box {tmap['box']}, swizzle "
            f"{tmap['swizzle']})")
        # Copied on the launches' stream, so that it is ordered after
        # earlier work that used the same memory (torch's caching allocator
        # may hand back a block still read on that stream). The host bytes
        # are staged before the call returns.
        if d.cuMemcpyHtoDAsync_v2 is not None:
            d.check(d.cuMemcpyHtoDAsync_v2(ptrs[tmap["to"]], at, self._MAP_BYTES,
                                           stream), f"{what}: copying it")
        else:
            d.check(d.cuMemcpyHtoD_v2(ptrs[tmap["to"]], at, self._MAP_BYTES),
                    f"{what}: copying it")

    @staticmethod
    def _evaluate(e, sizes):
        """A grid expression of the plan (an affine expression of the sizes,
        all positive) at these sizes."""
        if isinstance(e, int):
            return e
        if isinstance(e, dict):
            return sizes[e["size"]]
        kind = e[0]
        l, r = (_DriverProgram._evaluate(x, sizes) for x in e[1:])
        return {"add": lambda: l + r, "mul": lambda: l * r,
                "floordiv": lambda: l // r, "ceildiv": lambda: -(-l // r),
                "mod": lambda: l % r}[kind]()

    def _check_sizes(self, sizes):
        if len(sizes) != len(self.sizes):
            raise ValueError(f"xtile: {self.name} takes {len(self.sizes)} sizes, "
                             f"got {len(sizes)}")
        for value, size in zip(sizes, self.sizes):
            if not size["min"] <= value <= size["max"]:
                raise ValueError(f"xtile: {self.name}: size {size['name']}={value} "
                                 f"is outside its range [{size['min']}, "
                                 f"{size['max']}]")
            # A size that is an expression of the others (T + 1).
            if "of" in size and value != self._evaluate(size["of"], sizes):
                raise ValueError(f"xtile: {self.name}: size {size['name']}={value} "
                                 f"is not {self._evaluate(size['of'], sizes)}, "
                                 "its value at the other sizes")

    def _temporaries(self, buffers, sizes):
        return [torch.empty(max(self._bytes(t, sizes), 1), dtype=torch.uint8,
                            device=buffers[0].device)
                for t in self.temporaries]

    @staticmethod
    def _stream(device):
        return (torch.cuda.current_stream(device).cuda_stream
                if device.type == "cuda" else None)

    def __call__(self, buffers, sizes=()):
        self._check_sizes(sizes)
        temporaries = self._temporaries(buffers, sizes)
        ptrs = [b.data_ptr() for b in buffers] + [t.data_ptr() for t in temporaries]
        self._run(ptrs, sizes, self._stream(buffers[0].device))
        # The temporaries go back to torch's caching allocator, whose
        # reuse is ordered after these launches on the same stream.
        return 0

    def capture(self, buffers, sizes=()):
        """One call's launches and copies on these buffers captured into a
        CUDA graph (cuStreamBeginCapture on a stream of its own, then
        cuGraphInstantiate): a _DriverGraph, whose replay() relaunches them
        with one cuGraphLaunch. Its temporaries are its own and its tensor
        maps are encoded here, once; the buffers must stay where they are."""
        d = self.driver
        missing = [n for n in ("cuStreamCreate", "cuStreamBeginCapture_v2",
                               "cuStreamEndCapture", "cuGraphInstantiateWithFlags",
                               "cuGraphLaunch") if getattr(d, n) is None]
        if missing:
            raise RuntimeError(f"xtile: the CUDA driver ({d.path}) lacks "
                               f"{', '.join(missing)}, which CUDA graphs need")
        self._check_sizes(sizes)
        temporaries = self._temporaries(buffers, sizes)
        ptrs = [b.data_ptr() for b in buffers] + [t.data_ptr() for t in temporaries]
        # Tensor maps, into temporaries of the graph's own, before capture:
        # a copy from host memory is not captured.
        outside = self._stream(buffers[0].device)
        for step in self.plan["steps"]:
            if "tensor_map" in step:
                self._encode_tensor_map(step, ptrs, sizes, outside)
        if outside is not None:
            torch.cuda.current_stream(buffers[0].device).synchronize()
        stream, graph, exec_ = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_void_p()
        d.check(d.cuStreamCreate(ctypes.byref(stream), 0),
                f"{self.name}: creating a stream to capture on")
        _THREAD_LOCAL = 1   # CU_STREAM_CAPTURE_MODE_THREAD_LOCAL
        try:
            d.check(d.cuStreamBeginCapture_v2(stream, _THREAD_LOCAL),
                    f"{self.name}: beginning the capture")
            try:
                self._run(ptrs, sizes, stream, tensor_maps=False)
            finally:
                rc = d.cuStreamEndCapture(stream, ctypes.byref(graph))
            d.check(rc, f"{self.name}: ending the capture")
            nodes = ctypes.c_size_t()
            if d.cuGraphGetNodes is not None:
                d.check(d.cuGraphGetNodes(graph, None, ctypes.byref(nodes)),
                        f"{self.name}: counting the graph's nodes")
            d.check(d.cuGraphInstantiateWithFlags(ctypes.byref(exec_), graph, 0),
                    f"{self.name}: instantiating the graph")
            if d.cuGraphDestroy is not None:
                d.cuGraphDestroy(graph)
        except BaseException:
            d.cuStreamDestroy_v2(stream)
            raise
        return _DriverGraph(self, exec_, stream, buffers, temporaries,
                            nodes.value if d.cuGraphGetNodes is not None else None)

    def _run(self, ptrs, sizes, stream, tensor_maps=True):
        """The plan's steps on these buffer addresses, issued on `stream`."""
        d = self.driver
        for step in self.plan["steps"]:
            if "copy" in step:
                copy = step["copy"]
                d.check(d.cuMemcpyDtoDAsync_v2(ptrs[copy["to"]], ptrs[copy["from"]],
                                               self._bytes(step, sizes), stream),
                        f"{self.name}: copying a buffer")
                continue
            if "tensor_map" in step:
                if tensor_maps:
                    self._encode_tensor_map(step, ptrs, sizes, stream)
                continue
            # A bucket's launch runs where each size is within its range.
            if any(not lo <= sizes[i] <= hi
                   for i, (lo, hi) in zip(step.get("sizes", []), step.get("when", []))):
                continue
            args = [ctypes.c_void_p(ptrs[a]) for a in step["args"]]
            args += [ctypes.c_int64(sizes[i]) for i in step.get("sizes", [])]
            params = (ctypes.c_void_p * len(args))(
                *[ctypes.addressof(a) for a in args])
            (gx, gy, gz), (bx, by, bz) = step["grid"], step["block"]
            if "grid_map" in step:
                grid = [self._evaluate(e, sizes) for e in step["grid_map"]]
                gx, gy, gz = (grid + [1, 1])[:3]
            d.check(d.cuLaunchKernel(self.functions[step["launch"]], gx, gy, gz,
                                     bx, by, bz, step["shared"], stream, params, None),
                    f"{self.name}: launching {step['launch']}")


class _DriverGraph:
    """A program's launches captured in a CUDA graph (_DriverProgram.capture):
    replay() relaunches them on the captured buffers with one cuGraphLaunch,
    on torch's current stream."""

    def __init__(self, program, exec_, stream, buffers, temporaries, nodes):
        self.program, self.exec, self.stream = program, exec_, stream
        # Kept alive: the graph's launches read and write them.
        self.buffers, self.temporaries = list(buffers), temporaries
        self.nodes = nodes

    def replay(self):
        d = self.program.driver
        d.check(d.cuGraphLaunch(self.exec,
                                self.program._stream(self.buffers[0].device)),
                f"{self.program.name}: launching its graph")

    def __del__(self):
        d = getattr(self.program, "driver", None)
        if d is not None and self.exec:
            d.cuGraphExecDestroy(self.exec)
            d.cuStreamDestroy_v2(self.stream)
            self.exec = None


# The note of an error that is a limit of compiling over dynamic sizes
# (kDynamicSizeLimitNote, include/xtile/Support/SymbolicDims.h).
DYNAMIC_SIZE_LIMIT = "xtile: a limit of compiling over dynamic sizes"


def is_dynamic_size_limit(diagnostics):
    """Whether a failed compile's diagnostics are limits of compiling over
    dynamic sizes only (every error carries the note): the module compiles
    with its sizes specialized. Any other error is the compiler's or the
    program's, never a reason to compile per size."""
    errors = len(re.findall(r": error: ", diagnostics))
    return errors > 0 and diagnostics.count(DYNAMIC_SIZE_LIMIT) == errors


def nvcc_command(cu, out, arch="native"):
    """nvcc's command that builds emitted CUDA C (kernels and host code)
    into a shared library for `arch`. Without contraction (-fmad=false): the
    kernels fuse a multiply and an add only where they say fmaf, as the PTX
    path (NVPTX writes mul.rn/add.rn) and the emulation do, so all three
    give the same bits."""
    return [_nvcc(), "-O3", f"-arch={arch}", "-fmad=false", "-shared",
            "-Xcompiler", "-fPIC", "-o", str(out), str(cu)]


def _cache_dir():
    """The kernel cache: $XTILE_CACHE_DIR, else <tmp>/xtile-cache."""
    return pathlib.Path(os.environ.get("XTILE_CACHE_DIR") or
                        pathlib.Path(tempfile.gettempdir()) / "xtile-cache")


def _emulation_header(cxx, flags):
    """The emulation header to include under `flags`, as xtile-run's
    emulationHeader finds it: a copy in the kernel cache beside its
    precompiled form for the compiler and these flags (which the compiler
    reads instead of parsing the header again), built once; the header
    itself where the precompile fails. XTILE_EMULATION_PCH=0 turns it off."""
    header = _runtime_dir() / "xtile_emulation.h"
    compiler = shutil.which(cxx)
    if os.environ.get("XTILE_EMULATION_PCH") == "0" or compiler is None:
        return header
    text = header.read_bytes()
    key = hashlib.sha256(b"\0".join([
        compiler.encode(), str(os.stat(compiler).st_mtime_ns).encode(),
        *[f.encode() for f in flags], text])).hexdigest()[:16]
    cache = _cache_dir() / f"pch-py-{key}"
    copy, pch = cache / "xtile_emulation.h", cache / "xtile_emulation.h.gch"
    if copy.exists() and pch.exists():
        return copy
    # Written under names of this build's own (threads of one process build
    # at once), then renamed: a concurrent build never reads half a file.
    part = f".{os.getpid()}.{threading.get_ident()}.part"
    cache.mkdir(parents=True, exist_ok=True)
    copy.with_name(copy.name + part).write_bytes(text)
    os.replace(copy.with_name(copy.name + part), copy)
    built = subprocess.run([compiler, *flags, "-x", "c++-header", str(copy), "-o",
                            str(pch) + part], capture_output=True)
    if built.returncode:
        pathlib.Path(str(pch) + part).unlink(missing_ok=True)
        return header
    os.replace(str(pch) + part, pch)
    return copy


def emulation_command(sources, out, defines=(), language="c++"):
    """The host compiler's command ($CXX, default c++) that builds emitted
    CUDA C for the CPU emulation (runtime/xtile_emulation.h) into a shared
    library: `sources` (a path, or several; compiled as `language`, or by
    their suffixes where it is None); `defines` adds macros
    (XTILE_EMULATION_DRIVER: the library is also an emulated CUDA driver
    whose GPU runs the module's kernels)."""
    cxx = os.environ.get("CXX", "c++")
    # No contraction: a multiply and an add fuse only where the kernel
    # says fmaf, as on the GPU.
    flags = (["-std=c++17", "-O1", "-ffp-contract=off", "-fPIC", "-w", "-Wno-psabi",
              "-pthread"] + [f"-D{d}" for d in defines])
    sources = [sources] if isinstance(sources, (str, os.PathLike)) else list(sources)
    return ([cxx, "-shared", *flags, "-include", str(_emulation_header(cxx, flags))] +
            (["-x", language] if language else []) +
            [str(s) for s in sources] + ["-o", str(out)])


class _LibraryProgram:
    """A program of a library built from the emitted CUDA C, by nvcc (cuda)
    or for the emulation: its `<name>_packed_sizes` entry point, called with
    the buffers' addresses, the dynamic sizes and torch's current stream."""

    def __init__(self, lib, name, cuda):
        self.lib = ctypes.CDLL(str(lib))
        self.name, self.cuda = name, cuda
        self.packed = getattr(self.lib, f"{name}_packed_sizes")
        self.packed.argtypes = [ctypes.POINTER(ctypes.c_void_p),
                                ctypes.POINTER(ctypes.c_int64), ctypes.c_void_p]
        self.packed.restype = ctypes.c_int
        # The names of its sizes, in order (the symbols, then the size
        # expressions of them it takes).
        names = getattr(self.lib, f"{name}_size_names", None)
        self.size_names = None
        if names is not None:
            names.restype = ctypes.c_char_p
            self.size_names = [n for n in names().decode().split("\n") if n]

    def __call__(self, buffers, sizes=()):
        ptrs = (ctypes.c_void_p * len(buffers))(*[b.data_ptr() for b in buffers])
        values = (ctypes.c_int64 * max(len(sizes), 1))(*sizes)
        stream = torch.cuda.current_stream().cuda_stream if self.cuda else None
        return self.packed(ptrs, values, stream)


class _TorchGraph:
    """The nvcc loader's launches captured with torch.cuda.graph (the
    library launches on torch's current stream, which is the capturing
    one): replay() is the graph's."""

    def __init__(self, program, buffers, sizes):
        self.buffers = list(buffers)
        self.graph = torch.cuda.CUDAGraph()
        # Warm up on a side stream first, as torch.cuda.graph asks.
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            program(self.buffers, sizes)
        torch.cuda.current_stream().wait_stream(side)
        with torch.cuda.graph(self.graph):
            program(self.buffers, sizes)
        self.nodes = None

    def replay(self):
        self.graph.replay()


def _check_target(target):
    """A GPU older than `target` cannot load its PTX: say so before JIT
    compilation fails with an opaque error."""
    if not torch.cuda.is_available():
        return
    major, minor = torch.cuda.get_device_capability()
    wanted = int(target[3:].rstrip("a"))
    if major * 10 + minor < wanted or (target.endswith("a") and
                                       major * 10 + minor != wanted):
        raise RuntimeError(f"xtile: target {target} cannot run on this GPU "
                           f"(sm_{major}{minor}): pass target=\"sm_{major}{minor}\"")


class Program:
    """A compiled Tensor IR function, callable on torch tensors."""

    def __init__(self, mlir, name, backend=None, target="sm_90", cache=None,
                 allow_tf32=False):
        self.name = name
        self.backend = backend or default_backend()
        if self.backend not in ("cuda", "emu"):
            raise ValueError(f"xtile: unknown backend {self.backend!r} (cuda or emu)")
        self.loader = cuda_loader() if self.backend == "cuda" else "emu"
        self.mlir = mlir
        self._launches = None
        spec = _tuned_spec(target)
        options = f"target={target}"
        if allow_tf32:
            options += " allow-tf32=true"
        if spec:
            options += f" schedule-spec={spec}"
        self.options = options
        # The key covers the compiler (its binary), its options and the
        # tuned schedules.
        key = hashlib.sha256("\0".join([
            mlir, self.backend, self.loader, options, _compiler_key(self.backend),
            spec.read_text() if spec else ""]).encode()).hexdigest()[:16]
        cache = pathlib.Path(cache) if cache else _cache_dir()
        cache.mkdir(parents=True, exist_ok=True)
        if self.loader == "driver":
            _check_target(target)
            ptx, plan = cache / f"{name}-{key}.ptx", cache / f"{name}-{key}.json"
            if not (ptx.exists() and plan.exists()):
                self._build_ptx(mlir, ptx, plan, options)
            self.fn = _DriverProgram(ptx.read_text(), json.loads(plan.read_text()), name)
            return
        lib = cache / f"{name}-{key}.so"
        if not lib.exists():
            self._build(mlir, lib, options)
        self.fn = _LibraryProgram(lib, name, cuda=self.backend == "cuda")
        self.lib = self.fn.lib

    @property
    def size_names(self):
        """The names of the sizes the program takes, in order: its symbols
        (sorted), then the size expressions of them it takes (`T + 1`)."""
        return self.fn.size_names

    def launches(self, sizes=None):
        """The number of kernel launches one call makes (counted in the
        program's Kernel IR, lowered again on the first ask): all of them,
        or where the program has buckets of a dynamic size (launches that
        run where the size is in their range), those that run at `sizes`
        ({name: value})."""
        if self._launches is None:
            kernel_ir = self._lower(self.mlir, self.options)
            plan = json.loads(self._translate(kernel_ir, "--mlir-to-launch-plan",
                                              "the launch plan"))
            program = next(p for p in plan["programs"] if p["name"] == self.name)
            self._launches = ([s["name"] for s in program.get("sizes", [])],
                              [s for s in program["steps"] if "launch" in s])
        names, steps = self._launches
        if sizes is None:
            return len(steps)
        from .importer.sizes import evaluate_size
        values = [evaluate_size(n, sizes) for n in names]
        return sum(all(lo <= values[i] <= hi for i, (lo, hi) in
                       zip(s.get("sizes", []), s.get("when", []))) for s in steps)

    def traffic(self):
        """(bytes the kernels move, the ideal: each input read once and each
        output written once), by xtile-opt's --xloop-report on the fused
        Loop IR (every buffer a kernel touches counted once, in full)."""
        done = subprocess.run([_tool("xtile-opt"), "--lower-to-loop", "--xloop-report",
                               "-o", os.devnull], input=self.mlir, capture_output=True,
                              text=True)
        found = re.search(r"func @\S+: \d+ launch(?:es)?, (\d+) B moved, ideal (\d+) B",
                          done.stdout)
        if done.returncode or not found:
            raise RuntimeError("xtile: the traffic report failed:\n" + done.stderr)
        return int(found[1]), int(found[2])

    @staticmethod
    def _translate(kernel_ir, flag, what):
        done = subprocess.run([_tool("xtile-translate"), flag], input=kernel_ir,
                              capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f"xtile: {what} failed:\n" + done.stderr)
        return done.stdout

    @staticmethod
    def _lower(mlir, options):
        with tempfile.TemporaryDirectory() as tmp:
            src = pathlib.Path(tmp, "program.mlir")
            src.write_text(mlir)
            kernel = subprocess.run(
                [_tool("xtile-opt"), f"--lower-to-kernel={options}", str(src)],
                capture_output=True, text=True)
        if kernel.returncode:
            raise RuntimeError("xtile: lowering failed:\n" + kernel.stderr)
        return kernel.stdout

    def _build_ptx(self, mlir, ptx, plan, options):
        """The PTX and the launch plan, written to the cache (each through a
        temporary name, so a reader never sees half a file)."""
        kernel_ir = self._lower(mlir, options)
        for path, flag, what in [(ptx, "--mlir-to-ptx", "PTX emission"),
                                 (plan, "--mlir-to-launch-plan", "the launch plan")]:
            text = self._translate(kernel_ir, flag, what)
            part = path.with_name(path.name + f".{os.getpid()}.part")
            part.write_text(text)
            os.replace(part, path)

    def _build(self, mlir, lib, options):
        cuda = self._translate(self._lower(mlir, options), "--mlir-to-cuda",
                               "CUDA C emission")
        with tempfile.TemporaryDirectory() as tmp:
            cu = pathlib.Path(tmp, "program.cu")
            cu.write_text(cuda)
            out = pathlib.Path(tmp, "program.so")
            cmd = (nvcc_command(cu, out) if self.backend == "cuda"
                   else emulation_command(cu, out))
            built = subprocess.run(cmd, capture_output=True, text=True)
            if built.returncode:
                raise RuntimeError("xtile: building the kernels failed:\n" + built.stderr)
            shutil.move(str(out), str(lib))

    def capture(self, buffers, sizes=()):
        """This program's launches on `buffers` (and `sizes`, as __call__
        takes them) captured once in a CUDA graph; the result's replay()
        relaunches them all at once, on the same buffers, which must stay
        where they are. The driver loader captures with the driver API
        (cuStreamBeginCapture, cuGraphInstantiate, cuGraphLaunch: the
        emulated driver implements them); the nvcc loader under
        torch.cuda.graph. The emulation backend has no graphs."""
        if isinstance(self.fn, _DriverProgram):
            return self.fn.capture(buffers, sizes)
        if self.backend == "cuda":
            return _TorchGraph(self, buffers, sizes)
        raise RuntimeError(f"xtile: {self.name}: CUDA graphs need the cuda backend "
                           "(a GPU, or the CUDA driver XTILE_LIBCUDA names)")

    def __call__(self, buffers, sizes=()):
        """Runs on `buffers`: inputs then (preallocated) outputs; `sizes`
        the values of the program's dynamic sizes, in the order of their
        names (a size outside its declared range is an error). An output
        returned in place of an input (`xtensor.in_place`) is that input's
        tensor: pass the same tensor for both (Compiled does)."""
        rc = self.fn(buffers, sizes)
        if rc != 0:
            raise RuntimeError(f"xtile: {self.name} failed with CUDA error {rc}"
                               + (f" (sizes {tuple(sizes)})" if sizes else ""))
