//===- ConformanceTest.cpp - the corpus C++ and Python agree on -----------===//
//
// test/Bundle/Inputs/conformance holds expressions, manifests, targets, PTX
// files and bound views with what the bundle library must make of them;
// python/tests/ test_conformance.py checks the Python launcher against the same
// files, so that both read one bundle contract (issue 27).
//
//===----------------------------------------------------------------------===//

#include "tile/Bundle/Expr.h"
#include "tile/Bundle/Launch.h"
#include "tile/Bundle/Manifest.h"
#include "tile/Bundle/Target.h"
#include "tile/Support/Checked.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace tilebundle;
using Json = nlohmann::json;

namespace {

Json corpus(const std::string &name) {
  std::string path =
      std::string(TILE_SOURCE_DIR) + "/test/Bundle/Inputs/conformance/" + name;
  std::string text, error;
  if (!tile::checked::readFile(path, text, error, int64_t(16) << 20)) {
    ADD_FAILURE() << error;
    return Json::array();
  }
  return Json::parse(text)["cases"];
}

/// The class of an expression error (test_conformance.py's
/// expr_error_class).
std::string exprErrorClass(const std::string &message) {
  auto has = [&](const char *s) {
    return message.find(s) != std::string::npos;
  };
  if (has("nesting deeper than"))
    return "depth";
  if (has("longer than"))
    return "length";
  if (message.rfind("integer ", 0) == 0 || message.rfind("dimension ", 0) == 0)
    return "literal";
  if (has("division by zero") || has("cdiv by zero"))
    return "division";
  if (has("overflows int64"))
    return "overflow";
  if (has("no view argument named") || has("no parameter named") ||
      has("has rank") || has("is a scalar argument") || has("is a view:"))
    return "name";
  return "syntax";
}

TEST(Conformance, Expressions) {
  Json cases = corpus("expr.json");
  EXPECT_GT(cases.size(), 100u);
  for (const Json &c : cases) {
    std::string text = c["expr"];
    SCOPED_TRACE(text.substr(0, 60));
    std::optional<int64_t> value;
    std::string error;
    bool ok;
    if (c.contains("views")) {
      BindingScope scope;
      for (auto &v : c["views"].items())
        scope.viewSizes[v.key()] = v.value().get<std::vector<int64_t>>();
      for (auto &p : c["params"].items())
        scope.params[p.key()] = p.value().get<int64_t>();
      int64_t v = 0;
      ok = evalExpr(text, scope, v, error);
      if (ok)
        value = v;
    } else {
      SignatureScope scope;
      for (auto &v : c["ranks"].items())
        scope.viewRanks[v.key()] = v.value().get<int>();
      for (auto &p : c["params"].items())
        scope.params[p.key()] = p.value().get<int64_t>();
      scope.scalars = c["scalars"].get<std::vector<std::string>>();
      ok = analyzeExpr(text, scope, value, error);
    }
    if (c.contains("error")) {
      EXPECT_FALSE(ok) << "accepted";
      if (!ok) {
        EXPECT_EQ(exprErrorClass(error), c["error"].get<std::string>())
            << error;
      }
      continue;
    }
    ASSERT_TRUE(ok) << error;
    if (c["value"].is_null())
      EXPECT_FALSE(value.has_value()) << *value;
    else
      EXPECT_EQ(value, std::optional<int64_t>(c["value"].get<int64_t>()));
  }
}

/// Errors about the JSON text itself, before any field is read.
bool isJsonError(const std::string &message) {
  for (const char *prefix : {"parse error", "syntax error", "duplicate key",
                             "number overflow", "expected a JSON object"})
    if (message.rfind(prefix, 0) == 0)
      return true;
  return false;
}

TEST(Conformance, Manifests) {
  Json cases = corpus("manifest.json");
  EXPECT_GT(cases.size(), 100u);
  for (const Json &c : cases) {
    SCOPED_TRACE(c["name"].get<std::string>());
    std::string text = c.contains("text") ? c["text"].get<std::string>()
                                          : c["manifest"].dump();
    Manifest m;
    std::string error;
    bool ok = parseManifest(text, "", m, error);
    if (c.value("ok", false)) {
      EXPECT_TRUE(ok) << error;
      continue;
    }
    ASSERT_FALSE(ok) << "accepted";
    std::string field = c["error"];
    if (field == "json") {
      EXPECT_TRUE(isJsonError(error)) << error;
    } else if (!field.empty()) {
      EXPECT_EQ(error.rfind(field + ": ", 0), 0u) << error;
    }
  }
}

TEST(Conformance, Targets) {
  Json cases = corpus("target.json");
  EXPECT_GT(cases.size(), 20u);
  for (const Json &c : cases) {
    std::string text = c["target"];
    SCOPED_TRACE(text);
    SmTarget t;
    bool ok = parseSmTarget(text, t);
    ASSERT_EQ(ok, c["ok"].get<bool>());
    if (!ok)
      continue;
    EXPECT_EQ(t.major, c["major"].get<int>());
    EXPECT_EQ(t.minor, c["minor"].get<int>());
    EXPECT_EQ(t.suffix ? std::string(1, t.suffix) : std::string(),
              c["suffix"].get<std::string>());
    auto check = [&](const char *key, bool want, bool ptx) {
      for (const Json &cc : c[key]) {
        std::string s = cc;
        int major = std::stoi(s.substr(0, s.find('.')));
        int minor = std::stoi(s.substr(s.find('.') + 1));
        std::string why;
        bool runs = ptx ? ptxTargetRunsOn(t, major, minor, why)
                        : cubinTargetRunsOn(t, major, minor);
        EXPECT_EQ(runs, want) << key << " " << s;
      }
    };
    check("ptx_runs_on", true, true);
    check("ptx_not_on", false, true);
    check("cubin_runs_on", true, false);
    check("cubin_not_on", false, false);
  }
}

TEST(Conformance, Ptx) {
  Json cases = corpus("ptx.json");
  EXPECT_GT(cases.size(), 10u);
  for (const Json &c : cases) {
    SCOPED_TRACE(c["name"].get<std::string>());
    PtxInfo info;
    std::string error;
    bool ok = scanPtx(c["ptx"].get<std::string>(), info, error);
    if (c.contains("error")) {
      EXPECT_FALSE(ok) << "accepted";
      EXPECT_NE(error.find(c["error"].get<std::string>()), std::string::npos)
          << error;
      continue;
    }
    ASSERT_TRUE(ok) << error;
    EXPECT_EQ(info.version, c["version"].get<std::string>());
    EXPECT_EQ(info.target, c["target"].get<std::string>());
    EXPECT_EQ(info.entries, c["entries"].get<std::vector<std::string>>());
    EXPECT_EQ(info.paramSizes,
              c["param_sizes"].get<std::vector<std::vector<int64_t>>>());
  }
}

TEST(Conformance, PtxAbi) {
  Json cases = corpus("abi.json");
  EXPECT_GT(cases.size(), 15u);
  for (const Json &c : cases) {
    SCOPED_TRACE(c["name"].get<std::string>());
    std::vector<AbiEntry> abi;
    std::string error;
    ASSERT_TRUE(parseAbiJson(c["abi"].dump(), "", abi, error)) << error;
    bool ok =
        checkPtxAbi(c["ptx"].get<std::string>(), c["entry"].get<std::string>(),
                    abi, c["required"].get<bool>(), error);
    if (c.contains("error")) {
      EXPECT_FALSE(ok) << "accepted";
      EXPECT_NE(error.find(c["error"].get<std::string>()), std::string::npos)
          << error;
      continue;
    }
    EXPECT_TRUE(ok) << error;
  }
}

TEST(Conformance, Views) {
  Json cases = corpus("view.json");
  EXPECT_GT(cases.size(), 20u);
  const std::vector<std::pair<const char *, const char *>> classes = {
      {"but the kernel takes rank", "rank"},
      {"but the kernel takes", "dtype"},
      {"outside the ABI's int32 sizes", "size"},
      {"is negative", "stride"},
      {"base address", "address"},
      {"innermost stride", "innermost"},
      {"not a multiple of the bundle's align", "outer"}};
  for (const Json &c : cases) {
    SCOPED_TRACE(c["name"].get<std::string>());
    DType dtype, viewDtype;
    ASSERT_TRUE(parseDType(c["abi"]["dtype"], dtype));
    ASSERT_TRUE(parseDType(c["view"]["dtype"], viewDtype));
    AbiEntry e = AbiEntry::makeView("A", dtype, c["abi"]["rank"],
                                    c["abi"]["align"], Access::Read);
    ViewBinding v;
    v.dtype = viewDtype;
    v.address = c["view"]["address"];
    v.sizes = c["view"]["sizes"].get<std::vector<int64_t>>();
    v.strides = c["view"]["strides"].get<std::vector<int64_t>>();
    std::string error;
    bool ok = checkView(e, v, error);
    if (c.value("ok", false)) {
      EXPECT_TRUE(ok) << error;
      continue;
    }
    ASSERT_FALSE(ok) << "accepted";
    std::string found = "?";
    for (const auto &k : classes)
      if (error.find(k.first) != std::string::npos) {
        found = k.second;
        break;
      }
    EXPECT_EQ(found, c["error"].get<std::string>()) << error;
  }
}

} // namespace
