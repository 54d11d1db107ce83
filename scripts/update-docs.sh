#!/usr/bin/env bash
# Copies the reference docs that TableGen generates (dialect, ops, passes)
# into docs/generated/, where they are committed next to the hand-written
# design notes. test/docs-up-to-date.test fails when they are stale.
set -euo pipefail
BUILD_DIR=${1:-build}
cd "$(dirname "$0")/.."
ninja -C "$BUILD_DIR" mlir-doc >/dev/null
mkdir -p docs/generated
find "$BUILD_DIR/docs" -name '*.md' | while read -r f; do
  cp "$f" "docs/generated/$(basename "$f")"
done
ls docs/generated
