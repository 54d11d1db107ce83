//===- CpuBackend.h - tile-runner's cpu backend -----------------*- C++ -*-===//
//
// Runs a kernel's tile IR on the host with the reference executor
// (lib/Executor): parse, specialize, run a pass pipeline, describe the
// kernel as a bundle manifest would (abi, params, grid, requires), then run
// it on host tensors bound by name. Available only in the full build (it
// links MLIR); the GPU-only build defines TILE_RUNNER_NO_CPU_BACKEND.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNNER_CPUBACKEND_H
#define TILE_RUNNER_CPUBACKEND_H

#include "Binding.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tile {
namespace runner {

struct CpuRunOptions {
  std::string kernelPath;          ///< the kernel source
  std::vector<std::string> params; ///< "NAME=VALUE" bindings
  std::string pipeline;            ///< pass pipeline after tile-specialize
  /// Worker threads over the grid; 0 uses every core. Results are bitwise
  /// the same for any count.
  unsigned threads = 0;
  /// The executor's work limit (--max-work): 0 none, -1 its default
  /// (exec::kDefaultMaxWork).
  int64_t maxWork = -1;
};

/// A problem's parameter bindings for a kernel: given the value of a
/// parameter (the user's binding or the kernel's default, "" when the
/// kernel has none), the bindings the problem implies.
using ImpliedParams = std::function<std::vector<std::string>(
    const std::function<std::string(const std::string &)> &paramValue)>;

class CpuKernel {
public:
  /// Parses, specializes (the user's params, then what `implied` adds for
  /// parameters the kernel declares and the user left out; a user's value
  /// that contradicts one is an error) and describes the kernel.
  static std::unique_ptr<CpuKernel> load(const CpuRunOptions &options,
                                         const ImpliedParams &implied,
                                         std::string &error);
  ~CpuKernel();
  const Manifest &manifest() const;
  /// The bindings used ("TILE_M=64", ...).
  const std::vector<std::string> &bindings() const;
  /// Estimates the work of a run of `spec` before anything is allocated
  /// (Executable::estimateWork): an error naming the estimate and the limit
  /// when it is over the work limit, else "".
  std::string checkWork(const RunSpec &spec) const;
  /// Runs the kernel on `tensors` (by ABI name) with the scalars of `spec`
  /// over the grid its rule gives, stopping at the work limit.
  std::string run(const RunSpec &spec,
                  std::map<std::string, HostTensor> &tensors,
                  double *seconds) const;

  struct State;

private:
  CpuKernel();
  std::unique_ptr<State> state;
};

} // namespace runner
} // namespace tile

#endif // TILE_RUNNER_CPUBACKEND_H
