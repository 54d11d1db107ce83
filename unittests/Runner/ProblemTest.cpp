//===- ProblemTest.cpp - built-in problems and host references ------------===//

#include "Problem.h"
#include "Prepare.h"
#include "ReferenceKernels.h"
#include "Report.h"
#include "Tolerance.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace tile::runner;
using tilebundle::AbiEntry;
using tilebundle::ParamValue;

namespace {

AbiEntry view(const char *name, DType dt, int rank, Access a) {
  return AbiEntry::makeView(name, dt, rank, 16, a);
}

Manifest gemmManifest(bool transB) {
  Manifest m;
  m.kernel = "gemm";
  m.abi = {view("A", DType::F16, 2, Access::Read),
           view("B", DType::F16, 2, Access::Read),
           view("C", DType::F32, 2, Access::Write),
           view("Bias", DType::F32, 1, Access::None)};
  m.abi.push_back(AbiEntry::makeScalar("scale", DType::F32));
  m.params = {{"TRANS_B", ParamValue::ofBool(transB)},
              {"HAS_BIAS", ParamValue::ofBool(false)}};
  return m;
}

TEST(Problem, GemmBinds) {
  ProblemOptions o;
  o.sizes = {{"M", 1000}, {"N", 77}, {"K", 65}};
  auto p = makeProblem("gemm", o);
  RunSpec spec;
  std::string error;
  ASSERT_TRUE(p->bind(gemmManifest(true), spec, error)) << error;
  ASSERT_TRUE(applyOverrides(gemmManifest(true), {}, spec, error)) << error;
  EXPECT_EQ(spec.summary(), "A=f16[1000, 65] B=f16[77, 65] C=f32[1000, 77] "
                            "Bias=f32[77] scale=1");
  std::string formula;
  EXPECT_EQ(p->flops(gemmManifest(true), spec, &formula), 2.0 * 1000 * 77 * 65);
  o.sizes.erase("K");
  EXPECT_FALSE(makeProblem("gemm", o)->bind(gemmManifest(false), spec, error));
  EXPECT_EQ(error, "--problem gemm needs --shape M=..,N=..,K=.. (missing: K)");
  o.sizes["Q"] = 1;
  o.sizes["K"] = 1;
  EXPECT_FALSE(makeProblem("gemm", o)->bind(gemmManifest(false), spec, error));
  EXPECT_EQ(error, "--problem gemm: --shape has no size 'Q' (it takes "
                   "M=..,N=..,K=..)");
}

/// A host GEMM "kernel" output: the reference, then one element off.
TEST(Problem, GemmCheckCatchesOneWrongElement) {
  ProblemOptions o;
  o.sizes = {{"M", 5}, {"N", 6}, {"K", 70}};
  auto p = makeProblem("gemm", o);
  Manifest m = gemmManifest(false);
  RunSpec spec;
  std::string error;
  ASSERT_TRUE(p->bind(m, spec, error) && applyOverrides(m, {}, spec, error));
  std::map<std::string, HostTensor> t;
  for (const TensorArg &a : spec.tensors)
    ASSERT_TRUE(makeHostTensor(a, 1, t[a.name], error));
  HostTensor &c = t["C"];
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 6; ++j) {
      double acc = 0;
      for (int k = 0; k < 70; ++k)
        acc += t["A"].get(i * 70 + k) * t["B"].get(k * 6 + j);
      c.set(i * 6 + j, acc);
    }
  ProblemCheck ok;
  ASSERT_TRUE(p->checkOnHost(m, spec, t, ok, error));
  ok.finish(1);
  EXPECT_TRUE(ok.passed()) << ok.failures[0];
  c.set(13, c.get(13) * 1.001 + 1e-3);
  ProblemCheck bad;
  ASSERT_TRUE(p->checkOnHost(m, spec, t, bad, error));
  bad.finish(1);
  ASSERT_FALSE(bad.passed());
  EXPECT_EQ(bad.outputs[0].violations, 1);
  EXPECT_EQ(bad.outputs[0].worst, 13);
  c.set(7, NAN);
  ProblemCheck nan;
  ASSERT_TRUE(p->checkOnHost(m, spec, t, nan, error));
  EXPECT_EQ(nan.outputs[0].nonFinite, 1);
}

