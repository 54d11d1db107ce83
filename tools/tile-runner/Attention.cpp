//===- Attention.cpp - attention forward: shape, references, check --------===//
//
// Seeded inputs (streams 0, 1, 2 of the seed for Q, K, V: Tensor.h), the
// float64 and low-precision references and FlashAttention's 2x check.
// Outputs start as the dtype's poison (tile/Bundle/DType.h), so
// checkAttention tells "never written" from "computed NaN". Plain C++17.
//
//===----------------------------------------------------------------------===//

#include "Attention.h"

#include "tile/Support/Float16.h"

#include <algorithm>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstring>
#include <sstream>

namespace tile {
namespace runner {

using tilebundle::roundTo;

//===----------------------------------------------------------------------===//
// AttentionConfig
//===----------------------------------------------------------------------===//

float AttentionConfig::effectiveScale() const {
  if (scale > 0)
    return scale;
  return static_cast<float>(1.0 / std::sqrt(static_cast<double>(headDim)));
}

std::string AttentionConfig::validate() const {
  std::ostringstream os;
  if (batch < 1 || heads < 1 || kvHeads < 1 || seqQ < 1 || seqK < 1 ||
      headDim < 1)
    os << "batch, heads, kv-heads, seq-q, seq-k and head-dim must be >= 1";
  else if (heads % kvHeads != 0)
    os << "heads (" << heads << ") must be a multiple of kv-heads (" << kvHeads
       << ")";
  else if (dtype != DType::F16 && dtype != DType::BF16)
    os << "dtype must be f16 or bf16, got " << dtypeName(dtype);
  else if (!(inputStd > 0) || !std::isfinite(inputStd))
    os << "input std must be positive and finite";
  else if (!std::isfinite(scale))
    os << "scale must be finite";
  else if (static_cast<int64_t>(batch) * heads * seqQ * headDim > INT32_MAX ||
           static_cast<int64_t>(batch) * kvHeads * seqK * headDim > INT32_MAX)
    os << "tensors above 2^31 elements are not supported";
  return os.str();
}

AttentionTensors makeAttentionTensors(const AttentionConfig &cfg) {
  AttentionTensors t;
  std::vector<int64_t> qShape = {cfg.batch, cfg.heads, cfg.seqQ, cfg.headDim};
  std::vector<int64_t> kvShape = {cfg.batch, cfg.kvHeads, cfg.seqK,
                                  cfg.headDim};
  t.q = HostTensor::random(qShape, cfg.dtype, cfg.seed, 0, cfg.inputStd);
  t.k = HostTensor::random(kvShape, cfg.dtype, cfg.seed, 1, cfg.inputStd);
  t.v = HostTensor::random(kvShape, cfg.dtype, cfg.seed, 2, cfg.inputStd);
  t.out = HostTensor::poisoned(qShape, cfg.dtype);
  t.lse = HostTensor::poisoned({cfg.batch, cfg.heads, cfg.seqQ}, DType::F32);
  return t;
}

//===----------------------------------------------------------------------===//
// References
//===----------------------------------------------------------------------===//

/// Number of keys query row `i` sees: keys 0..count-1. Written from the
/// definition (causal: key n is visible iff n <= inputPos + i), not from the
/// kernel's mask code.
static int visibleKeys(const AttentionConfig &cfg, int i) {
  if (!cfg.causal)
    return cfg.seqK;
  int64_t last = static_cast<int64_t>(cfg.inputPos) + i; // last visible key
  if (last < 0)
    return 0;
  return static_cast<int>(std::min<int64_t>(last + 1, cfg.seqK));
}

static std::vector<double> toDouble(const HostTensor &tensor) {
  std::vector<double> values(tensor.numElements());
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = tensor.get(static_cast<int64_t>(i));
  return values;
}

namespace {
/// Q, K and V as doubles, with helpers to address rows.
struct Inputs {
  const AttentionConfig &cfg;
  std::vector<double> q, k, v;
  /// K transposed per (batch, kv head): [B, HKV, D, Sk], so that the scores
  /// of one query row are computed with unit-stride loops over keys.
  std::vector<double> kt;
  Inputs(const AttentionConfig &cfg, const AttentionTensors &in)
      : cfg(cfg), q(toDouble(in.q)), k(toDouble(in.k)), v(toDouble(in.v)),
        kt(k.size()) {
    const size_t sk = cfg.seqK, d = cfg.headDim;
    for (size_t bh = 0; bh < static_cast<size_t>(cfg.batch) * cfg.kvHeads; ++bh)
      for (size_t n = 0; n < sk; ++n)
        for (size_t c = 0; c < d; ++c)
          kt[bh * sk * d + c * sk + n] = k[bh * sk * d + n * d + c];
  }
  /// s[n] = q_i . k_n for keys n < visible, summed over c in order.
  void dots(int b, int h, int i, int visible, double *s) const {
    int kvh = h / (cfg.heads / cfg.kvHeads);
    const double *qi = qRow(b, h, i);
    const size_t sk = cfg.seqK;
    const double *ktBase =
        &kt[(static_cast<size_t>(b) * cfg.kvHeads + kvh) * sk * cfg.headDim];
    std::fill(s, s + visible, 0.0);
    for (int c = 0; c < cfg.headDim; ++c) {
      const double qc = qi[c];
      const double *ktRow = ktBase + c * sk;
      for (int n = 0; n < visible; ++n)
        s[n] += qc * ktRow[n];
    }
  }
  const double *qRow(int b, int h, int i) const {
    return &q[((static_cast<size_t>(b) * cfg.heads + h) * cfg.seqQ + i) *
              cfg.headDim];
  }
  /// GQA: query head h reads KV head h / (H / HKV).
  const double *kvRow(const std::vector<double> &kv, int b, int h,
                      int n) const {
    int kvh = h / (cfg.heads / cfg.kvHeads);
    return &kv[((static_cast<size_t>(b) * cfg.kvHeads + kvh) * cfg.seqK + n) *
               cfg.headDim];
  }
};
} // namespace

void referenceAttention(const AttentionConfig &cfg, const AttentionTensors &in,
                        std::vector<double> &out, std::vector<double> &lse) {
  Inputs x(cfg, in);
  const int d = cfg.headDim;
  const double scale = cfg.effectiveScale();
  out.assign(static_cast<size_t>(cfg.batch) * cfg.heads * cfg.seqQ * d, 0.0);
  lse.assign(static_cast<size_t>(cfg.batch) * cfg.heads * cfg.seqQ, FLT_MAX);
  std::vector<double> s(cfg.seqK);
  for (int b = 0; b < cfg.batch; ++b)
    for (int h = 0; h < cfg.heads; ++h)
      for (int i = 0; i < cfg.seqQ; ++i) {
        size_t row = (static_cast<size_t>(b) * cfg.heads + h) * cfg.seqQ + i;
        int visible = visibleKeys(cfg, i);
        if (visible == 0)
          continue; // out 0, lse FLT_MAX
        x.dots(b, h, i, visible, s.data());
        double maxScore = -INFINITY;
        for (int n = 0; n < visible; ++n) {
          s[n] *= scale;
          maxScore = std::max(maxScore, s[n]);
        }
        double sum = 0;
        double *o = &out[row * d];
        for (int n = 0; n < visible; ++n) {
          double p = std::exp(s[n] - maxScore);
          sum += p;
          const double *v = x.kvRow(x.v, b, h, n);
          for (int c = 0; c < d; ++c)
            o[c] += p * v[c];
        }
        for (int c = 0; c < d; ++c)
          o[c] /= sum;
        // log2(sum_n exp(s_n)) = (max + ln(sum)) / ln 2.
        lse[row] = (maxScore + std::log(sum)) / std::log(2.0);
      }
}

void lowPrecisionAttention(const AttentionConfig &cfg,
                           const AttentionTensors &in,
                           std::vector<double> &out) {
  Inputs x(cfg, in);
  const DType dt = cfg.dtype;
  const int d = cfg.headDim;
  const double scale = cfg.effectiveScale();
  out.assign(static_cast<size_t>(cfg.batch) * cfg.heads * cfg.seqQ * d, 0.0);
  std::vector<double> s(cfg.seqK), acc(d);
  for (int b = 0; b < cfg.batch; ++b)
    for (int h = 0; h < cfg.heads; ++h)
      for (int i = 0; i < cfg.seqQ; ++i) {
        size_t row = (static_cast<size_t>(b) * cfg.heads + h) * cfg.seqQ + i;
        int visible = visibleKeys(cfg, i);
        if (visible == 0)
          continue;
        // S = Q K^T as a low-precision matmul (wide accumulation, result
        // rounded), then scaled in the dtype.
        x.dots(b, h, i, visible, s.data());
        double maxScore = -INFINITY;
        for (int n = 0; n < visible; ++n) {
          s[n] = roundTo(dt, roundTo(dt, s[n]) * scale);
          maxScore = std::max(maxScore, s[n]);
        }
        // Softmax computed wide, probabilities rounded to the dtype.
        double sum = 0;
        for (int n = 0; n < visible; ++n) {
          s[n] = std::exp(s[n] - maxScore);
          sum += s[n];
        }
        std::fill(acc.begin(), acc.end(), 0.0);
        for (int n = 0; n < visible; ++n) {
          double p = roundTo(dt, s[n] / sum);
          const double *v = x.kvRow(x.v, b, h, n);
          for (int c = 0; c < d; ++c)
            acc[c] += p * v[c];
        }
        for (int c = 0; c < d; ++c)
          out[row * d + c] = roundTo(dt, acc[c]);
      }
}

//===----------------------------------------------------------------------===//
// The check
//===----------------------------------------------------------------------===//

CheckResult checkAttention(const AttentionConfig &cfg,
                           const AttentionTensors &result,
                           const std::vector<double> &ref,
                           const std::vector<double> &refLowPrec,
                           const std::vector<double> *refLse) {
  CheckResult r;
  std::ostringstream why;
  const HostTensor &out = result.out;
  const int64_t n = out.numElements();
  if (static_cast<size_t>(n) != ref.size() || ref.size() != refLowPrec.size()) {
    r.message = "output and reference sizes differ";
    return r;
  }
  int64_t unwritten = 0, firstBad = -1;
  double atolHalf = 0;
  const float point3 = 0.3f;
  for (int64_t i = 0; i < n; ++i) {
    if (out.isPoison(i)) {
      ++unwritten;
      if (firstBad < 0)
        firstBad = i;
      continue;
    }
    double value = out.get(i);
    if (!std::isfinite(value)) {
      ++r.nonFinite;
      if (firstBad < 0)
        firstBad = i;
      continue;
    }
    double err = std::fabs(value - ref[i]);
    if (err > r.maxError) {
      r.maxError = err;
      r.worstIndex = i;
    }
    r.lowPrecError =
        std::max(r.lowPrecError, std::fabs(refLowPrec[i] - ref[i]));
    double rounded = roundTo(cfg.dtype, ref[i]);
    double roundTrip =
        roundTo(cfg.dtype, roundTo(cfg.dtype, rounded + point3) - point3);
    atolHalf = std::max(atolHalf, std::fabs(roundTrip - rounded));
  }
  double atol = 2 * atolHalf;
  r.tolerance = 2 * r.lowPrecError + atol;

  // Rows that see no key must be exactly 0.
  int64_t nonZeroEmpty = 0;
  const int d = cfg.headDim;
  for (int b = 0; b < cfg.batch; ++b)
    for (int h = 0; h < cfg.heads; ++h)
      for (int i = 0; i < cfg.seqQ; ++i) {
        if (visibleKeys(cfg, i) != 0)
          continue;
        int64_t row = (static_cast<int64_t>(b) * cfg.heads + h) * cfg.seqQ + i;
        for (int c = 0; c < d; ++c)
          if (out.get(row * d + c) != 0.0f)
            ++nonZeroEmpty;
      }

  // Log-sum-exp: exactly FLT_MAX for empty rows, else within
  // 1e-3 + 1e-4 |ref| (f32 arithmetic on exp2-domain values of size ~10).
  int64_t lseUnwritten = 0, lseBad = 0;
  if (cfg.withLse && refLse) {
    const HostTensor &lse = result.lse;
    if (static_cast<size_t>(lse.numElements()) != refLse->size()) {
      r.message = "lse and reference sizes differ";
      return r;
    }
    for (int64_t i = 0; i < lse.numElements(); ++i) {
      double value = lse.get(i);
      if (lse.isPoison(i)) {
        ++lseUnwritten;
        continue;
      }
      if (!std::isfinite(value)) {
        ++r.nonFinite;
        continue;
      }
      double expected = (*refLse)[i];
      double err = std::fabs(value - expected);
      if (expected == FLT_MAX) {
        if (value != FLT_MAX)
          ++lseBad;
        continue;
      }
      r.maxLseError = std::max(r.maxLseError, err);
      if (err > 1e-3 + 1e-4 * std::fabs(expected))
        ++lseBad;
    }
  }

  bool ok = true;
  if (unwritten || lseUnwritten) {
    ok = false;
    why << (unwritten + lseUnwritten) << " element(s) never written ("
        << unwritten << " out, " << lseUnwritten << " lse; first out index "
        << firstBad << "); ";
  }
  if (r.nonFinite) {
    ok = false;
    why << r.nonFinite << " NaN/Inf element(s); ";
  }
  if (nonZeroEmpty) {
    ok = false;
    why << nonZeroEmpty << " nonzero element(s) in rows that see no key; ";
  }
  if (!(r.maxError <= r.tolerance)) {
    ok = false;
    why << "max |out - ref| " << r.maxError << " at index " << r.worstIndex
        << " exceeds 2 * " << r.lowPrecError << " + atol " << atol << "; ";
  }
  if (lseBad) {
    ok = false;
    why << lseBad << " lse element(s) off (max error " << r.maxLseError
        << "); ";
  }
  r.passed = ok;
  std::ostringstream msg;
  if (ok) {
    msg << "max error " << r.maxError << " <= tolerance " << r.tolerance
        << " (2 * " << r.lowPrecError << " + " << atol << ")";
    if (cfg.withLse && refLse)
      msg << ", lse max error " << r.maxLseError;
  } else {
    msg << why.str() << "seed " << cfg.seed;
  }
  r.message = msg.str();
  return r;
}

} // namespace runner
} // namespace tile
