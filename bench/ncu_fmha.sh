#!/usr/bin/env bash
# Nsight Compute on one fmha bundle and on cuDNN's SDPA kernel at the same
# shape (B=4 H=32 D=128 fp16), clocks left alone, the full section set; the
# CSVs go to OUT_DIR and the headline metrics are printed side by side.
# Run on the GPU machine after `bash bench/gpu.sh build`.
#
#   bench/ncu_fmha.sh OUT_DIR BUNDLE S CAUSAL(0|1)
set -uo pipefail
out=${1:?usage: ncu_fmha.sh OUT_DIR BUNDLE S CAUSAL}
bundle=${2:?} seq=${3:?} causal=${4:?}
root=$(cd "$(dirname "$0")/.." && pwd)
runner=${RUNNER:-$root/${BUILD_DIR:-build-runner}/bin/tile-runner}
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
name=$(basename "$bundle")-$seq-$causal
mkdir -p "$out"
flags=(--clock-control none --set full --launch-count 1 --csv --page details)
c=(); [ "$causal" = 1 ] && c=(--causal)
timeout 120 "$ncu" "${flags[@]}" -k regex:fmha "$runner" --backend=gpu --bundle "$bundle" \
  --batch 4 --heads 32 --head-dim 128 --seq "$seq" "${c[@]}" --no-check > "$out/$name.csv" 2> "$out/$name.err"
echo "ours rc=$?"
timeout 120 "$ncu" "${flags[@]}" -k regex:cudnn --launch-skip 2 \
  python3 "$root/bench/cudnn_once.py" "$seq" "$causal" > "$out/cudnn-$seq-$causal.csv" 2> "$out/cudnn-$seq-$causal.err"
echo "cudnn rc=$?"
python3 - "$out/$name.csv" "$out/cudnn-$seq-$causal.csv" <<'PY'
import csv, io, sys
KEYS = ["Duration", "Elapsed Cycles", "SM Frequency", "Executed Instructions",
        "Issue Slots Busy", "Compute (SM) Throughput", "L2 Cache Throughput",
        "L2 Hit Rate", "DRAM Throughput", "Achieved Active Warps Per SM",
        "Registers Per Thread", "Dynamic Shared Memory Per Block", "Grid Size"]
def metrics(path):
    text = open(path).read()
    start = text.find('"ID","Process ID"')
    if start < 0:
        return {}
    rows = list(csv.DictReader(io.StringIO(text[start:])))
    return {r["Metric Name"]: r["Metric Value"] for r in rows if r.get("Metric Name")}
ours, theirs = metrics(sys.argv[1]), metrics(sys.argv[2])
print("%-32s %20s %20s" % ("metric", "ours", "cuDNN"))
for k in KEYS:
    print("%-32s %20s %20s" % (k, ours.get(k, "-"), theirs.get(k, "-")))
PY
