//===- tile-bundle.cpp - check and write bundle manifests -----------------===//
//
// The command-line face of the bundle library (include/tile/Bundle), for
// scripts and test fixtures that make bundles without tile-compile:
//
//   tile-bundle check DIR|manifest.json
//       validates a manifest (and, for a folder, the files its `files`
//       lists and that its PTX declares the entry with the abi's
//       parameters);
//       prints "ok: ..." or the error naming the field; exit 0 or 1.
//   tile-bundle write -o FILE [fields]
//       builds a manifest from the options below, validates it and writes
//       it in the canonical layout:
//         --kernel NAME --entry NAME --ptx FILE [--cubin FILE]
//         --target sm_XY[a] [--compiler S] [--source S] [--pipeline S]
//         --num-warps N [--block X,Y,Z] [--occupancy N] --shared-bytes N
//         --grid EXPR (three times) [--requires EXPR]...
//         [--param NAME=VALUE]...  (integers, true/false, else a string)
//         --view NAME:DTYPE:RANK:ALIGN:ACCESS  --scalar NAME:DTYPE
//         --tensor-map NAME:VIEW:D0/D1..:B0/B1..:SWIZZLE   (in ABI order)
//         [--ptxas-log FILE]  ptxas -v output to take registers and spills
//         [--fake-spills N]   writes N as spill stores and loads (fixtures)
//   tile-bundle format FILE
//       prints the manifest in FILE in the canonical layout (validated).
//
//===----------------------------------------------------------------------===//

#include "tile/Bundle/Bundle.h"
#include "tile/Bundle/Npy.h"
#include "tile/Support/Checked.h"

#include <cstdio>
#include <filesystem>
#include <sstream>

using namespace tile;
using namespace tilebundle;

namespace {

int usage() {
  std::fprintf(stderr,
               "usage: tile-bundle check DIR|manifest.json\n"
               "       tile-bundle write -o FILE [fields] (see the source "
               "banner or docs/bundle.md)\n"
               "       tile-bundle format FILE\n");
  return 2;
}

int fail(const std::string &message) {
  std::fprintf(stderr, "tile-bundle: error: %s\n", message.c_str());
  return 1;
}

std::vector<std::string> split(const std::string &text, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, sep))
    out.push_back(item);
  if (!text.empty() && text.back() == sep)
    out.push_back("");
  return out;
}

bool parseInt(const std::string &option, const std::string &text, int64_t min,
              int64_t max, int64_t &value, std::string &error) {
  std::string why;
  std::optional<int64_t> v = checked::parseInt(text, min, max, &why);
  if (!v) {
    error = option + ": " + why;
    return false;
  }
  value = *v;
  return true;
}

bool parseIntList(const std::string &option, const std::string &text, char sep,
                  std::vector<int64_t> &out, std::string &error) {
  for (const std::string &item : split(text, sep)) {
    int64_t v;
    if (!parseInt(option, item, INT64_MIN, INT64_MAX, v, error))
      return false;
    out.push_back(v);
  }
  return true;
}

bool readManifestArg(const std::string &path, Manifest &m, std::string &error,
                     Bundle *bundle = nullptr) {
  // The error_code overloads: a link loop or an over-long name is an error
  // naming the path, not an uncaught filesystem_error.
  std::error_code ec;
  bool isDir = std::filesystem::is_directory(path, ec);
  if (ec && ec != std::errc::no_such_file_or_directory) {
    error = "cannot read '" + path + "': " + ec.message();
    return false;
  }
  if (isDir) {
    Bundle b;
    if (!loadBundle(path, b, error))
      return false;
    m = b.manifest;
    if (bundle)
      *bundle = b;
    return true;
  }
  std::string text;
  return checked::readFile(path, text, error, kMaxManifestBytes) &&
         parseManifest(text, path, m, error);
}

int check(const std::string &path) {
  Manifest m;
  Bundle b;
  std::string error;
  if (!readManifestArg(path, m, error, &b))
    return fail(error);
  // A folder: its PTX declares the entry with the parameters of the abi
  // (the launch ABI, Launch.h), and is whole.
  if (!b.dir.empty()) {
    std::string ptx;
    PtxInfo info;
    if (!checkBundlePtx(b, abiParams(m), ptx, info, error))
      return fail(error);
  }
  std::printf("ok: %s, kernel %s, target %s, %zu abi entries, grid [%s, %s, "
              "%s]\n",
              m.format.c_str(), m.kernel.c_str(), m.target.c_str(),
              m.abi.size(), m.grid[0].c_str(), m.grid[1].c_str(),
              m.grid[2].c_str());
  return 0;
}

int format(const std::string &path) {
  Manifest m;
  std::string error, text;
  if (!readManifestArg(path, m, error) || !writeManifest(m, text, error))
    return fail(error);
  std::fputs(text.c_str(), stdout);
  return 0;
}

