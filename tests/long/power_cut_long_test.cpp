// Issue 13's figure: power cuts at 1,000 random points for every FTL, with
// zero lost acknowledged writes (README "Power loss and recovery").
#include <gtest/gtest.h>

#include "sim/controller/config.h"
#include "sim/state/power_cut_plan.h"
#include "sim/engine/simulator.h"
#include "sim/controller/ssd.h"
#include "workloads/plan.h"

namespace ssdlab::sim {
namespace {

class ThousandCuts : public ::testing::TestWithParam<std::string> {};

TEST_P(ThousandCuts, LoseNoAcknowledgedWrite) {
  const bool example = GetParam() == "example";
  const DeviceConfig config = load_config(std::string(SSDLAB_SOURCE_DIR) + "/configs/tiny.toml",
                                          {"ftl.type=\"" + GetParam() + "\""});
  Ssd ssd(config, false);
  ssd.enable_power_cuts();
  if (!example) ssd.prefill(0, ssd.logical_bytes());  // cleaning and merges all along
  // The example FTL never cleans: few enough writes to fit its flash.
  const auto spec = workloads::parse_inline(example ? "RW:io_size=4096,count=1500,queue_depth=1"
                                                    : "RW:io_size=12288,count=20000,queue_depth=4")
                        .experiments.front();
  Simulator simulator(ssd, nullptr);
  simulator.plan_power_cuts(parse_power_cuts({"random:1000"}, spec.count, 1));
  simulator.run(spec, 0, 1);  // a lost write throws
  std::uint64_t recovered = 0, lost = 0, torn = 0;
  for (const PowerCutReport& cut : simulator.power_cuts()) {
    recovered += cut.recovered();
    lost += cut.lost_writes + cut.resurrected_pages;
    torn += cut.torn_pages;
  }
  EXPECT_EQ(simulator.power_cuts().size(), 1000u);
  EXPECT_EQ(recovered, 1000u);
  EXPECT_EQ(lost, 0u);
  EXPECT_GT(torn, 0u);
}

INSTANTIATE_TEST_SUITE_P(PowerCut, ThousandCuts,
                         ::testing::Values("page-mapped", "block-mapped", "bast", "fast", "example",
                                           "dftl"));

}  // namespace
}  // namespace ssdlab::sim
