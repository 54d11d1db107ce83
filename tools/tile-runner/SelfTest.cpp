//===- SelfTest.cpp - unit tests of tile-runner's host-only pieces --------===//
//
// What can be tested without a GPU: the JSON reader and writer, grid
// expressions, manifest parsing and the fit check, the launch ABI expansion,
// targets and PTX scanning, ptxas logs, the command line, timing statistics,
// FLOP counts, row sampling and the autotune cache. Run by
// test/Runner/selftest.test; prints one line per failed check and a summary.
//
//===----------------------------------------------------------------------===//

#include "Attention.h"
#include "Autotune.h"
#include "Bundle.h"
#include "GridExpr.h"
#include "Json.h"
#include "Options.h"
#include "Report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <set>
#include <sstream>
#include <unistd.h>

using namespace tile::runner;

namespace {

int checks = 0;
int failures = 0;

void check(bool ok, const char *what, const char *file, int line,
           const std::string &detail = std::string()) {
  ++checks;
  if (ok)
    return;
  ++failures;
  std::printf("FAILED %s:%d: %s%s%s\n", file, line, what,
              detail.empty() ? "" : "\n    ", detail.c_str());
}

#define CHECK(cond) check((cond), #cond, __FILE__, __LINE__)
#define CHECK_EQ(a, b)                                                         \
  do {                                                                         \
    auto va_ = (a);                                                            \
    auto vb_ = (b);                                                            \
    std::ostringstream detail_;                                                \
    detail_ << "left: " << va_ << "  right: " << vb_;                          \
    check(va_ == vb_, #a " == " #b, __FILE__, __LINE__, detail_.str());        \
  } while (0)
/// `text` contains `part`.
#define CHECK_HAS(text, part)                                                  \
  do {                                                                         \
    std::string t_ = (text);                                                   \
    check(t_.find(part) != std::string::npos, #text " contains " #part,        \
          __FILE__, __LINE__, "text: " + t_);                                  \
  } while (0)

Json parseOk(const std::string &text) {
  Json j;
  std::string error;
  bool ok = Json::parse(text, j, error);
  check(ok, "parse", __FILE__, __LINE__, text + " -> " + error);
  return j;
}

std::string parseError(const std::string &text) {
  Json j;
  std::string error;
  bool ok = Json::parse(text, j, error);
  check(!ok, "parse must fail", __FILE__, __LINE__, text);
  return error;
}

//===----------------------------------------------------------------------===//

void testJson() {
  Json j = parseOk(R"( {"a": 1, "b": [true, false, null], "c": "x\ny",
      "d": -2.5e3, "e": {"f": 9007199254740993}, "g": 0, "h": 1.0} )");
  CHECK(j.isObject());
  CHECK_EQ(j.size(), size_t(7));
  CHECK(j.find("a")->isInteger());
  CHECK_EQ(j.find("a")->asInt(), int64_t(1));
  CHECK(j.find("b")->isArray());
  CHECK((*j.find("b"))[0].asBool());
  CHECK((*j.find("b"))[2].isNull());
  CHECK_EQ(j.find("c")->asString(), std::string("x\ny"));
  CHECK(!j.find("d")->isInteger());
  CHECK_EQ(j.find("d")->asDouble(), -2500.0);
  // int64 beyond 2^53 survives exactly.
  CHECK_EQ(j.find("e")->find("f")->asInt(), int64_t(9007199254740993LL));
  CHECK(!j.find("h")->isInteger());
  CHECK(j.find("missing") == nullptr);
  // Member order is kept.
  CHECK_EQ(j.members()[0].first, std::string("a"));
  CHECK_EQ(j.members()[6].first, std::string("h"));

  // Round trips, compact and pretty.
  CHECK(parseOk(j.dump()) == j);
  CHECK(parseOk(j.dump(2)) == j);
  CHECK_EQ(parseOk("1.0").dump(), std::string("1.0"));
  CHECK_EQ(Json(0.1).dump(), std::string("0.1"));
  CHECK_EQ(Json(3.0).dump(), std::string("3.0"));
  CHECK_EQ(Json(1e300).dump(), std::string("1e+300"));
  CHECK_EQ(Json(std::nan("")).dump(), std::string("null"));
  CHECK_EQ(Json(int64_t(-7)).dump(), std::string("-7"));
  CHECK_EQ(Json::array().dump(), std::string("[]"));
  CHECK_EQ(Json::object().dump(), std::string("{}"));

  // Escapes, both ways.
  Json s = parseOk(R"("\u00e9 \ud83d\ude00 \/ \" \\ \t")");
  CHECK_EQ(s.asString(), std::string("\xc3\xa9 \xf0\x9f\x98\x80 / \" \\ \t"));
  CHECK_EQ(Json(std::string("a\x01\"b")).dump(),
           std::string("\"a\\u0001\\\"b\""));
  CHECK(parseOk(Json(std::string("\x01\x1f\n\r\b\f")).dump()) ==
        Json(std::string("\x01\x1f\n\r\b\f")));

  // Building.
  Json b = Json::object();
  b.set("x", 1);
  b.set("y", "z");
  b.set("x", 2);
  CHECK_EQ(b.dump(), std::string("{\"x\": 2, \"y\": \"z\"}"));
  Json arr;
  arr.push(1);
  arr.push(Json::object());
  CHECK_EQ(arr.dump(), std::string("[1, {}]"));

  // Errors with positions.
  CHECK_HAS(parseError("{\"a\": }"), "line 1, column 7");
  CHECK_HAS(parseError("{\n  \"a\": 1,\n}"), "line 3, column 1");
  CHECK_HAS(parseError("[1, 2"), "expected ',' or ']'");
  CHECK_HAS(parseError("{\"a\": 1, \"a\": 2}"), "duplicate member 'a'");
  CHECK_HAS(parseError("01"), "leading zero");
  CHECK_HAS(parseError("\"abc"), "unterminated string");
  CHECK_HAS(parseError("\"a\nb\""), "control character");
  CHECK_HAS(parseError("[1] x"), "unexpected text after");
  CHECK_HAS(parseError("tru"), "unexpected character");
  CHECK_HAS(parseError("\"\\ud800\""), "surrogate");
  CHECK_HAS(parseError("1."), "digits after '.'");
  CHECK_HAS(parseError(""), "unexpected end of input");
  CHECK_HAS(parseError(std::string(300, '[')), "nesting deeper");
}

void testGridExpr() {
  ViewShapes views = {{"Q", {4, 32, 1000, 128}}, {"K", {4, 8, 77, 128}}};
  auto eval = [&](const std::string &expr) {
    int64_t value = -1;
    std::string error;
    bool ok = evalGridExpr(expr, views, value, error);
    check(ok, "evalGridExpr", __FILE__, __LINE__, expr + ": " + error);
    return value;
  };
  auto evalError = [&](const std::string &expr) {
    int64_t value;
    std::string error;
    check(!evalGridExpr(expr, views, value, error), "must fail", __FILE__,
          __LINE__, expr);
    return error;
  };
  CHECK_EQ(eval("cdiv(Q.2, 128)"), int64_t(8));
  CHECK_EQ(eval("Q.0 * Q.1"), int64_t(128));
  CHECK_EQ(eval("1"), int64_t(1));
  CHECK_EQ(eval("1 + 2 * 3"), int64_t(7));
  CHECK_EQ(eval("(1 + 2) * 3"), int64_t(9));
  CHECK_EQ(eval("10 - 2 - 3"), int64_t(5));
  CHECK_EQ(eval("7 / 2"), int64_t(3));
  CHECK_EQ(eval("min(K.2, 64) + max(1, K.1)"), int64_t(72));
  CHECK_EQ(eval("cdiv(Q.2, 64) * Q.0 * Q.1"), int64_t(16 * 128));
  CHECK_HAS(evalError("R.0"), "no view argument named 'R'");
  CHECK_HAS(evalError("Q.4"), "has no dimension 4");
  CHECK_HAS(evalError("Q.2 / 0"), "division by zero");
  CHECK_HAS(evalError("cdiv(1, 0)"), "cdiv by zero");
  CHECK_HAS(evalError("1 +"), "expected");
  CHECK_HAS(evalError("(1"), "expected ')'");
  CHECK_HAS(evalError("2 3"), "unexpected '3'");
  CHECK_HAS(evalError("Q"), "expected '.'");
}

const char *kManifest = R"json({
  "format": "tile-bundle-1",
  "kernel": "fmha",
  "entry": "fmha",
  "ptx": "kernel.ptx",
  "cubin": "kernel.cubin",
  "target": "sm_90a",
  "compiler": "tile-compiler 0.1, LLVM 22.1.8",
  "source": "kernels/fmha.mlir",
  "pipeline": "O3",
  "num_warps": 4,
  "block": [128, 1, 1],
  "occupancy": 1,
  "shared_bytes": 49152,
  "grid": ["cdiv(Q.2, 128)", "Q.0 * Q.1", "1"],
  "params": {"TILE_M": 128, "TILE_N": 64, "HEAD_DIM": 128,
             "QUERY_GROUP_SIZE": 1, "CAUSAL": true, "EVEN_K": true,
             "WITH_LSE": false, "DTYPE": "f16"},
  "abi": [
    {"name": "Q", "kind": "view", "rank": 4, "dtype": "f16"},
    {"name": "K", "kind": "view", "rank": 4, "dtype": "f16"},
    {"name": "V", "kind": "view", "rank": 4, "dtype": "f16"},
    {"name": "Out", "kind": "view", "rank": 4, "dtype": "f16"},
    {"name": "Lse", "kind": "view", "rank": 3, "dtype": "f32"},
    {"name": "qk_scale", "kind": "scalar", "dtype": "f32"},
    {"name": "input_pos", "kind": "scalar", "dtype": "i32"}
  ],
  "ptxas": {"registers": 168, "spill_stores": 0, "spill_loads": 0,
            "stack_bytes": 0}
})json";

