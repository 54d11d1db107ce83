//===- ReferenceKernels.h - what reference.cu exports -----------*- C++ -*-===//
//
// The GPU reference of tile-runner (reference.cu) is compiled by nvcc into a
// fatbin that is embedded in the runner and loaded with the driver API. This
// header is the contract between the two: kernel names and the per-row
// statistics record, shared by host code (plain C++) and device code.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNNER_REFERENCEKERNELS_H
#define TILE_RUNNER_REFERENCEKERNELS_H

#include "Tolerance.h" // TILE_HD: host and device functions

namespace tile {
namespace runner {

/// One checked query row, written by tile_ref_attention_rows.
struct RowStats {
  float maxError;    ///< max_d |out - ref| over finite outputs
  float maxLowPrec;  ///< max_d |ref_lp - ref|
  float maxAtolTerm; ///< max_d |(r + 0.3 - 0.3) - r|, r = ref in out dtype
  float lseError;    ///< |lse - lse_ref| (Inf: wrong on an empty row)
  float lseRef;      ///< exp2-domain reference LSE (FLT_MAX: no key)
  float lseOut;      ///< the kernel's LSE
  int worstColumn;   ///< d of maxError
  int nonFinite;     ///< NaN/Inf outputs in this row
  int visibleKeys;   ///< keys the row sees
  int nonZeroEmpty;  ///< nonzero outputs in a row that sees no key
};

/// The poison patterns outputs are filled with before a run (the same as
/// tile/Bundle/DType.h's), so "never written" is told from "computed NaN".
constexpr unsigned kRefPoisonF16 = 0x7ed1;
constexpr unsigned kRefPoisonBF16 = 0x7fd1;
constexpr unsigned kRefPoisonF32 = 0x7fd1d1d1;

/// One block's comparison of an output with its reference, written by
/// tile_ref_compare; the host reduces them.
struct CompareStats {
  double maxError; ///< max |out - ref| over finite outputs
  double maxRatio; ///< max |out - ref| / tol
  double worstOut, worstRef, worstTol;
  long long worst; ///< flat index of maxRatio, -1: none
  unsigned long long violations, unwritten, nonFinite, compared;
};

/// Statistics of no element. (No default member initializers: the compare
/// kernel keeps an array of them in shared memory.)
TILE_HD inline CompareStats emptyCompareStats() {
  return {0, 0, 0, 0, 0, -1, 0, 0, 0, 0};
}

/// Folds `other` into `into`: counts add, the larger error is kept, and the
/// worst element is `other`'s only where its ratio is strictly larger (ties
/// keep the earlier). The one merge of the compare kernel's threads
/// (reference.cu) and of its blocks (GpuChecks.cpp).
TILE_HD inline void mergeCompareStats(CompareStats &into,
                                      const CompareStats &other) {
  into.maxError = fmax(into.maxError, other.maxError);
  into.violations += other.violations;
  into.unwritten += other.unwritten;
  into.nonFinite += other.nonFinite;
  into.compared += other.compared;
  if (other.worst >= 0 && (into.worst < 0 || other.maxRatio > into.maxRatio)) {
    into.maxRatio = other.maxRatio;
    into.worst = other.worst;
    into.worstOut = other.worstOut;
    into.worstRef = other.worstRef;
    into.worstTol = other.worstTol;
  }
}

/// Threads per block of the compare and row reference kernels.
constexpr int kRefBlockThreads = 256;

/// Kernel names in the embedded fatbin.
constexpr const char *kRefAttentionRows = "tile_ref_attention_rows";
constexpr const char *kRefCountNonFinite16 = "tile_ref_count_nonfinite16";
constexpr const char *kRefCountNonFinite32 = "tile_ref_count_nonfinite32";
constexpr const char *kRefCountDiff16 = "tile_ref_count_diff16";
constexpr const char *kRefFillNormal = "tile_ref_fill_normal";
constexpr const char *kRefFillNormal32 = "tile_ref_fill_normal32";
constexpr const char *kRefCompare = "tile_ref_compare";
constexpr const char *kRefGemm = "tile_ref_gemm";
constexpr const char *kRefSoftmax = "tile_ref_softmax";
constexpr const char *kRefLayerNorm = "tile_ref_layernorm";

/// Threads per block of tile_ref_attention_rows.
constexpr int kRefRowThreads = 128;

} // namespace runner
} // namespace tile

#endif // TILE_RUNNER_REFERENCEKERNELS_H
