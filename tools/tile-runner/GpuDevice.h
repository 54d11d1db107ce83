//===- GpuDevice.h - the device, its memory and modules ---------*- C++ -*-===//
//
// RAII over the CUDA driver API for tile-runner's gpu backend: the device
// and its primary context, device buffers, loaded modules (cubin, PTX
// through the JIT with its logs, fatbins), launches, and the
// synchronization where kernel faults surface. Plain C++17 and cuda.h.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNNER_GPUDEVICE_H
#define TILE_RUNNER_GPUDEVICE_H

#include "CudaDriver.h"
#include "Report.h"

#include <array>
#include <string>

namespace tile {
namespace runner {

/// Evaluates an expression returning an error string; returns it if not
/// empty.
#define TRY(expr)                                                              \
  do {                                                                         \
    std::string tileTryError_ = (expr);                                        \
    if (!tileTryError_.empty())                                                \
      return tileTryError_;                                                    \
  } while (0)

class DeviceBuffer {
public:
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  DeviceBuffer(DeviceBuffer &&other) noexcept;
  ~DeviceBuffer() { reset(); }
  std::string allocate(const CudaApi *api, size_t size);
  void reset();
  CUdeviceptr get() const { return ptr; }
  size_t size() const { return bytes; }

private:
  const CudaApi *api = nullptr;
  CUdeviceptr ptr = 0;
  size_t bytes = 0;
};

struct Gpu {
  const CudaApi *api = nullptr;
  CUdevice device = 0;
  CUcontext context = nullptr;
  bool retained = false;
  std::string name;
  int ccMajor = 0, ccMinor = 0, sms = 0, l2Bytes = 0, optinShared = 0;
  int maxThreadsPerBlock = 0, regsPerBlock = 0;
  int maxGrid[3] = {0, 0, 0};
  int driverVersion = 0;
  size_t totalMemory = 0;

  Gpu() = default;
  Gpu(const Gpu &) = delete;
  Gpu &operator=(const Gpu &) = delete;
  ~Gpu();
  /// Opens device `ordinal` (with a context unless `withContext` is false:
  /// the autotuner only needs the name and compute capability).
  std::string open(int ordinal, bool withContext = true);
  std::string driverString() const;
  std::string summary() const;
  Json toJson() const;
  /// The device's launch limits.
  tilebundle::LaunchLimits limits() const;
};

/// A loaded module, unloaded on destruction.
struct Module {
  const CudaApi *api = nullptr;
  CUmodule module = nullptr;
  Module() = default;
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;
  ~Module();
};

/// Loads a cubin, PTX or fatbin image with the JIT's error and info logs.
std::string loadImage(const CudaApi *api, const void *image, Module &module,
                      std::string &infoLog, const std::string &what);

std::string launch(const CudaApi *api, CUfunction function,
                   const std::array<int64_t, 3> &grid,
                   const std::array<int64_t, 3> &block, int64_t shared,
                   void **params);

/// Waits for the device; a fault in a kernel surfaces here as an error
/// naming `after` (the launch).
std::string synchronize(const CudaApi *api, const std::string &after);

/// Whether an error message reports a kernel fault that lost the context
/// (illegal address, trap, misaligned access...).
bool isKernelFault(const std::string &message);

/// After a kernel fault every call on the context fails: the process only
/// reports the fault and exits, so the destructors skip their frees.
void markContextLost();
bool contextLost();

std::string firstLine(const std::string &text);

} // namespace runner
} // namespace tile

#endif // TILE_RUNNER_GPUDEVICE_H
