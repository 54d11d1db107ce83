//===- Report.h - what one tile-runner run found ----------------*- C++ -*-===//
//
// The result of a run, filled by a backend, printed as a table for people or
// as one JSON object (--json) for scripts. Also the timing statistics and the
// FLOP count that TFLOPS figures use.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNNER_REPORT_H
#define TILE_RUNNER_REPORT_H

#include "Attention.h"
#include "Bundle.h"
#include "Json.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tile {
namespace runner {

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
/// Statistics of `samplesMs` (linear interpolation between order
/// statistics for the percentiles).
TimingStats computeTimingStats(std::vector<double> samplesMs);

/// Floating-point operations of one attention forward, and the formula used:
/// 4 * B * H * D * (visible query-key pairs). Non-causal: Sq * Sk pairs.
/// Causal with Sq == Sk and input_pos 0: S * S / 2 (FlashAttention's
/// convention, halving). Other causal problems: the exact count of visible
/// pairs, sum over rows i of clamp(input_pos + i + 1, 0, Sk).
double attentionFlops(const AttentionConfig &cfg, std::string *formula);

/// One line per (b, h, i) query row checked, aggregated by the backend.
struct CheckSummary {
  bool done = false;
  CheckResult result;
  int64_t rowsChecked = 0;
  int64_t rowsTotal = 0;
  bool sampled = false;
  bool lseChecked = false;
  std::string lseRule;     ///< what an LSE row must satisfy
  int64_t lseBadRows = -1; ///< rows outside the rule (-1: not counted)
  double atol = 0;
  /// Where the reference came from ("float64 host reference" ...).
  std::string reference;
};

/// The query rows (flat indices (b * H + h) * Sq + i) a check visits: all
/// when `count` <= 0 or covers them, else `count` rows spread over every
/// (b, h) and position by a stride coprime with the total, plus the first two
/// and the last row of the first and the last (b, h); sorted, distinct.
std::vector<int64_t> selectCheckRows(int64_t totalRows, int64_t seqQ,
                                     int64_t count);

struct RunResult {
  AttentionConfig cfg;
  std::string backend;       ///< "gpu", "cpu" (empty: none ran)
  std::string backendReason; ///< why auto chose it
  Json device;               ///< name, compute capability, SMs, driver ...
  std::string deviceSummary;

  // The kernel.
  std::string kernelName; ///< bundle name or kernel file
  std::string kernelPath; ///< bundle folder or kernel file
  std::string loadedFrom; ///< "cubin", "PTX (JIT)", "tile IR (executor)"
  std::string target, compiler, entry, pipeline;
  Json params; ///< object
  int numWarps = 0;
  std::array<int64_t, 3> grid = {0, 0, 0};
  std::array<int64_t, 3> block = {0, 0, 0};
  int64_t dynamicShared = 0;
  std::vector<std::string> kernelArgs; ///< dry runs and --verbose

  // Resources (gpu).
  bool haveResources = false;
  int registers = 0;
  int localBytes = 0;
  int staticShared = 0;
  int maxThreadsPerBlock = 0;
  int occupancy = 0;         ///< active blocks per SM
  int expectedOccupancy = 0; ///< manifest `occupancy`
  PtxasInfo ptxas;           ///< manifest, or the JIT log
  std::string ptxasSource;   ///< "manifest", "JIT log"

  std::string inputs; ///< how the inputs were made

  // Timing.
  bool timed = false;
  TimingStats timing;
  double flops = 0;
  std::string flopsFormula;
  double tflops() const;

  CheckSummary check;

  bool determinismChecked = false;
  int64_t differingElements = 0;

  bool nonFiniteChecked = false;
  int64_t nonFinite = 0; ///< NaN/Inf/unwritten in the whole output (+lse)
  int64_t outputElements = 0;

  Json autotune; ///< the autotune summary, when --autotune ran

  bool dryRun = false;
  std::vector<std::string> notes;
  std::vector<std::string> failures;
  bool passed() const { return failures.empty(); }
};

/// The human-readable table.
std::string renderTable(const RunResult &result);
/// The --json object.
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
