// Power cuts with every cleaning scope and granularity (issue 26): the
// page-level FTLs mount again from their OOB and lose no acknowledged write,
// whether a cut falls in a burst of victims, between one-victim triggers or
// with an incremental victim half moved (it is sealed again at mount).
#include <gtest/gtest.h>

#include <algorithm>
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

// "FTL scope granularity".
class EveryCleaning : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryCleaning, RecoversEveryAcknowledgedWriteAfterRandomCuts) {
  std::istringstream words(GetParam());
  std::string ftl, scope, granularity;
  words >> ftl >> scope >> granularity;
  // DFTL per plane needs more than tiny's 32 blocks per plane beside its
  // third active block per plane; and there a plane's mark is its emergency
  // floor (2 blocks), where incremental cleaning would clean whole blocks.
  std::vector<std::string> overrides = {"ftl.type=\"" + ftl + "\"",
                                        "ftl.clean_scope=\"" + scope + "\"",
                                        "ftl.clean_granularity=\"" + granularity + "\""};
  if (scope == "plane" && (ftl == "dftl" || granularity == "incremental"))
    overrides.push_back("geometry.blocks_per_plane=128");
  Ssd ssd(load_config(testing::preset("tiny"), overrides));
  ssd.enable_power_cuts();
  ssd.prefill(0, ssd.logical_bytes());  // cleaning from the start
  const CutTotals totals = run_with_cuts(ssd, "RW:io_size=12288,count=3000,queue_depth=4", 40, 5);
  EXPECT_EQ(totals.cuts, 40u);
  EXPECT_EQ(totals.recovered, 40u);
  EXPECT_EQ(totals.checked, 40 * ssd.ftl().logical_pages());
  EXPECT_GT(ssd.ftl().stats().erases, 0u);
  EXPECT_GT(totals.erases_undone, 0u);
  EXPECT_NO_THROW(ssd.ftl().check_invariants());
}

INSTANTIATE_TEST_SUITE_P(
    PowerCut, EveryCleaning,
    ::testing::Values("page-mapped pool until-mark", "page-mapped pool one-victim",
                      "page-mapped pool incremental", "page-mapped plane until-mark",
                      "page-mapped plane one-victim", "page-mapped plane incremental",
                      "dftl pool one-victim", "dftl plane until-mark", "dftl plane incremental"),
    ssdlab::testing::WordsParamName());

}  // namespace
}  // namespace ssdlab::sim
