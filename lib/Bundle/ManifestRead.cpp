//===- ManifestRead.cpp - reading a bundle manifest and tile-abi lines ----===//
//
// JSON text to a Manifest: every field typed and range-checked with an error
// that names it by path, unknown fields refused, then validateManifest
// (ManifestValidate.cpp). Also the PTX's `// tile-abi` line.
//
//===----------------------------------------------------------------------===//

#include "tile/Bundle/Manifest.h"

#include <nlohmann/json.hpp>

#include <set>

namespace tilebundle {

using Json = nlohmann::ordered_json;

namespace {

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

} // namespace tilebundle
