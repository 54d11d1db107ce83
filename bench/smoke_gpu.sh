#!/usr/bin/env bash
# A quick check of tile-runner on the GPU machine, well under 2 minutes
# (called by bench/gpu.sh, the entry point for GPU work): builds the runner
# (-DTILE_RUNNER_ONLY=ON), runs its unit tests, runs the
# hand-written test bundles (PTX JIT and cubin, f16 and bf16, LSE, GQA,
# causal alignments, >48 KB dynamic shared memory, determinism, timing,
# autotuning and its cache), checks that planted bugs fail, and runs
# compute-sanitizer memcheck and racecheck on a small shape; planted kernel
# faults must give exit status 2 and leave the other autotune variants
# running. With a bundle
# folder as argument, also runs the first carried bundle that fits a small
# shape, under memcheck too.
#
# usage: bench/smoke_gpu.sh [BUNDLES_DIR]
# Writes $OUT/smoke.log (OUT defaults to ./bench-out); prints PASS/FAIL per
# item and a summary last. Exit status 0 when every item passed.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
BUNDLES=${1:-}
OUT=${OUT:-$root/bench-out}
BUILD_DIR=${BUILD_DIR:-$root/build-runner}
mkdir -p "$OUT"
exec > >(tee "$OUT/smoke.log") 2>&1
T=$(mktemp -d "${TMPDIR:-/tmp}/tile-smoke.XXXXXX")
trap 'rm -rf "$T"' EXIT
runner="$BUILD_DIR/bin/tile-runner"
pass=0
fail=0
failed=()
start=$SECONDS

# item NAME COMMAND...: expects success.  bad NAME COMMAND...: expects failure.
item() {
  local name=$1
  shift
  echo "--- $name: $*"
  if "$@"; then
    echo "PASS $name"
    pass=$((pass + 1))
  else
    echo "FAIL $name (exit $?)"
    fail=$((fail + 1))
    failed+=("$name")
  fi
}
bad() {
  local name=$1
  shift
  echo "--- $name (must fail): $*"
  if "$@"; then
    echo "FAIL $name: it passed, but it must fail"
    fail=$((fail + 1))
    failed+=("$name")
  else
    echo "PASS $name (failed, as it must)"
    pass=$((pass + 1))
  fi
}
run() { "$runner" --backend=gpu "$@"; }
mk() { "$root/bench/make_test_bundle.sh" "$@" >/dev/null; }

nvidia-smi -L || true
item build bash -c "cmake -S '$root' -B '$BUILD_DIR' -G Ninja -DTILE_RUNNER_ONLY=ON \
  -DCMAKE_BUILD_TYPE=Release >'$T/build.log' 2>&1 && ninja -C '$BUILD_DIR' >>'$T/build.log' 2>&1 \
  || { tail -30 '$T/build.log'; exit 1; }"
