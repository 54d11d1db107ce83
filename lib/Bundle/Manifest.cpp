//===- Manifest.cpp - the bundle manifest: schema, read, write ------------===//

#include "tile/Bundle/Manifest.h"

#include "tile/Bundle/Expr.h"
#include "tile/Bundle/Target.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

namespace tilebundle {

using Json = nlohmann::ordered_json;

const char *accessName(Access access) {
  switch (access) {
  case Access::None:
    return "none";
  case Access::Read:
    return "read";
  case Access::Write:
    return "write";
  case Access::ReadWrite:
    return "readwrite";
  }
  return "?";
}

bool parseAccess(const std::string &text, Access &access) {
  for (Access a :
       {Access::None, Access::Read, Access::Write, Access::ReadWrite})
    if (text == accessName(a)) {
      access = a;
      return true;
    }
  return false;
}

AbiEntry AbiEntry::makeView(std::string name, DType dtype, int rank, int align,
                            Access access) {
  AbiEntry e;
  e.name = std::move(name);
  e.kind = Kind::View;
  e.dtype = dtype;
  e.rank = rank;
  e.align = align;
  e.access = access;
  return e;
}

AbiEntry AbiEntry::makeScalar(std::string name, DType dtype) {
  AbiEntry e;
  e.name = std::move(name);
  e.kind = Kind::Scalar;
  e.dtype = dtype;
  return e;
}

AbiEntry AbiEntry::makeTensorMap(std::string name, std::string view,
                                 std::vector<int64_t> dims,
                                 std::vector<int64_t> box, int swizzle) {
  AbiEntry e;
  e.name = std::move(name);
  e.kind = Kind::TensorMap;
  e.view = std::move(view);
  e.dims = std::move(dims);
  e.box = std::move(box);
  e.swizzle = swizzle;
  return e;
}

const char *kindName(AbiEntry::Kind kind) {
  switch (kind) {
  case AbiEntry::Kind::View:
    return "view";
  case AbiEntry::Kind::Scalar:
    return "scalar";
  case AbiEntry::Kind::TensorMap:
    return "tensor_map";
  }
  return "?";
}

ParamValue ParamValue::ofInt(int64_t v) {
  ParamValue p;
  p.kind = Kind::Int;
  p.intValue = v;
  return p;
}
ParamValue ParamValue::ofBool(bool v) {
  ParamValue p;
  p.kind = Kind::Bool;
  p.boolValue = v;
  return p;
}
ParamValue ParamValue::ofString(std::string v) {
  ParamValue p;
  p.kind = Kind::String;
  p.stringValue = std::move(v);
  return p;
}

std::string ParamValue::str() const {
  switch (kind) {
  case Kind::Int:
    return std::to_string(intValue);
  case Kind::Bool:
    return boolValue ? "true" : "false";
  case Kind::String:
    return stringValue;
  }
  return "";
}

std::optional<int64_t> ParamValue::exprValue() const {
  if (kind == Kind::Int)
    return intValue;
  if (kind == Kind::Bool)
    return boolValue ? 1 : 0;
  return std::nullopt;
}

const ParamValue *Manifest::param(const std::string &name) const {
  for (const auto &p : params)
    if (p.first == name)
      return &p.second;
  return nullptr;
}

bool Manifest::paramInt(const std::string &name, int64_t &value) const {
  const ParamValue *p = param(name);
  if (!p || p->kind != ParamValue::Kind::Int)
    return false;
  value = p->intValue;
  return true;
}

bool Manifest::paramBool(const std::string &name, bool &value) const {
  const ParamValue *p = param(name);
  if (!p || p->kind != ParamValue::Kind::Bool)
    return false;
  value = p->boolValue;
  return true;
}

bool Manifest::paramString(const std::string &name, std::string &value) const {
  const ParamValue *p = param(name);
  if (!p || p->kind != ParamValue::Kind::String)
    return false;
  value = p->stringValue;
  return true;
}

const FileDigest *Manifest::file(const std::string &name) const {
  for (const FileDigest &f : files)
    if (f.name == name)
      return &f;
  return nullptr;
}

const AbiEntry *Manifest::abiEntry(const std::string &name) const {
  for (const AbiEntry &e : abi)
    if (e.name == name)
      return &e;
  return nullptr;
}

std::string Manifest::paramsSummary() const {
  std::string out;
  for (const auto &p : params)
    out += (out.empty() ? "" : " ") + p.first + "=" + p.second.str();
  return out;
}

const std::vector<std::string> &manifestFields() {
  static const std::vector<std::string> fields = {
      "format",        "kernel",    "entry",     "ptx",
      "cubin",         "target",    "compiler",  "source",
      "pipeline",      "stages",    "sync",      "warp_specialize",
      "ping_pong",     "tma",       "pin_waits", "mma_version",
      "shared_layout", "num_warps", "block",     "occupancy",
      "shared_bytes",  "grid",      "requires",  "params",
      "abi",           "ptxas",     "files"};
  return fields;
}

namespace {

bool isIdentifier(const std::string &s, const char *extra = "") {
  if (s.empty() || s.size() > 256)
    return false;
  auto ok = [&](char c, bool first) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_' ||
           (!first && std::isdigit(static_cast<unsigned char>(c))) ||
           std::char_traits<char>::find(
               extra, std::char_traits<char>::length(extra), c) != nullptr;
  };
  for (size_t i = 0; i < s.size(); ++i)
    if (!ok(s[i], i == 0))
      return false;
  return true;
}

/// A file name inside the bundle folder: no separators, not . or ..
bool isPlainFileName(const std::string &s) {
  return !s.empty() && s.size() <= 255 && s != "." && s != ".." &&
         s.find('/') == std::string::npos &&
         s.find('\\') == std::string::npos && s.find('\0') == std::string::npos;
}

std::string describe(const Json &j) {
  std::string text = j.dump();
  if (text.size() > 60)
    text = text.substr(0, 57) + "...";
  return text;
}

/// Reads the fields of one JSON object; errors name the field by its path.
class Reader {
public:
  Reader(const Json &object, std::string path, std::string &error)
      : object(object), path(std::move(path)), error(error) {}

