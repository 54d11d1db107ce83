//===- reference.cu - tile-runner's independent GPU reference ------------===//
//
// Naive attention, written independently of the compiler and of its mask
// code, used to check the compiled kernels on the GPU (TESTING.md):
//
//  - ref:    scores accumulated in fp32, softmax and P V sums in fp64;
//  - ref_lp: the same-precision naive attention of FlashAttention's 2x rule,
//            as Attention.cpp's lowPrecisionAttention: the scores rounded to
//            the input dtype (fp16/bf16), scaled and rounded again, the
//            probabilities and the output rounded, sums in fp32.
//
// One block handles one query row, so any deterministic sample of rows can be
// checked (all of them for small shapes). The block compares the kernel's
// output row with both references itself and writes one RowStats record.
// Also: counters of poison and of NaN/Inf, a bitwise comparer for the
// determinism check, and a seeded normal generator for large inputs.
//
// Compiled by nvcc into a fatbin that is embedded in tile-runner and loaded
// through the driver API: no CUDA runtime is involved.
//
//===----------------------------------------------------------------------===//

#include "ReferenceKernels.h"

#include <cfloat>
#include <climits>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

using tile::runner::RowStats;

namespace {

__device__ __forceinline__ float loadElem(const unsigned short *p, long long i,
                                          int isBf16) {
  unsigned short bits = p[i];
  if (isBf16)
    return __uint_as_float(static_cast<unsigned>(bits) << 16);
  return __half2float(__ushort_as_half(bits));
}

/// Rounds to the input dtype (nearest even) and back to float.
__device__ __forceinline__ float roundTo(float x, int isBf16) {
  if (isBf16)
    return __bfloat162float(__float2bfloat16_rn(x));
  return __half2float(__float2half_rn(x));
}

struct MaxOp {
  template <typename T> __device__ T operator()(T a, T b) const {
    return a > b ? a : b;
  }
};
struct MinOp {
  template <typename T> __device__ T operator()(T a, T b) const {
    return a < b ? a : b;
  }
};
struct SumOp {
  template <typename T> __device__ T operator()(T a, T b) const {
    return a + b;
  }
};

template <typename T, typename Op> __device__ T warpReduce(T value, Op op) {
  for (int offset = 16; offset > 0; offset >>= 1)
    value = op(value, __shfl_xor_sync(0xffffffffu, value, offset));
  return value;
}

/// Reduces over the block; every thread gets the result. `scratch` holds 32
/// values.
template <typename T, typename Op>
__device__ T blockReduce(T value, Op op, T *scratch) {
  value = warpReduce(value, op);
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  __syncthreads(); // the previous reduction may still read scratch
  if (lane == 0)
    scratch[warp] = value;
  __syncthreads();
  T result = scratch[0];
  for (int w = 1; w < static_cast<int>(blockDim.x / 32); ++w)
    result = op(result, scratch[w]);
  return result;
}

} // namespace

