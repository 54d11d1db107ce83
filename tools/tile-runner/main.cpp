//===- main.cpp - tile-runner: run and check compiled kernels -------------===//
//
// One binary, two backends: `gpu` loads a kernel bundle with the CUDA driver
// API (GpuBackend), `cpu` runs the kernel's tile IR on the host reference
// executor (CpuRun, full build only). Arguments are bound by name from the
// kernel's ABI (Binding.h), by a built-in problem or --arg. See --help and
// bench/README.md.
//
// Exit status: 0 when every check passed, 1 when a check failed, 2 on an
// error that stopped the run or part of it (bad options, a bundle that does
// not fit or load, no device, a kernel fault).
//
//===----------------------------------------------------------------------===//

#include "Options.h"
#include "Prepare.h"
#include "Report.h"
#include "RunFlow.h"

#include "tile/Support/Checked.h"

#ifndef TILE_RUNNER_NO_CPU_BACKEND
#include "CpuRun.h"
#endif
#ifndef TILE_RUNNER_NO_GPU_BACKEND
#include "GpuBackend.h"
#endif

#include <cstdio>

using namespace tile::runner;

namespace {

const char *kNoCpuBackend =
    "this tile-runner was built without the cpu backend: it needs the full "
    "build with MLIR and the TileExecutor library (this is a "
    "TILE_RUNNER_ONLY build, or TileExecutor was not found)";
#ifdef TILE_RUNNER_NO_GPU_BACKEND
const char *kNoGpuBackend =
    "this tile-runner was built without the gpu backend: CMake found no CUDA "
    "toolkit (cuda.h, nvcc) when it was configured";
#endif

#ifndef TILE_RUNNER_NO_CPU_BACKEND
//===-- cpu-backend test options (owner: the executor, test/Executor) ----===//
// Taken out of argv before parseOptions:
//   --dump-out FILE   after a cpu run, write the raw bytes of the written
//                     views (Out, then Lse when written) to FILE, so that
//                     lit tests can `cmp` the results of two pipelines;
//   --cpu-threads N   worker threads of the reference executor (0: all cores;
//                     results are bitwise the same for any N).
CpuTestOptions cpuTestOptions;

bool takeCpuTestOptions(int &argc, char **argv, std::string &error) {
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string name = arg.substr(0, arg.find('='));
    if (name != "--dump-out" && name != "--cpu-threads") {
      argv[kept++] = argv[i];
      continue;
    }
    std::string value;
    if (arg.size() > name.size())
      value = arg.substr(name.size() + 1);
    else if (i + 1 < argc)
      value = argv[++i];
    if (value.empty()) {
      error = name + " needs a value";
      return false;
    }
    if (name == "--dump-out") {
      cpuTestOptions.dumpOut = value;
    } else {
      std::string why;
      std::optional<int64_t> threads =
          tile::checked::parseInt(value, 0, 1024, &why);
      if (!threads) {
        error = "--cpu-threads: " + why;
        return false;
      }
      cpuTestOptions.threads = static_cast<unsigned>(*threads);
    }
  }
  argc = kept;
  argv[argc] = nullptr;
  return true;
}
#endif

/// --dry-run: the bundle(s) against the binding and the launch, no GPU.
int dryRun(const RunnerOptions &o, const Problem *problem) {
  RunResult r;
  r.dryRun = true;
  r.backend = "gpu";
  std::string error;
  if (!o.autotune) {
    PreparedRun run;
    if (prepareRun(o, problem, o.bundleDir, run, error) != PrepareStatus::Ready)
      return reportError(o, error);
    const Manifest &m = run.bundle.manifest;
    describeKernel(m, run.bundle.name(), run.bundle.dir, run.plan, r);
    describeShape(o, problem, run.spec, r);
    for (const tilebundle::KernelParam &p : run.plan.params.params)
      r.kernelArgs.push_back(p.description);
    r.kernelArgs.push_back(format("(%zu parameters, %zu bytes; the PTX "
                                  "entry %s declares the same)",
                                  run.plan.params.count(),
                                  run.plan.params.packedBytes(),
                                  m.entry.c_str()));
    r.memoryBytes = runMemoryBytes(o, run.spec, 0);
    if (problem) {
      r.flops = problem->flops(m, run.spec, &r.flopsFormula);
      if (r.flops > 0)
        r.notes.push_back(
            format("%.4g GFLOP (%s)", r.flops / 1e9, r.flopsFormula.c_str()));
    }
    return finish(o, r);
  }
  std::vector<std::string> dirs;
  if (!tilebundle::listBundles(o.bundlesDir, dirs, error))
    return reportError(o, "--bundles: " + error);
  r.kernelName = o.bundlesDir;
  Json variants = Json::array();
  bool described = false;
  for (const std::string &dir : dirs) {
    PreparedRun run;
    std::string status;
    switch (prepareRun(o, problem, dir, run, error)) {
    case PrepareStatus::Error:
      status = "failed: " + error;
      break;
    case PrepareStatus::DoesNotFit:
      status = "skipped: " + error;
      break;
    case PrepareStatus::Ready:
      if (run.bundle.manifest.ptxas && run.bundle.manifest.ptxas->spills())
        status = "skipped: ptxas reports spills";
      else
        status =
            "fits: grid " + format("[%lld, %lld, %lld]",
                                   static_cast<long long>(run.plan.grid[0]),
                                   static_cast<long long>(run.plan.grid[1]),
                                   static_cast<long long>(run.plan.grid[2]));
      if (!described) {
        describeShape(o, problem, run.spec, r);
        described = true;
      }
      break;
    }
    std::string name = dir.substr(dir.find_last_of('/') + 1);
    r.notes.push_back(name + ": " + status);
    variants.push_back({{"name", name}, {"status", status}});
  }
  r.autotune = {{"variants", variants}};
  return finish(o, r);
}

} // namespace

