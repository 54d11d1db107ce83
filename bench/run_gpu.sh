#!/usr/bin/env bash
# The attention benchmark, called by bench/gpu.sh (the entry point for GPU
# work; no MLIR on the GPU machine): builds tile-runner with
# -DTILE_RUNNER_ONLY=ON, checks the runner on the hand-written test bundle,
# checks every carried bundle on the ragged shapes of docs/testing.md, then for
# B=4 H=32 D=128 fp16 and S = 1k..16k, causal and not, runs our kernel
# (autotuned over the carried bundles) and the peers (PyTorch SDPA cuDNN and
# flash, Triton; bench/peers.py) in this one run. Writes under $OUT:
#   bench.md  bench.json  bench.png   the comparison (bench/report.py)
#   run.log                           everything this script printed
#   logs.tar.gz                       per-step outputs (runner JSON, peers
#                                     CSV, correctness JSON lines, build log,
#                                     autotune cache)
# and prints a short summary table last.
#
# usage: bench/run_gpu.sh BUNDLES_DIR      (a folder of bundle folders)
# Settings (environment):
#   OUT=./bench-out  SEQS=1024,2048,4096,8192,16384  CAUSAL=1,0
#   B=4 H=32 HKV=$H D=128 DTYPE=fp16
#   REPS=20 (timed launches of the winner)  TUNE_REPS=10 (per variant)
#   CHECK_ROWS=2048 (reference rows checked per perf run)
#   CHECKS=quick|full|none (correctness sweep)  PEERS=1|0
#   PEER_PROVIDERS=sdpa_cudnn,sdpa_flash,triton_fa,sdpa_auto (peers.py names)
#   BUILD_DIR=build-runner  JOBS=$(nproc)  STEP_TIMEOUT=900 (seconds a step)
#   LADDER=DIR (bundles of the optimization ladder, timed causal; ladder.md)
# Exit status: 0 when every step ran and every check passed.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
BUNDLES=${1:-${BUNDLES:-}}
OUT=${OUT:-$root/bench-out}
SEQS=${SEQS:-1024,2048,4096,8192,16384}
CAUSAL=${CAUSAL:-1,0}
B=${B:-4}
H=${H:-32}
HKV=${HKV:-$H}
D=${D:-128}
DTYPE=${DTYPE:-fp16}
REPS=${REPS:-20}
TUNE_REPS=${TUNE_REPS:-10}
CHECK_ROWS=${CHECK_ROWS:-2048}
CHECKS=${CHECKS:-quick}
PEERS=${PEERS:-1}
PEER_PROVIDERS=${PEER_PROVIDERS:-sdpa_cudnn,sdpa_flash,triton_fa,sdpa_auto}
BUILD_DIR=${BUILD_DIR:-$root/build-runner}
JOBS=${JOBS:-$(nproc)}
STEP_TIMEOUT=${STEP_TIMEOUT:-900}

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tile-bench.XXXXXX")
exec > >(tee "$OUT/run.log") 2>&1
runner="$BUILD_DIR/bin/tile-runner"
failed_steps=0
: > "$WORK/steps.tsv"

say() { printf '\n=== %s (%s)\n' "$*" "$(date -u +%H:%M:%S)"; }
# step NAME COMMAND...: runs one step (a function or a command), records its
# status and goes on when it fails. Inside steps, programs that touch the GPU
# run under `limit` (timeout), so that a hung kernel cannot hang the run.
step() {
  local name=$1 start=$SECONDS rc=0
  shift
  say "$name"
  "$@" || rc=$?
  local status=ok note=""
  if [ "$rc" -ne 0 ]; then
    status=failed note="exit $rc"
    [ "$rc" -eq 124 ] && note="timed out after $STEP_TIMEOUT s"
    failed_steps=$((failed_steps + 1))
  fi
  printf '%s\t%s\t%s\t%s\n' "$name" "$status" $((SECONDS - start)) "$note" >> "$WORK/steps.tsv"
  echo "--- $name: $status ${note} ($((SECONDS - start)) s)"
  return 0
}
finish() {
  say "report"
  tar czf "$OUT/logs.tar.gz" -C "$WORK" . 2>/dev/null || true
  python3 "$root/bench/report.py" --work "$WORK" --out "$OUT" --config \
    "{\"B\": $B, \"H\": $H, \"HKV\": $HKV, \"D\": $D, \"dtype\": \"$DTYPE\", \"reps\": $REPS, \"seqs\": [$SEQS]}" \
    || echo "report.py failed"
  rm -rf "$WORK"
  echo "outputs in $OUT: $(cd "$OUT" && ls | tr '\n' ' ')"
}
trap finish EXIT

