#!/usr/bin/env bash
# Regenerates the dialect and pass references in docs/ from the .td files.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh" --target mlir-doc >/dev/null
for dir in Dialects Passes; do
  mkdir -p "$root/docs/$dir"
  cp "$root/build/docs/$dir/"*.md "$root/docs/$dir/"
done
echo "docs/Dialects and docs/Passes regenerated"