  std::string at(const std::string &key) const {
    return path.empty() ? key : path + "." + key;
  }
  bool fail(const std::string &field, const std::string &what) {
    if (error.empty())
      error = field + ": " + what;
    return false;
  }
  const Json *find(const std::string &key) {
    seen.insert(key);
    auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
  }
  bool missing(const std::string &key) {
    return fail(at(key), "missing (required)");
  }

  bool string(const std::string &key, std::string &value, bool required) {
    const Json *j = find(key);
    if (!j)
      return !required || missing(key);
    if (!j->is_string())
      return fail(at(key), "expected a string, got " + describe(*j));
    value = j->get<std::string>();
    return true;
  }
  static bool integerIn(const Json &j, int64_t min, int64_t max,
                        int64_t &value) {
    if (j.is_number_unsigned()) {
      uint64_t u = j.get<uint64_t>();
      if (u > static_cast<uint64_t>(INT64_MAX))
        return false;
      value = static_cast<int64_t>(u);
    } else if (j.is_number_integer()) {
      value = j.get<int64_t>();
    } else {
      return false;
    }
    return value >= min && value <= max;
  }
  static std::string range(int64_t min, int64_t max) {
    return "expected an integer in [" + std::to_string(min) + ", " +
           std::to_string(max) + "]";
  }
  bool integer(const Json &j, const std::string &field, int64_t min,
               int64_t max, int64_t &value) {
    if (!integerIn(j, min, max, value))
      return fail(field, range(min, max) + ", got " + describe(j));
    return true;
  }
  bool integer(const std::string &key, int64_t &value, bool required,
               int64_t min, int64_t max) {
    const Json *j = find(key);
    if (!j)
      return !required || missing(key);
    return integer(*j, at(key), min, max, value);
  }
  bool optionalInteger(const std::string &key, std::optional<int64_t> &value,
                       int64_t min, int64_t max) {
    const Json *j = find(key);
    if (!j)
      return true;
    int64_t v;
    if (!integer(*j, at(key), min, max, v))
      return false;
    value = v;
    return true;
  }
  /// Every member was read: an unknown one is a typo or a newer format.
  bool noOthers() {
    for (auto it = object.begin(); it != object.end(); ++it)
      if (!seen.count(it.key()))
        return fail(at(it.key()), "unknown field");
    return true;
  }

private:
  const Json &object;
  std::string path;
  std::string &error;
  std::set<std::string> seen;
};

bool readAbiEntry(const Json &j, const std::string &path, AbiEntry &e,
                  std::string &error) {
  if (!j.is_object()) {
    error = path + ": expected an object, got " + describe(j);
    return false;
  }
  Reader r(j, path, error);
  std::string kind, dtype, access;
  if (!r.string("name", e.name, true) || !r.string("kind", kind, true))
    return false;
  if (kind == "view") {
    e.kind = AbiEntry::Kind::View;
    int64_t rank, align;
    if (!r.string("dtype", dtype, true) ||
        !r.integer("rank", rank, true, 1, 8) ||
        !r.integer("align", align, true, 1, 16) ||
        !r.string("access", access, true))
      return false;
    e.rank = static_cast<int>(rank);
    e.align = static_cast<int>(align);
    if (!parseAccess(access, e.access))
      return r.fail(r.at("access"), "expected \"none\", \"read\", \"write\" "
                                    "or \"readwrite\", got \"" +
                                        access + "\"");
  } else if (kind == "scalar") {
    e.kind = AbiEntry::Kind::Scalar;
    if (!r.string("dtype", dtype, true))
      return false;
  } else if (kind == "tensor_map") {
    e.kind = AbiEntry::Kind::TensorMap;
    int64_t swizzle;
    if (!r.string("view", e.view, true) ||
        !r.integer("swizzle", swizzle, true, 0, 128))
      return false;
    e.swizzle = static_cast<int>(swizzle);
    for (const char *key : {"dims", "box"}) {
      const Json *a = r.find(key);
      if (!a)
        return r.missing(key);
      if (!a->is_array() || a->empty() || a->size() > 5)
        return r.fail(r.at(key), "expected an array of 1 to 5 integers, got " +
                                     describe(*a));
      std::vector<int64_t> &out = std::string(key) == "dims" ? e.dims : e.box;
      for (size_t i = 0; i < a->size(); ++i) {
        int64_t v;
        if (!r.integer((*a)[i], r.at(key) + "[" + std::to_string(i) + "]", 0,
                       std::string(key) == "dims" ? 7 : 256, v))
          return false;
        out.push_back(v);
      }
    }
  } else {
    return r.fail(r.at("kind"),
                  "expected \"view\", \"scalar\" or \"tensor_map\", got " +
                      describe(*j.find("kind")));
  }
  // Views and scalars require a dtype: an empty one was taken as f32 (the
  // default of AbiEntry; fuzzer, seed 20261203). Tensor maps have none.
  if (e.kind != AbiEntry::Kind::TensorMap && !parseDType(dtype, e.dtype))
    return r.fail(r.at("dtype"),
                  "expected f16, bf16, f32, i32, f8E4M3FN or f8E5M2, got \"" +
                      dtype + "\"");
  return r.noOthers();
}

/// Collects duplicate object keys while parsing (nlohmann keeps the last).
struct DuplicateKeys {
  std::vector<std::set<std::string>> open;
  std::string first;
  bool operator()(int, Json::parse_event_t event, Json &parsed) {
    if (event == Json::parse_event_t::object_start)
      open.emplace_back();
    else if (event == Json::parse_event_t::object_end && !open.empty())
      open.pop_back();
    else if (event == Json::parse_event_t::key && !open.empty() &&
             !open.back().insert(parsed.get<std::string>()).second &&
             first.empty())
      first = parsed.get<std::string>();
    return true;
  }
};

bool isSha256Hex(const std::string &s) {
  return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

bool checkExprs(const Manifest &m, std::string &error) {
  SignatureScope scope;
  for (const AbiEntry &e : m.abi) {
    if (e.kind == AbiEntry::Kind::View)
      scope.viewRanks[e.name] = e.rank;
    else
      scope.scalars.push_back(e.name);
  }
  for (const auto &p : m.params)
    if (p.second.exprValue())
      scope.params[p.first] = p.second.exprValue();
  static const char *axes[] = {"x", "y", "z"};
  for (int i = 0; i < 3; ++i) {
    std::optional<int64_t> value;
    std::string why;
    if (!analyzeExpr(m.grid[i], scope, value, why)) {
      error = "grid[" + std::to_string(i) + "]: " + why;
      return false;
    }
    if (value && *value < 1) {
      error = "grid[" + std::to_string(i) + "]: " + quoteExpr(m.grid[i]) +
              " is " + std::to_string(*value) + " for every shape (grid." +
              axes[i] + " must be at least 1)";
      return false;
    }
  }
  for (size_t i = 0; i < m.preconditions.size(); ++i) {
    std::optional<int64_t> value;
    std::string why;
    if (!analyzeExpr(m.preconditions[i], scope, value, why)) {
      error = "requires[" + std::to_string(i) + "]: " + why;
      return false;
    }
    if (value && *value == 0) {
      error = "requires[" + std::to_string(i) +
              "]: " + quoteExpr(m.preconditions[i]) +
              " is false for every shape";
      return false;
    }
  }
  return true;
}

bool checkAbi(const Manifest &m, std::string &error) {
  std::set<std::string> names;
  for (size_t i = 0; i < m.abi.size(); ++i) {
    const AbiEntry &e = m.abi[i];
    std::string at = "abi[" + std::to_string(i) + "]";
    auto fail = [&](const std::string &field, const std::string &what) {
      error = at + (field.empty() ? "" : "." + field) + ": " + what;
      return false;
    };
    bool isMap = e.kind == AbiEntry::Kind::TensorMap;
    if (!isIdentifier(e.name, isMap ? "@." : ""))
      return fail("name", "expected " +
                              std::string(isMap ? "a name of letters, digits, "
                                                  "_, @ and ."
                                                : "an identifier") +
                              ", got \"" + e.name + "\"");
    if (!names.insert(e.name).second)
      return fail("name", "duplicate argument name \"" + e.name + "\"");
    if (e.kind == AbiEntry::Kind::View) {
      if (e.rank < 1 || e.rank > 8)
        return fail("rank", "expected an integer in [1, 8], got " +
                                std::to_string(e.rank));
      if (e.align < 1 || e.align > 16 || (e.align & (e.align - 1)))
        return fail("align", "expected a power of two in [1, 16], got " +
                                 std::to_string(e.align));
    } else if (e.kind == AbiEntry::Kind::Scalar) {
      if (e.dtype != DType::F32 && e.dtype != DType::I32)
        return fail("dtype", std::string("a scalar is f32 or i32, not ") +
                                 dtypeName(e.dtype));
    } else {
      const AbiEntry *view = m.abiEntry(e.view);
      if (!view || view->kind != AbiEntry::Kind::View)
        return fail("view", "\"" + e.view + "\" is not a view of the abi");
      if (e.dims.empty() || e.dims.size() > 5 ||
          e.dims.size() > static_cast<size_t>(view->rank) ||
          e.box.size() != e.dims.size())
        return fail("dims", "expected 1 to min(5, rank) dimensions and as "
                            "many box sizes");
      std::set<int64_t> seen;
      for (int64_t d : e.dims)
        if (d < 0 || d >= view->rank || !seen.insert(d).second)
          return fail("dims", "expected distinct dimensions of \"" + e.view +
                                  "\" (rank " + std::to_string(view->rank) +
                                  ")");
      if (e.dims[0] != view->rank - 1)
        return fail("dims", "dims[0] must be the innermost dimension of \"" +
                                e.view + "\", " +
                                std::to_string(view->rank - 1));
      for (int64_t b : e.box)
        if (b < 1 || b > 256)
          return fail("box", "box sizes are in [1, 256]");
      if (e.swizzle != 0 && e.swizzle != 32 && e.swizzle != 64 &&
          e.swizzle != 128)
        return fail("swizzle", "expected 0, 32, 64 or 128, got " +
                                   std::to_string(e.swizzle));
      int64_t innerBytes = e.box[0] * dtypeBytes(view->dtype);
      if (innerBytes % 16 != 0)
        return fail("box",
                    "box[0] * element size = " + std::to_string(innerBytes) +
                        " bytes, not a multiple of 16");
      if (e.swizzle && innerBytes > e.swizzle)
        return fail("box",
                    "box[0] * element size = " + std::to_string(innerBytes) +
                        " bytes exceeds the swizzle span " +
                        std::to_string(e.swizzle));
      if (view->align != 16)
        return fail("view", "a view read through a tensor map needs align "
                            "16, \"" +
                                e.view + "\" has " +
                                std::to_string(view->align));
    }
  }
  return true;
}

} // namespace

bool checkJsonDepth(const std::string &text, int maxDepth, std::string &error) {
  int depth = 0, line = 1;
  size_t lineStart = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
      else if (c == '\n')
        break; // not JSON: the parser says where
      continue;
    }
    if (c == '"') {
      inString = true;
    } else if (c == '\n') {
      ++line;
      lineStart = i + 1;
    } else if (c == '[' || c == '{') {
      if (++depth > maxDepth) {
        error = "line " + std::to_string(line) + ", column " +
                std::to_string(i - lineStart + 1) + ": nested deeper than " +
                std::to_string(maxDepth) + " levels";
        return false;
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return true;
}

bool validateManifest(const Manifest &m, const std::string &where,
                      std::string &error) {
  std::string why;
  auto fail = [&](const std::string &field, const std::string &what) {
    why = field + ": " + what;
    return false;
  };
  auto check = [&]() -> bool {
    if (m.format != kBundleFormat)
      return fail("format", "expected \"" + std::string(kBundleFormat) +
                                "\", got \"" + m.format + "\"");
    if (!isIdentifier(m.kernel))
      return fail("kernel", "expected an identifier, got \"" + m.kernel + "\"");
    if (!isIdentifier(m.entry, "$"))
      return fail("entry",
                  "expected a PTX identifier, got \"" + m.entry + "\"");
    if (!isPlainFileName(m.ptx))
      return fail("ptx", "expected a file name in the bundle folder, got \"" +
                             m.ptx + "\"");
    if (!m.cubin.empty() && !isPlainFileName(m.cubin))
      return fail("cubin", "expected a file name in the bundle folder, got \"" +
                               m.cubin + "\"");
    SmTarget target;
    if (!parseSmTarget(m.target, target))
      return fail("target", "expected sm_XY with an optional a or f "
                            "(sm_80, sm_90a), got \"" +
                                m.target + "\"");
    if (m.numWarps < 1 || m.numWarps > 32)
      return fail("num_warps", "expected an integer in [1, 32], got " +
                                   std::to_string(m.numWarps));
    for (int i = 0; i < 3; ++i)
      if (m.block[i] < 1 || m.block[i] > 1024)
        return fail("block[" + std::to_string(i) + "]",
                    "expected an integer in [1, 1024], got " +
                        std::to_string(m.block[i]));
    int64_t threads = m.block[0] * m.block[1] * m.block[2];
    if (threads != 32 * m.numWarps)
      return fail("block", std::to_string(threads) +
                               " threads, but num_warps " +
                               std::to_string(m.numWarps) + " means " +
                               std::to_string(32 * m.numWarps));
    if (m.occupancy < 0 || m.occupancy > 32)
      return fail("occupancy", "expected an integer in [0, 32], got " +
                                   std::to_string(m.occupancy));
    if (m.sharedBytes < 0 || m.sharedBytes > INT32_MAX)
      return fail("shared_bytes", "expected an integer in [0, 2147483647], "
                                  "got " +
                                      std::to_string(m.sharedBytes));
    std::set<std::string> paramNames;
    for (const auto &p : m.params) {
      if (!isIdentifier(p.first))
        return fail("params", "\"" + p.first + "\" is not an identifier");
      if (!paramNames.insert(p.first).second)
        return fail("params." + p.first, "bound twice");
    }
    if (m.abi.empty())
      return fail("abi", "expected a non-empty array");
    if (m.abi.size() > 256)
      return fail("abi", "more than 256 arguments");
    if (!checkAbi(m, why) || !checkExprs(m, why))
      return false;
    if (m.ptxas) {
      const PtxasStats &p = *m.ptxas;
      if (p.registers < 0 || p.registers > 255)
        return fail("ptxas.registers", "expected an integer in [0, 255], got " +
                                           std::to_string(p.registers));
      if (p.spillStores < 0 || p.spillLoads < 0 || p.stackBytes < 0)
        return fail("ptxas", "spill and stack sizes must be non-negative");
    }
    std::set<std::string> fileNames;
    for (const FileDigest &f : m.files) {
      if (!isPlainFileName(f.name))
        return fail("files", "expected file names in the bundle folder, got "
                             "\"" +
                                 f.name + "\"");
      if (!fileNames.insert(f.name).second)
        return fail("files." + f.name, "listed twice");
      if (!isSha256Hex(f.sha256))
        return fail("files." + f.name + ".sha256",
                    "expected 64 lowercase hexadecimal digits, got \"" +
                        f.sha256 + "\"");
      if (f.bytes < 0)
        return fail("files." + f.name + ".bytes",
                    "expected a non-negative integer, got " +
                        std::to_string(f.bytes));
    }
    return true;
  };
  if (check())
    return true;
  error = (where.empty() ? "" : where + ": ") + why;
  return false;
}

/// JSON text as the manifest reader takes it: nesting checked before
/// parsing, no duplicate keys, nlohmann's message without its prefix.
/// `prefix` starts every error.
static bool parseJson(const std::string &text, const std::string &prefix,
                      Json &json, std::string &error) {
  std::string deep;
  if (!checkJsonDepth(text, kMaxJsonDepth, deep)) {
    error = prefix + deep;
    return false;
  }
  DuplicateKeys duplicates;
  try {
    json = Json::parse(text, std::ref(duplicates));
  } catch (const Json::exception &e) {
    // parse_error, and out_of_range for a number no double holds (1e400):
    // that one escaped before (conformance corpus, issue 27).
    std::string what = e.what();
    // "[json.exception.parse_error.101] parse error at line 3, column 3: ..."
    size_t start = what.find("] ");
    error =
        prefix + (start == std::string::npos ? what : what.substr(start + 2));
    return false;
  }
  if (!duplicates.first.empty()) {
    error = prefix + "duplicate key \"" + duplicates.first + "\"";
    return false;
  }
  return true;
}

bool parseManifest(const std::string &text, const std::string &where,
                   Manifest &m, std::string &error) {
  m = Manifest();
  error.clear();
  std::string prefix = where.empty() ? "" : where + ": ";
  Json json;
  if (!parseJson(text, prefix, json, error))
    return false;
  if (!json.is_object()) {
    error = prefix + "expected a JSON object";
    return false;
  }
  std::string why;
  Reader r(json, "", why);
  auto fail = [&]() {
    error = prefix + why;
    return false;
  };
  if (!r.string("format", m.format, true))
    return fail();
  if (m.format == "tile-bundle-1") {
    error = prefix + "format: \"tile-bundle-1\" was written by an older "
                     "tile-compile (no view alignment or access in the abi); "
                     "recompile the bundle";
    return false;
  }
  if (m.format != kBundleFormat) {
    error = prefix + "format: expected \"" + kBundleFormat + "\", got \"" +
            m.format + "\"";
    return false;
  }
  if (!r.string("kernel", m.kernel, true) ||
      !r.string("entry", m.entry, true) || !r.string("ptx", m.ptx, true) ||
      !r.string("cubin", m.cubin, false) ||
      !r.string("target", m.target, true) ||
      !r.string("compiler", m.compiler, false) ||
      !r.string("source", m.source, false) ||
      !r.string("pipeline", m.pipeline, false) ||
      !r.optionalInteger("stages", m.stages, 0, 64) ||
      !r.string("sync", m.sync, false) ||
      !r.string("warp_specialize", m.warpSpecialize, false) ||
      !r.string("ping_pong", m.pingPong, false) ||
      !r.string("tma", m.tma, false) ||
      !r.string("pin_waits", m.pinWaits, false) ||
      !r.optionalInteger("mma_version", m.mmaVersion, 0, 3) ||
      !r.string("shared_layout", m.sharedLayout, false) ||
      !r.integer("num_warps", m.numWarps, true, 1, 32) ||
      !r.integer("occupancy", m.occupancy, false, 0, 32) ||
      !r.integer("shared_bytes", m.sharedBytes, true, 0, INT32_MAX))
    return fail();

  const Json *block = r.find("block");
  if (!block) {
    r.missing("block");
    return fail();
  }
  if (!block->is_array() || block->size() != 3) {
    r.fail("block", "expected an array of 3 integers, got " + describe(*block));
    return fail();
  }
  for (int i = 0; i < 3; ++i)
    if (!r.integer((*block)[i], "block[" + std::to_string(i) + "]", 1, 1024,
                   m.block[i]))
      return fail();

  const Json *grid = r.find("grid");
  if (!grid) {
    r.missing("grid");
    return fail();
  }
  if (!grid->is_array() || grid->size() != 3) {
    r.fail("grid",
           "expected an array of 3 expression strings, got " + describe(*grid));
    return fail();
  }
  for (int i = 0; i < 3; ++i) {
    if (!(*grid)[i].is_string()) {
      r.fail("grid[" + std::to_string(i) + "]",
             "expected a string, got " + describe((*grid)[i]));
      return fail();
    }
    m.grid[i] = (*grid)[i].get<std::string>();
  }

  if (const Json *req = r.find("requires")) {
    if (!req->is_array()) {
      r.fail("requires", "expected an array of expression strings, "
                         "got " +
                             describe(*req));
      return fail();
    }
    for (size_t i = 0; i < req->size(); ++i) {
      if (!(*req)[i].is_string()) {
        r.fail("requires[" + std::to_string(i) + "]",
               "expected a string, got " + describe((*req)[i]));
        return fail();
      }
      m.preconditions.push_back((*req)[i].get<std::string>());
    }
  }

  const Json *params = r.find("params");
  if (!params) {
    r.missing("params");
    return fail();
  }
  if (!params->is_object()) {
    r.fail("params", "expected an object, got " + describe(*params));
    return fail();
  }
  for (auto it = params->begin(); it != params->end(); ++it) {
    const Json &v = it.value();
    ParamValue p;
    if (v.is_boolean()) {
      p = ParamValue::ofBool(v.get<bool>());
    } else if (v.is_string()) {
      p = ParamValue::ofString(v.get<std::string>());
    } else if (int64_t i; Reader::integerIn(v, INT64_MIN, INT64_MAX, i)) {
      p = ParamValue::ofInt(i);
    } else {
      r.fail("params." + it.key(),
             "expected an integer, a boolean or a string, got " + describe(v));
      return fail();
    }
    m.params.emplace_back(it.key(), p);
  }

  const Json *abi = r.find("abi");
  if (!abi) {
    r.missing("abi");
    return fail();
  }
  if (!abi->is_array() || abi->empty()) {
    r.fail("abi", "expected a non-empty array, got " + describe(*abi));
    return fail();
  }
  for (size_t i = 0; i < abi->size(); ++i) {
    AbiEntry e;
    if (!readAbiEntry((*abi)[i], "abi[" + std::to_string(i) + "]", e, why))
      return fail();
    m.abi.push_back(e);
  }

  if (const Json *ptxas = r.find("ptxas")) {
    if (!ptxas->is_object()) {
      r.fail("ptxas", "expected an object, got " + describe(*ptxas));
      return fail();
    }
    Reader pr(*ptxas, "ptxas", why);
    PtxasStats s;
    if (!pr.integer("registers", s.registers, true, 0, 255) ||
        !pr.integer("spill_stores", s.spillStores, true, 0, INT64_MAX) ||
        !pr.integer("spill_loads", s.spillLoads, true, 0, INT64_MAX) ||
        !pr.integer("stack_bytes", s.stackBytes, true, 0, INT64_MAX) ||
        !pr.string("ptxas", s.ptxas, false) ||
        !pr.optionalInteger("opt_level", s.optLevel, 0, 3) || !pr.noOthers())
      return fail();
    m.ptxas = s;
  }

  if (const Json *files = r.find("files")) {
    if (!files->is_object()) {
      r.fail("files", "expected an object, got " + describe(*files));
      return fail();
    }
    for (auto it = files->begin(); it != files->end(); ++it) {
      std::string at = "files." + it.key();
      if (!it.value().is_object()) {
        r.fail(at, "expected an object {\"sha256\": ..., \"bytes\": ...}, "
                   "got " +
                       describe(it.value()));
        return fail();
      }
      Reader fr(it.value(), at, why);
      FileDigest f;
      f.name = it.key();
      if (!fr.string("sha256", f.sha256, true) ||
          !fr.integer("bytes", f.bytes, true, 0, INT64_MAX) || !fr.noOthers())
        return fail();
      m.files.push_back(f);
    }
  }
  if (!r.noOthers())
    return fail();
  return validateManifest(m, where, error);
}

std::string abiEntryJson(const AbiEntry &e) {
  Json j = Json::object();
  j["name"] = e.name;
  j["kind"] = kindName(e.kind);
  if (e.kind == AbiEntry::Kind::TensorMap) {
    j["view"] = e.view;
    j["dims"] = e.dims;
    j["box"] = e.box;
    j["swizzle"] = e.swizzle;
  } else {
    j["dtype"] = dtypeName(e.dtype);
  }
  if (e.kind == AbiEntry::Kind::View) {
    j["rank"] = e.rank;
    j["align"] = e.align;
    j["access"] = accessName(e.access);
  }
  return j.dump();
}

bool parseAbiJson(const std::string &text, const std::string &where,
                  std::vector<AbiEntry> &abi, std::string &error) {
  abi.clear();
  std::string prefix = where.empty() ? "" : where + ": ";
  std::string why;
  Json json;
  if (!parseJson(text, prefix, json, error))
    return false;
  if (!json.is_array() || json.empty() || json.size() > 256) {
    error = prefix + "expected an array of 1 to 256 abi entries";
    return false;
  }
  for (size_t i = 0; i < json.size(); ++i) {
    AbiEntry e;
    if (!readAbiEntry(json[i], "abi[" + std::to_string(i) + "]", e, why)) {
      error = prefix + why;
      return false;
    }
    abi.push_back(e);
  }
  return true;
}

std::string ptxAbiLine(const std::string &entry,
                       const std::vector<AbiEntry> &abi) {
  std::string line = "// tile-abi " + entry + " [";
  for (size_t i = 0; i < abi.size(); ++i)
    line += (i ? ", " : "") + abiEntryJson(abi[i]);
  return line + "]\n";
}

bool checkPtxAbi(const std::string &ptx, const std::string &entry,
                 const std::vector<AbiEntry> &abi, bool required,
                 std::string &error) {
  // The first line "// tile-abi ENTRY ..." (at the start of a line).
  const std::string key = "// tile-abi " + entry + " ";
  size_t at = 0;
  while ((at = ptx.find(key, at)) != std::string::npos && at != 0 &&
         ptx[at - 1] != '\n')
    at += key.size();
  if (at == std::string::npos) {
    if (!required)
      return true;
    error = "the PTX has no '// tile-abi " + entry +
            "' line, which tile-compile writes with the files digests: "
            "recompile the bundle";
    return false;
  }
  size_t start = at + key.size();
  size_t end = ptx.find('\n', start);
  std::string text = ptx.substr(
      start, end == std::string::npos ? std::string::npos : end - start);
  std::vector<AbiEntry> compiled;
  std::string why;
  if (!parseAbiJson(text, "", compiled, why)) {
    error = "the PTX's tile-abi line does not read: " + why;
    return false;
  }
  const char *hint =
      " (its tile-abi line): an edited manifest, or another kernel's PTX";
  for (size_t i = 0; i < abi.size() && i < compiled.size(); ++i) {
    std::string have = abiEntryJson(abi[i]), want = abiEntryJson(compiled[i]);
    if (have != want) {
      error = "the manifest's abi[" + std::to_string(i) + "] is " + have +
              ", but the PTX was compiled for " + want + hint;
      return false;
    }
  }
  if (abi.size() != compiled.size()) {
    error = "the manifest's abi has " + std::to_string(abi.size()) +
            " entries, but the PTX was compiled for " +
            std::to_string(compiled.size()) + hint;
    return false;
  }
  return true;
}

bool writeManifest(const Manifest &m, std::string &text, std::string &error) {
  if (!validateManifest(m, "", error))
    return false;
  std::vector<std::pair<std::string, Json>> fields;
  auto add = [&](const char *key, Json value) {
    fields.emplace_back(key, std::move(value));
  };
  add("format", m.format);
  add("kernel", m.kernel);
  add("entry", m.entry);
  add("ptx", m.ptx);
  if (!m.cubin.empty())
    add("cubin", m.cubin);
  add("target", m.target);
  if (!m.compiler.empty())
    add("compiler", m.compiler);
  if (!m.source.empty())
    add("source", m.source);
  if (!m.pipeline.empty())
    add("pipeline", m.pipeline);
  if (m.stages)
    add("stages", *m.stages);
  if (!m.sync.empty())
    add("sync", m.sync);
  if (!m.warpSpecialize.empty())
    add("warp_specialize", m.warpSpecialize);
  if (!m.pingPong.empty())
    add("ping_pong", m.pingPong);
  if (!m.tma.empty())
    add("tma", m.tma);
  if (!m.pinWaits.empty())
    add("pin_waits", m.pinWaits);
  if (m.mmaVersion)
    add("mma_version", *m.mmaVersion);
  if (!m.sharedLayout.empty())
    add("shared_layout", m.sharedLayout);
  add("num_warps", m.numWarps);
  add("block", Json::array({m.block[0], m.block[1], m.block[2]}));
  add("occupancy", m.occupancy);
  add("shared_bytes", m.sharedBytes);
  add("grid", Json::array({m.grid[0], m.grid[1], m.grid[2]}));
  Json req = Json::array();
  for (const std::string &r : m.preconditions)
    req.push_back(r);
  add("requires", req);
  Json params = Json::object();
  for (const auto &p : m.params) {
    switch (p.second.kind) {
    case ParamValue::Kind::Int:
      params[p.first] = p.second.intValue;
      break;
    case ParamValue::Kind::Bool:
      params[p.first] = p.second.boolValue;
      break;
    case ParamValue::Kind::String:
      params[p.first] = p.second.stringValue;
      break;
    }
  }
  add("params", params);
  Json ptxas;
  if (m.ptxas) {
    ptxas = Json::object();
    ptxas["registers"] = m.ptxas->registers;
    ptxas["spill_stores"] = m.ptxas->spillStores;
    ptxas["spill_loads"] = m.ptxas->spillLoads;
    ptxas["stack_bytes"] = m.ptxas->stackBytes;
    if (!m.ptxas->ptxas.empty())
      ptxas["ptxas"] = m.ptxas->ptxas;
    if (m.ptxas->optLevel)
      ptxas["opt_level"] = *m.ptxas->optLevel;
  }

  text = "{\n";
  for (const auto &f : fields)
    text += "  " + Json(f.first).dump() + ": " + f.second.dump() + ",\n";
  text += "  \"abi\": [\n";
  for (size_t i = 0; i < m.abi.size(); ++i)
    text +=
        "    " + abiEntryJson(m.abi[i]) + (i + 1 < m.abi.size() ? ",\n" : "\n");
  text += "  ]";
  if (m.ptxas)
    text += ",\n  \"ptxas\": " + ptxas.dump();
  if (!m.files.empty()) {
    text += ",\n  \"files\": {";
    for (size_t i = 0; i < m.files.size(); ++i) {
      Json digest = Json::object();
      digest["sha256"] = m.files[i].sha256;
      digest["bytes"] = m.files[i].bytes;
      text += std::string(i ? "," : "") + "\n    " +
              Json(m.files[i].name).dump() + ": " + digest.dump();
    }
    text += "\n  }";
  }
  text += "\n}\n";
  // What is written must read back as the same manifest.
  Manifest back;
  if (!parseManifest(text, "", back, error)) {
    error = "the written manifest does not read back: " + error;
    return false;
  }
  return true;
}

} // namespace tilebundle