Manifest manifestFrom(const std::string &text, std::string *error = nullptr) {
  Json j = parseOk(text);
  Manifest m;
  std::string why;
  bool ok = parseManifest(j, "bundles/fmha-x", m, why);
  if (error)
    *error = ok ? std::string() : why;
  else
    check(ok, "parseManifest", __FILE__, __LINE__, why);
  return m;
}

/// The manifest with `from` replaced by `to`; the error it gives.
std::string manifestError(const std::string &from, const std::string &to) {
  std::string text = kManifest;
  size_t at = text.find(from);
  check(at != std::string::npos, "fixture has the text", __FILE__, __LINE__,
        from);
  if (at != std::string::npos)
    text.replace(at, from.size(), to);
  std::string error;
  manifestFrom(text, &error);
  check(!error.empty(), "parseManifest must fail", __FILE__, __LINE__,
        from + " -> " + to);
  return error;
}

AttentionConfig fmhaConfig() {
  AttentionConfig cfg;
  cfg.batch = 2;
  cfg.heads = 4;
  cfg.kvHeads = 4;
  cfg.seqQ = 1000;
  cfg.seqK = 1024;
  cfg.headDim = 128;
  cfg.causal = true;
  cfg.dtype = DType::F16;
  return cfg;
}

void testManifest() {
  Manifest m = manifestFrom(kManifest);
  CHECK_EQ(m.format, std::string("tile-bundle-1"));
  CHECK_EQ(m.entry, std::string("fmha"));
  CHECK_EQ(m.target, std::string("sm_90a"));
  CHECK_EQ(m.numWarps, 4);
  CHECK_EQ(m.block[0], int64_t(128));
  CHECK_EQ(m.sharedBytes, int64_t(49152));
  CHECK_EQ(m.grid[1], std::string("Q.0 * Q.1"));
  CHECK_EQ(m.abi.size(), size_t(7));
  CHECK(m.abi[4].kind == AbiEntry::Kind::View);
  CHECK_EQ(m.abi[4].rank, 3);
  CHECK(m.abi[4].dtype == DType::F32);
  CHECK(m.abi[6].kind == AbiEntry::Kind::Scalar);
  CHECK(m.abi[6].dtype == DType::I32);
  CHECK(m.ptxas.present);
  CHECK_EQ(m.ptxas.registers, 168);
  CHECK(!m.ptxas.spills());
  CHECK_EQ(m.name(), std::string("fmha-x"));
  CHECK_EQ(m.ptxPath(), std::string("bundles/fmha-x/kernel.ptx"));
  int64_t tileM = 0;
  bool causal = false;
  std::string dtype;
  CHECK(m.paramInt("TILE_M", tileM) && tileM == 128);
  CHECK(m.paramBool("CAUSAL", causal) && causal);
  CHECK(m.paramString("DTYPE", dtype) && dtype == "f16");
  CHECK(!m.paramInt("CAUSAL", tileM));
  CHECK_HAS(m.paramsSummary(), "TILE_M=128 TILE_N=64");
  CHECK_HAS(m.paramsSummary(), "CAUSAL=true");
  CHECK_HAS(m.paramsSummary(), "DTYPE=f16");

  CHECK_HAS(manifestError("\"tile-bundle-1\"", "\"tile-bundle-2\""),
            "unknown format 'tile-bundle-2'");
  CHECK_HAS(manifestError("\"entry\": \"fmha\",", ""), "missing 'entry'");
  CHECK_HAS(manifestError("[128, 1, 1]", "[96, 1, 1]"),
            "'block' has 96 threads but num_warps is 4");
  CHECK_HAS(manifestError("[128, 1, 1]", "[128, 1]"), "'block' must be");
  CHECK_HAS(manifestError("\"sm_90a\"", "\"gfx90a\""),
            "'target' must look like");
  CHECK_HAS(manifestError("\"1\"]", "1]"), "'grid' must be");
  CHECK_HAS(manifestError("\"kind\": \"scalar\", \"dtype\": \"f32\"",
                          "\"kind\": \"scalar\", \"dtype\": \"f16\""),
            "a scalar must be f32 or i32");
  CHECK_HAS(manifestError("\"rank\": 3", "\"rank\": 0"), "abi[4]");
  CHECK_HAS(manifestError("\"kind\": \"view\", \"rank\": 3",
                          "\"kind\": \"tensor\", \"rank\": 3"),
            "'kind' must be");
  CHECK_HAS(manifestError("\"name\": \"K\"", "\"name\": \"Q\""),
            "duplicate argument name 'Q'");
  CHECK_HAS(manifestError("\"dtype\": \"f32\"}", "\"dtype\": \"f8\"}"),
            "unknown dtype 'f8'");
  CHECK_HAS(manifestError("\"shared_bytes\": 49152", "\"shared_bytes\": -1"),
            "'shared_bytes' must be an integer >= 0");
  CHECK_HAS(manifestError("\"registers\": 168", "\"registers\": \"x\""),
            "ptxas");

  // The fit check: each parameter against the shape.
  AttentionConfig cfg = fmhaConfig();
  CHECK_EQ(checkBundleFits(m, cfg), std::string());
  AttentionConfig c = cfg;
  c.headDim = 64;
  CHECK_HAS(checkBundleFits(m, c),
            "HEAD_DIM = 128 in the bundle, but --head-dim is 64");
  c = cfg;
  c.kvHeads = 1;
  CHECK_HAS(checkBundleFits(m, c), "QUERY_GROUP_SIZE = 1 in the bundle, but "
                                   "--heads / --kv-heads = 4 / 1 = 4");
  c = cfg;
  c.causal = false;
  CHECK_HAS(checkBundleFits(m, c), "CAUSAL = true in the bundle, but the run "
                                   "is not causal");
  c = cfg;
  c.seqK = 1000;
  CHECK_HAS(checkBundleFits(m, c), "EVEN_K = true needs --seq-k to be a "
                                   "multiple of TILE_N = 64, got 1000");
  c = cfg;
  c.dtype = DType::BF16;
  CHECK_HAS(checkBundleFits(m, c), "DTYPE = f16 in the bundle, but --dtype "
                                   "is bf16");
  c = cfg;
  c.withLse = true;
  CHECK_HAS(checkBundleFits(m, c), "WITH_LSE = false");
  Manifest noEven = manifestFrom(std::string(kManifest).replace(
      std::string(kManifest).find("\"EVEN_K\": true"), 14,
      "\"EVEN_K\": false"));
  c = cfg;
  c.seqK = 1000;
  CHECK_EQ(checkBundleFits(noEven, c), std::string());
}

