//===- Attention.h - attention forward: shape, references, check -*- C++
//-*-===//
//
// The attention problem's configuration, its float64 and same-precision
// host references and FlashAttention's 2x check, used by the attention
// problem (AttentionProblem.cpp) on the cpu backend and by the unit tests.
// Plain C++17.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNNER_ATTENTION_H
#define TILE_RUNNER_ATTENTION_H

#include "Tensor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tile {
namespace runner {

/// One attention forward problem: Q [B, H, Sq, D], K/V [B, HKV, Sk, D].
struct AttentionConfig {
  int batch = 1;
  int heads = 1;
  int kvHeads = 1;
  int seqQ = 128;
  int seqK = 128;
  int headDim = 64;
  bool causal = false;
  /// Position of query row 0: query i sees keys 0..inputPos + i (causal).
  int inputPos = 0;
  DType dtype = DType::F16;
  bool withLse = false;
  /// Softmax scale; <= 0 means 1/sqrt(headDim).
  float scale = 0.0f;
  uint64_t seed = 1;
  /// Standard deviation of the random inputs.
  float inputStd = 1.0f;

  float effectiveScale() const;
  /// Returns an empty string when valid, else what is wrong.
  std::string validate() const;
};

/// The inputs and outputs of one run.
struct AttentionTensors {
  HostTensor q, k, v;
  HostTensor out; ///< [B, H, Sq, D], dtype of the inputs
  HostTensor lse; ///< [B, H, Sq], f32
};

/// Seeded random inputs (normal, std cfg.inputStd) and outputs filled with
/// a poison pattern (NaN), so that unwritten elements are caught.
AttentionTensors makeAttentionTensors(const AttentionConfig &cfg);

/// Float64 naive attention on the host: out [B, H, Sq, D] and the exp2-domain
/// log-sum-exp [B, H, Sq] (FLT_MAX for rows that see no key). Rows with no
/// visible key are 0. Independent of the compiler's mask code.
void referenceAttention(const AttentionConfig &cfg, const AttentionTensors &in,
                        std::vector<double> &out, std::vector<double> &lse);

/// The same attention computed the way a same-precision naive kernel does
/// (scores, probabilities and output rounded to the input dtype), for
/// FlashAttention's 2x rule.
void lowPrecisionAttention(const AttentionConfig &cfg,
                           const AttentionTensors &in,
                           std::vector<double> &out);

/// The outcome of comparing a kernel's output with the reference.
struct CheckResult {
  bool passed = false;
  double maxError = 0;     ///< max |out - ref|
  double lowPrecError = 0; ///< max |ref_lp - ref|
  double tolerance = 0;    ///< 2 * lowPrecError + atol
  double maxLseError = 0;  ///< when checked
  int64_t nonFinite = 0;   ///< NaN/Inf elements in out (and lse)
  int64_t worstIndex = -1; ///< flat index of the largest error
  std::string message;     ///< why it failed, or a summary
};

/// FlashAttention's rule: max|out - ref| <= 2 * max|ref_lp - ref| + atol,
/// atol = 2 * max|(ref + 0.3 - 0.3) - ref| in the output dtype; no NaN/Inf.
CheckResult checkAttention(const AttentionConfig &cfg,
                           const AttentionTensors &result,
                           const std::vector<double> &ref,
                           const std::vector<double> &refLowPrec,
                           const std::vector<double> *refLse);

} // namespace runner
} // namespace tile

#endif // TILE_RUNNER_ATTENTION_H
