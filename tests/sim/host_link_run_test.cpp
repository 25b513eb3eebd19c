// The host link and firmware time in runs (sim/engine/host_path.h):
// a sequential read's and a sequential write's throughput capped at a narrow
// link's payload rate, the firmware time added whole to each response at
// queue depth 1, io.csv unchanged by the defaults set explicitly, and power
// cuts with I/Os on the link.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "latency_support.h"
#include "run_support.h"
#include "sim/config/config.h"
#include "test_support.h"

namespace ssdlab {
namespace {

using testing::run_tiny;
using testing::sim_options;

// The tiny preset widened to 8 channels with a fast bus: some 2.8 GB/s of
// sequential reads and 590 MB/s of writes, more than the links below carry.
const std::vector<std::string> kWide = {"geometry.channels=8", "timing.bus_ns_per_byte=2.5"};

std::vector<std::string> with(std::vector<std::string> sets, const std::vector<std::string>& more) {
  sets.insert(sets.end(), more.begin(), more.end());
  return sets;
}

// MB/s of a run's io.csv: bytes over the time from the first submission to
// the last completion.
double throughput_mb_s(const std::filesystem::path& out) {
  const auto rows = testing::csv_rows(testing::read_file(out / "io.csv"));
  double first = 1e300, last = 0, bytes = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const double submit = std::stod(rows[i][4]), response = std::stod(rows[i][5]);
    first = std::min(first, submit);
    last = std::max(last, submit + response);
    bytes += std::stod(rows[i][8]);
  }
  return bytes / (last - first);  // bytes per microsecond
}

double payload_mb_s(std::uint32_t generation, std::uint32_t lanes) {
  sim::HostLinkConfig link;
  link.generation = generation;
  link.lanes = lanes;
  return sim::link_payload_bytes_per_s(link) / 1e6;
}

// MB/s of `workload` on the widened device behind PCIe `generation`
// x`lanes` (generation 0: no link), in folder `name`.
double throughput_behind(const std::string& name, const std::string& workload,
                         const char* precondition, std::uint32_t generation, std::uint32_t lanes) {
  auto options = sim_options(workload, kWide);
  options.precondition = precondition;
  if (generation)
    options.overrides = with(kWide, {fmt::format("host.link.generation={}", generation),
                                     fmt::format("host.link.lanes={}", lanes)});
  return throughput_mb_s(run_tiny(testing::temp_dir_for_this_test("host-link-"), name, options));
}

// A link narrower than the device caps it at the link's payload rate, less
// the commands' own link time (0.1%).
void expect_capped(double free, double capped, double link) {
  EXPECT_GT(free, 2 * link);
  EXPECT_LE(capped, link);
  EXPECT_GT(capped, 0.99 * link);
}

TEST(HostLinkRun, SequentialReadsAreCappedAtTheLink) {
  const std::string reads = "SR:io_size=131072,count=400,queue_depth=32";
  const double free = throughput_behind("reads-free", reads, "seq", 0, 0);
  expect_capped(free, throughput_behind("reads-gen3x1", reads, "seq", 3, 1),
                payload_mb_s(3, 1));  // 900.2 MB/s
  // A link wider than the device leaves it nearly as fast (each read's data
  // crosses after its flash work: a little latency, no cap).
  EXPECT_GT(throughput_behind("reads-gen4x16", reads, "seq", 4, 16), 0.97 * free);
}

TEST(HostLinkRun, SequentialWritesAreCappedAtTheLink) {
  const std::string writes = "SW:io_size=131072,count=400,queue_depth=32";
  expect_capped(throughput_behind("writes-free", writes, "", 0, 0),
                throughput_behind("writes-gen1x1", writes, "", 1, 1),
                payload_mb_s(1, 1));  // 228.6 MB/s
}

TEST(HostLinkRun, FirmwareTimeAddsItselfToEachResponseAtQueueDepthOne) {
  auto options = sim_options("RR:count=200,queue_depth=1");
  options.precondition = "seq";
  testing::expect_each_response_longer(testing::temp_dir_for_this_test("host-link-"), options,
                                       {"host.firmware_us=3.25"}, 3.25);
}

TEST(HostLinkRun, ExplicitDefaultsLeaveIoCsvUnchanged) {
  const auto dir = testing::temp_dir_for_this_test("host-link-");
  auto options = sim_options("RW:io_size=8192,count=3000,queue_depth=8");
  const auto plain = testing::read_file(run_tiny(dir, "plain", options) / "io.csv");
  options.overrides = {"host.firmware_us=0"};
  EXPECT_EQ(testing::read_file(run_tiny(dir, "zero", options) / "io.csv"), plain);
  // And a link changes it (the comparison can fail).
  options.overrides = {"host.link.generation=1", "host.link.lanes=1"};
  EXPECT_NE(testing::read_file(run_tiny(dir, "link", options) / "io.csv"), plain);
}

TEST(HostLinkRun, PowerCutsResubmitIosOnTheLink) {
  const auto dir = testing::temp_dir_for_this_test("host-link-");
  auto options =
      sim_options("RW:count=6000,queue_depth=16",
                  {"host.link.generation=1", "host.link.lanes=1", "host.firmware_us=20"});
  options.power_cuts = {"random:10"};
  const auto out = run_tiny(dir, "cuts", options);
  const auto summary = testing::summary_of(out);
  EXPECT_EQ(summary["power_cuts"]["count"], 10);
  int resubmitted = 0;  // QD 16: most cuts find several I/Os out, some on the link
  for (const auto& cut : summary["power_cuts"]["cuts"])
    resubmitted += cut["requests_resubmitted"].get<int>();
  EXPECT_GT(resubmitted, 10);
  // Every I/O completes once, its resubmission included.
  EXPECT_EQ(testing::csv_rows(testing::read_file(out / "io.csv")).size(), 6000u);
}

}  // namespace
}  // namespace ssdlab
