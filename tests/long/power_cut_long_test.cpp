// Issue 13's figure: power cuts at 1,000 random points for every FTL, with
// zero lost acknowledged writes (README "Power loss and recovery").
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/state/power_cut_plan.h"
#include "sim/engine/simulator.h"
#include "sim/controller/ssd.h"
#include "power_cut_support.h"
#include "test_support.h"
#include "workloads/plan.h"

namespace ssdlab::sim {
namespace {

class ThousandCuts : public ::testing::TestWithParam<std::string> {};

// A parameter is an FTL, or (issue 26) "FTL scope granularity": a cleaning
// setting of a page-level FTL, or (issue 53) "page-mapped|dftl units
// [buffer|incremental]": 4 KiB map units in 16 KiB pages, packed by a
// power-protected write buffer or cleaned incrementally; a last word "tlc":
// on tiny-tlc (one-shot wordlines) rather than tiny.
TEST_P(ThousandCuts, LoseNoAcknowledgedWrite) {
  std::istringstream words(GetParam());
  std::string type, scope, granularity, cells;
  words >> type >> scope >> granularity >> cells;
  const bool example = type == "example";
  std::vector<std::string> overrides = {"ftl.type=\"" + type + "\""};
  if (scope == "units") {
    overrides.insert(overrides.end(), {"geometry.page_size=16KiB", "ftl.stripe_size=16KiB",
                                       "ftl.logical_page_size=4KiB"});
    if (granularity == "buffer")
      overrides.insert(overrides.end(), {"controller.write_buffer=131072",
                                         "controller.write_buffer_power_protected=true"});
    // Half a page of unit moves per page written: a victim's moves wait in
    // an open page between writes.
    if (granularity == "incremental")
      overrides.insert(overrides.end(),
                       {"ftl.clean_granularity=\"incremental\"", "ftl.clean_incremental_pages=2"});
  } else if (!scope.empty()) {
    overrides.push_back("ftl.clean_scope=\"" + scope + "\"");
    overrides.push_back("ftl.clean_granularity=\"" + granularity + "\"");
    // DFTL per plane needs more than tiny's 32 blocks per plane; and there a
    // plane's mark is its emergency floor (2 blocks), where incremental
    // cleaning would clean whole blocks.
    if (scope == "plane" && (type == "dftl" || granularity == "incremental"))
      overrides.push_back("geometry.blocks_per_plane=128");
  }
  const DeviceConfig config =
      load_config(std::string(SSDLAB_SOURCE_DIR) +
                      (cells == "tlc" ? "/configs/tiny-tlc.toml" : "/configs/tiny.toml"),
                  overrides);
  Ssd ssd(config);
  ssd.enable_power_cuts();
  if (!example) ssd.prefill(0, ssd.logical_bytes());  // cleaning and merges all along
  // The example FTL never cleans: few enough writes to fit its flash.
  const auto spec = workloads::parse_inline(example ? "RW:io_size=4096,count=1500,queue_depth=1"
                                                    : "RW:io_size=12288,count=20000,queue_depth=4")
                        .experiments.front();
  Simulator simulator(ssd, nullptr);
  simulator.plan_power_cuts(parse_power_cuts({"random:1000"}, spec.count, 1));
  simulator.run(spec, 0, 1);  // a lost write throws
  const testing_power::CutTotals totals = testing_power::totals_of(simulator);
  EXPECT_EQ(totals.cuts, 1000u);
  EXPECT_EQ(totals.recovered, 1000u);
  EXPECT_EQ(totals.lost, 0u);
  if (granularity == "buffer") {
    // Acknowledged from DRAM, written on hold-up energy (which also lets
    // every command in flight end): nothing torn, every write checked.
    EXPECT_EQ(totals.buffered_lost, 0u);
    EXPECT_GT(totals.hold_up, 0);
    EXPECT_GT(totals.checked, 0u);
  } else {
    EXPECT_GT(totals.torn, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(PowerCut, ThousandCuts,
                         ::testing::Values("page-mapped", "block-mapped", "bast", "fast", "example",
                                           "dftl"));

INSTANTIATE_TEST_SUITE_P(
    CleaningPowerCut, ThousandCuts,
    ::testing::Values("page-mapped pool one-victim", "page-mapped pool incremental",
                      "page-mapped plane until-mark", "page-mapped plane one-victim",
                      "page-mapped plane incremental", "dftl pool one-victim",
                      "dftl pool incremental", "dftl plane until-mark", "dftl plane one-victim",
                      "dftl plane incremental", "page-mapped pool incremental tlc",
                      "dftl pool incremental tlc"),
    ssdlab::testing::WordsParamName());

INSTANTIATE_TEST_SUITE_P(MapUnitPowerCut, ThousandCuts,
                         ::testing::Values("page-mapped units", "page-mapped units buffer",
                                           "page-mapped units incremental", "dftl units",
                                           "dftl units buffer", "dftl units incremental",
                                           "page-mapped units incremental tlc",
                                           "dftl units incremental tlc"),
                         ssdlab::testing::WordsParamName());

}  // namespace
}  // namespace ssdlab::sim
