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
  Json j = Json::object();
  j.set("median_ms", median);
  j.set("mean_ms", mean);
  j.set("min_ms", min);
  j.set("max_ms", max);
  j.set("p10_ms", p10);
  j.set("p90_ms", p90);
  j.set("samples", samples);
  j.set("warmup", warmup);
  j.set("l2_flushed", l2Flushed);
  return j;
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

double RunResult::tflops() const {
  if (!timed || timing.median <= 0)
    return 0;
  return flops / (timing.median * 1e-3) / 1e12;
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
  Json j = Json::object();
  j.set("batch", cfg.batch);
  j.set("heads", cfg.heads);
  j.set("kv_heads", cfg.kvHeads);
  j.set("seq_q", cfg.seqQ);
  j.set("seq_k", cfg.seqK);
  j.set("head_dim", cfg.headDim);
  j.set("dtype", dtypeName(cfg.dtype));
  j.set("causal", cfg.causal);
  j.set("input_pos", cfg.inputPos);
  j.set("lse", cfg.withLse);
  j.set("scale", static_cast<double>(cfg.effectiveScale()));
  j.set("seed", static_cast<int64_t>(cfg.seed));
  j.set("std", static_cast<double>(cfg.inputStd));
  return j;
}

static std::string dims(const std::array<int64_t, 3> &d) {
  return format("[%lld, %lld, %lld]", static_cast<long long>(d[0]),
                static_cast<long long>(d[1]), static_cast<long long>(d[2]));
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
  row("shape",
      shapeSummary(r.cfg) +
          format(" scale=%.6g seed=%llu std=%g", r.cfg.effectiveScale(),
                 static_cast<unsigned long long>(r.cfg.seed), r.cfg.inputStd));
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
  if (r.params.isObject() && r.params.size()) {
    std::string params;
    for (const Json::Member &m : r.params.members()) {
      if (!params.empty())
        params += ' ';
      params += m.first + '=' +
                (m.second.isString() ? m.second.asString() : m.second.dump());
    }
    row("params", params);
  }
  if (!r.pipeline.empty())
    row("pipeline", r.pipeline);
  if (r.grid[0])
    row("launch", format("grid %s block %s, %lld B dynamic shared memory",
                         dims(r.grid).c_str(), dims(r.block).c_str(),
                         static_cast<long long>(r.dynamicShared)) +
                      (r.numWarps ? format(", %d warps", r.numWarps) : ""));
  for (size_t i = 0; i < r.kernelArgs.size(); ++i)
    row(i == 0 ? "arguments" : "", r.kernelArgs[i]);
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
    row("ptxas",
        format("%d registers, %lld B spill stores, %lld B spill "
               "loads, %lld B stack (%s)",
               r.ptxas.registers, static_cast<long long>(r.ptxas.spillStores),
               static_cast<long long>(r.ptxas.spillLoads),
               static_cast<long long>(r.ptxas.stackBytes),
               r.ptxasSource.c_str()));
  row("inputs", r.inputs);
  if (r.timed) {
    row("time", r.timing.str());
    row("TFLOPS", format("%.1f  (%.4g GFLOP: %s)", r.tflops(), r.flops / 1e9,
                         r.flopsFormula.c_str()));
  }
  const CheckSummary &c = r.check;
  if (c.done) {
    const CheckResult &cr = c.result;
    std::string rows =
        c.sampled
            ? format("; %lld of %lld rows (sampled; --check-rows all for "
                     "every row)",
                     static_cast<long long>(c.rowsChecked),
                     static_cast<long long>(c.rowsTotal))
            : format("; all %lld rows", static_cast<long long>(c.rowsTotal));
    row("check", format("max|out-ref| %.3e %s tolerance %.3e (2 x %.3e "
                        "low-precision error + atol %.3e)",
                        cr.maxError, cr.maxError <= cr.tolerance ? "<=" : ">",
                        cr.tolerance, cr.lowPrecError, c.atol) +
                     rows);
    if (!c.reference.empty())
      row("reference", c.reference);
    if (c.lseChecked)
      row("lse",
          format("max error %.3e (%s)", cr.maxLseError, c.lseRule.c_str()) +
              (c.lseBadRows > 0 ? format("; %lld rows off",
                                         static_cast<long long>(c.lseBadRows))
                                : std::string()));
  }
  if (r.nonFiniteChecked)
    row("written", r.nonFinite == 0
                       ? format("all %lld output elements written, no NaN/Inf",
                                static_cast<long long>(r.outputElements))
                       : format("%lld of %lld elements NaN/Inf or unwritten",
                                static_cast<long long>(r.nonFinite),
                                static_cast<long long>(r.outputElements)));
  if (r.determinismChecked)
    row("determinism",
        r.differingElements == 0
            ? std::string("bitwise equal over two runs")
            : format("%lld elements differ between two runs",
                     static_cast<long long>(r.differingElements)));
  for (const std::string &note : r.notes)
    row("note", note);
  for (const std::string &failure : r.failures)
    row("FAIL", failure);
  if (!r.dryRun)
    row("result", r.passed() ? "PASS" : "FAIL");
  return out;
}

