//===- CudaDriver.cpp - the CUDA driver API, loaded at run time -----------===//

#include "CudaDriver.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <mutex>

#ifndef TILE_RUNNER_LINK_CUDA
#include <dlfcn.h>
#endif

#define TILE_STRINGIFY_IMPL(x) #x
/// Expands cuda.h's macros first: TILE_STRINGIFY(cuMemAlloc) is
/// "cuMemAlloc_v2".
#define TILE_STRINGIFY(x) TILE_STRINGIFY_IMPL(x)

namespace tile {
namespace runner {

namespace {

struct Loaded {
  CudaApi api;
  std::string error;
  bool ok = false;
};

void load(Loaded &loaded) {
#ifdef TILE_RUNNER_LINK_CUDA
#define TILE_CUDA_BIND(name) loaded.api.name = &::name;
  TILE_CUDA_FUNCTIONS(TILE_CUDA_BIND)
#undef TILE_CUDA_BIND
  loaded.ok = true;
#else
  void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *why = dlerror();
    loaded.error = std::string("no CUDA driver: ") +
                   (why ? why : "cannot load libcuda.so.1");
    return;
  }
#define TILE_CUDA_RESOLVE(name)                                                \
  loaded.api.name = reinterpret_cast<decltype(loaded.api.name)>(               \
      dlsym(library, TILE_STRINGIFY(name)));
  TILE_CUDA_FUNCTIONS(TILE_CUDA_RESOLVE)
#undef TILE_CUDA_RESOLVE
  // Drivers before CUDA 12.8 have only the first version of this one, with
  // the same signature.
  if (!loaded.api.cuEventElapsedTime)
    loaded.api.cuEventElapsedTime =
        reinterpret_cast<decltype(loaded.api.cuEventElapsedTime)>(
            dlsym(library, "cuEventElapsedTime"));
  // Optional (CUDA 12.4+): without it the parameter list is checked against
  // the PTX only.
  // cuTensorMapEncodeTiled (CUDA 12.0+) is needed only by bundles with
  // tensor maps.
  const char *optional[] = {"cuFuncGetParamInfo", "cuTensorMapEncodeTiled"};
  std::string missing;
#define TILE_CUDA_CHECK(name)                                                  \
  if (!loaded.api.name && std::find_if(std::begin(optional),                   \
                                       std::end(optional), [](const char *o) { \
                                         return std::strcmp(o, #name) == 0;    \
                                       }) == std::end(optional))               \
    missing += std::string(missing.empty() ? "" : ", ") + TILE_STRINGIFY(name);
  TILE_CUDA_FUNCTIONS(TILE_CUDA_CHECK)
#undef TILE_CUDA_CHECK
  if (!missing.empty()) {
    loaded.error = "the CUDA driver (libcuda.so.1) lacks " + missing +
                   ": it is older than the CUDA " +
                   std::to_string(CUDA_VERSION / 1000) + "." +
                   std::to_string(CUDA_VERSION % 1000 / 10) +
                   " headers this runner was built with";
    return;
  }
  loaded.ok = true;
#endif
}

} // namespace

const CudaApi *cudaApi(std::string &error) {
  static Loaded loaded;
  static std::once_flag once;
  std::call_once(once, [] { load(loaded); });
  if (!loaded.ok) {
    error = loaded.error;
    return nullptr;
  }
  return &loaded.api;
}

static std::string describe(CUresult status) {
  std::string dummy;
  const CudaApi *api = cudaApi(dummy);
  const char *name = nullptr, *text = nullptr;
  if (api) {
    api->cuGetErrorName(status, &name);
    api->cuGetErrorString(status, &text);
  }
  std::string out = name ? name : "CUDA error " + std::to_string(status);
  if (text)
    out += std::string(" (") + text + ")";
  return out;
}

static const char *baseName(const char *path) {
  const char *slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}

std::string cudaFailure(CUresult status, const char *call, const char *file,
                        int line) {
  return std::string(baseName(file)) + ":" + std::to_string(line) + ": " +
         call + " failed: " + describe(status);
}

void cudaWarn(CUresult status, const char *call, const char *file, int line) {
  std::fprintf(stderr, "tile-runner: warning: %s\n",
               cudaFailure(status, call, file, line).c_str());
}

} // namespace runner
} // namespace tile
