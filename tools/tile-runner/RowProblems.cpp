//===- RowProblems.cpp - softmax and LayerNorm as problems ----------------===//
//
// Row-wise kernels over X [M, N] (BRIEF contract C5):
//  - softmax: Y [M, N] = softmax of each row of X, computed in f32;
//  - layernorm: Y = (X - mean) * rstd * W + B per row, Mean [M] and Rstd [M]
//    (f32), rstd = 1 / sqrt(var + eps) with the biased variance; with RMS,
//    Y = X * rstd * W, rstd = 1 / sqrt(mean(X^2) + eps), B not read and
//    Mean not written.
// Sizes from --shape M=..,N=..; dtypes from the ABI. Float64 references and
// the relative tolerances of Tolerance.h.
//
//===----------------------------------------------------------------------===//

#include "Problem.h"
#include "Tolerance.h"

#include <cmath>

namespace tile {
namespace runner {

int refDType(DType dtype);
bool requireSizes(const std::string &problem, const ProblemOptions &options,
                  const std::vector<std::string> &names,
                  std::vector<int64_t> &sizes, std::string &error);
void bindView(const Manifest &m, RunSpec &spec, const char *name,
              std::vector<int64_t> shape, double stddev);
bool requireViews(const std::string &problem, const Manifest &m,
                  const std::vector<const char *> &names, std::string &error);

namespace {

class SoftmaxProblem : public Problem {
public:
  using Problem::Problem;
  std::string name() const override { return "softmax"; }

  bool bind(const Manifest &m, RunSpec &spec,
            std::string &error) const override {
    std::vector<int64_t> s;
    if (!requireSizes("softmax", options, {"M", "N"}, s, error) ||
        !requireViews("softmax", m, {"X", "Y"}, error))
      return false;
    bindView(m, spec, "X", {s[0], s[1]}, options.inputStd);
    bindView(m, spec, "Y", {s[0], s[1]}, options.inputStd);
    spec.seed = options.seed;
    return true;
  }

  bool checkOnHost(const Manifest &, const RunSpec &,
                   const std::map<std::string, HostTensor> &t,
                   ProblemCheck &check, std::string &) const override {
    const HostTensor &x = t.at("X"), &y = t.at("Y");
    int64_t mSize = x.shape[0], nSize = x.shape[1];
    OutputCheck oc;
    oc.name = "Y";
    std::vector<double> e(nSize);
    for (int64_t i = 0; i < mSize; ++i) {
      double mx = -INFINITY, sum = 0;
      for (int64_t j = 0; j < nSize; ++j)
        mx = std::max(mx, x.get(i * nSize + j));
      for (int64_t j = 0; j < nSize; ++j)
        sum += e[j] = std::exp(x.get(i * nSize + j) - mx);
      for (int64_t j = 0; j < nSize; ++j) {
        double ref = e[j] / sum;
        accumulate(oc, i * nSize + j, y.get(i * nSize + j), ref,
                   softmaxTolerance(ref, nSize, refDType(y.dtype)),
                   y.isPoison(i * nSize + j));
      }
    }
    check.outputs.push_back(oc);
    check.reference = "float64 host reference (RowProblems.cpp)";
    check.rule = "|Y - ref| <= (2 u + 1e-5 + 4 sqrt(N) u_f32) |ref| + a "
                 "(Tolerance.h)";
    check.rowsChecked = check.rowsTotal = mSize;
    return true;
  }

  double bytesMoved(const RunSpec &spec) const override {
    const TensorArg *x = spec.find("X"), *y = spec.find("Y");
    return x && y ? double(x->bytes()) + double(y->bytes()) : 0;
  }
};

class LayerNormProblem : public Problem {
public:
  using Problem::Problem;
  std::string name() const override { return "layernorm"; }