void testTargets() {
  SmTarget t;
  CHECK(parseSmTarget("sm_90a", t) && t.major == 9 && t.minor == 0 &&
        t.suffix == 'a');
  CHECK_EQ(t.str(), std::string("sm_90a"));
  CHECK(parseSmTarget("sm_80", t) && t.major == 8 && t.minor == 0 &&
        t.suffix == 0);
  CHECK(parseSmTarget("sm_86", t) && t.minor == 6);
  CHECK(parseSmTarget("sm_100f", t) && t.major == 10 && t.minor == 0 &&
        t.suffix == 'f');
  CHECK(!parseSmTarget("sm_9", t));
  CHECK(!parseSmTarget("compute_90", t));
  CHECK(!parseSmTarget("sm_90x", t));
  CHECK(!parseSmTarget("sm_", t));

  std::string why;
  parseSmTarget("sm_90a", t);
  CHECK(ptxTargetRunsOn(t, 9, 0, why));
  CHECK(!ptxTargetRunsOn(t, 10, 0, why));
  CHECK_HAS(why, "runs only on compute capability exactly 9.0");
  CHECK_HAS(why, "this device is 10.0");
  CHECK(!ptxTargetRunsOn(t, 8, 9, why));
  parseSmTarget("sm_80", t);
  CHECK(ptxTargetRunsOn(t, 8, 0, why));
  CHECK(ptxTargetRunsOn(t, 9, 0, why));
  CHECK(ptxTargetRunsOn(t, 12, 0, why));
  CHECK(!ptxTargetRunsOn(t, 7, 5, why));
  CHECK_HAS(why, "needs compute capability 8.0 or newer");
  parseSmTarget("sm_86", t);
  CHECK(!ptxTargetRunsOn(t, 8, 0, why));
  parseSmTarget("sm_100f", t);
  CHECK(ptxTargetRunsOn(t, 10, 3, why));
  CHECK(!ptxTargetRunsOn(t, 12, 0, why));

  parseSmTarget("sm_80", t);
  CHECK(cubinTargetRunsOn(t, 8, 0));
  CHECK(cubinTargetRunsOn(t, 8, 6));
  CHECK(!cubinTargetRunsOn(t, 9, 0));
  parseSmTarget("sm_90a", t);
  CHECK(cubinTargetRunsOn(t, 9, 0));
  CHECK(!cubinTargetRunsOn(t, 9, 1));

  PtxInfo info;
  std::string error;
  CHECK(scanPtx("//\n// Generated by LLVM NVPTX Back-End\n//\n\n.version 8.5\n"
                ".target sm_90a\n.address_size 64\n\n"
                "\t// .globl\tfmha\n.visible .entry fmha(\n"
                "\t.param .u64 fmha_param_0\n)\n{\n}\n"
                ".entry other_kernel()\n{\n}\n",
                info, error));
  CHECK_EQ(info.version, std::string("8.5"));
  CHECK_EQ(info.target, std::string("sm_90a"));
  CHECK_EQ(info.entries.size(), size_t(2));
  CHECK_EQ(info.entries[0], std::string("fmha"));
  CHECK_EQ(info.entries[1], std::string("other_kernel"));
  CHECK_EQ(info.paramSizes[0].size(), size_t(1));
  CHECK_EQ(info.paramSizes[0][0], 8);
  CHECK_EQ(info.paramSizes[1].size(), size_t(0));
  // LLVM's spelling of kernel parameters, and a byte array.
  CHECK(scanPtx(".version 8.5\n.target sm_90a\n.visible .entry fmha(\n"
                "\t.param .u64 .ptr .global .align 1 fmha_param_0,\n"
                "\t.param .u32 fmha_param_1, /* a comment */\n"
                "\t.param .b64 fmha_param_2,\n"
                "\t.param .f32 fmha_param_3,\n"
                "\t.param .align 8 .b8 fmha_param_4[16]\n)\n"
                ".maxntid 128, 1, 1\n{\n\tret;\n}\n",
                info, error));
  std::vector<int> expected = {8, 4, 8, 4, 16};
  CHECK(info.paramSizes[0] == expected);
  KernelArgs args;
  args.slots = {0, 0, 0, 0, 0};
  args.sizes = {8, 4, 8, 4, 16};
  args.descriptions = {"a", "b", "c", "d", "e"};
  CHECK(checkPtxParams(info, "fmha", args, error));
  args.sizes[2] = 4;
  CHECK(!checkPtxParams(info, "fmha", args, error));
  CHECK_HAS(error, "parameter 2 is 8 bytes, but the manifest abi puts c "
                   "(4 bytes)");
  args.sizes[2] = 8;
  args.slots.push_back(0);
  args.sizes.push_back(4);
  args.descriptions.push_back("f");
  CHECK(!checkPtxParams(info, "fmha", args, error));
  CHECK_HAS(error, "takes 5 parameters, but the manifest abi expands to 6");
  CHECK(!checkPtxParams(info, "attention", args, error));
  CHECK_HAS(error, "no .entry named 'attention' (it declares fmha)");
  CHECK(scanPtx(".version 7.0\n.target sm_80, debug\n.entry k()\n{}\n", info,
                error));
  CHECK_EQ(info.target, std::string("sm_80"));
  CHECK(!scanPtx(".version 8.0\n.entry k()\n{}\n", info, error));
  CHECK_HAS(error, "no .target");
  CHECK(!scanPtx(".version 8.0\n.target sm_80\n", info, error));
  CHECK_HAS(error, "no .entry");

  const char *log = "ptxas info    : 0 bytes gmem\n"
                    "ptxas info    : Compiling entry function 'helper' for "
                    "'sm_90a'\n"
                    "ptxas info    : Function properties for helper\n"
                    "    8 bytes stack frame, 4 bytes spill stores, 4 bytes "
                    "spill loads\n"
                    "ptxas info    : Used 40 registers, used 0 barriers\n"
                    "ptxas info    : Compiling entry function 'fmha' for "
                    "'sm_90a'\n"
                    "ptxas info    : Function properties for fmha\n"
                    "    0 bytes stack frame, 24 bytes spill stores, 16 bytes "
                    "spill loads\n"
                    "ptxas info    : Used 255 registers, used 1 barriers, "
                    "49152 bytes smem, 400 bytes cmem[0]\n";
  PtxasInfo p;
  CHECK(parsePtxasLog(log, "fmha", p));
  CHECK_EQ(p.registers, 255);
  CHECK_EQ(p.spillStores, int64_t(24));
  CHECK_EQ(p.spillLoads, int64_t(16));
  CHECK_EQ(p.stackBytes, int64_t(0));
  CHECK(p.spills());
  PtxasInfo h;
  CHECK(parsePtxasLog(log, "helper", h));
  CHECK_EQ(h.registers, 40);
  CHECK_EQ(h.stackBytes, int64_t(8));
  PtxasInfo none;
  CHECK(!parsePtxasLog("nothing here\n", "fmha", none));
  CHECK(!none.present);
}

