//===- GpuBackend.h - tile-runner's gpu backend -----------------*- C++ -*-===//
//
// Loads kernel bundles with the CUDA driver API, runs them on seeded inputs,
// checks the output against the independent GPU reference (reference.cu),
// times them, and autotunes over a folder of variants. Plain C++17 and
// cuda.h: no LLVM or MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNNER_GPUBACKEND_H
#define TILE_RUNNER_GPUBACKEND_H

#include "Options.h"
#include "Report.h"

#include <string>

namespace tile {
namespace runner {

/// Whether CUDA device `ordinal` answers; `why` names it or says what failed.
bool probeGpu(int ordinal, std::string &why);

/// Runs --bundle, or --autotune over --bundles, on the GPU. Check failures go
/// into result.failures; errors that stop the run (no device, a bundle that
/// does not load, a failed launch) are returned, one message.
std::string runOnGpu(const RunnerOptions &options, RunResult &result);

} // namespace runner
} // namespace tile

#endif // TILE_RUNNER_GPUBACKEND_H
