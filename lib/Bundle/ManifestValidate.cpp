//===- ManifestValidate.cpp - what every bundle manifest satisfies --------===//
//
// The checks a manifest passes whether it was read (parseManifest) or is
// about to be written (writeManifest): names, ranges, the abi's views and
// tensor maps, and the grid and `requires` expressions.
//
//===----------------------------------------------------------------------===//

#include "tile/Bundle/Manifest.h"

#include "tile/Bundle/Expr.h"
#include "tile/Bundle/Target.h"

#include <algorithm>
#include <set>

namespace tilebundle {

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

} // namespace tilebundle