void testAbi() {
  Manifest m = manifestFrom(kManifest);
  AttentionConfig cfg = fmhaConfig();
  cfg.kvHeads = 2;
  cfg.seqQ = 100;
  cfg.seqK = 200;
  cfg.headDim = 64;
  cfg.scale = 0.125f;
  cfg.inputPos = 100;
  AttentionBinding b =
      bindAttention(cfg, 0x1000, 0x2000, 0x3000, 0x4000, 0x5000);
  KernelArgs args;
  std::string error;
  CHECK(packKernelArgs(m.abi, b.views, b.scalars, args, error));
  // 4 views of rank 4 (9 each), one of rank 3 (7), 2 scalars.
  CHECK_EQ(args.count(), size_t(45));
  CHECK_EQ(args.slots[0], uint64_t(0x1000));
  CHECK_EQ(args.sizes[0], 8);
  uint64_t qSizes[] = {2, 4, 100, 64};
  uint64_t qStrides[] = {4 * 100 * 64, 100 * 64, 64, 1};
  for (int d = 0; d < 4; ++d) {
    CHECK_EQ(args.slots[1 + d], qSizes[d]);
    CHECK_EQ(args.sizes[1 + d], 4);
    CHECK_EQ(args.slots[5 + d], qStrides[d]);
    CHECK_EQ(args.sizes[5 + d], 8);
  }
  CHECK_EQ(args.slots[9], uint64_t(0x2000)); // K
  CHECK_EQ(args.slots[10 + 1], uint64_t(2)); // K.size[1] = HKV
  CHECK_EQ(args.slots[10 + 2], uint64_t(200));
  CHECK_EQ(args.slots[14], uint64_t(2 * 200 * 64)); // K.stride[0]
  CHECK_EQ(args.slots[36], uint64_t(0x5000));       // Lse
  CHECK_EQ(args.slots[37], uint64_t(2));
  CHECK_EQ(args.slots[39], uint64_t(100));
  CHECK_EQ(args.slots[40], uint64_t(400)); // Lse.stride[0]
  CHECK_EQ(args.slots[42], uint64_t(1));
  float scale;
  uint32_t scaleBits = static_cast<uint32_t>(args.slots[43]);
  std::memcpy(&scale, &scaleBits, 4);
  CHECK_EQ(scale, 0.125f);
  CHECK_EQ(args.sizes[43], 4);
  CHECK_EQ(args.slots[44], uint64_t(100));
  CHECK_HAS(args.descriptions[1], "Q.size[0]: i32 = 2");
  CHECK_HAS(args.descriptions[44], "input_pos: i32 = 100");
  void **params = args.params();
  CHECK(params[5] == &args.slots[5]);
  CHECK_EQ(*static_cast<uint32_t *>(params[3]), uint32_t(100));
  // Natural alignment: Q = 8 + 4*4 + 4*8 = 56, 4 rank-4 views = 224, Lse at
  // 224: 8 + 12 + pad 4 + 24 = 48 -> 272, two scalars -> 280.
  CHECK_EQ(args.packedBytes(), size_t(280));

  // Negative input_pos packs as a two's-complement i32.
  cfg.causal = true;
  cfg.seqQ = 300;
  cfg.inputPos = -100;
  b = bindAttention(cfg, 0, 0, 0, 0, 0);
  CHECK(packKernelArgs(m.abi, b.views, b.scalars, args, error));
  CHECK_EQ(static_cast<int32_t>(static_cast<uint32_t>(args.slots[44])), -100);

  // Errors name the argument.
  std::vector<AbiEntry> abi = m.abi;
  abi[0].name = "Query";
  CHECK(!packKernelArgs(abi, b.views, b.scalars, args, error));
  CHECK_HAS(error, "view argument 'Query' is not one this runner binds");
  abi = m.abi;
  abi[4].rank = 4;
  CHECK(!packKernelArgs(abi, b.views, b.scalars, args, error));
  CHECK_HAS(error, "'Lse' has rank 4 in the abi");
  abi = m.abi;
  abi[1].dtype = DType::BF16;
  CHECK(!packKernelArgs(abi, b.views, b.scalars, args, error));
  CHECK_HAS(error, "'K' is bf16 in the abi, but the runner's K is f16");
  abi = m.abi;
  abi[6].name = "offset";
  CHECK(!packKernelArgs(abi, b.views, b.scalars, args, error));
  CHECK_HAS(error, "scalar argument 'offset'");
  AttentionBinding big = b;
  big.views["Q"].sizes[2] = int64_t(1) << 32;
  CHECK(!packKernelArgs(m.abi, big.views, big.scalars, args, error));
  CHECK_HAS(error, "does not fit the abi's int32 sizes");

  // The grid of the manifest for this shape, through planLaunch.
  cfg = fmhaConfig();
  LaunchPlan plan;
  CHECK(planLaunch(m, bindAttention(cfg, 0, 0, 0, 0, 0), plan, error));
  CHECK_EQ(plan.grid[0], int64_t(8)); // cdiv(1000, 128)
  CHECK_EQ(plan.grid[1], int64_t(8)); // 2 * 4
  CHECK_EQ(plan.grid[2], int64_t(1));
  CHECK_EQ(plan.block[0], int64_t(128));
  CHECK_EQ(plan.sharedBytes, int64_t(49152));
  Manifest bad = m;
  bad.grid[2] = "Q.9";
  CHECK(!planLaunch(bad, bindAttention(cfg, 0, 0, 0, 0, 0), plan, error));
  CHECK_HAS(error, "grid.z: view 'Q' has no dimension 9");
  bad.grid[2] = "0";
  CHECK(!planLaunch(bad, bindAttention(cfg, 0, 0, 0, 0, 0), plan, error));
  CHECK_HAS(error, "must be at least 1");
}

