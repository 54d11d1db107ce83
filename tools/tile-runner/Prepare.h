//===- Prepare.h - load bundle, bind, check fit, plan launch ----*- C++ -*-===//
//
// The one place where a run is made ready before any device is touched:
// load the bundle, bind its arguments (problem defaults, then --arg), check
// that the bundle's params fit the binding, plan the launch (requires,
// alignment, grid, parameters: tile/Bundle/Launch.h), check the plan against
// the target's documented limits and the PTX against the manifest. Used by
// --dry-run, the gpu backend and the autotuner alike. Plain C++17.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNNER_PREPARE_H
#define TILE_RUNNER_PREPARE_H

#include "Binding.h"
#include "Options.h"
#include "Problem.h"

#include "tile/Bundle/Bundle.h"

#include <memory>
#include <string>

namespace tile {
namespace runner {

/// The problem options of the command line.
ProblemOptions problemOptions(const RunnerOptions &options);
/// The problem the options name, or null for a run bound with --arg.
std::unique_ptr<Problem> makeRunProblem(const RunnerOptions &options);

/// Binds `manifest`'s arguments: the problem's defaults, then --arg; checks
/// --save and --ref name written views.
bool bindRun(const RunnerOptions &options, const Problem *problem,
             const Manifest &manifest, RunSpec &spec, std::string &error);

struct PreparedRun {
  tilebundle::Bundle bundle;
  RunSpec spec;
  tilebundle::LaunchPlan plan; ///< with null addresses
  std::string ptx;
  tilebundle::PtxInfo ptxInfo;
};

enum class PrepareStatus {
  Ready,
  DoesNotFit, ///< the bundle cannot run this problem (autotune skips it)
  Error,      ///< the bundle or the request is broken
};

PrepareStatus prepareRun(const RunnerOptions &options, const Problem *problem,
                         const std::string &bundleDir, PreparedRun &run,
                         std::string &message);

/// Bytes of device or host memory a run of `spec` needs: its arguments, a
/// second copy of the written views for --determinism, and `extra` (the
/// reference scratch, the L2 flush buffer).
int64_t runMemoryBytes(const RunnerOptions &options, const RunSpec &spec,
                       int64_t extra);

} // namespace runner
} // namespace tile

#endif // TILE_RUNNER_PREPARE_H
