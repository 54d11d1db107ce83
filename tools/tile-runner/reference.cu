//===- reference.cu - tile-runner's independent GPU reference ------------===//
//
// Naive attention, written independently of the compiler and of its mask
// code, used to check the compiled kernels on the GPU (docs/testing.md):
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
#include "Tolerance.h"

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

namespace {
/// Normal(0, stddev) value number i of `seed`, a function of (seed, i) alone
/// (Box-Muller over a counter-based hash).
__device__ __forceinline__ float normalAt(unsigned long long seed, long long i,
                                          float stddev) {
  unsigned long long bits =
      splitMix64(seed ^ splitMix64(static_cast<unsigned long long>(i)));
  float u1 = (static_cast<float>(bits >> 40) + 0.5f) * (1.0f / 16777216.0f);
  float u2 =
      static_cast<float>((bits >> 16) & 0xffffffull) * (1.0f / 16777216.0f);
  return sqrtf(-2.0f * logf(u1)) * cospif(2.0f * u2) * stddev;
}
} // namespace

/// Seeded normal(0, stddev) values in the input dtype (normalAt).
extern "C" __global__ void tile_ref_fill_normal(unsigned short *p, long long n,
                                                unsigned long long seed,
                                                float stddev, int isBf16) {
  for (long long i =
           blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
       i < n; i += static_cast<long long>(gridDim.x) * blockDim.x) {
    float z = normalAt(seed, i, stddev);
    p[i] = isBf16 ? __bfloat16_as_ushort(__float2bfloat16_rn(z))
                  : __half_as_ushort(__float2half_rn(z));
  }
}

/// Seeded normal(0, stddev) f32 values (normalAt).
extern "C" __global__ void tile_ref_fill_normal32(float *p, long long n,
                                                  unsigned long long seed,
                                                  float stddev) {
  for (long long i =
           blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
       i < n; i += static_cast<long long>(gridDim.x) * blockDim.x)
    p[i] = normalAt(seed, i, stddev);
}

//===----------------------------------------------------------------------===//
// References of gemm, softmax and layernorm, and the comparison
//===----------------------------------------------------------------------===//
//
// Each reference writes, for the rows `rows[r]` it is given, the float64
// reference value and its tolerance (Tolerance.h) of every element of the
// output row into ref/tol [numRows, rowLength]; tile_ref_compare then
// compares the kernel's output with them. Written from the problem
// definitions (BRIEF contract C5), sharing no code with the kernels.

namespace {

using tile::runner::CompareStats;

/// Element i of an f16 (0), bf16 (1) or f32 (2) array.
__device__ __forceinline__ double loadAny(const void *p, int dtype,
                                          long long i) {
  if (dtype == 2)
    return static_cast<const float *>(p)[i];
  return loadElem(static_cast<const unsigned short *>(p), i, dtype == 1);
}

__device__ __forceinline__ bool isPoisonAt(const void *p, int dtype,
                                           long long i) {
  if (dtype == 2)
    return static_cast<const unsigned *>(p)[i] == tile::runner::kRefPoisonF32;
  unsigned short bits = static_cast<const unsigned short *>(p)[i];
  return bits == (dtype == 1 ? tile::runner::kRefPoisonBF16
                             : tile::runner::kRefPoisonF16);
}

__device__ double gelu(double x) {
  return 0.5 * x * (1 + tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
}

} // namespace

// clang-format 14 and 22 disagree on this signature.
// clang-format off
/// C[rows[r], j] = act(scale * sum_k A[i, k] B[k, j] + Bias[j]) in float64,
/// one thread per element; grid (cdiv(N, blockDim.x), numRows).
extern "C" __global__ void tile_ref_gemm(const void *a, const void *b,
                                         const void *bias, int inDtype,
                                         int outDtype, int n, int k, int transB,
                                         int hasBias, int activation,
                                         float scale, const long long *rows,
                                         double *ref, double *tol) {
  const long long r = blockIdx.y;
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n)
    return;
  const long long i = rows[r];
  double acc = 0, absTerms = 0;
  for (int kk = 0; kk < k; ++kk) {
    double p = loadAny(a, inDtype, i * k + kk) *
               loadAny(b, inDtype,
                       transB ? static_cast<long long>(j) * k + kk
                              : static_cast<long long>(kk) * n + j);
    acc += p;
    absTerms += fabs(p);
  }
  double x = static_cast<double>(scale) * acc +
             (hasBias ? loadAny(bias, outDtype, j) : 0.0);
  double out = activation == 1   ? (x > 0 ? x : 0.0)
               : activation == 2 ? gelu(x)
                                 : x;
  ref[r * n + j] = out;
  tol[r * n + j] = tile::runner::gemmTolerance(out, absTerms, scale, k,
                                               outDtype, activation);
}

// clang-format on

