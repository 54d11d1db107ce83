//===- Problem.cpp - built-in problems: registry and shared checks --------===//

#include "Problem.h"

#include "tile/Bundle/Npy.h"
#include "tile/Support/Checked.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace tile {
namespace runner {

std::unique_ptr<Problem> makeAttentionProblem(const ProblemOptions &options);
std::unique_ptr<Problem> makeGemmProblem(const ProblemOptions &options);
std::unique_ptr<Problem> makeSoftmaxProblem(const ProblemOptions &options);
std::unique_ptr<Problem> makeLayerNormProblem(const ProblemOptions &options);

std::unique_ptr<Problem> makeProblem(const std::string &name,
                                     const ProblemOptions &options) {
  if (name == "attention")
    return makeAttentionProblem(options);
  if (name == "gemm")
    return makeGemmProblem(options);
  if (name == "softmax")
    return makeSoftmaxProblem(options);
  if (name == "layernorm")
    return makeLayerNormProblem(options);
  return nullptr;
}

std::string problemNames() { return "attention, gemm, softmax, layernorm"; }

bool parseShape(const std::string &text, std::map<std::string, int64_t> &sizes,
                std::string &error) {
  std::istringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0) {
      error = "--shape takes NAME=SIZE pairs separated by commas, got '" +
              item + "'";
      return false;
    }
    std::string name = item.substr(0, eq), why;
    std::optional<int64_t> v =
        checked::parseInt(item.substr(eq + 1), 1, INT32_MAX, &why);
    if (!v) {
      error = "--shape " + name + ": " + why;
      return false;
    }
    if (sizes.count(name)) {
      error = "--shape " + name + " is given twice";
      return false;
    }
    sizes[name] = *v;
  }
  return true;
}

bool paramFlag(const Manifest &m, const std::string &name, bool fallback) {
  bool b;
  int64_t i;
  if (m.paramBool(name, b))
    return b;
  if (m.paramInt(name, i))
    return i != 0;
  return fallback;
}

int64_t paramInt(const Manifest &m, const std::string &name, int64_t fallback) {
  int64_t i;
  return m.paramInt(name, i) ? i : fallback;
}

void accumulate(OutputCheck &c, int64_t index, double out, double ref,
                double tol, bool poison) {
  ++c.elements;
  if (poison) {
    ++c.unwritten;
    return;
  }
  if (!std::isfinite(out)) {
    ++c.nonFinite;
    return;
  }
  double err = std::fabs(out - ref);
  c.maxError = std::max(c.maxError, err);
  double ratio = tol > 0 ? err / tol : (err > 0 ? INFINITY : 0);
  if (!(err <= tol))
    ++c.violations;
  if (c.worst < 0 || ratio > c.maxRatio) {
    c.maxRatio = ratio;
    c.worst = index;
    c.worstOut = out;
    c.worstRef = ref;
    c.worstTol = tol;
  }
}

void writtenFailures(const std::string &name, int64_t elements,
                     int64_t unwritten, int64_t nonFinite,
                     std::vector<std::string> &failures) {
  std::string of = " of " + std::to_string(elements) + " " + name;
  if (unwritten)
    failures.push_back(std::to_string(unwritten) + of +
                       " elements were never written (they still hold the "
                       "poison)");
  if (nonFinite)
    failures.push_back(std::to_string(nonFinite) + of +
                       " elements are NaN/Inf");
}

void ProblemCheck::finish(uint64_t seed) {
  done = true;
  char buffer[512];
  for (const OutputCheck &c : outputs) {
    writtenFailures(c.name, c.elements, c.unwritten, c.nonFinite, failures);
    if (c.violations) {
      std::snprintf(buffer, sizeof(buffer),
                    "%lld of %lld %s elements exceed the tolerance; worst "
                    "%s[%lld] = %.6g, reference %.6g, |error| %.3e > "
                    "tolerance %.3e (seed %llu)",
                    static_cast<long long>(c.violations),
                    static_cast<long long>(c.elements), c.name.c_str(),
                    c.name.c_str(), static_cast<long long>(c.worst), c.worstOut,
                    c.worstRef, std::fabs(c.worstOut - c.worstRef), c.worstTol,
                    static_cast<unsigned long long>(seed));
      failures.push_back(buffer);
    }
  }
}

double Problem::bytesMoved(const RunSpec &spec) const {
  double bytes = 0;
  for (const TensorArg &t : spec.tensors)
    if (t.access != Access::None)
      bytes += static_cast<double>(t.bytes()) *
               (t.access == Access::ReadWrite ? 2 : 1);
  return bytes;
}

std::string Problem::shapeSummary(const RunSpec &spec) const {
  std::string s;
  for (const auto &size : options.sizes)
    s +=
        (s.empty() ? "" : " ") + size.first + "=" + std::to_string(size.second);
  return s.empty() ? spec.summary() : s;
}

bool checkAgainstNpy(const HostTensor &out, const std::string &name,
                     const std::string &file, double rtol, double atol,
                     OutputCheck &check, std::string &error) {
  tilebundle::NpyArray ref;
  if (!tilebundle::readNpy(file, ref, error))
    return false;
  if (ref.shape != out.shape) {
    std::string a, b;
    for (int64_t s : ref.shape)
      a += (a.empty() ? "" : ", ") + std::to_string(s);
    for (int64_t s : out.shape)
      b += (b.empty() ? "" : ", ") + std::to_string(s);
    error = "--ref " + name + "=" + file + ": the reference has shape [" + a +
            "], " + name + " has [" + b + "]";
    return false;
  }
  check = OutputCheck();
  check.name = name;
  for (int64_t i = 0; i < out.numElements(); ++i) {
    double r = ref.get(i);
    accumulate(check, i, out.get(i), r, atol + rtol * std::fabs(r),
               out.isPoison(i));
  }
  return true;
}

} // namespace runner
} // namespace tile
