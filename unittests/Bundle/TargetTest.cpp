//===- TargetTest.cpp - targets, launch limits, ptxas logs ----------------===//

#include "tile/Bundle/Target.h"

#include <gtest/gtest.h>

using namespace tilebundle;

namespace {

TEST(Target, Parse) {
  SmTarget t;
  ASSERT_TRUE(parseSmTarget("sm_90a", t));
  EXPECT_EQ(t.major, 9);
  EXPECT_EQ(t.minor, 0);
  EXPECT_EQ(t.suffix, 'a');
  ASSERT_TRUE(parseSmTarget("sm_100f", t));
  EXPECT_EQ(t.major, 10);
  EXPECT_EQ(t.str(), "sm_100f");
  EXPECT_FALSE(parseSmTarget("sm_9", t));
  EXPECT_FALSE(parseSmTarget("sm_9x", t));
  EXPECT_FALSE(parseSmTarget("compute_90", t));
  EXPECT_FALSE(parseSmTarget("sm_00", t));
}

TEST(Target, RunsOn) {
  SmTarget t;
  std::string why;
  parseSmTarget("sm_90a", t);
  EXPECT_TRUE(ptxTargetRunsOn(t, 9, 0, why));
  EXPECT_FALSE(ptxTargetRunsOn(t, 10, 0, why));
  EXPECT_EQ(why, "sm_90a code runs only on compute capability exactly 9.0; "
                 "this device is 10.0");
  parseSmTarget("sm_80", t);
  EXPECT_TRUE(ptxTargetRunsOn(t, 9, 0, why));
  EXPECT_FALSE(cubinTargetRunsOn(t, 9, 0));
  EXPECT_TRUE(cubinTargetRunsOn(t, 8, 6));
}

TEST(Target, Limits) {
  SmTarget t;
  parseSmTarget("sm_90a", t);
  LaunchLimits l = targetLimits(t);
  EXPECT_EQ(l.maxSharedPerBlock, 232448);
  std::string error;
  EXPECT_TRUE(
      checkLaunchLimits({100, 8, 1}, {128, 1, 1}, 200000, 0, 168, l, error))
      << error;
  // Issue 11: shared_bytes of 2^32 passed --dry-run.
  EXPECT_FALSE(checkLaunchLimits({1, 1, 1}, {128, 1, 1}, int64_t(1) << 32, 0,
                                 -1, l, error));
  EXPECT_EQ(error, "the kernel needs 4294967296 B dynamic shared memory per "
                   "block, more than the 232448 B of sm_90a (documented "
                   "limits of compute capability 9.0)");
  EXPECT_FALSE(
      checkLaunchLimits({1, 65536, 1}, {128, 1, 1}, 0, 0, -1, l, error));
  EXPECT_EQ(error, "grid.y = 65536 exceeds the limit 65535 of sm_90a "
                   "(documented limits of compute capability 9.0)");
  EXPECT_FALSE(checkLaunchLimits({1, 1, 1}, {1024, 1, 1}, 0, 0, 255, l, error));
  EXPECT_EQ(error, "the block needs 255 registers x 1024 threads = 261120, "
                   "more than the 65536 registers per block of sm_90a "
                   "(documented limits of compute capability 9.0)");
  EXPECT_FALSE(checkLaunchLimits({1, 1, 1}, {32, 32, 2}, 0, 0, -1, l, error));
  EXPECT_EQ(error, "the block has 2048 threads, more than the 1024 of sm_90a "
                   "(documented limits of compute capability 9.0)");
  EXPECT_FALSE(
      checkLaunchLimits({1, 1, 1}, {128, 1, 1}, 200000, 40000, -1, l, error));
  EXPECT_EQ(error, "the kernel needs 200000 B dynamic + 40000 B static shared "
                   "memory per block, more than the 232448 B of sm_90a "
                   "(documented limits of compute capability 9.0)");
  EXPECT_FALSE(checkLaunchLimits({1, 1, 1}, {32, 1, 1}, 0, 0, 256, l, error));
  EXPECT_EQ(error, "the kernel uses 256 registers per thread, more than the "
                   "255 of sm_90a (documented limits of compute capability "
                   "9.0)");
  parseSmTarget("sm_86", t);
  EXPECT_EQ(targetLimits(t).maxSharedPerBlock, 101376);
}

// The one table of chip facts (issue 27): what the compiler's passes and the
// launchers' dry runs read.
TEST(Target, ChipFacts) {
  SmTarget t;
  parseSmTarget("sm_100", t);
  // 227 KB per block opt-in of the 228 KB an SM has (the compiler used 99 KB
  // for sm_100 before the table was shared).
  ASSERT_NE(findChipFacts(t), nullptr);
  EXPECT_EQ(findChipFacts(t)->maxSharedPerBlock, 232448);
  EXPECT_EQ(findChipFacts(t)->sharedPerSM, 233472);
  EXPECT_EQ(targetLimits(t).maxSharedPerBlock, 232448);
  parseSmTarget("sm_103", t); // the newest listed at or below: sm_100's
  EXPECT_EQ(findChipFacts(t)->maxSharedPerBlock, 232448);
  parseSmTarget("sm_120", t);
  EXPECT_EQ(findChipFacts(t)->maxSharedPerBlock, 101376);
  EXPECT_EQ(findChipFacts(t)->sharedPerSM, 131072);
  EXPECT_EQ(findChipFacts(t)->maxThreadsPerSM, 1536);
  parseSmTarget("sm_89", t);
  EXPECT_EQ(findChipFacts(t)->maxBlocksPerSM, 24);
  parseSmTarget("sm_61", t);
  EXPECT_EQ(findChipFacts(t), nullptr);
  EXPECT_EQ(targetLimits(t).maxSharedPerBlock, 49152);
  EXPECT_EQ(maxSharedPerBlockOfLoweringTargets(), 232448);
}

TEST(Target, LoweringTargets) {
  EXPECT_EQ(loweringTargets().front(), "sm_80");
  EXPECT_EQ(unsupportedLoweringTargetReason("sm_90a"), "");
  EXPECT_EQ(unsupportedLoweringTargetReason("sm_75"),
            "unsupported target chip 'sm_75' (the GPU lowering needs mma.sync "
            "and cp.async, sm_80 or newer; supported: sm_80, sm_86, sm_87, "
            "sm_89, sm_90, sm_90a, sm_100, sm_120)");
  // Every lowering target has a row of facts.
  for (const std::string &name : loweringTargets()) {
    SmTarget t;
    ASSERT_TRUE(parseSmTarget(name, t)) << name;
    EXPECT_NE(findChipFacts(t), nullptr) << name;
  }
  struct Expected {
    const char *chip;
    bool hopperOrNewer, wgmma;
    const char *features;
  };
  for (Expected e : {Expected{"sm_90a", true, true, "+ptx81"},
                     Expected{"sm_90", true, false, "+ptx81"},
                     Expected{"sm_100", true, false, ""},
                     Expected{"sm_89", false, false, ""}}) {
    SmTarget t;
    ASSERT_TRUE(parseSmTarget(e.chip, t));
    EXPECT_EQ(isHopperOrNewer(t), e.hopperOrNewer) << e.chip;
    EXPECT_EQ(hasWgmma(t), e.wgmma) << e.chip;
    EXPECT_EQ(ptxFeatures(t), e.features) << e.chip;
  }
}

TEST(Target, ScanPtxErrors) {
  PtxInfo info;
  std::string error;
  EXPECT_FALSE(
      scanPtx(".version 8.5\n.visible .entry k()\n{ ret; }", info, error));
  EXPECT_EQ(error, "the PTX has no .target directive");
  EXPECT_FALSE(
      scanPtx(".version 8.5\n.target sm_80\n.func f()\n{ ret; }", info, error));
  EXPECT_EQ(error, "the PTX declares no .entry");
  // Cut short: in the parameter list, before the body, inside the body.
  std::string head = ".version 8.5\n.target sm_80\n.visible .entry k(\n"
                     "  .param .u64 k_param_0,\n  .param .u32 k_param_1";
  EXPECT_FALSE(scanPtx(head, info, error));
  EXPECT_EQ(error, "the PTX is truncated: .entry k has no closed parameter "
                   "list and body");
  EXPECT_FALSE(scanPtx(head + ")\n", info, error));
  EXPECT_EQ(error, "the PTX is truncated: .entry k has no closed parameter "
                   "list and body");
  EXPECT_FALSE(scanPtx(head + ")\n{\n{ ret;\n}", info, error));
  EXPECT_EQ(error, "the PTX is truncated: its braces do not balance");
  ASSERT_TRUE(scanPtx(head + ")\n{\n{ ret;\n}\n}\n", info, error)) << error;
  EXPECT_EQ(info.paramSizes, (std::vector<std::vector<int64_t>>{{8, 4}}));
  // Empty, or only comments.
  EXPECT_FALSE(scanPtx("", info, error));
  EXPECT_EQ(error, "the PTX has no .target directive");
  EXPECT_FALSE(scanPtx("// .target sm_80\n/* .entry k() { } */", info, error));
  EXPECT_EQ(error, "the PTX has no .target directive");
}

TEST(Target, PtxasLog) {
  PtxasReport r;
  EXPECT_TRUE(parsePtxasLog(
      "ptxas info    : Compiling entry function 'fmha' for 'sm_90a'\n"
      "ptxas info    : Function properties for fmha\n"
      "    8 bytes stack frame, 16 bytes spill stores, 12 bytes spill loads\n"
      "ptxas info    : Used 168 registers, used 1 barriers\n",
      "fmha", r));
  EXPECT_EQ(r.registers, 168);
  EXPECT_EQ(r.spillStores, 16);
  EXPECT_EQ(r.spillLoads, 12);
  EXPECT_EQ(r.stackBytes, 8);
  PtxasReport none;
  EXPECT_FALSE(parsePtxasLog("nothing here", "", none));
  // Figures too large for int64 are ignored, not an exception.
  PtxasReport huge;
  EXPECT_FALSE(
      parsePtxasLog("Used 99999999999999999999999 registers", "", huge));
}

} // namespace
