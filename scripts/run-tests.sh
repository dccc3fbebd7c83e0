#!/usr/bin/env bash
# Install, build and run the tests.
#
#   scripts/run-tests.sh [--config release|assert|asan] [--quick | --long]
#                        [--fuzz-seeds 1-2000]
#
# The default is the fast tier: every pass, conversion, emitter and
# integration test, and a bounded sample of the long sweeps (OpInfo, model
# families, fuzzing).
# --quick builds xtile-opt and xtile-translate only (no PyTorch) and runs
# the suites that need nothing else: test/Dialect, test/Conversion and
# test/Target (every pass, verifier, conversion and both emitters). CI runs
# it on the sanitizer build after the fast tier on the release build.
# --long runs the long tier: the whole suite with the sweeps at full size
# (lit --param long=1: every OpInfo sample, every model family, all the
# fuzz seeds, every input through both the CUDA C and PTX paths), then
# 2,000 fuzzer graphs (--fuzz-seeds) through both paths. About 40 minutes
# on 2 cores after the build.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
config=release
quick=0
long=0
seeds=1-2000
while [ $# -gt 0 ]; do
  case "$1" in
    --config) config="$2"; shift 2 ;;
    --quick) quick=1; shift ;;
    --long) long=1; shift ;;
    --fuzz-seeds) seeds="$2"; shift 2 ;;
    *) echo "run-tests.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
case "$config" in
  release) build="$root/build" ;;
  *) build="$root/build-$config" ;;
esac
suites=("$build/test")
params=()
if [ "$quick" = 1 ] && [ "$long" = 1 ]; then
  echo "run-tests.sh: --quick and --long exclude each other" >&2
  exit 2
fi
[ "$long" = 1 ] && params=(--param long=1)
if [ "$quick" = 1 ]; then
  XTILE_SKIP_TORCH=1 "$root/scripts/setup.sh" --config "$config" \
    --target "xtile-opt xtile-translate"
  suites=("$build/test/Dialect" "$build/test/Conversion" "$build/test/Target")
else
  "$root/scripts/setup.sh" --config "$config"
fi

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
/usr/lib/llvm-22/bin/lit -sv --show-unsupported "${params[@]}" "${suites[@]}" 2>&1 | tee "$log" || status=$?
# Say why each skipped test was skipped: the features it requires.
# (lit lists them under "Unsupported Tests (N):" in its summary.)
awk '/^Unsupported Tests \(/ {f = 1; next}
     f && /^  xtile :: / {sub(/^  xtile :: /, ""); print; next}
     {f = 0}' "$log" |
  while read -r test; do
    needs=$({ grep -m1 -oE 'REQUIRES: .*' "$root/test/$test" || true; } | sed 's/REQUIRES: //')
    echo "skipped $test: needs ${needs:-an unavailable feature} (nvcc, ptxas: the CUDA toolkit; torch, transformers: scripts/setup.sh's build/venv; emulation-sanitizers: the host compiler's libasan; cute: CUTLASS's headers (nvidia-cutlass) and the CUDA headers; long: the long tier, scripts/run-tests.sh --long)"
  done
count() { awk -v pat="$1" '$0 ~ "^ *(" pat ") *: *[0-9]+" {split($0, f, ":"); n += f[2]} END {print n + 0}' "$log"; }
passed=$(count "Passed")
failed=$(count "Failed|Unresolved|Timed Out|Unexpectedly Passed")
unsupported=$(count "Unsupported")
tier=fast
[ "$quick" = 1 ] && tier=quick
[ "$long" = 1 ] && tier=long
echo "xtile ($config, $tier tier): $passed passed, $failed failed, $unsupported skipped"
if [ "$passed" = 0 ]; then
  echo "run-tests.sh: no test ran" >&2
  exit 1
fi
if [ "$long" = 1 ]; then
  # The differential fuzzer's long sweep through both paths.
  "$build/venv/bin/python" "$root/tools/xtile-fuzz/xtile-fuzz.py" --both-paths \
    --seeds "$seeds" --per-module 20 --run "$build/bin/xtile-run" || status=$?
fi
exit $status
