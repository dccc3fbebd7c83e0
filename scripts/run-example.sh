#!/usr/bin/env bash
# The main job on the bundled example: install, build, then lower
# examples/rmsnorm.mlir (or the file given) through every level down to
# CUDA C, print each result, then run it (on the GPU when there is one,
# else under the CPU emulation) against the float64 reference.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh" --target xtile-opt >/dev/null
"$root/scripts/setup.sh" --target xtile-translate >/dev/null
"$root/scripts/setup.sh" --target xtile-run >/dev/null
example="${1:-$root/examples/rmsnorm.mlir}"
opt="$root/build/bin/xtile-opt"
translate="$root/build/bin/xtile-translate"
echo "== $example: Tensor IR, decomposed and normalized"
"$opt" --xtensor-decompose --xtensor-normalize "$example"
echo "== Loop IR (--lower-to-loop)"
"$opt" --lower-to-loop "$example"
echo "== kernels and device-memory traffic (--xloop-report)"
"$opt" --lower-to-loop --xloop-report -o /dev/null "$example"
echo "== Tile IR (--lower-to-tile) and the schedules considered"
"$opt" --lower-to-tile="schedule-report=-" "$example"
echo "== Kernel IR (--lower-to-kernel)"
"$opt" --lower-to-kernel "$example"
echo "== CUDA C (xtile-translate --mlir-to-cuda)"
"$opt" --lower-to-kernel "$example" | "$translate" --mlir-to-cuda
echo "== run on the default backend, checked against the float64 reference (xtile-run)"
"$root/build/bin/xtile-run" "$example"
