//===- GpuAutotune.cpp - choosing a variant on the GPU --------------------===//
//
// --autotune: which variants in --bundles fit the binding (params, requires,
// alignment, launch limits: Prepare.cpp, no GPU needed), the cached winner
// for this problem, GPU and compiler, else each fitting variant timed in a
// child process (`tile-runner --bundle DIR ... --bench --json
// --autotune-child`): a kernel that faults or hangs loses its own process
// and context only, is reported (the run then exits with status 2) and the
// remaining variants still run.
//
//===----------------------------------------------------------------------===//

#include "GpuBackend.h"

#include "Autotune.h"
#include "GpuDevice.h"
#include "Prepare.h"

#include <algorithm>
#include <cstdio>
#include <ctime>

namespace tile {
namespace runner {
namespace {

std::string nowUtc() {
  std::time_t t = std::time(nullptr);
  char buffer[32];
  std::strftime(buffer, sizeof(buffer), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buffer;
}

/// Times one variant in a child process; fills the outcome. A fault, a hang
/// or a crash is an error of the run too.
void timeVariant(const RunnerOptions &o, const std::vector<std::string> &argv,
                 VariantOutcome &v, RunResult &result) {
  std::string self = selfExecutable();
  std::vector<std::string> args =
      autotuneChildArgs(argv, self, v.dir, o.autotuneReps);
  std::string output, error;
  int status = 0;
  bool timedOut = false;
  if (!runChild(args, o.autotuneTimeout, output, status, timedOut, error)) {
    v.status = VariantOutcome::Status::Failed;
    v.reason = "cannot start the child process: " + error;
    return;
  }
  Json j = Json::parse(output, nullptr, /*allow_exceptions=*/false);
  auto fault = [&](const std::string &why) {
    v.status = VariantOutcome::Status::Faulted;
    v.reason = why;
    result.errors.push_back("autotune: variant " + v.name + ": " + why);
  };
  if (timedOut)
    return fault(format("did not finish within --autotune-timeout %d s "
                        "(killed)",
                        o.autotuneTimeout));
  if (j.is_discarded() || !j.is_object())
    return fault(format("the child process ended with status %d and no "
                        "report (a crash?)",
                        status));
  if (j.contains("error")) {
    std::string message = j["error"].get<std::string>();
    if (isKernelFault(message))
      return fault(message);
    v.status = VariantOutcome::Status::Failed;
    v.reason = firstLine(message);
    return;
  }
  std::vector<std::string> failures =
      j.value("failures", std::vector<std::string>());
  if (!failures.empty()) {
    bool spills = failures.front().find("spills") != std::string::npos;
    v.status = spills ? VariantOutcome::Status::Skipped
                      : VariantOutcome::Status::Failed;
    v.reason = failures.front();
    return;
  }
  if (!j.contains("timing")) {
    v.status = VariantOutcome::Status::Failed;
    v.reason = "the child process reported no timing";
    return;
  }
  const Json &t = j["timing"];
  v.status = VariantOutcome::Status::Timed;
  v.timing.median = t.value("median_ms", 0.0);
  v.timing.p10 = t.value("p10_ms", 0.0);
  v.timing.p90 = t.value("p90_ms", 0.0);
  v.timing.min = t.value("min_ms", 0.0);
  v.timing.max = t.value("max_ms", 0.0);
  v.timing.mean = t.value("mean_ms", 0.0);
  v.timing.samples = t.value("samples", 0);
  v.tflops = t.value("tflops", 0.0);
}

} // namespace

std::string autotune(const RunnerOptions &o, const Problem *problem,
                     const std::vector<std::string> &argv, RunResult &result,
                     std::string &winnerDir) {
  std::vector<std::string> dirs;
  std::string error;
  if (!tilebundle::listBundles(o.bundlesDir, dirs, error))
    return "--bundles: " + error;
  std::vector<VariantOutcome> outcomes(dirs.size());
  std::vector<std::string> names, compilers;
  std::string problemKey;
  for (size_t i = 0; i < dirs.size(); ++i) {
    VariantOutcome &v = outcomes[i];
    v.dir = dirs[i];
    v.name = dirs[i].substr(dirs[i].find_last_of('/') + 1);
    PreparedRun run;
    switch (prepareRun(o, problem, dirs[i], run, error)) {
    case PrepareStatus::Error:
      v.status = VariantOutcome::Status::Failed;
      v.reason = error;
      break;
    case PrepareStatus::DoesNotFit:
      v.status = VariantOutcome::Status::Skipped;
      v.reason = error;
      break;
    case PrepareStatus::Ready: {
      const Manifest &m = run.bundle.manifest;
      v.params = m.paramsSummary();
      if (m.ptxas && m.ptxas->spills()) {
        v.status = VariantOutcome::Status::Skipped;
        v.reason = format("ptxas reports spills (%lld B stores, %lld B loads)",
                          static_cast<long long>(m.ptxas->spillStores),
                          static_cast<long long>(m.ptxas->spillLoads));
      } else {
        v.status = VariantOutcome::Status::Timed; // a candidate, for now
      }
      if (problemKey.empty())
        problemKey =
            (problem ? problem->name() + " " + problem->shapeSummary(run.spec)
                     : std::string("--arg")) +
            " | " + run.spec.summary();
      if (std::find(compilers.begin(), compilers.end(), m.compiler) ==
          compilers.end())
        compilers.push_back(m.compiler);
      break;
    }
    }
    names.push_back(v.name);
  }
  std::sort(compilers.begin(), compilers.end());
  std::string compiler;
  for (const std::string &c : compilers)
    compiler += (compiler.empty() ? "" : "; ") + c;

  Gpu gpu;
  TRY(gpu.open(o.device, /*withContext=*/false));
  std::string key =
      autotuneKey(problemKey, gpu.name, gpu.ccMajor, gpu.ccMinor, compiler);
  std::string cachePath =
      o.autotuneCache.empty() ? defaultAutotuneCachePath() : o.autotuneCache;
  AutotuneCache cache;
  if (!cache.load(cachePath, error))
    return error;
  Json summary = {{"key", key}, {"cache", cachePath}};
  if (!o.retune) {
    if (const Json *entry = cache.lookup(key)) {
      std::string why;
      if (cacheEntryUsable(*entry, names, why)) {
        std::string winner = (*entry)["winner"].get<std::string>();
        for (size_t i = 0; i < names.size(); ++i)
          if (names[i] == winner)
            winnerDir = dirs[i];
        std::string line = format(
            "autotune: cached winner %s (%.4f ms when tuned %s); not timing "
            "again (--retune to time the variants)",
            winner.c_str(), entry->value("median_ms", 0.0),
            entry->value("date", std::string("earlier")).c_str());
        result.notes.push_back(line.substr(10));
        if (o.printAutotune && !o.json)
          std::printf("%s\n", line.c_str());
        summary["cached"] = true;
        summary["winner"] = winner;
        summary["entry"] = *entry;
        result.autotune = summary;
        return std::string();
      }
      result.notes.push_back("autotune cache entry not used: " + why);
    }
  }

  for (VariantOutcome &v : outcomes) {
    if (v.status == VariantOutcome::Status::Timed)
      timeVariant(o, argv, v, result);
    if (v.status == VariantOutcome::Status::Timed)
      std::fprintf(stderr, "autotune: %s: %.4f ms (%.1f TFLOPS)\n",
                   v.name.c_str(), v.timing.median, v.tflops);
    else
      std::fprintf(stderr, "autotune: %s: %s: %s\n", v.name.c_str(),
                   variantStatusName(v.status), firstLine(v.reason).c_str());
  }
  AutotuneDecision decision = pickWinner(outcomes);
  summary["cached"] = false;
  summary["variants"] = outcomesToJson(outcomes);
  summary["why"] = decision.why;
  if (o.printAutotune && !o.json)
    std::printf("%s", renderAutotuneTable(outcomes, decision).c_str());
  if (decision.winner < 0) {
    result.autotune = summary;
    result.failures.push_back("autotune: no variant in " + o.bundlesDir +
                              " fits and runs this problem");
    return std::string();
  }
  const VariantOutcome &w = outcomes[decision.winner];
  winnerDir = w.dir;
  summary["winner"] = w.name;
  result.autotune = summary;
  result.notes.push_back("autotune winner: " + decision.why);
  if (!result.errors.empty()) {
    result.notes.push_back("the cache is not updated: a variant faulted");
    return std::string();
  }
  Json entry = {{"winner", w.name},   {"bundle", w.dir},
                {"params", w.params}, {"median_ms", w.timing.median},
                {"tflops", w.tflops}, {"date", nowUtc()},
                {"variants", names}};
  cache.store(key, entry);
  if (!cache.save(error))
    result.notes.push_back("autotune cache not saved: " + error);
  return std::string();
}

} // namespace runner
} // namespace tile
