//===- Bundle.cpp - kernel bundles: manifest, targets, launch ABI ---------===//

#include "Bundle.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <sstream>

namespace fs = std::filesystem;

namespace tile {
namespace runner {

//===----------------------------------------------------------------------===//
// Manifest
//===----------------------------------------------------------------------===//

std::string Manifest::name() const {
  fs::path path(dir);
  std::string leaf = path.filename().string();
  if (leaf.empty() || leaf == ".")
    leaf = path.parent_path().filename().string();
  return leaf.empty() ? dir : leaf;
}

std::string Manifest::ptxPath() const {
  return (fs::path(dir) / ptxFile).string();
}

std::string Manifest::cubinPath() const {
  return cubinFile.empty() ? std::string()
                           : (fs::path(dir) / cubinFile).string();
}

bool Manifest::paramInt(const std::string &key, int64_t &value) const {
  const Json *j = params.find(key);
  if (!j || !j->isInteger())
    return false;
  value = j->asInt();
  return true;
}

bool Manifest::paramBool(const std::string &key, bool &value) const {
  const Json *j = params.find(key);
  if (!j || !j->isBool())
    return false;
  value = j->asBool();
  return true;
}

bool Manifest::paramString(const std::string &key, std::string &value) const {
  const Json *j = params.find(key);
  if (!j || !j->isString())
    return false;
  value = j->asString();
  return true;
}

std::string Manifest::paramsSummary() const {
  std::string out;
  for (const Json::Member &member : params.members()) {
    if (!out.empty())
      out += ' ';
    out += member.first + '=';
    const Json &value = member.second;
    out += value.isString() ? value.asString() : value.dump();
  }
  return out;
}

namespace {

/// Reads fields of one JSON object with errors that name the field.
class FieldReader {
public:
  FieldReader(const Json &object, std::string where, std::string &error)
      : object(object), where(std::move(where)), error(error) {}