  bool bind(const Manifest &m, RunSpec &spec,
            std::string &error) const override {
    std::vector<int64_t> s;
    if (!requireSizes("layernorm", options, {"M", "N"}, s, error) ||
        !requireViews("layernorm", m, {"X", "W", "Y"}, error))
      return false;
    int64_t mSize = s[0], nSize = s[1];
    double sd = options.inputStd;
    bindView(m, spec, "X", {mSize, nSize}, sd);
    bindView(m, spec, "W", {nSize}, sd);
    bindView(m, spec, "B", {nSize}, sd);
    bindView(m, spec, "Y", {mSize, nSize}, sd);
    bindView(m, spec, "Mean", {mSize}, sd);
    bindView(m, spec, "Rstd", {mSize}, sd);
    if (m.abiEntry("eps"))
      spec.scalars["eps"] = ScalarBinding::ofReal(1e-5);
    spec.seed = options.seed;
    return true;
  }

  bool checkOnHost(const Manifest &m, const RunSpec &spec,
                   const std::map<std::string, HostTensor> &t,
                   ProblemCheck &check, std::string &) const override {
    const HostTensor &x = t.at("X"), &w = t.at("W"), &y = t.at("Y");
    const HostTensor *b = t.count("B") ? &t.at("B") : nullptr;
    bool rms = paramFlag(m, "RMS", false);
    double eps = spec.scalars.count("eps") ? spec.scalars.at("eps").real : 0;
    // f32 eps, as the kernel receives it.
    eps = static_cast<float>(eps);
    int64_t mSize = x.shape[0], nSize = x.shape[1];
    const TensorArg *meanArg = spec.find("Mean"), *rstdArg = spec.find("Rstd");
    bool checkMean = !rms && meanArg && meanArg->written() && t.count("Mean");
    bool checkRstd = rstdArg && rstdArg->written() && t.count("Rstd");
    OutputCheck oy, om, orr;
    oy.name = "Y";
    om.name = "Mean";
    orr.name = "Rstd";
    for (int64_t i = 0; i < mSize; ++i) {
      double mean = 0, var = 0;
      for (int64_t j = 0; j < nSize; ++j)
        mean += x.get(i * nSize + j);
      mean /= nSize;
      for (int64_t j = 0; j < nSize; ++j) {
        double d = rms ? x.get(i * nSize + j) : x.get(i * nSize + j) - mean;
        var += d * d;
      }
      var /= nSize;
      double rstd = 1 / std::sqrt(var + eps);
      for (int64_t j = 0; j < nSize; ++j) {
        double xhatW =
            (rms ? x.get(i * nSize + j) : x.get(i * nSize + j) - mean) * rstd *
            w.get(j);
        double bias = !rms && b ? b->get(j) : 0;
        double ref = xhatW + bias;
        accumulate(
            oy, i * nSize + j, y.get(i * nSize + j), ref,
            layernormTolerance(ref, xhatW, bias, nSize, refDType(y.dtype)),
            y.isPoison(i * nSize + j));
      }
      double r = rowStatError(nSize);
      if (checkMean)
        accumulate(om, i, t.at("Mean").get(i), mean,
                   r * (std::fabs(mean) + std::sqrt(var + eps)),
                   t.at("Mean").isPoison(i));
      if (checkRstd)
        accumulate(orr, i, t.at("Rstd").get(i), rstd, r * rstd,
                   t.at("Rstd").isPoison(i));
    }
    check.outputs.push_back(oy);
    if (checkMean)
      check.outputs.push_back(om);
    if (checkRstd)
      check.outputs.push_back(orr);
    check.reference = "float64 host reference (RowProblems.cpp)";
    check.rule = "|Y - ref| <= 2 u |ref| + (1e-5 + 4 sqrt(N) u_f32) (|xhat w| "
                 "+ |b|); Mean, Rstd relative (Tolerance.h)";
    check.rowsChecked = check.rowsTotal = mSize;
    return true;
  }
};

} // namespace

std::unique_ptr<Problem> makeSoftmaxProblem(const ProblemOptions &options) {
  return std::make_unique<SoftmaxProblem>(options);
}

std::unique_ptr<Problem> makeLayerNormProblem(const ProblemOptions &options) {
  return std::make_unique<LayerNormProblem>(options);
}

} // namespace runner
} // namespace tile
