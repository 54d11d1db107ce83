//===- Autotune.h - choosing among kernel variants --------------*- C++ -*-===//
//
// The host side of `tile-runner --autotune`: the persistent cache of winners,
// keyed by problem, GPU and compiler, and the choice of a winner among the
// timed variants. The timing itself is in the GPU backend.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNNER_AUTOTUNE_H
#define TILE_RUNNER_AUTOTUNE_H

#include "Attention.h"
#include "Json.h"
#include "Report.h"

#include <string>
#include <vector>

namespace tile {
namespace runner {

/// The cache key: shape (B, H, HKV, Sq, Sk, D), dtype, causal, input_pos,
/// lse, GPU name, compute capability and the compiler version(s) of the
/// variants.
std::string autotuneKey(const AttentionConfig &cfg, const std::string &gpuName,
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
  enum class Status { Timed, Skipped, Failed } status = Status::Skipped;
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

} // namespace runner
} // namespace tile

#endif // TILE_RUNNER_AUTOTUNE_H
