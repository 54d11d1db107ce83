#!/usr/bin/env bash
# Runs every test (lit: dialects, passes, pipelines, kernels on the CPU
# reference executor, PTX through ptxas, tools; the repository checks:
# clang-format-22, clang-tidy-22, generated docs, a test for every
# diagnostic; GPU tests where a GPU answers) and ends with the line
# `N passed, N failed`. docs/testing.md describes the tree.
set -uo pipefail
BUILD_DIR=${1:-build}
cd "$(dirname "$0")/.."
V=$(tr -d '[:space:]' < LLVM_VERSION)
LIT=/usr/lib/llvm-$V/bin/lit

log=$(mktemp)
start=$(date +%s)
"$LIT" -sv --no-progress-bar "$BUILD_DIR/test" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
count() { grep -E "^ *$1 *: *[0-9]+" "$log" | tail -1 | sed -E 's/.*: *([0-9]+).*/\1/'; }
passed=$(count "Passed"); passed=${passed:-0}
failed=0
for kind in "Failed" "Unresolved" "Timed Out" "Unexpectedly Passed"; do
  n=$(count "$kind"); failed=$((failed + ${n:-0}))
done
unsupported=$(count "Unsupported")
rm -f "$log"
echo "check took $(( $(date +%s) - start )) s; ${unsupported:-0} unsupported here (need a GPU or a tool)"
echo "$passed passed, $failed failed"
if [ "$status" -ne 0 ] || [ "$failed" -ne 0 ]; then exit 1; fi
