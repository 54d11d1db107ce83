#!/usr/bin/env bash
# Ping-pong across the peeled iterations, second look: racecheck/synccheck
# (run43's lines were cut off), the SASS of old and new p-pp-n (instruction
# counts, barriers), and a longer interleaved A/B: 10 rounds.
cd "$(dirname "$0")/../.."
export BUILD_DIR=build-runner PYTHONUNBUFFERED=1
D=.device/lead/b43
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
timeout 100 bash bench/gpu.sh build | tail -1
R=build-runner/bin/tile-runner
S=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for spec in "cs-pass-p-f16-d128-m128n128-s2-pp-n|" "cs-pass-p-f16-d128-m128n128-s2-pp-c|--causal --input-pos bottom-right"; do
  b=${spec%%|*}; a=${spec#*|}
  for t in racecheck synccheck memcheck; do
    timeout 40 $S --tool $t --error-exitcode 99 $R --backend=gpu --bundle $D/chk/$b --batch 1 --heads 3 --head-dim 128 --seq-q 700 --seq-k 733 $a > /tmp/san.txt 2>&1; echo "$t $b rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|result|error' /tmp/san.txt | head -3 | tr '\n' ' ')"
  done
done > $OUT/san44.txt 2>&1
cat $OUT/san44.txt
CUOBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
for v in old new; do $CUOBJ -sass $D/perf/$v-f16-d128-p-pp-n/kernel.cubin > /tmp/$v.sass 2>&1
  echo "$v: $(grep -cE '^\s+/\*[0-9a-f]+\*/' /tmp/$v.sass) instrs, HGMMA $(grep -c HGMMA /tmp/$v.sass), BAR $(grep -cE 'BAR\.(SYNC|ARV)' /tmp/$v.sass), MUFU.EX2 $(grep -c MUFU.EX2 /tmp/$v.sass)"; done
diff <(grep -oE '^\s+/\*[0-9a-f]+\*/\s+[^;]*' /tmp/old.sass | sed 's/^ *\/\*[0-9a-f]*\*\/ *//' | awk '{print $1}') <(grep -oE '^\s+/\*[0-9a-f]+\*/\s+[^;]*' /tmp/new.sass | sed 's/^ *\/\*[0-9a-f]*\*\/ *//' | awk '{print $1}') | grep -c "^[<>]"
tar czf $OUT/sass44.tgz -C /tmp old.sass new.sass
echo "== A/B 10 rounds"
DTYPE=f16 D=128 timeout 400 python3 bench/ab_fmha.py --bundles $D/perf --match new-f16-d128-p-,old-f16-d128-p-pp --seqs 2048,4096,8192,16384 --rounds 10 --json $OUT/ab44.json 2>&1 | grep -v "^$"
