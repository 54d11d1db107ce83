#!/usr/bin/env bash
# A/B bundles for run43: ping-pong across the peeled iterations.
# usage: ab43.sh BIN_DIR OUT PREFIX
set -euo pipefail
cd /work/main
bin=$1; out=$2; pre=$3; mkdir -p $out
v() { local name=$1 params=$2; shift 2
  $bin/tile-compile kernels/fmha.mlir --quiet --chip=sm_90a --params="$params" -o $out/$pre$name "$@" || echo FAILED $name; }
for c in n c; do
  causal=$([ $c = c ] && echo true || echo false)
  if [ $c = c ]; then OV=(--producer-regs=24 "--tile-pipeline=tile-O3{overlap-mma=true persistent=132 persistent-order=paired}"); OVN=(--producer-regs=24 "--tile-pipeline=tile-O3{overlap-mma=true}")
  else OV=("--tile-pipeline=tile-O3{overlap-mma=true split-loop=false persistent=132}"); OVN=("--tile-pipeline=tile-O3{overlap-mma=true split-loop=false}"); fi
  for dd in "f16-d128:DTYPE=f16,HEAD_DIM=128" "bf16-d128:DTYPE=bf16,HEAD_DIM=128" "f16-d64:DTYPE=f16,HEAD_DIM=64"; do
    n=${dd%%:*}; common="TILE_M=128,TILE_N=128,${dd#*:},CAUSAL=$causal,EVEN_K=true"
    v $n-p-pp-$c "$common" --num-warps=8 --stages=2 --tma=on --coalesce-stores=on --ping-pong=on "${OV[@]}"
    if [ $pre != old- ]; then v $n-p-nopp-$c "$common" --num-warps=8 --stages=2 --tma=on --coalesce-stores=on "${OV[@]}"; fi
    if [ $n = f16-d128 ]; then v $n-pp-$c "$common" --num-warps=8 --stages=2 --tma=on --coalesce-stores=on --ping-pong=on "${OVN[@]}"; fi
  done
done
