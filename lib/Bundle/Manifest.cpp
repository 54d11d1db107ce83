//===- Manifest.cpp - the bundle manifest: schema and write ---------------===//
//
// The manifest's values and their JSON writing. Reading is in
// ManifestRead.cpp, the checks every manifest passes in ManifestValidate.cpp.
//
//===----------------------------------------------------------------------===//

#include "tile/Bundle/Manifest.h"

#include "tile/Support/EnumNames.h"

#include <nlohmann/json.hpp>

namespace tilebundle {

using Json = nlohmann::ordered_json;

static constexpr ::tile::EnumName<Access> kAccessNames[] = {
    {Access::None, "none"},
    {Access::Read, "read"},
    {Access::Write, "write"},
    {Access::ReadWrite, "readwrite"}};
static_assert(::tile::listsEnum(kAccessNames, Access::ReadWrite));

const char *accessName(Access access) {
  return ::tile::enumName(kAccessNames, access);
}

bool parseAccess(const std::string &text, Access &access) {
  std::optional<Access> parsed = ::tile::parseEnumName(kAccessNames, text);
  if (parsed)
    access = *parsed;
  return parsed.has_value();
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

static constexpr ::tile::EnumName<AbiEntry::Kind> kAbiKindNames[] = {
    {AbiEntry::Kind::View, "view"},
    {AbiEntry::Kind::Scalar, "scalar"},
    {AbiEntry::Kind::TensorMap, "tensor_map"}};
static_assert(::tile::listsEnum(kAbiKindNames, AbiEntry::Kind::TensorMap));

const char *kindName(AbiEntry::Kind kind) {
  return ::tile::enumName(kAbiKindNames, kind);
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

std::string ptxAbiLine(const std::string &entry,
                       const std::vector<AbiEntry> &abi) {
  std::string line = "// tile-abi " + entry + " [";
  for (size_t i = 0; i < abi.size(); ++i)
    line += (i ? ", " : "") + abiEntryJson(abi[i]);
  return line + "]\n";
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
