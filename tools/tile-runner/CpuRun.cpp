//===- CpuRun.cpp - a run on the cpu backend ------------------------------===//
//
// The kernel's tile IR on the reference executor: specialize and describe
// it (CpuBackend.cpp), bind its arguments like a bundle's, estimate the host
// memory and the work the run needs and refuse what the machine cannot hold
// or what would run for hours (--max-work), run, check on the host
// (CpuBackend.h has the executor side).
//
//===----------------------------------------------------------------------===//

#include "CpuRun.h"

#include "CpuBackend.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tile {
namespace runner {

static bool dumpOutputs(const std::string &path, const RunSpec &spec,
                        const std::map<std::string, HostTensor> &tensors,
                        std::string &error) {
  FILE *file = std::fopen(path.c_str(), "wb");
  bool ok = file != nullptr;
  for (const TensorArg &t : spec.tensors) {
    if (!ok || !t.written())
      continue;
    const HostTensor &h = tensors.at(t.name);
    ok = std::fwrite(h.data(), 1, h.sizeBytes(), file) == h.sizeBytes();
  }
  if (file && std::fclose(file) != 0)
    ok = false;
  if (!ok)
    error = "--dump-out: cannot write '" + path + "'";
  return ok;
}

int runCpu(const RunnerOptions &o, const Problem *problem,
           const CpuTestOptions &test, RunResult &r) {
  CpuRunOptions cpu;
  cpu.kernelPath = o.kernelPath;
  cpu.params = o.params;
  cpu.pipeline = o.pipeline;
  cpu.threads = test.threads;
  cpu.maxWork = o.maxWork;
  std::string error;
  if (cpu.kernelPath.empty()) {
    // --bundle with the cpu backend: the manifest's source and parameters.
    tilebundle::Bundle b;
    if (!tilebundle::loadBundle(o.bundleDir, b, error))
      return reportError(o, error);
    const Manifest &m = b.manifest;
    if (m.source.size() < 5 ||
        m.source.compare(m.source.size() - 5, 5, ".mlir") != 0)
      return reportError(o, "the cpu backend runs tile IR, and bundle " +
                                b.name() + " names no .mlir source (" +
                                (m.source.empty() ? "none" : m.source) +
                                "); give --kernel FILE");
    cpu.kernelPath = m.source;
    for (const auto &p : m.params)
      cpu.params.push_back(p.first + "=" + p.second.str());
    r.notes.push_back("the cpu backend runs the bundle's source " + m.source +
                      " with its parameters");
  }
  ImpliedParams implied;
  if (problem)
    implied =
        [problem](
            const std::function<std::string(const std::string &)> &value) {
          return problem->impliedParams(value);
        };
  std::unique_ptr<CpuKernel> kernel = CpuKernel::load(cpu, implied, error);
  if (!kernel)
    return reportError(o, error);
  const Manifest &m = kernel->manifest();
  RunSpec spec;
  if (!bindRun(o, problem, m, spec, error))
    return reportError(o, error);
  // No fit check: the kernel was specialized with the parameters the
  // problem implies.
  tilebundle::LaunchPlan plan;
  if (!tilebundle::planLaunch(m, spec.launchBinding(), nullptr, plan, error))
    return reportError(o, error);

  r.backend = "cpu";
  r.deviceSummary = "host (tile IR reference executor)";
  describeKernel(m, cpu.kernelPath, cpu.kernelPath, plan, r);
  r.loadedFrom = "tile IR, reference executor";
  r.grid = {0, 0, 0};
  r.params.clear();
  for (const std::string &b : kernel->bindings())
    r.params += (r.params.empty() ? "" : " ") + b;
  describeShape(o, problem, spec, r);
  r.inputs = "host: seeded normal generator (Tensor.h)";

  // The arguments, a copy of each for the reference check and float64
  // references of the outputs; twice the written views for --determinism.
  int64_t written = 0;
  for (const TensorArg &t : spec.tensors)
    if (t.written())
      written += t.elements();
  int64_t need = runMemoryBytes(o, spec, spec.tensorBytes() + 24 * written);
  r.memoryBytes = need;
  if (!checkMemory(need, hostAvailableMemory(),
                   std::getenv("TILE_RUNNER_HOST_MEMORY")
                       ? "host memory available (MemAvailable, "
                         "TILE_RUNNER_HOST_MEMORY)"
                       : "host memory available (MemAvailable)",
                   error))
    return reportError(o, error);
  // The work too: the executor interprets, and a large problem would run
  // for hours (the fmha kernel at --seq 65536 is about 2^39 units).
  error = kernel->checkWork(spec);
  if (!error.empty())
    return reportError(o, error);

  auto makeTensors = [&](std::map<std::string, HostTensor> &tensors) {
    for (const TensorArg &t : spec.tensors)
      if (!makeHostTensor(t, spec.seed, tensors[t.name], error))
        return false;
    return true;
  };
  std::map<std::string, HostTensor> tensors;
  if (!makeTensors(tensors))
    return reportError(o, error);
  double seconds = 0;
  error = kernel->run(spec, tensors, &seconds);
  if (!error.empty())
    return reportError(o, error);
  if (!test.dumpOut.empty() && !dumpOutputs(test.dumpOut, spec, tensors, error))
    return reportError(o, error);
  if (!checkOnHost(o, problem, m, spec, tensors, r, error) ||
      !saveOutputs(o, tensors, error))
    return reportError(o, error);

  if (o.determinism) {
    std::map<std::string, HostTensor> again;
    if (!makeTensors(again))
      return reportError(o, error);
    error = kernel->run(spec, again, nullptr);
    if (!error.empty())
      return reportError(o, error);
    r.determinismChecked = true;
    for (const TensorArg &t : spec.tensors)
      if (t.written()) {
        const HostTensor &a = tensors.at(t.name), &b = again.at(t.name);
        int bytes = dtypeBytes(t.dtype);
        for (int64_t i = 0; i < a.numElements(); ++i)
          r.differingElements +=
              std::memcmp(a.bytes.data() + i * bytes,
                          b.bytes.data() + i * bytes, bytes) != 0;
      }
    if (r.differingElements)
      r.failures.push_back(format("not deterministic: %lld elements differ "
                                  "between two runs",
                                  static_cast<long long>(r.differingElements)));
  }
  if (o.bench) {
    r.timed = true;
    r.timing = computeTimingStats({seconds * 1e3});
    if (problem) {
      r.flops = problem->flops(m, spec, &r.flopsFormula);
      r.bytesMoved = problem->bytesMoved(spec);
    }
    r.notes.push_back("cpu time is one run of the reference executor, not a "
                      "performance figure");
  }
  return finish(o, r);
}

} // namespace runner
} // namespace tile
