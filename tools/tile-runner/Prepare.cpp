//===- Prepare.cpp - load bundle, bind, check fit, plan launch ------------===//

#include "Prepare.h"

#include "Report.h"

#include "tile/Support/Checked.h"

namespace tile {
namespace runner {

ProblemOptions problemOptions(const RunnerOptions &o) {
  ProblemOptions p;
  p.sizes = o.shape;
  p.attention = o.cfg;
  p.attentionFlagsGiven = o.attentionFlags;
  p.seed = o.cfg.seed;
  p.inputStd = o.cfg.inputStd;
  return p;
}

std::unique_ptr<Problem> makeRunProblem(const RunnerOptions &o) {
  if (o.problem.empty())
    return nullptr;
  return makeProblem(o.problem, problemOptions(o));
}

bool bindRun(const RunnerOptions &o, const Problem *problem, const Manifest &m,
             RunSpec &spec, std::string &error) {
  spec = RunSpec();
  spec.seed = o.cfg.seed;
  if (problem && !problem->bind(m, spec, error))
    return false;
  for (TensorArg &t : spec.tensors)
    t.stddev = o.cfg.inputStd;
  if (!applyOverrides(m, o.args, spec, error))
    return false;
  for (const std::vector<SaveRequest> *list : {&o.saves, &o.refs})
    for (const SaveRequest &s : *list) {
      const TensorArg *t = spec.find(s.name);
      if (!t) {
        error = std::string(list == &o.saves ? "--save " : "--ref ") + s.name +
                ": kernel " + m.kernel + " has no view of that name";
        return false;
      }
      if (list == &o.refs && !t->written()) {
        error = "--ref " + s.name + ": the kernel does not write " + s.name +
                " (its access is " + tilebundle::accessName(t->access) + ")";
        return false;
      }
    }
  return true;
}

PrepareStatus prepareRun(const RunnerOptions &o, const Problem *problem,
                         const std::string &dir, PreparedRun &run,
                         std::string &message) {
  run = PreparedRun();
  if (!tilebundle::loadBundle(dir, run.bundle, message))
    return PrepareStatus::Error;
  const Manifest &m = run.bundle.manifest;
  std::string name = run.bundle.name();
  std::string error;
  if (!bindRun(o, problem, m, run.spec, error)) {
    message = "bundle " + name + ": " + error;
    return PrepareStatus::Error;
  }
  if (problem) {
    std::string fit = problem->checkFits(m, run.spec);
    if (!fit.empty()) {
      message = "bundle " + name + " does not fit the problem: " + fit;
      return PrepareStatus::DoesNotFit;
    }
  }
  if (!tilebundle::planLaunch(m, run.spec.launchBinding(), nullptr, run.plan,
                              error)) {
    message = "bundle " + name + " does not fit the problem: " + error;
    return PrepareStatus::DoesNotFit;
  }
  tilebundle::SmTarget target;
  tilebundle::parseSmTarget(m.target, target);
  if (!tilebundle::checkLaunchLimits(run.plan.grid, run.plan.block,
                                     run.plan.sharedBytes, -1,
                                     m.ptxas ? m.ptxas->registers : -1,
                                     tilebundle::targetLimits(target), error)) {
    message = "bundle " + name + ": " + error;
    return PrepareStatus::DoesNotFit;
  }
  if (!tilebundle::checkBundlePtx(run.bundle, run.plan.params, run.ptx,
                                  run.ptxInfo, message))
    return PrepareStatus::Error;
  return PrepareStatus::Ready;
}

int64_t runMemoryBytes(const RunnerOptions &o, const RunSpec &spec,
                       int64_t extra) {
  int64_t total = spec.tensorBytes();
  if (o.determinism)
    for (const TensorArg &t : spec.tensors)
      if (t.written())
        total = checked::add(total, t.bytes()).value_or(INT64_MAX);
  return checked::add(total, extra).value_or(INT64_MAX);
}

} // namespace runner
} // namespace tile
