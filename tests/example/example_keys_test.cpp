// The example FTL's own config keys (ftl/example_ftl.cpp: reserved_blocks,
// check_every_write), declared, checked, echoed and described by the FTL
// itself through its key hooks (ftl/ftl_keys.h).
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/error.h"
#include "ftl/ftl.h"
#include "sim/config/capacity.h"
#include "sim/config/config.h"
#include "test_support.h"

namespace {

namespace support = ssdlab::testing;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using namespace ssdlab;

sim::DeviceConfig Example(std::vector<std::string> overrides) {
  overrides.insert(overrides.begin(), "ftl.type=\"example\"");
  return sim::load_config(support::preset("tiny"), overrides);
}

TEST(ExampleKeys, AreReadAndEchoedWithTheirDefaults) {
  const nlohmann::json ftl = sim::to_json(Example({}))["ftl"];
  EXPECT_EQ(ftl["reserved_blocks"], 0);
  EXPECT_EQ(ftl["check_every_write"], false);
  // Keys only other FTLs take are not echoed for it.
  EXPECT_FALSE(ftl.contains("victim_policy"));
  EXPECT_FALSE(ftl.contains("log_blocks"));
}

TEST(ExampleKeys, EchoLoadsBackTheSame) {
  const auto config = Example({"ftl.reserved_blocks=3", "ftl.check_every_write=true"});
  const nlohmann::json echo = sim::to_json(config);
  EXPECT_EQ(echo["ftl"]["reserved_blocks"], 3);
  EXPECT_EQ(echo["ftl"]["check_every_write"], true);
  EXPECT_EQ(sim::to_json(sim::config_from_json(echo, "the echo"))["ftl"], echo["ftl"]);
}

TEST(ExampleKeys, RefusesAValueOutOfRangeNamingTheKeyAndRange) {
  const auto config = Example({});
  const std::uint32_t blocks = config.geometry.blocks_per_plane;
  EXPECT_THAT(support::preset_error("tiny", {"ftl.type=\"example\"",
                                             fmt::format("ftl.reserved_blocks={}", blocks)}),
              HasSubstr(fmt::format("ftl.reserved_blocks: {} is out of range: allowed 0 to {}",
                                    blocks, blocks - 1)));
  EXPECT_THAT(support::preset_error("tiny", {"ftl.type=\"example\"", "ftl.check_every_write=1"}),
              HasSubstr("ftl.check_every_write: expected true or false"));
}

TEST(ExampleKeys, OtherFtlsRefuseThemNamingTheFtlThatTakesThem) {
  EXPECT_THAT(support::preset_error("tiny", {"ftl.reserved_blocks=2"}),
              StartsWith("--set ftl.reserved_blocks=2: ftl.reserved_blocks: only the example "
                         "FTL uses it ('page-mapped' does not)"));
}

TEST(ExampleKeys, ReservedBlocksAreNeverWritten) {
  const auto config = Example({"ftl.reserved_blocks=2"});
  auto example = ftl::make_ftl({config.geometry, config.ftl, 0});
  ftl::CommandList out;
  std::uint64_t written = 0;
  try {
    for (;; ++written) {
      out.clear();
      example->write({0, 1, false, false}, out);
    }
  } catch (const Error&) {
  }
  const auto& g = config.geometry;
  EXPECT_EQ(written, g.pages() - std::uint64_t{2} * g.planes() * g.pages_per_block);
  EXPECT_NO_THROW(example->check_invariants());
}

TEST(ExampleKeys, CheckEveryWriteStillWritesAndTheConfigSaysSo) {
  const auto config = Example({"ftl.reserved_blocks=1", "ftl.check_every_write=true"});
  auto example = ftl::make_ftl({config.geometry, config.ftl, 0});
  ftl::CommandList out;
  for (ftl::Lpn lpn = 0; lpn < 100; ++lpn) example->write({lpn % 10, 1, false, false}, out);
  EXPECT_EQ(example->stats().flash_pages_written, 100u);
  EXPECT_THAT(sim::describe(config, sim::spare_capacity(config, *example)),
              HasSubstr("  example     1 reserved block per plane; invariants checked after "
                        "every write\n"));
}

}  // namespace
