//===- main.cpp - tile-runner: run and check compiled attention kernels ---===//
//
// One binary, two backends: `gpu` loads a kernel bundle with the CUDA driver
// API (GpuBackend), `cpu` runs the kernel's tile IR on the host reference
// executor (CpuBackend, full build only). See --help and bench/README.md.
//
// Exit status: 0 when every check passed, 1 when a check failed, 2 on an
// error that stopped the run (bad options, a bundle that does not fit or
// load, no device).
//
//===----------------------------------------------------------------------===//

#include "Attention.h"
#include "Bundle.h"
#include "Options.h"
#include "Report.h"

#ifndef TILE_RUNNER_NO_CPU_BACKEND
#include "CpuBackend.h"
#endif
#ifndef TILE_RUNNER_NO_GPU_BACKEND
#include "GpuBackend.h"
#endif

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace tile::runner;

namespace {

constexpr int kExitFailed = 1;
constexpr int kExitError = 2;

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
// Taken out of argv before parseOptions, so that Options.cpp is unchanged:
//   --dump-out FILE   after a cpu run, write the raw bytes of Out (then Lse,
//                     with --lse) to FILE, so that lit tests can `cmp` the
//                     results of two pipelines bitwise;
//   --cpu-threads N   worker threads of the reference executor (0: all cores;
//                     results are bitwise the same for any N).
struct CpuTestOptions {
  std::string dumpOut;
  unsigned threads = 0;
};
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
      char *end = nullptr;
      long threads = std::strtol(value.c_str(), &end, 10);
      if (*end || threads < 0 || threads > 1024) {
        error = "--cpu-threads must be an integer in [0, 1024], got '" + value +
                "'";
        return false;
      }
      cpuTestOptions.threads = static_cast<unsigned>(threads);
    }
  }
  argc = kept;
  argv[argc] = nullptr;
  return true;
}

bool dumpOutputs(const AttentionTensors &tensors, bool withLse,
                 std::string &error) {
  FILE *file = std::fopen(cpuTestOptions.dumpOut.c_str(), "wb");
  bool ok = file && std::fwrite(tensors.out.data(), 1, tensors.out.sizeBytes(),
                                file) == tensors.out.sizeBytes();
  if (ok && withLse)
    ok = std::fwrite(tensors.lse.data(), 1, tensors.lse.sizeBytes(), file) ==
         tensors.lse.sizeBytes();
  if (file && std::fclose(file) != 0)
    ok = false;
  if (!ok)
    error = "--dump-out: cannot write '" + cpuTestOptions.dumpOut + "'";
  return ok;
}
#endif
//===-- end of the cpu-backend test options ------------------------------===//

int reportError(const RunnerOptions &options, const std::string &message) {
  std::fprintf(stderr, "tile-runner: error: %s\n", message.c_str());
  if (options.json) {
    Json j = Json::object();
    j.set("tool", "tile-runner");
    j.set("passed", false);
    j.set("error", message);
    j.set("shape", shapeToJson(options.cfg));
    std::printf("%s\n", j.dump(2).c_str());
  }
  return kExitError;
}

int finish(const RunnerOptions &options, const RunResult &result) {
  if (options.json)
    std::printf("%s\n", resultToJson(result).dump(2).c_str());
  else
    std::printf("%s", renderTable(result).c_str());
  std::fflush(stdout);
  return result.passed() ? 0 : kExitFailed;
}

