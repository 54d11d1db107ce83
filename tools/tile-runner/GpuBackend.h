//===- GpuBackend.h - tile-runner's gpu backend -----------------*- C++ -*-===//
//
// Loads kernel bundles with the CUDA driver API, binds their arguments by
// name, runs them on seeded inputs with poisoned outputs, checks them
// against the problem's independent GPU reference (reference.cu) or a
// reference .npy, times them, and autotunes over a folder of variants (each
// timed in a child process, so that a faulting kernel does not take the
// others down). Plain C++17 and cuda.h: no LLVM or MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNNER_GPUBACKEND_H
#define TILE_RUNNER_GPUBACKEND_H

#include "Options.h"
#include "Problem.h"
#include "Report.h"

#include <string>
#include <vector>

namespace tile {
namespace runner {

/// Whether CUDA device `ordinal` answers; `why` names it or says what failed.
bool probeGpu(int ordinal, std::string &why);

/// Runs --bundle, or --autotune over --bundles, on the GPU. Check failures go
/// into result.failures, errors that stopped part of the run (a variant that
/// faulted) into result.errors; an error that stops the run (no device, a
/// bundle that does not load, a kernel fault) is returned. `argv` is the
/// command line, for the autotuner's child processes.
std::string runOnGpu(const RunnerOptions &options, const Problem *problem,
                     const std::vector<std::string> &argv, RunResult &result);

/// Chooses the bundle to run (GpuAutotune.cpp): from the cache, or by timing
/// every fitting variant in a child process. Sets `winnerDir` (empty when
/// none could run: a failure is recorded).
std::string autotune(const RunnerOptions &options, const Problem *problem,
                     const std::vector<std::string> &argv, RunResult &result,
                     std::string &winnerDir);

} // namespace runner
} // namespace tile

#endif // TILE_RUNNER_GPUBACKEND_H