/// Parses a command line given as one string.
bool parseLine(const std::string &line, RunnerOptions &o, std::string &error) {
  std::vector<std::string> words = {"tile-runner"};
  std::istringstream in(line);
  std::string w;
  while (in >> w)
    words.push_back(w);
  std::vector<const char *> argv;
  for (const std::string &s : words)
    argv.push_back(s.c_str());
  return parseOptions(static_cast<int>(argv.size()), argv.data(), o, error);
}

std::string optionError(const std::string &line) {
  RunnerOptions o;
  std::string error;
  check(!parseLine(line, o, error), "options must fail", __FILE__, __LINE__,
        line);
  return error;
}

void testOptions() {
  RunnerOptions o;
  std::string error;
  CHECK(parseLine("--backend=gpu --bundle b --batch 4 --heads 32 --kv-heads 8 "
                  "--seq 1024 --seq-k=2048 --head-dim 128 --causal --dtype "
                  "bf16 --lse --seed 7 --std 0.5 --bench --reps 5 "
                  "--check-rows 100 --json",
                  o, error));
  CHECK_EQ(error, std::string());
  CHECK(o.backend == Backend::Gpu);
  CHECK_EQ(o.bundleDir, std::string("b"));
  CHECK_EQ(o.cfg.batch, 4);
  CHECK_EQ(o.cfg.kvHeads, 8);
  CHECK_EQ(o.cfg.seqQ, 1024);
  CHECK_EQ(o.cfg.seqK, 2048);
  CHECK(o.cfg.causal);
  CHECK(o.cfg.dtype == DType::BF16);
  CHECK(o.cfg.withLse);
  CHECK_EQ(o.cfg.seed, uint64_t(7));
  CHECK_EQ(o.cfg.inputStd, 0.5f);
  CHECK(o.bench);
  CHECK_EQ(o.reps, 5);
  CHECK_EQ(o.checkRows, int64_t(100));
  CHECK(o.json);

  CHECK(parseLine("--bundle b --causal --seq-q 300 --seq-k 100 --input-pos "
                  "bottom-right",
                  o, error));
  CHECK_EQ(o.cfg.inputPos, -200);
  CHECK(parseLine("--bundle b --causal=0 --kv-heads 1 --heads 6", o, error));
  CHECK(!o.cfg.causal);
  CHECK_EQ(o.cfg.kvHeads, 1);
  CHECK(parseLine("--bundle b --check-rows all --dtype fp16", o, error));
  CHECK_EQ(o.checkRows, int64_t(0));
  CHECK(parseLine("--kernel k.mlir --params TILE_M=64,TILE_N=32 --params "
                  "X=1 --backend cpu",
                  o, error));
  CHECK_EQ(o.params.size(), size_t(3));
  CHECK_EQ(o.params[1], std::string("TILE_N=32"));
  CHECK(parseLine("--help", o, error) && o.help);

  CHECK_HAS(optionError("--bundle b --heads 6 --kv-heads 4"),
            "--heads 6 is not a multiple of --kv-heads 4");
  CHECK_HAS(optionError("--bundle b --batch 0"),
            "--batch must be at least 1, got 0");
  CHECK_HAS(optionError("--bundle b --seq -5"), "--seq must be at least 1");
  CHECK_HAS(optionError("--bundle b --head-dim x"),
            "--head-dim must be an integer, got 'x'");
  CHECK_HAS(optionError("--bundle b --dtype f32"),
            "--dtype must be f16 or bf16, got 'f32'");
  CHECK_HAS(optionError("--bundle b --input-pos -3"),
            "a negative position is allowed only with --causal");
  CHECK_HAS(optionError("--bundle b --causal --seq 100 --input-pos -3"),
            "a negative position is allowed only with --causal and --seq-q > "
            "--seq-k");
  CHECK_HAS(optionError("--bundle b --causal --seq-q 10 --seq-k 5 "
                        "--input-pos -6"),
            "below the bottom-right alignment seq-k - seq-q = -5");
  CHECK_HAS(optionError("--bundle b --input-pos 5"),
            "has no effect without --causal");
  CHECK_HAS(optionError("--bundle b --input-pos bottom-right"),
            "--input-pos bottom-right needs --causal");
  CHECK_HAS(optionError("--bundle b --input-pos middle"),
            "--input-pos must be an integer");
  CHECK_HAS(optionError("--bundle b --scale 0"),
            "--scale must be a positive number");
  CHECK_HAS(optionError("--bundle b --std -1"), "--std must be a positive");
  CHECK_HAS(optionError("--bundle b --reps 3"),
            "--reps applies only with --bench");
  CHECK_HAS(optionError("--bundle b --print-autotune"),
            "--print-autotune applies only with --autotune");
  CHECK_HAS(optionError("--bundle b --bundles c --autotune"),
            "--bundle and --bundles exclude each other");
  CHECK_HAS(optionError("--bundles c"), "--bundles DIR is for --autotune");
  CHECK_HAS(optionError("--autotune"), "--autotune needs --bundles DIR");
  CHECK_HAS(optionError("--backend=gpu --bundle b --kernel k.mlir"),
            "--kernel is for --backend=cpu");
  CHECK_HAS(optionError("--backend=gpu"), "--backend=gpu needs --bundle DIR");
  CHECK_HAS(optionError("--backend=cpu"), "--backend=cpu needs --kernel FILE");
  CHECK_HAS(optionError("--backend=cpu --autotune --bundles c"),
            "--autotune runs on the gpu backend");
  CHECK_HAS(optionError("--backend=cpu --kernel k --check-rows 5"),
            "--check-rows is for --backend=gpu");
  CHECK_HAS(optionError("--backend=tpu"), "--backend must be gpu, cpu or auto");
  CHECK_HAS(optionError("--bundle b --no-check --check-rows 5"),
            "--check-rows and --no-check exclude each other");
  CHECK_HAS(optionError("--seq 10"), "nothing to run");
  CHECK_HAS(optionError("--bundle"), "--bundle needs a value");
  CHECK_HAS(optionError("--bundle b --json=1"), "--json takes no value");
  CHECK_HAS(optionError("--bundle b --frobnicate"),
            "unknown option '--frobnicate'");
  CHECK_HAS(optionError("--bundle b stray"), "unexpected argument 'stray'");
  CHECK_HAS(optionError("--bundle b --causal=maybe"), "--causal takes 0 or 1");
  CHECK_HAS(optionError("--bundle b --params X"), "--params takes NAME=VALUE");
  CHECK_HAS(optionError("--bundle b --seq 2000000000 --head-dim 1024 "
                        "--heads 64"),
            "the shape is too large");
  CHECK_HAS(optionError("--kernel k --dry-run"), "--dry-run needs --bundle");
  CHECK_HAS(usageText(), "--autotune");
}

