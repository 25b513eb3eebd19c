// The one host loop (sim/engine/simulator.h): what traces gained by sharing it with
// plans (idle periods, trims), and trims from every source, through the
// library behind `ssdlab sim` (run_support.h).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>

#include "run_support.h"
#include "sim/results/summary.h"
#include "sim/run/trace_run.h"
#include "test_support.h"

namespace ssdlab {
namespace {

using testing::run_tiny;
using testing::sim_options;
using testing::summary_of;

// A blkparse trace: `rounds` rounds of `pages` scattered 4 KiB writes over
// the first 3,200 pages of the device, each round followed (with `discards`)
// by a discard of the first `pages` pages.
std::string blkparse_trace(int rounds, int pages, bool discards) {
  std::mt19937 random(7);  // the same trace every time
  std::string text;
  int sequence = 0;
  double time = 0;
  const auto line = [&](const char* rwbs, int sector, int sectors) {
    text += fmt::format("  8,0    0 {:>8} {:>14.9f}  100  D  {:>3} {} + {} [fio]\n", ++sequence,
                        time, rwbs, sector, sectors);
    time += 0.0005;
  };
  for (int round = 0; round < rounds; ++round) {
    for (int k = 0; k < pages; ++k) line("W", static_cast<int>(random() % 3200) * 8, 8);
    if (discards) line("D", 0, pages * 8);
  }
  return text;
}

TEST(HostLoop, BlkparseDiscardsAreReplayedAsTrimsAndLowerWriteAmplification) {
  const auto dir = testing::temp_dir_for_this_test("host-loop-");
  const auto with = testing::write_file(dir / "with.blk", blkparse_trace(12, 1600, true));
  const auto without = testing::write_file(dir / "without.blk", blkparse_trace(12, 1600, false));
  const auto trimmed = run_tiny(dir, "trimmed", sim_options("trace:" + with.string()));
  const auto kept = run_tiny(dir, "kept", sim_options("trace:" + without.string()));
  const auto rows = testing::csv_rows(testing::read_file(trimmed / "io.csv"));
  ASSERT_EQ(rows.size(), 12u * 1601);
  EXPECT_EQ(rows[1600][6], "T");  // the first discard, after 1600 writes
  EXPECT_EQ(rows[1600][8], std::to_string(1600 * 4096));
  const auto a = summary_of(trimmed), b = summary_of(kept);
  EXPECT_EQ(a["experiments"][0]["trims"], 12);
  EXPECT_GT(a["device"]["trimmed_pages"].get<int>(), 0);
  // Trimmed pages need no moving when their blocks are cleaned.
  EXPECT_LT(a["device"]["write_amplification"].get<double>(),
            b["device"]["write_amplification"].get<double>());
  EXPECT_EQ(a["device"]["host_pages_written"], b["device"]["host_pages_written"]);
  if (const auto check = testing::check_output(trimmed)) {
    EXPECT_EQ(check->exit_code, 0) << check->output;  // mode T meets the contract
  }
}

TEST(HostLoop, PlanTrimShareSendsThatShareOfTrimsAndVerifiesOnEveryFtl) {
  const auto dir = testing::temp_dir_for_this_test("host-loop-");
  for (const char* ftl : {"page-mapped", "block-mapped", "bast", "fast", "dftl"}) {
    auto options = sim_options("RW:io_size=8192,count=4000,trim_share=0.25",
                               {fmt::format("ftl.type={}", ftl)});
    options.verify = true;
    options.precondition = "seq";
    const auto out = run_tiny(dir, ftl, options);
    const auto rows = testing::csv_rows(testing::read_file(out / "io.csv"));
    int trims = 0;
    for (const auto& row : rows) trims += row[6] == "T";
    EXPECT_NEAR(trims, 1000, 100) << ftl;  // 4000 x 0.25, binomial sd about 27
    const auto summary = summary_of(out);
    EXPECT_GT(summary["verification"]["pages_checked"].get<std::uint64_t>(), 0u) << ftl;
    EXPECT_GT(summary["device"]["trimmed_pages"].get<std::uint64_t>(), 0u) << ftl;
  }
}

TEST(HostLoop, TraceGapsCleanInTheBackground) {
  // Writes in bursts of 200 separated by 200 ms of silence: with background
  // cleaning on, the gaps are idle periods in which the pools clean (before
  // the one host loop, a trace's gaps were never idle).
  const auto dir = testing::temp_dir_for_this_test("host-loop-");
  std::string lines;
  for (int k = 0; k < 8000; ++k) {
    const long long ticks = 128166372003061629LL + (k / 200) * 2'000'000LL + (k % 200) * 10'000LL;
    lines += fmt::format("{},hm,0,Write,{},4096,26\n", ticks, (k * 7919 % 3000) * 4096);
  }
  const auto trace = testing::write_file(dir / "bursts.csv", lines);
  const auto on =
      run_tiny(dir, "on", sim_options("trace:" + trace.string(), {"ftl.clean_high_water=0.3"}));
  const auto off = run_tiny(dir, "off", sim_options("trace:" + trace.string()));
  const auto with = summary_of(on), without = summary_of(off);
  const auto& a = with["experiments"][0]["runs"][0]["device"];
  const auto& b = without["experiments"][0]["runs"][0]["device"];
  EXPECT_GT(a["background_blocks_cleaned"].get<std::uint64_t>(), 0u);
  EXPECT_EQ(b["background_blocks_cleaned"].get<std::uint64_t>(), 0u);
  EXPECT_LT(a["foreground_blocks_cleaned"].get<std::uint64_t>(),
            b["foreground_blocks_cleaned"].get<std::uint64_t>());
}

}  // namespace
}  // namespace ssdlab

namespace ssdlab::sim {
namespace {

TEST(RunDriver, RunsPlansAndTracesInProcess) {
  // The library behind `ssdlab sim`, called without spawning the binary.
  const auto dir = testing::temp_dir_for_this_test("run-driver-");
  SimOptions options;
  options.config = testing::preset("tiny");
  options.outdir = (dir / "plan").string();
  std::ostringstream out;
  run_sim_or_replay(options, {"RW:count=500"}, TraceOptions{}, out);
  EXPECT_EQ(testing::csv_rows(testing::read_file(dir / "plan" / "io.csv")).size(), 500u);
  EXPECT_NE(out.str().find("500 I/Os simulated"), std::string::npos) << out.str();

  options.outdir = (dir / "trace").string();
  const std::string trace =
      "trace:" + std::string(SSDLAB_SOURCE_DIR) + "/traces/examples/synthetic.csv";
  run_sim_or_replay(options, {trace, trace}, TraceOptions{}, out);
  const auto summary = nlohmann::json::parse(testing::read_file(dir / "trace" / "summary.json"));
  ASSERT_EQ(summary["experiments"].size(), 2u);  // the second named "synthetic-2"
  EXPECT_EQ(summary["experiments"][1]["name"], "synthetic-2");
  EXPECT_EQ(summary["schema_version"], kSummarySchemaVersion);
}

}  // namespace
}  // namespace ssdlab::sim
