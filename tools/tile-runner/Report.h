//===- Report.h - what one tile-runner run found ----------------*- C++ -*-===//
//
// The result of a run, filled by a backend, printed as a table for people or
// as one JSON object (--json) for scripts. Also the timing statistics, the
// attention FLOP count and the row sampling of checks.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNNER_REPORT_H
#define TILE_RUNNER_REPORT_H

#include "Attention.h"
#include "Problem.h"

#include "tile/Bundle/Manifest.h"
#include "tile/Bundle/Target.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tile {
namespace runner {

using Json = nlohmann::ordered_json;

/// Median and spread of timed samples, in milliseconds.
struct TimingStats {
  int samples = 0;
  int warmup = 0;
  bool l2Flushed = false;
  double median = 0, mean = 0, min = 0, max = 0, p10 = 0, p90 = 0;
  Json toJson() const;
  /// "0.1234 ms (p10 0.1220, p90 0.1250, min ..., max ...; 20 samples)".
  std::string str() const;
};
TimingStats computeTimingStats(std::vector<double> samplesMs);

/// Floating-point operations of one attention forward, and the formula used:
/// 4 * B * H * D * (visible query-key pairs). Non-causal: Sq * Sk pairs.
/// Causal with Sq == Sk and input_pos 0: S * S / 2 (FlashAttention's
/// convention). Other causal problems: the exact count of visible pairs.
double attentionFlops(const AttentionConfig &cfg, std::string *formula);

/// The rows (flat indices) a check visits: all when `count` <= 0 or covers
/// them, else `count` rows spread by a stride coprime with the total, plus
/// the first two and the last row of the first and the last group of
/// `groupRows`; sorted, distinct.
std::vector<int64_t> selectCheckRows(int64_t totalRows, int64_t groupRows,
                                     int64_t count);

/// What ptxas or the JIT said about the kernel, and where it came from.
struct PtxasFigures {
  bool present = false;
  tilebundle::PtxasReport report;
  std::string source; ///< "manifest", "JIT log"
  /// The manifest's `ptxas` section (not present when it has none).
  static PtxasFigures fromManifest(const tilebundle::Manifest &m);
};

struct RunResult {
  std::string problem;   ///< "attention", ..., "" for --arg runs
  std::string shapeText; ///< the shape line
  Json shape = Json::object();
  std::string backend;       ///< "gpu", "cpu" (empty: none ran)
  std::string backendReason; ///< why auto chose it
  Json device;
  std::string deviceSummary;

  // The kernel.
  std::string kernelName, kernelPath, loadedFrom;
  std::string target, compiler, entry, pipeline;
  std::string params; ///< "TILE_M=128 ..."
  Json paramsJson = Json::object();
  int numWarps = 0;
  std::array<int64_t, 3> grid = {0, 0, 0};
  std::array<int64_t, 3> block = {0, 0, 0};
  int64_t dynamicShared = 0;
  std::vector<std::string> kernelArgs; ///< dry runs and --verbose
  std::string bindings;                ///< the views and scalars bound

  // Resources (gpu).
  bool haveResources = false;
  int registers = 0, localBytes = 0, staticShared = 0, maxThreadsPerBlock = 0;
  int occupancy = 0, expectedOccupancy = 0;
  PtxasFigures ptxas;

  std::string inputs;      ///< how the inputs were made
  int64_t memoryBytes = 0; ///< what the run needs

  // Timing.
  bool timed = false;
  TimingStats timing;
  double flops = 0;
  std::string flopsFormula;
  double bytesMoved = 0;
  double tflops() const;
  double gbPerSecond() const;

  ProblemCheck check;

  bool determinismChecked = false;
  int64_t differingElements = 0;

  bool writtenChecked = false;
  int64_t badElements = 0; ///< NaN/Inf/unwritten in the written views
  int64_t outputElements = 0;

  Json autotune; ///< the autotune summary, when --autotune ran

  bool dryRun = false;
  std::vector<std::string> notes;
  std::vector<std::string> failures;
  /// Errors that stopped part of the run (a faulting autotune candidate):
  /// the run exits with status 2 even when what ran passed.
  std::vector<std::string> errors;
  bool passed() const { return failures.empty() && errors.empty(); }
};

std::string renderTable(const RunResult &result);
Json resultToJson(const RunResult &result);
/// "B=4 H=32 HKV=32 Sq=1024 Sk=1024 D=128 f16 causal input_pos=0".
std::string shapeSummary(const AttentionConfig &cfg);
Json shapeToJson(const AttentionConfig &cfg);

/// printf-style formatting into a std::string.
std::string format(const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 1, 2)))
#endif
    ;

} // namespace runner
} // namespace tile

#endif // TILE_RUNNER_REPORT_H
