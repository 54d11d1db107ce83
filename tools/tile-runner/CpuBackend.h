//===- CpuBackend.h - tile-runner's cpu backend -----------------*- C++ -*-===//
//
// Runs a kernel's tile IR on the host with the reference executor
// (lib/Executor). Available only in the full build (it links MLIR); the
// GPU-only build of the runner defines TILE_RUNNER_NO_CPU_BACKEND.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNNER_CPUBACKEND_H
#define TILE_RUNNER_CPUBACKEND_H

#include "Attention.h"

#include <string>
#include <vector>

namespace tile {
namespace runner {

struct CpuRunOptions {
  /// The kernel source, e.g. kernels/fmha.mlir.
  std::string kernelPath;
  /// Parameter bindings "NAME=VALUE" (TILE_M=64, DTYPE=bf16, ...). CAUSAL,
  /// EVEN_K, HEAD_DIM, QUERY_GROUP_SIZE, WITH_LSE and DTYPE are derived from
  /// the AttentionConfig unless given here.
  std::vector<std::string> params;
  /// Textual pass pipeline run after tile-specialize (e.g.
  /// "canonicalize,cse,tile-split-loop"); empty runs none.
  std::string pipeline;
  /// Worker threads over the grid; 0 uses every core. Results are bitwise
  /// the same for any count.
  unsigned threads = 0;
  /// When not empty, the specialized and optimized kernel is written there
  /// before it runs (for debugging a pipeline).
  std::string dumpIrPath;
};

/// Specializes the kernel, runs `pipeline`, then executes it on the grid its
/// grid rule gives: reads tensors.q/k/v, writes tensors.out (and lse).
/// Returns an empty string on success, else a located error message.
std::string runAttentionOnCpu(const CpuRunOptions &options,
                              const AttentionConfig &cfg,
                              AttentionTensors &tensors, double *seconds);

} // namespace runner
} // namespace tile

#endif // TILE_RUNNER_CPUBACKEND_H