/// Softmax of rows[blockIdx.x] of X [M, N] in float64.
extern "C" __global__ void tile_ref_softmax(const void *x, int dtype, int n,
                                            int outDtype, const long long *rows,
                                            double *ref, double *tol) {
  __shared__ double reduce[32];
  const long long row = rows[blockIdx.x];
  double mx = -INFINITY;
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    mx = fmax(mx, loadAny(x, dtype, row * n + j));
  mx = blockReduce(mx, MaxOp(), reduce);
  double sum = 0;
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    sum += exp(loadAny(x, dtype, row * n + j) - mx);
  sum = blockReduce(sum, SumOp(), reduce);
  double *refRow = ref + static_cast<long long>(blockIdx.x) * n;
  double *tolRow = tol + static_cast<long long>(blockIdx.x) * n;
  for (int j = threadIdx.x; j < n; j += blockDim.x) {
    double y = exp(loadAny(x, dtype, row * n + j) - mx) / sum;
    refRow[j] = y;
    tolRow[j] = tile::runner::softmaxTolerance(y, n, outDtype);
  }
}

/// LayerNorm (or RMSNorm) of rows[blockIdx.x] of X [M, N] in float64: Y's
/// row into ref/tol, the row's mean and rstd into stats[4 * r + 0..3]
/// (mean, its tolerance, rstd, its tolerance).
extern "C" __global__ void
tile_ref_layernorm(const void *x, const void *w, const void *b, int dtype,
                   int n, float eps, int rms, int hasBias, int outDtype,
                   const long long *rows, double *ref, double *tol,
                   double *stats) {
  __shared__ double reduce[32];
  const long long row = rows[blockIdx.x];
  double sum = 0;
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    sum += loadAny(x, dtype, row * n + j);
  const double mean = blockReduce(sum, SumOp(), reduce) / n;
  double sq = 0;
  for (int j = threadIdx.x; j < n; j += blockDim.x) {
    double d = loadAny(x, dtype, row * n + j) - (rms ? 0.0 : mean);
    sq += d * d;
  }
  const double var = blockReduce(sq, SumOp(), reduce) / n;
  const double rstd = 1 / sqrt(var + static_cast<double>(eps));
  double *refRow = ref + static_cast<long long>(blockIdx.x) * n;
  double *tolRow = tol + static_cast<long long>(blockIdx.x) * n;
  for (int j = threadIdx.x; j < n; j += blockDim.x) {
    double v = loadAny(x, dtype, row * n + j) - (rms ? 0.0 : mean);
    double xhatW = v * rstd * loadAny(w, dtype, j);
    double bias = !rms && hasBias ? loadAny(b, dtype, j) : 0.0;
    refRow[j] = xhatW + bias;
    tolRow[j] = tile::runner::layernormTolerance(xhatW + bias, xhatW, bias, n,
                                                 outDtype);
  }
  if (threadIdx.x == 0) {
    double e = tile::runner::rowStatError(n);
    double *s = stats + 4 * static_cast<long long>(blockIdx.x);
    s[0] = mean;
    s[1] = e * (fabs(mean) + sqrt(var + static_cast<double>(eps)));
    s[2] = rstd;
    s[3] = e * rstd;
  }
}

/// Compares out[rows[r] * rowLength + c] (f16/bf16/f32) with
/// ref/tol[r * rowLength + c] for r < numRows (rows null: r itself), with
/// `stride` between a row's elements of the output (1, or the row length of
/// a [M] statistic: 1 too). One CompareStats per block.
extern "C" __global__ void
tile_ref_compare(const void *out, int dtype, int checkPoison,
                 const long long *rows, long long numRows, long long rowLength,
                 const double *ref, const double *tol, CompareStats *partials) {
  __shared__ CompareStats shared[tile::runner::kRefBlockThreads];
  CompareStats s = tile::runner::emptyCompareStats();
  const long long total = numRows * rowLength;
  for (long long e =
           blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
       e < total; e += static_cast<long long>(gridDim.x) * blockDim.x) {
    long long r = e / rowLength, c = e % rowLength;
    long long index = (rows ? rows[r] : r) * rowLength + c;
    ++s.compared;
    if (checkPoison && isPoisonAt(out, dtype, index)) {
      ++s.unwritten;
      continue;
    }
    double o = loadAny(out, dtype, index);
    if (!isfinite(o)) {
      ++s.nonFinite;
      continue;
    }
    double err = fabs(o - ref[e]), t = tol[e];
    double ratio = t > 0 ? err / t : (err > 0 ? INFINITY : 0.0);
    s.maxError = fmax(s.maxError, err);
    if (!(err <= t))
      ++s.violations;
    if (s.worst < 0 || ratio > s.maxRatio) {
      s.maxRatio = ratio;
      s.worst = index;
      s.worstOut = o;
      s.worstRef = ref[e];
      s.worstTol = t;
    }
  }
  shared[threadIdx.x] = s;
  __syncthreads();
  if (threadIdx.x != 0)
    return;
  for (unsigned t = 1; t < blockDim.x; ++t)
    tile::runner::mergeCompareStats(s, shared[t]);
  partials[blockIdx.x] = s;
}
