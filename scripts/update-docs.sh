#!/usr/bin/env bash
# Regenerates the dialect and pass references in docs/ from the .td files,
# and the frontend's supported-op list from its registry of lowerings.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh" --target mlir-doc >/dev/null
for dir in Dialects Passes; do
  mkdir -p "$root/docs/$dir"
  cp "$root/build/docs/$dir/"*.md "$root/docs/$dir/"
done
# The frontend's supported-op list, between the markers of docs/Frontend.md.
if [ -x "$root/build/venv/bin/python" ]; then
  PYTHONPATH="$root/python" "$root/build/venv/bin/python" - "$root/docs/Frontend.md" <<'PY'
import re, sys
from xtile.importer import supported_ops_markdown
path = sys.argv[1]
text = open(path).read()
text = re.sub(r"(<!-- supported-ops -->\n).*?(<!-- /supported-ops -->)",
              lambda m: m.group(1) + supported_ops_markdown() + m.group(2),
              text, flags=re.S)
open(path, "w").write(text)
PY
fi
echo "docs/Dialects, docs/Passes and docs/Frontend.md's op list regenerated"
