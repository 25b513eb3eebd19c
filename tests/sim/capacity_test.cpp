// The spare a config leaves in fact beside its nominal over-provisioning
// (sim/config/capacity.h): the exported capacity is capped by the
// cleaning reserve, and open and kept-free blocks hold no superseded data.
// Expectations follow from the page-mapped FTL's rules and the geometry.
#include "sim/config/capacity.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ftl/ftl.h"
#include "run_support.h"
#include "sim/config/config.h"
#include "test_support.h"

namespace ssdlab {
namespace {

// The page-mapped FTL's exported pages (ftl/page_mapped/page_mapped.cpp): the lesser of
// the pages after over-provisioning and the blocks left after the cleaning
// reserve (per pool: the low-water blocks, two open blocks per plane, one
// more), in whole stripes over the pools. 4 KiB logical pages and stripes.
struct Expected {
  std::uint64_t logical_pages, open_blocks, kept_free;
};
Expected expected_for(const sim::DeviceConfig& c, std::uint32_t pools) {
  const auto& g = c.geometry;
  const std::uint32_t pool_blocks = g.blocks() / pools;
  const auto low_water = std::max<std::uint64_t>(
      2, static_cast<std::uint64_t>(std::ceil(c.ftl.clean_low_water * pool_blocks)));
  const std::uint64_t planes_per_pool = g.planes() / pools;
  const std::uint64_t reserve = pools * (low_water + 2 * planes_per_pool + 1);
  const auto usable =
      static_cast<std::uint64_t>(static_cast<double>(g.pages()) * (1.0 - c.ftl.overprovisioning));
  const std::uint64_t workable = (g.blocks() - reserve) * g.pages_per_block;
  return {std::min(usable, workable) / pools * pools, std::uint64_t{g.planes()} * 2,
          low_water * pools};
}

TEST(SpareCapacity, TinyAtSevenPercentIsCappedByTheCleaningReserve) {
  const auto config = sim::load_config(testing::preset("tiny"), {"ftl.overprovisioning=0.07"});
  const auto ftl = ftl::make_ftl({config.geometry, config.ftl, 0});
  const auto spare = sim::spare_capacity(config, *ftl);
  const auto& g = config.geometry;
  const Expected e = expected_for(config, 2);  // pools: one per package
  ASSERT_EQ(ftl->logical_pages(), e.logical_pages);
  const double pages = static_cast<double>(g.pages());
  EXPECT_DOUBLE_EQ(spare.nominal, 0.07);
  EXPECT_DOUBLE_EQ(spare.effective(), 1.0 - static_cast<double>(e.logical_pages) / pages);
  EXPECT_GT(spare.effective(), spare.nominal);  // the reserve, not 7%, set the capacity
  EXPECT_EQ(spare.open_blocks, e.open_blocks);
  EXPECT_EQ(spare.kept_free_blocks, e.kept_free);
  const double block = g.pages_per_block;
  EXPECT_DOUBLE_EQ(spare.less_open_blocks(),
                   (pages - static_cast<double>(e.logical_pages) - e.open_blocks * block) / pages);
  EXPECT_DOUBLE_EQ(
      spare.less_open_and_free_blocks(),
      (pages - static_cast<double>(e.logical_pages) - (e.open_blocks + e.kept_free) * block) /
          pages);
}

// However small the over-provisioning, the blocks the FTL keeps open (DFTL's
// translation block and the SLC cache's block per plane among them) and
// those cleaning keeps free fit beside the exported capacity. When they did
// not, the sealed blocks could not hold the data, cleaning never got back to
// its mark, and DFTL with map units on the TLC preset at a fortieth ran out
// of memory (a run of it: MapUnitCleaningDftl).
TEST(SpareCapacity, TheOpenAndKeptFreeBlocksFitBesideTheExportedCapacity) {
  const std::vector<std::string> slc = {"slc_cache.mode=\"dynamic\"", "slc_cache.size_gib=0.02",
                                        "slc_cache.static_gib=0.004"};
  const std::vector<std::string> units = {"geometry.page_size=16KiB", "ftl.stripe_size=16KiB",
                                          "ftl.logical_page_size=4KiB"};
  for (const std::string type : {"page-mapped", "dftl"})
    for (const bool cache : {false, true})
      for (const bool map_units : {false, true}) {
        std::vector<std::string> sets = {"ftl.type=" + type, "ftl.overprovisioning=0.02"};
        if (cache) sets.insert(sets.end(), slc.begin(), slc.end());
        if (map_units) sets.insert(sets.end(), units.begin(), units.end());
        const auto config = sim::load_config(testing::preset("tiny-tlc"), sets);
        const auto ftl = ftl::make_ftl({config.geometry, config.ftl, 0});
        const auto spare = sim::spare_capacity(config, *ftl);
        EXPECT_GE(spare.less_open_and_free_blocks(), 0.0)
            << type << (cache ? ", SLC cache" : "") << (map_units ? ", map units" : "") << ": "
            << spare.open_blocks << " open and " << spare.kept_free_blocks << " kept free";
      }
}

TEST(SpareCapacity, ConfigPrintsTheEffectiveFiguresBesideTheNominalOne) {
  const auto config = sim::load_config(testing::preset("tiny"), {"ftl.overprovisioning=0.07"});
  const auto ftl = ftl::make_ftl({config.geometry, config.ftl, 0});
  const auto spare = sim::spare_capacity(config, *ftl);
  const std::string printed = testing::config_text("tiny", {"ftl.overprovisioning=0.07"});
  const std::string line = fmt::format(
      "7.0% nominal (ftl.overprovisioning); {:.1f}% in fact beyond the exported capacity, {:.1f}% "
      "less the {} open blocks, {:.1f}% less also the {} free blocks cleaning keeps",
      spare.effective() * 100, spare.less_open_blocks() * 100, spare.open_blocks,
      spare.less_open_and_free_blocks() * 100, spare.kept_free_blocks);
  EXPECT_NE(printed.find(line), std::string::npos) << printed;
}

TEST(SpareCapacity, SummaryEchoesItAndTheEchoStillLoadsAsAConfig) {
  const auto dir = testing::temp_dir_for_this_test("capacity");
  auto options = testing::sim_options("RW:io_size=4096,count=100");
  options.io_log = false;
  const auto summary = testing::summary_of(testing::run_tiny(dir, "run", options));
  const auto config = sim::load_config(testing::preset("tiny"));
  const auto ftl = ftl::make_ftl({config.geometry, config.ftl, 0});
  const auto& capacity = summary["config"]["capacity"];
  EXPECT_EQ(capacity["logical_bytes"].get<std::uint64_t>(),
            ftl->logical_pages() * config.ftl.logical_page_size);
  EXPECT_EQ(capacity["physical_bytes"].get<std::uint64_t>(), config.geometry.capacity_bytes());
  EXPECT_DOUBLE_EQ(capacity["overprovisioning_nominal"].get<double>(), config.ftl.overprovisioning);
  EXPECT_DOUBLE_EQ(capacity["overprovisioning_effective"].get<double>(),
                   sim::spare_capacity(config, *ftl).effective());
  EXPECT_EQ(capacity["open_blocks"].get<std::uint64_t>(), config.geometry.planes() * 2u);
  const auto loaded = sim::config_from_json(summary["config"], "summary.json");
  EXPECT_DOUBLE_EQ(loaded.ftl.overprovisioning, config.ftl.overprovisioning);
}

}  // namespace
}  // namespace ssdlab
