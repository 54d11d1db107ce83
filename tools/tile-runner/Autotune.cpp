//===- Autotune.cpp - choosing among kernel variants ----------------------===//

#include "Autotune.h"

#include "tile/Support/Checked.h"
#include "tile/Support/EnumNames.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <poll.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;

namespace tile {
namespace runner {

std::string autotuneKey(const std::string &problem, const std::string &gpuName,
                        int ccMajor, int ccMinor, const std::string &compiler) {
  return format("%s | %s | sm_%d%d | %s", problem.c_str(), gpuName.c_str(),
                ccMajor, ccMinor, compiler.c_str());
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
  root = {{"format", "tile-autotune-1"}, {"entries", Json::object()}};
  std::error_code ec;
  if (!fs::exists(path, ec))
    return true;
  std::string text;
  if (!checked::readFile(path, text, error, int64_t(64) << 20)) {
    error = "autotune cache: " + error;
    return false;
  }
  Json json = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded() || !json.is_object() ||
      json.value("format", "") != "tile-autotune-1" ||
      !json.contains("entries") || !json["entries"].is_object()) {
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
    // A full disk fails at the flush.
    out.flush();
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
  const Json &entries = root["entries"];
  auto it = entries.find(key);
  return it == entries.end() ? nullptr : &*it;
}

void AutotuneCache::store(const std::string &key, Json entry) {
  root["entries"][key] = std::move(entry);
}

static constexpr ::tile::EnumName<VariantOutcome::Status> kStatusNames[] = {
    {VariantOutcome::Status::Timed, "timed"},
    {VariantOutcome::Status::Skipped, "skipped"},
    {VariantOutcome::Status::Failed, "failed"},
    {VariantOutcome::Status::Faulted, "faulted"}};
static_assert(::tile::listsEnum(kStatusNames, VariantOutcome::Status::Faulted));

const char *variantStatusName(VariantOutcome::Status status) {
  return ::tile::enumName(kStatusNames, status);
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
    Json j = {{"name", o.name},
              {"dir", o.dir},
              {"params", o.params},
              {"status", variantStatusName(o.status)}};
    if (!o.reason.empty())
      j["reason"] = o.reason;
    if (o.status == VariantOutcome::Status::Timed) {
      j["timing"] = o.timing.toJson();
      j["tflops"] = o.tflops;
    }
    list.push_back(j);
  }
  return list;
}

bool cacheEntryUsable(const Json &entry,
                      const std::vector<std::string> &variantNames,
                      std::string &why) {
  if (!entry.is_object() || !entry.contains("winner") ||
      !entry["winner"].is_string() || !entry.contains("variants") ||
      !entry["variants"].is_array()) {
    why = "the cache entry is malformed";
    return false;
  }
  std::string winner = entry["winner"].get<std::string>();
  std::vector<std::string> cached;
  for (const Json &v : entry["variants"])
    cached.push_back(v.is_string() ? v.get<std::string>() : v.dump());
  if (cached != variantNames) {
    why = "the entry was made over a different set of variants";
    return false;
  }
  for (const std::string &name : variantNames)
    if (name == winner)
      return true;
  why = "the cached winner '" + winner + "' is not in --bundles";
  return false;
}

std::string selfExecutable() {
  char buffer[4096];
  ssize_t n = readlink("/proc/self/exe", buffer, sizeof(buffer) - 1);
  if (n <= 0)
    return std::string();
  buffer[n] = 0;
  return buffer;
}

bool runChild(const std::vector<std::string> &argv, int timeoutSeconds,
              std::string &output, int &exitStatus, bool &timedOut,
              std::string &error) {
  output.clear();
  timedOut = false;
  int fds[2];
  if (pipe(fds) != 0) {
    error = std::string("pipe: ") + std::strerror(errno);
    return false;
  }
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    error = std::string("fork: ") + std::strerror(errno);
    close(fds[0]);
    close(fds[1]);
    return false;
  }
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    close(fds[1]);
    std::vector<char *> args;
    for (const std::string &a : argv)
      args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    std::fprintf(stderr, "tile-runner: cannot start %s: %s\n", args[0],
                 std::strerror(errno));
    _exit(127);
  }
  close(fds[1]);
  auto start = std::chrono::steady_clock::now();
  char buffer[65536];
  bool open = true;
  while (open) {
    struct pollfd p = {fds[0], POLLIN, 0};
    int ready = poll(&p, 1, 200);
    if (ready > 0) {
      ssize_t n = read(fds[0], buffer, sizeof(buffer));
      if (n > 0)
        output.append(buffer, static_cast<size_t>(n));
      else
        open = false;
    }
    if (open && std::chrono::steady_clock::now() - start >
                    std::chrono::seconds(timeoutSeconds)) {
      kill(pid, SIGKILL);
      timedOut = true;
      open = false;
    }
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  exitStatus = WIFEXITED(status)     ? WEXITSTATUS(status)
               : WIFSIGNALED(status) ? 128 + WTERMSIG(status)
                                     : 255;
  return true;
}

} // namespace runner
} // namespace tile
