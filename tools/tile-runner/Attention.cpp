//===- Attention.cpp - the attention problem tile-runner solves -----------===//
//
// Conversions, host tensors, seeded inputs, the float64 and low-precision
// references and FlashAttention's 2x check. Plain C++17 (no LLVM): the
// GPU-only build of the runner compiles this file too.
//
// Random inputs. Every run with the same AttentionConfig (shapes, dtype,
// seed, inputStd) gets bit-identical inputs on every machine:
//   - generator: splitmix64 (Steele, Lea, Flood 2014), one stream per
//     tensor, started at state = seed ^ (0x9E3779B97F4A7C15 * (t + 1)) for
//     t = 0 (Q), 1 (K), 2 (V);
//   - normals: Box-Muller on two 53-bit uniforms u1 in (0, 1], u2 in [0, 1):
//     r = sqrt(-2 ln u1), z0 = r cos(2 pi u2), z1 = r sin(2 pi u2); both are
//     used, in that order, in row-major element order;
//   - element = round_to_dtype(inputStd * z) (round to nearest even).
// The only platform dependence is libm's log/sin/cos in double precision,
// whose last-bit differences vanish in the rounding to 16 bits (except at
// exact ties, which have probability ~2^-37 per element).
//
// Poison. Outputs start as a NaN with a distinctive payload (f16 0x7ED1,
// bf16 0x7FD1, f32 0x7FD1D1D1). Arithmetic never produces these payloads
// from finite inputs, so checkAttention tells "never written" from
// "computed NaN".
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

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

const char *dtypeName(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::F32:
    return "f32";
  case DType::I32:
    return "i32";
  }
  return "?";
}

bool parseDType(const std::string &name, DType &dtype) {
  if (name == "f16" || name == "fp16" || name == "float16") {
    dtype = DType::F16;
    return true;
  }
  if (name == "bf16" || name == "bfloat16") {
    dtype = DType::BF16;
    return true;
  }
  if (name == "f32" || name == "fp32" || name == "float32") {
    dtype = DType::F32;
    return true;
  }
  if (name == "i32" || name == "int32") {
    dtype = DType::I32;
    return true;
  }
  return false;
}

int dtypeBytes(DType dtype) {
  return dtype == DType::F16 || dtype == DType::BF16 ? 2 : 4;
}

uint16_t floatToHalf(float value) { return tilefloat::floatToHalf(value); }
float halfToFloat(uint16_t bits) { return tilefloat::halfToFloat(bits); }
uint16_t floatToBFloat16(float value) {
  return tilefloat::floatToBFloat16(value);
}
float bfloat16ToFloat(uint16_t bits) {
  return tilefloat::bfloat16ToFloat(bits);
}

/// `value` rounded to `dtype` and back (identity for f32/i32).
static double roundTo(DType dtype, double value) {
  switch (dtype) {
  case DType::F16:
    return halfToFloat(floatToHalf(static_cast<float>(value)));
  case DType::BF16:
    return bfloat16ToFloat(floatToBFloat16(static_cast<float>(value)));
  case DType::F32:
    return static_cast<float>(value);
  case DType::I32:
    return value;
  }
  return value;
}

static constexpr uint16_t kPoisonF16 = 0x7ed1;
static constexpr uint16_t kPoisonBF16 = 0x7fd1;
static constexpr uint32_t kPoisonF32 = 0x7fd1d1d1;

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

//===----------------------------------------------------------------------===//
// HostTensor
//===----------------------------------------------------------------------===//

int64_t HostTensor::numElements() const {
  int64_t n = 1;
  for (int64_t size : shape)
    n *= size;
  return n;
}

float HostTensor::get(int64_t i) const {
  switch (dtype) {
  case DType::F16:
    return halfToFloat(bits16[i]);
  case DType::BF16:
    return bfloat16ToFloat(bits16[i]);
  case DType::F32:
    return f32[i];
  case DType::I32: {
    // i32 elements are kept in `f32` as their bit patterns.
    int32_t value;
    std::memcpy(&value, &f32[i], sizeof(value));
    return static_cast<float>(value);
  }
  }
  return 0;
}

void HostTensor::set(int64_t i, float value) {
  switch (dtype) {
  case DType::F16:
    bits16[i] = floatToHalf(value);
    return;
  case DType::BF16:
    bits16[i] = floatToBFloat16(value);
    return;
  case DType::F32:
    f32[i] = value;
    return;
  case DType::I32: {
    int32_t integer = static_cast<int32_t>(value);
    std::memcpy(&f32[i], &integer, sizeof(integer));
    return;
  }
  }
}

