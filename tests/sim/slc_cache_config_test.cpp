// The [slc_cache] table of the device config: the keys, the errors that
// name them (an FTL without a cache, cells of one bit, no size, a static part
// where there is none), the echo read back, and the summary's slc_cache block
// of a real run.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "config_fixture.h"
#include "sim/config/config.h"
#include "sim/controller/ssd.h"
#include "sim/state/checkpoint.h"
#include "test_support.h"

namespace ssdlab {
namespace {

using ::testing::HasSubstr;
using testing::ConfigTest;

constexpr const char* kTlcWithCache = R"([geometry]
pages_per_block = 48
cell_type = "tlc"

[slc_cache]
mode = "dynamic"
size_gib = 0.004
static_gib = 0.001
size_by_fill = [[0.0, 0.004], [0.5, 0.002], [0.9, 0.001]]
when_full = "fold"
fold_order = "greedy"
idle_fold = false
)";

TEST_F(ConfigTest, SlcCacheKeysAreReadAndEchoed) {
  const auto config = sim::load_config(Write(kTlcWithCache));
  const ftl::SlcCacheConfig& c = config.ftl.slc_cache;
  EXPECT_EQ(c.mode, ftl::SlcCacheMode::kDynamic);
  EXPECT_DOUBLE_EQ(c.size_gib, 0.004);
  EXPECT_DOUBLE_EQ(c.static_gib, 0.001);
  ASSERT_EQ(c.size_by_fill.size(), 3u);
  EXPECT_DOUBLE_EQ(c.size_at_fill(0.0), 0.004);
  EXPECT_DOUBLE_EQ(c.size_at_fill(0.25), 0.003);  // linear between points
  EXPECT_DOUBLE_EQ(c.size_at_fill(0.95), 0.001);  // flat beyond the last
  EXPECT_EQ(c.when_full, ftl::SlcWhenFull::kFold);
  EXPECT_EQ(c.fold_order, ftl::SlcFoldOrder::kGreedy);
  EXPECT_FALSE(c.idle_fold);
  EXPECT_EQ(c.bits_per_cell, 3u);
  const nlohmann::json echo = sim::to_json(config);
  EXPECT_EQ(echo["slc_cache"]["mode"], "dynamic");
  const auto back = sim::config_from_json(echo, "echo");
  nlohmann::json again = sim::to_json(back);
  again["source"] = echo["source"];
  EXPECT_EQ(again, echo);
  // Without a cache the echo has no [slc_cache] (as before the cache).
  EXPECT_FALSE(sim::to_json(sim::load_config(Write("[geometry]\n"))).contains("slc_cache"));
}

TEST_F(ConfigTest, SlcCacheErrorsNameTheKey) {
  const auto error = [this](const std::string& text) { return ErrorOf(Write(text)); };
  const std::string tlc = "[geometry]\npages_per_block = 48\ncell_type = \"tlc\"\n";
  const std::string dynamic = tlc + "[slc_cache]\nmode = \"dynamic\"\nsize_gib = 0.004\n";
  EXPECT_THAT(error(dynamic + "size_by_fill = [[0.5, 0.002], [0.25, 0.001]]\n"),
              HasSubstr("slc_cache.size_by_fill: fill 0.25 is not between 0 and 1 and above the "
                        "point before it"));
  EXPECT_THAT(error(dynamic + "size_by_fill = [[0.5]]\n"),
              HasSubstr("slc_cache.size_by_fill: each point is [fill, GiB]"));
  EXPECT_THAT(error(dynamic + "static_gib = 0.002\nsize_by_fill = [[0.0, 0.001]]\n"),
              HasSubstr("slc_cache.size_by_fill: 0.001 GiB at fill 0 is below static_gib = 0.002"));
  EXPECT_THAT(error(tlc + "[slc_cache]\nmode = \"static\"\nsize_gib = 0.004\nsize_by_fill = "
                          "[[0.0, 0.004]]\n"),
              HasSubstr("slc_cache.size_by_fill: only a dynamic cache has a size by fill"));
  EXPECT_THAT(error(tlc + "[ftl]\ntype = \"bast\"\n[slc_cache]\nmode = \"static\"\nsize_gib = 0.004\n"),
              HasSubstr("slc_cache.mode: the bast FTL has no SLC cache (FTLs with one: "
                        "page-mapped, dftl)"));
  EXPECT_THAT(error("[slc_cache]\nmode = \"dynamic\"\nsize_gib = 0.004\n"),
              HasSubstr("slc_cache.mode: an SLC cache needs cells of several bits"));
  EXPECT_THAT(error(tlc + "[slc_cache]\nmode = \"dynamic\"\n"),
              HasSubstr("slc_cache.size_gib: an SLC cache needs a size above 0 GiB"));
  EXPECT_THAT(error(tlc + "[slc_cache]\nmode = \"static\"\nsize_gib = 1\nstatic_gib = 0.5\n"),
              HasSubstr("slc_cache.static_gib: only a dynamic cache has a static part"));
  EXPECT_THAT(error(tlc + "[slc_cache]\nmode = \"big\"\n"),
              HasSubstr("slc_cache.mode: 'big' is not an SLC cache mode"));
  EXPECT_THAT(error(tlc + "[slc_cache]\nsize = 1\n"), HasSubstr("slc_cache.size"));
}

// A checkpoint of a device with an SLC cache loads only into a device with
// the same cache mode and size (they shape the state); its policies may
// differ (a warning lists them).
TEST_F(ConfigTest, ACheckpointLoadsOnlyIntoTheSameCache) {
  const std::string path = Write(kTlcWithCache);
  sim::Ssd saved(sim::load_config(path));
  const std::string state = path + ".ckpt";
  sim::save_checkpoint(state, saved, sim::RunPosition{}, {.saved_after = "test"});
  sim::RunPosition position;
  sim::Ssd other_policy(sim::load_config(path, {"slc_cache.when_full=\"native\""}));
  EXPECT_EQ(sim::load_checkpoint(state, other_policy, position).config_differs,
            std::vector<std::string>{"slc_cache.when_full"});
  sim::Ssd no_cache(sim::load_config(path, {"slc_cache.mode=\"none\""}));
  EXPECT_THAT(testing::error_of([&] { sim::load_checkpoint(state, no_cache, position); }),
              HasSubstr("was saved from a device with slc_cache.mode = \"dynamic\", but the "
                        "config has \"none\""));
  sim::Ssd smaller(sim::load_config(path, {"slc_cache.size_gib=0.002"}));
  EXPECT_THAT(testing::error_of([&] { sim::load_checkpoint(state, smaller, position); }),
              HasSubstr("slc_cache.size_gib = 0.004, but the config has 0.002"));
}

}  // namespace
}  // namespace ssdlab
