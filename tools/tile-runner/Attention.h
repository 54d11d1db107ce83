//===- Attention.h - the attention problem tile-runner solves ---*- C++ -*-===//
//
// Shared by both backends of tile-runner (cpu: the tile IR reference
// executor; gpu: CUDA driver API). Plain C++17: the GPU-only build of the
// runner has no LLVM or MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNNER_ATTENTION_H
#define TILE_RUNNER_ATTENTION_H

#include <cstdint>
#include <string>
#include <vector>

namespace tile {
namespace runner {

enum class DType { F16, BF16, F32, I32 };

/// "f16", "bf16", "f32", "i32".
const char *dtypeName(DType dtype);
/// Parses a dtype name; returns false for an unknown name.
bool parseDType(const std::string &name, DType &dtype);
/// Bytes per element.
int dtypeBytes(DType dtype);

/// IEEE half and bfloat16 conversions (round to nearest even).
uint16_t floatToHalf(float value);
float halfToFloat(uint16_t bits);
uint16_t floatToBFloat16(float value);
float bfloat16ToFloat(uint16_t bits);

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

/// A dense row-major tensor on the host. Elements of 16-bit dtypes are kept
/// as their bit patterns in `bits16`; f32 in `f32`.
struct HostTensor {
  std::vector<int64_t> shape;
  DType dtype = DType::F32;
  std::vector<uint16_t> bits16;
  std::vector<float> f32;

  int64_t numElements() const;
  /// Element `i` (row-major) converted to float.
  float get(int64_t i) const;
  void set(int64_t i, float value);
  void *data();
  const void *data() const;
  size_t sizeBytes() const;
  /// Row-major strides in elements.
  std::vector<int64_t> strides() const;
  static HostTensor zeros(std::vector<int64_t> shape, DType dtype);
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
