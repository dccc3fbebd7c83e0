#!/usr/bin/env bash
# Install, build and run every test.
#
#   scripts/run-tests.sh [--config release|assert|asan]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
config=release
[ "${1:-}" = "--config" ] && config="$2"
case "$config" in
  release) build="$root/build" ;;
  *) build="$root/build-$config" ;;
esac
"$root/scripts/setup.sh" --config "$config"

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
/usr/lib/llvm-22/bin/lit -sv --show-unsupported "$build/test" 2>&1 | tee "$log" || status=$?
# Say why each skipped test was skipped: the features it requires.
{ grep -oE '^UNSUPPORTED: xtile :: [^ ]+' "$log" || true; } | sed 's/^UNSUPPORTED: xtile :: //' |
  while read -r test; do
    needs=$({ grep -m1 -oE 'REQUIRES: .*' "$root/test/$test" || true; } | sed 's/REQUIRES: //')
    echo "skipped $test: needs ${needs:-an unavailable feature} (nvcc, ptxas: the CUDA toolkit; torch, transformers: scripts/setup.sh's build/venv; emulation-sanitizers: the host compiler's libasan)"
  done
count() { awk -v pat="$1" '$0 ~ "^ *(" pat ") *: *[0-9]+" {split($0, f, ":"); n += f[2]} END {print n + 0}' "$log"; }
passed=$(count "Passed")
failed=$(count "Failed|Unresolved|Timed Out|Unexpectedly Passed")
unsupported=$(count "Unsupported")
echo "xtile ($config): $passed passed, $failed failed, $unsupported skipped"
if [ "$passed" = 0 ]; then
  echo "run-tests.sh: no test ran" >&2
  exit 1
fi
exit $status
