// The cleaning keys (ftl.clean_scope, ftl.clean_granularity,
// ftl.clean_incremental_pages; issue 26): read and echoed, refused with the
// key and its origin where they do not apply, and the presets say theirs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/error.h"
#include "ftl/page_mapped/page_mapped_keys.h"
#include "sim/config/config.h"
#include "test_support.h"

namespace {

namespace support = ssdlab::testing;
using ssdlab::ftl::CleanGranularity;
using ssdlab::ftl::CleanScope;
using ::testing::HasSubstr;
using ::testing::StartsWith;

const ssdlab::ftl::PageMappedKeys& keys(const ssdlab::sim::DeviceConfig& config) {
  return config.ftl.keys.get<ssdlab::ftl::PageMappedKeys>();
}

TEST(CleanConfig, PresetsFollowTheirModel) {
  // Agrawal et al.'s model: per plane, one victim per trigger.
  for (const char* name : {"agrawal-baseline", "agrawal-1tib", "agrawal-gang8-shared-bus"}) {
    const auto config = support::load_preset(name);
    EXPECT_EQ(keys(config).clean_scope, CleanScope::kPlane) << name;
    EXPECT_EQ(keys(config).clean_granularity, CleanGranularity::kOneVictim) << name;
  }
  for (const char* name : {"tiny", "dftl"}) {
    const auto config = support::load_preset(name);
    EXPECT_EQ(keys(config).clean_scope, CleanScope::kPool) << name;
    EXPECT_EQ(keys(config).clean_granularity, CleanGranularity::kUntilMark) << name;
  }
  // The block FTLs take one-victim only, and echo it.
  for (const char* name : {"bast-ssd", "fast-ssd", "usb-stick"})
    EXPECT_EQ(ssdlab::sim::to_json(support::load_preset(name))["ftl"]["clean_granularity"],
              "one-victim")
        << name;
}

TEST(CleanConfig, ReadsTheIncrementalBudget) {
  const auto config = ssdlab::sim::load_config(
      support::preset("tiny"),
      {"ftl.clean_granularity=\"incremental\"", "ftl.clean_incremental_pages=3"});
  EXPECT_EQ(keys(config).clean_granularity, CleanGranularity::kIncremental);
  EXPECT_EQ(keys(config).clean_incremental_pages, 3u);
}

TEST(CleanConfig, RefusesUnknownValuesNamingTheKey) {
  EXPECT_THAT(support::preset_error("tiny", {"ftl.clean_scope=\"die\""}),
              AllOf(StartsWith("--set ftl.clean_scope=\"die\": ftl.clean_scope: 'die'"),
                    HasSubstr("pool, plane")));
  EXPECT_THAT(support::preset_error("tiny", {"ftl.clean_granularity=\"lazy\""}),
              AllOf(StartsWith("--set ftl.clean_granularity=\"lazy\": ftl.clean_granularity:"),
                    HasSubstr("until-mark, one-victim, incremental")));
  EXPECT_THAT(support::preset_error("tiny", {"ftl.clean_granularity=\"incremental\"",
                                "ftl.clean_incremental_pages=0"}),
              HasSubstr("ftl.clean_incremental_pages: 0 is out of range"));
}

TEST(CleanConfig, RefusesTheBudgetWithoutIncrementalCleaning) {
  EXPECT_THAT(support::preset_error("tiny", {"ftl.clean_incremental_pages=2"}),
              HasSubstr("ftl.clean_incremental_pages: only clean_granularity = \"incremental\""));
}

TEST(CleanConfig, MovesInTurnGoThroughTheControllerInThePoolScope) {
  const auto config = ssdlab::sim::load_config(support::preset("tiny"),
                                               {"ftl.copy_back=false", "ftl.move_plane=\"turn\""});
  EXPECT_EQ(keys(config).move_plane, ssdlab::ftl::MovePlane::kTurn);
  EXPECT_EQ(ssdlab::sim::to_json(config)["ftl"]["move_plane"], "turn");
  // The default is not echoed: an echo from before the key loads back the same.
  EXPECT_FALSE(ssdlab::sim::to_json(support::load_preset("tiny"))["ftl"].contains("move_plane"));
  EXPECT_THAT(support::preset_error("tiny", {"ftl.move_plane=\"turn\""}),
              AllOf(StartsWith("--set ftl.move_plane=\"turn\": ftl.move_plane:"),
                    HasSubstr("set copy_back = false")));
  EXPECT_THAT(support::preset_error("tiny", {"ftl.copy_back=false", "ftl.clean_scope=\"plane\"",
                                             "ftl.move_plane=\"turn\""}),
              HasSubstr("set clean_scope = \"pool\""));
  EXPECT_THAT(support::preset_error("tiny", {"ftl.move_plane=\"die\""}),
              HasSubstr("'die' is not a move plane (allowed: victim, turn)"));
  EXPECT_THAT(support::preset_error("bast-ssd", {"ftl.move_plane=\"turn\""}),
              HasSubstr("ftl.move_plane: only the page-mapped and dftl FTLs use it"));
}

TEST(CleanConfig, BlockBasedFtlsRefuseWhatTheyCannotDoNamingFileAndKey) {
  for (const char* preset : {"bast-ssd", "fast-ssd", "usb-stick"}) {
    SCOPED_TRACE(preset);
    EXPECT_THAT(support::preset_error(preset, {"ftl.clean_scope=\"plane\""}),
                AllOf(StartsWith("--set ftl.clean_scope=\"plane\": ftl.clean_scope: only the "
                                 "page-mapped and dftl FTLs use it"),
                      HasSubstr("merges one logical block at a time")));
    EXPECT_THAT(support::preset_error(preset, {"ftl.clean_granularity=\"until-mark\""}),
                HasSubstr("takes only \"one-victim\""));
  }
  // A key in the file is named with the file and its line.
  const auto dir = support::temp_dir_for_this_test("clean-config-");
  const std::string path =
      support::write_file(dir / "device.toml",
                          "[ftl]\ntype = \"bast\"\nclean_granularity = \"incremental\"\n")
          .string();
  try {
    ssdlab::sim::load_config(path);
    ADD_FAILURE() << path << " loaded";
  } catch (const ssdlab::Error& error) {
    EXPECT_THAT(error.what(), StartsWith(path + ":3: ftl.clean_granularity: 'bast'"));
  }
}

}  // namespace
