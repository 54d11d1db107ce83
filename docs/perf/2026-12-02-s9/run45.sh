#!/usr/bin/env bash
# Final figures at this session's compiler (352e3cb): the causal ragged
# persistent ping-pong bundle under the sanitizers (--allow-spills), then
# the interleaved timer over the best perf configurations and the dtypes
# set (now with ping-pong) against cuDNN.
cd "$(dirname "$0")/../.."
export BUILD_DIR=build-runner PYTHONUNBUFFERED=1
D=.device/lead/b45
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
timeout 100 bash bench/gpu.sh build | tail -1
R=build-runner/bin/tile-runner
S=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for t in racecheck synccheck memcheck; do
  timeout 40 $S --tool $t --error-exitcode 99 $R --backend=gpu --allow-spills --bundle $D/chk/cs-pass-p-f16-d128-m128n128-s2-pp-c --batch 1 --heads 3 --head-dim 128 --seq-q 700 --seq-k 733 --causal --input-pos bottom-right > /tmp/san.txt 2>&1; echo "$t rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|result' /tmp/san.txt | tr '\n' ' ')"
done > $OUT/san45.txt 2>&1; cat $OUT/san45.txt
echo "== fp16 D128"
DTYPE=f16 D=128 timeout 250 python3 bench/ab_fmha.py --bundles $D/perf --seqs 1024,2048,4096,8192,16384 --rounds 6 --json $OUT/ab45-f16.json 2>&1 | grep -v "^$" > $OUT/ab45.log
for dd in "bf16 128" "f16 64"; do set -- $dd; echo "== $1 D$2" >> $OUT/ab45.log
  DTYPE=$1 D=$2 timeout 100 python3 bench/ab_fmha.py --bundles $D/dtypes --seqs 2048,4096,8192,16384 --rounds 4 --json $OUT/ab45-$1-$2.json 2>&1 | grep -v "^$" >> $OUT/ab45.log
done
grep -E "^##|^==|cudnn/this|WRONG" $OUT/ab45.log | awk '/^##|^==/{print; n=0; next} {n++; if (n<=2 || $1=="cudnn") print}'