  bool fail(const std::string &what) {
    if (error.empty())
      error = where + ": " + what;
    return false;
  }
  bool string(const char *key, std::string &value, bool required) {
    const Json *j = object.find(key);
    if (!j)
      return !required || fail(std::string("missing '") + key + "'");
    if (!j->isString())
      return fail(std::string("'") + key + "' must be a string");
    value = j->asString();
    return true;
  }
  bool integer(const char *key, int64_t &value, bool required,
               int64_t min = 0) {
    const Json *j = object.find(key);
    if (!j)
      return !required || fail(std::string("missing '") + key + "'");
    if (!j->isInteger() || j->asInt() < min)
      return fail(std::string("'") + key +
                  "' must be an integer >= " + std::to_string(min));
    value = j->asInt();
    return true;
  }

private:
  const Json &object;
  std::string where;
  std::string &error;
};

} // namespace

bool parseManifest(const Json &json, const std::string &dir, Manifest &m,
                   std::string &error) {
  error.clear();
  m = Manifest();
  m.dir = dir;
  std::string where = (fs::path(dir) / "manifest.json").string();
  FieldReader r(json, where, error);
  if (!json.isObject())
    return r.fail("the manifest must be a JSON object");
  if (!r.string("format", m.format, true))
    return false;
  if (m.format != "tile-bundle-1")
    return r.fail("unknown format '" + m.format +
                  "' (this runner reads tile-bundle-1)");
  int64_t numWarps = 0, occupancy = 0;
  if (!r.string("kernel", m.kernel, false) ||
      !r.string("entry", m.entry, true) || !r.string("ptx", m.ptxFile, true) ||
      !r.string("cubin", m.cubinFile, false) ||
      !r.string("target", m.target, true) ||
      !r.string("compiler", m.compiler, false) ||
      !r.string("source", m.source, false) ||
      !r.string("pipeline", m.pipeline, false) ||
      !r.integer("num_warps", numWarps, false, 1) ||
      !r.integer("occupancy", occupancy, false, 0) ||
      !r.integer("shared_bytes", m.sharedBytes, false, 0))
    return false;
  m.numWarps = static_cast<int>(numWarps);
  m.occupancy = static_cast<int>(occupancy);
  SmTarget target;
  if (!parseSmTarget(m.target, target))
    return r.fail("'target' must look like sm_90a or sm_80, got '" + m.target +
                  "'");

  const Json *block = json.find("block");
  if (!block || !block->isArray() || block->size() != 3)
    return r.fail("'block' must be an array of 3 positive integers");
  for (size_t i = 0; i < 3; ++i) {
    const Json &b = (*block)[i];
    if (!b.isInteger() || b.asInt() < 1 || b.asInt() > 1024)
      return r.fail("'block' must be an array of 3 positive integers");
    m.block[i] = b.asInt();
  }
  int64_t threads = m.block[0] * m.block[1] * m.block[2];
  if (threads > 1024)
    return r.fail("'block' has " + std::to_string(threads) +
                  " threads, more than 1024");
  if (m.numWarps && threads != 32 * m.numWarps)
    return r.fail("'block' has " + std::to_string(threads) +
                  " threads but num_warps is " + std::to_string(m.numWarps) +
                  " (expected " + std::to_string(32 * m.numWarps) + ")");

  const Json *grid = json.find("grid");
  if (!grid || !grid->isArray() || grid->size() != 3)
    return r.fail("'grid' must be an array of 3 expression strings");
  for (size_t i = 0; i < 3; ++i) {
    if (!(*grid)[i].isString())
      return r.fail("'grid' must be an array of 3 expression strings");
    m.grid[i] = (*grid)[i].asString();
  }

  const Json *params = json.find("params");
  if (!params || !params->isObject())
    return r.fail("'params' must be an object");
  m.params = *params;

  const Json *abi = json.find("abi");
  if (!abi || !abi->isArray() || abi->size() == 0)
    return r.fail("'abi' must be a non-empty array");
  for (size_t i = 0; i < abi->size(); ++i) {
    const Json &e = (*abi)[i];
    std::string at = where + ": abi[" + std::to_string(i) + "]";
    FieldReader er(e, at, error);
    if (!e.isObject())
      return er.fail("must be an object");
    AbiEntry entry;
    std::string kind, dtype;
    if (!er.string("name", entry.name, true) ||
        !er.string("kind", kind, true) || !er.string("dtype", dtype, true))
      return false;
    for (const AbiEntry &other : m.abi)
      if (other.name == entry.name)
        return er.fail("duplicate argument name '" + entry.name + "'");
    if (!parseDType(dtype, entry.dtype))
      return er.fail("unknown dtype '" + dtype + "'");
    if (kind == "view") {
      entry.kind = AbiEntry::Kind::View;
      int64_t rank = 0;
      if (!er.integer("rank", rank, true, 1))
        return false;
      if (rank > 8)
        return er.fail("'rank' must be at most 8");
      entry.rank = static_cast<int>(rank);
    } else if (kind == "scalar") {
      entry.kind = AbiEntry::Kind::Scalar;
      if (entry.dtype != DType::F32 && entry.dtype != DType::I32)
        return er.fail("a scalar must be f32 or i32, not " + dtype);
    } else {
      return er.fail("'kind' must be \"view\" or \"scalar\", not \"" + kind +
                     "\"");
    }
    m.abi.push_back(entry);
  }

  if (const Json *ptxas = json.find("ptxas")) {
    FieldReader pr(*ptxas, where + ": ptxas", error);
    if (!ptxas->isObject())
      return pr.fail("must be an object");
    int64_t registers = -1;
    if (!pr.integer("registers", registers, false) ||
        !pr.integer("spill_stores", m.ptxas.spillStores, false) ||
        !pr.integer("spill_loads", m.ptxas.spillLoads, false) ||
        !pr.integer("stack_bytes", m.ptxas.stackBytes, false))
      return false;
    m.ptxas.present = true;
    m.ptxas.registers = static_cast<int>(registers);
  }
  return true;
}

bool loadBundle(const std::string &dir, Manifest &result, std::string &error) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    error = "bundle '" + dir + "' is not a folder";
    return false;
  }
  std::string path = (fs::path(dir) / "manifest.json").string();
  if (!fs::exists(path, ec)) {
    error = "bundle '" + dir + "' has no manifest.json";
    return false;
  }
  Json json;
  if (!readJsonFile(path, json, error))
    return false;
  if (!parseManifest(json, dir, result, error))
    return false;
  if (!fs::is_regular_file(result.ptxPath(), ec)) {
    error = path + ": 'ptx' names " + result.ptxPath() + ", which is missing";
    return false;
  }
  // A manifest may name a cubin that was not made (no ptxas at compile
  // time); the runner then uses the PTX.
  if (!result.cubinFile.empty() && !fs::is_regular_file(result.cubinPath(), ec))
    result.cubinFile.clear();
  return true;
}

