// --set overrides of device configs (sim/config/config.h): a later one
// wins, and a bad one gives one ssdlab::Error naming the override, not a
// file line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "common/error.h"
#include "config_fixture.h"
#include "sim/config/config.h"
#include "test_support.h"

namespace {

namespace support = ssdlab::testing;
using ssdlab::testing::ConfigTest;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

TEST_F(ConfigTest, SetOverrideChangesTheReadTime) {
  const auto config = ssdlab::sim::load_config(support::preset("tiny"), {"timing.read_us=30"});
  EXPECT_EQ(config.timing.read_ns, 30'000);
  EXPECT_EQ(config.timing.program_ns, 200'000);
}

TEST_F(ConfigTest, SetOverrideTakesABareWordAsAString) {
  const auto config =
      ssdlab::sim::load_config(support::preset("tiny"), {"ftl.allocation_pool=die"});
  EXPECT_EQ(config.ftl.pool, ssdlab::ftl::PoolScope::kDie);
}

TEST_F(ConfigTest, LaterSetOverrideWins) {
  const auto config = ssdlab::sim::load_config(
      support::preset("tiny"), {"geometry.blocks_per_plane=8", "geometry.blocks_per_plane=64"});
  EXPECT_EQ(config.geometry.blocks_per_plane, 64u);
}

TEST_F(ConfigTest, SetOverrideOutOfRangeNamesTheOverride) {
  EXPECT_THAT(ErrorOf(support::preset("tiny"), {"timing.read_us=-1"}),
              AllOf(StartsWith("--set timing.read_us=-1: timing.read_us: "),
                    HasSubstr("allowed above 0 to 1000000")));
}

TEST_F(ConfigTest, SetOverrideWithTheWrongTypeNamesTheOverride) {
  EXPECT_EQ(ErrorOf(support::preset("tiny"), {"geometry.channels=eight"}),
            "--set geometry.channels=eight: geometry.channels: expected an integer between 1 "
            "and 1024");
}

TEST_F(ConfigTest, SetOverrideWithoutAnEqualsSignIsRejected) {
  EXPECT_EQ(ErrorOf(support::preset("tiny"), {"timing.read_us"}),
            "--set timing.read_us: expected table.key=value, e.g. timing.read_us=30");
}

TEST_F(ConfigTest, SetOverrideWithoutATableIsRejected) {
  EXPECT_THAT(ErrorOf(support::preset("tiny"), {"channels=2"}),
              StartsWith("--set channels=2: expected table.key=value"));
}

TEST_F(ConfigTest, SetOverrideThatIsNotTomlIsRejected) {
  EXPECT_THAT(ErrorOf(support::preset("tiny"), {"ftl.type=a\"b"}),
              StartsWith("--set ftl.type=a\"b: the value is not TOML: "));
}

TEST_F(ConfigTest, SetOverrideOfAnUnknownKeyNamesTheOverride) {
  EXPECT_THAT(
      ErrorOf(support::preset("tiny"), {"geometry.chanels=1"}),
      AllOf(StartsWith("--set geometry.chanels=1: "), HasSubstr("unknown key 'geometry.chanels'")));
}

TEST_F(ConfigTest, SetOverrideOfAnUnknownTableNamesTheOverride) {
  // The table exists only because of --set: there is no line of the file to
  // point at (today the message says "tiny.toml:0:").
  EXPECT_THAT(ErrorOf(support::preset("tiny"), {"gometry.channels=2"}),
              AllOf(StartsWith("--set gometry.channels=2: "), HasSubstr("unknown table 'gometry'"),
                    Not(HasSubstr(":0:"))));
}

TEST_F(ConfigTest, SetOverrideThatBreaksACrossCheckNamesTheOverride) {
  EXPECT_EQ(ErrorOf(support::preset("tiny"), {"ftl.stripe_size=6144"}),
            "--set ftl.stripe_size=6144: ftl.stripe_size: 6144 is not a multiple of "
            "logical_page_size 4096");
}

}  // namespace
