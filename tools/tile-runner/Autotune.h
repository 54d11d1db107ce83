//===- Autotune.h - choosing among kernel variants --------------*- C++ -*-===//
//
// The host side of `tile-runner --autotune`: the persistent cache of winners,
// keyed by problem, GPU and compiler, the choice of a winner among the
// timed variants, and the child processes the variants are timed in (a
// kernel that faults loses its CUDA context, which the process cannot
// recover; in a child it takes only itself down).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNNER_AUTOTUNE_H
#define TILE_RUNNER_AUTOTUNE_H

#include "Report.h"

#include <string>
#include <vector>

namespace tile {
namespace runner {

/// The cache key: the problem and its bindings, GPU name, compute
/// capability and the compiler version(s) of the variants.
std::string autotuneKey(const std::string &problem, const std::string &gpuName,
                        int ccMajor, int ccMinor, const std::string &compiler);

/// $XDG_CACHE_HOME/tile-compiler/autotune.json, else
/// ~/.cache/tile-compiler/autotune.json.
std::string defaultAutotuneCachePath();

/// A JSON file {"format": "tile-autotune-1", "entries": {key: entry}}.
class AutotuneCache {
public:
  /// Reads `path`; a missing file is an empty cache, a malformed one an
  /// error.
  bool load(const std::string &path, std::string &error);
  /// Writes the file atomically (temporary file, then rename), creating its
  /// folder.
  bool save(std::string &error) const;
  const Json *lookup(const std::string &key) const;
  void store(const std::string &key, Json entry);
  const std::string &path() const { return filePath; }

private:
  std::string filePath;
  Json root;
};

/// What happened to one variant.
struct VariantOutcome {
  std::string name; ///< bundle folder name
  std::string dir;
  std::string params; ///< summary of its params
  enum class Status {
    Timed,
    Skipped,
    Failed,
    Faulted
  } status = Status::Skipped;
  std::string reason; ///< why skipped or failed
  TimingStats timing;
  double tflops = 0;
};
const char *variantStatusName(VariantOutcome::Status status);

struct AutotuneDecision {
  int winner = -1; ///< index into the outcomes, -1 when none was timed
  std::string why;
};

/// The fastest median wins; `why` compares it with the runner-up and says
/// when the two are within each other's p10..p90 spread.
AutotuneDecision pickWinner(const std::vector<VariantOutcome> &outcomes);

/// The --print-autotune table.
std::string renderAutotuneTable(const std::vector<VariantOutcome> &outcomes,
                                const AutotuneDecision &decision);
Json outcomesToJson(const std::vector<VariantOutcome> &outcomes);

/// Whether a cache entry can be used for this set of variant names; else
/// `why` says what changed.
bool cacheEntryUsable(const Json &entry,
                      const std::vector<std::string> &variantNames,
                      std::string &why);

/// Runs `argv` (argv[0]: the program) in a child process with stdout
/// captured, killing it after `timeoutSeconds`. `exitStatus` is its exit
/// status, or 128 + the signal that ended it; false only when it could not
/// be started.
bool runChild(const std::vector<std::string> &argv, int timeoutSeconds,
              std::string &output, int &exitStatus, bool &timedOut,
              std::string &error);

/// This program's path (/proc/self/exe), to start children of.
std::string selfExecutable();

} // namespace runner
} // namespace tile

#endif // TILE_RUNNER_AUTOTUNE_H
