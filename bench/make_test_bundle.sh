#!/usr/bin/env bash
# Makes a kernel bundle (docs/bundle.md) from the hand-written test kernel
# bench/fixtures/test_fmha.cu, with nvcc: a fixture that exercises
# tile-runner's gpu backend end to end without the compiler. The PTX it makes
# is not the compiler's output.
#
# usage: bench/make_test_bundle.sh OUT_DIR [options]
#   --dtype f16|bf16     (f16)     --head-dim N   (128)   --group N (1)
#   --causal 0|1         (0)       --lse 0|1      (0)     --warps N (4)
#   --target sm_XY[a]    (sm_80)   PTX target; the cubin is made for it too
#   --even-k 0|1         (0)       manifest EVEN_K (the kernel runs any Sk)
#   --tile-n N           (64)      manifest TILE_N (for the EVEN_K check)
#   --shared-bytes N     (0)       dynamic shared memory the launch asks for
#   --no-cubin                     PTX only (the runner JIT-compiles it)
#   --fake-spills N      (0)       writes N into the manifest's ptxas spill
#                                  counts (the code does not spill): a fixture
#                                  for the runner's spill handling
#   --bug mask|unwrite|nan|fault|trap
#                                  plants a defect the runner must catch
#                                  (fault, trap: the launch faults)
# The manifest is written by tile-bundle (the bundle library), found in
# $TILE_BUNDLE, else build-runner/bin or build/bin.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: $0 OUT_DIR [options]}
shift
dtype=f16 head_dim=128 group=1 causal=0 lse=0 warps=4 target=sm_80
even_k=0 tile_n=64 shared=0 cubin=1 fake_spills=0 bug=0 bug_name=
while [ $# -gt 0 ]; do
  case "$1" in
    --dtype) dtype=$2; shift 2 ;;
    --head-dim) head_dim=$2; shift 2 ;;
    --group) group=$2; shift 2 ;;
    --causal) causal=$2; shift 2 ;;
    --lse) lse=$2; shift 2 ;;
    --warps) warps=$2; shift 2 ;;
    --target) target=$2; shift 2 ;;
    --even-k) even_k=$2; shift 2 ;;
    --tile-n) tile_n=$2; shift 2 ;;
    --shared-bytes) shared=$2; shift 2 ;;
    --no-cubin) cubin=0; shift ;;
    --fake-spills) fake_spills=$2; shift 2 ;;
    --bug)
      bug_name=$2
      case "$2" in
        mask) bug=1 ;; unwrite) bug=2 ;; nan) bug=3 ;; fault) bug=4 ;; trap) bug=5 ;;
        *) echo "make_test_bundle: unknown --bug '$2'" >&2; exit 2 ;;
      esac
      shift 2 ;;
    *) echo "make_test_bundle: unknown option '$1'" >&2; exit 2 ;;
  esac
done
case "$dtype" in f16|bf16) ;; *) echo "make_test_bundle: --dtype f16|bf16" >&2; exit 2 ;; esac

NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
PTXAS=${PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
[ -x "$NVCC" ] || { echo "make_test_bundle: nvcc not found (set NVCC)" >&2; exit 2; }

mkdir -p "$out"
bool() { [ "$1" = 1 ] && echo true || echo false; }
bf16=0; [ "$dtype" = bf16 ] && bf16=1
"$NVCC" -ptx -arch="$target" -O3 -std=c++17 \
  -DHEAD_DIM="$head_dim" -DGROUP="$group" -DCAUSAL="$causal" \
  -DWITH_LSE="$lse" -DDTYPE_BF16="$bf16" -DWARPS="$warps" -DBUG="$bug" \
  -o "$out/kernel.ptx" "$here/fixtures/test_fmha.cu"

root=$(cd "$here/.." && pwd)
TILE_BUNDLE=${TILE_BUNDLE:-}
for candidate in "$root/build-runner/bin/tile-bundle" "$root/build/bin/tile-bundle"; do
  [ -z "$TILE_BUNDLE" ] && [ -x "$candidate" ] && TILE_BUNDLE=$candidate
done
[ -x "$TILE_BUNDLE" ] || { echo "make_test_bundle: tile-bundle not found (build it, or set TILE_BUNDLE)" >&2; exit 2; }

cubin_args=()
rm -f "$out/kernel.cubin"
if [ "$cubin" = 1 ] && [ -x "$PTXAS" ]; then
  "$PTXAS" -arch="$target" -v -o "$out/kernel.cubin" "$out/kernel.ptx" \
    2> "$out/ptxas.log"
  cubin_args=(--cubin kernel.cubin --ptxas-log "$out/ptxas.log")
  [ "$fake_spills" != 0 ] && cubin_args+=(--fake-spills "$fake_spills")
fi
nvcc_version=$("$NVCC" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')
name_note=""
[ -n "$bug_name" ] && name_note=", bug $bug_name"
lse_access=none
[ "$lse" = 1 ] && lse_access=write

# The fixture reads and writes elements one by one: any 2-byte (4-byte for
# Lse) alignment is fine.
"$TILE_BUNDLE" write -o "$out/manifest.json" \
  --kernel fmha --entry fmha --ptx kernel.ptx --target "$target" \
  --compiler "test fixture bench/fixtures/test_fmha.cu, nvcc $nvcc_version$name_note" \
  --source bench/fixtures/test_fmha.cu --pipeline "nvcc -O3" \
  --num-warps "$warps" --occupancy 1 --shared-bytes "$shared" \
  --grid "cdiv(Q.2, $warps)" --grid "Q.0 * Q.1" --grid 1 \
  --requires "Q.3 == HEAD_DIM" --requires "Q.1 == K.1 * QUERY_GROUP_SIZE" \
  --param TILE_M="$warps" --param TILE_N="$tile_n" --param HEAD_DIM="$head_dim" \
  --param QUERY_GROUP_SIZE="$group" --param CAUSAL="$(bool "$causal")" \
  --param EVEN_K="$(bool "$even_k")" --param WITH_LSE="$(bool "$lse")" \
  --param DTYPE="$dtype" \
  --view "Q:$dtype:4:2:read" --view "K:$dtype:4:2:read" --view "V:$dtype:4:2:read" \
  --view "Out:$dtype:4:2:write" --view "Lse:f32:3:4:$lse_access" \
  --scalar qk_scale:f32 --scalar input_pos:i32 "${cubin_args[@]}"
echo "$out"
