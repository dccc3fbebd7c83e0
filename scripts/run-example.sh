#!/usr/bin/env bash
# The main job on the bundled example: install, build, then lower
# examples/rmsnorm.mlir and print the result.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh" --target xtile-opt >/dev/null
example="${1:-$root/examples/rmsnorm.mlir}"
echo "== $example: decomposed and normalized Tensor IR"
"$root/build/bin/xtile-opt" --xtensor-decompose --xtensor-normalize "$example"
