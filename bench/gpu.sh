#!/usr/bin/env bash
# The entry point for GPU work (the GPU machine has CUDA, CMake, Ninja and
# PyTorch but no LLVM/MLIR: bundles are compiled elsewhere and carried, and
# so is the nlohmann-json header, in .deps: scripts/carry-deps.sh). Runs the
# steps named on the command line, in order, each one's log under $OUT, and
# prints a summary last; a step that fails does not stop the others.
#
# usage: bench/gpu.sh [STEP...]        (default: build smoke, then every
#                                       step whose folder is set below)
#   build     tile-runner with -DTILE_RUNNER_ONLY=ON, and its unit tests
#   smoke     the runner on hand-written fixture bundles: checks, planted
#             bugs, kernel faults (exit status 2, autotune survives),
#             autotuning, compute-sanitizer (bench/smoke_gpu.sh)
#   check     the correctness sweep: every attention bundle of $CHECK_DIR on
#             the shapes of docs/testing.md it admits (bench/check_bundles.py)
#   sanitize  compute-sanitizer memcheck and racecheck on $SANITIZE bundles
#             of $CHECK_DIR (default: the first three causal ones)
#   attention our attention autotuned over $PERF_DIR and the peers (PyTorch
#             SDPA, Triton), B=4 H=32 D=128, S=1k..16k; the optimization
#             ladder of $LADDER_DIR (bench/run_gpu.sh: bench.md/json/png)
#   kernels   gemm, softmax, layernorm bundles of $KERNELS_DIR: the
#             correctness sweep on ragged shapes with tile-runner's
#             problems (bench/check_kernels.py: kernels-check.txt), then
#             ours next to torch and Triton in one process with one timer
#             (bench/bench_kernels.py through python/tile_launcher:
#             kernels.md)
#   variants  every bundle of $VARIANTS_DIR timed at S=4k and 16k (a quick
#             A/B of compiler variants)
# Environment: OUT (./bench-out), BUILD_DIR (build-runner), CHECKS
# (quick|full), plus the settings of bench/run_gpu.sh (SEQS, CAUSAL, B, H,
# D, DTYPE, REPS, ...). At most 8 files come back from $OUT: the steps
# write gpu.log, smoke.log, checks.txt, sanitize.txt, kernels-check.txt,
# kernels.md and run_gpu.sh's bench.md, bench.json, bench.png, logs.tar.gz
# (more than 8 when every step runs: run the steps in two calls then).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$root/bench-out}
BUILD_DIR=${BUILD_DIR:-$root/build-runner}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
runner="$BUILD_DIR/bin/tile-runner"
steps=("$@")
if [ ${#steps[@]} -eq 0 ]; then
  steps=(build smoke)
  [ -n "${CHECK_DIR:-}" ] && steps+=(check sanitize)
  [ -n "${PERF_DIR:-}" ] && steps+=(attention)
  [ -n "${KERNELS_DIR:-}" ] && steps+=(kernels)
  [ -n "${VARIANTS_DIR:-}" ] && steps+=(variants)
fi
summary=()
log="$OUT/gpu.log"
: > "$log"

build() {
  cmake -S "$root" -B "$BUILD_DIR" -G Ninja -DTILE_RUNNER_ONLY=ON \
    -DCMAKE_BUILD_TYPE=Release > "$OUT/build.txt" 2>&1 &&
    ninja -C "$BUILD_DIR" >> "$OUT/build.txt" 2>&1 ||
    { tail -30 "$OUT/build.txt"; return 1; }
  grep -E "nlohmann|tile-runner:|googletest" "$OUT/build.txt"
  local t rc=0
  for t in "$BUILD_DIR"/unittests/*Tests; do
    [ -x "$t" ] && { "$t" --gtest_brief=1 || rc=1; }
  done
  rm -f "$OUT/build.txt"
  return $rc
}

smoke() { OUT="$OUT" BUILD_DIR="$BUILD_DIR" bash "$root/bench/smoke_gpu.sh"; }

check() {
  python3 "$root/bench/check_bundles.py" --runner "$runner" --bundles "$CHECK_DIR" \
    --mode "${CHECKS:-quick}" > "$OUT/checks.txt" 2>&1
  local rc=$?
  tail -25 "$OUT/checks.txt"
  return $rc
}

sanitize() {
  local sanitizer b tool rc=0 causal list
  sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  list=${SANITIZE:-$(ls -d "$CHECK_DIR"/*-c 2>/dev/null | head -3 | tr '\n' ' ')}
  : > "$OUT/sanitize.txt"
  for b in $list; do
    causal=""
    case "$b" in *-c) causal="--causal --input-pos bottom-right" ;; esac
    for tool in memcheck racecheck; do
      # shellcheck disable=SC2086
      timeout 120 "$sanitizer" --tool $tool --error-exitcode 99 "$runner" --backend=gpu \
        --bundle "$b" --head-dim 128 --heads 2 --seq-q 200 --seq-k 333 $causal \
        > "$OUT/san.tmp" 2>&1 || rc=1
      echo "$(basename "$b") $tool: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|result' "$OUT/san.tmp" | tr '\n' ' ')" \
        | tee -a "$OUT/sanitize.txt"
    done
  done
  rm -f "$OUT/san.tmp"
  return $rc
}

attention() {
  OUT="$OUT" BUILD_DIR="$BUILD_DIR" CHECKS=none LADDER="${LADDER_DIR:-}" \
    bash "$root/bench/run_gpu.sh" "$PERF_DIR" 2>&1 | tail -25
  return "${PIPESTATUS[0]}"
}

kernels() {
  local rc=0
  python3 "$root/bench/check_kernels.py" --runner "$runner" --bundles "$KERNELS_DIR" \
    ${QUICK:+--quick} > "$OUT/kernels-check.txt" 2>&1 || rc=1
  cat "$OUT/kernels-check.txt"
  python3 "$root/bench/bench_kernels.py" --bundles "$KERNELS_DIR" \
    --problems gemm,softmax,layernorm --md "$OUT/kernels.md" ${QUICK:+--quick} || rc=1
  return $rc
}

variants() {
  local b n c s rc=0
  for b in "$VARIANTS_DIR"/*; do
    [ -f "$b/manifest.json" ] || continue
    n=$(basename "$b")
    c=""
    case "$n" in *-c) c=--causal ;; esac
    for s in 4096 16384; do
      # shellcheck disable=SC2086
      "$runner" --backend=gpu --bundle "$b" --batch 4 --heads 32 --head-dim 128 --seq $s $c \
        --bench --reps 10 --check-rows 1024 --allow-spills --json 2>&1 |
        python3 -c "import json,sys; r=json.load(sys.stdin); t=r.get('timing',{}); print('%-24s S=%-6d %6.1f TFLOPS regs=%s %s' % ('$n', $s, t.get('tflops',0), r.get('resources',{}).get('registers'), 'PASS' if r.get('passed') else 'FAIL '+str(r.get('error') or r.get('failures'))))" || rc=1
    done
  done
  return $rc
}

for step in "${steps[@]}"; do
  case "$step" in
  build | smoke | check | sanitize | attention | kernels | variants) ;;
  *) echo "bench/gpu.sh: unknown step '$step'"; exit 2 ;;
  esac
  start=$SECONDS
  echo "=== $step ($(date -u +%H:%M:%S))" | tee -a "$log"
  "$step" >> "$log" 2>&1
  rc=$?
  tail -12 "$log" | sed "s/^/  /"
  summary+=("$(printf '%-10s %s (%d s)' "$step" "$([ $rc = 0 ] && echo ok || echo "FAILED (exit $rc)")" $((SECONDS - start)))")
done
echo
echo "bench/gpu.sh summary:"
printf '  %s\n' "${summary[@]}"
for line in "${summary[@]}"; do
  case "$line" in *FAILED*) exit 1 ;; esac
done
