//===- Options.h - tile-runner's command line -------------------*- C++ -*-===//
//
// Parsing and validation of the runner's options. Every error names the
// option it is about, in one line; main() prints it and exits non-zero.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNNER_OPTIONS_H
#define TILE_RUNNER_OPTIONS_H

#include "Attention.h"
#include "Binding.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tile {
namespace runner {

enum class Backend { Auto, Gpu, Cpu };
const char *backendName(Backend backend);

/// Where the random inputs are made.
enum class InputSource {
  Auto,   ///< host for small problems, device above kAutoDeviceInputElements
  Host,   ///< makeAttentionTensors on the host, copied to the device
  Device, ///< a seeded generator on the GPU (large problems)
};
const char *inputSourceName(InputSource source);

struct RunnerOptions {
  Backend backend = Backend::Auto;

  // gpu
  std::string bundleDir;  ///< --bundle
  std::string bundlesDir; ///< --bundles (autotune)
  int device = 0;
  InputSource inputs = InputSource::Auto;

  // cpu
  std::string kernelPath;          ///< --kernel
  std::vector<std::string> params; ///< --params K=V,...
  std::string pipeline;            ///< --pipeline
  bool pipelineGiven = false;
  /// --max-work: the executor's work limit (0: none; -1: its default,
  /// exec::kDefaultMaxWork).
  int64_t maxWork = -1;

  // the problem
  std::string problem; ///< --problem; "attention" by default, "" for --arg
  std::map<std::string, int64_t> shape; ///< --shape
  std::vector<ArgOverride> args;        ///< --arg
  std::vector<SaveRequest> saves;       ///< --save NAME=FILE
  std::vector<SaveRequest> refs;        ///< --ref NAME=FILE
  double rtol = 1e-3, atol = 1e-5;      ///< --rtol, --atol (for --ref)
  bool attentionFlags = false;          ///< an attention flag was given
  AttentionConfig cfg;

  // checking
  bool check = true;      ///< --no-check turns it off
  int64_t checkRows = -1; ///< -1: automatic, 0: all rows, N: a sample
  bool determinism = false;
  bool allowSpills = false;

  // timing
  bool bench = false;
  int reps = 20;
  int warmup = 3;
  bool flushL2 = true;

  // autotuning
  bool autotune = false;
  std::string autotuneCache; ///< empty: defaultAutotuneCachePath()
  bool printAutotune = false;
  bool retune = false;
  int autotuneReps = 10;
  int autotuneTimeout = 120; ///< seconds a variant may take
  /// Internal: the process times one variant for --autotune and reports it
  /// as JSON (the parent times each variant in its own process).
  bool autotuneChild = false;

  // output
  bool json = false;
  bool verbose = false;
  bool dryRun = false;
  bool help = false;
};

/// Problems with more Q+K+V elements than this make their inputs on the
/// device under --inputs=auto (host generation would dominate the run).
constexpr int64_t kAutoDeviceInputElements = int64_t(1) << 27;
/// Problems with at most this many (query row, key) pairs are checked on
/// every row unless --check-rows says otherwise; larger ones on a sample of
/// kDefaultSampleRows rows.
constexpr int64_t kFullCheckPairs = int64_t(1) << 28;
constexpr int64_t kDefaultSampleRows = 8192;

/// Parses and validates argv; on error returns false with a one-line message
/// that names the option.
bool parseOptions(int argc, const char *const *argv, RunnerOptions &options,
                  std::string &error);

/// The --help text.
std::string usageText();

/// The command line of the child process that times variant `dir` for
/// --autotune: `argv` (the parent's) without the autotuning, checking and
/// output options, plus --bundle DIR --backend=gpu --bench --reps REPS
/// --warmup 2 --json --autotune-child.
std::vector<std::string> autotuneChildArgs(const std::vector<std::string> &argv,
                                           const std::string &self,
                                           const std::string &dir, int reps);

} // namespace runner
} // namespace tile

#endif // TILE_RUNNER_OPTIONS_H
