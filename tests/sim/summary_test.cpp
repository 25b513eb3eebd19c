// summary.json read back through the typed model (sim/results/summary.h):
// what a run writes is what compare, calibrate and collect read.
#include "sim/results/summary.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/error.h"
#include "run_support.h"
#include "test_support.h"

namespace ssdlab::sim {
namespace {

using ::testing::HasSubstr;

TEST(Summary, ReadsBackWhatARunWrote) {
  const auto dir = testing::temp_dir_for_this_test("summary-");
  testing::run_tiny(dir, "out", testing::sim_options("RR:io_size=8192,count=300,runs=2"));
  const nlohmann::json json =
      nlohmann::json::parse(testing::read_file(dir / "out" / "summary.json"));
  const SummaryRecord summary = read_summary(dir / "out" / "summary.json");
  EXPECT_EQ(json["schema_version"], kSummarySchemaVersion);
  EXPECT_EQ(summary.schema_version, kSummarySchemaVersion);
  EXPECT_EQ(summary.seed, 1u);
  EXPECT_EQ(summary.logical_bytes, json["logical_bytes"].get<std::uint64_t>());
  ASSERT_EQ(summary.experiments.size(), 1u);
  const ExperimentRecord& e = summary.experiments[0];
  EXPECT_EQ(e.pattern, "RR");
  EXPECT_EQ(e.io_size, 8192u);
  EXPECT_TRUE(e.single_stream());
  ASSERT_EQ(e.runs.size(), 2u);
  for (std::size_t r = 0; r < 2; ++r) {
    const auto& run = json["experiments"][0]["runs"][r];
    EXPECT_EQ(e.runs[r].run, r);
    EXPECT_EQ(e.runs[r].count, 300u);
    EXPECT_DOUBLE_EQ(e.runs[r].mean_us, run["mean_us"].get<double>());
    EXPECT_DOUBLE_EQ(e.runs[r].p99_us, run["p99_us"].get<double>());
    EXPECT_DOUBLE_EQ(e.runs[r].iops, run["iops"].get<double>());
    // A read run wrote nothing: no write amplification (issue 51; was 0).
    EXPECT_FALSE(e.runs[r].write_amplification());
    EXPECT_TRUE(run["device"]["write_amplification"].is_null());
  }
  EXPECT_DOUBLE_EQ(e.mean_over_runs(&RunRecord::mean_us),
                   (e.runs[0].mean_us + e.runs[1].mean_us) / 2);
}

TEST(Summary, NamesWhatIsMissing) {
  const auto run = nlohmann::json::parse(R"({"run": 0, "count": 5, "ignored": 0})");
  const nlohmann::json json = {{"experiments", {{{"name", "a"}, {"runs", {run}}}}}};
  try {
    summary_from_json(json, "x/summary.json");
    FAIL() << "accepted a run without mean_us";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(), "x/summary.json: experiments[0].runs[0]: no mean_us");
  }
}

TEST(Summary, RefusesASchemaNewerThanItReads) {
  const nlohmann::json json = {{"schema_version", kSummarySchemaVersion + 1},
                               {"experiments", nlohmann::json::array()}};
  try {
    summary_from_json(json, "s.json");
    FAIL() << "accepted a newer schema";
  } catch (const Error& error) {
    EXPECT_THAT(error.what(), HasSubstr("schema_version"));
  }
}

TEST(Summary, ReadsFilesWrittenBeforeTheSchemaVersion) {
  const nlohmann::json json = {
      {"experiments",
       {{{"name", "a"},
         {"pattern", "SW"},
         {"runs",
          {{{"count", 4}, {"ignored", 1}, {"mean_us", 2.5}, {"p50_us", 2}, {"p99_us", 3}}}}}}}};
  const SummaryRecord summary = summary_from_json(json, "old.json");
  EXPECT_EQ(summary.schema_version, 1);
  EXPECT_EQ(summary.experiments[0].runs[0].measured(), 3u);
  EXPECT_FALSE(summary.experiments[0].runs[0].write_amplification().has_value());
}

}  // namespace
}  // namespace ssdlab::sim
