// `ssdlab reproduce`'s experiment table and verdicts (repro/), without
// running the experiments: ssdlab_repro's judge() on hand-made values, and
// the table's own consistency.
#include <gtest/gtest.h>

#include <set>

#include "common/error.h"
#include "repro/reproduce.h"

namespace ssdlab::repro {
namespace {

Row value_row(double paper, double tolerance) {
  Row row;
  row.id = "test/value";
  row.paper_value = paper;
  row.tolerance = tolerance;
  row.measures.resize(1);
  return row;
}

TEST(ReproduceJudge, AValueWithinItsToleranceOfThePaperPasses) {
  const Row row = value_row(433, 0.10);
  EXPECT_TRUE(judge(row, {433 * 1.099}).pass);
  EXPECT_TRUE(judge(row, {433 * 0.901}).pass);
  EXPECT_FALSE(judge(row, {433 * 1.101}).pass);
  EXPECT_EQ(judge(row, {433 * 2.15}).verdict, "miss");
  EXPECT_NE(judge(row, {433 * 2.15}).detail.find("+115.0%"), std::string::npos);
}

TEST(ReproduceJudge, ATrendPassesInItsDirectionWithinItsSlack) {
  Row row;
  row.check = Check::kIncreasing;
  row.tolerance = 0.02;
  row.measures.resize(3);
  EXPECT_TRUE(judge(row, {1, 2, 3}).pass);
  EXPECT_TRUE(judge(row, {1, 0.99, 3}).pass);   // a 1% dip: within the slack
  EXPECT_FALSE(judge(row, {1, 0.9, 3}).pass);   // a 10% dip: not monotone
  EXPECT_FALSE(judge(row, {3, 2, 1}).pass);
  EXPECT_FALSE(judge(row, {1, 1, 1}).pass);     // must end higher
  row.check = Check::kDecreasing;
  EXPECT_TRUE(judge(row, {3, 2, 0}).pass);
  EXPECT_FALSE(judge(row, {0, 0, 1}).pass);
}

TEST(ReproduceJudge, ARatioIsComparedWithThePapersBound) {
  Row row;
  row.check = Check::kAtMost;
  row.bound = 2;
  row.measures.resize(2);
  EXPECT_TRUE(judge(row, {3, 1.5}).pass);
  EXPECT_FALSE(judge(row, {3.1, 1.5}).pass);
  row.check = Check::kAtLeast;
  EXPECT_TRUE(judge(row, {3.1, 1.5}).pass);
  EXPECT_FALSE(judge(row, {2.9, 1.5}).pass);
}

TEST(ReproduceJudge, TheSizeOfARiseIsComparedWithThePapersRatio) {
  Row row;
  row.check = Check::kRatio;
  row.paper_value = 746.0 / 237.0;  // Table 4: x3.15
  row.tolerance = 0.2;
  EXPECT_TRUE(judge(row, {237, 553, 746}).pass);
  EXPECT_TRUE(judge(row, {200, 999, 200 * 3.15 * 1.19}).pass);
  EXPECT_FALSE(judge(row, {200, 999, 200 * 3.15 * 1.21}).pass);
  EXPECT_FALSE(judge(row, {2121, 2180, 2299}).pass);  // x1.08: a direction, not the size
  EXPECT_NE(judge(row, {2121, 2180, 2299}).detail.find("-65.6%"), std::string::npos);
  EXPECT_FALSE(judge(row, {0, 1, 2}).pass);
}

TEST(ReproduceTable, EveryRowIsWellFormed) {
  std::set<std::string> ids;
  for (const Row& row : all_rows()) {
    SCOPED_TRACE(row.id);
    EXPECT_TRUE(ids.insert(row.id).second) << "duplicate id";
    EXPECT_EQ(row.id.rfind(row.paper + "/", 0), 0u);
    EXPECT_FALSE(row.figure.empty());
    EXPECT_FALSE(row.published.empty());
    EXPECT_FALSE(row.note.empty());
    switch (row.check) {
      case Check::kValue:
        EXPECT_TRUE(row.paper_value.has_value());
        EXPECT_EQ(row.measures.size(), 1u);
        break;
      case Check::kAtLeast:
      case Check::kAtMost:
        EXPECT_FALSE(row.paper_value.has_value());
        EXPECT_EQ(row.measures.size(), 2u);
        break;
      case Check::kRatio:
        EXPECT_TRUE(row.paper_value.has_value());
        EXPECT_GE(row.measures.size(), 2u);
        break;
      case Check::kMeasured:
        EXPECT_FALSE(row.paper_value.has_value());
        EXPECT_EQ(row.measures.size(), 1u);
        EXPECT_EQ(row.published, "not in the paper");
        break;
      default:
        EXPECT_FALSE(row.paper_value.has_value());
        EXPECT_GE(row.measures.size(), 2u);
    }
    for (const Measure& m : row.measures) EXPECT_FALSE(m.run.config.empty());
  }
  // Table 3: all six rows, latency and IO/s on the paper's statistic (DiskSim's
  // access time), each with the measured response time and closed-loop IO/s
  // beside it (issues 21 and 36).
  for (const char* r : {"seq-read", "random-read", "seq-write", "random-write",
                        "seq-write-cleaning", "random-write-cleaning"}) {
    for (const char* q : {"latency", "iops", "response", "closed-loop-iops"})
      EXPECT_TRUE(ids.count(std::string("agrawal/table3/") + r + "/" + q)) << r << " " << q;
    for (const Row& row : all_rows()) {
      if (row.id.rfind(std::string("agrawal/table3/") + r + "/", 0) != 0) continue;
      const Metric metric = row.measures.at(0).metric;
      const bool paper = row.check == Check::kValue;
      EXPECT_EQ(paper, metric == Metric::kAccessTimeUs || metric == Metric::kAccessIops)
          << row.id << ": the paper's rows compare the access time, the others are measured";
    }
  }
}

TEST(ReproduceJudge, AMeasuredRowIsReportedNotJudged) {
  Row row;
  row.check = Check::kMeasured;
  const RowResult result = judge(row, {1163.0});
  EXPECT_EQ(result.verdict, "measured");
  EXPECT_FALSE(result.pass);
}

TEST(ReproduceTable, PapersSelectTheirRowsAndUnknownNamesAreErrors) {
  std::size_t total = 0;
  for (const auto& paper : paper_names()) {
    const auto rows = select_rows(paper);
    EXPECT_FALSE(rows.empty()) << paper;
    for (const Row* row : rows) EXPECT_EQ(row->paper, paper);
    total += rows.size();
  }
  EXPECT_EQ(total, select_rows("all").size());
  EXPECT_THROW(select_rows("agrawl"), Error);
}

TEST(ReproduceTable, TheCommandOfARunIsTheSimCommandLine) {
  const SimRun run{"agrawal-baseline.toml", "RW:io_size=4096,count=10", "seq",
                   {"ftl.copy_back=false"}, "RW:io_size=4096,count=5", {}};
  ReproduceOptions options;
  EXPECT_EQ(sim_command(run, options, "out/r/000"),
            "ssdlab sim -c configs/agrawal-baseline.toml -w RW:io_size=4096,count=10 "
            "--precondition seq --set ftl.copy_back=false --no-io-log -o out/r/000");
  options.quick = true;
  EXPECT_NE(sim_command(run, options, "x").find("count=5"), std::string::npos);
  EXPECT_NE(run.key(false), run.key(true));
}

}  // namespace
}  // namespace ssdlab::repro
