//===- Tolerance.h - the tolerance rules of the built-in problems -*- C++ -*-=//
//
// One definition of each problem's per-element tolerance, used by the GPU
// references (reference.cu, compiled by nvcc) and the host references (the
// cpu backend). `u` is the unit roundoff of the output dtype (2^-11 f16,
// 2^-8 bf16, 2^-24 f32), `uf` that of the f32 arithmetic the kernels do.
//
//  - gemm:  |C - ref| <= 2 u |ref| + 4 sqrt(K) uf |scale| sum_k |a_ik b_kj|
//           (+ 2^-10 (|ref| + 2^-10) for GELU-tanh, whose tanh may be an
//           approximation). The first term is the rounding of the output;
//           the second bounds f32 accumulation of K products, whose error
//           grows like sqrt(K) for rounding errors of random sign (Higham,
//           "Accuracy and Stability of Numerical Algorithms", 3.1), with a
//           factor 4 of margin, relative to the magnitude of the terms.
//  - softmax: |Y - ref| <= (2 u + r) |ref| + a, r = 1e-5 + 4 sqrt(N) uf
//           (f32 exp and a sum of N terms), a = 2^-24 for f16 (its
//           subnormal spacing: softmax values of long rows are tiny), else
//           1e-30.
//  - layernorm: |Y - ref| <= 2 u |ref| + r (|xhat w| + |b|), with r as
//           above (the f32 mean and variance), xhat = (x - mean) * rstd;
//           Mean: r (|mean| + 1 / rstd); Rstd: r rstd.
// NaN, Inf and unwritten outputs always fail, whatever the tolerance.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNNER_TOLERANCE_H
#define TILE_RUNNER_TOLERANCE_H

#ifdef __CUDACC__
#define TILE_HD __host__ __device__
#else
#define TILE_HD
#include <cmath>
#endif

namespace tile {
namespace runner {

/// Output dtype codes shared with the reference kernels.
enum RefDType { kRefF16 = 0, kRefBF16 = 1, kRefF32 = 2 };

TILE_HD inline double refUnitRoundoff(int dtype) {
  return dtype == kRefF16 ? 0x1p-11 : dtype == kRefBF16 ? 0x1p-8 : 0x1p-24;
}

TILE_HD inline double gemmTolerance(double ref, double absTerms, double scale,
                                    int k, int outDtype, int activation) {
  double u = refUnitRoundoff(outDtype);
  double tol = 2 * u * fabs(ref) +
               4 * sqrt(double(k)) * 0x1p-24 * fabs(scale) * absTerms;
  if (activation == 2)
    tol += 0x1p-10 * (fabs(ref) + 0x1p-10);
  return tol;
}

/// The relative error of f32 statistics over a row of n elements.
TILE_HD inline double rowStatError(long long n) {
  return 1e-5 + 4 * sqrt(double(n)) * 0x1p-24;
}

TILE_HD inline double softmaxTolerance(double ref, long long n, int dtype) {
  double u = refUnitRoundoff(dtype);
  double a = dtype == kRefF16 ? 0x1p-24 : 1e-30;
  return (2 * u + rowStatError(n)) * fabs(ref) + a;
}

TILE_HD inline double layernormTolerance(double ref, double xhatW, double b,
                                         long long n, int dtype) {
  return 2 * refUnitRoundoff(dtype) * fabs(ref) +
         rowStatError(n) * (fabs(xhatW) + fabs(b)) + 1e-30;
}

} // namespace runner
} // namespace tile

#endif // TILE_RUNNER_TOLERANCE_H