Json resultToJson(const RunResult &r) {
  Json j = Json::object();
  j.set("tool", "tile-runner");
  j.set("passed", r.passed());
  j.set("dry_run", r.dryRun);
  j.set("backend", r.backend);
  if (!r.backendReason.empty())
    j.set("backend_reason", r.backendReason);
  if (!r.device.isNull())
    j.set("device", r.device);
  j.set("shape", shapeToJson(r.cfg));

  Json kernel = Json::object();
  kernel.set("name", r.kernelName);
  kernel.set("path", r.kernelPath);
  if (!r.loadedFrom.empty())
    kernel.set("loaded_from", r.loadedFrom);
  if (!r.target.empty())
    kernel.set("target", r.target);
  if (!r.compiler.empty())
    kernel.set("compiler", r.compiler);
  if (!r.entry.empty())
    kernel.set("entry", r.entry);
  if (!r.pipeline.empty())
    kernel.set("pipeline", r.pipeline);
  kernel.set("params", r.params.isNull() ? Json::object() : r.params);
  if (r.grid[0]) {
    Json grid = Json::array(), block = Json::array();
    for (int i = 0; i < 3; ++i) {
      grid.push(r.grid[i]);
      block.push(r.block[i]);
    }
    kernel.set("grid", grid);
    kernel.set("block", block);
    kernel.set("dynamic_shared_bytes", r.dynamicShared);
    kernel.set("num_warps", r.numWarps);
  }
  if (!r.kernelArgs.empty()) {
    Json args = Json::array();
    for (const std::string &a : r.kernelArgs)
      args.push(a);
    kernel.set("arguments", args);
  }
  j.set("kernel", kernel);

  if (r.haveResources) {
    Json res = Json::object();
    res.set("registers", r.registers);
    res.set("local_bytes", r.localBytes);
    res.set("static_shared_bytes", r.staticShared);
    res.set("max_threads_per_block", r.maxThreadsPerBlock);
    res.set("occupancy_blocks_per_sm", r.occupancy);
    res.set("manifest_occupancy", r.expectedOccupancy);
    j.set("resources", res);
  }
  if (r.ptxas.present) {
    Json p = Json::object();
    p.set("registers", r.ptxas.registers);
    p.set("spill_stores", r.ptxas.spillStores);
    p.set("spill_loads", r.ptxas.spillLoads);
    p.set("stack_bytes", r.ptxas.stackBytes);
    p.set("source", r.ptxasSource);
    j.set("ptxas", p);
  }
  if (!r.inputs.empty())
    j.set("inputs", r.inputs);
  if (r.timed) {
    Json t = r.timing.toJson();
    t.set("tflops", r.tflops());
    t.set("flops", r.flops);
    t.set("flops_formula", r.flopsFormula);
    j.set("timing", t);
  }
  if (r.check.done) {
    const CheckResult &cr = r.check.result;
    Json c = Json::object();
    c.set("passed", cr.passed);
    c.set("max_error", cr.maxError);
    c.set("low_precision_error", cr.lowPrecError);
    c.set("atol", r.check.atol);
    c.set("tolerance", cr.tolerance);
    c.set("worst_index", cr.worstIndex);
    c.set("rows_checked", r.check.rowsChecked);
    c.set("rows_total", r.check.rowsTotal);
    c.set("sampled", r.check.sampled);
    if (r.check.lseChecked) {
      c.set("lse_max_error", cr.maxLseError);
      c.set("lse_rule", r.check.lseRule);
      c.set("lse_bad_rows", r.check.lseBadRows);
    }
    c.set("reference", r.check.reference);
    if (!cr.message.empty())
      c.set("message", cr.message);
    j.set("check", c);
  }
  if (r.nonFiniteChecked) {
    Json w = Json::object();
    w.set("elements", r.outputElements);
    w.set("non_finite_or_unwritten", r.nonFinite);
    j.set("written", w);
  }
  if (r.determinismChecked) {
    Json d = Json::object();
    d.set("bitwise_equal", r.differingElements == 0);
    d.set("differing_elements", r.differingElements);
    j.set("determinism", d);
  }
  if (!r.autotune.isNull())
    j.set("autotune", r.autotune);
  Json notes = Json::array(), failures = Json::array();
  for (const std::string &n : r.notes)
    notes.push(n);
  for (const std::string &f : r.failures)
    failures.push(f);
  j.set("notes", notes);
  j.set("failures", failures);
  return j;
}

} // namespace runner
} // namespace tile
