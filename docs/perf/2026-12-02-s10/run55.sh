#!/usr/bin/env bash
# Uniform descriptors + the overlap epilogue's no-iteration branch yielding
# the carried O: SASS, A/B against the previous compiler (old-*), then the
# correctness sweep (check set, kernels set) and the sanitizers.
cd "$(dirname "$0")/../.."
export BUILD_DIR=build-runner PYTHONUNBUFFERED=1
D=.device/lead/b55
timeout 100 bash bench/gpu.sh build | tail -1
R=build-runner/bin/tile-runner
CUOBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
$CUOBJ -sass $D/new-p-pp-n/kernel.cubin > $OUT/new55-p-pp-n.sass
DTYPE=f16 D=128 timeout 150 python3 bench/ab_fmha.py --bundles $D --causal 0 --seqs 2048,4096,16384 --rounds 6 --json $OUT/ab55-n.json 2>&1 | grep -v "^$"
DTYPE=f16 D=128 timeout 100 python3 bench/ab_fmha.py --bundles $D --causal 1 --seqs 2048,16384 --rounds 6 --json $OUT/ab55-c.json 2>&1 | grep -v "^$"
timeout 250 python3 bench/check_bundles.py --runner $R --bundles .device/lead/chk55 --mode quick --out /tmp/check55.jsonl > $OUT/check55.log 2>&1; echo "check rc $?"; grep -v "^ok" $OUT/check55.log | tail -6
timeout 100 python3 bench/check_kernels.py --runner $R --bundles .device/lead/k55 --quick > $OUT/kcheck55.log 2>&1; echo "kernels check rc $?"; tail -4 $OUT/kcheck55.log
S=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for spec in "cs-pass-p-f16-d128-m128n128-s2-pp-n|" "cs-pass-p-f16-d128-m128n128-s2-pp-c|--causal --input-pos bottom-right"; do
  b=${spec%%|*}; a=${spec#*|}
  for t in racecheck synccheck; do
    timeout 40 $S --tool $t --error-exitcode 99 $R --backend=gpu --allow-spills --bundle .device/lead/chk55/$b --batch 1 --heads 3 --head-dim 128 --seq-q 700 --seq-k 733 $a > /tmp/san.txt 2>&1; echo "$t $b rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|result' /tmp/san.txt | tr '\n' ' ')"
  done
done
