// Host-guided placement with map units (docs/fdp.md, "Configuration"; issue
// 53 items 1 and 2): each handle's 4 KiB units fill flash pages of its own
// blocks, a mount after a power cut loses none of them, and a write buffer
// packs each pool's units (or one-shot wordlines' pages) per handle, so that
// two handles writing to the same dies do not each leave a page partly
// written (padded) at a flush.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "power_cut_support.h"
#include "run_support.h"
#include "sim/config/config.h"
#include "sim/controller/ssd.h"
#include "test_support.h"

namespace ssdlab::sim {
namespace {

// 4 KiB units in 16 KiB pages, two handles: the first 2 MiB of the logical
// space (512 units) on handle 1 ([[placement]]), the rest on handle 0.
std::vector<std::string> fdp_units(std::vector<std::string> more = {}) {
  std::vector<std::string> sets{"geometry.page_size=16KiB",
                                "ftl.stripe_size=16KiB",
                                "ftl.logical_page_size=4KiB",
                                "ftl.placement=\"fdp\"",
                                "ftl.fdp_handles=2",
                                "ftl.fdp_isolation=\"persistently\"",
                                "ftl.placement_map=[{offset=0, size=\"2MiB\", handle=1}]"};
  sets.insert(sets.end(), more.begin(), more.end());
  return sets;
}

class FdpMapUnitCuts : public ::testing::TestWithParam<std::string> {};

// Writes and trims (a fifth) of 4 KiB units. (With a protected write buffer
// that packs per pool and handle, a flush sends its runs group by group:
// the recorder takes them in that order.)
TEST_P(FdpMapUnitCuts, LoseNothingAndKeepEachHandlesUnitsInItsOwnBlocks) {
  std::istringstream words(GetParam());
  std::string preset, buffer;
  words >> preset >> buffer;
  Ssd ssd(load_config(testing::preset(preset),
                      buffer.empty()
                          ? fdp_units()
                          : fdp_units({"controller.write_buffer=131072",
                                       "controller.write_buffer_power_protected=true"})));
  ASSERT_EQ(ssd.core().map_units_per_page(), 4u);
  ssd.enable_power_cuts();
  ssd.prefill(0, ssd.logical_bytes());
  const testing_power::CutTotals totals = testing_power::run_with_cuts(
      ssd, "RW:io_size=4096,count=6000,queue_depth=4,trim_share=0.2", 30, 5);
  EXPECT_EQ(totals.recovered, 30u);
  EXPECT_EQ(totals.buffered_lost, 0u);
  EXPECT_EQ(totals.checked, 30 * ssd.ftl().logical_pages());
  EXPECT_NO_THROW(ssd.ftl().check_invariants());
  const auto fdp = ssd.ftl().part_records().fdp;
  ASSERT_TRUE(fdp.has_value());
  EXPECT_GT(fdp->handles[1].host_pages, 0u);
  EXPECT_GT(ssd.ftl().stats().blocks_cleaned, 0u);
  EXPECT_GT(ssd.ftl().stats().trimmed_pages, 0u);
  // Units, in the FTL's unit geometry: no block holds both handles' data.
  EXPECT_EQ(testing::blocks_mixing(ssd.ftl().nand(), ssd.ftl().nand().geometry(), 512), 0u);
}

INSTANTIATE_TEST_SUITE_P(PowerCut, FdpMapUnitCuts,
                         ::testing::Values("tiny", "tiny-tlc", "tiny-tlc buffered"),
                         ssdlab::testing::WordsParamName());

// Two tenants, each on its own handle, behind a write buffer that packs
// (tiny-tlc: one-shot wordlines of three pages, two pools of four planes):
// each pool's pages pack per handle into whole wordlines, as they do with
// one handle, and a flush writes each pool and handle's in one stretch.
// Packed by pool alone (before), a flush left both handles' wordlines of a
// pool partly written and padded them: 5,756 pages of padding for 12,000
// written without map units, against 12 with one handle. With map units a
// chunk of a pool and handle is 48 units: a 4 MiB buffer holds them.
TEST(FdpPacking, ABufferPacksEachPoolsPagesPerHandle) {
  const auto dir = testing::temp_dir_for_this_test("fdp-packing-");
  const auto padding = [&](const std::string& name, std::vector<std::string> sets,
                           const std::string& second_id) {
    auto options = testing::sim_options("", sets);
    options.verify = true;
    const auto result = testing::in_process_with_stderr([&](std::ostream& out) {
      testing::sim_preset("tiny-tlc", dir / name, options,
                          {"RW:io_size=4096,count=6000,placement_id=1,name=a",
                           "RW:io_size=4096,count=6000,placement_id=" + second_id + ",name=b"},
                          {}, out);
    });
    EXPECT_EQ(result.exit_code, 0) << result.output;
    EXPECT_NE(result.output.find("all correct"), std::string::npos) << result.output;
    const nlohmann::json summary = testing::summary_of(dir / name);
    EXPECT_GT(summary["device"]["write_buffer_flushes"].get<std::uint64_t>(), 10u) << name;
    return summary["device"]["padding_pages"].get<std::uint64_t>();
  };
  const std::vector<std::string> fdp = {"ftl.placement=\"fdp\"", "ftl.fdp_handles=2"};
  auto pages = fdp, units = fdp;
  pages.push_back("controller.write_buffer=1MiB");
  units.insert(units.end(), {"geometry.page_size=16KiB", "ftl.stripe_size=16KiB",
                             "ftl.logical_page_size=4KiB", "controller.write_buffer=4MiB"});
  for (const auto& [name, sets] :
       {std::pair{std::string("pages"), pages}, std::pair{std::string("units"), units}}) {
    const std::uint64_t one = padding(name + "-one", sets, "1");
    const std::uint64_t two = padding(name + "-two", sets, "0");
    EXPECT_LE(two, one + 50) << name << ": one handle pads " << one;
  }
}

}  // namespace
}  // namespace ssdlab::sim
