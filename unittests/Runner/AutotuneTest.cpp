//===- AutotuneTest.cpp - the autotune cache, winners, child processes ----===//

#include "Autotune.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <unistd.h>

using namespace tile::runner;

namespace {

TEST(Autotune, Key) {
  std::string key = autotuneKey("gemm M=1 | A=f16[1, 2]", "NVIDIA H200", 9, 0,
                                "tile-compiler 0.1");
  EXPECT_EQ(key, "gemm M=1 | A=f16[1, 2] | NVIDIA H200 | sm_90 | "
                 "tile-compiler 0.1");
}

TEST(Autotune, Winner) {
  std::vector<VariantOutcome> o(4);
  o[0].name = "a";
  o[0].reason = "does not fit";
  o[1].name = "b";
  o[1].status = VariantOutcome::Status::Timed;
  o[1].timing = computeTimingStats({1.0, 1.1, 1.2});
  o[2].name = "c";
  o[2].status = VariantOutcome::Status::Timed;
  o[2].timing = computeTimingStats({0.5, 0.52, 0.54});
  o[3].name = "d";
  o[3].status = VariantOutcome::Status::Faulted;
  o[3].reason = "kernel fault: CUDA_ERROR_ILLEGAL_ADDRESS";
  AutotuneDecision d = pickWinner(o);
  EXPECT_EQ(d.winner, 2);
  EXPECT_NE(d.why.find("c has the lowest median, 0.5200 ms; the runner-up b"),
            std::string::npos);
  std::string table = renderAutotuneTable(o, d);
  EXPECT_NE(table.find("faulted"), std::string::npos);
  EXPECT_EQ(outcomesToJson(o)[3]["status"], "faulted");
  o[1].status = o[2].status = VariantOutcome::Status::Skipped;
  EXPECT_EQ(pickWinner(o).winner, -1);
}

TEST(Autotune, StatusNames) {
  using Status = VariantOutcome::Status;
  EXPECT_STREQ(variantStatusName(Status::Timed), "timed");
  EXPECT_STREQ(variantStatusName(Status::Skipped), "skipped");
  EXPECT_STREQ(variantStatusName(Status::Failed), "failed");
  EXPECT_STREQ(variantStatusName(Status::Faulted), "faulted");
}

TEST(Autotune, Cache) {
  std::string dir = (std::filesystem::temp_directory_path() /
                     ("tile-runner-autotune-" + std::to_string(getpid())))
                        .string();
  std::string path = dir + "/sub/autotune.json";
  AutotuneCache cache;
  std::string error;
  ASSERT_TRUE(cache.load(path, error));
  EXPECT_EQ(cache.lookup("k"), nullptr);
  Json entry = {{"winner", "c"}, {"variants", {"a", "c"}}, {"median_ms", 0.5}};
  cache.store("k", entry);
  ASSERT_TRUE(cache.save(error)) << error;
  AutotuneCache again;
  ASSERT_TRUE(again.load(path, error));
  ASSERT_NE(again.lookup("k"), nullptr);
  EXPECT_EQ(*again.lookup("k"), entry);
  std::string why;
  EXPECT_TRUE(cacheEntryUsable(entry, {"a", "c"}, why));
  EXPECT_FALSE(cacheEntryUsable(entry, {"a", "c", "d"}, why));
  EXPECT_EQ(why, "the entry was made over a different set of variants");
  FILE *f = std::fopen(path.c_str(), "w");
  std::fputs("{\"format\": \"something-else\"}", f);
  std::fclose(f);
  EXPECT_FALSE(again.load(path, error));
  EXPECT_EQ(error, "autotune cache " + path +
                       " is not a tile-autotune-1 file (delete it or pass "
                       "--autotune-cache)");
  // The cache file's place is taken by a folder: the new file cannot be
  // renamed over it.
  std::string taken = dir + "/taken";
  AutotuneCache blocked;
  ASSERT_TRUE(blocked.load(taken, error));
  std::filesystem::create_directories(taken + "/x");
  EXPECT_FALSE(blocked.save(error));
  std::string temp = taken + ".tmp." + std::to_string(getpid());
  EXPECT_EQ(error.find("cannot rename " + temp + " to " + taken + ": "), 0u)
      << error;
  EXPECT_FALSE(std::filesystem::exists(temp));
  std::filesystem::remove_all(dir);
}

TEST(Autotune, ChildProcesses) {
  std::string output, error;
  int status = 0;
  bool timedOut = false;
  ASSERT_TRUE(runChild({"/bin/sh", "-c", "echo hello; exit 3"}, 10, output,
                       status, timedOut, error));
  EXPECT_EQ(output, "hello\n");
  EXPECT_EQ(status, 3);
  EXPECT_FALSE(timedOut);
  // A child that hangs is killed at the timeout.
  ASSERT_TRUE(runChild({"/bin/sh", "-c", "exec sleep 30"}, 1, output, status,
                       timedOut, error));
  EXPECT_TRUE(timedOut);
  EXPECT_EQ(status, 128 + 9);
  // A child that crashes reports the signal.
  ASSERT_TRUE(runChild({"/bin/sh", "-c", "kill -SEGV $$"}, 10, output, status,
                       timedOut, error));
  EXPECT_EQ(status, 128 + 11);
  // A program that cannot be started: the child says why and exits 127.
  testing::internal::CaptureStderr();
  ASSERT_TRUE(runChild({"/nonexistent/tile-runner"}, 10, output, status,
                       timedOut, error));
  std::string said = testing::internal::GetCapturedStderr();
  EXPECT_EQ(status, 127);
  EXPECT_EQ(said, "tile-runner: cannot start /nonexistent/tile-runner: No such "
                  "file or directory\n");
  EXPECT_FALSE(selfExecutable().empty());
}

} // namespace
