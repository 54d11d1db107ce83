//===- OptionsTest.cpp - tile-runner's command line -----------------------===//

#include "Options.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace tile::runner;

namespace {

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
  EXPECT_FALSE(parseLine(line, o, error)) << line;
  return error;
}

TEST(Options, Attention) {
  RunnerOptions o;
  std::string error;
  ASSERT_TRUE(parseLine("--backend=gpu --bundle b --batch 4 --heads 32 "
                        "--kv-heads 8 --seq 1024 --seq-k=2048 --head-dim 128 "
                        "--causal --dtype bf16 --lse --seed 7 --std 0.5 "
                        "--bench --reps 5 --check-rows 100 --json",
                        o, error))
      << error;
  EXPECT_EQ(o.problem, "attention");
  EXPECT_TRUE(o.backend == Backend::Gpu);
  EXPECT_EQ(o.cfg.kvHeads, 8);
  EXPECT_EQ(o.cfg.seqQ, 1024);
  EXPECT_EQ(o.cfg.seqK, 2048);
  EXPECT_TRUE(o.cfg.causal && o.cfg.withLse);
  EXPECT_TRUE(o.cfg.dtype == DType::BF16);
  EXPECT_EQ(o.cfg.seed, 7u);
  EXPECT_EQ(o.reps, 5);
  EXPECT_EQ(o.checkRows, 100);
  ASSERT_TRUE(parseLine("--bundle b --causal --seq-q 300 --seq-k 100 "
                        "--input-pos bottom-right",
                        o, error));
  EXPECT_EQ(o.cfg.inputPos, -200);
}

TEST(Options, ProblemsAndArgs) {
  RunnerOptions o;
  std::string error;
  ASSERT_TRUE(parseLine("--bundle b --problem gemm --shape M=1000,N=77,K=65 "
                        "--arg scale=0.5 --save C=c.npy",
                        o, error))
      << error;
  EXPECT_EQ(o.problem, "gemm");
  EXPECT_EQ(o.shape.at("K"), 65);
  ASSERT_EQ(o.args.size(), 1u);
  EXPECT_TRUE(o.args[0].kind == ArgOverride::Kind::Scalar);
  EXPECT_EQ(o.saves[0].file, "c.npy");
  // --arg alone: no problem.
  ASSERT_TRUE(parseLine("--bundle b --arg X=f16[4,8]", o, error)) << error;
  EXPECT_EQ(o.problem, "");
  ASSERT_TRUE(parseLine("--bundle b --arg X=f16[4,8] --ref Y=y.npy --rtol "
                        "1e-2 --atol 0",
                        o, error))
      << error;
  EXPECT_EQ(o.rtol, 1e-2);
}

TEST(Options, Errors) {
  EXPECT_EQ(optionError("--bundle b --heads 6 --kv-heads 4"),
            "--heads 6 is not a multiple of --kv-heads 4");
  EXPECT_EQ(optionError("--bundle b --batch 0"),
            "--batch: '0' is out of range (expected an integer in [1, "
            "2147483647])");
  // Issue 11: this said "must be at least 1".
  EXPECT_EQ(optionError("--bundle b --seq 4294967296"),
            "--seq: '4294967296' is out of range (expected an integer in [1, "
            "2147483647])");
  EXPECT_EQ(optionError("--bundle b --seq 99999999999999999999"),
            "--seq: '99999999999999999999' is out of range (expected an "
            "integer in [1, 2147483647])");
  EXPECT_EQ(optionError("--bundle b --dtype f32"),
            "--dtype must be f16 or bf16, got 'f32'");
  EXPECT_EQ(optionError("--bundle b --scale nan"),
            "--scale must be a positive number, got 'nan'");
  EXPECT_EQ(optionError("--bundle b --reps 3"),
            "--reps applies only with --bench");
  EXPECT_EQ(optionError("--bundle b --problem softmax --causal"),
            "--causal is a flag of the attention problem; --problem softmax "
            "takes --shape");
  EXPECT_EQ(optionError("--bundle b --problem layernorm --shape M=x"),
            "--shape M: expected an integer in [1, 2147483647], got 'x'");
  EXPECT_EQ(optionError("--bundle b --arg X=f16[1,2,3,4,5,6,7,8,9]"),
            "--arg X=f16[1,2,3,4,5,6,7,8,9]: a shape has 1 to 8 sizes");
  EXPECT_EQ(optionError("--autotune --bundles c --autotune-timeout 0"),
            "--autotune-timeout: '0' is out of range (expected an integer in "
            "[1, 86400])");
  EXPECT_EQ(optionError("--bundle b --bundles c --autotune"),
            "--bundle and --bundles exclude each other (--bundles DIR is the "
            "folder of variants --autotune times)");
  EXPECT_EQ(optionError("--seq 10"),
            "nothing to run: give --bundle DIR (gpu), --kernel FILE (cpu) or "
            "--autotune --bundles DIR");
}

// The names of --backend and --inputs come from one table each (Options.cpp):
// every value parses back from its name.
TEST(Options, EnumNamesRoundTrip) {
  for (Backend b : {Backend::Auto, Backend::Gpu, Backend::Cpu}) {
    RunnerOptions o;
    std::string error;
    ASSERT_TRUE(parseLine(std::string("--bundle b --backend=") + backendName(b),
                          o, error))
        << error;
    EXPECT_TRUE(o.backend == b) << backendName(b);
  }
  for (InputSource s :
       {InputSource::Auto, InputSource::Host, InputSource::Device}) {
    RunnerOptions o;
    std::string error;
    ASSERT_TRUE(parseLine(
        std::string("--bundle b --inputs=") + inputSourceName(s), o, error))
        << error;
    EXPECT_TRUE(o.inputs == s) << inputSourceName(s);
  }
  EXPECT_STREQ(backendName(Backend::Cpu), "cpu");
  EXPECT_STREQ(inputSourceName(InputSource::Device), "device");
  EXPECT_EQ(optionError("--bundle b --backend=GPU"),
            "--backend must be gpu, cpu or auto, got 'GPU'");
}

TEST(Options, AutotuneChildArgs) {
  std::vector<std::string> argv = {"tile-runner", "--autotune",
                                   "--bundles",   "dir",
                                   "--causal",    "--seq",
                                   "4096",        "--print-autotune",
                                   "--json",      "--autotune-reps=7",
                                   "--reps",      "3",
                                   "--bench",     "--head-dim",
                                   "128"};
  std::vector<std::string> child =
      autotuneChildArgs(argv, "/bin/tile-runner", "dir/v1", 7);
  std::vector<std::string> expected = {
      "/bin/tile-runner", "--causal", "--seq",         "4096",
      "--head-dim",       "128",      "--backend=gpu", "--bundle",
      "dir/v1",           "--bench",  "--reps",        "7",
      "--warmup",         "2",        "--json",        "--autotune-child"};
  EXPECT_EQ(child, expected);
}

} // namespace
