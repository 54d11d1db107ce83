#!/usr/bin/env bash
# One GPU call: correctness sweep over the check bundles, compute-sanitizer
# on a compiled kernel, then the benchmark (our kernel autotuned over the perf
# bundles, the optimization ladder, the peers) through bench/run_gpu.sh.
# usage: bench/final_gpu.sh CHECK_DIR PERF_DIR LADDER_DIR   (writes under $OUT)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
check=${1:?} perf=${2:?} ladder=${3:?}
OUT=${OUT:-$root/bench-out}
mkdir -p "$OUT"
log="$OUT/gpu-checks.txt"
cmake -S "$root" -B "$root/build-runner" -G Ninja -DTILE_RUNNER_ONLY=ON \
  -DCMAKE_BUILD_TYPE=Release > /dev/null 2>&1 && ninja -C "$root/build-runner" > /dev/null 2>&1 ||
  { echo "runner build failed"; exit 1; }
runner="$root/build-runner/bin/tile-runner"
{
  echo "== correctness sweep: $check"
  timeout 240 python3 "$root/bench/check_bundles.py" --runner "$runner" \
    --bundles "$check" --mode quick
  echo "== compute-sanitizer"
  for b in "$check/o3-f16-d128-m128n64-c" "$check/o3-f16-d128-m128n32-w4-c" \
           "$check/f16-d128-m128n64-n"; do
    causal=""
    case "$b" in *-c) causal="--causal --input-pos bottom-right" ;; esac
    for tool in memcheck racecheck; do
      # shellcheck disable=SC2086
      timeout 60 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 99 \
        "$runner" --backend=gpu --bundle "$b" --head-dim 128 --heads 2 --seq-q 200 \
        --seq-k 333 $causal > "$OUT/san.txt" 2>&1
      echo "$(basename "$b") $tool exit $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|result' "$OUT/san.txt" | tr '\n' ' ')"
      grep -m4 "Race reported" "$OUT/san.txt" || true
    done
  done
  rm -f "$OUT/san.txt"
} > "$log" 2>&1
tail -30 "$log"
OUT=$OUT CHECKS=none STEP_TIMEOUT=200 LADDER=$ladder bash "$root/bench/run_gpu.sh" "$perf" 2>&1 | tail -25