bool listBundles(const std::string &dir, std::vector<std::string> &bundleDirs,
                 std::string &error) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    error = "'" + dir + "' is not a folder";
    return false;
  }
  bundleDirs.clear();
  for (const fs::directory_entry &entry : fs::directory_iterator(dir, ec)) {
    if (entry.is_directory(ec) &&
        fs::exists(entry.path() / "manifest.json", ec))
      bundleDirs.push_back(entry.path().string());
  }
  if (ec) {
    error = "cannot list '" + dir + "': " + ec.message();
    return false;
  }
  std::sort(bundleDirs.begin(), bundleDirs.end());
  if (bundleDirs.empty()) {
    error = "'" + dir + "' holds no bundle folders (none has a manifest.json)";
    return false;
  }
  return true;
}

std::string checkBundleFits(const Manifest &m, const AttentionConfig &cfg) {
  int64_t headDim, group, tileN = 0;
  bool causal, evenK, withLse = false;
  std::string dtype;
  if (!m.paramInt("HEAD_DIM", headDim))
    return "params lack an integer HEAD_DIM";
  if (!m.paramInt("QUERY_GROUP_SIZE", group))
    return "params lack an integer QUERY_GROUP_SIZE";
  if (!m.paramBool("CAUSAL", causal))
    return "params lack a boolean CAUSAL";
  if (!m.paramBool("EVEN_K", evenK))
    return "params lack a boolean EVEN_K";
  if (!m.paramString("DTYPE", dtype))
    return "params lack a DTYPE string";
  m.paramBool("WITH_LSE", withLse);

  if (headDim != cfg.headDim)
    return "HEAD_DIM = " + std::to_string(headDim) +
           " in the bundle, but --head-dim is " + std::to_string(cfg.headDim);
  int runGroup = cfg.kvHeads > 0 ? cfg.heads / cfg.kvHeads : 0;
  if (group != runGroup)
    return "QUERY_GROUP_SIZE = " + std::to_string(group) +
           " in the bundle, but --heads / --kv-heads = " +
           std::to_string(cfg.heads) + " / " + std::to_string(cfg.kvHeads) +
           " = " + std::to_string(runGroup);
  if (causal != cfg.causal)
    return std::string("CAUSAL = ") + (causal ? "true" : "false") +
           " in the bundle, but the run is " +
           (cfg.causal ? "causal (--causal)" : "not causal (no --causal)");
  if (dtype != dtypeName(cfg.dtype))
    return "DTYPE = " + dtype + " in the bundle, but --dtype is " +
           dtypeName(cfg.dtype);
  if (evenK) {
    if (!m.paramInt("TILE_N", tileN) || tileN <= 0)
      return "EVEN_K = true but params lack a positive TILE_N";
    if (cfg.seqK % tileN != 0)
      return "EVEN_K = true needs --seq-k to be a multiple of TILE_N = " +
             std::to_string(tileN) + ", got " + std::to_string(cfg.seqK);
  }
  if (cfg.withLse && !withLse)
    return "WITH_LSE = false in the bundle, but --lse asks for the "
           "log-sum-exp";
  return std::string();
}

//===----------------------------------------------------------------------===//
// Targets
//===----------------------------------------------------------------------===//

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
  target.major = std::stoi(digits.substr(0, digits.size() - 1));
  target.minor = digits.back() - '0';
  target.suffix = suffix;
  return target.major > 0;
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
/// `.param .f32 name`, `.param .align 8 .b8 name[16]`; -1 if not understood.
static int ptxParamBytes(const std::string &declaration) {
  std::istringstream words(declaration);
  std::string word;
  int scalarBytes = -1;
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
        scalarBytes = std::stoi(bits) / 8;
      continue;
    }
    size_t open = word.find('[');
    if (isByteArray && open != std::string::npos) {
      size_t close = word.find(']', open);
      if (close == std::string::npos || close == open + 1)
        return -1;
      return std::stoi(word.substr(open + 1, close - open - 1));
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
      info.entries.push_back(name);
      std::vector<int> sizes;
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
  if (info.entries.empty()) {
    error = "the PTX declares no .entry";
    return false;
  }
  return true;
}

