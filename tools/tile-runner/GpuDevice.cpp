//===- GpuDevice.cpp - the device, its memory and modules -----------------===//

#include "GpuDevice.h"

#include <cstring>
#include <vector>

namespace tile {
namespace runner {

std::string firstLine(const std::string &text) {
  return text.substr(0, text.find('\n'));
}

DeviceBuffer::DeviceBuffer(DeviceBuffer &&other) noexcept
    : api(other.api), ptr(other.ptr), bytes(other.bytes) {
  other.ptr = 0;
  other.bytes = 0;
}

std::string DeviceBuffer::allocate(const CudaApi *cudaApi, size_t size) {
  reset();
  api = cudaApi;
  bytes = size;
  CU_TRY(cuMemAlloc(&ptr, size ? size : 4));
  return std::string();
}

namespace {
bool lost = false;
} // namespace

void markContextLost() { lost = true; }
bool contextLost() { return lost; }

void DeviceBuffer::reset() {
  if (ptr && !lost)
    CU_WARN(cuMemFree(ptr));
  ptr = 0;
  bytes = 0;
}

Gpu::~Gpu() {
  if (retained && !lost)
    CU_WARN(cuDevicePrimaryCtxRelease(device));
}

std::string Gpu::open(int ordinal, bool withContext) {
  std::string error;
  api = cudaApi(error);
  if (!api)
    return error;
  CU_TRY(cuInit(0));
  int count = 0;
  CU_TRY(cuDeviceGetCount(&count));
  if (ordinal >= count)
    return "--device " + std::to_string(ordinal) + ": the machine has " +
           std::to_string(count) + " CUDA device(s)";
  CU_TRY(cuDeviceGet(&device, ordinal));
  char buffer[256] = {0};
  CU_TRY(cuDeviceGetName(buffer, sizeof(buffer), device));
  name = buffer;
  struct {
    int *value;
    CUdevice_attribute attribute;
  } attributes[] = {
      {&ccMajor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR},
      {&ccMinor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR},
      {&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT},
      {&l2Bytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE},
      {&optinShared, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN},
      {&maxThreadsPerBlock, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK},
      {&regsPerBlock, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK},
      {&maxGrid[0], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X},
      {&maxGrid[1], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y},
      {&maxGrid[2], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z},
  };
  for (auto &a : attributes)
    CU_TRY(cuDeviceGetAttribute(a.value, a.attribute, device));
  CU_TRY(cuDeviceTotalMem(&totalMemory, device));
  CU_TRY(cuDriverGetVersion(&driverVersion));
  if (!withContext)
    return std::string();
  CU_TRY(cuDevicePrimaryCtxRetain(&context, device));
  retained = true;
  CU_TRY(cuCtxSetCurrent(context));
  return std::string();
}

std::string Gpu::driverString() const {
  return std::to_string(driverVersion / 1000) + "." +
         std::to_string(driverVersion % 1000 / 10);
}

std::string Gpu::summary() const {
  return format("%s, CC %d.%d, %d SMs, %d MiB L2, %.0f GiB, driver CUDA %s",
                name.c_str(), ccMajor, ccMinor, sms, l2Bytes >> 20,
                totalMemory / 1073741824.0, driverString().c_str());
}

Json Gpu::toJson() const {
  return {{"name", name},
          {"compute_capability", format("%d.%d", ccMajor, ccMinor)},
          {"sms", sms},
          {"l2_bytes", l2Bytes},
          {"memory_bytes", static_cast<int64_t>(totalMemory)},
          {"driver", driverString()}};
}

tilebundle::LaunchLimits Gpu::limits() const {
  tilebundle::LaunchLimits l;
  l.source = name + " (device " + format("%d.%d", ccMajor, ccMinor) + ")";
  for (int i = 0; i < 3; ++i)
    l.maxGrid[i] = maxGrid[i];
  l.maxThreadsPerBlock = maxThreadsPerBlock;
  l.maxSharedPerBlock = optinShared;
  l.maxRegistersPerBlock = regsPerBlock;
  return l;
}

Module::~Module() {
  if (module && !lost)
    CU_WARN(cuModuleUnload(module));
}

std::string loadImage(const CudaApi *api, const void *image, Module &module,
                      std::string &infoLog, const std::string &what) {
  module.api = api;
  std::vector<char> errorBuffer(size_t(1) << 16, 0);
  std::vector<char> infoBuffer(size_t(1) << 16, 0);
  CUjit_option options[] = {
      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_LOG_VERBOSE};
  void *values[] = {
      errorBuffer.data(),
      reinterpret_cast<void *>(static_cast<uintptr_t>(errorBuffer.size())),
      infoBuffer.data(),
      reinterpret_cast<void *>(static_cast<uintptr_t>(infoBuffer.size())),
      reinterpret_cast<void *>(static_cast<uintptr_t>(1))};
  CUresult status = api->cuModuleLoadDataEx(
      &module.module, image, sizeof(options) / sizeof(options[0]), options,
      values);
  infoLog.assign(infoBuffer.data(),
                 strnlen(infoBuffer.data(), infoBuffer.size()));
  if (status == CUDA_SUCCESS)
    return std::string();
  module.module = nullptr;
  std::string message =
      cudaFailure(status,
                  "cuModuleLoadDataEx(&module, image, 5, options, values)",
                  __FILE__, __LINE__) +
      " loading " + what;
  std::string errorLog(errorBuffer.data(),
                       strnlen(errorBuffer.data(), errorBuffer.size()));
  message += "\nJIT error log:\n" + (errorLog.empty() ? "(empty)" : errorLog);
  message += "\nJIT info log:\n" + (infoLog.empty() ? "(empty)" : infoLog);
  return message;
}

std::string launch(const CudaApi *api, CUfunction function,
                   const std::array<int64_t, 3> &grid,
                   const std::array<int64_t, 3> &block, int64_t shared,
                   void **params) {
  CU_TRY(cuLaunchKernel(
      function, static_cast<unsigned>(grid[0]), static_cast<unsigned>(grid[1]),
      static_cast<unsigned>(grid[2]), static_cast<unsigned>(block[0]),
      static_cast<unsigned>(block[1]), static_cast<unsigned>(block[2]),
      static_cast<unsigned>(shared), nullptr, params, nullptr));
  return std::string();
}

std::string synchronize(const CudaApi *api, const std::string &after) {
  CUresult status = api->cuCtxSynchronize();
  if (status == CUDA_SUCCESS)
    return std::string();
  markContextLost();
  return "kernel fault: " +
         cudaFailure(status, "cuCtxSynchronize()", __FILE__, __LINE__) +
         " after " + after +
         " (the CUDA context is lost; run a small shape under "
         "compute-sanitizer to locate it)";
}

bool isKernelFault(const std::string &message) {
  return message.rfind("kernel fault: ", 0) == 0;
}

} // namespace runner
} // namespace tile