/// Checks query rows `rows[blockIdx.x]` (flat indices (b * H + h) * Sq + i)
/// of the kernel's output. Tensors are contiguous: q/out [B, H, Sq, D],
/// k/v [B, HKV, Sk, D], lse [B, H, Sq]. `scratch` holds 2 * Sk floats per
/// block. Dynamic shared memory: D floats.
extern "C" __global__ void tile_ref_attention_rows(
    const unsigned short *q, const unsigned short *k, const unsigned short *v,
    const unsigned short *out, const float *lse, int isBf16, int H, int HKV,
    int Sq, int Sk, int D, int causal, int inputPos, float scale, int checkLse,
    const long long *rows, float *scratch, RowStats *stats) {
  extern __shared__ float qf[]; // the query row
  __shared__ float reduceF[32];
  __shared__ double reduceD[32];
  __shared__ int reduceI[32];
  const long long row = rows[blockIdx.x];
  const int i = static_cast<int>(row % Sq);
  const long long bh = row / Sq;
  const int h = static_cast<int>(bh % H);
  const long long b = bh / H;
  const int kvHead = h / (H / HKV); // GQA: H / HKV query heads per KV head
  const unsigned short *qRow = q + row * D;
  const long long kvBase = (b * HKV + kvHead) * static_cast<long long>(Sk) * D;
  const unsigned short *kHead = k + kvBase;
  const unsigned short *vHead = v + kvBase;
  float *s = scratch + static_cast<long long>(blockIdx.x) * 2 * Sk;
  float *sLow = s + Sk;

  // The mask, from its definition: causal query i sits at position
  // inputPos + i and sees key n iff n <= inputPos + i.
  long long position = static_cast<long long>(inputPos) + i;
  int visible = Sk;
  if (causal)
    visible = position < 0
                  ? 0
                  : (position + 1 < Sk ? static_cast<int>(position + 1) : Sk);

  for (int d = threadIdx.x; d < D; d += blockDim.x)
    qf[d] = loadElem(qRow, d, isBf16);
  __syncthreads();

  // Scores: one warp per key, lanes across the head dimension.
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int numWarps = blockDim.x / 32;
  float maxLocal = -INFINITY, maxLowLocal = -INFINITY;
  for (int n = warp; n < visible; n += numWarps) {
    const unsigned short *kRow = kHead + static_cast<long long>(n) * D;
    float acc = 0.f;
    for (int d = lane; d < D; d += 32)
      acc = fmaf(qf[d], loadElem(kRow, d, isBf16), acc);
    acc = warpReduce(acc, SumOp());
    float score = acc * scale;
    float scoreLow = roundTo(roundTo(acc, isBf16) * scale, isBf16);
    if (lane == 0) {
      s[n] = score;
      sLow[n] = scoreLow;
    }
    maxLocal = fmaxf(maxLocal, score);
    maxLowLocal = fmaxf(maxLowLocal, scoreLow);
  }
  const float m = blockReduce(maxLocal, MaxOp(), reduceF);
  const float mLow = blockReduce(maxLowLocal, MaxOp(), reduceF);

  // Softmax numerators; sums in fp64 (ref) and fp32 (ref_lp).
  double sumLocal = 0.0;
  float sumLowLocal = 0.f;
  for (int n = threadIdx.x; n < visible; n += blockDim.x) {
    float p = expf(s[n] - m);
    s[n] = p;
    sumLocal += p;
    float pLow = expf(sLow[n] - mLow);
    sLow[n] = pLow;
    sumLowLocal += pLow;
  }
  const double l = blockReduce(sumLocal, SumOp(), reduceD);
  const float lLow = blockReduce(sumLowLocal, SumOp(), reduceF);
  for (int n = threadIdx.x; n < visible; n += blockDim.x)
    sLow[n] = roundTo(sLow[n] / lLow, isBf16);
  __syncthreads();

  // Output columns, compared with the kernel's row.
  float maxError = 0.f, maxLow = 0.f, maxAtol = 0.f;
  int worst = INT_MAX, nonFinite = 0, nonZeroEmpty = 0;
  for (int d = threadIdx.x; d < D; d += blockDim.x) {
    double acc = 0.0;
    float accLow = 0.f;
    for (int n = 0; n < visible; ++n) {
      float vv = loadElem(vHead, static_cast<long long>(n) * D + d, isBf16);
      acc += static_cast<double>(s[n]) * vv;
      accLow = fmaf(sLow[n], vv, accLow);
    }
    double ref = visible ? acc / l : 0.0;
    float refLow = visible ? roundTo(accLow, isBf16) : 0.f;
    float o = loadElem(out, row * D + d, isBf16);
    if (!visible && o != 0.f)
      ++nonZeroEmpty; // rows that see no key must be exactly 0
    if (!isfinite(o)) {
      ++nonFinite;
    } else {
      float error = static_cast<float>(fabs(static_cast<double>(o) - ref));
      if (error > maxError || worst == INT_MAX) {
        maxError = error;
        worst = d;
      }
    }
    maxLow = fmaxf(maxLow,
                   static_cast<float>(fabs(static_cast<double>(refLow) - ref)));
    float r = roundTo(static_cast<float>(ref), isBf16);
    float t = roundTo(roundTo(r + 0.3f, isBf16) - 0.3f, isBf16);
    maxAtol = fmaxf(maxAtol, fabsf(t - r));
  }
  const float blockMaxError = blockReduce(maxError, MaxOp(), reduceF);
  const int blockWorst = blockReduce(
      maxError == blockMaxError ? worst : INT_MAX, MinOp(), reduceI);
  const float blockMaxLow = blockReduce(maxLow, MaxOp(), reduceF);
  const float blockMaxAtol = blockReduce(maxAtol, MaxOp(), reduceF);
  const int blockNonFinite = blockReduce(nonFinite, SumOp(), reduceI);
  const int blockNonZeroEmpty = blockReduce(nonZeroEmpty, SumOp(), reduceI);

  if (threadIdx.x == 0) {
    RowStats r;
    r.maxError = blockMaxError;
    r.maxLowPrec = blockMaxLow;
    r.maxAtolTerm = blockMaxAtol;
    r.worstColumn = blockWorst == INT_MAX ? -1 : blockWorst;
    r.nonFinite = blockNonFinite;
    r.visibleKeys = visible;
    r.nonZeroEmpty = blockNonZeroEmpty;
    // Exp2-domain log-sum-exp: log2(sum_n exp(s_n)); FLT_MAX for no key.
    float lseRef = visible
                       ? static_cast<float>((m + log(l)) * 1.4426950408889634)
                       : FLT_MAX;
    r.lseRef = lseRef;
    r.lseOut = 0.f;
    r.lseError = 0.f;
    if (checkLse) {
      float lo = lse[row];
      r.lseOut = lo;
      if (!visible)
        r.lseError = lo == FLT_MAX ? 0.f : INFINITY;
      else if (!isfinite(lo))
        r.lseError = INFINITY;
      else
        r.lseError = fabsf(lo - lseRef);
    }
    stats[blockIdx.x] = r;
  }
}

