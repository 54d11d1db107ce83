//===- CudaDriver.h - the CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// tile-runner calls the driver API through this table. By default the table
// is filled from libcuda.so.1 with dlopen, so the runner starts (and its cpu
// backend, --help, --dry-run and the error paths work) on machines with the
// CUDA toolkit but no driver, as CI has; with TILE_RUNNER_LINK_CUDA the
// runner links libcuda directly and the table holds the linked functions.
// Names go through cuda.h's macros, so `api.cuMemAlloc` is the versioned
// entry point (cuMemAlloc_v2) that the header declares.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNNER_CUDADRIVER_H
#define TILE_RUNNER_CUDADRIVER_H

#include <cuda.h>

#include <string>

namespace tile {
namespace runner {

#define TILE_CUDA_FUNCTIONS(X)                                                 \
  X(cuInit)                                                                    \
  X(cuDriverGetVersion)                                                        \
  X(cuGetErrorName)                                                            \
  X(cuGetErrorString)                                                          \
  X(cuDeviceGetCount)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetName)                                                           \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDeviceTotalMem)                                                          \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuDevicePrimaryCtxRelease)                                                 \
  X(cuCtxSetCurrent)                                                           \
  X(cuCtxSynchronize)                                                          \
  X(cuStreamCreate)                                                            \
  X(cuStreamDestroy)                                                           \
  X(cuStreamSynchronize)                                                       \
  X(cuMemAlloc)                                                                \
  X(cuMemFree)                                                                 \
  X(cuMemGetInfo)                                                              \
  X(cuMemcpyHtoD)                                                              \
  X(cuMemcpyDtoH)                                                              \
  X(cuMemsetD16)                                                               \
  X(cuMemsetD32)                                                               \
  X(cuMemsetD32Async)                                                          \
  X(cuModuleLoadDataEx)                                                        \
  X(cuModuleUnload)                                                            \
  X(cuModuleGetFunction)                                                       \
  X(cuFuncGetAttribute)                                                        \
  X(cuFuncSetAttribute)                                                        \
  X(cuFuncGetParamInfo)                                                        \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor)                               \
  X(cuLaunchKernel)                                                            \
  X(cuEventCreate)                                                             \
  X(cuEventDestroy)                                                            \
  X(cuEventRecord)                                                             \
  X(cuEventSynchronize)                                                        \
  X(cuEventElapsedTime)                                                        \
  X(cuTensorMapEncodeTiled)

/// The driver entry points tile-runner uses.
struct CudaApi {
#define TILE_CUDA_DECLARE(name) decltype(&::name) name = nullptr;
  TILE_CUDA_FUNCTIONS(TILE_CUDA_DECLARE)
#undef TILE_CUDA_DECLARE
};

/// The table, loaded on first use; null (and `error` set) when the driver
/// library cannot be loaded or lacks an entry point.
const CudaApi *cudaApi(std::string &error);

/// "file:line: call failed: CUDA_ERROR_NAME (description)".
std::string cudaFailure(CUresult status, const char *call, const char *file,
                        int line);

} // namespace runner
} // namespace tile

/// Evaluates a driver call through `api` (a `const CudaApi *` in scope); on
/// failure returns the located error message from the enclosing function,
/// which returns std::string (empty on success).
#define CU_TRY(call)                                                           \
  do {                                                                         \
    CUresult tileCuStatus_ = api->call;                                        \
    if (tileCuStatus_ != CUDA_SUCCESS)                                         \
      return ::tile::runner::cudaFailure(tileCuStatus_, #call, __FILE__,       \
                                         __LINE__);                            \
  } while (0)

/// Like CU_TRY, for cleanup paths: reports a failure on stderr and goes on.
#define CU_WARN(call)                                                          \
  do {                                                                         \
    CUresult tileCuStatus_ = api->call;                                        \
    if (tileCuStatus_ != CUDA_SUCCESS)                                         \
      ::tile::runner::cudaWarn(tileCuStatus_, #call, __FILE__, __LINE__);      \
  } while (0)

namespace tile {
namespace runner {
void cudaWarn(CUresult status, const char *call, const char *file, int line);
} // namespace runner
} // namespace tile

#endif // TILE_RUNNER_CUDADRIVER_H