[ -x "$runner" ] || { echo "no runner; stopping"; exit 1; }
for t in "$BUILD_DIR"/unittests/*Tests; do
  [ -x "$t" ] && item "unit-$(basename "$t")" "$t" --gtest_brief=1
done

# Bundles of the test kernel.
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .')
mk "$T/f16" --head-dim 64 --causal 1 --lse 1 --no-cubin
mk "$T/cubin" --head-dim 128 --target "sm_${cc:-80}"
mk "$T/bf16-gqa" --dtype bf16 --group 4 --warps 8 --shared-bytes 65536
mk "$T/evenk" --head-dim 64 --causal 1 --even-k 1 --tile-n 64
mk "$T/bug-mask" --head-dim 64 --causal 1 --bug mask
mk "$T/bug-unwrite" --head-dim 64 --bug unwrite
mk "$T/bug-nan" --head-dim 64 --causal 1 --bug nan
mk "$T/faults/fault" --head-dim 64 --bug fault
mk "$T/faults/trap" --head-dim 64 --bug trap
mk "$T/faults/zok" --head-dim 64

item auto-backend "$runner" --bundle "$T/f16" --causal --lse --head-dim 64 --seq 128
item f16-lse-bottom-right run --bundle "$T/f16" --causal --lse --head-dim 64 --batch 2 \
  --heads 6 --seq-q 257 --seq-k 200 --input-pos bottom-right --determinism
item f16-q-shorter run --bundle "$T/f16" --causal --lse --head-dim 64 --seq-q 113 \
  --seq-k 203 --input-pos bottom-right
item f16-one-row run --bundle "$T/f16" --causal --lse --head-dim 64 --seq-q 1 --seq-k 1
item cubin-noncausal run --bundle "$T/cubin" --head-dim 128 --seq-q 1000 --seq-k 1023 \
  --verbose
item bf16-gqa-smem run --bundle "$T/bf16-gqa" --head-dim 128 --dtype bf16 --heads 32 --kv-heads 8 --seq 1025
item sampled-rows run --bundle "$T/bf16-gqa" --head-dim 128 --dtype bf16 --heads 32 --kv-heads 8 --seq 2048 \
  --batch 2 --check-rows 500
item device-inputs run --bundle "$T/cubin" --head-dim 128 --seq 512 --inputs device
item large-inputs run --bundle "$T/f16" --causal --lse --head-dim 64 --seq 300 --std 4
item bench run --bundle "$T/cubin" --head-dim 128 --seq 1024 --heads 8 --bench --reps 5
item json bash -c "'$runner' --backend=gpu --bundle '$T/evenk' --causal --head-dim 64 \
  --seq 256 --json | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r[\"passed\"], r[\"resources\"]); sys.exit(0 if r[\"passed\"] else 1)'"
bad evenk-ragged run --bundle "$T/evenk" --causal --head-dim 64 --seq 200
bad bug-mask run --bundle "$T/bug-mask" --causal --head-dim 64 --seq 100
bad bug-unwrite run --bundle "$T/bug-unwrite" --head-dim 64 --seq 100
bad bug-nan run --bundle "$T/bug-nan" --causal --head-dim 64 --seq-q 100 --seq-k 50 \
  --input-pos bottom-right

# Kernel faults: exit status 2 with the kernel and the launch named; in an
# autotune the faulting variants are reported and the good one still runs.
fault_status() {
  local want=$1 pattern=$2
  shift 2
  local out rc=0
  out=$("$@" 2>&1) || rc=$?
  echo "$out" | tail -8
  [ "$rc" = "$want" ] && echo "$out" | grep -q -- "$pattern"
}
item fault-exit-2 fault_status 2 "kernel fault: .*after the launch of kernel fmha of bundle fault" \
  run --bundle "$T/faults/fault" --head-dim 64 --seq 100
item trap-exit-2 fault_status 2 "kernel fault: .*bundle trap" \
  run --bundle "$T/faults/trap" --head-dim 64 --seq 100
item autotune-survives-faults fault_status 2 "autotune: zok: [0-9.]* ms" \
  run --autotune --bundles "$T/faults" --autotune-cache "$T/faults.json" --head-dim 64 --seq 256 --print-autotune

mkdir -p "$T/tune"
mk "$T/tune/w2" --head-dim 64 --causal 1 --warps 2
mk "$T/tune/w4" --head-dim 64 --causal 1 --warps 4
mk "$T/tune/w8" --head-dim 64 --causal 1 --warps 8
mk "$T/tune/d128" --head-dim 128 --causal 1
mk "$T/tune/spills" --head-dim 64 --causal 1 --fake-spills 8
item autotune run --autotune --bundles "$T/tune" --autotune-cache "$T/cache.json" \
  --print-autotune --causal --head-dim 64 --seq 1024 --heads 8
item autotune-cached bash -c "'$runner' --autotune --bundles '$T/tune' \
  --autotune-cache '$T/cache.json' --print-autotune --causal --head-dim 64 --seq 1024 \
  --heads 8 | grep 'cached winner'"

# compute-sanitizer on small shapes: the runner's own kernels and the test
# kernel must be clean; the planted race must be caught or at least not pass
# silently as deterministic.
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
if [ -x "$sanitizer" ]; then
  item memcheck "$sanitizer" --tool memcheck --error-exitcode 99 "$runner" --backend=gpu \
    --bundle "$T/f16" --causal --lse --head-dim 64 --seq 97 --heads 2
  item racecheck "$sanitizer" --tool racecheck --error-exitcode 99 "$runner" --backend=gpu \
    --bundle "$T/bf16-gqa" --head-dim 128 --dtype bf16 --heads 8 --kv-heads 2 --seq 64
  item initcheck "$sanitizer" --tool initcheck --error-exitcode 99 "$runner" --backend=gpu \
    --bundle "$T/f16" --causal --lse --head-dim 64 --seq 64
else
  echo "no compute-sanitizer: memcheck skipped"
fi

if [ -n "$BUNDLES" ]; then
  # The first carried bundle that fits a small shape of its own params.
  first=$(python3 - "$BUNDLES" <<'PY'
import json, os, sys
root = sys.argv[1]
for name in sorted(os.listdir(root)):
    try:
        m = json.load(open(os.path.join(root, name, "manifest.json")))
    except (OSError, ValueError):
        continue
    p = m.get("params", {})
    seq = max(p.get("TILE_N", 64), 128) if p.get("EVEN_K") else 200
    g = p.get("QUERY_GROUP_SIZE", 1)
    args = [os.path.join(root, name), "--head-dim", p.get("HEAD_DIM", 128), "--heads", 2 * g,
            "--kv-heads", 2, "--seq", seq, "--dtype", p.get("DTYPE", "f16")]
    if p.get("CAUSAL"):
        args.append("--causal")
    if p.get("WITH_LSE"):
        args.append("--lse")
    print(" ".join(str(a) for a in args))
    break
PY
)
  if [ -n "$first" ]; then
    # shellcheck disable=SC2086
    item bundle run --bundle $first --allow-spills --verbose
    if [ -x "$sanitizer" ]; then
      # shellcheck disable=SC2086
      item bundle-memcheck "$sanitizer" --tool memcheck --error-exitcode 99 "$runner" \
        --backend=gpu --bundle $first --allow-spills
    fi
  else
    echo "no bundle in $BUNDLES"
    fail=$((fail + 1))
    failed+=("bundle")
  fi
fi

echo
echo "smoke: $pass passed, $fail failed in $((SECONDS - start)) s${failed[*]:+: ${failed[*]}}"
[ "$fail" -eq 0 ]
