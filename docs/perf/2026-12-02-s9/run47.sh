#!/usr/bin/env bash
# The TMA producer's other three warps leave (one warp waits on the empty
# barriers and issues the copies): correctness on 13 TMA check bundles
# (quick), the sanitizers, and an interleaved A/B against the previous
# compiler's bundles (old-*, 352e3cb) and cuDNN.
cd "$(dirname "$0")/../.."
export BUILD_DIR=build-runner PYTHONUNBUFFERED=1
D=.device/lead/b47
timeout 100 bash bench/gpu.sh build | tail -1
R=build-runner/bin/tile-runner
timeout 170 python3 bench/check_bundles.py --runner $R --bundles $D/chk --mode quick --out $OUT/check47.jsonl > $OUT/check47.log 2>&1; echo "check rc $?"; grep -v "^ok" $OUT/check47.log | tail -16
S=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for spec in "cs-pass-p-f16-d128-m128n128-s2-pp-n|" "cs-pass-p-f16-d128-m128n128-s2-pp-c|--causal --input-pos bottom-right"; do
  b=${spec%%|*}; a=${spec#*|}
  for t in racecheck synccheck; do
    timeout 40 $S --tool $t --error-exitcode 99 $R --backend=gpu --allow-spills --bundle $D/chk/$b --batch 1 --heads 3 --head-dim 128 --seq-q 700 --seq-k 733 $a > /tmp/san.txt 2>&1; echo "$t $b rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|result' /tmp/san.txt | tr '\n' ' ')"
  done
done > $OUT/san47.txt 2>&1; cat $OUT/san47.txt
DTYPE=f16 D=128 timeout 200 python3 bench/ab_fmha.py --bundles $D/perf --seqs 2048,4096,16384 --rounds 8 --json $OUT/ab47.json 2>&1 | grep -v "^$"