/// --dry-run: the bundle(s) against the shape and the launch, no GPU.
int dryRun(const RunnerOptions &options) {
  RunResult r;
  r.cfg = options.cfg;
  r.dryRun = true;
  r.backend = "gpu";
  AttentionBinding binding = bindAttention(options.cfg, 0, 0, 0, 0, 0);
  std::string error;
  if (!options.autotune) {
    Manifest m;
    LaunchPlan plan;
    if (!loadBundle(options.bundleDir, m, error))
      return reportError(options, error);
    std::string fit = checkBundleFits(m, options.cfg);
    if (!fit.empty())
      return reportError(options, "bundle " + m.name() +
                                      " does not fit the problem: " + fit);
    if (!planLaunch(m, binding, plan, error))
      return reportError(options, "bundle " + m.name() + ": " + error);
    std::string ptx;
    PtxInfo info;
    if (!checkBundlePtx(m, plan.args, ptx, info, error))
      return reportError(options, error);
    r.kernelName = m.name();
    r.kernelPath = m.dir;
    r.target = m.target;
    r.compiler = m.compiler;
    r.entry = m.entry;
    r.params = m.params;
    r.numWarps = m.numWarps;
    r.grid = plan.grid;
    r.block = plan.block;
    r.dynamicShared = plan.sharedBytes;
    r.kernelArgs = plan.args.descriptions;
    r.kernelArgs.push_back(format("(%zu parameters, %zu bytes; the PTX "
                                  "entry %s declares the same)",
                                  plan.args.count(), plan.args.packedBytes(),
                                  m.entry.c_str()));
    if (m.ptxas.present) {
      r.ptxas = m.ptxas;
      r.ptxasSource = "manifest";
    }
    r.flops = attentionFlops(options.cfg, &r.flopsFormula);
    r.notes.push_back(
        format("%.4g GFLOP (%s)", r.flops / 1e9, r.flopsFormula.c_str()));
    return finish(options, r);
  }
  std::vector<std::string> dirs;
  if (!listBundles(options.bundlesDir, dirs, error))
    return reportError(options, "--bundles: " + error);
  r.kernelName = options.bundlesDir;
  Json variants = Json::array();
  for (const std::string &dir : dirs) {
    Manifest m;
    LaunchPlan plan;
    PtxInfo info;
    std::string status;
    if (!loadBundle(dir, m, error))
      status = "failed: " + error;
    else if (!(status = checkBundleFits(m, options.cfg)).empty())
      status = "skipped: does not fit: " + status;
    else if (m.ptxas.spills())
      status = "skipped: ptxas reports spills";
    else if (!planLaunch(m, binding, plan, error))
      status = "skipped: " + error;
    else if (std::string ptx; !checkBundlePtx(m, plan.args, ptx, info, error))
      status = "failed: " + error;
    else
      status = "fits: grid " + format("[%lld, %lld, %lld]",
                                      static_cast<long long>(plan.grid[0]),
                                      static_cast<long long>(plan.grid[1]),
                                      static_cast<long long>(plan.grid[2]));
    std::string name = dir.substr(dir.find_last_of('/') + 1);
    r.notes.push_back(name + ": " + status);
    Json v = Json::object();
    v.set("name", name);
    v.set("status", status);
    variants.push(v);
  }
  Json summary = Json::object();
  summary.set("variants", variants);
  r.autotune = summary;
  return finish(options, r);
}

