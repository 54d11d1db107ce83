//===- GemmProblem.cpp - C = act(scale * A @ B + Bias) as a problem -------===//
//
// The ABI of kernels/gemm.mlir (BRIEF contract C5): views A [M, K],
// B [K, N] ([N, K] when TRANS_B), C [M, N], Bias [N] (read when HAS_BIAS),
// scalar `scale`; params TRANS_B, HAS_BIAS, ACTIVATION (0 none, 1 ReLU,
// 2 GELU-tanh). Sizes from --shape M=..,N=..,K=..; dtypes from the ABI. The
// check: a float64 reference and the tolerance of Tolerance.h (output
// rounding plus f32 accumulation growing like sqrt(K)).
//
//===----------------------------------------------------------------------===//

#include "Problem.h"
#include "Report.h"
#include "Tolerance.h"

#include <algorithm>
#include <cmath>

namespace tile {
namespace runner {

int refDType(DType dtype) {
  return dtype == DType::F16    ? kRefF16
         : dtype == DType::BF16 ? kRefBF16
                                : kRefF32;
}

/// Sizes `names` from --shape; the error names the missing ones.
bool requireSizes(const std::string &problem, const ProblemOptions &options,
                  const std::vector<std::string> &names,
                  std::vector<int64_t> &sizes, std::string &error) {
  std::string missing, usage;
  sizes.clear();
  for (const std::string &n : names) {
    usage += (usage.empty() ? "" : ",") + n + "=..";
    auto it = options.sizes.find(n);
    if (it == options.sizes.end())
      missing += (missing.empty() ? "" : ", ") + n;
    else
      sizes.push_back(it->second);
  }
  for (const auto &s : options.sizes)
    if (std::find(names.begin(), names.end(), s.first) == names.end()) {
      error = "--problem " + problem + ": --shape has no size '" + s.first +
              "' (it takes " + usage + ")";
      return false;
    }
  if (!missing.empty()) {
    error = "--problem " + problem + " needs --shape " + usage +
            " (missing: " + missing + ")";
    return false;
  }
  return true;
}

/// Adds view `name` of `m`'s ABI with `shape` (dtype from the ABI).
void bindView(const Manifest &m, RunSpec &spec, const char *name,
              std::vector<int64_t> shape, double stddev) {
  const tilebundle::AbiEntry *e = m.abiEntry(name);
  if (!e || e->kind != tilebundle::AbiEntry::Kind::View)
    return;
  TensorArg t;
  t.name = name;
  t.dtype = e->dtype;
  t.shape = std::move(shape);
  t.stddev = stddev;
  spec.tensors.push_back(t);
}

/// The ABI must have these views; else an error naming the first missing.
bool requireViews(const std::string &problem, const Manifest &m,
                  const std::vector<const char *> &names, std::string &error) {
  for (const char *n : names) {
    const tilebundle::AbiEntry *e = m.abiEntry(n);
    if (!e || e->kind != tilebundle::AbiEntry::Kind::View) {
      std::string all;
      for (const char *x : names)
        all += (all.empty() ? "" : ", ") + std::string(x);
      error = "the " + problem + " problem binds " + all + "; kernel " +
              m.kernel + " has no view '" + n + "'";
      return false;
    }
  }
  return true;
}

namespace {

class GemmProblem : public Problem {
public:
  using Problem::Problem;
  std::string name() const override { return "gemm"; }

  bool bind(const Manifest &m, RunSpec &spec,
            std::string &error) const override {
    std::vector<int64_t> s;
    if (!requireSizes("gemm", options, {"M", "N", "K"}, s, error) ||
        !requireViews("gemm", m, {"A", "B", "C"}, error))
      return false;
    int64_t mSize = s[0], nSize = s[1], kSize = s[2];
    bool transB = paramFlag(m, "TRANS_B", false);
    double sd = options.inputStd;
    bindView(m, spec, "A", {mSize, kSize}, sd);
    bindView(m, spec, "B",
             transB ? std::vector<int64_t>{nSize, kSize}
                    : std::vector<int64_t>{kSize, nSize},
             sd);
    bindView(m, spec, "C", {mSize, nSize}, sd);
    bindView(m, spec, "Bias", {nSize}, sd);
    if (m.abiEntry("scale"))
      spec.scalars["scale"] = ScalarBinding::ofReal(1.0);
    spec.seed = options.seed;
    return true;
  }

  bool checkOnHost(const Manifest &m, const RunSpec &spec,
                   const std::map<std::string, HostTensor> &t,
                   ProblemCheck &check, std::string &error) const override {
    const HostTensor &a = t.at("A"), &b = t.at("B"), &c = t.at("C");
    const HostTensor *bias = t.count("Bias") ? &t.at("Bias") : nullptr;
    bool transB = paramFlag(m, "TRANS_B", false);
    bool hasBias = paramFlag(m, "HAS_BIAS", false) && bias;
    int activation = static_cast<int>(paramInt(m, "ACTIVATION", 0));
    double scale =
        spec.scalars.count("scale") ? spec.scalars.at("scale").real : 1.0;
    int64_t mSize = c.shape[0], nSize = c.shape[1], kSize = a.shape[1];
    OutputCheck oc;
    oc.name = "C";
    for (int64_t i = 0; i < mSize; ++i)
      for (int64_t j = 0; j < nSize; ++j) {
        double acc = 0, absTerms = 0;
        for (int64_t k = 0; k < kSize; ++k) {
          double p = a.get(i * kSize + k) *
                     b.get(transB ? j * kSize + k : k * nSize + j);
          acc += p;
          absTerms += std::fabs(p);
        }
        double ref =
            gemmReference(acc, scale, hasBias ? bias->get(j) : 0, activation);
        double tol =
            gemmTolerance(ref, absTerms, scale, static_cast<int>(kSize),
                          refDType(c.dtype), activation);
        accumulate(oc, i * nSize + j, c.get(i * nSize + j), ref, tol,
                   c.isPoison(i * nSize + j));
      }
    check.outputs.push_back(oc);
    check.reference = "float64 host reference (GemmProblem.cpp)";
    check.rule = "|C - ref| <= 2 u |ref| + 4 sqrt(K) u_f32 |scale| "
                 "sum|a b| (Tolerance.h)";
    check.rowsChecked = check.rowsTotal = mSize;
    (void)error;
    return true;
  }

  /// act(scale * acc + bias).
  static double gemmReference(double acc, double scale, double bias,
                              int activation) {
    double x = scale * acc + bias;
    if (activation == 1)
      return x > 0 ? x : 0;
    if (activation == 2)
      return 0.5 * x *
             (1 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
    return x;
  }

  double flops(const Manifest &, const RunSpec &spec,
               std::string *formula) const override {
    const TensorArg *a = spec.find("A"), *c = spec.find("C");
    if (!a || !c)
      return 0;
    if (formula)
      *formula = "2*M*N*K";
    return 2.0 * c->shape[0] * c->shape[1] * a->shape[1];
  }
};

} // namespace

std::unique_ptr<Problem> makeGemmProblem(const ProblemOptions &options) {
  return std::make_unique<GemmProblem>(options);
}

} // namespace runner
} // namespace tile