void *HostTensor::data() {
  return dtypeBytes(dtype) == 2 ? static_cast<void *>(bits16.data())
                                : static_cast<void *>(f32.data());
}

const void *HostTensor::data() const {
  return dtypeBytes(dtype) == 2 ? static_cast<const void *>(bits16.data())
                                : static_cast<const void *>(f32.data());
}

size_t HostTensor::sizeBytes() const {
  return static_cast<size_t>(numElements()) * dtypeBytes(dtype);
}

std::vector<int64_t> HostTensor::strides() const {
  std::vector<int64_t> result(shape.size(), 1);
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i)
    result[i] = result[i + 1] * shape[i + 1];
  return result;
}

HostTensor HostTensor::zeros(std::vector<int64_t> shape, DType dtype) {
  HostTensor tensor;
  tensor.shape = std::move(shape);
  tensor.dtype = dtype;
  if (dtypeBytes(dtype) == 2)
    tensor.bits16.assign(tensor.numElements(), 0);
  else
    tensor.f32.assign(tensor.numElements(), 0.0f);
  return tensor;
}

//===----------------------------------------------------------------------===//
// Seeded inputs
//===----------------------------------------------------------------------===//

namespace {

/// splitmix64 with Box-Muller normals (see the file header).
class NormalGenerator {
public:
  explicit NormalGenerator(uint64_t seed) : state(seed) {}

  double next() {
    if (hasSpare) {
      hasSpare = false;
      return spare;
    }
    double u1 = (static_cast<double>(nextBits() >> 11) + 1.0) * 0x1p-53;
    double u2 = static_cast<double>(nextBits() >> 11) * 0x1p-53;
    double r = std::sqrt(-2.0 * std::log(u1));
    double theta = 6.283185307179586476925286766559 * u2;
    spare = r * std::sin(theta);
    hasSpare = true;
    return r * std::cos(theta);
  }

private:
  uint64_t state;
  double spare = 0;
  bool hasSpare = false;

  uint64_t nextBits() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};

} // namespace

static HostTensor randomTensor(std::vector<int64_t> shape, DType dtype,
                               uint64_t seed, int stream, float stddev) {
  HostTensor tensor = HostTensor::zeros(std::move(shape), dtype);
  NormalGenerator gen(seed ^ (0x9e3779b97f4a7c15ull * (stream + 1)));
  int64_t n = tensor.numElements();
  for (int64_t i = 0; i < n; ++i)
    tensor.set(i, static_cast<float>(stddev * gen.next()));
  return tensor;
}

AttentionTensors makeAttentionTensors(const AttentionConfig &cfg) {
  AttentionTensors t;
  std::vector<int64_t> qShape = {cfg.batch, cfg.heads, cfg.seqQ, cfg.headDim};
  std::vector<int64_t> kvShape = {cfg.batch, cfg.kvHeads, cfg.seqK,
                                  cfg.headDim};
  t.q = randomTensor(qShape, cfg.dtype, cfg.seed, 0, cfg.inputStd);
  t.k = randomTensor(kvShape, cfg.dtype, cfg.seed, 1, cfg.inputStd);
  t.v = randomTensor(kvShape, cfg.dtype, cfg.seed, 2, cfg.inputStd);
  t.out = HostTensor::zeros(qShape, cfg.dtype);
  std::fill(t.out.bits16.begin(), t.out.bits16.end(),
            cfg.dtype == DType::BF16 ? kPoisonBF16 : kPoisonF16);
  t.lse = HostTensor::zeros({cfg.batch, cfg.heads, cfg.seqQ}, DType::F32);
  std::fill(t.lse.f32.begin(), t.lse.f32.end(),
            tilefloat::bitsToFloat(kPoisonF32));
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
  const uint16_t poison16 = cfg.dtype == DType::BF16 ? kPoisonBF16 : kPoisonF16;
  int64_t unwritten = 0, firstBad = -1;
  double atolHalf = 0;
  const float point3 = 0.3f;
  for (int64_t i = 0; i < n; ++i) {
    if (dtypeBytes(out.dtype) == 2 && out.bits16[i] == poison16) {
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
      float value = lse.f32[i];
      if (tilefloat::floatBits(value) == kPoisonF32) {
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
