// The placement keys of the device config (ftl.placement, ftl.fdp_*,
// [[placement]]; docs/fdp.md): read, echoed and read back, refused with
// errors naming the key, absent from other configs' echoes, and a
// checkpoint with placement loading only into a device with it.
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

using testing::ConfigTest;
using ::testing::HasSubstr;

constexpr const char* kFdp = R"([ftl]
placement = "fdp"
fdp_handles = 3
fdp_isolation = "persistently"

[[placement]]
offset = "1MiB"
size = "2MiB"
handle = 2
)";

TEST_F(ConfigTest, PlacementKeysAreReadAndEchoed) {
  const auto config = sim::load_config(Write(kFdp));
  const ftl::PlacementConfig& p = config.ftl.placement;
  EXPECT_EQ(p.mode, ftl::PlacementMode::kFdp);
  EXPECT_EQ(p.handles, 3u);
  EXPECT_EQ(p.isolation, ftl::Isolation::kPersistently);
  ASSERT_EQ(p.ranges.size(), 1u);
  EXPECT_EQ(p.ranges[0], (ftl::PlacementConfig::Range{1 << 20, 2 << 20, 2}));
  const nlohmann::json echo = sim::to_json(config);
  EXPECT_EQ(echo["ftl"]["placement"], "fdp");
  const auto back = sim::config_from_json(echo, "echo");
  nlohmann::json again = sim::to_json(back);
  again["source"] = echo["source"];
  EXPECT_EQ(again, echo);
  // Without placement the echo has none of the keys (as before them).
  const nlohmann::json plain = sim::to_json(sim::load_config(Write("[geometry]\n")));
  for (const char* key : {"placement", "fdp_handles", "fdp_isolation", "placement_map"})
    EXPECT_FALSE(plain["ftl"].contains(key)) << key;
}

TEST_F(ConfigTest, PlacementErrorsNameTheKey) {
  const auto error = [this](const std::string& text) { return ErrorOf(Write(text)); };
  EXPECT_THAT(error("[ftl]\nplacement = \"zones\"\n"),
              HasSubstr("ftl.placement: 'zones' is not a placement mode"));
  EXPECT_THAT(error("[ftl]\nfdp_handles = 2\n"),
              HasSubstr("ftl.fdp_handles: only ftl.placement = \"fdp\" or \"streams\" uses it"));
  EXPECT_THAT(error("[ftl]\nplacement = \"fdp\"\nfdp_handles = 9\n"), HasSubstr("ftl.fdp_handles"));
  EXPECT_THAT(error("[ftl]\nplacement = \"fdp\"\nfdp_ru_size = \"1MiB\"\n"),
              HasSubstr("ftl.fdp_ru_size: a reclaim unit is one block on each plane of a reclaim "
                        "group"));
  EXPECT_THAT(error("[ftl]\nplacement = \"fdp\"\nfdp_groups = 100000\n"),
              HasSubstr("ftl.fdp_groups: reclaim groups are the allocation pools"));
  EXPECT_THAT(error("[ftl]\nplacement = \"streams\"\nfdp_isolation = \"initially\"\n"),
              HasSubstr("ftl.fdp_isolation: streams have no reclaim groups or handle types"));
  EXPECT_THAT(error("[ftl]\nplacement = \"fdp\"\nfdp_handles = 2\n[[placement]]\nsize = 4096\n"
                    "handle = 2\n"),
              HasSubstr("ftl.placement_map[1].handle: the device has handles 0 to 1"));
  EXPECT_THAT(error("[[placement]]\nsize = 4096\nhandle = 0\n"),
              HasSubstr("a [[placement]] range needs ftl.placement"));
  EXPECT_THAT(
      error("[ftl]\nplacement = \"fdp\"\n[[placement]]\nsize = 1000\n"),
      HasSubstr("ftl.placement_map[1].size: not a whole number of 4096-byte logical pages"));
  EXPECT_THAT(error("[ftl]\ntype = \"bast\"\nplacement = \"fdp\"\n"), HasSubstr("ftl.placement"));
}

// ftl.fdp_reclaim (issue 56 item 1): whole reclaim units or blocks; echoed
// only when "unit", so that an echo from before loads the same.
TEST_F(ConfigTest, TheReclaimGrainIsReadEchoedAndChecked) {
  const auto config = sim::load_config(Write(std::string(kFdp) + ""));
  EXPECT_FALSE(config.ftl.placement.reclaim_units);
  EXPECT_FALSE(sim::to_json(config)["ftl"].contains("fdp_reclaim"));
  const std::string units = "[ftl]\nplacement = \"fdp\"\nfdp_reclaim = \"unit\"\n";
  const auto unit = sim::load_config(Write(units));
  EXPECT_TRUE(unit.ftl.placement.reclaim_units);
  const nlohmann::json echo = sim::to_json(unit);
  EXPECT_EQ(echo["ftl"]["fdp_reclaim"], "unit");
  EXPECT_TRUE(sim::config_from_json(echo, "echo").ftl.placement.reclaim_units);
  const auto error = [this](const std::string& text) { return ErrorOf(Write(text)); };
  EXPECT_THAT(error("[ftl]\nplacement = \"fdp\"\nfdp_reclaim = \"line\"\n"),
              HasSubstr("ftl.fdp_reclaim: 'line' is not what cleaning reclaims (allowed: block, "
                        "unit)"));
  EXPECT_THAT(error(units + "clean_scope = \"plane\"\n"),
              HasSubstr("ftl.fdp_reclaim: reclaim units span the planes of a reclaim group"));
  EXPECT_THAT(error(units + "victim_policy = \"fifo\"\n"),
              HasSubstr("ftl.fdp_reclaim: whole reclaim units are chosen greedily or by "
                        "cost-benefit, not by ftl.victim_policy = \"fifo\""));
  EXPECT_THAT(error("[ftl]\nfdp_reclaim = \"unit\"\n"),
              HasSubstr("ftl.fdp_reclaim: only ftl.placement = \"fdp\" or \"streams\" uses it"));
  EXPECT_THAT(error("[ftl]\nplacement = \"streams\"\nfdp_reclaim = \"unit\"\n"),
              HasSubstr("ftl.fdp_reclaim: streams have no reclaim groups"));
  EXPECT_THAT(error("[ftl]\nfdp_ru_time_limit = 5\n"),
              HasSubstr("ftl.fdp_ru_time_limit: only ftl.placement = \"fdp\" or \"streams\""));
  EXPECT_THAT(error("[ftl]\nplacement = \"streams\"\nfdp_ru_time_limit = 5\n"),
              HasSubstr("ftl.fdp_ru_time_limit: streams have no reclaim groups"));
  EXPECT_THAT(error("[ftl]\nplacement = \"fdp\"\nfdp_ru_time_limit = -1\n"),
              HasSubstr("ftl.fdp_ru_time_limit"));
}

TEST_F(ConfigTest, ACheckpointWithPlacementLoadsOnlyIntoPlacement) {
  const std::string path = Write(kFdp);
  sim::Ssd saved(sim::load_config(path));
  const std::string state = path + ".ckpt";
  sim::save_checkpoint(state, saved, sim::RunPosition{}, {.saved_after = "test"});
  sim::RunPosition position;
  sim::Ssd same(sim::load_config(path));
  EXPECT_NO_THROW(sim::load_checkpoint(state, same, position));
  sim::Ssd none(sim::load_config(Write("[geometry]\n")));
  EXPECT_THAT(testing::error_of([&] { sim::load_checkpoint(state, none, position); }),
              HasSubstr("ftl.placement = \"fdp\", but the config has none"));
}

}  // namespace
}  // namespace ssdlab
