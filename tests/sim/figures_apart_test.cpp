// Every figure counts only what it names (issue 51, M1, M6, item 4): a
// run's IOPS, MB/s and response times cover the reads and writes the device
// served; trims (with their own count and rate), the commands a zoned device
// refused and its zone management commands are counted apart, in the console,
// summary.json, the tenants' block and compare; write amplification has no
// value when nothing was written. And resources follow the work (M7, L10):
// a closed-loop stream's slots cost nothing past its I/Os, refusals are
// streamed to refused.csv and not written with --no-io-log.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "analysis/compare.h"
#include "run_support.h"
#include "sim/engine/simulator.h"
#include "sim/run/trace_run.h"
#include "test_support.h"
#include "zoned_support.h"

namespace ssdlab::sim {
namespace {

using ::testing::HasSubstr;
using testing::csv_rows;
using testing::read_file;
using testing::run_tiny;
using testing::sim_options;
using testing::summary_of;

using testing::kZoned;

// The histogram's counts: the I/Os in the response-time figures.
std::uint64_t in_histogram(const nlohmann::json& run) {
  std::uint64_t sum = 0;
  for (const auto& count : run["histogram"]["counts"]) sum += count.get<std::uint64_t>();
  return sum;
}

TEST(FiguresApart, RefusedCommandsAreNotServedIo) {
  // The review's M1: random writes refused on a zoned device were reported
  // as served I/Os at the 1 us command time (here 141,004 IOPS and 577 MB/s
  // from 196 refusals beside 4 writes).
  const auto dir = testing::temp_dir_for_this_test("figures-");
  std::string printed;
  const auto out = run_tiny(dir, "r", sim_options("RW:count=200,seed=3", kZoned), &printed);
  const auto run = summary_of(out)["experiments"][0]["runs"][0];
  const std::uint64_t refused = run.value("refused", 0);
  EXPECT_GT(refused, 150u);
  EXPECT_EQ(refused, csv_rows(read_file(out / "refused.csv")).size());
  EXPECT_EQ(run["count"], 200);
  ASSERT_LT(refused, 200u);
  EXPECT_EQ(in_histogram(run), 200 - refused);
  // The served writes take flash time: no refusal's 1 us in the figures.
  EXPECT_GT(run["min_us"].get<double>(), 1.0);
  EXPECT_LT(run["iops"].get<double>(), 10000.0);
  EXPECT_THAT(printed, HasSubstr(std::to_string(refused) + " refused"));
}

TEST(FiguresApart, ARunOfRefusalsOnlyHasNoResponseTimes) {
  const auto dir = testing::temp_dir_for_this_test("figures-");
  std::string printed;
  const auto out = run_tiny(dir, "r", sim_options("RW:count=50", kZoned), &printed);
  const auto run = summary_of(out)["experiments"][0]["runs"][0];
  EXPECT_EQ(run["refused"], 50);
  EXPECT_EQ(run["iops"], 0.0);
  EXPECT_EQ(run["mb_per_s"], 0.0);
  EXPECT_EQ(in_histogram(run), 0u);
  EXPECT_THAT(printed, ::testing::ContainsRegex("RW +0 +50 +- +- +- +0 +0.00 +- +-\n"));
}

TEST(FiguresApart, TrimsHaveTheirOwnCountAndRate) {
  // The review's M6: 900 trims' bytes counted as transferred (134 MB/s
  // where the writes moved 13.4 MB/s).
  const auto dir = testing::temp_dir_for_this_test("figures-");
  std::string printed;
  const auto out = run_tiny(dir, "t", sim_options("RW:count=1000,trim_share=0.9"), &printed);
  const auto run = summary_of(out)["experiments"][0]["runs"][0];
  std::uint64_t trims = 0, written = 0;
  double first = 1e300, last = 0;  // the writes' span, us
  for (const auto& row : csv_rows(read_file(out / "io.csv"))) {
    trims += row[6] == "T";
    if (row[6] != "W") continue;
    written += std::stoull(row[8]);
    first = std::min(first, std::stod(row[4]));
    last = std::max(last, std::stod(row[4]) + std::stod(row[5]));
  }
  ASSERT_GT(trims, 800u);
  EXPECT_EQ(run["trims"], trims);
  EXPECT_GT(run["trim_iops"].get<double>(), 0.0);
  EXPECT_EQ(in_histogram(run), 1000 - trims);
  // MB/s is the written bytes over the writes' span: with the 900 trims'
  // bytes it was 10 times that.
  EXPECT_NEAR(run["mb_per_s"].get<double>(), static_cast<double>(written) / (last - first),
              0.01);
  EXPECT_THAT(printed, HasSubstr(std::to_string(trims) + " trims ("));
}

TEST(FiguresApart, WriteAmplificationHasNoValueWithoutWrites) {
  const auto dir = testing::temp_dir_for_this_test("figures-");
  std::string printed;
  const auto out = run_tiny(dir, "rr", sim_options("RR:count=100"), &printed);
  const auto summary = summary_of(out);
  const auto& device = summary["experiments"][0]["runs"][0]["device"];
  EXPECT_TRUE(device["write_amplification"].is_null());
  EXPECT_TRUE(device["write_amplification_bytes"].is_null());
  // The device's, all writes, counts the reads' prefill: a figure.
  EXPECT_TRUE(summary["device"]["write_amplification"].is_number());
  // The run's line ends "WA -" and "WA_bytes -".
  EXPECT_THAT(printed, ::testing::ContainsRegex(" - +-\n"));
  // A read run is read back as it was written: the figure is absent, not 0.
  const SummaryRecord record = read_summary(out / "summary.json");
  EXPECT_FALSE(record.experiments[0].runs[0].write_amplification());
}

TEST(FiguresApart, TenantsCountTheirRefusalsApart) {
  // The review's M1: --fairness tenants on a zoned device reported 141,302
  // IOPS and index_p99 0.003 from refusals alone.
  const auto dir = testing::temp_dir_for_this_test("figures-");
  SimOptions options = sim_options("", kZoned);
  options.config = testing::preset("tiny");
  options.outdir = (dir / "tenants").string();
  std::ostringstream printed;
  run_sim_or_replay(options, {"RW:count=50", "SW:count=20,io_size=16384"}, TraceOptions{}, printed);
  const auto summary = summary_of(dir / "tenants");
  const auto& random = summary["tenants"][0];
  const auto run = summary["experiments"][0]["runs"][0];
  EXPECT_GT(random.value("refused", 0), 0);
  EXPECT_EQ(random["ios"], 50 - random["refused"].get<std::uint64_t>());
  EXPECT_EQ(random["ios"], in_histogram(run));
  EXPECT_THAT(printed.str(), HasSubstr("refused apart"));
}

TEST(FiguresApart, CompareCountsTheServedReadsAndWritesOfAnIoCsv) {
  const auto dir = testing::temp_dir_for_this_test("figures-");
  const auto out = run_tiny(dir, "t", sim_options("RW:count=400,trim_share=0.5"));
  const auto summary = summary_of(out);
  const std::uint64_t measured = in_histogram(summary["experiments"][0]["runs"][0]);
  std::filesystem::copy_file(out / "io.csv", dir / "alone.csv");
  const auto figures = analysis::figures_from_io_csv((dir / "alone.csv").string());
  ASSERT_EQ(figures.size(), 1u);
  EXPECT_EQ(figures[0].runs[0].count, measured);
  EXPECT_NEAR(figures[0].runs[0].mean_us,
              summary["experiments"][0]["runs"][0]["mean_us"].get<double>(), 0.001);
}

// A source of `count` reads that counts how often it is asked.
class CountingSource : public IoSource {
 public:
  explicit CountingSource(std::uint64_t count) : left_(count) {}
  std::optional<SourceIo> next() override {
    ++asked_;
    if (left_ == 0) return std::nullopt;
    --left_;
    SourceIo io;
    io.offset = 4096 * left_;
    io.size = 4096;
    return io;
  }
  std::uint64_t asked() const { return asked_; }

