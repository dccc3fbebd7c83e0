#!/usr/bin/env bash
# The long tier: what the README's test command leaves out for time (about
# an hour on 2 cores after the build). The tests that `REQUIRES: long`
# (every example and integration input through both the CUDA C and the PTX
# paths, bit-identical; the differential fuzzer on both paths), then
# 2,000 fuzzer graphs through both paths.
#
#   scripts/long-tests.sh [--fuzz-seeds 1-2000]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seeds=1-2000
while [ $# -gt 0 ]; do
  case "$1" in
    --fuzz-seeds) seeds="$2"; shift 2 ;;
    *) echo "long-tests.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
"$root/scripts/setup.sh"
build="$root/build"
mapfile -t tests < <(cd "$root/test" && grep -rl --include='*.test' --include='*.mlir' \
  --include='*.py' '^REQUIRES: long' . | sed "s|^\./|$build/test/|")
status=0
/usr/lib/llvm-22/bin/lit -sv --param long=1 "${tests[@]}" || status=$?
"$build/venv/bin/python" "$root/tools/xtile-fuzz/xtile-fuzz.py" --both-paths \
  --seeds "$seeds" --per-module 20 --run "$build/bin/xtile-run" || status=$?
exit $status
