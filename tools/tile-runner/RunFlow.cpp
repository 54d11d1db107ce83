//===- RunFlow.cpp - the parts of a run both backends share ---------------===//

#include "RunFlow.h"

#include "tile/Bundle/Npy.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tile {
namespace runner {

void describeShape(const RunnerOptions &o, const Problem *problem,
                   const RunSpec &spec, RunResult &r) {
  r.problem = problem ? problem->name() : "";
  r.bindings = spec.summary();
  if (problem && problem->name() == "attention") {
    const AttentionConfig &cfg = o.cfg;
    r.shapeText =
        shapeSummary(cfg) +
        format(" scale=%.6g seed=%llu std=%g", cfg.effectiveScale(),
               static_cast<unsigned long long>(cfg.seed), cfg.inputStd);
    r.shape = shapeToJson(cfg);
    return;
  }
  std::string sizes = problem ? problem->shapeSummary(spec) : spec.summary();
  r.shapeText = sizes + format(" seed=%llu std=%g",
                               static_cast<unsigned long long>(spec.seed),
                               o.cfg.inputStd);
  r.shape = Json::object();
  for (const auto &s : o.shape)
    r.shape[s.first] = s.second;
  Json args = Json::object();
  for (const TensorArg &t : spec.tensors)
    args[t.name] = t.str();
  for (const auto &s : spec.scalars)
    args[s.first] =
        s.second.isInteger ? Json(s.second.integer) : Json(s.second.real);
  r.shape["arguments"] = args;
  r.shape["seed"] = spec.seed;
  r.shape["std"] = o.cfg.inputStd;
}

void describeKernel(const Manifest &m, const std::string &name,
                    const std::string &path, const tilebundle::LaunchPlan &plan,
                    RunResult &r) {
  r.kernelName = name;
  r.kernelPath = path;
  r.target = m.target;
  r.compiler = m.compiler;
  r.entry = m.entry;
  r.pipeline = m.pipeline;
  r.params = m.paramsSummary();
  r.paramsJson = Json::object();
  for (const auto &p : m.params) {
    switch (p.second.kind) {
    case tilebundle::ParamValue::Kind::Int:
      r.paramsJson[p.first] = p.second.intValue;
      break;
    case tilebundle::ParamValue::Kind::Bool:
      r.paramsJson[p.first] = p.second.boolValue;
      break;
    case tilebundle::ParamValue::Kind::String:
      r.paramsJson[p.first] = p.second.stringValue;
      break;
    }
  }
  r.numWarps = static_cast<int>(m.numWarps);
  r.grid = plan.grid;
  r.block = plan.block;
  r.dynamicShared = plan.sharedBytes;
  r.expectedOccupancy = static_cast<int>(m.occupancy);
  r.ptxas = PtxasFigures::fromManifest(m);
}

void countWritten(const RunSpec &spec,
                  const std::map<std::string, HostTensor> &tensors,
                  RunResult &r) {
  r.writtenChecked = true;
  r.outputElements = 0;
  r.badElements = 0;
  for (const TensorArg &t : spec.tensors) {
    if (!t.written())
      continue;
    const HostTensor &h = tensors.at(t.name);
    int64_t unwritten = 0, nonFinite = 0;
    for (int64_t i = 0; i < h.numElements(); ++i) {
      if (t.poisoned() && h.isPoison(i))
        ++unwritten;
      else if (!std::isfinite(h.get(i)))
        ++nonFinite;
    }
    r.outputElements += h.numElements();
    r.badElements += unwritten + nonFinite;
    writtenFailures(t.name, h.numElements(), unwritten, nonFinite, r.failures);
  }
}

bool checkOnHost(const RunnerOptions &o, const Problem *problem,
                 const Manifest &m, const RunSpec &spec,
                 const std::map<std::string, HostTensor> &tensors, RunResult &r,
                 std::string &error) {
  countWritten(spec, tensors, r);
  if (!o.check)
    return true;
  ProblemCheck &c = r.check;
  if (!o.refs.empty()) {
    for (const SaveRequest &ref : o.refs) {
      OutputCheck oc;
      if (!checkAgainstNpy(tensors.at(ref.name), ref.name, ref.file, o.rtol,
                           o.atol, oc, error))
        return false;
      c.outputs.push_back(oc);
    }
    c.reference = "reference .npy (--ref)";
    c.rule = format("|out - ref| <= %g + %g |ref|", o.atol, o.rtol);
    c.finish(spec.seed);
  } else if (problem) {
    if (!problem->checkOnHost(m, spec, tensors, c, error))
      return false;
    if (!c.hasAttention)
      c.finish(spec.seed);
    c.done = true;
  } else {
    c.notes.push_back("no --problem and no --ref: only unwritten and NaN/Inf "
                      "outputs are checked");
    return true;
  }
  for (const std::string &f : c.failures)
    if (std::find(r.failures.begin(), r.failures.end(), f) == r.failures.end())
      r.failures.push_back(f);
  return true;
}

bool saveOutputs(const RunnerOptions &o,
                 const std::map<std::string, HostTensor> &tensors,
                 std::string &error) {
  for (const SaveRequest &s : o.saves) {
    const HostTensor &t = tensors.at(s.name);
    if (!tilebundle::writeFileBytes(
            s.file, tilebundle::encodeNpy(t.dtype, t.shape, t.data()), error))
      return false;
  }
  return true;
}

int reportError(const RunnerOptions &o, const std::string &message) {
  std::fprintf(stderr, "tile-runner: error: %s\n", message.c_str());
  if (o.json) {
    Json j = {{"tool", "tile-runner"},
              {"passed", false},
              {"error", message},
              {"shape", shapeToJson(o.cfg)}};
    std::printf("%s\n", j.dump(2).c_str());
  }
  return kExitError;
}

int finish(const RunnerOptions &o, const RunResult &r) {
  if (o.json)
    std::printf("%s\n", resultToJson(r).dump(2).c_str());
  else
    std::printf("%s", renderTable(r).c_str());
  std::fflush(stdout);
  if (!r.errors.empty())
    return kExitError;
  return r.passed() ? 0 : kExitFailed;
}

} // namespace runner
} // namespace tile