int main(int argc, char **argv) {
  std::vector<std::string> originalArgs(argv, argv + argc);
  RunnerOptions options;
  std::string error;
#ifndef TILE_RUNNER_NO_CPU_BACKEND
  if (!takeCpuTestOptions(argc, argv, error)) {
    std::fprintf(stderr, "tile-runner: error: %s\n", error.c_str());
    return kExitError;
  }
#endif
  if (!parseOptions(argc, argv, options, error)) {
    std::fprintf(stderr, "tile-runner: error: %s\n", error.c_str());
    return kExitError;
  }
  if (options.help) {
    std::printf("%s", usageText().c_str());
    return 0;
  }
  std::unique_ptr<Problem> problem = makeRunProblem(options);

  // The bundle against the binding, before any device is touched.
  if (!options.bundleDir.empty() && options.backend != Backend::Cpu) {
    PreparedRun run;
    if (prepareRun(options, problem.get(), options.bundleDir, run, error) !=
        PrepareStatus::Ready)
      return reportError(options, error);
  }
  if (options.dryRun)
    return dryRun(options, problem.get());

  RunResult result;
  Backend backend = options.backend;
  if (backend == Backend::Auto) {
    bool gpuWork = !options.bundleDir.empty() || options.autotune;
#ifndef TILE_RUNNER_NO_GPU_BACKEND
    std::string why;
    bool gpu = probeGpu(options.device, why);
#else
    std::string why = kNoGpuBackend;
    bool gpu = false;
#endif
#ifndef TILE_RUNNER_NO_CPU_BACKEND
    bool cpu = true;
#else
    bool cpu = false;
#endif
    bool cpuWork = !options.kernelPath.empty() ||
                   (!options.bundleDir.empty() && !options.autotune);
    if (gpu && gpuWork) {
      backend = Backend::Gpu;
      result.backendReason = "auto: " + why;
    } else if (cpu && cpuWork) {
      backend = Backend::Cpu;
      result.backendReason = gpu ? "auto: --kernel was given without --bundle"
                                 : "auto: no GPU (" + why + ")";
    } else if (!gpu && gpuWork && !cpuWork) {
      return reportError(options,
                         "--backend=auto: no GPU for --autotune (" + why + ")");
    } else {
      return reportError(
          options, "--backend=auto: no backend can run this: "
                   "gpu: " +
                       (gpu ? std::string("needs --bundle") : why) +
                       "; cpu: " + (cpu ? "needs --kernel" : kNoCpuBackend));
    }
    if (!options.json)
      std::fprintf(stderr, "tile-runner: --backend=auto chose %s (%s)\n",
                   backendName(backend), result.backendReason.c_str());
  }

  if (backend == Backend::Cpu) {
#ifndef TILE_RUNNER_NO_CPU_BACKEND
    return runCpu(options, problem.get(), cpuTestOptions, result);
#else
    return reportError(options, std::string("--backend=cpu: ") + kNoCpuBackend);
#endif
  }
#ifndef TILE_RUNNER_NO_GPU_BACKEND
  error = runOnGpu(options, problem.get(), originalArgs, result);
  if (!error.empty())
    return reportError(options, error);
  return finish(options, result);
#else
  return reportError(options, std::string("--backend=gpu: ") + kNoGpuBackend);
#endif
}