TEST(Problem, Attention) {
  ProblemOptions o;
  o.attention.batch = 1;
  o.attention.heads = 2;
  o.attention.kvHeads = 1;
  o.attention.seqQ = 9;
  o.attention.seqK = 17;
  o.attention.headDim = 32;
  o.attention.causal = true;
  auto p = makeProblem("attention", o);
  Manifest m;
  m.kernel = "fmha";
  m.abi = {view("Q", DType::F16, 4, Access::Read),
           view("K", DType::F16, 4, Access::Read),
           view("V", DType::F16, 4, Access::Read),
           view("Out", DType::F16, 4, Access::Write)};
  m.params = {{"HEAD_DIM", ParamValue::ofInt(32)},
              {"QUERY_GROUP_SIZE", ParamValue::ofInt(2)},
              {"CAUSAL", ParamValue::ofBool(true)},
              {"EVEN_K", ParamValue::ofBool(true)},
              {"TILE_N", ParamValue::ofInt(16)},
              {"DTYPE", ParamValue::ofString("f16")}};
  RunSpec spec;
  std::string error;
  ASSERT_TRUE(p->bind(m, spec, error)) << error;
  EXPECT_EQ(p->checkFits(m, spec),
            "EVEN_K = true needs --seq-k to be a multiple of TILE_N = 16, got "
            "17");
  m.params[3].second = ParamValue::ofBool(false);
  EXPECT_EQ(p->checkFits(m, spec), "");
  // The host check of a correct output passes, a changed one fails.
  AttentionTensors t = makeAttentionTensors(o.attention);
  std::vector<double> ref, lse;
  referenceAttention(o.attention, t, ref, lse);
  for (size_t i = 0; i < ref.size(); ++i)
    t.out.set(static_cast<int64_t>(i), ref[i]);
  std::map<std::string, HostTensor> host = {
      {"Q", t.q}, {"K", t.k}, {"V", t.v}, {"Out", t.out}};
  ProblemCheck good;
  ASSERT_TRUE(p->checkOnHost(m, spec, host, good, error));
  EXPECT_TRUE(good.passed());
  host["Out"].set(100, host["Out"].get(100) + 0.05);
  ProblemCheck bad;
  ASSERT_TRUE(p->checkOnHost(m, spec, host, bad, error));
  EXPECT_FALSE(bad.passed());
  // Why, then the seed, once (it was repeated: "...; seed 1 (seed 1)").
  ASSERT_EQ(bad.failures.size(), 1u);
  const std::string &why = bad.failures[0];
  EXPECT_EQ(why.find("max |out - ref| "), 0u) << why;
  EXPECT_EQ(why.substr(why.size() - 8), "; seed 1") << why;
  EXPECT_EQ(why.find("seed"), why.rfind("seed")) << why;
  host.erase("V");
  ProblemCheck none;
  EXPECT_FALSE(p->checkOnHost(m, spec, host, none, error));
  EXPECT_EQ(error, "the attention check needs Q, K, V and Out");
}

TEST(Problem, AttentionParams) {
  ProblemOptions o;
  o.attention.headDim = 32;
  auto p = makeProblem("attention", o);
  Manifest m;
  m.kernel = "fmha";
  RunSpec spec;
  EXPECT_EQ(p->checkFits(m, spec), "params lack an integer HEAD_DIM");
  m.params.push_back({"HEAD_DIM", ParamValue::ofInt(32)});
  EXPECT_EQ(p->checkFits(m, spec), "params lack an integer QUERY_GROUP_SIZE");
  m.params.push_back({"QUERY_GROUP_SIZE", ParamValue::ofInt(1)});
  EXPECT_EQ(p->checkFits(m, spec), "params lack a boolean CAUSAL");
  m.params.push_back({"CAUSAL", ParamValue::ofBool(false)});
  EXPECT_EQ(p->checkFits(m, spec), "params lack a boolean EVEN_K");
  m.params.push_back({"EVEN_K", ParamValue::ofBool(true)});
  EXPECT_EQ(p->checkFits(m, spec), "params lack a DTYPE string");
  m.params.push_back({"DTYPE", ParamValue::ofString("f16")});
  EXPECT_EQ(p->checkFits(m, spec),
            "EVEN_K = true but params lack a positive TILE_N");
  m.params.push_back({"TILE_N", ParamValue::ofInt(0)});
  EXPECT_EQ(p->checkFits(m, spec),
            "EVEN_K = true but params lack a positive TILE_N");
}

TEST(Problem, Names) {
  EXPECT_EQ(makeProblem("matmul", ProblemOptions()), nullptr);
  std::map<std::string, int64_t> sizes;
  std::string error;
  EXPECT_TRUE(parseShape("M=4096,N=32768", sizes, error));
  EXPECT_EQ(sizes.at("N"), 32768);
  EXPECT_FALSE(parseShape("M", sizes, error));
}

