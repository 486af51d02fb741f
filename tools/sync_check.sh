#!/usr/bin/env bash
# Fail when nbdev-export or nbdev-clean would change a tracked file (notebooks are the source of truth).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! git rev-parse --git-dir >/dev/null 2>&1; then echo "[sync-check] not a git checkout: skipped"; exit 0; fi
before=$(git status --porcelain --untracked-files=no)
.venv/bin/nbdev-export
.venv/bin/nbdev-clean
after=$(git status --porcelain --untracked-files=no)
if [ "$before" != "$after" ]; then
  echo "[sync-check] nbdev-export/nbdev-clean changed tracked files: the library or the notebooks were out of sync:" >&2
  diff <(echo "$before") <(echo "$after") >&2 || true
  exit 1
fi
echo "[sync-check] notebooks clean, library in sync"
