#!/usr/bin/env bash
# A/B bundles (fmha f16 D128 best four, gemm persistent best) compiled by
# the tile-compile in BIN with name prefix PRE into OUT.
# usage: mk54.sh BIN OUT PRE
set -euo pipefail
cd /work/main
bin=$1; out=$2; pre=$3; mkdir -p $out
v() { local k=$1 name=$2 params=$3; shift 3
  $bin/tile-compile kernels/$k.mlir --quiet --chip=sm_90a --params="$params" -o $out/$pre$name "$@" || echo FAILED $name; }
for c in n c; do
  causal=$([ $c = c ] && echo true || echo false)
  if [ $c = c ]; then OV=(--producer-regs=24 "--tile-pipeline=tile-O3{overlap-mma=true persistent=132 persistent-order=paired}")
  else OV=("--tile-pipeline=tile-O3{overlap-mma=true split-loop=false persistent=132}"); fi
  common="TILE_M=128,TILE_N=128,HEAD_DIM=128,CAUSAL=$causal,EVEN_K=true"
  v fmha p-pp-$c "$common" --num-warps=8 --stages=2 --tma=on --coalesce-stores=on --ping-pong=on "${OV[@]}"
  v fmha p-nopp-$c "$common" --num-warps=8 --stages=2 --tma=on --coalesce-stores=on "${OV[@]}"
done
v gemm gemm-f16-n256-p "BLOCK_N=256,MAX_BLOCKS=132"
v gemm gemm-bf16-n256-p "BLOCK_N=256,MAX_BLOCKS=132,IN_DTYPE=bf16,OUT_DTYPE=bf16"
