// Issue 35's matrix: power cuts while trims are in flight. A trim and a
// write of the same logical page in flight together once lost "acknowledged"
// writes at every queue depth above 1 (the review's H2). Every FTL, queue
// depth 1, 4 and 8, write buffer off and on, a plan and a closed-loop trace
// replay: 1,000 random cuts each, not one acknowledged write lost nor one
// trimmed page back. "page-mapped-units": the page-mapped FTL with 4 KiB map
// units in 16 KiB pages (issue 53), whose buffer packs them. The hot range (1 MiB) makes a trim and a write of one
// page meet in flight often.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "common/rng.h"
#include "sim/config/config.h"
#include "sim/controller/ssd.h"
#include "sim/engine/replay.h"
#include "sim/engine/simulator.h"
#include "sim/state/power_cut_plan.h"
#include "tests/power_cut_support.h"
#include "tests/trace_support.h"
#include "workloads/plan.h"

namespace ssdlab::sim {
namespace {

constexpr std::uint64_t kCuts = 1000;
constexpr std::uint64_t kHotPages = 256;  // 1 MiB of 4 KiB pages

// Writes (half), reads (a fifth) and trims (the rest) of 4 to 16 KiB over
// the first `kHotPages` pages.
std::vector<traces::TraceRecord> hot_trace(std::size_t count) {
  Rng rng(35);
  std::vector<traces::TraceRecord> records;
  for (std::size_t k = 0; k < count; ++k) {
    const std::uint64_t draw = rng.uniform(10);
    const IoMode mode = draw < 5 ? IoMode::kWrite : draw < 7 ? IoMode::kRead : IoMode::kTrim;
    const std::uint32_t pages = static_cast<std::uint32_t>(1 + rng.uniform(4));
    const std::uint64_t page = rng.uniform(kHotPages - pages);
    records.push_back({static_cast<TimeNs>(k) * 1000, page * 4096, pages * 4096, mode, 0});
  }
  return records;
}

using Case = std::tuple<std::string, std::uint32_t, bool, bool>;  // FTL, depth, buffer, trace

class TrimPowerCuts : public ::testing::TestWithParam<Case> {};

TEST_P(TrimPowerCuts, LoseNoAcknowledgedWrite) {
  const auto& [type, depth, buffer, trace] = GetParam();
  const bool units = type.ends_with("-units");
  std::vector<std::string> overrides = {"ftl.type=\"" +
                                        (units ? type.substr(0, type.size() - 6) : type) + "\""};
  if (units)
    overrides.insert(overrides.end(), {"geometry.page_size=16KiB", "ftl.stripe_size=16KiB",
                                       "ftl.logical_page_size=4KiB"});
  if (buffer) overrides.push_back("controller.write_buffer=\"64KiB\"");
  // The example FTL never cleans: a device large enough for every write and
  // every page the cuts tear, and no prefill.
  const bool example = type == "example";
  if (example) overrides.push_back("geometry.blocks_per_plane=512");
  const DeviceConfig config =
      load_config(std::string(SSDLAB_SOURCE_DIR) + "/configs/tiny.toml", overrides);
  Ssd ssd(config);
  ssd.enable_power_cuts();
  if (!example) ssd.prefill(0, ssd.logical_bytes());  // cleaning and merges all along
  const std::size_t count = 4000;
  Simulator simulator(ssd, nullptr);
  simulator.plan_power_cuts(parse_power_cuts({"random:" + std::to_string(kCuts)}, count, 35));
  if (trace) {
    testing::VectorReader reader(hot_trace(count));
    const ReplayResult result =
        replay(simulator, reader, ReplaySettings{"hot", ReplayMode::kClosed, depth});
    EXPECT_EQ(result.run.stats.count, count);
    EXPECT_GT(result.trims, count / 5);
  } else {
    const auto spec = workloads::parse_inline(
                          "RW:io_size=4096,target_size=1MiB,trim_share=0.3,count=" +
                          std::to_string(count) + ",queue_depth=" + std::to_string(depth))
                          .experiments.front();
    simulator.run(spec, 0, 35);  // a lost write throws
  }
  const testing_power::CutTotals totals = testing_power::totals_of(simulator);
  EXPECT_EQ(totals.cuts, kCuts);
  EXPECT_EQ(totals.recovered, kCuts);
  EXPECT_EQ(totals.lost, 0u);
  // (Map units through a buffer at depth 1: a write that finds the buffer
  // full waits for its whole flush, one packed chunk, so no program is in
  // flight when the next request, and a cut, comes; what a cut meets is
  // the buffer's acknowledged data, lost as counted.)
  if (units && buffer && depth == 1 && !trace)
    EXPECT_GT(totals.buffered_lost, 0u);
  else
    EXPECT_GT(totals.torn, 0u);
}

struct CaseName {
  std::string operator()(const ::testing::TestParamInfo<Case>& info) const {
    auto [type, depth, buffer, trace] = info.param;
    std::replace(type.begin(), type.end(), '-', '_');
    return type + "_qd" + std::to_string(depth) + (buffer ? "_buffer" : "") +
           (trace ? "_trace" : "_plan");
  }
};

INSTANTIATE_TEST_SUITE_P(PowerCut, TrimPowerCuts,
                         ::testing::Combine(::testing::Values("page-mapped", "page-mapped-units",
                                                              "dftl", "dftl-units", "block-mapped",
                                                              "bast", "fast", "example"),
                                            ::testing::Values(1u, 4u, 8u), ::testing::Bool(),
                                            ::testing::Bool()),
                         CaseName());

// Issue 51: DFTL brought a trimmed page back when a trim's own map miss made
// cleaning move a page of its range (the device full, its map cache small):
// DFTL again with a map cache of 8 entries (a miss, a write-back and often
// cleaning in nearly every trim) on a full device, trims over the whole of
// it, at each depth with the buffer off and on.
using DftlCase = std::tuple<std::uint32_t, bool>;  // depth, buffer

class DftlTrimPowerCuts : public ::testing::TestWithParam<DftlCase> {};

TEST_P(DftlTrimPowerCuts, BringNoTrimmedPageBack) {
  const auto& [depth, buffer] = GetParam();
  const DeviceConfig config = load_config(
      std::string(SSDLAB_SOURCE_DIR) + "/configs/tiny.toml",
      {"ftl.type=\"dftl\"", "ftl.map_cache_entries=8",
       buffer ? "controller.write_buffer=\"64KiB\"" : "controller.write_buffer=0"});
  Ssd ssd(config);
  ssd.enable_power_cuts();
  ssd.prefill(0, ssd.logical_bytes());
  const testing_power::CutTotals totals = testing_power::run_with_cuts(
      ssd,
      "RW:io_size=4096,trim_share=0.3,count=8000,queue_depth=" + std::to_string(depth), 170, 51);
  EXPECT_EQ(totals.recovered, 170u);
  EXPECT_EQ(totals.lost, 0u);
}

INSTANTIATE_TEST_SUITE_P(PowerCut, DftlTrimPowerCuts,
                         ::testing::Combine(::testing::Values(1u, 4u, 8u), ::testing::Bool()));

// The zoned FTL: its trims are zone resets (a reset forgets the zone's data,
// and must stay forgotten after a cut), writes at the write pointer or
// appends, queue depth 1, 4 and 8 (a zoned device takes no write buffer), on
// a device whose blocks wear out and are replaced from the spares (H3):
// 6 x 170 cuts.
using ZonedCase = std::tuple<std::uint32_t, bool>;  // depth, appends

class ZonedPowerCuts : public ::testing::TestWithParam<ZonedCase> {};

TEST_P(ZonedPowerCuts, LoseNoAcknowledgedWriteNorBringAResetZoneBack) {
  const auto& [depth, append] = GetParam();
  const DeviceConfig config =
      load_config(std::string(SSDLAB_SOURCE_DIR) + "/configs/tiny.toml",
                  {"ftl.type=\"zoned\"", "ftl.zone_width=2", "ftl.overprovisioning=0.1",
                   "geometry.pe_cycles=6"});
  Ssd ssd(config);
  ssd.enable_power_cuts();
  const testing_power::CutTotals totals = testing_power::run_with_cuts(
      ssd,
      std::string("SW:zones_open=3,io_size=16384,count=6000,zone_finish_at=0.9,zone_append=") +
          (append ? "true" : "false") + ",queue_depth=" + std::to_string(depth),
      170, 51);
  EXPECT_EQ(totals.recovered, 170u);
  EXPECT_EQ(totals.lost, 0u);
  EXPECT_GT(ssd.ftl().zoned()->zone_counters().resets, 0u);
  EXPECT_GT(ssd.ftl().zoned()->zone_counters().blocks_replaced, 0u);  // (H3's case)
}

INSTANTIATE_TEST_SUITE_P(PowerCut, ZonedPowerCuts,
                         ::testing::Combine(::testing::Values(1u, 4u, 8u), ::testing::Bool()));

}  // namespace
}  // namespace ssdlab::sim
