#!/usr/bin/env bash
# Fails when a tracked C++ file is not formatted by the clang-format of the
# pinned LLVM (clang-format-22 for LLVM_VERSION 22; LLVM style,
# .clang-format). `make format` fixes them.
set -uo pipefail
cd "${1:-$(dirname "$0")/..}"
V=$(tr -d '[:space:]' < LLVM_VERSION)
FORMAT=clang-format-$V
if ! command -v "$FORMAT" >/dev/null; then
  echo "$FORMAT not found: run scripts/install-deps.sh" >&2
  exit 2
fi
files=$(git ls-files '*.cpp' '*.h' '*.cu' 2>/dev/null || find lib include tools -name '*.cpp' -o -name '*.h' -o -name '*.cu')
bad=0
for f in $files; do
  if ! "$FORMAT" --dry-run -Werror "$f" >/dev/null 2>&1; then
    echo "not clang-formatted: $f (run 'make format')"
    bad=1
  fi
done
exit $bad