#ifndef TILE_RUNNER_NO_CPU_BACKEND
/// The cpu backend: the kernel's tile IR on the reference executor, checked
/// against the float64 host reference.
int runCpu(const RunnerOptions &options, RunResult &r) {
  const AttentionConfig &cfg = options.cfg;
  CpuRunOptions cpu;
  cpu.kernelPath = options.kernelPath;
  cpu.params = options.params;
  cpu.pipeline = options.pipeline;
  cpu.threads = cpuTestOptions.threads; // cpu-backend test option
  if (cpu.kernelPath.empty()) {
    // --bundle with the cpu backend: the manifest's source and parameters
    // (checked against the shape above).
    Manifest m;
    std::string error;
    if (!loadBundle(options.bundleDir, m, error))
      return reportError(options, error);
    if (m.source.size() < 5 ||
        m.source.compare(m.source.size() - 5, 5, ".mlir") != 0)
      return reportError(options, "the cpu backend runs tile IR, and bundle " +
                                      m.name() + " names no .mlir source (" +
                                      (m.source.empty() ? "none" : m.source) +
                                      "); give --kernel FILE");
    cpu.kernelPath = m.source;
    for (const Json::Member &p : m.params.members())
      cpu.params.push_back(
          p.first + "=" +
          (p.second.isString() ? p.second.asString() : p.second.dump()));
    r.notes.push_back("the cpu backend runs the bundle's source " + m.source +
                      " with its parameters");
  }
  r.backend = "cpu";
  r.deviceSummary = "host (tile IR reference executor)";
  r.kernelName = cpu.kernelPath;
  r.kernelPath = cpu.kernelPath;
  r.loadedFrom = "tile IR, reference executor";
  r.pipeline = cpu.pipeline;
  r.params = Json::object();
  for (const std::string &p : cpu.params) {
    size_t eq = p.find('=');
    r.params.set(p.substr(0, eq), p.substr(eq + 1));
  }
  r.inputs = format("host: makeAttentionTensors (seed %llu, std %g)",
                    static_cast<unsigned long long>(cfg.seed), cfg.inputStd);

  AttentionTensors tensors = makeAttentionTensors(cfg);
  double seconds = 0;
  std::string error = runAttentionOnCpu(cpu, cfg, tensors, &seconds);
  if (!error.empty())
    return reportError(options, error);
  // cpu-backend test option --dump-out.
  if (!cpuTestOptions.dumpOut.empty() &&
      !dumpOutputs(tensors, cfg.withLse, error))
    return reportError(options, error);

  int64_t outElements = tensors.out.numElements();
  if (options.check) {
    std::vector<double> ref, refLse, refLow;
    referenceAttention(cfg, tensors, ref, refLse);
    lowPrecisionAttention(cfg, tensors, refLow);
    CheckResult cr = checkAttention(cfg, tensors, ref, refLow,
                                    cfg.withLse ? &refLse : nullptr);
    CheckSummary &c = r.check;
    c.done = true;
    c.result = cr;
    c.rowsTotal = c.rowsChecked = tensors.lse.numElements();
    c.lseChecked = cfg.withLse;
    c.lseRule = "|lse - ref| <= 0.001 + 0.0001 |ref|; FLT_MAX where no key";
    c.atol = cr.tolerance - 2 * cr.lowPrecError;
    c.reference = "float64 host reference (Attention.cpp)";
    r.nonFiniteChecked = true;
    r.outputElements = outElements;
    r.nonFinite = cr.nonFinite;
    if (!cr.passed)
      r.failures.push_back(
          (cr.message.empty() ? std::string("the check failed") : cr.message) +
          format(" (seed %llu)", static_cast<unsigned long long>(cfg.seed)));
  } else {
    int64_t bad = 0;
    for (int64_t i = 0; i < outElements; ++i)
      bad += !std::isfinite(tensors.out.get(i));
    r.nonFiniteChecked = true;
    r.outputElements = outElements;
    r.nonFinite = bad;
    if (bad)
      r.failures.push_back(format("%lld output elements are NaN/Inf or were "
                                  "never written",
                                  static_cast<long long>(bad)));
  }
  if (options.determinism) {
    AttentionTensors again = makeAttentionTensors(cfg);
    error = runAttentionOnCpu(cpu, cfg, again, nullptr);
    if (!error.empty())
      return reportError(options, error);
    r.determinismChecked = true;
    r.differingElements = 0;
    for (int64_t i = 0; i < outElements; ++i)
      r.differingElements +=
          tensors.out.bits16.empty()
              ? std::memcmp(&tensors.out.f32[i], &again.out.f32[i], 4) != 0
              : tensors.out.bits16[i] != again.out.bits16[i];
    if (r.differingElements)
      r.failures.push_back(format("not deterministic: %lld elements differ "
                                  "between two runs",
                                  static_cast<long long>(r.differingElements)));
  }
  if (options.bench) {
    r.timed = true;
    r.timing = computeTimingStats({seconds * 1e3});
    r.flops = attentionFlops(cfg, &r.flopsFormula);
    r.notes.push_back("cpu time is one run of the reference executor, not a "
                      "performance figure");
  }
  return finish(options, r);
}
#endif

} // namespace

int main(int argc, char **argv) {
  RunnerOptions options;
  std::string error;
#ifndef TILE_RUNNER_NO_CPU_BACKEND
  // cpu-backend test options (--dump-out, --cpu-threads), see above.
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

  // The bundle against the shape, before any device is touched.
  if (!options.bundleDir.empty()) {
    Manifest m;
    LaunchPlan plan;
    if (!loadBundle(options.bundleDir, m, error))
      return reportError(options, error);
    std::string fit = checkBundleFits(m, options.cfg);
    if (!fit.empty())
      return reportError(options, "bundle " + m.name() +
                                      " does not fit the problem: " + fit);
    if (!planLaunch(m, bindAttention(options.cfg, 0, 0, 0, 0, 0), plan, error))
      return reportError(options, "bundle " + m.name() + ": " + error);
    std::string ptx;
    PtxInfo info;
    if (!checkBundlePtx(m, plan.args, ptx, info, error))
      return reportError(options, error);
  }
  if (options.dryRun)
    return dryRun(options);

  RunResult result;
  result.cfg = options.cfg;
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
    return runCpu(options, result);
#else
    return reportError(options, std::string("--backend=cpu: ") + kNoCpuBackend);
#endif
  }
#ifndef TILE_RUNNER_NO_GPU_BACKEND
  error = runOnGpu(options, result);
  if (!error.empty())
    return reportError(options, error);
  return finish(options, result);
#else
  return reportError(options, std::string("--backend=gpu: ") + kNoGpuBackend);
#endif
}