bool checkPtxParams(const PtxInfo &info, const std::string &entry,
                    const KernelArgs &args, std::string &error) {
  auto it = std::find(info.entries.begin(), info.entries.end(), entry);
  if (it == info.entries.end()) {
    std::string names;
    for (const std::string &e : info.entries)
      names += (names.empty() ? "" : ", ") + e;
    error = "the PTX has no .entry named '" + entry + "' (it declares " +
            names + ")";
    return false;
  }
  const std::vector<int> &sizes = info.paramSizes[it - info.entries.begin()];
  for (size_t i = 0; i < sizes.size() && i < args.count(); ++i) {
    if (sizes[i] >= 0 && sizes[i] != args.sizes[i]) {
      error = "the PTX entry's parameter " + std::to_string(i) + " is " +
              std::to_string(sizes[i]) + " bytes, but the manifest abi puts " +
              args.descriptions[i] + " (" + std::to_string(args.sizes[i]) +
              " bytes) there";
      return false;
    }
  }
  if (sizes.size() != args.count()) {
    error = "the PTX entry '" + entry + "' takes " +
            std::to_string(sizes.size()) +
            " parameters, but the manifest abi expands to " +
            std::to_string(args.count()) +
            " (a view of rank R is 1 + 2R parameters, a scalar one)";
    return false;
  }
  return true;
}

bool parsePtxasLog(const std::string &log, const std::string &entry,
                   PtxasInfo &info) {
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
    if (start == end)
      return false;
    value = std::stoll(text.substr(start, end - start));
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
      info.stackBytes = value;
      found = true;
    }
    if (numberBefore(line, "bytes spill stores", value)) {
      info.spillStores = value;
      found = true;
    }
    if (numberBefore(line, "bytes spill loads", value)) {
      info.spillLoads = value;
      found = true;
    }
    if (line.find("Used ") != std::string::npos &&
        numberBefore(line, "registers", value)) {
      info.registers = static_cast<int>(value);
      found = true;
    }
  }
  if (found)
    info.present = true;
  return found;
}

//===----------------------------------------------------------------------===//
// Launch ABI
//===----------------------------------------------------------------------===//

size_t KernelArgs::packedBytes() const {
  size_t offset = 0;
  for (int size : sizes) {
    offset = (offset + size - 1) / size * size;
    offset += size;
  }
  return offset;
}

bool packKernelArgs(const std::vector<AbiEntry> &abi,
                    const std::map<std::string, ViewArg> &views,
                    const std::map<std::string, ScalarArg> &scalars,
                    KernelArgs &args, std::string &error) {
  args = KernelArgs();
  auto add = [&](uint64_t bits, int size, std::string description) {
    args.slots.push_back(bits);
    args.sizes.push_back(size);
    args.descriptions.push_back(std::move(description));
  };
  for (const AbiEntry &entry : abi) {
    if (entry.kind == AbiEntry::Kind::View) {
      auto it = views.find(entry.name);
      if (it == views.end()) {
        error = "the kernel's view argument '" + entry.name +
                "' is not one this runner binds (Q, K, V, Out, Lse)";
        return false;
      }
      const ViewArg &view = it->second;
      if (static_cast<int>(view.sizes.size()) != entry.rank ||
          view.strides.size() != view.sizes.size()) {
        error = "argument '" + entry.name + "' has rank " +
                std::to_string(entry.rank) + " in the abi, but the runner's " +
                entry.name + " has rank " + std::to_string(view.sizes.size());
        return false;
      }
      if (view.dtype != entry.dtype) {
        error = "argument '" + entry.name + "' is " + dtypeName(entry.dtype) +
                " in the abi, but the runner's " + entry.name + " is " +
                dtypeName(view.dtype);
        return false;
      }
      char address[32];
      std::snprintf(address, sizeof(address), "0x%llx",
                    static_cast<unsigned long long>(view.address));
      add(view.address, 8, entry.name + ".ptr: ptr = " + address);
      for (int d = 0; d < entry.rank; ++d) {
        int64_t size = view.sizes[d];
        if (size < 0 || size > INT32_MAX) {
          error = "argument '" + entry.name + "' dimension " +
                  std::to_string(d) + " = " + std::to_string(size) +
                  " does not fit the abi's int32 sizes";
          return false;
        }
        add(static_cast<uint32_t>(size), 4,
            entry.name + ".size[" + std::to_string(d) +
                "]: i32 = " + std::to_string(size));
      }
      for (int d = 0; d < entry.rank; ++d)
        add(static_cast<uint64_t>(view.strides[d]), 8,
            entry.name + ".stride[" + std::to_string(d) +
                "]: i64 = " + std::to_string(view.strides[d]));
      continue;
    }
    auto it = scalars.find(entry.name);
    if (it == scalars.end()) {
      error = "the kernel's scalar argument '" + entry.name +
              "' is not one this runner binds (qk_scale, input_pos)";
      return false;
    }
    double value = it->second.value;
    std::ostringstream text;
    if (entry.dtype == DType::F32) {
      float f = static_cast<float>(value);
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      text << entry.name << ": f32 = " << f;
      add(bits, 4, text.str());
    } else {
      if (value != std::floor(value) || value < INT32_MIN ||
          value > INT32_MAX) {
        error = "argument '" + entry.name + "' = " + std::to_string(value) +
                " is not an i32";
        return false;
      }
      int32_t i = static_cast<int32_t>(value);
      text << entry.name << ": i32 = " << i;
      add(static_cast<uint32_t>(i), 4, text.str());
    }
  }
  return true;
}

