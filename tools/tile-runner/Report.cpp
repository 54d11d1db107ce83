//===- Report.cpp - what one tile-runner run found ------------------------===//

#include "Report.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>

namespace tile {
namespace runner {

std::string format(const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  va_list copy;
  va_copy(copy, args);
  int n = std::vsnprintf(nullptr, 0, fmt, copy);
  va_end(copy);
  std::string out(n > 0 ? static_cast<size_t>(n) : 0, '\0');
  if (n > 0)
    std::vsnprintf(&out[0], out.size() + 1, fmt, args);
  va_end(args);
  return out;
}

//===----------------------------------------------------------------------===//
// Timing and FLOPs
//===----------------------------------------------------------------------===//

static double percentile(const std::vector<double> &sorted, double q) {
  if (sorted.empty())
    return 0;
  double at = q * (sorted.size() - 1);
  size_t lo = static_cast<size_t>(std::floor(at));
  size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

TimingStats computeTimingStats(std::vector<double> samples) {
  TimingStats s;
  s.samples = static_cast<int>(samples.size());
  if (samples.empty())
    return s;
  std::sort(samples.begin(), samples.end());
  s.min = samples.front();
  s.max = samples.back();
  s.median = percentile(samples, 0.5);
  s.p10 = percentile(samples, 0.1);
  s.p90 = percentile(samples, 0.9);
  double sum = 0;
  for (double v : samples)
    sum += v;
  s.mean = sum / samples.size();
  return s;
}

Json TimingStats::toJson() const {
  return {{"median_ms", median}, {"mean_ms", mean},  {"min_ms", min},
          {"max_ms", max},       {"p10_ms", p10},    {"p90_ms", p90},
          {"samples", samples},  {"warmup", warmup}, {"l2_flushed", l2Flushed}};
}

std::string TimingStats::str() const {
  return format("%.4f ms median (p10 %.4f, p90 %.4f, min %.4f, max %.4f; "
                "%d samples after %d warm-up, L2 %s)",
                median, p10, p90, min, max, samples, warmup,
                l2Flushed ? "flushed before each" : "not flushed");
}

double attentionFlops(const AttentionConfig &cfg, std::string *formula) {
  const double perPair = 4.0 * cfg.batch * cfg.heads * cfg.headDim;
  const double sq = cfg.seqQ, sk = cfg.seqK;
  if (!cfg.causal) {
    if (formula)
      *formula = "4*B*H*Sq*Sk*D";
    return perPair * sq * sk;
  }
  if (cfg.seqQ == cfg.seqK && cfg.inputPos == 0) {
    if (formula)
      *formula = "4*B*H*S*S*D/2 (causal, FlashAttention convention)";
    return perPair * sq * sk / 2;
  }
  // Rows i see clamp(a + i, 0, Sk) keys, a = input_pos + 1: none while
  // a + i <= 0, a + i while it is below Sk, then Sk.
  const double a = double(cfg.inputPos) + 1;
  const double firstSeeing = std::max(0.0, 1 - a);
  const double firstFull = std::min(sq, std::max(0.0, sk - a));
  double pairs = 0;
  if (firstFull > firstSeeing) {
    // sum of (a + i) for i in [firstSeeing, firstFull)
    double n = firstFull - firstSeeing;
    pairs += n * a + (firstSeeing + firstFull - 1) * n / 2;
  }
  double saturatedFrom = std::max(firstSeeing, firstFull);
  if (sq > saturatedFrom)
    pairs += (sq - saturatedFrom) * sk;
  if (formula)
    *formula = "4*B*H*D*(visible query-key pairs) (causal, Sq != Sk or "
               "input_pos != 0: exact count)";
  return perPair * pairs;
}

PtxasFigures PtxasFigures::fromManifest(const tilebundle::Manifest &m) {
  PtxasFigures f;
  if (!m.ptxas)
    return f;
  f.present = true;
  f.report.registers = m.ptxas->registers;
  f.report.spillStores = m.ptxas->spillStores;
  f.report.spillLoads = m.ptxas->spillLoads;
  f.report.stackBytes = m.ptxas->stackBytes;
  f.source = "manifest";
  return f;
}

double RunResult::tflops() const {
  if (!timed || timing.median <= 0)
    return 0;
  return flops / (timing.median * 1e-3) / 1e12;
}

double RunResult::gbPerSecond() const {
  if (!timed || timing.median <= 0)
    return 0;
  return bytesMoved / (timing.median * 1e-3) / 1e9;
}

static int64_t gcd(int64_t a, int64_t b) {
  while (b) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

std::vector<int64_t> selectCheckRows(int64_t totalRows, int64_t seqQ,
                                     int64_t count) {
  seqQ = std::max<int64_t>(1, std::min(seqQ, totalRows));
  std::vector<int64_t> rows;
  if (count <= 0 || count >= totalRows) {
    rows.resize(totalRows);
    for (int64_t i = 0; i < totalRows; ++i)
      rows[i] = i;
    return rows;
  }
  // A stride near total / golden ratio, coprime with the total, visits
  // distinct rows that fall on every position within the query tiles.
  int64_t stride = static_cast<int64_t>(totalRows * 0.6180339887498949) | 1;
  while (gcd(stride, totalRows) != 1)
    stride += 2;
  rows.reserve(count + 6);
  for (int64_t j = 0; j < count; ++j)
    rows.push_back(static_cast<int64_t>(
        (static_cast<unsigned __int128>(j) * stride) % totalRows));
  for (int64_t head : {int64_t(0), totalRows / seqQ - 1})
    for (int64_t i : {int64_t(0), int64_t(1), seqQ - 1})
      if (i < seqQ)
        rows.push_back(head * seqQ + i);
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  return rows;
}

//===----------------------------------------------------------------------===//
// Rendering
//===----------------------------------------------------------------------===//

std::string shapeSummary(const AttentionConfig &cfg) {
  std::string s = format("B=%d H=%d HKV=%d Sq=%d Sk=%d D=%d %s", cfg.batch,
                         cfg.heads, cfg.kvHeads, cfg.seqQ, cfg.seqK,
                         cfg.headDim, dtypeName(cfg.dtype));
  s += cfg.causal ? format(" causal input_pos=%d", cfg.inputPos)
                  : std::string(" non-causal");
  if (cfg.withLse)
    s += " lse";
  return s;
}

Json shapeToJson(const AttentionConfig &cfg) {
  return {{"batch", cfg.batch},
          {"heads", cfg.heads},
          {"kv_heads", cfg.kvHeads},
          {"seq_q", cfg.seqQ},
          {"seq_k", cfg.seqK},
          {"head_dim", cfg.headDim},
          {"dtype", dtypeName(cfg.dtype)},
          {"causal", cfg.causal},
          {"input_pos", cfg.inputPos},
          {"lse", cfg.withLse},
          {"scale", static_cast<double>(cfg.effectiveScale())},
          {"seed", static_cast<int64_t>(cfg.seed)},
          {"std", static_cast<double>(cfg.inputStd)}};
}

static std::string dims(const std::array<int64_t, 3> &d) {
  return format("[%lld, %lld, %lld]", static_cast<long long>(d[0]),
                static_cast<long long>(d[1]), static_cast<long long>(d[2]));
}

static std::string gib(int64_t bytes) {
  return format("%.3g GiB", bytes / 1073741824.0);
}

std::string renderTable(const RunResult &r) {
  std::string out;
  auto row = [&](const char *label, const std::string &text) {
    if (!text.empty())
      out += format("  %-12s %s\n", label, text.c_str());
  };
  std::string verdict = r.dryRun ? "DRY RUN" : (r.passed() ? "PASS" : "FAIL");
  out += "tile-runner: " + verdict + "\n";
  std::string backend = r.backend.empty() ? "none" : r.backend;
  if (!r.deviceSummary.empty())
    backend += ": " + r.deviceSummary;
  if (!r.backendReason.empty())
    backend += "  [" + r.backendReason + "]";
  row("backend", backend);
  row("problem", r.problem);
  row("shape", r.shapeText);
  std::string kernel = r.kernelName;
  if (!r.loadedFrom.empty())
    kernel += " (" + r.loadedFrom + ")";
  if (!r.target.empty())
    kernel += ", target " + r.target;
  if (!r.compiler.empty())
    kernel += ", " + r.compiler;
  row("kernel", kernel);
  if (!r.kernelPath.empty() && r.kernelPath != r.kernelName)
    row("path", r.kernelPath);
  row("params", r.params);
  if (!r.pipeline.empty())
    row("pipeline", r.pipeline);
  row("arguments", r.kernelArgs.empty() ? r.bindings : std::string());
  if (r.grid[0])
    row("launch", format("grid %s block %s, %lld B dynamic shared memory",
                         dims(r.grid).c_str(), dims(r.block).c_str(),
                         static_cast<long long>(r.dynamicShared)) +
                      (r.numWarps ? format(", %d warps", r.numWarps) : ""));
  for (size_t i = 0; i < r.kernelArgs.size(); ++i)
    row(i == 0 ? "arguments" : "", r.kernelArgs[i]);
  if (r.memoryBytes)
    row("memory", gib(r.memoryBytes) + " for the arguments, references and "
                                       "scratch");
  if (r.haveResources) {
    std::string occupancy =
        format("%d block%s/SM", r.occupancy, r.occupancy == 1 ? "" : "s");
    if (r.expectedOccupancy)
      occupancy += format(" (manifest asks %d)", r.expectedOccupancy);
    row("resources",
        format("%d registers, %d B local, %d B static shared, at most %d "
               "threads/block, occupancy ",
               r.registers, r.localBytes, r.staticShared,
               r.maxThreadsPerBlock) +
            occupancy);
  }
  if (r.ptxas.present)
    row("ptxas", format("%lld registers, %lld B spill stores, %lld B spill "
                        "loads, %lld B stack (%s)",
                        static_cast<long long>(r.ptxas.report.registers),
                        static_cast<long long>(r.ptxas.report.spillStores),
                        static_cast<long long>(r.ptxas.report.spillLoads),
                        static_cast<long long>(r.ptxas.report.stackBytes),
                        r.ptxas.source.c_str()));
  row("inputs", r.inputs);
  if (r.timed) {
    row("time", r.timing.str());
    if (r.flops > 0)
      row("TFLOPS", format("%.1f  (%.4g GFLOP: %s)", r.tflops(), r.flops / 1e9,
                           r.flopsFormula.c_str()));
    if (r.bytesMoved > 0)
      row("GB/s", format("%.1f  (%.4g GB read and written)", r.gbPerSecond(),
                         r.bytesMoved / 1e9));
  }
  const ProblemCheck &c = r.check;
  if (c.done) {
    std::string rows =
        c.rowsTotal == 0 ? std::string()
        : c.rowsChecked < c.rowsTotal
            ? format("; %lld of %lld rows (sampled; --check-rows all for "
                     "every row)",
                     static_cast<long long>(c.rowsChecked),
                     static_cast<long long>(c.rowsTotal))
            : format("; all %lld rows", static_cast<long long>(c.rowsTotal));
    if (c.hasAttention) {
      const AttentionCheckInfo &a = c.attention;
      row("check", format("max|out-ref| %.3e %s tolerance %.3e (2 x %.3e "
                          "low-precision error + atol %.3e)",
                          a.maxError, a.maxError <= a.tolerance ? "<=" : ">",
                          a.tolerance, a.lowPrecError, a.atol) +
                       rows);
    } else {
      for (size_t i = 0; i < c.outputs.size(); ++i) {
        const OutputCheck &o = c.outputs[i];
        row(i == 0 ? "check" : "",
            format("%s: max|out-ref| %.3e, max error/tolerance %.3g, %lld of "
                   "%lld elements outside",
                   o.name.c_str(), o.maxError, o.maxRatio,
                   static_cast<long long>(o.violations),
                   static_cast<long long>(o.elements)) +
                (i == 0 ? rows : std::string()));
      }
      row("rule", c.rule);
    }
    row("reference", c.reference);
    if (c.hasAttention && c.attention.lseChecked)
      row("lse",
          format("max error %.3e (%s)", c.attention.maxLseError,
                 c.attention.lseRule.c_str()) +
              (c.attention.lseBadRows > 0
                   ? format("; %lld rows off",
                            static_cast<long long>(c.attention.lseBadRows))
                   : std::string()));
  }
  if (r.writtenChecked)
    row("written", r.badElements == 0
                       ? format("all %lld output elements written, no NaN/Inf",
                                static_cast<long long>(r.outputElements))
                       : format("%lld of %lld elements NaN/Inf or unwritten",
                                static_cast<long long>(r.badElements),
                                static_cast<long long>(r.outputElements)));
  if (r.determinismChecked)
    row("determinism",
        r.differingElements == 0
            ? std::string("bitwise equal over two runs")
            : format("%lld elements differ between two runs",
                     static_cast<long long>(r.differingElements)));
  for (const std::string &note : r.notes)
    row("note", note);
  for (const std::string &note : r.check.notes)
    row("note", note);
  for (const std::string &failure : r.failures)
    row("FAIL", failure);
  for (const std::string &error : r.errors)
    row("ERROR", error);
  if (!r.dryRun)
    row("result", r.passed() ? "PASS" : (r.errors.empty() ? "FAIL" : "ERROR"));
  return out;
}

Json resultToJson(const RunResult &r) {
  Json j = Json::object();
  j["tool"] = "tile-runner";
  j["passed"] = r.passed();
  j["dry_run"] = r.dryRun;
  j["backend"] = r.backend;
  if (!r.backendReason.empty())
    j["backend_reason"] = r.backendReason;
  if (!r.device.is_null())
    j["device"] = r.device;
  if (!r.problem.empty())
    j["problem"] = r.problem;
  j["shape"] = r.shape;

  Json kernel = Json::object();
  kernel["name"] = r.kernelName;
  kernel["path"] = r.kernelPath;
  if (!r.loadedFrom.empty())
    kernel["loaded_from"] = r.loadedFrom;
  if (!r.target.empty())
    kernel["target"] = r.target;
  if (!r.compiler.empty())
    kernel["compiler"] = r.compiler;
  if (!r.entry.empty())
    kernel["entry"] = r.entry;
  if (!r.pipeline.empty())
    kernel["pipeline"] = r.pipeline;
  kernel["params"] = r.paramsJson;
  if (r.grid[0]) {
    kernel["grid"] = Json::array({r.grid[0], r.grid[1], r.grid[2]});
    kernel["block"] = Json::array({r.block[0], r.block[1], r.block[2]});
    kernel["dynamic_shared_bytes"] = r.dynamicShared;
    kernel["num_warps"] = r.numWarps;
  }
  if (!r.kernelArgs.empty())
    kernel["arguments"] = r.kernelArgs;
  if (!r.bindings.empty())
    kernel["bindings"] = r.bindings;
  j["kernel"] = kernel;
  if (r.memoryBytes)
    j["memory_bytes"] = r.memoryBytes;

  if (r.haveResources)
    j["resources"] = {{"registers", r.registers},
                      {"local_bytes", r.localBytes},
                      {"static_shared_bytes", r.staticShared},
                      {"max_threads_per_block", r.maxThreadsPerBlock},
                      {"occupancy_blocks_per_sm", r.occupancy},
                      {"manifest_occupancy", r.expectedOccupancy}};
  if (r.ptxas.present)
    j["ptxas"] = {{"registers", r.ptxas.report.registers},
                  {"spill_stores", r.ptxas.report.spillStores},
                  {"spill_loads", r.ptxas.report.spillLoads},
                  {"stack_bytes", r.ptxas.report.stackBytes},
                  {"source", r.ptxas.source}};
  if (!r.inputs.empty())
    j["inputs"] = r.inputs;
  if (r.timed) {
    Json t = r.timing.toJson();
    t["tflops"] = r.tflops();
    t["flops"] = r.flops;
    t["flops_formula"] = r.flopsFormula;
    t["bytes"] = r.bytesMoved;
    t["gb_per_s"] = r.gbPerSecond();
    j["timing"] = t;
  }
  if (r.check.done) {
    const ProblemCheck &c = r.check;
    Json cj = Json::object();
    cj["passed"] = c.passed();
    if (c.hasAttention) {
      cj["max_error"] = c.attention.maxError;
      cj["low_precision_error"] = c.attention.lowPrecError;
      cj["atol"] = c.attention.atol;
      cj["tolerance"] = c.attention.tolerance;
      if (c.attention.lseChecked) {
        cj["lse_max_error"] = c.attention.maxLseError;
        cj["lse_rule"] = c.attention.lseRule;
        cj["lse_bad_rows"] = c.attention.lseBadRows;
      }
    } else {
      Json outs = Json::array();
      for (const OutputCheck &o : c.outputs)
        outs.push_back({{"name", o.name},
                        {"elements", o.elements},
                        {"unwritten", o.unwritten},
                        {"non_finite", o.nonFinite},
                        {"violations", o.violations},
                        {"max_error", o.maxError},
                        {"max_error_over_tolerance", o.maxRatio},
                        {"worst_index", o.worst}});
      cj["outputs"] = outs;
      cj["rule"] = c.rule;
    }
    cj["rows_checked"] = c.rowsChecked;
    cj["rows_total"] = c.rowsTotal;
    cj["sampled"] = c.rowsChecked < c.rowsTotal;
    cj["reference"] = c.reference;
    if (!c.failures.empty())
      cj["message"] = c.failures.front();
    j["check"] = cj;
  }
  if (r.writtenChecked)
    j["written"] = {{"elements", r.outputElements},
                    {"non_finite_or_unwritten", r.badElements}};
  if (r.determinismChecked)
    j["determinism"] = {{"bitwise_equal", r.differingElements == 0},
                        {"differing_elements", r.differingElements}};
  if (!r.autotune.is_null())
    j["autotune"] = r.autotune;
  std::vector<std::string> notes = r.notes;
  notes.insert(notes.end(), r.check.notes.begin(), r.check.notes.end());
  j["notes"] = notes;
  j["failures"] = r.failures;
  j["errors"] = r.errors;
  return j;
}

} // namespace runner
} // namespace tile
