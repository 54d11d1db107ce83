//===- CpuRun.h - a run on the cpu backend ----------------------*- C++ -*-===//
//
// The cpu backend's run: the kernel source on the reference executor,
// checked on the host. Full build only (it links MLIR).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNNER_CPURUN_H
#define TILE_RUNNER_CPURUN_H

#include "RunFlow.h"

namespace tile {
namespace runner {

/// Test options of the cpu backend (see main.cpp).
struct CpuTestOptions {
  std::string dumpOut; ///< raw bytes of the written views, in ABI order
  unsigned threads = 0;
};

int runCpu(const RunnerOptions &options, const Problem *problem,
           const CpuTestOptions &test, RunResult &result);

} // namespace runner
} // namespace tile

#endif // TILE_RUNNER_CPURUN_H