TEST(Problem, Flops) {
  AttentionConfig cfg;
  cfg.batch = 4;
  cfg.heads = 32;
  cfg.seqQ = cfg.seqK = 1024;
  cfg.headDim = 128;
  std::string formula;
  EXPECT_EQ(attentionFlops(cfg, &formula), 4.0 * 4 * 32 * 1024 * 1024 * 128);
  cfg.causal = true;
  EXPECT_EQ(attentionFlops(cfg, &formula),
            4.0 * 4 * 32 * 1024 * 1024 * 128 / 2);
  // Exact pair counts against brute force.
  struct Case {
    int sq, sk, pos;
  } cases[] = {{1, 1024, 1023}, {4, 2, -2}, {203, 113, -90}, {799, 3, 0}};
  for (const Case &c : cases) {
    AttentionConfig k;
    k.headDim = 1;
    k.causal = true;
    k.seqQ = c.sq;
    k.seqK = c.sk;
    k.inputPos = c.pos;
    double pairs = 0;
    for (int i = 0; i < c.sq; ++i)
      pairs += std::max(0, std::min(c.pos + i + 1, c.sk));
    EXPECT_EQ(attentionFlops(k, &formula), 4.0 * pairs);
  }
}

} // namespace

// An f16 output below the normal range is a multiple of 2^-24: 3.6e-9 rounds
// to 0 and 1.39e-7 to 1.19e-7, both correct roundings the rules must accept
// (the H200 sweep of 2026-12-01 failed gemm K = 1 and RMSNorm on exactly
// these); a wrong value of normal size must still fail.
TEST(Tolerance, SubnormalOutputs) {
  using namespace tile::runner;
  EXPECT_GE(gemmTolerance(3.624e-9, 3.624e-9, 1.0, 1, kRefF16, 0), 3.624e-9);
  EXPECT_GE(layernormTolerance(1.3921e-7, 1.3921e-7, 0, 1024, kRefF16),
            1.3921e-7 - 1.19209e-7);
  EXPECT_GE(softmaxTolerance(1e-8, 32768, kRefF16), 1e-8);
  EXPECT_LT(gemmTolerance(1.0, 1.0, 1.0, 64, kRefF16, 0), 0.01);
  EXPECT_LT(layernormTolerance(1.0, 1.0, 0, 1024, kRefF16), 0.01);
  // bf16 and f32 have subnormals far below any value these kernels produce.
  EXPECT_LT(gemmTolerance(1e-30, 1e-30, 1.0, 1, kRefBF16, 0), 1e-31);
  EXPECT_LT(layernormTolerance(1e-38, 1e-38, 0, 1, kRefF32), 1e-38);
}

// The one merge of compare statistics, used by the compare kernel's threads
// and by the host over its blocks (ReferenceKernels.h).
TEST(CompareStats, Merge) {
  CompareStats all = emptyCompareStats();
  EXPECT_EQ(all.worst, -1);
  CompareStats a = emptyCompareStats();
  a.compared = 10;
  a.violations = 1;
  a.maxError = 0.5;
  a.maxRatio = 2;
  a.worst = 7;
  a.worstOut = 1.5;
  a.worstRef = 1;
  a.worstTol = 0.25;
  CompareStats none = emptyCompareStats(); // all unwritten: no worst element
  none.compared = 4;
  none.unwritten = 3;
  none.nonFinite = 1;
  CompareStats tie = a; // the same ratio later: the earlier stays
  tie.worst = 99;
  tie.maxError = 0.25;
  CompareStats worse = emptyCompareStats();
  worse.compared = 1;
  worse.maxRatio = 3;
  worse.worst = 42;
  worse.worstOut = -2;
  worse.worstRef = 0;
  worse.worstTol = 0.5;
  worse.maxError = 2;
  mergeCompareStats(all, none);
  EXPECT_EQ(all.worst, -1);
  mergeCompareStats(all, a);
  mergeCompareStats(all, tie);
  EXPECT_EQ(all.worst, 7);
  EXPECT_EQ(all.maxError, 0.5);
  mergeCompareStats(all, worse);
  EXPECT_EQ(all.compared, 25u);
  EXPECT_EQ(all.violations, 2u);
  EXPECT_EQ(all.unwritten, 3u);
  EXPECT_EQ(all.nonFinite, 1u);
  EXPECT_EQ(all.maxError, 2);
  EXPECT_EQ(all.maxRatio, 3);
  EXPECT_EQ(all.worst, 42);
  EXPECT_EQ(all.worstOut, -2);
  EXPECT_EQ(all.worstRef, 0);
  EXPECT_EQ(all.worstTol, 0.5);
}
