//===- GpuBackend.cpp - tile-runner's gpu backend -------------------------===//
//
// The flow of one run: open the device, load the reference kernels, make the
// inputs, load the bundle (cubin when it matches the device, else its PTX
// through the JIT), check the launch against the kernel (parameter list,
// shared memory, block size), poison the outputs, run once, check every
// element was written and compare with the reference, optionally run again
// for determinism and time it. --autotune times every fitting variant first
// and runs the winner.
//
//===----------------------------------------------------------------------===//

#include "GpuBackend.h"

#include "Autotune.h"
#include "Bundle.h"
#include "CudaDriver.h"
#include "ReferenceKernels.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>

/// The fatbin of reference.cu, embedded at build time (EmbedFile.cmake).
extern "C" {
extern const unsigned char tileRunnerReferenceFatbin[];
extern const unsigned long long tileRunnerReferenceFatbinSize;
}

#define TRY(expr)                                                              \
  do {                                                                         \
    std::string tileTryError_ = (expr);                                        \
    if (!tileTryError_.empty())                                                \
      return tileTryError_;                                                    \
  } while (0)

namespace tile {
namespace runner {
namespace {

/// The log-sum-exp of a row passes within kLseAbs + kLseRel * |ref| (as
/// Attention.cpp's checkAttention); rows that see no key must hold FLT_MAX.
constexpr double kLseAbs = 1e-3;
constexpr double kLseRel = 1e-4;
/// Scratch memory of the reference check, bounding the rows per launch.
constexpr size_t kReferenceScratchBytes = size_t(256) << 20;

std::string firstLine(const std::string &text) {
  return text.substr(0, text.find('\n'));
}

//===----------------------------------------------------------------------===//
// Device, memory, modules
//===----------------------------------------------------------------------===//

class DeviceBuffer {
public:
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  ~DeviceBuffer() { reset(); }

  std::string allocate(const CudaApi *cudaApi, size_t size) {
    reset();
    api = cudaApi;
    bytes = size;
    CU_TRY(cuMemAlloc(&ptr, size ? size : 4));
    return std::string();
  }
  void reset() {
    if (ptr)
      CU_WARN(cuMemFree(ptr));
    ptr = 0;
    bytes = 0;
  }
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
  int maxGrid[3] = {0, 0, 0};
  int driverVersion = 0;
  size_t totalMemory = 0;

  Gpu() = default;
  Gpu(const Gpu &) = delete;
  Gpu &operator=(const Gpu &) = delete;
  ~Gpu() {
    if (retained)
      CU_WARN(cuDevicePrimaryCtxRelease(device));
  }

  std::string open(int ordinal) {
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
        {&maxGrid[0], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X},
        {&maxGrid[1], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y},
        {&maxGrid[2], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z},
    };
    for (auto &a : attributes)
      CU_TRY(cuDeviceGetAttribute(a.value, a.attribute, device));
    CU_TRY(cuDeviceTotalMem(&totalMemory, device));
    CU_TRY(cuDriverGetVersion(&driverVersion));
    CU_TRY(cuDevicePrimaryCtxRetain(&context, device));
    retained = true;
    CU_TRY(cuCtxSetCurrent(context));
    return std::string();
  }

  std::string driverString() const {
    return std::to_string(driverVersion / 1000) + "." +
           std::to_string(driverVersion % 1000 / 10);
  }
  std::string summary() const {
    return format("%s, CC %d.%d, %d SMs, %d MiB L2, %.0f GiB, driver CUDA %s",
                  name.c_str(), ccMajor, ccMinor, sms, l2Bytes >> 20,
                  totalMemory / 1073741824.0, driverString().c_str());
  }
  Json toJson() const {
    Json j = Json::object();
    j.set("name", name);
    j.set("compute_capability", format("%d.%d", ccMajor, ccMinor));
    j.set("sms", sms);
    j.set("l2_bytes", l2Bytes);
    j.set("memory_bytes", static_cast<int64_t>(totalMemory));
    j.set("driver", driverString());
    return j;
  }
};

/// A loaded module, unloaded on destruction.
struct Module {
  const CudaApi *api = nullptr;
  CUmodule module = nullptr;
  Module() = default;
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;
  ~Module() {
    if (module)
      CU_WARN(cuModuleUnload(module));
  }
};

/// Loads a cubin, PTX or fatbin image with the JIT's error and info logs.
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

/// Waits for the device; a fault in a kernel surfaces here.
std::string synchronize(const CudaApi *api, const std::string &after) {
  CUresult status = api->cuCtxSynchronize();
  if (status == CUDA_SUCCESS)
    return std::string();
  return cudaFailure(status, "cuCtxSynchronize()", __FILE__, __LINE__) +
         " after " + after +
         " (a fault in the kernel: the context is lost; run a small shape "
         "under compute-sanitizer to locate it)";
}

//===----------------------------------------------------------------------===//
// The reference kernels
//===----------------------------------------------------------------------===//

struct Reference {
  const CudaApi *api = nullptr;
  Module module;
  CUfunction rows = nullptr, nonFinite16 = nullptr, nonFinite32 = nullptr,
             diff16 = nullptr, fillNormal = nullptr;
  DeviceBuffer counter;
  int sms = 1;

  std::string load(const Gpu &gpu) {
    api = gpu.api;
    sms = gpu.sms;
    std::string log;
    std::string error = loadImage(api, tileRunnerReferenceFatbin, module, log,
                                  "the runner's reference kernels");
    if (!error.empty())
      return error + "\n(the embedded fatbin holds " TILE_RUNNER_CUDA_ARCHS
                     " code; rebuild with TILE_RUNNER_CUDA_ARCHS naming this "
                     "device)";
    struct {
      CUfunction *function;
      const char *name;
    } functions[] = {{&rows, kRefAttentionRows},
                     {&nonFinite16, kRefCountNonFinite16},
                     {&nonFinite32, kRefCountNonFinite32},
                     {&diff16, kRefCountDiff16},
                     {&fillNormal, kRefFillNormal}};
    for (auto &f : functions)
      CU_TRY(cuModuleGetFunction(f.function, module.module, f.name));
    return counter.allocate(api, 2 * sizeof(unsigned long long));
  }

