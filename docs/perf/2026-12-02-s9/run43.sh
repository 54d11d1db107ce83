#!/usr/bin/env bash
# Ping-pong across the peeled first and last iterations (each tile of a
# persistent kernel): correctness of the changed ping-pong bundles (ragged,
# full), racecheck/synccheck, then an interleaved A/B (bench/ab_fmha.py) of
# the new and the previous compiler's bundles against cuDNN.
cd "$(dirname "$0")/../.."
export BUILD_DIR=build-runner PYTHONUNBUFFERED=1
D=.device/lead/b43
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
timeout 100 bash bench/gpu.sh build | tail -1
R=build-runner/bin/tile-runner
echo "== check (full)"
timeout 130 python3 bench/check_bundles.py --runner $R --bundles $D/chk --mode full --out $OUT/check43.jsonl > $OUT/check43.log 2>&1; echo "rc $?"; grep -v "^ok" $OUT/check43.log | tail -12
echo "== racecheck/synccheck"
S=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for b in cs-pass-p-f16-d128-m128n128-s2-pp-n; do for t in racecheck synccheck; do
  timeout 40 $S --tool $t --error-exitcode 99 $R --backend=gpu --bundle $D/chk/$b --batch 1 --heads 3 --head-dim 128 --seq-q 700 --seq-k 733 > /tmp/san.txt 2>&1; echo "$t $b rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|result|error' /tmp/san.txt | head -3 | tr '\n' ' ')"
done; done
echo "== A/B f16 D128"
DTYPE=f16 D=128 timeout 150 python3 bench/ab_fmha.py --bundles $D/perf --seqs 1024,2048,4096,8192,16384 --rounds 5 --json $OUT/ab43-f16.json 2>&1 | grep -v "^$"
for dd in "bf16 128" "f16 64"; do set -- $dd; echo "== A/B $1 D$2"
  DTYPE=$1 D=$2 timeout 70 python3 bench/ab_fmha.py --bundles $D/perf --seqs 2048,4096,8192,16384 --rounds 4 --json $OUT/ab43-$1-$2.json 2>&1 | grep -v "^$"
done