int write(int argc, char **argv) {
  Manifest m;
  std::string out, error, ptxasLog;
  int64_t fakeSpills = -1;
  bool blockGiven = false;
  std::vector<std::string> grid;
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    if (i + 1 >= argc)
      return fail(arg + " needs a value");
    std::string v = argv[++i];
    int64_t n;
    if (arg == "-o") {
      out = v;
    } else if (arg == "--kernel") {
      m.kernel = v;
    } else if (arg == "--entry") {
      m.entry = v;
    } else if (arg == "--ptx") {
      m.ptx = v;
    } else if (arg == "--cubin") {
      m.cubin = v;
    } else if (arg == "--target") {
      m.target = v;
    } else if (arg == "--compiler") {
      m.compiler = v;
    } else if (arg == "--source") {
      m.source = v;
    } else if (arg == "--pipeline") {
      m.pipeline = v;
    } else if (arg == "--num-warps") {
      if (!parseInt(arg, v, 1, 32, m.numWarps, error))
        return fail(error);
    } else if (arg == "--occupancy") {
      if (!parseInt(arg, v, 0, 32, m.occupancy, error))
        return fail(error);
    } else if (arg == "--shared-bytes") {
      if (!parseInt(arg, v, 0, INT64_MAX, m.sharedBytes, error))
        return fail(error);
    } else if (arg == "--block") {
      std::vector<int64_t> b;
      if (!parseIntList(arg, v, ',', b, error))
        return fail(error);
      if (b.size() != 3)
        return fail("--block takes X,Y,Z");
      m.block = {b[0], b[1], b[2]};
      blockGiven = true;
    } else if (arg == "--grid") {
      grid.push_back(v);
    } else if (arg == "--requires") {
      m.preconditions.push_back(v);
    } else if (arg == "--param") {
      size_t eq = v.find('=');
      if (eq == std::string::npos || eq == 0)
        return fail("--param takes NAME=VALUE, got '" + v + "'");
      std::string name = v.substr(0, eq), value = v.substr(eq + 1);
      if (m.param(name))
        return fail("--param " + name + " is given twice");
      std::optional<int64_t> i = checked::parseInt(value);
      m.params.emplace_back(name, i                 ? ParamValue::ofInt(*i)
                                  : value == "true" ? ParamValue::ofBool(true)
                                  : value == "false"
                                      ? ParamValue::ofBool(false)
                                      : ParamValue::ofString(value));
    } else if (arg == "--view") {
      std::vector<std::string> f = split(v, ':');
      AbiEntry e;
      e.kind = AbiEntry::Kind::View;
      int64_t rank, align;
      if (f.size() != 5)
        return fail("--view takes NAME:DTYPE:RANK:ALIGN:ACCESS, got '" + v +
                    "'");
      e.name = f[0];
      if (!parseDType(f[1], e.dtype))
        return fail("--view " + v + ": unknown dtype '" + f[1] + "'");
      if (!parseInt("--view " + v + ": rank", f[2], 1, 8, rank, error) ||
          !parseInt("--view " + v + ": align", f[3], 1, 16, align, error))
        return fail(error);
      e.rank = static_cast<int>(rank);
      e.align = static_cast<int>(align);
      if (!parseAccess(f[4], e.access))
        return fail("--view " + v +
                    ": access is none, read, write or "
                    "readwrite");
      m.abi.push_back(e);
    } else if (arg == "--scalar") {
      std::vector<std::string> f = split(v, ':');
      AbiEntry e;
      e.kind = AbiEntry::Kind::Scalar;
      if (f.size() != 2 || !parseDType(f[1], e.dtype))
        return fail("--scalar takes NAME:DTYPE, got '" + v + "'");
      e.name = f[0];
      m.abi.push_back(e);
    } else if (arg == "--tensor-map") {
      std::vector<std::string> f = split(v, ':');
      AbiEntry e;
      e.kind = AbiEntry::Kind::TensorMap;
      if (f.size() != 5)
        return fail("--tensor-map takes NAME:VIEW:DIMS:BOX:SWIZZLE, got '" + v +
                    "'");
      e.name = f[0];
      e.view = f[1];
      if (!parseIntList(arg, f[2], '/', e.dims, error) ||
          !parseIntList(arg, f[3], '/', e.box, error) ||
          !parseInt(arg, f[4], 0, 128, n, error))
        return fail(error);
      e.swizzle = static_cast<int>(n);
      m.abi.push_back(e);
    } else if (arg == "--ptxas-log") {
      ptxasLog = v;
    } else if (arg == "--fake-spills") {
      if (!parseInt(arg, v, 0, INT64_MAX, fakeSpills, error))
        return fail(error);
    } else {
      return fail("unknown option '" + arg + "'");
    }
  }
  if (out.empty())
    return fail("write needs -o FILE");
  if (grid.size() != 3)
    return fail("give --grid three times (x, y, z), got " +
                std::to_string(grid.size()));
  for (int i = 0; i < 3; ++i)
    m.grid[i] = grid[i];
  if (!blockGiven)
    m.block = {32 * m.numWarps, 1, 1};
  if (!ptxasLog.empty()) {
    std::string log;
    PtxasReport report;
    if (!checked::readFile(ptxasLog, log, error))
      return fail(error);
    if (!parsePtxasLog(log, m.entry, report))
      return fail(ptxasLog + ": no ptxas -v figures for '" + m.entry + "'");
    PtxasStats s;
    s.registers = report.registers < 0 ? 0 : report.registers;
    s.spillStores = report.spillStores;
    s.spillLoads = report.spillLoads;
    s.stackBytes = report.stackBytes;
    m.ptxas = s;
  }
  if (fakeSpills >= 0) {
    if (!m.ptxas)
      m.ptxas = PtxasStats();
    m.ptxas->spillStores = m.ptxas->spillLoads = fakeSpills;
  }
  std::string text;
  if (!writeManifest(m, text, error) || !writeFileBytes(out, text, error))
    return fail(error);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 3)
    return usage();
  std::string command = argv[1];
  if (command == "check" && argc == 3)
    return check(argv[2]);
  if (command == "format" && argc == 3)
    return format(argv[2]);
  if (command == "write")
    return write(argc, argv);
  return usage();
}
