//===- Target.cpp - GPU targets, their launch limits, PTX checks ----------===//

#include "tile/Bundle/Target.h"

#include "tile/Support/Checked.h"

#include <algorithm>
#include <cstring>
#include <sstream>

namespace tilebundle {

std::string SmTarget::str() const {
  std::string s = "sm_" + std::to_string(major) + std::to_string(minor);
  if (suffix)
    s += suffix;
  return s;
}

bool parseSmTarget(const std::string &text, SmTarget &target) {
  if (text.size() < 5 || text.compare(0, 3, "sm_") != 0)
    return false;
  size_t end = text.size();
  char suffix = 0;
  if (text[end - 1] == 'a' || text[end - 1] == 'f') {
    suffix = text[end - 1];
    --end;
  }
  std::string digits = text.substr(3, end - 3);
  if (digits.size() < 2 || digits.size() > 3)
    return false;
  for (char c : digits)
    if (c < '0' || c > '9')
      return false;
  // The last digit is the minor version: sm_90 is 9.0, sm_100 is 10.0.
  std::optional<int64_t> major = tile::checked::parseInt(
      std::string_view(digits).substr(0, digits.size() - 1), 1, 99);
  if (!major)
    return false;
  target.major = static_cast<int>(*major);
  target.minor = digits.back() - '0';
  target.suffix = suffix;
  return true;
}

static std::string ccString(int major, int minor) {
  return std::to_string(major) + "." + std::to_string(minor);
}

bool ptxTargetRunsOn(const SmTarget &t, int major, int minor,
                     std::string &why) {
  std::string want = ccString(t.major, t.minor);
  std::string have = ccString(major, minor);
  if (t.suffix == 'a') {
    if (major == t.major && minor == t.minor)
      return true;
    why = t.str() + " code runs only on compute capability exactly " + want +
          "; this device is " + have;
    return false;
  }
  if (t.suffix == 'f') {
    if (major == t.major && minor >= t.minor)
      return true;
    why = t.str() + " code runs only on compute capability " + want +
          " and newer of the same family (" + std::to_string(t.major) +
          ".x); this device is " + have;
    return false;
  }
  if (major > t.major || (major == t.major && minor >= t.minor))
    return true;
  why = t.str() + " code needs compute capability " + want +
        " or newer; this device is " + have;
  return false;
}

bool cubinTargetRunsOn(const SmTarget &t, int major, int minor) {
  if (t.suffix == 'a')
    return major == t.major && minor == t.minor;
  return major == t.major && minor >= t.minor;
}

// The one table of chip facts, oldest first (CUDA C Programming Guide,
// "Technical Specifications per Compute Capability"; opt-in shared memory
// per block: 227 KB on 9.0 and 10.x, 163 KB on 8.0 and 8.7, 99 KB on 8.6,
// 8.9 and 12.x, of 228, 164, 100 and 128 KB per SM).
static const ChipFacts kChipFacts[] = {
    // major, minor; threads and shared bytes per block; shared bytes,
    // threads, blocks and registers per SM
    {7, 0, 1024, 98304, 98304, 2048, 32, 65536},
    {7, 5, 1024, 65536, 65536, 1024, 16, 65536},
    {8, 0, 1024, 166912, 167936, 2048, 32, 65536},
    {8, 6, 1024, 101376, 102400, 1536, 16, 65536},
    {8, 7, 1024, 166912, 167936, 2048, 32, 65536},
    {8, 9, 1024, 101376, 102400, 1536, 24, 65536},
    {9, 0, 1024, 232448, 233472, 2048, 32, 65536},
    {10, 0, 1024, 232448, 233472, 2048, 32, 65536},
    {12, 0, 1024, 101376, 131072, 1536, 32, 65536},
};

const ChipFacts *findChipFacts(const SmTarget &t) {
  const ChipFacts *found = nullptr;
  for (const ChipFacts &facts : kChipFacts)
    if (facts.major < t.major ||
        (facts.major == t.major && facts.minor <= t.minor))
      found = &facts;
  return found;
}

const std::vector<std::string> &loweringTargets() {
  // Each of these compiles and assembles (ptxas) with the current lowering.
  static const std::vector<std::string> targets = {"sm_80",  "sm_86", "sm_87",
                                                   "sm_89",  "sm_90", "sm_90a",
                                                   "sm_100", "sm_120"};
  return targets;
}

std::string unsupportedLoweringTargetReason(const std::string &chip) {
  const std::vector<std::string> &targets = loweringTargets();
  for (const std::string &target : targets)
    if (target == chip)
      return "";
  std::string reason = "unsupported target chip '" + chip +
                       "' (the GPU lowering needs mma.sync and cp.async, "
                       "sm_80 or newer; supported: ";
  for (size_t i = 0; i < targets.size(); ++i)
    reason += (i ? ", " : "") + targets[i];
  return reason + ")";
}

bool isHopperOrNewer(const SmTarget &t) { return t.major >= 9; }

bool hasWgmma(const SmTarget &t) {
  return t.major == 9 && t.minor == 0 && t.suffix == 'a';
}

std::string ptxFeatures(const SmTarget &t) {
  return t.major == 9 && t.minor == 0 && t.suffix != 'f' ? "+ptx81" : "";
}

int64_t maxSharedPerBlockOfLoweringTargets() {
  static const int64_t most = [] {
    int64_t bytes = 0;
    for (const std::string &name : loweringTargets()) {
      SmTarget t;
      parseSmTarget(name, t);
      if (const ChipFacts *facts = findChipFacts(t))
        bytes = std::max(bytes, facts->maxSharedPerBlock);
    }
    return bytes;
  }();
  return most;
}

LaunchLimits targetLimits(const SmTarget &t) {
  LaunchLimits l;
  l.source = t.str() + " (documented limits of compute capability " +
             ccString(t.major, t.minor) + ")";
  if (const ChipFacts *facts = findChipFacts(t)) {
    l.maxThreadsPerBlock = facts->maxThreadsPerBlock;
    l.maxSharedPerBlock = facts->maxSharedPerBlock;
    l.maxRegistersPerBlock = facts->registersPerSM;
  }
  return l;
}

bool checkLaunchLimits(const std::array<int64_t, 3> &grid,
                       const std::array<int64_t, 3> &block,
                       int64_t dynamicShared, int64_t staticShared,
                       int64_t registers, const LaunchLimits &limits,
                       std::string &error) {
  static const char *axes = "xyz";
  for (int i = 0; i < 3; ++i)
    if (grid[i] > limits.maxGrid[i]) {
      error = std::string("grid.") + axes[i] + " = " + std::to_string(grid[i]) +
              " exceeds the limit " + std::to_string(limits.maxGrid[i]) +
              " of " + limits.source;
      return false;
    }
  int64_t threads = block[0] * block[1] * block[2];
  if (threads > limits.maxThreadsPerBlock) {
    error = "the block has " + std::to_string(threads) +
            " threads, more than the " +
            std::to_string(limits.maxThreadsPerBlock) + " of " + limits.source;
    return false;
  }
  int64_t shared = dynamicShared + (staticShared > 0 ? staticShared : 0);
  if (shared > limits.maxSharedPerBlock) {
    error =
        "the kernel needs " + std::to_string(dynamicShared) + " B dynamic" +
        (staticShared > 0 ? " + " + std::to_string(staticShared) + " B static"
                          : std::string()) +
        " shared memory per block, more than the " +
        std::to_string(limits.maxSharedPerBlock) + " B of " + limits.source;
    return false;
  }
  if (registers > limits.maxRegistersPerThread) {
    error = "the kernel uses " + std::to_string(registers) +
            " registers per thread, more than the " +
            std::to_string(limits.maxRegistersPerThread) + " of " +
            limits.source;
    return false;
  }
  if (registers > 0 && registers * threads > limits.maxRegistersPerBlock) {
    error = "the block needs " + std::to_string(registers) + " registers x " +
            std::to_string(threads) +
            " threads = " + std::to_string(registers * threads) +
            ", more than the " + std::to_string(limits.maxRegistersPerBlock) +
            " registers per block of " + limits.source;
    return false;
  }
  return true;
}

/// The PTX without comments.
static std::string stripPtxComments(const std::string &ptx) {
  std::string out;
  out.reserve(ptx.size());
  for (size_t i = 0; i < ptx.size(); ++i) {
    if (ptx.compare(i, 2, "//") == 0) {
      while (i < ptx.size() && ptx[i] != '\n')
        ++i;
      out += '\n';
    } else if (ptx.compare(i, 2, "/*") == 0) {
      size_t close = ptx.find("*/", i + 2);
      i = close == std::string::npos ? ptx.size() : close + 1;
      out += ' ';
    } else {
      out += ptx[i];
    }
  }
  return out;
}

/// Bytes of one `.param` declaration: `.param .u64 .ptr .align 1 name`,
/// `.param .f32 name`, `.param .align 64 .b8 name[128]`; -1 if not
/// understood.
static int64_t ptxParamBytes(const std::string &declaration) {
  std::istringstream words(declaration);
  std::string word;
  int64_t scalarBytes = -1;
  bool isByteArray = false;
  while (words >> word) {
    if (word == ".b8") {
      isByteArray = true;
      continue;
    }
    if (word.size() >= 3 && word[0] == '.' &&
        std::strchr("usbf", word[1]) != nullptr) {
      std::string bits = word.substr(2);
      if (bits == "8" || bits == "16" || bits == "32" || bits == "64")
        scalarBytes = (bits[0] == '8' ? 8 : std::stoi(bits)) / 8;
      continue;
    }
    size_t open = word.find('[');
    if (isByteArray && open != std::string::npos) {
      size_t close = word.find(']', open);
      if (close == std::string::npos)
        return -1;
      std::optional<int64_t> n = tile::checked::parseInt(
          std::string_view(word).substr(open + 1, close - open - 1), 1,
          1 << 20);
      return n ? *n : -1;
    }
  }
  return isByteArray ? 1 : scalarBytes;
}

bool scanPtx(const std::string &ptx, PtxInfo &info, std::string &error) {
  info = PtxInfo();
  std::string text = stripPtxComments(ptx);
  std::istringstream in(text);
  std::string word;
  while (in >> word) {
    if (word == ".version" && info.version.empty()) {
      in >> info.version;
    } else if (word == ".target" && info.target.empty()) {
      std::string target;
      in >> target;
      info.target = target.substr(0, target.find(','));
    } else if (word == ".entry") {
      // ".entry name(" or ".entry name (": read up to the matching ')'.
      std::string rest;
      std::getline(in, rest, ')');
      size_t open = rest.find('(');
      std::string name = rest.substr(0, open);
      name.erase(0, name.find_first_not_of(" \t\r\n"));
      name.erase(name.find_last_not_of(" \t\r\n") + 1);
      if (name.empty())
        continue;
      // A file cut inside the parameter list or before the body: the
      // parameters read so far would be taken for all of them.
      if (in.eof() || (open != std::string::npos &&
                       text.find('{', static_cast<size_t>(in.tellg())) ==
                           std::string::npos)) {
        error = "the PTX is truncated: .entry " + name +
                " has no closed parameter list and body";
        return false;
      }
      info.entries.push_back(name);
      std::vector<int64_t> sizes;
      if (open != std::string::npos) {
        std::string params = rest.substr(open + 1);
        size_t at = 0;
        while ((at = params.find(".param", at)) != std::string::npos) {
          size_t next = params.find(".param", at + 6);
          sizes.push_back(ptxParamBytes(params.substr(
              at + 6,
              next == std::string::npos ? std::string::npos : next - at - 6)));
          at = next == std::string::npos ? params.size() : next;
        }
      }
      info.paramSizes.push_back(sizes);
    }
  }
  if (info.target.empty()) {
    error = "the PTX has no .target directive";
    return false;
  }
  int64_t depth = 0;
  for (char c : text)
    if (c == '{')
      ++depth;
    else if (c == '}' && --depth < 0)
      break;
  if (depth != 0) {
    error = "the PTX is truncated: its braces do not balance";
    return false;
  }
  if (info.entries.empty()) {
    error = "the PTX declares no .entry";
    return false;
  }
  return true;
}

bool parsePtxasLog(const std::string &log, const std::string &entry,
                   PtxasReport &report) {
  std::istringstream in(log);
  std::string line, current;
  bool found = false;
  auto quoted = [](const std::string &text, size_t from) {
    size_t open = text.find('\'', from);
    size_t close = open == std::string::npos ? open : text.find('\'', open + 1);
    if (close == std::string::npos)
      return std::string();
    return text.substr(open + 1, close - open - 1);
  };
  auto numberBefore = [](const std::string &text, const char *what,
                         int64_t &value) {
    size_t at = text.find(what);
    if (at == std::string::npos)
      return false;
    size_t end = at;
    while (end > 0 && text[end - 1] == ' ')
      --end;
    size_t start = end;
    while (start > 0 && text[start - 1] >= '0' && text[start - 1] <= '9')
      --start;
    std::optional<int64_t> v = tile::checked::parseInt(
        std::string_view(text).substr(start, end - start), 0, INT64_MAX);
    if (!v)
      return false;
    value = *v;
    return true;
  };
  while (std::getline(in, line)) {
    size_t at;
    if ((at = line.find("Compiling entry function")) != std::string::npos) {
      current = quoted(line, at);
      continue;
    }
    if ((at = line.find("Function properties for ")) != std::string::npos) {
      current = line.substr(at + std::strlen("Function properties for "));
      while (!current.empty() &&
             (current.back() == ' ' || current.back() == '\r' ||
              current.back() == ':'))
        current.pop_back();
      continue;
    }
    if (!entry.empty() && !current.empty() && current != entry)
      continue;
    int64_t value;
    if (numberBefore(line, "bytes stack frame", value)) {
      report.stackBytes = value;
      found = true;
    }
    if (numberBefore(line, "bytes spill stores", value)) {
      report.spillStores = value;
      found = true;
    }
    if (numberBefore(line, "bytes spill loads", value)) {
      report.spillLoads = value;
      found = true;
    }
    if (line.find("Used ") != std::string::npos &&
        numberBefore(line, "registers", value)) {
      report.registers = value;
      found = true;
    }
  }
  return found;
}

} // namespace tilebundle