  /// Launches a grid-stride kernel over n elements.
  std::string launchStride(CUfunction function, int64_t n,
                           std::vector<void *> params) {
    int64_t blocks = std::max<int64_t>(
        1, std::min<int64_t>((n + 255) / 256, int64_t(sms) * 16));
    return launch(api, function, {blocks, 1, 1}, {256, 1, 1}, 0, params.data());
  }

  std::string readCounters(uint64_t &first, uint64_t *second = nullptr) {
    unsigned long long v[2] = {0, 0};
    CU_TRY(cuMemcpyDtoH(v, counter.get(), sizeof(v)));
    first = v[0];
    if (second)
      *second = v[1];
    return std::string();
  }

  /// Counts the elements still holding the poison, and the other NaN/Inf.
  std::string countBad16(CUdeviceptr p, int64_t n, bool bf16,
                         uint64_t &poisoned, uint64_t &nonFinite) {
    CU_TRY(cuMemsetD32(counter.get(), 0, 4));
    unsigned mask = bf16 ? 0x7f80u : 0x7c00u;
    unsigned poison = bf16 ? kPoisonBF16 : kPoisonF16;
    CUdeviceptr c = counter.get();
    long long elements = n;
    TRY(launchStride(nonFinite16, n, {&p, &elements, &mask, &poison, &c}));
    TRY(synchronize(api, "the NaN/Inf count"));
    return readCounters(poisoned, &nonFinite);
  }

  std::string countBad32(CUdeviceptr p, int64_t n, uint64_t &poisoned,
                         uint64_t &nonFinite) {
    CU_TRY(cuMemsetD32(counter.get(), 0, 4));
    unsigned poison = kPoisonF32;
    CUdeviceptr c = counter.get();
    long long elements = n;
    TRY(launchStride(nonFinite32, n, {&p, &elements, &poison, &c}));
    TRY(synchronize(api, "the NaN/Inf count"));
    return readCounters(poisoned, &nonFinite);
  }

  std::string countDiff16(CUdeviceptr a, CUdeviceptr b, int64_t n,
                          uint64_t &count) {
    CU_TRY(cuMemsetD32(counter.get(), 0, 4));
    CUdeviceptr c = counter.get();
    long long elements = n;
    TRY(launchStride(diff16, n, {&a, &b, &elements, &c}));
    TRY(synchronize(api, "the determinism comparison"));
    return readCounters(count);
  }

  std::string fill(CUdeviceptr p, int64_t n, uint64_t seed, float stddev,
                   bool bf16) {
    long long elements = n;
    unsigned long long s = seed;
    int isBf16 = bf16;
    TRY(launchStride(fillNormal, n, {&p, &elements, &s, &stddev, &isBf16}));
    return synchronize(api, "the input generator");
  }
};

//===----------------------------------------------------------------------===//
// The problem's buffers
//===----------------------------------------------------------------------===//

struct Problem {
  AttentionConfig cfg;
  int64_t qElems = 0, kvElems = 0, lseElems = 0;
  DeviceBuffer q, k, v, out, lse, out2, lse2, flush;

