#!/usr/bin/env bash
# The main job on the bundled example: install, build, then lower
# examples/rmsnorm.mlir (or the file given) through every level built so far
# and print each result.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh" --target xtile-opt >/dev/null
example="${1:-$root/examples/rmsnorm.mlir}"
opt="$root/build/bin/xtile-opt"
echo "== $example: Tensor IR, decomposed and normalized"
"$opt" --xtensor-decompose --xtensor-normalize "$example"
echo "== Loop IR (--lower-to-loop)"
"$opt" --lower-to-loop "$example"
echo "== kernels and device-memory traffic (--xloop-report)"
"$opt" --lower-to-loop --xloop-report -o /dev/null "$example"
echo "== Tile IR (--lower-to-tile) and the schedules considered"
"$opt" --lower-to-tile="report-schedules=1" "$example"
