// Power cuts with an SLC cache (issue 38): the page-mapped FTL and DFTL
// mount again from their OOB with SLC-mode blocks (kept by the cut) sealed
// into the cache in write order or open again, and lose no acknowledged
// write, whether a cut falls while host data sits in the cache, during a
// foreground fold or during idle folding; folded data is never mapped
// twice (the invariants after every mount).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "power_cut_support.h"
#include "sim/config/config.h"
#include "sim/controller/ssd.h"
#include "test_support.h"

namespace ssdlab::sim {
namespace {

using testing_power::CutTotals;
using testing_power::run_with_cuts;

// "FTL mode when_full", on the tiny TLC preset with a 4 MiB cache.
class SlcCacheCuts : public ::testing::TestWithParam<std::string> {};

TEST_P(SlcCacheCuts, RecoversEveryAcknowledgedWriteAfterRandomCuts) {
  std::istringstream words(GetParam());
  std::string ftl, mode, when_full;
  words >> ftl >> mode >> when_full;
  Ssd ssd(load_config(testing::preset("tiny-tlc"),
                      {"ftl.type=\"" + ftl + "\"", "slc_cache.mode=\"" + mode + "\"",
                       "slc_cache.size_gib=0.004", "slc_cache.when_full=\"" + when_full + "\""}));
  ssd.enable_power_cuts();
  ssd.prefill(0, ssd.logical_bytes() / 2);
  const CutTotals totals = run_with_cuts(ssd, "RW:io_size=12288,count=3000,queue_depth=4", 30, 9);
  EXPECT_EQ(totals.cuts, 30u);
  EXPECT_EQ(totals.recovered, 30u);
  EXPECT_EQ(totals.checked, 30 * ssd.ftl().logical_pages());
  const auto slc = ssd.ftl().part_records().slc_cache;
  ASSERT_TRUE(slc.has_value());
  EXPECT_GT(slc->host_pages_absorbed, 0u);
  EXPECT_GT(slc->blocks_folded, 0u);
  EXPECT_NO_THROW(ssd.ftl().check_invariants());
}

INSTANTIATE_TEST_SUITE_P(PowerCut, SlcCacheCuts,
                         ::testing::Values("page-mapped dynamic native",
                                           "page-mapped static fold", "dftl dynamic fold"),
                         ssdlab::testing::WordsParamName());

}  // namespace
}  // namespace ssdlab::sim