  AttentionBinding binding(bool second = false) const {
    return bindAttention(cfg, q.get(), k.get(), v.get(),
                         second ? out2.get() : out.get(),
                         second ? lse2.get() : lse.get());
  }
};

std::string allocateProblem(const Gpu &gpu, const RunnerOptions &options,
                            Problem &p) {
  const CudaApi *api = gpu.api;
  const AttentionConfig &cfg = options.cfg;
  p.cfg = cfg;
  p.qElems = int64_t(cfg.batch) * cfg.heads * cfg.seqQ * cfg.headDim;
  p.kvElems = int64_t(cfg.batch) * cfg.kvHeads * cfg.seqK * cfg.headDim;
  p.lseElems = int64_t(cfg.batch) * cfg.heads * cfg.seqQ;
  size_t element = dtypeBytes(cfg.dtype);
  size_t flushBytes =
      options.bench || options.autotune
          ? std::max<size_t>(size_t(2) * gpu.l2Bytes, size_t(64) << 20)
          : 0;
  size_t outputs = p.qElems * element + p.lseElems * 4;
  size_t need = p.qElems * element + 2 * p.kvElems * element + outputs +
                (options.determinism ? outputs : 0) + flushBytes +
                kReferenceScratchBytes;
  size_t freeBytes = 0, totalBytes = 0;
  CU_TRY(cuMemGetInfo(&freeBytes, &totalBytes));
  if (need > freeBytes)
    return format("the problem needs %.2f GiB of device memory (inputs, "
                  "outputs, reference scratch), %.2f GiB are free",
                  need / 1073741824.0, freeBytes / 1073741824.0);
  TRY(p.q.allocate(api, p.qElems * element));
  TRY(p.k.allocate(api, p.kvElems * element));
  TRY(p.v.allocate(api, p.kvElems * element));
  TRY(p.out.allocate(api, p.qElems * element));
  TRY(p.lse.allocate(api, p.lseElems * 4));
  if (options.determinism) {
    TRY(p.out2.allocate(api, p.qElems * element));
    TRY(p.lse2.allocate(api, p.lseElems * 4));
  }
  if (flushBytes)
    TRY(p.flush.allocate(api, flushBytes));
  return std::string();
}

std::string makeInputs(const Gpu &gpu, Reference &ref,
                       const RunnerOptions &options, Problem &p,
                       std::string &description) {
  const CudaApi *api = gpu.api;
  const AttentionConfig &cfg = p.cfg;
  InputSource source = options.inputs;
  if (source == InputSource::Auto)
    source = p.qElems + 2 * p.kvElems > kAutoDeviceInputElements
                 ? InputSource::Device
                 : InputSource::Host;
  bool bf16 = cfg.dtype == DType::BF16;
  if (source == InputSource::Device) {
    // Distinct streams of the generator for Q, K and V.
    uint64_t base = cfg.seed * 0x9e3779b97f4a7c15ull;
    TRY(ref.fill(p.q.get(), p.qElems, base ^ 0x51ull, cfg.inputStd, bf16));
    TRY(ref.fill(p.k.get(), p.kvElems, base ^ 0x4bull, cfg.inputStd, bf16));
    TRY(ref.fill(p.v.get(), p.kvElems, base ^ 0x56ull, cfg.inputStd, bf16));
    description =
        format("device: seeded normal generator (seed %llu, std "
               "%g)%s",
               static_cast<unsigned long long>(cfg.seed), cfg.inputStd,
               options.inputs == InputSource::Auto
                   ? "; large problem, --inputs host for "
                     "makeAttentionTensors"
                   : "");
    return std::string();
  }
  AttentionTensors tensors = makeAttentionTensors(cfg);
  struct {
    const HostTensor *tensor;
    const DeviceBuffer *buffer;
    const char *name;
  } copies[] = {{&tensors.q, &p.q, "Q"},
                {&tensors.k, &p.k, "K"},
                {&tensors.v, &p.v, "V"}};
  for (auto &c : copies) {
    if (c.tensor->sizeBytes() != c.buffer->size())
      return format("makeAttentionTensors made %s with %zu bytes, the runner "
                    "expected %zu",
                    c.name, c.tensor->sizeBytes(), c.buffer->size());
    CU_TRY(
        cuMemcpyHtoD(c.buffer->get(), c.tensor->data(), c.tensor->sizeBytes()));
  }
  description = format("host: makeAttentionTensors (seed %llu, std %g)",
                       static_cast<unsigned long long>(cfg.seed), cfg.inputStd);
  return std::string();
}

/// Fills Out and Lse with the poison NaNs, so that elements the kernel does
/// not write are caught.
std::string poisonOutputs(const CudaApi *api, const Problem &p, bool second) {
  const DeviceBuffer &out = second ? p.out2 : p.out;
  const DeviceBuffer &lse = second ? p.lse2 : p.lse;
  unsigned short poison16 = static_cast<unsigned short>(
      p.cfg.dtype == DType::BF16 ? kPoisonBF16 : kPoisonF16);
  CU_TRY(cuMemsetD16(out.get(), poison16, p.qElems));
  CU_TRY(cuMemsetD32(lse.get(), kPoisonF32, p.lseElems));
  return std::string();
}

//===----------------------------------------------------------------------===//
// The kernel under test
//===----------------------------------------------------------------------===//

struct LoadedKernel {
  Module module;
  CUfunction function = nullptr;
  std::string loadedFrom;
  std::string jitInfoLog;
  PtxasInfo ptxas;
  std::string ptxasSource;
  int registers = 0, localBytes = 0, staticShared = 0, maxThreads = 0;
  int occupancy = 0;
};

std::string loadKernel(const Gpu &gpu, const Manifest &m,
                       const KernelArgs &args, LoadedKernel &k,
                       std::vector<std::string> &notes) {
  const CudaApi *api = gpu.api;
  std::string ptx, error;
  PtxInfo info;
  if (!checkBundlePtx(m, args, ptx, info, error))
    return error;
  SmTarget target;
  parseSmTarget(m.target, target);
  std::string why;
  if (!ptxTargetRunsOn(target, gpu.ccMajor, gpu.ccMinor, why))
    return "bundle " + m.name() + " cannot run on " + gpu.name + ": " + why;

  bool loaded = false;
  if (!m.cubinFile.empty()) {
    if (cubinTargetRunsOn(target, gpu.ccMajor, gpu.ccMinor)) {
      std::string cubin, log;
      if (!readFile(m.cubinPath(), cubin, error)) {
        notes.push_back("cannot read the cubin (" + error +
                        "); JIT-compiling the PTX");
      } else {
        error = loadImage(api, cubin.data(), k.module, log, m.cubinPath());
        if (error.empty()) {
          loaded = true;
          k.loadedFrom = "cubin";
        } else {
          notes.push_back("the cubin did not load (" + firstLine(error) +
                          "); JIT-compiling the PTX");
        }
      }
    } else {
      notes.push_back(format("the cubin is %s code, which does not run on CC "
                             "%d.%d; JIT-compiling the PTX",
                             target.str().c_str(), gpu.ccMajor, gpu.ccMinor));
    }
  }
  if (!loaded) {
    error = loadImage(api, ptx.c_str(), k.module, k.jitInfoLog, m.ptxPath());
    if (!error.empty()) {
      if (error.find("CUDA_ERROR_UNSUPPORTED_PTX_VERSION") != std::string::npos)
        error += "\n(the PTX is .version " + info.version +
                 "; the driver, CUDA " + gpu.driverString() +
                 ", is too old for it)";
      return error;
    }
    k.loadedFrom = "PTX (JIT)";
    PtxasInfo jit;
    if (parsePtxasLog(k.jitInfoLog, m.entry, jit)) {
      k.ptxas = jit;
      k.ptxasSource = "JIT log";
    }
  }
  if (!k.ptxas.present && m.ptxas.present) {
    k.ptxas = m.ptxas;
    k.ptxasSource = "manifest";
  }
  CU_TRY(cuModuleGetFunction(&k.function, k.module.module, m.entry.c_str()));
  CU_TRY(
      cuFuncGetAttribute(&k.registers, CU_FUNC_ATTRIBUTE_NUM_REGS, k.function));
  CU_TRY(cuFuncGetAttribute(&k.localBytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES,
                            k.function));
  CU_TRY(cuFuncGetAttribute(&k.staticShared,
                            CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, k.function));
  CU_TRY(cuFuncGetAttribute(
      &k.maxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, k.function));
  return std::string();
}

/// Checks the expanded abi against the parameter list the module declares.
std::string verifyParameters(const CudaApi *api, CUfunction function,
                             const KernelArgs &args,
                             std::vector<std::string> &notes) {
  const char *skip = std::getenv("TILE_RUNNER_NO_PARAM_CHECK");
  if (skip && *skip && std::string(skip) != "0") {
    notes.push_back("parameter list not verified with the driver "
                    "(TILE_RUNNER_NO_PARAM_CHECK)");
    return std::string();
  }
  if (!api->cuFuncGetParamInfo) {
    notes.push_back("parameter list checked against the PTX only (the driver "
                    "has no cuFuncGetParamInfo)");
    return std::string();
  }
  // Query exactly the parameters the ABI expands to: probing past the last
  // one returns CUDA_ERROR_INVALID_VALUE, which compute-sanitizer reports as
  // an API error. A kernel with more parameters is caught by the PTX check.
  size_t count = 0;
  for (; count < args.count(); ++count) {
    size_t offset = 0, size = 0;
    CUresult status = api->cuFuncGetParamInfo(function, count, &offset, &size);
    if (status == CUDA_ERROR_INVALID_VALUE)
      break;
    if (status != CUDA_SUCCESS) {
      notes.push_back(
          "parameter list not verified: " +
          cudaFailure(status, "cuFuncGetParamInfo(...)", __FILE__, __LINE__));
      return std::string();
    }
    if (size != static_cast<size_t>(args.sizes[count]))
      return format("the kernel's parameter %zu is %zu bytes, but the "
                    "manifest abi puts %s (%d bytes) there",
                    count, size, args.descriptions[count].c_str(),
                    args.sizes[count]);
  }
  if (count != args.count())
    return format("the kernel takes %zu parameters, but the manifest abi "
                  "expands to %zu (a view of rank R is 1 + 2R parameters, a "
                  "scalar one)",
                  count, args.count());
  return std::string();
}

/// Shared memory, block size, grid limits, parameter list and occupancy.
std::string prepareLaunch(const Gpu &gpu, LoadedKernel &k, LaunchPlan &plan,
                          std::vector<std::string> &notes) {
  const CudaApi *api = gpu.api;
  int64_t threads = plan.block[0] * plan.block[1] * plan.block[2];
  if (threads > k.maxThreads)
    return format("the bundle's block has %lld threads, but the kernel "
                  "allows at most %d (it uses %d registers)",
                  static_cast<long long>(threads), k.maxThreads, k.registers);
  int64_t dynamic = plan.sharedBytes;
  if (k.staticShared + dynamic > gpu.optinShared)
    return format("the kernel needs %d B static + %lld B dynamic shared "
                  "memory; %s allows at most %d B per block",
                  k.staticShared, static_cast<long long>(dynamic),
                  gpu.name.c_str(), gpu.optinShared);
  if (dynamic > 48 * 1024)
    CU_TRY(cuFuncSetAttribute(k.function,
                              CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                              static_cast<int>(dynamic)));
  static const char *axes = "xyz";
  for (int i = 0; i < 3; ++i)
    if (plan.grid[i] > gpu.maxGrid[i])
      return format("grid.%c = %lld exceeds the device's limit %d", axes[i],
                    static_cast<long long>(plan.grid[i]), gpu.maxGrid[i]);
  TRY(verifyParameters(api, k.function, plan.args, notes));
  CU_TRY(cuOccupancyMaxActiveBlocksPerMultiprocessor(
      &k.occupancy, k.function, static_cast<int>(threads),
      static_cast<size_t>(dynamic)));
  if (k.occupancy < 1)
    return "the kernel cannot be resident on a multiprocessor with this block "
           "and shared memory (occupancy 0)";
  return std::string();
}

std::string runOnce(const Gpu &gpu, LoadedKernel &k, LaunchPlan &plan,
                    const std::string &what) {
  TRY(launch(gpu.api, k.function, plan.grid, plan.block, plan.sharedBytes,
             plan.args.params()));
  return synchronize(gpu.api, what);
}

std::string timeKernel(const Gpu &gpu, LoadedKernel &k, LaunchPlan &plan,
                       const Problem &p, int warmup, int reps, bool flushL2,
                       TimingStats &stats) {
  const CudaApi *api = gpu.api;
  for (int i = 0; i < warmup; ++i)
    TRY(launch(api, k.function, plan.grid, plan.block, plan.sharedBytes,
               plan.args.params()));
  TRY(synchronize(api, "the warm-up launches"));
  CUevent start = nullptr, stop = nullptr;
  CU_TRY(cuEventCreate(&start, CU_EVENT_DEFAULT));
  CUresult status = api->cuEventCreate(&stop, CU_EVENT_DEFAULT);
  if (status != CUDA_SUCCESS) {
    CU_WARN(cuEventDestroy(start));
    return cudaFailure(status, "cuEventCreate(&stop, CU_EVENT_DEFAULT)",
                       __FILE__, __LINE__);
  }
  std::vector<double> samples;
  std::string error;
  auto sample = [&]() -> std::string {
    if (flushL2 && p.flush.size())
      CU_TRY(cuMemsetD32Async(p.flush.get(), samples.size() + 1,
                              p.flush.size() / 4, nullptr));
    CU_TRY(cuEventRecord(start, nullptr));
    TRY(launch(api, k.function, plan.grid, plan.block, plan.sharedBytes,
               plan.args.params()));
    CU_TRY(cuEventRecord(stop, nullptr));
    CUresult s = api->cuEventSynchronize(stop);
    if (s != CUDA_SUCCESS)
      return cudaFailure(s, "cuEventSynchronize(stop)", __FILE__, __LINE__) +
             " (a fault in the kernel while timing)";
    float ms = 0;
    CU_TRY(cuEventElapsedTime(&ms, start, stop));
    samples.push_back(ms);
    return std::string();
  };
  for (int i = 0; i < reps && error.empty(); ++i)
    error = sample();
  CU_WARN(cuEventDestroy(start));
  CU_WARN(cuEventDestroy(stop));
  if (!error.empty())
    return error;
  stats = computeTimingStats(samples);
  stats.warmup = warmup;
  stats.l2Flushed = flushL2 && p.flush.size();
  return std::string();
}

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

bool bundleWritesLse(const Manifest &m) {
  bool withLse = false;
  m.paramBool("WITH_LSE", withLse);
  return withLse;
}

/// Every output element written, none NaN/Inf.
std::string checkWritten(Reference &ref, const Problem &p, bool withLse,
                         RunResult &result) {
  uint64_t unwritten = 0, nonFinite = 0, lseUnwritten = 0, lseNonFinite = 0;
  TRY(ref.countBad16(p.out.get(), p.qElems, p.cfg.dtype == DType::BF16,
                     unwritten, nonFinite));
  if (withLse)
    TRY(ref.countBad32(p.lse.get(), p.lseElems, lseUnwritten, lseNonFinite));
  result.nonFiniteChecked = true;
  result.outputElements = p.qElems + (withLse ? p.lseElems : 0);
  result.nonFinite =
      static_cast<int64_t>(unwritten + nonFinite + lseUnwritten + lseNonFinite);
  auto report = [&](uint64_t count, int64_t of, const char *what) {
    if (count)
      result.failures.push_back(format("%llu of %lld %s",
                                       static_cast<unsigned long long>(count),
                                       static_cast<long long>(of), what));
  };
  report(unwritten, p.qElems,
         "output elements were never written (they still hold the poison)");
  report(nonFinite, p.qElems, "output elements are NaN/Inf");
  report(lseUnwritten, p.lseElems,
         "log-sum-exp values were never written (WITH_LSE bundle)");
  report(lseNonFinite, p.lseElems, "log-sum-exp values are NaN/Inf");
  return std::string();
}

/// FlashAttention's 2x rule on the selected rows, against reference.cu.
std::string checkAgainstReference(const Gpu &gpu, Reference &ref,
                                  const RunnerOptions &options,
                                  const Problem &p, RunResult &result) {
  const CudaApi *api = gpu.api;
  const AttentionConfig &cfg = p.cfg;
  const int64_t totalRows = p.lseElems;
  int64_t count = options.checkRows;
  if (count < 0)
    count = totalRows * cfg.seqK <= kFullCheckPairs ? 0 : kDefaultSampleRows;
  std::vector<int64_t> rows = selectCheckRows(totalRows, cfg.seqQ, count);
  const int64_t numRows = static_cast<int64_t>(rows.size());

  DeviceBuffer rowBuffer, scratch, statsBuffer;
  int64_t chunk = std::max<int64_t>(
      1, std::min<int64_t>(numRows,
                           kReferenceScratchBytes / (size_t(8) * cfg.seqK)));
  TRY(rowBuffer.allocate(api, rows.size() * sizeof(int64_t)));
  TRY(scratch.allocate(api, size_t(chunk) * 2 * cfg.seqK * sizeof(float)));
  TRY(statsBuffer.allocate(api, size_t(chunk) * sizeof(RowStats)));
  CU_TRY(cuMemcpyHtoD(rowBuffer.get(), rows.data(),
                      rows.size() * sizeof(int64_t)));

  std::vector<RowStats> stats(rows.size());
  CUdeviceptr q = p.q.get(), k = p.k.get(), v = p.v.get(), out = p.out.get(),
              lse = p.lse.get(), scratchPtr = scratch.get(),
              statsPtr = statsBuffer.get();
  int isBf16 = cfg.dtype == DType::BF16, heads = cfg.heads,
      kvHeads = cfg.kvHeads, seqQ = cfg.seqQ, seqK = cfg.seqK,
      headDim = cfg.headDim, causal = cfg.causal, inputPos = cfg.inputPos,
      checkLse = cfg.withLse;
  float scale = cfg.effectiveScale();
  for (int64_t first = 0; first < numRows; first += chunk) {
    int64_t n = std::min(chunk, numRows - first);
    CUdeviceptr rowPtr = rowBuffer.get() + first * sizeof(int64_t);
    void *params[] = {&q,       &k,          &v,        &out,   &lse,
                      &isBf16,  &heads,      &kvHeads,  &seqQ,  &seqK,
                      &headDim, &causal,     &inputPos, &scale, &checkLse,
                      &rowPtr,  &scratchPtr, &statsPtr};
    TRY(launch(api, ref.rows, {n, 1, 1}, {kRefRowThreads, 1, 1},
               int64_t(cfg.headDim) * sizeof(float), params));
    TRY(synchronize(api, "the reference kernel"));
    CU_TRY(cuMemcpyDtoH(stats.data() + first, statsBuffer.get(),
                        n * sizeof(RowStats)));
  }

  CheckSummary &c = result.check;
  CheckResult &cr = c.result;
  c.done = true;
  c.rowsChecked = numRows;
  c.rowsTotal = totalRows;
  c.sampled = numRows < totalRows;
  c.lseChecked = cfg.withLse;
  c.lseRule = format("|lse - ref| <= %g + %g |ref|; FLT_MAX where no key",
                     kLseAbs, kLseRel);
  c.reference = std::string("GPU naive attention (reference.cu): fp32 "
                            "scores, fp64 softmax sums; low-precision twin "
                            "in ") +
                dtypeName(cfg.dtype);
  double atolTerm = 0;
  int64_t nonFinite = 0, nonZeroEmpty = 0, lseBad = 0;
  for (int64_t i = 0; i < numRows; ++i) {
    const RowStats &s = stats[i];
    if (s.worstColumn >= 0 && (cr.worstIndex < 0 || s.maxError > cr.maxError)) {
      cr.maxError = s.maxError;
      cr.worstIndex = rows[i] * cfg.headDim + s.worstColumn;
    }
    cr.lowPrecError = std::max<double>(cr.lowPrecError, s.maxLowPrec);
    atolTerm = std::max<double>(atolTerm, s.maxAtolTerm);
    if (cfg.withLse) {
      if (s.visibleKeys)
        cr.maxLseError = std::max<double>(cr.maxLseError, s.lseError);
      if (!(s.lseError <= kLseAbs + kLseRel * std::fabs(s.lseRef)))
        ++lseBad;
    }
    nonFinite += s.nonFinite;
    nonZeroEmpty += s.nonZeroEmpty;
  }
  c.lseBadRows = lseBad;
  cr.nonFinite = nonFinite;
  c.atol = 2 * atolTerm;
  cr.tolerance = 2 * cr.lowPrecError + c.atol;
  if (!std::isfinite(cr.lowPrecError)) {
    cr.tolerance = 1e-2 + c.atol;
    result.notes.push_back(
        "the low-precision reference overflowed (inputs too large for the "
        "dtype); the tolerance falls back to 1e-2 + atol");
  }
  cr.passed = cr.maxError <= cr.tolerance && nonFinite == 0 &&
              nonZeroEmpty == 0 && lseBad == 0;
  if (cr.maxError > cr.tolerance) {
    int64_t flat = cr.worstIndex, d = flat % cfg.headDim;
    int64_t row = flat / cfg.headDim, i = row % cfg.seqQ,
            h = (row / cfg.seqQ) % cfg.heads,
            b = row / (int64_t(cfg.seqQ) * cfg.heads);
    cr.message = format("max|out - ref| = %.4e at Out[%lld, %lld, %lld, %lld] "
                        "exceeds the tolerance %.4e (seed %llu)",
                        cr.maxError, static_cast<long long>(b),
                        static_cast<long long>(h), static_cast<long long>(i),
                        static_cast<long long>(d), cr.tolerance,
                        static_cast<unsigned long long>(cfg.seed));
    result.failures.push_back(cr.message);
  }
  auto fail = [&](const std::string &m) {
    if (cr.message.empty())
      cr.message = m;
    result.failures.push_back(m);
  };
  if (nonZeroEmpty)
    fail(format("%lld output elements are nonzero in rows that see no key "
                "(they must be exactly 0; seed %llu)",
                static_cast<long long>(nonZeroEmpty),
                static_cast<unsigned long long>(cfg.seed)));
  if (lseBad)
    fail(format("%lld log-sum-exp rows are off (max error %.4e; %s; seed "
                "%llu)",
                static_cast<long long>(lseBad), cr.maxLseError,
                c.lseRule.c_str(), static_cast<unsigned long long>(cfg.seed)));
  return std::string();
}

std::string checkDeterminism(const Gpu &gpu, Reference &ref, const Manifest &m,
                             LoadedKernel &k, Problem &p, RunResult &result) {
  TRY(poisonOutputs(gpu.api, p, /*second=*/true));
  LaunchPlan plan;
  std::string error;
  if (!planLaunch(m, p.binding(/*second=*/true), plan, error))
    return error;
  TRY(runOnce(gpu, k, plan, "the second run (determinism)"));
  uint64_t diff = 0, diffLse = 0;
  TRY(ref.countDiff16(p.out.get(), p.out2.get(), p.qElems, diff));
  if (bundleWritesLse(m))
    TRY(ref.countDiff16(p.lse.get(), p.lse2.get(), p.lseElems * 2, diffLse));
  result.determinismChecked = true;
  result.differingElements = static_cast<int64_t>(diff + (diffLse + 1) / 2);
  if (result.differingElements)
    result.failures.push_back(
        format("not deterministic: %llu output elements (and %llu lse "
               "halves) differ between two runs on the same inputs",
               static_cast<unsigned long long>(diff),
               static_cast<unsigned long long>(diffLse)));
  return std::string();
}

//===----------------------------------------------------------------------===//
// One bundle, autotuning
//===----------------------------------------------------------------------===//

void describeKernel(const Manifest &m, const LoadedKernel &k,
                    const LaunchPlan &plan, RunResult &r) {
  r.kernelName = m.name();
  r.kernelPath = m.dir;
  r.loadedFrom = k.loadedFrom;
  r.target = m.target;
  r.compiler = m.compiler;
  r.entry = m.entry;
  r.pipeline = m.pipeline;
  r.params = m.params;
  r.numWarps = m.numWarps;
  r.grid = plan.grid;
  r.block = plan.block;
  r.dynamicShared = plan.sharedBytes;
  r.haveResources = true;
  r.registers = k.registers;
  r.localBytes = k.localBytes;
  r.staticShared = k.staticShared;
  r.maxThreadsPerBlock = k.maxThreads;
  r.occupancy = k.occupancy;
  r.expectedOccupancy = m.occupancy;
  r.ptxas = k.ptxas;
  r.ptxasSource = k.ptxasSource;
}

std::string runBundle(const Gpu &gpu, Reference &ref,
                      const RunnerOptions &options, const std::string &dir,
                      Problem &p, RunResult &result) {
  Manifest m;
  std::string error;
  if (!loadBundle(dir, m, error))
    return error;
  std::string fit = checkBundleFits(m, p.cfg);
  if (!fit.empty())
    return "bundle " + m.name() + " does not fit the problem: " + fit;
  LaunchPlan plan;
  if (!planLaunch(m, p.binding(), plan, error))
    return "bundle " + m.name() + ": " + error;
  LoadedKernel k;
  TRY(loadKernel(gpu, m, plan.args, k, result.notes));
  TRY(prepareLaunch(gpu, k, plan, result.notes));
  describeKernel(m, k, plan, result);
  if (options.verbose) {
    result.kernelArgs = plan.args.descriptions;
    if (!k.jitInfoLog.empty())
      std::fprintf(stderr, "JIT info log for %s:\n%s\n", m.name().c_str(),
                   k.jitInfoLog.c_str());
  }
  if (k.ptxas.spills() && !options.allowSpills)
    result.failures.push_back(format(
        "the kernel spills registers (%lld B stores, %lld B loads, %s); "
        "--allow-spills accepts that",
        static_cast<long long>(k.ptxas.spillStores),
        static_cast<long long>(k.ptxas.spillLoads), k.ptxasSource.c_str()));
  else if (!k.ptxas.present && k.localBytes > 0)
    result.notes.push_back(format("the kernel uses %d B of local memory per "
                                  "thread (spills or a stack array)",
                                  k.localBytes));
  if (m.occupancy && k.occupancy < m.occupancy)
    result.notes.push_back(format("occupancy %d block(s)/SM is below the %d "
                                  "the manifest asks for",
                                  k.occupancy, m.occupancy));

  TRY(poisonOutputs(gpu.api, p, false));
  TRY(runOnce(gpu, k, plan, "the kernel " + m.entry));
  bool withLse = bundleWritesLse(m);
  TRY(checkWritten(ref, p, withLse, result));
  if (options.check)
    TRY(checkAgainstReference(gpu, ref, options, p, result));
  if (options.determinism)
    TRY(checkDeterminism(gpu, ref, m, k, p, result));
  if (options.bench) {
    TRY(timeKernel(gpu, k, plan, p, options.warmup, options.reps,
                   options.flushL2, result.timing));
    result.timed = true;
    result.flops = attentionFlops(p.cfg, &result.flopsFormula);
  }
  return std::string();
}

std::string nowUtc() {
  std::time_t t = std::time(nullptr);
  char buffer[32];
  std::strftime(buffer, sizeof(buffer), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buffer;
}

/// Times one variant; a skip or a load failure is an outcome, a fault in a
/// launch (which loses the context) an error.
std::string tuneVariant(const Gpu &gpu, Reference &ref,
                        const RunnerOptions &options, Problem &p,
                        const Manifest &m, VariantOutcome &o) {
  o.params = m.paramsSummary();
  o.status = VariantOutcome::Status::Skipped;
  std::string fit = checkBundleFits(m, p.cfg);
  if (!fit.empty()) {
    o.reason = "does not fit: " + fit;
    return std::string();
  }
  if (m.ptxas.spills()) {
    o.reason = format("ptxas reports spills (%lld B stores, %lld B loads)",
                      static_cast<long long>(m.ptxas.spillStores),
                      static_cast<long long>(m.ptxas.spillLoads));
    return std::string();
  }
  LaunchPlan plan;
  std::string error;
  if (!planLaunch(m, p.binding(), plan, error)) {
    o.reason = error;
    return std::string();
  }
  LoadedKernel k;
  std::vector<std::string> notes;
  error = loadKernel(gpu, m, plan.args, k, notes);
  if (error.empty())
    error = prepareLaunch(gpu, k, plan, notes);
  if (!error.empty()) {
    o.status = VariantOutcome::Status::Failed;
    o.reason = "does not load: " + firstLine(error);
    if (options.verbose)
      std::fprintf(stderr, "%s\n", error.c_str());
    return std::string();
  }
  if (k.ptxas.spills()) {
    o.reason = format("spills (%lld B stores, %lld B loads, %s)",
                      static_cast<long long>(k.ptxas.spillStores),
                      static_cast<long long>(k.ptxas.spillLoads),
                      k.ptxasSource.c_str());
    return std::string();
  }
  TRY(poisonOutputs(gpu.api, p, false));
  error = runOnce(gpu, k, plan, "variant " + m.name());
  if (!error.empty())
    return "autotune: variant " + m.name() + " faulted: " + error;
  uint64_t unwritten = 0, nonFinite = 0;
  TRY(ref.countBad16(p.out.get(), p.qElems, p.cfg.dtype == DType::BF16,
                     unwritten, nonFinite));
  if (unwritten || nonFinite) {
    o.status = VariantOutcome::Status::Failed;
    o.reason = format("%llu output elements never written, %llu NaN/Inf",
                      static_cast<unsigned long long>(unwritten),
                      static_cast<unsigned long long>(nonFinite));
    return std::string();
  }
  error = timeKernel(gpu, k, plan, p, 2, options.autotuneReps, true, o.timing);
  if (!error.empty())
    return "autotune: variant " + m.name() + ": " + error;
  o.status = VariantOutcome::Status::Timed;
  o.tflops = attentionFlops(p.cfg, nullptr) / (o.timing.median * 1e-3) / 1e12;
  return std::string();
}

/// Chooses the bundle to run: from the cache, or by timing every variant.
/// Sets `winnerDir` (empty when none could run: a failure is recorded).
std::string autotune(const Gpu &gpu, Reference &ref,
                     const RunnerOptions &options, Problem &p,
                     RunResult &result, std::string &winnerDir) {
  std::vector<std::string> dirs;
  std::string error;
  if (!listBundles(options.bundlesDir, dirs, error))
    return "--bundles: " + error;
  std::vector<Manifest> manifests(dirs.size());
  std::vector<VariantOutcome> outcomes(dirs.size());
  std::vector<std::string> names, compilers;
  for (size_t i = 0; i < dirs.size(); ++i) {
    outcomes[i].dir = dirs[i];
    if (!loadBundle(dirs[i], manifests[i], error)) {
      outcomes[i].name = dirs[i].substr(dirs[i].find_last_of('/') + 1);
      outcomes[i].status = VariantOutcome::Status::Failed;
      outcomes[i].reason = "manifest: " + error;
    } else {
      outcomes[i].name = manifests[i].name();
      if (std::find(compilers.begin(), compilers.end(),
                    manifests[i].compiler) == compilers.end())
        compilers.push_back(manifests[i].compiler);
    }
    names.push_back(outcomes[i].name);
  }
  std::sort(compilers.begin(), compilers.end());
  std::string compiler;
  for (const std::string &c : compilers)
    compiler += (compiler.empty() ? "" : "; ") + c;
  std::string key =
      autotuneKey(p.cfg, gpu.name, gpu.ccMajor, gpu.ccMinor, compiler);
  std::string cachePath = options.autotuneCache.empty()
                              ? defaultAutotuneCachePath()
                              : options.autotuneCache;
  AutotuneCache cache;
  if (!cache.load(cachePath, error))
    return error;

  Json summary = Json::object();
  summary.set("key", key);
  summary.set("cache", cachePath);
  if (!options.retune) {
    if (const Json *entry = cache.lookup(key)) {
      std::string why;
      if (cacheEntryUsable(*entry, names, why)) {
        std::string winner = entry->find("winner")->asString();
        for (size_t i = 0; i < names.size(); ++i)
          if (names[i] == winner)
            winnerDir = dirs[i];
        const Json *median = entry->find("median_ms");
        const Json *date = entry->find("date");
        std::string line = format(
            "autotune: cached winner %s (%.4f ms when tuned %s); not timing "
            "again (--retune to time the variants)",
            winner.c_str(),
            median && median->isNumber() ? median->asDouble() : 0.0,
            date && date->isString() ? date->asString().c_str() : "earlier");
        result.notes.push_back(line.substr(10));
        if (options.printAutotune && !options.json)
          std::printf("%s\n", line.c_str());
        summary.set("cached", true);
        summary.set("winner", winner);
        summary.set("entry", *entry);
        result.autotune = summary;
        return std::string();
      }
      result.notes.push_back("autotune cache entry not used: " + why);
    }
  }

  for (size_t i = 0; i < dirs.size(); ++i) {
    VariantOutcome &o = outcomes[i];
    if (o.status == VariantOutcome::Status::Failed) {
      std::fprintf(stderr, "autotune: %s: %s\n", o.name.c_str(),
                   o.reason.c_str());
      continue;
    }
    TRY(tuneVariant(gpu, ref, options, p, manifests[i], o));
    if (o.status == VariantOutcome::Status::Timed)
      std::fprintf(stderr, "autotune: %s: %.4f ms (%.1f TFLOPS)\n",
                   o.name.c_str(), o.timing.median, o.tflops);
    else
      std::fprintf(stderr, "autotune: %s: %s: %s\n", o.name.c_str(),
                   variantStatusName(o.status), o.reason.c_str());
  }
  AutotuneDecision decision = pickWinner(outcomes);
  summary.set("cached", false);
  summary.set("variants", outcomesToJson(outcomes));
  summary.set("why", decision.why);
  if (options.printAutotune && !options.json)
    std::printf("%s", renderAutotuneTable(outcomes, decision).c_str());
  if (decision.winner < 0) {
    result.autotune = summary;
    result.failures.push_back("autotune: no variant in " + options.bundlesDir +
                              " fits and runs this problem");
    return std::string();
  }
  const VariantOutcome &w = outcomes[decision.winner];
  winnerDir = w.dir;
  summary.set("winner", w.name);
  result.autotune = summary;
  result.notes.push_back("autotune winner: " + decision.why);

  Json entry = Json::object();
  entry.set("winner", w.name);
  entry.set("bundle", w.dir);
  entry.set("params", w.params);
  entry.set("median_ms", w.timing.median);
  entry.set("tflops", w.tflops);
  entry.set("date", nowUtc());
  Json variantNames = Json::array();
  for (const std::string &n : names)
    variantNames.push(n);
  entry.set("variants", variantNames);
  cache.store(key, entry);
  if (!cache.save(error))
    result.notes.push_back("autotune cache not saved: " + error);
  return std::string();
}

} // namespace

bool probeGpu(int ordinal, std::string &why) {
  std::string error;
  const CudaApi *api = cudaApi(error);
  if (!api) {
    why = error;
    return false;
  }
  CUresult status = api->cuInit(0);
  if (status != CUDA_SUCCESS) {
    why = cudaFailure(status, "cuInit(0)", __FILE__, __LINE__);
    return false;
  }
  int count = 0;
  status = api->cuDeviceGetCount(&count);
  if (status != CUDA_SUCCESS || count <= ordinal) {
    why = status != CUDA_SUCCESS
              ? cudaFailure(status, "cuDeviceGetCount(&count)", __FILE__,
                            __LINE__)
              : format("no CUDA device %d (%d found)", ordinal, count);
    return false;
  }
  CUdevice device;
  char name[256] = {0};
  if (api->cuDeviceGet(&device, ordinal) != CUDA_SUCCESS ||
      api->cuDeviceGetName(name, sizeof(name), device) != CUDA_SUCCESS) {
    why = "CUDA device " + std::to_string(ordinal) + " does not answer";
    return false;
  }
  why = std::string("a CUDA device answered: ") + name;
  return true;
}

std::string runOnGpu(const RunnerOptions &options, RunResult &result) {
  Gpu gpu;
  TRY(gpu.open(options.device));
  result.backend = "gpu";
  result.device = gpu.toJson();
  result.deviceSummary = gpu.summary();
  Reference ref;
  TRY(ref.load(gpu));
  Problem p;
  TRY(allocateProblem(gpu, options, p));
  TRY(makeInputs(gpu, ref, options, p, result.inputs));
  std::string dir = options.bundleDir;
  if (options.autotune) {
    TRY(autotune(gpu, ref, options, p, result, dir));
    if (dir.empty())
      return std::string();
  }
  return runBundle(gpu, ref, options, dir, p, result);
}

} // namespace runner
} // namespace tile
