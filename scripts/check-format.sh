#!/usr/bin/env bash
# Fails when a tracked C++ file is not clang-formatted (LLVM style).
set -uo pipefail
cd "${1:-$(dirname "$0")/..}"
files=$(git ls-files '*.cpp' '*.h' '*.cu' 2>/dev/null || find lib include tools -name '*.cpp' -o -name '*.h' -o -name '*.cu')
bad=0
for f in $files; do
  if ! clang-format --dry-run -Werror "$f" >/dev/null 2>&1; then
    echo "not clang-formatted: $f (run 'make format')"
    bad=1
  fi
done
exit $bad