void testStatsAndFlops() {
  TimingStats s = computeTimingStats({5, 1, 3, 2, 4});
  CHECK_EQ(s.samples, 5);
  CHECK_EQ(s.median, 3.0);
  CHECK_EQ(s.min, 1.0);
  CHECK_EQ(s.max, 5.0);
  CHECK(std::fabs(s.p10 - 1.4) < 1e-12);
  CHECK(std::fabs(s.p90 - 4.6) < 1e-12);
  CHECK_EQ(s.mean, 3.0);
  CHECK_EQ(computeTimingStats({2, 4}).median, 3.0);
  CHECK_EQ(computeTimingStats({}).samples, 0);

  AttentionConfig cfg;
  cfg.batch = 4;
  cfg.heads = 32;
  cfg.seqQ = cfg.seqK = 1024;
  cfg.headDim = 128;
  std::string formula;
  CHECK_EQ(attentionFlops(cfg, &formula), 4.0 * 4 * 32 * 1024 * 1024 * 128);
  CHECK_EQ(formula, std::string("4*B*H*Sq*Sk*D"));
  cfg.causal = true;
  CHECK_EQ(attentionFlops(cfg, &formula), 4.0 * 4 * 32 * 1024 * 1024 * 128 / 2);
  CHECK_HAS(formula, "FlashAttention convention");
  // Exact pair counts against brute force.
  struct Case {
    int sq, sk, pos;
  } cases[] = {{1, 1024, 1023}, {4, 2, 0},     {4, 2, -2},     {113, 203, 0},
               {203, 113, -90}, {799, 3, 0},   {1, 2, 0},      {239, 1, -238},
               {100, 100, 5},   {5, 1000, 10}, {1000, 5, -995}};
  for (const Case &c : cases) {
    AttentionConfig k;
    k.batch = k.heads = k.kvHeads = 1;
    k.headDim = 1;
    k.causal = true;
    k.seqQ = c.sq;
    k.seqK = c.sk;
    k.inputPos = c.pos;
    double pairs = 0;
    for (int i = 0; i < c.sq; ++i)
      pairs += std::max(0, std::min(c.pos + i + 1, c.sk));
    double flops = attentionFlops(k, &formula);
    check(flops == 4.0 * pairs, "exact causal pair count", __FILE__, __LINE__,
          std::to_string(c.sq) + "x" + std::to_string(c.sk) + " pos " +
              std::to_string(c.pos) + ": " + std::to_string(flops / 4) +
              " vs " + std::to_string(pairs));
  }

  RunResult r;
  r.timed = true;
  r.timing.median = 2.0;
  r.flops = 4e12;
  CHECK_EQ(r.tflops(), 2000.0);
}