void **KernelArgs::params() {
  pointers.clear();
  for (uint64_t &slot : slots)
    pointers.push_back(&slot);
  return pointers.data();
}

static std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;)
    strides[i - 1] = strides[i] * shape[i];
  return strides;
}

ViewShapes AttentionBinding::shapes() const {
  ViewShapes result;
  for (const auto &entry : views)
    result[entry.first] = entry.second.sizes;
  return result;
}

AttentionBinding bindAttention(const AttentionConfig &cfg, uint64_t q,
                               uint64_t k, uint64_t v, uint64_t out,
                               uint64_t lse) {
  AttentionBinding b;
  auto view = [&](uint64_t address, DType dtype, std::vector<int64_t> shape) {
    ViewArg arg;
    arg.address = address;
    arg.dtype = dtype;
    arg.strides = rowMajorStrides(shape);
    arg.sizes = std::move(shape);
    return arg;
  };
  int64_t batch = cfg.batch, heads = cfg.heads, kvHeads = cfg.kvHeads;
  b.views["Q"] = view(q, cfg.dtype, {batch, heads, cfg.seqQ, cfg.headDim});
  b.views["K"] = view(k, cfg.dtype, {batch, kvHeads, cfg.seqK, cfg.headDim});
  b.views["V"] = view(v, cfg.dtype, {batch, kvHeads, cfg.seqK, cfg.headDim});
  b.views["Out"] = view(out, cfg.dtype, {batch, heads, cfg.seqQ, cfg.headDim});
  b.views["Lse"] = view(lse, DType::F32, {batch, heads, cfg.seqQ});
  b.scalars["qk_scale"].value = cfg.effectiveScale();
  b.scalars["input_pos"].value = cfg.inputPos;
  return b;
}

bool evalGrid(const Manifest &manifest, const ViewShapes &shapes,
              std::array<int64_t, 3> &grid, std::string &error) {
  static const char *axes[] = {"x", "y", "z"};
  for (int i = 0; i < 3; ++i) {
    std::string why;
    if (!evalGridExpr(manifest.grid[i], shapes, grid[i], why)) {
      error = "grid." + std::string(axes[i]) + ": " + why;
      return false;
    }
    if (grid[i] < 1) {
      error = "grid." + std::string(axes[i]) + " = '" + manifest.grid[i] +
              "' evaluates to " + std::to_string(grid[i]) +
              " for this shape (must be at least 1)";
      return false;
    }
  }
  return true;
}

bool checkBundlePtx(const Manifest &manifest, const KernelArgs &args,
                    std::string &ptx, PtxInfo &info, std::string &error) {
  if (!readFile(manifest.ptxPath(), ptx, error))
    return false;
  std::string why;
  if (!scanPtx(ptx, info, why) ||
      !checkPtxParams(info, manifest.entry, args, why)) {
    error = manifest.ptxPath() + ": " + why;
    return false;
  }
  if (info.target != manifest.target) {
    error = manifest.ptxPath() + ": the PTX says .target " + info.target +
            " but the manifest says target " + manifest.target;
    return false;
  }
  return true;
}

bool planLaunch(const Manifest &manifest, const AttentionBinding &binding,
                LaunchPlan &plan, std::string &error) {
  plan = LaunchPlan();
  if (!evalGrid(manifest, binding.shapes(), plan.grid, error))
    return false;
  plan.block = manifest.block;
  plan.sharedBytes = manifest.sharedBytes;
  return packKernelArgs(manifest.abi, binding.views, binding.scalars, plan.args,
                        error);
}

} // namespace runner
} // namespace tile
