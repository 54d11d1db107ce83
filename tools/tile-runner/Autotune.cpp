//===- Autotune.cpp - choosing among kernel variants ----------------------===//

#include "Autotune.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;

namespace tile {
namespace runner {

std::string autotuneKey(const AttentionConfig &cfg, const std::string &gpuName,
                        int ccMajor, int ccMinor, const std::string &compiler) {
  return format("B=%d H=%d HKV=%d Sq=%d Sk=%d D=%d dtype=%s causal=%d "
                "input_pos=%d lse=%d | %s | sm_%d%d | %s",
                cfg.batch, cfg.heads, cfg.kvHeads, cfg.seqQ, cfg.seqK,
                cfg.headDim, dtypeName(cfg.dtype), cfg.causal ? 1 : 0,
                cfg.causal ? cfg.inputPos : 0, cfg.withLse ? 1 : 0,
                gpuName.c_str(), ccMajor, ccMinor, compiler.c_str());
}

std::string defaultAutotuneCachePath() {
  const char *xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && *xdg)
    return (fs::path(xdg) / "tile-compiler" / "autotune.json").string();
  const char *home = std::getenv("HOME");
  std::string base = home && *home ? home : ".";
  return (fs::path(base) / ".cache" / "tile-compiler" / "autotune.json")
      .string();
}

bool AutotuneCache::load(const std::string &path, std::string &error) {
  filePath = path;
  root = Json::object();
  root.set("format", "tile-autotune-1");
  root.set("entries", Json::object());
  std::error_code ec;
  if (!fs::exists(path, ec))
    return true;
  Json json;
  if (!readJsonFile(path, json, error)) {
    error = "autotune cache " + error;
    return false;
  }
  const Json *format = json.find("format");
  const Json *entries = json.find("entries");
  if (!format || !format->isString() ||
      format->asString() != "tile-autotune-1" || !entries ||
      !entries->isObject()) {
    error = "autotune cache " + path +
            " is not a tile-autotune-1 file (delete it or pass "
            "--autotune-cache)";
    return false;
  }
  root = json;
  return true;
}

bool AutotuneCache::save(std::string &error) const {
  fs::path path(filePath);
  std::error_code ec;
  if (path.has_parent_path()) {
    fs::create_directories(path.parent_path(), ec);
    if (ec) {
      error =
          "cannot create " + path.parent_path().string() + ": " + ec.message();
      return false;
    }
  }
  std::string temp =
      filePath + ".tmp." + std::to_string(static_cast<long>(getpid()));
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) {
      error = "cannot write " + temp + ": " + std::strerror(errno);
      return false;
    }
    out << root.dump(2) << '\n';
    if (!out) {
      error = "cannot write " + temp;
      return false;
    }
  }
  fs::rename(temp, path, ec);
  if (ec) {
    error = "cannot rename " + temp + " to " + filePath + ": " + ec.message();
    fs::remove(temp, ec);
    return false;
  }
  return true;
}

const Json *AutotuneCache::lookup(const std::string &key) const {
  const Json *entries = root.find("entries");
  return entries ? entries->find(key) : nullptr;
}

void AutotuneCache::store(const std::string &key, Json entry) {
  Json entries = *root.find("entries");
  entries.set(key, std::move(entry));
  root.set("entries", std::move(entries));
}

const char *variantStatusName(VariantOutcome::Status status) {
  switch (status) {
  case VariantOutcome::Status::Timed:
    return "timed";
  case VariantOutcome::Status::Skipped:
    return "skipped";
  case VariantOutcome::Status::Failed:
    return "failed";
  }
  return "?";
}

AutotuneDecision pickWinner(const std::vector<VariantOutcome> &outcomes) {
  AutotuneDecision d;
  int second = -1;
  for (int i = 0; i < static_cast<int>(outcomes.size()); ++i) {
    if (outcomes[i].status != VariantOutcome::Status::Timed)
      continue;
    double t = outcomes[i].timing.median;
    if (d.winner < 0 || t < outcomes[d.winner].timing.median) {
      second = d.winner;
      d.winner = i;
    } else if (second < 0 || t < outcomes[second].timing.median) {
      second = i;
    }
  }
  if (d.winner < 0) {
    d.why = "no variant could be timed";
    return d;
  }
  const VariantOutcome &w = outcomes[d.winner];
  if (second < 0) {
    d.why = format("%s is the only variant that fits and ran (%.4f ms)",
                   w.name.c_str(), w.timing.median);
    return d;
  }
  const VariantOutcome &s = outcomes[second];
  double gain = (s.timing.median / w.timing.median - 1) * 100;
  d.why = format("%s has the lowest median, %.4f ms; the runner-up %s takes "
                 "%.4f ms (%.1f%% more)",
                 w.name.c_str(), w.timing.median, s.name.c_str(),
                 s.timing.median, gain);
  if (w.timing.p90 >= s.timing.p10)
    d.why += "; their p10..p90 spreads overlap, so the two are within noise";
  return d;
}

std::string renderAutotuneTable(const std::vector<VariantOutcome> &outcomes,
                                const AutotuneDecision &decision) {
  std::string out =
      "autotune: " + std::to_string(outcomes.size()) + " variant(s)\n";
  out += format("  %-2s %-40s %-8s %10s %10s %8s  %s\n", "", "variant",
                "status", "median ms", "p10-p90", "TFLOPS", "params / reason");
  for (int i = 0; i < static_cast<int>(outcomes.size()); ++i) {
    const VariantOutcome &o = outcomes[i];
    bool timed = o.status == VariantOutcome::Status::Timed;
    std::string spread =
        timed ? format("%.4f-%.4f", o.timing.p10, o.timing.p90) : "-";
    out +=
        format("  %-2s %-40s %-8s %10s %10s %8s  %s\n",
               i == decision.winner ? "*" : "", o.name.c_str(),
               variantStatusName(o.status),
               timed ? format("%.4f", o.timing.median).c_str() : "-",
               spread.c_str(), timed ? format("%.1f", o.tflops).c_str() : "-",
               timed ? o.params.c_str() : o.reason.c_str());
  }
  out += "  winner: " + decision.why + "\n";
  return out;
}

Json outcomesToJson(const std::vector<VariantOutcome> &outcomes) {
  Json list = Json::array();
  for (const VariantOutcome &o : outcomes) {
    Json j = Json::object();
    j.set("name", o.name);
    j.set("dir", o.dir);
    j.set("params", o.params);
    j.set("status", variantStatusName(o.status));
    if (!o.reason.empty())
      j.set("reason", o.reason);
    if (o.status == VariantOutcome::Status::Timed) {
      j.set("timing", o.timing.toJson());
      j.set("tflops", o.tflops);
    }
    list.push(j);
  }
  return list;
}

bool cacheEntryUsable(const Json &entry,
                      const std::vector<std::string> &variantNames,
                      std::string &why) {
  const Json *winner = entry.find("winner");
  const Json *variants = entry.find("variants");
  if (!winner || !winner->isString() || !variants || !variants->isArray()) {
    why = "the cache entry is malformed";
    return false;
  }
  std::vector<std::string> cached;
  for (const Json &v : variants->elements())
    cached.push_back(v.isString() ? v.asString() : v.dump());
  if (cached != variantNames) {
    why = "the entry was made over a different set of variants";
    return false;
  }
  for (const std::string &name : variantNames)
    if (name == winner->asString())
      return true;
  why = "the cached winner '" + winner->asString() + "' is not in --bundles";
  return false;
}

} // namespace runner
} // namespace tile
