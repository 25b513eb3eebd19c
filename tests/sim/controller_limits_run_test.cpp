// The controller's limits in runs (sim/controller/controller_limits.h,
// sim/engine/host_path.h): the firmware cores' IOPS ceiling under
// load and their latency at queue depth 1, the data path's cap on
// sequential reads and writes, io.csv unchanged without the keys, and the
// counters in summary.json.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "latency_support.h"
#include "run_support.h"
#include "test_support.h"

namespace ssdlab {
namespace {

using testing::run_tiny;
using testing::sim_options;

std::vector<std::string> with(std::vector<std::string> sets, const std::vector<std::string>& more) {
  sets.insert(sets.end(), more.begin(), more.end());
  return sets;
}

struct Span {
  double first_submit = 1e300, last_done = 0, first_done = 1e300;
  std::size_t rows = 0;
  double bytes = 0;
};

// The io.csv of a run: its first submission, first and last completion.
Span span_of(const std::filesystem::path& out) {
  Span s;
  for (const auto& row : testing::csv_rows(testing::read_file(out / "io.csv"))) {
    const double submit = std::stod(row[4]), done = submit + std::stod(row[5]);
    s.first_submit = std::min(s.first_submit, submit);
    s.first_done = std::min(s.first_done, done);
    s.last_done = std::max(s.last_done, done);
    s.bytes += std::stod(row[8]);
    ++s.rows;
  }
  return s;
}

// One core, 100 us per read: at most 10,000 reads per second, under the
// tiny device's some 18,000 at queue depth 32 (the flash alone).
const std::vector<std::string> kOneSlowCore = {"controller.firmware.cores=1",
                                               "controller.firmware.read_us=100"};
constexpr double kReadUs = 100;
constexpr std::size_t kReads = 4000;

TEST(ControllerLimitsRun, CoresCapRandomReadsAtQueueDepth32) {
  const auto dir = testing::temp_dir_for_this_test("limits-");
  auto options = sim_options(fmt::format("RR:count={},queue_depth=32", kReads));
  options.precondition = "seq";
  const Span free = span_of(run_tiny(dir, "free", options));
  options.overrides = kOneSlowCore;
  const Span capped = span_of(run_tiny(dir, "capped", options));
  const double ceiling = 1e6 / kReadUs;  // reads per second: cores / time
  const double free_iops = 1e6 * kReads / (free.last_done - free.first_submit);
  const double iops = 1e6 * kReads / (capped.last_done - capped.first_submit);
  EXPECT_GT(free_iops, 1.5 * ceiling);  // without cores the flash is faster
  // With 32 outstanding, a command always waits for the core (the flash
  // answers in well under 31 x 100 us), so the core serves without a gap
  // from the first arrival: the span is kReads x 100 us, plus the last
  // read's way after its core time, at most 32 reads queued on one die at
  // the tiny device's unloaded read (140.6 us): 4.5 ms against 400 ms.
  EXPECT_LE(iops, ceiling);
  EXPECT_GE(iops, ceiling / (1 + 32 * 140.6 / (kReads * kReadUs)));
  const auto device = testing::summary_of(dir / "capped")["experiments"][0]["runs"][0]["device"];
  EXPECT_EQ(device["controller_core_commands"], kReads);
  EXPECT_GT(device["controller_core_busy_fraction"].get<double>(), 0.98);
  EXPECT_GT(device["controller_core_mean_wait_us"].get<double>(), 20 * kReadUs);
}

TEST(ControllerLimitsRun, CoresAddTheirTimeToEachResponseAtQueueDepthOne) {
  const auto dir = testing::temp_dir_for_this_test("limits-");
  auto options = sim_options("RR:count=200,queue_depth=1");
  options.precondition = "seq";
  testing::expect_each_response_longer(dir, options, kOneSlowCore, kReadUs);  // never a wait
  const auto device = testing::summary_of(dir / "more")["experiments"][0]["runs"][0]["device"];
  EXPECT_EQ(device["controller_core_wait_us"], 0.0);
}

// The tiny preset widened to 8 channels with a fast bus (about 2.8 GB/s
// of sequential reads: tests/sim/host_link_run_test.cpp), behind a data
// path of 1 GB/s: 131,072 ns per 128 KiB transfer, exactly.
const std::vector<std::string> kWide = {"geometry.channels=8", "timing.bus_ns_per_byte=2.5"};

TEST(ControllerLimitsRun, DataPathCapsSequentialReads) {
  const auto dir = testing::temp_dir_for_this_test("limits-");
  auto options = sim_options("SR:io_size=131072,count=400,queue_depth=32", kWide);
  options.precondition = "seq";
  const Span free = span_of(run_tiny(dir, "free", options));
  EXPECT_GT(free.bytes / (free.last_done - free.first_submit), 2000);  // MB/s
  options.overrides = with(kWide, {"controller.data_path.bytes_per_s=1e9"});
  const Span capped = span_of(run_tiny(dir, "capped", options));
  // The flash reads faster than the path moves, so the path never idles
  // once the first read is out of the flash: one completion per transfer.
  EXPECT_NEAR((capped.last_done - capped.first_done) / (capped.rows - 1), 131.072, 1e-6);
  EXPECT_LE(capped.bytes / (capped.last_done - capped.first_submit), 1000.0);
  const auto device = testing::summary_of(dir / "capped")["experiments"][0]["runs"][0]["device"];
  EXPECT_EQ(device["controller_data_path_bytes"], 400 * 131072);
  EXPECT_GT(device["controller_data_path_busy_fraction"].get<double>(), 0.99);
  EXPECT_FALSE(device.contains("controller_core_commands"));  // no cores: no core counters
}

TEST(ControllerLimitsRun, DataPathCapsSequentialWrites) {
  const auto dir = testing::temp_dir_for_this_test("limits-");
  // About 590 MB/s of writes on the widened device; a 250 MB/s path.
  const std::string writes = "SW:io_size=131072,count=400,queue_depth=32";
  const Span free = span_of(run_tiny(dir, "free", sim_options(writes, kWide)));
  EXPECT_GT(free.bytes / (free.last_done - free.first_submit), 500);
  auto options = sim_options(writes, with(kWide, {"controller.data_path.bytes_per_s=2.5e8"}));
  const Span capped = span_of(run_tiny(dir, "capped", options));
  const double mb_s = capped.bytes / (capped.last_done - capped.first_submit);
  EXPECT_LE(mb_s, 250.0);
  // The path's 400 transfers, then the last write's program (under 1%).
  EXPECT_GT(mb_s, 0.99 * 250.0);
}

TEST(ControllerLimitsRun, WithoutTheKeysIoCsvAndSummaryAreUnchanged) {
  const auto dir = testing::temp_dir_for_this_test("limits-");
  auto options = sim_options("RW:io_size=8192,count=3000,queue_depth=8,read_share=0.5");
  const auto plain = testing::read_file(run_tiny(dir, "plain", options) / "io.csv");
  const auto summary = testing::summary_of(dir / "plain");
  EXPECT_FALSE(summary["config"]["controller"].contains("firmware"));
  EXPECT_FALSE(summary["experiments"][0]["runs"][0]["device"].contains("controller_core_commands"));
  // Cores that take no time, more than the I/Os outstanding, leave it as it
  // was (the comparison can fail: a slow core changes it).
  options.overrides = {"controller.firmware.cores=256"};
  EXPECT_EQ(testing::read_file(run_tiny(dir, "zero", options) / "io.csv"), plain);
  options.overrides = {"controller.firmware.cores=1", "controller.firmware.write_us=30"};
  EXPECT_NE(testing::read_file(run_tiny(dir, "slow", options) / "io.csv"), plain);
}

// Both limits, slow enough that I/Os wait for them.
const std::vector<std::string> kBoth = {
    "controller.firmware.cores=2", "controller.firmware.read_us=30",
    "controller.firmware.write_us=40", "controller.firmware.trim_us=10",
    "controller.data_path.bytes_per_s=2e8"};

TEST(ControllerLimitsRun, PowerCutsResubmitIosWaitingForACoreOrTheDataPath) {
  const auto dir = testing::temp_dir_for_this_test("limits-");
  auto options = sim_options("RW:count=6000,queue_depth=16,read_share=0.5", kBoth);
  options.power_cuts = {"random:10"};
  const auto out = run_tiny(dir, "cuts", options);
  const auto summary = testing::summary_of(out);
  EXPECT_EQ(summary["power_cuts"]["count"], 10);
  EXPECT_EQ(summary["power_cuts"]["lost_writes"], 0);
  int resubmitted = 0;  // QD 16 behind two slow cores: every cut finds I/Os out
  for (const auto& cut : summary["power_cuts"]["cuts"])
    resubmitted += cut["requests_resubmitted"].get<int>();
  EXPECT_GT(resubmitted, 10);
  EXPECT_EQ(testing::csv_rows(testing::read_file(out / "io.csv")).size(), 6000u);
}

TEST(ControllerLimitsRun, VerifiedRunsWithAWriteBufferPass) {
  const auto dir = testing::temp_dir_for_this_test("limits-");
  auto options = sim_options("RW:count=6000,queue_depth=8,read_share=0.4",
                             with(kBoth, {"controller.write_buffer=65536",
                                          "controller.write_buffer_ns_per_byte=0"}));
  options.verify = true;
  const auto summary = testing::summary_of(run_tiny(dir, "verify", options));
  EXPECT_GT(summary["verification"]["pages_checked"].get<int>(), 500);
  const auto device = summary["experiments"][0]["runs"][0]["device"];
  EXPECT_EQ(device["controller_core_commands"], 6000);
  EXPECT_GT(device["controller_data_path_wait_us"].get<double>(), 0);
}

TEST(ControllerLimitsRun, TenantsShareTheCoresAndTheFairOrderStillRuns) {
  const auto dir = testing::temp_dir_for_this_test("limits-");
  auto options = sim_options("", with(kBoth, {"controller.dispatch_order=fair"}));
  options.config = testing::preset("tiny");
  options.outdir = (dir / "tenants").string();
  options.precondition = "random";
  options.fairness = true;
  std::ostringstream out;
  sim::run_sim_or_replay(options,
                         {"RR:count=2000,queue_depth=2,name=reader",
                          "RW:count=8000,queue_depth=16,name=writer"},
                         sim::TraceOptions{}, out);
  const auto summary = testing::summary_of(dir / "tenants");
  EXPECT_EQ(summary["experiments"][0]["runs"][0]["count"], 2000);
  EXPECT_EQ(summary["experiments"][1]["runs"][0]["count"], 8000);
  // One pool of cores for both (each tenant's device block is the run's).
  EXPECT_EQ(summary["experiments"][0]["runs"][0]["device"]["controller_core_commands"], 10000);
  EXPECT_TRUE(summary.contains("fairness"));
}

}  // namespace
}  // namespace ssdlab