void testCheckRows() {
  std::vector<int64_t> all = selectCheckRows(50, 10, 0);
  CHECK_EQ(all.size(), size_t(50));
  CHECK_EQ(all[49], int64_t(49));
  CHECK_EQ(selectCheckRows(50, 10, 80).size(), size_t(50));
  const int64_t total = 4 * 32 * 1000, seqQ = 1000;
  std::vector<int64_t> rows = selectCheckRows(total, seqQ, 500);
  CHECK(rows.size() >= 500 && rows.size() <= 506);
  std::set<int64_t> unique(rows.begin(), rows.end());
  CHECK_EQ(unique.size(), rows.size());
  CHECK(std::is_sorted(rows.begin(), rows.end()));
  CHECK(rows.back() < total);
  for (int64_t r : {int64_t(0), int64_t(1), seqQ - 1, total - seqQ,
                    total - seqQ + 1, total - 1})
    CHECK(unique.count(r));
  // Spread over heads and positions.
  std::set<int64_t> heads, positions;
  for (int64_t r : rows) {
    heads.insert(r / seqQ);
    positions.insert(r % 64);
  }
  CHECK(heads.size() > 100);
  CHECK_EQ(positions.size(), size_t(64));
  CHECK(selectCheckRows(total, seqQ, 500) == rows); // deterministic
}

