#!/usr/bin/env bash
# hopper helper, 2026-12-01 call 3: tile-runner build, correctness of the
# ping-pong / TMA / pinned-wait bundles (chk/: tile-runner check_bundles
# quick + Python launcher ragged checks), SASS facts, then the Hopper ladder
# (lad/) side by side with cuDNN and FA2 in one process (bench/hopper_gpu.py).
set -u
cd "$(dirname "$0")"
T0=$SECONDS
t() { echo "[$((SECONDS - T0)) s] $*"; }
export PYTHONPATH=$PWD/src/python PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
( cmake -S src -B build-runner -G Ninja -DTILE_RUNNER_ONLY=ON -DCMAKE_BUILD_TYPE=Release -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON > $OUT/build.log 2>&1 && ninja -C build-runner tile-runner >> $OUT/build.log 2>&1; echo "build rc=$?" >> $OUT/build.log ) &
BUILD=$!
for b in lad/h8o-ov-nopin-n lad/h9-ov-pin-n lad/h10o-ov-pin-pp-n lad/h11o-ov-pin-pp-tma-n lad/h10o-ov-pin-pp-c lad/h10-pp-n lad/h8-ws-n; do
  cuobjdump -sass $b/kernel.cubin > $OUT/$(basename $b).sass 2>&1
  echo "== $(basename $b): $(python3 src/scripts/sass-overlap.py --min-ex2 64 $OUT/$(basename $b).sass 2>&1 | head -3 | cut -c1-600)"
done > $OUT/sass.txt 2>&1
cat $OUT/sass.txt | cut -c1-700; t sass
timeout 60 python3 src/bench/hopper_gpu.py --bundles chk --check > $OUT/pycheck.txt 2>&1; echo "pycheck rc=$?"; grep -E "FAIL|check:" $OUT/pycheck.txt | tail -8
t pycheck
wait $BUILD; tail -2 $OUT/build.log
R=$PWD/build-runner/bin/tile-runner
mkdir -p one
for b in chk/*; do n=$(basename $b); mkdir -p one/$n; ln -sf $PWD/$b one/$n/$n
  timeout 75 python3 src/bench/check_bundles.py --runner $R --bundles one/$n --mode quick --out $OUT/chk-$n.jsonl > $OUT/chk-$n.txt 2>&1 &
done; wait
cat $OUT/chk-*.txt | grep -E "^[a-z]|FAIL|check_bundles" | grep -v "^bundle" | cut -c1-300
t runner-checks
timeout 150 python3 src/bench/hopper_gpu.py --bundles lad --time --rep 40 --json $OUT/ladder.json > $OUT/ladder.txt 2>&1; echo "ladder rc=$?"
t ladder
python3 - <<'PY'
import json, os
r = json.load(open(os.environ["OUT"] + "/ladder.json"))["timing"]
names = sorted({k for row in r for k in row if k not in ("causal", "S")})
for c in (1, 0):
    rows = [x for x in r if x["causal"] == c]
    print("causal" if c else "non-causal", "S=" + "/".join(str(x["S"]) for x in rows))
    for n in names:
        vals = [x.get(n) for x in rows]
        if all(v is None for v in vals): continue
        print("  %-24s %s" % (n, " / ".join(("%.0f" % v) if isinstance(v, float) else str(v) for v in vals)))
PY
timeout 40 compute-sanitizer --tool racecheck $R --backend=gpu --bundle chk/tma-f16-d128-m128n64-c --heads 2 --seq-q 300 --seq-k 333 --causal --input-pos bottom-right > $OUT/san-race.txt 2>&1; echo "racecheck rc=$?"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY|hazard" $OUT/san-race.txt | head -3
t done
