#!/usr/bin/env bash
# Times every bundle of a folder (default build/bundles-exp) at S=4k and 16k,
# B=4 H=32 D=128 fp16 (causal when the bundle name ends in -c), spills
# allowed: a quick A/B of compiler variants on the GPU machine. Builds the
# runner first. usage: bench/exp_variants.sh [BUNDLES_DIR]   (logs under $OUT)
set -u
cmake -S . -B build-runner -G Ninja -DTILE_RUNNER_ONLY=ON -DCMAKE_BUILD_TYPE=Release > $OUT/build.log 2>&1 && ninja -C build-runner >> $OUT/build.log 2>&1 || { tail -20 $OUT/build.log; exit 1; }
R=build-runner/bin/tile-runner
for b in ${1:-build/bundles-exp}/*; do
  n=$(basename $b); c=""; case $n in *-c) c=--causal;; esac
  for s in 4096 16384; do
    r=$($R --backend=gpu --bundle $b --batch 4 --heads 32 --head-dim 128 --seq $s $c --bench --reps 10 --check-rows 1024 --allow-spills --json 2>&1)
    echo "$r" | python3 -c "import json,sys; r=json.load(sys.stdin); t=r.get('timing',{}); print('%-22s S=%-6d %6.1f TFLOPS regs=%s %s' % ('$n', $s, t.get('tflops',0), r.get('resources',{}).get('registers'), 'PASS' if r.get('passed') else 'FAIL '+str(r.get('error') or r.get('failures'))))" 2>&1 || echo "$n $s: $r" | head -3
  done
done