limit() { timeout "$STEP_TIMEOUT" "$@"; }

say "machine"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv || true
command -v nvcc >/dev/null && nvcc --version | tail -1 || true
echo "bundles: ${BUNDLES:-none given}; SEQS=$SEQS CAUSAL=$CAUSAL B=$B H=$H HKV=$HKV D=$D DTYPE=$DTYPE"

build() {
  { cmake -S "$root" -B "$BUILD_DIR" -G Ninja -DTILE_RUNNER_ONLY=ON \
    -DCMAKE_BUILD_TYPE=Release > "$WORK/build.log" 2>&1 &&
    ninja -C "$BUILD_DIR" -j "$JOBS" >> "$WORK/build.log" 2>&1; } ||
    { tail -40 "$WORK/build.log"; return 1; }
  grep -E "tile-runner:" "$WORK/build.log" || true
  # The unit tests, where googletest was found.
  for t in "$BUILD_DIR"/unittests/*Tests; do
    [ -x "$t" ] && { "$t" --gtest_brief=1 || return 1; }
  done
  return 0
}
step build build
if [ ! -x "$runner" ]; then
  echo "no runner was built; stopping"
  exit 1
fi

# The runner itself on this GPU, on the hand-written test kernel: a pass, and
# a planted bug that must fail.
fixture() {
  local t="$WORK/fixture" dt=f16
  [ "$DTYPE" = bf16 ] && dt=bf16
  "$root/bench/make_test_bundle.sh" "$t/ok" --head-dim 64 --causal 1 --lse 1 \
    --dtype $dt >/dev/null || return 1
  "$root/bench/make_test_bundle.sh" "$t/mask" --head-dim 64 --causal 1 --bug mask \
    --dtype $dt >/dev/null || return 1
  limit "$runner" --backend=gpu --bundle "$t/ok" --causal --lse --head-dim 64 --heads 4 \
    --seq-q 257 --seq-k 300 --input-pos bottom-right --dtype $dt --determinism || return 1
  if limit "$runner" --backend=gpu --bundle "$t/mask" --causal --head-dim 64 --seq 100 \
    --dtype $dt > "$WORK/fixture-bug.txt" 2>&1; then
    echo "the planted mask bug PASSED: the runner's check is broken"
    return 1
  fi
  echo "planted mask bug: FAIL, as it must be"
}
step fixture fixture

if [ -n "$BUNDLES" ]; then
  if [ "$CHECKS" != none ]; then
    step checks limit python3 "$root/bench/check_bundles.py" --runner "$runner" \
      --bundles "$BUNDLES" --mode "$CHECKS" --out "$WORK/checks.jsonl"
  fi
  ours() {
    local rc=0 causal s flag
    for causal in ${CAUSAL//,/ }; do
      for s in ${SEQS//,/ }; do
        flag=""
        [ "$causal" = 1 ] && flag=--causal
        echo "--- ours: causal=$causal S=$s"
        limit "$runner" --backend=gpu --autotune --bundles "$BUNDLES" \
          --autotune-cache "$WORK/autotune.json" --autotune-reps "$TUNE_REPS" \
          --batch "$B" --heads "$H" --kv-heads "$HKV" --head-dim "$D" \
          --seq "$s" $flag --dtype "$DTYPE" --bench --reps "$REPS" \
          --check-rows "$CHECK_ROWS" --json \
          > "$WORK/ours-c$causal-s$s.json" 2> "$WORK/ours-c$causal-s$s.err" || rc=1
        cat "$WORK/ours-c$causal-s$s.err"
        python3 - "$WORK/ours-c$causal-s$s.json" <<'PY' || true
import json, sys
r = json.load(open(sys.argv[1]))
t = r.get("timing", {})
print(f"    {r.get('kernel', {}).get('name', '-')}: "
      f"{t.get('median_ms', float('nan')):.4f} ms, {t.get('tflops', 0):.1f} TFLOPS, "
      f"{'PASS' if r.get('passed') else 'FAIL ' + (r.get('error') or '; '.join(r.get('failures', [])))}")
PY
      done
    done
    return $rc
  }
  step ours ours
else
  echo "no BUNDLES_DIR given: skipping the correctness sweep and our kernel"
fi

# The optimization ladder: each bundle of $LADDER (a folder of bundles whose
# names sort in ladder order) timed on the causal shapes; a table in
# $OUT/ladder.md.
if [ -n "${LADDER:-}" ]; then
  ladder() {
    local rc=0 name s
    for name in $(ls "$LADDER"); do
      [ -f "$LADDER/$name/manifest.json" ] || continue
      for s in ${SEQS//,/ }; do
        limit "$runner" --backend=gpu --bundle "$LADDER/$name" \
          --batch "$B" --heads "$H" --kv-heads "$HKV" --head-dim "$D" \
          --seq "$s" --causal --dtype "$DTYPE" --bench --reps "$REPS" \
          --check-rows "$CHECK_ROWS" --json > "$WORK/ladder-$name-s$s.json" \
          2> "$WORK/ladder-$name-s$s.err" || rc=1
      done
    done
    python3 - "$WORK" "$SEQS" > "$OUT/ladder.md" <<'PY' || rc=1
import glob, json, os, sys
work, seqs = sys.argv[1], [int(s) for s in sys.argv[2].split(",")]
rows = {}
for path in sorted(glob.glob(os.path.join(work, "ladder-*-s*.json"))):
    base = os.path.basename(path)[len("ladder-"):-len(".json")]
    name, s = base.rsplit("-s", 1)
    try:
        r = json.load(open(path))
    except ValueError:
        continue
    t = r.get("timing", {})
    res = r.get("resources", {})
    cell = "%.0f" % t["tflops"] if "tflops" in t else "err"
    if not r.get("passed"):
        cell += " (FAIL)"
    rows.setdefault(name, {})[int(s)] = (cell, res.get("registers"))
print("| step | regs | " + " | ".join("S=%d" % s for s in seqs) + " |")
print("| --- | ---: | " + " | ".join("---:" for _ in seqs) + " |")
for name in sorted(rows):
    regs = next((v[1] for v in rows[name].values() if v[1]), "")
    print("| %s | %s | " % (name, regs) +
          " | ".join(rows[name].get(s, ("-", None))[0] for s in seqs) + " |")
PY
    cat "$OUT/ladder.md"
    return $rc
  }
  step ladder ladder
fi

if [ "$PEERS" = 1 ]; then
  peers() {
    local dt=fp16
    [ "$DTYPE" = bf16 ] && dt=bf16
    B=$B H=$H HKV=$HKV D=$D DTYPE=$dt SEQS=$SEQS CAUSAL=$CAUSAL MATMUL=0 \
      PROVIDERS=$PEER_PROVIDERS PYTHONUNBUFFERED=1 \
      limit python3 "$root/bench/peers.py" | tee "$WORK/peers.csv"
  }
  step peers peers
fi

if [ "$failed_steps" -ne 0 ]; then
  echo "$failed_steps step(s) failed"
  exit 1
fi
