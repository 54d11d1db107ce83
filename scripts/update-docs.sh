#!/usr/bin/env bash
# Copies the reference docs that TableGen generates (dialect, ops, passes)
# into docs/generated/, where they are committed next to the hand-written
# design notes, and redraws the pipeline in docs/design.md from
# `tile-compile --print-pipeline`. test/docs-up-to-date.test and
# test/Pipelines/design-doc.test fail when they are stale.
set -euo pipefail
BUILD_DIR=${1:-build}
cd "$(dirname "$0")/.."
ninja -C "$BUILD_DIR" mlir-doc >/dev/null
mkdir -p docs/generated
find "$BUILD_DIR/docs" -name '*.md' | while read -r f; do
  cp "$f" "docs/generated/$(basename "$f")"
done
ls docs/generated
ninja -C "$BUILD_DIR" tile-compile >/dev/null
python3 scripts/pipeline-doc.py "$BUILD_DIR/bin/tile-compile" docs/design.md
