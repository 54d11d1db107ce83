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
#   --bug mask|unwrite|nan         plants a defect the runner must catch
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
        mask) bug=1 ;; unwrite) bug=2 ;; nan) bug=3 ;;
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

ptxas_json=""
cubin_json=""
rm -f "$out/kernel.cubin"
if [ "$cubin" = 1 ] && [ -x "$PTXAS" ]; then
  "$PTXAS" -arch="$target" -v -o "$out/kernel.cubin" "$out/kernel.ptx" \
    2> "$out/ptxas.log"
  regs=$(sed -n 's/.*Used \([0-9]*\) registers.*/\1/p' "$out/ptxas.log" | tail -1)
  stack=$(sed -n 's/^ *\([0-9]*\) bytes stack frame.*/\1/p' "$out/ptxas.log" | tail -1)
  stores=$(sed -n 's/.* \([0-9]*\) bytes spill stores.*/\1/p' "$out/ptxas.log" | tail -1)
  loads=$(sed -n 's/.* \([0-9]*\) bytes spill loads.*/\1/p' "$out/ptxas.log" | tail -1)
  [ "$fake_spills" != 0 ] && stores=$fake_spills && loads=$fake_spills
  cubin_json='"cubin": "kernel.cubin",'
  ptxas_json=",
  \"ptxas\": {\"registers\": ${regs:-0}, \"spill_stores\": ${stores:-0}, \"spill_loads\": ${loads:-0}, \"stack_bytes\": ${stack:-0}}"
fi
nvcc_version=$("$NVCC" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')
name_note=""
[ -n "$bug_name" ] && name_note=", bug $bug_name"

cat > "$out/manifest.json" <<JSON
{
  "format": "tile-bundle-1",
  "kernel": "fmha",
  "entry": "fmha",
  "ptx": "kernel.ptx",
  $cubin_json
  "target": "$target",
  "compiler": "test fixture bench/fixtures/test_fmha.cu, nvcc $nvcc_version$name_note",
  "source": "bench/fixtures/test_fmha.cu",
  "pipeline": "nvcc -O3",
  "num_warps": $warps,
  "block": [$((32 * warps)), 1, 1],
  "occupancy": 1,
  "shared_bytes": $shared,
  "grid": ["cdiv(Q.2, $warps)", "Q.0 * Q.1", "1"],
  "params": {"TILE_M": $warps, "TILE_N": $tile_n, "HEAD_DIM": $head_dim,
             "QUERY_GROUP_SIZE": $group, "CAUSAL": $(bool "$causal"),
             "EVEN_K": $(bool "$even_k"), "WITH_LSE": $(bool "$lse"),
             "DTYPE": "$dtype"},
  "abi": [
    {"name": "Q", "kind": "view", "rank": 4, "dtype": "$dtype"},
    {"name": "K", "kind": "view", "rank": 4, "dtype": "$dtype"},
    {"name": "V", "kind": "view", "rank": 4, "dtype": "$dtype"},
    {"name": "Out", "kind": "view", "rank": 4, "dtype": "$dtype"},
    {"name": "Lse", "kind": "view", "rank": 3, "dtype": "f32"},
    {"name": "qk_scale", "kind": "scalar", "dtype": "f32"},
    {"name": "input_pos", "kind": "scalar", "dtype": "i32"}
  ]$ptxas_json
}
JSON
echo "$out"
