//===- GpuBackend.cpp - tile-runner's gpu backend -------------------------===//
//
// The flow of one run: open the device, load the reference kernels, bind
// and allocate the arguments (refusing what does not fit in device memory,
// before allocating), make the inputs, load the bundle (cubin when it
// matches the device, else its PTX through the JIT), plan the launch with
// the real addresses and check it against the device (limits, parameter
// list, occupancy), poison the outputs, run once (a fault is an error
// naming the kernel and the launch), check every written element and the
// problem's reference, optionally run again for determinism, and time it.
//
//===----------------------------------------------------------------------===//

#include "GpuBackend.h"

#include "GpuChecks.h"
#include "Prepare.h"
#include "RunFlow.h"

#include "tile/Bundle/Npy.h"
#include "tile/Support/Checked.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tile {
namespace runner {
namespace {

struct LoadedKernel {
  Module module;
  CUfunction function = nullptr;
  std::string loadedFrom;
  std::string jitInfoLog;
  PtxasFigures ptxas;
  int registers = 0, localBytes = 0, staticShared = 0, maxThreads = 0;
  int occupancy = 0;
};

std::string loadKernel(const Gpu &gpu, const PreparedRun &run, LoadedKernel &k,
                       std::vector<std::string> &notes) {
  const CudaApi *api = gpu.api;
  const Manifest &m = run.bundle.manifest;
  tilebundle::SmTarget target;
  tilebundle::parseSmTarget(m.target, target);
  std::string why, error;
  if (!tilebundle::ptxTargetRunsOn(target, gpu.ccMajor, gpu.ccMinor, why))
    return "bundle " + run.bundle.name() + " cannot run on " + gpu.name + ": " +
           why;
  bool loaded = false;
  if (!run.bundle.cubinPath().empty()) {
    if (tilebundle::cubinTargetRunsOn(target, gpu.ccMajor, gpu.ccMinor)) {
      std::string cubin, log;
      if (!checked::readFile(run.bundle.cubinPath(), cubin, error,
                             tilebundle::kMaxPtxBytes)) {
        notes.push_back("cannot read the cubin (" + error +
                        "); JIT-compiling the PTX");
      } else {
        error =
            loadImage(api, cubin.data(), k.module, log, run.bundle.cubinPath());
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
    error = loadImage(api, run.ptx.c_str(), k.module, k.jitInfoLog,
                      run.bundle.ptxPath());
    if (!error.empty()) {
      if (error.find("CUDA_ERROR_UNSUPPORTED_PTX_VERSION") != std::string::npos)
        error += "\n(the PTX is .version " + run.ptxInfo.version +
                 "; the driver, CUDA " + gpu.driverString() +
                 ", is too old for it)";
      return error;
    }
    k.loadedFrom = "PTX (JIT)";
    tilebundle::PtxasReport jit;
    if (tilebundle::parsePtxasLog(k.jitInfoLog, m.entry, jit)) {
      k.ptxas.present = true;
      k.ptxas.report = jit;
      k.ptxas.source = "JIT log";
    }
  }
  if (!k.ptxas.present)
    k.ptxas = PtxasFigures::fromManifest(m);
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
                             const tilebundle::KernelParams &params,
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
  for (; count < params.count(); ++count) {
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
    if (size != params.params[count].size)
      return format("the kernel's parameter %zu is %zu bytes, but the "
                    "manifest abi puts %s (%zu bytes) there",
                    count, size, params.params[count].description.c_str(),
                    params.params[count].size);
  }
  if (count != params.count())
    return format("the kernel takes %zu parameters, but the manifest abi "
                  "expands to %zu",
                  count, params.count());
  return std::string();
}

/// The device's launch limits, shared memory, parameters and occupancy.
std::string prepareLaunch(const Gpu &gpu, LoadedKernel &k,
                          tilebundle::LaunchPlan &plan,
                          std::vector<std::string> &notes) {
  const CudaApi *api = gpu.api;
  int64_t threads = plan.block[0] * plan.block[1] * plan.block[2];
  tilebundle::LaunchLimits limits = gpu.limits();
  limits.maxThreadsPerBlock =
      std::min<int64_t>(limits.maxThreadsPerBlock, k.maxThreads);
  std::string error;
  if (!tilebundle::checkLaunchLimits(plan.grid, plan.block, plan.sharedBytes,
                                     k.staticShared, k.registers, limits,
                                     error))
    return error;
  if (plan.sharedBytes > 48 * 1024)
    CU_TRY(cuFuncSetAttribute(k.function,
                              CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                              static_cast<int>(plan.sharedBytes)));
  TRY(verifyParameters(api, k.function, plan.params, notes));
  CU_TRY(cuOccupancyMaxActiveBlocksPerMultiprocessor(
      &k.occupancy, k.function, static_cast<int>(threads),
      static_cast<size_t>(plan.sharedBytes)));
  if (k.occupancy < 1)
    return "the kernel cannot be resident on a multiprocessor with this block "
           "and shared memory (occupancy 0)";
  return std::string();
}

std::string launchText(const Manifest &m, const std::string &bundle,
                       const tilebundle::LaunchPlan &plan) {
  return format("kernel %s of bundle %s (grid [%lld, %lld, %lld], block "
                "[%lld, %lld, %lld], %lld B dynamic shared memory)",
                m.entry.c_str(), bundle.c_str(),
                static_cast<long long>(plan.grid[0]),
                static_cast<long long>(plan.grid[1]),
                static_cast<long long>(plan.grid[2]),
                static_cast<long long>(plan.block[0]),
                static_cast<long long>(plan.block[1]),
                static_cast<long long>(plan.block[2]),
                static_cast<long long>(plan.sharedBytes));
}

std::string runOnce(const Gpu &gpu, LoadedKernel &k,
                    tilebundle::LaunchPlan &plan, const std::string &what) {
  TRY(launch(gpu.api, k.function, plan.grid, plan.block, plan.sharedBytes,
             plan.params.pointers()));
  return synchronize(gpu.api, "the launch of " + what);
}

std::string timeKernel(const Gpu &gpu, LoadedKernel &k,
                       tilebundle::LaunchPlan &plan, const DeviceBuffer &flush,
                       int warmup, int reps, bool flushL2, TimingStats &stats,
                       const std::string &what) {
  const CudaApi *api = gpu.api;
  for (int i = 0; i < warmup; ++i)
    TRY(launch(api, k.function, plan.grid, plan.block, plan.sharedBytes,
               plan.params.pointers()));
  TRY(synchronize(api, "the warm-up launches of " + what));
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
    if (flushL2 && flush.size())
      CU_TRY(cuMemsetD32Async(flush.get(), samples.size() + 1, flush.size() / 4,
                              nullptr));
    CU_TRY(cuEventRecord(start, nullptr));
    TRY(launch(api, k.function, plan.grid, plan.block, plan.sharedBytes,
               plan.params.pointers()));
    CU_TRY(cuEventRecord(stop, nullptr));
    CUresult s = api->cuEventSynchronize(stop);
    if (s != CUDA_SUCCESS) {
      markContextLost();
      return "kernel fault: " +
             cudaFailure(s, "cuEventSynchronize(stop)", __FILE__, __LINE__) +
             " while timing " + what;
    }
    float ms = 0;
    CU_TRY(cuEventElapsedTime(&ms, start, stop));
    samples.push_back(ms);
    return std::string();
  };
  for (int i = 0; i < reps && error.empty(); ++i)
    error = sample();
  if (!contextLost()) {
    CU_WARN(cuEventDestroy(start));
    CU_WARN(cuEventDestroy(stop));
  }
  if (!error.empty())
    return error;
  stats = computeTimingStats(samples);
  stats.warmup = warmup;
  stats.l2Flushed = flushL2 && flush.size();
  return std::string();
}

/// Fills the 128 bytes of a tensor map (contract C4).
tilebundle::TensorMapEncoder tensorMapEncoder(const CudaApi *api) {
  return [api](const tilebundle::AbiEntry &map,
               const tilebundle::AbiEntry &view,
               const tilebundle::ViewBinding &b, unsigned char out[128],
               std::string &error) -> bool {
    if (!api->cuTensorMapEncodeTiled) {
      error = "the CUDA driver has no cuTensorMapEncodeTiled (CUDA 12.0+)";
      return false;
    }
    CUtensorMapDataType type =
        view.dtype == DType::F16    ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16
        : view.dtype == DType::BF16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
        : view.dtype == DType::F32  ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32
        : view.dtype == DType::I32  ? CU_TENSOR_MAP_DATA_TYPE_INT32
                                    : CU_TENSOR_MAP_DATA_TYPE_UINT8; // fp8
    cuuint32_t rank = static_cast<cuuint32_t>(map.dims.size());
    cuuint64_t dims[5], strides[5];
    cuuint32_t box[5], elementStrides[5];
    std::vector<uint64_t> byteStrides =
        tilebundle::tensorMapByteStrides(map, b);
    for (cuuint32_t i = 0; i < rank; ++i) {
      dims[i] = static_cast<cuuint64_t>(b.sizes[map.dims[i]]);
      box[i] = static_cast<cuuint32_t>(map.box[i]);
      elementStrides[i] = 1;
      if (i > 0)
        strides[i - 1] = static_cast<cuuint64_t>(byteStrides[i - 1]);
    }
    CUtensorMapSwizzle swizzle = map.swizzle == 128 ? CU_TENSOR_MAP_SWIZZLE_128B
                                 : map.swizzle == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                                 : map.swizzle == 32
                                     ? CU_TENSOR_MAP_SWIZZLE_32B
                                     : CU_TENSOR_MAP_SWIZZLE_NONE;
    CUtensorMap tensorMap;
    CUresult status = api->cuTensorMapEncodeTiled(
        &tensorMap, type, rank, reinterpret_cast<void *>(b.address), dims,
        strides, box, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
        CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (status != CUDA_SUCCESS) {
      error = cudaFailure(status, "cuTensorMapEncodeTiled(...)", __FILE__,
                          __LINE__);
      return false;
    }
    static_assert(sizeof(tensorMap) == 128, "a CUtensorMap is 128 bytes");
    std::memcpy(out, &tensorMap, 128);
    return true;
  };
}

/// The device side of a run: the views (and their twins for determinism).
struct Session {
  Gpu gpu;
  Reference ref;
  DeviceViews views, second;
  DeviceBuffer flush;
};

std::string allocate(Session &s, const RunnerOptions &o, const RunSpec &spec,
                     RunResult &result) {
  const CudaApi *api = s.gpu.api;
  size_t flushBytes =
      o.bench ? std::max<size_t>(size_t(2) * s.gpu.l2Bytes, size_t(64) << 20)
              : 0;
  // Reference scratch: at most 256 MiB of rows, plus references of the
  // sampled output rows (16 bytes an element).
  int64_t scratch = int64_t(256) << 20;
  for (const TensorArg &t : spec.tensors)
    if (t.written())
      scratch += std::min<int64_t>(t.elements(), int64_t(1) << 24) * 16;
  int64_t need = runMemoryBytes(o, spec, scratch + flushBytes);
  result.memoryBytes = need;
  size_t freeBytes = 0, totalBytes = 0;
  CU_TRY(cuMemGetInfo(&freeBytes, &totalBytes));
  std::string error;
  if (!checkMemory(need, static_cast<int64_t>(freeBytes),
                   format("free device memory on %s", s.gpu.name.c_str()),
                   error))
    return error;
  for (const TensorArg &t : spec.tensors) {
    TRY(s.views[t.name].allocate(api, static_cast<size_t>(t.bytes())));
    if (o.determinism && t.written())
      TRY(s.second[t.name].allocate(api, static_cast<size_t>(t.bytes())));
  }
  if (flushBytes)
    TRY(s.flush.allocate(api, flushBytes));
  return std::string();
}

std::string makeInputs(Session &s, const RunnerOptions &o, const RunSpec &spec,
                       std::string &description) {
  const CudaApi *api = s.gpu.api;
  int64_t randomElements = 0;
  for (const TensorArg &t : spec.tensors)
    if (!t.poisoned() && t.init == TensorArg::Init::Random)
      randomElements += t.elements();
  bool onDevice = o.inputs == InputSource::Device ||
                  (o.inputs == InputSource::Auto &&
                   randomElements > kAutoDeviceInputElements);
  for (const TensorArg &t : spec.tensors) {
    if (t.poisoned())
      continue;
    CUdeviceptr p = s.views.at(t.name).get();
    if (onDevice && t.init == TensorArg::Init::Random &&
        t.dtype != DType::I32) {
      TRY(s.ref.fill(p, t.dtype, t.elements(), streamSeed(spec.seed, t.stream),
                     static_cast<float>(t.stddev)));
      continue;
    }
    HostTensor h;
    std::string error;
    if (!makeHostTensor(t, spec.seed, h, error))
      return error;
    if (h.sizeBytes())
      CU_TRY(cuMemcpyHtoD(p, h.data(), h.sizeBytes()));
  }
  description =
      onDevice
          ? format("device: seeded normal generator (seed %llu, std %g)",
                   static_cast<unsigned long long>(spec.seed), o.cfg.inputStd) +
                (o.inputs == InputSource::Auto
                     ? "; large problem, --inputs host for the host "
                       "generator"
                     : "")
          : format("host: seeded normal generator (seed %llu, std %g)",
                   static_cast<unsigned long long>(spec.seed), o.cfg.inputStd);
  return std::string();
}

/// Fills the views the kernel only writes with the poison.
std::string poison(const CudaApi *api, const RunSpec &spec,
                   const DeviceViews &views) {
  for (const TensorArg &t : spec.tensors) {
    if (!t.poisoned() || views.find(t.name) == views.end())
      continue;
    CUdeviceptr p = views.at(t.name).get();
    uint32_t bits = tilebundle::poisonBits(t.dtype);
    if (dtypeBytes(t.dtype) == 2)
      CU_TRY(cuMemsetD16(p, static_cast<unsigned short>(bits), t.elements()));
    else
      CU_TRY(cuMemsetD32(p, bits, t.elements()));
  }
  return std::string();
}

std::map<std::string, uint64_t> addressesOf(const DeviceViews &views,
                                            const DeviceViews *second,
                                            const RunSpec &spec) {
  std::map<std::string, uint64_t> a;
  for (const TensorArg &t : spec.tensors)
    a[t.name] = second && second->count(t.name) ? second->at(t.name).get()
                                                : views.at(t.name).get();
  return a;
}

std::string runBundle(Session &s, const RunnerOptions &o,
                      const Problem *problem, const std::string &dir,
                      RunResult &result) {
  PreparedRun run;
  std::string error;
  if (prepareRun(o, problem, dir, run, error) != PrepareStatus::Ready)
    return error;
  const Manifest &m = run.bundle.manifest;
  const RunSpec &spec = run.spec;
  const CudaApi *api = s.gpu.api;
  TRY(allocate(s, o, spec, result));
  TRY(makeInputs(s, o, spec, result.inputs));
  tilebundle::TensorMapEncoder encoder = tensorMapEncoder(api);
  tilebundle::LaunchPlan plan;
  if (!tilebundle::planLaunch(
          m, spec.launchBinding(addressesOf(s.views, nullptr, spec)), &encoder,
          plan, error))
    return "bundle " + run.bundle.name() + ": " + error;
  LoadedKernel k;
  TRY(loadKernel(s.gpu, run, k, result.notes));
  TRY(prepareLaunch(s.gpu, k, plan, result.notes));
  describeKernel(m, run.bundle.name(), run.bundle.dir, plan, result);
  describeShape(o, problem, spec, result);
  result.loadedFrom = k.loadedFrom;
  result.haveResources = true;
  result.registers = k.registers;
  result.localBytes = k.localBytes;
  result.staticShared = k.staticShared;
  result.maxThreadsPerBlock = k.maxThreads;
  result.occupancy = k.occupancy;
  result.ptxas = k.ptxas;
  if (o.verbose) {
    for (const tilebundle::KernelParam &p : plan.params.params)
      result.kernelArgs.push_back(p.description);
    if (!k.jitInfoLog.empty())
      std::fprintf(stderr, "JIT info log for %s:\n%s\n",
                   run.bundle.name().c_str(), k.jitInfoLog.c_str());
  }
  const tilebundle::PtxasReport &px = k.ptxas.report;
  if (k.ptxas.present && px.spills() && !o.allowSpills)
    result.failures.push_back(
        format("the kernel spills registers (%lld B stores, %lld B loads, %s); "
               "--allow-spills accepts that",
               static_cast<long long>(px.spillStores),
               static_cast<long long>(px.spillLoads), k.ptxas.source.c_str()));
  else if (!k.ptxas.present && k.localBytes > 0)
    result.notes.push_back(format("the kernel uses %d B of local memory per "
                                  "thread (spills or a stack array)",
                                  k.localBytes));
  if (m.occupancy && k.occupancy < m.occupancy)
    result.notes.push_back(format("occupancy %d block(s)/SM is below the %lld "
                                  "the manifest asks for",
                                  k.occupancy,
                                  static_cast<long long>(m.occupancy)));

  std::string what = launchText(m, run.bundle.name(), plan);
  TRY(poison(api, spec, s.views));
  TRY(runOnce(s.gpu, k, plan, what));
  TRY(checkWrittenOnGpu(s.ref, spec, s.views, result));
  if (o.check && !o.autotuneChild) {
    if (!o.refs.empty() || !o.saves.empty()) {
      std::map<std::string, HostTensor> host;
      for (const TensorArg &t : spec.tensors)
        TRY(copyToHost(api, t, s.views.at(t.name), host[t.name]));
      if (!o.refs.empty()) {
        RunResult scratch;
        if (!checkOnHost(o, nullptr, m, spec, host, scratch, error))
          return error;
        result.check = scratch.check;
        for (const std::string &f : scratch.check.failures)
          result.failures.push_back(f);
      }
      if (!saveOutputs(o, host, error))
        return error;
    }
    if (o.refs.empty() && problem)
      TRY(checkProblemOnGpu(s.gpu, s.ref, o, *problem, m, spec, s.views,
                            result));
  }
  if (o.determinism) {
    TRY(poison(api, spec, s.second));
    tilebundle::LaunchPlan again;
    if (!tilebundle::planLaunch(
            m, spec.launchBinding(addressesOf(s.views, &s.second, spec)),
            &encoder, again, error))
      return error;
    TRY(runOnce(s.gpu, k, again, "the second run (determinism) of " + what));
    result.determinismChecked = true;
    for (const TensorArg &t : spec.tensors) {
      if (!t.written())
        continue;
      uint64_t diff = 0;
      TRY(s.ref.countDiff16(s.views.at(t.name).get(), s.second.at(t.name).get(),
                            t.bytes() / 2, diff));
      result.differingElements += static_cast<int64_t>(
          (diff + dtypeBytes(t.dtype) / 2 - 1) / (dtypeBytes(t.dtype) / 2));
    }
    if (result.differingElements)
      result.failures.push_back(
          format("not deterministic: %lld output elements differ between two "
                 "runs on the same inputs",
                 static_cast<long long>(result.differingElements)));
  }
  if (o.bench) {
    TRY(timeKernel(s.gpu, k, plan, s.flush, o.warmup, o.reps, o.flushL2,
                   result.timing, what));
    result.timed = true;
    if (problem) {
      result.flops = problem->flops(m, spec, &result.flopsFormula);
      result.bytesMoved = problem->bytesMoved(spec);
    }
  }
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

std::string runOnGpu(const RunnerOptions &o, const Problem *problem,
                     const std::vector<std::string> &argv, RunResult &result) {
  std::string dir = o.bundleDir;
  if (o.autotune) {
    TRY(autotune(o, problem, argv, result, dir));
    if (dir.empty())
      return std::string();
  }
  Session s;
  TRY(s.gpu.open(o.device));
  result.backend = "gpu";
  result.device = s.gpu.toJson();
  result.deviceSummary = s.gpu.summary();
  TRY(s.ref.load(s.gpu));
  return runBundle(s, o, problem, dir, result);
}

} // namespace runner
} // namespace tile