void testAutotune() {
  AttentionConfig cfg = fmhaConfig();
  std::string key = autotuneKey(cfg, "NVIDIA H200", 9, 0, "tile-compiler 0.1");
  CHECK_HAS(key, "B=2 H=4 HKV=4 Sq=1000 Sk=1024 D=128 dtype=f16 causal=1");
  CHECK_HAS(key, "NVIDIA H200");
  CHECK_HAS(key, "sm_90");
  CHECK_HAS(key, "tile-compiler 0.1");
  AttentionConfig other = cfg;
  other.causal = false;
  CHECK(autotuneKey(other, "NVIDIA H200", 9, 0, "c") !=
        autotuneKey(cfg, "NVIDIA H200", 9, 0, "c"));
  CHECK(autotuneKey(cfg, "NVIDIA H100", 9, 0, "c") !=
        autotuneKey(cfg, "NVIDIA H200", 9, 0, "c"));
  CHECK(autotuneKey(cfg, "X", 9, 0, "a") != autotuneKey(cfg, "X", 9, 0, "b"));

  std::vector<VariantOutcome> outcomes(4);
  outcomes[0].name = "a";
  outcomes[0].reason = "does not fit: HEAD_DIM";
  outcomes[1].name = "b";
  outcomes[1].status = VariantOutcome::Status::Timed;
  outcomes[1].timing = computeTimingStats({1.0, 1.1, 1.2});
  outcomes[2].name = "c";
  outcomes[2].status = VariantOutcome::Status::Timed;
  outcomes[2].timing = computeTimingStats({0.5, 0.52, 0.54});
  outcomes[3].name = "d";
  outcomes[3].status = VariantOutcome::Status::Failed;
  outcomes[3].reason = "does not load";
  AutotuneDecision d = pickWinner(outcomes);
  CHECK_EQ(d.winner, 2);
  CHECK_HAS(d.why, "c has the lowest median, 0.5200 ms; the runner-up b");
  CHECK(d.why.find("noise") == std::string::npos);
  outcomes[1].timing = computeTimingStats({0.53, 0.53, 0.9});
  d = pickWinner(outcomes);
  CHECK_EQ(d.winner, 2);
  CHECK_HAS(d.why, "within noise");
  std::string table = renderAutotuneTable(outcomes, d);
  CHECK_HAS(table, "does not fit: HEAD_DIM");
  CHECK_HAS(table, "winner: c");
  outcomes[1].status = outcomes[2].status = VariantOutcome::Status::Skipped;
  CHECK_EQ(pickWinner(outcomes).winner, -1);

  // The cache file: missing is empty, round trip, malformed is an error.
  std::string dir = (std::filesystem::temp_directory_path() /
                     ("tile-runner-selftest-" + std::to_string(getpid())))
                        .string();
  std::string path = dir + "/sub/autotune.json";
  AutotuneCache cache;
  std::string error;
  CHECK(cache.load(path, error));
  CHECK(cache.lookup(key) == nullptr);
  Json entry = Json::object();
  entry.set("winner", "c");
  Json names = Json::array();
  names.push("a");
  names.push("c");
  entry.set("variants", names);
  entry.set("median_ms", 0.52);
  cache.store(key, entry);
  CHECK(cache.save(error));
  AutotuneCache again;
  CHECK(again.load(path, error));
  const Json *found = again.lookup(key);
  CHECK(found && *found == entry);
  std::string why;
  CHECK(found && cacheEntryUsable(*found, {"a", "c"}, why));
  CHECK(found && !cacheEntryUsable(*found, {"a", "c", "d"}, why));
  CHECK_HAS(why, "different set of variants");
  {
    FILE *f = std::fopen(path.c_str(), "w");
    std::fputs("{\"format\": \"something-else\"}", f);
    std::fclose(f);
  }
  CHECK(!again.load(path, error));
  CHECK_HAS(error, "is not a tile-autotune-1 file");
  std::filesystem::remove_all(dir);
  CHECK_HAS(defaultAutotuneCachePath(), "tile-compiler/autotune.json");
}

void testReport() {
  RunResult r;
  r.cfg = fmhaConfig();
  r.backend = "gpu";
  r.kernelName = "fmha-x";
  r.check.done = true;
  r.check.result.maxError = 1e-3;
  r.check.result.tolerance = 2e-3;
  r.check.rowsTotal = 8000;
  r.check.rowsChecked = 8000;
  r.failures.push_back("something broke");
  std::string table = renderTable(r);
  CHECK_HAS(table, "tile-runner: FAIL");
  CHECK_HAS(table, "B=2 H=4 HKV=4 Sq=1000 Sk=1024 D=128 f16 causal");
  CHECK_HAS(table, "FAIL         something broke");
  CHECK_HAS(table, "<= tolerance");
  Json j = resultToJson(r);
  CHECK(j.find("passed") && !j.find("passed")->asBool());
  CHECK_EQ(j.find("shape")->find("seq_q")->asInt(), int64_t(1000));
  CHECK_EQ(j.find("failures")->size(), size_t(1));
  Json back;
  std::string error;
  CHECK(Json::parse(j.dump(2), back, error) && back == j);
}

} // namespace

int main() {
  testJson();
  testGridExpr();
  testManifest();
  testTargets();
  testAbi();
  testOptions();
  testStatsAndFlops();
  testCheckRows();
  testAutotune();
  testReport();
  std::printf("tile-runner-selftest: %d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}
