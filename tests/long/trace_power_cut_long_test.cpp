// Issue 19's figure: the one host loop cuts the power during trace replay as
// it does during plans. 1,000 random cuts in an open-loop trace of writes,
// reads and trims (with idle gaps) on every FTL, and not one acknowledged
// write lost nor one trimmed page back.
#include <gtest/gtest.h>

#include "common/rng.h"
#include "sim/config/config.h"
#include "sim/controller/ssd.h"
#include "sim/engine/replay.h"
#include "sim/engine/simulator.h"
#include "sim/state/power_cut_plan.h"
#include "tests/power_cut_support.h"
#include "tests/trace_support.h"

namespace ssdlab::sim {
namespace {

// An open-loop trace: bursts of requests 50 us apart with 20 ms gaps between
// bursts; 70% writes of 4 KiB to 4 KiB x `write_pages`, 20% reads, 10% trims
// of up to 64 KiB.
std::vector<traces::TraceRecord> mixed_trace(std::uint64_t device_bytes, std::size_t count,
                                             std::uint32_t write_pages) {
  Rng rng(19);
  std::vector<traces::TraceRecord> records;
  TimeNs time = 0;
  const std::uint64_t pages = device_bytes / 4096;
  for (std::size_t k = 0; k < count; ++k) {
    time += k % 64 == 63 ? 20'000'000 : 50'000;
    const std::uint64_t draw = rng.uniform(10);
    const IoMode mode = draw < 7 ? IoMode::kWrite : draw < 9 ? IoMode::kRead : IoMode::kTrim;
    const std::uint32_t size_pages =
        static_cast<std::uint32_t>(1 + rng.uniform(mode == IoMode::kTrim ? 16 : write_pages));
    const std::uint64_t page = rng.uniform(pages - size_pages);
    records.push_back({time, page * 4096, size_pages * 4096, mode, 0});
  }
  return records;
}

class TraceThousandCuts : public ::testing::TestWithParam<std::string> {};

TEST_P(TraceThousandCuts, LoseNoAcknowledgedWrite) {
  const DeviceConfig config = load_config(std::string(SSDLAB_SOURCE_DIR) + "/configs/tiny.toml",
                                          {"ftl.type=\"" + GetParam() + "\""});
  Ssd ssd(config);
  ssd.enable_power_cuts();
  ssd.prefill(0, ssd.logical_bytes());  // cleaning and merges all along
  const std::size_t count = 20000;
  testing::VectorReader trace(mixed_trace(ssd.logical_bytes(), count, 4));
  Simulator simulator(ssd, nullptr);
  simulator.plan_power_cuts(parse_power_cuts({"random:1000"}, count, 1));
  const ReplayResult result = replay(simulator, trace, ReplaySettings{"mixed"});  // a loss throws
  const testing_power::CutTotals totals = testing_power::totals_of(simulator);
  EXPECT_EQ(totals.cuts, 1000u);
  EXPECT_EQ(totals.recovered, 1000u);
  EXPECT_EQ(totals.lost, 0u);
  EXPECT_EQ(result.run.stats.count, count);  // every request completed, cut ones resubmitted
  EXPECT_GT(result.trims, 0u);
}

INSTANTIATE_TEST_SUITE_P(PowerCut, TraceThousandCuts,
                         // (The example FTL, which never cleans, has its cuts
                                         // in power_cut_long_test.cpp.)
                                         ::testing::Values("page-mapped", "block-mapped", "bast", "fast"));

}  // namespace
}  // namespace ssdlab::sim
