//===- GpuChecks.h - reference kernels and checks on the GPU ----*- C++ -*-===//
//
// The runner's own kernels (reference.cu, embedded as a fatbin) and the
// checks built on them: poison and NaN/Inf counts of every written view,
// bitwise comparison for determinism, seeded input generation, and each
// problem's independent GPU reference with its tolerance rule (attention:
// FlashAttention's 2x rule on sampled or all query rows; gemm, softmax,
// layernorm: float64 references compared element by element).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNNER_GPUCHECKS_H
#define TILE_RUNNER_GPUCHECKS_H

#include "GpuDevice.h"
#include "Options.h"
#include "Prepare.h"
#include "ReferenceKernels.h"

#include <map>

namespace tile {
namespace runner {

/// The device buffers of a run's views, by name.
using DeviceViews = std::map<std::string, DeviceBuffer>;

struct Reference {
  const CudaApi *api = nullptr;
  Module module;
  CUfunction rows = nullptr, nonFinite16 = nullptr, nonFinite32 = nullptr,
             diff16 = nullptr, fillNormal = nullptr, fillNormal32 = nullptr,
             compare = nullptr, gemm = nullptr, softmax = nullptr,
             layernorm = nullptr;
  DeviceBuffer counter;
  int sms = 1;

  std::string load(const Gpu &gpu);
  /// Launches a grid-stride kernel over n elements.
  std::string launchStride(CUfunction function, int64_t n,
                           std::vector<void *> params);
  /// Counts the elements still holding the poison, and the other NaN/Inf.
  std::string countBad(CUdeviceptr p, DType dtype, int64_t n,
                       uint64_t &poisoned, uint64_t &nonFinite);
  /// Counts differing 16-bit words.
  std::string countDiff16(CUdeviceptr a, CUdeviceptr b, int64_t words,
                          uint64_t &count);
  /// Seeded normal values (f16, bf16 or f32).
  std::string fill(CUdeviceptr p, DType dtype, int64_t n, uint64_t seed,
                   float stddev);
};

/// Poison and NaN/Inf in every written view; failures into `result`.
std::string checkWrittenOnGpu(Reference &ref, const RunSpec &spec,
                              const DeviceViews &views, RunResult &result);

/// The problem's GPU reference check of the outputs in `views`.
std::string checkProblemOnGpu(const Gpu &gpu, Reference &ref,
                              const RunnerOptions &options,
                              const Problem &problem, const Manifest &m,
                              const RunSpec &spec, const DeviceViews &views,
                              RunResult &result);

/// Copies view `name` to the host.
std::string copyToHost(const CudaApi *api, const TensorArg &arg,
                       const DeviceBuffer &buffer, HostTensor &tensor);

} // namespace runner
} // namespace tile

#endif // TILE_RUNNER_GPUCHECKS_H