namespace {
/// Counts elements whose bits equal `poison` (never written) into counts[0]
/// and other NaN/Inf (exponent bits all ones) into counts[1].
template <typename Bits>
__device__ void countNonFinite(const Bits *p, long long n, unsigned expMask,
                               unsigned poison, unsigned long long *counts) {
  unsigned long long poisoned = 0, nonFinite = 0;
  for (long long i =
           blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
       i < n; i += static_cast<long long>(gridDim.x) * blockDim.x) {
    unsigned bits = p[i];
    if (bits == poison)
      ++poisoned;
    else if ((bits & expMask) == expMask)
      ++nonFinite;
  }
  poisoned = warpReduce(poisoned, SumOp());
  nonFinite = warpReduce(nonFinite, SumOp());
  if (threadIdx.x % 32 == 0) {
    if (poisoned)
      atomicAdd(&counts[0], poisoned);
    if (nonFinite)
      atomicAdd(&counts[1], nonFinite);
  }
}
} // namespace

/// 16-bit elements (exponent mask: fp16 0x7c00, bf16 0x7f80).
extern "C" __global__ void
tile_ref_count_nonfinite16(const unsigned short *p, long long n,
                           unsigned expMask, unsigned poison,
                           unsigned long long *counts) {
  countNonFinite(p, n, expMask, poison, counts);
}

/// f32 elements.
extern "C" __global__ void
tile_ref_count_nonfinite32(const unsigned *p, long long n, unsigned poison,
                           unsigned long long *counts) {
  countNonFinite(p, n, 0x7f800000u, poison, counts);
}

/// Counts 16-bit words that differ between a and b (determinism check).
extern "C" __global__ void tile_ref_count_diff16(const unsigned short *a,
                                                 const unsigned short *b,
                                                 long long n,
                                                 unsigned long long *count) {
  unsigned long long local = 0;
  for (long long i =
           blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
       i < n; i += static_cast<long long>(gridDim.x) * blockDim.x)
    local += a[i] != b[i];
  local = warpReduce(local, SumOp());
  if (threadIdx.x % 32 == 0 && local)
    atomicAdd(count, local);
}

namespace {
__device__ __forceinline__ unsigned long long splitMix64(unsigned long long x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
} // namespace

/// Seeded normal(0, stddev) values in the input dtype, element i a function
/// of (seed, i) alone (Box-Muller over a counter-based hash).
extern "C" __global__ void tile_ref_fill_normal(unsigned short *p, long long n,
                                                unsigned long long seed,
                                                float stddev, int isBf16) {
  for (long long i =
           blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
       i < n; i += static_cast<long long>(gridDim.x) * blockDim.x) {
    unsigned long long bits =
        splitMix64(seed ^ splitMix64(static_cast<unsigned long long>(i)));
    float u1 = (static_cast<float>(bits >> 40) + 0.5f) * (1.0f / 16777216.0f);
    float u2 =
        static_cast<float>((bits >> 16) & 0xffffffull) * (1.0f / 16777216.0f);
    float z = sqrtf(-2.0f * logf(u1)) * cospif(2.0f * u2) * stddev;
    p[i] = isBf16 ? __bfloat16_as_ushort(__float2bfloat16_rn(z))
                  : __half_as_ushort(__float2half_rn(z));
  }
}
