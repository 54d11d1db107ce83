#!/usr/bin/env bash
# `make run`, after the build: runs the flash-attention kernel once at a small
# shape and prints one result line (shape, max error against the float64
# reference and the tolerance of the 2x rule, time).
#
# With a GPU (nvidia-smi -L answers) and the bundle compiler
# ($BUILD_DIR/bin/tile-compile) it runs on the GPU: see run_gpu below. Else
# it runs kernels/fmha.mlir on tile-runner's CPU reference backend (the tile
# IR executor).
#
# Usage: scripts/run.sh [BUILD_DIR]   (environment: SHAPE to override the
# shape options of tile-runner)
set -uo pipefail
BUILD_DIR=${1:-build}
cd "$(dirname "$0")/.."
RUNNER=$BUILD_DIR/bin/tile-runner
KERNEL=kernels/fmha.mlir
SHAPE=${SHAPE:---batch 1 --heads 2 --seq-q 256 --seq-k 256 --head-dim 64 --causal}

if [ ! -x "$RUNNER" ]; then
  echo "make run: $RUNNER is missing; build first (make build)" >&2
  exit 2
fi

# Prints the one-line summary of a `tile-runner --json` report on stdin.
summarize() {
  python3 -c '
import json, sys
r = json.load(sys.stdin)
s = r.get("shape", {})
shape = "B=%s H=%s HKV=%s Sq=%s Sk=%s D=%s %s%s%s" % (
    s.get("batch"), s.get("heads"), s.get("kv_heads"), s.get("seq_q"),
    s.get("seq_k"), s.get("head_dim"), s.get("dtype"),
    " causal" if s.get("causal") else "",
    " input_pos=%s" % s.get("input_pos") if s.get("input_pos") else "")
c = r.get("check", {})
err = "max error %.3g (tolerance %.3g)" % (c["max_error"], c["tolerance"]) \
    if "max_error" in c else "not checked"
t = r.get("timing", {})
time = "%.3f ms" % t["median_ms"] if "median_ms" in t else "n/a"
verdict = "PASS" if r.get("passed") else "FAIL"
print("fmha %s [%s]: %s, %s, time %s" % (verdict, r.get("backend"), shape,
                                         err, time))
for f in r.get("failures", []):
    print("  failure: " + f)
if "error" in r:
    print("  error: " + r["error"])
'
}

# ---- GPU path ---------------------------------------------------------------
# Compiles $KERNEL for this GPU (chip from nvidia-smi's compute capability)
# into a bundle with tile-compile and runs it with the correctness check.
# Returns non-zero when that is not possible, to fall back to the CPU backend;
# the run's own exit status is left in GPU_STATUS.
run_gpu() {
  local cc chip bundle params json status
  cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')
  case "$cc" in
    90) chip=sm_90a ;;
    8*) chip=sm_80 ;;
    *) echo "make run: compute capability '$cc' is not a target of this compiler" >&2
       return 1 ;;
  esac
  bundle=$BUILD_DIR/bundles/make-run-$chip
  params=TILE_M=64,TILE_N=64,HEAD_DIM=64,CAUSAL=true,EVEN_K=false
  echo "GPU found (compute capability $cc): compiling $KERNEL for $chip"
  "$BUILD_DIR/bin/tile-compile" "$KERNEL" --chip="$chip" --params="$params" \
      --num-warps=4 --tile-pipeline=tile-O3 -o "$bundle" || return 1
  # shellcheck disable=SC2086
  json=$("$RUNNER" --backend=gpu --bundle "$bundle" $SHAPE --bench --json)
  status=$?
  [ -n "$json" ] || return 1
  printf '%s\n' "$json" | summarize
  GPU_STATUS=$status
  return 0
}
# ---------------------------------------------------------------------------

if nvidia-smi -L >/dev/null 2>&1 && [ -x "$BUILD_DIR/bin/tile-compile" ]; then
  if run_gpu; then
    exit "$GPU_STATUS"
  fi
  echo "GPU found, but the GPU path of make run is not available: running the CPU reference backend"
else
  echo "no GPU: running the CPU reference backend"
fi

# shellcheck disable=SC2086
json=$("$RUNNER" --backend=cpu --kernel "$KERNEL" $SHAPE --bench --json)
status=$?
if [ -z "$json" ]; then
  echo "make run: tile-runner produced no report (exit $status)" >&2
  exit 2
fi
printf '%s\n' "$json" | summarize
exit $status
