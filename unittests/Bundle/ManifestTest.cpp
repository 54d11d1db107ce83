//===- ManifestTest.cpp - the manifest schema -----------------------------===//

#include "tile/Bundle/Manifest.h"
#include "tile/Support/Checked.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace tile;
using namespace tilebundle;
using Json = nlohmann::ordered_json;

namespace {

Manifest sample() {
  Manifest m;
  m.kernel = m.entry = "fmha";
  m.ptx = "kernel.ptx";
  m.cubin = "kernel.cubin";
  m.target = "sm_90a";
  m.compiler = "test";
  m.numWarps = 4;
  m.block = {128, 1, 1};
  m.occupancy = 1;
  m.sharedBytes = 49152;
  m.grid = {"cdiv(Q.2, TILE_M)", "Q.0 * Q.1", "1"};
  m.preconditions = {"Q.3 == HEAD_DIM", "Out.2 % TILE_M == 0 || EVEN_K == 0"};
  m.params = {{"TILE_M", ParamValue::ofInt(128)},
              {"HEAD_DIM", ParamValue::ofInt(128)},
              {"EVEN_K", ParamValue::ofBool(false)},
              {"DTYPE", ParamValue::ofString("f16")}};
  auto view = [](const char *name, DType dt, int rank, Access a) {
    return AbiEntry::makeView(name, dt, rank, 16, a);
  };
  m.abi = {view("Q", DType::F16, 4, Access::Read),
           view("Out", DType::F16, 4, Access::Write),
           view("Lse", DType::F32, 3, Access::None)};
  m.abi.push_back(AbiEntry::makeScalar("qk_scale", DType::F32));
  AbiEntry map;
  map.name = "Q@tma0";
  map.kind = AbiEntry::Kind::TensorMap;
  map.view = "Q";
  map.dims = {3, 2};
  map.box = {64, 64};
  map.swizzle = 128;
  m.abi.push_back(map);
  PtxasStats s;
  s.registers = 168;
  m.ptxas = s;
  return m;
}

std::string sampleText() {
  std::string text, error;
  EXPECT_TRUE(writeManifest(sample(), text, error)) << error;
  return text;
}

/// The error parsing the sample after `edit` changes its JSON.
std::string errorAfter(const std::function<void(Json &)> &edit) {
  Json j = Json::parse(sampleText());
  edit(j);
  Manifest m;
  std::string error;
  EXPECT_FALSE(parseManifest(j.dump(), "manifest.json", m, error)) << j.dump();
  return error;
}

TEST(Manifest, RoundTrip) {
  std::string text = sampleText();
  Manifest m;
  std::string error;
  ASSERT_TRUE(parseManifest(text, "manifest.json", m, error)) << error;
  EXPECT_EQ(m.kernel, "fmha");
  EXPECT_EQ(m.abi.size(), 5u);
  EXPECT_EQ(m.abi[1].access, Access::Write);
  EXPECT_EQ(m.abi[4].kind, AbiEntry::Kind::TensorMap);
  EXPECT_EQ(m.preconditions.size(), 2u);
  EXPECT_EQ(m.paramsSummary(),
            "TILE_M=128 HEAD_DIM=128 EVEN_K=false DTYPE=f16");
  std::string again;
  ASSERT_TRUE(writeManifest(m, again, error)) << error;
  EXPECT_EQ(text, again);
  // One abi entry per line.
  EXPECT_NE(text.find("    {\"name\":\"Q\",\"kind\":\"view\",\"dtype\":"
                      "\"f16\",\"rank\":4,\"align\":16,\"access\":\"read\"},"),
            std::string::npos)
      << text;
}

TEST(Manifest, FieldErrors) {
  EXPECT_EQ(
      errorAfter([](Json &j) { j["abi"][0]["rank"] = 99; }),
      "manifest.json: abi[0].rank: expected an integer in [1, 8], got 99");
  EXPECT_EQ(errorAfter([](Json &j) { j["abi"][0]["align"] = 3; }),
            "manifest.json: abi[0].align: expected a power of two in [1, 16], "
            "got 3");
  EXPECT_EQ(errorAfter([](Json &j) { j["abi"][0]["access"] = "rw"; }),
            "manifest.json: abi[0].access: expected \"none\", \"read\", "
            "\"write\" or \"readwrite\", got \"rw\"");
  EXPECT_EQ(errorAfter([](Json &j) { j["abi"][0].erase("align"); }),
            "manifest.json: abi[0].align: missing (required)");
  EXPECT_EQ(errorAfter([](Json &j) { j["abi"][0]["extra"] = 1; }),
            "manifest.json: abi[0].extra: unknown field");
  EXPECT_EQ(errorAfter([](Json &j) { j["abi"][3]["dtype"] = "f16"; }),
            "manifest.json: abi[3].dtype: a scalar is f32 or i32, not f16");
  // An empty dtype was taken as f32 (found by the fuzzer).
  EXPECT_EQ(errorAfter([](Json &j) { j["abi"][0]["dtype"] = ""; }),
            "manifest.json: abi[0].dtype: expected f16, bf16, f32, i32, "
            "f8E4M3FN or f8E5M2, got \"\"");
  EXPECT_EQ(errorAfter([](Json &j) { j["abi"][3]["dtype"] = ""; }),
            "manifest.json: abi[3].dtype: expected f16, bf16, f32, i32, "
            "f8E4M3FN or f8E5M2, got \"\"");
  EXPECT_EQ(errorAfter([](Json &j) { j["abi"][2]["name"] = "Q"; }),
            "manifest.json: abi[2].name: duplicate argument name \"Q\"");
  EXPECT_EQ(errorAfter([](Json &j) { j.erase("shared_bytes"); }),
            "manifest.json: shared_bytes: missing (required)");
  EXPECT_EQ(errorAfter([](Json &j) { j["shared_bytes"] = 4294967296LL; }),
            "manifest.json: shared_bytes: expected an integer in [0, "
            "2147483647], got 4294967296");
  EXPECT_EQ(errorAfter([](Json &j) { j["num_warps"] = 8; }),
            "manifest.json: block: 128 threads, but num_warps 8 means 256");
  EXPECT_EQ(errorAfter([](Json &j) { j["target"] = "sm_9"; }),
            "manifest.json: target: expected sm_XY with an optional a or f "
            "(sm_80, sm_90a), got \"sm_9\"");
  EXPECT_EQ(errorAfter([](Json &j) { j["ptx"] = "../kernel.ptx"; }),
            "manifest.json: ptx: expected a file name in the bundle folder, "
            "got \"../kernel.ptx\"");
  EXPECT_EQ(errorAfter([](Json &j) { j["shared_byte"] = 0; }),
            "manifest.json: shared_byte: unknown field");
  EXPECT_EQ(errorAfter([](Json &j) { j["format"] = "tile-bundle-1"; }),
            "manifest.json: format: \"tile-bundle-1\" was written by an older "
            "tile-compile (no view alignment or access in the abi); recompile "
            "the bundle");
  EXPECT_EQ(errorAfter([](Json &j) { j["params"]["X"] = 1.5; }),
            "manifest.json: params.X: expected an integer, a boolean or a "
            "string, got 1.5");
  EXPECT_EQ(errorAfter([](Json &j) { j["abi"][0]["rank"] = 4.0; }),
            "manifest.json: abi[0].rank: expected an integer in [1, 8], got "
            "4.0");
}

// clang-format 14 and 22 disagree on these lambdas.
// clang-format off
TEST(Manifest, ExpressionErrors) {
  // Issue 11: grid rules that are not checked until a launch.
  EXPECT_EQ(errorAfter([](Json &j) { j["grid"][0] = "((((("; }),
            "manifest.json: grid[0]: unexpected end at column 6 of '((((('");
  EXPECT_EQ(errorAfter([](Json &j) { j["grid"][0] = ""; }),
            "manifest.json: grid[0]: empty expression at column 1 of ''");
  EXPECT_EQ(errorAfter([](Json &j) { j["grid"][0] = "Z.0"; }),
            "manifest.json: grid[0]: no view argument named 'Z' at column 1 "
            "of 'Z.0'");
  EXPECT_EQ(errorAfter([](Json &j) { j["grid"][0] = "1/0"; }),
            "manifest.json: grid[0]: division by zero at column 2 of '1/0'");
  EXPECT_EQ(errorAfter([](Json &j) { j["grid"][0] = "cdiv(Q.2, 0)"; }),
            "manifest.json: grid[0]: cdiv by zero at column 11 of 'cdiv(Q.2, "
            "0)'");
  EXPECT_EQ(errorAfter([](Json &j) { j["grid"][0] = "0"; }),
            "manifest.json: grid[0]: '0' is 0 for every shape (grid.x must be "
            "at least 1)");
  EXPECT_EQ(
      errorAfter([](Json &j) { j["grid"][1] = "Q.99999999999999999999"; }),
      "manifest.json: grid[1]: dimension '99999999999999999999' is out "
      "of range (expected an integer in [0, 7]) at column 3 of "
      "'Q.99999999999999999999'");
  EXPECT_EQ(errorAfter([](Json &j) { j["requires"][0] = "Lse.3 > 0"; }),
            "manifest.json: requires[0]: view 'Lse' has rank 3, so no "
            "dimension 3 at column 1 of 'Lse.3 > 0'");
  EXPECT_EQ(errorAfter([](Json &j) { j["requires"][0] = "HEAD_DIM < 0"; }),
            "manifest.json: requires[0]: 'HEAD_DIM < 0' is false for every "
            "shape");
  EXPECT_EQ(errorAfter([](Json &j) { j["grid"] = Json::array({"1", "1"}); }),
            "manifest.json: grid: expected an array of 3 expression strings, "
            "got [\"1\",\"1\"]");
}

TEST(Manifest, TensorMapErrors) {
  EXPECT_EQ(errorAfter([](Json &j) { j["abi"][4]["view"] = "Nope"; }),
            "manifest.json: abi[4].view: \"Nope\" is not a view of the abi");
  EXPECT_EQ(
      errorAfter([](Json &j) { j["abi"][4]["dims"] = Json::array({2, 3}); }),
      "manifest.json: abi[4].dims: dims[0] must be the innermost "
      "dimension of \"Q\", 3");
  EXPECT_EQ(errorAfter([](Json &j) { j["abi"][4]["swizzle"] = 16; }),
            "manifest.json: abi[4].swizzle: expected 0, 32, 64 or 128, got 16");
  EXPECT_EQ(
      errorAfter([](Json &j) { j["abi"][4]["box"] = Json::array({4, 64}); }),
      "manifest.json: abi[4].box: box[0] * element size = 8 bytes, not a "
      "multiple of 16");
  EXPECT_EQ(
      errorAfter([](Json &j) { j["abi"][4]["box"] = Json::array({128, 64}); }),
      "manifest.json: abi[4].box: box[0] * element size = 256 bytes "
      "exceeds the swizzle span 128");
  EXPECT_EQ(errorAfter([](Json &j) { j["abi"][0]["align"] = 8; }),
            "manifest.json: abi[4].view: a view read through a tensor map "
            "needs align 16, \"Q\" has 8");
}

// clang-format on

TEST(Manifest, JsonErrors) {
  Manifest m;
  std::string error;
  EXPECT_FALSE(
      parseManifest("{\n  \"format\": 1,\n  ,\n}", "m.json", m, error));
  EXPECT_EQ(error.rfind("m.json: parse error at line 3, column 3", 0), 0u)
      << error;
  EXPECT_FALSE(parseManifest("[]", "m.json", m, error));
  EXPECT_EQ(error, "m.json: expected a JSON object");
  EXPECT_FALSE(parseManifest("{\"format\": \"tile-bundle-2\", \"format\": "
                             "\"tile-bundle-2\"}",
                             "m.json", m, error));
  EXPECT_EQ(error, "m.json: duplicate key \"format\"");
  // Deep nesting is not a crash.
  std::string deep(100000, '[');
  EXPECT_FALSE(parseManifest(deep, "m.json", m, error));
  // Nor closed deep nesting (100,000 levels, a segfault): refused before
  // the parser runs, at the bracket past the limit.
  std::string closed = "{\"format\":\n" + std::string(100000, '[') +
                       std::string(100000, ']') + "}";
  EXPECT_FALSE(parseManifest(closed, "m.json", m, error));
  EXPECT_EQ(error, "m.json: line 2, column 64: nested deeper than 64 levels");
  // Brackets in strings do not count; 64 levels are allowed.
  EXPECT_TRUE(checkJsonDepth("[\"" + std::string(100, '[') + "\\\"\"]",
                             kMaxJsonDepth, error));
  EXPECT_TRUE(checkJsonDepth(std::string(64, '[') + std::string(64, ']'),
                             kMaxJsonDepth, error));
  EXPECT_FALSE(checkJsonDepth(std::string(65, '{'), kMaxJsonDepth, error));
  EXPECT_EQ(error, "line 1, column 65: nested deeper than 64 levels");
}

TEST(Manifest, Files) {
  std::string hex(64, 'a'), text, error;
  Manifest m = sample();
  m.files = {{"kernel.ptx", hex, 10}, {"kernel.mlir", std::string(64, '0'), 0}};
  ASSERT_TRUE(writeManifest(m, text, error)) << error;
  Manifest back;
  ASSERT_TRUE(parseManifest(text, "m.json", back, error)) << error;
  ASSERT_EQ(back.files.size(), 2u);
  EXPECT_EQ(back.files[0].name, "kernel.ptx");
  EXPECT_EQ(back.files[0].sha256, hex);
  EXPECT_EQ(back.files[0].bytes, 10);
  ASSERT_NE(back.file("kernel.mlir"), nullptr);
  EXPECT_EQ(back.file("kernel.cubin"), nullptr);
  // What the reader cannot see (JSON keys are unique) or bounds itself.
  m.files = {{"kernel.ptx", hex, 1}, {"kernel.ptx", hex, 1}};
  EXPECT_FALSE(validateManifest(m, "m.json", error));
  EXPECT_EQ(error, "m.json: files.kernel.ptx: listed twice");
  m.files = {{"kernel.ptx", hex, -1}};
  EXPECT_FALSE(validateManifest(m, "m.json", error));
  EXPECT_EQ(error, "m.json: files.kernel.ptx.bytes: expected a non-negative "
                   "integer, got -1");
  m.files = {{"kernel.ptx", std::string(64, 'A'), 1}};
  EXPECT_FALSE(validateManifest(m, "m.json", error));
  EXPECT_EQ(error, "m.json: files.kernel.ptx.sha256: expected 64 lowercase "
                   "hexadecimal digits, got \"" +
                       std::string(64, 'A') + "\"");
}

TEST(Manifest, WriteRefusesInvalid) {
  Manifest m = sample();
  m.abi[0].rank = 0;
  std::string text, error;
  EXPECT_FALSE(writeManifest(m, text, error));
  EXPECT_EQ(error, "abi[0].rank: expected an integer in [1, 8], got 0");
  // A field only the reader bounds: the writer's read-back catches it.
  m = sample();
  m.stages = 65;
  EXPECT_FALSE(writeManifest(m, text, error));
  EXPECT_NE(error.find("the written manifest does not read back: stages"),
            std::string::npos)
      << error;
}

TEST(Manifest, SchemaFileListsTheFields) {
  // docs/bundle.schema.json and the library name the same fields.
  std::string text, error;
  ASSERT_TRUE(checked::readFile(TILE_SOURCE_DIR "/docs/bundle.schema.json",
                                text, error))
      << error;
  Json schema = Json::parse(text);
  std::vector<std::string> names;
  for (auto it = schema["properties"].begin(); it != schema["properties"].end();
       ++it)
    names.push_back(it.key());
  EXPECT_EQ(names, manifestFields());
  Json view = schema["$defs"]["view"]["properties"];
  std::vector<std::string> viewFields;
  for (auto it = view.begin(); it != view.end(); ++it)
    viewFields.push_back(it.key());
  EXPECT_EQ(viewFields, (std::vector<std::string>{"name", "kind", "dtype",
                                                  "rank", "align", "access"}));
  EXPECT_EQ(schema["properties"]["format"]["const"], kBundleFormat);
}

} // namespace
