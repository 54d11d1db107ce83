#!/usr/bin/env bash
# The one point near the bar, S = 2k: 20 interleaved rounds; the same
# bundles through bench_kernels.py's sequential autotune; sustained load.
cd "$(dirname "$0")/../.."
export BUILD_DIR=build-runner PYTHONUNBUFFERED=1
D=.device/lead/b45
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
timeout 100 bash bench/gpu.sh build | tail -1
echo "== interleaved, 20 rounds"
DTYPE=f16 D=128 timeout 200 python3 bench/ab_fmha.py --bundles $D/perf --match p-tmaov --seqs 2048 --rounds 20 --json $OUT/ab46.json 2>&1 | grep -v "^$"
echo "== bench_kernels (sequential)"
B=4 H=32 SEQS=2048 DTYPE=f16 D=128 timeout 100 python3 bench/bench_kernels.py --bundles $D/perf --problems attention --json $OUT/bk46.json > $OUT/bk46.log 2>&1; echo "rc $?"
python3 - $OUT/bk46.json <<'PY'
import json,sys
for r in json.load(open(sys.argv[1])):
    print(r["causal"], r["shape"], "ours", round(r["ours_tflops"],1), "cudnn", round(r["cudnn_tflops"],1), "ratio", round(r["ours_tflops"]/r["cudnn_tflops"],3), r["ours"])
PY
echo "== sustained"
timeout 60 python3 bench/sustained_fmha.py $D/perf/p-tmaov-cs-pp-m128n128-w8-s2-n 2048 0 2 2>&1 | tail -8
