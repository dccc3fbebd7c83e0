#!/usr/bin/env bash
# Coverage-guided fuzzing of the whole compiler with libFuzzer: parse,
# verify, --lower-to-kernel and CUDA C emission of every input, under
# ASan and UBSan (tools/xtile-fuzz-lower).
#
#   scripts/fuzz.sh [--time SECONDS] [--jobs N] [-- LIBFUZZER_FLAGS...]
#
# Builds build-fuzz/ (scripts/setup.sh --config fuzz) when needed. The
# corpus grows in build-fuzz/fuzz/corpus, seeded with every module of
# examples/ and test/ (split at `// -----`); the dictionary (every
# registered op name and the syntax's keywords) is written by the harness
# itself. Findings (crash-*, timeout-*, oom-*) land in
# build-fuzz/fuzz/findings/; scripts/fuzz-triage.sh replays them and names
# the first frame in xtile's code (or says that there is none: a bug of
# upstream MLIR); reproduce one with
#   build-fuzz/bin/xtile-fuzz-lower build-fuzz/fuzz/findings/crash-...
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds=600
jobs=1
while [ $# -gt 0 ]; do
  case "$1" in
    --time) seconds="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --) shift; break ;;
    *) echo "fuzz.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done

"$root/scripts/setup.sh" --config fuzz
build="$root/build-fuzz"
harness="$build/bin/xtile-fuzz-lower"
work="$build/fuzz"
mkdir -p "$work/corpus" "$work/seeds" "$work/findings"

XTILE_FUZZ_PRINT_DICT=1 "$harness" > "$work/xtile.dict"
python3 - "$root" "$work/seeds" <<'PY'
import hashlib, pathlib, sys
root, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
files = sorted(list((root / "examples").glob("*.mlir")) + list((root / "test").rglob("*.mlir")))
for f in files:
    for part in f.read_text(errors="replace").split("// -----"):
        data = part.strip().encode()
        if data and len(data) <= 16384:
            (out / hashlib.sha1(data).hexdigest()).write_bytes(data)
PY

# Fork mode: libFuzzer runs the inputs in N child processes and goes on
# after a crash, a timeout or running out of memory, so that one finding
# (ours, or one in upstream MLIR's parsers) does not end the run.
# scripts/fuzz-triage.sh sorts the findings by the first frame of ours.
exec "$harness" "$work/corpus" "$work/seeds" \
  -dict="$work/xtile.dict" -max_len=16384 -timeout=30 -rss_limit_mb=4096 \
  -max_total_time="$seconds" -fork="$jobs" \
  -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
  -artifact_prefix="$work/findings/" -print_final_stats=1 "$@"
