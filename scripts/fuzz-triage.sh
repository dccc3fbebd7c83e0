#!/usr/bin/env bash
# Replays every finding of scripts/fuzz.sh and prints, for each, the
# sanitizer's or the signal's summary and the first stack frame in xtile's
# own sources, or "upstream" when no frame is ours (the finding is a bug of
# MLIR itself, e.g. a parser of an upstream dialect).
#
#   scripts/fuzz-triage.sh [FINDINGS_DIR]
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
harness="$root/build-fuzz/bin/xtile-fuzz-lower"
dir="${1:-$root/build-fuzz/fuzz/findings}"
for f in "$dir"/crash-* "$dir"/timeout-* "$dir"/oom-*; do
  [ -e "$f" ] || continue
  out=$(timeout 120 "$harness" -timeout=30 -rss_limit_mb=4096 "$f" 2>&1)
  summary=$(grep -m1 -E "^SUMMARY:|ERROR: libFuzzer|runtime error" <<<"$out" | cut -c1-160)
  ours=$(grep -E "^ +#[0-9]+ .* in .* $root/(lib|tools|include)/" <<<"$out" |
         grep -v xtile-fuzz-lower.cpp | head -1 | sed -E 's/^ +#[0-9]+ 0x[0-9a-f]+ in //' | cut -c1-200)
  echo "$(basename "$f"): ${summary:-no longer fails}"
  echo "    ${ours:-upstream (no frame in the sources of xtile)}"
done
