//===- ReportTest.cpp - reports, statistics, row sampling -----------------===//

#include "Report.h"

#include <gtest/gtest.h>

#include <set>

using namespace tile::runner;

namespace {

TEST(Report, Stats) {
  TimingStats s = computeTimingStats({5, 1, 3, 2, 4});
  EXPECT_EQ(s.median, 3.0);
  EXPECT_NEAR(s.p10, 1.4, 1e-12);
  EXPECT_NEAR(s.p90, 4.6, 1e-12);
  EXPECT_EQ(computeTimingStats({}).samples, 0);
  RunResult r;
  r.timed = true;
  r.timing.median = 2.0;
  r.flops = 4e12;
  r.bytesMoved = 8e9;
  EXPECT_EQ(r.tflops(), 2000.0);
  EXPECT_EQ(r.gbPerSecond(), 4000.0);
}

TEST(Report, CheckRows) {
  EXPECT_EQ(selectCheckRows(50, 10, 0).size(), 50u);
  const int64_t total = 4 * 32 * 1000, seqQ = 1000;
  std::vector<int64_t> rows = selectCheckRows(total, seqQ, 500);
  EXPECT_TRUE(rows.size() >= 500 && rows.size() <= 506);
  std::set<int64_t> unique(rows.begin(), rows.end());
  EXPECT_EQ(unique.size(), rows.size());
  for (int64_t r : {int64_t(0), int64_t(1), seqQ - 1, total - 1})
    EXPECT_TRUE(unique.count(r));
  EXPECT_EQ(selectCheckRows(total, seqQ, 500), rows);
  // Groups larger than the total are clamped.
  EXPECT_EQ(selectCheckRows(7, 100, 3).size(), 5u);
}

TEST(Report, TableAndJson) {
  RunResult r;
  r.problem = "gemm";
  r.shapeText = "K=65 M=1000 N=77 seed=1 std=1";
  r.backend = "gpu";
  r.kernelName = "gemm-x";
  r.check.done = true;
  r.check.rowsTotal = r.check.rowsChecked = 1000;
  OutputCheck c;
  c.name = "C";
  accumulate(c, 0, 1.0, 1.0, 1e-3, false);
  accumulate(c, 1, 2.0, 1.0, 1e-3, false);
  accumulate(c, 2, 0.0, 0.0, 1e-3, true);
  r.check.outputs.push_back(c);
  r.check.finish(3);
  r.failures = r.check.failures;
  r.errors.push_back("autotune: variant v: kernel fault: ...");
  std::string table = renderTable(r);
  EXPECT_NE(table.find("tile-runner: FAIL"), std::string::npos);
  EXPECT_NE(table.find("C: max|out-ref| 1.000e+00, max error/tolerance 1e+03, "
                       "1 of 3 elements outside; all 1000 rows"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("FAIL         1 of 3 C elements were never written"),
            std::string::npos);
  EXPECT_NE(table.find("worst C[1] = 2, reference 1, |error| 1.000e+00 > "
                       "tolerance 1.000e-03 (seed 3)"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("result       ERROR"), std::string::npos);
  Json j = resultToJson(r);
  EXPECT_FALSE(j["passed"].get<bool>());
  EXPECT_EQ(j["problem"], "gemm");
  EXPECT_EQ(j["check"]["outputs"][0]["violations"], 1);
  EXPECT_EQ(j["errors"].size(), 1u);
  EXPECT_EQ(Json::parse(j.dump(2)), j);
}

} // namespace
