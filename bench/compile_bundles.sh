#!/usr/bin/env bash
# Compiles kernel bundles for the GPU machine (which has no MLIR) into one
# folder, from a list of variants. Run here, then carry the folder.
#
# usage: bench/compile_bundles.sh OUT_DIR SET
#   SET = check  : variants for the correctness sweep (dtypes, head dims,
#                  GQA, LSE, EVEN_K false/true, causal and not, two tilings)
#         perf   : the autotune space for B=4 H=32 D=128 fp16
#         ladder : the cuTile post's optimization ladder, one bundle a step
# Environment: CHIP (default sm_90a), BUILD_DIR (default build).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: compile_bundles.sh OUT_DIR SET}
set_name=${2:?usage: compile_bundles.sh OUT_DIR SET}
CHIP=${CHIP:-sm_90a}
BUILD_DIR=${BUILD_DIR:-$root/build}
compile="$BUILD_DIR/bin/tile-compile"
mkdir -p "$out"

# variant NAME PARAMS [tile-compile options...]
variant() {
  local name=$1 params=$2
  shift 2
  if "$compile" "$root/kernels/fmha.mlir" --quiet --chip="$CHIP" \
      --params="$params" -o "$out/$name" "$@"; then
    printf '%-40s %s\n' "$name" "$(python3 -c "import json,sys;d=json.load(open('$out/$name/manifest.json'));p=d.get('ptxas',{});print('regs',p.get('registers'),'spills',p.get('spill_stores'),'smem',d['shared_bytes'],'warps',d['num_warps'])")"
  else
    echo "FAILED to compile $name" >&2
    return 1
  fi
}

O3="tile-O3"
case "$set_name" in
check)
  for causal in true false; do
    c=$([ $causal = true ] && echo c || echo n)
    variant "f16-d128-m128n64-$c" "TILE_M=128,TILE_N=64,HEAD_DIM=128,CAUSAL=$causal,EVEN_K=false"
    variant "f16-d128-m64n64-$c" "TILE_M=64,TILE_N=64,HEAD_DIM=128,CAUSAL=$causal,EVEN_K=false" --num-warps=4
    variant "bf16-d128-m128n64-$c" "TILE_M=128,TILE_N=64,HEAD_DIM=128,CAUSAL=$causal,EVEN_K=false,DTYPE=bf16"
    variant "f16-d64-m128n64-lse-$c" "TILE_M=128,TILE_N=64,HEAD_DIM=64,CAUSAL=$causal,EVEN_K=false,WITH_LSE=true"
  done
  variant "f16-d128-m128n64-g3-c" "TILE_M=128,TILE_N=64,HEAD_DIM=128,CAUSAL=true,EVEN_K=false,QUERY_GROUP_SIZE=3"
  variant "f16-d128-m128n64-g4-c" "TILE_M=128,TILE_N=64,HEAD_DIM=128,CAUSAL=true,EVEN_K=false,QUERY_GROUP_SIZE=4"
  variant "f16-d128-m128n64-even-c" "TILE_M=128,TILE_N=64,HEAD_DIM=128,CAUSAL=true,EVEN_K=true"
  variant "f16-d128-m128n64-even-n" "TILE_M=128,TILE_N=64,HEAD_DIM=128,CAUSAL=false,EVEN_K=true"
  ;;
*)
  echo "unknown set '$set_name' (check, perf, ladder)" >&2
  exit 2
  ;;
esac
