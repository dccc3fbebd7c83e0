# -*- Python -*-
import os
import sys

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "xtile"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "consumer", "lib", "CMakeLists.txt", "lit.cfg.py",
                   "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.xtile_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%xtile_src_root", config.xtile_src_root))
config.substitutions.append(("%xtile_tools_dir", config.xtile_tools_dir))
config.substitutions.append(("%xtile_obj_root", config.xtile_obj_root))
config.substitutions.append(("%mlir_dir", config.mlir_dir))
# Longer names first: lit substitutes in order.
config.substitutions.append(("%cmake_generator", config.cmake_generator))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%cxx_launcher", config.cxx_launcher))
config.substitutions.append(("%cxx", config.cxx_compiler))
config.substitutions.append(("%cc", config.c_compiler))
config.substitutions.append(("%mlir_include", config.mlir_include_dir))

llvm_config.with_system_environment(["HOME", "TMPDIR", "CCACHE_DIR"])
llvm_config.use_default_substitutions()

tool_dirs = [config.xtile_tools_dir, config.llvm_tools_dir]
tools = ["xtile-opt", "xtile-translate", "xtile-loop-check", "xtile-run",
         "xtile-lsp-server", "xtile-reduce", "xtile-capi-test"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.xtile_tools_dir, append_path=True)

# Optional CUDA tools: tests that compile emitted code REQUIRE these.
if config.nvcc:
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", config.nvcc))
if config.ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.ptxas))
# xtile-fuzz --compile-only assembles with this ptxas, or with none.
config.substitutions.append(
    ("%assembler_option", "--ptxas " + (config.ptxas if config.ptxas else "''")))
# The long tier (scripts/run-tests.sh --long): lit --param long=1.
if lit_config.params.get("long", "0") not in ("0", "", "false", "False"):
    config.available_features.add("long")

sanitizer_flags = ""
if config.sanitizers.upper() in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("sanitizers")
    # Code that links our sanitized libraries must be sanitized too.
    sanitizer_flags = "-fsanitize=address,undefined -fno-sanitize=vptr"
    # Leaks of global registries at exit are not bugs of ours. LLVM's bump
    # allocators poison their unused space when compiled with ASan, as our
    # code is, but not in Debian's libMLIR, which allocates from the same
    # slabs: manual poisoning would report libMLIR's own writes.
    config.environment["ASAN_OPTIONS"] = "detect_leaks=0:allow_user_poisoning=0"
config.substitutions.append(("%sanitizer_flags", sanitizer_flags))

# xtile-run --sanitize preloads the host compiler's AddressSanitizer
# runtime (xtile-run compiles the emulation with `c++` here: lit passes no
# CXX).
import shutil
import subprocess
if shutil.which("c++"):
    probe = subprocess.run(["c++", "-print-file-name=libasan.so"],
                           capture_output=True, text=True)
    runtime = probe.stdout.strip()
    if probe.returncode == 0 and os.path.isabs(runtime) and \
            os.path.exists(runtime):
        config.available_features.add("emulation-sanitizers")

# The PyTorch frontend's tests need a Python with torch: the virtual
# environment scripts/setup.sh makes (build/venv), else this Python.
for candidate in [os.path.join(config.xtile_obj_root, "venv", "bin", "python"),
                  sys.executable]:
    if not os.path.exists(candidate):
        continue
    probe = subprocess.run([candidate, "-c", "import torch"],
                           capture_output=True)
    if probe.returncode == 0:
        config.available_features.add("torch")
        if subprocess.run([candidate, "-c", "import transformers"],
                          capture_output=True).returncode == 0:
            config.available_features.add("transformers")
        if subprocess.run([candidate, "-c", "import torch_mlir"],
                          capture_output=True).returncode == 0:
            config.available_features.add("torch_mlir")
        config.substitutions.append(
            ("%torch_python_bare", candidate))
        # Strict: an op that would fall back to PyTorch (docs/Distributed.md)
        # is an error in the tests, unless a test asks for partitioning.
        config.substitutions.append(
            ("%torch_python", "env XTILE_STRICT=1 PYTHONPATH=%s %s" % (
                os.path.join(config.xtile_src_root, "python"), candidate)))
        break

# The CuTe oracle (test/Target/Oracle): NVIDIA's CuTe headers from PyPI's
# nvidia-cutlass (installed by scripts/setup.sh into build/venv) and the
# CUDA toolkit's headers they include (cuda_fp16.h, cuda.h, CCCL's
# cuda/std), compiled for the host. Without either, the oracle's test is
# unsupported and this says why.
def find_cute():
    cutlass = None
    for candidate in [os.path.join(config.xtile_obj_root, "venv", "bin", "python"),
                      sys.executable]:
        if not os.path.exists(candidate):
            continue
        probe = subprocess.run(
            [candidate, "-c",
             "import cutlass_library, os; print(os.path.join(os.path.dirname("
             "cutlass_library.__file__), 'source', 'include'))"],
            capture_output=True, text=True)
        path = probe.stdout.strip()
        if probe.returncode == 0 and os.path.exists(
                os.path.join(path, "cute", "tensor.hpp")):
            cutlass = path
            break
    if not cutlass:
        return None, "PyPI's nvidia-cutlass is not installed (scripts/setup.sh installs it into build/venv)"
    cuda_dirs = []
    if config.nvcc:
        cuda_dirs.append(os.path.join(os.path.dirname(os.path.dirname(
            os.path.realpath(config.nvcc))), "include"))
    cuda_dirs += ["/usr/local/cuda/include", "/usr/include"]
    for cuda in cuda_dirs:
        if not (os.path.exists(os.path.join(cuda, "cuda_fp16.h")) and
                os.path.exists(os.path.join(cuda, "cuda.h"))):
            continue
        for cccl in [os.path.join(cuda, "cccl"), cuda]:
            if os.path.exists(os.path.join(cccl, "cuda", "std", "utility")):
                return "-I%s -I%s -I%s" % (cutlass, cuda, cccl), None
    return None, "no CUDA toolkit headers (cuda_fp16.h, cuda.h, CCCL) for CuTe"

cute_flags, cute_missing = find_cute()
if cute_flags:
    config.available_features.add("cute")
    config.substitutions.append(("%cute_flags", cute_flags))
else:
    lit_config.note("the CuTe oracle (test/Target/Oracle) is unsupported: " +
                    cute_missing)
