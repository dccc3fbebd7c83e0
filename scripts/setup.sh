#!/usr/bin/env bash
# Installs what xtile needs on Debian 12 (when missing), configures and
# builds it. Idempotent: with everything in place it only runs an
# incremental build.
#
#   scripts/setup.sh [--config release|assert|asan|fuzz] [--target "TARGET..."]
#
# Configurations (each in its own build directory):
#   release  build/          optimized, as users run it
#   assert   build-assert/   assertions on in xtile and in the LLVM/MLIR headers
#   asan     build-asan/     AddressSanitizer + UndefinedBehaviorSanitizer,
#                            assertions on
#   fuzz     build-fuzz/     clang-22 with libFuzzer coverage, ASan and UBSan,
#                            assertions on; builds tools/xtile-fuzz-lower
#                            (run it with scripts/fuzz.sh)
set -euo pipefail

config=release
target=all
while [ $# -gt 0 ]; do
  case "$1" in
    --config) config="$2"; shift 2 ;;
    --target) target="$2"; shift 2 ;;
    *) echo "setup.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
llvm=/usr/lib/llvm-22

packages=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools cmake
          ninja-build ccache g++ python3 python3-numpy python3-venv)
# The fuzz configuration compiles with clang and links libFuzzer.
[ "$config" = fuzz ] && packages+=(clang-22 libclang-rt-22-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" \
    || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup.sh: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi

case "$config" in
  release) build="$root/build"; flags=(-DCMAKE_BUILD_TYPE=Release) ;;
  assert)  build="$root/build-assert"
           flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DXTILE_ENABLE_ASSERTIONS=ON) ;;
  asan)    build="$root/build-asan"
           flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DXTILE_ENABLE_ASSERTIONS=ON
                  -DXTILE_ENABLE_SANITIZERS=ON) ;;
  fuzz)    build="$root/build-fuzz"
           flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DXTILE_ENABLE_ASSERTIONS=ON
                  -DXTILE_ENABLE_SANITIZERS=ON -DXTILE_ENABLE_FUZZER=ON
                  -DCMAKE_C_COMPILER="$llvm/bin/clang"
                  -DCMAKE_CXX_COMPILER="$llvm/bin/clang++")
           [ "$target" = all ] && target=xtile-fuzz-lower
           export XTILE_SKIP_TORCH=1 ;;
  *) echo "setup.sh: unknown config '$config' (release|assert|asan|fuzz)" >&2; exit 2 ;;
esac

if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" "${flags[@]}" \
    -DMLIR_DIR="$llvm/lib/cmake/mlir" \
    -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
    -DCMAKE_INSTALL_PREFIX="$build/install"
fi
# One target or several, separated by spaces.
read -r -a targets <<< "$target"
cmake --build "$build" --target "${targets[@]}"

# The PyTorch frontend (python/): a virtual environment in the build
# directory with torch and numpy from PyPI (several GB the first time; pip's
# cache serves later runs) and the xtile package. XTILE_SKIP_TORCH=1 skips
# it; the frontend's tests then report themselves unsupported.
if [ "${XTILE_SKIP_TORCH:-0}" != 1 ]; then
  venv="$build/venv"
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  if ! "$venv/bin/python" -c "import torch, numpy, expecttest, transformers" 2>/dev/null; then
    echo "setup.sh: installing torch, numpy, expecttest (OpInfo) and transformers (model tests) from PyPI into $venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check torch numpy expecttest transformers
  fi
  # torch-mlir, a linalg front end the --convert-linalg-to-xtensor tests
  # run (without its pinned torch: ours serves it).
  if ! "$venv/bin/python" -c "import torch_mlir" 2>/dev/null; then
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
      --no-deps torch-mlir ||
      echo "setup.sh: torch-mlir not installed; its tests report themselves unsupported"
  fi
  # NVIDIA's CuTe headers (nvidia-cutlass), which the tensor-core oracle
  # (test/Target/Oracle) compiles for the host with the CUDA toolkit's
  # headers; without them its test reports itself unsupported.
  if ! "$venv/bin/python" -c "import cutlass_library" 2>/dev/null; then
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
      nvidia-cutlass ||
      echo "setup.sh: nvidia-cutlass not installed; the CuTe oracle's test reports itself unsupported"
  fi
  if ! "$venv/bin/python" -c "import xtile" 2>/dev/null; then
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
      --no-build-isolation --no-deps -e "$root/python"
  fi
fi
