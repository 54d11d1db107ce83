//===- RunFlow.h - the parts of a run both backends share -------*- C++ -*-===//
//
// Filling the report from a bundle and its binding, checking outputs on the
// host (the problem's float64 reference, a reference .npy, or only unwritten
// and non-finite elements), writing --save files, exit statuses.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNNER_RUNFLOW_H
#define TILE_RUNNER_RUNFLOW_H

#include "Options.h"
#include "Prepare.h"
#include "Report.h"

#include <map>
#include <string>

namespace tile {
namespace runner {

constexpr int kExitFailed = 1;
constexpr int kExitError = 2;

/// The shape line and JSON of the run.
void describeShape(const RunnerOptions &options, const Problem *problem,
                   const RunSpec &spec, RunResult &result);
/// The kernel lines from a manifest and a plan.
void describeKernel(const Manifest &m, const std::string &name,
                    const std::string &path, const tilebundle::LaunchPlan &plan,
                    RunResult &result);

/// Checks the outputs in `tensors` on the host: the problem's reference,
/// the --ref files, and every written view for poison and NaN/Inf.
bool checkOnHost(const RunnerOptions &options, const Problem *problem,
                 const Manifest &m, const RunSpec &spec,
                 const std::map<std::string, HostTensor> &tensors,
                 RunResult &result, std::string &error);

/// Counts the unwritten and non-finite elements of the written views.
void countWritten(const RunSpec &spec,
                  const std::map<std::string, HostTensor> &tensors,
                  RunResult &result);

/// Writes the --save views.
bool saveOutputs(const RunnerOptions &options,
                 const std::map<std::string, HostTensor> &tensors,
                 std::string &error);

/// Prints the report (table or JSON); the exit status.
int finish(const RunnerOptions &options, const RunResult &result);
/// Prints an error (and its JSON with --json); returns kExitError.
int reportError(const RunnerOptions &options, const std::string &message);

} // namespace runner
} // namespace tile

#endif // TILE_RUNNER_RUNFLOW_H
