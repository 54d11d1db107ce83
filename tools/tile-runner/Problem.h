//===- Problem.h - built-in problems: bindings, references, checks -*- C++ -*-//
//
// A problem knows what a kernel of some ABI computes: it derives the
// bindings of a run from a few sizes (--shape M=1000,N=77,K=65, or the
// attention flags), says whether a bundle's parameters fit them, computes a
// float64 reference on the host (the cpu backend) and names the tolerance
// rule of its check. Its GPU reference lives in reference.cu, launched by
// GpuChecks.cpp. Built in: attention, gemm, softmax, layernorm (ABIs: BRIEF
// contract C5). A run without a problem binds every argument with --arg and
// is checked against a reference .npy (--ref) or only for unwritten and
// non-finite outputs. Plain C++17.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNNER_PROBLEM_H
#define TILE_RUNNER_PROBLEM_H

#include "Attention.h"
#include "Binding.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tile {
namespace runner {

/// The sizes and settings a problem binds from.
struct ProblemOptions {
  std::map<std::string, int64_t> sizes; ///< --shape
  AttentionConfig attention;            ///< the attention flags
  bool attentionFlagsGiven = false;
  uint64_t seed = 1;
  double inputStd = 1;
};

/// The comparison of one output view with its reference.
struct OutputCheck {
  std::string name;
  int64_t elements = 0; ///< compared
  int64_t unwritten = 0;
  int64_t nonFinite = 0;
  int64_t violations = 0; ///< |out - ref| > tol
  double maxError = 0;    ///< max |out - ref|
  double maxRatio = 0;    ///< max |out - ref| / tol
  int64_t worst = -1;     ///< flat index of maxRatio
  double worstOut = 0, worstRef = 0, worstTol = 0;
  bool passed() const {
    return unwritten == 0 && nonFinite == 0 && violations == 0;
  }
};

/// The failures of `elements` elements of view `name` of which `unwritten`
/// still hold the poison and `nonFinite` are NaN/Inf.
void writtenFailures(const std::string &name, int64_t elements,
                     int64_t unwritten, int64_t nonFinite,
                     std::vector<std::string> &failures);

/// Adds one element to `c`.
void accumulate(OutputCheck &c, int64_t index, double out, double ref,
                double tol, bool poison);

/// The attention check's figures (FlashAttention's 2x rule), for the report.
struct AttentionCheckInfo {
  double maxError = 0, lowPrecError = 0, atol = 0, tolerance = 0;
  bool lseChecked = false;
  std::string lseRule;
  double maxLseError = 0;
  int64_t lseBadRows = 0;
  bool sampled = false;
};

/// The outcome of a check.
struct ProblemCheck {
  bool done = false;
  std::string reference; ///< what the reference is
  std::string rule;      ///< the tolerance rule
  int64_t rowsChecked = 0, rowsTotal = 0;
  std::vector<OutputCheck> outputs;
  std::vector<std::string> failures;
  std::vector<std::string> notes;
  bool hasAttention = false;
  AttentionCheckInfo attention;
  bool passed() const { return failures.empty(); }
  /// Turns the outputs into failure messages (names, worst element).
  void finish(uint64_t seed);
};

class Problem {
public:
  explicit Problem(const ProblemOptions &options) : options(options) {}
  virtual ~Problem() = default;
  virtual std::string name() const = 0;
  /// The bindings for `manifest`'s ABI from the options: view shapes and
  /// dtypes, scalar values. Errors name the size or parameter.
  virtual bool bind(const Manifest &manifest, RunSpec &spec,
                    std::string &error) const = 0;
  /// Why the bundle's params do not fit the bound run ("" when they do).
  virtual std::string checkFits(const Manifest &manifest,
                                const RunSpec &spec) const {
    return std::string();
  }
  /// Parameters the cpu backend binds when specializing a kernel source
  /// for this run (attention: HEAD_DIM, CAUSAL, ...).
  virtual std::vector<std::string> impliedParams(
      const std::function<std::string(const std::string &)> &paramValue) const {
    return {};
  }
  /// The float64 host reference and its check of the outputs in `tensors`
  /// (by name), rows in `rows` (all when empty).
  virtual bool checkOnHost(const Manifest &manifest, const RunSpec &spec,
                           const std::map<std::string, HostTensor> &tensors,
                           ProblemCheck &check, std::string &error) const = 0;
  /// Floating-point operations and bytes moved of one run (0: not counted),
  /// with the formula.
  virtual double flops(const Manifest &manifest, const RunSpec &spec,
                       std::string *formula) const {
    return 0;
  }
  virtual double bytesMoved(const RunSpec &spec) const;
  /// "M=1000 N=77 K=65" for reports and the autotune key.
  virtual std::string shapeSummary(const RunSpec &spec) const;

  const ProblemOptions options;
};

/// The built-in problem `name`, or null.
std::unique_ptr<Problem> makeProblem(const std::string &name,
                                     const ProblemOptions &options);
/// "attention, gemm, softmax, layernorm".
std::string problemNames();
/// Parses --shape M=1000,N=77 into sizes.
bool parseShape(const std::string &text, std::map<std::string, int64_t> &sizes,
                std::string &error);

/// Reads a flag-like parameter: a bool, or an integer 0/1; `fallback` when
/// absent.
bool paramFlag(const Manifest &m, const std::string &name, bool fallback);
int64_t paramInt(const Manifest &m, const std::string &name, int64_t fallback);

/// A run checked against a reference .npy (--ref NAME=FILE): elements pass
/// within atol + rtol |ref|.
bool checkAgainstNpy(const HostTensor &out, const std::string &name,
                     const std::string &file, double rtol, double atol,
                     OutputCheck &check, std::string &error);

} // namespace runner
} // namespace tile

#endif // TILE_RUNNER_PROBLEM_H