 private:
  std::uint64_t left_, asked_ = 0;
};

TEST(ResourcesFollowTheWork, SlotsPastAStreamsIoCostNothing) {
  // The review's M7: queue_depth 65536 x 512 processes for 16 I/Os each
  // took 2.1 GB and 31.6 s: every slot was an event, asked its source once.
  Ssd ssd(testing::load_preset("tiny"));
  Simulator simulator(ssd, nullptr);
  std::vector<CountingSource> sources(8, CountingSource(3));
  std::vector<HostStream> streams;
  for (std::uint32_t p = 0; p < sources.size(); ++p)
    streams.push_back(HostStream{&sources[p], 0, p, /*slots=*/1u << 20});
  const RunGroup group{"many-slots", 0, 3 * sources.size()};
  const RunResult result = simulator.run(streams, std::span(&group, 1)).front();
  EXPECT_EQ(result.stats.count, 24u);
  // Asked for its 3 I/Os and once more at the start (its end), then once
  // per completion: 7, not once per slot (2^20).
  for (const CountingSource& source : sources) EXPECT_LE(source.asked(), 7u);
}

TEST(ResourcesFollowTheWork, RefusalsAreCountedNotWrittenWithoutTheIoLog) {
  const auto dir = testing::temp_dir_for_this_test("figures-");
  auto options = sim_options("RW:count=200,seed=3", kZoned);
  options.io_log = false;
  const auto out = run_tiny(dir, "n", options);
  EXPECT_FALSE(std::filesystem::exists(out / "refused.csv"));
  EXPECT_GT(summary_of(out)["experiments"][0]["runs"][0].value("refused", 0), 150);
}

TEST(RunOutputs, RefusedCsvOfAnEarlierRunIsCleared) {
  // The review's M8: a zoned run's refused.csv stayed beside the next run's
  // io.csv and summary.json in the same folder.
  const auto dir = testing::temp_dir_for_this_test("figures-");
  const auto out = run_tiny(dir, "o1", sim_options("RW:count=50", kZoned));
  ASSERT_TRUE(std::filesystem::exists(out / "refused.csv"));
  run_tiny(dir, "o1", sim_options("RW:count=50"));
  EXPECT_FALSE(std::filesystem::exists(out / "refused.csv"));
}

TEST(RunOutputs, NoOutputOptionReplacesTheRunsRefusedCsv) {
  // The review's M9: --trace-ftl-file and --save-state wrote onto it.
  const auto dir = testing::temp_dir_for_this_test("figures-");
  auto options = sim_options("RW:count=50", kZoned);
  options.save_state = (dir / "o2" / "refused.csv").string();
  EXPECT_THROW(
      {
        try {
          run_tiny(dir, "o2", options);
        } catch (const Error& error) {
          EXPECT_THAT(error.what(), HasSubstr("the run's own refused.csv"));
          throw;
        }
      },
      Error);
  options.save_state.clear();
  options.teaching.trace_ftl = 10;
  options.teaching.trace_ftl_file = (dir / "o3" / "refused.csv").string();
  EXPECT_THROW(run_tiny(dir, "o3", options), Error);
}

}  // namespace
}  // namespace ssdlab::sim
